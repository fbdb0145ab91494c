"""Train the reference agent (``primero.bots.reference``): self-play against a population.

Run as ``python tools/train_reference.py [--iterations N] [--hands B] [--seed S]`` after
``pip install -e '.[research,train]'`` (torch on the CPU). Each iteration plays ``B``
seeded hands at 4 seats with 100 chips each: two seats are the learner (the current
weights, drawing its moves), two are an opponent drawn from the population

* ``heuristic``, ``search`` (40 samples a decision, for speed), ``bluff``, ``uniform``,
  ``random`` (the shipped bots and exploiters), and
* ``self``: a frozen copy of the learner from an earlier iteration (one is kept every
  ``--snapshot-every`` iterations),

in the seats of a seating drawn for the hand. Every learner decision gets its hand's
result in stacks (net chips / 100) less the batch's mean for that opponent (the
baseline); the network is then updated by PPO's clipped objective (torch, Adam, a few
epochs over the batch, an entropy bonus). The hands are played in ``--workers``
processes in a fixed order, torch runs on one thread, so the same arguments give the
same weights.

Writes the weights to ``--out`` (default ``src/primero/bots/data/reference.json``, with
the arguments and the git commit) and the training curve, each iteration's mean result
against each opponent in chips per 100 hands, to ``--curve`` (and its plot beside it,
the same name in ``.png``).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from primero.bots import make_bot
from primero.bots.heuristic import HeuristicBot
from primero.bots.reference import FEATURES, MOVES, Decision, Policy, ReferenceBot, decide
from primero.engine.actions import Action, Bet, Declare, Exchange, Raise
from primero.engine.dealing import Dealer
from primero.engine.match import Agent, play_hand
from primero.engine.state import HandState
from primero.engine.views import SeatView

#: The population and how often each opponent is drawn.
POPULATION: dict[str, float] = {
    "heuristic": 0.2,
    "search": 0.25,
    "bluff": 0.1,
    "uniform": 0.1,
    "random": 0.05,
    "self": 0.3,
}
STACK = 100
SEATS = 4
SEARCH_SAMPLES = 40
#: The share of the hands against an exploiter (``--exploiter``), the other kinds' shares
#: scaled down to make room.
EXPLOITER_SHARE = 0.4

Weights = dict[str, Any]
_ZERO = Policy(
    np.zeros((len(FEATURES), 1)), np.zeros(1), np.zeros((1, len(MOVES))), np.zeros(len(MOVES))
)
Step = tuple[list[float], int, int]  # features, mask bits, chosen move


def _step(decision: Decision, move: int) -> Step:
    """A decision as training data: its features, its legal moves as bits, the move."""
    mask = 0
    for legal, _ in decision.options:
        mask |= 1 << legal
    return decision.features.tolist(), mask, move


class Recorder:
    """A learner seat: plays the policy and records each of its decisions."""

    def __init__(self, bot: ReferenceBot) -> None:
        self.bot = bot
        self.steps: list[Step] = []

    def __call__(self, view: SeatView) -> Any:
        action, decision, i = decide(self.bot, view)
        if decision is not None:
            self.steps.append(_step(decision, decision.options[i][0]))
        return action


class Imitator:
    """A seat played by the heuristic bot, recording its moves as the network's moves
    (the imitation phase: the network starts from the heuristic bot's play)."""

    def __init__(self, seed: int) -> None:
        self.bot = HeuristicBot(seed=seed)
        self.features = ReferenceBot(seed=seed, policy=_ZERO)
        self.steps: list[Step] = []

    def __call__(self, view: SeatView) -> Any:
        action = self.bot(view)
        decision = self.features.decision(view)
        if isinstance(decision, Decision):
            move = _move_of(decision, action)
            if move is not None:
                self.steps.append(_step(decision, move))
        return action


def _move_of(decision: Decision, action: Action) -> int | None:
    """The network's move closest to ``action``: the same kind, the nearest amount."""
    best: tuple[int, int] | None = None
    for move, option in decision.options:
        if option == action:
            return move
        if type(option) is type(action) and isinstance(option, (Bet, Raise)):
            assert isinstance(action, (Bet, Raise))
            gap = abs(option.amount - action.amount)
            if best is None or gap < best[0]:
                best = (gap, move)
        elif isinstance(option, Declare) and isinstance(action, Declare):
            if move == 10:  # a higher category than the truth
                return move
        elif isinstance(option, Exchange) and isinstance(action, Exchange):
            return move
    return best[1] if best is not None else None


def imitate(args: tuple[int, int, int]) -> list[Step]:
    """Hands ``start..stop`` of four heuristic bots: their decisions as moves."""
    seed, start, stop = args
    steps: list[Step] = []
    for hand in range(start, stop):
        rng = random.Random(f"imitate/{seed}/{hand}")
        seats = [Imitator(rng.getrandbits(32)) for _ in range(SEATS)]
        state = HandState([f"p{s + 1}" for s in range(SEATS)], [STACK] * SEATS)
        play_hand(state, Dealer.seeded(rng.getrandbits(32)), list(seats))
        for seat in seats:
            steps += seat.steps
    return steps


_MODELS: dict[str, Any] = {}


class Exploiter:
    """A seat played by a MaskablePPO model (``benchmarks/ppo_reference.py --save``) from
    its seat's observation vector and action mask, as in ``primero/Primero-v0`` (4 seats,
    100 chips): the exploiters of the population's last stage. It samples its moves
    with torch's generator, seeded per chunk of hands."""

    def __init__(self, path: str) -> None:
        if path not in _MODELS:
            from sb3_contrib import MaskablePPO

            _MODELS[path] = MaskablePPO.load(path, device="cpu")
        self.model = _MODELS[path]

    def __call__(self, view: SeatView) -> Any:
        from primero.research.actionids import action_of, legal_ids, num_actions
        from primero.research.features import observation_vector

        assert view.legal is not None and view.seat is not None
        legal = legal_ids(view.legal, hand_size=len(view.hand), max_stack=STACK)
        mask = np.zeros(num_actions(STACK), dtype=bool)
        mask[legal] = True
        obs = observation_vector(view, max_stack=STACK)
        chosen, _ = self.model.predict(obs, action_masks=mask, deterministic=False)
        return action_of(int(chosen), seat=view.seat, hand=view.hand, max_stack=STACK)


def _policy(weights: Weights) -> Policy:
    return Policy.from_json(weights)


def play_chunk(
    args: tuple[Weights, list[Weights], int, int, int, list[str]],
) -> list[tuple[str, float, list[Step]]]:
    """Play hands ``start..stop`` of iteration seed ``seed``; return, per learner seat,
    ``(opponent, result in stacks, steps)``. With exploiters (paths of MaskablePPO
    models), they are an opponent kind too (``ppo``, :data:`EXPLOITER_SHARE` of the
    hands), one exploiter against three learner seats."""
    weights, snapshots, seed, start, stop, exploiters = args
    learner = _policy(weights)
    frozen = [_policy(s) for s in snapshots]
    kinds = list(POPULATION)
    shares = list(POPULATION.values())
    if exploiters:
        import torch

        torch.manual_seed(seed * 1_000_003 + start)
        kinds.append("ppo")
        shares = [share * (1 - EXPLOITER_SHARE) for share in shares] + [EXPLOITER_SHARE]
    out: list[tuple[str, float, list[Step]]] = []
    for hand in range(start, stop):
        rng = random.Random(f"{seed}/{hand}")
        kind = rng.choices(kinds, shares)[0]
        if kind == "self" and not frozen:
            kind = "heuristic"
        mine = rng.sample(range(SEATS), 3 if kind == "ppo" else 2)
        agents: list[Agent] = []
        recorders: list[Recorder] = []
        for seat in range(SEATS):
            bot_seed = rng.getrandbits(32)
            if seat in mine:
                recorder = Recorder(ReferenceBot(seed=bot_seed, policy=learner))
                recorders.append(recorder)
                agents.append(recorder)
            elif kind == "self":
                agents.append(ReferenceBot(seed=bot_seed, policy=rng.choice(frozen)))
            elif kind == "ppo":
                agents.append(Exploiter(rng.choice(exploiters)))
            else:
                agents.append(make_bot(kind, bot_seed, search_samples=SEARCH_SAMPLES))
        state = HandState([f"p{s + 1}" for s in range(SEATS)], [STACK] * SEATS)
        play_hand(state, Dealer.seeded(rng.getrandbits(32)), agents)
        for seat, recorder in zip(sorted(mine), recorders, strict=True):
            net = state.result.net[seat] if state.result is not None else 0
            out.append((kind, net / STACK, recorder.steps))
    return out


def git_commit() -> str:
    """The commit of the checkout (``+dirty`` with uncommitted changes), or ``unknown``."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], capture_output=True, text=True)
        return head + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def plot_curve(stages: list[list[dict[str, Any]]], png: Path) -> None:
    """Draw the training curve: chips per 100 hands of a learner seat against each
    opponent, by iteration, stage after stage (a dotted line between two), a moving mean
    over 10 iterations; ``matplotlib``, of the research extra."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows: list[dict[str, Any]] = []
    ends: list[int] = []
    for stage in stages:
        rows += [dict(row, iteration=len(rows) + i + 1) for i, row in enumerate(stage)]
        ends.append(len(rows))
    kinds = [*POPULATION, "ppo"]
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=100)
    for kind in kinds:
        points = [(row["iteration"], row["chips_per_100"].get(kind)) for row in rows]
        xs = [x for x, y in points if y is not None]
        ys = [y for _, y in points if y is not None]
        if not ys:
            continue
        smooth = [float(np.mean(ys[max(0, i - 9) : i + 1])) for i in range(len(ys))]
        label = {"self": "frozen self", "ppo": "PPO exploiter"}.get(kind, kind)
        axes.plot(xs, smooth, label=label)
    for end in ends[:-1]:
        axes.axvline(end + 0.5, color="grey", linestyle=":", linewidth=1)
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_xlabel("iteration (2,000 hands each)")
    axes.set_ylabel("chips per 100 hands, a learner seat")
    axes.set_title("The reference agent's training: results against each opponent")
    axes.legend(loc="upper left", fontsize="small", ncols=4)
    figure.tight_layout()
    figure.savefig(png)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    """Train and write the weights and the curve (see the module docstring)."""
    import torch

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=250)
    parser.add_argument("--hands", type=int, default=2000, help="hands an iteration")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--snapshot-every", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--init", type=Path, help="start from these weights")
    parser.add_argument(
        "--exploiter",
        action="append",
        default=[],
        help="a MaskablePPO model (.zip) to add to the population (repeatable)",
    )
    parser.add_argument(
        "--imitation-hands", type=int, default=20000, help="hands of the imitation phase"
    )
    parser.add_argument("--imitation-epochs", type=int, default=8)
    parser.add_argument("--out", type=Path, default=Path("src/primero/bots/data/reference.json"))
    parser.add_argument("--curve", type=Path, default=Path("docs/figures/reference-curve.json"))
    args = parser.parse_args(argv)

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    first = torch.nn.Linear(len(FEATURES), args.hidden)
    second = torch.nn.Linear(args.hidden, len(MOVES))
    net = torch.nn.Sequential(first, torch.nn.Tanh(), second).double()  # in place
    earlier: dict[str, Any] = json.loads(args.init.read_text()) if args.init is not None else {}
    if args.init is not None:
        start = earlier["policy"]
        with torch.no_grad():
            first.weight.copy_(torch.tensor(start["w1"]).T)
            first.bias.copy_(torch.tensor(start["b1"]))
            second.weight.copy_(torch.tensor(start["w2"]).T)
            second.bias.copy_(torch.tensor(start["b2"]))
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-3)  # the imitation phase
    bits = torch.tensor([1 << m for m in range(len(MOVES))], dtype=torch.int64)

    def weights() -> Weights:
        return {
            "w1": first.weight.detach().T.tolist(),
            "b1": first.bias.detach().tolist(),
            "w2": second.weight.detach().T.tolist(),
            "b2": second.bias.detach().tolist(),
        }

    snapshots: list[Weights] = []
    curve: list[dict[str, Any]] = []
    began = time.process_time()
    with ProcessPoolExecutor(args.workers) as pool:
        if args.init is None and args.imitation_hands > 0:
            size = -(-args.imitation_hands // (args.workers * 4))
            jobs_i = [
                (args.seed, a, min(a + size, args.imitation_hands))
                for a in range(0, args.imitation_hands, size)
            ]
            data = [s for chunk in pool.map(imitate, jobs_i) for s in chunk]
            x_i = torch.tensor([d[0] for d in data], dtype=torch.float64)
            allowed_i = (torch.tensor([d[1] for d in data])[:, None] & bits) != 0
            a_i = torch.tensor([d[2] for d in data])
            order = torch.Generator().manual_seed(args.seed)
            for epoch in range(args.imitation_epochs):
                for batch in torch.randperm(len(data), generator=order).split(4096):
                    logp_b = torch.log_softmax(
                        net(x_i[batch]).masked_fill(~allowed_i[batch], float("-inf")), 1
                    )
                    loss_b = -logp_b.gather(1, a_i[batch, None]).mean()
                    optimizer.zero_grad()
                    loss_b.backward()
                    optimizer.step()
                with torch.no_grad():
                    logp_i = torch.log_softmax(net(x_i).masked_fill(~allowed_i, float("-inf")), 1)
                    loss_i = -logp_i.gather(1, a_i[:, None]).mean()
                    hit = (logp_i.argmax(1) == a_i).double().mean()
                print(
                    json.dumps(
                        {
                            "imitation_epoch": epoch + 1,
                            "decisions": len(data),
                            "loss": round(float(loss_i), 4),
                            "agreement": round(float(hit), 4),
                        }
                    ),
                    flush=True,
                )
        optimizer = torch.optim.Adam(net.parameters(), lr=args.lr)  # a fresh one for PPO
        for iteration in range(args.iterations):
            current = weights()
            size = -(-args.hands // (args.workers * 4))
            jobs = [
                (
                    current,
                    snapshots[-5:],
                    args.seed * 100_003 + iteration,
                    a,
                    min(a + size, args.hands),
                    list(args.exploiter),
                )
                for a in range(0, args.hands, size)
            ]
            results = [r for chunk in pool.map(play_chunk, jobs) for r in chunk]
            by_kind: dict[str, list[float]] = {}
            for kind, result, _ in results:
                by_kind.setdefault(kind, []).append(result)
            means = {k: float(np.mean(v)) for k, v in by_kind.items()}
            features, masks, chosen, advantage = [], [], [], []
            for kind, result, steps in results:
                for x, mask, move in steps:
                    features.append(x)
                    masks.append(mask)
                    chosen.append(move)
                    advantage.append(result - means[kind])
            x_t = torch.tensor(features, dtype=torch.float64)
            allowed = (torch.tensor(masks, dtype=torch.int64)[:, None] & bits) != 0
            a_t = torch.tensor(chosen, dtype=torch.int64)
            adv = torch.tensor(advantage, dtype=torch.float64)
            adv = adv / (adv.std() + 1e-8)

            def logits(x_t: torch.Tensor = x_t, allowed: torch.Tensor = allowed) -> torch.Tensor:
                out: torch.Tensor = net(x_t).masked_fill(~allowed, float("-inf"))
                return out

            with torch.no_grad():
                old = torch.log_softmax(logits(), 1).gather(1, a_t[:, None])[:, 0]
            for _ in range(args.epochs):
                logp_all = torch.log_softmax(logits(), 1)
                logp = logp_all.gather(1, a_t[:, None])[:, 0]
                ratio = torch.exp(logp - old)
                clipped = torch.clamp(ratio, 0.8, 1.2)
                probs = torch.exp(logp_all)
                entropy = -(probs * logp_all.masked_fill(~allowed, 0.0)).sum(1).mean()
                loss = -torch.min(ratio * adv, clipped * adv).mean() - args.entropy * entropy
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            if (iteration + 1) % args.snapshot_every == 0:
                snapshots.append(weights())
            row = {
                "iteration": iteration + 1,
                "cpu_seconds": round(time.process_time() - began, 1),
                "decisions": len(chosen),
                "chips_per_100": {k: round(v * STACK * 100, 1) for k, v in sorted(means.items())},
            }
            curve.append(row)
            print(json.dumps(row), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    settings = {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}
    before = earlier.get("stages", [earlier["arguments"]] if "arguments" in earlier else [])
    args.out.write_text(
        json.dumps(
            {
                "trained_by": "tools/train_reference.py",
                "arguments": settings,
                "stages": [*before, settings],
                "commit": git_commit(),
                "population": POPULATION,
                "policy": weights(),
            }
        )
        + "\n"
    )
    args.curve.parent.mkdir(parents=True, exist_ok=True)
    args.curve.write_text(json.dumps({"arguments": settings, "curve": curve}, indent=1) + "\n")
    curves = [  # the earlier stages' curves, where they are beside their weights
        json.loads(Path(stage["curve"]).read_text())["curve"]
        for stage in before
        if Path(stage["curve"]).is_file() and Path(stage["curve"]) != args.curve
    ]
    plot_curve([*curves, curve], args.curve.with_suffix(".png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
