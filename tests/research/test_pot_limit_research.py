"""Pot-limit betting (R5, ``bet_limit = "pot"``) in the research interfaces: the random
playout kernel, OpenSpiel's ``python_primero`` (the flat stepper), PettingZoo and
Gymnasium. The kernel's bets are checked against the pot by an independent count of
the chips in its record lines, not by the engine's own functions."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from primero.engine.rules import Rules
from primero.research.actionids import BET0
from primero.research.fastsim import play_random_hand


def _over_the_pot(stacks: list[int], ante: int, lines: list[str]) -> tuple[int, int]:
    """Count, in a record without votes, the bets and raises beyond the pot after calling
    (docs/rules.md R5) and those exactly at it: ``(over, at)``."""
    n = len(stacks)
    left = [s - min(ante, s) for s in stacks]
    put = [min(ante, s) for s in stacks]
    round_bets = [0] * n
    current = 0
    over = at = 0
    for line in lines:
        words = line.split()
        if words[0] == "d" or words[1] == "x":  # a deal or an exchange: a new round
            round_bets = [0] * n
            current = 0
            continue
        seat, verb = int(words[0][1:]) - 1, words[1]
        pot = sum(put)
        if verb in ("b", "r"):
            total = int(words[2])
            owed = current - round_bets[seat]
            most = pot if verb == "b" else current + pot + owed
            over += total > most
            at += total == most
            chips = total - round_bets[seat]
            current = total
        elif verb == "c":
            chips = min(current - round_bets[seat], left[seat])
        else:  # fold or declaration
            continue
        left[seat] -= chips
        put[seat] += chips
        round_bets[seat] += chips
    return over, at


def _kernel_hands(rules: Rules, count: int) -> tuple[int, int]:
    meta = random.Random(7)
    over = at = 0
    for _ in range(count):
        n = meta.randint(2, 6)
        stacks = [meta.randint(2, 60) for _ in range(n)]
        seed = meta.randrange(2**32)
        out = play_random_hand(
            stacks,
            rules,
            random.Random(seed),
            [random.Random(seed + 1 + i) for i in range(n)],
            record=True,
        )
        assert out.lines is not None
        o, a = _over_the_pot(stacks, rules.ante, out.lines)
        over, at = over + o, at + a
    return over, at


def test_the_kernel_never_bets_beyond_the_pot() -> None:
    rules = Rules(bet_limit="pot", refusal=False, max_players=8, min_players=2)
    over, at = _kernel_hands(rules, 400)
    assert over == 0
    assert at > 0  # the limit is reached, so it is what bounds the bets
    # the same hands without the limit go beyond the pot: the count sees a missing limit
    free, _ = _kernel_hands(Rules(refusal=False, max_players=8, min_players=2), 400)
    assert free > 0


def _first_decision_bets(params: dict[str, Any]) -> list[str]:
    import pyspiel

    import primero.research.openspiel  # noqa: F401  (registers python_primero)

    state = pyspiel.load_game("python_primero", params).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return [
        state.action_to_string(a)
        for a in state.legal_actions()
        if "bet" in state.action_to_string(a)
    ]


@pytest.mark.needs("pyspiel")
def test_openspiel_takes_the_pot_limit_as_a_parameter() -> None:
    params = {"players": 4, "stack": 20, "refusal": False}
    assert _first_decision_bets({**params, "bet_limit": "pot"}) == [
        "p1 bet 1",
        "p1 bet 2",
        "p1 bet 3",
        "p1 bet 4",
    ]
    assert len(_first_decision_bets(params)) == 19  # 1 to 19 chips without a limit


@pytest.mark.needs("pettingzoo", "gymnasium")
def test_the_environments_mask_bets_beyond_the_pot() -> None:
    from primero.research.gymnasium_env import PrimeroEnv
    from primero.research.pettingzoo import env

    aec = env(players=4, stack=20, bet_limit="pot", refusal=False)
    aec.reset(seed=1)
    mask = aec.last()[0]["action_mask"]
    assert [int(i) - BET0 for i in np.flatnonzero(mask) if i >= BET0] == [1, 2, 3, 4]
    gym = PrimeroEnv(players=4, stack=20, bots="random", bet_limit="pot", refusal=False)
    gym.reset(seed=1)
    bets = [int(i) - BET0 for i in np.flatnonzero(gym.action_masks()) if i >= BET0]
    assert bets == [1, 2, 3, 4]
