"""Exact odds for a seat's exchange decisions and showdown chances (R2, R4, R7, R10).

Two questions, both from one seat's point of view, knowing only its own cards and some
*dead* cards (cards it knows are not in the stock, e.g. its own discards, R9b). All
other cards are *unseen*: the stock and the other players' hands look alike to the seat,
so every card it is dealt, and every opponent hand, is a uniformly random choice among
the unseen cards.

:func:`exchange_odds`
    For every way to exchange, the exact distribution of the 4-card hand that results:
    the probability of each category, the expected points and a *score*, and the best
    choice. The score (the criterion, also in :data:`CRITERION`) is the seat's equity
    heads-up: the probability that the resulting hand beats the hand of one opponent
    dealt four cards at random from the cards still unseen (the unseen cards minus the
    ones the seat drew), ties counting half. It is computed exactly, card removal
    included, by inclusion-exclusion over the cards the seat draws.

    * With 4 cards (the second exchange, R4.6): keep all (stand pat), discard any one
      card or any two: 1 + 4 + 6 = 11 choices; the discards are replaced from the
      unseen cards.
    * With 2 cards (the first round, R4.3): keep both (what betting, or standing pat
      under the house rule ``first_round_stand``, does), discard either card, or both:
      4 choices. The hand reported is the 4-card hand after the replacements *and* the
      second deal of two cards (R4.4), before any second exchange: keeping k cards
      means drawing 4 - k cards. Discarding both gives a uniformly random hand, whose
      score is exactly 1/2 by symmetry (the seat's and the opponent's hands are then two
      exchangeable random hands from the same cards).

:func:`exchange_outcomes`
    The enumeration under :func:`exchange_odds`: for every choice, the value of the
    resulting hand for every equally likely draw, and how many draws give each value.
    Other scorers use it too (the heuristic bot scores it against several opponents and
    their declarations), so there is one exact enumeration of the exchanges.

:func:`showdown_odds`
    The chances of a 4-card hand against k opponents whose hands are dealt at random
    from the unseen cards: exact for one opponent (every opponent hand enumerated) and
    for two (inclusion-exclusion over shared cards), seeded Monte Carlo with a standard
    error otherwise (R10: only ``random.Random(seed).random()`` is used).

Deck exhaustion (R8b) is not modelled: the draws come from the unseen cards.

>>> best = exchange_odds("7h 6h Ah 2c").best  # a supremus: throw the 2c for a heart
>>> best.label, round(best.score, 3), best.probability(Category.FLUXUS)
('discard 2c', 0.992, 0.19444444444444445)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from primero.batch import VALUE_CATEGORY, VALUE_POINTS, ranks_of_valid
from primero.cards import DECK, Card, CardError, format_cards, parse_cards
from primero.hands import Category, HandValue, evaluate

__all__ = [
    "CRITERION",
    "ExchangeChoice",
    "ExchangeOdds",
    "ExchangeOutcomes",
    "OddsError",
    "ShowdownOdds",
    "exchange_odds",
    "exchange_outcomes",
    "showdown_odds",
]

#: The criterion :func:`exchange_odds` maximises, in words.
CRITERION: Final = (
    "score = P(the resulting hand beats one opponent's hand dealt at random from the "
    "cards still unseen) + 1/2 P(tie); best = highest score, then highest expected "
    "points, then fewest cards drawn"
)

_VALUES: Final = len(VALUE_CATEGORY)  # distinct hand values (112)
_VALUE_POINTS_I: Final = VALUE_POINTS.astype(np.int64)
#: ``(values, 5)``: 1 where the value rank is of the category
_CATEGORY_OF_VALUE: Final = (VALUE_CATEGORY[:, None] == np.arange(5)).astype(np.int64)


class OddsError(ValueError):
    """An odds question that cannot be answered: too few unseen cards for the draws and
    opponent hands it needs, a bad number of opponents or trials, an unknown method.

    Card problems (unknown or repeated card, a card both held and dead, a wrong number
    of cards) raise :class:`primero.cards.CardError` instead; both are ``ValueError``.
    """


@dataclass(frozen=True, slots=True)
class ExchangeChoice:
    """One way to exchange and the exact distribution of the hand it leads to (R2, R4).

    Attributes:
        keep: the cards kept, in the order given.
        discard: the cards thrown away (empty: stand pat, or keep both of two).
        draws: how many cards the seat receives before its hand has four cards again:
            the replacements, plus the second deal's two with a 2-card hand.
        outcomes: the number of equally likely draws, ``C(unseen, draws)``.
        category_probabilities: probability of each category of the resulting hand,
            indexed by the :class:`~primero.hands.Category` value (``[0]`` numerus ..
            ``[4]`` chorus); they sum to 1.
        expected_points: the mean points (R2) of the resulting hand.
        score: the criterion (:data:`CRITERION`): probability, in 0..1, that the
            resulting hand beats one random opponent hand from the cards still unseen,
            ties counting half.
    """

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    draws: int
    outcomes: int
    category_probabilities: tuple[float, float, float, float, float]
    expected_points: float
    score: float

    def probability(self, category: Category) -> float:
        """The probability that the resulting hand is of ``category`` (0..1)."""
        return self.category_probabilities[category]

    @property
    def label(self) -> str:
        """A short description: ``"stand pat"`` (4 cards kept), ``"keep both"`` (2 cards
        kept), ``"discard 2c"``, ``"discard Ah 2c"``."""
        if self.discard:
            return f"discard {format_cards(self.discard)}"
        return "stand pat" if len(self.keep) == 4 else "keep both"


@dataclass(frozen=True, slots=True)
class ExchangeOdds:
    """Every exchange choice of one seat, and the best by :data:`CRITERION` (R4.3, R4.6).

    Attributes:
        own: the seat's cards (2 or 4), in the order given.
        dead: the cards known not to be in the stock.
        unseen: how many cards the seat has not seen: 40 - own - dead.
        second_deal: true for a 2-card hand, whose choices include the second deal.
        choices: every choice: with 4 cards stand pat, each single discard in card
            order, then each pair of discards (11); with 2 cards keep both, discard
            either, discard both (4).
        best: the choice with the highest score; ties go to the higher expected points,
            then to fewer cards drawn, then to the earlier choice.
    """

    own: tuple[Card, ...]
    dead: tuple[Card, ...]
    unseen: int
    second_deal: bool
    choices: tuple[ExchangeChoice, ...]
    best: ExchangeChoice


@dataclass(frozen=True, slots=True, eq=False)
class ExchangeOutcomes:
    """Every exchange choice of one seat and the exact value of the hand after every
    equally likely draw (R2, R4.3, R4.4, R4.6): the one enumeration of the exchanges,
    from which :func:`exchange_odds` and the heuristic bot both score the choices.

    Hand values are *value ranks*, as :func:`primero.batch.value_ranks` returns them:
    0 (numerus 20) up to ``len(VALUE_CATEGORY) - 1`` (chorus of sevens), ordered as the
    hands compare, so that equal ranks are ties (R7); :data:`primero.batch.VALUE_CATEGORY`
    and :data:`primero.batch.VALUE_POINTS` give each rank's category and points.

    Attributes:
        own: the seat's cards (2 or 4), in the order given.
        dead: the cards known not to be in the stock.
        unseen: the cards the seat may draw (40 - own - dead), in deck order.
        keeps: the cards kept by each choice, in the order of
            :attr:`ExchangeOdds.choices` (4 cards: stand pat, each single discard, each
            pair of discards; 2 cards: keep both, discard either, discard both).
        discards: the cards thrown by each choice.
        ranks: for each choice, a read-only ``uint8`` array: the value rank of the 4-card
            hand ``keep + draw`` for every draw of ``4 - len(keep)`` unseen cards. The
            draws are the subsets of the positions in :attr:`unseen`, in
            colexicographic order (by largest position first: the draws from the first
            ``m`` unseen cards come first, for every ``m``); ``C(len(unseen), draws)``
            entries, 0 when there are too few unseen cards.
        counts: a read-only ``(choices, len(VALUE_CATEGORY))`` ``int64`` array:
            ``counts[i, r]`` is how many draws of choice ``i`` give a hand of value rank
            ``r`` (the histogram of ``ranks[i]``).
    """

    own: tuple[Card, ...]
    dead: tuple[Card, ...]
    unseen: tuple[Card, ...]
    keeps: tuple[tuple[Card, ...], ...]
    discards: tuple[tuple[Card, ...], ...]
    ranks: tuple[npt.NDArray[np.uint8], ...]
    counts: npt.NDArray[np.int64]

    def draws(self, choice: int) -> int:
        """How many cards choice ``choice`` draws: ``4 - len(keeps[choice])``."""
        return 4 - len(self.keeps[choice])

    def outcomes(self, choice: int) -> int:
        """The number of equally likely draws of choice ``choice``: ``C(unseen, draws)``."""
        return comb(len(self.unseen), self.draws(choice))


@dataclass(frozen=True, slots=True)
class ShowdownOdds:
    """The chances of a 4-card hand against random opponent hands (R2, R7).

    Attributes:
        hand: the seat's four cards.
        value: their :class:`~primero.hands.HandValue`.
        dead: the cards known not to be in any opponent's hand.
        opponents: the number of opponents (each holds four unseen cards).
        win: probability that the hand beats every opponent (0..1).
        tie: probability that no opponent is better but at least one is equal (R7: the
            eldest of the tied hands wins by default; ``ties = "split"`` shares the pot).
        lose: probability that some opponent's hand is better; ``win + tie + lose == 1``.
        equity: the expected share of the pot when ties are split equally:
            ``win`` plus each tie's ``1 / (number of tied hands)``; heads-up this is
            ``win + tie / 2``.
        exact: true when the figures are exact (every deal of opponent hands counted),
            false for a Monte Carlo estimate.
        trials: the number of random deals for an estimate; 0 when exact.
        standard_error: the standard error of :attr:`equity` (0.0 when exact); for an
            estimate the error of ``win``, ``tie`` and ``lose`` is of the same order.
        seed: the seed of the estimate (``None`` when exact).
    """

    hand: tuple[Card, ...]
    value: HandValue
    dead: tuple[Card, ...]
    opponents: int
    win: float
    tie: float
    lose: float
    equity: float
    exact: bool
    trials: int
    standard_error: float
    seed: int | None


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


class _Opponent:
    """Counts of the random opponent hands from the unseen cards, by value rank.

    The tables are value-major: ``below0[t]`` is ``2 * #(hands below t) + #(hands equal
    to t)`` over all 4-subsets of the unseen cards, the doubled "beaten, ties half" count
    of a hand of rank ``t``; ``below1[t, x]`` the same over the hands containing unseen
    card ``x``, ``below2[t, p]`` over the hands containing the pair of rank ``p``.
    """

    def __init__(
        self,
        unseen: npt.NDArray[np.uint8],
        geometry: _Geometry,
        ranks: npt.NDArray[np.uint8] | None = None,
    ) -> None:
        """``ranks``: the value ranks of the 4-subsets of ``unseen`` in colex order, if
        already known (otherwise computed only when a 3-card draw needs them)."""
        self.geometry = geometry
        self.unseen = unseen
        self._ranks8 = ranks
        # The histogram of the unseen hands holding each unseen pair p, without
        # enumerating them: the hands p + q of all 40 cards (a constant table), minus
        # those where q holds a known card (own or dead): q = {k, y} for a known k and
        # any card y, each such q once (y not a smaller known card); the pairs q sharing
        # a card with p (and y = k) have the invalid rank 255, left out.
        ids = unseen.astype(np.intp)
        pairs = geometry.pairs
        numbers = _PAIR_OF.take(ids.take(pairs[:, 0]) * 40 + ids.take(pairs[:, 1]))
        is_known = np.ones(40, dtype=np.bool_)
        is_known[ids] = False
        known = np.flatnonzero(is_known)
        with_known = _PAIR_OF.take(known[:, None] * 40 + np.arange(40))
        smaller_known = is_known & (np.arange(40) < known[:, None])
        with_known[smaller_known] = _NPAIRS  # {k, y} with y known is counted for y
        by_pair = _PAIR_HISTOGRAMS.take(numbers, axis=1)
        rows = (numbers * _PAIR_WIDTH)[:, None]
        by_pair -= _histogram_columns(_PAIR_HANDS.take(rows + with_known.ravel()))
        # a hand holding card x holds 3 pairs with x, a hand holds 4 cards: the
        # histograms per card and overall follow exactly from the one per pair
        n = geometry.n
        holding = by_pair.T.take(geometry.card_pairs.ravel(), axis=0)  # rows: pairs
        by_card = holding.reshape(n, max(n - 1, 0), _VALUES).sum(axis=1).T // 3
        self.below0 = self._doubled_below(by_card.sum(axis=1) // 4)
        self.below1 = self._doubled_below(by_card)
        self.below2 = self._doubled_below(by_pair)
        self._triple_ranks: npt.NDArray[np.uint8] | None = None

    @staticmethod
    def _doubled_below(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """``2 * #(below) + #(equal)`` from counts by value rank (axis 0)."""
        result: npt.NDArray[np.int64] = np.cumsum(counts, axis=0)
        result *= 2
        result -= counts
        return result

    def doubled_beaten(self, size: int, ours: npt.NDArray[np.uint8]) -> int:
        """The doubled "beaten, ties half" count, summed over the draws of ``size`` cards.

        Args:
            size: the number of cards drawn, 0..3.
            ours: ``(C(n, size),)``: the value rank of the seat's hand after each draw,
                the draws being the ``size``-subsets of the unseen positions in colex
                order (the rows of the geometry's ``pairs`` / ``triples``).

        Returns:
            The sum over the draws D of ``sum over opponent hands O disjoint from D of
            2 [O below ours] + [O equal to ours]``, by inclusion-exclusion over the cards
            of D that O holds. Only the total is needed (the score), so each term is
            summed as a whole: ``table[ours, subset]`` gathered through flat cells.
        """
        g = self.geometry
        ours_i = ours.astype(np.intp)
        total = int(self.below0.take(ours_i).sum())
        if size == 0:
            return total
        below1 = self.below1.ravel()
        rows1 = ours_i * g.n
        # the drawn subsets, one per row: cards, pairs or triples
        members = g.triples if size == 3 else g.pairs if size == 2 else np.arange(g.n)[:, None]
        for column in members.T:  # minus the hands holding a drawn card
            total -= int(below1.take(rows1 + column).sum())
        below2 = self.below2.ravel()
        rows2 = ours_i * len(g.pairs)
        if size == 2:  # plus the hands holding both drawn cards
            total += int(below2.take(rows2 + np.arange(len(g.pairs))).sum())
        if size == 3:  # plus those holding two of the three, minus those holding all
            for column in g.triple_pairs.T:
                total += int(below2.take(rows2 + column).sum())
            total -= self._doubled_triples(ours)
        return total

    def _doubled_triples(self, ours: npt.NDArray[np.uint8]) -> int:
        """The doubled "beaten, ties half" count over the opponent hands that contain a
        3-subset T of the unseen cards, against the seat's rank ``ours[T]``, summed over
        every T."""
        if self._triple_ranks is None:  # shared by the choices that draw 3 cards
            if self._ranks8 is None:
                self._ranks8 = _quad_ranks(self.unseen, self.geometry)
            self._triple_ranks = self._ranks8.take(self.geometry.triple_quads)
        theirs = self._triple_ranks  # (n - 3, C(n, 3)): long rows against ``ours``
        return int(np.count_nonzero(theirs < ours)) + int(np.count_nonzero(theirs <= ours))


def _choice(
    keep: tuple[Card, ...],
    discard: tuple[Card, ...],
    counts: npt.NDArray[np.int64],
    doubled: int | None,
    opponent_hands: int,
) -> tuple[ExchangeChoice, tuple[Fraction, Fraction, int]]:
    """Summarise the outcomes of one choice (its value rank counts); with its exact sort
    key."""
    outcomes = int(counts.sum())
    categories = _CATEGORY_OF_VALUE.T @ counts
    points = Fraction(int(counts @ _VALUE_POINTS_I), outcomes)
    # doubled None: a uniformly random hand against another, 1/2 by symmetry
    half = Fraction(1, 2)
    score = half if doubled is None else Fraction(doubled, 2 * opponent_hands * outcomes)
    probabilities = tuple(float(Fraction(int(c), outcomes)) for c in categories)
    choice = ExchangeChoice(
        keep=keep,
        discard=discard,
        draws=4 - len(keep),
        outcomes=outcomes,
        category_probabilities=(
            probabilities[0],
            probabilities[1],
            probabilities[2],
            probabilities[3],
            probabilities[4],
        ),
        expected_points=float(points),
        score=float(score),
    )
    return choice, (score, points, len(keep))


def exchange_outcomes(
    own: str | Iterable[Card | str], dead: str | Iterable[Card | str] = ()
) -> ExchangeOutcomes:
    """The value of the hand after every exchange choice and every draw, exactly (R2,
    R4.3, R4.4, R4.6).

    The enumeration behind :func:`exchange_odds` (which scores it heads-up), for callers
    that score the resulting hands their own way, e.g. against several opponents (the
    heuristic bot): weight ``counts[i]`` by a score per value rank and divide by
    :meth:`ExchangeOutcomes.outcomes`. A 4-card call costs some tens of microseconds;
    a 2-card one about a millisecond (discarding both draws every 4 unseen cards).

    Args:
        own: the seat's 2 or 4 cards, as text or cards, in any order.
        dead: cards known not to be in the stock (the seat's own discards, R9b).

    Returns:
        An :class:`ExchangeOutcomes`: the choices in the order of
        :attr:`ExchangeOdds.choices`, each with the value rank of every draw and their
        counts. A choice that draws more cards than are unseen has no draws.

    Raises:
        CardError: a card is unknown or repeated, a card is both held and dead, or the
            seat does not hold 2 or 4 cards.

    >>> out = exchange_outcomes("6h 6c 6d 2s")
    >>> out.discards[4], out.outcomes(4)  # throw the 2s: 36 equally likely draws
    ((Card('2s'),), 36)
    >>> from primero.batch import VALUE_CATEGORY
    >>> int(out.counts[4][VALUE_CATEGORY == Category.CHORUS].sum())  # the 6s
    1
    """
    hand, dead_cards, unseen = _parse(own, dead, (2, 4))
    return _enumerate(hand, dead_cards, unseen)


def exchange_odds(
    own: str | Iterable[Card | str], dead: str | Iterable[Card | str] = ()
) -> ExchangeOdds:
    """The exact outcome of every exchange choice, and the best one (R2, R4.3, R4.6).

    Args:
        own: the seat's 2 or 4 cards, as text (``"7h 6h"``) or cards, in any order.
        dead: cards known not to be in the stock or in any opponent's hand (the seat's
            own discards, R9b), same forms; default none.

    Returns:
        An :class:`ExchangeOdds`: for every choice (4 cards: stand pat, discard one,
        discard two; 2 cards: keep both, discard one, discard both, each followed by the
        second deal of two cards) the exact probability of each category of the
        resulting 4-card hand, its expected points and its score, and the best choice by
        :data:`CRITERION`. See the module documentation for the model.

    Raises:
        CardError: a card is unknown or repeated, a card is both held and dead, or the
            seat does not hold 2 or 4 cards.
        OddsError: fewer unseen cards than the draws plus one opponent hand need (6 with
            4 cards, 8 with 2).
    """
    hand, dead_cards, unseen = _parse(own, dead, (2, 4))
    n = len(unseen)
    needed = 6 if len(hand) == 4 else 8
    if n < needed:
        raise OddsError(
            f"only {n} unseen card{'' if n == 1 else 's'}: an exchange with {len(hand)} "
            f"cards needs {needed} (the most cards it can draw and one opponent hand)"
        )
    outcomes = _enumerate(hand, dead_cards, unseen)
    geometry = _geometry(n)
    # with 2 cards, discarding both draws every 4-subset of the unseen cards: the
    # opponent's possible hands, already evaluated
    opponent = _Opponent(unseen, geometry, outcomes.ranks[-1] if len(hand) == 2 else None)
    results: list[tuple[ExchangeChoice, tuple[Fraction, Fraction, int]]] = []
    for i, (keep, discard) in enumerate(zip(outcomes.keeps, outcomes.discards, strict=True)):
        size = 4 - len(keep)
        counts = outcomes.counts[i]
        if size == 4:  # a random hand against a random hand: 1/2 by symmetry
            results.append(_choice(keep, discard, counts, None, 1))
            continue
        beaten = opponent.doubled_beaten(size, outcomes.ranks[i])
        results.append(_choice(keep, discard, counts, beaten, comb(n - size, 4)))
    best = max(range(len(results)), key=lambda k: (results[k][1], -k))
    return ExchangeOdds(
        own=hand,
        dead=dead_cards,
        unseen=n,
        second_deal=len(hand) == 2,
        choices=tuple(r[0] for r in results),
        best=results[best][0],
    )


def showdown_odds(
    own: str | Iterable[Card | str],
    dead: str | Iterable[Card | str] = (),
    opponents: int = 1,
    *,
    method: Literal["auto", "exact", "monte-carlo"] = "auto",
    trials: int = 100_000,
    seed: int = 0,
) -> ShowdownOdds:
    """The chances of a 4-card hand against ``opponents`` random hands (R2, R7, R10).

    Each opponent holds four cards dealt at random from the unseen cards (40 minus the
    hand minus the dead cards), the opponents' hands being disjoint.

    Args:
        own: the seat's four cards, as text or cards.
        dead: cards known not to be in any opponent's hand; default none.
        opponents: the number of opponents, at least 1, at most ``unseen // 4``.
        method: ``"exact"`` counts every deal (one or two opponents only);
            ``"monte-carlo"`` samples ``trials`` deals; ``"auto"`` (the default) is
            exact for one or two opponents and Monte Carlo otherwise.
        trials: the number of random deals of a Monte Carlo estimate (>= 2).
        seed: the seed of the estimate: the deals are drawn with
            ``random.Random(seed).random()`` only (a partial Fisher-Yates shuffle of the
            unseen cards per deal), so the same seed gives the same figures on every
            machine (R10).

    Returns:
        A :class:`ShowdownOdds` with the probabilities of winning, tying and losing and
        the equity (pot share with split ties); for an estimate, its standard error.

    Raises:
        CardError: a card is unknown or repeated, a card is both held and dead, or the
            hand does not hold exactly 4 cards.
        OddsError: ``opponents`` is below 1 or needs more than the unseen cards,
            ``method`` is unknown or ``"exact"`` with more than two opponents, or
            ``trials`` is below 2.
    """
    hand, dead_cards, unseen = _parse(own, dead, (4,))
    n = len(unseen)
    if opponents < 1:
        raise OddsError(f"the number of opponents must be at least 1, got {opponents}")
    if 4 * opponents > n:
        raise OddsError(
            f"{opponents} opponents need {4 * opponents} unseen cards, there are only {n}"
        )
    if method not in ("auto", "exact", "monte-carlo"):
        raise OddsError(f"unknown method {method!r}: one of 'auto', 'exact', 'monte-carlo'")
    if method == "exact" and opponents > 2:
        raise OddsError("exact odds are computed for one or two opponents only")
    value = evaluate(hand)
    ours = int(_ranks(hand, unseen, np.zeros((1, 0), dtype=np.intp))[0])
    if method == "monte-carlo" or (method == "auto" and opponents > 2):
        if trials < 2:
            raise OddsError(f"a Monte Carlo estimate needs at least 2 trials, got {trials}")
        win, tie, lose, equity, error = _monte_carlo(unseen, ours, opponents, trials, seed)
        return ShowdownOdds(
            hand=hand,
            value=value,
            dead=dead_cards,
            opponents=opponents,
            win=win,
            tie=tie,
            lose=lose,
            equity=equity,
            exact=False,
            trials=trials,
            standard_error=error,
            seed=seed,
        )
    geometry = _geometry(n)
    theirs = ranks_of_valid(np.ascontiguousarray(unseen[geometry.quads])).astype(np.intp)
    if opponents == 1:
        total = len(theirs)
        below = int((theirs < ours).sum())
        equal = int((theirs == ours).sum())
        win_f = Fraction(below, total)
        tie_f = Fraction(equal, total)
        equity_f = win_f + tie_f / 2
    else:
        win_f, tie_f, equity_f = _two_opponents(geometry, theirs, ours)
    return ShowdownOdds(
        hand=hand,
        value=value,
        dead=dead_cards,
        opponents=opponents,
        win=float(win_f),
        tie=float(tie_f),
        lose=float(1 - win_f - tie_f),
        equity=float(equity_f),
        exact=True,
        trials=0,
        standard_error=0.0,
        seed=None,
    )


def _two_opponents(
    geometry: _Geometry, theirs: npt.NDArray[np.intp], ours: int
) -> tuple[Fraction, Fraction, Fraction]:
    """Exact win, tie and equity against two disjoint random hands.

    Over ordered pairs (O1, O2) of disjoint hands, ``sum f(O1) g(O2)`` equals
    ``sum over card sets S of (-1)^|S| F(S) G(S)`` with ``F(S) = sum of f over the
    hands containing S`` (inclusion-exclusion on the shared cards, |S| <= 4).
    """
    below = theirs < ours
    equal = theirs == ours
    levels: list[tuple[npt.NDArray[np.intp], int]] = [
        (geometry.quads, geometry.n),
        (geometry.quad_pairs, len(geometry.pairs)),
        (geometry.quad_triples, len(geometry.triples)),
    ]

    def disjoint_sum(f: npt.NDArray[np.bool_], g: npt.NDArray[np.bool_]) -> int:
        total = int(f.sum()) * int(g.sum())  # S empty
        sign = -1
        for subsets, size in levels:
            fs = np.bincount(subsets[f].ravel(), minlength=size)
            gs = fs if g is f else np.bincount(subsets[g].ravel(), minlength=size)
            total += sign * int(fs @ gs)
            sign = -sign
        total += sign * int((f & g).sum())  # S = the whole hand: O1 = O2
        return total

    pairs = len(theirs) * comb(geometry.n - 4, 4)
    both_below = disjoint_sum(below, below)
    below_equal = disjoint_sum(below, equal)
    both_equal = disjoint_sum(equal, equal)
    win = Fraction(both_below, pairs)
    tie = Fraction(2 * below_equal + both_equal, pairs)
    equity = Fraction(3 * both_below + 3 * below_equal + both_equal, 3 * pairs)
    return win, tie, equity


def _monte_carlo(
    unseen: npt.NDArray[np.uint8], ours: int, opponents: int, trials: int, seed: int
) -> tuple[float, float, float, float, float]:
    """Seeded estimate of (win, tie, lose, equity, standard error of equity)."""
    n = len(unseen)
    cards = 4 * opponents
    rng = random.Random(seed)
    draw = rng.random
    uniforms = np.array([draw() for _ in range(trials * cards)], dtype=np.float64)
    uniforms = uniforms.reshape(trials, cards)
    deck = np.tile(np.arange(n, dtype=np.intp), (trials, 1))
    rows = np.arange(trials)
    for i in range(cards):  # partial Fisher-Yates: position i gets a random later card
        j = i + np.floor(uniforms[:, i] * (n - i)).astype(np.intp)
        held = deck[:, i].copy()
        deck[:, i] = deck[rows, j]
        deck[rows, j] = held
    hands = np.ascontiguousarray(unseen[deck[:, :cards]]).reshape(trials * opponents, 4)
    theirs = ranks_of_valid(hands).astype(np.intp).reshape(trials, opponents)
    best = theirs.max(axis=1)
    tied = (theirs == ours).sum(axis=1)
    won = best < ours
    drew = best == ours
    share = np.where(won, 1.0, np.where(drew, 1.0 / (1 + tied), 0.0))
    win = float(won.mean())
    tie = float(drew.mean())
    equity = float(share.mean())
    error = float(share.std(ddof=1) / np.sqrt(trials))
    return win, tie, 1.0 - win - tie, equity, error
