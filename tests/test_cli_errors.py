"""Command-line errors found by a new user: each is one clear message with exit code 2,
nothing written, never a traceback; and cards typed as at the table (R1 notation read
leniently) work in ``eval`` and ``odds`` too."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from primero.cli import app

runner = CliRunner()


def _said(output: str) -> str:
    """The output's words, without Rich's box and line breaks."""
    return " ".join(output.replace("│", " ").split())


def test_eval_reads_cards_as_typed_at_the_table() -> None:
    # K♣ 7♥ 6♥ A♥: a supremus (R2: 7, 6 and ace of one suit), 21 + 18 + 16 = 55 points
    result = runner.invoke(app, ["eval", "kc", "7H", "6♡", "A♥️"])
    assert result.exit_code == 0, result.output
    assert "supremus" in result.output
    assert "55" in result.output


def test_eval_still_refuses_an_unknown_card() -> None:
    result = runner.invoke(app, ["eval", "zz", "7h", "6h", "ah"])
    assert result.exit_code == 2
    assert "unknown card 'zz'" in result.output


def test_odds_reads_cards_as_typed_at_the_table() -> None:
    typed = runner.invoke(app, ["odds", "kc", "7H", "--json"])
    plain = runner.invoke(app, ["odds", "Kc", "7h", "--json"])
    assert typed.exit_code == 0, typed.output
    assert typed.output == plain.output


def test_odds_refuses_a_card_both_held_and_dead() -> None:
    result = runner.invoke(app, ["odds", "7h", "6h", "--dead", "7H"])
    assert result.exit_code == 2
    assert "both in the seat's hand and among the dead cards" in result.output


def test_tournament_into_a_file_is_refused_before_any_hand(tmp_path: Path) -> None:
    target = tmp_path / "c.html"
    target.write_text("mine\n")
    result = runner.invoke(
        app, ["tournament", "--bots", "random,heuristic", "--hands", "5", "--out", str(target)]
    )
    assert result.exit_code == 2, result.output
    assert "is a file, not a folder" in _said(result.output)
    assert target.read_text() == "mine\n"


def test_tournament_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "ro").write_text("")
    result = runner.invoke(
        app,
        ["tournament", "--bots", "random,heuristic", "--hands", "5",
         "--out", str(tmp_path / "ro" / "sub")],
    )
    assert result.exit_code == 2, result.output
    assert "is a file" in _said(result.output)


def test_serve_refuses_a_port_out_of_range() -> None:
    result = runner.invoke(app, ["serve", "--port", "99999"])
    assert result.exit_code == 2
    assert "--port" in result.output


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from primero.cli import main; main()", "serve", *args],
        capture_output=True, text=True, timeout=60, check=False,
    )


def test_serve_with_an_unknown_database_kind_is_one_line(tmp_path: Path) -> None:
    done = _serve("--database-url", "nonsense://x", "--port", "0")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "primero: cannot use --database-url: Can't load plugin: sqlalchemy.dialects:nonsense"
    )
    assert "Traceback" not in done.stdout + done.stderr


def test_serve_on_a_taken_port_is_one_line(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        url = f"sqlite:///{tmp_path / 'x.db'}"
        done = _serve("--port", str(port), "--database-url", url)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"primero: port {port} on 127.0.0.1 is taken (another server?); "
        "choose another with --port"
    )
    assert "Traceback" not in done.stdout + done.stderr
    assert not (tmp_path / "x.db").exists()  # refused before the database is touched


def test_serve_with_an_unreachable_sqlite_file_is_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'missing-dir' / 'x.db'}"
    done = _serve("--database-url", url, "--port", "0")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("primero: cannot use --database-url:")
    assert "unable to open database file" in lines[0]
