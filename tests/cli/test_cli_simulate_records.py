"""``primero simulate --save-dir DIR``: each hand's record, and every
record replays with ``primero replay``; the counters are those of the run without it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.cli import app
from primero.cli.commands_simulate import simulate
from primero.engine.history import read_record, replay

runner = CliRunner()


@pytest.mark.parametrize("bots", [["random"], ["heuristic", "random"]])
def test_each_hand_is_saved_and_the_counters_do_not_change(tmp_path: Path, bots: list[str]) -> None:
    hands = 60 if bots == ["random"] else 12
    plain = simulate(hands, 4, bots, 5, stack=10)
    saved = simulate(hands, 4, bots, 5, stack=10, save_dir=tmp_path)
    assert saved == plain  # the same hands, with records or without (R10)
    files = sorted(tmp_path.glob("*.prh"))
    assert [f.name for f in files] == [f"simulate-5-{k:06d}.prh" for k in range(1, hands + 1)]
    net = [0] * 4
    index = {name: i for i, name in enumerate(plain.names)}
    for f in files:
        record = read_record(f)
        outcome = replay(record)
        assert outcome.complete and outcome.error is None, f
        assert outcome.state is not None and outcome.state.result is not None
        for seat, name in enumerate(record.players):
            net[index[name]] += outcome.state.result.net[seat]
    assert net == plain.net  # the records add up to the simulation's chips won


def test_the_command_writes_records_that_primero_replay_accepts(tmp_path: Path) -> None:
    out = tmp_path / "hands"
    done = runner.invoke(
        app,
        [
            "simulate",
            "--bots",
            "random",
            "--players",
            "5",
            "--hands",
            "8",
            "--seed",
            "3",
            "--quiet",
            "--save-dir",
            str(out),
        ],
    )
    assert done.exit_code == 0, done.output
    files = sorted(out.glob("*.prh"))
    assert len(files) == 8
    replayed = runner.invoke(app, ["replay", *map(str, files)])
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.count("complete hand") == 8


def test_a_save_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    done = runner.invoke(
        app, ["simulate", "--hands", "2", "--seed", "1", "--quiet", "--save-dir", str(afile)]
    )
    assert done.exit_code == 2
    assert "is a file, not a folder" in " ".join(done.output.replace("│", " ").split())
