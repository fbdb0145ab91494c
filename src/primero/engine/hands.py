"""Hand categories and the hand evaluator (R2).

Every 4-card hand falls in exactly one :class:`Category` (the highest it satisfies) and
scores the points of the cards that define it. Hands compare by category, then points.

>>> v = evaluate("7h 6h Ah 2c")
>>> v.category.name, v.points
('SUPREMUS', 55)
>>> evaluate("7c 6d Ah 5s") > evaluate("Kh Qh Jh 7h")
False
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterable, Mapping
from enum import IntEnum
from itertools import combinations, product, repeat
from typing import Final

from primero.engine.cards import DECK, Card, CardError, parse_cards

__all__ = [
    "Category",
    "HandValue",
    "category_of",
    "evaluate",
    "evaluate_ids",
    "evaluate_mask",
    "value_by_mask",
]


class Category(IntEnum):
    """The five hand categories, ordered low to high (R2)."""

    NUMERUS = 0
    PRIMERO = 1
    SUPREMUS = 2
    FLUXUS = 3
    CHORUS = 4

    @property
    def label(self) -> str:
        """The category's name as written in records and shown to players: ``"fluxus"``."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Category:
        """The category named ``text`` (lower case, as in records: ``"fluxus"``).

        Raises:
            ValueError: ``text`` is not one of chorus, fluxus, supremus, primero, numerus.
        """
        try:
            return _CATEGORY_BY_LABEL[text]
        except KeyError:
            raise ValueError(
                f"unknown category {text!r}: one of chorus, fluxus, supremus, primero, numerus"
            ) from None


_CATEGORY_BY_LABEL: Final = {c.name.lower(): c for c in Category}


class HandValue:
    """The value of a 4-card hand (R2): its category, points and the cards that count.

    Attributes:
        category: the :class:`Category`.
        points: the sum of the points (R1) of the counting cards.
        counting: the cards that define the category, in deck order (for a numerus with
            two suits of two cards, the pair with more points; on equal points, the pair
            of the earlier suit in deck order c d h s).

    Values are totally ordered by ``(category, points)``; equal category and points
    compare equal (a tie, R7) whatever the counting cards. Values are immutable and
    shared: the evaluator returns the same object for the same hand (and hands with the
    same counting cards share one object).
    """

    __slots__ = ("category", "counting", "key", "points")

    category: Category
    points: int
    counting: tuple[Card, ...]
    key: int

    def __init__(self, category: Category, points: int, counting: tuple[Card, ...]) -> None:
        """Build a value; usually obtained from :func:`evaluate` instead.

        Args:
            category: the category.
            points: the points (0..84).
            counting: the counting cards.
        """
        object.__setattr__(self, "category", category)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "counting", counting)
        object.__setattr__(self, "key", int(category) * 128 + points)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("HandValue is immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.key == other.key

    def __hash__(self) -> int:
        return self.key

    def __lt__(self, other: HandValue) -> bool:
        return self.key < other.key

    def __le__(self, other: HandValue) -> bool:
        return self.key <= other.key

    def __gt__(self, other: HandValue) -> bool:
        return self.key > other.key

    def __ge__(self, other: HandValue) -> bool:
        return self.key >= other.key

    def __repr__(self) -> str:
        cards = " ".join(str(c) for c in self.counting)
        return f"HandValue({self.category.label}, {self.points}, '{cards}')"

    def __str__(self) -> str:
        return f"{self.category.label} {self.points}"


def _build_table(table: dict[int, HandValue] | None = None) -> dict[int, HandValue]:
    """Every hand's value, built category by category rather than hand by hand (R2).

    The hands are generated from the shape of their suits, so no hand is classified
    at run time: fluxus (4 of a suit), 3+1 (supremus when the three are A 6 7, else a
    numerus of three), 2+1+1 (numerus of the pair), 2+2 (numerus of the pair with more
    points; the earlier suit on equal points) and 1+1+1+1 (primero, or chorus when the
    ranks are equal). Hands with the same counting cards share one :class:`HandValue`
    (11,500 values for 91,390 hands). ``tests/engine/test_hands.py`` checks the result on
    every hand against an evaluator written from R2 hand by hand.

    Args:
        table: the dict to fill (:data:`_TABLE`, by :func:`_table`); None: a new one.

    Returns:
        ``table``, filled.

    Built on first use (:func:`_table`): masks are made by ``map`` and the 10,000 values
    of the 1+1+1+1 hands set their slots directly, not through ``HandValue.__init__``.
    """
    if table is None:
        table = {}
    numerus, supremus = Category.NUMERUS, Category.SUPREMUS
    suits = [DECK[10 * s : 10 * s + 10] for s in range(4)]
    bits = [1 << i for i in range(40)]
    pairs = [
        [
            (bits[a.id] | bits[b.id], HandValue(numerus, a.points + b.points, (a, b)))
            for a, b in combinations(suits[s], 2)
        ]
        for s in range(4)
    ]
    for s in range(4):
        for quad in combinations(suits[s], 4):
            table[sum(bits[c.id] for c in quad)] = HandValue(
                Category.FLUXUS, sum(c.points for c in quad), quad
            )
        others = [bits[c.id] for c in DECK if c.suit != s]
        for trio in combinations(suits[s], 3):
            a, b, c = trio
            if a.rank == 0 and b.rank == 5 and c.rank == 6:  # A, 6, 7 of one suit
                value = HandValue(supremus, 55, trio)
            else:
                value = HandValue(numerus, a.points + b.points + c.points, trio)
            mask = bits[a.id] | bits[b.id] | bits[c.id]
            table.update(zip(map(mask.__or__, others), repeat(value)))
        singles = [
            bits[x.id] | bits[y.id]
            for t, u in combinations([t for t in range(4) if t != s], 2)
            for x in suits[t]
            for y in suits[u]
        ]
        for mask, value in pairs[s]:
            table.update(zip(map(mask.__or__, singles), repeat(value)))
    for s, t in combinations(range(4), 2):
        second = [(m, v, v.points) for m, v in pairs[t]]
        for mask, value in pairs[s]:
            pts = value.points
            table.update({mask | m: (value if pts >= p else v) for m, v, p in second})
    # 1+1+1+1: one value per hand, so its slots are set directly (what __init__ does)
    slots = vars(HandValue)
    set_category, set_points = slots["category"].__set__, slots["points"].__set__
    set_counting, set_key = slots["counting"].__set__, slots["key"].__set__
    new = object.__new__
    chorus, primero = Category.CHORUS, Category.PRIMERO
    chorus_key, primero_key = int(chorus) * 128, int(primero) * 128
    for hand in product(*suits):
        a, b, c, d = hand
        points = a.points + b.points + c.points + d.points
        value = new(HandValue)
        if a.rank == b.rank == c.rank == d.rank:
            set_category(value, chorus)
            set_key(value, chorus_key + points)
        else:
            set_category(value, primero)
            set_key(value, primero_key + points)
        set_points(value, points)
        set_counting(value, hand)
        table[bits[a.id] | bits[b.id] | bits[c.id] | bits[d.id]] = value
    return table


#: The evaluator's table: empty until first used (:func:`_table` fills it in place), so
#: that importing the module (the command line's help, ``--version``) does not build it.
_TABLE: Final[dict[int, HandValue]] = {}

#: Whether :data:`_TABLE` is complete. While one thread fills it, another may find a
#: value already there; a hand not (yet) there sends it to :func:`_table`, which waits.
_built = False
_BUILDING: Final = threading.Lock()


def _table() -> dict[int, HandValue]:
    """The evaluator's table, built on the first call (R2); thread-safe (one thread
    builds it while the others wait).

    The garbage collector is paused while the table is built: the build makes ~35,000
    objects and no reference cycle, and collections in its middle cost ~10% of it.
    """
    global _built
    if not _built:
        with _BUILDING:
            if not _built:
                collecting = gc.isenabled()
                gc.disable()
                try:
                    _build_table(_TABLE)
                finally:
                    if collecting:
                        gc.enable()
                _built = True
    return _TABLE


def value_by_mask() -> Mapping[int, HandValue]:
    """Every 4-card hand's value (R2), keyed by the bit mask of its card ids
    (``sum(1 << card.id)``): the evaluator's table, for code that works on card masks (the
    random-playout kernel, the bots' opponent models). 91,390 entries; read only.

    Built on the first call (or the first evaluation), so that importing this module
    does not build it; thread-safe.

    >>> value_by_mask()[0b1111] == evaluate_ids(0, 1, 2, 3)
    True
    """
    return _table()


def evaluate_mask(mask: int) -> HandValue:
    """The value of the 4-card hand whose card ids are the set bits of ``mask`` (R2).

    Args:
        mask: ``sum(1 << card.id)`` over four distinct cards (ids 0..39).

    Raises:
        CardError: ``mask`` does not have exactly four bits set among bits 0..39.

    >>> evaluate_mask((1 << 26) | (1 << 25) | (1 << 20) | (1 << 1)).category.name
    'SUPREMUS'
    """
    try:
        return _TABLE[mask]
    except (KeyError, TypeError):
        if not _built:  # the first evaluation: build the table
            _table()
            return evaluate_mask(mask)
        raise CardError(f"not the mask of four distinct card ids in 0..39: {mask!r}") from None


def evaluate_ids(a: int, b: int, c: int, d: int) -> HandValue:
    """The value of the hand of four distinct card ids (indices into ``DECK``) (R2).

    Raises:
        CardError: the ids are not four distinct ids in 0..39.
    """
    try:
        return _TABLE[(1 << a) | (1 << b) | (1 << c) | (1 << d)]
    except (KeyError, ValueError, TypeError):
        if not _built:  # the first evaluation: build the table
            _table()
            return evaluate_ids(a, b, c, d)
        raise CardError(f"not four distinct card ids in 0..39: {(a, b, c, d)}") from None


def evaluate(cards: str | Iterable[Card | str]) -> HandValue:
    """Evaluate a 4-card hand (R2).

    Args:
        cards: four distinct cards: a string such as ``"7h 6h Ah 2c"`` or a sequence of
            :class:`Card` (or card texts), in any order.

    Returns:
        The shared :class:`HandValue` of the hand (category, points, counting cards).

    Raises:
        CardError: a token is not a card, a card is repeated, or the hand does not hold
            exactly four cards (a hand of fewer than four cards has no category, R2).
    """
    if type(cards) is tuple and len(cards) == 4:
        a, b, c, d = cards
        if type(a) is Card and type(b) is Card and type(c) is Card and type(d) is Card:
            value = _TABLE.get((1 << a.id) | (1 << b.id) | (1 << c.id) | (1 << d.id))
            if value is not None:
                return value
    parsed = parse_cards(cards)
    if len(parsed) != 4:
        raise CardError(f"a hand has exactly 4 cards, got {len(parsed)}")
    return _table()[sum(1 << card.id for card in parsed)]


def category_of(cards: Iterable[Card]) -> Category:
    """The category of a 4-card hand; shorthand for ``evaluate(cards).category`` (R2).

    Raises:
        CardError: as :func:`evaluate`.
    """
    return evaluate(tuple(cards)).category
