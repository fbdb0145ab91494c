"""primero.play.hints: the exact-odds hints of one seat as data (the web table's ``hints``)."""

from __future__ import annotations

import dataclasses
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primero.engine.actions import parse_action
from primero.engine.cards import DECK, Card, parse_cards
from primero.engine.state import HandState, Phase
from primero.engine.views import view
from primero.play.hints import exchange_ahead, exchange_now, keep_label, percent, seat_hints

DEAL = ["d dh p1 7h 2c", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d"]


def hand(lines: list[str]) -> HandState:
    state = HandState(["A", "B", "C", "D"], [20] * 4)
    for line in lines:
        state.apply(parse_action(line, 4))
    return state


def test_two_cards_in_the_first_round_give_four_choices_with_the_second_deal() -> None:
    h = seat_hints(view(hand(DEAL), 0))
    ex = h["exchange"]
    assert ex["second_deal"] is True
    assert ex["unseen"] == 38  # 40 minus the seat's own two cards (R9b: nothing else known)
    assert ex["categories"] == ["numerus", "primero", "supremus", "fluxus", "chorus"]
    # keep both, throw 7h, throw 2c, throw both: C(2,0) + C(2,1) + C(2,2)
    assert sorted(sorted(c["discard"]) for c in ex["choices"]) == [[], ["2c"], ["2c", "7h"], ["7h"]]
    # p1 may exchange one or two cards now (R4.3): every choice that throws cards is allowed
    assert all(c["allowed"] for c in ex["choices"])
    assert sum(c["best"] for c in ex["choices"]) == 1
    for choice in ex["choices"]:
        assert sum(choice["probabilities"]) == pytest.approx(1.0)
        assert 0.0 <= choice["win"] <= 1.0
    assert h["showdown"] is None  # two cards: no showdown odds yet


def test_a_chorus_of_sevens_keeps_everything_and_cannot_lose() -> None:
    # The same view, with the seat holding four sevens in the second exchange.
    base = view(hand(DEAL), 0)
    v = dataclasses.replace(
        base,
        hand=parse_cards("7h 7d 7c 7s"),
        phase=Phase.SECOND_EXCHANGE,
        legal=None,
        current_bet=None,
        pending_bet=None,
    )
    h = seat_hints(v)
    ex = h["exchange"]
    assert ex["second_deal"] is False
    assert len(ex["choices"]) == 1 + 4 + 6  # keep all, throw one of 4, throw two of 4
    keep = next(c for c in ex["choices"] if not c["discard"])
    assert keep["probabilities"] == [0.0, 0.0, 0.0, 0.0, 1.0]  # chorus for sure
    assert keep["expected_points"] == pytest.approx(84.0)  # 4 x 21 (R1, R2)
    assert keep["best"] is True
    # the best hand in the game: chorus of sevens beats every other hand (R2)
    assert h["showdown"] == {
        "opponents": 3,
        "win": 1.0,
        "tie": 0.0,
        "exact": h["showdown"]["exact"],
        "trials": h["showdown"]["trials"],
    }


def test_no_hints_for_a_spectator_or_a_folded_seat_or_after_the_exchanges() -> None:
    state = hand(DEAL)
    assert seat_hints(view(state, None)) == {
        "note": "No exchange to weigh now.",
        "exchange": None,
        "showdown": None,
    }
    folded = dataclasses.replace(view(state, 0), folded=(True, False, False, False))
    assert seat_hints(folded)["note"] == "No exchange to weigh now."
    last = dataclasses.replace(
        view(state, 0), hand=parse_cards("7h 6h Ah 2c"), phase=Phase.LAST_ROUND
    )
    h = seat_hints(last)
    assert h["exchange"] is None
    assert h["note"] == "No exchange is left in this hand (R4): only the showdown."
    assert h["showdown"]["opponents"] == 3


def test_once_a_bet_stands_in_the_first_round_the_second_exchange_is_still_ahead() -> None:
    state = hand([*DEAL, "p1 b 2", "p2 y"])  # a bet stands: first-round exchanges end (R4.3)
    v = view(state, 1)
    assert exchange_ahead(v) is True  # the second exchange comes after the declarations (R4.6)
    assert exchange_now(v) is False
    h = seat_hints(v)
    assert h["note"] is not None and h["note"].startswith("A bet stands: no exchange")
    ex = h["exchange"]
    assert ex["now"] is False and ex["keep"] == "keep both (no exchange now)"
    # only keeping both cards is open now
    assert [c["discard"] for c in ex["choices"] if c["allowed"]] == [[]]
    first = view(hand(DEAL), 0)
    assert exchange_now(first) is True and keep_label(first) == "keep both and bet"
    assert seat_hints(first)["exchange"]["now"] is True


def test_percent() -> None:
    assert [percent(p) for p in (0, 0.0001, 0.042, 0.5, 1)] == ["·", "<0.1%", "4.2%", "50%", "100%"]


@settings(max_examples=25, deadline=None)
@given(deck=st.permutations(DECK), shuffle=st.randoms(use_true_random=False))
def test_hints_depend_only_on_what_the_seat_may_see(deck: list[Card], shuffle: Random) -> None:
    """Two deals that give p1 the same cards but the others different ones: the same hints
    for p1 (R9b: the stock and the other hands are unseen alike)."""
    own, rest = deck[:2], list(deck[2:])
    states = []
    for _ in range(2):
        shuffle.shuffle(rest)
        lines = [f"d dh p1 {own[0]} {own[1]}"]
        lines += [f"d dh p{k + 2} {rest[2 * k]} {rest[2 * k + 1]}" for k in range(3)]
        states.append(hand(lines))
    first, second = (seat_hints(view(s, 0)) for s in states)
    assert first == second
    ex = first["exchange"]
    assert sum(c["best"] for c in ex["choices"]) == 1
    for choice in ex["choices"]:
        assert sum(choice["probabilities"]) == pytest.approx(1.0)
