"""A PPO reference run: MaskablePPO through the Gymnasium env, then the
trained policy against each bot kind.

Run as ``python benchmarks/ppo_reference.py [--steps 40000] [--cpu-minutes M]
[--train-bots heuristic] [--hands 400] [--seed 1] [--json FILE] [--save ZIP]``. Needs
the ``train`` extra (torch on the CPU and sb3-contrib: docs/research.md). It trains
``MaskablePPO("MlpPolicy")`` (sb3-contrib's defaults, the seed given) for ``--steps``
learner moves (or until ``--cpu-minutes`` of CPU time) in ``primero/Primero-v0`` (4
seats, 100 chips, the learning seat drawn at each reset, the three other seats
``--train-bots``), then plays ``--hands`` seeded hands (hand ``i`` reset with seed
``seed * 1_000_000 + i``) against three bots of each kind, the policy sampling its moves
with the action mask, and prints its chips won per 100 hands with the 95 % interval
(Student's t over the hands, :func:`primero.research.tournament.mean_ci`), and the CPU
time.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from primero.bots import BOT_KINDS
from primero.research.tournament import mean_ci


def evaluate(model: Any, kind: str, hands: int, seed: int) -> dict[str, Any]:
    """The trained policy against three bots of ``kind``: chips per 100 hands, 95 % CI."""
    import gymnasium

    env = gymnasium.make("primero/Primero-v0", players=4, stack=100, seat=None, bots=kind)
    returns: list[float] = []
    for i in range(hands):
        obs, info = env.reset(seed=seed * 1_000_000 + i)
        total = 0.0
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"].astype(bool))
            obs, reward, terminated, truncated, info = env.step(int(action))
            total += float(reward)
            done = terminated or truncated
        returns.append(total)
    mean, low, high = mean_ci(returns)
    return {"bot": kind, "hands": hands, "per_100": 100 * mean, "ci95": [100 * low, 100 * high]}


def _masks(env: Any) -> Any:
    """The legal-action mask of the Gymnasium env (what MaskablePPO asks for)."""
    return env.unwrapped.action_masks()


def _budget(minutes: float | None, started: float) -> Any:
    """A callback that stops the training after ``minutes`` of this process's CPU time
    (None: no limit, the ``--steps`` alone)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Budget(BaseCallback):  # type: ignore[misc,unused-ignore]
        def _on_step(self) -> bool:
            return minutes is None or time.process_time() - started < 60 * minutes

    return Budget()


def main() -> None:
    """Train, evaluate against every kind, print (and write the JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40_000)
    parser.add_argument("--train-bots", default="heuristic")
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default=",".join(k for k in BOT_KINDS if k != "search"))
    parser.add_argument("--search-hands", type=int, default=100)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--save", type=Path, default=None, help="save the trained model here")
    parser.add_argument(
        "--cpu-minutes", type=float, default=None, help="stop training after this much CPU time"
    )
    args = parser.parse_args()

    import gymnasium
    import sb3_contrib
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.wrappers import ActionMasker

    import primero.research.gymnasium_env  # noqa: F401  (registers primero/Primero-v0)

    torch.set_num_threads(1)
    env = gymnasium.make(
        "primero/Primero-v0", players=4, stack=100, seat=None, bots=args.train_bots
    )
    env = ActionMasker(env, _masks)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    started = time.process_time()
    model.learn(total_timesteps=args.steps, callback=_budget(args.cpu_minutes, started))
    train_cpu = time.process_time() - started
    steps = model.num_timesteps
    if args.save is not None:
        model.save(args.save)
    results = []
    for kind in args.bots.split(","):
        hands = args.search_hands if kind == "search" else args.hands
        started = time.process_time()
        row = evaluate(model, kind, hands, args.seed)
        row["cpu_seconds"] = round(time.process_time() - started, 1)
        results.append(row)
        low, high = row["ci95"]
        print(
            f"PPO vs 3 {kind}: {row['per_100']:+.0f} ({low:+.0f} .. {high:+.0f}) chips per "
            f"100 hands over {hands} hands",
            flush=True,
        )
    out = {
        "steps": steps,
        "cpu_minutes": args.cpu_minutes,
        "train_bots": args.train_bots,
        "seed": args.seed,
        "train_cpu_seconds": round(train_cpu, 1),
        "versions": {"torch": torch.__version__, "sb3_contrib": sb3_contrib.__version__},
        "results": results,
    }
    print(f"trained {steps} steps against {args.train_bots} in {train_cpu:.0f} s of CPU")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
