"""Agents that misbehave, for ``primero tournament`` by import path
(tests/cli/test_cli_agents.py)."""

from __future__ import annotations

from typing import Any

from primero.engine.actions import Action, Fold
from primero.engine.views import SeatView


def says_f(view: SeatView) -> Any:
    """Returns record notation's letter, not a move."""
    return "f"


def says_nothing(view: SeatView) -> Any:
    """Returns None."""
    return None


def crashes(view: SeatView) -> Action:
    """Raises at its first decision."""
    raise ZeroDivisionError("division by zero")


def folds_for_seat_9(view: SeatView) -> Action:
    """A move of the wrong type of seat: the rules refuse it (R4)."""
    return Fold(9)
