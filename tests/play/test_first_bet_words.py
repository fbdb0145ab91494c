"""The round's first bet after everyone checked is said and typed as a bet (R5).

The engine keeps a bet of 0 standing once a seat checks in rounds 2 and 3, so the next
bet is a ``Raise`` over 0 (``p2 r 5``); people read and type it as the first bet:
``b N``, "Ben bets 5", "Accept the bet (bet of 5 chips by Ben)".

The hand: Ana, Ben and Cy with 20 chips each, ante 1 (R4.1), no declarations. Ana bets
2, Ben accepts, Ben and Cy call (R5, R8): 17 chips each left. After the second deal Ana
checks (a bet of 0): Ben may bet 1 to 17 (his stack), check or fold.
"""

from __future__ import annotations

import pytest

from primero.engine.actions import Raise, parse_action
from primero.engine.legal import LegalActions
from primero.engine.rules import Rules
from primero.engine.state import HandState
from primero.play.moveinput import InputError, input_help, parse_move
from primero.play.tablemodel import TableModel, seat_payload

LINES = [
    "d dh p1 4s Kh", "d dh p2 6d Kc", "d dh p3 Ah 7d",
    "p1 b 2", "p2 y", "p2 c", "p3 c",
    "d dh p1 2s 2d", "d dh p2 Kd 5h", "d dh p3 Js Qd",
    "p1 b 0",
]  # fmt: skip


def _model() -> TableModel:
    m = TableModel(
        ["Ana", "Ben", "Cy"],
        [None] * 3,
        stack=[20, 20, 20],
        rules=Rules(min_players=3, declarations=False),
    )
    m.start_hand()
    for line in LINES:
        m.apply(parse_action(line, 3))
    return m


def _hand() -> HandState:
    hand = _model().hand
    assert hand is not None
    return hand


def test_after_a_check_the_help_offers_a_bet_and_a_check_not_a_raise() -> None:
    legal = _hand().legal_actions()
    assert legal == LegalActions(1, raise_to=(1, 17), call=0, fold=True)
    assert input_help(legal) == [
        "b N      bet N chips (1 to 17)",
        "c        check",
        "f        fold",
    ]
    assert legal.describe() == "p2 may bet between 1 and 17 chips, check or fold"


def test_b_n_is_the_first_bet_and_a_wrong_amount_is_said_as_a_bet() -> None:
    hand = _hand()
    legal = hand.legal_actions()
    assert parse_move("b 5", 1, legal, hand.check) == Raise(1, 5)
    assert parse_move("bet 17", 1, legal, hand.check) == Raise(1, 17)
    with pytest.raises(InputError) as info:
        parse_move("b 18", 1, legal, hand.check)
    assert str(info.value) == (
        "you may not bet 18\n"
        "allowed now: bet between 1 and 17 chips, check or fold\n"
        "  b N      bet N chips (1 to 17)\n"
        "  c        check\n"
        "  f        fold"
    )
    assert len(hand.actions) == len(LINES)  # nothing applied


def test_a_raise_over_a_bet_of_0_is_said_as_a_bet_everywhere() -> None:
    m = _model()
    m.apply(parse_action("p2 r 5", 3))
    hand, legal = seat_payload(m, 2)
    assert hand is not None and legal is not None
    assert hand["pending_bet"] == {
        "seat": "p2", "amount": 5, "raise": False, "words": "Ben bets 5 chips"
    }  # fmt: skip
    assert legal["words"]["accept"] == "Accept the bet (bet of 5 chips by Ben)"
    assert legal["words"]["refuse"] == "Refuse the bet (bet of 5 chips by Ben)"
    assert hand["last_moves"] == ["Ana checks", "Ben bets 5", "You call 2"]
    assert m.events[-1].text_for(None) == "Ben bets 5"
