"""The vectorised evaluator (primero.engine.batch) against the scalar one, on every hand (R2)."""

from __future__ import annotations

import doctest
import re
from itertools import combinations

import numpy as np
import numpy.typing as npt
import pytest

import primero.engine.batch
from primero.engine.batch import (
    VALUE_CATEGORY,
    VALUE_POINTS,
    all_hands,
    combinations_array,
    evaluate_batch,
    ranks_of_valid,
    value_ranks,
)
from primero.engine.cards import DECK
from primero.engine.hands import Category, evaluate


@pytest.fixture(scope="module")
def scalar() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Category and points of every hand of all_hands(), from the scalar evaluator."""
    values = [evaluate(tuple(DECK[i] for i in row)) for row in all_hands().tolist()]
    return (
        np.array([int(v.category) for v in values], dtype=np.int64),
        np.array([v.points for v in values], dtype=np.int64),
    )


def test_all_hands_in_lexicographic_order() -> None:
    hands = all_hands()
    assert hands.shape == (91_390, 4)
    assert hands.dtype == np.uint8
    assert not hands.flags.writeable
    assert hands.tolist() == [list(c) for c in combinations(range(40), 4)]


@pytest.mark.parametrize(("n", "k"), [(5, 0), (5, 1), (6, 2), (7, 3), (9, 4), (3, 4), (0, 2)])
def test_combinations_array_matches_itertools(n: int, k: int) -> None:
    got = combinations_array(n, k)
    assert got.shape == (len(list(combinations(range(n), k))), k)
    assert got.tolist() == [list(c) for c in combinations(range(n), k)]


def test_batch_equals_scalar_on_every_hand(
    scalar: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
) -> None:
    category, points = evaluate_batch(all_hands())
    assert category.shape == points.shape == (91_390,)
    assert category.dtype == points.dtype == np.uint8
    assert np.array_equal(category, scalar[0])
    assert np.array_equal(points, scalar[1])


def test_category_counts() -> None:
    category, _ = evaluate_batch(all_hands())
    assert np.bincount(category).tolist() == [80_430, 9_990, 120, 840, 10]


@pytest.mark.parametrize(
    "dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
)
def test_any_integer_dtype_and_any_card_order(
    dtype: type[np.integer[npt.NBitBase]],
    scalar: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
) -> None:
    rng = np.random.default_rng(7)
    order = np.argsort(rng.random((91_390, 4)), axis=1)
    shuffled = np.take_along_axis(all_hands(), order, axis=1).astype(dtype)
    category, points = evaluate_batch(shuffled)
    assert np.array_equal(category, scalar[0])
    assert np.array_equal(points, scalar[1])


def test_lists_and_non_contiguous_arrays() -> None:
    # 7h 6h Ah 2c: supremus 55; Ac Ad Ah As: chorus 64; Kh Qh Jh 7h: fluxus 51
    rows = [[26, 25, 20, 1], [0, 10, 20, 30], [29, 28, 27, 26]]
    category, points = evaluate_batch(rows)
    assert category.tolist() == [Category.SUPREMUS, Category.CHORUS, Category.FLUXUS]
    assert points.tolist() == [55, 64, 51]
    transposed = np.array(rows, dtype=np.int64).T.copy().T  # Fortran order
    assert not transposed.flags.c_contiguous
    assert evaluate_batch(transposed)[1].tolist() == [55, 64, 51]
    strided = np.array(rows * 2, dtype=np.uint8)[::2]
    assert evaluate_batch(strided)[1].tolist() == [55, 51, 64]


def test_numerus_examples() -> None:
    # Qc 4c 6c 4s: numerus of three clubs 10 + 14 + 18 = 42
    # 7c 6c 7d Ad: 2+2, clubs 39 beat diamonds 37: 39
    # 2c 3d 4d 5s: numerus of the diamonds 13 + 14 = 27
    category, points = evaluate_batch([[8, 3, 5, 33], [6, 5, 16, 10], [1, 12, 13, 34]])
    assert category.tolist() == [0, 0, 0]
    assert points.tolist() == [42, 39, 27]


def test_empty_input() -> None:
    category, points = evaluate_batch(np.zeros((0, 4), dtype=np.int64))
    assert category.shape == points.shape == (0,)
    assert value_ranks(np.zeros((0, 4), dtype=np.uint8)).shape == (0,)


def test_value_ranks_order_like_hand_values(
    scalar: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
) -> None:
    ranks = value_ranks(all_hands())
    keys = scalar[0] * 128 + scalar[1]
    distinct = np.unique(keys)
    assert len(VALUE_CATEGORY) == len(VALUE_POINTS) == len(distinct) == 112
    assert np.array_equal(ranks, np.searchsorted(distinct, keys))
    assert np.array_equal(VALUE_CATEGORY[ranks], scalar[0])
    assert np.array_equal(VALUE_POINTS[ranks], scalar[1])
    assert (VALUE_CATEGORY[0], VALUE_POINTS[0]) == (Category.NUMERUS, 20)
    assert (VALUE_CATEGORY[-1], VALUE_POINTS[-1]) == (Category.CHORUS, 84)
    assert np.array_equal(ranks_of_valid(np.ascontiguousarray(all_hands())), ranks)


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        ([[0, 1, 2, 2]], "row 0 of the card ids [0, 1, 2, 2]: card id 2 is repeated"),
        ([[0, 1, 2, 3], [5, 9, 5, 7]], "row 1 of the card ids [5, 9, 5, 7]: card id 5 is repeated"),
        ([[0, 1, 2, 40]], "row 0 of the card ids [0, 1, 2, 40]: id 40 is not in 0..39"),
        ([[-1, 1, 2, 3]], "id -1 is not in 0..39"),
        ([[0, 1, 2, 256]], "id 256 is not in 0..39"),  # 256 would wrap to 0 in a byte
        ([[0, 1, 2, -65536]], "id -65536 is not in 0..39"),
        (np.array([[0, 1, 2, 200]], dtype=np.uint8), "id 200 is not in 0..39"),
        (np.array([[0, 1, 2, -3]], dtype=np.int8), "id -3 is not in 0..39"),
        (np.array([[0, 1, 2, 63]], dtype=np.int64), "id 63 is not in 0..39"),
        ([[0, 1, 2]], "must be an (n, 4) array, one hand of 4 card ids per row; got shape (1, 3)"),
        ([0, 1, 2, 3], "got shape (4,)"),
        (np.zeros((2, 4, 1), dtype=np.int64), "got shape (2, 4, 1)"),
        ([[0.0, 1, 2, 3]], "dtype float64"),
        ([[True, False, True, False]], "dtype bool"),
    ],
)
def test_invalid_input(ids: npt.ArrayLike, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        evaluate_batch(ids)
    with pytest.raises(ValueError, match=re.escape(message)):
        value_ranks(ids)


def test_a_bad_row_deep_in_a_large_array() -> None:
    ids = np.ascontiguousarray(np.tile(all_hands(), (2, 1)))
    ids[150_000, 3] = ids[150_000, 0]
    with pytest.raises(ValueError, match="row 150000 of the card ids"):
        evaluate_batch(ids)


def test_tables_are_read_only() -> None:
    with pytest.raises(ValueError):
        VALUE_POINTS[0] = 1


def test_module_doctest() -> None:
    assert doctest.testmod(primero.engine.batch).failed == 0
