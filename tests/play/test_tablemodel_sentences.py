"""Every verb of ``line_sentences`` in both persons, the chips it follows, and the stage
headings of ``section_marker`` (play/tablemodel/sentences.py; R4-R8), worked out by hand.

Written for the survivors of a mutation sweep (CONTRIBUTING.md
"Mutation testing"): the second person of most verbs, a raise that would have been all
in but was refused, calls that put in less than the bet, and the headings were said
by no test, so a changed word went unseen.
"""

from __future__ import annotations

from primero.engine.actions import Call
from primero.engine.pots import Award, Pot
from primero.engine.rules import Rules
from primero.engine.state import HandState
from primero.engine.views import SeatView, view
from primero.play.tablemodel.sentences import (
    hand_sentences,
    line_sentences,
    result_sentences,
    section_marker,
    sentence,
    starting_stacks,
    uncalled_bet,
)

NAMES = ("Ana", "Ben", "Cy")

# Stacks 10, 20 and 4, ante 1: 9, 19 and 3 chips left to bet (R4.1). A deal or an
# exchange starts a new round of chips (each seat has put in 0 in it).
LINES = [
    "d dh p1 7h Kc",  # 0
    "d dh p2 ?? ??",  # 1
    "d dh p3 ?? ??",  # 2
    "p1 x Kc",  # 3
    "d dh p1 5s",  # 4
    "p2 x ??",  # 5
    "d dh p2 ??",  # 6
    "p3 x",  # 7: stands pat
    "p1 b 2",  # 8: accepted next line, stands: Ana has 7 left
    "p2 y",  # 9
    "p2 c",  # 10: Ben puts in 2 (17 left)
    "p3 r 4",  # 11: refused by both: withdrawn; it would have put Cy all in (3 < 4)
    "p1 n",  # 12
    "p2 n",  # 13: the last refusal says the raise is withdrawn (R8)
    "p3 c",  # 14: the bet is still 2: Cy puts in 2 (1 left)
    "p1 dc primero",  # 15
    "p2 dc numerus",  # 16
    "p1 b 0",  # 17: a bet of 0 is a check (R5); Ana has already put in 2 this round
    "p2 c",  # 18: calling 0 is a check
    "p1 b 5",  # 19: Ana puts in 5 - 2 = 3 (4 left)
    "p2 y",  # 20
    "p2 c",  # 21: Ben puts in 5 - 2 = 3 (14 left)
    "p3 c",  # 22: Cy owes 3 and has 1: all in
    "p1 r 9",  # 23: Ana owes 4 and has 4: all in
    "p2 y",  # 24
    "p2 f",  # 25
    "zz",  # 26: not a line of the grammar: said as it is
    "p9 f",  # 27: no such seat: said as it is
    "p2 win 5",  # 28: not a move a player makes: said as it is
    "p1 b x",  # 29: an amount that is not a number: off the grammar, said as it is
    "p1 pat",  # 30: words the sentences use, not record words: said as they are
    "p1 check",  # 31
]
SAID_TO_ANA = [
    "You are dealt 7♥ K♣",
    "Ben is dealt 2 cards",
    "Cy is dealt 2 cards",
    "You exchange K♣",
    "You are dealt 5♠",
    "Ben exchanges 1 card",
    "Ben is dealt 1 card",
    "Cy stands pat",
    "You bet 2",
    "Ben accepts the bet",
    "Ben calls 2",
    "Cy raises to 4",
    "You refuse the bet",
    "Ben refuses the bet: it is withdrawn (R8)",
    "Cy calls 2",
    "You declare primero",
    "Ben declares numerus",
    "You check",
    "Ben checks",
    "You bet 5",
    "Ben accepts the bet",
    "Ben calls 3",
    "Cy calls 1 and is all in",
    "You raise to 9 and are all in",
    "Ben accepts the bet",
    "Ben folds",
    "zz",
    "p9 f",
    "p2 win 5",
    "p1 b x",
    "p1 pat",
    "p1 check",
]


def _said(viewer: int | None, names: tuple[str, ...] = NAMES) -> list[str]:
    return line_sentences(LINES, names, viewer=viewer, starting_stacks=[10, 20, 4], ante=1)


def test_every_verb_said_to_the_player_who_made_it() -> None:
    assert _said(0) == SAID_TO_ANA


def test_every_verb_said_to_another_seat_and_to_a_spectator() -> None:
    to_ben = _said(1)
    assert [to_ben[i] for i in (0, 3, 5, 6, 8, 9, 10, 13, 16, 18, 21, 23, 25)] == [
        "Ana is dealt 7♥ K♣",  # the lines given name the cards; views hide them (R9b)
        "Ana exchanges K♣",
        "You exchange 1 card",
        "You are dealt 1 card",
        "Ana bets 2",
        "You accept the bet",
        "You call 2",
        "You refuse the bet: it is withdrawn (R8)",
        "You declare numerus",
        "You check",
        "You call 3",
        "Ana raises to 9 and is all in",
        "You fold",
    ]
    to_cy = _said(2)
    assert [to_cy[i] for i in (7, 11, 14, 22)] == [
        "You stand pat",
        "You raise to 4",
        "You call 2",
        "You call 1 and are all in",
    ]
    spectator = _said(None)
    assert [spectator[i] for i in (12, 15, 17, 19, 29)] == [
        "Ana refuses the bet",
        "Ana declares primero",
        "Ana checks",
        "Ana bets 5",
        "p1 b x",
    ]


def test_a_player_named_you_is_said_in_the_second_person() -> None:
    said = _said(None, ("You", "Ben", "Cy"))
    assert (said[8], said[23], said[10]) == (
        "You bet 2",
        "You raise to 9 and are all in",
        "Ben calls 2",
    )


def test_without_stacks_a_call_has_no_amount() -> None:
    said = line_sentences(["p1 b 3", "p2 y", "p2 c", "p3 c"], NAMES, viewer=None)
    assert said == ["Ana bets 3", "Ben accepts the bet", "Ben calls", "Cy calls"]


def test_a_bet_still_voted_on_is_not_yet_withdrawn() -> None:
    lines = ["p1 b 4", "p2 n", "p3 n"]
    assert line_sentences(lines, NAMES, viewer=None, vote_open=True) == [
        "Ana bets 4",
        "Ben refuses the bet",
        "Cy refuses the bet",
    ]
    assert line_sentences(lines, NAMES, viewer=None)[-1] == (
        "Cy refuses the bet: it is withdrawn (R8)"
    )
    # A bet with no vote after it stands (no refusal rule, or nobody voted yet and the
    # vote is not open): Ana's 9 of 9 left is all in.
    assert line_sentences(["p1 b 9"], NAMES, viewer=None, starting_stacks=[10, 20, 4], ante=1) == [
        "Ana bets 9 and is all in"
    ]


def test_a_call_said_by_sentence_in_both_persons() -> None:
    assert sentence(Call(0), viewer=0, name="Ana", call=3) == "You call 3"
    assert sentence(Call(0), viewer=0, name="Ana", call=0) == "You check"
    assert sentence(Call(0), viewer=1, name="Ana", call=None) == "Ana checks"


# --------------------------------------------------------------------------- headings

VOID = "void deal: all cards back, the same dealer deals again (R4.3)"
SECOND_DEAL = "second deal (R4.4)"
DECLARE = "declare and bet (R4.5)"
SECOND_EXCHANGE = "second exchange (R4.6)"
LAST_ROUND = "last round (R4.7)"


def _markers(lines: list[str]) -> dict[int, str]:
    return {i: m for i in range(len(lines)) if (m := section_marker(lines, i)) is not None}


def test_the_headings_of_a_whole_hand() -> None:
    lines = [
        "d dh p1 ?? ??", "d dh p2 ?? ??",  # 0, 1: the first deal
        "p1 b 2", "p2 y", "p2 c",  # 2-4: the first round
        "d dh p1 ?? ??", "d dh p2 ?? ??",  # 5: the second deal follows a betting line
        "p1 dc primero", "p2 dc numerus",  # 7: the first declaration
        "p1 b 3", "p2 c",  # 9: a bet after a declaration is not the last round
        "p1 x ??", "d dh p1 ??", "p2 x",  # 11: an exchange after betting, once declared
        "p1 b 0", "p2 c",  # 14: the opening bet after that exchange
    ]  # fmt: skip
    assert _markers(lines) == {5: SECOND_DEAL, 7: DECLARE, 11: SECOND_EXCHANGE, 14: LAST_ROUND}


def test_the_void_deal_heading_and_the_last_round_after_a_deal() -> None:
    void = [
        "d dh p1 ?? ??", "d dh p2 ?? ??",
        "p1 x ??", "d dh p1 ??", "p2 x ??", "d dh p2 ??",  # nobody bet: void (R4.3)
        "d dh p1 ?? ??", "d dh p2 ?? ??",
    ]  # fmt: skip
    assert _markers(void) == {6: VOID}
    after_deal = ["p1 dc fluxus", "p1 b 2", "p2 c", "p1 x ??", "d dh p1 ??", "p1 b 1"]
    assert _markers(after_deal) == {0: DECLARE, 3: SECOND_EXCHANGE, 5: LAST_ROUND}
    # Every betting word before a two-card deal marks the second deal.
    for word in ("b 2", "r 4", "c", "f", "y", "n"):
        assert section_marker(["p1 x", f"p2 {word}", "d dh p1 ?? ??"], 2) == SECOND_DEAL
    # Every betting word before an exchange, once declared, marks the second exchange;
    # standing pat is an exchange too, and the line just before is the one that counts.
    for word in ("b 2", "r 4", "c", "f", "y", "n"):
        assert section_marker(["p1 dc primero", f"p2 {word}", "p1 x"], 2) == SECOND_EXCHANGE
    assert section_marker(["p1 dc primero", "p1 b 2", "p2 dc numerus", "p2 c", "p1 x"], 4) == (
        SECOND_EXCHANGE
    )
    assert section_marker(["p1 dc fluxus", "p1 b 2", "p2 c", "p2 x", "p1 b 1"], 4) == LAST_ROUND
    # Without a declaration before it, an exchange after a bet is the first round's.
    assert section_marker(["p1 b 2", "p2 c", "p1 x ??"], 2) is None
    assert section_marker(["p1 b 2", "p2 y", "p2 x ??"], 2) is None


def test_the_redeal_after_the_last_player_stood_pat_has_the_void_heading() -> None:
    """House rule ``first_round_stand``: Cy, the last to act, stands pat and nobody bet,
    so the deal is void (R4.3) with no replacement deal before the redeal. The heading
    goes on the redeal's first line (8) and on no other: not on its second line, whose
    line two back is Cy's "x", nor on Ben's two-card replacement deal (6)."""
    record = [
        "d dh p1 7h Kc", "d dh p2 2s 3s", "d dh p3 4c 5c",  # 0-2: the first deal
        "p1 x Kc", "d dh p1 6d", "p2 x 2s 3s", "d dh p2 Qh Jh",  # 3-6: two exchanges
        "p3 x",  # 7: Cy stands pat: every player exchanged, no bet: void
        "d dh p1 7h Kc", "d dh p2 2s 3s", "d dh p3 4c 5c",  # 8-10: the redeal
        "p1 x", "p2 b 2", "p3 c", "p1 c",  # 11-14: Ana stands pat, Ben's bet is called
        "d dh p1 6d 7d", "d dh p2 Qh Jh", "d dh p3 Qs Js",  # 15-17: the second deal
    ]  # fmt: skip
    state = HandState(list(NAMES), [10, 10, 10], Rules(first_round_stand=True, refusal=False))
    for line in record:
        state.apply(line)  # the engine takes the record as it is
    assert _markers(record) == {8: VOID, 15: SECOND_DEAL}
    assert _markers(list(view(state, 1).log)) == {8: VOID, 15: SECOND_DEAL}


def test_how_a_vote_ends_decides_what_the_bet_did() -> None:
    two = ("Ana", "Ben")
    # Two players: one refusal withdraws the bet (R8), and Ana bets again.
    assert line_sentences(["p1 b 4", "p2 n", "p1 b 3"], two, viewer=None) == [
        "Ana bets 4",
        "Ben refuses the bet: it is withdrawn (R8)",
        "Ana bets 3",
    ]
    # Three: Ben refuses, Cy accepts: the bet stands, nothing is withdrawn.
    assert line_sentences(["p1 b 4", "p2 n", "p3 y"], NAMES, viewer=None) == [
        "Ana bets 4",
        "Ben refuses the bet",
        "Cy accepts the bet",
    ]
    # No vote at all (refusal off): the bet stands and is called in full.
    said = line_sentences(
        ["p1 b 9", "p2 c"], NAMES, viewer=None, starting_stacks=[10, 20, 4], ante=1
    )
    assert said == ["Ana bets 9 and is all in", "Ben calls 9"]


def test_card_words_that_are_not_cards_are_said_as_written() -> None:
    # A 40-card deck has no eights (R1): the lines are off the grammar, kept as they are.
    assert line_sentences(["p1 x 8h", "d dh p2 9c Kc"], NAMES, viewer=0) == [
        "p1 x 8h",
        "d dh p2 9c Kc",
    ]


def test_the_ante_defaults_to_none_and_a_round_restarts_at_each_deal() -> None:
    # No ante given: Ana has all 9 chips, a bet of 8 leaves her 1 (not all in).
    said = line_sentences(["p1 b 8", "p2 c"], NAMES, viewer=None, starting_stacks=[9, 20, 4])
    assert said == ["Ana bets 8", "Ben calls 8"]
    # Without stacks, deal and exchange lines start no count of chips.
    lines = ["d dh p1 ?? ??", "p1 x ??", "p1 b 3", "p2 c"]
    assert line_sentences(lines, NAMES, viewer=None) == [
        "Ana is dealt 2 cards",
        "Ana exchanges 1 card",
        "Ana bets 3",
        "Ben calls",
    ]


# --------------------------------------------------------------------------- results

# Ana (20 chips), Ben and Cy (3 each) ante 1; Ana bets 10, Ben and Cy call all in for 2;
# shown: Ana numerus 26, Ben numerus 28, Cy numerus 31. Contributions 11, 3, 3: the 8
# chips of Ana's that nobody called come back to her (R7).
SHOWDOWN = [
    "d dh p1 4s Kh", "d dh p2 6d Kc", "d dh p3 Ah 7d",
    "p1 b 10", "p2 y", "p2 c", "p3 c",
    "d dh p1 2s 2d", "d dh p2 Kd 5h", "d dh p3 Js Qd",
    "p1 x", "p2 x", "p3 x",
]  # fmt: skip


def _finished(seat: int | None, awards: tuple[Award, ...]) -> SeatView:
    """The showdown's view for ``seat`` with other awards (SeatView's own fields, as
    pickling rebuilds it), to say pots the engine gives under other house rules."""
    s = HandState(["Ana", "Ben", "Cy"], [20, 3, 3])
    for line in SHOWDOWN:
        s.apply(line)
    args = list(view(s, seat).__reduce__()[1])  # type: ignore[call-overload]
    args[24] = awards  # SeatView.__init__'s 25th field
    return SeatView(*args)


def test_pots_are_named_main_and_side_and_a_split_says_each_share() -> None:
    awards = (
        Award(Pot(9, (0, 1, 2)), (2,), (9,)),
        Award(Pot(4, (0, 1)), (0, 1), (2, 2)),
        Award(Pot(8, (0,)), (0,), (8,)),  # the uncalled 8: returned, not won
    )
    assert result_sentences(_finished(0, awards)) == [
        "Uncalled bet of 8 chips returned to you",
        "Cy wins the main pot, 9 chips (numerus 31)",
        "You and Ben split side pot 1, 4 chips: 2 each",
    ]
    assert result_sentences(_finished(1, awards), you=False) == [
        "Uncalled bet of 8 chips returned to Ana",
        "Cy wins the main pot, 9 chips (numerus 31)",
        "Ana and Ben split side pot 1, 4 chips: 2 each",
    ]


def test_an_odd_chip_split_names_each_share() -> None:
    # ties = "split": 9 chips between Ben and Cy, the odd chip to Ben (R7).
    awards = (Award(Pot(9, (0, 1, 2)), (1, 2), (5, 4)), Award(Pot(8, (0,)), (0,), (8,)))
    assert result_sentences(_finished(1, awards)) == [
        "Uncalled bet of 8 chips returned to Ana",
        "You and Cy split 9 chips: You 5, Cy 4",
    ]


def test_each_deal_and_exchange_starts_a_new_round_of_chips() -> None:
    stacks = [20, 20, 20]
    # A second deal after the first round (R4.4): Ben calls Ana's 3 in full.
    dealt = ["p1 b 2", "p2 c", "d dh p1 ?? ??", "p1 b 3", "p2 c"]
    assert line_sentences(dealt, NAMES, viewer=None, starting_stacks=stacks)[-1] == "Ben calls 3"
    # Both stand pat in the second exchange (R4.6): no deal line, still a new round.
    pat = ["p1 b 2", "p2 c", "p1 x", "p2 x", "p1 b 3", "p2 c"]
    assert line_sentences(pat, NAMES, viewer=None, starting_stacks=stacks)[-1] == "Ben calls 3"


def test_an_uncalled_bet_only_once_the_hand_is_over_and_pots_of_another_shape_as_given() -> None:
    s = HandState(["Ana", "Ben", "Cy"], [20, 3, 3])
    for line in SHOWDOWN[:5]:
        s.apply(line)
    assert view(s, 0).contributed == (11, 1, 1)  # Ben accepted: Ana's 10 are in
    assert uncalled_bet(view(s, 0)) is None  # but the hand is not over: Ben may call
    # A last pot that is not the uncalled bettor's alone: said as the engine gives it.
    awards = (Award(Pot(9, (0, 1, 2)), (2,), (9,)), Award(Pot(8, (0, 1)), (1,), (8,)))
    assert result_sentences(_finished(None, awards)) == [
        "Uncalled bet of 8 chips returned to Ana",
        "Cy wins the main pot, 9 chips (numerus 31)",
        "Ben wins side pot 1, 8 chips (numerus 28)",
    ]


def test_the_lines_say_the_same_once_the_hand_is_over() -> None:
    """A finished hand's stacks are its final ones: who went all in, and for how much, is
    said from the chips before the ante, not from what a seat won (found by a fresh-user
    pass: "Isabella bets 300" lost "and is all in" and "You call 98" became "You call 296"
    at the end). Worked out by hand: Isabella 301 chips, You 99, ante 1 each."""
    state = HandState(["Isabella", "You"], [301, 99])
    lines = [
        "d dh p1 Ks Js",
        "d dh p2 Ah 7d",
        "p1 b 300",
        "p2 c",
        "d dh p1 Kc 2c",
        "d dh p2 Ac Kd",
        "p1 x",
        "p2 x",
    ]
    for line in lines:
        state.apply(line)
    assert state.complete
    assert hand_sentences(view(state, 1)) == [
        "Isabella is dealt 2 cards",
        "You are dealt A♥ 7♦",
        "Isabella bets 300 and is all in",
        "You call 98 and are all in",
        "Isabella is dealt 2 cards",
        "You are dealt A♣ K♦",
        "Isabella stands pat",
        "You stand pat",
        "Uncalled bet of 202 chips returned to Isabella",
        "You win 198 chips (numerus 31)",
    ]
    assert starting_stacks(view(state, None)) == [301, 99]


def test_shared_case_09_says_the_all_in_during_and_after_the_hand() -> None:
    """Shared case 09 (R7 side pot): Ana's bet of 9 is all in, and stays so said."""
    players = ["Ana", "Ben", "Cleo", "Dev"]
    state = HandState(players, [10, 50, 50, 50])
    lines = [
        "d dh p1 Ah 2h",
        "d dh p2 7c 6d",
        "d dh p3 Kc Qc",
        "d dh p4 3s 3d",
        "p1 b 9",
        "p2 y",
        "p2 r 30",
        "p3 y",
        "p3 c",
        "p4 f",
        "d dh p1 Jh Qh",
        "d dh p2 5s 4h",
        "d dh p3 Kd 2s",
        "p2 dc primero",
        "p2 b 0",
        "p3 dc numerus",
        "p3 c",
        "p1 x",
        "p2 x",
        "p3 x",
        "p2 b 0",
        "p3 c",
    ]
    during: list[str] = []
    for line in lines:
        state.apply(line)
        if not state.complete:
            during = hand_sentences(view(state, None))
    assert "Ana bets 9 and is all in" in during
    after = hand_sentences(view(state, None))
    assert after[: len(during)] == during
    assert starting_stacks(view(state, 0)) == [10, 50, 50, 50]
