"""One outcome shape: ``primero replay --json`` prints what ``ReplayOutcome.to_json()``
gives (plus the file's name), for every public case and for hands worked out by hand
(R7: the bet nobody called is returned in ``uncalled``, not won in a pot)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.engine.history import dump_record, read_record, record_of, replay
from primero.engine.rules import Rules
from primero.engine.state import HandState
from tests.paths import CASES_DIR

CASES = sorted(CASES_DIR.glob("*.prh")) if CASES_DIR.is_dir() else []


def _cli_json(path: Path) -> dict[str, object]:
    from primero.cli import app

    result = CliRunner().invoke(app, ["replay", "--json", str(path)])
    payload: dict[str, object] = json.loads(result.stdout)
    return payload


@pytest.mark.needs("shared_cases")
@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_the_command_line_and_the_python_api_give_one_shape(path: Path) -> None:
    from_python = replay(read_record(path)).to_json()
    printed = _cli_json(path)
    if "error" in printed:  # the command line also says the line of the file
        assert isinstance(printed["error"], dict)
        assert printed["error"].pop("file_line") is not None
    assert printed == {"file": str(path), **from_python}
    if from_python.get("complete"):
        outcome = replay(read_record(path))
        assert outcome.state is not None
        back = from_python["uncalled"]
        returned = 0 if back is None else back["chips"]
        # the pots as won and the chips returned are every chip put in (R7)
        won = sum(p["amount"] for p in from_python["pots"])
        assert won + returned == sum(outcome.state.contributed)
        assert all(p["amount"] > 0 for p in from_python["pots"])


def _hand(stacks: list[int], lines: list[str], rules: Rules) -> HandState:
    state = HandState(["Ana", "Ben", "Cleo"][: len(stacks)], stacks, rules)
    for line in lines:
        state.apply(line)
    assert state.complete
    return state


def test_an_uncalled_raise_is_returned_not_won(tmp_path: Path) -> None:
    # Ana 10, Ben 30: antes 1 each; Ana bets 2, Ben raises to 20, Ana folds. Ben put in
    # 21, Ana 3: 18 nobody called go back to Ben; the pot won is 3 + 3 = 6
    state = _hand(
        [10, 30], ["d dh p1 7h Kc", "d dh p2 2s 3s", "p1 b 2", "p2 r 20", "p1 f"], Rules()
    )
    path = tmp_path / "uncalled.prh"
    path.write_text(dump_record(record_of(state)), encoding="utf-8")
    payload = _cli_json(path)
    assert payload["pots"] == [{"amount": 6, "eligible": ["p2"], "winners": ["p2"], "shares": [6]}]
    assert payload["uncalled"] == {"seat": "p2", "chips": 18}
    assert payload["final_stacks"] == [7, 33]
    assert payload == {"file": str(path), **replay(read_record(path)).to_json()}


def test_a_side_pot_of_only_returned_chips_is_not_listed() -> None:
    # Ana (5) is all-in for 4 more; Ben raises to 20, Cleo folds. Main pot: 5 + 5 + 1 =
    # 11 between Ana and Ben; Ben's other 16 nobody could call: returned, no side pot
    lines = [
        "d dh p1 5h Kh", "d dh p2 3s Js", "d dh p3 Jh 7s",
        "p1 b 4", "p2 r 20", "p3 f",
        "d dh p1 Ac 7d", "d dh p2 Qs 3h", "p1 x", "p2 x",
    ]  # fmt: skip
    state = _hand([5, 30, 30], lines, Rules(refusal=False, declarations=False))
    payload = replay(record_of(state)).to_json()
    assert payload["pots"] == [
        {"amount": 11, "eligible": ["p1", "p2"], "winners": ["p2"], "shares": [11]}
    ]
    assert payload["uncalled"] == {"seat": "p2", "chips": 16}
    assert payload["final_stacks"] == [0, 36, 29]  # Ben: 30 - 21 + 11 + 16
