"""The exceptions of the hand engine: one base type, a subclass per kind of fault."""

from __future__ import annotations

__all__ = [
    "BadAmountError",
    "BadCardsError",
    "BadDeclarationError",
    "EndlessHandError",
    "HandOverError",
    "IllegalActionError",
    "MissingExtraError",
    "PrimeroError",
    "WrongTurnError",
]


class PrimeroError(Exception):
    """Base class of every error this package raises on purpose."""


class IllegalActionError(PrimeroError, ValueError):
    """An action that the rules do not allow now; the hand is left exactly as it was.

    The message says what was wrong and what is allowed.
    """


class WrongTurnError(IllegalActionError):
    """The action's seat (or the dealer) is not the one to act, or its kind is not legal now."""


class BadAmountError(IllegalActionError):
    """A bet or raise amount outside the allowed range (R5, R8)."""


class BadCardsError(IllegalActionError):
    """Cards not held (exchange), not in the stock (deal), or the wrong number of them."""


class BadDeclarationError(IllegalActionError):
    """A declaration below the category of the hand held (R6)."""


class HandOverError(IllegalActionError):
    """An action after the hand is complete."""


class EndlessHandError(PrimeroError):
    """A hand played on past the most lines the rules allow (R4, R5, R8): a rule bug or
    agents that deal themselves void deals without end (raised by
    :func:`primero.engine.match.play_hand`)."""


class MissingExtraError(PrimeroError, ImportError):
    """A feature needs an optional extra that is not installed; the message names the
    extra and the command that installs it (e.g. ``pip install 'primero[pdf]'``)."""
