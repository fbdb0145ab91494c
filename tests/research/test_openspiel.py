"""The OpenSpiel game python_primero (primero.research.openspiel): conformance, chance, views,
ISMCTS.

Needs the ``research`` extra (open-spiel); tests/needs.py.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

from primero.engine.cards import DECK, parse_cards
from primero.engine.views import view
from primero.research.actionids import BET0, CALL, EXCHANGE0, num_actions
from tests.needs import require
from tests.research_helpers import deal_lowest, deal_random

pyspiel = require("pyspiel")
pos = require("primero.research.openspiel")


CARD_NAMES = {str(c) for c in DECK}


def _game(**params: Any) -> Any:
    return pyspiel.load_game("python_primero", params)


def _play_random(state: Any, rng: np.random.RandomState) -> None:
    """Play to the end, checking each state's action strings are unique and its
    information states hide every other seat's cards (R9b)."""
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1.0) < 1e-9
            texts = [state.action_to_string(player, a) for a in ids]
            assert len(set(texts)) == len(texts)
            state.apply_action(int(rng.choice(ids, p=probs)))
            continue
        legal = state.legal_actions()
        texts = [state.action_to_string(player, a) for a in legal]
        assert len(set(texts)) == len(texts), texts
        hand = state.hand
        for seat in range(hand.n):
            words = set(state.information_state_string(seat).replace(";", " ").split())
            words |= set(state.observation_string(seat).replace("|", " ").split())
            # every card a seat's strings name is one it was dealt itself (R9b)
            own = {w for _, line in view(hand, seat).private_log for w in line.split()}
            assert (words & CARD_NAMES) <= own
        state.apply_action(int(rng.choice(legal)))


@pytest.mark.parametrize("players", [2, 4, 5, 6, 8])
def test_random_sim_test_with_serialization(players: int) -> None:
    game = _game(players=players, stack=30)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_random_sim_test_under_house_rules() -> None:
    game = pyspiel.load_game(
        "python_primero(players=3,stack=12,ante=0,ties=split,refusal=False,last_round=False,"
        "declarations=False,first_round_stand=True,first_round_zero_bet=True,min_raise=2,"
        "max_raises=1)"
    )
    rules = game.rules
    assert (rules.ante, rules.ties, rules.refusal, rules.max_raises) == (0, "split", False, 1)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_game_info_comes_from_the_parameters() -> None:
    game = _game(players=5, stack=20)
    assert game.num_players() == 5
    assert game.num_distinct_actions() == num_actions(20) == 62
    assert game.max_chance_outcomes() == 40
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-20.0, 80.0, 0.0)
    assert _game().num_players() == 4  # the default
    assert game.observation_tensor_size() == 15 * 5 + 103
    # the observation; (20 + 1) * 4 * 5 + 24 * 5 = 540 record lines of 5 seats + 15 kinds
    # + 1 amount; 3 * 21 + 3 = 66 private slots of 40 cards; 5 * 42 + 1 for the outcome
    assert game.information_state_tensor_size() == 15 * 5 + 103 + 540 * 21 + 66 * 40 + 211


def test_one_stack_per_seat() -> None:
    game = pyspiel.load_game("python_primero(players=3,stacks=30 10 5)")
    assert game.num_distinct_actions() == 22 + 2 * 30  # ids up to the largest stack
    assert (game.min_utility(), game.max_utility()) == (-30.0, 40.0)  # 45 chips - 5
    state = game.new_initial_state()
    assert state.hand.starting_stacks == (30, 10, 5)
    deal_lowest(state)
    # p1 has 30 - 1 ante chips: bets of 1..29 beside three exchanges (R4.3)
    assert state.legal_actions() == [10, 11, 14, *range(BET0 + 1, BET0 + 30)]
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    with pytest.raises(ValueError, match="stacks must be 3 whole numbers"):
        _game(players=3, stacks="30 10")


def test_bad_parameters_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="players must be a whole number from 2 to 8"):
        _game(players=9)
    with pytest.raises(ValueError, match="stack must be"):
        _game(stack=0)
    with pytest.raises(ValueError, match="ties must be 'eldest' or 'split'"):
        _game(ties="coin")
    with pytest.raises(RuntimeError, match="Unknown parameter 'colour'"):
        _game(colour=1)


def test_observers_of_every_seats_cards_or_of_nothing_are_refused() -> None:
    game = _game(players=3)
    everything = pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(ValueError, match="never every seat's cards"):
        game.make_py_observer(everything)
    nothing = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match="observes nothing"):
        game.make_py_observer(nothing)


def test_first_deal_is_one_card_at_a_time_from_the_stock() -> None:
    state = _game(players=4).new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(40))
    assert all(p == pytest.approx(1 / 40) for _, p in outcomes)
    seven_h, king_c = parse_cards("7h Kc")
    state.apply_action(seven_h.id)
    assert len(state.chance_outcomes()) == 39
    assert seven_h.id not in [a for a, _ in state.chance_outcomes()]
    assert state.information_state_string(0).endswith("dealing p1 7h")
    assert state.information_state_string(1).endswith("dealing p1 ??")
    state.apply_action(king_c.id)
    assert state.information_state_string(0) == "p1 of 4: d dh p1 Kc 7h"  # deck order
    assert state.information_state_string(1) == "p2 of 4: d dh p1 ?? ??"
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 5) == "deal 6c"


def test_r8b_stock_first_then_reshuffled_discards() -> None:
    """8 players: p1 exchanges one card, p2..p7 two, p8 bets; the second deal runs out.

    40 - 16 dealt - 13 replacements = 11 stock cards: p1..p5 take 10, p6 gets the last
    stock card, then one of the 13 discards (R8b)."""
    state = _game(players=8, stack=10).new_initial_state()
    deal_lowest(state)
    state.apply_action(EXCHANGE0 + 1)  # p1 discards its first card (deck order)
    deal_lowest(state)
    for _ in range(6):  # p2..p7 discard both cards
        state.apply_action(EXCHANGE0 + 5)
        deal_lowest(state)
    state.apply_action(BET0 + 1)  # p8 bets 1
    state.apply_action(2)  # p1 accepts (R8)
    for _ in range(7):  # p1..p7 call
        state.apply_action(CALL)
    discards = [card for line in state.hand.lines() if " x " in line for card in line.split()[2:]]
    assert len(discards) == 13
    for _ in range(10):  # p1..p5
        assert state.is_chance_node()
        state.apply_action(state.chance_outcomes()[0][0])
    stock = state.hand.stock()
    assert len(stock) == 1
    assert state.chance_outcomes() == [(stock[0].id, 1.0)]
    state.apply_action(stock[0].id)
    outcomes = state.chance_outcomes()
    assert sorted(str(DECK[a]) for a, _ in outcomes) == sorted(discards)
    assert all(p == pytest.approx(1 / 13) for _, p in outcomes)
    state.apply_action(outcomes[-1][0])
    assert state.hand.lines()[-1] == f"d dh p6 {stock[0]} {DECK[outcomes[-1][0]]}"


@pytest.mark.filterwarnings("ignore::primero.research.openspiel.game.HiddenInformationWarning")
def test_clone_and_pickle_round_trips() -> None:  # a copy played on: every card known
    rng = np.random.RandomState(5)
    game = _game(players=4, stack=15)
    state = game.new_initial_state()
    for _ in range(30):
        if state.is_terminal():
            break
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(ids, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
        assert str(copy) == str(state)
        assert copy.history() == state.history()
        assert copy.information_state_string(1) == state.information_state_string(1)
    clone = state.clone()
    rng_a, rng_b = np.random.RandomState(9), np.random.RandomState(9)
    _play_random(state, rng_a)
    _play_random(clone, rng_b)
    assert clone.returns() == state.returns()
    assert str(clone) == str(state)
    restored = pickle.loads(pickle.dumps(game))
    assert str(restored) == str(game)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_random_play_views_and_returns(players: int) -> None:
    rng = np.random.RandomState(players)
    game = _game(players=players, stack=10)
    for _ in range(10):
        state = game.new_initial_state()
        _play_random(state, rng)
        returns = state.returns()
        assert sum(returns) == 0
        assert returns == [float(x) for x in state.hand.result.net]


def test_void_deals_stop_the_hand_at_max_void_deals() -> None:
    state = _game(players=2, max_void_deals=1).new_initial_state()
    deal_lowest(state)
    state.apply_action(EXCHANGE0 + 1)  # p1 exchanges a card
    deal_lowest(state)
    state.apply_action(EXCHANGE0 + 1)  # p2 too: no bet stands, the deal is void (R4.3)
    deal_lowest(state)
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert str(state).endswith("stopped after 1 void deals")


def test_resample_keeps_the_players_information_and_redraws_the_rest() -> None:
    rng = np.random.RandomState(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for players in (3, 5, 8):
        game = _game(players=players, stack=10)
        for _ in range(4):
            state = game.new_initial_state()
            changed = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    ids, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(rng.choice(ids, p=probs)))
                    continue
                me = state.current_player()
                other = state.resample_from_infostate(me, sampler)
                assert other.information_state_string(me) == state.information_state_string(me)
                assert other.legal_actions() == state.legal_actions()
                assert other.hand.hands[me] == state.hand.hands[me]
                # everything the seat observes is the same in the other world (R9b)
                assert other.observation_string(me) == state.observation_string(me)
                assert other.observation_tensor(me) == state.observation_tensor(me)
                assert other.information_state_tensor(me) == state.information_state_tensor(me)
                changed += other.hand.hands != state.hand.hands
                state.apply_action(int(rng.choice(state.legal_actions())))
            assert changed > 0 or len(state.history()) < 3 * players


def test_resample_after_void_deals() -> None:
    """Cards a seat was dealt before a void deal (R4.3) go back into the deck: they do not
    constrain the deals of other seats in the redeal."""
    rng = np.random.RandomState(8)
    state = _game(players=8, stack=10).new_initial_state()
    for _ in range(4):  # four deals in a row where everyone exchanges two cards: void
        for _ in range(8):
            deal_random(state, rng)
            state.apply_action(EXCHANGE0 + 5)
        deal_random(state, rng)
        assert state.hand.void_deals > 0 and state.hand.actions[-1].seat == 7
    deal_random(state, rng)
    state.apply_action(BET0 + 1)  # p1 bets: exchanges are over
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for me in range(8):
        other = state.resample_from_infostate(me, sampler)
        assert other.information_state_string(me) == state.information_state_string(me)
    assert state.hand.void_deals == 4


def test_a_whole_game_played_by_ismcts() -> None:
    ismcts = require("open_spiel.python.algorithms.ismcts")
    mcts = require("open_spiel.python.algorithms.mcts")
    game = _game(players=3, stack=8)
    rs = np.random.RandomState(11)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=12, random_state=rs)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(ids, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
    assert moves >= 3
    assert sum(state.returns()) == 0


def test_rl_environment_and_outcome_sampling_mccfr_run() -> None:
    rl_environment = require("open_spiel.python.rl_environment")
    mccfr = require("open_spiel.python.algorithms.outcome_sampling_mccfr")
    sampler = rl_environment.ChanceEventSampler(seed=3)
    env = rl_environment.Environment(
        "python_primero", chance_event_sampler=sampler, players=3, stack=10
    )
    rng = np.random.RandomState(3)
    for _ in range(5):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            # the observation, 324 record lines of 19, 66 private slots of 40, the outcome
            assert len(step.observations["info_state"][player]) == 148 + 324 * 19 + 2640 + 127
            step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
        assert sum(step.rewards) == 0
    game = _game(players=2, stack=2, max_void_deals=1)
    solver = mccfr.OutcomeSamplingSolver(game)
    for _ in range(20):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    deal_random(state, rng)
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert sum(probs.values()) == pytest.approx(1.0)


def test_view_bots_play_legal_moves_beside_ismcts() -> None:
    ismcts = require("open_spiel.python.algorithms.ismcts")
    mcts = require("open_spiel.python.algorithms.mcts")
    game = _game(players=3, stack=10)
    rs = np.random.RandomState(4)
    searcher = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0, max_simulations=8, random_state=rs
    )
    for hand in range(3):
        bots = [pos.ViewBot(game, "heuristic", seed=hand), pos.ViewBot(game, "random", seed=1)]
        bots.insert(hand, searcher)  # ISMCTSBot has no restart_at: evaluate_bots won't do
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                deal_random(state, rs)
                continue
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        assert sum(state.returns()) == 0.0
    with pytest.raises(ValueError, match="ViewBot plays python_primero, not kuhn_poker"):
        pos.ViewBot(pyspiel.load_game("kuhn_poker"), "random")
    with pytest.raises(ValueError, match="unknown bot kind 'clever'"):
        pos.ViewBot(game, "clever")


# The survivors of a mutmut sweep over openspiel/observer.py, bots.py and resample.py
# (CONTRIBUTING.md "Mutation testing"): whole refusal sentences, the observer's tensor
# and dict, the dealing suffix of an observation string, ViewBot's seed, kind and
# abstract ids, resample's seat bounds and its draw below n.

SINGLE = pyspiel.PrivateInfoType.SINGLE_PLAYER


def test_an_observer_refusal_says_the_whole_sentence() -> None:
    game = _game(players=3)
    everything = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(ValueError) as err:
        game.make_py_observer(everything)
    assert str(err.value) == (
        "python_primero observers show what a seat may see (R9b): the public "
        "information, a seat's own cards or both, never every seat's cards "
        "(private_info=ALL_PLAYERS); state.hand has them, for analysis only"
    )
    with pytest.raises(ValueError) as err:
        game.make_py_observer(None, {"colour": 1})
    assert str(err.value) == "python_primero observers take no parameters, got {'colour': 1}"


def test_the_observer_tensor_is_float32_with_named_parts() -> None:
    game = _game(players=2, max_void_deals=3)
    recall = game.make_py_observer(
        pyspiel.IIGObservationType(perfect_recall=True, public_info=True, private_info=SINGLE)
    )
    assert recall.tensor.dtype == np.float32
    # 2 seats: 2 + 11 + 86 + 34 = 15 * 2 + 103 observation values, then (3 + 1) * 8 + 48
    # = 80 record lines of 2 + 15 + 1, 3 * 4 + 3 = 15 private slots of 40 cards, and
    # 2 * 42 + 1 for the outcome
    shapes = {name: piece.shape for name, piece in recall.dict.items()}
    assert shapes == {
        "player": (2,),
        "state": (11,),
        "private": (86,),
        "table": (34,),
        "history": (80, 18),
        "private_history": (15, 40),
        "outcome": (85,),
    }
    assert list(recall.dict) == list(shapes)  # in the tensor's order
    assert recall.tensor.shape == (133 + 80 * 18 + 15 * 40 + 85,)
    now = game.make_py_observer()
    assert now.tensor.dtype == np.float32
    assert list(now.dict) == ["player", "state", "private", "table"]


def test_an_observation_mid_deal_names_the_card_to_its_seat_only() -> None:
    from primero.research.features import observation_string

    state = _game(players=2, stack=10).new_initial_state()
    state.apply_action(39)  # the first card of p1's deal: card id 39 is Ks
    for seat, shown in ((0, "Ks"), (1, "??")):
        plain = observation_string(view(state.hand, seat))
        assert state.observation_string(seat) == f"{plain}; dealing p1 {shown}"


def _random_play(game: Any, bots: list[Any], rng: np.random.RandomState) -> list[int]:
    """The ids ``bots`` choose over a hand, chance dealt by ``rng``."""
    state = game.new_initial_state()
    chosen: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            deal_random(state, rng)
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        chosen.append(action)
        state.apply_action(action)
    return chosen


def test_a_view_bot_with_a_seed_plays_as_the_bot_with_that_seed() -> None:
    from primero.bots import make_bot
    from primero.research.actionids import id_of

    game = _game(players=3, stack=10)
    bots = [pos.ViewBot(game, "random", seed=5) for _ in range(3)]
    assert bots[0].kind == "random"
    plain = [make_bot("random", 5) for _ in range(3)]
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            deal_random(state, rng)
            continue
        seat = state.current_player()
        seen = view(state.hand, seat)
        expected = id_of(plain[seat](seen), hand=seen.hand, max_stack=10)
        assert bots[seat].step(state) == expected
        state.apply_action(expected)
        moves += 1
    assert moves >= 3


def test_view_bots_with_one_seed_play_one_game_cfr_too() -> None:
    mini = pyspiel.load_game("python_primero", {"preset": "mini"})
    for game, kind in ((_game(players=3, stack=10), "random"), (mini, "cfr")):
        n = game.num_players()
        first = _random_play(
            game, [pos.ViewBot(game, kind, seed=9) for _ in range(n)], np.random.RandomState(1)
        )
        again = _random_play(
            game, [pos.ViewBot(game, kind, seed=9) for _ in range(n)], np.random.RandomState(1)
        )
        assert first == again


def test_a_view_bot_in_an_abstract_game_answers_abstract_ids() -> None:
    game = _game(players=3, stack=10, actions="abstract")
    bots = [pos.ViewBot(game, "heuristic", seed=s) for s in range(3)]
    for hand in range(3):
        _random_play(game, bots, np.random.RandomState(hand))  # each id is legal there


def test_view_bot_refusals_say_the_whole_sentence() -> None:
    game = _game(players=2, stack=2)
    with pytest.raises(ValueError) as err:
        pos.ViewBot(game, "cfr")
    assert str(err.value) == "the cfr bot plays python_primero(preset=mini) only"
    state = game.new_initial_state()  # a chance node: the first deal
    with pytest.raises(ValueError) as err:
        pos.ViewBot(game, "random", seed=1).step(state)
    assert str(err.value) == "ViewBot.step needs a player's move, not a chance node or the end"


def test_resample_refuses_a_seat_past_the_last() -> None:
    state = _game(players=3, stack=10).new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for bad in (3, -1):
        with pytest.raises(ValueError) as err:
            state.resample_from_infostate(bad, sampler)
        assert str(err.value) == f"no player {bad}: players are 0..2"


def test_resample_gives_up_after_its_tries_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    from primero.research.openspiel import resample

    monkeypatch.setattr(resample, "_resample_once", lambda *_: None)  # every replay dead
    state = _game(players=2, stack=10).new_initial_state()
    with pytest.raises(RuntimeError) as err:
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert str(err.value) == "resample_from_infostate found no consistent deal in 200 tries"


def test_a_draw_below_n_scales_the_sample_and_never_reaches_n() -> None:
    from primero.research.openspiel.resample import _below

    assert _below(lambda: 0.5, 4) == 2  # floor(0.5 * 4)
    assert _below(lambda: 0.99, 3) == 2  # floor(2.97)
    assert _below(lambda: 1.0, 3) == 2  # a sampler's 1.0 is the last, not 3
    assert _below(lambda: 0.0, 3) == 0
