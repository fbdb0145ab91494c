"""Primero's own bots as OpenSpiel bots, to pit them against OpenSpiel's algorithms.

>>> import numpy as np
>>> import pyspiel
>>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
>>> import primero.research.openspiel
>>> game = pyspiel.load_game("python_primero", {"players": 3, "stack": 10})
>>> bots = [ViewBot(game, "heuristic", seed=s) for s in range(3)]
>>> returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))
>>> sum(returns)
0.0

A :class:`ViewBot` reads only the view of the seat it plays (:func:`primero.view`, R9b)
and answers with the action id of :mod:`primero.research.actionids` (in a game with
``actions="abstract"``, the abstract id whose amount is nearest to the bot's:
:func:`primero.research.abstraction.abstract_id_of`).
"""

from __future__ import annotations

from typing import Any

import pyspiel

from primero.bots import make_bot
from primero.engine.match import Agent
from primero.engine.views import view
from primero.research.abstraction import abstract_id_of
from primero.research.actionids import id_of
from primero.research.openspiel.game import PrimeroState

__all__ = ["ViewBot"]


class ViewBot(pyspiel.Bot):  # type: ignore[misc]
    """An OpenSpiel bot that plays one of :data:`primero.bots.BOT_KINDS`.

    Args:
        game: a ``python_primero`` game.
        kind: one of :data:`primero.bots.BOT_KINDS` (``"heuristic"``, ``"random"``, ...),
            or ``"cfr"`` (:class:`primero.research.cfrbot.CFRBot`, for
            ``python_primero(preset=mini)`` only).
        seed: the bot's own seed (R10); None draws a fresh one.

    Raises:
        ValueError: an unknown kind (the message lists the kinds), or a game that is not
            ``python_primero`` (or for ``"cfr"``, not its mini preset).
    """

    def __init__(self, game: Any, kind: str, seed: int | None = None) -> None:
        super().__init__()
        if game.get_type().short_name != "python_primero":
            raise ValueError(f"ViewBot plays python_primero, not {game.get_type().short_name}")
        if kind == "cfr":
            if game.preset != "mini":
                raise ValueError("the cfr bot plays python_primero(preset=mini) only")
            from primero.research.cfrbot import CFRBot

            self._agent: Agent = CFRBot(seed=seed)
        else:
            self._agent = make_bot(kind, seed)
        self._stack = int(game.stack)
        self._abstract = bool(game.abstract)
        self.kind = kind

    def step(self, state: PrimeroState) -> int:
        """The action id the bot chooses for the player to move, from that seat's view.

        Raises:
            ValueError: the state is a chance node or over.
        """
        seat = state.current_player()
        if seat < 0:
            raise ValueError("ViewBot.step needs a player's move, not a chance node or the end")
        seen = view(state.hand, seat)
        full = id_of(self._agent(seen), hand=seen.hand, max_stack=self._stack)
        if not self._abstract:
            return full
        assert seen.legal is not None
        return abstract_id_of(  # the bot's amount, to the nearest abstract one
            full,
            seen.legal,
            pot=seen.pot_total,
            current_bet=seen.current_bet or 0,
            max_stack=self._stack,
        )

    def restart_at(self, state: PrimeroState) -> None:
        """Nothing to reset: the bot reads each view afresh."""

    def inform_action(self, state: PrimeroState, player_id: int, action: int) -> None:
        """Other moves need no bookkeeping: they are in the next view."""
