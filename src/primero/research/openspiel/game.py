"""The ``python_primero`` game and state: one hand of Primero for OpenSpiel (see
:mod:`primero.research.openspiel`)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import partial
from typing import Any, Final

import pyspiel

from primero.engine.cards import DECK
from primero.engine.rules import RULES, Rules
from primero.engine.state import HandState
from primero.research.abstraction import (
    ABSTRACT_BET0,
    NUM_ABSTRACT,
    concrete_id,
    describe_abstract,
)
from primero.research.actionids import describe, num_actions
from primero.research.mini import MINI_PARAMS, PRESETS, restrict_stock
from primero.research.openspiel.observer import PrimeroObserver
from primero.research.openspiel.resample import resample
from primero.research.openspiel.table import CHANCE, TERMINAL, _Table
from primero.research.stepper import COMPILED, Stepper

__all__ = [
    "DEFAULT_PARAMS",
    "HiddenInformationWarning",
    "PrimeroGame",
    "PrimeroState",
    "game_type",
    "rule_params",
    "rules_of",
]

#: The house rules a game takes as parameters: every rule of :data:`primero.engine.rules.RULES`
#: but a match's number of players (a game is one hand of ``players``).
_RULE_PARAMS: Final = tuple(
    spec for spec in RULES if spec.name not in ("min_players", "max_players")
)


def _param(value: Any) -> Any:
    """A rule's value as an OpenSpiel parameter (which has no None: -1 means no cap)."""
    return -1 if value is None else value


#: Every parameter of ``python_primero`` with its default: the house rules are those of
#: :class:`primero.Rules` (a rule that may be None, ``max_raises``, is -1 for None).
DEFAULT_PARAMS: Final[dict[str, Any]] = {
    "players": 4,
    "stack": 100,
    "stacks": "",
    **{spec.name: _param(spec.default) for spec in _RULE_PARAMS},
    "max_void_deals": 20,
    "preset": "",
    "actions": "full",
}


def rule_params(rules: Rules) -> dict[str, Any]:
    """The game parameters that name these house rules (:data:`DEFAULT_PARAMS`' rules).

    >>> rule_params(Rules(max_raises=2))["max_raises"], rule_params(Rules())["max_raises"]
    (2, -1)
    """
    return {spec.name: _param(getattr(rules, spec.name)) for spec in _RULE_PARAMS}


_SHORT_NAME: Final = "python_primero"


class HiddenInformationWarning(UserWarning):
    """A copy of a hand in progress was played on as if its hidden cards were known: the
    mark of a perfect-information algorithm (such as OpenSpiel's ``MCTSBot``) run on
    ``python_primero`` (R9b). See :meth:`PrimeroState.chance_outcomes`."""


#: The warning's words (shown once a process).
PEEK_MESSAGE: Final = (
    "python_primero is a game of hidden cards (R9b), but a copy of a hand in progress "
    "(state.clone(), state.child(), a deserialized state) was asked for its chance "
    "outcomes or returns: those come from the real hand, every seat's cards and the stock "
    "included. A perfect-information algorithm (OpenSpiel's MCTSBot, minimax, "
    "expectiminimax, AlphaZero's search) does this, and so plays as if it saw every card. "
    "Search from states drawn behind the player's information instead "
    "(state.resample_from_infostate, ISMCTSBot), or use an information-state algorithm. "
    "Shown once a process; silence it with warnings.filterwarnings('ignore', "
    "category=primero.research.openspiel.HiddenInformationWarning)."
)

_warned = False


def _warn_peek() -> None:
    """Warn once a process that hidden cards were read through a copy (PEEK_MESSAGE)."""
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(PEEK_MESSAGE, HiddenInformationWarning, stacklevel=4)


def game_type() -> pyspiel.GameType:
    """The OpenSpiel game type of ``python_primero`` (2 to 8 players, every parameter)."""
    return pyspiel.GameType(
        short_name=_SHORT_NAME,
        long_name="Primero (Renaissance draw game, ancestor of poker)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=8,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMS,
    )


def rules_of(params: dict[str, Any]) -> Rules:
    """The house rules named by a parameter dict (missing keys take the defaults).

    Raises:
        RulesError: a rule of the wrong type or out of range (:class:`primero.Rules`).
    """
    p = {**DEFAULT_PARAMS, **params}
    values = {spec.name: p[spec.name] for spec in _RULE_PARAMS}
    for spec in _RULE_PARAMS:
        if spec.optional and values[spec.name] == -1:
            values[spec.name] = None
    return Rules(**values, min_players=2, max_players=8)


def _max_game_length(n: int, stack: int, void_deals: int) -> int:
    """An upper bound on the moves of a hand (chance draws included).

    A turn holds at most ``stack`` refused bets or raises (R8: each refusal caps the
    next attempt strictly lower), each with up to n-1 votes: ``r = stack * n`` moves. A
    deal cycle that ends void: 2n cards, n turns (exchange and refusals) and 2n
    replacements. A played hand: 8n cards, n first-round turns, n second exchanges, n
    declarations, and three betting rounds of at most ``stack + 1`` standing bets and
    raises (each adds a chip to the round's bet), each with n-1 votes and then n-1 turns
    of refusals and a call, fold or the next raise.
    """
    r = stack * n
    cycle = 4 * n + n * (r + 1)
    rounds = 3 * (stack + 1) * (n + (n - 1) * (r + 1))
    return void_deals * cycle + 8 * n + n * (r + 1) + 2 * n + rounds


def _parse_stacks(text: object, players: int) -> tuple[int, ...]:
    """The ``stacks`` parameter: ``""`` (every seat has ``stack``) or one whole number of
    chips >= 1 per seat, separated by spaces (``"100 40 25"``).

    Raises:
        ValueError: not a string of ``players`` whole numbers >= 1.
    """
    words = str(text).split()
    if not words:
        return ()
    if len(words) != players or not all(w.isdigit() and int(w) >= 1 for w in words):
        raise ValueError(
            f"stacks must be {players} whole numbers of chips >= 1 separated by spaces "
            f"(one per seat, p1 first), not {text!r}"
        )
    return tuple(int(w) for w in words)


class PrimeroGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_primero``: one hand of Primero (parameters above).

    Args:
        params: parameter name to value; missing keys take :data:`DEFAULT_PARAMS`.

    Raises:
        ValueError: an unknown parameter, ``players`` outside 2..8, ``stack`` < 1,
            ``stacks`` that are not ``players`` whole numbers >= 1, ``max_void_deals``
            < 1, an unknown ``preset``, or other parameters beside ``preset="mini"``;
            the message names the allowed values.
        RulesError: a house rule of the wrong type or value (a ``ValueError``).

    Attributes:
        players: the number of seats; stacks: each seat's starting chips; stack: the
            largest of them (the bet and raise ids cover 0..stack); rules: the house rules.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        unknown = sorted(set(given) - set(DEFAULT_PARAMS))
        if unknown:
            raise ValueError(
                f"unknown python_primero parameter(s) {', '.join(unknown)}: the parameters "
                f"are {', '.join(DEFAULT_PARAMS)}"
            )
        actions = given.get("actions", "full")
        if actions not in ("full", "abstract"):
            raise ValueError(f"actions must be 'full' or 'abstract', not {actions!r}")
        preset = given.get("preset", "")
        if preset not in PRESETS:
            raise ValueError(f"preset must be '' (the full game) or 'mini', not {preset!r}")
        if preset == "mini":
            others = sorted(
                k
                for k, v in given.items()
                if k not in ("preset", "actions")
                and v != DEFAULT_PARAMS[k]
                and v != MINI_PARAMS.get(k)
            )
            if others:  # OpenSpiel passes every parameter: the defaults are let through
                raise ValueError(
                    f"the mini preset fixes every parameter: leave out {', '.join(others)}"
                )
            given = {**MINI_PARAMS, "preset": "mini", "actions": actions}
        p = {**DEFAULT_PARAMS, **given}
        players, stack, void = p["players"], p["stack"], p["max_void_deals"]
        if type(players) is not int or not 2 <= players <= 8:
            raise ValueError(f"players must be a whole number from 2 to 8, not {players!r}")
        if type(stack) is not int or stack < 1:
            raise ValueError(f"stack must be a whole number of chips >= 1, not {stack!r}")
        if type(void) is not int or void < 1:
            raise ValueError(f"max_void_deals must be a whole number >= 1, not {void!r}")
        stacks = _parse_stacks(p["stacks"], players) or (stack,) * players
        stack = max(stacks)
        self.rules: Rules = rules_of(p)
        self.players: int = players
        self.stacks: tuple[int, ...] = stacks
        self.stack: int = stack
        self.max_void_deals: int = void
        self.preset: str = preset
        self.abstract: bool = actions == "abstract"
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ABSTRACT if self.abstract else num_actions(stack),
            max_chance_outcomes=len(DECK),
            num_players=players,
            min_utility=float(-stack),
            max_utility=float(sum(stacks) - min(stacks)),
            utility_sum=0.0,
            max_game_length=_max_game_length(players, stack, void),
        )
        super().__init__(game_type(), info, p)

    def new_initial_state(self) -> PrimeroState:
        """A new hand: the antes are in and the first card is due (a chance node)."""
        state = PrimeroState(self)
        if state._fast is None:  # a stepper's state answers from the stepper itself
            state._after_move()
        return state

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, Any] | None = None,
    ) -> PrimeroObserver:
        """The observer OpenSpiel uses for observations and information states: public
        information, the seat's own cards or both (``IIGObservationType``; see
        :class:`~primero.research.openspiel.observer.PrimeroObserver`).

        Raises:
            ValueError: observer parameters were given (none are supported), or the type
                asks for every seat's cards (``ALL_PLAYERS``) or for nothing.
        """
        return PrimeroObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
            players=self.players,
            stack=self.stack,
            max_void_deals=self.max_void_deals,
        )


if (int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)) != (CHANCE, TERMINAL):
    raise ImportError("python_primero: OpenSpiel's chance and terminal player ids changed")


class _Bound(partial[Any]):
    """A stepper's method bound on a state (``PrimeroState._bind``): a ``partial`` that
    copies as itself. OpenSpiel clones a Python state by deep-copying each attribute
    into a new state, whose ``__setattr__`` drops these copies and binds its own stepper
    (copying a plain ``partial`` rebuilt it from its reduction: four fifths of a clone)."""

    def __copy__(self) -> _Bound:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _Bound:
        return self


def _direct(method: Callable[..., Any]) -> Callable[..., Any]:
    """A stepper's method that only Python calls, bound on a state as it is when
    compiled (a C function: called with no frame in between, copied as itself), else in
    a :class:`_Bound` (a Python method would copy its whole stepper at each clone)."""
    return method if COMPILED else _Bound(method)


#: The methods of a state of the full game that are its stepper's own (``_bind``).
_BOUND: Final = frozenset(
    {
        "current_player",
        "is_terminal",
        "is_chance_node",
        "is_player_node",
        "legal_actions",
        "_legal_actions",
        "chance_outcomes",
        "_apply_action",
        "returns",
    }
)


class PrimeroState(pyspiel.State):  # type: ignore[misc]
    """A hand in progress; create it with ``game.new_initial_state()``.

    The full game with the full action ids (no ``preset``, ``actions="full"``) runs on a
    :class:`~primero.research.stepper.Stepper`, the flat steppable hand (compiled in a
    wheel): the player to move, the legal ids, the chance outcomes, a move, the end and
    the returns come from it. The engine's :class:`HandState` (through
    :class:`~primero.research.openspiel.table._Table`) is replayed from the stepper's
    moves only when something asks for it: observations and information states (through
    :mod:`primero.engine.views`), action strings, ``str(state)``, resampling. The mini
    preset and the abstract action ids run on the ``_Table`` itself.
    """

    _stack: int
    _abstract: bool
    _player: int
    _synced: int
    _fast: Stepper | None
    _tab: _Table | None

    def __init__(self, game: PrimeroGame) -> None:
        super().__init__(game)
        fast = None
        if game.preset != "mini" and not game.abstract:
            fast = Stepper(game.stacks, game.rules, game.stack, game.max_void_deals)
        self.__dict__.update(
            {  # at once: this class's __setattr__ is a Python call
                "_stack": game.stack,
                "_abstract": game.abstract,
                "_player": CHANCE,
                "_synced": 0,  # the stepper's moves replayed into _tab
                "_fast": fast,
                "_tab": None if fast is not None else self._new_table(),
                "_resampled": False,  # made by resample_from_infostate (set there)
            }
        )
        if fast is not None:
            self._bind(fast)

    def __setattr__(self, name: str, value: Any) -> None:
        """Set an attribute; setting ``_fast`` (here, and when OpenSpiel clones or
        unpickles a state: it sets each attribute of a copy) binds the stepper's methods
        (:data:`_BOUND`), and the copies of the old bindings are left out.

        A copy remembers in ``_copied_at`` how many moves its first original had made
        when copied (a copy of a copy keeps its original's count, in whichever order the
        two attributes come): a copy of a hand under way holds hidden cards
        (:meth:`chance_outcomes`)."""
        if name in _BOUND:
            return
        if name == "_copied_at":  # copying a copy: its original's count wins
            self.__dict__[name] = value
            return
        super().__setattr__(name, value)
        if name == "_fast":  # only a copy sets it this way (__init__ fills __dict__)
            if value is not None:
                self.__dict__.setdefault("_copied_at", len(value.log))
                self._bind(value, copy=True)
        elif name == "_tab" and value is not None and self.__dict__.get("_fast", 0) is None:
            self.__dict__.setdefault("_copied_at", len(value.hand.actions) + len(value.pending))

    def _bind(self, fast: Stepper, *, copy: bool = False) -> None:
        """Answer OpenSpiel's per-move calls with the stepper's compiled methods (bound on
        the instance, they come before the class's: no Python frame in between).

        The methods C++ calls back (``current_player``, ``_apply_action``...) are wrapped
        in :class:`_Bound` (a ``functools.partial``): pybind11 takes a compiled method (a
        C function) for its own C++ method, not an override, and would not call it.

        A copy (``copy``) answers ``chance_outcomes`` and ``returns`` with the class's
        methods until their first call, which checks for a perfect-information
        algorithm (:meth:`chance_outcomes`) and then binds the stepper's."""
        methods = {
            "is_chance_node": _direct(fast.is_chance_node),
            "is_player_node": _direct(fast.is_player_node),
            "legal_actions": _direct(fast.legal_actions),
            "current_player": _Bound(fast.current_player),
            "is_terminal": _Bound(fast.is_terminal),
            "_legal_actions": _Bound(fast.legal_actions_of),
            "_apply_action": _Bound(fast.step),
        }
        if copy:  # a copy is made by __init__ first: drop that stepper's bindings
            self.__dict__.pop("chance_outcomes", None)
            self.__dict__.pop("returns", None)
        else:
            methods["chance_outcomes"] = _Bound(fast.chance_outcomes)
            methods["returns"] = _Bound(fast.returns)
        self.__dict__.update(methods)

    def _check_copy(self) -> None:
        """On a copy: warn (once a process, :class:`HiddenInformationWarning`) when its
        first original had made moves (hidden cards were dealt) and it was not drawn by
        :meth:`resample_from_infostate`; then answer from the stepper directly."""
        state = self.__dict__
        if state.get("_copied_at", 0) and not state.get("_resampled", False):
            _warn_peek()
        fast = self._fast
        if fast is not None:
            state["chance_outcomes"] = _Bound(fast.chance_outcomes)
            state["returns"] = _Bound(fast.returns)

    def _new_table(self) -> _Table:
        game: PrimeroGame = self.get_game()
        names = [f"p{i + 1}" for i in range(game.players)]
        hand = HandState(names, list(game.stacks), game.rules)
        mini = game.preset == "mini"
        if mini:
            restrict_stock(hand)
        return _Table(hand, game.stack, game.max_void_deals, mini, game.abstract)

    @property
    def _table(self) -> _Table:
        """The engine's side of the state, brought up to the stepper's moves (built and
        replayed on the first use: the moves' own checks run again as it replays)."""
        table = self._tab
        fast = self._fast
        if fast is None:
            assert table is not None
            return table
        if table is None:
            table = self._tab = self._new_table()
            table.after_move()
        log = fast.log
        for move in log[self._synced :]:
            table.apply(move)
        self._synced = len(log)
        return table

    # -- the engine's hand, for analysis (hidden cards included: agents use views) --

    @property
    def hand(self) -> HandState:
        """The engine's :class:`~primero.engine.state.HandState` (hidden state: never an
        observation)."""
        return self._table.hand

    @property
    def truncated(self) -> bool:
        """Whether the hand was stopped at ``max_void_deals`` void deals (R4.3) rather than
        played out: a terminal state with every return 0 (OpenSpiel has no separate
        truncation; Gymnasium and PettingZoo report it as ``truncated``)."""
        if self._fast is not None:
            return self._fast.truncated
        return self._table.truncated

    def _after_move(self) -> None:
        """Bring the per-move state up to date after the hand changed."""
        fast = self._fast
        self._player = self._table.after_move() if fast is None else fast.player

    def current_player(self) -> int:
        """The player to move, ``pyspiel.PlayerId.CHANCE`` or ``TERMINAL``."""
        return self._player

    def is_terminal(self) -> bool:
        """Whether the hand is over (or stopped at ``max_void_deals`` void deals)."""
        return self._player == TERMINAL

    def is_chance_node(self) -> bool:
        """Whether a card is to be dealt (answered in Python: no round trip through C++)."""
        return self._player == CHANCE

    def is_player_node(self) -> bool:
        """Whether a seat is to act."""
        return self._player >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids of ``player`` (default: the one to move), ascending; at a
        chance node the card ids that may be dealt; empty for anyone else or at the end.

        The same answer as OpenSpiel's ``State.legal_actions``, given from the ids kept
        for this move instead of a round trip through C++ (a new list each call)."""
        current = self._player
        if player is not None and player != current:
            return []
        fast = self._fast
        if fast is not None:
            if current == CHANCE:
                return fast.pool_ids()
            return list(fast.legal_ids())
        if current == CHANCE:
            return [a for a, _ in self._table.chance_outcomes()]
        return list(self._table.legal_ids())

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._player or player < 0:
            return []
        return self._legal_ids()

    def _legal_ids(self) -> list[int]:
        fast = self._fast
        return self._table.legal_ids() if fast is None else fast.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card that may be dealt next, with its probability (uniform, R8b; in deck
        order within a deal line with the ``mini`` preset).

        **Hidden information.** The outcomes and :meth:`returns` of a state come from
        the real hand: the stock left, every seat's cards. A copy of a hand already
        under way (``state.clone()``, ``state.child()``, a deserialized state: a copy
        made after the first card) that is asked for either is being played on as if
        its hidden cards were known, which is what a perfect-information algorithm
        (``MCTSBot``, minimax...) does. The first time in a process, this warns with
        :class:`HiddenInformationWarning`. Copies of a state drawn by
        :meth:`resample_from_infostate` (ISMCTS) and copies made before the first card
        (CFR and other walks of the whole tree from ``new_initial_state()``) do not
        warn. Not seen: ``history()``, ``str(state)`` and ``state.hand``, which also
        hold every card (OpenSpiel's ``history()`` is C++'s, and the others are for
        analysis)."""
        if "_copied_at" in self.__dict__:
            self._check_copy()
        fast = self._fast
        return self._table.chance_outcomes() if fast is None else fast.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        fast = self._fast  # the checks, the move, the next player
        self._player = self._table.apply(action) if fast is None else fast.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {DECK[action]}"
        hand = self._table.hand
        cards = hand.hands[player] if 0 <= player < hand.n else []
        legal = hand.legal_actions()
        to_call = legal.call if legal.seat == player and legal.call is not None else 0
        if self._abstract and action >= ABSTRACT_BET0:
            text = describe_abstract(action)
            if legal.seat == player and action in self._legal_ids():
                full = concrete_id(
                    action,
                    legal,
                    pot=hand.pot_total(),
                    current_bet=hand.current_bet or 0,
                    max_stack=self._stack,
                )
                text += f" ({describe(full, hand=cards, max_stack=self._stack)})"
            return f"p{player + 1} {text}"
        return f"p{player + 1} " + describe(
            action, hand=cards, max_stack=self._stack, to_call=to_call
        )

    def returns(self) -> list[float]:
        """Chips won (+) or lost (-) by each player: final minus starting stack (0 until
        the end, and 0 for everyone when stopped at ``max_void_deals``). A copy of a
        hand under way warns as :meth:`chance_outcomes` says."""
        if "_copied_at" in self.__dict__:
            self._check_copy()
        fast = self._fast
        if fast is not None:
            return fast.returns()
        result = self._table.hand.result
        if result is None:
            return [0.0] * self._table.hand.n
        return [float(x) for x in result.net]

    def __str__(self) -> str:
        table = self._table
        lines = table.hand.lines()
        if table.pending:
            lines.append("dealing " + " ".join(str(c) for c in table.pending))
        if table.truncated:
            lines.append(f"stopped after {table.hand.void_deals} void deals")
        return "\n".join(lines)

    # -- determinization for ISMCTS ------------------------------------------------

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> PrimeroState:
        """A state ``player_id`` cannot tell from this one, with the hidden cards drawn anew.

        The hand is replayed move by move from a new deal: the player's own cards and
        moves and every public move stay; every card dealt to another seat is drawn
        uniformly from the cards that may be dealt then, except cards the player is dealt
        from the stock later in the same deal; each other seat's exchange discards
        uniformly chosen cards of its (resampled) hand, as many as it discarded; a seat
        that declared (R6) is dealt a second deal whose category is not above its
        declaration. Draws that reach a dead end (rare: R8b) start the replay again.

        Args:
            player_id: the 0-based seat whose information is kept.
            probability_sampler: a callable giving uniform floats in [0, 1) (OpenSpiel's
                ``UniformProbabilitySampler``).

        Returns:
            A new state with the same information-state string for ``player_id``.

        Raises:
            ValueError: ``player_id`` is not a seat of the game.
            RuntimeError: no consistent deal was found in 200 replays.
        """
        return resample(self, player_id, probability_sampler)
