"""Cards of the 40-card Primero deck: suits, ranks, points, parsing and formatting (R1).

A card's id is its index in :data:`DECK`: ``id = 10 * suit + rank``, suits in the order
clubs, diamonds, hearts, spades and ranks in the order A 2 3 4 5 6 7 J Q K. So
``DECK[0]`` is ``Ac``, ``DECK[9]`` is ``Kc``, ``DECK[10]`` is ``Ad`` and ``DECK[39]`` is
``Ks``. Every card is interned: ``DECK[i]`` is the only object with id ``i``, and
:func:`parse_card` returns those same objects.

>>> parse_card("7h")
Card('7h')
>>> DECK[0], DECK[39]
(Card('Ac'), Card('Ks'))
>>> [c.points for c in parse_cards("7h 6h Ah Kc")]
[21, 18, 16, 10]
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Final

__all__ = [
    "DECK",
    "POINTS",
    "Card",
    "CardError",
    "Rank",
    "Suit",
    "format_cards",
    "parse_card",
    "parse_cards",
]


class CardError(ValueError):
    """A card text that is not a card of the 40-card deck (R1), or a repeated card.

    The message names the bad token and says what is accepted.
    """


class Suit(IntEnum):
    """The four suits, in deck order (R1). The value is the suit's index."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The canonical one-letter notation: ``c d h s``."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol used for display: ``♣ ♦ ♥ ♠``."""
        return "♣♦♥♠"[self]


class Rank(IntEnum):
    """The ten ranks, in deck order (R1). The value is the rank's index."""

    ACE = 0
    TWO = 1
    THREE = 2
    FOUR = 3
    FIVE = 4
    SIX = 5
    SEVEN = 6
    JACK = 7
    QUEEN = 8
    KING = 9

    @property
    def char(self) -> str:
        """The canonical rank character: ``A 2 3 4 5 6 7 J Q K``."""
        return _RANK_CHARS[self]

    @property
    def points(self) -> int:
        """The rank's point value (R1): 7 = 21, 6 = 18, A = 16, 5 = 15 ... J/Q/K = 10."""
        return POINTS[self]


_RANK_CHARS: Final = "A234567JQK"
#: Points of each rank, indexed by :class:`Rank` value (R1).
POINTS: Final[tuple[int, ...]] = (16, 12, 13, 14, 15, 18, 21, 10, 10, 10)

_SUIT_BY_TEXT: Final[dict[str, int]] = {
    "c": 0,
    "d": 1,
    "h": 2,
    "s": 3,
    "C": 0,
    "D": 1,
    "H": 2,
    "S": 3,
    "♣": 0,
    "♦": 1,
    "♥": 2,
    "♠": 3,
    "♧": 0,
    "♢": 1,
    "♡": 2,
    "♤": 3,
}


class Card:
    """One card of the 40-card deck (R1); immutable and interned (use :data:`DECK`).

    Attributes:
        id: the card's index in :data:`DECK` (0..39).
        rank: its :class:`Rank`.
        suit: its :class:`Suit`.
        points: its point value in chips-free points (R1), e.g. 21 for a seven.

    ``str(card)`` is the canonical notation (``"7h"``); :attr:`pretty` is the Unicode
    form (``"7♥"``). Cards order by id.
    """

    __slots__ = ("id", "points", "rank", "suit")

    id: int
    rank: Rank
    suit: Suit
    points: int

    def __init__(self, card_id: int) -> None:
        """Do not call: take cards from :data:`DECK` or :func:`parse_card`.

        Raises:
            CardError: always, once the deck has been built.
        """
        if _BUILT:
            raise CardError("cards are interned: use DECK[i] or parse_card(text)")
        object.__setattr__(self, "id", card_id)
        object.__setattr__(self, "suit", Suit(card_id // 10))
        object.__setattr__(self, "rank", Rank(card_id % 10))
        object.__setattr__(self, "points", POINTS[card_id % 10])

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (_card_from_id, (self.id,))

    def __str__(self) -> str:
        return _RANK_CHARS[self.rank] + "cdhs"[self.suit]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    def __le__(self, other: Card) -> bool:
        return self.id <= other.id

    def __gt__(self, other: Card) -> bool:
        return self.id > other.id

    def __ge__(self, other: Card) -> bool:
        return self.id >= other.id

    def __hash__(self) -> int:
        return self.id

    @property
    def pretty(self) -> str:
        """The card with its Unicode suit symbol, e.g. ``"7♥"``."""
        return _RANK_CHARS[self.rank] + "♣♦♥♠"[self.suit]


def _card_from_id(card_id: int) -> Card:
    return DECK[card_id]


_BUILT = False
#: The 40 cards, in id order (``DECK[i].id == i``): clubs, diamonds, hearts, spades,
#: each A 2 3 4 5 6 7 J Q K (R1).
DECK: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(40))
_BUILT = True

_CARD_BY_TEXT: Final[dict[str, Card]] = {
    _RANK_CHARS[c.rank] + s: c for c in DECK for s, suit in _SUIT_BY_TEXT.items() if suit == c.suit
}


def parse_card(text: str) -> Card:
    """Parse one card in the notation of R1.

    Args:
        text: a rank character (``A 2 3 4 5 6 7 J Q K``, upper case) followed by a suit
            (``c d h s``, ``C D H S`` or one of ``♣♦♥♠ ♧♢♡♤``), e.g. ``"7h"``, ``"7H"``,
            ``"7♥"``.

    Returns:
        The interned :class:`Card` from :data:`DECK`.

    Raises:
        CardError: ``text`` is not such a card (8s, 9s and 10s are not in the deck);
            the message names the bad token.
    """
    card = _CARD_BY_TEXT.get(text)
    if card is None:
        raise CardError(
            f"unknown card {text!r}: a card is a rank A 2 3 4 5 6 7 J Q K then a suit "
            "c d h s (or C D H S, or ♣♦♥♠ ♧♢♡♤), e.g. '7h'"
        )
    return card


def parse_cards(text: str | Iterable[str | Card], *, distinct: bool = True) -> tuple[Card, ...]:
    """Parse several cards: a string of space-separated cards or an iterable of cards.

    Args:
        text: ``"7h 6h Ah 2c"``, or an iterable whose items are card texts or
            :class:`Card` objects.
        distinct: when true (the default), a card named twice is an error.

    Returns:
        The cards as a tuple, in the order given.

    Raises:
        CardError: a token is not a card (the message names it), or a card is repeated
            while ``distinct`` is true.
    """
    items: Iterable[str | Card] = text.split() if isinstance(text, str) else text
    cards = tuple(item if isinstance(item, Card) else parse_card(item) for item in items)
    if distinct and len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise CardError(f"card {card} is named twice")
            seen.add(card)
    return cards


def format_cards(cards: Iterable[Card], *, pretty: bool = False) -> str:
    """Write cards space-separated, canonical (``"7h 6h"``) or Unicode (``"7♥ 6♥"``).

    Args:
        cards: the cards, written in the order given.
        pretty: use the Unicode suit symbols.

    Returns:
        The text; empty for no cards.
    """
    if pretty:
        return " ".join(c.pretty for c in cards)
    return " ".join(str(c) for c in cards)
