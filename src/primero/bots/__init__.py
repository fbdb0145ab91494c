"""Bots: agents that read a seat's view and return an action (they never see the state).

>>> BOT_KINDS
('random', 'heuristic')
>>> make_bot("random", 1).name
'random'
"""

from __future__ import annotations

from typing import Final

from primero.bots.heuristic import HeuristicBot
from primero.bots.random import RandomBot
from primero.match import Agent

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
        return HeuristicBot(seed=seed)
    raise ValueError(f"unknown bot kind {kind!r}: one of {', '.join(BOT_KINDS)}")
