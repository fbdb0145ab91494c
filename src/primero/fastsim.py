"""A trusted, flat random-playout kernel: hands between random bots, ~15x faster (R4–R10).

Why it exists: simulations of random play (``primero simulate --bots random``, Monte
Carlo estimates, benchmarks; issue "Speed", item 3) spend almost all their time in
Python object overhead in the checked engine: :class:`~primero.state.HandState`
validates every action, builds a :class:`~primero.views.SeatView` per decision, and
:class:`~primero.bots.random.RandomBot` turns :class:`~primero.state.LegalActions` into
:mod:`primero.actions` objects. This module plays the very same hands with plain ints
(card ids, chips, seats), lists and local variables, without actions, views or strings
in the hot path. ``primero simulate`` uses it whenever every bot is random
(:func:`simulate_random`); ``benchmarks/bench_engine.py`` measures it.

It is *trusted*: it never checks anything, because it only ever produces what the rules
allow. It is *equal to the checked engine*: fed the same random sources, it consumes
them exactly as :class:`~primero.dealing.Dealer` and
:class:`~primero.bots.random.RandomBot` do, so it plays the identical hand, with the same
record lines (``record=True``) and the same final stacks:

- the dealer draws each card with ``randbelow(len(pool))`` and ``pool.pop``, the pool
  being the stock in deck order (card id order); under R8b the whole stock is dealt
  first, then cards are drawn from the recyclable discards in discard-pile order;
- each seat's bot draws ``randbelow(len(kinds))`` over the kinds of
  :meth:`~primero.state.LegalActions.kinds` in their order (``x0 x1 x2 b r c f``,
  ``dc f`` while a declaration is due, ``y n`` for votes), then the amount
  (``low + randbelow(high - low + 1)``), the declared category
  (``randbelow(len(allowed))`` over the categories from the true one up) or the
  exchanged cards (popped one by one at ``randbelow(len(hand))`` from the hand list in
  hand order).

``randbelow`` here is ``floor(rng.random() * n)``: the same as ``int()`` for a float >= 0
(and twice as fast), and the ``min(..., n - 1)`` of :func:`primero.dealing.randbelow`
never changes the result, because ``random()`` is at most ``1 - 2**-53`` and that times
``n`` rounds to less than ``n`` for every ``n``.

``tests/test_fastsim.py`` checks the equality on thousands of random hands under random
house rules (2 to 8 players, small stacks for all-ins, side pots and deck exhaustion);
any change to the rules in :mod:`primero.state` must be mirrored here.

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
from typing import Final, NamedTuple

from primero.cards import DECK
from primero.dealing import RandomSource
from primero.hands import _TABLE, Category
from primero.rules import DEFAULT_RULES, Rules, RulesError

__all__ = [
    "FastHandResult",
    "SimulationSummary",
    "check_simulation",
    "play_random_hand",
    "simulate_random",
]

#: A bound ``random()`` method: the kernel calls it directly.
_Rand = Callable[[], float]

# ------------------------------------------------------------------ precomputed tables

#: The evaluator's table of every hand's :class:`~primero.hands.HandValue` by card mask
#: (``sum(1 << id)``); ``.key`` is ``category * 128 + points`` (R2).
_VALUE: Final = _TABLE
_BIT: Final = tuple(1 << i for i in range(40))
_CARD: Final = tuple(str(card) for card in DECK)
_SEAT: Final = tuple(f"p{s + 1}" for s in range(8))
_CATEGORY_LABEL: Final = tuple(c.label for c in Category)
_CATEGORY: Final = tuple(Category)
#: ``_RING[n][s]``: the seats after ``s`` in a hand of ``n``, wrapping round, ``s`` last.
_RING: Final = tuple(
    tuple(tuple((s + i) % n for i in range(1, n + 1)) for s in range(n)) for n in range(9)
)
#: ``_OTHERS[n][s]``: the same without ``s``: the voters on a bet of ``s`` (R8).
_OTHERS: Final = tuple(tuple(ring[:-1] for ring in rings) for rings in _RING)
_NO_LIMIT: Final = 1 << 62
_DECK_IDS: Final = list(range(40))

# Outcomes of a betting round.
_DONE: Final = 0  # the round is over, the hand goes on
_ALONE: Final = 1  # everyone else folded: the hand is over (R4.8)
_VOID: Final = 2  # first round: everyone exchanged and no bet stands (R4.3)

# A seat's move in a betting round.
_BET: Final = 0
_RAISE: Final = 1
_CALL: Final = 2
_FOLD: Final = 3
#: The moves of a seat facing a bet that may raise, in the order of its kinds r c f.
_FACING: Final = (_RAISE, _CALL, _FOLD)


class _Params(NamedTuple):
    """The house rules as the kernel reads them: plain values, unpacked once per hand."""

    ante: int
    split: bool
    refusal: bool
    last_round: bool
    declarations: bool
    first_exchange: tuple[int, ...]
    first_low: int
    min_raise: int
    max_raises: int


def _params(rules: Rules) -> _Params:
    """The kernel's view of the house rules (R4.3 first-round options, R5 raises, R7, R8)."""
    return _Params(
        ante=rules.ante,
        split=rules.ties == "split",
        refusal=rules.refusal,
        last_round=rules.last_round,
        declarations=rules.declarations,
        first_exchange=(0, 1, 2) if rules.first_round_stand else (1, 2),
        first_low=0 if rules.first_round_zero_bet else 1,
        min_raise=rules.min_raise,
        max_raises=_NO_LIMIT if rules.max_raises is None else rules.max_raises,
    )


# ------------------------------------------------------------------ dealing (R8b)


def _draw_short(
    count: int, stock: list[int], discard: list[int], thrown: Sequence[int], drand: _Rand
) -> list[int]:
    """Deal ``count`` cards from a stock that holds fewer, as the Dealer does (R8b).

    All the stock cards are dealt first (in card id order, the order of
    ``HandState.stock()``); then the discards since the last shuffle, except ``thrown``
    (the receiver's just-thrown cards), form the new stock: the rest is drawn from them
    in discard-pile order, the undealt ones stay in the stock (kept in card id order),
    and the discard pile restarts with ``thrown``.
    """
    cards = stock[:]
    pool = [c for c in discard if c not in thrown]
    for _ in range(count - len(stock)):
        cards.append(pool.pop(floor(drand() * len(pool))))
    stock[:] = sorted(pool)
    discard[:] = thrown
    return cards


def _deal_line(seat: int, cards: Sequence[int]) -> str:
    """The record line of a deal: ``"d dh p3 7h Kc"`` (hand-history.md)."""
    return "d dh " + _SEAT[seat] + "".join([" " + _CARD[c] for c in cards])


def _exchange_line(seat: int, cards: Sequence[int]) -> str:
    """The record line of an exchange: ``"p3 x 7h Kc"`` (hand-history.md)."""
    return _SEAT[seat] + " x" + "".join([" " + _CARD[c] for c in cards])


def _exchange(
    s: int,
    k: int,
    hand: list[int],
    r: _Rand,
    stock: list[int],
    discard: list[int],
    drand: _Rand,
    lines: list[str] | None,
) -> None:
    """Seat ``s`` throws ``k`` cards of ``hand`` and is dealt as many (R4.3, R4.6, R8b).

    The bot pops each thrown card at ``randbelow(len(hand))`` from the hand list, so the
    kept cards stay in order and the new ones go to the end, as in ``HandState``; the
    thrown cards join the discard pile in the order they were popped.
    """
    if k == 0:  # standing pat
        if lines is not None:
            lines.append(_SEAT[s] + " x")
        return
    if k == 1:
        thrown = [hand.pop(floor(r() * len(hand)))]
    else:
        a = hand.pop(floor(r() * len(hand)))
        thrown = [a, hand.pop(floor(r() * len(hand)))]
    discard += thrown
    size = len(stock)
    if size < k:
        cards = _draw_short(k, stock, discard, thrown, drand)
    elif k == 1:
        cards = [stock.pop(floor(drand() * size))]
    else:
        a = stock.pop(floor(drand() * size))
        cards = [a, stock.pop(floor(drand() * (size - 1)))]
    hand += cards
    if lines is not None:
        lines.append(_exchange_line(s, thrown))
        lines.append(_deal_line(s, cards))


# ------------------------------------------------------------------ betting (R4.3, R5, R6, R8)


def _betting(
    first: bool,
    declaring: bool,
    n: int,
    stacks: list[int],
    contrib: list[int],
    folded: list[bool],
    hands: list[list[int]],
    brands: Sequence[_Rand],
    stock: list[int],
    discard: list[int],
    drand: _Rand,
    p: _Params,
    lines: list[str] | None,
) -> int:
    """Play one betting round between random bots; return ``_DONE``, ``_ALONE`` or ``_VOID``.

    Mirrors ``HandState`` from ``_start_round`` to ``_end_round``: the round starts at
    the first seat still in with chips and is skipped when fewer than two have chips
    (R5); in the ``first`` round a seat facing no bet exchanges or bets (R4.3); when
    ``declaring`` (R4.5) each seat declares at its first turn (R6); bets over 0 with
    three or more still in go to a vote, and a refused bettor acts again below the
    refused amount (R8). Mutates ``stacks``, ``contrib``, ``folded``, ``hands`` and,
    through exchanges, the deck.
    """
    able = 0  # players still in with chips: the round needs two (R5)
    s = -1
    for t in range(n):
        if stacks[t] and not folded[t]:
            able += 1
            if s < 0:
                s = t
    if able < 2:
        return _DONE
    _, _, refusal, _, _, xopts, open_low, min_raise, max_raises = p
    if not first:
        xopts = ()
        open_low = 0
    nx = len(xopts)
    ring = _RING[n]
    others = _OTHERS[n]
    declared = [False] * n
    live = folded.count(False)
    rb = [0] * n  # chips put in during this round (R5)
    acted = [False] * n
    current = -1  # the round's bet to match; -1: no bet open
    raises = 0
    cap = 0  # after a refusal: amounts must stay below this (0: no cap, R8)
    amount = low = high = 0
    while True:
        r = brands[s]
        stack = stacks[s]
        move = -1
        if declaring and not declared[s]:  # R4.5, R6: declare at the first turn
            declared[s] = True  # R8: a declaration made at a refused turn stands
            if current >= 0 and r() >= 0.5:  # kinds ["dc", "f"]: fold, no declaration
                move = _FOLD
            else:
                if current < 0:
                    r()  # kinds ["dc"]
                a, b, c, d = hands[s]
                true = _VALUE[_BIT[a] | _BIT[b] | _BIT[c] | _BIT[d]].key >> 7
                said = true + floor(r() * (5 - true))  # the true category or a higher one
                if lines is not None:
                    lines.append(_SEAT[s] + " dc " + _CATEGORY_LABEL[said])
        if move >= 0:
            pass
        elif current < 0:  # no bet open: bet, or exchange in the first round
            high = stack if not cap or stack < cap else cap - 1
            can_bet = open_low <= high
            i = floor(r() * (nx + can_bet))
            if i < nx:  # R4.3: exchange 0, 1 or 2 cards; the next seat (no wrap) acts
                _exchange(s, xopts[i], hands[s], r, stock, discard, drand, lines)
                cap = 0
                acted[s] = True
                for t in range(s + 1, n):
                    if not folded[t] and stacks[t] > 0 and not acted[t]:
                        s = t
                        break
                else:
                    return _VOID
                continue
            move = _BET
            amount = open_low + floor(r() * (high - open_low + 1))
        else:  # facing a bet: [raise], call or fold
            # R5: no raise past max_raises, nor when every other player still in is all-in
            can_raise = raises < max_raises and able > 1
            if can_raise:
                low = current + min_raise
                high = rb[s] + stack
                if cap and high >= cap:
                    high = cap - 1
                can_raise = low <= high
            if can_raise:
                move = _FACING[floor(r() * 3)]
                if move == _RAISE:
                    amount = low + floor(r() * (high - low + 1))
            else:
                move = _CALL if r() < 0.5 else _FOLD
        if move == _CALL:  # a check when nothing is owed; all-in for less when short
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
                lines.append(_SEAT[s] + " c")
        elif move == _FOLD:  # the hand is dead (R8b: it never returns to play)
            folded[s] = True
            hands[s] = []
            live -= 1
            able -= 1
            if lines is not None:
                lines.append(_SEAT[s] + " f")
            if live == 1:
                return _ALONE
        else:  # a bet or a raise
            if lines is not None:
                lines.append(_SEAT[s] + (" r " if move == _RAISE else " b ") + str(amount))
            if amount > 0 and refusal and live >= 3:  # R8: the others vote, from the next seat
                for v in others[s]:
                    if folded[v]:
                        continue
                    if brands[v]() < 0.5:  # kinds ["y", "n"]: the first accept decides
                        if lines is not None:
                            lines.append(_SEAT[v] + " y")
                        break
                    if lines is not None:
                        lines.append(_SEAT[v] + " n")
                else:  # refused by all: withdrawn, the bettor acts again below the amount
                    cap = amount
                    continue
            if move == _RAISE:  # the bet or raise stands (R5)
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
        cap = 0
        # R5: the next seat still in, with chips, that has not acted or not matched
        for t in ring[s]:
            if not folded[t] and stacks[t] > 0 and (not acted[t] or rb[t] < current):
                s = t
                break
        else:
            return _DONE


# ------------------------------------------------------------------ a whole hand (R4)


def _play_hand(
    stacks: list[int],
    p: _Params,
    drand: _Rand,
    brands: Sequence[_Rand],
    lines: list[str] | None,
    took: list[int],
    shown: list[int],
    won_with: list[int],
) -> list[int] | None:
    """Play one hand in place on ``stacks`` (seat order p1…pN, before the ante).

    Appends to ``took`` every seat that is awarded a pot (a seat may appear more than
    once), counts in ``shown`` the category of each hand shown at a showdown and in
    ``won_with`` the category of the first winner of each pot with two or more eligible
    seats (R7); both counters are indexed by :class:`Category`.

    Returns:
        At a showdown, each seat's hand value key (``category * 128 + points``, R2), -1
        for folded seats; None when everyone else folded (no showdown, R9b).
    """
    n = len(stacks)
    ante, split, _, last_round, declarations, _, _, _, _ = p
    contrib = [0] * n
    if ante:
        for s in range(n):  # R4.1 ante: all of it when short
            chips = ante if stacks[s] > ante else stacks[s]
            stacks[s] -= chips
            contrib[s] = chips
    folded = [False] * n
    hands: list[list[int]] = []
    while True:  # R4.2-R4.3, again after each void deal
        stock = _DECK_IDS[:]
        discard: list[int] = []
        pop = stock.pop
        size = 40
        hands = []
        for _ in range(n):  # R4.2 first deal: 2 cards each (never short: n <= 8)
            a = pop(floor(drand() * size))
            hands.append([a, pop(floor(drand() * (size - 1)))])
            size -= 2
        if lines is not None:
            lines += [_deal_line(s, hands[s]) for s in range(n)]
        outcome = _betting(
            True, False, n, stacks, contrib, folded, hands, brands, stock, discard, drand, p,
            lines,
        )
        if outcome != _VOID:
            break
    if outcome == _DONE:
        for s in range(n):  # R4.4 second deal (R8b possible with 8 players)
            if not folded[s]:
                size = len(stock)
                if size < 2:
                    cards = _draw_short(2, stock, discard, (), drand)
                else:
                    a = stock.pop(floor(drand() * size))
                    cards = [a, stock.pop(floor(drand() * (size - 1)))]
                hands[s] += cards
                if lines is not None:
                    lines.append(_deal_line(s, cards))
        outcome = _betting(
            False, declarations, n, stacks, contrib, folded, hands, brands, stock, discard,
            drand, p, lines,
        )
    if outcome == _DONE:
        for s in range(n):  # R4.6 second exchange, all-in players too: kinds x0 x1 x2
            if not folded[s]:
                r = brands[s]
                k = floor(r() * 3)
                if k:
                    _exchange(s, k, hands[s], r, stock, discard, drand, lines)
                elif lines is not None:
                    lines.append(_SEAT[s] + " x")
        if last_round:  # R4.7
            outcome = _betting(
                False, False, n, stacks, contrib, folded, hands, brands, stock, discard, drand,
                p, lines,
            )
    if outcome == _ALONE:  # R4.8: the last player still in takes every pot unseen
        winner = folded.index(False)
        total = sum(contrib)
        if total:  # (no pot at all when nobody put anything in)
            stacks[winner] += total
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

    As :func:`primero.pots.build_pots` and :func:`primero.pots.award_pots`: one pot per
    contribution level of the players still in, eligible to those who reached it; the
    best key wins, the eldest (earliest seat) on a tie, or equal shares with the odd
    chips one each from p1 under ``split``.
    """
    keys = [-1] * n
    inside = []
    best = eldest = level = -1
    one_pot = True
    for s in range(n):
        if not folded[s]:
            a, b, c, d = hands[s]
            key = keys[s] = _VALUE[_BIT[a] | _BIT[b] | _BIT[c] | _BIT[d]].key
            shown[key >> 7] += 1
            inside.append(s)
            if key > best:
                best = key
                eldest = s
            if level < 0:
                level = contrib[s]
            elif contrib[s] != level:
                one_pot = False
    if one_pot:  # one pot, every player still in eligible: the usual case
        amount = sum(contrib)
        if amount:  # (no pot at all when nobody put anything in)
            won_with[best >> 7] += 1
            if not split:
                stacks[eldest] += amount
                took.append(eldest)
            else:
                winners = [s for s in inside if keys[s] == best]
                _split(amount, winners, stacks)
                took += winners
        return keys
    levels = []  # side pots: one per contribution level of the players still in
    for s in inside:
        if contrib[s] not in levels:
            levels.append(contrib[s])
    levels.sort()
    top = levels[-1]
    previous = 0
    for level in levels:
        amount = 0
        for c in contrib:  # what each player put in between the previous level and this
            if c > previous:
                amount += (level if c > level and level != top else c) - previous
        best = eldest = -1
        eligible = 0
        for s in inside:
            if contrib[s] >= level:
                eligible += 1
                if keys[s] > best:
                    best = keys[s]
                    eldest = s
        if amount:
            if eligible > 1:
                won_with[best >> 7] += 1
            if not split or eligible == 1:  # R7: the eldest of the tied best hands
                stacks[eldest] += amount
                took.append(eldest)
            else:
                winners = [s for s in inside if contrib[s] >= level and keys[s] == best]
                _split(amount, winners, stacks)
                took += winners
        previous = level
    return keys


def _split(amount: int, winners: list[int], stacks: list[int]) -> None:
    """R7 split: equal shares of ``amount`` chips, the odd chips one each from p1.

    ``winners`` are seats in seat order; their ``stacks`` (chips) grow in place.
    """
    share, odd = divmod(amount, len(winners))
    for i, s in enumerate(winners):
        stacks[s] += share + 1 if i < odd else share


# ------------------------------------------------------------------ public API


@dataclass(frozen=True, slots=True)
class FastHandResult:
    """How a hand played by :func:`play_random_hand` ended.

    Attributes:
        final_stacks: chips of each seat after the hand, seat order p1…pN (equal to
            :attr:`primero.state.HandResult.final_stacks` of the checked engine).
        shown: the category of each hand shown at the showdown, None for folded seats
            and for every seat when the hand ended uncontested (R9b).
        winners: the seats that took chips from at least one pot, ascending (R7).
        lines: the record lines (hand-history.md) when asked for with ``record=True``,
            equal to :meth:`primero.state.HandState.lines`; else None.
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

    The result equals that of a :class:`~primero.state.HandState` played with
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
        chips, _params(rules), dealer_rng.random, [r.random for r in bot_rngs], lines, took,
        [0] * 5, [0] * 5,
    )
    shown: tuple[Category | None, ...] = (
        (None,) * len(chips)
        if keys is None
        else tuple(None if k < 0 else _CATEGORY[k >> 7] for k in keys)
    )
    return FastHandResult(tuple(chips), shown, tuple(sorted(set(took))), lines)


@dataclass(frozen=True, slots=True)
class SimulationSummary:
    """The counters of :func:`simulate_random`, as ``primero simulate`` reports them.

    Attributes:
        hands: hands played.
        matches: matches started.
        net: chips won (negative: lost) by each player over all hands, table order.
        pots_won: hands in which each player took chips from at least one pot.
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


def check_simulation(players: int, hands: int, rules: Rules, stack: int) -> None:
    """Check the arguments of a simulation (shared by ``primero simulate``'s two paths).

    Raises:
        ValueError: ``hands`` < 1.
        RulesError: a number of players the rules do not allow (R3), or a stack that is not
            a whole number >= 1 (chips).
    """
    if hands < 1:
        raise ValueError(f"hands must be at least 1, not {hands}")
    if not rules.min_players <= players <= rules.max_players:
        raise RulesError(
            f"players must be from {rules.min_players} to {rules.max_players}, not {players}"
        )
    if type(stack) is not int or stack < 1:
        raise RulesError(f"the starting stack is a whole number >= 1, not {stack!r}")


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
    for the whole simulation; match ``m`` (0-based) is a :class:`~primero.match.Match`
    of all the players with ``stack`` chips each, dealt by
    ``Dealer.seeded(derive_seed(seed, 100 + m))``; a new match starts whenever one is
    over (one player holds every chip), and the last one is cut short after ``hands``
    hands in all (:func:`primero.table.derive_seed`).

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
    from primero.table import derive_seed  # the seeding scheme of primero simulate

    check_simulation(players, hands, rules, stack)
    p = _params(rules)
    brands = [random.Random(derive_seed(seed, i)).random for i in range(players)]
    net = [0] * players
    pots_won = [0] * players
    shown = [0] * 5
    won_with = [0] * 5
    ring = _RING[players]
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
    return SimulationSummary(
        hands=played,
        matches=matches,
        net=tuple(net),
        pots_won=tuple(pots_won),
        showdowns=showdowns,
        shown=tuple(shown),
        won_with=tuple(won_with),
    )
