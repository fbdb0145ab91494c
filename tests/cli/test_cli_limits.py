"""Stacks the command line accepts: 1 to 10^9 chips, the server's limit (online.md), and
every amount of the biggest table can be typed (fix-cli item 2); every other number out
of its range refused in plain words, simulate's limit of a million hands, and its
progress on standard error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.cli import app
from primero.cli.app import in_range
from primero.cli.commands_simulate import MAX_HANDS
from primero.play.moveinput import InputError, read_number

runner = CliRunner()


def _said(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


@pytest.mark.parametrize("command", ["play", "simulate", "tournament"])
@pytest.mark.parametrize("stack", ["1000000000000", "1000000001", "0"])
def test_a_stack_beyond_the_servers_limit_is_refused(command: str, stack: str) -> None:
    result = runner.invoke(app, [command, "--stack", stack])
    assert result.exit_code == 2, result.output
    assert (
        "Invalid value for --stack: a stack is 1 to 1,000,000,000 chips (10^9, as on the "
        f"server), not {int(stack):,}"
    ) in _said(result.output)


def test_the_largest_stack_plays() -> None:
    result = runner.invoke(
        app, ["simulate", "--stack", "1000000000", "--hands", "2", "--players", "4"]
    )
    assert result.exit_code == 0, result.output


def test_every_chip_of_eight_largest_stacks_can_be_typed() -> None:
    assert read_number("8000000000") == 8_000_000_000  # 8 seats x 10^9 chips, all in
    with pytest.raises(InputError, match=r"10 digits at most"):
        read_number("10000000000")


# Numbers out of range: one plain sentence (what was wrong, what is allowed), exit code 2,
# never pydantic's "Input should be greater than or equal to 1" (Typer's own min=/max=).
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["simulate", "--hands", "0"],
            "Invalid value for --hands: give a whole number from 1 to 1,000,000, not 0",
        ),
        (
            ["simulate", "-n", "-3"],
            "Invalid value for --hands: give a whole number from 1 to 1,000,000, not -3",
        ),
        # an unknown bot kind: the old code, with no limit, stopped at it (not a million
        # hands later); the limit is checked first, as the options are read
        (
            ["simulate", "--hands", "1000001", "--bots", "nobody"],
            "Invalid value for --hands: give a whole number from 1 to 1,000,000, not 1,000,001",
        ),
        (
            ["play", "--max-hands", "0"],
            "Invalid value for --max-hands: give a whole number, 1 or more, not 0",
        ),
        (
            ["play", "--ante", "-1"],
            "Invalid value for --ante: give a whole number of chips, 0 or more, not -1",
        ),
        (
            ["play", "--min-raise", "0"],
            "Invalid value for --min-raise: give a whole number of chips, 1 or more, not 0",
        ),
        (
            ["play", "--max-raises", "-1"],
            "Invalid value for --max-raises: give a whole number, 0 or more, not -1",
        ),
        (
            ["play", "--speed", "10.5"],
            "Invalid value for --speed: give a number of seconds from 0 to 10, not 10.5",
        ),
        (
            ["play", "--speed", "nan"],
            "Invalid value for --speed: give a number of seconds from 0 to 10, not nan",
        ),
        (
            ["odds", "7h", "6h", "5h", "4h", "--opponents", "0"],
            "Invalid value for --opponents: give a whole number, 1 or more, not 0",
        ),
        (
            ["odds", "7h", "6h", "5h", "4h", "--trials", "1"],
            "Invalid value for --trials: give a whole number, 2 or more, not 1",
        ),
        (
            ["serve", "--port", "65536"],
            "Invalid value for --port: give a whole number from 0 to 65,535, not 65,536",
        ),
        (
            ["serve", "--bot-pause", "-1"],
            "Invalid value for --bot-pause: give a number of seconds, 0 or more, not -1",
        ),
        (
            ["serve", "--bot-timeout", "0.05"],
            "Invalid value for --bot-timeout: give a number of seconds from 0.1 to 600, not 0.05",
        ),
        (
            ["serve", "--bot-processes", "65"],
            "Invalid value for --bot-processes: give a whole number from 0 to 64, not 65",
        ),
        (
            ["serve", "--create-rate", "-1"],
            "Invalid value for --create-rate: give a whole number, 0 or more, not -1",
        ),
        (
            ["serve", "--max-tables", "-1"],
            "Invalid value for --max-tables: give a whole number, 0 or more, not -1",
        ),
        (
            ["serve", "--away-seconds", "-0.5"],
            "Invalid value for --away-seconds: give a number of seconds, 0 or more, not -0.5",
        ),
        (
            ["serve", "--hand-pause", "3601"],
            "Invalid value for --hand-pause: give a number of seconds from 0 to 3,600, not 3,601",
        ),
        (
            ["serve", "--rebuy-seconds", "-1"],
            "Invalid value for --rebuy-seconds: give a number of seconds from 0 to 3,600, not -1",
        ),
        (
            ["serve", "--lease-seconds", "601"],
            "Invalid value for --lease-seconds: give a number of seconds from 0.5 to 600, not 601",
        ),
    ],
)
def test_a_number_out_of_range_is_refused_in_plain_words(args: list[str], said: str) -> None:
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 2, result.output
    assert said in _said(result.output), result.output
    assert "Input should" not in result.output
    assert result.stdout == ""  # nothing played, served or printed but the refusal


def test_simulate_plays_at_most_a_million_hands(tmp_path: Path) -> None:
    assert MAX_HANDS == 1_000_000
    out = tmp_path / "records"
    result = runner.invoke(
        app,
        ["simulate", "--hands", "1000001", "--bots", "nobody", "--save-dir", str(out)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 2, result.output
    assert (
        "Invalid value for --hands: give a whole number from 1 to 1,000,000, not "
        "1,000,001" in _said(result.output)
    )
    assert not out.exists()  # refused before anything was made
    helped = runner.invoke(app, ["simulate", "--help"], env={"COLUMNS": "200"})
    row = next(line for line in helped.stdout.splitlines() if line.startswith("│ --hands "))
    assert "Hands to play, 1 to 1,000,000." in row, row
    # the limit itself is allowed: the option's check passes it on unchanged (a million
    # hands are not played here)
    assert in_range("--hands", 1, MAX_HANDS)(1_000_000) == 1_000_000
    assert in_range("--hands", 1, MAX_HANDS)(1) == 1


def test_simulate_shows_its_progress_on_standard_error_only() -> None:
    args = ["simulate", "--hands", "30", "--players", "4", "--seed", "1"]
    piped = runner.invoke(app, args, env={"COLUMNS": "100"})
    assert piped.exit_code == 0, piped.output
    assert piped.stderr == ""  # not a terminal: Rich draws no progress
    # standard error (and standard output) taken for terminals, as Rich reads TTY_COMPATIBLE
    shown = runner.invoke(app, args, env={"COLUMNS": "100", "TTY_COMPATIBLE": "1"})
    assert shown.exit_code == 0, shown.output
    assert "simulating" in shown.stderr and "30/30" in shown.stderr, shown.stderr
    quiet = runner.invoke(app, [*args, "--quiet"], env={"COLUMNS": "100", "TTY_COMPATIBLE": "1"})
    assert quiet.exit_code == 0 and quiet.stderr == "", quiet.output
    *table, timing = shown.stdout.splitlines()
    assert "\n".join(table) + "\n" == quiet.stdout  # the results, and nothing of the bar
    assert re.fullmatch(r"30 hands in \d+\.\d\d s \(\d+ hands/s\)", timing), timing
    assert "30 hands, 4 players, 1 match, seed 1" in quiet.stdout
