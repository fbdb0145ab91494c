"""The pure-Python build says once, when the research interfaces are imported, that it
is 2 to 3 times slower and how to compile the core."""

from __future__ import annotations

import subprocess
import sys

import pytest

from primero.research import build
from primero.research.stepper import COMPILED

pytestmark = pytest.mark.needs("pyspiel", "pettingzoo", "gymnasium")


def test_the_pure_build_says_so_once_a_process() -> None:
    code = (
        "import primero.research.openspiel, primero.research.pettingzoo, "
        "primero.research.gymnasium_env"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    if COMPILED:  # the compiled core (a wheel, or a built tree first on the path): silent
        assert "PureBuildWarning" not in run.stderr, run.stderr
        return
    assert run.stderr.count("PureBuildWarning") == 1, run.stderr
    assert "2 to 3 times slower" in run.stderr
    assert "PYTHONPATH=$(python tools/build_compiled.py)" in run.stderr
    assert "pip install ." in run.stderr
    quiet = subprocess.run(
        [sys.executable, "-W", "ignore:primero runs its pure-Python build", "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "PureBuildWarning" not in quiet.stderr


def test_the_compiled_build_says_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build, "_said", [])
    with pytest.warns(build.PureBuildWarning, match="pure-Python build"):
        assert build.warn_if_pure(compiled=False) is True
    assert build.warn_if_pure(compiled=False) is False  # once a process
    monkeypatch.setattr(build, "_said", [])
    assert build.warn_if_pure(compiled=True) is False
