"""The PettingZoo AEC environment (primero.research.pettingzoo) and the Gymnasium one
(primero.research.gymnasium_env): the libraries' own checkers, masks, rewards, seeding, errors.

Needs the ``research`` extra (pettingzoo, gymnasium); tests/needs.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from primero.research.actionids import BET0, EXCHANGE0, num_actions
from primero.research.features import observation_size
from tests.needs import require

pz_test = require("pettingzoo.test")
gymnasium = require("gymnasium")
env_checker = require("gymnasium.utils.env_checker")
ppz = require("primero.research.pettingzoo")
pgym = require("primero.research.gymnasium_env")


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("players", [2, 4, 8])
def test_pettingzoo_api_and_seed_tests(players: int) -> None:
    pz_test.api_test(ppz.env(players=players, stack=20), num_cycles=200)
    pz_test.seed_test(lambda: ppz.env(players=players, stack=20), num_cycles=200)
    pz_test.api_test(ppz.env(players=players, stack=20, history=True), num_cycles=200)


def _play(e: Any, seed: int) -> tuple[list[tuple[str, int | None]], dict[str, float]]:
    """A seeded hand of masked random moves; the moves and each agent's final reward."""
    e.reset(seed=seed)
    rng = np.random.RandomState(seed)
    moves: list[tuple[str, int | None]] = []
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            final[agent] = reward
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        moves.append((agent, action))
        e.step(action)
    return moves, final


def test_rewards_are_the_chips_won_and_the_same_seed_replays() -> None:
    e = ppz.env(players=4, stack=15)
    moves, final = _play(e, seed=21)
    hand = e.unwrapped.hand
    assert hand.complete
    assert final == {f"p{i + 1}": hand.result.net[i] for i in range(4)}
    assert sum(final.values()) == 0
    again, _ = _play(ppz.env(players=4, stack=15), seed=21)
    assert again == moves


def test_observation_is_the_seats_view_and_the_mask_its_legal_moves() -> None:
    e = ppz.env(players=3, stack=10)
    e.reset(seed=4)
    hand = e.unwrapped.hand
    for agent, seat in (("p1", 0), ("p2", 1), ("p3", 2)):
        obs = e.observe(agent)
        assert obs["observation"].shape == (observation_size(3),) == (148,)
        assert obs["action_mask"].shape == (num_actions(10),)
        cards = np.flatnonzero(obs["observation"][3 + 7 + 4 : 3 + 7 + 4 + 40])
        assert sorted(cards) == sorted(c.id for c in hand.hands[seat])  # own cards only
    mask = e.observe("p1")["action_mask"]
    # p1 opens the first round with two cards: exchange 1 or 2 cards, or bet 1..9 (its
    # 10 chips less the ante, R4.1, R4.3)
    assert list(np.flatnonzero(mask)) == [
        EXCHANGE0 + 1,
        EXCHANGE0 + 2,
        EXCHANGE0 + 5,
        *range(BET0 + 1, BET0 + 10),
    ]
    assert not e.observe("p2")["action_mask"].any()


def test_an_illegal_action_is_a_clear_error_and_changes_nothing() -> None:
    e = ppz.env(players=3, stack=10)
    e.reset(seed=4)
    before = list(e.unwrapped.hand.lines())
    with pytest.raises(ValueError, match="not legal for p1 now"):
        e.step(0)  # fold is not allowed in the first round (R4.3)
    assert e.unwrapped.hand.lines() == before
    assert e.agent_selection == "p1"


def test_max_cycles_truncates_every_agent() -> None:
    """Like pettingzoo's max_cycles_test: no agent moves more than max_cycles times, and
    each then steps once more with None to leave."""
    max_cycles = 2
    e = ppz.env(players=4, stack=50, max_cycles=max_cycles)
    e.reset(seed=1)
    counts = dict.fromkeys(e.possible_agents, 0)
    truncated_seen = False
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        counts[agent] += 1
        truncated_seen |= truncated
        if terminated or truncated:
            e.step(None)
        else:
            # exchange when possible, else call: the hand goes on long enough
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[1] if legal[0] == 0 and len(legal) > 1 else legal[0]))
    assert truncated_seen
    assert max(counts.values()) == max_cycles + 1
    assert not e.agents


def test_one_stack_per_seat() -> None:
    e = ppz.env(players=2, stacks=[5, 20])
    e.reset(seed=1)
    assert e.unwrapped.hand.starting_stacks == (5, 20)
    assert e.action_space("p1").n == 22 + 2 * 20
    # p1 opens with 5 - 1 ante chips: exchange 1 or 2 cards, or bet 1..4 (R4.3)
    assert list(np.flatnonzero(e.observe("p1")["action_mask"])) == [10, 11, 14, 21, 22, 23, 24]
    g = pgym.PrimeroEnv(players=3, stacks=[4, 8, 12], seat=2, bots="random")
    g.reset(seed=1)
    assert g.hand.starting_stacks == (4, 8, 12)
    with pytest.raises(ValueError, match="stacks must be 3 whole numbers"):
        pgym.PrimeroEnv(players=3, stacks=[4, 8])
    with pytest.raises(ValueError, match="stacks must be 2 whole numbers"):
        ppz.raw_env(players=2, stacks=[4, 0])


def test_bad_arguments_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="players must be a whole number from 2 to 8"):
        ppz.raw_env(players=1)
    with pytest.raises(ValueError, match="unknown rule 'colour'"):
        ppz.raw_env(colour="red")
    with pytest.raises(ValueError, match="unknown bot kind 'clever'"):
        pgym.PrimeroEnv(bots="clever")


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_env_passes_check_env() -> None:
    env_checker.check_env(pgym.PrimeroEnv(players=4, stack=20))
    env_checker.check_env(pgym.PrimeroEnv(players=3, stack=10, seat=None, bots="random"))
    made = gymnasium.make(pgym.ENV_ID, players=2, stack=10, bots="random", history=True)
    env_checker.check_env(made.unwrapped)
    # the observation, (20 + 1) * 8 + 48 = 216 record lines of 2 + 15 + 1, 66 private
    # slots of 40 cards, 2 * 42 + 1 for the outcome (features.infostate_size)
    assert made.observation_space.shape == (15 * 2 + 103 + 216 * 18 + 66 * 40 + 85,)


def test_gymnasium_episode_reward_is_the_learners_chips() -> None:
    kinds = ["random", "heuristic", "random", "random"]
    e = pgym.PrimeroEnv(players=4, stack=15, seat=2, bots=kinds)
    obs, info = e.reset(seed=8)
    assert info["seat"] == 2
    assert obs[2] == 1.0  # the seat one-hot: p3
    total, done, steps = 0.0, False, 0
    rng = np.random.RandomState(0)
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        assert e.action_masks()[action]
        obs, reward, terminated, truncated, info = e.step(action)
        total += reward
        done = terminated or truncated
        steps += 1
        assert "illegal_action" not in info
    assert e.hand.complete
    assert total == e.hand.result.net[2]


def test_gymnasium_illegal_actions() -> None:
    e = pgym.PrimeroEnv(players=3, stack=10, bots="random")
    _, info = e.reset(seed=2)
    lowest = int(np.flatnonzero(info["action_mask"])[0])
    assert lowest != 0  # fold is not legal in the first round (R4.3)
    e.step(0)
    assert e.hand.lines()[3].startswith("p1 x")  # the lowest legal id: an exchange
    e2 = pgym.PrimeroEnv(players=3, stack=10, bots="random", illegal="raise")
    e2.reset(seed=2)
    with pytest.raises(ValueError, match="not legal now"):
        e2.step(0)


def test_render_shows_only_public_information() -> None:
    e = ppz.env(players=3, stack=10, render_mode="ansi")
    e.reset(seed=5)
    text = e.render()
    assert text.splitlines()[0] == "d dh p1 ?? ??"
    assert text.splitlines()[-1] == "stacks 9 9 9 | pot 3"
    hidden = {str(c) for cards in e.unwrapped.hand.hands for c in cards}
    assert not hidden & set(text.split())
    quiet = ppz.env(players=3)
    quiet.reset(seed=5)
    assert quiet.render() is None  # no render mode
    g = pgym.PrimeroEnv(players=3, stack=10, bots="random", render_mode="ansi")
    g.reset(seed=5)
    shown = g.render()
    assert "legal: exchange" in shown and "bet 9" in shown
    others = {str(c) for s in (1, 2) for c in g.hand.hands[s]}
    assert not others & set(shown.replace(",", " ").split())


def test_calls_out_of_order_are_clear_errors() -> None:
    """env() makes the checks of PettingZoo's order-enforcing wrapper itself."""
    e = ppz.env(players=2, stack=5)
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        e.last()
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        e.observe("p1")
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        e.step(0)
    e.reset(seed=1)
    with pytest.raises(ValueError, match="not legal for p1 now"):
        e.step(10_000)  # out of the action space


def _dead_phase(e: Any, step: Any) -> list[tuple[Any, ...]]:
    """Play seeded masked random moves to the end, then step every agent out with
    ``step(env)``; what the env shows after each of those steps."""
    e.reset(seed=8)
    rng = np.random.RandomState(8)
    shown: list[tuple[Any, ...]] = []
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            step(e)
            shown.append(
                (
                    list(e.agents),
                    e.agent_selection,
                    dict(e.rewards),
                    dict(e._cumulative_rewards),
                    dict(e.terminations),
                    dict(e.truncations),
                    dict(e.infos),
                )
            )
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return shown


@pytest.mark.parametrize("max_cycles", [500, 3])  # played out, and truncated
def test_agents_done_leave_as_pettingzoos_own_dead_step_has_them_leave(
    max_cycles: int,
) -> None:
    """The env's own step for agents done with the hand gives, after each step, the
    agents, the one selected and every dict as PettingZoo's ``AECEnv._was_dead_step``."""
    from pettingzoo import AECEnv

    ours = _dead_phase(ppz.env(players=4, stack=20, max_cycles=max_cycles), lambda e: e.step(None))
    theirs = _dead_phase(
        ppz.env(players=4, stack=20, max_cycles=max_cycles),
        lambda e: AECEnv._was_dead_step(e, None),
    )
    assert len(ours) == 4
    assert ours == theirs
    assert ours[-1][0] == []


def test_a_done_agent_may_only_step_with_none() -> None:
    e = ppz.env(players=2, stack=5)
    e.reset(seed=3)
    while not (e.terminations[e.agent_selection] or e.truncations[e.agent_selection]):
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[-1]))  # bet the most
    with pytest.raises(ValueError, match="only valid action is None"):
        e.step(0)
    assert len(e.agents) == 2


def test_agent_iter_stops_at_max_iter_and_starts_again_each_time() -> None:
    e = ppz.env(players=3, stack=10)
    e.reset(seed=2)
    turns = e.agent_iter(max_iter=4)
    seen = []
    for agent in turns:
        seen.append(agent)
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    assert len(seen) == 4
    assert len(list(zip(turns, range(2), strict=False))) == 2  # a new pass: from 4 again


def test_an_illegal_action_counts_no_move() -> None:
    """``max_cycles`` counts legal moves only: refused ids leave the count as it was."""
    e = ppz.env(players=2, stack=10, max_cycles=2)
    e.reset(seed=4)
    for _ in range(3):
        with pytest.raises(ValueError, match="not legal"):
            e.step(0)  # fold is not allowed in the first round (R4.3)
    e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))  # p1's first move of 2
    assert e.agent_selection == "p2"
    assert not any(e.truncations.values())
