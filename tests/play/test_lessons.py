"""The guided first hand's words (R1–R8), made once in Python: the web page's ``guide``
(``primero.play.lessons.guide_text``) and the one name of each move
(``primero.engine.words``), which the engine, the sentences, the guided hand and the
research interfaces share."""

from __future__ import annotations

from primero.engine.actions import Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import parse_cards
from primero.engine.hands import Category
from primero.engine.state import HandState
from primero.engine.views import view
from primero.engine.words import move_name, points_words
from primero.play.lessons import GUIDE, LESSONS, guide_text
from primero.research.actionids import describe, id_of

DEALS = ["d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Js Jd"]


def test_each_move_has_one_name() -> None:
    cards = parse_cards("7h Kc")
    assert [
        move_name(Bet(0, 5)),
        move_name(Bet(0, 0)),
        move_name(Raise(0, 12)),
        move_name(Call(0), to_call=3),
        move_name(Call(0), to_call=0),
        move_name(Fold(0)),
        move_name(Vote(0, True)),
        move_name(Vote(0, False)),
        move_name(Declare(0, Category.PRIMERO)),
        move_name(Exchange(0, ())),
        move_name(Exchange(0, cards)),
        move_name(Exchange(0, cards), card_text=str),
    ] == [
        "bet 5", "check", "raise to 12", "call 3", "check", "fold", "accept the bet",
        "refuse the bet", "declare primero", "stand pat", "exchange 2 cards", "exchange 7h Kc",
    ]  # fmt: skip
    # the research interfaces' action strings are the same names (cards as in records,
    # an exchange's in the order of the sorted hand: Kc before 7h)
    for action in (Bet(0, 5), Raise(0, 12), Fold(0), Vote(0, False), Exchange(0, cards[::-1])):
        text = describe(id_of(action, hand=cards, max_stack=20), hand=cards, max_stack=20)
        assert text == move_name(action, card_text=str)


def test_card_points_come_from_the_engine() -> None:
    # R1: 7 = 21, 6 = 18, A = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, J/Q/K = 10
    assert points_words() == "7 = 21, 6 = 18, A = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, face cards 10"
    assert points_words() in LESSONS["ante"].text
    assert points_words() in GUIDE["first_round"].text


def test_the_guide_follows_the_hand() -> None:
    assert guide_text(None) == GUIDE["welcome"].text
    s = HandState(["Ana", "Ben", "Cleo"], [20, 20, 20])
    for line in DEALS:
        s.apply(line)
    assert guide_text(view(s, 0)) == GUIDE["first_round"].text
    assert guide_text(view(s, 1)) == "Ana is thinking. Watch the seats: each shows its last move."
    # a bot plays the seat for the person: the lesson is not of a move to make
    assert guide_text(view(s, 0), may_act=False).startswith("Ana is thinking")
    s.apply("p1 b 4")
    assert guide_text(view(s, 1)) == GUIDE["vote"].text
    s.apply("p2 y")
    assert guide_text(view(s, 1)) == (
        "A bet stands: call it (match 4 chips), raise, or fold and lose what you put in."
    )
