"""Cards of the 40-card deck (R1): parsing, canonical text, deck order, points, errors."""

from __future__ import annotations

import pickle

import pytest

from primero.engine.cards import (
    DECK,
    POINTS,
    Card,
    CardError,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)


def test_deck_order_and_ids() -> None:
    assert len(DECK) == 40
    assert [c.id for c in DECK] == list(range(40))
    assert [str(c) for c in DECK[:10]] == [
        "Ac",
        "2c",
        "3c",
        "4c",
        "5c",
        "6c",
        "7c",
        "Jc",
        "Qc",
        "Kc",
    ]
    assert [str(DECK[i]) for i in (10, 19, 20, 30, 39)] == ["Ad", "Kd", "Ah", "As", "Ks"]
    for card in DECK:
        assert card.id == 10 * card.suit + card.rank
    assert sorted(reversed(DECK)) == list(DECK)


def test_points() -> None:
    assert [c.points for c in DECK[:10]] == [16, 12, 13, 14, 15, 18, 21, 10, 10, 10]
    assert POINTS == (16, 12, 13, 14, 15, 18, 21, 10, 10, 10)
    assert Rank.SEVEN.points == 21 and Rank.KING.points == 10
    assert [c.points for c in parse_cards("7h 6h Ah Kc")] == [21, 18, 16, 10]


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("7h", "7h"),
        ("7H", "7h"),
        ("7♥", "7h"),
        ("7♡", "7h"),
        ("Ac", "Ac"),
        ("AC", "Ac"),
        ("A♣", "Ac"),
        ("A♧", "Ac"),
        ("Qd", "Qd"),
        ("QD", "Qd"),
        ("Q♦", "Qd"),
        ("Q♢", "Qd"),
        ("2s", "2s"),
        ("2S", "2s"),
        ("2♠", "2s"),
        ("2♤", "2s"),
        ("Kc", "Kc"),
        ("Js", "Js"),
    ],
)
def test_parse_every_suit_form(text: str, canonical: str) -> None:
    card = parse_card(text)
    assert str(card) == canonical
    assert card is DECK[[str(c) for c in DECK].index(canonical)]


def test_pretty_and_format() -> None:
    cards = parse_cards("7h 6d Ac Ks")
    assert format_cards(cards) == "7h 6d Ac Ks"
    assert format_cards(cards, pretty=True) == "7♥ 6♦ A♣ K♠"
    assert format_cards(()) == ""
    assert repr(DECK[0]) == "Card('Ac')"
    assert Suit.HEARTS.letter == "h" and Suit.HEARTS.symbol == "♥"
    assert Rank.JACK.char == "J"


def test_parse_cards_forms() -> None:
    assert parse_cards("7h 6h  Ah\t2c") == (DECK[26], DECK[25], DECK[20], DECK[1])
    assert parse_cards(["7h", DECK[25]]) == (DECK[26], DECK[25])
    assert parse_cards("") == ()
    assert parse_cards("7h 7H", distinct=False) == (DECK[26], DECK[26])


@pytest.mark.parametrize(
    "token", ["8h", "9c", "10s", "Th", "ah", "7x", "7", "h7", "77", "7hh", "", "♥7", "kS"]
)
def test_unknown_cards_name_the_token(token: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(token)
    assert repr(token) in str(info.value)
    assert "A 2 3 4 5 6 7 J Q K" in str(info.value)


def test_parse_cards_names_the_bad_token() -> None:
    with pytest.raises(CardError, match="unknown card '9d'"):
        parse_cards("7h 9d Ah")


def test_repeated_cards() -> None:
    with pytest.raises(CardError, match="card 7h is named twice"):
        parse_cards("7h Ah 7♥")
    assert issubclass(CardError, ValueError)


def test_cards_are_interned_and_immutable() -> None:
    with pytest.raises(CardError):
        Card(3)
    with pytest.raises(AttributeError):
        DECK[0].id = 5
    assert pickle.loads(pickle.dumps(DECK[17])) is DECK[17]
    assert parse_card("Kd") is DECK[19]
    assert hash(DECK[7]) == 7
