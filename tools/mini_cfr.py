"""Solve Mini-Primero with OpenSpiel's CFR, CFR+ and external-sampling MCCFR; write the
exploitability curves and the policy the ``cfr`` bot plays.

Usage::

    python tools/mini_cfr.py [--iterations N] [--mccfr-iterations M] [--out DIR]

1. Walks the whole tree of ``python_primero(preset=mini)`` (:mod:`primero.research.mini`)
   through pyspiel (``chance_outcomes``, ``legal_actions``, ``apply_action``,
   ``information_state_string``, ``returns``) and writes it as a Gambit ``.efg`` game:
   every information state is named by its ``information_state_string`` and every
   action by its action id, so the tree is the same game, node for node.
2. Loads it as OpenSpiel's ``efg_game`` (C++) and runs ``pyspiel.CFRSolver``,
   ``pyspiel.CFRPlusSolver`` and ``pyspiel.ExternalSamplingMCCFRSolver`` on it,
   measuring ``pyspiel.exploitability`` of the average policy at 1, 2, 4, 8, ...
   iterations (chips per hand: the mean of the two best responses' gains).
3. Writes ``curves.json`` (the curves, the tree's size, the load and the timings) to
   ``--out`` (default ``docs/figures``), ``mini_cfr.png`` there (matplotlib if installed),
   and the CFR+ average policy to ``src/primero/research/data/mini_cfr_policy.json.gz``
   with the fingerprint (:func:`primero.research.cfrbot.fingerprint`) of everything
   it depends on, which ``tests/research/test_mini.py`` recomputes.

``--check-python`` instead measures OpenSpiel's Python ``exploitability`` of the shipped
policy on ``python_primero(preset=mini)`` itself (no efg_game: about 1.5 CPU minutes),
which must agree with the efg_game's figure in the policy file.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pyspiel

import primero.research.openspiel  # noqa: F401 - registers python_primero
from primero.research.cfrbot import POLICY_PATH, fingerprint

ROOT = Path(__file__).resolve().parent.parent


class EfgWriter:
    """Writes a pyspiel game's whole tree as Gambit ``.efg`` text (two players)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.infosets: list[dict[str, int]] = [{}, {}]
        self.legal: dict[str, list[int]] = {}
        self.actions: dict[str, int] = {}
        self.outcomes: dict[str, int] = {}
        self.payoffs: dict[tuple[float, ...], int] = {}
        self.chance_nodes = 0
        self.nodes = 0

    def _order(self, names: list[str], known: dict[str, int]) -> list[str]:
        """``names`` in the order efg_game gives them ids (first appearance), so that
        its sorted ids follow the children as written."""
        old = sorted((n for n in names if n in known), key=known.__getitem__)
        new = [n for n in names if n not in known]
        for n in new:
            known[n] = len(known)
        return old + new

    def walk(self, state: Any) -> None:
        """Write ``state``'s subtree (depth first, as the format wants)."""
        self.nodes += 1
        if state.is_terminal():
            payoff = tuple(state.returns())
            number = self.payoffs.setdefault(payoff, len(self.payoffs) + 1)
            self.lines.append(f't "" {number} "" {{ {payoff[0]:g} {payoff[1]:g} }}')
            return
        if state.is_chance_node():
            self.chance_nodes += 1
            probs = dict(state.chance_outcomes())
            names = self._order([str(a) for a in probs], self.outcomes)
            body = " ".join(f'"{n}" {probs[int(n)]!r}' for n in names)
            self.lines.append(f'c "" {self.chance_nodes} "" {{ {body} }} 0')
        else:
            player = state.current_player()
            info = state.information_state_string(player)
            number = self.infosets[player].setdefault(info, len(self.infosets[player]) + 1)
            legal = state.legal_actions()
            self.legal.setdefault(info, legal)
            names = self._order([str(a) for a in legal], self.actions)
            body = " ".join(f'"{n}"' for n in names)
            self.lines.append(f'p "" {player + 1} {number} "{info}" {{ {body} }} 0')
        for name in names:
            child = state.clone()
            child.apply_action(int(name))
            self.walk(child)

    def text(self) -> str:
        head = 'EFG 2 R "Mini-Primero" { "p1" "p2" }\n'
        return head + "\n".join(self.lines) + "\n"


def policy_of(game: Any, tabular: Any, writer: EfgWriter) -> dict[str, list[list[float]]]:
    """The efg_game policy as ``{information state: [[action id, probability], ...]}``."""
    names = {v: int(k) for k, v in writer.actions.items()}
    out: dict[str, list[list[float]]] = {}
    table = tabular.policy_table()
    for player in (0, 1):
        for info, number in writer.infosets[player].items():
            key = f"{player}-{player}-{number}-{info}"
            pairs = table[key]
            out[info] = [[names[a], round(p, 6)] for a, p in pairs]
    return out


def curve(solver: Any, game: Any, iterations: int, step: Any) -> list[list[float]]:
    """``[iteration, exploitability, seconds]`` at 1, 2, 4, ... and ``iterations``."""
    points: list[list[float]] = []
    marks = {1 << k for k in range(30) if 1 << k <= iterations} | {iterations}
    t0 = time.process_time()
    for i in range(1, iterations + 1):
        step(solver)
        if i in marks:
            spent = time.process_time() - t0
            points.append([i, pyspiel.exploitability(game, solver.average_policy()), spent])
            print(f"  {i:6d} iterations: exploitability {points[-1][1]:.5f}", flush=True)
    return points


def main() -> None:
    """Walk, solve, write."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=256, help="CFR and CFR+ (256)")
    parser.add_argument("--mccfr-iterations", type=int, default=0, help="external sampling")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures")
    parser.add_argument("--policy", type=Path, default=POLICY_PATH)
    parser.add_argument(
        "--replot",
        action="store_true",
        help="only redraw the figure from the curves already written",
    )
    parser.add_argument(
        "--check-python",
        action="store_true",
        help="the shipped policy's exploitability on python_primero itself",
    )
    args = parser.parse_args()
    if args.check_python:
        check_python(args.policy)
        return
    if args.replot:
        plot(json.loads((args.out / "mini_cfr_curves.json").read_text()), args.out / "mini_cfr.png")
        return
    sys.setrecursionlimit(10_000)
    load = os.getloadavg()[0]

    t0 = time.process_time()
    game = pyspiel.load_game("python_primero", {"preset": "mini"})
    writer = EfgWriter()
    writer.walk(game.new_initial_state())
    walk_s = time.process_time() - t0
    infosets = [len(d) for d in writer.infosets]
    print(
        f"tree: {writer.nodes:,} nodes, {writer.chance_nodes:,} chance nodes, "
        f"information states {infosets} ({walk_s:.0f} CPU s)",
        flush=True,
    )
    efg = pyspiel.load_efg_game(writer.text())

    results: dict[str, Any] = {
        "game": "python_primero(preset=mini)",
        "nodes": writer.nodes,
        "chance_nodes": writer.chance_nodes,
        "information_states": infosets,
        "walk_cpu_s": walk_s,
        "load_average": load,
    }
    print("CFR", flush=True)
    cfr = pyspiel.CFRSolver(efg)
    results["cfr"] = curve(cfr, efg, args.iterations, lambda s: s.evaluate_and_update_policy())
    print("CFR+", flush=True)
    plus = pyspiel.CFRPlusSolver(efg)
    results["cfr_plus"] = curve(
        plus, efg, args.iterations, lambda s: s.evaluate_and_update_policy()
    )
    if args.mccfr_iterations:
        print("external-sampling MCCFR", flush=True)
        mc = pyspiel.ExternalSamplingMCCFRSolver(efg, 1, pyspiel.MCCFRAverageType.SIMPLE)
        results["mccfr_external"] = curve(
            mc, efg, args.mccfr_iterations, lambda s: s.run_iteration()
        )
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "mini_cfr_curves.json").write_text(json.dumps(results, indent=1) + "\n")

    policy = policy_of(efg, plus.tabular_average_policy(), writer)
    meta = {
        "fingerprint": fingerprint(),
        "generator": "tools/mini_cfr.py",
        "algorithm": "CFR+ (pyspiel.CFRPlusSolver) average policy",
        "iterations": args.iterations,
        "exploitability": results["cfr_plus"][-1][1],
        "information_states": len(policy),
    }
    data = json.dumps({"meta": meta, "policy": policy}, sort_keys=True, separators=(",", ":"))
    args.policy.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(args.policy, "wb", mtime=0) as f:
        f.write(data.encode())
    print(f"policy: {len(policy):,} information states -> {args.policy}")
    plot(results, args.out / "mini_cfr.png")


def check_python(path: Path) -> None:
    """Print OpenSpiel's Python exploitability of the policy file on the Python game."""
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import exploitability

    from primero.research.cfrbot import load_policy

    t0 = time.process_time()
    game = pyspiel.load_game("python_primero", {"preset": "mini"})
    meta, table = load_policy(path)
    tabular = policy_lib.TabularPolicy(game)
    for info, row in tabular.state_lookup.items():
        probs = tabular.action_probability_array[row]
        probs[:] = 0.0
        for action, p in table[info]:
            probs[int(action)] = p
        probs /= probs.sum()
    value = exploitability.exploitability(game, tabular)
    print(
        f"python_primero(preset=mini): exploitability {value:.4g} "
        f"(efg_game: {meta['exploitability']:.4g}); {time.process_time() - t0:.0f} CPU s"
    )


def plot(results: dict[str, Any], path: Path) -> None:
    """The exploitability curves, log-log (skipped without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no figure")
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    for key, label in (
        ("cfr", "CFR"),
        ("cfr_plus", "CFR+"),
        ("mccfr_external", "MCCFR (external sampling)"),
    ):
        if key in results:
            xs, ys = [p[0] for p in results[key]], [p[1] for p in results[key]]
            ax.loglog(xs, ys, marker="o", label=label)
    ax.set_xlabel("iterations")
    ax.set_ylabel("exploitability (chips per hand)")
    ax.set_title(
        f"Mini-Primero: {results['nodes']:,} nodes, "
        f"{sum(results['information_states']):,} information states",
        fontsize=10,
    )
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print(f"figure: {path}")


if __name__ == "__main__":
    main()
