"""Stacks the command line accepts: 1 to 10^9 chips, the server's limit (online.md), and
every amount of the biggest table can be typed (fix-cli item 2)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from primero.cli import app
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
