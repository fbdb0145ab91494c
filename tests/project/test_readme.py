"""The README's Python example runs as written, and its first lines are the two commands."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.paths import ROOT

README = ROOT / "README.md"


def test_the_readme_python_example_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = README.read_text(encoding="utf-8")
    match = re.search(r"```python\n(.*?)```", text, re.S)
    assert match is not None
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        exec(compile(match.group(1), "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert (tmp_path / "hand.prh").exists()
    complete, stacks = out.rstrip().splitlines()[-1].split(" ", 1)
    assert complete == "True"
    assert sum(int(x) for x in stacks.strip("[]").split(", ")) == 400  # chips conserved


def test_the_readme_starts_with_the_two_commands() -> None:
    """The first command plays, the second is ``make test``, and CI runs that same
    command first (then the soak tests and the release check); ``make test`` installs
    from the lock and runs the linters, the format check, the layers and pytest (mypy
    --strict is one of the tests)."""
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks[0].strip().endswith("primero play")
    assert blocks[1].strip() == "make test"
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert ci.index("make test") < ci.index("make soak") < ci.index("make release")
    target = re.search(r"^test:.*?\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M)
    assert target is not None
    recipe = target.group(1)
    for step in ("ruff check", "ruff format --check", "lint-imports", "pytest -n 4"):
        assert step in recipe, step
    assert '-m "not soak and not release"' in recipe  # CI runs those next
    assert (ROOT / "tests" / "project" / "test_types.py").exists()
