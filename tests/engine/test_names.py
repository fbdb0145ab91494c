"""Player names (docs/record-format.md): at least one character that is not
white space, no white space at the start or end, no control characters. A record that
breaks it has a header error (index null); hands and matches refuse such names."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from primero.cli import app
from primero.engine.history import RecordError, load_record, parse_record
from primero.engine.match import Match
from primero.engine.names import check_player_names, name_problem
from primero.engine.rules import Rules, RulesError
from primero.engine.state import HandState

runner = CliRunner()

GOOD = ["Ana", "Ben Jonson", "Łukasz", "李白", "7", "a.b", "Dev ♠", "x\u00a0y"]
BAD = {
    "": "is empty",
    " ": "only white space",
    "\u3000": "only white space",  # an ideographic space
    " Ana": "starts with white space",
    "Ana ": "ends with white space",
    "Ana\u00a0": "ends with white space",  # a no-break space
    "Ana\t": "control character (U+0009)",
    "An\na": "control character (U+000A)",
    "An\x1ba": "control character (U+001B)",
    "\x7fAna": "control character (U+007F)",
    "Ana\x85": "control character (U+0085)",
}


@pytest.mark.parametrize("name", GOOD)
def test_valid_names(name: str) -> None:
    assert name_problem(name) is None
    HandState([name, "Other"], [5, 5], rules=_two())


@pytest.mark.parametrize(("name", "problem"), BAD.items(), ids=[repr(n) for n in BAD])
def test_invalid_names_are_refused_everywhere(name: str, problem: str) -> None:
    found = name_problem(name)
    assert found is not None and problem in found and repr(name) in found
    with pytest.raises(RulesError, match="player name"):
        HandState([name, "Ben", "Cleo", "Dev"], [20] * 4)
    with pytest.raises(RulesError, match="player name"):
        Match(["Ana", "Ben", "Cleo", name], seed=1)
    data = {
        "variant": "primero",
        "players": ["Ana", "Ben", name, "Dev"],
        "starting_stacks": [20] * 4,
        "actions": [],
    }
    with pytest.raises(RecordError) as info:
        load_record(data)
    assert info.value.index is None and problem in info.value.message
    with pytest.raises(RecordError) as info:
        parse_record(json.dumps(data), "json")
    assert info.value.index is None


def test_other_problems() -> None:
    with pytest.raises(RulesError, match="'Ana' is there twice"):
        check_player_names(["Ana", "Ben", "Ana"])
    with pytest.raises(RulesError, match="a player name is a string, not 2"):
        check_player_names(["Ana", 2])
    with pytest.raises(RecordError, match="players must be an array of names"):
        load_record({"variant": "primero", "players": "Ana", "starting_stacks": [5], "actions": []})


def test_replay_reports_a_bad_name_as_a_header_error(tmp_path: Path) -> None:
    path = tmp_path / "tab.prh"
    path.write_text(
        'variant = "primero"\nplayers = ["Ana", "Ben\\t", "Cleo", "Dev"]\n'
        "starting_stacks = [20, 20, 20, 20]\nactions = []\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["index"] is None and error["line"] == ""
    assert "control character (U+0009)" in error["message"]


def test_play_refuses_a_bad_name() -> None:
    result = runner.invoke(app, ["play", "--plain", "--no-save", "--name", "Ana "], input="q\n")
    assert result.exit_code == 2
    # the one name check of every front end (primero.play.text), in the same words
    assert result.stderr == "primero: Your name must not start or end with white space\n"


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=6))
def test_any_text_is_a_name_or_refused_with_a_reason(name: str) -> None:
    problem = name_problem(name)
    other = "~~" if name == "~" else "~"  # a second player of another name
    if problem is None:
        # a valid name has a visible part, and survives a record round trip
        assert name.strip() == name != ""
        record = load_record(
            {
                "variant": "primero",
                "players": [name, other],
                "starting_stacks": [3, 3],
                "actions": [],
                "rules": {"min_players": 2},
            }
        )
        assert record.players[0] == name
    else:
        assert repr(name) in problem or not isinstance(name, str)
        with pytest.raises(RulesError):
            HandState([name, other], [3, 3], rules=_two())


def test_printable_ascii_names_are_valid_when_trimmed() -> None:
    for ch in string.printable:
        expected_ok = not ch.isspace()
        assert (name_problem(f"A{ch}B") is None) == (ch not in "\t\n\r\x0b\x0c")
        assert (name_problem(ch) is None) == expected_ok


def _two() -> Rules:
    return Rules(min_players=2)
