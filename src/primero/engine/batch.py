"""Vectorised hand evaluation with NumPy: many 4-card hands at once (R2).

:func:`evaluate_batch` takes an ``(n, 4)`` integer array of card ids (``id = 10 * suit +
rank``, the index in :data:`primero.engine.cards.DECK`, R1) and returns the category and the
points of every row, exactly as :func:`primero.engine.hands.evaluate` would.

How it is fast: each row's four ids are narrowed to bytes, and the two halves of the row
(ids 0-1 and ids 2-3) are read as one 16-bit number each. A 65,536-entry table maps each
half to the index of its unordered pair of cards (780 pairs, plus one "invalid" index for
ids >= 40 or a repeated id), and a 781 x 781 table maps the two pair indices to the
category and the points of the hand. So a row costs four table reads and one addition,
with no sorting, and a repeated card or an id out of range lands on a sentinel entry.
The tables are computed at import from first principles (R2), independently of the
scalar evaluator in :mod:`primero.engine.hands`; the tests check that both agree on all 91,390
hands.

>>> import numpy as np
>>> cat, pts = evaluate_batch(np.array([[26, 25, 20, 1], [0, 10, 20, 30]]))
>>> cat.tolist(), pts.tolist()
([2, 4], [55, 64])
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, NoReturn

import numpy as np
import numpy.typing as npt

from primero.engine.cards import POINTS

__all__ = ["VALUE_CATEGORY", "VALUE_POINTS", "evaluate_batch", "value_ranks"]

_NPAIRS: Final = 780  # unordered pairs of distinct cards: C(40, 2)
_WIDTH: Final = _NPAIRS + 1  # pair indices 0..779, 780 = invalid
_INVALID: Final = 255  # category sentinel in the hand tables


def combinations_array(n: int, k: int) -> npt.NDArray[np.intp]:
    """All k-element subsets of ``range(n)``, one per row, in lexicographic order.

    Args:
        n: the size of the ground set (>= 0).
        k: the subset size (0 <= k).

    Returns:
        An ``(C(n, k), k)`` array of ``intp``; each row is increasing and the rows are
        in the order of :func:`itertools.combinations` ``(range(n), k)``.
    """
    combos: npt.NDArray[np.intp] = np.zeros((1, 0), dtype=np.intp)
    for _ in range(k):
        last = combos[:, -1] if combos.shape[1] else np.full(len(combos), -1, dtype=np.intp)
        counts = np.maximum(n - 1 - last, 0)
        rows = np.repeat(combos, counts, axis=0)
        first = np.repeat(last + 1, counts)
        offsets = np.arange(len(rows), dtype=np.intp) - np.repeat(
            np.cumsum(counts) - counts, counts
        )
        combos = np.column_stack([rows, first + offsets])
    return combos


def _hand_values(ids: npt.NDArray[np.intp]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Category and points of each row of distinct card ids, from first principles (R2)."""
    cards = [ids[:, i].astype(np.int64) for i in range(4)]
    suits = [c // 10 for c in cards]
    ranks = [c - 10 * s for c, s in zip(cards, suits, strict=True)]
    points_of_rank = np.asarray(POINTS, dtype=np.int64)
    pts = [points_of_rank[r] for r in ranks]
    total = pts[0] + pts[1] + pts[2] + pts[3]
    # per-suit fields packed in one integer per hand, then unpacked into (n,) arrays
    packed_count = sum((1 << (4 * s) for s in suits), np.int64(0))
    packed_points = sum((p << (8 * s) for p, s in zip(pts, suits, strict=True)), np.int64(0))
    mask = sum((1 << c for c in cards), np.int64(0))  # suit s = bits 10s..10s+9, by rank
    count = [(packed_count >> (4 * s)) & 15 for s in range(4)]
    suit_points = [(packed_points >> (8 * s)) & 255 for s in range(4)]
    suit_ranks = [(mask >> (10 * s)) & 1023 for s in range(4)]
    widest = np.maximum(np.maximum(count[0], count[1]), np.maximum(count[2], count[3]))
    chorus = (ranks[0] == ranks[1]) & (ranks[0] == ranks[2]) & (ranks[0] == ranks[3])
    fluxus = widest == 4
    ace_six_seven = (1 << 0) | (1 << 5) | (1 << 6)
    supremus = np.zeros(len(ids), dtype=bool)
    numerus_points = np.zeros(len(ids), dtype=np.int64)
    for s in range(4):
        supremus |= (count[s] == 3) & (suit_ranks[s] == ace_six_seven)
        # numerus: the suit with two or three cards; with 2+2, the pair with more points
        numerus_points = np.maximum(numerus_points, np.where(count[s] >= 2, suit_points[s], 0))
    primero = (widest == 1) & ~chorus
    category = np.select([chorus, fluxus, supremus, primero], [4, 3, 2, 1], 0)
    points = np.select([chorus | fluxus | primero, supremus], [total, 55], numerus_points)
    return category.astype(np.uint8), points.astype(np.uint8)


def _build_tables() -> tuple[
    npt.NDArray[np.intp],
    npt.NDArray[np.intp],
    npt.NDArray[np.uint8],
    npt.NDArray[np.uint8],
    npt.NDArray[np.uint8],
    npt.NDArray[np.uint8],
    npt.NDArray[np.uint8],
]:
    pairs = combinations_array(40, 2)
    pair_index = np.full((256, 256), _NPAIRS, dtype=np.intp)
    pair_index[pairs[:, 0], pairs[:, 1]] = np.arange(_NPAIRS)
    pair_index[pairs[:, 1], pairs[:, 0]] = np.arange(_NPAIRS)
    # the bytes of each 16-bit value as laid out in memory (so any byte order works)
    half = np.arange(1 << 16, dtype=np.uint16).view(np.uint8).reshape(-1, 2)
    second = pair_index[half[:, 0], half[:, 1]]
    first = second * _WIDTH

    hands = combinations_array(40, 4)
    category, points = _hand_values(hands)
    key = category.astype(np.int64) * 128 + points
    distinct = np.unique(key)
    rank = np.searchsorted(distinct, key).astype(np.uint8)
    cat_table = np.full(_WIDTH * _WIDTH, _INVALID, dtype=np.uint8)
    pts_table = np.zeros(_WIDTH * _WIDTH, dtype=np.uint8)
    rank_table = np.full(_WIDTH * _WIDTH, _INVALID, dtype=np.uint8)
    a, b, c, d = (pair_index[hands[:, i], hands[:, j]] for i, j in ((0, 1), (2, 3), (0, 2), (1, 3)))
    e, f = pair_index[hands[:, 0], hands[:, 3]], pair_index[hands[:, 1], hands[:, 2]]
    for p, q in ((a, b), (c, d), (e, f)):
        for cell in (p * _WIDTH + q, q * _WIDTH + p):
            cat_table[cell] = category
            pts_table[cell] = points
            rank_table[cell] = rank
    value_category = (distinct // 128).astype(np.uint8)
    value_points = (distinct % 128).astype(np.uint8)
    return first, second, cat_table, pts_table, rank_table, value_category, value_points


(
    _FIRST,
    _SECOND,
    _CATEGORY,
    _POINTS,
    _RANK,
    _VALUE_CATEGORY,
    _VALUE_POINTS,
) = _build_tables()

for _table in (_FIRST, _SECOND, _CATEGORY, _POINTS, _RANK, _VALUE_CATEGORY, _VALUE_POINTS):
    _table.flags.writeable = False

#: Category (int value of :class:`primero.engine.hands.Category`) of each distinct hand value,
#: indexed by the rank that :func:`value_ranks` returns; ``uint8``, ascending with rank.
VALUE_CATEGORY: Final[npt.NDArray[np.uint8]] = _VALUE_CATEGORY
#: Points of each distinct hand value, indexed by the rank that :func:`value_ranks`
#: returns; ``uint8``.
VALUE_POINTS: Final[npt.NDArray[np.uint8]] = _VALUE_POINTS


_CHUNK: Final = 1 << 16  # rows per step: the temporaries stay in the L2 cache


def _lookup(
    u8: npt.NDArray[np.uint8], tables: tuple[npt.NDArray[np.uint8], ...]
) -> list[npt.NDArray[np.uint8]]:
    """Read each of ``tables`` at the hand cell of each row of a C-contiguous (n, 4) uint8.

    Works through the rows in chunks with preallocated temporaries: large fresh
    temporaries cost page faults that would double the run time.
    """
    halves = u8.view(np.uint16)  # (n, 2): the bytes of cards 0-1 and of cards 2-3
    n = len(halves)
    outs = [np.empty(n, dtype=np.uint8) for _ in tables]
    size = min(n, _CHUNK)
    index = np.empty(size, dtype=np.intp)
    cell = np.empty(size, dtype=np.intp)
    other = np.empty(size, dtype=np.intp)
    for start in range(0, n, _CHUNK):
        stop = min(start + _CHUNK, n)
        k = stop - start
        i, c, o = index[:k], cell[:k], other[:k]
        np.copyto(i, halves[start:stop, 0])
        _FIRST.take(i, mode="wrap", out=c)
        np.copyto(i, halves[start:stop, 1])
        _SECOND.take(i, mode="wrap", out=o)
        c += o
        for table, out in zip(tables, outs, strict=True):
            table.take(c, mode="wrap", out=out[start:stop])
    return outs


def _as_bytes(ids: npt.ArrayLike) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.generic]]:
    """Check shape and dtype; narrow to a C-contiguous uint8 copy or view.

    Ids that do not fit a byte are rejected here; ids 40..255 are left for the table
    sentinels to catch.
    """
    arr = np.asarray(ids)
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise ValueError(
            f"card ids must be an (n, 4) array, one hand of 4 card ids per row; "
            f"got shape {arr.shape}"
        )
    if arr.dtype.kind not in "iu":
        raise ValueError(f"card ids must be integers 0..39, got an array of dtype {arr.dtype}")
    if arr.dtype == np.uint8:
        return np.ascontiguousarray(arr), arr
    if arr.dtype == np.int8:  # negative ids become 128..255: caught by the sentinels
        return np.ascontiguousarray(arr).view(np.uint8), arr
    if int(np.bitwise_or.reduce(arr, axis=None)) & ~63:  # some id < 0 or >= 64
        _raise_bad_row(arr)
    return arr.astype(np.uint8, order="C"), arr


def _raise_bad_row(arr: npt.NDArray[np.generic]) -> NoReturn:
    """Raise the ValueError that names the first invalid row of ``arr``."""
    values = arr.astype(np.int64)
    out_of_range = ((values < 0) | (values > 39)).any(axis=1)
    ordered = np.sort(values, axis=1)
    repeated = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    bad_rows = np.flatnonzero(out_of_range | repeated)
    if len(bad_rows) == 0:  # pragma: no cover - only called on a bad array
        raise ValueError("invalid card ids")
    i = int(bad_rows[0])
    row = [int(v) for v in values[i]]
    bad = next((v for v in row if not 0 <= v <= 39), None)
    if bad is not None:
        raise ValueError(f"row {i} of the card ids {row}: id {bad} is not in 0..39")
    twice = next(v for v in row if row.count(v) > 1)
    raise ValueError(f"row {i} of the card ids {row}: card id {twice} is repeated")


def evaluate_batch(
    ids: npt.ArrayLike,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Evaluate many 4-card hands at once (R2): the vectorised :func:`primero.evaluate`.

    Args:
        ids: an ``(n, 4)`` array-like of integers (any integer dtype; ``uint8`` is the
            fastest), each row the ids of four distinct cards (``id = 10 * suit + rank``,
            0..39, the index in :data:`primero.engine.cards.DECK`, R1), in any order.
            ``n`` may be 0.

    Returns:
        ``(category, points)``: two new C-contiguous ``(n,)`` arrays of ``uint8``.
        ``category[i]`` is the int value of row ``i``'s
        :class:`primero.engine.hands.Category` (0 numerus .. 4 chorus) and ``points[i]`` its
        points (R1 card points of the counting cards, 20..84), so that
        ``Category(category[i]) == evaluate(row).category`` and
        ``points[i] == evaluate(row).points``. Both are ``uint8``: widen before
        arithmetic that may overflow, e.g. the comparison key
        ``category.astype(np.int16) * 128 + points`` (equal to ``HandValue.key``).

    Raises:
        ValueError: ``ids`` is not two-dimensional with 4 columns, is not of an integer
            dtype, holds an id outside 0..39, or a row names the same card twice; the
            message names the first bad row.
    """
    u8, original = _as_bytes(ids)
    category, points = _lookup(u8, (_CATEGORY, _POINTS))
    if len(category) and int(category.max()) == _INVALID:
        _raise_bad_row(original)
    return category, points


def value_ranks(ids: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Rank of each hand's value among all distinct hand values (R2, R7).

    Args:
        ids: as for :func:`evaluate_batch`: an ``(n, 4)`` integer array of card ids.

    Returns:
        A new ``(n,)`` ``uint8`` array: 0 for the weakest value (numerus 20) up to
        ``len(VALUE_CATEGORY) - 1`` for the best (chorus of sevens). Hands compare as
        their ranks do, and equal ranks are ties; :data:`VALUE_CATEGORY` and
        :data:`VALUE_POINTS` give each rank's category and points.

    Raises:
        ValueError: as :func:`evaluate_batch`.
    """
    u8, original = _as_bytes(ids)
    (rank,) = _lookup(u8, (_RANK,))
    if len(rank) and int(rank.max()) == _INVALID:
        _raise_bad_row(original)
    return rank


def ranks_of_valid(u8: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """:func:`value_ranks` without checks, for callers whose ids are known valid.

    Args:
        u8: a C-contiguous ``(n, 4)`` ``uint8`` array of distinct card ids per row.

    Returns:
        The ``(n,)`` ``uint8`` value ranks; garbage (255) for invalid rows.
    """
    return _lookup(u8, (_RANK,))[0]


@lru_cache(maxsize=1)
def _all_hands() -> npt.NDArray[np.uint8]:
    hands = combinations_array(40, 4).astype(np.uint8)
    hands.flags.writeable = False
    return hands


def all_hands() -> npt.NDArray[np.uint8]:
    """All C(40, 4) = 91,390 hands as a read-only ``(91390, 4)`` ``uint8`` id array.

    Rows are increasing and in lexicographic order (that of
    :func:`itertools.combinations` over ``range(40)``).
    """
    return _all_hands()
