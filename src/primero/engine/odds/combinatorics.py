"""NumPy combinatorics of the exact odds: subsets of the unseen cards in colex order,
their value ranks, and the enumeration of every draw of every exchange choice (R1, R2).

A seat's unseen cards, sorted, are numbered 0..n-1 (positions); the structures here
index the subsets of those positions and look up the value rank (index into
:data:`primero.engine.batch.VALUE_CATEGORY`) of every hand they make. Internal to
:mod:`primero.engine.odds`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Final

import numpy as np
import numpy.typing as npt

from primero.engine.batch import VALUE_CATEGORY, VALUE_POINTS, ranks_of_valid
from primero.engine.cards import DECK, Card, CardError, format_cards, parse_cards
from primero.engine.odds.results import ExchangeOutcomes

_VALUES: Final = len(VALUE_CATEGORY)  # distinct hand values (112)
_VALUE_POINTS_I: Final = VALUE_POINTS.astype(np.int64)
#: ``(values, 5)``: 1 where the value rank is of the category
_CATEGORY_OF_VALUE: Final = (VALUE_CATEGORY[:, None] == np.arange(5)).astype(np.int64)


def _parse(
    own: str | Iterable[Card | str], dead: str | Iterable[Card | str], sizes: tuple[int, ...]
) -> tuple[tuple[Card, ...], tuple[Card, ...], npt.NDArray[np.uint8]]:
    """Parse and check the seat's cards and the dead cards; the unseen card ids."""
    hand = parse_cards(own)
    if len(hand) not in sizes:
        wanted = " or ".join(str(s) for s in sizes)
        raise CardError(f"the seat must hold {wanted} cards, got {len(hand)}: {format_cards(hand)}")
    dead_cards = parse_cards(dead)
    both = [c for c in dead_cards if c in hand]
    if both:
        raise CardError(f"card {both[0]} is both in the seat's hand and among the dead cards")
    known = {c.id for c in hand} | {c.id for c in dead_cards}
    unseen = np.array([i for i in range(40) if i not in known], dtype=np.uint8)
    return hand, dead_cards, unseen


def _colex(n: int, k: int) -> npt.NDArray[np.intp]:
    """The k-subsets of ``range(n)`` in colexicographic order (by largest element first).

    In this order the subsets of ``range(m)`` are the first ``C(m, k)`` rows for every
    ``m <= n``, and a row ``c_1 < ... < c_k`` has rank ``sum C(c_i, i)``.
    """
    rows: npt.NDArray[np.intp] = np.zeros((1, 0), dtype=np.intp)
    for size in range(1, k + 1):
        # the subsets with largest element m: the smaller subsets of range(m), then m
        rows = np.concatenate(
            [
                np.column_stack([rows[: comb(m, size - 1)], np.full(comb(m, size - 1), m)])
                for m in range(size - 1, n)
            ]
        )
    return rows


def _colex_rank(columns: list[npt.NDArray[np.intp]]) -> npt.NDArray[np.intp]:
    """Colexicographic rank of subsets given as increasing columns ``c_1 < ... < c_k``."""
    rank = np.zeros(len(columns[0]), dtype=np.intp)
    for i, column in enumerate(columns, start=1):
        rank += _BINOMIAL[column, i]
    return rank


_BINOMIAL: Final = np.array([[comb(x, j) for j in range(5)] for x in range(41)], dtype=np.intp)


class _Subsets:
    """Index structures of the subsets of the 40 card positions, in colex order (R1).

    A seat's unseen cards, sorted, are numbered 0..n-1 (positions); because the order
    is colexicographic, the structures for n unseen cards are prefixes of these (see
    :meth:`prefix`, cached per ``n`` by :func:`_geometry`), so nothing is rebuilt per
    decision.
    """

    def __init__(self) -> None:
        n = 40
        self.quads = _colex(n, 4)
        self.pairs = _colex(n, 2)
        self.triples = _colex(n, 3)
        q = [self.quads[:, i] for i in range(4)]
        t = [self.triples[:, i] for i in range(3)]
        #: (C(n,4), 6): colex rank of each pair of each 4-subset
        self.quad_pairs = np.stack(
            [
                _colex_rank([q[i], q[j]])
                for i, j in ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
            ],
            axis=1,
        )
        #: (C(n,4), 4): colex rank of each 3-subset of each 4-subset (dropping card i)
        self.quad_triples = np.stack(
            [_colex_rank([q[j] for j in range(4) if j != i]) for i in range(4)],
            axis=1,
        )
        #: (C(n,3), 3): colex rank of each pair of each 3-subset
        self.triple_pairs = np.stack(
            [_colex_rank([t[i], t[j]]) for i, j in ((0, 1), (0, 2), (1, 2))], axis=1
        )
        #: (C(n,3), n-3): rank of each 4-subset holding each 3-subset, by the added card
        added = np.broadcast_to(np.arange(n), (len(self.triples), n))
        outside = (added != self.triples[:, :1]) & (added != self.triples[:, 1:2])
        outside &= added != self.triples[:, 2:]
        z = added[outside].reshape(len(self.triples), n - 3)
        rank = _BINOMIAL[z, 1 + (z > t[0][:, None]) + (z > t[1][:, None]) + (z > t[2][:, None])]
        for i, column in enumerate(t, start=1):
            rank += _BINOMIAL[column[:, None], i + (z < column[:, None])]
        self.triple_quads = rank
        #: (C(n,4),) each: the colex rank of a quad's two lowest and two highest cards
        self.quad_low_pairs = np.ascontiguousarray(self.quad_pairs[:, 0])
        self.quad_high_pairs = np.ascontiguousarray(self.quad_pairs[:, 5])
        for array in vars(self).values():
            array.flags.writeable = False

    def prefix(self, n: int) -> _Geometry:
        """The structures for ``n`` unseen cards: mostly views of the first rows and
        columns; the few that are not contiguous views are copied (see :func:`_geometry`,
        which caches the result)."""
        n4, n3, n2 = comb(n, 4), comb(n, 3), comb(n, 2)
        pairs = self.pairs[:n2]
        # the pairs holding each card x (n - 1 each): the rank of pair {x, y} for y != x
        others = np.arange(n)[None, :].repeat(n, axis=0)
        others = others[others != np.arange(n)[:, None]].reshape(n, max(n - 1, 0))
        card = np.arange(n)[:, None]
        low, high = np.minimum(card, others), np.maximum(card, others)
        card_pairs = _BINOMIAL[low, 1] + _BINOMIAL[high, 2]
        geometry = _Geometry(
            n=n,
            pairs=pairs,
            triples=self.triples[:n3],
            quads=self.quads[:n4],
            quad_pairs=self.quad_pairs[:n4],
            quad_triples=self.quad_triples[:n4],
            triple_pairs=self.triple_pairs[:n3],
            triple_quads=np.ascontiguousarray(self.triple_quads[:n3, : max(n - 3, 0)].T),
            quad_low_pairs=self.quad_low_pairs[:n4],
            quad_high_pairs=self.quad_high_pairs[:n4],
            card_pairs=card_pairs,
        )
        for array in (geometry.triple_quads, geometry.card_pairs):
            array.flags.writeable = False
        return geometry


@dataclass(frozen=True, slots=True)
class _Geometry:
    """The subsets of ``n`` unseen card positions (see :class:`_Subsets`).

    ``pairs``, ``triples``, ``quads``: the subsets, one per row, in colex order (a
    subset's row number is its rank); ``quad_pairs`` ``(C(n,4), 6)`` and
    ``quad_triples`` ``(C(n,4), 4)``: the ranks of the pairs and 3-subsets of each
    4-subset; ``triple_pairs`` ``(C(n,3), 3)``; ``triple_quads`` ``(n-3, C(n,3))``
    (contiguous, one column per 3-subset): the ranks of the 4-subsets that hold each
    3-subset; ``quad_low_pairs`` and ``quad_high_pairs``: the ranks of the pairs of the
    two lowest and the two highest positions of each 4-subset; ``card_pairs``
    ``(n, n-1)``: the ranks of the pairs holding each position.
    """

    n: int
    pairs: npt.NDArray[np.intp]
    triples: npt.NDArray[np.intp]
    quads: npt.NDArray[np.intp]
    quad_pairs: npt.NDArray[np.intp]
    quad_triples: npt.NDArray[np.intp]
    triple_pairs: npt.NDArray[np.intp]
    triple_quads: npt.NDArray[np.intp]
    quad_low_pairs: npt.NDArray[np.intp]
    quad_high_pairs: npt.NDArray[np.intp]
    card_pairs: npt.NDArray[np.intp]


_SUBSETS: Final = _Subsets()


@lru_cache(maxsize=16)
def _geometry(n: int) -> _Geometry:
    """The subsets of ``n`` unseen positions, built once per ``n`` (a few MB each)."""
    return _SUBSETS.prefix(n)


def _ranks(
    kept: tuple[Card, ...], unseen: npt.NDArray[np.uint8], draws: npt.NDArray[np.intp]
) -> npt.NDArray[np.intp]:
    """Value rank of each hand ``kept + unseen[draws row]``."""
    hands = np.empty((len(draws), 4), dtype=np.uint8)
    for i, card in enumerate(kept):
        hands[:, i] = card.id
    hands[:, len(kept) :] = unseen[draws]
    return ranks_of_valid(hands).astype(np.intp)


_NPAIRS: Final = 780  # pairs of distinct cards, C(40, 2)
_PAIR_WIDTH: Final = _NPAIRS + 1  # pair numbers 0..779, 780 = no pair (the same card twice)


def _pair_tables() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.uint8]]:
    """The number of every pair of cards and the value rank of every two pairs (R2).

    Returns:
        ``(pair_of, pair_hands)``: ``pair_of[40 * a + b]`` is the colex rank (0..779) of
        the pair of card ids ``{a, b}``, or 780 when ``a == b``; ``pair_hands[781 * p +
        q]`` is the value rank of the 4-card hand made of pairs ``p`` and ``q``, or 255
        when they share a card or one is 780.
    """
    pairs = _SUBSETS.pairs  # rows (a, b), a < b, in colex order: the row is the number
    number = np.arange(_NPAIRS, dtype=np.intp)
    pair_of = np.full((40, 40), _NPAIRS, dtype=np.intp)
    pair_of[pairs[:, 0], pairs[:, 1]] = number
    pair_of[pairs[:, 1], pairs[:, 0]] = number
    hands = np.empty((_NPAIRS, _NPAIRS, 4), dtype=np.uint8)
    hands[:, :, :2] = pairs[:, None, :]
    hands[:, :, 2:] = pairs[None, :, :]
    ranks = ranks_of_valid(hands.reshape(-1, 4)).reshape(_NPAIRS, _NPAIRS)
    shared = (pairs[:, None, :, None] == pairs[None, :, None, :]).any(axis=(2, 3))
    pair_hands = np.full((_PAIR_WIDTH, _PAIR_WIDTH), 255, dtype=np.uint8)
    pair_hands[:_NPAIRS, :_NPAIRS] = np.where(shared, 255, ranks)
    pair_of_flat = pair_of.ravel()
    pair_hands_flat = pair_hands.ravel()
    pair_of_flat.flags.writeable = False
    pair_hands_flat.flags.writeable = False
    return pair_of_flat, pair_hands_flat


_PAIR_OF, _PAIR_HANDS = _pair_tables()


def _pair_histograms() -> npt.NDArray[np.int64]:
    """``(values, 780)``: for every pair of cards p (column), how many pairs q of the 40
    cards disjoint from p make a hand ``p + q`` of each value rank (row): every 4-card
    hand holding p, counted once. An opponent's unseen hands holding p are these minus
    the ones that hold a known card (see :class:`_Opponent`)."""
    table = _PAIR_HANDS.reshape(_PAIR_WIDTH, _PAIR_WIDTH)[:_NPAIRS, :_NPAIRS]
    return _histogram_columns(table)


def _histogram_columns(ranks: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """``(values, rows)``: the histogram of the value ranks in each row of ``ranks``
    (``(rows, ...)``), as a column; the invalid rank 255 is left out.

    Value-major, so that the cumulative sums over the values (:meth:`_Opponent.
    _doubled_below`) run along long contiguous rows.
    """
    rows = len(ranks)
    cells = np.minimum(ranks.reshape(rows, -1), _VALUES).astype(np.intp)  # 255: spare bin
    cells *= rows
    cells += np.arange(rows, dtype=np.intp)[:, None]
    counts = np.bincount(cells.ravel(), minlength=(_VALUES + 1) * rows)
    result: npt.NDArray[np.int64] = counts.reshape(_VALUES + 1, rows)[:_VALUES]
    return result


_PAIR_HISTOGRAMS: Final = np.ascontiguousarray(_pair_histograms())
_PAIR_HISTOGRAMS.flags.writeable = False


def _pair_numbers(a: npt.NDArray[np.intp], b: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """The pair number of card ids ``a[i], b[i]`` (broadcast), times the table width."""
    result: npt.NDArray[np.intp] = _PAIR_OF.take(a * 40 + b) * _PAIR_WIDTH
    return result


def _quad_ranks(unseen: npt.NDArray[np.uint8], geometry: _Geometry) -> npt.NDArray[np.uint8]:
    """The value rank of every 4-subset of ``unseen`` (increasing ids), in colex order.

    The same as ``ranks_of_valid(unseen[geometry.quads])``, looked up in the table of
    two pairs: a 4-subset is the pair of its two lowest cards and the pair of its two
    highest, whose card pair numbers come from the ``C(n, 2)`` unseen pairs.
    """
    ids = unseen.astype(np.intp)
    pairs = geometry.pairs
    numbers = _PAIR_OF.take(ids.take(pairs[:, 0]) * 40 + ids.take(pairs[:, 1]))
    cells = (numbers * _PAIR_WIDTH).take(geometry.quad_low_pairs)
    cells += numbers.take(geometry.quad_high_pairs)
    result: npt.NDArray[np.uint8] = _PAIR_HANDS.take(cells)
    return result


def _draw_ranks(
    kept: npt.NDArray[np.intp], unseen: npt.NDArray[np.uint8], size: int
) -> npt.NDArray[np.uint8]:
    """The value rank of ``kept[i] + draw`` for every draw of ``size`` unseen cards.

    Args:
        kept: ``(choices, 4 - size)`` card ids kept by each choice.
        unseen: the unseen card ids, increasing.
        size: the number of cards drawn, 0..4 (4: ``kept`` has one empty row).

    Returns:
        ``(choices, C(len(unseen), size))``: the draws in colex order of the positions
        in ``unseen`` (see :class:`ExchangeOutcomes`).
    """
    n = len(unseen)
    if size == 4:
        return _quad_ranks(unseen, _geometry(n))[None, :]
    ids = unseen.astype(np.intp)
    if size == 0:
        cells = _pair_numbers(kept[:, 0], kept[:, 1]) + _PAIR_OF.take(kept[:, 2] * 40 + kept[:, 3])
        cells = cells[:, None]
    elif size == 1:
        cells = _pair_numbers(kept[:, 0], kept[:, 1])[:, None] + _PAIR_OF.take(
            kept[:, 2:3] * 40 + ids[None, :]
        )
    elif size == 2:
        drawn = ids.take(_SUBSETS.pairs[: comb(n, 2)])
        cells = _pair_numbers(kept[:, 0], kept[:, 1])[:, None] + _PAIR_OF.take(
            drawn[:, 0] * 40 + drawn[:, 1]
        )
    else:
        drawn = ids.take(_SUBSETS.triples[: comb(n, 3)])
        cells = _pair_numbers(kept[:, 0:1], drawn[None, :, 0]) + _PAIR_OF.take(
            drawn[:, 1] * 40 + drawn[:, 2]
        )
    result: npt.NDArray[np.uint8] = _PAIR_HANDS.take(cells)
    return result


@dataclass(frozen=True, slots=True)
class _Plan:
    """The exchange choices of a hand of 2 or 4 cards, by position in the hand.

    ``choices``: ``(kept positions, discarded positions)`` of every choice, in the
    documented order (stand pat or keep both, one discard, two discards); ``groups``:
    per number of cards drawn, the choices that draw it, their kept positions
    ``(choices, 4 - size)`` and the offsets ``choice * values`` of their counts.
    """

    choices: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    groups: tuple[tuple[int, list[int], npt.NDArray[np.intp], npt.NDArray[np.intp]], ...]


def _plan(cards: int) -> _Plan:
    positions = range(cards)
    choices = tuple(
        (tuple(j for j in positions if j not in thrown), thrown)
        for size in range(3)
        for thrown in combinations(positions, size)
    )
    groups = []
    for size in sorted({4 - len(keep) for keep, _ in choices}):
        members = [i for i, (keep, _) in enumerate(choices) if 4 - len(keep) == size]
        kept = np.array([choices[i][0] for i in members], dtype=np.intp)
        offsets = np.array(members, dtype=np.intp)[:, None] * _VALUES
        groups.append((size, members, kept.reshape(len(members), 4 - size), offsets))
    return _Plan(choices=choices, groups=tuple(groups))


_PLANS: Final = {2: _plan(2), 4: _plan(4)}


def _enumerate(
    hand: tuple[Card, ...], dead: tuple[Card, ...], unseen: npt.NDArray[np.uint8]
) -> ExchangeOutcomes:
    """The outcomes of every exchange choice of ``hand`` (see :func:`exchange_outcomes`)."""
    plan = _PLANS[len(hand)]
    ids = np.array([c.id for c in hand], dtype=np.intp)
    ranks: list[npt.NDArray[np.uint8]] = [np.zeros(0, dtype=np.uint8)] * len(plan.choices)
    cells: list[npt.NDArray[np.intp]] = []
    for size, members, kept, offsets in plan.groups:
        if comb(len(unseen), size) == 0:
            continue
        block = _draw_ranks(ids.take(kept), unseen, size)
        block.flags.writeable = False
        cells.append((block + offsets).ravel())
        for i, row in zip(members, block, strict=True):
            ranks[i] = row
    flat = np.concatenate(cells) if cells else np.zeros(0, dtype=np.intp)
    counts = np.bincount(flat, minlength=len(ranks) * _VALUES).astype(np.int64, copy=False)
    counts = counts.reshape(len(ranks), _VALUES)
    counts.flags.writeable = False
    return ExchangeOutcomes(
        own=hand,
        dead=dead,
        unseen=tuple(DECK[i] for i in unseen.tolist()),
        keeps=tuple(tuple(hand[j] for j in keep) for keep, _ in plan.choices),
        discards=tuple(tuple(hand[j] for j in thrown) for _, thrown in plan.choices),
        ranks=tuple(ranks),
        counts=counts,
    )
