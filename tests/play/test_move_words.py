"""The names of the moves (R5), made once in Python for every front end: "Bet" when no
bet stands, "Check" where a bet of 0 is allowed, "raise to" only over a bet of more
than 0; the sentences of the log say the same."""

from __future__ import annotations

from primero.engine.state import HandState
from primero.engine.views import view
from primero.play.tablemodel import seat_payload
from primero.play.tablemodel.model import TableModel
from primero.play.tablemodel.payload import legal_payload
from primero.play.tablemodel.sentences import hand_sentences
from primero.tui.actionpad import ActionPad

#: Four players, antes taken, the first round: p1 bets 1, p2 accepts, the others call.
ROUND_ONE = [
    "d dh p1 7h 6h",
    "d dh p2 Ac 2d",
    "d dh p3 Js Jd",
    "d dh p4 Kc Qh",
    "p1 b 1",
    "p2 y",
    "p2 c",
    "p3 c",
    "p4 c",
    "d dh p1 Ah 2h",
    "d dh p2 3c 4c",
    "d dh p3 5s 5d",
    "d dh p4 Jc Jh",
]


def hand() -> HandState:
    state = HandState(["Ana", "Ben", "Cleo", "Dev"], [20, 20, 20, 20])
    for line in ROUND_ONE:
        state.apply(line)
    return state


def test_the_first_player_of_round_two_may_check_and_a_first_bet_after_checks_is_a_bet() -> None:
    state = hand()
    state.apply("p1 dc fluxus")
    ana = view(state, 0)
    assert ana.legal is not None and ana.legal.bet == (0, 18)
    pad = ActionPad()
    pad.reset(ana)
    labels = {c.key: c.label for c in pad.choices()}
    assert labels == {"b": "bet 0–18", "c": "check (bet 0)"}
    assert legal_payload(ana.legal, ana.current_bet)["words"] == {
        "bet": "Bet",
        "check": "Check",
        "raise": None,
        "call": None,
        "fold": None,
        "exchange": [],
        "pick": None,
        "declare": [],
        "accept": None,
        "refuse": None,
    }
    state.apply("p1 b 0")  # Ana checks
    state.apply("p2 dc primero")
    ben = view(state, 1)
    assert ben.legal is not None and ben.legal.raise_to == (1, 18) and ben.legal.call == 0
    assert legal_payload(ben.legal, ben.current_bet)["words"] == {
        "bet": "Bet",
        "check": None,
        "raise": "Bet",  # over a bet of 0 nothing is raised: it is the first bet
        "call": "Check",
        "fold": "Fold",
        "exchange": [],
        "pick": None,
        "declare": [],
        "accept": None,
        "refuse": None,
    }
    pad.reset(ben)
    assert {c.key: c.label for c in pad.choices()}["r"] == "bet 1–18"
    state.apply("p2 r 3")  # said "bets 3"; a vote follows (four still in, R8)
    state.apply("p3 y")
    state.apply("p3 dc supremus")
    cleo = view(state, 2)
    assert cleo.legal is not None and cleo.legal.call == 3
    assert legal_payload(cleo.legal, cleo.current_bet)["words"] == {
        "bet": "Bet",
        "check": None,
        "raise": "Raise to",
        "call": "Call 3",
        "fold": "Fold",
        "exchange": [],
        "pick": None,
        "declare": [],
        "accept": None,
        "refuse": None,
    }
    state.apply("p3 r 5")
    said = hand_sentences(view(state, None))[len(ROUND_ONE) :]
    assert said == [
        "Ana declares fluxus",
        "Ana checks",
        "Ben declares primero",
        "Ben bets 3",
        "Cleo accepts the bet",
        "Cleo declares supremus",
        "Cleo raises to 5",
    ]


def test_the_state_message_carries_the_words_for_the_seat_to_act_only() -> None:
    model = TableModel(["Ana", "Ben", "Cleo", "Dev"], [None, "random", "random", "random"], seed=4)
    model.start_hand()
    while model.person_to_act() != 0 and not (model.hand and model.hand.complete):
        model.step()
    _hand, legal = seat_payload(model, 0)
    assert legal is not None and legal["words"]["bet"] == "Bet"
    assert seat_payload(model, 1)[1] is None  # not Ben's turn: no moves, no words
