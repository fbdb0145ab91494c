"""Citable results: named benchmark configurations, and what results.json records of the
code that played (external agents' code hash and seeds, the checkout's dirty flag)."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.cli import app
from primero.engine.rules import Rules
from primero.research.benchmark import BENCHMARKS, benchmark_of, get_benchmark
from primero.research.provenance import git_state
from tests.research import research_seeded_agents as agents

runner = CliRunner()


def _said(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


def test_the_benchmarks_are_named_versioned_tables() -> None:
    four = get_benchmark("primero-4p-v1")
    assert (four.version, four.players, four.stack, four.preset) == (1, 4, 100, "")
    assert four.rules == Rules() and four.max_void_deals == 20 and four.reward_scale == 1.0
    mini = get_benchmark("primero-mini-v1")
    assert (mini.version, mini.players, mini.stack, mini.preset) == (1, 2, 2, "mini")
    assert mini.rules.ties == "split" and mini.rules.ante == 1 and mini.max_void_deals == 1
    assert set(BENCHMARKS) == {"primero-4p-v1", "primero-mini-v1"}
    assert benchmark_of(4, 100, Rules(), "") is four
    assert benchmark_of(4, 100, Rules(ties="split"), "") is None
    with pytest.raises(ValueError, match="the benchmarks are primero-4p-v1, primero-mini-v1"):
        get_benchmark("primero-4p-v2")


def _run(tmp_path: Path, *args: str) -> dict[str, object]:
    out = tmp_path / "t"
    result = runner.invoke(app, ["tournament", *args, "--no-plots", "--out", str(out)])
    assert result.exit_code == 0, result.output
    doc: dict[str, object] = json.loads((out / "results.json").read_text())
    return doc


def test_results_name_the_benchmark_they_were_played_on(tmp_path: Path) -> None:
    doc = _run(tmp_path, "--benchmark", "primero-mini-v1", "--bots", "cfr,random", "--hands", "4")
    bench = doc["benchmark"]
    assert isinstance(bench, dict)
    assert (bench["name"], bench["players"], bench["stack"]) == ("primero-mini-v1", 2, 2)
    assert bench["rules"]["ties"] == "split" and bench["reward_scale"] == 1.0
    assert doc["settings"]["preset"] == "mini"  # type: ignore[index]
    doc = _run(tmp_path, "--bots", "random,bluff", "--hands", "2")
    assert doc["benchmark"]["name"] == "primero-4p-v1"  # type: ignore[index]
    doc = _run(tmp_path, "--bots", "random,bluff", "--hands", "2", "--players", "3")
    assert doc["benchmark"] is None


def test_a_bad_benchmark_is_refused_in_words(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = runner.invoke(app, ["tournament", "--benchmark", "nope", "--out", str(out)])
    assert result.exit_code == 2
    assert "no benchmark called 'nope': the benchmarks are primero-4p-v1" in _said(result.output)
    args = ["tournament", "--benchmark", "primero-4p-v1", "--players", "3", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "primero-4p-v1 fixes the table (4 players, stacks of 100)" in _said(result.output)
    assert not out.exists()


def test_results_record_each_external_agents_code_and_seeds(tmp_path: Path) -> None:
    agents.SeededRandom.made.clear()
    seeded = "tests.research.research_seeded_agents:SeededRandom"
    unseeded = "tests.research.research_seeded_agents:unseeded"
    doc = _run(tmp_path, "--bots", f"{seeded},{unseeded},bluff", "--hands", "6", "--seed", "4")
    records = {r["entrant"]: r for r in doc["agents"]}  # type: ignore[attr-defined]
    assert set(records) == {seeded, unseeded}  # the built-in kind needs no record
    source = Path(agents.__file__)
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    for record in records.values():
        assert record["file"] == "research_seeded_agents.py" and record["sha256"] == digest
    assert records[unseeded]["takes_seed"] is False and "seeds" not in records[unseeded]
    assert records[seeded]["takes_seed"] is True
    tables = records[seeded]["seeds"]
    # the field, then the pairs with the seeded agent in them, as they were played
    assert [t["bots"] for t in tables] == [
        [seeded, unseeded, "bluff"],
        [seeded, unseeded],
        [seeded, "bluff"],
    ]
    handed = [s for t in tables for s in t["seeds"]]
    assert handed == agents.SeededRandom.made  # every seed, in the order it was handed
    # 3 entrants at 4 seats: 6 seatings a deal, each entrant 8 seat-hands; a pair 2 of 4
    assert [len(t["seeds"]) for t in tables] == [8, 12, 12]
    versions = doc["versions"]
    assert isinstance(versions, dict) and versions["dirty"] in (True, False, None)


def test_the_dirty_flag_says_whether_tracked_files_changed(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "agent.py").write_text("x = 1\n")
    git("add", "agent.py")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    commit, dirty = git_state(tmp_path)
    assert commit is not None and len(commit) == 40 and dirty is False
    (tmp_path / "notes.txt").write_text("untracked files do not count\n")
    assert git_state(tmp_path) == (commit, False)
    (tmp_path / "agent.py").write_text("x = 2\n")
    assert git_state(tmp_path) == (commit, True)
