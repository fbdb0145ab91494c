"""The vector environment (primero.research.gymnasium_vector) against the single one,
step by step on the same seeds, in both of Gymnasium's autoreset modes; its batch shapes
and its refusals. A few hundred learner steps in all.

Needs the ``research`` extra; tests/needs.py.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from tests.needs import require

gymnasium = require("gymnasium")
pgym = require("primero.research.gymnasium_env")
pvec = require("primero.research.gymnasium_vector")

CASES: list[dict[str, Any]] = [
    {"players": 4, "stack": 20, "bots": "random"},
    {
        "players": 3,
        "stack": 8,
        "seat": None,
        "bots": ["random", "heuristic", "random"],
        "max_void_deals": 2,
    },
    {"players": 2, "stack": 6, "bots": "random", "history": True, "max_steps": 3},
]


def _actions(chooser: random.Random, masks: np.ndarray) -> list[int]:
    """A legal id per table, uniformly, and one table in ten an illegal id."""
    out = []
    for mask in masks:
        legal = np.flatnonzero(mask).tolist()
        if not legal or chooser.random() < 0.1:
            out.append(len(mask) - 1 - chooser.randrange(2))
        else:
            out.append(legal[chooser.randrange(len(legal))])
    return out


@pytest.mark.parametrize("kwargs", CASES, ids=["random4", "mixed3", "history2"])
def test_next_step_autoreset_plays_the_single_envs_episodes(kwargs: dict[str, Any]) -> None:
    tables = 3
    envs = pvec.PrimeroVectorEnv(tables, **kwargs)
    singles = [pgym.PrimeroEnv(**kwargs) for _ in range(tables)]
    obs, info = envs.reset(seed=40)
    assert envs.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.NEXT_STEP
    ended = [False] * tables
    for i, env in enumerate(singles):
        o, inf = env.reset(seed=40 + i)
        assert obs[i].tobytes() == o.tobytes()
        assert info["action_mask"][i].tolist() == inf["action_mask"].tolist()
        assert info["seat"][i] == inf["seat"]
    chooser = random.Random(5)
    resets = illegal = 0
    for _ in range(60):
        actions = _actions(chooser, info["action_mask"])
        obs, rewards, terminated, truncated, info = envs.step(np.array(actions))
        assert obs.shape == (tables, envs.single_observation_space.shape[0])
        assert obs in envs.observation_space
        for i, env in enumerate(singles):
            if ended[i]:  # reset by this step: its action ignored, reward 0
                o, inf = env.reset()
                r, te, tr = 0.0, False, False
                resets += 1
            else:
                o, r, te, tr, inf = env.step(actions[i])
            assert obs[i].tobytes() == o.tobytes()
            assert (rewards[i], terminated[i], truncated[i]) == (r, te, tr)
            assert info["action_mask"][i].tolist() == inf["action_mask"].tolist()
            assert envs.action_masks()[i].tolist() == env.action_masks().tolist()
            assert info["seat"][i] == inf["seat"]
            flagged = bool(info.get("illegal_action", np.zeros(tables))[i])
            assert flagged == inf.get("illegal_action", False)
            illegal += flagged
            ended[i] = te or tr
    assert resets >= 5 and illegal >= 5


def test_same_step_autoreset_gives_the_final_observation_and_the_new_hand() -> None:
    kwargs = {"players": 4, "stack": 10, "bots": "random"}
    tables = 2
    envs = pvec.PrimeroVectorEnv(tables, autoreset_mode="same_step", **kwargs)
    singles = [pgym.PrimeroEnv(**kwargs) for _ in range(tables)]
    _, info = envs.reset(seed=[8, 9])
    for i, env in enumerate(singles):
        env.reset(seed=8 + i)
    chooser = random.Random(2)
    finals = 0
    for _ in range(40):
        actions = _actions(chooser, info["action_mask"])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        for i, env in enumerate(singles):
            o, r, te, tr, inf = env.step(actions[i])
            assert (rewards[i], terminated[i], truncated[i]) == (r, te, tr)
            if te or tr:
                assert info["_final_obs"][i] and info["_final_info"][i]
                assert info["final_obs"][i].tobytes() == o.tobytes()
                assert info["final_info"][i]["action_mask"].tolist() == inf["action_mask"].tolist()
                o, inf = env.reset()
                finals += 1
            elif "_final_obs" in info:
                assert not info["_final_obs"][i]
            assert obs[i].tobytes() == o.tobytes()
            assert info["action_mask"][i].tolist() == inf["action_mask"].tolist()
    assert finals >= 5


def test_vector_spaces_and_refusals() -> None:
    envs = pvec.PrimeroVectorEnv(2, players=2, stack=5, bots="random")
    assert envs.num_envs == 2
    assert isinstance(envs.action_space, gymnasium.spaces.MultiDiscrete)
    assert envs.action_space.nvec.tolist() == [32, 32]  # 22 + 2 * 5 ids a table
    obs, info = envs.reset(seed=1)
    assert obs.dtype == np.float32 and info["action_mask"].dtype == np.int8
    with pytest.raises(ValueError, match=r"one per table \(2\), not 3"):
        envs.step([0, 0, 0])
    with pytest.raises(ValueError, match=r"one per table \(2\) or a single int, not 1"):
        envs.reset(seed=[1])
    with pytest.raises(ValueError, match="num_envs must be a whole number >= 1, not 0"):
        pvec.PrimeroVectorEnv(0)
    with pytest.raises(ValueError, match="autoreset_mode must be 'next_step' or 'same_step'"):
        pvec.PrimeroVectorEnv(2, autoreset_mode="disabled")
    strict = pvec.PrimeroVectorEnv(2, players=2, stack=5, bots="random", illegal="raise")
    _, info = strict.reset(seed=1)
    legal = [int(m.argmax()) for m in info["action_mask"]]
    with pytest.raises(ValueError, match=r"action 31 is not legal now: legal ids are \["):
        strict.step([legal[0], 31])
    envs.close()


def test_vector_arrays_are_writable() -> None:
    """Batches a learner may change in place (and torch takes without a warning)."""
    envs = pvec.PrimeroVectorEnv(2, players=2, stack=5, bots="random")
    obs, info = envs.reset(seed=3)
    assert obs.flags.writeable and info["action_mask"].flags.writeable
    obs, _, _, _, info = envs.step(info["action_mask"].argmax(axis=1))
    assert obs.flags.writeable and info["action_mask"].flags.writeable
