"""``primero replay``: the three outcomes in words and in JSON, several files, exit codes,
and every shared case (../shared/cases/*.prh) against its ``[expected]`` table."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from primero.cli import app
from tests.paths import CASES_DIR

runner = CliRunner()

CASE_FILES = sorted(CASES_DIR.glob("*.prh")) if CASES_DIR.is_dir() else []

_HEADER = """variant = "primero"
players = ["Ana", "Ben", "Cleo", "Dev"]
starting_stacks = [50, 50, 50, 50]
"""

_COMPLETE = (
    _HEADER
    + """actions = [
  "d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d",
  "p1 b 3", "p2 y", "p2 f", "p3 f", "p4 f",
]
"""
)

_SHOWDOWN = """variant = "primero"
players = ["Ana", "Ben"]
starting_stacks = [20, 20]
actions = [
  "d dh p1 7h 6h", "d dh p2 Kc Qd", "p1 b 2", "p2 c",
  "d dh p1 Ah 2c", "d dh p2 Jc 2s",
  "p1 dc supremus", "p1 b 0", "p2 dc numerus", "p2 c",
  "p1 x", "p2 x", "p1 b 0", "p2 c",
]
"""

_PENDING = (
    _HEADER
    + """actions = [
  "d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d",
  "p1 b 10", "p2 n", "p3 n", "p4 n",
]
"""
)

_BAD_LINE = (
    _HEADER
    + """actions = [
  "d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d",
  "p1 c",
]
"""
)

#: "p1 c" is on line 6 of _BAD_LINE: 3 header lines, "actions = [", the deals
_BAD_LINE_FILE_LINE = 6

_BAD_HEADER = """variant = "primero"
players = ["Ana"]
starting_stacks = [50]
actions = []
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- words


def test_complete_uncontested_in_words(tmp_path: Path) -> None:
    path = _write(tmp_path, "done.prh", _COMPLETE)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "complete hand" in out
    # p1's bet of 3 nobody called goes back to p1; the antes, 4 chips, are won (R7)
    assert "Uncalled bet of 3 chips returned to p1 Ana." in out
    assert "p1 Ana takes 4 chips without showing" in out
    assert "main" in out and "p1 Ana (4)" in out
    assert "+3" in out and "-1" in out  # net of p1 and of the others
    assert result.stderr == ""


def test_complete_showdown_in_words(tmp_path: Path) -> None:
    path = _write(tmp_path, "show.prh", _SHOWDOWN)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Hands shown" in out
    assert "7♥ 6♥ A♥ 2♣" in out and "supremus" in out and "55" in out
    assert "p1 Ana (6)" in out
    assert "Declarations: p1 Ana supremus; p2 Ben numerus" in out


def test_pending_in_words(tmp_path: Path) -> None:
    path = _write(tmp_path, "pending.prh", _PENDING)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "stops mid-hand (first round)" in out
    assert "To act: p1 Ana" in out
    assert "May write: x1, x2, b" in out
    assert "bet between 1 and 9 chips" in out  # capped below the refused 10 (R8)


def test_invalid_line_in_words_goes_to_stderr_with_status_2(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.prh", _BAD_LINE)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    # the file's line and the action's number counted from 1 (it is actions[4])
    assert f"{path}:{_BAD_LINE_FILE_LINE}: action 5 ('p1 c') is invalid: " in result.stderr
    assert "p1 may exchange 1 or 2 cards" in result.stderr


def test_invalid_header_in_words(tmp_path: Path) -> None:
    path = _write(tmp_path, "header.prh", _BAD_HEADER)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "invalid record" in result.stderr
    assert "2 to 6 players" in result.stderr


def test_missing_file_is_an_invalid_record(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.prh")])
    assert result.exit_code == 2
    assert "cannot read" in result.stderr


# --------------------------------------------------------------------------- JSON


def test_json_complete(tmp_path: Path) -> None:
    path = _write(tmp_path, "done.prh", _COMPLETE)
    result = runner.invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["complete"] is True
    assert data["final_stacks"] == [53, 49, 49, 49]
    assert data["net"] == [3, -1, -1, -1]
    assert data["pots"] == [{"amount": 4, "eligible": ["p1"], "winners": ["p1"], "shares": [4]}]
    assert data["uncalled"] == {"seat": "p1", "chips": 3}


def test_json_pending(tmp_path: Path) -> None:
    path = _write(tmp_path, "pending.prh", _PENDING)
    result = runner.invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["complete"] is False
    assert data["to_act"] == "p1"
    assert sorted(data["legal"]) == ["b", "x1", "x2"]


def test_json_errors(tmp_path: Path) -> None:
    bad = _write(tmp_path, "bad.prh", _BAD_LINE)
    result = runner.invoke(app, ["replay", "--json", str(bad)])
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert set(data) == {"file", "error"} and data["file"] == str(bad)
    assert data["error"]["index"] == 4  # 0-based, as hand-history.md says
    assert data["error"]["file_line"] == _BAD_LINE_FILE_LINE
    assert data["error"]["line"] == "p1 c"
    assert data["error"]["message"]
    header = _write(tmp_path, "header.prh", _BAD_HEADER)
    result = runner.invoke(app, ["replay", "--json", str(header)])
    assert result.exit_code == 2
    error = json.loads(result.stdout)
    message = error["error"]["message"]
    assert error == {
        "file": str(header),
        "error": {"index": None, "line": "", "message": message, "file_line": None},
    }
    assert "players" in error["error"]["message"]
    not_toml = _write(tmp_path, "junk.prh", "this is = = not toml")
    result = runner.invoke(app, ["replay", "--json", str(not_toml)])
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["index"] is None


def test_json_several_files_one_line_each_in_order(tmp_path: Path) -> None:
    paths = [
        _write(tmp_path, "a.prh", _COMPLETE),
        _write(tmp_path, "b.prh", _BAD_LINE),
        _write(tmp_path, "c.prh", _PENDING),
        _write(tmp_path, "d.json", json.dumps(tomllib.loads(_SHOWDOWN))),
    ]
    result = runner.invoke(app, ["replay", "--json", *map(str, paths)])
    assert result.exit_code == 2  # one record is invalid
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    objects = [json.loads(line) for line in lines]
    assert objects[0]["complete"] is True
    assert objects[1]["error"]["index"] == 4
    assert objects[2]["complete"] is False
    assert objects[3]["complete"] is True and objects[3]["final_stacks"] == [23, 17]


def test_all_valid_files_exit_zero(tmp_path: Path) -> None:
    paths = [_write(tmp_path, "a.prh", _COMPLETE), _write(tmp_path, "c.prh", _PENDING)]
    result = runner.invoke(app, ["replay", *map(str, paths)])
    assert result.exit_code == 0
    assert result.stdout.count("a.prh") == 1 and result.stdout.count("c.prh") == 1


# --------------------------------------------------------------------------- shared cases


def _expected(path: Path) -> dict[str, Any]:
    with path.open("rb") as fh:
        expected = tomllib.load(fh).get("expected")
    assert isinstance(expected, dict), f"{path.name} has no [expected] table"
    return expected


@pytest.mark.needs("shared_cases")
@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_shared_case_through_the_command(path: Path) -> None:
    expected = _expected(path)
    result = runner.invoke(app, ["replay", "--json", str(path)])
    data = json.loads(result.stdout)
    words = runner.invoke(app, ["replay", str(path)])
    if "error_index" in expected:
        index = expected["error_index"]
        assert result.exit_code == 2 and words.exit_code == 2
        assert data["error"]["index"] == (None if index == -1 else index)
        assert "invalid" in words.stderr and words.stdout == ""
        return
    assert result.exit_code == 0 and words.exit_code == 0, words.output
    assert data["complete"] is expected["complete"]
    if expected["complete"]:
        assert data["final_stacks"] == expected["final_stacks"]
        assert "complete hand" in words.stdout
        for stack in expected["final_stacks"]:
            assert str(stack) in words.stdout
    else:
        assert data["to_act"] == expected["to_act"]
        assert sorted(data["legal"]) == sorted(expected["legal"])
        assert "stops mid-hand" in words.stdout
        assert f"May write: {', '.join(data['legal'])}" in words.stdout


@pytest.mark.needs("shared_cases")
def test_all_shared_cases_at_once_one_json_line_each() -> None:
    result = runner.invoke(app, ["replay", "--json", *map(str, CASE_FILES)])
    lines = result.stdout.splitlines()
    assert len(lines) == len(CASE_FILES)
    errors = [("error_index" in _expected(p)) for p in CASE_FILES]
    assert result.exit_code == (2 if any(errors) else 0)
    for line, is_error in zip(lines, errors, strict=True):
        assert ("error" in json.loads(line)) == is_error
