"""primero: the reference implementation of the Renaissance card game Primero."""

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # every name below is loaded on first use by __getattr__ (PEP 562)
    from primero.engine.actions import (
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
    from primero.engine.batch import evaluate_batch
    from primero.engine.cards import (
        DECK,
        Card,
        CardError,
        Rank,
        Suit,
        format_cards,
        parse_card,
        parse_cards,
    )
    from primero.engine.dealing import Dealer
    from primero.engine.errors import IllegalActionError, PrimeroError
    from primero.engine.hands import Category, HandValue, evaluate, evaluate_ids
    from primero.engine.history import (
        HandRecord,
        RecordError,
        ReplayOutcome,
        read_record,
        record_of,
        replay,
        write_record,
    )
    from primero.engine.match import Match, play_hand
    from primero.engine.odds import exchange_odds, showdown_odds
    from primero.engine.rules import Rules, RulesError
    from primero.engine.state import DEALER, HandResult, HandState, LegalActions, Phase
    from primero.engine.views import SeatView, view

    __version__: str

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
#: The module each public name is loaded from on first access (PEP 562), so that
#: ``import primero.research.fastsim`` (or the command line) loads only the modules it uses.
_LAZY: dict[str, str] = {
    **dict.fromkeys(
        [
            "Action",
            "Bet",
            "Call",
            "Deal",
            "Declare",
            "Exchange",
            "Fold",
            "Raise",
            "Vote",
            "parse_action",
        ],
        "primero.engine.actions",
    ),
    "evaluate_batch": "primero.engine.batch",
    **dict.fromkeys(
        ["DECK", "Card", "CardError", "Rank", "Suit", "format_cards", "parse_card", "parse_cards"],
        "primero.engine.cards",
    ),
    "Dealer": "primero.engine.dealing",
    "IllegalActionError": "primero.engine.errors",
    "PrimeroError": "primero.engine.errors",
    **dict.fromkeys(["Category", "HandValue", "evaluate", "evaluate_ids"], "primero.engine.hands"),
    **dict.fromkeys(
        [
            "HandRecord",
            "RecordError",
            "ReplayOutcome",
            "read_record",
            "record_of",
            "replay",
            "write_record",
        ],
        "primero.engine.history",
    ),
    "Match": "primero.engine.match",
    "play_hand": "primero.engine.match",
    "exchange_odds": "primero.engine.odds",
    "showdown_odds": "primero.engine.odds",
    "Rules": "primero.engine.rules",
    "RulesError": "primero.engine.rules",
    **dict.fromkeys(
        ["DEALER", "HandResult", "HandState", "LegalActions", "Phase"], "primero.engine.state"
    ),
    "SeatView": "primero.engine.views",
    "view": "primero.engine.views",
}


def _version() -> str:
    """The installed distribution's version, read from its metadata (pyproject.toml is
    the one place it is written)."""
    import importlib.metadata  # ~25 ms of imports: only when the version is asked for

    return importlib.metadata.version("primero")


def __getattr__(name: str) -> object:
    """Load a public name (:data:`__all__`) or ``__version__`` on first access (PEP 562),
    and keep it as a module attribute.

    Raises:
        AttributeError: ``name`` is not an attribute of the package.
    """
    value: object
    if name == "__version__":
        value = _version()
    elif name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module 'primero' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The package's attributes, including the names loaded on first access."""
    return sorted({*globals(), *__all__, "__version__"})
