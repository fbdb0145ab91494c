"""The heuristic bot's win model: how likely a hand is to beat the opponents it models.

A hand's strength is a win probability ``w``: the chance that its final hand beats every
opponent it models. Each opponent is a :class:`Range`: what its hand can be, from what
the seat has seen of it (R9b):

* **its declaration** (R6) is the truth or higher, so it bounds the hand from above and
  from nowhere else: an opponent who declared category ``c`` holds, at the time of
  declaring, a hand of category ``c`` *or lower* (a random hand conditioned on that, made
  a little stronger by exchanges), except that with :data:`EXCHANGE_LEAK` it improved at
  the exchange since. A chorus declaration says nothing; a numerus one says a lot.
* **its bet** is read by its size: a bettor's range is a mix of value hands (its
  percentile raised to :data:`VALUE_ALPHA` on top of the exchange model) and bluffs
  (random hands). The share of bluffs grows with the bet as in a balanced betting range,
  ``bet / (pot + 2 * bet)`` (a quarter for half the pot, a third for the pot, near half
  for an all-in many times the pot), with at least :data:`MIN_BLUFF_SHARE`, so an all-in
  bettor whose hands are random cannot make the bot fold its good hands;
* an opponent **yet to answer** a bet folds with probability :data:`YET_FOLDS`;
* an opponent with no signal holds a random four-card hand made a little stronger by
  exchanges (its percentile among all hands raised to :data:`EXCHANGE_ALPHA`).

The older shorthands are still accepted as opponents: None (no signal), ``"bet"`` (in for
a bet, a third bluffs), ``"yet"``, and a :class:`~primero.engine.hands.Category` (declared).

The expected ``w`` of an exchange (two cards in the first round, four before the second
exchange) comes from :func:`primero.engine.odds.exchange_outcomes`, the exact enumeration that
:func:`primero.engine.odds.exchange_odds` scores heads-up: it gives how many draws of each choice
lead to each hand value, and ``w`` per value weights them, in whole numbers (R10).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from primero.engine.batch import VALUE_CATEGORY, VALUE_POINTS
from primero.engine.cards import DECK, Card
from primero.engine.hands import Category, value_by_mask
from primero.engine.odds import exchange_outcomes

__all__ = [
    "BETTOR_ALPHA",
    "DECLARED_BLUFF",
    "EXCHANGE_ALPHA",
    "EXCHANGE_LEAK",
    "MIN_BLUFF_SHARE",
    "VALUE_ALPHA",
    "YET_FOLDS",
    "Opponent",
    "Range",
    "average_value",
    "best_exchange",
    "bluff_share",
    "choose_exchange",
    "first_round_values",
    "win_ints",
    "win_table",
]

#: Opponents' hands are modelled as random hands whose percentile is raised to this
#: power: they too exchange towards better hands.
EXCHANGE_ALPHA: Final = 1.5
#: An undeclared opponent in for a bet it made or called (chips > 0): its percentile is
#: raised to this power (the better of two random hands): bets signal strength.
BETTOR_ALPHA: Final = 2
#: The modelled chance that an opponent yet to answer a bet folds to it.
YET_FOLDS: Final = 0.5
#: The chance that a declared opponent's hand improved above its declaration (R6) at an
#: exchange since (the declaration bounds the hand held when declaring).
EXCHANGE_LEAK: Final = 0.15
#: Kept for compatibility: a declaration's chance of being above the hand is no longer
#: a parameter (a declaration is an upper bound, see the module docstring).
DECLARED_BLUFF: Final = EXCHANGE_LEAK
#: A bettor's value hands: its percentile (in the exchange model) raised to this power.
VALUE_ALPHA: Final = 1.5
#: The least share of bluffs assumed in any bettor's range.
MIN_BLUFF_SHARE: Final = 0.2
#: Bluff shares are rounded to this step (so that the model's tables are shared).
_SHARE_STEP: Final = 0.05


def bluff_share(bet: int, pot: int) -> float:
    """The share of bluffs in the range of a bettor who put ``bet`` chips into a pot of
    ``pot`` chips: ``bet / (pot + 2 * bet)`` (the balanced share: the caller's pot odds),
    at least :data:`MIN_BLUFF_SHARE`, rounded to 0.05.

    >>> bluff_share(5, 10), bluff_share(10, 10), bluff_share(99, 4)
    (0.25, 0.35, 0.5)
    """
    share = bet / max(1, pot + 2 * bet)
    share = max(MIN_BLUFF_SHARE, min(0.5, share))
    return round(round(share / _SHARE_STEP) * _SHARE_STEP, 2)


class Range(NamedTuple):
    """What one opponent's hand can be (see the module docstring).

    Attributes:
        cap: its declared category (R6): its hand was no higher when it declared; None
            when it has not declared.
        signal: None, ``"yet"`` (yet to answer a bet) or ``"bet"`` (in for a bet).
        bluffs: for ``"bet"``, the share of bluffs in its range (:func:`bluff_share`).
    """

    cap: Category | None = None
    signal: Literal["bet", "yet"] | None = None
    bluffs: float = 0.0


#: One modelled opponent: a :class:`Range`, or a shorthand: None (no signal), ``"bet"``
#: (in for a bet: a third bluffs), ``"yet"`` (yet to answer a bet), or its declared
#: category.
Opponent = Range | Category | None | Literal["bet", "yet"]

_NKEYS: Final = 5 * 128  # HandValue.key = category * 128 + points < 640


def _percentiles() -> tuple[list[float], list[list[float]], list[int], list[int]]:
    """Mid-rank percentile of every hand key among all hands, and within each category."""
    counts = Counter(v.key for v in value_by_mask().values())
    keys = sorted(counts)
    total = sum(counts.values())
    pct = [0.0] * _NKEYS
    below = 0
    for key in keys:
        pct[key] = (below + counts[key] / 2) / total
        below += counts[key]
    by_cat: list[list[float]] = []
    for cat in Category:
        lo, hi = int(cat) * 128, int(cat) * 128 + 128
        cat_keys = [k for k in keys if lo <= k < hi]
        cat_total = sum(counts[k] for k in cat_keys)
        table = [0.0] * _NKEYS
        for k in keys:
            if k >= hi:
                table[k] = 1.0
        below = 0
        for k in cat_keys:
            table[k] = (below + counts[k] / 2) / cat_total
            below += counts[k]
        by_cat.append(table)
    return pct, by_cat, keys, [counts[k] for k in keys]


_PCT, _PCT_BY_CATEGORY, _KEYS, _KEY_COUNTS = _percentiles()
#: ``HandValue.key`` of each value rank of :func:`primero.engine.odds.exchange_outcomes`.
_RANK_KEYS: Final = VALUE_CATEGORY.astype(np.intp) * 128 + VALUE_POINTS.astype(np.intp)

# Opponent models per key, built from +, *, /, sqrt only (IEEE-exact everywhere, R10).
_PCT_NP: Final = np.array(_PCT, dtype=np.float64)
_RANDOM_OPPONENT: Final = _PCT_NP * np.sqrt(_PCT_NP)  # percentile ** EXCHANGE_ALPHA


def _share_at_most(category: int) -> float:
    """The share of all hands whose category is ``category`` or lower."""
    below = sum(n for k, n in zip(_KEYS, _KEY_COUNTS, strict=True) if k < (category + 1) * 128)
    return below / sum(_KEY_COUNTS)


def _as_range(opponent: Opponent) -> Range:
    if isinstance(opponent, Range):
        return opponent
    if opponent is None:
        return Range()
    if opponent == "bet":
        return Range(None, "bet", 0.35)
    if opponent == "yet":
        return Range(None, "yet")
    return Range(Category(opponent))


@lru_cache(maxsize=512)
def _range_cdf(r: Range) -> npt.NDArray[np.float64]:
    """Per hand key, the chance that an opponent of range ``r`` holds a lower hand."""
    base = _RANDOM_OPPONENT
    if r.cap is not None and r.cap < Category.CHORUS:
        share = _share_at_most(int(r.cap))
        top = share * np.sqrt(share)  # the exchange model's share of hands up to the cap
        capped = np.minimum(1.0, _RANDOM_OPPONENT / top)
        base = (1 - EXCHANGE_LEAK) * capped + EXCHANGE_LEAK * _RANDOM_OPPONENT
    if r.signal == "yet":
        out: npt.NDArray[np.float64] = YET_FOLDS + (1 - YET_FOLDS) * base
        return out
    if r.signal == "bet":
        value = base * np.sqrt(base)  # percentile ** VALUE_ALPHA within the range
        mixed: npt.NDArray[np.float64] = r.bluffs * base + (1 - r.bluffs) * value
        return mixed
    return base


#: Win chances are scaled to whole numbers for exact, machine-independent sums (R10).
_SCALE: Final = 1 << 24


def win_table(opponents: Sequence[Opponent]) -> npt.NDArray[np.float64]:
    """The modelled chance that a hand of each key beats every opponent (indexed by
    ``HandValue.key``).

    Args:
        opponents: one :data:`Opponent` per opponent modelled.

    Returns:
        An array of 640 probabilities in 0..1 (0 for keys no hand has).
    """
    table = np.ones(_NKEYS, dtype=np.float64)
    for opponent in _canonical(opponents):  # a fixed order of products (R10)
        table *= _range_cdf(_as_range(opponent))
    return table


def _scaled(wins: Sequence[float] | npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """Win chances per key, scaled to whole numbers (R10)."""
    scaled = np.rint(np.asarray(wins, dtype=np.float64) * _SCALE)
    ints: npt.NDArray[np.int64] = scaled.astype(np.int64)
    return ints


def _canonical(opponents: Sequence[Opponent]) -> tuple[Range, ...]:
    """The opponents as ranges in a fixed order (the model is a product: order does not
    matter), so that caches are shared."""

    def rank(r: Range) -> tuple[int, int, float]:
        signal = {None: 0, "yet": 1, "bet": 2}[r.signal]
        return (-1 if r.cap is None else int(r.cap), signal, r.bluffs)

    return tuple(sorted((_as_range(o) for o in opponents), key=rank))


@lru_cache(maxsize=2048)
def _win_ints_cached(
    opponents: tuple[Range, ...],
) -> tuple[npt.NDArray[np.int64], list[int]]:
    ints = _scaled(win_table(opponents))
    return ints[_RANK_KEYS], ints.tolist()


def win_ints(opponents: Sequence[Opponent]) -> tuple[npt.NDArray[np.int64], list[int]]:
    """:func:`win_table` scaled to whole numbers (``2**24`` per 1, R10): per value rank
    of :func:`primero.engine.odds.exchange_outcomes` (an array) and per ``HandValue.key`` (a
    list). Cached."""
    return _win_ints_cached(_canonical(opponents))


def choose_exchange(
    hand: tuple[Card, ...], dead: tuple[Card, ...], ints: npt.NDArray[np.int64], max_discard: int
) -> tuple[float, tuple[Card, ...]]:
    """The exchange of a 4-card ``hand`` with the highest mean of ``ints`` (per value rank)
    over its draws, from :func:`primero.engine.odds.exchange_outcomes`.

    Args:
        hand: the four cards held.
        dead: cards that cannot be drawn (besides the hand).
        ints: scaled win chances per value rank (:func:`win_ints`).
        max_discard: the most cards that may be thrown (0, 1 or 2).

    Returns:
        ``(mean win chance in 0..1, cards to discard)``. Means compare as exact
        fractions; on equal means the earlier choice (fewer discards) wins.
    """
    counts, dens, discards = _exchange_counts(hand, dead)
    nums: list[int] = (counts @ ints).tolist()
    best_num, best_den = 0, 0
    best: tuple[Card, ...] = ()
    for num, den, discard in zip(nums, dens, discards, strict=True):
        if den == 0 or len(discard) > max_discard:
            continue
        if best_den == 0 or num * best_den > best_num * den:
            best_num, best_den, best = num, den, discard
    return best_num / best_den / _SCALE, best


@lru_cache(maxsize=256)
def _exchange_counts(
    hand: tuple[Card, ...], dead: tuple[Card, ...]
) -> tuple[npt.NDArray[np.int64], tuple[int, ...], tuple[tuple[Card, ...], ...]]:
    """:func:`primero.engine.odds.exchange_outcomes` of a 4-card hand as the bot uses it: the
    value rank counts, the number of draws and the discards of each choice. Cached: a
    bot asks several times per hand (declaration, bets, votes, the exchange)."""
    outcomes = exchange_outcomes(hand, dead)
    dens = tuple(outcomes.outcomes(i) for i in range(len(outcomes.keeps)))
    return outcomes.counts, dens, outcomes.discards


def best_exchange(
    hand: Sequence[Card],
    unseen: Sequence[Card],
    wins: Sequence[float] | npt.NDArray[np.float64],
    max_discard: int = 2,
) -> tuple[float, tuple[Card, ...]]:
    """The exchange of a 4-card hand with the best expected win chance (exact enumeration).

    Every choice of 0, 1 or 2 discards (R4.6) is scored by the mean of ``wins`` over every
    equally likely draw from ``unseen`` (the cards the seat has not seen: not its hand,
    not its own discards), as enumerated by :func:`primero.engine.odds.exchange_outcomes`. Sums
    are exact (whole numbers, R10).

    Args:
        hand: the four cards held.
        unseen: the cards that may be drawn.
        wins: the win chance of each hand key (640 values, from :func:`win_table`).
        max_discard: the largest number of cards that may be discarded (0, 1 or 2).

    Returns:
        ``(expected win chance, cards to discard)``; on equal values fewer discards win.
    """
    held = tuple(hand)
    drawable = set(unseen)
    dead = tuple(c for c in DECK if c not in drawable and c not in held)
    return choose_exchange(held, dead, _scaled(wins)[_RANK_KEYS], max_discard)


@lru_cache(maxsize=256)
def _pair_counts(r1: int, r2: int, suited: bool) -> tuple[npt.NDArray[np.int64], tuple[int, ...]]:
    """The value rank counts and draw counts of the 4 first-round choices (keep both,
    discard the first card, discard the second, discard both) of two cards of ranks r1,
    r2, from :func:`primero.engine.odds.exchange_outcomes` (no dead cards)."""
    outcomes = exchange_outcomes((DECK[r1], DECK[r2 + (0 if suited else 10)]))
    return outcomes.counts, tuple(outcomes.outcomes(i) for i in range(4))


@lru_cache(maxsize=4096)
def _first_round_cached(
    r1: int, r2: int, suited: bool, opponents: tuple[Range, ...]
) -> tuple[float, float, float, float]:
    counts, dens = _pair_counts(r1, r2, suited)
    nums: list[int] = (counts @ _win_ints_cached(opponents)[0]).tolist()
    both, keep_r2, keep_r1, none = (num / den / _SCALE for num, den in zip(nums, dens, strict=True))
    return both, keep_r1, keep_r2, none


def first_round_values(
    a: Card, b: Card, opponents: Sequence[Opponent]
) -> tuple[float, float, float, float]:
    """Expected win chance of two cards in the first round (R4.3), then the second deal.

    Args:
        a, b: the two cards held.
        opponents: the opponents modelled (:data:`Opponent`).

    Returns:
        The expected win chance (0..1) of keeping both ``a`` and ``b``, only ``a``, only
        ``b``, and none (the discards do not come back). Cached per rank pattern.
    """
    key = _canonical(opponents)
    if int(a.rank) <= int(b.rank):
        return _first_round_cached(int(a.rank), int(b.rank), a.suit == b.suit, key)
    both, keep_b, keep_a, none = _first_round_cached(
        int(b.rank), int(a.rank), a.suit == b.suit, key
    )
    return both, keep_a, keep_b, none


@lru_cache(maxsize=64)
def _average_cached(opponents: tuple[Range, ...]) -> float:
    wins: list[float] = win_table(opponents).tolist()
    total = sum(_KEY_COUNTS)
    return sum(wins[key] * n for key, n in zip(_KEYS, _KEY_COUNTS, strict=True)) / total


def average_value(opponents: Sequence[Opponent]) -> float:
    """The win chance (0..1) of an average hand (a random hand from the whole deck)
    against ``opponents`` (:data:`Opponent`): the yardstick of the bot's thresholds."""
    return _average_cached(_canonical(opponents))
