"""primero.play.moveinput: numbers, cards and moves as people type them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primero.engine.actions import Bet, Exchange
from primero.engine.cards import CardError, parse_card, parse_cards
from primero.engine.state import HandState, LegalActions
from primero.play.moveinput import (
    InputError,
    count_text,
    digit_key,
    input_help,
    parse_move,
    read_card,
    read_cards,
    read_number,
)
from primero.play.table import Table, TableConfig


def _first_turn() -> Table:
    table = Table(TableConfig(players=4, seed=5, max_hands=1, bots=("random",)))
    table.start_hand()
    table.advance()
    assert table.waiting_for_human()
    return table


# ------------------------------------------------------------------ numbers


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("5", 5), (" 12 ", 12), ("007", 7)])
def test_read_number_reads_ascii_digits(text: str, value: int) -> None:
    assert read_number(text) == value


@pytest.mark.parametrize("text", ["²", "5²", "١٢", "５", "-3", "+3", "5.5", "five", "", " ", "⁴"])
def test_read_number_refuses_what_is_not_ascii_digits(text: str) -> None:
    with pytest.raises(InputError, match="not a whole number of chips: type the digits 0-9"):
        read_number(text)


def test_read_number_refuses_huge_numbers_before_int() -> None:
    # int() itself refuses over 4300 digits with a ValueError; here it is an InputError
    with pytest.raises(InputError, match="too large"):
        read_number("9" * 5000)
    with pytest.raises(InputError, match="too large"):
        read_number("1" * 11)
    assert read_number("9" * 10) == 9_999_999_999  # 10 digits: 8 seats x 10^9 chips fit


@pytest.mark.parametrize(
    ("key", "digit"),
    [
        ("0", 0),
        ("1", 1),
        ("9", 9),
        ("²", None),
        ("٣", None),
        ("enter", None),
        ("", None),
        ("12", None),
        ("a", None),
    ],
)
def test_digit_key(key: str, digit: int | None) -> None:
    assert digit_key(key) == digit


# ------------------------------------------------------------------ cards


@pytest.mark.parametrize(
    ("word", "card"),
    [
        ("7h", "7h"),
        ("7H", "7h"),
        ("kc", "Kc"),
        ("a♠", "As"),
        ("7♥", "7h"),
        ("7♡", "7h"),
        ("2♧", "2c"),
        ("Q♢", "Qd"),
        ("6♤", "6s"),
        ("6♠\ufe0f", "6s"),
        ("6♥\ufe0f", "6h"),
        ("J♦\ufe0e", "Jd"),
        ("6♤\ufe0f", "6s"),
    ],
)
def test_read_card_accepts_what_people_type(word: str, card: str) -> None:
    assert read_card(word) == parse_card(card)


@pytest.mark.parametrize("word", ["8h", "10s", "7x", "7", "♥7", "7♥♥", "\ufe0f"])
def test_read_card_error_lists_every_accepted_symbol(word: str) -> None:
    with pytest.raises(InputError) as info:
        read_card(word)
    message = str(info.value)
    assert f"unknown card {word!r}" in message
    for symbol in "cdhs♣♦♥♠♧♢♡♤":
        assert symbol in message


def test_records_stay_strict() -> None:
    with pytest.raises(CardError):
        parse_card("6♠\ufe0f")
    with pytest.raises(CardError):
        parse_card("kc")


def test_read_cards_refuses_a_card_twice() -> None:
    with pytest.raises(InputError, match="named twice"):
        read_cards(["7h", "7♥"])
    assert read_cards(["7h", "K♣\ufe0f"]) == parse_cards("7h Kc")


def test_typed_emoji_card_exchanges() -> None:
    table = _first_turn()
    a = table.view().hand[0]
    typed = a.pretty + "\ufe0f"
    assert table.parse_input(f"x {typed}") == Exchange(0, (a,))


# ------------------------------------------------------------------ words


def test_count_text() -> None:
    assert count_text([1, 2]) == "1 or 2 cards"
    assert count_text([0, 1, 2]) == "0, 1 or 2 cards"
    assert count_text([1]) == "1 card"
    assert count_text([2]) == "2 cards"


def test_input_help_exchange_wording() -> None:
    # the second exchange (R4.6): 0, 1 or 2; 0 is standing pat, said separately
    legal = LegalActions(seat=0, exchange=(0, 1, 2))
    assert input_help(legal) == ["x CARDS  exchange 1 or 2 cards, e.g. x 7h Kc, or x to stand pat"]
    legal = LegalActions(seat=0, exchange=(1, 2), bet=(1, 9))
    assert input_help(legal)[0] == "x CARDS  exchange 1 or 2 cards, e.g. x 7h Kc"
    legal = LegalActions(seat=0, exchange=(0, 1))
    assert input_help(legal)[0] == "x CARDS  exchange 1 card, e.g. x 7h Kc, or x to stand pat"


def test_superscript_amount_is_a_clear_error_and_changes_nothing() -> None:
    table = _first_turn()
    hand = table.hand
    assert hand is not None
    before = hand.lines()
    for text in ("b ²", "r ²", "b 1²", "bet ５"):
        with pytest.raises(InputError, match="not a whole number of chips"):
            table.parse_input(text)
    assert hand.lines() == before
    assert table.parse_input("b 2") == Bet(0, 2)


def test_unknown_card_error_gives_two_different_examples() -> None:
    table = _first_turn()
    with pytest.raises(InputError) as info:
        table.parse_input("x 1")
    first = str(info.value).splitlines()[0]
    assert first.startswith("unknown card '1': a card is a rank A 2 3 4 5 6 7 J Q K")
    assert first.endswith("e.g. 7h or 7♥")  # typed with a letter or with the symbol


# ------------------------------------------------------------------ property


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_parse_move_never_raises_anything_but_input_error(text: str) -> None:
    state = HandState(["Ana", "Ben", "Cy"], [20, 20, 20])
    from primero.engine.actions import parse_action

    for line in ["d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Kc Ks"]:
        state.apply(parse_action(line, 3))
    before = state.lines()
    legal = state.legal_actions()
    try:
        action = parse_move(text, 0, legal, state.check)
    except InputError as exc:
        assert str(exc)
    else:
        state.check(action)
    assert state.lines() == before
