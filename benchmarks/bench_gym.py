"""Gymnasium speed: learner steps per CPU second of the single environment and of the
vector environment, in the same run, against three random opponents.

Usage::

    python benchmarks/bench_gym.py [--seconds S] [--tables N] [--stack C] [--rounds R]
    PYTHONPATH=$(python tools/build_compiled.py) python benchmarks/bench_gym.py

The first measures the modules as installed (an editable install: pure Python); the
second the mypyc-compiled core of a wheel build (``tools/build_compiled.py``). The first
line printed says which.

For S seconds each, in this process: (a) ``PrimeroEnv(players=4, stack=C,
bots="random")``, a learner choosing uniformly among the ids of ``info["action_mask"]``,
``reset`` after each hand; (b) ``PrimeroVectorEnv(N, ...)`` with the same keywords, the
learners choosing uniformly among each table's legal ids with one NumPy draw a step
(autoreset ``next_step``: a table's reset step is not a learner step and is not counted).
It prints learner steps per second (wall clock and CPU time), the ratio of (b) to (a)
per CPU second, and the load average (the machine may be shared: CPU time is the fairer
figure). ``--rounds R`` measures the three in turn R times (each round from the same seeds),
and prints the median ratio of (b) to (a).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

from primero.research.gymnasium_env import ENV_ID, PrimeroEnv
from primero.research.gymnasium_vector import PrimeroVectorEnv
from primero.research.stepper import COMPILED


def measure(run: Callable[[float], int], seconds: float) -> tuple[int, float, float]:
    """``run(seconds)`` returns the learner steps made; (steps, wall s, CPU s)."""
    wall, cpu = time.perf_counter(), time.process_time()
    steps = run(seconds)
    return steps, time.perf_counter() - wall, time.process_time() - cpu


def single(stack: int, made: bool = False) -> Callable[[float], int]:
    env: gymnasium.Env[Any, Any] = (
        gymnasium.make(ENV_ID, players=4, stack=stack, bots="random")
        if made
        else PrimeroEnv(players=4, stack=stack, bots="random")
    )
    rng = random.Random(1)

    def run(seconds: float) -> int:
        steps = 0
        _, info = env.reset(seed=1)
        end = time.process_time() + seconds
        while time.process_time() < end:
            for _ in range(1000):
                legal = np.flatnonzero(info["action_mask"])
                action = legal[int(rng.random() * len(legal))]
                _, _, terminated, truncated, info = env.step(action)
                steps += 1
                if terminated or truncated:
                    _, info = env.reset()
        return steps

    return run


def vector(tables: int, stack: int) -> Callable[[float], int]:
    envs = PrimeroVectorEnv(tables, players=4, stack=stack, bots="random")
    gen = np.random.default_rng(1)

    def run(seconds: float) -> int:
        steps = 0
        _, info = envs.reset(seed=1)
        ended = 0  # tables reset by the step (next_step): no learner move there
        end = time.process_time() + seconds
        while time.process_time() < end:
            for _ in range(20):
                mask = info["action_mask"]
                actions = (gen.random(mask.shape) * mask).argmax(axis=1)
                _, _, terminated, truncated, info = envs.step(actions)
                steps += tables - ended
                ended = int(np.count_nonzero(terminated | truncated))
        return steps

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--stack", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    print("compiled core (mypyc)" if COMPILED else "pure Python (editable install)")
    loops = {
        "gymnasium.make": single(args.stack, made=True),
        "PrimeroEnv": single(args.stack),
        f"PrimeroVectorEnv({args.tables})": vector(args.tables, args.stack),
    }
    ratios: list[float] = []
    for round_ in range(args.rounds):
        if args.rounds > 1:
            print(f"round {round_ + 1}")
        got = {name: measure(run, args.seconds) for name, run in loops.items()}
        for name, (steps, wall, cpu) in got.items():
            print(
                f"{name:24} {steps / wall:10,.0f} learner steps/s  "
                f"({steps / cpu:,.0f} per CPU s; {steps:,} steps)"
            )
        many = got[f"PrimeroVectorEnv({args.tables})"]
        for name in ("PrimeroEnv", "gymnasium.make"):
            base = got[name]
            ratio = (many[0] / many[2]) / (base[0] / base[2])
            print(f"vector / {name}, per CPU s: {ratio:.2f}x")
            if name == "PrimeroEnv":
                ratios.append(ratio)
    if args.rounds > 1:
        print(
            f"vector / PrimeroEnv, median of {args.rounds} rounds: {statistics.median(ratios):.2f}x"
        )
    print("load average:", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
