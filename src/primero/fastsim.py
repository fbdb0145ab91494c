"""A trusted, flat random-playout kernel: hands between random bots, ~10x faster (R4–R10).

Why it exists: simulations of random play (``primero simulate --bots random``, Monte
Carlo estimates, benchmarks) spend almost all their time in Python object overhead in
the checked engine: :class:`~primero.state.HandState` validates every action, builds a
:class:`~primero.views.SeatView` per decision, and :class:`~primero.bots.random.RandomBot`
turns :class:`~primero.state.LegalActions` into :mod:`primero.actions` objects. This
module plays the very same hands with plain ints (card ids, chips, seats), lists and
local variables, without actions, views or strings in the hot path.

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

``randbelow`` here is ``int(rng.random() * n)``: the ``min(..., n - 1)`` of
:func:`primero.dealing.randbelow` never changes the result, because ``random()`` is at
most ``1 - 2**-53`` and that times ``n`` rounds to less than ``n`` for every ``n``.

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
from typing import Final

from primero.cards import DECK
from primero.dealing import RandomSource
from primero.hands import _TABLE, Category
from primero.rules import DEFAULT_RULES, Rules, RulesError

__all__ = [
    "FastHandResult",
    "SimulationSummary",
    "match_seeds",
    "play_random_hand",
    "simulate_random",
]

#: A bound ``random()`` method: the kernel calls it directly.
_Rand = Callable[[], float]

# ------------------------------------------------------------------ precomputed tables

#: Hand value keys (``category * 128 + points``, as :attr:`HandValue.key`) by card mask (R2).
_KEY: Final[dict[int, int]] = {mask: value.key for mask, value in _TABLE.items()}
_BIT: Final = tuple(1 << i for i in range(40))
_CARD: Final = tuple(str(card) for card in DECK)
_SEAT: Final = tuple(f"p{s + 1}" for s in range(8))
_CATEGORY_LABEL: Final = tuple(c.label for c in Category)
_CATEGORY: Final = tuple(Category)
#: ``_RING[n][s]``: the seats after ``s`` in a hand of ``n``, wrapping round, ``s`` last.
_RING: Final = tuple(
    tuple(tuple((s + i) % n for i in range(1, n + 1)) for s in range(n)) for n in range(9)
)
_NO_LIMIT: Final = 1 << 62

# Outcomes of a betting round.
_DONE: Final = 0  # the round is over, the hand goes on
_ALONE: Final = 1  # everyone else folded: the hand is over (R4.8)
_VOID: Final = 2  # first round: everyone exchanged and no bet stands (R4.3)

# Betting round modes.
_FIRST: Final = 0  # R4.3 vying or drawing
_DECLARE: Final = 1  # R4.5 declare and bet
_LAST: Final = 2  # R4.7

# A seat's move in a betting round.
_BET: Final = 0
_RAISE: Final = 1
_CALL: Final = 2
_FOLD: Final = 3


@dataclass(frozen=True, slots=True)
class _Params:
    """The house rules as the kernel reads them (one tuple of plain values)."""

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


def _draw(
    count: int, stock: list[int], discard: list[int], thrown: Sequence[int], drand: _Rand
) -> list[int]:
    """Deal ``count`` cards as :meth:`primero.dealing.Dealer.deal` does (R8b).

    ``stock`` is kept in card id order (the order of ``HandState.stock()``). When it
    holds fewer than ``count`` cards, all of them are dealt first; then the discards
    since the last shuffle, except ``thrown`` (the receiver's just-thrown cards), form
    the new stock: the rest is drawn from them in discard-pile order, the undealt ones
    stay in the stock, and the discard pile restarts with ``thrown``.
    """
    size = len(stock)
    if size >= count:
        if count == 2:
            first = stock.pop(int(drand() * size))
            return [first, stock.pop(int(drand() * (size - 1)))]
        return [stock.pop(int(drand() * (size - i))) for i in range(count)]
    cards = stock[:]
    pool = [c for c in discard if c not in thrown]
    for _ in range(count - size):
        cards.append(pool.pop(int(drand() * len(pool))))
    stock[:] = sorted(pool)
    discard[:] = thrown
    return cards


def _deal_line(seat: int, cards: Sequence[int]) -> str:
    return "d dh " + _SEAT[seat] + "".join([" " + _CARD[c] for c in cards])


def _exchange_line(seat: int, cards: Sequence[int]) -> str:
    return _SEAT[seat] + " x" + "".join([" " + _CARD[c] for c in cards])


def _category(hand: list[int]) -> int:
    """The category (as an int, :class:`Category` order) of a 4-card hand (R2)."""
    a, b, c, d = hand
    return _KEY[_BIT[a] | _BIT[b] | _BIT[c] | _BIT[d]] >> 7


# ------------------------------------------------------------------ betting (R4.3, R5, R6, R8)


def _betting(
    mode: int,
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
    (R5); in the first round a seat facing no bet exchanges or bets (R4.3); in the
    declare round each seat declares at its first turn (R6); bets over 0 with three or
    more still in go to a vote, and a refused bettor acts again below the cap (R8).
    Mutates ``stacks``, ``contrib``, ``folded``, ``hands`` (and the deck for exchanges).
    """
    able = [s for s in range(n) if not folded[s] and stacks[s] > 0]
    if len(able) < 2:
        return _DONE
    ring = _RING[n]
    first = mode == _FIRST
    declaring = mode == _DECLARE and p.declarations
    declared = [False] * n
    refusal = p.refusal
    min_raise = p.min_raise
    max_raises = p.max_raises
    open_low = p.first_low if first else 0
    xopts = p.first_exchange if first else ()
    nx = len(xopts)
    live = folded.count(False)
    rb = [0] * n  # chips put in this round (R5)
    acted = [False] * n
    current = -1  # the round's bet to match; -1: no bet open
    raises = 0
    cap = 0  # after a refusal: amounts must stay below this (0: no cap, R8)
    amount = low = high = 0
    s = able[0]
    while True:
        r = brands[s]
        stack = stacks[s]
        move = -1
        if declaring and not declared[s]:  # R4.5, R6: declare at the first turn
            declared[s] = True  # R8: a declaration made at a refused turn stands
            if current >= 0 and int(r() * 2):  # kinds ["dc", "f"]: fold, no declaration
                move = _FOLD
            else:
                if current < 0:
                    r()  # kinds ["dc"]
                true = _category(hands[s])
                said = true + int(r() * (5 - true))  # the true category or a higher one
                if lines is not None:
                    lines.append(_SEAT[s] + " dc " + _CATEGORY_LABEL[said])
        if move >= 0:
            pass
        elif current < 0:  # no bet open: bet, or exchange in the first round
            high = stack if not cap or stack < cap else cap - 1
            can_bet = open_low <= high
            i = int(r() * (nx + can_bet))
            if i < nx:  # R4.3: exchange 0, 1 or 2 cards
                _exchange(s, xopts[i], hands, r, stock, discard, drand, lines)
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
            amount = open_low + int(r() * (high - open_low + 1))
        else:  # facing a bet: raise, call or fold
            can_raise = raises < max_raises
            if can_raise:
                for t in range(n):
                    if t != s and not folded[t] and stacks[t] > 0:
                        break
                else:
                    can_raise = False  # R5: every other player still in is all-in
            if can_raise:
                low = current + min_raise
                high = rb[s] + stack
                if cap and high >= cap:
                    high = cap - 1
                can_raise = low <= high
            # kinds [r] c f
            move = (_RAISE, _CALL, _FOLD)[int(r() * (2 + can_raise)) + 1 - can_raise]
            if move == _RAISE:
                amount = low + int(r() * (high - low + 1))
        if move == _CALL:  # a check when nothing is owed; all-in for less when short
            chips = current - rb[s]
            if chips > stack:
                chips = stack
            stacks[s] = stack - chips
            rb[s] += chips
            contrib[s] += chips
            acted[s] = True
            if lines is not None:
                lines.append(_SEAT[s] + " c")
        elif move == _FOLD:  # the hand is dead (R8b: never returns to play)
            folded[s] = True
            hands[s] = []
            live -= 1
            if lines is not None:
                lines.append(_SEAT[s] + " f")
            if live == 1:
                return _ALONE
        else:  # a bet or a raise
            if lines is not None:
                lines.append(_SEAT[s] + (" r " if move == _RAISE else " b ") + str(amount))
            if amount > 0 and refusal and live >= 3:  # R8: the others vote, from the next seat
                refused = True
                for v in ring[s]:
                    if v == s:
                        break
                    if folded[v]:
                        continue
                    accept = brands[v]() < 0.5  # kinds ["y", "n"]: the first accept decides
                    if lines is not None:
                        lines.append(_SEAT[v] + (" y" if accept else " n"))
                    if accept:
                        refused = False
                        break
                if refused:  # withdrawn: the bettor acts again, below the refused amount
                    cap = amount
                    continue
            if move == _RAISE:  # the bet or raise stands (R5)
                raises += 1
            chips = amount - rb[s]
            stacks[s] = stack - chips
            rb[s] = amount
            contrib[s] += chips
            current = amount
            acted = [False] * n
            acted[s] = True
        cap = 0
        s = _next_turn(s, ring, folded, stacks, acted, rb, current)
        if s < 0:
            return _DONE


def _next_turn(
    s: int,
    ring: tuple[tuple[int, ...], ...],
    folded: list[bool],
    stacks: list[int],
    acted: list[bool],
    rb: list[int],
    current: int,
) -> int:
    """The next seat to act in a betting round after ``s``, or -1 when it is over (R5)."""
    for t in ring[s]:
        if not folded[t] and stacks[t] > 0 and (not acted[t] or rb[t] < current):
            return t
    return -1


def _exchange(
    s: int,
    k: int,
    hands: list[list[int]],
    r: _Rand,
    stock: list[int],
    discard: list[int],
    drand: _Rand,
    lines: list[str] | None,
) -> None:
    """Seat ``s`` throws ``k`` cards popped at random from its hand and is dealt as many."""
    hand = hands[s]
    if k == 0:
        if lines is not None:
            lines.append(_SEAT[s] + " x")
        return
    if k == 1:
        thrown = [hand.pop(int(r() * len(hand)))]
    else:
        a = hand.pop(int(r() * len(hand)))
        thrown = [a, hand.pop(int(r() * len(hand)))]
    discard += thrown
    cards = _draw(k, stock, discard, thrown, drand)
    hand += cards
    if lines is not None:
        lines.append(_exchange_line(s, thrown))
        lines.append(_deal_line(s, cards))


# ------------------------------------------------------------------ a whole hand (R4)


def _play_hand(
    stacks: list[int],
    p: _Params,
    drand: _Rand,
    brands: Sequence[_Rand],
    lines: list[str] | None,
) -> list[int] | None:
    """Play one hand in place on ``stacks`` (seat order p1…pN, before the ante).

    Returns:
        At a showdown, each seat's hand value key (``category * 128 + points``, R2), -1
        for folded seats; None when everyone else folded (no showdown, R9b).
    """
    n = len(stacks)
    ante = p.ante
    contrib = [0] * n
    for s in range(n):  # R4.1 ante
        chips = ante if stacks[s] > ante else stacks[s]
        stacks[s] -= chips
        contrib[s] = chips
    folded = [False] * n
    while True:  # R4.2-R4.3, again after each void deal
        stock = list(range(40))
        discard: list[int] = []
        hands: list[list[int]] = []
        for s in range(n):  # R4.2 first deal: 2 cards each (never short: n <= 8)
            size = 40 - 2 * s
            a = stock.pop(int(drand() * size))
            cards = [a, stock.pop(int(drand() * (size - 1)))]
            hands.append(cards)
            if lines is not None:
                lines.append(_deal_line(s, cards))
        outcome = _betting(
            _FIRST, n, stacks, contrib, folded, hands, brands, stock, discard, drand, p, lines
        )
        if outcome != _VOID:
            break
    if outcome == _DONE:
        for s in range(n):  # R4.4 second deal (R8b possible with 8 players)
            if not folded[s]:
                cards = _draw(2, stock, discard, (), drand)
                hands[s] += cards
                if lines is not None:
                    lines.append(_deal_line(s, cards))
        outcome = _betting(
            _DECLARE, n, stacks, contrib, folded, hands, brands, stock, discard, drand, p, lines
        )
    if outcome == _DONE:
        for s in range(n):  # R4.6 second exchange, all-in players too
            if not folded[s]:
                r = brands[s]
                _exchange(s, int(r() * 3), hands, r, stock, discard, drand, lines)
        if p.last_round:
            outcome = _betting(
                _LAST, n, stacks, contrib, folded, hands, brands, stock, discard, drand, p, lines
            )
    if outcome == _ALONE:  # R4.8: the last player still in takes every pot unseen
        stacks[folded.index(False)] += sum(contrib)
        return None
    return _showdown(n, stacks, contrib, folded, hands, p.split)


def _showdown(
    n: int,
    stacks: list[int],
    contrib: list[int],
    folded: list[bool],
    hands: list[list[int]],
    split: bool,
) -> list[int]:
    """Award the main pot and side pots to the best hands (R7); return the value keys."""
    keys = [-1] * n
    inside = []
    for s in range(n):
        if not folded[s]:
            a, b, c, d = hands[s]
            keys[s] = _KEY[_BIT[a] | _BIT[b] | _BIT[c] | _BIT[d]]
            inside.append(s)
    levels = sorted({contrib[s] for s in inside})
    previous = 0
    top = levels[-1]
    for level in levels:  # one pot per contribution level of the players still in
        if level == top:
            amount = sum(c - previous for c in contrib if c > previous)
        else:
            amount = sum((level if c > level else c) - previous for c in contrib if c > previous)
        eligible = [s for s in inside if contrib[s] >= level]
        previous = level
        if not amount:
            continue
        best = max(keys[s] for s in eligible)
        winners = [s for s in eligible if keys[s] == best]
        if not split or len(winners) == 1:  # R7: the eldest (earliest seat) wins a tie
            stacks[winners[0]] += amount
        else:  # R7 split: equal shares, odd chips one each from p1
            share, odd = divmod(amount, len(winners))
            for i, s in enumerate(winners):
                stacks[s] += share + (1 if i < odd else 0)
    return keys


# ------------------------------------------------------------------ public API


@dataclass(frozen=True, slots=True)
class FastHandResult:
    """How a hand played by :func:`play_random_hand` ended.

    Attributes:
        final_stacks: chips of each seat after the hand, seat order p1…pN (equal to
            :attr:`primero.state.HandResult.final_stacks` of the checked engine).
        shown: the category of each hand shown at the showdown, None for folded seats
            and for every seat when the hand ended uncontested (R9b).
        lines: the record lines (hand-history.md) when asked for with ``record=True``,
            equal to :meth:`primero.state.HandState.lines`; else None.
    """

    final_stacks: tuple[int, ...]
    shown: tuple[Category | None, ...]
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
            per seat, and stacks that are whole numbers >= 1.
    """
    rules.check_players(len(stacks))
    if len(bot_rngs) != len(stacks):
        raise RulesError(f"one bot random source per seat: {len(stacks)} seats")
    if any(type(c) is not int or c < 1 for c in stacks):
        raise RulesError("a starting stack is a whole number >= 1 (chips)")
    chips = list(stacks)
    lines: list[str] | None = [] if record else None
    keys = _play_hand(chips, _params(rules), dealer_rng.random, [r.random for r in bot_rngs], lines)
    shown: tuple[Category | None, ...] = (
        (None,) * len(chips)
        if keys is None
        else tuple(None if k < 0 else _CATEGORY[k >> 7] for k in keys)
    )
    return FastHandResult(tuple(chips), shown, lines)


def match_seeds(seed: int, match: int, players: int) -> tuple[int, list[int]]:
    """The seeds of one match of a random-bot simulation (R10).

    Match ``match`` (0-based) of a simulation seeded ``seed`` deals with
    ``random.Random(dealer)`` and gives the player at table index ``i`` a random bot
    seeded ``bots[i]``, where ``base = (seed * 1_000_003 + match) * 16``, ``dealer = base``
    and ``bots[i] = base + 1 + i``.

    Args:
        seed: the simulation's seed.
        match: the match's 0-based index.
        players: the number of players (at most 8).

    Returns:
        ``(dealer, bots)``.
    """
    base = (seed * 1_000_003 + match) * 16
    return base, [base + 1 + i for i in range(players)]


@dataclass(frozen=True, slots=True)
class SimulationSummary:
    """What :func:`simulate_random` played.

    Attributes:
        players: players per match.
        hands: hands played in all.
        matches: matches started (the last one may be cut short by the hand count).
        showdowns: hands that ended at a showdown (the others ended uncontested).
        shown_categories: how many hands of each category were shown at showdowns,
            indexed by :class:`Category` (numerus first).
        final_chips: each match's chips by table index at its end (chips).
    """

    players: int
    hands: int
    matches: int
    showdowns: int
    shown_categories: tuple[int, ...]
    final_chips: tuple[tuple[int, ...], ...]


def simulate_random(
    players: int,
    hands: int,
    seed: int,
    rules: Rules = DEFAULT_RULES,
    stack: int = 100,
    max_hands: int | None = None,
) -> SimulationSummary:
    """Play ``hands`` hands of random bots as a series of matches (R9), fast.

    Matches are played one after another, each seeded by :func:`match_seeds`: the
    players sit at table indices ``0..players-1`` (index 0 is p1 of the first hand, the
    last index deals it, as :class:`~primero.match.Match`), each starting with ``stack``
    chips; a match ends when one player holds every chip or after ``max_hands`` hands
    (R9), and the series stops after ``hands`` hands in all, cutting the last match
    short. The result equals that of :class:`~primero.match.Match` with
    ``seed=dealer`` and ``RandomBot(seed=bots[i])`` per player.

    Args:
        players: players per match, ``rules.min_players`` to ``rules.max_players``.
        hands: hands to play in all, >= 0.
        seed: the simulation's seed (R10).
        rules: the house rules.
        stack: each player's starting chips, >= 1.
        max_hands: end each match after this many hands (None: until one player has
            every chip).

    Returns:
        A :class:`SimulationSummary`.

    Raises:
        RulesError: a number of players outside the rules' range, a stack < 1, a
            negative hand count or ``max_hands`` < 1.
    """
    if not rules.min_players <= players <= rules.max_players:
        raise RulesError(
            f"a match starts with {rules.min_players} to {rules.max_players} players "
            f"(min_players/max_players), not {players}"
        )
    if type(stack) is not int or stack < 1:
        raise RulesError(f"the starting stack is a whole number >= 1, not {stack!r}")
    if hands < 0:
        raise RulesError(f"the number of hands must be >= 0, not {hands}")
    if max_hands is not None and max_hands < 1:
        raise RulesError(f"max_hands must be >= 1, not {max_hands}")
    p = _params(rules)
    limit = _NO_LIMIT if max_hands is None else max_hands
    played = matches = showdowns = 0
    shown = [0] * 5
    finals: list[tuple[int, ...]] = []
    while played < hands:
        dealer_seed, bot_seeds = match_seeds(seed, matches, players)
        matches += 1
        drand = random.Random(dealer_seed).random
        brands = [random.Random(b).random for b in bot_seeds]
        chips = [stack] * players
        dealer = players - 1
        in_match = players
        match_hands = 0
        while in_match > 1 and match_hands < limit and played < hands:
            # R3: seats from the dealer's right round to the dealer, players still in
            seats = [t for t in _RING[players][dealer] if chips[t] > 0]
            hand_stacks = [chips[t] for t in seats]
            keys = _play_hand(hand_stacks, p, drand, [brands[t] for t in seats], None)
            if keys is not None:
                showdowns += 1
                for k in keys:
                    if k >= 0:
                        shown[k >> 7] += 1
            for t, c in zip(seats, hand_stacks, strict=True):
                chips[t] = c
            played += 1
            match_hands += 1
            in_match = sum(1 for c in chips if c > 0)
            for t in _RING[players][dealer]:  # R3: the deal passes right
                if chips[t] > 0:
                    dealer = t
                    break
        finals.append(tuple(chips))
    return SimulationSummary(players, played, matches, showdowns, tuple(shown), tuple(finals))
