"""Hand-strength tables for the search bot's opponent model (R2, R6).

The search bot (:mod:`primero.bots.search`) needs, thousands of times per decision, two
cheap answers about a hand it has sampled for an opponent: *how strong does that player
believe its hand is* (to predict whether it calls, folds or accepts a bet), and *which
cards would it keep at an exchange* (to play the cards out to a showdown). Both come
from one table per set of declarations facing the player:

* ``w4[key]``: the modelled chance that a 4-card hand of that
  :attr:`~primero.hands.HandValue.key` beats every opponent, as
  :func:`primero.bots.heuristic.win_table` models it (undeclared opponents hold random
  hands improved by exchanges; declared ones mostly hold the declared category);
* ``keep3[mask]`` and ``keep2[mask]``: the mean of ``w4`` over every completion of three
  or two kept cards (37 and 703 completions: an exchange of one or two cards, or the
  second deal, without dead cards).

The tables are built with NumPy from all C(40, 4) = 91,390 hands (a few milliseconds
each) and cached per declaration set. Sums run in a fixed order (R10).

>>> t = strength_table((None,))
>>> round(t.w4[t.key_of(0b1111 << 0)], 3) > 0     # A 2 3 4 of clubs: a fluxus
True
>>> t.best_keep((0, 10, 20, 30), 2) in [(0, 10, 20, 30)]   # a primero stands pat
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Final

import numpy as np
import numpy.typing as npt

from primero.batch import combinations_array, evaluate_batch
from primero.hands import Category

__all__ = ["StrengthTable", "hand_key", "strength_table"]

#: Subsets of 4 positions kept at an exchange: 3 of 4 (one card discarded), 2 of 4.
_KEEP3: Final[tuple[tuple[int, ...], ...]] = tuple(combinations(range(4), 3))
_KEEP2: Final[tuple[tuple[int, ...], ...]] = tuple(combinations(range(4), 2))


@dataclass(frozen=True, slots=True)
class _Hands:
    """Every 4-card hand: its key, and the masks of its 3- and 2-card subsets."""

    keys: npt.NDArray[np.intp]
    key_by_mask: dict[int, int]
    tri_index: npt.NDArray[np.intp]  # (91390 * 4,) index into tri_masks
    tri_masks: list[int]
    pair_index: npt.NDArray[np.intp]  # (91390 * 6,) index into pair_masks
    pair_masks: list[int]


@lru_cache(maxsize=1)
def _hands() -> _Hands:
    ids = combinations_array(40, 4)
    category, points = evaluate_batch(ids)
    keys = category.astype(np.intp) * 128 + points.astype(np.intp)
    bits = np.left_shift(np.int64(1), ids.astype(np.int64))
    masks = bits.sum(axis=1)
    tri = np.stack([masks - bits[:, i] for i in range(4)], axis=1).ravel()
    pair = np.stack([bits[:, a] + bits[:, b] for a, b in _KEEP2], axis=1).ravel()
    tri_masks, tri_index = np.unique(tri, return_inverse=True)
    pair_masks, pair_index = np.unique(pair, return_inverse=True)
    return _Hands(
        keys=keys,
        key_by_mask=dict(zip(masks.tolist(), keys.tolist(), strict=True)),
        tri_index=tri_index.astype(np.intp),
        tri_masks=tri_masks.tolist(),
        pair_index=pair_index.astype(np.intp),
        pair_masks=pair_masks.tolist(),
    )


def hand_key(ids: Sequence[int]) -> int:
    """The :attr:`~primero.hands.HandValue.key` (``category * 128 + points``) of four
    distinct card ids (indices into :data:`primero.cards.DECK`), R2.

    Raises:
        KeyError: not four distinct ids in 0..39.
    """
    return _hands().key_by_mask[(1 << ids[0]) | (1 << ids[1]) | (1 << ids[2]) | (1 << ids[3])]


@dataclass(frozen=True, slots=True)
class StrengthTable:
    """Modelled win chances against one set of opponents (see the module docstring).

    Attributes:
        w4: win chance of a 4-card hand by key (640 entries, 0..1).
        keep3: mean win chance after keeping these three cards (by card mask).
        keep2: mean win chance after keeping these two cards (by card mask).
        baseline: the win chance of an average hand (a random 4-card hand).
    """

    w4: list[float]
    keep3: dict[int, float]
    keep2: dict[int, float]
    baseline: float

    @staticmethod
    def key_of(mask: int) -> int:
        """The key of the 4-card hand with this card mask (``sum(1 << id)``)."""
        return _hands().key_by_mask[mask]

    def strength(self, ids: Sequence[int], exchange_ahead: bool) -> float:
        """How strong a player holding ``ids`` (2 or 4 card ids) believes its hand is.

        Two cards: the mean over the second deal. Four cards: the hand's own win chance,
        or with an exchange ahead the best of that and every 1- and 2-card exchange.

        Raises:
            ValueError: not 2 or 4 cards.
        """
        masks = [1 << i for i in ids]
        if len(ids) == 2:
            return self.keep2[masks[0] | masks[1]]
        if len(ids) != 4:
            raise ValueError(f"a strength needs 2 or 4 cards, not {len(ids)}")
        full = masks[0] | masks[1] | masks[2] | masks[3]
        best = self.w4[_hands().key_by_mask[full]]
        if exchange_ahead:
            for m in masks:
                best = max(best, self.keep3[full ^ m])
            for a, b in _KEEP2:
                best = max(best, self.keep2[masks[a] | masks[b]])
        return best

    def best_keep(self, ids: Sequence[int], max_discard: int, exact: int | None = None) -> (
        tuple[int, ...]
    ):
        """The cards of a 4-card hand to keep at an exchange: the choice with the highest
        mean win chance (on equal values, fewer discards, then earlier cards).

        Args:
            ids: the four card ids held.
            max_discard: discard at most this many (0, 1 or 2).
            exact: if given, discard exactly this many (a known public exchange count).

        Returns:
            The kept ids, in the order held.
        """
        hand = tuple(ids)
        full = sum(1 << i for i in hand)
        options: list[tuple[float, tuple[int, ...]]] = []
        if exact in (None, 0):
            options.append((self.w4[_hands().key_by_mask[full]], hand))
        if (exact is None and max_discard >= 1) or exact == 1:
            for keep in _KEEP3:
                kept3 = tuple(hand[i] for i in keep)
                options.append((self.keep3[sum(1 << i for i in kept3)], kept3))
        if (exact is None and max_discard >= 2) or exact == 2:
            for keep in _KEEP2:
                kept2 = tuple(hand[i] for i in keep)
                options.append((self.keep2[(1 << kept2[0]) | (1 << kept2[1])], kept2))
        best_value, best = options[0]
        for value, kept in options[1:]:
            if value > best_value:
                best_value, best = value, kept
        return best


@lru_cache(maxsize=512)
def strength_table(opponents: tuple[Category | None, ...]) -> StrengthTable:
    """The :class:`StrengthTable` against opponents with these declarations (None: not
    declared), in any order (the model is a product over opponents).

    Args:
        opponents: one entry per opponent still in (at least one entry is assumed;
            an empty tuple gives a hand that always wins).

    Returns:
        The cached table.
    """
    from primero.bots.heuristic import win_table  # the heuristic's opponent model

    hands = _hands()
    w4_arr = np.asarray(win_table(list(opponents)), dtype=np.float64)
    values = w4_arr[hands.keys]
    tri = np.bincount(hands.tri_index, weights=np.repeat(values, 4)) / 37.0
    pair = np.bincount(hands.pair_index, weights=np.repeat(values, 6)) / 703.0
    return StrengthTable(
        w4=w4_arr.tolist(),
        keep3=dict(zip(hands.tri_masks, tri.tolist(), strict=True)),
        keep2=dict(zip(hands.pair_masks, pair.tolist(), strict=True)),
        baseline=float(values.sum()) / len(values),
    )


def canonical(opponents: Sequence[Category | None]) -> tuple[Category | None, ...]:
    """The declarations in a fixed order (undeclared first, then by category), so that
    equal sets share one cached table."""
    return tuple(sorted(opponents, key=lambda c: -1 if c is None else int(c)))
