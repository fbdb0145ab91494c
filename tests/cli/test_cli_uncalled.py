"""A bet nobody called is "uncalled bet returned", never a pot or a win, in ``replay``
(words and --json) and in ``--plain``'s pots mid-hand, as at the table
(R7). Numbers by hand: 4 players ante 1 each (pot 4), p1 bets 1, everyone
else folds: p1 gets back its uncalled 1 and wins the 4 antes, net +3."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from primero.cli import app
from primero.cli.plain import pot_info
from primero.engine.state import HandState
from primero.engine.views import view

runner = CliRunner()

README_RECORD = """variant = "primero"
players = ["Ana", "Ben", "Cleo", "Dev"]
starting_stacks = [20, 20, 20, 20]
actions = [
  "d dh p1 2c 3d", "d dh p2 Kd Qh", "d dh p3 Js 4s", "d dh p4 5h 6d",
  "p1 b 1", "p2 y",
  "p2 f", "p3 f", "p4 f",
]
"""


def _record(tmp_path: Path) -> Path:
    path = tmp_path / "fold.prh"
    path.write_text(README_RECORD)
    return path


def test_replay_says_the_uncalled_bet_is_returned_and_the_pot_is_the_antes(
    tmp_path: Path,
) -> None:
    result = runner.invoke(app, ["replay", str(_record(tmp_path))])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == "Uncalled bet of 1 chip returned to p1 Ana."
    assert lines[2] == "Everyone else folded: p1 Ana takes 4 chips without showing."
    assert "│ main │ 4     │ p1       │ p1 Ana (4) │" in lines
    assert "│ p1 Ana  │ 20    │ 23    │ +3  │" in lines  # the engine's chips unchanged


def test_replay_json_has_the_uncalled_bet_apart_from_the_pots(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", "--json", str(_record(tmp_path))])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["uncalled"] == {"seat": "p1", "chips": 1}
    assert data["pots"] == [{"amount": 4, "eligible": ["p1"], "winners": ["p1"], "shares": [4]}]
    assert data["final_stacks"] == [23, 19, 19, 19] and data["net"] == [3, -1, -1, -1]


def test_replay_json_of_a_called_hand_has_no_uncalled_bet(tmp_path: Path) -> None:
    path = tmp_path / "called.prh"
    path.write_text(
        'variant = "primero"\nplayers = ["Ana", "Ben"]\nstarting_stacks = [20, 20]\n'
        'actions = ["d dh p1 7h Kc", "d dh p2 2s 3s", "p1 b 2", "p2 f"]\n'
    )
    result = runner.invoke(app, ["replay", "--json", str(path)])
    data = json.loads(result.output)
    # p1 antes 1 and bets 2 (3 in), p2 antes 1: 2 of p1's chips nobody called
    assert data["uncalled"] == {"seat": "p1", "chips": 2}
    assert [p["amount"] for p in data["pots"]] == [2]


def _short_all_in() -> HandState:
    """Ana all-in for 5, Ben raises to 20, Cleo folds: Ben's 16 above Ana's 5 nobody
    can call (pots 1+1+1 antes + 4 + 4 + Cleo's 0 = 11, and 16)."""
    s = HandState(["Ana", "Ben", "Cleo"], [5, 30, 30])
    for line in [
        "d dh p1 7h Kc",
        "d dh p2 2s 3s",
        "d dh p3 Js 4s",
        "p1 b 4",
        "p2 y",
        "p2 r 20",
        "p3 y",
        "p3 f",
        "d dh p1 Ah 2c",
        "d dh p2 5d 3d",
    ]:
        s.apply(line)
    return s


def test_plain_mid_hand_pot_leaves_out_the_uncalled_bet() -> None:
    s = _short_all_in()
    names = ["Ana", "Ben", "Cleo"].__getitem__
    assert pot_info(view(s, 0), names) == (
        "Pot: 11 chips · uncalled bet of 16 chips, to be returned to Ben"
    )
    assert pot_info(view(s, 1), names) == (
        "Pot: 11 chips · uncalled bet of 16 chips, to be returned to you"
    )


def test_plain_pot_of_a_plain_hand_is_unchanged() -> None:
    s = HandState(["Ana", "Ben", "Cleo"], [30, 30, 30])
    for line in ["d dh p1 7h Kc", "d dh p2 2s 3s", "d dh p3 Js 4s"]:
        s.apply(line)
    assert pot_info(view(s, 0), str) == "Pot: 3 chips"
