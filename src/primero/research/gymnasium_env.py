"""Primero as a single-agent Gymnasium environment: one seat learns, bots hold the others.

>>> import gymnasium
>>> import primero.research.gymnasium_env
>>> e = gymnasium.make("primero/Primero-v0", players=4, stack=20, bots="random")
>>> obs, info = e.reset(seed=3)
>>> obs.shape, info["action_mask"].shape
((163,), (62,))

One episode is one hand (R4). The learning seat (``seat``, default p1) sees the float32
vector of :func:`primero.research.features.observation_vector`, built from its
:func:`primero.view` only (R9b); ``info["action_mask"]`` (and :meth:`PrimeroEnv.action_masks`,
as sb3-contrib's MaskablePPO expects) marks the legal ids of :mod:`primero.research.actionids`.
The other seats are bots (default: the heuristic bot) or any callables taking a
:class:`~primero.engine.views.SeatView` and returning an action (an external agent gets
its seat's view only, R9b); the dealer is the environment's, seeded by
``reset(seed=...)`` together with the bots (R10). The reward is the chips won or lost in
the hand, given at the end. At the ``max_void_deals``-th void deal (R4.3; default 20, as
OpenSpiel's) the episode is **truncated** (``truncated=True``, ``terminated=False``) with
reward 0: the hand is abandoned, no chips change hands. ``preset="mini"`` plays
Mini-Primero (:mod:`primero.research.mini`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt

from primero.bots import BOT_KINDS, make_bot
from primero.engine.dealing import Dealer
from primero.engine.match import Agent
from primero.engine.rules import Rules
from primero.engine.state import DEALER, HandState
from primero.engine.views import view
from primero.research.abstraction import (
    ABSTRACT_BET0,
    NUM_ABSTRACT,
    describe_abstract,
    env_action,
    env_legal_ids,
)
from primero.research.actionids import describe, num_actions, starting_stacks
from primero.research.build import warn_if_pure
from primero.research.features import (
    infostate_size,
    infostate_vector,
    observation_size,
    observation_vector,
)
from primero.research.mini import advance, apply_preset

__all__ = ["ENV_ID", "PrimeroEnv"]

#: The id to pass to ``gymnasium.make``.
ENV_ID = "primero/Primero-v0"

Obs = npt.NDArray[np.float32]


class PrimeroEnv(gymnasium.Env[Obs, np.int64]):
    """One hand of Primero from one seat, against bots.

    Args:
        players: seats, 2..8 (R3).
        stack: starting chips of every seat (>= 1).
        stacks: or each seat's starting chips, p1 first (as in a match, R9); the ids
            then cover 0..max(stacks).
        seat: the learning seat, 0-based (0 is p1, who acts first), or None for a seat
            drawn at each reset.
        bots: the other seats' players: a bot kind of :data:`primero.bots.BOT_KINDS`
            (``"heuristic"``, ``"random"``, ...) or a callable of a seat view returning an
            action (:data:`primero.engine.match.Agent`), or one of these per seat (the
            learning seat's entry is not used). A callable is shared by the seats it is
            given for and is not reseeded.
        illegal: what an action that is not legal now does: ``"lowest"`` plays the lowest
            legal id instead (fold when allowed) and sets ``info["illegal_action"]``;
            ``"raise"`` raises ValueError.
        max_steps: the learner's moves after which the hand is truncated.
        max_void_deals: void deals (R4.3) after which the hand is truncated with reward 0
            (>= 1; default 20).
        actions: ``"full"`` (the ids of :mod:`primero.research.actionids`) or
            ``"abstract"`` (bets and raises as fractions of the pot, 32 ids:
            :mod:`primero.research.abstraction`).
        preset: ``""`` or ``"mini"`` (Mini-Primero: 2 players, stack 2, 8 cards; the
            other game arguments are then fixed).
        render_mode: None or ``"ansi"`` (``render()`` returns the learner's view as text).
        history: observe :func:`primero.research.features.infostate_vector` (the moment,
            the whole record so far and the outcome: perfect recall, sized by
            ``max_void_deals``) instead of
            :func:`~primero.research.features.observation_vector`.
        **rules: house rules, as :class:`primero.Rules` takes them.

    Raises:
        ValueError: a value out of range, an unknown bot kind, a wrong number of bots, or
            game arguments beside ``preset="mini"``.
        RulesError: an unknown house rule or a wrong value (a ``ValueError``).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - gymnasium.Env declares it so

    def __init__(
        self,
        players: int = 4,
        stack: int = 100,
        stacks: Sequence[int] | None = None,
        seat: int | None = 0,
        bots: str | Agent | Sequence[str | Agent] = "heuristic",
        illegal: Literal["lowest", "raise"] = "lowest",
        max_steps: int = 500,
        render_mode: str | None = None,
        history: bool = False,
        max_void_deals: int = 20,
        preset: str = "",
        actions: str = "full",
        **rules: Any,
    ) -> None:
        players, stack, stacks, max_void_deals, rules = apply_preset(
            preset, players, stack, stacks, max_void_deals, rules, defaults=(4, 100, 20)
        )
        self.preset = preset
        self._mini = preset == "mini"
        if type(max_void_deals) is not int or max_void_deals < 1:
            raise ValueError(f"max_void_deals must be a whole number >= 1, not {max_void_deals!r}")
        self.max_void_deals = max_void_deals
        if type(players) is not int or not 2 <= players <= 8:
            raise ValueError(f"players must be a whole number from 2 to 8, not {players!r}")
        self.stacks = starting_stacks(players, stack, stacks)
        stack = max(self.stacks)
        if seat is not None and not (type(seat) is int and 0 <= seat < players):
            raise ValueError(f"seat must be None or a seat 0..{players - 1}, not {seat!r}")
        kinds: list[str | Agent] = (
            [bots] * players if isinstance(bots, str) or callable(bots) else list(bots)
        )
        if len(kinds) != players:
            raise ValueError(f"bots: one bot or one per seat ({players}), not {len(kinds)}")
        for kind in kinds:
            if not callable(kind) and kind not in BOT_KINDS:
                raise ValueError(
                    f"unknown bot kind {kind!r}: one of {', '.join(BOT_KINDS)}, or a callable "
                    "of a seat view"
                )
        if illegal not in ("lowest", "raise"):
            raise ValueError(f"illegal must be 'lowest' or 'raise', not {illegal!r}")
        if type(max_steps) is not int or max_steps < 1:
            raise ValueError(f"max_steps must be a whole number >= 1, not {max_steps!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = Rules.from_mapping({"min_players": 2, "max_players": 8, **rules})
        self.players, self.stack, self.seat_choice = players, stack, seat
        self.bot_kinds, self.illegal, self.max_steps = kinds, illegal, max_steps
        self.render_mode = render_mode
        self.history = bool(history)
        self._encode = (
            partial(infostate_vector, max_void_deals=max_void_deals)
            if history
            else observation_vector
        )
        size = infostate_size(players, max_void_deals) if history else observation_size(players)
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (size,), dtype=np.float32)
        if actions not in ("full", "abstract"):
            raise ValueError(f"actions must be 'full' or 'abstract', not {actions!r}")
        self.abstract = actions == "abstract"
        self._n_actions = NUM_ABSTRACT if self.abstract else num_actions(stack)
        self.action_space = gymnasium.spaces.Discrete(self._n_actions)
        self._rng = random.Random()
        self._hand: HandState | None = None
        self.seat = 0 if seat is None else seat
        self._bots: list[Agent | None] = []
        self._steps = 0
        self._legal_cache: tuple[tuple[int, int], list[int]] = ((0, -1), [])
        self._episode = 0

    @property
    def hand(self) -> HandState:
        """The engine's hand (hidden state, for analysis only).

        Raises:
            RuntimeError: before the first ``reset``.
        """
        if self._hand is None:
            raise RuntimeError("call reset() first")
        return self._hand

    def _legal(self) -> list[int]:
        """The learner's legal ids now (kept until the hand changes)."""
        hand = self.hand
        key = (self._episode, len(hand.actions))
        if self._legal_cache[0] == key:
            return self._legal_cache[1]
        ids: list[int] = []
        if hand.to_act == self.seat and not self._truncated():
            ids = env_legal_ids(
                hand.legal_actions(),
                hand_size=len(hand.hands[self.seat]),
                max_stack=self.stack,
                abstract=self.abstract,
            )
        self._legal_cache = (key, ids)
        return ids

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """A bool vector over the action ids: True where the id is legal now."""
        mask = np.zeros(self._n_actions, dtype=np.bool_)
        mask[self._legal()] = True
        return mask

    def _obs(self) -> Obs:
        return self._encode(view(self.hand, self.seat), max_stack=self.stack)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat, **extra}

    def _play_others(self) -> None:
        """Deal and let the bots act until the learner must act or the hand is over."""
        hand = self.hand
        while True:
            advance(hand, self._dealer, mini=self._mini)
            seat = hand.to_act
            if hand.complete or seat == self.seat or self._truncated():
                return
            assert seat is not None and seat != DEALER
            bot = self._bots[seat]
            assert bot is not None
            hand.apply(bot(view(hand, seat)))

    def _truncated(self) -> bool:
        """Whether the hand stops unplayed at ``max_void_deals`` void deals (R4.3)."""
        return self.hand.void_deals >= self.max_void_deals

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """A new hand, played by the bots up to the learner's first move.

        Args:
            seed: seeds the dealer, the bots and the seat draw (R10); None carries on.
            options: ignored.

        Returns:
            The learner's observation and ``info`` (``action_mask``, ``seat``).
        """
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        rng = self._rng
        if self.seat_choice is None:
            self.seat = min(int(rng.random() * self.players), self.players - 1)
        self._dealer = Dealer(rng)
        self._bots = [None] * self.players
        for s, kind in enumerate(self.bot_kinds):
            if s != self.seat:
                self._bots[s] = (
                    kind if callable(kind) else make_bot(kind, int(rng.random() * 2**31))
                )
        names = [f"p{i + 1}" for i in range(self.players)]
        self._hand = HandState(names, list(self.stacks), self.rules)
        self._episode += 1
        self._steps = 0
        self._play_others()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """The learner's move, then the bots' moves up to its next one or the end.

        Args:
            action: an action id (see :mod:`primero.research.actionids`).

        Returns:
            ``(observation, reward, terminated, truncated, info)``; the reward is the
            learner's chips won or lost, at the end of the hand (else 0.0).

        Raises:
            ValueError: an illegal action with ``illegal="raise"`` (nothing changes).
            RuntimeError: the hand is over (call ``reset``).
        """
        hand = self.hand
        if hand.complete or self._truncated():
            raise RuntimeError("the hand is over: call reset()")
        legal = self._legal()
        extra: dict[str, Any] = {}
        chosen = int(action)
        if chosen not in legal:
            if self.illegal == "raise":
                raise ValueError(
                    f"action {chosen} is not legal now: legal ids are {legal} "
                    f"({hand.legal_actions().describe()})"
                )
            extra["illegal_action"] = True
            chosen = legal[0]
        hand.apply(
            env_action(
                chosen,
                hand.legal_actions(),
                seat=self.seat,
                hand=hand.hands[self.seat],
                pot=hand.pot_total(),
                current_bet=hand.current_bet or 0,
                max_stack=self.stack,
                abstract=self.abstract,
            )
        )
        self._steps += 1
        self._play_others()
        reward = 0.0
        if hand.result is not None:
            reward = float(hand.result.net[self.seat])
        truncated = hand.result is None and (self._steps >= self.max_steps or self._truncated())
        return self._obs(), reward, hand.complete, truncated, self._info(**extra)

    def render(self) -> str | None:
        """The learner's view: its cards, the chips and the legal moves (``"ansi"``)."""
        if self.render_mode != "ansi" or self._hand is None:
            return None
        v = view(self.hand, self.seat)
        moves = ", ".join(
            describe_abstract(i)
            if self.abstract and i >= ABSTRACT_BET0
            else describe(i, hand=v.hand, max_stack=self.stack, to_call=v.to_call)
            for i in self._legal()
        )
        return "\n".join([*v.log[-8:], f"legal: {moves or '-'}"])


gymnasium.register(id=ENV_ID, entry_point="primero.research.gymnasium_env:PrimeroEnv")

warn_if_pure()  # once a process: the pure-Python build is 2 to 3 times slower
