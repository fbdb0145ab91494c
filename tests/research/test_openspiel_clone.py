"""An OpenSpiel clone shares nothing with its original.

A state's deal bookkeeping (each chance move's card, seat, stock flag and void-deal
count, and the cards of a deal in progress) decides which cards the next chance node
offers and how a state is resampled (R8b, R4.3). A clone that shared one of these lists
with its original (``draw_cycle`` did, in a mutation sweep, and no test saw it) would
let the clone's moves rewrite the original's past. Here a clone plays a whole hand and
the original must be exactly as it was, then the other way round; and a state stopped
after ``max_void_deals`` void deals stays stopped in its clone (``truncated``, another
survivor).

Needs the ``research`` extra (open-spiel): tests/needs.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.needs import require

pyspiel = require("pyspiel")
require("primero.research.openspiel")

#: These tests play copies of hands under way on purpose, with every card known: the
#: warning against perfect-information algorithms (HiddenInformationWarning) is expected.
pytestmark = pytest.mark.filterwarnings(
    "ignore::primero.research.openspiel.game.HiddenInformationWarning"
)

#: Every list of a state's deal bookkeeping (primero.research.openspiel.game._Table).
BOOKKEEPING = ("draw_card", "draw_seat", "draw_from_stock", "draw_cycle", "pending")


def _step(state: Any, rng: np.random.RandomState) -> None:
    if state.is_chance_node():
        ids, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(ids, p=probs)))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


def _snapshot(state: Any) -> dict[str, Any]:
    table = state._table
    return {
        **{name: list(getattr(table, name)) for name in BOOKKEEPING},
        "lines": state.hand.lines(),
        "history": state.history(),
        "chance": state.chance_outcomes() if state.is_chance_node() else None,
    }


@pytest.mark.parametrize("moves", [3, 9, 25])  # mid first deal, after it, later on
def test_a_clone_plays_on_and_the_original_is_unchanged(moves: int) -> None:
    game = pyspiel.load_game("python_primero", {"players": 5, "stack": 12})
    rng = np.random.RandomState(moves)
    state = game.new_initial_state()
    for _ in range(moves):
        if state.is_terminal():
            break
        _step(state, rng)
    before = _snapshot(state)
    clone = state.clone()
    while not clone.is_terminal():  # the clone plays on: deals, exchanges, maybe void deals
        _step(clone, rng)
    assert len(clone.history()) > len(state.history())
    assert _snapshot(state) == before

    clone = state.clone()
    clone_before = _snapshot(clone)
    assert clone_before == before
    while not state.is_terminal():  # and the original plays on: the clone keeps its own
        _step(state, rng)
    assert _snapshot(clone) == clone_before


def test_a_clone_of_a_stopped_hand_is_stopped_too() -> None:
    """A state stopped at ``max_void_deals`` void deals (R4.3) is terminal, and so is its
    clone (a clone that forgot the stop survived the sweep)."""
    from primero.research.actionids import EXCHANGE0

    game = pyspiel.load_game(
        "python_primero", {"players": 4, "first_round_stand": True, "max_void_deals": 1}
    )
    state = game.new_initial_state()
    while not state.is_terminal():  # deal, then every player stands pat: a void deal
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            assert EXCHANGE0 in state.legal_actions()
            state.apply_action(EXCHANGE0)
    assert state.hand.void_deals == 1 and not state.hand.complete  # stopped, not played out
    clone = state.clone()
    assert clone.is_terminal() and clone.returns() == state.returns()


def test_a_clones_moves_are_answered_by_its_own_stepper() -> None:
    """Each per-move method bound on a clone (``current_player``, ``_apply_action``...)
    is its own stepper's, never the original's: OpenSpiel copies every attribute of the
    original into the clone, the bound ones included, and the clone must drop those.
    ``chance_outcomes`` and ``returns`` are bound at their first call (the check for a
    perfect-information algorithm, :class:`HiddenInformationWarning`)."""
    from primero.research.openspiel.game import _BOUND

    game = pyspiel.load_game("python_primero", {"players": 3, "stack": 9})
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    for _ in range(12):
        _step(state, rng)
    clone = state.clone()
    assert "chance_outcomes" not in clone.__dict__ and "returns" not in clone.__dict__
    assert clone.chance_outcomes() == state.chance_outcomes()
    assert clone.returns() == state.returns()
    for name in sorted(_BOUND):
        method = clone.__dict__[name]
        owner = getattr(method, "func", method).__self__
        assert owner is clone._fast, name
        assert owner is not state._fast, name
    assert clone.history() == state.history()
