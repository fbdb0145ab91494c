"""Hints on demand: the exact odds of the person's own exchange choices (placeholder)."""

from __future__ import annotations

from rich.text import Text

from primero.views import SeatView

__all__ = ["hints_text"]


def hints_text(view: SeatView) -> Text:
    """The hints panel for ``view`` (to be filled from primero.odds)."""
    return Text("Hints: (odds not yet available)")
