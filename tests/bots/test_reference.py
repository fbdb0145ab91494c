"""The reference agent: its moves, its features (hand-computed), its weights, its draws."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from primero.bots import make_bot
from primero.bots.reference import FEATURES, MOVES, Decision, Policy, ReferenceBot, load_policy
from primero.engine.actions import Action, Bet, Call, Exchange, Fold, Raise, Vote
from primero.engine.cards import parse_cards
from primero.engine.dealing import Dealer
from primero.engine.match import Agent, play_hand
from primero.engine.state import HandState
from primero.engine.views import SeatView, view

ROOT = Path(__file__).resolve().parents[2]


def _opened() -> HandState:
    """Four seats of 20 chips, seeded deal 1: p1 holds 6c 5s, the pots hold the 4 antes."""
    state = HandState(["A", "B", "C", "D"], [20] * 4)
    Dealer.seeded(1).deal_into(state)
    assert view(state, 0).hand == tuple(parse_cards("6c 5s"))
    return state


def _feature(decision: Decision, name: str) -> float:
    return float(decision.features[FEATURES.index(name)])


def _moves(decision: Decision) -> list[tuple[str, object]]:
    return [(MOVES[m], action) for m, action in decision.options]


def test_a_first_round_opening_offers_the_exchange_and_pot_sized_bets() -> None:
    decision = ReferenceBot(seed=1).decision(view(_opened(), 0))
    assert isinstance(decision, Decision)
    # pot 4: a quarter pot is 1 chip, the least bet too (offered once); half 2, pot 4;
    # all-in is the whole stack left after the ante, 19 (R5)
    assert _moves(decision) == [
        ("exchange", Exchange(0, tuple(parse_cards("5s")))),
        ("least", Bet(0, 1)),
        ("half", Bet(0, 2)),
        ("pot", Bet(0, 4)),
        ("all-in", Bet(0, 19)),
    ]
    assert _feature(decision, "pot / stack") == pytest.approx(4 / 20)
    assert _feature(decision, "stack / starting stack") == pytest.approx(19 / 20)
    assert _feature(decision, "kind: first-round open") == 1.0
    assert _feature(decision, "first round") == 1.0
    assert _feature(decision, "pot odds") == 0.0


def test_a_vote_counts_the_bet_in_the_pot_it_would_join() -> None:
    state = _opened()
    state.apply(Bet(0, 4))
    decision = ReferenceBot(seed=1).decision(view(state, 1))
    assert isinstance(decision, Decision)
    assert _moves(decision) == [("accept", Vote(1, True)), ("refuse", Vote(1, False))]
    # a call of 4 into the antes (4) and the bet (4): 4 / 12 (R8 then R5)
    assert _feature(decision, "pot odds") == pytest.approx(4 / 12)
    assert _feature(decision, "call / stack") == pytest.approx(4 / 19)
    assert _feature(decision, "bet / pot") == pytest.approx(1.0)
    assert _feature(decision, "kind: vote") == 1.0


def test_raises_are_the_bet_plus_pot_fractions_after_calling() -> None:
    state = _opened()
    state.apply(Bet(0, 4))
    state.apply(Vote(1, True))  # one acceptance lets the bet stand (R8): p2 to act
    decision = ReferenceBot(seed=1).decision(view(state, 1))
    assert isinstance(decision, Decision)
    # the pot after calling is 8 + 4 = 12: to 4 + 3, 4 + 6, 4 + 12; least 5, all-in 19
    assert _moves(decision) == [
        ("fold", Fold(1)),
        ("call", Call(1)),
        ("least", Raise(1, 5)),
        ("quarter", Raise(1, 7)),
        ("half", Raise(1, 10)),
        ("pot", Raise(1, 16)),
        ("all-in", Raise(1, 19)),
    ]
    assert _feature(decision, "pot odds") == pytest.approx(4 / 12)
    assert _feature(decision, "kind: facing a bet") == 1.0


def _preferring(move: str, hidden: int = 4) -> Policy:
    b2 = np.zeros(len(MOVES))
    b2[MOVES.index(move)] = 5.0
    return Policy(
        np.zeros((len(FEATURES), hidden)), np.zeros(hidden), np.zeros((hidden, len(MOVES))), b2
    )


def test_a_greedy_policy_plays_its_best_scored_legal_move() -> None:
    state = _opened()
    assert ReferenceBot(policy=_preferring("pot"), greedy=True)(view(state, 0)) == Bet(0, 4)
    # the preferred move is not legal at a vote: the better of the two legal ones
    state.apply(Bet(0, 4))
    assert ReferenceBot(policy=_preferring("fold"), greedy=True)(view(state, 1)) in (
        Vote(1, True),
        Vote(1, False),
    )


def test_equal_scores_draw_every_legal_move_alike() -> None:
    flat = _preferring("fold")
    flat.b2[:] = 0.0
    bot = ReferenceBot(seed=7, policy=flat)
    decision = bot.decision(view(_opened(), 0))
    assert isinstance(decision, Decision)
    counts = Counter(bot.choose(decision) for _ in range(5000))
    assert sorted(counts) == [0, 1, 2, 3, 4]
    assert all(900 < c < 1100 for c in counts.values()), counts


def test_weights_of_the_wrong_shape_are_refused_with_the_shapes() -> None:
    good: dict[str, object] = dict(load_policy().to_json())
    bad = dict(good, w2=[row[:-1] for row in load_policy().w2.tolist()])
    with pytest.raises(ValueError, match=r"do not fit 24 features and 12 moves"):
        Policy.from_json(bad)


def test_the_shipped_weights_say_how_they_were_trained() -> None:
    data = json.loads((ROOT / "src/primero/bots/data/reference.json").read_text())
    assert data["trained_by"] == "tools/train_reference.py"
    assert set(data["population"]) == {"heuristic", "search", "bluff", "uniform", "random", "self"}
    # every stage's arguments, seed 1, and its curve in the docs, one row an iteration
    for stage in data["stages"]:
        assert stage["seed"] == 1
        curve = json.loads((ROOT / stage["curve"]).read_text())
        assert len(curve["curve"]) == stage["iterations"]
        assert curve["arguments"] == stage
    assert data["arguments"] == data["stages"][-1]


def test_two_reference_agents_beat_two_random_bots_over_seeded_hands() -> None:
    net = 0
    for hand in range(60):
        state = HandState(["p1", "p2", "p3", "p4"], [100] * 4)
        agents: list[Agent] = [
            ReferenceBot(seed=hand),
            make_bot("random", hand),
            ReferenceBot(seed=hand + 1),
            make_bot("random", hand + 1),
        ]
        play_hand(state, Dealer.seeded(hand), agents)
        assert state.result is not None
        net += state.result.net[0] + state.result.net[2]
    assert net > 0


def test_the_imitation_phase_maps_the_heuristic_bots_moves_to_the_networks() -> None:
    import train_reference  # tools/, on pytest's pythonpath

    state = _opened()
    decision = ReferenceBot(seed=1).decision(view(state, 0))
    assert isinstance(decision, Decision)
    move_of = train_reference._move_of
    assert MOVES[move_of(decision, Bet(0, 3)) or 0] == "half"  # as near 2 as 4: the smaller
    assert MOVES[move_of(decision, Bet(0, 2)) or 0] == "half"
    assert MOVES[move_of(decision, Bet(0, 15)) or 0] == "all-in"  # nearest to 19
    assert MOVES[move_of(decision, Exchange(0, tuple(parse_cards("6c 5s")))) or 0] == "exchange"
    state.apply(Bet(0, 4))
    vote = ReferenceBot(seed=1).decision(view(state, 1))
    assert isinstance(vote, Decision)
    assert MOVES[move_of(vote, Vote(1, False)) or 0] == "refuse"


def test_a_training_chunk_is_the_same_for_the_same_seed_and_records_the_learner_only() -> None:
    import train_reference

    weights: dict[str, object] = dict(load_policy().to_json())
    job: tuple[dict[str, object], list[dict[str, object]], int, int, int, list[str]]
    job = (weights, [], 5, 0, 6, [])
    first = train_reference.play_chunk(job)
    assert first == train_reference.play_chunk(job)
    assert len(first) == 12  # two learner seats a hand
    for kind, result, steps in first:
        assert kind in train_reference.POPULATION
        assert -1.0 <= result <= 3.0  # a seat loses at most its stack of 100, in stacks
        for features, mask, move in steps:
            assert len(features) == len(FEATURES)
            assert mask >> move & 1  # the move played was a legal one


def test_a_declaration_offers_the_truth_and_one_higher_category() -> None:
    from primero.bots.heuristic import HeuristicBot
    from primero.engine.actions import Declare

    checked: list[int] = []

    def heuristic_checking_declarations(seed: int) -> Agent:
        bot = HeuristicBot(seed=seed)

        def act(v: SeatView) -> Action:
            assert v.legal is not None and v.seat is not None
            if len(v.legal.declare) > 1:
                decision = ReferenceBot(seed=seed).decision(v)
                assert isinstance(decision, Decision)
                declared = {MOVES[m]: a for m, a in decision.options if isinstance(a, Declare)}
                assert declared["declare"] == Declare(v.seat, v.legal.declare[0])  # the truth
                assert declared["declare higher"].category in v.legal.declare[1:]  # R6
                checked.append(seed)
            return bot(v)

        return act

    for deal in range(10):
        state = HandState(["A", "B", "C", "D"], [100] * 4)
        agents = [heuristic_checking_declarations(deal * 4 + s) for s in range(4)]
        play_hand(state, Dealer.seeded(deal), agents)
    assert checked, "no declaration with a choice in 10 seeded hands"
