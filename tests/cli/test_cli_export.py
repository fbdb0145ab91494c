"""``primero hands export`` through Typer's CliRunner: it never creates a database and
names what is wrong (a missing SQLite file, an unknown table)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.cli import app
from primero.store import Store
from primero.store.store import SeatRow, TableRow

runner = CliRunner()


def test_export_without_a_database_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["hands", "export", "--out", "out"])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"primero: no database at {tmp_path.resolve() / 'primero.db'}")
    assert "--database-url" in result.output
    assert "hands written" not in result.output
    assert not (tmp_path / "primero.db").exists()
    assert not (tmp_path / "out").exists()


def _database_with_table(path: Path, table_id: str) -> str:
    url = f"sqlite:///{path}"
    store = Store(url)
    try:
        store.migrate()
        row = TableRow(
            id=table_id,
            name="t",
            stack=100,
            rules={},
            turn_seconds=60,
            max_hands=None,
            status="waiting",
            version=1,
            hands_played=0,
            dealer_index=0,
            created=1,
            seats=[SeatRow(0, None, "open", None, 100), SeatRow(1, "Bot", "bot", None, 100)],
        )
        with store.transaction() as conn:
            store.create_table(conn, row)
    finally:
        store.close()
    return url


def test_export_unknown_table_is_an_error_naming_the_tables(tmp_path: Path) -> None:
    url = _database_with_table(tmp_path / "db.sqlite", "abc123")
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["hands", "export", "--database-url", url, "--out", str(out), "--table", "nope"]
    )
    assert result.exit_code == 2, result.output
    assert result.output.startswith(
        "primero: no table 'nope' in the database: the tables there are: abc123"
    )
    assert "abc123" in result.output
    assert "hands written" not in result.output


def test_export_known_table_without_finished_hands(tmp_path: Path) -> None:
    url = _database_with_table(tmp_path / "db.sqlite", "abc123")
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["hands", "export", "--database-url", url, "--out", str(out), "--table", "abc123"]
    )
    assert result.exit_code == 0, result.output
    assert "0 hands written" in result.output


def test_export_into_a_file_is_an_error_and_leaves_it(tmp_path: Path) -> None:
    url = _database_with_table(tmp_path / "db.sqlite", "abc123")
    target = tmp_path / "notes.txt"
    target.write_text("mine\n")
    result = runner.invoke(app, ["hands", "export", "--database-url", url, "--out", str(target)])
    assert result.exit_code == 2, result.output
    assert "is a file, not a folder" in " ".join(result.output.replace("│", " ").split())
    assert "Traceback" not in result.output
    assert target.read_text() == "mine\n"


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("bogus://x", "Can't load plugin: sqlalchemy.dialects:bogus"),
        ("::::", "Could not parse SQLAlchemy URL from given URL string"),
    ],
)
def test_export_with_a_bad_database_url_is_one_line(tmp_path: Path, url: str, words: str) -> None:
    result = runner.invoke(
        app, ["hands", "export", "--database-url", url, "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 2, result.output
    assert result.output.strip() == f"primero: cannot use --database-url: {words}"
    assert not (tmp_path / "out").exists()


def test_export_help_names_the_files_it_writes() -> None:
    # the placeholders were once <table>/<n>: markup ate them and left "DIR//.prh"
    result = runner.invoke(app, ["hands", "export", "--help"], terminal_width=200)
    assert result.exit_code == 0
    said = " ".join(result.output.replace("│", " ").split())
    assert "record, DIR/TABLE/N.prh (TABLE: the table id, N: the hand number)" in said
    assert "Folder to write DIR/TABLE/N.prh into." in said
    assert "DIR//" not in said
