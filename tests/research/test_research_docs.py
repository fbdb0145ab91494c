"""The Python examples of docs/research.md and of the README's research section run as
written (they need the ``research`` extra)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.paths import ROOT

pytestmark = pytest.mark.needs("pyspiel", "pettingzoo", "gymnasium")


def _blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


def test_research_doc_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = _blocks(ROOT / "docs" / "research.md")
    assert len(blocks) == 8  # and the PPO script (```py): it needs torch, in no extra
    namespace: dict[str, object] = {}
    for block in blocks:  # one session: later examples use names of earlier ones
        exec(compile(block, "docs/research.md", "exec"), namespace)
    returns = capsys.readouterr().out.strip().splitlines()[-1]
    assert sum(float(x) for x in returns.strip("[]").split(", ")) == 0.0  # chips conserved
    assert namespace["mask"].shape == (222,)  # type: ignore[attr-defined]
    # the last game is the mini preset's
    assert namespace["game"].num_players() == 2  # type: ignore[attr-defined]
    assert namespace["mini"].action_space.n == 26  # type: ignore[attr-defined]


def test_readme_research_example_runs() -> None:
    block = next(b for b in _blocks(ROOT / "README.md") if "primero.research.openspiel" in b)
    namespace: dict[str, object] = {}
    exec(compile(block, "README.md", "exec"), namespace)
    assert namespace["game"].num_players() == 5  # type: ignore[attr-defined]
