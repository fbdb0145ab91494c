"""``primero play --bet-limit pot``: the option made from the rule's declaration reaches
the game, and the prompt offers bets up to the pot only (R5)."""

from __future__ import annotations

from typer.testing import CliRunner

from primero.cli import app


def test_play_at_pot_limit_offers_bets_up_to_the_pot() -> None:
    args = ["play", "--plain", "--seed", "3", "--players", "4", "--bots", "random"]
    result = CliRunner().invoke(
        app,
        [*args, "--bet-limit", "pot", "--no-refusal", "--no-save"],
        input="b 9\nq\ny\n",
    )
    assert result.exit_code == 0, result.output
    assert "House rules: refusal=False, bet_limit=pot" in result.stdout
    # four antes of 1: the pot is 4, the most p1 may bet (without the limit: 1 to 99)
    assert "b N      bet N chips (1 to 4)" in result.stdout
    assert "you may not bet 9" in result.stdout


def test_a_bet_limit_that_is_not_a_choice_is_refused() -> None:
    result = CliRunner().invoke(
        app, ["play", "--plain", "--bet-limit", "table"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 2
    assert "Invalid value for --bet-limit: give none or pot, not 'table'" in result.output
