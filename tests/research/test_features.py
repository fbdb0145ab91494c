"""Observation vectors and strings of primero.research.features, checked entry by entry by hand."""

from __future__ import annotations

import numpy as np
import pytest

from primero.engine.cards import parse_cards
from primero.engine.state import HandState
from primero.engine.views import view
from primero.research.features import (
    HISTORY_KINDS,
    PER_SEAT,
    hand_returns,
    history_lines,
    history_size,
    infostate_size,
    infostate_string,
    infostate_vector,
    observation_size,
    observation_string,
    observation_vector,
    outcome_string,
    outcome_vector,
    private_history_vector,
    private_slots,
)

LINES = [
    "d dh p1 7h 6h",
    "d dh p2 Ac 2d",
    "d dh p3 Ks Qs",
    "p1 b 3",
    "p2 n",
    "p3 n",  # p1's bet of 3 is refused by all (R8)
    "p1 x 6h",
    "d dh p1 Ah",  # p1 exchanges instead (R4.3)
    "p2 b 2",
    "p3 y",  # p2 bets 2, p3 accepts
    "p3 c",
    "p1 f",  # p3 calls, p1 folds: the first round is over
]


def _hand() -> HandState:
    state = HandState(["Ana", "Ben", "Cleo"], [10, 10, 10])
    for line in LINES:
        state.apply(line)
    return state


def test_sizes() -> None:
    assert observation_size(4) == 163  # 15 * 4 + 103
    # (20 + 1) void-deal cycles of 4 * 4 lines and 24 * 4 more, of 4 seats + 15 kinds + 1
    assert history_lines(4) == 432 and history_size(4) == 432 * 20
    assert private_slots() == 66 and private_slots(1) == 9  # 3 a deal, 3 after
    # 3 seats: 148 + 324 lines of 19 + 66 slots of 40 cards + 3 * 42 + 1 for the outcome
    assert infostate_size(3) == 148 + 324 * 19 + 66 * 40 + 127
    assert infostate_size(3, max_void_deals=1) == 148 + 96 * 19 + 9 * 40 + 127


def test_observation_vector_by_hand() -> None:
    v = view(_hand(), 1)  # Ben (p2): holds Ac 2d, second deal due
    obs = observation_vector(v, max_stack=10)
    assert obs.shape == (148,) and obs.dtype == np.float32
    assert list(obs[:3]) == [0, 1, 0]  # seat p2
    assert list(obs[3:10]) == [0, 0, 1, 0, 0, 0, 0]  # phase: second deal
    assert list(obs[10:14]) == [0, 0, 0, 0]  # not my move, no vote, no open bet, not over
    hand = np.flatnonzero(obs[14:54])
    assert list(hand) == sorted(c.id for c in parse_cards("Ac 2d"))
    assert not obs[54:94].any()  # Ben has discarded nothing
    assert not obs[94:100].any()  # only two cards: no category yet
    p1, p2 = obs[100 : 100 + PER_SEAT], obs[100 + PER_SEAT : 100 + 2 * PER_SEAT]
    # p1: 10 - 1 ante = 9 chips, 1 in the hand, folded, exchanged one card
    assert p1[:4] == pytest.approx([0.9, 0.1, 0.0, 1.0])
    assert p1[9:12] == pytest.approx([0.0, 2 / 3, 0.0])  # no cards (folded); (1+1)/3
    # p2: ante 1 + bet 2: 7 chips left, 3 in the hand, holds 2 cards, no exchange
    assert p2[:4] == pytest.approx([0.7, 0.3, 0.0, 0.0])
    assert p2[9:12] == pytest.approx([0.5, 0.0, 0.0])
    table = obs[100 + 3 * PER_SEAT :]
    assert table[:3] == pytest.approx([0.0, 0.0, 0.0])  # no open bet, vote or cap
    assert table[3] == pytest.approx(7 / 30)  # pot 1 + 3 + 3 over 3 seats x 10 chips
    assert table[4] == pytest.approx(33 / 40)  # 6 + 1 cards dealt: 33 in the stock


_HISTORY = 148  # where the history block starts for 3 seats
_PRIVATE = _HISTORY + 324 * 19  # the private history
_OUTCOME = _PRIVATE + 66 * 40  # the outcome


def test_history_block_by_hand() -> None:
    v = view(_hand(), 2)
    vector = infostate_vector(v, max_stack=10)
    block = vector[_HISTORY:_PRIVATE].reshape(324, 19)
    expected = [  # (seat, kind, amount / 10 or cards / 4) of every line, deals too
        (0, "d", 0.5),
        (1, "d", 0.5),
        (2, "d", 0.5),
        (0, "b", 0.3),
        (1, "n", 0.0),
        (2, "n", 0.0),
        (0, "x1", 0.0),
        (0, "d", 0.25),
        (1, "b", 0.2),
        (2, "y", 0.0),
        (2, "c", 0.0),
        (0, "f", 0.0),
    ]
    for row, (seat, kind, amount) in enumerate(expected):
        assert list(np.flatnonzero(block[row, :3])) == [seat]
        assert list(np.flatnonzero(block[row, 3:18])) == [HISTORY_KINDS.index(kind)]
        assert block[row, 18] == pytest.approx(amount)
    assert not block[len(expected) :].any()
    # public lines only: every seat's history block is the same
    other = infostate_vector(view(_hand(), 0), max_stack=10)[_HISTORY:_PRIVATE]
    assert np.array_equal(other, block.reshape(-1))
    assert not vector[_OUTCOME:].any()  # the hand is not over


def test_private_history_holds_the_seats_own_lines_in_order() -> None:
    slots = private_history_vector(view(_hand(), 0)).reshape(66, 40)
    ids = [sorted(np.flatnonzero(slot)) for slot in slots[:4]]
    # p1's deal, its exchange of 6h, its new card: the k-th own line in slot k (R9b)
    assert ids[:3] == [sorted(c.id for c in parse_cards(x)) for x in ("7h 6h", "6h", "Ah")]
    assert ids[3] == [] and not slots[3:].any()
    assert not private_history_vector(view(_hand(), None)).any()  # the public view


def _finished() -> HandState:
    state = _hand()
    for line in ("d dh p2 3c 4c", "d dh p3 Js Jc", "p2 dc fluxus", "p2 b 1", "p3 f"):
        state.apply(line)
    return state


def test_the_outcome_of_a_finished_hand_as_every_seat_sees_it() -> None:
    state = _finished()
    v = view(state, 2)
    # p1 lost its ante, p3 its ante and the call of 2; p2 took the pot of 8 (R7)
    assert state.result is not None
    assert hand_returns(v) == (-1, 4, -3) == state.result.net
    assert outcome_string(v) == "over: won p2; returns -1 +4 -3"
    assert infostate_string(v).endswith("; p2 b 1; p3 f; over: won p2; returns -1 +4 -3")
    out = outcome_vector(v, max_stack=10)
    assert not out[:120].any()  # nobody showed: p2 won alone (R9b)
    assert out[120:123] == pytest.approx([9 / 30, 14 / 30, 7 / 30])  # (r + 10) / 30
    assert list(out[123:126]) == [0, 1, 0] and out[126] == 0  # p2 won; not stopped
    assert np.array_equal(infostate_vector(v, max_stack=10)[_OUTCOME:], out)
    assert (
        outcome_string(view(_hand(), 0)) == ""
        and not outcome_vector(view(_hand(), 0), max_stack=10).any()
    )


def test_the_public_view_gives_the_public_parts_only() -> None:
    state = _hand()
    public, seat = view(state, None), view(state, 1)
    obs, own = observation_vector(public, max_stack=10), observation_vector(seat, max_stack=10)
    assert not obs[:3].any() and not obs[14:100].any()  # no seat, no cards (R9b)
    assert np.array_equal(obs[100:], own[100:]) and np.array_equal(obs[3:14], own[3:14])
    text = observation_string(public, player=1)
    assert text == observation_string(seat, private=False)
    assert "| hand" not in text and text.startswith("p2 of 3 | phase second deal")
    assert observation_string(seat, public=False) == "p2 of 3 | hand Ac 2d | discards -"
    assert infostate_string(public, player=2) == infostate_string(view(state, 2), private=False)
    assert (
        infostate_string(view(state, 0), public=False)
        == "p1 of 3: d dh p1 6h 7h; p1 x 6h; d dh p1 Ah"
    )
    with pytest.raises(ValueError, match="pass player="):
        observation_string(public)


def test_strings() -> None:
    state = _hand()
    # the cards of a line in deck order (canonical information states)
    assert infostate_string(view(state, 0)).startswith("p1 of 3: d dh p1 6h 7h; d dh p2 ?? ??")
    assert "p1 x 6h; d dh p1 Ah" in infostate_string(view(state, 0))
    assert "p1 x ??; d dh p1 ??" in infostate_string(view(state, 1))
    text = observation_string(view(state, 1))
    assert "hand Ac 2d" in text and "stacks 9 7 7" in text and "folded f.." in text
    assert observation_vector(view(state, None), max_stack=10).shape == (148,)
