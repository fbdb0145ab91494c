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
The other seats are bots (default: the heuristic bot), any callables taking a
:class:`~primero.engine.views.SeatView` and returning an action (an external agent gets
its seat's view only, R9b), or :class:`Policy` objects that play from observations and
masks as the learner does (frozen snapshots of a learner, :mod:`primero.research.selfplay`);
``opponents=`` draws them anew for each episode. The dealer is the environment's, seeded
by ``reset(seed=...)`` together with the bots (R10). The reward is the chips won or lost
in the hand, given at the end. At the ``max_void_deals``-th void deal (R4.3; default 20,
as OpenSpiel's) the episode is **truncated** (``truncated=True``, ``terminated=False``)
with reward 0: the hand is abandoned, no chips change hands. ``preset="mini"`` plays
Mini-Primero (:mod:`primero.research.mini`).

The full game with the full action ids runs on the flat hand of
:mod:`primero.research.stepper` (compiled by mypyc in a wheel), as the PettingZoo
environment and the OpenSpiel game do: random bots draw their moves inside it
(:meth:`~primero.research.stepper.Stepper.random_id`, the same draws as
:class:`~primero.bots.random.RandomBot`); other bots and callables get a view of the
engine's hand replayed from its moves (:attr:`PrimeroEnv.hand`). The Mini-Primero preset
and the abstract actions run on the engine's hand. Many tables stepped at once:
:mod:`primero.research.gymnasium_vector`.
"""

from __future__ import annotations

import random

# random.Random's C base: seeded from an int, the very draws of random.Random (the same
# seeding, the same random()) without the Python layer of its constructor, which cost a
# sixth of a hand's reset (three random bots' sources a hand at 4 seats)
from _random import Random as _MersenneTwister
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Final, Literal

import gymnasium
import numpy as np
import numpy.typing as npt

from primero.bots import BOT_KINDS, make_bot
from primero.engine.cards import Card
from primero.engine.dealing import Dealer
from primero.engine.match import Agent
from primero.engine.randomness import derive_seed
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
from primero.research.actionids import describe, id_of, num_actions, starting_stacks
from primero.research.build import warn_if_pure
from primero.research.features import (
    infostate_size,
    infostate_vector,
    observation_size,
    observation_vector,
)
from primero.research.mini import advance, apply_preset
from primero.research.stepper import Stepper, replay

__all__ = ["ENV_ID", "Opponent", "OpponentSampler", "Opponents", "Policy", "PrimeroEnv"]

#: The id to pass to ``gymnasium.make``.
ENV_ID = "primero/Primero-v0"

Obs = npt.NDArray[np.float32]
#: The observation's and the mask's dtypes, given to ``np.frombuffer`` as objects.
_FLOAT32: Final = np.dtype(np.float32)
_INT8: Final = np.dtype(np.int8)
#: The index of the opponents' own random source (:func:`derive_seed` of the reset's seed).
_OPPONENTS_SOURCE: Final = 7_001


@dataclass(frozen=True, slots=True)
class Policy:
    """An opponent that plays as the learner does: from its seat's observation vector
    and action mask (R9b), returning an action id.

    Args:
        act: ``act(observation, action_mask) -> id``: the float32 vector the learner would
            see at that seat (the same encoding, ``history`` included) and the int8 mask
            of the legal ids; the id must be legal (else the environment's ``illegal``
            rule applies: the lowest legal id, or ValueError).
        name: a label (``"snapshot 3"``), for reading only.

    >>> first_legal = Policy(lambda obs, mask: int(mask.argmax()), "first legal")
    >>> first_legal.name
    'first legal'
    """

    act: Callable[[Obs, npt.NDArray[np.int8]], int]
    name: str = "policy"


#: One seat's opponent: a bot kind of :data:`primero.bots.BOT_KINDS`, a callable of a seat
#: view (:data:`primero.engine.match.Agent`) or a :class:`Policy`.
Opponent = str | Agent | Policy
#: The opponents of one episode: one for every other seat, or one per seat (the learning
#: seat's entry is not used).
Opponents = Opponent | Sequence[Opponent]
#: ``opponents=`` as a callable: given the environment's seeded random source for
#: opponents (R10: draw only from it) and the number of seats, the opponents of the next
#: episode (one for every other seat, or one per seat).
OpponentSampler = Callable[[random.Random, int], Opponents]


def _per_seat(spec: Opponents, players: int, where: str) -> list[Opponent]:
    """``spec`` as one opponent per seat, each checked.

    Raises:
        ValueError: a wrong number of entries or an unknown bot kind (``where`` says
            which argument).
    """
    seats: list[Opponent] = (
        [spec] * players if isinstance(spec, str | Policy) or callable(spec) else list(spec)
    )
    if len(seats) != players:
        raise ValueError(f"{where}: one bot or one per seat ({players}), not {len(seats)}")
    for kind in seats:
        if not isinstance(kind, Policy) and not callable(kind) and kind not in BOT_KINDS:
            raise ValueError(
                f"{where}: unknown bot kind {kind!r}: one of {', '.join(BOT_KINDS)}, a "
                "callable of a seat view, or a Policy"
            )
    return seats


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
            (``"heuristic"``, ``"random"``, ...), a callable of a seat view returning an
            action (:data:`primero.engine.match.Agent`) or a :class:`Policy`, or one of
            these per seat (the learning seat's entry is not used). A callable is shared
            by the seats it is given for and is not reseeded.
        opponents: the other seats' players drawn anew for each episode, in place of
            ``bots``: a list of choices (each a value ``bots`` takes), drawn uniformly
            or by ``opponent_weights``; or a callable given a seeded ``random.Random``
            and the number of seats, returning that episode's choice
            (:data:`OpponentSampler`; :class:`primero.research.selfplay.OpponentPool`
            is one). The draws come
            from a source of their own, seeded by ``reset(seed=...)`` (R10: the same
            seed, the same episodes), so the cards dealt do not change with them.
        opponent_weights: relative weights of the ``opponents`` list's choices (>= 0, not
            all 0), or None for uniform.
        illegal: what an action that is not legal now does: ``"lowest"`` plays the lowest
            legal id instead (fold when allowed) and sets ``info["illegal_action"]``;
            ``"raise"`` raises ValueError. A :class:`Policy` opponent's illegal id is
            treated the same way.
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

    Attributes:
        seat: the learning seat of the episode.
        episode_opponents: the episode's opponents, one per seat (None at the learner's):
            a bot kind, a callable or a :class:`Policy`.

    Raises:
        ValueError: a value out of range, an unknown bot kind, a wrong number of bots, an
            empty ``opponents`` list or weights that do not fit it, or game arguments
            beside ``preset="mini"``.
        RulesError: an unknown house rule or a wrong value (a ``ValueError``).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - gymnasium.Env declares it so

    def __init__(
        self,
        players: int = 4,
        stack: int = 100,
        stacks: Sequence[int] | None = None,
        seat: int | None = 0,
        bots: Opponents = "heuristic",
        illegal: Literal["lowest", "raise"] = "lowest",
        max_steps: int = 500,
        render_mode: str | None = None,
        history: bool = False,
        max_void_deals: int = 20,
        preset: str = "",
        actions: str = "full",
        opponents: Sequence[Opponents] | OpponentSampler | None = None,
        opponent_weights: Sequence[float] | None = None,
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
        kinds = _per_seat(bots, players, "bots")
        self.players = players
        self.set_opponents(opponents, opponent_weights)
        if illegal not in ("lowest", "raise"):
            raise ValueError(f"illegal must be 'lowest' or 'raise', not {illegal!r}")
        if type(max_steps) is not int or max_steps < 1:
            raise ValueError(f"max_steps must be a whole number >= 1, not {max_steps!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = Rules.from_mapping({"min_players": 2, "max_players": 8, **rules})
        self.stack, self.seat_choice = stack, seat
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
        self._opponent_rng = random.Random()
        self._hand: HandState | None = None
        self.seat = 0 if seat is None else seat
        self._bots: list[Opponent | None] = []
        #: the opponents of the episode, one per seat (the learner's entry None)
        self.episode_opponents: list[Opponent | None] = []
        self._steps = 0
        self._legal_cache: tuple[tuple[int, int], list[int]] = ((0, -1), [])
        self._episode = 0
        #: the full game with the full ids runs on the flat stepper; the engine's hand is
        #: replayed from its moves when asked for (``hand``, view bots, ``history``)
        self._flat = not self._mini and not self.abstract
        self._fast: Stepper | None = None
        self._rands: list[Callable[[], float] | None] = []
        self._deal: Callable[[], float] = self._rng.random
        self._replayed: HandState | None = None
        self._pending: list[Card] = []
        self._synced = 0
        self._zeros = bytes(self._n_actions)

    def set_opponents(
        self,
        opponents: Sequence[Opponents] | OpponentSampler | None,
        weights: Sequence[float] | None = None,
    ) -> None:
        """Draw the opponents of each episode from now on (from the next ``reset``):
        ``opponents`` and ``weights`` as the constructor's ``opponents`` and
        ``opponent_weights``; None goes back to ``bots``.

        Raises:
            ValueError: an empty list, a choice ``bots`` does not take, or weights not one
                per choice, negative or all 0 (nothing changes).
        """
        choices: list[list[Opponent]] = []
        sampler: OpponentSampler | None = None
        if opponents is not None:
            if callable(opponents):
                sampler = opponents
            else:
                listed = list(opponents)
                if not listed:
                    raise ValueError("opponents: give at least one choice of opponents")
                choices = [_per_seat(c, self.players, "opponents") for c in listed]
        drawn: list[float] | None = None
        if weights is not None:
            drawn = [float(w) for w in weights]
            if not choices or len(drawn) != len(choices):
                raise ValueError(
                    f"opponent_weights: one weight per choice of opponents "
                    f"({len(choices)}), not {len(drawn)}"
                )
            if any(not w >= 0 for w in drawn) or sum(drawn) <= 0:
                raise ValueError("opponent_weights must be >= 0 and not all 0")
        self._choices, self._weights, self._sampler = choices, drawn, sampler

    @property
    def hand(self) -> HandState:
        """The engine's hand (hidden state, for analysis only): on the flat stepper, the
        engine's hand replayed from its moves, each checked.

        Raises:
            RuntimeError: before the first ``reset``.
        """
        fast = self._fast
        if fast is not None:
            hand = self._replayed
            if hand is None:
                names = [f"p{i + 1}" for i in range(self.players)]
                hand = self._replayed = HandState(names, list(self.stacks), self.rules)
                self._synced = 0
                self._pending = []
            replay(hand, fast.log[self._synced :], self._pending, self.stack)
            self._synced = len(fast.log)
            return hand
        if self._hand is None:
            raise RuntimeError("call reset() first")
        return self._hand

    def _legal(self) -> list[int]:
        """The learner's legal ids now (kept until the hand changes)."""
        fast = self._fast
        if fast is not None:
            if fast.player == self.seat and fast.void_deals < self.max_void_deals:
                return fast.legal_ids()
            return []
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
        return self._int8_mask().astype(np.bool_)

    def _mask_bytes(self) -> bytes | bytearray:
        """The learner's mask as bytes (1 at each legal id; all 0 when it is not to move)."""
        fast = self._fast
        if fast is not None:
            if fast.player == self.seat and fast.void_deals < self.max_void_deals:
                return fast.mask(self._n_actions)
            return self._zeros
        mask = bytearray(self._n_actions)
        for i in self._legal():
            mask[i] = 1
        return mask

    def _int8_mask(self) -> npt.NDArray[np.int8]:
        """The learner's mask as a new int8 vector."""
        mask = self._mask_bytes()
        if isinstance(mask, bytearray):  # a new buffer: the array may own it
            return np.frombuffer(mask, _INT8)
        return np.zeros(self._n_actions, dtype=np.int8)

    def _obs_bytes(self, seat: int) -> bytes | bytearray:
        """``seat``'s observation vector as float32 bytes."""
        fast = self._fast
        if fast is not None and not self.history:
            return fast.observation(seat)
        return self._encode(view(self.hand, seat), max_stack=self.stack).tobytes()

    def _obs(self) -> Obs:
        fast = self._fast
        if fast is not None and not self.history:
            return np.frombuffer(fast.observation(self.seat), _FLOAT32)
        return self._encode(view(self.hand, self.seat), max_stack=self.stack)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self._int8_mask(), "seat": self.seat, **extra}

    def _play_others(self) -> None:
        """Deal and let the bots act until the learner must act or the hand is over."""
        fast = self._fast
        if fast is not None:
            while True:
                player = fast.run(self.seat, self._rands, self._deal, self.max_void_deals)
                if player < 0 or player == self.seat or fast.void_deals >= self.max_void_deals:
                    return
                fast.apply(self._other_id(fast, player))
        hand = self.hand
        while True:
            advance(hand, self._dealer, mini=self._mini)
            seat = hand.to_act
            if hand.complete or seat == self.seat or self._truncated():
                return
            assert seat is not None and seat != DEALER
            bot = self._bots[seat]
            assert bot is not None
            if isinstance(bot, Policy):
                hand.apply(self._policy_action(bot, seat))
            else:
                assert callable(bot)
                hand.apply(bot(view(hand, seat)))

    def _policy_id(self, policy: Policy, seat: int, legal: list[int]) -> int:
        """The id ``policy`` plays at ``seat`` (the lowest legal id for an illegal one
        with ``illegal="lowest"``).

        Raises:
            ValueError: an illegal id with ``illegal="raise"``.
        """
        obs = np.frombuffer(self._obs_bytes(seat), _FLOAT32)
        mask = np.zeros(self._n_actions, dtype=np.int8)
        mask[legal] = 1
        chosen = int(policy.act(obs, mask))
        if chosen in legal:
            return chosen
        if self.illegal == "raise":
            raise ValueError(
                f"opponent {policy.name!r} at p{seat + 1} chose action {chosen}, which is "
                f"not legal now: legal ids are {legal}"
            )
        return legal[0]

    def _policy_action(self, policy: Policy, seat: int) -> Any:
        """A :class:`Policy`'s move on the engine's hand (Mini-Primero, abstract ids)."""
        hand = self.hand
        legal = env_legal_ids(
            hand.legal_actions(),
            hand_size=len(hand.hands[seat]),
            max_stack=self.stack,
            abstract=self.abstract,
        )
        return env_action(
            self._policy_id(policy, seat, legal),
            hand.legal_actions(),
            seat=seat,
            hand=hand.hands[seat],
            pot=hand.pot_total(),
            current_bet=hand.current_bet or 0,
            max_stack=self.stack,
            abstract=self.abstract,
        )

    def _other_id(self, fast: Stepper, seat: int) -> int:
        """The id the opponent at ``seat`` plays on the flat hand (not a random bot: those
        play inside :meth:`Stepper.run`).

        Raises:
            ValueError: a callable's action that is not legal now (nothing changes), or a
                Policy's with ``illegal="raise"``.
        """
        bot = self._bots[seat]
        if isinstance(bot, Policy):
            return self._policy_id(bot, seat, fast.legal_ids())
        assert callable(bot)
        hand = self.hand
        action = bot(view(hand, seat))
        try:
            chosen = id_of(action, hand=hand.hands[seat], max_stack=self.stack)
        except ValueError as e:
            raise ValueError(f"p{seat + 1}'s opponent played {action.line()!r}: {e}") from None
        if not fast.is_legal(chosen):
            raise ValueError(
                f"p{seat + 1}'s opponent played {action.line()!r}, which is not legal now: "
                f"{hand.legal_actions().describe()}"
            )
        return chosen

    def _truncated(self) -> bool:
        """Whether the hand stops unplayed at ``max_void_deals`` void deals (R4.3)."""
        fast = self._fast
        if fast is not None:
            return fast.void_deals >= self.max_void_deals
        return self.hand.void_deals >= self.max_void_deals

    def _draw_opponents(self) -> list[Opponent]:
        """The opponents of the next episode, one per seat (``bots``, or drawn from
        ``opponents`` with the opponents' own random source, R10).

        Raises:
            ValueError: the sampler's answer is not a value ``bots`` takes.
        """
        if self._sampler is not None:
            return _per_seat(
                self._sampler(self._opponent_rng, self.players), self.players, "opponents"
            )
        choices = self._choices
        if not choices:
            return self.bot_kinds
        if len(choices) == 1:
            return choices[0]
        rng = self._opponent_rng
        if self._weights is None:
            return choices[min(int(rng.random() * len(choices)), len(choices) - 1)]
        return rng.choices(choices, weights=self._weights)[0]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """A new hand, played by the bots up to the learner's first move.

        Args:
            seed: seeds the dealer, the bots, the seat draw and the draw of the opponents
                (R10); None carries on.
            options: ignored.

        Returns:
            The learner's observation and ``info`` (``action_mask``, ``seat``).

        Raises:
            ValueError: an ``opponents`` callable returned something ``bots`` does not take.
        """
        super().reset(seed=seed)
        self._start(seed)
        return self._obs(), self._info()

    def _start(self, seed: int | None) -> None:
        """:meth:`reset` without its answer (the vector environment reads bytes)."""
        if seed is not None:
            self._rng = random.Random(seed)
            self._opponent_rng = random.Random(derive_seed(seed, _OPPONENTS_SOURCE))
        opponents = self._draw_opponents()
        rng = self._rng
        if self.seat_choice is None:
            self.seat = min(int(rng.random() * self.players), self.players - 1)
        self._dealer = Dealer(rng)
        self._bots = [None] * self.players
        rands: list[Callable[[], float] | None] = [None] * self.players
        for s, kind in enumerate(opponents):
            if s == self.seat:
                continue
            if isinstance(kind, str):
                bot_seed = int(rng.random() * 2**31)
                if kind == "random" and self._flat:  # drawn inside the stepper, as RandomBot
                    rands[s] = _MersenneTwister(bot_seed).random
                else:
                    self._bots[s] = make_bot(kind, bot_seed)
            else:
                self._bots[s] = kind
        self.episode_opponents = [None if s == self.seat else k for s, k in enumerate(opponents)]
        self._rands = rands
        self._episode += 1
        self._steps = 0
        if self._flat:
            self._fast = Stepper(self.stacks, self.rules, self.stack)
            self._replayed = None
            self._deal = rng.random  # as the engine's Dealer deals (R10)
        else:
            names = [f"p{i + 1}" for i in range(self.players)]
            self._hand = HandState(names, list(self.stacks), self.rules)
        self._play_others()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """The learner's move, then the bots' moves up to its next one or the end.

        Args:
            action: an action id (see :mod:`primero.research.actionids`).

        Returns:
            ``(observation, reward, terminated, truncated, info)``; the reward is the
            learner's chips won or lost, at the end of the hand (else 0.0).

        Raises:
            ValueError: an illegal action with ``illegal="raise"`` (nothing changes), or
                an opponent's illegal move.
            RuntimeError: the hand is over (call ``reset``).
        """
        reward, terminated, truncated, illegal = self._advance(action)
        info = self._info(illegal_action=True) if illegal else self._info()
        return self._obs(), reward, terminated, truncated, info

    def _advance(self, action: Any) -> tuple[float, bool, bool, bool]:
        """:meth:`step` without the observation and ``info``: ``(reward, terminated,
        truncated, illegal)``."""
        fast = self._fast
        if fast is not None:
            if fast.player < 0 or fast.void_deals >= self.max_void_deals:
                raise RuntimeError("the hand is over: call reset()")
            chosen = int(action)
            illegal = not fast.is_legal(chosen)
            if illegal:
                legal = fast.legal_ids()
                if self.illegal == "raise":
                    raise ValueError(
                        f"action {chosen} is not legal now: legal ids are {legal} "
                        f"({self.hand.legal_actions().describe()})"
                    )
                chosen = legal[0]
            fast.apply(chosen)
            self._steps += 1
            self._play_others()
            net = fast.net
            if net is not None:
                return float(net[self.seat]), True, False, illegal
            truncated = self._steps >= self.max_steps or fast.void_deals >= self.max_void_deals
            return 0.0, False, truncated, illegal
        hand = self.hand
        if hand.complete or self._truncated():
            raise RuntimeError("the hand is over: call reset()")
        legal = self._legal()
        chosen = int(action)
        illegal = chosen not in legal
        if illegal:
            if self.illegal == "raise":
                raise ValueError(
                    f"action {chosen} is not legal now: legal ids are {legal} "
                    f"({hand.legal_actions().describe()})"
                )
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
        return reward, hand.complete, truncated, illegal

    def render(self) -> str | None:
        """The learner's view: its cards, the chips and the legal moves (``"ansi"``)."""
        if self.render_mode != "ansi" or (self._hand is None and self._fast is None):
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
