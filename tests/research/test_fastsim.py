"""The fast random-playout kernel plays exactly the hands of the checked engine (R4–R10).

Each hand is played twice from identically seeded ``random.Random`` sources: once by
:class:`~primero.engine.state.HandState` with a :class:`~primero.engine.dealing.Dealer` and a
:class:`~primero.bots.random.RandomBot` per seat reading its view (every action
checked by ``apply``), once by :func:`primero.research.fastsim.play_random_hand`. The record
lines and final stacks must be equal. The house rules, the number of players (2 to 8)
and the stacks (small ones force all-ins, side pots and, with 7 or 8 players, deck
exhaustion) are drawn at random; the tests also check that the rare paths (void deals,
R8b in the second deal and the second exchange, refused bets, split ties, side pots)
were met.

These tests run on the modules they import: the pure-Python ones here (the editable
install), and the mypyc-compiled kernel, rulebook, pots and random bot when
``tests/research/test_compiled.py`` runs this file again against a compiled build (setup.py).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from primero.bots.random import RandomBot
from primero.engine.dealing import Dealer
from primero.engine.hands import Category
from primero.engine.rules import Rules, RulesError
from primero.engine.state import DEALER, HandState, Phase
from primero.engine.views import view
from primero.play.tablemodel.sentences import won_awards
from primero.research.fastsim import play_random_hand, simulate_random
from tests.referee import referee_lines
from tests.strategies import random_rules


@dataclass(frozen=True)
class Case:
    """One hand to play both ways."""

    rules: Rules
    stacks: list[int]
    seed: int


def random_case(rng: random.Random) -> Case:
    """A hand of 2 to 8 players (7 and 8 more often), stacks from tiny to deep (chips)."""
    n = rng.choice([2, 3, 4, 5, 6, 7, 7, 8, 8, 8])
    top = rng.choice([2, 4, 8, 20, 100])
    stacks = [rng.randint(1, top) for _ in range(n)]
    return Case(random_rules(rng), stacks, rng.randrange(2**40))


def play_checked(case: Case, features: Counter[str]) -> HandState:
    """Play the hand with the checked engine: Dealer + RandomBot through views + apply."""
    n = len(case.stacks)
    state = HandState([f"P{i}" for i in range(n)], case.stacks, case.rules)
    dealer = Dealer(random.Random(case.seed))
    bots = [RandomBot(rng=random.Random(case.seed + 1 + i)) for i in range(n)]
    while not state.complete:
        seat = state.to_act
        assert seat is not None
        if seat == DEALER:
            due = state.deal_due()
            assert due is not None
            if state.stock_count < due[1]:
                features[
                    "R8b second deal" if state.phase is Phase.SECOND_DEAL else "R8b exchange"
                ] += 1
            state.apply(dealer.deal(state))
        else:
            refused_before = state.cap
            state.apply(bots[seat](view(state, seat)))
            if state.cap is not None and state.cap != refused_before:
                features["refused bet"] += 1
    result = state.result
    assert result is not None
    features["void deal"] += state.void_deals > 0
    features["uncontested"] += result.uncontested
    features["side pots"] += len(result.awards) > 1
    features["split pot"] += any(len(a.winners) > 1 for a in result.awards)
    features["all-in"] += any(c == 0 for c in state.stacks) or min(case.stacks) <= 1
    return state


Fast = tuple[list[str], tuple[int, ...], tuple[Category | None, ...], tuple[int, ...]]


def play_fast(case: Case) -> Fast:
    """Play the hand with the kernel: lines, final stacks, shown categories, winners."""
    n = len(case.stacks)
    out = play_random_hand(
        case.stacks,
        case.rules,
        random.Random(case.seed),
        [random.Random(case.seed + 1 + i) for i in range(n)],
        record=True,
    )
    assert out.lines is not None
    return out.lines, out.final_stacks, out.shown, out.winners


@pytest.mark.parametrize("block", range(2))
def test_kernel_plays_the_checked_engines_hands(block: int) -> None:
    meta = random.Random(1000 + block)
    features: Counter[str] = Counter()
    for _ in range(1000):
        case = random_case(meta)
        state = play_checked(case, features)
        lines, final, shown, winners = play_fast(case)
        assert lines == state.lines(), (case, state.lines(), lines)
        result = state.result
        assert result is not None
        assert final == result.final_stacks, case
        assert shown == tuple(None if v is None else v.category for v in result.shown)
        # uncalled chips are returned, not won: the front ends' pots
        won = won_awards(view(state, None))
        assert winners == tuple(sorted({w for a in won for w in a.winners}))
        assert sum(final) == sum(case.stacks)  # R7: chips are conserved
    # the rare paths were met in every block of hands
    for name in (
        "void deal",
        "refused bet",
        "uncontested",
        "side pots",
        "split pot",
        "all-in",
        "R8b exchange",
    ):
        assert features[name] > 0, (name, features)


@pytest.mark.parametrize("block", range(2))
def test_kernel_hands_obey_the_rules_referee(block: int) -> None:
    """The kernel's records, judged line by line by the referee written from rules.md
    (not by the checked engine: a rule bug shared by both engines is caught here)."""
    meta = random.Random(2000 + block)
    for _ in range(700):
        case = random_case(meta)
        lines, final, _, _ = play_fast(case)
        ref = referee_lines(case.stacks, case.rules, lines)
        assert ref.to_act() is None, (case, lines[-3:])  # the hand is over
        assert ref.final_stacks == list(final), case  # R7


class Scripted:
    """A random source that returns ``values`` first, then those of ``random.Random(seed)``."""

    def __init__(self, values: list[float], seed: int) -> None:
        self.values = list(values)
        self.rest = random.Random(seed)

    def random(self) -> float:
        """The next scripted value, or the seeded generator's next one."""
        return self.values.pop(0) if self.values else self.rest.random()


SECOND_DEAL_RUNS_OUT = [
    *[[0.5, 0.0, 0.0, 0.5]] * 5,  # p1-p5: exchange 2 cards (x1 x2 b), later call (r c f)
    [0.9, 0.0],  # p6: bets 1
    [0.1, 0.5],  # p7: accepts the bet (y n), then calls
    [0.5],  # p8: calls
]


@pytest.mark.parametrize("seed", range(40))
def test_deck_runs_out_in_the_second_deal(seed: int) -> None:
    """R8b with eight players: ten cards exchanged, the second deal takes 16 of 14."""
    rules = Rules(max_players=8, ties="split" if seed % 2 else "eldest")
    stacks = [100, 100, 100, 100, 100, 100, 100, 3 + seed % 5]

    def sources() -> tuple[Scripted, list[Scripted]]:
        return Scripted([], seed), [
            Scripted(v, seed * 10 + i) for i, v in enumerate(SECOND_DEAL_RUNS_OUT)
        ]

    features: Counter[str] = Counter()
    state = HandState([f"P{i}" for i in range(8)], stacks, rules)
    dealer_rng, bot_rngs = sources()
    dealer, bots = Dealer(dealer_rng), [RandomBot(rng=r) for r in bot_rngs]
    while not state.complete:
        seat = state.to_act
        assert seat is not None
        if seat == DEALER:
            due = state.deal_due()
            assert due is not None
            if state.stock_count < due[1] and state.phase is Phase.SECOND_DEAL:
                features["R8b second deal"] += 1
            state.apply(dealer.deal(state))
        else:
            state.apply(bots[seat](view(state, seat)))
    assert features["R8b second deal"] == 1
    dealer_rng, bot_rngs = sources()
    out = play_random_hand(stacks, rules, dealer_rng, bot_rngs, record=True)
    assert out.lines == state.lines()
    assert state.result is not None
    assert out.final_stacks == state.result.final_stacks


def test_kernel_advances_the_random_sources_as_the_engine() -> None:
    """After the hand, every source is in the same state as the checked engine's."""
    rules = Rules(min_players=2, max_players=8)
    for seed in range(50):
        case = Case(rules, [30] * 6, seed)
        fast_dealer = random.Random(seed)
        fast_bots = [random.Random(seed + 1 + i) for i in range(6)]
        play_random_hand(case.stacks, rules, fast_dealer, fast_bots)
        state = HandState([f"P{i}" for i in range(6)], case.stacks, rules)
        dealer = random.Random(seed)
        bots = [random.Random(seed + 1 + i) for i in range(6)]
        agents = [RandomBot(rng=b) for b in bots]
        deal = Dealer(dealer)
        while not state.complete:
            seat = state.to_act
            assert seat is not None
            state.apply(deal.deal(state) if seat == DEALER else agents[seat](view(state, seat)))
        assert fast_dealer.random() == dealer.random()
        for a, b in zip(fast_bots, bots, strict=True):
            assert a.random() == b.random()


def test_spec_example_four_players() -> None:
    """A fixed hand: same lines, stacks conserved, shown categories from the evaluator."""
    lines, final, shown, _ = play_fast(Case(Rules(), [20, 20, 20, 20], 11))
    state = play_checked(Case(Rules(), [20, 20, 20, 20], 11), Counter())
    assert lines == state.lines()
    assert sum(final) == 80
    assert lines[0].startswith("d dh p1 ")
    assert len(shown) == 4


def test_play_random_hand_rejects_bad_input() -> None:
    rng = random.Random(1)
    with pytest.raises(RulesError):
        play_random_hand([10], Rules(), rng, [rng])
    with pytest.raises(RulesError):
        play_random_hand([10, 10], Rules(), rng, [rng])
    with pytest.raises(RulesError):
        play_random_hand([10, 0], Rules(), rng, [rng, rng])
    with pytest.raises(RulesError):
        simulate_random(9, 10, 1)
    with pytest.raises(ValueError):
        simulate_random(6, 0, 1)
    with pytest.raises(RulesError):
        simulate_random(6, 10, 1, stack=0)


@pytest.mark.parametrize(
    ("players", "hands", "seed", "rules", "stack"),
    [
        (6, 120, 1, Rules(), 100),
        (4, 150, 7, Rules(ties="split", refusal=False), 10),
        (8, 150, 3, Rules(max_players=8, first_round_stand=True, first_round_zero_bet=True), 6),
        (2, 80, 5, Rules(min_players=2, last_round=False, declarations=False), 20),
        (3, 300, 9, Rules(ante=0, first_round_zero_bet=True, min_players=3), 5),
        (5, 200, 4, Rules(ante=3, max_raises=1, min_raise=3, first_round_stand=True), 12),
    ],
)
def test_simulate_random_equals_primero_simulate_checked(
    players: int, hands: int, seed: int, rules: Rules, stack: int
) -> None:
    """The counters of the kernel equal those of the checked path of ``primero simulate``."""
    from primero.cli.commands_simulate import simulate

    checked = simulate(hands, players, ["random"], seed, rules=rules, stack=stack, fast=False)
    fast = simulate_random(players, hands, seed, rules=rules, stack=stack)
    via_command = simulate(hands, players, ["random"], seed, rules=rules, stack=stack)
    assert via_command == checked  # primero simulate uses the kernel for random bots
    assert fast.hands == checked.hands == hands
    assert fast.matches == checked.matches
    assert fast.net == tuple(checked.net)
    assert sum(fast.net) == 0
    assert fast.pots_won == tuple(checked.pots_won)
    assert fast.showdowns == checked.showdowns
    assert fast.shown == tuple(checked.shown[c] for c in Category)
    assert fast.won_with == tuple(checked.won_with[c] for c in Category)


def test_simulate_random_progress_and_counts() -> None:
    seen: list[int] = []
    out = simulate_random(5, 40, 2, on_hand=seen.append)
    assert seen == list(range(1, 41))
    assert out.hands == 40
    assert out.showdowns <= 40
    assert sum(out.shown) >= 2 * out.showdowns


def _cards(*names: str) -> list[int]:
    from primero.research.fastsim_tables import CARD

    return [CARD.index(name) for name in names]


def test_uncalled_chips_are_returned_not_a_pot_won() -> None:
    """Uncalled chips (R7), by hand: p1 is all-in for 4 chips with a chorus, p2 put in 10
    with a numerus. The main pot (4 + 4) goes to p1; the 6 chips nobody could call go
    back to p2 (R7): p2 did not win a pot. With a p3 who put in 10 and folded, the side
    pot (6 + 6) holds p3's chips: p2 wins it."""
    from primero.research.fastsim import _showdown

    chorus, numerus = _cards("7h", "7d", "7c", "7s"), _cards("2h", "3h", "4d", "5s")
    stacks, won_with = [0, 0], [0] * 5
    took: list[int] = []
    _showdown(2, stacks, [4, 10], [False, False], [chorus, numerus], False, took, [0] * 5, won_with)
    assert stacks == [8, 6]
    assert took == [0]
    assert won_with == [0, 0, 0, 0, 1]  # the contested main pot, won with a chorus

    stacks, took = [0, 0, 0], []  # (took: list[int], as above)
    _showdown(
        3,
        stacks,
        [4, 10, 10],
        [False, False, True],
        [chorus, numerus, []],
        False,
        took,
        [0] * 5,
        [0] * 5,
    )
    assert stacks == [12, 12, 0]
    assert took == [0, 1]
