"""Record errors for a person: the line of the file and the action
counted from 1, in one wording for ``primero replay`` and ``primero watch``; ``--json``
names the file. Line numbers below are counted by hand in the texts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.cli import app
from primero.engine.history import HandRecord, RecordError, write_record
from primero.play.recordpos import action_lines, action_lines_of_file, describe_error

runner = CliRunner()

HEADER = 'variant = "primero"\nplayers = ["Ana", "Ben"]\nstarting_stacks = [20, 20]\n'


def test_action_lines_in_toml() -> None:
    text = (
        HEADER  # lines 1-3
        + "actions = [  # the hand\n"  # 4
        + '  "d dh p1 7h 6h", "d dh p2 Kc Qd",\n'  # 5: two entries
        + '  # a comment with a "quote" and a \' and a ] inside\n'  # 6
        + "  'p1 b 2',\n"  # 7: a literal string
        + '  """p2 c""",\n'  # 8: a multi-line string on one line
        + '  "p1 x \\" odd",\n'  # 9: an escaped quote
        + "  5,\n"  # 10: not a string, still an entry
        + "]\n"
        + "[rules]\nante = 2\n"
    )
    assert action_lines(text, "toml") == [5, 5, 7, 8, 9, 10]


def test_action_lines_in_toml_need_a_top_level_key() -> None:
    assert action_lines(HEADER + "[extra]\nactions = [\n 'x',\n]\n", "toml") is None
    assert action_lines(HEADER, "toml") is None
    assert action_lines(HEADER + "actions = []\n", "toml") == []


def test_action_lines_in_json() -> None:
    text = (
        '{\n  "players": ["actions", "Ben"],\n  "actions": [\n    "d dh p1 7h 6h",\n'
        '    "p1 b 2", ["nested",\n "list"],\n    "p2 c"\n  ]\n}\n'
    )
    assert action_lines(text, "json") == [4, 5, 5, 7]


def test_action_lines_of_a_written_record(tmp_path: Path) -> None:
    lines = ["d dh p1 7h 6h", "d dh p2 Kc Qd", "p1 b 2", "p2 c"]
    record = HandRecord(("Ana", "Ben"), (20, 20), lines, seed=3)
    toml_path = write_record(record, tmp_path / "h.prh")
    text = toml_path.read_text(encoding="utf-8").splitlines()
    found = action_lines_of_file(toml_path)
    assert found is not None and len(found) == 4
    for number, line in zip(found, lines, strict=True):
        assert f'"{line}"' in text[number - 1]
    json_path = write_record(record, tmp_path / "h.json")
    found = action_lines_of_file(json_path)
    text = json_path.read_text(encoding="utf-8").splitlines()
    assert found is not None
    for number, line in zip(found, lines, strict=True):
        assert f'"{line}"' in text[number - 1]
    assert action_lines_of_file(tmp_path / "missing.prh") is None


def test_describe_error_wording() -> None:
    error = RecordError("p1 may not call: p1 may exchange 1 or 2 cards", 32, "p1 c")
    assert describe_error("h.prh", error, [0] * 32 + [47]) == (
        "h.prh:47: action 33 ('p1 c') is invalid: p1 may not call: p1 may exchange 1 or 2 cards"
    )
    assert describe_error("h.prh", error, None).startswith("h.prh: action 33 ('p1 c')")
    not_text = RecordError("an action is a string, not 5", 2, "")
    assert "action 3 (not a string) is invalid" in describe_error("h.prh", not_text, None)
    header = RecordError("a hand holds 2 to 6 players (max_players), not 1")
    assert describe_error("h.prh", header, [1]) == (
        "h.prh: invalid record: a hand holds 2 to 6 players (max_players), not 1"
    )


BAD = (
    HEADER  # 1-3
    + "actions = [\n"  # 4
    + '  "d dh p1 7h 6h",\n'  # 5: action 1
    + '  "d dh p2 Kc Qd",\n'  # 6: action 2
    + '  "p1 b 2",\n'  # 7: action 3
    + '  "p2 r 1",\n'  # 8: action 4, below the bet: invalid
    + "]\n"
)


@pytest.mark.parametrize("suffix", [".prh", ".json"])
def test_replay_and_watch_word_an_error_alike(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"bad{suffix}"
    if suffix == ".prh":
        path.write_text(BAD, encoding="utf-8")
        line = 8
    else:
        data = {
            "variant": "primero",
            "players": ["Ana", "Ben"],
            "starting_stacks": [20, 20],
            "actions": ["d dh p1 7h 6h", "d dh p2 Kc Qd", "p1 b 2", "p2 r 1"],
        }
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")
        # indent=1: "{" (1), "variant" (2), "players": [ (3), 2 names, ] (6),
        # "starting_stacks": [ (7), 2 stacks, ] (10), "actions": [ (11), 4 actions
        line = 15
    replayed = runner.invoke(app, ["replay", str(path)])
    watched = runner.invoke(app, ["watch", "--text", str(path)])
    assert replayed.exit_code == watched.exit_code == 2
    expected = f"{path}:{line}: action 4 ('p2 r 1') is invalid: "
    assert replayed.stderr.startswith(expected), replayed.stderr
    said = [s for s in watched.stderr.splitlines() if s.startswith(str(path))]
    assert said and said[0] == replayed.stderr.splitlines()[0]
    # watch --text still analyses the valid part
    assert "Analysis: p1 Ana's exchanges" in watched.stdout
    as_json = runner.invoke(app, ["replay", "--json", str(path)])
    payload = json.loads(as_json.stdout)
    assert payload["file"] == str(path)
    assert payload["error"]["index"] == 3 and payload["error"]["file_line"] == line


def test_json_names_the_file_of_every_outcome(tmp_path: Path) -> None:
    good = tmp_path / "good.prh"
    good.write_text(BAD.replace('"p2 r 1"', '"p2 f"'), encoding="utf-8")
    bad = tmp_path / "bad.prh"
    bad.write_text(BAD, encoding="utf-8")
    result = runner.invoke(app, ["replay", "--json", str(good), str(bad)])
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["file"] == str(good) and first["complete"] is True
    assert second["file"] == str(bad) and second["error"]["index"] == 3


def test_a_header_error_is_worded_alike(tmp_path: Path) -> None:
    path = tmp_path / "one.prh"
    path.write_text(
        'variant = "primero"\nplayers = ["Ana"]\nstarting_stacks = [5]\nactions = []\n',
        encoding="utf-8",
    )
    replayed = runner.invoke(app, ["replay", str(path)])
    watched = runner.invoke(app, ["watch", "--text", str(path)])
    assert replayed.exit_code == watched.exit_code == 2
    assert replayed.stderr.startswith(f"{path}: invalid record: a hand holds 2 to 6 players")
    assert watched.stderr.splitlines()[0] == replayed.stderr.splitlines()[0]
