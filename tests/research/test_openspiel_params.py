"""python_primero's parameters, game information and the answers of a state, with values
worked out by hand (primero.research.openspiel.game).

Written for the survivors of a mutation sweep (CONTRIBUTING.md
"Mutation testing"): the default parameters, the bound on a hand's length, the
parameter checks' words and the state's answers to another seat could change and no test
saw it. Needs the ``research`` extra (open-spiel); tests/needs.py.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from primero.engine.cards import parse_cards
from primero.engine.rules import Rules
from primero.research.abstraction import NUM_ABSTRACT
from tests.needs import require

pyspiel = require("pyspiel")
game_mod = require("primero.research.openspiel.game")


def _game(**params: Any) -> Any:
    return pyspiel.load_game("python_primero", params)


def _dealt(state: Any, cards: str) -> Any:
    for card in parse_cards(cards):
        state.apply_action(card.id)
    return state


def test_the_defaults_are_four_players_of_100_chips_and_the_default_rules() -> None:
    game = _game()
    assert (game.players, game.stack, game.stacks) == (4, 100, (100,) * 4)
    assert (game.max_void_deals, game.preset, game.abstract) == (20, "", False)
    # Every house rule at its default (R4-R8), any player count OpenSpiel allows.
    assert game.rules == Rules(min_players=2, max_players=8)
    assert game.num_distinct_actions() == 22 + 2 * 100  # bets and raises of 0..100
    kind = game.get_type()
    assert (kind.short_name, kind.min_num_players, kind.max_num_players) == (
        "python_primero", 2, 8
    )  # fmt: skip
    assert kind.long_name == "Primero (Renaissance draw game, ancestor of poker)"
    assert kind.provides_information_state_string and kind.provides_information_state_tensor
    assert kind.provides_observation_string and kind.provides_observation_tensor


def test_each_house_rule_parameter_reaches_the_rules() -> None:
    params = {
        "ante": 0, "ties": "split", "refusal": False, "last_round": False,
        "declarations": False, "first_round_stand": True, "first_round_zero_bet": True,
        "min_raise": 3, "max_raises": 2,
    }  # fmt: skip
    expected = Rules(
        ante=0, ties="split", refusal=False, last_round=False, declarations=False,
        first_round_stand=True, first_round_zero_bet=True, min_raise=3, max_raises=2,
        min_players=2, max_players=8,
    )  # fmt: skip
    assert game_mod.rules_of(params) == expected
    assert _game(**params).rules == expected
    assert game_mod.rules_of({"max_raises": -1}).max_raises is None  # -1: no cap (R5)
    assert game_mod.rules_of({"max_raises": 0}).max_raises == 0


def test_the_bound_on_a_hands_length() -> None:
    # n = 2, stack 2, 1 void deal: r = 4; cycle = 4n + n(r + 1) = 8 + 10 = 18; rounds =
    # 3 (stack + 1)(n + (n - 1)(r + 1)) = 9 * 7 = 63; total = 18 + 8n + n(r + 1) + 2n +
    # 63 = 18 + 16 + 10 + 4 + 63 = 111.
    assert _game(players=2, stack=2, max_void_deals=1).max_game_length() == 111
    # n = 3, stack 5, 2 void deals: r = 15; cycle = 12 + 48 = 60; rounds = 18 * 35 =
    # 630; total = 120 + 24 + 48 + 6 + 630 = 828.
    assert _game(players=3, stack=5, max_void_deals=2).max_game_length() == 828


def test_stacks_one_per_seat_and_their_checks() -> None:
    game = _game(players=3, stacks="1 2 3")
    assert (game.stacks, game.stack) == ((1, 2, 3), 3)  # 1 chip is a stack
    assert (game.min_utility(), game.max_utility()) == (-3.0, 5.0)  # 6 chips - 1
    for bad in ("5 5", "0 5 5", "5 x 5"):
        message = (
            "stacks must be 3 whole numbers of chips >= 1 separated by spaces "
            f"(one per seat, p1 first), not {bad!r}"
        )
        with pytest.raises(ValueError, match=re.escape(message)):
            game_mod.PrimeroGame({"players": 3, "stacks": bad})


def test_bad_parameters_are_said_in_full() -> None:
    game_class = game_mod.PrimeroGame
    with pytest.raises(ValueError) as info:
        game_class({"zeta": 1, "bogus": 2})
    assert str(info.value) == (
        "unknown python_primero parameter(s) bogus, zeta: the parameters are players, "
        "stack, stacks, ante, ties, refusal, last_round, declarations, first_round_stand, "
        "first_round_zero_bet, min_raise, bet_limit, max_raises, max_void_deals, preset, actions"
    )
    cases = {
        "actions must be 'full' or 'abstract', not 'some'": {"actions": "some"},
        "preset must be '' (the full game) or 'mini', not 'tiny'": {"preset": "tiny"},
        "players must be a whole number from 2 to 8, not 1": {"players": 1},
        "players must be a whole number from 2 to 8, not 9": {"players": 9},
        "players must be a whole number from 2 to 8, not True": {"players": True},
        "stack must be a whole number of chips >= 1, not 0": {"stack": 0},
        "stack must be a whole number of chips >= 1, not 2.0": {"stack": 2.0},
        "max_void_deals must be a whole number >= 1, not 0": {"max_void_deals": 0},
        "max_void_deals must be a whole number >= 1, not 1.0": {"max_void_deals": 1.0},
        "the mini preset fixes every parameter: leave out ante, stack": {
            "preset": "mini", "stack": 7, "ante": 3,
        },
    }  # fmt: skip
    for message, params in cases.items():
        with pytest.raises(ValueError) as info:
            game_class(params)
        assert str(info.value) == message
    # The edges are allowed: 2 and 8 players, 1 chip, 1 void deal.
    for params in ({"players": 2}, {"players": 8}, {"stack": 1}, {"max_void_deals": 1}):
        game_class(params)


def test_the_mini_preset_lets_through_what_openspiel_passes() -> None:
    # OpenSpiel passes every parameter: defaults and the preset's own values are let
    # through, and the action set may still be chosen.
    game = game_mod.PrimeroGame({"preset": "mini", "players": 4, "stack": 2, "actions": "abstract"})
    assert (game.preset, game.players, game.stack, game.abstract) == ("mini", 2, 2, True)
    assert game.num_distinct_actions() == NUM_ABSTRACT


def test_a_state_answers_for_the_seat_to_act_only() -> None:
    state = _game(players=2, stack=5).new_initial_state()
    assert state.legal_actions() == list(range(40))  # chance: every card of the stock
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    assert not state.is_player_node() and state.returns() == [0.0, 0.0]
    _dealt(state, "7h")
    assert str(state) == "dealing 7h"  # a deal line under way
    with pytest.raises(ValueError, match=r"^card id 40 cannot be dealt now$"):
        state.apply_action(40)
    seven = parse_cards("7h")[0].id
    with pytest.raises(ValueError, match=rf"^card id {seven} cannot be dealt now$"):
        state.apply_action(seven)  # dealt already
    _dealt(state, "Kc 2s 3s")
    assert str(state) == "d dh p1 7h Kc\nd dh p2 2s 3s"
    assert state.current_player() == 0 and state.is_player_node()
    # p1 may exchange K♣, 7♥ or both, or bet 1 to 4 (R4.3; 4 chips left after the ante).
    legal = [10, 11, 14, 21, 22, 23, 24]
    assert state.legal_actions() == legal and state.legal_actions(0) == legal
    assert state.legal_actions(1) == []
    assert [state.action_to_string(0, a) for a in legal] == [
        "p1 exchange Kc", "p1 exchange 7h", "p1 exchange Kc 7h",
        "p1 bet 1", "p1 bet 2", "p1 bet 3", "p1 bet 4",
    ]  # fmt: skip
    assert state.action_to_string(1, 21) == "p2 bet 1"
    assert state.returns() == [0.0, 0.0]
    with pytest.raises(ValueError) as info:
        state.apply_action(999)
    assert str(info.value) == (
        "action 999 is not legal now: legal ids are [10, 11, 14, 21, 22, 23, 24]"
    )


def test_abstract_bets_are_said_with_the_chips_they_stand_for() -> None:
    state = _dealt(_game(players=2, stack=5, actions="abstract").new_initial_state(), "7h Kc 2s 3s")
    legal = state.legal_actions()
    assert [state.action_to_string(0, a) for a in legal] == [
        "p1 exchange Kc", "p1 exchange 7h", "p1 exchange Kc 7h",
        # pot 2 (the antes), 4 chips behind: the least is 1, a pot is 2.
        "p1 bet the least (bet 1)", "p1 bet 1/4 pot (bet 1)", "p1 bet 1/2 pot (bet 1)",
        "p1 bet 1 pot (bet 2)", "p1 bet 2 pot (bet 4)", "p1 bet all-in (bet 4)",
    ]  # fmt: skip


def test_a_bet_faced_reads_as_a_call_for_the_seat_to_act_only() -> None:
    state = _dealt(_game(players=2, stack=5).new_initial_state(), "7h Kc 2s 3s")
    state.apply_action(22)  # p1 bets 2 (ids 21.. are bets of 1..; two players: no vote)
    assert str(state).split("\n")[-1] == "p1 b 2"
    assert state.current_player() == 1
    legal = state.legal_actions()
    assert [state.action_to_string(1, a) for a in legal] == [
        "p2 fold", "p2 call 2", "p2 raise to 3", "p2 raise to 4",  # 4 chips left
    ]  # fmt: skip
    assert state.action_to_string(0, 1) == "p1 check"  # not to act: nothing to call


def test_an_abstract_bet_is_applied_as_the_chips_it_stands_for() -> None:
    state = _dealt(_game(players=2, stack=5, actions="abstract").new_initial_state(), "7h Kc 2s 3s")
    state.apply_action(23)  # "bet 1 pot": the pot is the 2 antes
    assert str(state).split("\n")[-1] == "p1 b 2"
    # Half the pot more is past Ben's 4 chips: capped at 4, said only to the seat to act.
    assert state.action_to_string(1, 28) == "p2 raise 1/2 pot more (raise to 4)"
    assert state.action_to_string(0, 28) == "p1 raise 1/2 pot more"


def test_the_mask_of_a_seat_not_to_act_is_empty_and_a_finished_hand_has_no_moves() -> None:
    state = _dealt(_game(players=2, stack=5).new_initial_state(), "7h Kc 2s 3s")
    # 22 + 2 * 5 ids; p1's seven (exchange 1 or 2 cards, bet 1 to 4) are set.
    mask = state.legal_actions_mask(0)
    assert len(mask) == 32 and [i for i, on in enumerate(mask) if on] == [
        10,
        11,
        14,
        21,
        22,
        23,
        24,
    ]
    assert not any(state.legal_actions_mask(1))
    state.apply_action(22)  # p1 bets 2
    state.apply_action(0)  # p2 folds: p1 takes the antes, +1 each way
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.legal_actions() == [] and state.legal_actions(0) == []
    assert not any(state.legal_actions_mask(0))


def test_an_abstract_raise_counts_from_the_bet_to_call() -> None:
    state = _dealt(
        _game(players=2, stack=20, actions="abstract").new_initial_state(), "7h Kc 2s 3s"
    )
    state.apply_action(23)  # "bet 1 pot": the 2 antes, so 2
    # The pot is 4 (antes 2, bet 2): a raise of half the pot more goes to 2 + 2 = 4, of
    # a pot to 2 + 4 = 6, of two pots to 2 + 8 = 10; all in is Ben's 19.
    assert [state.action_to_string(1, a) for a in (28, 29, 30, 31)] == [
        "p2 raise 1/2 pot more (raise to 4)",
        "p2 raise 1 pot more (raise to 6)",
        "p2 raise 2 pot more (raise to 10)",
        "p2 raise all-in (raise to 19)",
    ]
    state.apply_action(28)
    assert str(state).split("\n")[-1] == "p2 r 4"


def test_an_abstract_raise_over_a_bet_of_0() -> None:
    params = {"players": 2, "stack": 20, "actions": "abstract", "first_round_zero_bet": True}
    state = _dealt(_game(**params).new_initial_state(), "7h Kc 2s 3s")
    state.apply_action(20)  # "bet the least": 0, allowed by first_round_zero_bet (R4.3)
    assert str(state).split("\n")[-1] == "p1 b 0"
    # The bet to call is 0 and the pot 2: a pot more is 0 + 2, two pots 0 + 4.
    assert state.action_to_string(1, 29) == "p2 raise 1 pot more (raise to 2)"
    assert state.action_to_string(1, 30) == "p2 raise 2 pot more (raise to 4)"
    state.apply_action(29)
    assert str(state).split("\n")[-1] == "p2 r 2"


def test_what_a_game_reports_of_itself() -> None:
    mini = game_mod.PrimeroGame({"preset": "mini", "actions": "abstract"})
    params = mini.get_parameters()
    assert (params["preset"], params["actions"], params["players"]) == ("mini", "abstract", 2)
    # The default observer sees one seat's view now, not the information state.
    assert not _game().make_py_observer().perfect_recall
    # The engine's hand names the seats as the record does (hand-history.md).
    assert _game(players=3).new_initial_state().hand.players == ("p1", "p2", "p3")
