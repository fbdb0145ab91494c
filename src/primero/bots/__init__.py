"""Bots: agents that read a seat's view and return an action (they never see the state).

The kinds live in one registry, :data:`BOT_FACTORIES` (a kind's name and where its class
is, imported on first use); a new kind is one line there.

>>> BOT_KINDS
('random', 'heuristic', 'search', 'bluff', 'uniform', 'reference')
>>> make_bot("random", 1).name
'random'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # the bots load on first use (make_bot): the command line starts fast
    from primero.engine.match import Agent

__all__ = ["BOT_FACTORIES", "BOT_KINDS", "BOT_NAMES", "UNCAPPED_KINDS", "make_bot"]

#: Every bot kind: its name and ``"module:Class"``. The class takes ``seed=`` (its own
#: ``random.Random``, R10); a kind that takes ``samples=`` gets ``search_samples``.
BOT_FACTORIES: Final[dict[str, str]] = {
    "random": "primero.bots.random:RandomBot",  # a kind of move, then an amount, uniformly
    "heuristic": "primero.bots.heuristic:HeuristicBot",  # hand strength and pot odds
    "search": "primero.bots.search:SearchBot",  # determinized Monte Carlo search
    "bluff": "primero.bots.exploiters:BluffBot",  # declares chorus, bets the most
    "uniform": "primero.bots.exploiters:UniformBot",  # uniform over legal action ids
    "reference": "primero.bots.reference:ReferenceBot",  # a trained network, in NumPy
}

#: The bot kinds :func:`make_bot` knows, by name (the keys of :data:`BOT_FACTORIES`).
BOT_KINDS: Final[tuple[str, ...]] = tuple(BOT_FACTORIES)

#: Kinds that take a number of samples per decision (``search_samples``).
_SAMPLED: Final = frozenset({"search"})

#: Kinds never capped by ``friendly``: the exploiters exist to bet their own way (the
#: most, or uniformly over the legal ids); a host who seats one at a table asks for that.
UNCAPPED_KINDS: Final = frozenset({"bluff", "uniform"})

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


def _class(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def make_bot(
    kind: str, seed: int | None, *, search_samples: int | None = None, friendly: bool = False
) -> Agent:
    """A new bot of the named kind.

    Args:
        kind: one of :data:`BOT_KINDS`.
        seed: seed of the bot's own ``random.Random`` (R10); None draws a fresh one.
        search_samples: samples per decision of a ``"search"`` bot (None: its default,
            :data:`primero.bots.search.DEFAULT_SAMPLES`); ignored by the other kinds.
        friendly: wrap the bot in :class:`primero.bots.friendly.FriendlyBets`: its bets
            and raises capped at the pot and a quarter of the smallest stack in the hand
            (game-night tables); ignored for :data:`UNCAPPED_KINDS`.

    Returns:
        The bot, an :data:`~primero.engine.match.Agent` (a callable SeatView -> Action).

    Raises:
        ValueError: an unknown kind (the message lists the kinds), or ``search_samples``
            < 1.
    """
    path = BOT_FACTORIES.get(kind)
    if path is None:
        raise ValueError(f"unknown bot kind {kind!r}: one of {', '.join(BOT_KINDS)}")
    cls = _class(path)
    if kind in _SAMPLED and search_samples is not None:
        made: Agent = cls(seed=seed, samples=search_samples)
    else:
        made = cls(seed=seed)
    if friendly and kind not in UNCAPPED_KINDS:
        from primero.bots.friendly import FriendlyBets

        return FriendlyBets(made)
    return made
