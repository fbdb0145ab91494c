"""Options that make no game are refused: one check in the core,
:meth:`primero.engine.rules.Rules.check_stacks`, used by ``Match``, ``primero play`` and
``primero simulate`` (and open to the online server)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.cli import app
from primero.cli.commands_simulate import simulate
from primero.engine.match import Match
from primero.engine.rules import Rules, RulesError
from primero.engine.state import HandState

runner = CliRunner()
TABLE = ["Ana", "Ben", "Cleo", "Dev"]


@pytest.mark.parametrize(
    ("rules", "stacks"),
    [
        (Rules(), [100] * 4),
        (Rules(ante=99), [100] * 4),  # 1 chip behind each: bets of 1 are possible (R5)
        (Rules(ante=0), [1] * 4),
        (Rules(), [1, 20, 20, 20]),  # one short stack is all-in on the ante, the rest play
        (Rules(), [1, 1, 2, 2]),
        (Rules(min_raise=99), [100] * 4),  # b 0 then r 99 in round 2 (R5)
        (Rules(min_raise=50, ante=10), [20, 60, 20, 20]),  # 50 chips behind the ante
        (Rules(max_raises=0, refusal=False, declarations=False, last_round=False), [5] * 4),
    ],
)
def test_games_that_can_be_played(rules: Rules, stacks: list[int]) -> None:
    rules.check_stacks(stacks)
    Match(TABLE, stacks=stacks, rules=rules, seed=1)


@pytest.mark.parametrize(
    ("rules", "stacks", "message"),
    [
        (
            Rules(ante=200),
            [100] * 4,
            r"the ante \(200 chips\) must be less than the starting "
            r"stack \(100 chips\) of at least two players",
        ),
        (Rules(ante=100), [100] * 4, r"ante \(100 chips\)"),
        (Rules(), [1] * 4, r"the ante \(1 chip\) .* \(1 chip\)"),
        (Rules(ante=5), [5, 5, 5, 50], r"ante \(5 chips\) .* stack \(5 chips\)"),
        (
            Rules(min_raise=100),
            [100] * 4,
            r"min_raise \(100 chips\) is more than any player holds after the ante \(99 chips\)",
        ),
        (Rules(min_raise=41, ante=10), [20, 50, 20, 20], r"at most 40"),
    ],
)
def test_games_that_cannot_be_played(rules: Rules, stacks: list[int], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        rules.check_stacks(stacks)
    with pytest.raises(RulesError, match=message):
        Match(TABLE, stacks=stacks, rules=rules, seed=1)


def test_a_single_hand_may_still_be_all_in_on_the_ante() -> None:
    # R4.1: a hand (e.g. a record) where everyone antes all they have is a valid hand
    state = HandState(TABLE, [2] * 4, Rules(ante=5))
    assert state.stacks == [0, 0, 0, 0]


def test_play_refuses_an_ante_not_below_the_stack(tmp_path: Path) -> None:
    save = tmp_path / "hands"
    args = ["play", "--plain", "--seed", "1", "--save-dir", str(save)]
    result = runner.invoke(app, [*args, "--ante", "200"], input="q\n")
    assert result.exit_code == 2
    assert "the ante (200 chips) must be less than the starting stack (100 chips)" in (
        result.stderr
    )
    assert result.stdout == ""  # no table was started
    assert not save.exists()  # nothing written
    result = runner.invoke(app, [*args, "--stack", "30", "--ante", "30"], input="q\n")
    assert result.exit_code == 2 and "ante (30 chips)" in result.stderr
    result = runner.invoke(app, [*args, "--min-raise", "150"], input="q\n")
    assert result.exit_code == 2
    assert "min_raise (150 chips) is more than any player holds" in result.stderr


def test_simulate_refuses_a_stack_that_is_all_ante() -> None:
    result = runner.invoke(app, ["simulate", "--hands", "5", "--stack", "1", "--quiet"])
    assert result.exit_code == 2
    assert "the ante (1 chip) must be less than the starting stack (1 chip)" in result.stderr
    with pytest.raises(RulesError, match="ante"):
        simulate(5, 4, ["random"], 1, rules=Rules(ante=3), stack=3)
    with pytest.raises(RulesError, match="ante"):
        simulate(5, 4, ["heuristic"], 1, rules=Rules(ante=3), stack=3, fast=False)
    result = runner.invoke(app, ["simulate", "--hands", "5", "--stack", "2", "--quiet"])
    assert result.exit_code == 0, result.output
