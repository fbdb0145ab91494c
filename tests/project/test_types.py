"""``mypy --strict`` over the package, the tests, the benchmarks and the tools (the
files of ``[tool.mypy]`` in pyproject.toml) is clean.

Run as a test so that it shares the test run's two cores with the other tests instead
of running before them: a fresh clone's first ``mypy`` (no ``.mypy_cache``) takes about
half a minute of one core, a repeated one under a second. ``make check`` runs it on its
own too.
"""

from __future__ import annotations

import subprocess
import sys

from tests.paths import ROOT


def test_mypy_strict_finds_no_error() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, f"mypy --strict found errors:\n{run.stdout}{run.stderr}"
    assert "Success: no issues found" in run.stdout, run.stdout
