"""Seeded episodes of the Gymnasium environment, digested step by step: the record
``tests/research/data/gym_episodes.json`` was written by the engine-backed environment
(before it ran on the flat stepper) and ``test_gym_fast.py`` replays it on the current one.

Run ``python -m tests.research.gym_episodes`` to print the record again (only to
regenerate it after a change of the observation layout, on purpose). ``history3`` was
written again, alone, when the history block became perfect recall (every public line,
the seat's own cards line by line): its observations are now held to
``features.history_vector`` by ``test_features.py`` instead.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import numpy as np

from primero.engine.actions import Action
from primero.engine.views import SeatView

#: (name, PrimeroEnv keywords, episodes): a few hundred learner steps in all.
CASES: list[tuple[str, dict[str, Any], int]] = [
    ("random4", {"players": 4, "stack": 20, "bots": "random"}, 12),
    (
        "mixed3",
        {"players": 3, "stack": 10, "seat": None, "bots": ["random", "heuristic", "random"]},
        8,
    ),
    (
        "short5",
        {"players": 5, "stacks": [3, 6, 2, 9, 4], "seat": 3, "bots": "random", "ties": "split"},
        10,
    ),
    (
        "void2",
        {"players": 2, "stack": 8, "bots": "random", "max_void_deals": 2, "refusal": False},
        10,
    ),
    (
        "history3",
        {"players": 3, "stack": 12, "bots": "random", "history": True, "last_round": False},
        5,
    ),
    ("steps", {"players": 4, "stack": 30, "bots": "heuristic", "max_steps": 2, "min_raise": 2}, 5),
    ("callable", {"players": 3, "stack": 10, "bots": "callable"}, 5),
]


class LowestAgent:
    """An opponent given as a callable of a seat view: always its view's first legal kind."""

    def __call__(self, v: SeatView) -> Action:
        from primero.bots.random import RandomBot

        assert v.legal is not None
        return RandomBot.choose(v.legal, _Zero(), v.hand)


class _Zero:
    def random(self) -> float:
        return 0.0


def digest(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:16]


def run_case(kwargs: dict[str, Any], episodes: int, seed: int) -> list[list[Any]]:
    """Each step's ``[obs digest, legal ids, reward, terminated, truncated, illegal, seat]``
    (the reset's with reward None), the learner choosing with ``random.Random(seed)``:
    uniformly among the legal ids, and one move in ten an id out of the mask."""
    from gymnasium.spaces import Discrete

    from primero.research.gymnasium_env import PrimeroEnv

    kw = dict(kwargs)
    if kw.get("bots") == "callable":
        kw["bots"] = LowestAgent()
    env = PrimeroEnv(**kw)
    assert isinstance(env.action_space, Discrete)
    chooser = random.Random(seed)
    out: list[list[Any]] = []
    for episode in range(episodes):
        obs, info = env.reset(seed=seed if episode == 0 else None)
        mask = info["action_mask"]
        out.append(
            [digest(obs), np.flatnonzero(mask).tolist(), None, False, False, False, info["seat"]]
        )
        done = False
        while not done:
            legal = np.flatnonzero(mask).tolist()
            if chooser.random() < 0.1:
                action = int(env.action_space.n) - 1 - chooser.randrange(3)
            else:
                action = legal[chooser.randrange(len(legal))]
            obs, reward, terminated, truncated, info = env.step(action)
            mask = info["action_mask"]
            out.append(
                [
                    digest(obs),
                    np.flatnonzero(mask).tolist(),
                    reward,
                    terminated,
                    truncated,
                    bool(info.get("illegal_action", False)),
                    info["seat"],
                ]
            )
            done = terminated or truncated
    return out


def record() -> dict[str, Any]:
    return {
        name: run_case(kwargs, episodes, seed)
        for seed, (name, kwargs, episodes) in enumerate(CASES, start=101)
    }


if __name__ == "__main__":
    json.dump(record(), sys.stdout, separators=(",", ":"))
