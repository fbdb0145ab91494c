"""The I/O-free table model (primero.play.tablemodel): sentences, timer move, deadlines,
payloads."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primero.engine.actions import Bet, Call, Deal, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import parse_card, parse_cards
from primero.engine.errors import PrimeroError, WrongTurnError
from primero.engine.hands import Category
from primero.engine.state import HandState
from primero.engine.views import view
from primero.play.tablemodel import (
    TableModel,
    least_committal,
    seat_payload,
    sentence,
    weakest_card,
)

NAMES = ["Ana", "Ben", "Cleo", "Dev"]


def _hand(*lines: str) -> HandState:
    s = HandState(NAMES, [20, 20, 20, 20])
    for line in lines:
        s.apply(line)
    return s


FIRST_DEAL = ("d dh p1 7h 6c", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d")


# --------------------------------------------------------------------------- sentences


def test_a_bet_or_call_of_zero_reads_checks() -> None:
    assert sentence(Bet(1, 0), viewer=0, name="Ben") == "Ben checks"
    assert sentence(Bet(0, 0), viewer=0, name="Ana") == "You check"
    assert sentence(Call(2), viewer=0, name="Cleo", call=0) == "Cleo checks"
    assert sentence(Call(2), viewer=None, name="Cleo", call=3) == "Cleo calls 3"
    assert sentence(Bet(1, 4), viewer=None, name="Ben") == "Ben bets 4"


def test_sentences_name_only_the_viewers_cards() -> None:
    deal = Deal(1, parse_cards("7h 6h"))
    assert sentence(deal, viewer=1, name="Ben") == "You are dealt 7♥ 6♥"
    assert sentence(deal, viewer=0, name="Ben") == "Ben is dealt 2 cards"
    ex = Exchange(2, (parse_card("Kc"),))
    assert sentence(ex, viewer=None, name="Cleo") == "Cleo exchanges 1 card"
    assert sentence(Exchange(2, ()), viewer=0, name="Cleo") == "Cleo stands pat"
    assert sentence(Vote(3, False), viewer=3, name="Dev") == "You refuse the bet"
    assert sentence(Declare(0, Category.FLUXUS), viewer=1, name="Ana") == "Ana declares fluxus"
    assert sentence(Fold(0), viewer=0, name="Ana") == "You fold"


# --------------------------------------------------------------------------- timer move


def test_weakest_card_keeps_the_best_suit_total() -> None:
    # Losing 7h leaves 6c (18 points); losing 6c leaves 7h (21): 6c goes.
    assert str(weakest_card(parse_cards("7h 6c"))) == "6c"
    # Losing Kc leaves 7h 6h (39); losing 6h leaves 21; losing 7h leaves 18.
    assert str(weakest_card(parse_cards("7h 6h Kc"))) == "Kc"
    with pytest.raises(ValueError, match="empty"):
        weakest_card(())


def test_timer_exchanges_the_weakest_card_in_the_first_round() -> None:
    s = _hand(*FIRST_DEAL)
    # First round, default rules: p1 may exchange 1 or 2 or bet >= 1; no chips: exchange.
    assert least_committal(view(s, 0)) == Exchange(0, (parse_card("6c"),))


def test_timer_accepts_in_a_vote_and_never_uses_another_view() -> None:
    s = _hand(*FIRST_DEAL, "p1 b 3")
    voter = s.to_act
    assert voter == 1
    v = view(s, voter)
    assert v.legal is not None and v.legal.vote
    assert least_committal(v) == Vote(1, True)
    with pytest.raises(ValueError, match="not to act"):
        least_committal(view(s, 0))


def test_timer_folds_rather_than_calls_and_declares_the_truth() -> None:
    s = _hand(*FIRST_DEAL, "p1 b 3", "p2 y")  # one acceptance lets it stand (R8)
    seat = s.to_act
    assert seat == 1
    v = view(s, seat)
    assert v.legal is not None and v.legal.call == 3
    assert least_committal(v) == Fold(1)
    s.apply("p2 f")
    s.apply("p3 f")
    s.apply("p4 c")
    s.apply("d dh p1 6d 3c")
    s.apply("d dh p4 7c 5c")
    v = view(s, 0)  # p1 holds 7h 6c 6d 3c: no spade, so no primero; numerus (6c 3c)
    assert v.legal is not None and v.legal.declare
    assert least_committal(v) == Declare(0, Category.NUMERUS)
    s.apply("p1 dc numerus")
    v = view(s, 0)
    assert v.legal is not None and v.legal.bet is not None and v.legal.bet[0] == 0
    assert least_committal(v) == Bet(0, 0)


# --------------------------------------------------------------------------- the model


def _bots_and_person(**kw: object) -> TableModel:
    return TableModel(NAMES, [None, "random", "random", "random"], **kw)  # type: ignore[arg-type]


def test_deadlines_are_data() -> None:
    m = _bots_and_person(seed=11, turn_seconds=30)
    m.start_hand(now=100.0)
    assert m.deadline is None  # the dealer is due, not a person
    while m.step(now=100.0) is not None:
        pass
    assert m.person_to_act() == 0
    assert m.deadline == 130.0
    assert not m.timed_out(129.9) and m.timed_out(130.0)
    action = m.timeout_action()
    m.apply(action, now=131.0)
    assert m.events[-1].action == action
    assert m.deadline is None or m.deadline == 161.0
    no_timer = _bots_and_person(seed=11)
    no_timer.start_hand(now=100.0)
    while no_timer.step(now=100.0) is not None:
        pass
    assert no_timer.deadline is None and not no_timer.timed_out(10**9)


def test_apply_line_takes_the_seat_from_the_player() -> None:
    m = _bots_and_person(seed=11)
    m.start_hand()
    while m.step() is not None:
        pass
    assert m.person_to_act() == 0
    before = m.hand.lines() if m.hand else []
    with pytest.raises(WrongTurnError):
        m.apply_line("f", 1)
    with pytest.raises(PrimeroError):
        m.apply_line("b 99999", 0)
    with pytest.raises(PrimeroError):
        m.apply_line("zz", 0)
    assert m.hand is not None and m.hand.lines() == before
    # p1's first move of the first round: exchange 1 or 2 cards, or bet 1 to 99.
    assert m.hand.legal_actions().exchange == (1, 2)
    card = str(m.view_for(0).hand[0])
    event = m.apply_line(f"x {card}", 0)
    assert event.action == Exchange(m.hand_seat(0) or 0, (parse_card(card),))
    assert event.text_for(0) == f"You exchange {parse_card(card).pretty}"


def test_resume_from_seed_and_lines_deals_the_same_cards_to_come() -> None:
    a = TableModel(NAMES, ["random"] * 4, seed=None)
    a.start_hand()
    for _ in range(9):
        a.step()
    assert a.hand is not None and a.hand_seed is not None
    lines = a.hand.lines()
    b = TableModel(NAMES, ["random"] * 4, seed=None)
    b.start_hand(a.hand_seed)
    for line in lines:
        b.replay_line(line)
    assert b.hand is not None and b.hand.lines() == lines
    # The cards still to come are the same: finish both with the same moves.
    while not a.hand.complete:
        event = a.step()
        assert event is not None
        if isinstance(event.action, Deal):
            assert b.deal().action == event.action
        else:
            b.apply(event.action)
    assert b.hand.lines() == a.hand.lines()
    with pytest.raises(PrimeroError, match="differs"):
        c = TableModel(NAMES, ["random"] * 4)
        c.start_hand(a.hand_seed + 1)
        c.replay_line(lines[0])


_CARD = re.compile(r"\b[A2-7JQK][cdhs]\b")


def test_no_payload_holds_a_card_its_reader_may_not_see() -> None:
    m = TableModel(NAMES, ["random"] * 4, seed=3, max_hands=3)
    while not m.over:
        m.start_hand()
        while True:
            hand = m.hand
            assert hand is not None
            for index in (None, 0, 1, 2, 3):
                payload, legal = seat_payload(m, index)
                assert payload is not None
                seat = m.hand_seat(index) if index is not None else None
                own = {str(c) for c in hand.hands[seat]} if seat is not None else set()
                own |= {str(c) for c in hand.own_discards[seat]} if seat is not None else set()
                if seat is not None:
                    for _i, line in view(hand, seat).private_log:
                        own |= set(_CARD.findall(line))
                shown = {c for s in (payload["shown"] or []) if s for c in s["cards"]}
                seen = set(_CARD.findall(json.dumps(payload)))
                assert seen <= own | shown, (index, seen - own - shown)
                assert (legal is not None) == (seat is not None and hand.to_act == seat)
            if hand.complete:
                break
            m.step()
        m.finish_hand()
    assert m.match.hands_played == 3


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40))
def test_the_timer_move_is_always_legal_and_puts_in_chips_only_when_forced(
    seed: int, steps: int
) -> None:
    m = TableModel(NAMES, ["random"] * 4, seed=seed)
    m.start_hand()
    for _ in range(steps):
        if m.step() is None:
            break
    hand = m.hand
    assert hand is not None
    while hand.to_act == -1:  # let the dealer deal
        m.deal()
    if hand.to_act is None:
        return
    v = view(hand, hand.to_act)
    action = least_committal(v)
    hand.check(action)  # legal (raises otherwise)
    legal = v.legal
    assert legal is not None
    chips = (
        (isinstance(action, Bet) and action.amount > 0)
        or (isinstance(action, Call) and legal.call)
        or isinstance(action, Raise)
    )
    if chips:  # only when the rules leave no move without chips
        assert not legal.vote and not legal.declare and not legal.exchange
        assert not legal.fold and legal.call != 0
        assert legal.bet is None or legal.bet[0] > 0
