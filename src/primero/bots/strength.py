"""Hand-strength tables for the search bot's opponent model (R2, R6).

The search bot (:mod:`primero.bots.search`) needs, thousands of times per decision, two
cheap answers about a hand it has sampled for an opponent: *how strong does that player
believe its hand is* (to predict whether it calls, folds or accepts a bet), and *which
cards would it keep at an exchange* (to play the cards out to a showdown). Both come
from one table per set of declarations facing the player:

* ``w4[key]``: the modelled chance that a 4-card hand of that
  :attr:`~primero.engine.hands.HandValue.key` beats every opponent, as
  :func:`primero.bots.winmodel.win_table` models it (undeclared opponents hold random
  hands improved by exchanges; declared ones mostly hold the declared category);
* ``keep3[mask]`` and ``keep2[mask]``: the mean of ``w4`` over every completion of three
  or two kept cards (37 and 703 completions: an exchange of one or two cards, or the
  second deal, without dead cards).

The tables are built with NumPy from all C(40, 4) = 91,390 hands (a few milliseconds
each) and cached per declaration set. Sums run in a fixed order (R10).

>>> t = strength_table((None,))
>>> round(t.w4[t.key_of(0b1111 << 0)], 3) > 0     # A 2 3 4 of clubs: a fluxus
True
>>> t.best_keep((0, 10, 20, 30))   # four aces (a chorus) stand pat
(0, 10, 20, 30)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Final

import numpy as np
import numpy.typing as npt

from primero.engine.batch import combinations_array, evaluate_batch
from primero.engine.hands import Category

__all__ = ["StrengthTable", "hand_key", "strength_table"]

#: Subsets of 4 positions kept at an exchange: 3 of 4 (one card discarded), 2 of 4.
_KEEP3: Final[tuple[tuple[int, ...], ...]] = tuple(combinations(range(4), 3))
_KEEP2: Final[tuple[tuple[int, ...], ...]] = tuple(combinations(range(4), 2))


@dataclass(frozen=True, slots=True)
class _Hands:
    """Every 4-card hand: its key, and the masks of its 3- and 2-card subsets."""

    keys: npt.NDArray[np.intp]
    key_by_mask: dict[int, int]
    row_by_mask: dict[int, int]
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
        row_by_mask={m: i for i, m in enumerate(masks.tolist())},
        tri_index=tri_index.astype(np.intp),
        tri_masks=tri_masks.tolist(),
        pair_index=pair_index.astype(np.intp),
        pair_masks=pair_masks.tolist(),
    )


def hand_key(ids: Sequence[int]) -> int:
    """The :attr:`~primero.engine.hands.HandValue.key` (``category * 128 + points``) of four
    distinct card ids (indices into :data:`primero.engine.cards.DECK`), R2.

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
        ahead: per hand (row of all 91,390 hands in lexicographic id order), the best
            of standing pat and every 1- and 2-card exchange.
        choice: per hand and per ``exact`` (None, 1, 2: index 0, 1, 2), the best
            exchange as an option number: 0 stand pat, 1-4 discard the card at that
            sorted position minus one, 5-10 keep the pair ``_KEEP2[n - 5]``.
    """

    w4: list[float]
    keep3: dict[int, float]
    keep2: dict[int, float]
    baseline: float
    ahead: npt.NDArray[np.float64]
    choice: tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int8]]

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
        if len(ids) == 2:
            return self.keep2[(1 << ids[0]) | (1 << ids[1])]
        if len(ids) != 4:
            raise ValueError(f"a strength needs 2 or 4 cards, not {len(ids)}")
        full = (1 << ids[0]) | (1 << ids[1]) | (1 << ids[2]) | (1 << ids[3])
        if exchange_ahead:
            value: float = self.ahead.item(_hands().row_by_mask[full])
            return value
        return self.w4[_hands().key_by_mask[full]]

    def best_keep(self, ids: Sequence[int], exact: int | None = None) -> tuple[int, ...]:
        """The cards of a 4-card hand to keep at an exchange (R4.6): the choice with the
        highest mean win chance (on equal values, fewer discards, then earlier cards in
        id order).

        Args:
            ids: the four card ids held.
            exact: if given (0, 1 or 2), discard exactly this many (a known public
                exchange count); None: the best of 0, 1 or 2 discards.

        Returns:
            The kept ids, ascending.
        """
        hand = sorted(ids)
        if exact == 0:
            return tuple(hand)
        mask = (1 << hand[0]) | (1 << hand[1]) | (1 << hand[2]) | (1 << hand[3])
        row = _hands().row_by_mask[mask]
        option = int(self.choice[0 if exact is None else exact].item(row))
        if option == 0:
            return tuple(hand)
        if option <= 4:
            return tuple(c for i, c in enumerate(hand) if i != option - 1)
        a, b = _KEEP2[option - 5]
        return (hand[a], hand[b])


@lru_cache(maxsize=128)
def strength_table(opponents: tuple[Category | None, ...]) -> StrengthTable:
    """The :class:`StrengthTable` against opponents with these declarations (None: not
    declared), in any order (the model is a product over opponents).

    Args:
        opponents: one entry per opponent still in (at least one entry is assumed;
            an empty tuple gives a hand that always wins).

    Returns:
        The cached table.
    """
    from primero.bots.winmodel import win_table  # the heuristic bot's opponent model

    hands = _hands()
    w4_arr = np.asarray(win_table(list(opponents)), dtype=np.float64)
    values = w4_arr[hands.keys]
    tri = np.bincount(hands.tri_index, weights=np.repeat(values, 4)) / 37.0
    pair = np.bincount(hands.pair_index, weights=np.repeat(values, 6)) / 703.0
    tri_values = tri[hands.tri_index].reshape(-1, 4)
    pair_values = pair[hands.pair_index].reshape(-1, 6)
    options = np.column_stack([values, tri_values, pair_values])
    choice = (
        np.argmax(options, axis=1).astype(np.int8),
        (1 + np.argmax(tri_values, axis=1)).astype(np.int8),
        (5 + np.argmax(pair_values, axis=1)).astype(np.int8),
    )
    return StrengthTable(
        w4=w4_arr.tolist(),
        keep3=dict(zip(hands.tri_masks, tri.tolist(), strict=True)),
        keep2=dict(zip(hands.pair_masks, pair.tolist(), strict=True)),
        baseline=float(values.sum()) / len(values),
        ahead=options.max(axis=1),
        choice=choice,
    )


def canonical(opponents: Sequence[Category | None]) -> tuple[Category | None, ...]:
    """The declarations in a fixed order (undeclared first, then by category), so that
    equal sets share one cached table."""
    return tuple(sorted(opponents, key=lambda c: -1 if c is None else int(c)))
