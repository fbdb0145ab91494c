"""Start-up cost of ``primero`` commands: CPU time of whole processes, old code against new.

Usage::

    python benchmarks/bench_startup.py [--runs N] [--old SRC]

Each case is a fresh interpreter (this one, ``sys.executable``), timed by its CPU time
(user + system, from ``resource.getrusage(RUSAGE_CHILDREN)``), which stays fair when
another process shares the machine:

- ``primero simulate --bots random --players 6 --hands 1 --seed 1 --quiet`` (the start-up
  part of the README's random-play figure, benchmarks/bench_engine.py (a));
- ``primero --version``;
- ``python -c "import primero.cli"``;
- ``python -c "import primero.research.fastsim"``;
- a bare interpreter (``python -c pass``), the yardstick of the goals below;
- the console script ``primero --version`` as a user runs it (the ``primero`` script
  beside this interpreter, else ``python -m primero``);
- the terminal table's first screen: ``primero play``'s imports, then the table app run
  headless at 80×24 until its first screen is drawn (the person's first turn, seed 1).

At the end it prints the start-up goals, measured in this same run: the
console script's ``--version`` within 3× the bare interpreter's CPU (medians), and the
table's first screen within 1 s of CPU.

With ``--old SRC`` (say ``../main/src``, another checkout's source folder), every case is
also run with ``PYTHONPATH=SRC``, so that ``import primero`` finds that code first; old
and new runs alternate, N of each, and the report gives min, median and max per case in
milliseconds. Without ``--old`` only this checkout's code is measured.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

#: The ``primero`` console script, as this interpreter's ``python -c`` runs it.
_MAIN = "import sys; from primero.cli import main; sys.argv[0] = 'primero'; main()"

#: The table's first screen: what ``primero play`` imports, then the app until drawn.
_FIRST_SCREEN = """
from primero.cli import main  # the command line, as primero play loads it
from primero.play.table import TableConfig
from primero.tui.play import TableApp

class FirstScreen(TableApp):
    def on_mount(self) -> None:
        super().on_mount()
        self.call_after_refresh(self.exit)

FirstScreen(TableConfig(seed=1), bot_delay=0).run(headless=True, size=(80, 24))
"""

#: The cases: a name and the interpreter's arguments.
CASES: tuple[tuple[str, list[str]], ...] = (
    (
        "simulate --hands 1",
        [
            "-c",
            _MAIN,
            "simulate",
            "--bots",
            "random",
            "--players",
            "6",
            "--hands",
            "1",
            "--seed",
            "1",
            "--quiet",
        ],
    ),
    ("cli.main --version", ["-c", _MAIN, "--version"]),  # without the fast path
    ("import primero.cli", ["-c", "import primero.cli"]),
    ("import primero.research.fastsim", ["-c", "import primero.research.fastsim"]),
    ("bare interpreter", ["-c", "pass"]),
    ("console --version", ["-m", "primero", "--version"]),
    ("table first screen", ["-c", _FIRST_SCREEN]),
)


def _console_script() -> list[str] | None:
    """The ``primero`` console script beside this interpreter, if installed there."""
    script = Path(sys.executable).with_name("primero")
    return [str(script)] if script.exists() else None


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_ms(args: list[str], src: Path | None) -> float:
    """CPU milliseconds (user + system) of one ``python ARGS`` process.

    Args:
        args: the interpreter's arguments.
        src: a source folder put first on ``PYTHONPATH`` (old code), or None.

    Raises:
        subprocess.CalledProcessError: the process failed.
    """
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    else:
        env.pop("PYTHONPATH", None)
    command = [sys.executable, *args]
    script = _console_script()
    if args[:2] == ["-m", "primero"] and script is not None and src is None:
        command = [*script, *args[2:]]  # the console script itself, as a user runs it
    before = _children_cpu()
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    return 1000 * (_children_cpu() - before)


def _summary(values: list[float]) -> str:
    return f"{min(values):6.0f} {statistics.median(values):6.0f} {max(values):6.0f}"


def main() -> None:
    """Run the cases and print min, median and max CPU milliseconds of each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each case and code")
    parser.add_argument("--old", type=Path, default=None, help="source folder of old code")
    opts = parser.parse_args()
    sources: list[tuple[str, Path | None]] = [("new", None)]
    if opts.old is not None:
        sources.insert(0, ("old", opts.old.resolve()))
    print(f"CPU ms (user + system) of whole processes, {opts.runs} runs each: min median max")
    medians: dict[str, float] = {}
    for name, args in CASES:
        times: dict[str, list[float]] = {label: [] for label, _ in sources}
        for _ in range(opts.runs):
            for label, src in sources:  # old and new alternate
                times[label].append(cpu_ms(args, src))
        for label, _ in sources:
            print(f"  {name:24} {label}: {_summary(times[label])}")
        medians[name] = statistics.median(times["new"])
    bare = medians["bare interpreter"]
    version = medians["console --version"]
    first = medians["table first screen"]
    print("Goals, medians of this run:")
    print(
        f"  console --version: {version:.0f} ms = {version / bare:.1f}x the bare "
        f"interpreter's {bare:.0f} ms (goal: at most 3x) "
        + ("ok" if version <= 3 * bare else "MISSED")
    )
    print(
        f"  table first screen: {first:.0f} ms (goal: at most 1000 ms) "
        + ("ok" if first <= 1000 else "MISSED")
    )


if __name__ == "__main__":
    main()
