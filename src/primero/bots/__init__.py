"""Bots: agents that read a seat's view and return an action (they never see the state).

>>> BOT_KINDS
('random', 'heuristic')
>>> make_bot("random", 1).name
'random'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from primero.bots.random import RandomBot
from primero.match import Agent

if TYPE_CHECKING:
    from primero.bots.heuristic import HeuristicBot

__all__ = ["BOT_KINDS", "HeuristicBot", "RandomBot", "make_bot"]

#: The bot kinds :func:`make_bot` knows, by name.
BOT_KINDS: Final[tuple[str, ...]] = ("random", "heuristic")


def make_bot(kind: str, seed: int | None) -> Agent:
    """A new bot of the named kind.

    Args:
        kind: one of :data:`BOT_KINDS` (``"random"``, ``"heuristic"``).
        seed: seed of the bot's own ``random.Random`` (R10); None draws a fresh one.

    Returns:
        The bot, an :data:`~primero.match.Agent` (a callable SeatView -> Action).

    Raises:
        ValueError: an unknown kind; the message lists the kinds.
    """
    if kind == "random":
        return RandomBot(seed=seed)
    if kind == "heuristic":
        from primero.bots.heuristic import HeuristicBot  # NumPy and the odds tables: on demand

        return HeuristicBot(seed=seed)
    raise ValueError(f"unknown bot kind {kind!r}: one of {', '.join(BOT_KINDS)}")


def __getattr__(name: str) -> object:
    """``HeuristicBot`` is imported on first use, so that the command line starts fast."""
    if name == "HeuristicBot":
        from primero.bots.heuristic import HeuristicBot

        return HeuristicBot
    raise AttributeError(f"module 'primero.bots' has no attribute {name!r}")
