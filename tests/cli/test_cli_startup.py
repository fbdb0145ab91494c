"""``primero --version`` answered before the command line loads.

No timing here: what the fast path loads is checked in a fresh interpreter; the CPU
figures are in benchmarks/bench_startup.py.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys

from primero.__main__ import version


def test_the_version_is_the_installed_distributions() -> None:
    assert version() == importlib.metadata.version("primero")


def test_version_loads_no_command_line() -> None:
    code = (
        "import sys, json\n"
        "sys.argv = ['primero', '--version']\n"
        "from primero.__main__ import main\n"
        "main()\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, last = done.stdout.splitlines()[0], done.stdout.splitlines()[-1]
    assert first == f"primero {importlib.metadata.version('primero')}"
    loaded = set(json.loads(last))
    heavy = {"typer", "rich", "click", "primero.cli", "importlib.metadata"}
    assert not heavy & loaded, heavy & loaded


def test_anything_else_goes_to_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "primero", "rules", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "primero rules [OPTIONS]" in done.stdout
