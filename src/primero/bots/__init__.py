"""Bots: agents that read a seat's view and return an action (they never see the state).

The bots themselves are in :mod:`primero.bots.random` (``RandomBot``),
:mod:`primero.bots.heuristic` (``HeuristicBot``) and :mod:`primero.bots.search`
(``SearchBot``); this package names them and makes them by name (:func:`make_bot`)
without importing them first, so that the command line starts fast.

>>> BOT_KINDS
('random', 'heuristic', 'search')
>>> make_bot("random", 1).name
'random'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # the bots load on first use (make_bot): the command line starts fast
    from primero.engine.match import Agent

__all__ = ["BOT_KINDS", "BOT_NAMES", "make_bot"]

#: The bot kinds :func:`make_bot` knows, by name.
BOT_KINDS: Final[tuple[str, ...]] = ("random", "heuristic", "search")

#: Names given to the bots, in order (Italian Renaissance; Girolamo for Cardano): the
#: table's bots and ``primero simulate``'s players.
BOT_NAMES: Final[tuple[str, ...]] = (
    "Lorenzo",
    "Isabella",
    "Girolamo",
    "Lucrezia",
    "Baldassare",
    "Vittoria",
    "Ludovico",
    "Caterina",
    "Cesare",
    "Beatrice",
)


def make_bot(kind: str, seed: int | None, *, search_samples: int | None = None) -> Agent:
    """A new bot of the named kind.

    Args:
        kind: one of :data:`BOT_KINDS` (``"random"``, ``"heuristic"``, ``"search"``).
        seed: seed of the bot's own ``random.Random`` (R10); None draws a fresh one.
        search_samples: samples per decision of a ``"search"`` bot (None: its default,
            :data:`primero.bots.search.DEFAULT_SAMPLES`); ignored by the other kinds.

    Returns:
        The bot, an :data:`~primero.engine.match.Agent` (a callable SeatView -> Action).

    Raises:
        ValueError: an unknown kind (the message lists the kinds), or ``search_samples``
            < 1.
    """
    if kind == "random":
        from primero.bots.random import RandomBot

        return RandomBot(seed=seed)
    if kind == "heuristic":
        from primero.bots.heuristic import HeuristicBot  # NumPy and the odds tables: on demand

        return HeuristicBot(seed=seed)
    if kind == "search":
        from primero.bots.search import DEFAULT_SAMPLES, SearchBot

        samples = DEFAULT_SAMPLES if search_samples is None else search_samples
        return SearchBot(seed=seed, samples=samples)
    raise ValueError(f"unknown bot kind {kind!r}: one of {', '.join(BOT_KINDS)}")

