"""Small things a new user ran into (fix-cli item 7): plurals ("1 seat", "1 table a
minute"), a ``$PAGER`` that names a missing program, a corrupt saved match, and a JSON
record saved as ``.prh``."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from primero.cli import app
from primero.cli.commands_info import RulesPager
from primero.server import Settings, create_app

runner = CliRunner()


def test_simulate_says_one_seat() -> None:
    # four seats, one heuristic and three random: the per-kind rows say 1 seat, 3 seats
    result = runner.invoke(
        app,
        [
            "simulate",
            "--players",
            "4",
            "--bots",
            "heuristic,random,random,random",
            "--hands",
            "2",
            "--seed",
            "1",
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = [" ".join(line.replace("│", " ").split()) for line in result.output.splitlines()]
    assert any(row.startswith("all heuristic 1 seat ") for row in rows), rows
    assert any(row.startswith("all random 3 seats ") for row in rows), rows


def test_the_server_says_one_table_a_minute(tmp_path: Path) -> None:
    now = [1_700_000_000.0]
    app_ = create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'r.db'}",
            bot_pause=0,
            create_rate=1,
            max_tables=0,
            wall_clock=lambda: now[0],
        )
    )
    with TestClient(app_) as client:
        assert client.post("/api/tables", json={"seats": ["open"] * 4}).status_code == 201
        refused = client.post("/api/tables", json={"seats": ["open"] * 4})
    assert refused.status_code == 429
    assert refused.json()["detail"] == (
        "at most 1 table a minute from one address: try again in 60 seconds"
    )


def test_a_pager_that_is_not_installed_prints_the_rules(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("MANPAGER", raising=False)
    monkeypatch.setenv("PAGER", "no-such-pager-xyz -R")
    RulesPager().show("R1 The cards\n")
    out, err = capsys.readouterr()
    assert out == "R1 The cards\n"
    assert err == (
        "primero: $PAGER is 'no-such-pager-xyz -R', a program that is not installed: "
        "printing the rules without a pager\n"
    )


def test_resume_says_why_a_corrupt_save_cannot_be_read(tmp_path: Path) -> None:
    (tmp_path / "m.match.json").write_text("{oops")
    result = runner.invoke(app, ["play", "--resume", "--save-dir", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(
        f"primero: cannot resume: no unfinished match could be read in {tmp_path}: "
        f"{tmp_path / 'm.match.json'}: cannot be read as a saved match (Expecting property "
        "name enclosed in double quotes"
    )


def test_a_json_record_saved_as_prh_gets_a_hint(tmp_path: Path) -> None:
    path = tmp_path / "hand.prh"
    path.write_text('{"variant": "primero", "players": ["A", "B"]}\n')
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert said.startswith(f"{path}: invalid record: not valid TOML: ")
    assert said.endswith(
        "(this looks like a JSON record: JSON records are read from files named .json, "
        "e.g. hand.json)"
    )


def _said(output: str) -> str:
    return " ".join(output.replace("│", " ").replace("╭", " ").replace("╰", " ").split())


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "--plain", "--players", "1"], "primero: --players must be 4 to 6, not 1"),
        (
            ["play", "--plain", "--ties", "foo"],
            "Invalid value for --ties: give eldest or split, not 'foo'",
        ),
        (
            ["cheatsheet", "-f", "docx"],
            "Invalid value for --format: give md, html or pdf, not 'docx'",
        ),
    ],
)
def test_bad_options_are_said_without_api_names(args: list[str], words: str) -> None:
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 2, result.output
    assert words in _said(result.output)
    assert "Value error" not in result.output and "min_players" not in result.output


def test_verify_names_an_unreadable_record_once(tmp_path: Path) -> None:
    missing = tmp_path / "gone.toml"
    result = runner.invoke(app, ["verify", str(missing)], env={"COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    assert _said(result.output) == (
        f"{missing}: not verifiable: the record cannot be read: cannot read {missing}: "
        "No such file or directory"
    )
