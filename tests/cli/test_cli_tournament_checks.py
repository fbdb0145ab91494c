"""``primero tournament`` and ``simulate`` checks a new user ran into (fix-cli item 5):
missing ratings are said on screen, a stack everyone is all-in with on the ante is
refused as play and simulate refuse it (Rules.check_stacks, R4.1), and both commands
refuse a negative seed alike (R10)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from primero.cli import app

runner = CliRunner()


def _said(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


def test_ratings_without_openskill_are_said_on_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "openskill.models", None)  # import fails: not installed
    monkeypatch.setitem(sys.modules, "openskill", None)
    out = tmp_path / "t"
    result = runner.invoke(
        app,
        [
            "tournament",
            "--bots",
            "random,heuristic",
            "--hands",
            "2",
            "--no-plots",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads((out / "results.json").read_text())["ratings"] is None
    assert (
        'no ratings (results.json has "ratings": null): openskill is missing: '
        "pip install -e '.[research]'"
    ) in _said(result.output)


def test_a_stack_of_one_chip_is_refused_as_play_and_simulate_refuse_it(tmp_path: Path) -> None:
    message = (
        "the ante (1 chip) must be less than the starting stack (1 chip) of at least two players"
    )
    out = tmp_path / "t"
    result = runner.invoke(
        app, ["tournament", "--bots", "random,heuristic", "--stack", "1", "--out", str(out)]
    )
    assert result.exit_code == 2, result.output
    assert message in _said(result.output)
    assert not out.exists()
    simulated = runner.invoke(app, ["simulate", "--stack", "1"])
    assert simulated.exit_code == 2 and message in _said(simulated.output)


@pytest.mark.parametrize("command", ["simulate", "tournament", "play"])
def test_a_negative_seed_is_refused_by_both(command: str, tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [command, "--seed", "-1", "--out", str(tmp_path / "t")]
        if command == "tournament"
        else [command, "--plain", "--seed", "-1"]
        if command == "play"
        else [command, "--seed", "-1"],
    )
    assert result.exit_code == 2, result.output
    assert "Invalid value for --seed: give a whole number, 0 or more, not -1" in _said(
        result.output
    )


_KINDS = (
    "the kinds are random, heuristic, search, bluff, uniform and reference (cfr too, with --preset "
    "mini), or an agent by import path (module:Name)"
)


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        (
            "random",
            "Invalid value for --bots: a tournament needs at least two kinds of bot, "
            f"not only random: --bots random,heuristic, for example; {_KINDS}",
        ),
        (
            "tests.agents_fixture:Recorder",
            "Invalid value for --bots: a tournament needs at least two kinds of bot, not only "
            "tests.agents_fixture:Recorder: --bots tests.agents_fixture:Recorder,random, "
            "for example; "
            f"{_KINDS}",
        ),
        (
            "random,random",
            "Invalid value for --bots: random is named more than once: a "
            "tournament plays each kind of bot once (rotated over the seats), and needs at least "
            f"two different kinds: --bots random,heuristic, for example; {_KINDS}",
        ),
        (
            "heuristic,bluff,heuristic",
            "Invalid value for --bots: heuristic is named more "
            "than once: a tournament plays each kind of bot once (rotated over the seats), and "
            f"needs at least two different kinds: --bots heuristic,bluff, for example; {_KINDS}",
        ),
    ],
)
def test_one_kind_of_bot_or_one_named_twice_is_refused_before_any_hand(
    bots: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A single entrant (a kind or an agent by import path), or a kind given twice, would
    play a field whose every result is zero: refused, exit 2, no hand and no file."""
    import primero.research.tournament_engines as engines

    def no_hands(*args: object) -> object:
        raise AssertionError("a hand was played")

    monkeypatch.setattr(engines, "play_units", no_hands)
    out = tmp_path / "t"
    result = runner.invoke(
        app, ["tournament", "--bots", bots, "--hands", "4", "--no-plots", "--out", str(out)]
    )
    assert result.exit_code == 2, result.output
    assert message in _said(result.output)
    assert not out.exists()


def test_the_mini_preset_says_why_it_plays_more_hands_than_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--preset mini --hands 7 with its three default kinds: the mixed field plays whole
    units of 6 hands (one per seating: 3 entrants at 2 seats), 2 units = 12 hands; each of
    the 3 pairs plays units of 2, 4 units = 8 hands; 12 + 3 * 8 = 36 hands, counted as
    they are dealt, and the screen, results.json and run.json say the same."""
    import primero.research.tournament as tournament

    played: list[int] = []
    real = tournament._play_mini

    def counted(*args: Any) -> None:
        played.append(1)
        real(*args)

    monkeypatch.setattr(tournament, "_play_mini", counted)
    out = tmp_path / "t"
    result = runner.invoke(
        app,
        [
            "tournament",
            "--preset",
            "mini",
            "--hands",
            "7",
            "--search-samples",
            "20",
            "--no-plots",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert len(played) == 36
    said = _said(result.output)
    assert "Tournament: 12 hands, 2 seats" in said
    assert (
        "the mixed field: 12 hands, not the 7 asked: rounded up to a multiple of 6, the "
        "seatings of 3 entrants at 2 seats, because each deal is played once in every "
        "seating, so that every entrant meets every other equally often in every two seats"
    ) in said
    assert (
        "each pair heads-up: 8 hands, not the 7 asked: rounded up to a multiple of 2, the "
        "seatings of 2 entrants at 2 seats, because each deal is played once in every seating"
    ) in said
    assert "36 hands (12 in the mixed field, 8 for each of the 3 pairs heads-up) in " in said
    doc = json.loads((out / "results.json").read_text())
    assert (doc["hands"], doc["hands_requested"], doc["settings"]["units"]) == (12, 7, 2)
    assert doc["matrix"]["hands_per_pair"] == 8
    assert json.loads((out / "run.json").read_text())["hands"] == 36
    # two kinds, 4 hands: whole units of 2, played as asked and nothing to explain
    played.clear()
    out = tmp_path / "t2"
    result = runner.invoke(
        app,
        [
            "tournament",
            "--preset",
            "mini",
            "--bots",
            "random,heuristic",
            "--hands",
            "4",
            "--no-plots",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    said = _said(result.output)
    assert len(played) == 4
    assert "not the 4 asked" not in said and "rounded up" not in said
    assert "Tournament: 4 hands, 2 seats" in said and " 4 hands in " in said
    assert json.loads((out / "results.json").read_text())["hands"] == 4


def test_the_hands_help_says_how_the_count_is_rounded() -> None:
    result = runner.invoke(app, ["tournament", "--help"])
    assert result.exit_code == 0
    assert (
        "Hands a table, rounded up to whole deals: each deal is played once in every "
        "seating of a balanced design (every entrant meets every other equally often in "
        "every two seats; each pair's table: 2 seatings)."
    ) in _said(result.output)
