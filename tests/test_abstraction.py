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
    abstract_legal_ids,
    concrete_id,
    describe_abstract,
    record_line,
)
from primero.research.actionids import BET0, CALL, FOLD, raise0
from research_helpers import require

ppz = require("primero.research.pettingzoo")
pgym = require("primero.research.gymnasium_env")
pz_test = require("pettingzoo.test")
env_checker = require("gymnasium.utils.env_checker")


def test_thirty_two_ids_whatever_the_stack() -> None:
    assert NUM_ABSTRACT == 32
    assert [describe_abstract(i) for i in range(ABSTRACT_BET0, NUM_ABSTRACT)] == [
        "bet the least", "bet 1/4 pot", "bet 1/2 pot", "bet 1 pot", "bet 2 pot", "bet all-in",
        "raise the least", "raise 1/4 pot more", "raise 1/2 pot more", "raise 1 pot more",
        "raise 2 pot more", "raise all-in",
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


def test_amounts_stay_in_the_range_the_rules_allow() -> None:
    """After a refusal of 5 the bettor must bet below it (R8): 1..4, so 1 and 2 pots of
    an 8-chip pot are 4."""
    legal = LegalActions(0, bet=(1, 4))
    bets = [concrete_id(a, legal, pot=8, current_bet=0, max_stack=40) - BET0
            for a in range(ABSTRACT_BET0, ABSTRACT_RAISE0)]
    assert bets == [1, 2, 4, 4, 4, 4]
    assert record_line(ABSTRACT_BET0 + 2, legal, seat=0, hand=(), pot=8, current_bet=0,
                       max_stack=40) == "p1 b 4"
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
