"""The timer's move in every branch of its order (online.md "Bots, timers, leaving"; R4–R8).

:func:`primero.play.tablemodel.timeout.least_committal` picks, from a seat's view and
its legal actions: accept a vote; declare the truth; stand pat, else throw the weakest
card; bet 0; check; fold; and only where the rules leave nothing else, the fewest chips.
A mutation sweep found most of these branches untested: the cases
here set the legal actions by hand on a real view (each is one the rules can produce)
and give the expected move worked out from the module's order.

The hand is Ah 2h 7c 6s (a numerus, R2): the suit totals are hearts 16 + 12 = 28, clubs
21, spades 18. Throwing 7c or 6s keeps hearts' 28 (the others keep 21): the weakest card
is 6s (18 points, fewer than 7c's 21), although 2h has the fewest points (12). For the
declarations the hand is Ah 2d 7c 6s instead, a primero (one card of each suit).
"""

from __future__ import annotations

import dataclasses

import pytest

from primero.engine.actions import Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import parse_cards
from primero.engine.hands import Category
from primero.engine.history import HandRecord, replay
from primero.engine.legal import LegalActions
from primero.engine.views import SeatView, view
from primero.play.tablemodel.timeout import least_committal, weakest_card

HAND = parse_cards("Ah 2h 7c 6s")
LINES = [
    "d dh p1 Ah 2h",
    "d dh p2 Ac 2d",
    "d dh p3 Ks Qs",
    "d dh p4 5h 5d",
    "p1 b 2",
    "p2 y",
    "p2 c",
    "p3 c",
    "p4 c",
    "d dh p1 7c 6s",
    "d dh p2 3c 4c",
    "d dh p3 Js 2s",
    "d dh p4 3d 4d",
]


def _view(legal: LegalActions | None, lines: int = len(LINES), hand: str = "") -> SeatView:
    outcome = replay(HandRecord(("Ana", "Ben", "Cleo", "Dev"), (20, 20, 20, 20), LINES[:lines]))
    assert outcome.error is None and outcome.state is not None
    v = view(outcome.state, 0)
    return dataclasses.replace(v, legal=legal, hand=parse_cards(hand) if hand else v.hand)


def test_the_hand_is_as_the_docstring_says() -> None:
    assert _view(LegalActions(seat=0)).hand == HAND
    assert weakest_card(HAND) == parse_cards("6s")[0]
    assert weakest_card(parse_cards("7h")) == parse_cards("7h")[0]  # nothing else to keep


@pytest.mark.parametrize(
    ("legal", "expected"),
    [
        # 1. a vote: accept, whatever else there is
        (LegalActions(seat=0, vote=True, fold=True, call=4), Vote(0, True)),
        # 3. an exchange: stand pat where allowed, else throw the weakest card
        (LegalActions(seat=0, exchange=(0, 1, 2), bet=(0, 5)), Exchange(0, ())),
        (
            LegalActions(seat=0, exchange=(1, 2), bet=(1, 5), fold=True),
            Exchange(0, parse_cards("6s")),
        ),
        (LegalActions(seat=0, exchange=(1,)), Exchange(0, parse_cards("6s"))),
        # 4. a bet of 0 before a check, a fold or a bet
        (LegalActions(seat=0, bet=(0, 5), fold=True), Bet(0, 0)),
        # 5. a check before a fold
        (LegalActions(seat=0, call=0, fold=True, raise_to=(2, 5)), Call(0)),
        # 6. a fold before any chips
        (LegalActions(seat=0, call=1, fold=True, raise_to=(2, 5)), Fold(0)),
        (LegalActions(seat=0, bet=(1, 5), fold=True), Fold(0)),
        # 7. nothing else: an exchange of the required number, lowest points first ...
        (LegalActions(seat=0, exchange=(2,)), Exchange(0, parse_cards("2h Ah"))),
        # ... a call, the smallest bet, the smallest raise
        (LegalActions(seat=0, call=3, raise_to=(6, 9)), Call(0)),
        (LegalActions(seat=0, bet=(2, 5)), Bet(0, 2)),
        (LegalActions(seat=0, raise_to=(4, 9)), Raise(0, 4)),
    ],
)
def test_the_timer_takes_the_first_move_of_its_order(legal: LegalActions, expected: object) -> None:
    assert least_committal(_view(legal)) == expected


def test_a_declaration_is_the_truth_where_allowed() -> None:  # 2. (R6)
    legal = LegalActions(seat=0, declare=(Category.NUMERUS, Category.PRIMERO), fold=True)
    assert least_committal(_view(legal, hand="Ah 2d 7c 6s")) == Declare(0, Category.PRIMERO)
    # ... or, when the truth may not be declared, the first category allowed
    legal = LegalActions(seat=0, declare=(Category.NUMERUS, Category.FLUXUS), fold=True)
    assert least_committal(_view(legal, hand="Ah 2d 7c 6s")) == Declare(0, Category.NUMERUS)


def test_with_two_cards_the_first_allowed_category_is_declared() -> None:
    legal = LegalActions(seat=0, declare=(Category.FLUXUS, Category.PRIMERO))
    v = _view(legal, lines=4)
    assert len(v.hand) == 2
    assert least_committal(v) == Declare(0, Category.FLUXUS)


def test_errors_are_said_in_words() -> None:
    with pytest.raises(ValueError, match=r"^the view's seat is not to act: no move to make$"):
        least_committal(_view(None))
    with pytest.raises(ValueError, match=r"^an empty hand has no card to exchange$"):
        weakest_card(())
