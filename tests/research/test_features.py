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
    history_size,
    infostate_size,
    infostate_string,
    infostate_vector,
    observation_size,
    observation_string,
    observation_vector,
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
    assert history_size(4) == 64 * 19  # 16 * 4 lines of 4 seats + 14 kinds + 1 amount
    assert infostate_size(3) == 148 + 48 * 18


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


def test_history_block_by_hand() -> None:
    v = view(_hand(), 2)
    block = infostate_vector(v, max_stack=10)[148:].reshape(48, 18)
    expected = [  # (seat, kind, amount / 10) of each line other than deals
        (0, "b", 0.3),
        (1, "n", 0.0),
        (2, "n", 0.0),
        (0, "x1", 0.0),
        (1, "b", 0.2),
        (2, "y", 0.0),
        (2, "c", 0.0),
        (0, "f", 0.0),
    ]
    for row, (seat, kind, amount) in enumerate(expected):
        assert list(np.flatnonzero(block[row, :3])) == [seat]
        assert list(np.flatnonzero(block[row, 3:17])) == [HISTORY_KINDS.index(kind)]
        assert block[row, 17] == pytest.approx(amount)
    assert not block[len(expected) :].any()
    # public lines only: every seat's history block is the same
    other = infostate_vector(view(_hand(), 0), max_stack=10)[148:]
    assert np.array_equal(other, block.reshape(-1))


def test_strings() -> None:
    state = _hand()
    # the cards of a line in deck order (canonical information states)
    assert infostate_string(view(state, 0)).startswith("p1 of 3: d dh p1 6h 7h; d dh p2 ?? ??")
    assert "p1 x 6h; d dh p1 Ah" in infostate_string(view(state, 0))
    assert "p1 x ??; d dh p1 ??" in infostate_string(view(state, 1))
    text = observation_string(view(state, 1))
    assert "hand Ac 2d" in text and "stacks 9 7 7" in text and "folded f.." in text
    with pytest.raises(ValueError, match="spectator"):
        observation_vector(view(state, None), max_stack=10)
