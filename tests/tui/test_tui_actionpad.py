"""Keys to actions (primero.tui.actionpad), without a screen."""

from __future__ import annotations

import pytest

from primero.engine.actions import (
    Action,
    Bet,
    Call,
    Declare,
    Exchange,
    Fold,
    Raise,
    Vote,
    parse_action,
)
from primero.engine.cards import parse_cards
from primero.engine.hands import Category
from primero.engine.state import HandState
from primero.engine.views import view
from primero.tui.actionpad import ActionPad, PadMode


def hand_after(lines: list[str], players: int = 4, stacks: int = 20) -> HandState:
    state = HandState([f"P{i}" for i in range(players)], [stacks] * players)
    for line in lines:
        state.apply(parse_action(line, players))
    return state


FIRST_DEAL = ["d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d"]


def pad_for(state: HandState, seat: int, parser: object = None) -> ActionPad:
    pad = ActionPad()
    pad.reset(view(state, seat))
    return pad


def mode(pad: ActionPad) -> PadMode:
    """The pad's mode (a call, so that type checkers do not narrow it between presses)."""
    return pad.mode


def press_all(pad: ActionPad, *keys: str) -> Action | None:
    out: Action | None = None
    for key in keys:
        out = pad.press(key)
    return out


def test_first_round_choices_and_exchange_selection() -> None:
    pad = pad_for(hand_after(FIRST_DEAL), 0)
    assert [c.key for c in pad.choices()] == ["e", "b"]
    assert pad.press("e") is None
    assert mode(pad) is PadMode.EXCHANGE
    pad.press("1")
    pad.press("1")  # toggles back
    assert pad.selected == []
    assert pad.press("enter") is None and "choose 1 or 2" in pad.message
    assert press_all(pad, "2", "1", "enter") == Exchange(0, parse_cards("7h 6h"))
    assert mode(pad) is PadMode.IDLE


def test_declare_then_check() -> None:
    state = hand_after([*FIRST_DEAL, "p1 b 1", "p2 y", "p2 c", "p3 c", "p4 c"])
    state.apply(parse_action("d dh p1 Ah 2h", 4))
    state.apply(parse_action("d dh p2 3c 4c", 4))
    state.apply(parse_action("d dh p3 Js Jd", 4))
    state.apply(parse_action("d dh p4 Jc Jh", 4))
    pad = pad_for(state, 0)
    assert [c.key for c in pad.choices()] == ["d"]
    assert press_all(pad, "d", "9") is None and "press 1–" in pad.message
    action = pad.press("1")
    assert isinstance(action, Declare) and action.category is Category.FLUXUS  # 7h 6h Ah 2h
    state.apply(action)
    pad.reset(view(state, 0))
    assert pad.press("c") == Bet(0, 0)  # with no bet open in round 2, c checks: bet 0 (R5)


def test_amount_entry() -> None:
    pad = pad_for(hand_after(FIRST_DEAL), 0)
    pad.press("b")
    assert pad.amount == "1" and "Bet: 1" in pad.prompt()
    pad.press("up")
    pad.press("up")
    assert pad.amount == "3"
    pad.press("down")
    assert press_all(pad, "enter") == Bet(0, 2)
    pad.press("b")
    press_all(pad, "2", "5")  # the first digit replaces the proposed amount
    assert pad.press("enter") is None and "from 1 to 19" in pad.message
    pad.press("backspace")
    assert pad.press("enter") == Bet(0, 2)
    pad.press("b")
    pad.press("escape")
    assert pad.mode is PadMode.IDLE


def test_facing_a_bet_and_voting() -> None:
    state = hand_after([*FIRST_DEAL, "p1 b 3"])
    pad = pad_for(state, 1)
    assert [c.key for c in pad.choices()] == ["y", "n", "a"]
    assert pad.press("n") == Vote(1, False)
    assert pad.press("c") is None and "does nothing" in pad.message
    state.apply(Vote(1, True))
    pad = pad_for(state, 1)
    assert [c.key for c in pad.choices()] == ["r", "c", "f"]
    assert pad.press("c") == Call(1)
    assert pad.press("f") == Fold(1)
    assert press_all(pad, "r", "enter") == Raise(1, 4)


def test_not_my_turn_does_nothing() -> None:
    pad = pad_for(hand_after(FIRST_DEAL), 2)
    assert not pad.active and pad.choices() == [] and pad.press("e") is None


def test_command_line_uses_the_parser() -> None:
    state = hand_after(FIRST_DEAL)

    def parser(text: str) -> Action:
        if text != "b 2":
            raise ValueError("only 'b 2' here")
        return Bet(0, 2)

    pad = ActionPad(parser)
    pad.reset(view(state, 0))
    pad.press("colon")
    for ch in "b 3":
        pad.press("space" if ch == " " else ch, ch)
    assert pad.prompt() == ": b 3_"
    assert pad.press("enter") is None and pad.message == "only 'b 2' here"
    pad.press("backspace")
    pad.press("2", "2")
    assert pad.press("enter") == Bet(0, 2)


@pytest.mark.parametrize("key", ["e", "b"])
def test_escape_goes_back(key: str) -> None:
    pad = pad_for(hand_after(FIRST_DEAL), 0)
    pad.press(key)
    pad.press("escape")
    assert pad.mode is PadMode.IDLE and pad.prompt() == ""


def test_at_most_two_cards_can_be_chosen() -> None:
    state = hand_after([*FIRST_DEAL, "p1 b 1", "p2 y", "p2 c", "p3 c", "p4 c"])
    for line in ["d dh p1 Ah 2c", "d dh p2 3c 4c", "d dh p3 Js Jd", "d dh p4 Jc Jh"]:
        state.apply(parse_action(line, 4))
    for line in ["p1 dc supremus", "p1 b 0", "p2 dc numerus", "p2 c", "p3 dc numerus", "p3 c"]:
        state.apply(parse_action(line, 4))
    state.apply(parse_action("p4 dc numerus", 4))
    state.apply(parse_action("p4 c", 4))
    pad = pad_for(state, 0)
    assert [c.key for c in pad.choices()] == ["e"]
    press_all(pad, "e", "1", "2", "3")
    assert pad.selected == [0, 1] and "at most 2" in pad.message
    assert pad.press("enter") == Exchange(0, parse_cards("7h 6h"))
    pad.press("e")
    assert pad.press("enter") == Exchange(0, ())  # none chosen: stand pat (R4.6)


def test_a_non_printable_key_is_named_not_echoed() -> None:
    pad = pad_for(hand_after(FIRST_DEAL), 0)
    assert pad.press("escape", "\x1b") is None
    assert pad.message.startswith("escape does nothing now: e exchange")
    assert "\x1b" not in pad.message
    assert pad.press("enter", "\r") is None
    assert pad.message.startswith("enter does nothing now:")
    assert "''" not in pad.message and "\r" not in pad.message
    pad.press("space", " ")
    assert pad.message.startswith("space does nothing now:")
    pad.press("z", "z")
    assert pad.message.startswith("'z' does nothing now:")
    pad.press("ctrl+x", "\x18")
    assert pad.message.startswith("ctrl+x does nothing now:") and "\x18" not in pad.message


def test_stand_pat_is_offered_only_when_allowed() -> None:
    pad = pad_for(hand_after(FIRST_DEAL), 0)
    assert pad.legal is not None and 0 not in pad.legal.exchange
    pad.press("e")
    labels = {c.key: c.label for c in pad.choices()}
    assert "enter" not in labels, "round 1: no stand pat with nothing chosen"
    pad.press("1")
    assert {c.key: c.label for c in pad.choices()}["enter"] == "discard 1"


def test_a_refuses_and_sets_a_limit_kept_from_vote_to_vote() -> None:
    state = hand_after([*FIRST_DEAL, "p1 b 3"])
    pad = pad_for(state, 1)
    assert pad.press("a") is None and pad.mode is PadMode.LIMIT
    assert pad.amount == "2"  # one below the bet: the first guess
    assert "every bet above: 2" in pad.prompt()
    pad.press("backspace")
    assert pad.press("1") is None and pad.press("0") is None and pad.amount == "10"
    assert pad.press("enter") == Vote(1, False) and pad.refuse_above == 10
    pad.reset(view(state, 1))
    assert pad.refuse_above == 10  # kept: the table refuses bets above it for you
    pad.press("a")
    assert pad.amount == "10"
    pad.press("backspace")
    pad.press("backspace")
    assert pad.press("enter") is None and pad.refuse_above is None  # no amount: no limit
    assert "no limit" in pad.message
    pad.press("a")
    assert pad.press("escape") is None and pad.mode is PadMode.IDLE
