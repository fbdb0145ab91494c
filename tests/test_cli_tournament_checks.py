"""``primero tournament`` and ``simulate`` checks a new user ran into (fix-cli item 5):
missing ratings are said on screen, a stack everyone is all-in with on the ante is
refused as play and simulate refuse it (Rules.check_stacks, R4.1), and both commands
refuse a negative seed alike (R10)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.cli import app

runner = CliRunner()


def _said(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


def test_ratings_without_openskill_are_said_on_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "openskill.models", None)  # import fails: not installed
    monkeypatch.setitem(sys.modules, "openskill", None)
    out = tmp_path / "t"
    result = runner.invoke(
        app,
        ["tournament", "--bots", "random,heuristic", "--hands", "2", "--no-plots",
         "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert json.loads((out / "results.json").read_text())["ratings"] is None
    assert (
        "no ratings (results.json has \"ratings\": null): openskill is missing: "
        "pip install -e '.[research]'"
    ) in _said(result.output)


def test_a_stack_of_one_chip_is_refused_as_play_and_simulate_refuse_it(tmp_path: Path) -> None:
    message = (
        "the ante (1 chip) must be less than the starting stack (1 chip) of at least two "
        "players"
    )
    out = tmp_path / "t"
    result = runner.invoke(
        app, ["tournament", "--bots", "random,heuristic", "--stack", "1", "--out", str(out)]
    )
    assert result.exit_code == 2, result.output
    assert message in _said(result.output)
    assert not out.exists()
    simulated = runner.invoke(app, ["simulate", "--stack", "1"])
    assert simulated.exit_code == 2 and message in _said(simulated.output)


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_a_negative_seed_is_refused_by_both(command: str, tmp_path: Path) -> None:
    result = runner.invoke(app, [command, "--seed", "-1", "--out", str(tmp_path / "t")]
                           if command == "tournament" else [command, "--seed", "-1"])
    assert result.exit_code == 2, result.output
    assert "the seed must be >= 0, not -1" in _said(result.output)
