"""primero: the reference implementation of the Renaissance card game Primero."""

from primero.cards import DECK, Card, CardError, Rank, Suit, format_cards, parse_card, parse_cards
from primero.hands import Category, HandValue, evaluate, evaluate_ids

__all__ = [
    "DECK",
    "Card",
    "CardError",
    "Category",
    "HandValue",
    "Rank",
    "Suit",
    "evaluate",
    "evaluate_ids",
    "format_cards",
    "parse_card",
    "parse_cards",
]
__version__ = "0.1.0"
