"""Random-play speed: ``primero simulate`` against pokerkit, side by side in one run.

Usage::

    python benchmarks/bench_engine.py [--hands N] [--checked-hands M] [--seconds S]
                                      [--limit-hands L] [--no-compiled]

It measures, in this order and on this machine:

(a) ``primero simulate --bots random --players 6 --hands N --seed 1 --quiet`` as a whole
    subprocess, timed end to end (interpreter start, imports, play, table): with every
    bot random the command runs on the trusted kernel :mod:`primero.research.fastsim`.
    Twice: (a1) with the mypyc-compiled kernel and rules of a wheel install, built by
    ``tools/build_compiled.py`` (skipped with a message where nothing can be compiled,
    or with ``--no-compiled``), and (a2) with the pure-Python modules as imported here
    (an editable install: the README's commands);
(b) the checked engine on the same scheme (``simulate(..., fast=False)``: HandState
    with validation, a view per decision, RandomBot, Dealer), in process, M hands;
(c) pokerkit playing random 6-player no-limit 2-7 single draw (random legal actions,
    every automation on) for S seconds, in process; skipped with a message when pokerkit
    is not importable (``pip install -e '.[bench]'``);
(d) the bare-lookup limit, in process: L hands of only what every random 6-player hand
    must do at the least, in pure Python: deal 4 cards to each seat (``random()`` and
    ``pop`` from the 40-card stock) and look up each seat's hand in the evaluator's table
    (:func:`primero.engine.hands.value_by_mask`), with no betting, exchange or pot.

It prints the hands per second of each and the ratios (a)/(c), (a)/(b) and (a)/(d). The
goal (docs/performance.md) is (a)/(c) >= 50 in wall-clock time. Each figure is also
given per second of CPU time (user + system; for (a) the child process's), which
stays fair when other processes share the machine and stretch the wall clock.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any, NamedTuple


class Rate(NamedTuple):
    """Hands per second of wall-clock time and of CPU time."""

    wall: float
    cpu: float

    def __str__(self) -> str:
        return f"{self.wall:9,.0f} hands/s ({self.cpu:,.0f} per CPU second)"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def simulate_command() -> list[str]:
    """The command line that starts ``primero`` with this interpreter's environment."""
    script = Path(sys.executable).parent / "primero"
    if script.exists():
        return [str(script)]
    found = shutil.which("primero")
    if found is not None:
        return [found]
    return [sys.executable, "-c", "from primero.cli import main; main()"]


def compiled_tree() -> Path | None:
    """A copy of the package with the mypyc-compiled modules (tools/build_compiled.py), or
    None (with a message) where nothing can be compiled."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    import build_compiled

    reason = build_compiled.why_not()
    if reason is not None:
        print(f"(a1) compiled kernel: cannot compile here ({reason}), skipped")
        return None
    return build_compiled.build_tree()


def bench_simulate_process(hands: int, pythonpath: Path | None = None) -> Rate:
    """(a) Hands per second of a whole ``primero simulate`` process, end to end.

    Args:
        hands: hands to simulate.
        pythonpath: a folder put first on the child's import path (the compiled copy).

    Raises:
        subprocess.CalledProcessError: the command failed.
    """
    cmd = [
        *simulate_command(),
        "simulate",
        "--bots",
        "random",
        "--players",
        "6",
        "--hands",
        str(hands),
        "--seed",
        "1",
        "--quiet",
    ]
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(pythonpath), env.get("PYTHONPATH")]))
        probe = "import primero.research.fastsim as f; print(f.__file__)"
        where = subprocess.run(
            [sys.executable, "-c", probe], env=env, check=True, capture_output=True, text=True
        ).stdout
        if not where.strip().endswith((".so", ".pyd")):
            raise RuntimeError(f"the compiled copy imports {where.strip()}")
    cpu = _children_cpu()
    started = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - started
    return Rate(hands / wall, hands / max(_children_cpu() - cpu, 1e-9))


def bench_checked(hands: int) -> Rate:
    """(b) Hands per second of the checked engine on the same matches, in process."""
    from primero.cli.commands_simulate import simulate

    cpu = time.process_time()
    started = time.perf_counter()
    simulate(hands, 6, ["random"], 1, fast=False)
    wall = time.perf_counter() - started
    return Rate(hands / wall, hands / max(time.process_time() - cpu, 1e-9))


def bench_bare_lookup(hands: int) -> Rate:
    """(d) Hands per second of dealing 6 hands of 4 cards and looking each up, nothing else."""
    from primero.engine.hands import value_by_mask

    table = value_by_mask()
    bits = [1 << i for i in range(40)]
    deck = list(range(40))
    rand = random.Random(1).random
    cpu = time.process_time()
    started = time.perf_counter()
    for _ in range(hands):
        stock = deck[:]
        pop = stock.pop
        size = 40
        for _ in range(6):
            mask = bits[pop(int(rand() * size))] | bits[pop(int(rand() * (size - 1)))]
            mask |= bits[pop(int(rand() * (size - 2)))] | bits[pop(int(rand() * (size - 3)))]
            size -= 4
            table[mask]
    wall = time.perf_counter() - started
    return Rate(hands / wall, hands / max(time.process_time() - cpu, 1e-9))


def pokerkit_hand(module: Any, autos: tuple[Any, ...], rng: random.Random) -> None:
    """One hand of 6-player no-limit 2-7 single draw, every action chosen at random.

    Each legal kind (fold, check/call, bet/raise, discard) is equally likely; amounts
    are uniform between the minimum and the maximum; a discard throws a uniform number
    of the first hole cards.
    """
    st = module.NoLimitDeuceToSevenLowballSingleDraw.create_state(autos, True, 0, (1, 2), 2, 200, 6)
    while st.status:
        opts = []
        if st.can_fold():
            opts.append("f")
        if st.can_check_or_call():
            opts.append("c")
        if st.can_complete_bet_or_raise_to():
            opts.append("r")
        if st.can_stand_pat_or_discard():
            opts.append("d")
        kind = opts[int(rng.random() * len(opts))]
        if kind == "f":
            st.fold()
        elif kind == "c":
            st.check_or_call()
        elif kind == "r":
            lo = st.min_completion_betting_or_raising_to_amount
            hi = st.max_completion_betting_or_raising_to_amount
            st.complete_bet_or_raise_to(lo + int(rng.random() * (hi - lo + 1)))
        else:
            hole = st.hole_cards[st.stand_patter_or_discarder_index]
            st.stand_pat_or_discard(hole[: int(rng.random() * (len(hole) + 1))])


def bench_pokerkit(seconds: float) -> Rate | None:
    """(c) Hands per second of pokerkit random play, or None when it is not installed."""
    try:
        import pokerkit
    except ImportError:
        return None
    warnings.filterwarnings("ignore", category=UserWarning, module="pokerkit")
    autos = tuple(pokerkit.Automation)
    rng = random.Random(1)
    played = 0
    cpu = time.process_time()
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        pokerkit_hand(pokerkit, autos, rng)
        played += 1
    wall = time.perf_counter() - started
    return Rate(played / wall, played / max(time.process_time() - cpu, 1e-9))


def main(argv: list[str] | None = None) -> int:
    """Run the three measurements and print figures and ratios; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--hands", type=int, default=100_000, help="hands for primero simulate (default 100000)"
    )
    parser.add_argument(
        "--checked-hands",
        type=int,
        default=3_000,
        help="hands for the checked engine (default 3000)",
    )
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="seconds of pokerkit play (default 5)"
    )
    parser.add_argument(
        "--limit-hands",
        type=int,
        default=200_000,
        help="hands for the bare-lookup limit (default 200000)",
    )
    parser.add_argument("--no-compiled", action="store_true", help="skip the compiled kernel (a1)")
    args = parser.parse_args(argv)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load} "
        "(other processes stretch wall-clock figures; CPU-second figures less so)"
    )

    tree = None if args.no_compiled else compiled_tree()
    compiled = None if tree is None else bench_simulate_process(args.hands, tree)
    if compiled is not None:
        print(
            f"(a1) primero simulate --bots random --players 6, compiled:    {compiled}"
            f"  [{args.hands:,} hands]"
        )
    pure = bench_simulate_process(args.hands)
    print(
        f"(a2) primero simulate --bots random --players 6, pure Python: {pure}"
        f"  [{args.hands:,} hands]"
    )
    fast = pure if compiled is None else compiled
    checked = bench_checked(args.checked_hands)
    print(
        f"(b) checked engine (HandState, views, RandomBot, Dealer):      {checked}"
        f"  [{args.checked_hands:,} hands]"
    )
    peer = bench_pokerkit(args.seconds)
    if peer is None:
        print("(c) pokerkit: not importable, skipped (pip install -e '.[bench]')")
    else:
        print(
            f"(c) pokerkit, random 6-player no-limit 2-7 single draw:        {peer}"
            f"  [{args.seconds:g} s]"
        )
    limit = bench_bare_lookup(args.limit_hands)
    print(
        f"(d) bare-lookup limit (deal 6x4 cards, 6 table lookups, pure Python): {limit}"
        f"  [{args.limit_hands:,} hands]"
    )
    which = "(a1)" if compiled is not None else "(a2)"
    print(
        f"ratios below for {which}; (a1)/(a2): "
        + ("-" if compiled is None else f"{compiled.cpu / pure.cpu:.2f}x CPU")
    )
    print(
        f"ratio (a)/(d), primero simulate vs bare-lookup limit: {fast.wall / limit.wall:5.2f}x"
        f" wall, {fast.cpu / limit.cpu:5.2f}x CPU"
    )
    print(
        f"ratio (a)/(b), primero simulate vs checked engine: {fast.wall / checked.wall:5.1f}x"
        f" wall, {fast.cpu / checked.cpu:5.1f}x CPU"
    )
    if peer is not None:
        verdict = "meets" if fast.wall / peer.wall >= 50 else "misses"
        print(
            f"ratio (a)/(c), primero simulate vs pokerkit:       {fast.wall / peer.wall:5.1f}x"
            f" wall, {fast.cpu / peer.cpu:5.1f}x CPU ({verdict} the 50x goal)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
