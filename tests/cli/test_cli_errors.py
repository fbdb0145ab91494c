"""Command-line errors found by a new user: each is one clear message with exit code 2,
nothing written, never a traceback; and cards typed as at the table (R1 notation read
leniently) work in ``eval`` and ``odds`` too."""

from __future__ import annotations

import socket
from pathlib import Path

from typer.testing import CliRunner, Result

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
        [
            "tournament",
            "--bots",
            "random,heuristic",
            "--hands",
            "5",
            "--out",
            str(tmp_path / "ro" / "sub"),
        ],
    )
    assert result.exit_code == 2, result.output
    assert "is a file" in _said(result.output)


def test_serve_refuses_a_port_out_of_range() -> None:
    result = runner.invoke(app, ["serve", "--port", "99999"])
    assert result.exit_code == 2
    assert "--port" in result.output


def _serve(*args: str) -> Result:
    """``primero serve ARGS`` in this process (CliRunner): each case here is refused before
    uvicorn starts, so no server process is needed to read its one line."""
    return runner.invoke(app, ["serve", *args])


def _refused(done: Result) -> str:
    """The standard error of a clean refusal: exit code 2 by ``typer.Exit`` (never an
    exception escaping the command, whose traceback a terminal would show)."""
    assert done.exit_code == 2, (done.output, done.exception)
    assert isinstance(done.exception, SystemExit), done.exception
    assert "Traceback" not in done.output
    return done.stderr


def test_serve_with_an_unknown_database_kind_is_one_line(tmp_path: Path) -> None:
    stderr = _refused(_serve("--database-url", "nonsense://x", "--port", "0"))
    assert stderr.strip() == (
        "primero: cannot use --database-url: Can't load plugin: sqlalchemy.dialects:nonsense"
    )


def test_serve_on_a_taken_port_is_one_line(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        url = f"sqlite:///{tmp_path / 'x.db'}"
        stderr = _refused(_serve("--port", str(port), "--database-url", url))
    assert stderr.strip() == (
        f"primero: port {port} on 127.0.0.1 is taken (another server?); choose another with --port"
    )
    assert not (tmp_path / "x.db").exists()  # refused before the database is touched


def test_serve_with_an_unreachable_sqlite_file_is_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'missing-dir' / 'x.db'}"
    stderr = _refused(_serve("--database-url", url, "--port", "0"))
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("primero: cannot use --database-url:")
    assert "unable to open database file" in lines[0]
