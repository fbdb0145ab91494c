"""The flat steppable hand (:mod:`primero.research.stepper`) against the engine's hand.

Seeded random hands (2 to 8 players, stacks from 1 chip to deep, random house rules,
a small ``max_void`` now and then): after every move the stepper must give the player
to move, the legal ids, the chance outcomes, the observation vector of every seat and,
at the end, the returns of the previous implementation, the engine's
:class:`~primero.engine.state.HandState` driven through
:class:`~primero.research.openspiel.table._Table` with its views
(:func:`primero.engine.views.view`, :func:`primero.research.features.observation_vector`);
its record lines (the hand replayed from its moves) are judged by the referee written
from rules.md (``tests/referee.py``). And the PettingZoo environment on the stepper
against the same environment on the engine's hand, seed for seed.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from primero.engine.dealing import Dealer
from primero.engine.rules import Rules
from primero.engine.state import HandState
from primero.engine.views import view
from primero.research.features import observation_vector
from primero.research.openspiel.table import CHANCE, TERMINAL, _Table
from primero.research.pettingzoo import raw_env
from primero.research.stepper import Stepper
from tests.referee import referee_lines
from tests.strategies import random_rules


def _random_game(rng: random.Random) -> tuple[list[int], Rules, int]:
    n = rng.choice([2, 3, 4, 5, 6, 7, 8])
    top = rng.choice([1, 2, 4, 8, 20, 100])
    stacks = [rng.randint(1, top) for _ in range(n)]
    max_void = rng.choice([1, 2, 1 << 30, 1 << 30])
    return stacks, random_rules(rng, n), max_void


def _check_same(step: Stepper, table: _Table, stack: int) -> None:
    """Every answer of the stepper equals the engine's through the table and views."""
    hand = table.hand
    assert step.player == table.player
    assert step.truncated == table.truncated
    assert step.void_deals == hand.void_deals
    if step.player == CHANCE:
        assert step.chance_outcomes() == table.chance_outcomes()
        assert step.legal_actions() == [a for a, _ in table.chance_outcomes()]
    else:
        assert step.legal_ids() == table.legal_ids()
        assert step.legal_actions() == table.legal_ids()
    for seat in range(hand.n):
        expected = observation_vector(view(hand, seat), max_stack=stack)
        got = np.frombuffer(step.observation(seat), dtype=np.float32)
        assert got.tobytes() == expected.tobytes(), (seat, np.flatnonzero(got != expected))
    if step.player == TERMINAL:
        result = hand.result
        assert step.returns() == (
            [0.0] * hand.n if result is None else [float(x) for x in result.net]
        )


def test_stepper_answers_as_the_engine_through_the_views() -> None:
    meta = random.Random(19_700)
    ended = truncated = reshuffled = 0
    for _ in range(400):
        stacks, rules, max_void = _random_game(meta)
        stack = max(stacks)
        step = Stepper(stacks, rules, stack, max_void)
        names = [f"p{i + 1}" for i in range(len(stacks))]
        table = _Table(HandState(names, list(stacks), rules), stack, max_void)
        table.after_move()
        _check_same(step, table, stack)
        while step.player != TERMINAL:
            if step.player == CHANCE:
                outcomes = step.chance_outcomes()
                move = outcomes[meta.randrange(len(outcomes))][0]
                reshuffled += step.stock_count < step.due_line()[1]
            else:
                ids = step.legal_ids()
                move = ids[meta.randrange(len(ids))]
            step.step(move)
            table.apply(move)
            _check_same(step, table, stack)
        ended += step.net is not None
        truncated += step.truncated
        referee = referee_lines(list(stacks), rules, table.hand.lines())
        if step.net is not None:  # R7: the referee's final stacks
            assert referee.final_stacks == [a + b for a, b in zip(stacks, step.net, strict=True)]
    # the hands covered what they must: played out, stopped at max_void, R8b reshuffles
    assert ended > 300 and truncated > 5 and reshuffled > 0, (ended, truncated, reshuffled)


def test_stepper_refuses_illegal_ids_and_changes_nothing() -> None:
    step = Stepper([10, 10, 10], Rules(), 10)
    with pytest.raises(ValueError, match="card id 40 cannot be dealt now"):
        step.step(40)
    for card in (0, 1, 2, 3, 4, 5):
        step.step(card)
    assert step.player == 0 and step.legal_ids()[:2] == [10, 11]  # p1: exchange 1 card
    before = (list(step.log), step.legal_ids())
    with pytest.raises(ValueError, match="action 0 is not legal now: legal ids are"):
        step.step(0)  # no bet to fold to
    assert (step.log, step.legal_ids()) == before


def test_stepper_copies_and_pickles() -> None:
    rng = random.Random(5)
    step = Stepper([20, 20, 20, 20], Rules(), 20)
    for _ in range(25):
        legal = step.legal_actions()
        step.step(legal[rng.randrange(len(legal))])
    for other in (step.copy(), pickle.loads(pickle.dumps(step))):
        assert other.log == step.log and other.legal_ids() == step.legal_ids()
        assert [other.observation(s) for s in range(4)] == [step.observation(s) for s in range(4)]
        other.step(other.legal_actions()[0])
        assert other.log != step.log  # independent


def test_deal_due_deals_as_the_engines_dealer() -> None:
    """Same random source, same cards: the stepper's dealing is the Dealer's (R10, R8b)."""
    meta = random.Random(77)
    for _ in range(200):
        stacks, rules, _ = _random_game(meta)
        seed = meta.randrange(2**32)
        step = Stepper(stacks, rules, max(stacks))
        hand = HandState([f"p{i + 1}" for i in range(len(stacks))], list(stacks), rules)
        ours, theirs = random.Random(seed), Dealer(random.Random(seed))
        moves = random.Random(seed + 1)
        while step.player != TERMINAL:
            step.deal_due(ours.random)
            theirs.deal_into(hand)
            if step.player == TERMINAL:
                break
            ids = step.legal_ids()
            move = ids[moves.randrange(len(ids))]
            table = _Table(hand, max(stacks))
            table.after_move()
            table.apply(move)
            step.apply(move)
        assert hand.complete
        replayed = _Table(HandState(hand.players, list(stacks), rules), max(stacks))
        replayed.after_move()
        for move in step.log:
            replayed.apply(move)
        assert replayed.hand.lines() == hand.lines()


@pytest.mark.parametrize("history", [False, True])
def test_pettingzoo_on_the_stepper_plays_as_on_the_engine(history: bool) -> None:
    """Seed for seed, the flat environment gives the engine environment's observations,
    masks, rewards, terminations, truncations and record."""
    meta = random.Random(31 if history else 30)
    for _ in range(60):
        stacks, rules, _ = _random_game(meta)
        kwargs = {
            "players": len(stacks),
            "stacks": stacks,
            "max_void_deals": meta.choice([1, 3, 20]),
            "history": history,
            "max_cycles": meta.choice([5, 500]),
            **{
                k: getattr(rules, k)
                for k in (
                    "ante",
                    "ties",
                    "refusal",
                    "last_round",
                    "declarations",
                    "first_round_stand",
                    "first_round_zero_bet",
                    "min_raise",
                    "max_raises",
                )
            },
        }
        flat, engine = raw_env(**kwargs), raw_env(**kwargs)
        engine._flat = False  # the engine's hand, as before the stepper
        seed, moves = meta.randrange(2**31), random.Random(meta.randrange(2**31))
        flat.reset(seed=seed)
        engine.reset(seed=seed)
        assert flat._fast is not None and engine._fast is None
        for agent in flat.agent_iter():
            assert agent == engine.agent_selection
            got, expected = flat.last(), engine.last()
            obs, obs_expected = got[0], expected[0]
            assert obs is not None and obs_expected is not None
            for key in ("observation", "action_mask"):
                assert obs[key].tobytes() == obs_expected[key].tobytes(), key
            assert got[1:] == expected[1:]
            action: int | None = None
            if not (got[2] or got[3]):
                action = int(moves.choice(np.flatnonzero(obs["action_mask"])))
            flat.step(action)
            engine.step(action)
        assert flat.hand.lines() == engine.hand.lines()
        assert flat.rewards == engine.rewards and flat.agents == engine.agents == []
