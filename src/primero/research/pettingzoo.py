"""Primero as a PettingZoo AEC environment: one episode is one hand (R4).

>>> from primero.research.pettingzoo import env
>>> e = env(players=3, stack=20, ties="split")
>>> e.reset(seed=7)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)
>>> sum(e.rewards.values()) if e.rewards else 0   # chips only change hands
0

Agents are ``"p1"`` … ``"pN"`` in seat order (p1 acts first, pN deals). Each agent's
observation is a dict: ``"observation"``, the float32 vector of
:func:`primero.research.features.observation_vector` built from :func:`primero.view` (R9b), and
``"action_mask"``, an int8 vector over the action ids of :mod:`primero.research.actionids` with 1
for each action legal now (all 0 when it is not that agent's move). The dealer is part of
the environment: cards come from a :class:`~primero.engine.dealing.Dealer` seeded by
``reset(seed=...)``
(R10: the same seed and actions give the same hand). Rewards are chips won or lost in
the hand (final minus starting stack), given when it ends. Void deals (R4.3) can repeat
without end: at the ``max_void_deals``-th void deal (default 20, as in OpenSpiel) every
agent is **truncated** (not terminated) with reward 0 (the hand is abandoned: no chips
change hands, the antes go back); ``max_cycles`` moves of any one agent truncate it too.
``preset="mini"`` plays Mini-Primero (:mod:`primero.research.mini`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from functools import partial
from typing import Any, ClassVar, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from primero.engine.cards import Card
from primero.engine.dealing import Dealer
from primero.engine.rules import Rules
from primero.engine.state import DEALER, HandState
from primero.engine.views import view
from primero.research.abstraction import NUM_ABSTRACT, env_action, env_legal_ids
from primero.research.actionids import action_of, mask_of, num_actions, starting_stacks
from primero.research.build import warn_if_pure
from primero.research.features import (
    infostate_size,
    infostate_vector,
    observation_size,
    observation_vector,
)
from primero.research.mini import advance, apply_preset
from primero.research.stepper import ILLEGAL, Stepper, replay

__all__ = ["env", "raw_env"]

ObsDict = dict[str, npt.NDArray[Any]]
#: The observation's and the mask's dtypes, given to ``np.frombuffer`` as objects (by
#: position: twice as fast as ``dtype=np.float32``).
_FLOAT32: Final = np.dtype(np.float32)
_INT8: Final = np.dtype(np.int8)


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard checks: actions out of range or not legal
    and calls out of order (``step``, ``observe`` or ``last`` before ``reset``) raise
    errors. Takes the arguments of :class:`raw_env`.

    :class:`raw_env` makes these checks itself, so no wrapper is put around it: the
    order-enforcing and out-of-bounds wrappers forward every attribute through
    ``__getattr__``, which cost a third of each move.
    """
    return raw_env(**kwargs)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo names it so
    """One hand of Primero between ``players`` learning agents.

    Args:
        players: seats, 2..8 (R3).
        stack: starting chips of every seat (>= 1); bet and raise ids cover 0..stack.
        stacks: or each seat's starting chips, p1 first (as in a match, R9); the ids
            then cover 0..max(stacks).
        max_cycles: moves of one agent after which the hand is truncated (>= 1).
        max_void_deals: void deals (R4.3) after which the hand is truncated, every reward
            0 (>= 1; default 20, as OpenSpiel's ``python_primero``).
        actions: ``"full"`` (the ids of :mod:`primero.research.actionids`) or
            ``"abstract"`` (bets and raises as fractions of the pot,
            :mod:`primero.research.abstraction`: 32 ids whatever the stacks).
        preset: ``""`` (the game given by the other arguments) or ``"mini"``
            (Mini-Primero, :mod:`primero.research.mini`: 2 players, stack 2, the 8-card
            deck; ``players``, ``stack``, ``stacks``, ``max_void_deals`` and the house
            rules are then fixed).
        history: observe :func:`primero.research.features.infostate_vector` (the moment,
            the whole record so far and the outcome: perfect recall, sized by
            ``max_void_deals``) instead of
            :func:`~primero.research.features.observation_vector`.
        render_mode: None, ``"ansi"`` (``render()`` returns the hand as text) or
            ``"human"`` (prints it after each move).
        **rules: house rules, by the names of :class:`primero.Rules`'s fields (every rule
            of :data:`primero.engine.rules.RULES` but ``min_players`` and ``max_players``).

    Raises:
        ValueError: ``players`` outside 2..8, ``stack``, ``max_cycles`` or
            ``max_void_deals`` < 1, ``stacks`` not one whole number >= 1 per seat, an
            unknown render mode or preset.
        RulesError: an unknown house rule or a wrong value (a ``ValueError``).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "primero_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        stack: int = 100,
        stacks: Sequence[int] | None = None,
        max_cycles: int = 500,
        render_mode: str | None = None,
        history: bool = False,
        max_void_deals: int = 20,
        preset: str = "",
        actions: str = "full",
        **rules: Any,
    ) -> None:
        super().__init__()
        players, stack, stacks, max_void_deals, rules = apply_preset(
            preset, players, stack, stacks, max_void_deals, rules, defaults=(4, 100, 20)
        )
        self.preset = preset
        if type(players) is not int or not 2 <= players <= 8:
            raise ValueError(f"players must be a whole number from 2 to 8, not {players!r}")
        self.stacks = starting_stacks(players, stack, stacks)
        stack = max(self.stacks)
        if type(max_void_deals) is not int or max_void_deals < 1:
            raise ValueError(f"max_void_deals must be a whole number >= 1, not {max_void_deals!r}")
        if type(max_cycles) is not int or max_cycles < 1:
            raise ValueError(f"max_cycles must be a whole number >= 1, not {max_cycles!r}")
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.rules = Rules.from_mapping({"min_players": 2, "max_players": 8, **rules})
        self.stack = stack
        self.max_cycles = max_cycles
        self.max_void_deals = max_void_deals
        self.render_mode = render_mode
        self.history = bool(history)
        self._encode = (
            partial(infostate_vector, max_void_deals=max_void_deals)
            if history
            else observation_vector
        )
        size = infostate_size(players, max_void_deals) if history else observation_size(players)
        self.possible_agents = [f"p{i + 1}" for i in range(players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        if actions not in ("full", "abstract"):
            raise ValueError(f"actions must be 'full' or 'abstract', not {actions!r}")
        self.abstract = actions == "abstract"
        n_actions = NUM_ABSTRACT if self.abstract else num_actions(stack)
        self._n_actions = n_actions
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (n_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(n_actions) for a in self.possible_agents}
        self._rng = random.Random()
        self._hand: HandState | None = None
        self._moves: dict[str, int] = {}
        #: the flat hand's moves per seat (``max_cycles``) and the dealer's random source
        self._seat_moves: list[int] = []
        self._rand = self._rng.random
        self._skip_agent_selection: str | None = None
        self._legal_cache: tuple[int, list[int]] = (-1, [])
        self._mask_bytes = bytearray(n_actions)
        self._mask = np.zeros(n_actions, dtype=np.int8)
        self._mini = preset == "mini"
        #: the full game with the full ids runs on a flat stepper (compiled in a wheel);
        #: the engine's hand is replayed from its moves when asked for (``hand``)
        self._flat = not self._mini and not self.abstract
        self._fast: Stepper | None = None
        #: the engine's hand replayed from the stepper's moves (checked), when asked for
        self._replayed: HandState | None = None
        self._pending: list[Card] = []
        self._synced = 0  # the stepper's moves replayed into it
        self._started = False
        self._live = False

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """The agent to act before each ``step``, while any agent is left, at most
        ``max_iter`` times (PettingZoo's ``AECEnv.agent_iter``, with a generator in place
        of its iterator class: a third of the cost of each turn of the loop)."""
        return _AgentIter(self, max_iter)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(22 + 2 * stack)``: the ids of :mod:`primero.research.actionids`
        (``Discrete(32)`` with ``actions="abstract"``)."""
        return self.action_spaces[agent]

    @property
    def hand(self) -> HandState:
        """The engine's hand (hidden state, for analysis: agents read observations).

        Raises:
            RuntimeError: before the first ``reset``.
        """
        fast = self._fast
        if fast is not None:
            hand = self._replayed
            if hand is None:
                hand = self._replayed = HandState(
                    self.possible_agents, list(self.stacks), self.rules
                )
                self._synced = 0
            replay(hand, fast.log[self._synced :], self._pending, self.stack)
            self._synced = len(fast.log)
            return hand
        if self._hand is None:
            raise RuntimeError("call reset() first")
        return self._hand

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new hand: antes in, the first deal dealt, p1 to act.

        Args:
            seed: seeds the dealer (R10); None carries on with the current generator.
            options: ignored.
        """
        if seed is not None:
            self._rng = random.Random(seed)
        self._started = True
        self._live = True  # no agent terminated or truncated (the flat hand's steps)
        if self._flat:
            self._fast = fast = Stepper(self.stacks, self.rules, self.stack)
            self._replayed = None
            self._pending = []
            self._synced = 0
            self._rand = rand = self._rng.random
            self._seat_moves = [0] * len(self.stacks)
            fast.deal_due(rand)  # as the engine's Dealer deals (R10)
        else:
            self._dealer = Dealer(self._rng)
            self._hand = HandState(self.possible_agents, list(self.stacks), self.rules)
            advance(self._hand, self._dealer, mini=self._mini)
        self._legal_cache = (-1, [])
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._moves = dict.fromkeys(self.agents, 0)
        self.agent_selection = self._agent_to_act()

    @property
    def num_seats(self) -> int:
        """Seats at the table (``players``)."""
        return len(self.possible_agents)

    def _agent_to_act(self) -> str:
        fast = self._fast
        seat = fast.player if fast is not None else self.hand.to_act
        assert seat is not None and seat != DEALER
        return self.possible_agents[seat]

    def _legal(self) -> list[int]:
        """The legal ids of the seat to act (kept until the hand changes)."""
        fast = self._fast
        if fast is not None:
            key = len(fast.log)
            if self._legal_cache[0] != key:
                self._cache_legal(key, fast.legal_ids())
            return self._legal_cache[1]
        hand = self.hand
        key = len(hand.actions)
        if self._legal_cache[0] != key:
            seat = hand.to_act
            self._cache_legal(
                key,
                []
                if seat is None or seat < 0
                else env_legal_ids(
                    hand.legal_actions(),
                    hand_size=len(hand.hands[seat]),
                    max_stack=self.stack,
                    abstract=self.abstract,
                ),
            )
        return self._legal_cache[1]

    def _cache_legal(self, key: int, ids: list[int]) -> None:
        """Keep the legal ids of the move ``key`` (moves so far) and their mask."""
        self._legal_cache = (key, ids)
        self._mask_bytes = mask_of(ids, self._n_actions)
        self._mask = np.frombuffer(self._mask_bytes, dtype=np.int8)

    def last(
        self, observe: bool = True
    ) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        """The agent to act's observation, reward, terminated, truncated and info (AEC).

        Raises:
            RuntimeError: before the first ``reset``.
        """
        fast = self._fast
        if fast is not None and observe and not self.history:
            # observe(agent) of the flat hand, in one compiled call (one frame less)
            agent = self.agent_selection
            vector, mask = fast.observe(self._index[agent], self._n_actions)
            return (
                {
                    "observation": np.frombuffer(vector, _FLOAT32),
                    "action_mask": np.frombuffer(mask, _INT8),
                },
                self._cumulative_rewards[agent],
                self.terminations[agent],
                self.truncations[agent],
                self.infos[agent],
            )
        if not self._started:
            raise RuntimeError("call reset() before last()")
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> ObsDict:
        """``agent``'s observation: ``{"observation": vector, "action_mask": mask}`` (new
        arrays at each call).

        Raises:
            RuntimeError: before the first ``reset``.
        """
        seat = self._index[agent]
        fast = self._fast
        if fast is not None:
            if fast.player == seat:
                mask = np.frombuffer(fast.mask(self._n_actions), _INT8)
            else:
                mask = np.zeros(self._n_actions, dtype=np.int8)
            if self.history:
                vector = self._encode(view(self.hand, seat), max_stack=self.stack)
            else:  # the entries of observation_vector(view(hand, seat)), from the flat hand
                vector = np.frombuffer(fast.observation(seat), _FLOAT32)
            return {"observation": vector, "action_mask": mask}
        hand = self.hand
        v = view(hand, seat)
        if v.legal is not None:
            key = len(hand.actions)
            if self._legal_cache[0] != key:  # the view's legal actions: computed once
                self._cache_legal(
                    key,
                    env_legal_ids(
                        v.legal, hand_size=len(v.hand), max_stack=self.stack, abstract=self.abstract
                    ),
                )
            mask = self._mask.copy()
        else:
            mask = np.zeros(self._n_actions, dtype=np.int8)
        return {"observation": self._encode(v, max_stack=self.stack), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the action id of the agent to act; deal any cards then due.

        Args:
            action: an id whose ``action_mask`` entry is 1, or None for an agent whose
                episode has ended.

        Raises:
            ValueError: an action that is not legal now (the message lists the legal ids
                and what they mean); nothing changes.
        """
        fast = self._fast
        if fast is not None:
            if self._live:  # the flat hand, nobody done yet
                seat = (
                    ILLEGAL
                    if action is None
                    else fast.play_counted(
                        int(action),
                        self._rand,
                        self._seat_moves,
                        self.max_cycles,
                        self.max_void_deals,
                    )
                )
                if seat >= 0:  # the hand goes on: every reward still 0 (nothing to add)
                    self.agent_selection = self.possible_agents[seat]
                    if self.render_mode == "human":
                        print(self.render())
                    return
                if seat == ILLEGAL:
                    raise ValueError(
                        f"action {action!r} is not legal for {self.agent_selection} now: "
                        f"legal ids are {fast.legal_ids()} "
                        f"({self.hand.legal_actions().describe()})"
                    )
                self._end_flat()
                return
            self._flat_dead_step(action)
            return
        if not self._started:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        hand = self.hand
        seat = self._index[agent]
        legal = self._legal()  # and its mask: a look-up, not a scan of the ids
        if (
            action is None
            or not 0 <= int(action) < self._n_actions
            or not (self._mask_bytes[int(action)])
        ):
            raise ValueError(
                f"action {action!r} is not legal for {agent} now: legal ids are {legal} "
                f"({hand.legal_actions().describe()})"
            )
        hand.apply_unchecked(  # an id of the engine's own legal actions
            env_action(
                int(action),
                hand.legal_actions(),
                seat=seat,
                hand=hand.hands[seat],
                pot=hand.pot_total(),
                current_bet=hand.current_bet or 0,
                max_stack=self.stack,
                abstract=True,
            )
            if self.abstract
            else action_of(int(action), seat=seat, hand=hand.hands[seat], max_stack=self.stack)
        )
        advance(hand, self._dealer, mini=self._mini)
        self._moves[agent] += 1
        self._cumulative_rewards[agent] = 0
        if hand.result is not None:
            self.rewards = {a: hand.result.net[self._index[a]] for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._moves[agent] >= self.max_cycles or hand.void_deals >= self.max_void_deals:
            self.rewards = dict.fromkeys(self.agents, 0)
            self.truncations = dict.fromkeys(self.agents, True)
        else:  # the hand goes on: every reward 0, nobody done (nothing to accumulate)
            if any(self.rewards.values()):
                self.rewards = dict.fromkeys(self.agents, 0)
            self.agent_selection = self._agent_to_act()
            if self.render_mode == "human":
                print(self.render())
            return
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            print(self.render())

    def _end_flat(self) -> None:
        """The flat hand is over (its rewards) or truncated (every reward 0)."""
        fast = self._fast
        assert fast is not None
        self._live = False
        net = fast.net
        if net is not None:
            self.rewards = {a: net[self._index[a]] for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0)
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            print(self.render())

    def _flat_dead_step(self, action: int | None) -> None:
        """``step`` of an agent done with the flat hand: PettingZoo's ``_was_dead_step``
        for the flat hand, where every agent ends at once (terminated, or truncated),
        without its scans of every agent: the agent leaves ``agents`` and the dicts, the
        next one (the first left) is selected, and after the last the agent selected
        when the hand ended; the rewards left are cleared.

        Raises:
            ValueError: ``action`` is not None (the only action of an agent done).
        """
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self._cumulative_rewards[agent]
        del self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        if agents:
            self.agent_selection = agents[0]
        else:
            skipped = self._skip_agent_selection
            if skipped is not None:
                self.agent_selection = skipped
            self._skip_agent_selection = None
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0

    def render(self) -> str | None:
        """The last moves and the chips as a spectator sees them (no hidden card, R9b);
        None when ``render_mode`` is None."""
        if self.render_mode is None or not self._started:
            return None
        spectator = view(self.hand, None)
        lines = list(spectator.public_log[-12:])
        lines.append(
            "stacks " + " ".join(map(str, spectator.stacks)) + f" | pot {spectator.pot_total}"
        )
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


class _AgentIter:
    """What :meth:`raw_env.agent_iter` returns: iterable any number of times, as
    PettingZoo's ``AECIterable``, each time from ``max_iter`` again."""

    def __init__(self, env: raw_env, max_iter: int) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        env = self.env
        left = self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


warn_if_pure()  # once a process: the pure-Python build is 2 to 3 times slower
