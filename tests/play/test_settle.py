"""Settling up: hand-computed transfers, the rate's words, and the invariants (Hypothesis)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from primero.play.settle import (
    Rate,
    RateError,
    Transfer,
    chip_rate,
    parse_chip_value,
    parse_currency,
    parse_rate,
    settle_seats,
    settle_text,
    settle_up,
)


def test_one_winner_is_paid_by_each_loser() -> None:
    # Ana +70; Ben -40, Cleo -30: each loser pays Ana once.
    got = settle_up({"Ana": 70, "Ben": -40, "Cleo": -30})
    assert got == [Transfer("Ben", "Ana", 40), Transfer("Cleo", "Ana", 30)]


def test_greedy_by_hand_and_not_always_fewest() -> None:
    # +6 +2 +2 -3 -3 -4: no net matches an opposite one. By hand, largest debtor to largest
    # creditor (ties by name): Dev 4 -> Ana (Ana 2 left); Ben 3 pays Ana 2 (Ben 1 left);
    # Eve 3 is now the largest debtor: pays Cleo 2 (Eve 1 left); Ben 1 -> Finn; Eve 1 ->
    # Finn. 5 transfers, where 4 would do ({+6, -3, -3} and {+2, +2, -4}).
    nets = {"Ana": 6, "Cleo": 2, "Finn": 2, "Ben": -3, "Eve": -3, "Dev": -4}
    assert settle_up(nets) == [
        Transfer("Dev", "Ana", 4),
        Transfer("Ben", "Ana", 2),
        Transfer("Eve", "Cleo", 2),
        Transfer("Ben", "Finn", 1),
        Transfer("Eve", "Finn", 1),
    ]


def test_an_exact_pair_is_one_transfer() -> None:
    # +50 +20 -20 -50: Ben owes exactly what Ana won, Dev exactly what Cleo won.
    got = settle_up({"Ana": 50, "Cleo": 20, "Dev": -20, "Ben": -50})
    assert got == [Transfer("Ben", "Ana", 50), Transfer("Dev", "Cleo", 20)]


def test_a_matching_pair_saves_a_transfer() -> None:
    # +4 +3 -3 -2 -2: Ben's 3 matches Cleo's 3 (one transfer), then Dev and Eve pay Ana 2
    # each: 3 transfers. Largest-to-largest alone would take 4 (Ben 3 -> Ana, Dev 2 ->
    # Cleo, Eve 1 -> Ana, Eve 1 -> Cleo).
    got = settle_up({"Ana": 4, "Cleo": 3, "Ben": -3, "Dev": -2, "Eve": -2})
    assert got == [
        Transfer("Ben", "Cleo", 3),
        Transfer("Dev", "Ana", 2),
        Transfer("Eve", "Ana", 2),
    ]


def test_zero_nets_pay_nothing() -> None:
    assert settle_up({"Ana": 0, "Ben": 0}) == []
    assert settle_text([]) == "Nobody owes anybody anything."


def test_nets_that_do_not_sum_to_zero_are_refused() -> None:
    with pytest.raises(ValueError, match="sum to 5"):
        settle_up({"Ana": 10, "Ben": -5})


def test_the_text_in_chips_and_money() -> None:
    rate = parse_rate("100 chips = 5.00")
    text = settle_text([Transfer("Ben", "Ana", 40), Transfer("Cleo", "Ana", 30)], rate)
    # 40 chips * 5.00 / 100 = 2.00; 30 chips = 1.50
    assert text == (
        "Ben pays Ana 40 chips (2.00)\nCleo pays Ana 30 chips (1.50)\nRate: 100 chips = 5.00"
    )
    assert settle_text([Transfer("Ben", "Ana", 40)]) == "Ben pays Ana 40 chips"
    # one chip is "1 chip", never "1 chips" (the page copies these lines as they are)
    assert settle_text([Transfer("Ben", "Ana", 1), Transfer("Bots", "Ana", 1)], rate) == (
        "Ben pays Ana 1 chip (0.05)\nBots pay Ana 1 chip (0.05)\nRate: 100 chips = 5.00"
    )


def test_money_rounds_half_up_to_the_cent() -> None:
    # 1 chip at 3 chips = 0.10 is 0.0333..., 5 chips 0.1666... -> 0.17; 15 chips = 0.50
    rate = Rate(3, Decimal("0.10"))
    assert (rate.of(1), rate.of(5), rate.of(15)) == (
        Decimal("0.03"),
        Decimal("0.17"),
        Decimal("0.50"),
    )


@pytest.mark.parametrize(
    ("text", "chips", "money"),
    [("100 chips = 5.00", 100, "5.00"), ("1 chip=1", 1, "1.00"), ("  20 Chips = 2,5 ", 20, "2.50")],
)
def test_rates_read(text: str, chips: int, money: str) -> None:
    assert parse_rate(text) == Rate(chips, Decimal(money))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("5.00", 'a rate is written "100 chips = 5.00"'),
        ("100 chips = 5.001", 'a rate is written "100 chips = 5.00"'),
        ("-100 chips = 5", 'a rate is written "100 chips = 5.00"'),
        ("0 chips = 5", "more than 0 chips and more than 0 money"),
        ("10 chips = 0.00", "more than 0 chips and more than 0 money"),
        ("10000000000 chips = 1", "at most 1000000000"),
    ],
)
def test_bad_rates_are_said_in_words(text: str, words: str) -> None:
    with pytest.raises(RateError, match=words.replace("(", r"\(").replace(".", r"\.")):
        parse_rate(text)


@st.composite
def zero_sum_nets(draw: st.DrawFn) -> dict[str, int]:
    values = draw(st.lists(st.integers(-10_000, 10_000), min_size=1, max_size=9))
    values.append(-sum(values))
    return {f"P{i}": v for i, v in enumerate(values)}


@given(zero_sum_nets())
def test_transfers_settle_every_net_in_at_most_people_minus_one(nets: dict[str, int]) -> None:
    transfers = settle_up(nets)
    balance = dict(nets)
    for t in transfers:
        assert t.chips > 0 and t.payer != t.payee
        balance[t.payer] += t.chips
        balance[t.payee] -= t.chips
    assert all(v == 0 for v in balance.values())
    moving = sum(1 for v in nets.values() if v)
    assert len(transfers) <= max(moving - 1, 0)
    # a payer only ever lost, a payee only ever won
    assert all(nets[t.payer] < 0 < nets[t.payee] for t in transfers)


def test_a_tables_seats_settle_with_the_bots_as_one_party() -> None:
    # Ana +60, Ben -50, two bots +10 and -20 (-10 together), an open seat: Ben pays Ana 50,
    # the bots pay Ana 10.
    got = settle_seats(
        [
            ("Ana", "person", 60),
            ("Ben", "person", -50),
            ("Bot 1", "heuristic", 10),
            ("Bot 2", "random", -20),
            (None, "open", 0),
        ]
    )
    assert got == {
        "transfers": [
            {"payer": "Ben", "payee": "Ana", "chips": 50, "money": None},
            {"payer": "Bots", "payee": "Ana", "chips": 10, "money": None},
        ],
        "text": "Ben pays Ana 50 chips\nBots pay Ana 10 chips",
    }


def test_a_tables_seats_settle_in_money_at_the_chip_value() -> None:
    # one chip = 0.10 EUR: Ben's 50 chips are 5.00 EUR, the bots' 10 chips 1.00 EUR; 7
    # chips at 0.125 are 0.875, rounded half up to 0.88
    rate = chip_rate(parse_chip_value("0,10"), parse_currency("EUR"))
    got = settle_seats(
        [("Ana", "person", 60), ("Ben", "person", -50), ("Bot 1", "heuristic", -10)], rate
    )
    assert got == {
        "transfers": [
            {"payer": "Ben", "payee": "Ana", "chips": 50, "money": "5.00"},
            {"payer": "Bots", "payee": "Ana", "chips": 10, "money": "1.00"},
        ],
        "text": "Ben pays Ana 50 chips (5.00 EUR)\nBots pay Ana 10 chips (1.00 EUR)\n"
        "1 chip = 0.10 EUR",
    }
    eighth = chip_rate("0.125")
    assert eighth is not None and eighth.of(7) == Decimal("0.88")
    assert str(chip_rate("2", None)) == "1 chip = 2.00"
    assert chip_rate(None) is None and chip_rate("") is None
    for bad in ("0", "-1", "0.00001", "1000001", "ten", "1e3", ""):
        with pytest.raises(RateError):
            parse_chip_value(bad)
    for bad in ("", "EURO-1", "€", "ABCDEFGHI"):
        with pytest.raises(RateError):
            parse_currency(bad)


def test_a_table_whose_nets_do_not_add_up_settles_nothing() -> None:
    got = settle_seats([("Ana", "person", 30), ("Ben", "person", -20)])
    assert got == {
        "transfers": [],
        "text": "The nets do not add up (+10 chips): nothing can be settled.",
    }
