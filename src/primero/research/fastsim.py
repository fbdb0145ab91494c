"""A trusted, flat random-playout kernel: hands between random bots, ~15x faster (R4–R10).

Why it exists: simulations of random play (``primero simulate --bots random``, Monte
Carlo estimates, benchmarks: docs/performance.md) spend almost all their time in
Python object overhead in the checked engine: :class:`~primero.engine.state.HandState`
validates every action, builds a :class:`~primero.engine.views.SeatView` per decision, and
:class:`~primero.bots.random.RandomBot` turns :class:`~primero.engine.state.LegalActions` into
:mod:`primero.engine.actions` objects. This module plays the very same hands with plain ints
(card ids, chips, seats), lists and local variables, without actions, views or strings
in the hot path. ``primero simulate`` uses it whenever every bot is random
(:func:`simulate_random`); ``benchmarks/bench_engine.py`` measures it.

It is *trusted*: it never checks anything, because it only ever produces what the rules
allow. It holds no rule of its own: the rules come from the same pure functions the
checked engine calls (:mod:`primero.engine.rulebook`: ranges, votes, turn order, R8b;
:mod:`primero.engine.pots`: pots and their award; :func:`primero.engine.hands.value_by_mask`: the
evaluator), and every bot decision from :mod:`primero.bots.random`
(:func:`~primero.bots.random.random_move`'s parts and
:func:`~primero.bots.random.random_cards`), which :class:`~primero.bots.random.RandomBot`
uses too. It is *equal to the checked engine*: fed the same random sources, it consumes
them exactly as :class:`~primero.engine.dealing.Dealer` and :class:`~primero.bots.random.RandomBot`
do, so it plays the identical hand, with the same record lines (``record=True``) and the
same final stacks. The dealer draws each card with ``floor(random() * len(pool))`` and
``pool.pop``, the pool being the stock in deck order (card id order); under R8b the
whole stock is dealt first, then cards are drawn from the reshuffled discards in
discard-pile order. ``floor(random() * n)`` equals :func:`primero.engine.dealing.randbelow`:
``random()`` is at most ``1 - 2**-53``, and that times ``n`` rounds to less than ``n``.

Where the package is installed from a wheel built with a C compiler, this module, its
tables (:mod:`primero.research.fastsim_tables`), the rulebook, the pots and the random
bot's parts are compiled by mypyc (setup.py): the very same source, about twice as fast
as run by CPython, each rule still written once and called, not copied. An editable
install runs this source as it is (``tests/research/test_compiled.py`` runs the kernel's tests on
both).

Public entry points (stable; the search bot builds on them): :func:`play_random_hand`
(one hand, optionally with its record lines), :func:`simulate_random` (the counters of
``primero simulate`` with random bots), :class:`FastHandResult`,
:class:`SimulationSummary`.

``tests/research/test_fastsim.py`` checks the equality on thousands of random hands under random
house rules (2 to 8 players, small stacks for all-ins, side pots and deck exhaustion),
and has the kernel's records judged by the referee of the property tests
(``tests/referee.py``, written from docs/rules.md).

>>> import random
>>> r = play_random_hand([20, 20, 20, 20], DEFAULT_RULES, random.Random(1),
...                      [random.Random(i) for i in range(4)], record=True)
>>> sum(r.final_stacks), r.lines[0][:7]
(80, 'd dh p1')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import floor
from operator import itemgetter

from primero.bots.random_moves import (
    CALL,
    DECLARE,
    EXCHANGE,
    FOLD,
    RAISE,
    random_cards,
    random_declaration,
    random_facing,
    random_opening,
    random_vote,
)
from primero.engine.hands import Category
from primero.engine.lines import (
    bet_line,
    call_line,
    deal_line,
    declare_line,
    exchange_line,
    fold_line,
    vote_line,
)
from primero.engine.pots import settle
from primero.engine.randomness import RandomSource, derive_seed
from primero.engine.rulebook import (
    SEATS_AFTER,
    able_to_bet,
    declarable,
    exchange_order,
    limit_pot,
    next_exchanger,
    next_to_act,
    opening_range,
    raise_range,
    voted,
    voters,
)
from primero.engine.rules import DEFAULT_RULES, Rules, RulesError
from primero.research.fastsim_tables import (
    ALONE,
    ANY_EXCHANGE,
    BIT,
    CARD,
    CATEGORY,
    DECK_IDS,
    DONE,
    VALUE,
    VOID,
    Params,
    Rand,
    draw_short,
    params,
    showdown_keys,
)

__all__ = [
    "FastHandResult",
    "SimulationSummary",
    "play_random_hand",
    "simulate_random",
]

# ------------------------------------------------------------------ dealing (R8b)


def _names(ids: Sequence[int]) -> list[str]:
    """The record names of card ids (``"7h"``), for a record line
    (:mod:`primero.engine.lines` writes every line, docs/record-format.md)."""
    return [CARD[c] for c in ids]


def _exchange(
    s: int,
    k: int,
    hand: list[int],
    r: Rand,
    stock: list[int],
    discard: list[int],
    drand: Rand,
    lines: list[str] | None,
) -> None:
    """Seat ``s`` throws ``k`` cards of ``hand`` and is dealt as many (R4.3, R4.6, R8b).

    The bot takes the thrown cards with :func:`primero.bots.random.random_cards`, so the
    kept cards stay in order and the new ones go to the end, as in ``HandState``; the
    thrown cards join the discard pile in the order they were taken.
    """
    if k == 0:  # standing pat
        if lines is not None:
            lines.append(exchange_line(s, ()))
        return
    thrown = random_cards(r, hand, k)
    discard += thrown
    size = len(stock)
    if size < k:
        cards = draw_short(k, stock, discard, thrown, drand)
    elif k == 1:
        cards = [stock.pop(floor(drand() * size))]
    else:
        a = stock.pop(floor(drand() * size))
        cards = [a, stock.pop(floor(drand() * (size - 1)))]
    hand += cards
    if lines is not None:
        lines.append(exchange_line(s, _names(thrown)))
        lines.append(deal_line(s, _names(cards)))


# ------------------------------------------------------------------ betting (R4.3, R5, R6, R8)


def _betting(
    first: bool,
    declaring: bool,
    n: int,
    stacks: list[int],
    contrib: list[int],
    folded: list[bool],
    hands: list[list[int]],
    brands: Sequence[Rand],
    stock: list[int],
    discard: list[int],
    drand: Rand,
    p: Params,
    lines: list[str] | None,
) -> int:
    """Play one betting round between random bots; return ``DONE``, ``ALONE`` or ``VOID``.

    The rules come from :mod:`primero.engine.rulebook` (the same functions ``HandState`` calls):
    the round opener and the turn order (R5), the first round's options and void deal
    (R4.3), the opening and raise ranges (R5, R8), declarations (R6), votes (R8); each
    seat's move from :func:`primero.bots.random.random_move`. Mutates ``stacks``,
    ``contrib``, ``folded``, ``hands`` and, through exchanges, the deck.
    """
    turns = able_to_bet(folded, stacks)
    able = len(turns)  # players still in with chips
    if able < 2:  # the round is skipped (R5)
        return DONE
    s = turns[0]
    rules = p.rules
    refusal = rules.refusal
    min_raise = rules.min_raise
    max_raises = rules.max_raises
    pot_limit = rules.bet_limit == "pot"  # R5: bets and raises up to the pot
    xopts = p.first_exchange
    open_low = p.first_low
    if not first:
        xopts = ()
        open_low = 0
    declared = [False] * n
    live = folded.count(False)
    rb = [0] * n  # chips put in during this round (R5)
    acted = [False] * n
    current = -1  # the round's bet to match; -1: no bet open
    raises = 0
    cap: int | None = None  # after a refusal: amounts must stay below this (R8)
    while True:
        r = brands[s]
        stack = stacks[s]
        facing = current >= 0
        kind = DECLARE  # no declaration due: the seat moves as after one
        if declaring and not declared[s]:  # R4.5, R6: declare at the first turn
            declared[s] = True  # R8: a declaration made at a refused turn stands
            a, b, c, d = hands[s]
            allowed = declarable(VALUE[BIT[a] | BIT[b] | BIT[c] | BIT[d]].key >> 7)
            kind, value = random_declaration(r, len(allowed), facing)
            if lines is not None and kind == DECLARE:
                lines.append(declare_line(s, CATEGORY[allowed[value]].label))
        if kind == DECLARE:
            if not facing:  # no bet open: bet, or exchange in the first round (R4.3)
                pot = limit_pot(rules, contrib) if pot_limit else None
                kind, value = random_opening(r, xopts, opening_range(open_low, stack, cap, pot))
            else:  # facing a bet: [raise], call or fold (R5)
                kind, value = random_facing(
                    r,
                    raise_range(
                        current,
                        min_raise,
                        rb[s],
                        stack,
                        cap,
                        raises,
                        max_raises,
                        able - 1,
                        limit_pot(rules, contrib) if pot_limit else None,
                    ),
                )
        if kind == EXCHANGE:  # R4.3: exchange 0, 1 or 2 cards; the next seat (no wrap) acts
            _exchange(s, value, hands[s], r, stock, discard, drand, lines)
            cap = None
            acted[s] = True
            nxt = next_exchanger(s, folded, stacks, acted)
            if nxt is None:
                return VOID
            s = nxt
            continue
        if kind == CALL:  # a check when nothing is owed; all-in for less when short
            chips = current - rb[s]
            if chips > stack:
                chips = stack
            stacks[s] = stack - chips
            rb[s] += chips
            contrib[s] += chips
            acted[s] = True
            if chips == stack:
                able -= 1
            if lines is not None:
                lines.append(call_line(s))
        elif kind == FOLD:  # the hand is dead (R8b: it never returns to play)
            folded[s] = True
            hands[s] = []
            live -= 1
            able -= 1
            if lines is not None:
                lines.append(fold_line(s))
            if live == 1:
                return ALONE
        else:  # a bet or a raise
            amount = value
            if lines is not None:
                lines.append(bet_line(s, amount, kind == RAISE))
            if voted(amount, refusal, live):  # R8: the others vote, from the next seat
                for v in voters(s, folded):
                    if random_vote(brands[v]):
                        if lines is not None:  # the first accept decides
                            lines.append(vote_line(v, True))
                        break
                    if lines is not None:
                        lines.append(vote_line(v, False))
                else:  # refused by all: withdrawn, the bettor acts again below the amount
                    cap = amount
                    continue
            if kind == RAISE:  # the bet or raise stands (R5)
                raises += 1
            chips = amount - rb[s]
            stacks[s] = stack - chips
            rb[s] = amount
            contrib[s] += chips
            if chips == stack:
                able -= 1
            current = amount
            acted = [False] * n
            acted[s] = True
        cap = None
        nxt = next_to_act(s, folded, stacks, acted, rb, current)  # R5
        if nxt is None:
            return DONE
        s = nxt


# ------------------------------------------------------------------ a whole hand (R4)


def _play_hand(
    stacks: list[int],
    p: Params,
    drand: Rand,
    brands: Sequence[Rand],
    lines: list[str] | None,
    took: list[int],
    shown: list[int],
    won_with: list[int],
) -> list[int] | None:
    """Play one hand in place on ``stacks`` (seat order p1…pN, before the ante).

    Appends to ``took`` every seat that wins a pot (a seat may appear more than once; a
    pot made only of the seat's own uncalled chips is returned, not won, R7),
    counts in ``shown`` the category of each hand shown at a showdown and in
    ``won_with`` the category of the first winner of each pot with two or more eligible
    seats (R7); both counters are indexed by :class:`Category`.

    Returns:
        At a showdown, each seat's hand value key (``category * 128 + points``, R2), -1
        for folded seats; None when everyone else folded (no showdown, R9b).
    """
    n = len(stacks)
    rules = p.rules
    ante = rules.ante
    last_round = rules.last_round
    declarations = rules.declarations
    split = p.split
    contrib = [0] * n
    if ante:
        for s in range(n):  # R4.1 ante: all of it when short
            chips = ante if stacks[s] > ante else stacks[s]
            stacks[s] -= chips
            contrib[s] = chips
    folded = [False] * n
    hands: list[list[int]] = []
    while True:  # R4.2-R4.3, again after each void deal
        stock = DECK_IDS[:]
        discard: list[int] = []
        pop = stock.pop
        size = 40
        hands = []
        for _ in range(n):  # R4.2 first deal: 2 cards each (never short: n <= 8)
            a = pop(floor(drand() * size))
            hands.append([a, pop(floor(drand() * (size - 1)))])
            size -= 2
        if lines is not None:
            lines.extend([deal_line(s, _names(hands[s])) for s in range(n)])
        outcome = _betting(
            True,
            False,
            n,
            stacks,
            contrib,
            folded,
            hands,
            brands,
            stock,
            discard,
            drand,
            p,
            lines,
        )
        if outcome != VOID:
            break
    if outcome == DONE:
        for s in range(n):  # R4.4 second deal (R8b possible with 8 players)
            if not folded[s]:
                size = len(stock)
                if size < 2:
                    cards = draw_short(2, stock, discard, (), drand)
                else:
                    a = stock.pop(floor(drand() * size))
                    cards = [a, stock.pop(floor(drand() * (size - 1)))]
                hands[s] += cards
                if lines is not None:
                    lines.append(deal_line(s, _names(cards)))
        outcome = _betting(
            False,
            declarations,
            n,
            stacks,
            contrib,
            folded,
            hands,
            brands,
            stock,
            discard,
            drand,
            p,
            lines,
        )
    if outcome == DONE:
        for seat in exchange_order(folded):  # R4.6 second exchange, all-in players too
            r = brands[seat]
            k = random_opening(r, ANY_EXCHANGE, None)[1]
            if k:
                _exchange(seat, k, hands[seat], r, stock, discard, drand, lines)
            elif lines is not None:
                lines.append(exchange_line(seat, ()))
        if last_round:  # R4.7
            outcome = _betting(
                False,
                False,
                n,
                stacks,
                contrib,
                folded,
                hands,
                brands,
                stock,
                discard,
                drand,
                p,
                lines,
            )
    if outcome == ALONE:  # R4.8: the last player still in takes every pot unseen
        winner = folded.index(False)
        total = sum(contrib)
        if total:  # (no pot at all when nobody put anything in)
            stacks[winner] += total
            if total > contrib[winner]:  # only the winner's own chips: returned, not won
                took.append(winner)
        return None
    return _showdown(n, stacks, contrib, folded, hands, split, took, shown, won_with)


def _showdown(
    n: int,
    stacks: list[int],
    contrib: list[int],
    folded: list[bool],
    hands: list[list[int]],
    split: bool,
    took: list[int],
    shown: list[int],
    won_with: list[int],
) -> list[int]:
    """Award the main pot and the side pots to the best hands (R7); return the value keys.

    The pots, their winners and the chips they take come from
    :func:`primero.engine.pots.settle`, as in ``HandState``; the hands are compared by their
    value keys (``category * 128 +
    points``, R2).
    """
    keys = showdown_keys(hands, folded)
    for s in range(n):
        if not folded[s]:
            shown[keys[s] >> 7] += 1
    for amount, eligible, winners, _ in settle(contrib, folded, keys, split, stacks):
        if len(eligible) > 1:
            won_with[keys[winners[0]] >> 7] += 1
            took += winners
        elif amount > _uncalled(contrib, eligible[0]):  # not only a bet nobody called
            took += winners
    return keys


def _uncalled(contrib: list[int], seat: int) -> int:
    """Chips ``seat`` put in that no other seat matched (R7): they go back to it as an
    uncalled bet returned, not a pot won; 0 or less when matched."""
    other = 0
    for t in range(len(contrib)):
        if t != seat and contrib[t] > other:
            other = contrib[t]
    return contrib[seat] - other


def _simulate(
    players: int,
    hands: int,
    seed: int,
    stack: int,
    p: Params,
    on_hand: Callable[[int], None] | None,
    net: list[int],
    pots_won: list[int],
    shown: list[int],
    won_with: list[int],
) -> tuple[int, int, int]:
    """The matches of :func:`simulate_random` (R3, R9, R10): ``hands`` hands in all.

    Adds each player's chips won to ``net`` and the hands in which it took a pot to
    ``pots_won`` (table order), and counts ``shown`` and ``won_with`` as
    :func:`_play_hand` does.

    Returns:
        ``(hands played, matches started, showdowns)``.
    """
    brands = [random.Random(derive_seed(seed, i)).random for i in range(players)]
    ring = SEATS_AFTER[players]
    #: the bots in seat order when every player is still in, by dealer
    full_brands = [[brands[t] for t in ring[d]] for d in range(players)]
    full_stacks = [itemgetter(*ring[d]) for d in range(players)]
    played = matches = showdowns = 0
    while played < hands:
        drand = random.Random(derive_seed(seed, 100 + matches)).random
        matches += 1
        chips = [stack] * players
        dealer = players - 1
        alive = players
        while alive > 1 and played < hands:
            # R3: seats from the dealer's right round to the dealer, players still in
            if alive == players:
                seats: Sequence[int] = ring[dealer]
                seat_brands = full_brands[dealer]
                hand_stacks = list(full_stacks[dealer](chips))
            else:
                seats = []
                seat_brands = []
                hand_stacks = []
                for t in ring[dealer]:
                    if chips[t]:
                        seats.append(t)
                        seat_brands.append(brands[t])
                        hand_stacks.append(chips[t])
            took: list[int] = []
            if _play_hand(hand_stacks, p, drand, seat_brands, None, took, shown, won_with):
                showdowns += 1
            if len(took) == 1:
                pots_won[seats[took[0]]] += 1
            else:
                for s in set(took):
                    pots_won[seats[s]] += 1
            for s in range(len(seats)):
                chips[seats[s]] = hand_stacks[s]
            alive -= hand_stacks.count(0)
            played += 1
            if on_hand is not None:
                on_hand(played)
            for t in ring[dealer]:  # R3: the deal passes right, skipping players out
                if chips[t]:
                    dealer = t
                    break
        for t in range(players):  # a match's hands add up to its final minus starting chips
            net[t] += chips[t] - stack
    return played, matches, showdowns


# ------------------------------------------------------------------ public API


@dataclass(frozen=True, slots=True)
class FastHandResult:
    """How a hand played by :func:`play_random_hand` ended.

    Attributes:
        final_stacks: chips of each seat after the hand, seat order p1…pN (equal to
            :attr:`primero.engine.state.HandResult.final_stacks` of the checked engine).
        shown: the category of each hand shown at the showdown, None for folded seats
            and for every seat when the hand ended uncontested (R9b).
        winners: the seats that won chips from at least one pot, ascending (R7); the
            chips of a bet nobody called come back to the bettor and are not a win.
        lines: the record lines (docs/record-format.md) when asked for with ``record=True``,
            equal to :meth:`primero.engine.state.HandState.lines`; else None.
    """

    final_stacks: tuple[int, ...]
    shown: tuple[Category | None, ...]
    winners: tuple[int, ...]
    lines: list[str] | None


def play_random_hand(
    stacks: Sequence[int],
    rules: Rules,
    dealer_rng: RandomSource,
    bot_rngs: Sequence[RandomSource],
    *,
    record: bool = False,
) -> FastHandResult:
    """Play one hand in which every seat is a :class:`~primero.bots.random.RandomBot` (R4–R8b).

    The result equals that of a :class:`~primero.engine.state.HandState` played with
    ``Dealer(dealer_rng)`` and ``RandomBot(rng=bot_rngs[seat])`` for each seat, given
    random sources in the same state; the sources are advanced the same way.

    Args:
        stacks: each seat's chips before the ante, seat order p1…pN (pN deals), >= 1.
        rules: the house rules.
        dealer_rng: the dealer's random source (only its ``random()`` is used, R10).
        bot_rngs: one random source per seat, the random bots' own.
        record: also return the record lines (slower: for tests and debugging).

    Returns:
        The :class:`FastHandResult`.

    Raises:
        RulesError: 2 to ``rules.max_players`` players are needed (R3), one random source
            per seat, and stacks that are whole numbers >= 1 (chips).
    """
    rules.check_players(len(stacks))
    if len(bot_rngs) != len(stacks):
        raise RulesError(f"one bot random source per seat: {len(stacks)} seats")
    if any(type(c) is not int or c < 1 for c in stacks):
        raise RulesError("a starting stack is a whole number >= 1 (chips)")
    chips = list(stacks)
    lines: list[str] | None = [] if record else None
    took: list[int] = []
    keys = _play_hand(
        chips,
        params(rules),
        dealer_rng.random,
        [r.random for r in bot_rngs],
        lines,
        took,
        [0] * 5,
        [0] * 5,
    )
    shown: tuple[Category | None, ...] = (
        (None,) * len(chips)
        if keys is None
        else tuple(None if k < 0 else CATEGORY[k >> 7] for k in keys)
    )
    return FastHandResult(tuple(chips), shown, tuple(sorted(set(took))), lines)


@dataclass(frozen=True, slots=True)
class SimulationSummary:
    """The counters of :func:`simulate_random`, as ``primero simulate`` reports them.

    Attributes:
        hands: hands played.
        matches: matches started.
        net: chips won (negative: lost) by each player over all hands, table order.
        pots_won: hands in which each player won chips from at least one pot (its own
            uncalled chips returned are not a win).
        showdowns: hands that reached a showdown (R4.8).
        shown: hands shown at showdowns, per category (indexed by :class:`Category`).
        won_with: pots with two or more eligible players won at showdowns, per category
            of the (first) winning hand.
    """

    hands: int
    matches: int
    net: tuple[int, ...]
    pots_won: tuple[int, ...]
    showdowns: int
    shown: tuple[int, ...]
    won_with: tuple[int, ...]


def simulate_random(
    players: int,
    hands: int,
    seed: int,
    *,
    rules: Rules = DEFAULT_RULES,
    stack: int = 100,
    on_hand: Callable[[int], None] | None = None,
) -> SimulationSummary:
    """Play ``hands`` hands of random bots over matches, as ``primero simulate`` (R9, R10).

    The scheme of :func:`primero.cli.commands_simulate.simulate` with every bot random:
    the player at table index ``i`` is ``RandomBot(seed=derive_seed(seed, i))``, one bot
    for the whole simulation; match ``m`` (0-based) is a :class:`~primero.engine.match.Match`
    of all the players with ``stack`` chips each, dealt by
    ``Dealer.seeded(derive_seed(seed, 100 + m))``; a new match starts whenever one is
    over (one player holds every chip), and the last one is cut short after ``hands``
    hands in all (:func:`primero.engine.dealing.derive_seed`).

    Args:
        players: players per match, ``rules.min_players`` to ``rules.max_players`` (R3).
        hands: hands to play in all, >= 1.
        seed: the simulation's seed (R10).
        rules: the house rules.
        stack: each player's starting stack in every match (chips), >= 1.
        on_hand: called with the number of hands played after each hand (progress).

    Returns:
        The :class:`SimulationSummary`, equal to the counters of the checked engine.

    Raises:
        ValueError: ``hands`` < 1.
        RulesError: a number of players the rules do not allow, or a stack < 1.
    """
    if type(hands) is not int or hands < 1:
        raise ValueError(f"hands must be a whole number >= 1, not {hands!r}")
    rules.check_match_players(players)
    if type(stack) is not int or stack < 1:
        raise RulesError(f"the starting stack is a whole number >= 1 (chips), not {stack!r}")
    net = [0] * players
    pots_won = [0] * players
    shown = [0] * 5
    won_with = [0] * 5
    played, matches, showdowns = _simulate(
        players, hands, seed, stack, params(rules), on_hand, net, pots_won, shown, won_with
    )
    return SimulationSummary(
        hands=played,
        matches=matches,
        net=tuple(net),
        pots_won=tuple(pots_won),
        showdowns=showdowns,
        shown=tuple(shown),
        won_with=tuple(won_with),
    )
