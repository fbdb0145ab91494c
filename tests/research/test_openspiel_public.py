"""Public-state tools of python_primero: factored observers (public only, private only,
both), an injective perfect-recall information-state tensor, the outcome in the terminal
information state, and the warning against perfect-information algorithms (R9b).

Needs the ``research`` extra (open-spiel): tests/needs.py.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from primero.engine.cards import DECK
from primero.engine.views import view
from primero.research.features import canonical_line, infostate_vector, observation_vector
from tests.needs import require
from tests.research_helpers import deal_lowest, exchange_or_refuse

pyspiel = require("pyspiel")
pos = require("primero.research.openspiel")
game_module = require("primero.research.openspiel.game")
census = require("infostate_collisions").census  # tools/infostate_collisions.py

SINGLE = pyspiel.PrivateInfoType.SINGLE_PLAYER
NONE = pyspiel.PrivateInfoType.NONE
CARD_NAMES = {str(c) for c in DECK}


def _kind(recall: bool, public: bool, private: bool) -> Any:
    return pyspiel.IIGObservationType(
        perfect_recall=recall, public_info=public, private_info=SINGLE if private else NONE
    )


def _mid_hand(seed: int = 4, moves: int = 14) -> Any:
    """A 3-seat hand after ``moves`` seeded moves (cards dealt, some bets), dealt on to
    the next decision."""
    game = pyspiel.load_game("python_primero", {"players": 3, "stack": 10})
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    for _ in range(moves):
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(ids, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    while state.is_chance_node():  # on to the next decision
        ids, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(ids, p=probs)))
    return state


# -- factored observers --------------------------------------------------------------


def test_a_public_observer_shows_no_seats_cards_and_the_same_to_every_seat() -> None:
    state = _mid_hand()
    game = state.get_game()
    for recall in (False, True):
        public = game.make_py_observer(_kind(recall, True, False))
        assert "private" not in public.dict and "private_history" not in public.dict
        texts, tensors = [], []
        for seat in range(3):
            text = public.string_from(state, seat)
            assert not set(text.replace(";", " ").split()) & CARD_NAMES  # every card ?? (R9b)
            texts.append(text.split(" ", 1)[1])  # all but "p2"
            public.set_from(state, seat)
            assert list(public.dict["player"]) == [float(seat == s) for s in range(3)]
            tensors.append(public.tensor[3:].copy())
        assert texts[0] == texts[1] == texts[2]
        assert all(np.array_equal(tensors[0], t) for t in tensors)


def test_a_private_observer_shows_the_seats_own_cards_only() -> None:
    state = _mid_hand()
    game = state.get_game()
    mine = view(state.hand, 1)
    now = game.make_py_observer(_kind(False, False, True))
    assert list(now.dict) == ["player", "private"]
    hand = " ".join(str(c) for c in sorted(mine.hand, key=lambda c: c.id))
    assert now.string_from(state, 1) == f"p2 of 3 | hand {hand} | discards -"
    now.set_from(state, 1)
    assert sorted(np.flatnonzero(now.dict["private"][:40])) == sorted(c.id for c in mine.hand)
    recall = game.make_py_observer(_kind(True, False, True))
    own = "; ".join(canonical_line(line) for _, line in mine.private_log)  # its own lines
    assert recall.string_from(state, 1) == f"p2 of 3: {own}"
    assert own.startswith("d dh p2 ")


def test_both_kinds_together_are_the_seats_observation_and_information_state() -> None:
    state = _mid_hand()
    game = state.get_game()
    assert not state.is_chance_node()
    v = view(state.hand, 2)
    both = game.make_py_observer(_kind(False, True, True))
    both.set_from(state, 2)
    assert np.array_equal(both.tensor, observation_vector(v, max_stack=10))
    recall = game.make_py_observer(_kind(True, True, True))
    recall.set_from(state, 2)
    assert np.array_equal(recall.tensor, infostate_vector(v, max_stack=10))
    assert np.array_equal(recall.tensor, np.asarray(state.information_state_tensor(2)))
    # the public pieces of the two kinds agree but for the seat's own flags
    public = game.make_py_observer(_kind(True, True, False))
    public.set_from(state, 2)
    for name in ("history", "outcome"):
        assert np.array_equal(public.dict[name], recall.dict[name]), name


def test_a_deal_under_way_as_each_observer_sees_it() -> None:
    game = pyspiel.load_game("python_primero", {"players": 2, "stack": 10})
    state = game.new_initial_state()
    state.apply_action(39)  # the first card of p1's deal: Ks
    strings = {
        (public, private): game.make_py_observer(_kind(True, public, private))
        for public, private in ((True, True), (True, False), (False, True))
    }
    assert strings[True, True].string_from(state, 0) == "p1 of 2: ; dealing p1 Ks"
    assert strings[True, True].string_from(state, 1) == "p2 of 2: ; dealing p1 ??"
    assert strings[True, False].string_from(state, 0) == "p1 of 2: ; dealing p1 ??"
    assert strings[False, True].string_from(state, 0) == "p1 of 2: ; dealing p1 Ks"
    assert strings[False, True].string_from(state, 1) == "p2 of 2: "  # not its deal
    recall = strings[True, True]
    recall.set_from(state, 0)
    row = recall.dict["history"][0]  # the deal being drawn: seat p1, a deal, 1 card / 4
    assert list(np.flatnonzero(row)) == [0, 2 + 14, 2 + 15] and row[-1] == 0.25
    assert list(np.flatnonzero(recall.dict["private_history"][0])) == [39]
    recall.set_from(state, 1)
    assert not recall.dict["private_history"].any()  # p2 does not see p1's card


# -- the information-state tensor is injective ---------------------------------------


@pytest.mark.soak
def test_equal_information_state_tensors_are_equal_information_states() -> None:
    """1,000 seeded random hands of 3 seats, exchanging often (void deals, R4.3, and
    hands stopped at max_void_deals): every seat's information state at every node,
    string and tensor (kept as hashes); no tensor belongs to two strings. (The earlier
    tensor, the last 16n public lines, gave 19,530 collisions here.)"""
    found = census({"players": 3, "stack": 10, "max_void_deals": 3}, 1000, seed=1)
    assert found.collisions == 0
    assert found.states > 50_000
    assert found.void > 300 and found.stopped > 50  # void deals were played


def test_equal_public_tensors_are_equal_public_states() -> None:
    found = census({"players": 3, "stack": 10, "max_void_deals": 2}, 80, seed=2, public=True)
    assert found.collisions == 0 and found.void > 20


# -- the outcome --------------------------------------------------------------------


def test_the_terminal_information_state_says_the_outcome() -> None:
    state = _mid_hand(seed=7, moves=0)
    rng = np.random.RandomState(7)
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(ids, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    returns = " ".join(f"{int(r):+d}" for r in state.returns())
    result = state.hand.result
    takers = {s for a in result.awards for s, x in zip(a.winners, a.shares, strict=True) if x}
    won = " ".join(f"p{s + 1}" for s in sorted(takers))
    for seat in range(3):
        text = state.information_state_string(seat)
        assert text.endswith(f"won {won}; returns {returns}"), text
        assert "; over: " in text
    tensor = np.asarray(state.information_state_tensor(0))
    outcome = tensor[-(3 * 42 + 1) :]
    assert outcome[120:123] == pytest.approx([(r + 10) / 30 for r in state.returns()])


def test_a_stopped_hand_says_so_in_its_information_state() -> None:
    game = pyspiel.load_game("python_primero", {"players": 3, "stack": 10, "max_void_deals": 2})
    state = game.new_initial_state()
    while not state.is_terminal():
        deal_lowest(state)
        if not state.is_terminal():
            state.apply_action(exchange_or_refuse(state.legal_actions()))
    assert state.truncated
    for seat in range(3):
        text = state.information_state_string(seat)
        assert text.endswith("; stopped after 2 void deals: every return 0")
        assert state.information_state_tensor(seat)[-1] == 1.0  # the stopped flag


# -- perfect-information algorithms are warned about --------------------------------


@pytest.fixture
def fresh_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    """The warning is once a process: let this test see it again."""
    monkeypatch.setattr(game_module, "_warned", False)


def _searched_by(bot: Any, state: Any) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        bot.step(state)
    return [w for w in caught if issubclass(w.category, pos.HiddenInformationWarning)]


@pytest.mark.usefixtures("fresh_warning")
def test_mcts_on_the_real_hand_is_warned_once() -> None:
    mcts = require("open_spiel.python.algorithms.mcts")
    state = _mid_hand()
    rng = np.random.RandomState(1)
    game = state.get_game()
    bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    caught = _searched_by(bot, state)
    assert len(caught) == 1
    assert str(caught[0].message).startswith("python_primero is a game of hidden cards (R9b)")
    assert _searched_by(bot, state) == []  # once a process


@pytest.mark.usefixtures("fresh_warning")
def test_ismcts_tree_walks_and_plain_play_are_not_warned() -> None:
    mcts = require("open_spiel.python.algorithms.mcts")
    ismcts = require("open_spiel.python.algorithms.ismcts")
    state = _mid_hand()
    rng = np.random.RandomState(1)
    game = state.get_game()
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    assert _searched_by(bot, state) == []  # copies of resampled states
    with warnings.catch_warnings():
        warnings.simplefilter("error", pos.HiddenInformationWarning)
        node = game.new_initial_state()  # a walk of the tree from its root, as CFR's
        for _ in range(6):  # the first deal: two cards to each of three seats
            node = node.child(node.chance_outcomes()[0][0])
        assert node.child(node.legal_actions()[0]).returns() == [0.0] * 3
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    assert game_module._warned is False
