"""Saving and resuming a match (primero.play.savegame, ``primero play --resume``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.cli import app
from primero.engine.views import SeatView
from primero.play.savegame import (
    SAVE_SUFFIX,
    MatchSaver,
    ResumeError,
    find_unfinished,
    read_saved,
    resume_table,
)
from primero.play.table import Table, TableConfig

runner = CliRunner()


def _move(v: SeatView, turn: int) -> str:
    """A person who varies their moves with the turn number (bets, raises, folds)."""
    legal = v.legal
    assert legal is not None
    if legal.vote:
        return "y" if turn % 3 else "n"
    if legal.declare:
        return "dc " + legal.declare[0].label
    if legal.raise_to is not None and turn % 4 == 0:
        return f"r {legal.raise_to[0]}"
    if legal.call is not None:
        return "c"
    if 0 in legal.exchange:
        return "x" if turn % 2 else "x " + str(v.hand[0])
    if legal.bet is not None and (turn % 3 == 0 or not legal.exchange):
        return (
            f"b {legal.bet[0] + turn % 3}"
            if legal.bet[0] + turn % 3 <= legal.bet[1]
            else (f"b {legal.bet[0]}")
        )
    if legal.exchange:
        return "x " + str(v.hand[0])
    assert legal.bet is not None
    return f"b {legal.bet[0]}"


def _play(table: Table, stop_after: int | None = None, turn: int = 0) -> int:
    """Play the person's moves until the match ends or ``stop_after`` moves were made.

    Returns:
        The number of the next move.
    """
    while not table.over and not table.human_out:
        if table.match.hand is None:
            table.start_hand()
        while True:
            table.advance()
            hand = table.hand
            assert hand is not None
            if hand.complete:
                break
            if stop_after is not None and turn >= stop_after:
                return turn
            table.act(table.parse_input(_move(table.view(), turn)))
            turn += 1
        table.finish_hand()
    return turn


def _config(folder: Path, seed: int | None = 5) -> TableConfig:
    return TableConfig(
        seed=seed,
        players=4,
        bots=("heuristic", "random"),
        max_hands=4,
        stack=30,
        save_dir=folder,
        session="test",
    )


def _records(table: Table) -> list[list[str]]:
    return [list(r.actions) for r in table.match.records]


@pytest.mark.parametrize("stop_after", [0, 3, 8, 15, 26])
def test_a_resumed_seeded_match_goes_on_exactly_as_without_the_break(
    tmp_path: Path, stop_after: int
) -> None:
    whole = Table(_config(tmp_path / "whole"))
    _play(whole)

    first = Table(_config(tmp_path / "cut"))
    MatchSaver(first)
    turn = _play(first, stop_after=stop_after)
    assert not first.over
    cut_view = first.view() if first.hand is not None else None

    saved = find_unfinished(tmp_path / "cut")
    again = resume_table(saved)
    if cut_view is not None and first.match.hand is not None:
        assert again.view() == cut_view  # exactly where it stood, mid-hand
        assert [e.text for e in again.events] == [e.text for e in first.events]
    assert again.match.chips == first.match.chips
    MatchSaver(again)
    _play(again, turn=turn)
    # same seed, same bots' decisions going forward (their generators were restored)
    assert _records(again) == _records(whole)
    assert again.match.chips == whole.match.chips
    # no record written twice
    names = sorted(p.name for p in (tmp_path / "cut").glob("*.prh"))
    assert names == [f"test-hand{k:03d}.prh" for k in range(1, whole.match.hands_played + 1)]
    assert read_saved(tmp_path / "cut" / f"test{SAVE_SUFFIX}").over
    with pytest.raises(ResumeError, match="no unfinished match"):
        find_unfinished(tmp_path / "cut")


def test_the_save_is_rewritten_after_every_action(tmp_path: Path) -> None:
    table = Table(_config(tmp_path))
    MatchSaver(table)
    table.start_hand()
    table.advance()
    path = tmp_path / f"test{SAVE_SUFFIX}"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert table.hand is not None
    assert data["current"] == table.hand.lines()
    table.act(table.parse_input(_move(table.view(), 1)))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["current"] == table.hand.lines()
    assert data["hands"] == [] and data["over"] is False


def test_a_live_match_resumes_from_its_saved_lines(tmp_path: Path) -> None:
    # A live deal (seed None) can put the person out of the match within 5 moves (30 chips
    # against bots that bet big), and then nothing is left to resume: such a match is
    # played again, live, in a folder of its own (20 tries; one alone ends that early about
    # once in a few hundred matches).
    for attempt in range(20):
        folder = tmp_path / f"live{attempt}"
        first = Table(_config(folder, seed=None))
        MatchSaver(first)
        turn = _play(first, stop_after=5)
        if not (first.over or first.human_out):
            break
    else:
        pytest.fail("20 live matches in a row ended within the person's first 5 moves")
    again = resume_table(find_unfinished(folder))
    assert _records(again) == _records(first)
    assert again.match.chips == first.match.chips
    if first.hand is not None and first.match.hand is not None:
        assert again.view() == first.view()
    MatchSaver(again)
    _play(again, turn=turn)
    assert again.over or again.human_out
    assert sum(again.match.chips) == 120


def test_a_save_that_does_not_replay_is_refused_with_the_line(tmp_path: Path) -> None:
    table = Table(_config(tmp_path))
    MatchSaver(table)
    _play(table, stop_after=15)
    path = tmp_path / f"test{SAVE_SUFFIX}"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["hands"], "a finished hand to spoil"
    data["hands"][0][0] = "d dh p1 Ac Ad"  # not what the seeded dealer deals
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ResumeError, match=r"hand 1, line 1: the seeded game makes"):
        resume_table(read_saved(path))
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ResumeError, match="cannot be read as a saved match"):
        read_saved(path)


def test_play_resume_cli(tmp_path: Path) -> None:
    folder = tmp_path / "h"
    args = [
        "play",
        "--plain",
        "--seed",
        "4",
        "--players",
        "4",
        "--max-hands",
        "2",
        "--save-dir",
        str(folder),
    ]
    result = runner.invoke(app, args, input="q\ny\n")
    assert result.exit_code == 0, result.output
    result = runner.invoke(
        app, ["play", "--plain", "--resume", "--seed", "4", "--save-dir", str(folder)]
    )
    assert result.exit_code == 2
    assert "leave out --seed" in result.stderr
    result = runner.invoke(app, ["play", "--plain", "--resume", "--no-save"])
    assert result.exit_code == 2 and "--no-save" in result.stderr
    result = runner.invoke(app, ["play", "--plain", "--resume", "--save-dir", str(tmp_path / "x")])
    assert result.exit_code == 2 and "no unfinished match saved in" in result.stderr
    result = runner.invoke(
        app, ["play", "--plain", "--resume", "--save-dir", str(folder)], input="q\ny\n"
    )
    assert result.exit_code == 0, result.output
    assert "Resuming the match" in result.stdout
    assert "Hand 1" in result.stdout and "(resumed where you left it)" in result.stdout
