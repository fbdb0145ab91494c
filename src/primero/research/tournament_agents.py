"""Agents of a tournament: the built-in bot kinds, and any agent named by import path.

A tournament's entrant is a name. A name in :data:`primero.bots.BOT_KINDS` is a built-in
kind; a name with a colon, ``"package.module:Name"``, is imported:

* a **class** is instantiated once per hand (fresh state every hand), with the keywords
  its ``__init__`` accepts among ``seed`` (its own seed, R10) and ``game`` (the
  ``python_primero`` OpenSpiel game of the table: players, stack and rules);
* any other **callable** is used as it is;
* the result (the instance, or the callable) is either a ``pyspiel.Bot`` (it has
  ``step``) or an agent: a callable of a seat view returning an action.

An external agent gets its seat's view only (:func:`primero.engine.views.view`, R9b), as
every built-in bot does. A ``pyspiel.Bot`` gets, at each of its decisions, an OpenSpiel
state **drawn anew behind its information**
(:meth:`primero.research.openspiel.PrimeroState.resample_from_infostate`, seeded): the
same information state and legal actions as the real hand, every card it cannot see
drawn at random, so it sees no hidden card either. Its action id is mapped back with
:func:`primero.research.actionids.action_of`.

>>> is_import_path("heuristic"), is_import_path("my_pkg.agents:Strong")
(False, True)
"""

from __future__ import annotations

import importlib
import inspect
import random
from collections.abc import Callable
from typing import Any, Final

from primero.bots import BOT_KINDS, make_bot
from primero.engine.actions import Action, Deal
from primero.engine.match import Agent
from primero.engine.rules import Rules
from primero.engine.state import HandState
from primero.engine.views import SeatView

__all__ = [
    "CFR",
    "AgentError",
    "CheckedAgent",
    "SpielAgent",
    "check_entrant",
    "is_import_path",
    "load",
    "make_agent",
]

#: The ``cfr`` entrant: :class:`primero.research.cfrbot.CFRBot`, which plays only
#: Mini-Primero, so it is a tournament entrant of the mini preset only (not one of
#: :data:`primero.bots.BOT_KINDS`, whose bots play the full game).
CFR: Final = "cfr"


class AgentError(Exception):
    """An agent loaded by import path misbehaved in a hand: it raised, or returned
    something that is not a legal move. The message is one sentence naming the agent,
    the hand and what was wrong. It holds only its message, so it crosses process pools
    (pickled) unchanged."""

    def __init__(self, message: str) -> None:
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.args[0])


class CheckedAgent:
    """An agent by import path, checked at each decision (see :class:`AgentError`).

    Args:
        name: the agent's import path (for the message).
        agent: the agent itself.
        where: the hand, in words (``"hand 3 (seat p2)"``).

    Its ``__call__`` raises :class:`AgentError` when the agent raises or returns no
    :class:`~primero.engine.actions.Action`; it keeps the move returned last
    (``last``) so that the caller can name it when the rules refuse it (R4-R8).
    """

    def __init__(self, name: str, agent: Agent, where: str) -> None:
        self.name = name
        self.agent = agent
        self.where = where
        self.last: Action | None = None
        if hasattr(agent, "observe"):
            self.observe = agent.observe

    def fail(self, what: str) -> AgentError:
        """The error of this agent in this hand: ``what`` it did wrong."""
        return AgentError(f"agent {self.name} {what} in {self.where}")

    def __call__(self, view: SeatView) -> Action:
        try:
            action = self.agent(view)
        except Exception as exc:  # an agent's own bug: name it, not a traceback
            raise self.fail(f"raised {type(exc).__name__}: {exc}") from None
        if not isinstance(action, Action):
            raise self.fail(f"returned {action!r}, not a move (an Action)")
        self.last = action
        return action


def is_import_path(name: str) -> bool:
    """Whether ``name`` names an agent by import path (``module:attribute``)."""
    return ":" in name


def load(path: str) -> Any:
    """The object named ``module:attribute`` (dots in the attribute walk into it).

    Raises:
        ValueError: the module or the attribute cannot be found; the message says which.
    """
    module_name, _, attribute = path.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"an agent path is 'module:Name', not {path!r}")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"cannot import {module_name!r} for agent {path!r}: {exc}") from None
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"{module_name!r} has no {attribute!r} (agent {path!r})") from None
    if not callable(obj):
        raise ValueError(f"agent {path!r} is not callable (a class, or a function of a view)")
    return obj


def check_entrant(name: str) -> None:
    """Check a tournament entrant: a bot kind, or an import path that loads.

    Raises:
        ValueError: neither; the message lists the kinds.
    """
    if is_import_path(name):
        load(name)
    elif name not in BOT_KINDS:
        raise ValueError(
            f"unknown bot kind {name!r}: one of {', '.join(BOT_KINDS)}, or module:Name"
        )


def _game(players: int, stack: int, rules: Rules) -> Any:
    """The ``python_primero`` game of a table (OpenSpiel; the extra ``research``)."""
    import pyspiel

    import primero.research.openspiel  # noqa: F401  (registers python_primero)
    from primero.research.openspiel.game import rule_params

    params: dict[str, Any] = {
        "players": players,
        "stack": stack,
        **rule_params(rules),
        "max_void_deals": 1000,
    }
    return pyspiel.load_game("python_primero", params)


class SpielAgent:
    """A ``pyspiel.Bot`` at a tournament table (see the module docstring).

    It mirrors the hand in an OpenSpiel state (:meth:`observe`, called after every
    action), and at its turn hands the bot a state resampled behind its seat's
    information, never the mirror itself.

    Args:
        bot: the ``pyspiel.Bot`` (``step(state) -> action id``).
        game: the ``python_primero`` game of the table.
        seed: seed of the resampling (R10).
    """

    def __init__(self, bot: Any, game: Any, seed: int) -> None:
        self.bot = bot
        self.game = game
        self.rng = random.Random(seed)
        self.mirror = game.new_initial_state()
        self.max_stack = game.num_distinct_actions() // 2 - 11  # 22 + 2 S ids

    def observe(self, state: HandState, action: Action) -> None:
        """Apply ``action`` (just applied to ``state``) to the mirror."""
        from primero.research.actionids import id_of

        if isinstance(action, Deal):
            for card in action.cards:
                self.mirror.apply_action(card.id)
            return
        hand = self.mirror.hand.hands[action.seat]
        self.mirror.apply_action(id_of(action, hand=hand, max_stack=self.max_stack))

    def __call__(self, view: SeatView) -> Action:
        """The bot's action for its seat.

        Raises:
            ValueError: the view is not this seat's move, or the bot answered an id
                that is not legal now.
        """
        from primero.research.actionids import action_of

        seat = view.seat
        if seat is None or view.legal is None:
            raise ValueError("a pyspiel bot was asked to act outside its turn")
        seen = self.mirror.resample_from_infostate(seat, self.rng.random)
        action_id = int(self.bot.step(seen))
        if action_id not in seen.legal_actions(seat):
            raise ValueError(f"the pyspiel bot chose id {action_id}, not legal now")
        return action_of(action_id, seat=seat, hand=view.hand, max_stack=self.max_stack)


def _instantiate(factory: Any, seed: int, game: Callable[[], Any]) -> Any:
    """Call a class with the keywords it accepts among ``seed`` and ``game``."""
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        params = {}  # type: ignore[assignment]
    kwargs: dict[str, Any] = {}
    if "seed" in params:
        kwargs["seed"] = seed
    if "game" in params:
        kwargs["game"] = game()
    return factory(**kwargs)


def make_agent(
    name: str,
    seed: int,
    *,
    players: int,
    stack: int,
    rules: Rules,
    search_samples: int | None = None,
    preset: str = "",
) -> Agent:
    """A new agent for one hand of a table.

    Args:
        name: a bot kind or an import path (see the module docstring).
        seed: the agent's seed (R10).
        players, stack, rules: the table (for a pyspiel bot's game).
        search_samples: samples per decision of search bots.
        preset: the table's preset (``"mini"``: the ``cfr`` bot may play; a
            ``pyspiel.Bot`` may not).

    Returns:
        An agent; a :class:`SpielAgent` for a ``pyspiel.Bot`` (call its ``observe``
        after every action of the hand).

    Raises:
        ValueError: an unknown kind or a path that does not load.
    """
    if name == CFR and preset == "mini":
        from primero.research.cfrbot import CFRBot

        return CFRBot(seed=seed)
    if not is_import_path(name):
        return make_bot(name, seed, search_samples=search_samples)
    factory = load(name)
    games: list[Any] = []

    def game() -> Any:
        if not games:
            games.append(_game(players, stack, rules))
        return games[0]

    agent = _instantiate(factory, seed, game) if inspect.isclass(factory) else factory
    if hasattr(agent, "step"):  # a pyspiel.Bot (Python bots may lack restart_at)
        if preset:
            raise ValueError(
                f"agent {name!r} is a pyspiel.Bot: with a preset, give a callable of a "
                "seat view instead"
            )
        return SpielAgent(agent, game(), seed)
    if not callable(agent):
        raise ValueError(f"agent {name!r} gave {agent!r}: neither a pyspiel.Bot nor callable")
    made: Agent = agent
    return made
