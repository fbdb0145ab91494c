"""Properties of random hands: chips and cards conserved, views hide what they must, records
replay to the same hand, bots act legally, and illegal actions are refused without a trace.

Hands are dealt by a seeded :class:`~primero.engine.dealing.Dealer` and played by
:class:`~primero.bots.random.RandomBot` agents through their views, with random house
rules, 2 to 8 players and random (often tiny) stacks, so that all-ins, side pots, void
deals, refusals and deck exhaustion all happen.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections import Counter
from collections.abc import Callable
from enum import Enum
from typing import Literal, cast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from primero.bots.random import RandomBot
from primero.engine.actions import (
    Action,
    Bet,
    Call,
    Deal,
    Declare,
    Exchange,
    Fold,
    Raise,
    Vote,
    parse_action,
)
from primero.engine.cards import DECK, Card, CardError, parse_card
from primero.engine.dealing import Dealer
from primero.engine.errors import IllegalActionError
from primero.engine.hands import Category, HandValue
from primero.engine.history import dump_record, parse_record, record_of, replay
from primero.engine.rules import Rules
from primero.engine.state import DEALER, HandState, LegalActions, Phase
from primero.engine.views import SeatView, view
from tests import strategies
from tests.referee import Referee
from tests.strategies import random_rules, random_stacks

Agent = Callable[[SeatView], Action]

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hal")
VERBS = ("deal", "x", "b", "r", "c", "f", "y", "n", "dc")


# ---------------------------------------------------------------- random set-ups


# ---------------------------------------------------------------- oracles


def kind_of(action: Action) -> str:
    if isinstance(action, Deal):
        return "d"
    if isinstance(action, Exchange):
        return f"x{len(action.cards)}"
    if isinstance(action, Vote):
        return "y" if action.accept else "n"
    if isinstance(action, Declare):
        return "dc"
    return {Bet: "b", Raise: "r", Call: "c", Fold: "f"}[type(action)]


def random_action(rng: random.Random, state: HandState) -> Action:
    """An action that is often close to legal and often not."""
    n = state.n
    to_act = state.to_act
    seat = to_act if to_act is not None and to_act >= 0 and rng.random() < 0.7 else rng.randrange(n)
    verb = rng.choice(VERBS)
    if verb == "deal":
        due = state.deal_due()
        target = due[0] if due is not None and rng.random() < 0.7 else rng.randrange(n)
        count = due[1] if due is not None and rng.random() < 0.7 else rng.randint(1, 3)
        pool = state.stock() if rng.random() < 0.6 else list(DECK)
        if len(state.stock()) < count and rng.random() < 0.7:
            pool = state.stock() + state.discard_pile  # R8b near misses: stock cards left out
        if len(pool) < count:
            pool = list(DECK)
        return Deal(target, tuple(rng.sample(pool, count)))
    if verb == "x":
        held = list(state.hands[seat])
        k = rng.randint(0, 3)
        pool = held if rng.random() < 0.7 and len(held) >= k else list(DECK)
        return Exchange(seat, tuple(rng.sample(pool, min(k, len(pool)))))
    if verb in ("b", "r"):
        amount = rng.randint(0, 30)
        return Bet(seat, amount) if verb == "b" else Raise(seat, amount)
    if verb == "c":
        return Call(seat)
    if verb == "f":
        return Fold(seat)
    if verb in ("y", "n"):
        return Vote(seat, verb == "y")
    return Declare(seat, rng.choice(list(Category)))


def r8b_near_misses(state: HandState) -> list[Action]:
    """When the stock runs short of a due deal (R8b), deals that leave a stock card out
    and take reshuffled discards instead, and one that takes a just-thrown card."""
    due = state.deal_due()
    stock = state.stock()
    if due is None or not stock or len(stock) >= due[1]:
        return []
    seat, count = due
    probes: list[Action] = []
    discards = [c for c in state.discard_pile if c not in stock]
    cards = (stock[1:] + discards)[:count]  # the first stock card left out
    if len(cards) == count:
        probes.append(Deal(seat, tuple(cards)))
    if state.just_thrown:  # all the stock, then a card the seat has just thrown
        probes.append(Deal(seat, tuple((stock + list(state.just_thrown))[:count])))
    return probes


def cheap_snapshot(state: HandState) -> tuple[object, ...]:
    return (
        len(state.actions),
        tuple(state.stacks),
        tuple(state.contributed),
        tuple(state.round_bets),
        tuple(tuple(h) for h in state.hands),
        tuple(state.folded),
        tuple(state.declared),
        state.stock_count,
        tuple(state.discard_pile),
        state.legal_actions(),
        state.to_act,
        state.phase,
        state.cap,
        None if state.vote is None else (state.vote.index, state.vote.action),
        tuple(state.deals_due),
        state.current_bet,
    )


# ---------------------------------------------------------------- invariants


def check_chips(state: HandState) -> None:
    total = sum(state.starting_stacks)
    assert all(chips >= 0 for chips in state.stacks)
    if state.result is None:
        assert sum(state.stacks) + sum(state.contributed) == total
        assert sum(p.amount for p in state.pots()) == sum(state.contributed)
    else:
        assert sum(state.result.final_stacks) == total
        assert sum(state.result.net) == 0
        assert list(state.result.final_stacks) == state.stacks


DECK_IDS = [card.id for card in DECK]


def check_cards(state: HandState) -> None:
    stock = state.stock()
    pool: list[Card] = [*stock, *state.discard_pile, *state.dead]
    for hand in state.hands:
        pool.extend(hand)
    assert len(pool) == 40, f"{len(pool)} cards accounted for"
    assert sorted(card.id for card in pool) == DECK_IDS  # every card of the deck once
    assert state.stock_count == len(stock)


def card_or_none(word: str) -> Card | None:
    try:
        return parse_card(word)
    except CardError:
        return None


@functools.lru_cache(maxsize=1 << 16)
def cards_in_text(text: str) -> frozenset[Card]:
    """The cards named by the words of ``text`` (cached: views repeat their strings)."""
    return frozenset(card for card in map(card_or_none, text.split(" ")) if card is not None)


@functools.cache
def field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def cards_in(obj: object) -> set[Card]:
    """Every card an object holds, in fields, containers or card words of its strings."""
    found: set[Card] = set()
    todo = [obj]
    while todo:
        item = todo.pop()
        kind = type(item)
        if kind is int or kind is bool or item is None:  # the most common: no card
            continue
        if kind is str:
            found |= cards_in_text(cast(str, item))
        elif kind is tuple or kind is list:
            todo.extend(cast("tuple[object, ...]", item))
        elif isinstance(item, Card):
            found.add(item)
        elif isinstance(item, str):
            found |= cards_in_text(item)
        elif isinstance(item, HandValue):
            found.update(item.counting)
        elif isinstance(item, tuple | list):
            todo.extend(item)
        elif isinstance(item, Enum | int):
            continue
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            todo.extend(getattr(item, name) for name in field_names(type(item)))
        else:
            raise AssertionError(f"unexpected value in a view: {item!r}")
    return found


def check_views(state: HandState) -> None:
    result = state.result
    still_in = state.still_in()
    showdown = result is not None and len(still_in) >= 2
    shown: set[Card] = set()
    if result is not None:
        for seat, cards in enumerate(result.shown_cards):
            if cards is not None:
                assert showdown and seat in still_in
                shown.update(cards)
    lines = [a.line() for a in state.actions]  # each action's own line, once per step
    for seat in [*range(state.n), None]:
        v: SeatView = view(state, seat)
        known: set[Card] = set(shown)
        if seat is not None:
            for action in state.actions:
                if isinstance(action, Deal | Exchange) and action.seat == seat:
                    known.update(action.cards)
            assert v.hand == tuple(state.hands[seat])
        else:
            assert v.hand == () and v.discards == ()
        seen = cards_in(v) | cards_in(v.log) | cards_in(v.pots)
        assert seen <= known, f"seat {seat} sees {sorted(map(str, seen - known))}"
        assert len(v.log) == len(state.actions)
        for line, action, full in zip(v.log, state.actions, lines, strict=True):
            if isinstance(action, Deal | Exchange) and action.seat != seat:
                words = line.split(" ")
                assert words[-len(action.cards) :] == ["??"] * len(action.cards) or not action.cards
                assert len(words) == len(full.split(" "))
            else:
                assert line == full
        assert (v.legal is not None) == (seat is not None and seat == state.to_act)
        if v.legal is not None:
            assert v.legal == state.legal_actions()
        if showdown:
            assert result is not None
            for s in range(state.n):
                assert (v.shown[s] is not None) == (s in still_in)
        else:
            assert all(x is None for x in v.shown)
            assert all(x is None for x in v.shown_cards)
        assert v.stacks == tuple(state.stacks)
        assert v.pot_total == sum(state.contributed)


BETTING = (Phase.FIRST_ROUND, Phase.DECLARE_ROUND, Phase.LAST_ROUND)


def check_turn(state: HandState, action: Action, phase_before: Phase) -> None:
    """R5/R8 checks after an action: votes, who acts, and how a betting round ends."""
    if state.complete:
        return
    n = state.n
    if (
        isinstance(action, Bet | Raise)
        and action.amount > 0
        and state.rules.refusal
        and len(state.still_in()) >= 3
    ):
        # R8: a vote, starting with the next player still in after the bettor.
        assert state.vote is not None
        first = next(
            (action.seat + i) % n for i in range(1, n) if not state.folded[(action.seat + i) % n]
        )
        assert state.to_act == first
    elif isinstance(action, Bet | Raise):
        assert state.vote is None  # no vote for 0, with two players, or with refusal off
    seat = state.to_act
    if seat is not None and seat >= 0:
        assert not state.folded[seat]
        if state.vote is None and state.phase in BETTING:
            assert state.stacks[seat] > 0  # all-in players take no turn (R5)
    if (
        phase_before in BETTING
        and state.phase is not phase_before
        and state.current_bet is not None
        and state.void_deals == 0
    ):
        # R5: a round ends only when everyone still in with chips has matched the bet.
        for s in state.still_in():
            if state.stacks[s] > 0:
                assert state.round_bets[s] == state.current_bet, (s, state.round_bets)


# ---------------------------------------------------------------- the driver


class Aggressor:
    """Refuses nine votes in ten and raises or bets half the time, else plays at random:
    refusal caps, re-votes and raise wars happen often."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.bot = RandomBot(seed=seed)

    def __call__(self, v: SeatView) -> Action:
        legal = v.legal
        assert legal is not None and v.seat is not None
        if legal.vote:
            return Vote(v.seat, self.rng.random() < 0.1)
        if legal.raise_to is not None and self.rng.random() < 0.5:
            return Raise(v.seat, self.rng.randint(*legal.raise_to))
        if legal.bet is not None and self.rng.random() < 0.5:
            return Bet(v.seat, self.rng.randint(*legal.bet))
        return self.bot(v)


class Stubborn:
    """Never folds: exchanges two cards when it may (80% in the first round), else calls,
    else bets the least it may; accepts every bet; declares the lowest it may. Keeps
    many players in, so the deck runs out at big tables."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, v: SeatView) -> Action:
        legal = v.legal
        assert legal is not None and v.seat is not None
        seat = v.seat
        if legal.vote:
            return Vote(seat, True)
        if legal.declare:
            return Declare(seat, legal.declare[0])
        first_round = v.phase is Phase.FIRST_ROUND
        if 2 in legal.exchange and (not first_round or self.rng.random() < 0.8):
            return Exchange(seat, v.hand[:2])
        if legal.call is not None:
            return Call(seat)
        if legal.bet is not None:
            return Bet(seat, legal.bet[0])
        if legal.exchange:
            k = max(legal.exchange)
            return Exchange(seat, v.hand[:k])
        return Fold(seat)


Stats = Counter[str]


def play_random_hand(
    seed: int,
    *,
    n: int | None = None,
    rules: Rules | None = None,
    stacks: list[int] | None = None,
    views: bool = False,
    illegal: bool = False,
    stats: Stats | None = None,
    stubborn: bool = False,
    aggressive: bool = False,
) -> HandState:
    rng = random.Random(seed)
    n = rng.randint(2, 8) if n is None else n
    rules = random_rules(rng, n) if rules is None else rules
    stacks = random_stacks(rng, n) if stacks is None else stacks[:n]
    state = HandState(NAMES[:n], stacks, rules)
    dealer = Dealer.seeded(seed)
    bots: list[Agent] = [
        Stubborn(seed * 10 + i)
        if stubborn
        else Aggressor(seed * 10 + i)
        if aggressive
        else RandomBot(seed=seed * 10 + i)
        for i in range(n)
    ]
    chaos = random.Random(~seed)
    stats = Counter() if stats is None else stats
    ref = Referee(list(stacks), rules)  # the oracle: docs/rules.md, not the engine's code
    steps = 0
    played: list[Action] = []  # the actions applied, in order
    while not state.complete:
        steps += 1
        assert steps < 5000, "hand does not end"
        assert state.to_act == ref.to_act(), (state.lines()[-3:], ref.legal())
        assert state.legal_actions() == ref.legal(), (state.lines()[-3:], ref.legal())
        assert state.stacks == ref.stacks and state.contributed == ref.contributed
        check_chips(state)
        check_cards(state)
        if views:
            check_views(state)
        if illegal:
            for probe in [random_action(chaos, state), *r8b_near_misses(state)]:
                before = cheap_snapshot(state)
                if ref.is_legal(probe):
                    state.check(probe)
                else:
                    try:
                        state.check(probe)
                    except IllegalActionError:
                        stats["illegal refused"] += 1
                    else:
                        raise AssertionError(f"check() accepted {probe} but it is not legal")
                assert cheap_snapshot(state) == before
        seat = state.to_act
        assert seat is not None
        legal: LegalActions = state.legal_actions()
        if seat == DEALER:
            due = state.deal_due()
            assert due is not None
            if len(state.stock()) < due[1]:
                stats["deck exhausted"] += 1
            action: Action = dealer.deal(state)
        else:
            action = bots[seat](view(state, seat))
            assert action.seat == seat
        assert kind_of(action) in legal.kinds(), f"{action} not in {legal.kinds()}"
        assert ref.is_legal(action), f"{action} outside {ref.legal()}"
        if state.cap is not None:
            stats["refused"] += 1
        voids = state.void_deals
        phase_before = state.phase
        state.apply(action)
        ref.apply(action)
        played.append(action)
        check_turn(state, action, phase_before)
        if state.void_deals > voids:
            stats["void deal"] += 1
    check_chips(state)
    check_cards(state)
    if views:
        check_views(state)
    # The record is the actions applied, each written as its own line.
    assert state.lines() == [action.line() for action in played]
    result = state.result
    assert result is not None and state.to_act is None
    assert ref.to_act() is None and ref.final_stacks == list(result.final_stacks)  # R7
    if len(result.awards) > 1:
        stats["side pots"] += 1
    if result.uncontested:
        stats["uncontested"] += 1
    if any(len(a.winners) > 1 for a in result.awards):
        stats["split"] += 1
    if any(chips == 0 for chips in result.final_stacks):
        stats["bust"] += 1
    stats["hands"] += 1
    # The record replays to the same hand.
    fmt: Literal["toml", "json"] = "json" if seed % 5 == 0 else "toml"
    text = dump_record(record_of(state, seed=seed), fmt)
    again = replay(parse_record(text, fmt))
    assert again.complete, again.error
    assert again.state is not None and again.state.result is not None
    assert again.state.lines() == state.lines()
    assert again.state.result.final_stacks == result.final_stacks
    assert again.state.result.awards == result.awards
    return state


# ---------------------------------------------------------------- the tests


def test_a_thousand_random_hands() -> None:
    stats: Stats = Counter()
    for seed in range(1000):
        play_random_hand(seed, stats=stats)
    assert stats["hands"] == 1000
    # Every tricky path was exercised.
    for event in (
        "deck exhausted",
        "void deal",
        "side pots",
        "uncontested",
        "split",
        "refused",
        "bust",
    ):
        assert stats[event] >= 5, (event, stats)


def test_random_hands_with_illegal_probes_at_every_step() -> None:
    stats: Stats = Counter()
    for seed in range(100_000, 100_600):
        play_random_hand(seed, illegal=True, stats=stats)
    assert stats["illegal refused"] > 5000


def test_aggressive_hands_with_refusals_and_raise_wars() -> None:
    stats: Stats = Counter()
    for seed in range(500_000, 500_500):
        play_random_hand(
            seed, illegal=seed % 3 == 0, views=seed % 25 == 0, stats=stats, aggressive=True
        )
    assert stats["refused"] >= 2000
    assert stats["side pots"] >= 200


def test_views_never_show_hidden_cards() -> None:
    stats: Stats = Counter()
    for seed in range(200_000, 200_040):
        play_random_hand(seed, views=True, stats=stats)
    assert stats["hands"] == 40
    assert stats["uncontested"] >= 5


def rng_n(seed: int) -> int:
    return 8 if seed % 2 else 7


def test_big_tables_run_out_of_cards() -> None:
    stats: Stats = Counter()
    for seed in range(300_000, 300_200):
        rules = Rules(min_players=2, max_players=8, first_round_stand=seed % 3 == 0)
        play_random_hand(
            seed,
            n=rng_n(seed),
            rules=rules,
            stacks=[200] * 8,
            illegal=seed % 4 == 0,
            views=seed % 10 == 0,
            stats=stats,
            stubborn=True,
        )
    assert stats["deck exhausted"] >= 100


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 8),
    stacks=strategies.stacks(8),
    rules=strategies.rules(),
)
def test_hypothesis_hands(seed: int, n: int, stacks: list[int], rules: Rules) -> None:
    play_random_hand(seed, n=n, rules=rules, stacks=stacks, views=True, illegal=True)


def test_parse_of_every_line_written_round_trips() -> None:
    for seed in range(400_000, 400_200):
        state = play_random_hand(seed)
        for line in state.lines():
            assert parse_action(line, state.n).line() == line
