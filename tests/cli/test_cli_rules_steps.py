"""``primero rules --section R4.3``: a numbered step of a section, as the table cites
them (docs/rules.md: "a numbered step inside a section is cited with a dot"; fix-cli
item 4)."""

from __future__ import annotations

from typer.testing import CliRunner

from primero.cli import app
from primero.cli.commands_info import rules_section

runner = CliRunner()


def test_a_step_is_its_sections_heading_and_the_whole_step() -> None:
    text = rules_section("R4.3")
    assert text is not None
    assert text.startswith(
        "## R4 The hand, step by step\n\n"
        "**R4.3** **First round: bet or exchange.** Starting at p1, each player in turn"
    )
    assert "**Void deal.**" in text  # its later paragraphs are part of it
    assert "skipped and play goes on at step 4; that is not a void deal.\n" in text
    assert "Second deal" not in text and "1. **Ante.**" not in text


def test_the_last_step_stops_before_the_text_after_the_steps() -> None:
    assert rules_section("r4.8") == (
        "## R4 The hand, step by step\n\n**R4.8** **Showdown.** Every player still in "
        "shows their hand, and each pot goes to the best\nhand among the players who may "
        "win it (R7).\n"
    )


def test_rules_prints_a_step_the_table_cites() -> None:
    result = runner.invoke(app, ["rules", "--section", "R4.6"])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert said.startswith("R4 The hand, step by step R4.6 Second exchange. Starting at p1")
    assert "Last round" not in said


def test_a_step_that_is_not_there_is_refused() -> None:
    result = runner.invoke(app, ["rules", "--section", "R4.9"])
    assert result.exit_code == 2
    assert "no section 'R4.9' in the rules" in result.output
    assert rules_section("R3.1") is None  # R3 numbers no steps
