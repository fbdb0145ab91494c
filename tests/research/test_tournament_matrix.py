"""Tournaments of any agent, the pairwise matrix, ratings and provenance."""

from __future__ import annotations

import importlib
import json
import platform
import re
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from primero.bots import make_bot
from primero.cli import app
from primero.engine.dealing import Dealer
from primero.engine.match import play_hand
from primero.engine.rules import DEFAULT_RULES
from primero.engine.state import HandState
from primero.engine.views import SeatView
from primero.research.tournament import (
    TournamentConfig,
    UnitResult,
    play_unit,
    summarize,
    unit_seed,
)
from primero.research.tournament_agents import SpielAgent, check_entrant, load
from primero.research.tournament_matrix import MatrixResult, pair_result, ratings
from tests.paths import ROOT


def test_an_agent_by_import_path_loses_exactly_its_antes_to_bluff() -> None:
    """By hand: the passive agent never bets and folds to any bet; bluff bets all in at
    once in the first round (or right after the passive seat exchanges), so each passive
    seat loses its ante, 1 chip, every hand: -100 chips per 100 hands, no spread."""
    agents_fixture = importlib.import_module("tests.agents_fixture")
    agents_fixture.Passive.made.clear()
    for entrant in ("tests.agents_fixture:passive", "tests.agents_fixture:Passive"):
        cfg = TournamentConfig(bots=(entrant, "bluff"), hands=8, seed=4, players=4)
        units = [play_unit(cfg, u) for u in range(cfg.units)]
        passive, bluff = summarize(cfg, units).bots
        assert (passive.per_100, passive.ci_low, passive.ci_high) == (-100.0, -100.0, -100.0)
        assert bluff.chips == 16 and passive.seat_hands == 16
    # the class is made once per hand and seat, with the seat's seed (R10)
    made = agents_fixture.Passive.made
    assert len(made) == 16 and unit_seed(4, 0, 0, 0) in made and unit_seed(4, 0, 1, 1) in made


def test_bad_import_paths_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match=r"cannot import 'no_such_pkg\.agents'"):
        check_entrant("no_such_pkg.agents:Strong")
    with pytest.raises(ValueError, match="has no 'Strong'"):
        load("tests.agents_fixture:Strong")
    with pytest.raises(ValueError, match="or module:Name"):
        TournamentConfig(bots=("heuristic", "Strong"), hands=2, seed=1)


def _cards(text: str) -> set[str]:
    return set(re.findall(r"\b[A2-7JQK][cdhs]\b", text))


def test_an_external_agent_sees_no_hidden_card() -> None:
    """R9b: the views an imported agent gets name no card but its own (its deals and
    exchanges) and the hands shown at a showdown; other seats' cards are ``??``."""
    agents_fixture = importlib.import_module("tests.agents_fixture")
    agents_fixture.Recorder.views.clear()
    cfg = TournamentConfig(bots=("tests.agents_fixture:Recorder", "heuristic"), hands=12, seed=2)
    for u in range(cfg.units):
        play_unit(cfg, u)
    views: list[SeatView] = agents_fixture.Recorder.views
    assert len(views) > 20
    hidden_lines = 0
    for v in views:
        assert type(v) is SeatView and v.seat is not None
        me = f"p{v.seat + 1}"
        for _, line in v.private_log:  # its own deals and exchanges only
            assert line.startswith((f"d dh {me} ", f"{me} x"))
        shown = {str(c) for cards in v.shown_cards if cards for c in cards}
        for line in v.public_log:
            assert _cards(line) <= shown, line
            hidden_lines += "??" in line
        own = {str(c) for c in v.hand} | {str(c) for c in v.discards}
        for _, line in v.private_log:
            own |= _cards(line)
        assert _cards(" ".join(v.log)) <= own | shown
    assert hidden_lines > 0


def _first_legal(state: Any) -> int:
    legal = state.legal_actions()
    return int(legal[1] if len(legal) > 1 and legal[0] == 0 else legal[0])


@pytest.mark.needs("pyspiel")
def test_a_pyspiel_bot_gets_a_state_drawn_anew_behind_its_information() -> None:
    from primero.research.tournament_agents import _game

    class Checking:
        """Checks each state it is given against the agent's mirror of the real hand."""

        def __init__(self) -> None:
            self.agent: SpielAgent | None = None
            self.same_object = self.same_infostate = self.same_cards = 0
            self.steps = 0

        def step(self, state: Any) -> int:
            assert self.agent is not None
            truth = self.agent.mirror
            self.steps += 1
            self.same_object += state is truth
            self.same_infostate += state.information_state_string(
                0
            ) == truth.information_state_string(0)
            others = [sorted(map(str, h)) for h in state.hand.hands[1:]]
            real = [sorted(map(str, h)) for h in truth.hand.hands[1:]]
            self.same_cards += others == real
            return _first_legal(state)

    game = _game(4, 20, DEFAULT_RULES)
    for seed in range(3):
        bot = Checking()
        agent = SpielAgent(bot, game, seed=seed)
        bot.agent = agent
        state = HandState(["A", "B", "C", "D"], [20] * 4)
        others = [make_bot("heuristic", 10 * seed + s) for s in (1, 2, 3)]
        play_hand(state, Dealer.seeded(seed), [agent, *others], on_action=agent.observe)
        assert state.result is not None and sum(state.result.net) == 0
        assert bot.steps > 0 and bot.same_object == 0
        assert bot.same_infostate == bot.steps  # indistinguishable for the bot...
        assert bot.same_cards < bot.steps  # ... but the others' cards are drawn anew


@pytest.mark.needs("pyspiel")
def test_a_pyspiel_bot_by_import_path_plays_a_tournament() -> None:
    cfg = TournamentConfig(
        bots=("tests.agents_fixture:FirstLegal", "heuristic"), hands=2, seed=3, stack=20
    )
    unit = play_unit(cfg, 0)
    assert sum(sum(n) for n in unit.net) == 0
    fixture = importlib.import_module("tests.agents_fixture")
    assert fixture.FirstLegal.states  # it was asked


def test_pairs_matrix_and_ratings_by_hand() -> None:
    cfg = TournamentConfig(bots=("random", "heuristic", "bluff"), hands=6, seed=1)
    pair = cfg.pair("random", "bluff")
    assert pair.bots == ("random", "bluff") and pair.seed == 1 and pair.hands == 6
    # three units of random against bluff at 4 seats: random wins 8, -4, 2 chips a unit,
    # i.e. 2, -1, 0.5 chips a seat-hand: mean 0.5, per 100 hands +50
    units = [
        UnitResult(0, ((4, 4), (-4, -4))),
        UnitResult(1, ((-4, 0), (4, 0))),
        UnitResult(2, ((2, 0), (-2, 0))),
    ]
    p = pair_result(pair, units)
    assert (p.a, p.b, p.hands) == ("random", "bluff", 6) and p.per_100 == pytest.approx(50.0)
    assert p.ci_low < 50 < p.ci_high
    field = summarize(cfg, [UnitResult(u, ((0, 0, 0), (0, 0, 0), (0, 0, 0))) for u in range(2)])
    result = MatrixResult(field=field, pairs=(p,), ratings=None)
    m = result.matrix()
    assert m[0][0] is None and m[0][1] is None  # random-heuristic not played here
    assert m[0][2] is p and m[2][0] is not None
    assert m[2][0].per_100 == -p.per_100 and m[2][0].ci_low == -p.ci_high
    doc = result.to_json({"python": "x"})
    assert doc["matrix"]["chips_per_100_hands"][2][0] == round(-p.per_100, 6)
    assert doc["seeds"]["deals"] == [unit_seed(1, 0), unit_seed(1, 1)]
    assert doc["versions"] == {"python": "x"} and doc["ratings"] is None


@pytest.mark.needs("openskill")
def test_ratings_rank_the_session_winner_first() -> None:
    from primero.research.tournament_matrix import SESSION_HANDS

    assert SESSION_HANDS == 20
    cfg = TournamentConfig(bots=("random", "bluff"), hands=80, seed=1)
    fresh = ratings(("random", "bluff"), [])
    assert fresh is not None
    assert [(r.mu, round(r.sigma, 6)) for r in fresh] == [(25.0, 8.333333)] * 2
    # 40 units of 2 hands: sessions of 10 units. bluff wins 9 units of each by 1 chip
    # and loses one by 50: random wins every session (41 - 9), so random rates first,
    # as the chips say (rated unit by unit, bluff would)
    units = [
        UnitResult(u, ((50, 0), (-50, 0)) if u % 10 == 0 else ((-1, 0), (1, 0)))
        for u in range(cfg.units)
    ]
    rated = ratings(cfg.bots, [(cfg, units)])
    assert rated is not None and [r.bot for r in rated] == ["random", "bluff"]
    assert rated[0].mu > 25 > rated[1].mu and rated[0].sigma < 8.3
    assert rated[0].ordinal == pytest.approx(rated[0].mu - 3 * rated[0].sigma)


def test_command_records_matrix_ratings_versions_and_seeds(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = [
        "tournament",
        "--bots",
        "tests.agents_fixture:Passive,bluff,uniform",
        "--hands",
        "6",
        "--seed",
        "5",
        "--out",
        str(out),
        "--no-plots",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Pairs heads-up" in result.output
    doc = json.loads((out / "results.json").read_text())
    matrix = doc["matrix"]
    assert matrix["bots"] == ["tests.agents_fixture:Passive", "bluff", "uniform"]
    per = matrix["chips_per_100_hands"]
    assert per[0][1] == -100.0 and matrix["ci95"][0][1] == [-100.0, -100.0]  # by hand
    for i in range(3):
        assert per[i][i] is None
        for j in range(3):
            if i != j:
                assert per[i][j] == -per[j][i]
    assert doc["seeds"]["tournament"] == 5
    assert doc["seeds"]["deals"] == [unit_seed(5, u) for u in range(2)]
    versions = doc["versions"]
    assert versions["primero"] == metadata.version("primero")
    assert versions["python"] == platform.python_version()
    assert versions["libraries"]["numpy"] == np.__version__
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    if head.returncode == 0:
        assert versions["commit"] == head.stdout.strip()
    if importlib.util.find_spec("openskill") is not None:
        rated = doc["ratings"]["ratings"]
        assert {r["bot"] for r in rated} == set(matrix["bots"])
        names = [r["bot"] for r in rated]
        assert names.index("bluff") < names.index("tests.agents_fixture:Passive")
    run = json.loads((out / "run.json").read_text())
    assert run["hands"] == 6 * 4  # the field and three pairs
