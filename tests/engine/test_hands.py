"""The hand evaluator (R2): reference counts, point ranges, worked examples, errors."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest

from primero.engine.cards import DECK, Card, CardError, parse_cards
from primero.engine.hands import (
    _TABLE,
    Category,
    HandValue,
    category_of,
    evaluate,
    evaluate_ids,
)

ALL_VALUES = [evaluate(hand) for hand in combinations(DECK, 4)]


def first_principles(ids: Sequence[int]) -> HandValue:
    """Evaluate four distinct card ids from first principles, hand by hand (R2): the
    oracle of the evaluator's table, which is built category by category instead."""
    cards = sorted(DECK[i] for i in ids)
    ranks = {c.rank for c in cards}
    if len(ranks) == 1:
        return HandValue(Category.CHORUS, sum(c.points for c in cards), tuple(cards))
    by_suit: list[list[Card]] = [[], [], [], []]
    for c in cards:
        by_suit[c.suit].append(c)
    sizes = sorted((len(s) for s in by_suit), reverse=True)
    if sizes[0] == 4:
        return HandValue(Category.FLUXUS, sum(c.points for c in cards), tuple(cards))
    if sizes[0] == 3:
        three = next(s for s in by_suit if len(s) == 3)
        if {c.rank for c in three} == {0, 5, 6}:  # A, 6, 7
            return HandValue(Category.SUPREMUS, 55, tuple(three))
        return HandValue(Category.NUMERUS, sum(c.points for c in three), tuple(three))
    if sizes[0] == 1:
        return HandValue(Category.PRIMERO, sum(c.points for c in cards), tuple(cards))
    # two cards of one suit (2+1+1) or two pairs of suits (2+2): the pair with more points
    best: list[Card] = []
    for s in by_suit:
        if len(s) == 2 and sum(c.points for c in s) > sum(c.points for c in best):
            best = s
    return HandValue(Category.NUMERUS, sum(c.points for c in best), tuple(best))


def test_the_table_holds_every_hand_once() -> None:
    assert len(ALL_VALUES) == 91_390
    assert len(_TABLE) == 91_390


def test_table_equals_first_principles_on_every_hand() -> None:
    for ids in combinations(range(40), 4):
        fast = evaluate_ids(*ids)
        slow = first_principles(ids)
        assert (fast.category, fast.points, fast.counting) == (
            slow.category,
            slow.points,
            slow.counting,
        )


def test_category_counts() -> None:
    counts = Counter(v.category for v in ALL_VALUES)
    assert counts == {
        Category.CHORUS: 10,
        Category.FLUXUS: 840,
        Category.SUPREMUS: 120,
        Category.PRIMERO: 9_990,
        Category.NUMERUS: 80_430,
    }


@pytest.mark.parametrize(
    ("category", "low", "high"),
    [
        (Category.NUMERUS, 20, 54),
        (Category.PRIMERO, 40, 81),
        (Category.SUPREMUS, 55, 55),
        (Category.FLUXUS, 42, 70),
        (Category.CHORUS, 40, 84),
    ],
)
def test_point_ranges(category: Category, low: int, high: int) -> None:
    points = [v.points for v in ALL_VALUES if v.category == category]
    assert (min(points), max(points)) == (low, high)


@pytest.mark.parametrize(
    ("hand", "category", "points", "counting"),
    [
        # supremus: A 6 7 of hearts, fourth card another suit: always 55
        ("7h 6h Ah 2c", Category.SUPREMUS, 55, "Ah 6h 7h"),
        # A 6 7 suited and the fourth card of the same suit: a fluxus, not a supremus
        ("7c 6c Ac 5c", Category.FLUXUS, 70, "Ac 5c 6c 7c"),
        ("7h 6h Ah Kh", Category.FLUXUS, 65, "Ah 6h 7h Kh"),
        ("Jc Qc Kc 2c", Category.FLUXUS, 42, "2c Jc Qc Kc"),
        ("7c 7d 7h 7s", Category.CHORUS, 84, "7c 7d 7h 7s"),
        ("Jc Jd Jh Js", Category.CHORUS, 40, "Jc Jd Jh Js"),
        ("7c 6d Ah 5s", Category.PRIMERO, 70, "7c 6d Ah 5s"),
        ("7c 7d 7h 6s", Category.PRIMERO, 81, "7c 7d 7h 6s"),
        ("Jc Qd Kh Js", Category.PRIMERO, 40, "Jc Qd Kh Js"),
        # numerus 3+1: only the three clubs count, 10 + 14 + 18
        ("Qc 4c 6c 4s", Category.NUMERUS, 42, "4c 6c Qc"),
        ("7c 6c 5c Ad", Category.NUMERUS, 54, "5c 6c 7c"),
        # numerus 2+2: the pair with more points, clubs 39 over diamonds 37
        ("7c 6c 7d Ad", Category.NUMERUS, 39, "6c 7c"),
        # ... also when the better pair is the later suit: spades 39 over clubs 25
        ("2c 3c 7s 6s", Category.NUMERUS, 39, "6s 7s"),
        # ... and equal pairs: the earlier suit's cards count (clubs)
        ("7d Kd 7c Kc", Category.NUMERUS, 31, "7c Kc"),
        # numerus 2+1+1
        ("2c 3d 4d 5s", Category.NUMERUS, 27, "3d 4d"),
        ("Jc Qc Kd 2h", Category.NUMERUS, 20, "Jc Qc"),
    ],
)
def test_examples(hand: str, category: Category, points: int, counting: str) -> None:
    value = evaluate(hand)
    assert value.category == category
    assert value.points == points
    assert value.counting == parse_cards(counting)
    assert value.key == int(category) * 128 + points
    assert str(value) == f"{category.label} {points}"


def test_input_forms_and_card_order_give_the_same_value() -> None:
    value = evaluate("7h 6h Ah 2c")
    assert evaluate(parse_cards("2c Ah 6h 7h")) is value
    assert evaluate(list(parse_cards("6h 2c 7h Ah"))) is value
    assert evaluate(["7h", "6h", "Ah", "2c"]) is value
    assert evaluate("7H 6♥ A♡ 2C") is value
    assert evaluate_ids(26, 25, 20, 1) is value
    assert category_of(parse_cards("7h 6h Ah 2c")) == Category.SUPREMUS


def test_ordering_category_first_then_points() -> None:
    chorus_40 = evaluate("Jc Jd Jh Js")
    fluxus_70 = evaluate("7c 6c Ac 5c")
    fluxus_42 = evaluate("Jc Qc Kc 2c")
    supremus = evaluate("7h 6h Ah 2c")
    primero_81 = evaluate("7c 7d 7h 6s")
    primero_40 = evaluate("Jc Qd Kh Js")
    numerus_54 = evaluate("7c 6c 5c Ad")
    ladder = [numerus_54, primero_40, primero_81, supremus, fluxus_42, fluxus_70, chorus_40]
    assert sorted(reversed(ladder)) == ladder
    assert chorus_40 > fluxus_70 > fluxus_42 > supremus > primero_81 > primero_40 > numerus_54
    assert numerus_54 < primero_40 <= primero_40 and fluxus_70 >= fluxus_42
    # equal category and points tie, whatever the cards
    a, b = evaluate("7c 6d Ah 5s"), evaluate("7d 6c As 5h")
    assert a == b and hash(a) == hash(b) and a is not b
    assert not a < b and not a > b
    assert evaluate("7c 6c 7d Ad") == evaluate("2c 3c 7s 6s")  # numerus 39 twice
    assert max(ALL_VALUES) == evaluate("7c 7d 7h 7s")
    assert min(ALL_VALUES).key == int(Category.NUMERUS) * 128 + 20


def test_categories() -> None:
    assert [c.label for c in Category] == ["numerus", "primero", "supremus", "fluxus", "chorus"]
    assert Category.parse("fluxus") is Category.FLUXUS
    with pytest.raises(ValueError, match="unknown category 'flush'"):
        Category.parse("flush")


def test_values_are_immutable() -> None:
    value = evaluate("7h 6h Ah 2c")
    with pytest.raises(AttributeError):
        value.points = 60
    assert repr(value) == "HandValue(supremus, 55, 'Ah 6h 7h')"
    assert HandValue(Category.SUPREMUS, 55, ()) == value


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("7h 6h 8h 2c", "unknown card '8h'"),
        ("7h 6h Ah 10c", "unknown card '10c'"),
        ("7h 6h Ah", "a hand has exactly 4 cards, got 3"),
        ("7h 6h Ah 2c 3c", "a hand has exactly 4 cards, got 5"),
        ("", "a hand has exactly 4 cards, got 0"),
        ("7h 7h Ah 2c", "card 7h is named twice"),
        ("7h 7H Ah 2c", "card 7h is named twice"),
    ],
)
def test_bad_hands(hand: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        evaluate(hand)


def test_bad_ids() -> None:
    with pytest.raises(CardError, match="not four distinct card ids"):
        evaluate_ids(0, 0, 1, 2)
    with pytest.raises(CardError, match="not four distinct card ids"):
        evaluate_ids(0, 1, 2, 40)
    with pytest.raises(CardError, match="not four distinct card ids"):
        evaluate_ids(0, 1, 2, -1)
    with pytest.raises(ValueError):  # a CardError is a ValueError
        evaluate(parse_cards("7h 6h Ah"))


def test_the_table_is_built_on_first_use_by_every_entry_point() -> None:
    # Importing the module does not build the table (the command line's start-up); the
    # first evaluation through any entry point does, once, including the error paths.
    script = """
import primero.engine.hands as h
assert not h._TABLE
{first}
assert len(h._TABLE) == 91_390, len(h._TABLE)
assert h.value_by_mask() is h._TABLE
assert h.evaluate("7h 6h Ah 2c") is h.evaluate_ids(26, 25, 20, 1)
"""
    firsts = [
        "h.value_by_mask()",
        "h.evaluate('7h 6h Ah 2c')",
        "h.evaluate_ids(0, 1, 2, 3)",
        "h.evaluate_mask(15)",
        "h.category_of(h.DECK[:4])",
        "try:\n    h.evaluate_ids(0, 0, 1, 2)\nexcept h.CardError:\n    pass",
        "try:\n    h.evaluate_mask(7)\nexcept h.CardError:\n    pass",
    ]
    for first in firsts:
        code = script.format(first=first)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert done.returncode == 0, (first, done.stderr)
