"""The abstract action set (primero.research.abstraction): pot-fraction bets and raises,
their mapping back to full ids and record lines, and the environments that use it."""

from __future__ import annotations

import numpy as np
import pytest

from primero.engine.legal import LegalActions
from primero.engine.state import HandState
from primero.research.abstraction import (
    ABSTRACT_BET0,
    ABSTRACT_RAISE0,
    NUM_ABSTRACT,
    abstract_id_of,
    abstract_legal_ids,
    concrete_id,
    describe_abstract,
    record_line,
)
from primero.research.actionids import BET0, CALL, FOLD, raise0
from tests.needs import require

ppz = require("primero.research.pettingzoo")
pgym = require("primero.research.gymnasium_env")
pz_test = require("pettingzoo.test")
env_checker = require("gymnasium.utils.env_checker")


def test_thirty_two_ids_whatever_the_stack() -> None:
    assert NUM_ABSTRACT == 32
    assert [describe_abstract(i) for i in range(ABSTRACT_BET0, NUM_ABSTRACT)] == [
        "bet the least",
        "bet 1/4 pot",
        "bet 1/2 pot",
        "bet 1 pot",
        "bet 2 pot",
        "bet all-in",
        "raise the least",
        "raise 1/4 pot more",
        "raise 1/2 pot more",
        "raise 1 pot more",
        "raise 2 pot more",
        "raise all-in",
    ]


def test_raises_are_the_bet_to_match_plus_a_share_of_the_pot() -> None:
    """Facing a bet of 5 (min_raise 1) with a pot of 12 and 30 chips: raise to 6 (the
    least), 5 + 3 = 8, 5 + 6 = 11, 5 + 12 = 17, 5 + 24 = 29, 30 (all-in)."""
    legal = LegalActions(1, raise_to=(6, 30), call=5, fold=True)
    ids = abstract_legal_ids(legal, hand_size=4)
    assert ids == [FOLD, CALL, *range(ABSTRACT_RAISE0, ABSTRACT_RAISE0 + 6)]
    amounts = [
        concrete_id(a, legal, pot=12, current_bet=5, max_stack=40) - raise0(40)
        for a in range(ABSTRACT_RAISE0, NUM_ABSTRACT)
    ]
    assert amounts == [6, 8, 11, 17, 29, 30]


def test_a_full_amount_maps_to_the_nearest_abstract_one() -> None:
    """Bets of 1..19 with a pot of 4: the abstract amounts are 1, 1, 2, 4, 8, 19."""
    legal = LegalActions(0, exchange=(1, 2), bet=(1, 19))

    def nearest(x: int) -> int:
        return abstract_id_of(BET0 + x, legal, pot=4, current_bet=0, max_stack=20)

    assert [nearest(x) - ABSTRACT_BET0 for x in (1, 3, 5, 6, 7, 13, 14, 19)] == [
        0,
        2,
        3,
        3,
        4,
        4,
        5,
        5,
    ]
    assert abstract_id_of(12, legal, pot=4, current_bet=0, max_stack=20) == 12  # exchange


def test_amounts_stay_in_the_range_the_rules_allow() -> None:
    """After a refusal of 5 the bettor must bet below it (R8): 1..4, so 1 and 2 pots of
    an 8-chip pot are 4."""
    legal = LegalActions(0, bet=(1, 4))
    bets = [
        concrete_id(a, legal, pot=8, current_bet=0, max_stack=40) - BET0
        for a in range(ABSTRACT_BET0, ABSTRACT_RAISE0)
    ]
    assert bets == [1, 2, 4, 4, 4, 4]
    assert (
        record_line(ABSTRACT_BET0 + 2, legal, seat=0, hand=(), pot=8, current_bet=0, max_stack=40)
        == "p1 b 4"
    )
    with pytest.raises(ValueError, match="not legal now"):
        concrete_id(ABSTRACT_RAISE0, legal, pot=8, current_bet=0, max_stack=40)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_with_abstract_actions_passes_its_api_test_and_records_replay() -> None:
    pz_test.api_test(ppz.env(players=3, stack=30, actions="abstract"), num_cycles=100)
    rng = np.random.RandomState(3)
    for seed in range(10):
        e = ppz.env(players=4, stack=30, actions="abstract")
        e.reset(seed=seed)
        assert e.action_space("p1").n == 32
        for _agent in e.agent_iter(max_iter=2000):
            obs, _r, terminated, truncated, _ = e.last()
            legal = np.flatnonzero(obs["action_mask"])
            e.step(None if terminated or truncated else int(rng.choice(legal)))
        hand = e.unwrapped.hand
        replay = HandState(list(hand.players), list(hand.starting_stacks), hand.rules)
        for line in hand.lines():  # every line the abstract ids played is a legal one
            replay.apply(line)
        assert replay.result == hand.result


def test_gymnasium_with_abstract_actions_passes_check_env() -> None:
    e = pgym.PrimeroEnv(players=3, stack=30, actions="abstract", bots="random")
    env_checker.check_env(e, skip_render_check=True)
    assert e.action_space.n == 32
    with pytest.raises(ValueError, match="'full' or 'abstract'"):
        pgym.PrimeroEnv(actions="coarse")


def test_openspiel_game_with_abstract_actions() -> None:
    pyspiel = require("pyspiel")
    pos = require("primero.research.openspiel")
    game = pyspiel.load_game("python_primero", {"players": 3, "stack": 40, "actions": "abstract"})
    assert game.num_distinct_actions() == 32
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    # p1 opens: the least bet is 1 chip, 1/2 pot of the 3 antes is 2, all-in is 39
    texts = [state.action_to_string(0, a) for a in state.legal_actions()]
    assert "p1 bet the least (bet 1)" in texts
    assert "p1 bet 1/2 pot (bet 2)" in texts
    assert "p1 bet all-in (bet 39)" in texts
    state.apply_action(ABSTRACT_BET0 + 2)
    assert str(state).split("\n")[-1] == "p1 b 2"
    bots = [pos.ViewBot(game, "heuristic", seed=s) for s in range(3)]
    evaluate_bots = require("open_spiel.python.algorithms.evaluate_bots")
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(2))
    assert sum(returns) == 0
    with pytest.raises(ValueError, match="'full' or 'abstract'"):
        pyspiel.load_game("python_primero", {"actions": "coarse"})
