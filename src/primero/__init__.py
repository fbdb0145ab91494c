"""primero: the reference implementation of the Renaissance card game Primero."""

import importlib
import importlib.metadata
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:  # loaded on first use by __getattr__: they need NumPy and build tables
    from primero.batch import evaluate_batch
    from primero.odds import exchange_odds, showdown_odds

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
    "evaluate_batch",
    "evaluate_ids",
    "exchange_odds",
    "format_cards",
    "parse_action",
    "parse_card",
    "parse_cards",
    "play_hand",
    "read_record",
    "record_of",
    "replay",
    "showdown_odds",
    "view",
    "write_record",
]
#: The installed distribution's version (pyproject.toml is the one place it is written).
__version__: str = importlib.metadata.version("primero")

#: Names loaded lazily from NumPy-based modules, so that ``import primero`` stays light.
_LAZY = {
    "evaluate_batch": "primero.batch",
    "exchange_odds": "primero.odds",
    "showdown_odds": "primero.odds",
}


def __getattr__(name: str) -> object:
    """Load :func:`evaluate_batch`, :func:`exchange_odds` and :func:`showdown_odds`
    (NumPy, lookup tables) on first access (PEP 562).

    Raises:
        AttributeError: ``name`` is not an attribute of the package.
    """
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'primero' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
