"""primero: the reference implementation of the Renaissance card game Primero."""

from primero.actions import (
    Action,
    Bet,
    Call,
    Deal,
    Declare,
    Exchange,
    Fold,
    Raise,
    Vote,
    parse_action,
)
from primero.cards import DECK, Card, CardError, Rank, Suit, format_cards, parse_card, parse_cards
from primero.dealing import Dealer
from primero.errors import IllegalActionError, PrimeroError
from primero.hands import Category, HandValue, evaluate, evaluate_ids
from primero.history import (
    HandRecord,
    RecordError,
    ReplayOutcome,
    read_record,
    record_of,
    replay,
    write_record,
)
from primero.match import Match, play_hand
from primero.rules import Rules, RulesError
from primero.state import DEALER, HandResult, HandState, LegalActions, Phase
from primero.views import SeatView, view

__all__ = [
    "DEALER",
    "DECK",
    "Action",
    "Bet",
    "Call",
    "Card",
    "CardError",
    "Category",
    "Deal",
    "Dealer",
    "Declare",
    "Exchange",
    "Fold",
    "HandRecord",
    "HandResult",
    "HandState",
    "HandValue",
    "IllegalActionError",
    "LegalActions",
    "Match",
    "Phase",
    "PrimeroError",
    "Raise",
    "Rank",
    "RecordError",
    "ReplayOutcome",
    "Rules",
    "RulesError",
    "SeatView",
    "Suit",
    "Vote",
    "evaluate",
    "evaluate_ids",
    "format_cards",
    "parse_action",
    "parse_card",
    "parse_cards",
    "play_hand",
    "read_record",
    "record_of",
    "replay",
    "view",
    "write_record",
]
__version__ = "0.1.0"
