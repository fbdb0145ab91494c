"""What a seat is sent about a hand (play/tablemodel/payload.py; online.md ``state``),
field by field, with values worked out by hand.

Written for the survivors of a mutation sweep (CONTRIBUTING.md
"Mutation testing"): no test read the payload's keys, the dealer as the one to act, the
shown hands or the closing "who won what" lines, so any of them could change unseen.

The hand: Ana, Ben and Cy with 20, 3 and 3 chips, ante 1 (R4.1). Ana bets 10, Ben
accepts and calls all in for 2, Cy calls all in for 2 (R5, R8); after the second deal
everyone stands pat and the hands are shown (R7): Ana 4♠ K♥ 2♠ 2♦ is numerus 26 (4♠ 14
+ 2♠ 12), Ben 6♦ K♣ K♦ 5♥ numerus 28 (6♦ 18 + K♦ 10), Cy A♥ 7♦ J♠ Q♦ numerus 31 (7♦ 21
+ Q♦ 10). Pots by contribution level (R7): 3 x 3 = 9 to Cy, the best hand; Ana's 8
that nobody matched (11 - 3) go back to her as a pot of her own. Final stacks: Ana
20 - 11 + 8 = 17, Ben 0, Cy 9.
"""

from __future__ import annotations

from typing import Any

from primero.engine.actions import parse_action
from primero.engine.hands import Category
from primero.engine.legal import LegalActions
from primero.engine.rules import Rules
from primero.play.tablemodel import TableModel, legal_payload, seat_note, seat_payload

LINES = [
    "d dh p1 4s Kh", "d dh p2 6d Kc", "d dh p3 Ah 7d",
    "p1 b 10", "p2 y", "p2 c", "p3 c",
    "d dh p1 2s 2d", "d dh p2 Kd 5h", "d dh p3 Js Qd",
    "p1 x", "p2 x", "p3 x",
]  # fmt: skip


def _model() -> TableModel:
    return TableModel(
        ["Ana", "Ben", "Cy"], [None] * 3, stack=[20, 3, 3], rules=Rules(min_players=3)
    )


def _play(m: TableModel, lines: list[str]) -> None:
    for line in lines:
        m.apply(parse_action(line, 3))


def test_no_hand_yet_no_payload_then_the_dealer_is_to_act() -> None:
    m = _model()
    assert seat_payload(m, 0) == (None, None)
    m.start_hand()
    hand, legal = seat_payload(m, 2)
    assert legal is None  # the dealer deals, no seat acts
    assert hand is not None
    assert hand["to_act"] == "dealer"
    assert (hand["number"], hand["seat"], hand["table_seats"]) == (1, "p3", [0, 1, 2])
    assert (hand["players"], hand["phase"]) == (["Ana", "Ben", "Cy"], "first_deal")
    assert (hand["stacks"], hand["contributed"], hand["pot_total"]) == ([19, 2, 2], [1, 1, 1], 3)
    assert (hand["hand"], hand["hand_sizes"]) == ([], [0, 0, 0])
    assert hand["shown"] is None and hand["final_stacks"] is None
    assert hand["events"] == [] and hand["winners"] == [] and hand["result"] == []
    assert hand["last_moves"] == [None, None, None]


def test_a_vote_due_reads_as_the_voters_legal_moves() -> None:
    m = _model()
    m.start_hand()
    _play(m, LINES[:4])
    hand, legal = seat_payload(m, 1)
    assert hand is not None
    assert hand["to_act"] == "p2" and hand["phase"] == "first_round"
    assert hand["phase_words"] == "First round"
    assert hand["hand"] == ["6d", "Kc"] and hand["hand_sizes"] == [2, 2, 2]
    assert hand["log"] == ["d dh p1 ?? ??", "d dh p2 6d Kc", "d dh p3 ?? ??", "p1 b 10"]
    assert hand["pending_bet"] == {
        "seat": "p1", "amount": 10, "raise": False, "words": "Ana bets 10 chips"
    }  # fmt: skip
    assert hand["last_moves"] == ["Ana bets 10", None, None]
    assert hand["shown"] is None  # not over: nothing shown yet
    assert legal == {
        "kinds": ["y", "n"], "exchange": [], "bet": None, "raise_to": None,
        "call": None, "fold": False, "vote": True, "declare": [],
        "words": {"bet": "Bet", "check": None, "raise": None, "call": None, "fold": None,
                  "exchange": [], "pick": None, "declare": [],
                  "accept": "Accept the bet (bet of 10 chips by Ana)",
                  "refuse": "Refuse the bet (bet of 10 chips by Ana)"},
    }  # fmt: skip
    assert seat_payload(m, 0)[1] is None  # only the seat to act gets ``legal``


def test_the_showdown_payload_field_by_field() -> None:
    m = _model()
    m.start_hand()
    _play(m, LINES)
    hand, legal = seat_payload(m, 0)
    assert legal is None and hand is not None
    expected: dict[str, Any] = {
        "number": 1,
        "seat": "p1",
        "table_seats": [0, 1, 2],
        "players": ["Ana", "Ben", "Cy"],
        "hand": ["4s", "Kh", "2s", "2d"],
        "hand_sizes": [4, 4, 4],
        "to_act": None,
        "phase": "complete",
        "phase_words": "The hand is over",
        "stacks": [17, 0, 9],
        "contributed": [11, 3, 3],
        "round_bets": [0, 0, 0],
        "current_bet": None,
        "pot_total": 17,
        "pending_bet": None,
        "declared": [None, None, None],
        "folded": [False, False, False],
        "exchanges": [[0], [0], [0]],
        "log": [
            "d dh p1 4s Kh", "d dh p2 ?? ??", "d dh p3 ?? ??",
            "p1 b 10", "p2 y", "p2 c", "p3 c",
            "d dh p1 2s 2d", "d dh p2 ?? ??", "d dh p3 ?? ??",
            "p1 x", "p2 x", "p3 x",
        ],
        "events": [
            "You are dealt 4♠ K♥", "Ben is dealt 2 cards", "Cy is dealt 2 cards",
            "You bet 10", "Ben accepts the bet — the bet stands (R8)",
            "Ben calls 2", "Cy calls 2",
            "You are dealt 2♠ 2♦", "Ben is dealt 2 cards", "Cy is dealt 2 cards",
            "You stand pat", "Ben stands pat", "Cy stands pat",
            # the closing lines as the terminal says them (sentences.result_sentences):
            # Ana's 8 chips nobody called come back to her, no pot won (R7)
            "Uncalled bet of 8 chips returned to you",
            "Cy wins 9 chips (numerus 31)",
        ],
        "shown": [
            {"category": "numerus", "points": 26, "cards": ["4s", "Kh", "2s", "2d"],
             "words": "numerus, 26 points"},
            {"category": "numerus", "points": 28, "cards": ["6d", "Kc", "Kd", "5h"],
             "words": "numerus, 28 points"},
            {"category": "numerus", "points": 31, "cards": ["Ah", "7d", "Js", "Qd"],
             "words": "numerus, 31 points"},
        ],
        "final_stacks": [17, 0, 9],
        "winners": [
            {"amount": 9, "winners": ["p3"], "shares": [9]},
            {"amount": 8, "winners": ["p1"], "shares": [8]},
        ],
        "last_moves": ["You stand pat", "Ben stands pat", "Cy stands pat"],
        # the same closing lines alone: what the web client's result panel shows
        "result": ["Uncalled bet of 8 chips returned to you", "Cy wins 9 chips (numerus 31)"],
    }  # fmt: skip
    assert hand == expected
    # As Cy and a spectator read them: Cy's own win in the second person; Ana by name.
    cy, _ = seat_payload(m, 2)
    assert cy is not None and cy["result"] == [
        "Uncalled bet of 8 chips returned to Ana", "You win 9 chips (numerus 31)",
    ]  # fmt: skip
    public, _ = seat_payload(m, None)
    assert public is not None and public["result"] == [
        "Uncalled bet of 8 chips returned to Ana", "Cy wins 9 chips (numerus 31)",
    ]  # fmt: skip
    assert public["events"][-2:] == public["result"]


def test_a_folded_hand_is_not_shown() -> None:
    # Ana bets 10, Ben accepts and folds, Cy calls all in for 2: Ana and Cy show.
    m = _model()
    m.start_hand()
    _play(m, [*LINES[:5], "p2 f", "p3 c", *LINES[7:8], LINES[9], "p1 x", "p3 x"])
    hand, _ = seat_payload(m, None)
    assert hand is not None and hand["folded"] == [False, True, False]
    assert hand["shown"] == [
        {
            "category": "numerus",
            "points": 26,
            "cards": ["4s", "Kh", "2s", "2d"],
            "words": "numerus, 26 points",
        },
        None,
        {
            "category": "numerus",
            "points": 31,
            "cards": ["Ah", "7d", "Js", "Qd"],
            "words": "numerus, 31 points",
        },
    ]


def test_legal_moves_every_field_by_name() -> None:
    legal = LegalActions(0, exchange=(1, 2), bet=(1, 19), raise_to=(4, 19), call=3, fold=True)
    assert legal_payload(legal) == {
        "kinds": ["x1", "x2", "b", "r", "c", "f"],
        "exchange": [1, 2],
        "bet": [1, 19],
        "raise_to": [4, 19],
        "call": 3,
        "fold": True,
        "vote": False,
        "declare": [],
        "words": {
            "bet": "Bet",
            "check": None,
            "raise": "Raise to",
            "call": "Call 3",
            "fold": "Fold",
            "exchange": ["Exchange 1 card", "Exchange 2 cards"],
            "pick": "Exchange (pick cards first)",
            "declare": [],
            "accept": None,
            "refuse": None,
        },
    }
    declaring = LegalActions(2, fold=True, declare=(Category.PRIMERO, Category.FLUXUS))
    assert legal_payload(declaring)["declare"] == ["primero", "fluxus"]
    assert legal_payload(declaring)["kinds"] == ["dc", "f"]


def test_sitting_out_is_said_as_what_will_happen_then_as_what_is() -> None:
    """online.md ``sit_out``: from the next hand on, the seat is not dealt in. Cy asks to
    sit out after Ana's bet: she still plays this hand (calls, stands pat, wins 9 chips),
    and only once it is over is she sitting out."""
    m = _model()
    m.start_hand()
    _play(m, LINES[:4])
    assert [seat_note(m, i) for i in (None, 0, 1, 2)] == [None, None, None, None]
    m.match.sit_out(2)
    assert seat_note(m, 2) == "You will sit out from the next hand: you still play this one."
    assert [seat_note(m, i) for i in (None, 0, 1)] == [None, None, None]  # hers alone
    _play(m, LINES[4:])
    assert m.hand is not None and m.hand.complete  # over: she plays no more of it
    sitting = "You are sitting out: you are not dealt in until you sit in."
    assert seat_note(m, 2) == sitting
    m.finish_hand()
    assert m.match.chips == [17, 0, 9] and seat_note(m, 2) == sitting
    m.match.sit_in(2)
    assert seat_note(m, 2) is None
    m.match.sit_out(2)
    m.match.leave(2)  # out of every hand: she left, there is nothing to sit out of
    assert seat_note(m, 2) is None


def test_without_declarations_the_declare_round_is_the_second_round() -> None:
    """R6 off: the page's ``phase_words`` say "Second round", never "Declare and bet";
    with declarations on, "Declare and bet" (the state's own name)."""
    seen: dict[bool, str] = {}
    for declarations in (False, True):
        for seed in range(40):
            model = TableModel(
                ["Ana", "Ben", "Cy", "Dee"],
                ["random"] * 4,
                stack=20,
                seed=seed,
                rules=Rules(declarations=declarations),
            )
            model.start_hand()
            while model.hand is not None and not model.hand.complete:
                hand, _legal = seat_payload(model, 0)
                assert hand is not None
                if hand["phase"] == "declare_round":
                    seen[declarations] = hand["phase_words"]
                    break
                assert model.step() is not None, "bots alone always have a next event"
            if declarations in seen:
                break
    assert seen == {False: "Second round", True: "Declare and bet"}
