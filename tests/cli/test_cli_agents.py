"""``primero tournament`` with an agent by import path that misbehaves: one sentence
naming the agent, the hand and what was wrong, exit status 2, nothing written to --out,
with one worker and across a process pool (fix-cli item 1)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.cli import app
from primero.research.tournament import TournamentConfig, play_unit
from primero.research.tournament_agents import AgentError
from tests.paths import ROOT

runner = CliRunner()

# random at p1, the agent at p2 in hand 1 (rotation 0 of unit 0: seat s gets bots[s % 2])
_WHERE = "in hand 1 of the tournament between random, {agent} (seed 1, seat p2)"


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("says_f", "returned 'f', not a move (an Action)"),
        ("says_nothing", "returned None, not a move (an Action)"),
        ("crashes", "raised ZeroDivisionError: division by zero"),
    ],
)
# With worker processes the command runs as a subprocess with a bounded wait: a
# misbehaving agent once left multiprocessing.Pool.terminate() hanging; the process
# engine now kills its workers at the first failure (tournament_engines.run_processes).
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_misbehaving_agent_is_one_sentence_and_exit_2(
    tmp_path: Path, name: str, what: str, workers: str
) -> None:
    agent = f"tests.agents_misbehaving:{name}"
    out = tmp_path / "t"
    args = [
        "tournament",
        "--bots",
        f"random,{agent}",
        "--hands",
        "4",
        "--no-plots",
        "--no-matrix",
        "--workers",
        workers,
        "--out",
        str(out),
    ]
    if workers == "1":
        result = runner.invoke(app, args)
        code, output = result.exit_code, result.output
    else:
        code, output = _run_bounded(args, seconds=_BOUND)
    assert code == 2, output
    expected = f"primero: agent {agent} {what} " + _WHERE.format(agent=agent)
    last = output.strip().splitlines()[-1]
    if workers == "1":
        assert last == expected
    else:  # with worker processes the first unit to fail is named: any hand of it
        assert re.fullmatch(re.escape(expected).replace("hand\\ 1", r"hand\ \d+"), last), last
    assert "Traceback" not in output
    assert not out.exists()


#: Seconds the command with worker processes may take (it takes a few: two workers
#: start, import the package and fail at their first decision).
_BOUND = 120


def _run_bounded(args: list[str], *, seconds: float) -> tuple[int, str]:
    """``python -m primero *args`` with the package ``tests`` importable (the agents' module);
    its exit status and output (stdout then stderr). Fails the test after ``seconds``."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
    }
    try:
        done = subprocess.run(
            [sys.executable, "-m", "primero", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=seconds,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"primero {' '.join(args)} did not end within {seconds} s (a hang)")
    return done.returncode, done.stdout + done.stderr


def test_a_move_the_rules_refuse_is_named_with_the_move() -> None:
    agent = "tests.agents_misbehaving:folds_for_seat_9"
    cfg = TournamentConfig(bots=("random", agent), hands=2, seed=1, players=2)
    with pytest.raises(AgentError) as caught:
        play_unit(cfg, 0)
    message = str(caught.value)
    assert message.startswith(f"agent {agent} returned Fold(seat=9), which is not legal now: ")
    assert message.endswith(
        f" in hand 1 of the tournament between random, {agent} (seed 1, seat p2)"
    )
