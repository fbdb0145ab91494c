"""Self-play against a pool of frozen opponents: snapshots of the learner, drawn per episode.

>>> from primero.research.gymnasium_env import PrimeroEnv, Policy
>>> env = SelfPlay(PrimeroEnv(players=4, stack=20), pool=["random"])
>>> snapshot = env.add_snapshot(lambda obs, mask: int(mask.argmax()), "lowest id")
>>> [getattr(p, "name", p) for p in env.pool.entries]
['random', 'lowest id']
>>> obs, info = env.reset(seed=1)
>>> len(env.unwrapped.episode_opponents)
4

An :class:`OpponentPool` holds bot kinds, callables of a seat view and
:class:`~primero.research.gymnasium_env.Policy` objects (frozen copies of a learner's
policy, which play from the observation and the mask as the learner does, R9b). It is an
``opponents=`` sampler: at each reset each opponent's seat gets an entry drawn
uniformly from the pool (independently), from the environment's seeded source for
opponents (R10: the same seed and the same pool give the same episodes). The same pool
can be given to :class:`~primero.research.gymnasium_vector.PrimeroVectorEnv`
(``opponents=pool``): every table then draws from it.

:class:`SelfPlay` wraps a :class:`~primero.research.gymnasium_env.PrimeroEnv` with a pool:
call :meth:`SelfPlay.add_snapshot` with a frozen copy of the learner's policy now and
then (the pool keeps the ``max_snapshots`` latest, and its first entries always). A
snapshot must not change after it is added: copy the policy's weights (for a
Stable-Baselines3 model, a new policy loaded with its ``state_dict()``; docs/research.md has the
recipe).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import gymnasium
import numpy as np
import numpy.typing as npt

from primero.research.gymnasium_env import Obs, Opponent, Policy, PrimeroEnv

__all__ = ["OpponentPool", "SelfPlay"]


class OpponentPool:
    """Opponents to draw from, one per seat and episode; an ``opponents=`` sampler.

    Args:
        entries: the first entries (kept for good): bot kinds, callables of a seat view,
            :class:`~primero.research.gymnasium_env.Policy` objects. At least one entry
            must be in the pool before the first reset.
        max_snapshots: snapshots kept (>= 1); adding one more drops the oldest snapshot.

    Raises:
        ValueError: ``max_snapshots`` < 1.
    """

    def __init__(self, entries: Sequence[Opponent] = ("random",), max_snapshots: int = 20) -> None:
        if type(max_snapshots) is not int or max_snapshots < 1:
            raise ValueError(f"max_snapshots must be a whole number >= 1, not {max_snapshots!r}")
        self.fixed: list[Opponent] = list(entries)
        self.snapshots: list[Policy] = []
        self.max_snapshots = max_snapshots

    @property
    def entries(self) -> list[Opponent]:
        """Everything drawn from: the first entries, then the snapshots, oldest first."""
        return [*self.fixed, *self.snapshots]

    def add(
        self, policy: Policy | Callable[[Obs, npt.NDArray[np.int8]], int], name: str = ""
    ) -> Policy:
        """Add a frozen policy (a :class:`~primero.research.gymnasium_env.Policy`, or its
        ``act`` function, named ``name`` or ``"snapshot k"``); returns the entry added."""
        if not isinstance(policy, Policy):
            policy = Policy(policy, name or f"snapshot {len(self.snapshots) + 1}")
        self.snapshots.append(policy)
        del self.snapshots[: -self.max_snapshots]
        return policy

    def __call__(self, rng: random.Random, seats: int) -> list[Opponent]:
        """``seats`` entries drawn uniformly and independently with ``rng`` (R10).

        Raises:
            ValueError: the pool is empty.
        """
        entries = self.entries
        if not entries:
            raise ValueError("the opponent pool is empty: add an entry or a snapshot first")
        k = len(entries)
        return [entries[min(int(rng.random() * k), k - 1)] for _ in range(seats)]


class SelfPlay(gymnasium.Wrapper[Obs, np.int64, Obs, np.int64]):
    """A :class:`~primero.research.gymnasium_env.PrimeroEnv` whose opponents are drawn
    from an :class:`OpponentPool` at each episode.

    Args:
        env: the environment (its ``bots`` and ``opponents`` are replaced by the pool).
        pool: an :class:`OpponentPool`, or its first entries (``max_snapshots`` then
            applies).
        max_snapshots: snapshots kept when ``pool`` is a list (>= 1).

    Raises:
        ValueError: ``env`` is not a PrimeroEnv (or a wrapper of one), or
            ``max_snapshots`` < 1.
    """

    def __init__(
        self,
        env: gymnasium.Env[Obs, np.int64],
        pool: OpponentPool | Sequence[Opponent] = ("random",),
        max_snapshots: int = 20,
    ) -> None:
        super().__init__(env)
        base = env.unwrapped
        if not isinstance(base, PrimeroEnv):
            raise ValueError(f"SelfPlay wraps a PrimeroEnv, not {type(base).__name__}")
        self.pool = pool if isinstance(pool, OpponentPool) else OpponentPool(pool, max_snapshots)
        base.set_opponents(self.pool)

    def add_snapshot(
        self, policy: Policy | Callable[[Obs, npt.NDArray[np.int8]], int], name: str = ""
    ) -> Policy:
        """Add a frozen copy of the learner's policy to the pool (:meth:`OpponentPool.add`);
        it may be drawn from the next episode on."""
        return self.pool.add(policy, name)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal ids now (for sb3-contrib's MaskablePPO through the wrapper)."""
        base = self.env.unwrapped
        assert isinstance(base, PrimeroEnv)
        return base.action_masks()
