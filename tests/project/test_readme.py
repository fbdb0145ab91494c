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
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks[0].strip().endswith("primero play")
    assert "pytest" in blocks[1] and "ruff check" in blocks[1] and "lint-imports" in blocks[1]
    # mypy --strict runs as one of the tests, beside the others on the test run's cores
    assert (ROOT / "tests" / "project" / "test_types.py").exists()
