"""Local best response (``primero lbr``): seeded, blind to hidden cards, refuses bad input
in words; Mini-Primero's states can be drawn anew behind a player's information."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from primero.cli import app
from primero.research.lbr import LBRConfig, _decide, _game, lbr_hand, run_lbr

pytestmark = pytest.mark.needs("pyspiel")

runner = CliRunner()


def _said(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


def test_bad_input_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="unknown bot kind 'perfect'"):
        LBRConfig(agent="perfect", hands=10)
    with pytest.raises(ValueError, match="the cfr bot plays Mini-Primero only"):
        LBRConfig(agent="cfr", hands=10)
    with pytest.raises(ValueError, match=r"hands must be at least 2 \(for an interval\)"):
        LBRConfig(agent="random", hands=1)
    with pytest.raises(ValueError, match="the mini preset fixes the table"):
        LBRConfig(agent="random", hands=4, preset="mini", players=3, stack=2)
    result = runner.invoke(app, ["lbr", "--agent", "cfr", "--hands", "4"])
    assert result.exit_code == 2
    assert "the cfr bot plays Mini-Primero only: give --preset mini" in _said(result.output)


def test_hands_are_seeded_and_independent_of_order() -> None:
    config = LBRConfig(agent="random", hands=4, preset="mini", players=2, stack=2)
    forward = [lbr_hand(config, h) for h in range(4)]
    assert [lbr_hand(config, h) for h in reversed(range(4))] == forward[::-1]
    assert run_lbr(config).per_hand == tuple(forward)


def test_the_exploiter_decides_from_its_information_only() -> None:
    """Two states the exploiter cannot tell apart (the other seat's cards drawn anew)
    get the same decision from the same seed."""
    config = LBRConfig(agent="heuristic", hands=2, players=2, stack=20, particles=3)
    game = _game(2, 20, "")
    rand = random.Random(5)
    state = game.new_initial_state()
    while state.is_chance_node() or state.current_player() != 0:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rand.choices(outcomes, probs)[0])
        else:
            state.apply_action(state.legal_actions()[0])
    other = state.resample_from_infostate(0, rand.random)
    assert other.information_state_string(0) == state.information_state_string(0)
    assert other.hand.hands[1] != state.hand.hands[1]  # the hidden cards differ
    assert _decide(config, state, 0, 77) == _decide(config, other, 0, 77)


def test_mini_states_can_be_drawn_anew_behind_a_players_information() -> None:
    """Mini-Primero deals each line's cards in deck order: a state drawn anew keeps to it
    (it used to draw a card the ordered deal cannot give and fail)."""
    game = _game(2, 2, "mini")
    rand = random.Random(3)
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rand.choices(outcomes, probs)[0])
                continue
            player = state.current_player()
            other = state.resample_from_infostate(player, rand.random)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.legal_actions() == state.legal_actions()
            state.apply_action(rand.choice(state.legal_actions()))
