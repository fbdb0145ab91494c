"""The opponent model of the exact exchange score: one opponent hand dealt at random from
the unseen cards the seat did not draw, counted by inclusion-exclusion over the drawn
cards (R2, R7). Internal to :mod:`primero.engine.odds`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from primero.engine.odds.combinatorics import (
    _NPAIRS,
    _PAIR_HANDS,
    _PAIR_HISTOGRAMS,
    _PAIR_OF,
    _PAIR_WIDTH,
    _VALUES,
    _Geometry,
    _histogram_columns,
    _quad_ranks,
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
