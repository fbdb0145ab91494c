"""Tournaments: rotation, seeded units, statistics, engines, output."""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from primero.cli import app
from primero.cli.commands_tournament import ray_flag_args
from primero.research.seating import seatings
from primero.research.tournament import (
    TournamentConfig,
    UnitResult,
    mean_ci,
    play_unit,
    summarize,
    t975,
    unit_seed,
)
from primero.research.tournament_engines import run_local, run_processes, run_ray

BOTS3 = ("random", "heuristic", "search")


def test_seatings_put_every_kind_in_every_seat() -> None:
    bots = ("c", "a", "b")  # sorted by name first: the design is a, b, c's
    table = seatings(bots, 4)
    assert table[:3] == (
        ("a", "b", "c", "a"),
        ("b", "c", "a", "b"),
        ("c", "a", "b", "c"),
    )
    assert len(table) == 6  # x -> a x + b over GF(3): a = 1, then a = 2
    for players in (2, 3, 4, 5, 6):
        rows = seatings(bots, players)
        for seat in range(players):
            assert sorted(row[seat] for row in rows) == ["a", "a", "b", "b", "c", "c"]
        for kind in bots:  # every kind plays 2 * players seat-hands per unit
            assert sum(row.count(kind) for row in rows) == 2 * players


def test_t_quantiles_and_interval_by_hand() -> None:
    assert t975(1) == 12.706 and t975(10) == 2.228 and t975(30) == 2.042
    assert abs(t975(60) - 2.000) < 0.001 and abs(t975(120) - 1.980) < 0.001
    mean, low, high = mean_ci([1.0, 2.0, 3.0])  # sd 1, n 3: 2 +- 4.303 / sqrt(3)
    assert math.isclose(mean - low, high - mean)
    assert mean == 2.0
    assert math.isclose(high - mean, 4.303 / math.sqrt(3))
    assert mean_ci([5.0]) == (5.0, 5.0, 5.0)
    with pytest.raises(ValueError, match="at least one value"):
        mean_ci([])


def test_summary_by_hand() -> None:
    """Three units of two kinds at 2 seats: kind 0 wins 4-2, 0+2, 6+0 chips per unit,
    i.e. 1, 1 and 3 chips per seat-hand: mean 5/3, sd sqrt(4/3), t(0.975, 2) = 4.303."""
    cfg = TournamentConfig(bots=("random", "heuristic"), hands=6, seed=0, players=2)
    units = [
        UnitResult(2, ((6, 0), (-6, 0))),
        UnitResult(0, ((4, -2), (-4, 2))),
        UnitResult(1, ((0, 2), (0, -2))),
    ]
    result = summarize(cfg, units)
    first, second = result.bots
    assert first.bot == "random" and first.seat_hands == 6 and first.chips == 10
    assert math.isclose(first.per_100, 500 / 3)
    half = 100 * 4.303 * math.sqrt(4 / 3) / math.sqrt(3)
    assert math.isclose(first.ci_high - first.per_100, half)
    assert math.isclose(first.per_100 - first.ci_low, half)
    assert math.isclose(second.per_100, -500 / 3)
    assert result.cumulative[0] == (4, 2, 2, 4, 10, 10)  # in unit order, then rotation
    doc = result.to_json()
    assert doc["hands"] == 6 and doc["seed"] == 0
    assert doc["bots"][0]["chips_per_100_hands"] == round(500 / 3, 6)
    with pytest.raises(ValueError, match=r"units 0\.\.2"):
        summarize(cfg, units[:2])


def test_bad_settings_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="unknown bot kind 'perfect'"):
        TournamentConfig(bots=("random", "perfect"), hands=10, seed=1)
    with pytest.raises(ValueError, match="random is named more than once"):
        TournamentConfig(bots=("random", "random"), hands=10, seed=1)
    with pytest.raises(ValueError, match="at least two kinds of bot, not only random"):
        TournamentConfig(bots=("random",), hands=10, seed=1)
    with pytest.raises(ValueError, match="at least two kinds of bot, not none"):
        TournamentConfig(bots=(), hands=10, seed=1)
    with pytest.raises(ValueError, match="players must be from 2 to 6"):
        TournamentConfig(bots=("random", "bluff"), hands=10, seed=1, players=9)
    with pytest.raises(ValueError, match="hands must be at least 1"):
        TournamentConfig(bots=("random", "bluff"), hands=0, seed=1)
    with pytest.raises(ValueError, match="seed must be >= 0"):
        TournamentConfig(bots=("random", "bluff"), hands=1, seed=-1)
    cfg = TournamentConfig(bots=BOTS3, hands=10, seed=1)
    assert (cfg.units, cfg.hands_played) == (2, 12)  # whole units of 6 seatings
    assert cfg.settings()["search_samples"] == 400  # the search bot's default, stated
    plain = TournamentConfig(bots=("random", "bluff"), hands=1, seed=1)
    assert plain.settings()["search_samples"] is None
    with pytest.raises(ValueError, match="unit must be from 0 to 1"):
        play_unit(cfg, 2)


def test_units_are_seeded_and_zero_sum() -> None:
    cfg = TournamentConfig(bots=BOTS3, hands=6, seed=9, search_samples=10)
    one = [play_unit(cfg, u) for u in range(cfg.units)]
    again = [play_unit(cfg, u) for u in reversed(range(cfg.units))]  # any order
    assert one == sorted(again, key=lambda r: r.unit)
    for r in one:
        assert sum(sum(n) for n in r.net) == 0  # chips only change hands (R7)
    assert unit_seed(9, 0) != unit_seed(9, 1) != unit_seed(10, 0)


def test_same_results_for_one_and_two_worker_processes() -> None:
    cfg = TournamentConfig(bots=BOTS3, hands=12, seed=3, search_samples=8)
    local = summarize(cfg, run_local(cfg)).to_json()
    done: list[int] = []
    parallel = summarize(cfg, run_processes(cfg, 2, done.append)).to_json()
    assert parallel == local
    assert sum(done) == cfg.units


@pytest.mark.soak
@pytest.mark.needs("ray")
def test_same_results_on_ray() -> None:
    cfg = TournamentConfig(bots=BOTS3, hands=9, seed=3, search_samples=8)
    local = summarize(cfg, run_local(cfg)).to_json()
    assert summarize(cfg, run_ray(cfg, workers=2)).to_json() == local


@pytest.mark.needs("matplotlib")
def test_command_writes_results_and_plots(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = [
        "tournament",
        "--bots",
        "random,heuristic",
        "--hands",
        "8",
        "--seed",
        "2",
        "--out",
        str(out),
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "per 100 hands" in result.output
    doc = json.loads((out / "results.json").read_text())
    assert doc["hands"] == 8 and doc["settings"]["bots"] == ["random", "heuristic"]
    assert [b["bot"] for b in doc["bots"]] == ["random", "heuristic"]
    assert sum(b["chips"] for b in doc["bots"]) == 0
    for png in ("cumulative.png", "per100.png"):
        assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    run = json.loads((out / "run.json").read_text())
    assert run["engine"] == "local"
    # two worker processes: the same results.json
    out2 = tmp_path / "t2"
    args2 = [*args[:-1], str(out2), "--workers", "2", "--no-plots"]
    assert CliRunner().invoke(app, args2).exit_code == 0
    assert (out2 / "results.json").read_text() == (out / "results.json").read_text()


def test_bare_ray_flag_means_a_local_ray() -> None:
    assert ray_flag_args(["tournament", "--ray"]) == ["tournament", "--ray", "local"]
    assert ray_flag_args(["tournament", "--ray", "-o", "x"]) == [
        "tournament",
        "--ray",
        "local",
        "-o",
        "x",
    ]
    assert ray_flag_args(["tournament", "--ray", "10.0.0.5:6379"]) == [
        "tournament",
        "--ray",
        "10.0.0.5:6379",
    ]
    assert ray_flag_args(["simulate", "--ray"]) == ["simulate", "--ray"]


def test_command_refuses_bad_input() -> None:
    result = CliRunner().invoke(app, ["tournament", "--bots", "random,oracle", "--hands", "3"])
    assert result.exit_code == 2
    assert "unknown bot kind 'oracle'" in result.output
    result = CliRunner().invoke(app, ["tournament", "--workers", "0", "--hands", "3"])
    assert result.exit_code == 2
    assert "workers must be at least 1" in result.output


def test_module_doctests() -> None:
    import doctest

    import primero.bots.search
    import primero.bots.strength
    import primero.cli.commands_tournament
    import primero.research.tournament
    import primero.research.tournament_engines

    for module in (
        primero.research.tournament,
        primero.research.tournament_engines,
        primero.cli.commands_tournament,
        primero.bots.strength,
        primero.bots.search,
    ):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_without_the_extra_the_command_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No matplotlib: results are still written and the missing plots explained; --ray
    without ray: a clear error naming the extra, and nothing written."""
    real = importlib.import_module

    def missing(name: str, package: str | None = None) -> ModuleType:
        if name.split(".")[0] in ("matplotlib", "ray"):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", missing)
    out = tmp_path / "t"
    args = ["tournament", "--bots", "random,heuristic", "--hands", "2", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "no plots" in result.output and "[research]" in result.output
    assert (out / "results.json").exists() and not (out / "per100.png").exists()
    out2 = tmp_path / "t2"
    result = CliRunner().invoke(
        app,
        [
            "tournament",
            "--bots",
            "random,heuristic",
            "--hands",
            "2",
            "--ray",
            "local",
            "--out",
            str(out2),
        ],
    )
    assert result.exit_code == 2
    assert "--ray needs the ray package" in result.output
    assert "'.[research]'" in result.output
    assert not out2.exists()


def test_the_cfr_bot_enters_a_tournament_of_the_mini_preset(tmp_path: Path) -> None:
    from primero.research.mini import MINI_RULES

    cfg = TournamentConfig(
        bots=("cfr", "random"),
        hands=40,
        seed=3,
        players=2,
        stack=2,
        rules=MINI_RULES,
        preset="mini",
    )
    units = [play_unit(cfg, u) for u in range(cfg.units)]
    for unit in units:  # one seat each: every hand is zero-sum, at most the 2-chip stack
        for rotation in range(2):
            won = (unit.net[0][rotation], unit.net[1][rotation])
            assert won[0] == -won[1] and abs(won[0]) <= 2, unit
    assert units == [play_unit(cfg, u) for u in range(cfg.units)]  # seeded (R10)
    assert any(unit.net[0] != (0, 0) for unit in units)
    out = tmp_path / "t"
    result = CliRunner().invoke(
        app,
        [
            "tournament",
            "--preset",
            "mini",
            "--bots",
            "cfr,random",
            "--hands",
            "4",
            "--no-plots",
            "--no-matrix",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    settings = json.loads((out / "results.json").read_text())["settings"]
    assert (settings["preset"], settings["players"], settings["stack"]) == ("mini", 2, 2)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bots", "cfr,random"], "the cfr bot plays Mini-Primero only"),
        (
            ["--preset", "mini", "--players", "3", "--bots", "cfr,random"],
            "the mini preset fixes the table",
        ),
    ],
)
def test_the_cfr_bot_needs_the_mini_preset(args: list[str], words: str) -> None:
    result = CliRunner().invoke(app, ["tournament", *args, "--hands", "2"])
    assert result.exit_code == 2
    assert words in " ".join(result.output.split())
