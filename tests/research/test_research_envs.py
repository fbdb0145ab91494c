"""Hands across OpenSpiel, PettingZoo and Gymnasium: hands that end (max_void_deals,
truncation), canonical information states, observations blind to other seats' hidden
cards (R9b), and callables as the Gymnasium env's opponents.

Needs the ``research`` extra; tests/needs.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from primero.engine.actions import Action, Exchange
from primero.engine.cards import parse_cards
from primero.engine.state import HandState
from primero.engine.views import SeatView, view
from primero.research.actionids import BET0, EXCHANGE0
from primero.research.features import (
    infostate_string,
    infostate_vector,
    observation_string,
    observation_vector,
)
from tests.needs import require
from tests.research_helpers import deal_lowest, exchange_or_refuse

pyspiel = require("pyspiel")
pos = require("primero.research.openspiel")
ppz = require("primero.research.pettingzoo")
pgym = require("primero.research.gymnasium_env")


# -- hands that end: the same max_void_deals everywhere (R4.3) -----------------------


def test_openspiel_stubborn_agents_are_stopped_at_max_void_deals() -> None:
    game = pyspiel.load_game("python_primero", {"players": 4, "stack": 10, "max_void_deals": 3})
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        deal_lowest(state)
        if state.is_terminal():
            break
        state.apply_action(exchange_or_refuse(state.legal_actions()))
        moves += 1
    assert moves == 3 * 4  # three void deals of four exchanges each
    assert state.truncated and state.hand.void_deals == 3
    assert state.returns() == [0.0] * 4


def test_pettingzoo_stubborn_agents_are_truncated_not_terminated() -> None:
    e = ppz.env(players=4, stack=10, max_void_deals=3)
    e.reset(seed=5)
    moves = 0
    ends: dict[str, tuple[float, bool, bool]] = {}
    for agent in e.agent_iter(max_iter=1000):
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            ends[agent] = (reward, terminated, truncated)
            e.step(None)
            continue
        e.step(exchange_or_refuse(np.flatnonzero(obs["action_mask"])))
        moves += 1
    assert moves == 12
    assert ends == {f"p{i}": (0, False, True) for i in range(1, 5)}
    assert e.unwrapped.hand.void_deals == 3


def _stubborn_agent(v: SeatView) -> Action:
    """A callable opponent: exchange its first card while it may, else the lowest move."""
    assert v.seat is not None and v.legal is not None
    if v.legal.exchange:
        return Exchange(v.seat, (sorted(v.hand, key=lambda c: c.id)[0],))
    raise AssertionError("only exchanges are due in this test")


def test_gymnasium_stubborn_table_is_truncated_with_reward_0() -> None:
    e = pgym.PrimeroEnv(players=3, stack=10, bots=_stubborn_agent, max_void_deals=2)
    _obs, info = e.reset(seed=1)
    steps = []
    while True:
        legal = np.flatnonzero(info["action_mask"])
        _obs, reward, terminated, truncated, info = e.step(exchange_or_refuse(legal))
        steps.append((reward, terminated, truncated))
        if terminated or truncated:
            break
    assert steps == [(0.0, False, False), (0.0, False, True)]
    assert e.hand.void_deals == 2
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        e.step(EXCHANGE0 + 1)


def test_refusing_every_bet_still_ends_the_hand() -> None:
    """p1 bets the most it may, the others refuse every bet (R8: each refusal caps the
    bettor lower) and exchange when they can: the hand ends within a bound."""
    e = ppz.env(players=3, stack=6, max_void_deals=4)
    e.reset(seed=2)
    moves = 0
    for agent in e.agent_iter(max_iter=1000):
        obs, _reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        bets = [int(a) for a in legal if a >= BET0]
        e.step(max(bets) if agent == "p1" and bets else exchange_or_refuse(legal))
        moves += 1
    # per deal: p1 bets 5, 4, ..., 1 (its stack after the ante; each refused by both
    # voters), then exchanges, and so do the others: a void deal of 5 * 3 + 3 moves
    assert moves == 4 * (5 * 3 + 3)
    hand = e.unwrapped.hand
    assert hand.void_deals == 4 and not hand.complete
    assert hand.lines().count("p2 n") == 4 * 5


# -- canonical information states (R9b) -----------------------------------------------


def _play_deals(order_p1: str, p2: str) -> Any:
    state = pyspiel.load_game("python_primero", {"players": 2, "stack": 5}).new_initial_state()
    for text in (order_p1, p2):
        for card in parse_cards(text):
            state.apply_action(card.id)
    return state


def test_two_deal_orders_give_one_information_state() -> None:
    a, b = _play_deals("7h Kc", "2s 3s"), _play_deals("Kc 7h", "2s 3s")
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(0) == "p1 of 2: d dh p1 Kc 7h; d dh p2 ?? ??"
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.observation_string(0) == b.observation_string(0)
    for s in (a, b):  # exchange the first card in deck order: Kc
        s.apply_action(EXCHANGE0 + 1)
        s.apply_action(parse_cards("Ah")[0].id)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(0).endswith("p1 x Kc; d dh p1 Ah")


def test_observations_do_not_change_with_other_seats_hidden_cards() -> None:
    """Only the other seats' cards differ (their deals and their exchanges' discards):
    every observation of p1, as vectors and strings, is the same (R9b)."""
    views = []
    for others in (("2s 3s", "4d 5d", "3s"), ("Jd Qd", "6c 6s", "Jd")):
        s = HandState(["a", "b", "c"], [20, 20, 20])
        s.apply("d dh p1 7h Kc")
        s.apply(f"d dh p2 {others[0]}")
        s.apply(f"d dh p3 {others[1]}")
        s.apply("p1 x Kc")
        s.apply("d dh p1 Ah")
        s.apply(f"p2 x {others[2]}")
        s.apply("d dh p2 Ac")
        s.apply("p3 b 2")
        views.append(view(s, 0))
    a, b = views
    assert (observation_vector(a, max_stack=20) == observation_vector(b, max_stack=20)).all()
    assert (infostate_vector(a, max_stack=20) == infostate_vector(b, max_stack=20)).all()
    assert observation_string(a) == observation_string(b)
    assert infostate_string(a) == infostate_string(b)


def test_openspiel_observations_ignore_other_seats_cards() -> None:
    a, b = _play_deals("7h Kc", "2s 3s"), _play_deals("7h Kc", "Qd Jc")
    for tensor in ("observation_tensor", "information_state_tensor"):
        assert getattr(a, tensor)(0) == getattr(b, tensor)(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)


# -- any agent in the Gymnasium env ---------------------------------------------------


def test_gymnasium_takes_callables_that_see_their_own_seat_only() -> None:
    seen: list[tuple[int | None, int]] = []

    def agent(v: SeatView) -> Action:
        seen.append((v.seat, len(v.hand)))
        assert all("??" not in line for _, line in v.private_log)
        from primero.bots import make_bot

        return make_bot("random", 3)(v)

    e = pgym.PrimeroEnv(players=3, stack=10, bots=["heuristic", agent, "random"])
    _obs, info = e.reset(seed=4)
    for _ in range(200):
        legal = np.flatnonzero(info["action_mask"])
        _obs, _r, terminated, truncated, info = e.step(int(legal[0]))
        if terminated or truncated:
            break
    assert seen and {s for s, _ in seen} == {1}
    with pytest.raises(ValueError, match="callable"):
        pgym.PrimeroEnv(players=3, bots=["heuristic", "nobody", "random"])


@pytest.mark.parametrize("seed", range(6))
def test_resampled_hidden_cards_leave_every_observation_alone(seed: int) -> None:
    """resample_from_infostate redraws every card the seat cannot see (other seats'
    deals, their discards): each of the seat's observations, tensors and strings, stays
    the same, while the hidden state usually changes (R9b)."""
    rng = np.random.RandomState(seed)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    game = pyspiel.load_game("python_primero", {"players": 3, "stack": 8})
    state = game.new_initial_state()
    for _ in range(int(rng.randint(12, 40))):
        before = state.clone()
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(ids, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        if state.is_terminal():  # the showdown shows the hands: stop before it
            state = before
            break
    changed = 0
    for seat in range(3):
        other = state.resample_from_infostate(seat, sampler)
        for name in (
            "observation_tensor",
            "information_state_tensor",
            "observation_string",
            "information_state_string",
        ):
            assert getattr(other, name)(seat) == getattr(state, name)(seat), name
        changed += other.hand.hands != state.hand.hands
    assert changed >= 1
