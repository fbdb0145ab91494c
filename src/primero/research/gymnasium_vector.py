"""Many tables of Primero stepped in one call: a Gymnasium ``VectorEnv``, NumPy-batched.

>>> from primero.research.gymnasium_vector import PrimeroVectorEnv
>>> envs = PrimeroVectorEnv(8, players=4, stack=20, bots="random")
>>> obs, info = envs.reset(seed=3)
>>> obs.shape, obs.dtype, info["action_mask"].shape
((8, 163), dtype('float32'), (8, 62))
>>> actions = info["action_mask"].argmax(axis=1)  # the lowest legal id of each table
>>> obs, rewards, terminated, truncated, info = envs.step(actions)
>>> rewards.shape, terminated.dtype
((8,), dtype('bool'))

Table ``i`` is a :class:`~primero.research.gymnasium_env.PrimeroEnv` made with the same
keywords (one hand an episode, R4; its learner's observation and mask, R9b; its rewards
in chips), and plays exactly the episodes that environment plays: ``reset(seed=s)``
seeds table ``i`` with ``s + i`` (Gymnasium's convention; a list gives one seed per
table), and a table whose hand ended is reset with its own generator carried on (R10),
as ``PrimeroEnv.reset()`` without a seed. Observations come as one float32 array
``(num_envs, size)``; ``info["action_mask"]`` is an int8 array ``(num_envs, ids)`` (and
:meth:`PrimeroVectorEnv.action_masks` a bool one); ``info["seat"]`` the learner's seat at
each table; ``info["illegal_action"]`` (with its ``_illegal_action`` mask, Gymnasium's
convention) where an illegal id was replaced by the lowest legal one.

Autoreset follows Gymnasium 1.x (``metadata["autoreset_mode"]``): ``"next_step"`` (the
default, :attr:`gymnasium.vector.AutoresetMode.NEXT_STEP`): the step after a table's
hand ended resets it, ignores its action and returns its first observation with reward 0,
``terminated`` and ``truncated`` False; ``"same_step"``: the table is reset in the step
its hand ends, which returns the new hand's observation, and the last observation and
info of the ended hand in ``info["final_obs"]`` and ``info["final_info"]`` (with their
``_final_obs`` and ``_final_info`` masks).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from primero.research.gymnasium_env import PrimeroEnv
from primero.research.stepper import Stepper, observe_tables
from primero.research.vector_batch import OTHERS, RESET, Outcome, step_batch

__all__ = ["PrimeroVectorEnv"]

_FLOAT32: Final = np.dtype(np.float32)
_INT8: Final = np.dtype(np.int8)
_MODES: Final = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}

Batch = npt.NDArray[Any]


class PrimeroVectorEnv(VectorEnv[Batch, Batch, Batch]):
    """``num_envs`` tables, each one :class:`~primero.research.gymnasium_env.PrimeroEnv`.

    Args:
        num_envs: tables (>= 1).
        autoreset_mode: ``"next_step"`` (default) or ``"same_step"`` (Gymnasium's modes).
        **kwargs: :class:`~primero.research.gymnasium_env.PrimeroEnv`'s keywords (the game,
            ``bots`` or ``opponents``, ``illegal``, ``max_steps``...), the same for every
            table (a callable given is shared by the tables).

    Raises:
        ValueError: ``num_envs`` < 1, an unknown autoreset mode, or what ``PrimeroEnv``
            raises for the keywords.
    """

    def __init__(
        self, num_envs: int = 64, autoreset_mode: str = "next_step", **kwargs: Any
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number >= 1, not {num_envs!r}")
        if autoreset_mode not in _MODES:
            raise ValueError(
                f"autoreset_mode must be 'next_step' or 'same_step', not {autoreset_mode!r}"
            )
        if kwargs.get("render_mode") is not None:
            raise ValueError("the vector environment does not render: render_mode must be None")
        self.envs = [PrimeroEnv(**kwargs) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.autoreset_mode = _MODES[autoreset_mode]
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": []}
        self.render_mode = None
        self.single_observation_space: gymnasium.spaces.Box = first.observation_space  # type: ignore[assignment]
        self.single_action_space: gymnasium.spaces.Discrete = first.action_space  # type: ignore[assignment]
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._size = int(self.single_observation_space.shape[0])
        self._n_actions = int(self.single_action_space.n)
        self._ended = [False] * num_envs
        self._masks = np.zeros((num_envs, self._n_actions), dtype=np.int8)
        self._all = np.ones(num_envs, dtype=np.bool_)
        #: the tables run on the flat stepper and observe its vector: stepped in batches,
        #: from these lists (table ``i``'s stepper, learner, random bots' and dealer's
        #: sources and learner moves this hand: ``_cache`` after each ``_start``)
        self._flat = first._flat and not first.history
        self._tables: list[Stepper] = []
        self._seats: list[int] = [0] * num_envs
        self._rands: list[list[Callable[[], float] | None]] = [[] for _ in range(num_envs)]
        self._deals: list[Callable[[], float]] = [first._deal] * num_envs
        self._steps: list[int] = [0] * num_envs
        self._out = Outcome(num_envs)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Batch, dict[str, Any]]:
        """Deal a new hand at every table.

        Args:
            seed: None (every table carries on its generator), an int ``s`` (table ``i``
                seeded ``s + i``) or one seed or None per table (R10).
            options: ignored.

        Returns:
            The observations ``(num_envs, size)`` and ``info`` (``action_mask``,
            ``seat``).

        Raises:
            ValueError: a list of seeds not one per table.
        """
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(
                    f"seed: one per table ({self.num_envs}) or a single int, not {len(seeds)}"
                )
        if seed is not None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seeds[0])
        obs: list[bytes | bytearray] = []
        masks: list[bytes | bytearray] = []
        for i, env in enumerate(self.envs):
            env._start(seeds[i])
            obs.append(env._obs_bytes(env.seat))
            masks.append(env._mask_bytes())
            self._ended[i] = False
        if self._flat:
            self._tables = [env._fast for env in self.envs]  # type: ignore[misc]  # all reset
            for i in range(self.num_envs):
                self._cache(i)
        return self._batch(obs), self._infos(b"".join(masks), None)

    def step(
        self, actions: Any
    ) -> tuple[Batch, npt.NDArray[np.float64], Batch, Batch, dict[str, Any]]:
        """Every table's learner plays its action id; the bots play up to its next move.

        Args:
            actions: one action id per table (an array or a sequence); a table reset by
                this step (``"next_step"``) ignores its id.

        Returns:
            ``(observations, rewards, terminated, truncated, info)``, batched; rewards are
            chips, at the end of a hand.

        Raises:
            ValueError: not one action per table, or what ``PrimeroEnv.step`` raises.
            RuntimeError: before the first ``reset``.
        """
        ids = np.asarray(actions).astype(np.int64, copy=False).reshape(-1).tolist()
        n = self.num_envs
        if len(ids) != n:
            raise ValueError(f"actions: one per table ({n}), not {len(ids)}")
        if self._flat:
            if not self._tables:
                raise RuntimeError("call reset() first")
            return self._step_flat(ids)
        rewards = [0.0] * n
        terminated = [False] * n
        truncated = [False] * n
        illegal: list[int] = []
        obs: list[bytes | bytearray] = []
        masks: list[bytes | bytearray] = []
        ended = self._ended
        final: list[tuple[int, bytes | bytearray, dict[str, Any]]] = []
        for i, env in enumerate(self.envs):
            if ended[i]:  # next_step: this call resets the table
                env._start(None)
                ended[i] = False
            else:
                reward, te, tr, bad = env._advance(ids[i])
                rewards[i], terminated[i], truncated[i] = reward, te, tr
                if bad:
                    illegal.append(i)
                if te or tr:
                    self._end(i, env, bad, final)
            obs.append(env._obs_bytes(env.seat))
            masks.append(env._mask_bytes())
        return self._answer(
            self._batch(obs), b"".join(masks), rewards, terminated, truncated, illegal, final
        )

    def _end(
        self,
        i: int,
        env: PrimeroEnv,
        bad: bool,
        final: list[tuple[int, bytes | bytearray, dict[str, Any]]],
    ) -> None:
        """Table ``i``'s hand ended: ``same_step`` keeps its last observation and info in
        ``final`` and deals the next hand; ``next_step`` marks it to reset next step."""
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            ended_info: dict[str, Any] = {
                "action_mask": np.frombuffer(env._mask_bytes(), _INT8).copy(),
                "seat": env.seat,
            }
            if bad:
                ended_info["illegal_action"] = True
            final.append((i, env._obs_bytes(env.seat), ended_info))
            env._start(None)
        else:
            self._ended[i] = True

    def _step_flat(
        self, ids: list[int]
    ) -> tuple[Batch, npt.NDArray[np.float64], Batch, Batch, dict[str, Any]]:
        """:meth:`step` of tables on the flat stepper: every learner's move, the random
        bots' moves and the deals in one compiled call
        (:func:`~primero.research.vector_batch.step_batch`), then in table order the resets, the
        other opponents' moves and the ends of hands (the order of :meth:`step` table by
        table, so shared callables are called in the same order), then every observation
        and mask in one more call."""
        envs = self.envs
        first = envs[0]
        max_void = first.max_void_deals
        out = self._out
        stop = step_batch(
            self._tables,
            self._ended,
            ids,
            self._seats,
            self._rands,
            self._deals,
            self._steps,
            out,
            max_void,
            first.max_steps,
            first.illegal == "lowest",
        )
        final: list[tuple[int, bytes | bytearray, dict[str, Any]]] = []
        if out.visit:
            self._visit(out, max_void, final)
        if stop >= 0:
            envs[stop]._advance(ids[stop])  # raises ValueError: the id is not legal
        obs, masks = observe_tables(self._tables, self._seats, self._n_actions, max_void)
        vectors = np.frombuffer(bytearray(obs), _FLOAT32).reshape(self.num_envs, self._size)
        return self._answer(
            vectors, masks, out.rewards, out.terminated, out.truncated, out.flagged, final
        )

    def _visit(
        self,
        out: Outcome,
        max_void: int,
        final: list[tuple[int, bytes | bytearray, dict[str, Any]]],
    ) -> None:
        """The tables :func:`~primero.research.vector_batch.step_batch` left to Python, in table
        order: resets, opponents that are not random bots, ends of hands."""
        envs = self.envs
        ended = self._ended
        kinds = out.kinds
        for i in out.visit:
            env = envs[i]
            kind = kinds[i]
            if kind == RESET:
                env._start(None)
                ended[i] = False
                self._cache(i)
                continue
            if kind == OTHERS:
                fast = env._fast
                assert fast is not None
                env._play_others()
                net = fast.net
                if net is not None:
                    out.rewards[i] = float(net[env.seat])
                    out.terminated[i] = True
                elif out.steps[i] >= env.max_steps or fast.void_deals >= max_void:
                    out.truncated[i] = True
                else:
                    continue
            env._steps = out.steps[i]
            self._end(i, env, out.illegal[i], final)
            if not ended[i]:  # same_step: dealt anew
                self._cache(i)

    def _cache(self, i: int) -> None:
        """Table ``i``'s stepper, learner, sources and moves, after its ``_start``."""
        env = self.envs[i]
        fast = env._fast
        assert fast is not None
        self._tables[i] = fast
        self._seats[i] = env.seat
        self._rands[i] = env._rands
        self._deals[i] = env._deal
        self._steps[i] = 0

    def _answer(
        self,
        obs: Batch,
        masks: bytes,
        rewards: list[float],
        terminated: list[bool],
        truncated: list[bool],
        illegal: list[int],
        final: list[tuple[int, bytes | bytearray, dict[str, Any]]],
    ) -> tuple[Batch, npt.NDArray[np.float64], Batch, Batch, dict[str, Any]]:
        """:meth:`step`'s answer from the tables' bytes and flags."""
        n = self.num_envs
        infos = self._infos(masks, illegal)
        if final:
            final_obs = np.full(n, None, dtype=object)
            final_info = np.full(n, None, dtype=object)
            has = np.zeros(n, dtype=np.bool_)
            for i, vector, info in final:
                final_obs[i] = np.frombuffer(vector, _FLOAT32).copy()
                final_info[i] = info
                has[i] = True
            infos["final_obs"], infos["_final_obs"] = final_obs, has
            infos["final_info"], infos["_final_info"] = final_info, has.copy()
        return (
            obs,
            np.array(rewards, dtype=np.float64),
            np.array(terminated, dtype=np.bool_),
            np.array(truncated, dtype=np.bool_),
            infos,
        )

    def _batch(self, obs: list[bytes | bytearray]) -> Batch:
        """The tables' observation bytes as one float32 array ``(num_envs, size)``."""
        return np.frombuffer(bytearray(b"".join(obs)), _FLOAT32).reshape(self.num_envs, self._size)

    def _infos(self, masks: bytes, illegal: list[int] | None) -> dict[str, Any]:
        """``info``: the masks, the learners' seats, and where an id was illegal."""
        mask = np.frombuffer(bytearray(masks), _INT8).reshape(self.num_envs, self._n_actions)
        self._masks = mask
        infos: dict[str, Any] = {
            "action_mask": mask,
            "_action_mask": self._all.copy(),
            "seat": np.array(
                self._seats if self._flat else [env.seat for env in self.envs], dtype=np.int64
            ),
            "_seat": self._all.copy(),
        }
        if illegal:
            flags = np.zeros(self.num_envs, dtype=np.bool_)
            flags[illegal] = True
            infos["illegal_action"], infos["_illegal_action"] = flags, flags.copy()
        return infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learners' masks now, ``(num_envs, ids)`` bool: True where an id is legal
        (a table about to be reset by ``"next_step"`` shows its ended hand's, all False)."""
        return self._masks.astype(np.bool_)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""
