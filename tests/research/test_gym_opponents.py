"""Opponents drawn per episode (``PrimeroEnv(opponents=...)``), Policy opponents, and the
self-play wrapper with its pool of frozen snapshots: seeded draws (R10), the choices and
weights honoured, refusals. A few hundred learner steps in all.

Needs the ``research`` extra; tests/needs.py.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from primero.engine.randomness import derive_seed
from tests.needs import require

pgym = require("primero.research.gymnasium_env")
selfplay = require("primero.research.selfplay")


def _episodes(env: Any, seed: int, episodes: int) -> list[tuple[Any, ...]]:
    """Each episode's opponents and its observations' bytes, the learner playing the
    lowest legal id."""
    out = []
    for k in range(episodes):
        obs, info = env.reset(seed=seed if k == 0 else None)
        seen = [obs.tobytes()]
        done = False
        while not done:
            obs, _, te, tr, info = env.step(int(info["action_mask"].argmax()))
            seen.append(obs.tobytes())
            done = te or tr
        out.append((tuple(map(str, env.unwrapped.episode_opponents)), tuple(seen)))
    return out


def test_opponents_list_is_drawn_uniformly_from_its_own_seeded_source() -> None:
    env = pgym.PrimeroEnv(players=3, stack=10, opponents=["random", "uniform"])
    kinds = []
    for k in range(12):
        env.reset(seed=21 if k == 0 else None)
        kinds.append(env.episode_opponents[1])
        assert env.episode_opponents == [None, kinds[-1], kinds[-1]]
    rng = random.Random(derive_seed(21, 7_001))  # the draws, by hand: floor(2 * random())
    assert kinds == [["random", "uniform"][int(rng.random() * 2)] for _ in range(12)]
    assert set(kinds) == {"random", "uniform"}
    again = pgym.PrimeroEnv(players=3, stack=10, opponents=["random", "uniform"])
    assert _episodes(again, 21, 6) == _episodes(env, 21, 6)  # R10: same seed, same episodes


def test_opponents_do_not_change_the_cards() -> None:
    """One choice: the very episodes of ``bots`` (the opponents' draws have their own source)."""
    drawn = pgym.PrimeroEnv(players=4, stack=15, opponents=["random"])
    fixed = pgym.PrimeroEnv(players=4, stack=15, bots="random")
    assert _episodes(drawn, 3, 5)[-1][1] == _episodes(fixed, 3, 5)[-1][1]


def test_opponent_weights() -> None:
    only_second = pgym.PrimeroEnv(
        players=2, stack=5, opponents=["random", "uniform"], opponent_weights=[0, 2.5]
    )
    for k in range(5):
        only_second.reset(seed=k)
        assert only_second.episode_opponents == [None, "uniform"]
    per_seat = pgym.PrimeroEnv(
        players=3,
        stack=5,
        opponents=[["random", "uniform", "random"], "random"],
        opponent_weights=[1, 0],
    )
    per_seat.reset(seed=4)
    assert per_seat.episode_opponents == [None, "uniform", "random"]


def test_opponents_callable_gets_the_seeded_source_and_the_seats() -> None:
    calls: list[tuple[int, float]] = []

    def sampler(rng: random.Random, seats: int) -> list[str]:
        x = rng.random()
        calls.append((seats, x))
        return ["random" if x < 0.5 else "uniform"] * seats

    env = pgym.PrimeroEnv(players=3, stack=8, opponents=sampler)
    first = _episodes(env, 9, 4)
    rng = random.Random(derive_seed(9, 7_001))
    assert calls == [(3, rng.random()) for _ in range(4)]
    calls.clear()
    assert _episodes(env, 9, 4) == first


def test_policy_opponents_see_their_own_seat() -> None:
    seen: list[tuple[int, list[int]]] = []

    def lowest(obs: np.ndarray, mask: np.ndarray) -> int:
        assert obs.dtype == np.float32 and mask.dtype == np.int8
        seen.append((int(obs[:3].argmax()), np.flatnonzero(mask).tolist()))  # the seat's one-hot
        return int(mask.argmax())

    env = pgym.PrimeroEnv(players=3, stack=8, seat=2, bots=pgym.Policy(lowest, "lowest"))
    env.reset(seed=2)
    assert [seat for seat, _ in seen] == [0, 1]  # p1 and p2 moved before p3's first move
    assert all(legal for _, legal in seen)
    rude = pgym.PrimeroEnv(
        players=3, stack=8, bots=pgym.Policy(lambda o, m: 999, "rude"), illegal="raise"
    )
    with pytest.raises(
        ValueError, match=r"opponent 'rude' at p\d chose action 999, which is not legal now"
    ):
        rude.reset(seed=2)
        rude.step(int(rude.action_masks().argmax()))


def test_opponents_refusals() -> None:
    with pytest.raises(ValueError, match="give at least one choice"):
        pgym.PrimeroEnv(players=2, opponents=[])
    with pytest.raises(ValueError, match=r"one weight per choice of opponents \(2\), not 1"):
        pgym.PrimeroEnv(players=2, opponents=["random", "heuristic"], opponent_weights=[1])
    with pytest.raises(ValueError, match="must be >= 0 and not all 0"):
        pgym.PrimeroEnv(players=2, opponents=["random", "heuristic"], opponent_weights=[0, 0])
    with pytest.raises(ValueError, match="opponents: unknown bot kind 'clever'"):
        pgym.PrimeroEnv(players=2, opponents=["random", "clever"])
    env = pgym.PrimeroEnv(players=2, opponents=lambda rng, seats: "clever")
    with pytest.raises(ValueError, match="opponents: unknown bot kind 'clever'"):
        env.reset(seed=1)


def test_self_play_draws_each_seat_from_the_pool() -> None:
    env = selfplay.SelfPlay(pgym.PrimeroEnv(players=4, stack=10), pool=["random"], max_snapshots=2)
    moves: list[str] = []

    def snapshot(name: str) -> Any:
        def act(obs: np.ndarray, mask: np.ndarray) -> int:
            moves.append(name)
            return int(mask.argmax())

        return act

    for name in ("a", "b", "c"):
        env.add_snapshot(snapshot(name), name)
    assert [getattr(e, "name", e) for e in env.pool.entries] == ["random", "b", "c"]  # a dropped
    drawn = []
    for k in range(8):
        _, info = env.reset(seed=50 if k == 0 else None)
        drawn.append([getattr(e, "name", e) for e in env.unwrapped.episode_opponents[1:]])
        done = False
        while not done:  # the snapshots play their seats
            _, _, te, tr, info = env.step(int(info["action_mask"].argmax()))
            done = te or tr
    rng = random.Random(derive_seed(50, 7_001))
    expected = []
    for _ in range(8):
        seats = [["random", "b", "c"][int(rng.random() * 3)] for _ in range(4)]
        expected.append(seats[1:])
    assert drawn == expected
    assert set(moves) == {"b", "c"}
    assert env.action_masks().dtype == np.bool_
    with pytest.raises(ValueError, match="max_snapshots must be a whole number >= 1, not 0"):
        selfplay.OpponentPool(max_snapshots=0)
    empty = selfplay.SelfPlay(pgym.PrimeroEnv(players=2, stack=5), pool=[])
    with pytest.raises(ValueError, match="the opponent pool is empty"):
        empty.reset(seed=1)


def test_a_pool_serves_the_vector_env() -> None:
    pvec = require("primero.research.gymnasium_vector")
    pool = selfplay.OpponentPool(["random", "uniform"])
    envs = pvec.PrimeroVectorEnv(3, players=3, stack=6, opponents=pool)
    envs.reset(seed=7)
    for i, env in enumerate(envs.envs):
        single = pgym.PrimeroEnv(players=3, stack=6, opponents=pool)
        single.reset(seed=7 + i)
        assert env.episode_opponents == single.episode_opponents
