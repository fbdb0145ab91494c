"""The pure rule helpers both engines call (primero.engine.rulebook), with values worked out by
hand from docs/rules.md, and the random bot's one decision procedure."""

from __future__ import annotations

import random

import pytest

from primero.bots.random import (
    ACCEPT,
    BET,
    CALL,
    DECLARE,
    EXCHANGE,
    FOLD,
    RAISE,
    REFUSE,
    RandomBot,
    random_cards,
    random_move,
)
from primero.engine.cards import CardError, parse_cards
from primero.engine.hands import Category, evaluate, evaluate_mask, value_by_mask
from primero.engine.legal import LegalActions
from primero.engine.pots import divide_pot, pot_layers
from primero.engine.rulebook import (
    SEATS_AFTER,
    able_to_bet,
    declarable,
    exchange_order,
    first_round_options,
    next_exchanger,
    next_in_seat_order,
    next_to_act,
    opening_range,
    raise_range,
    reshuffle_pool,
    voted,
    voters,
)
from primero.engine.rules import Rules, RulesError

F, T = False, True


def test_first_round_options_follow_the_house_rules() -> None:  # R4.3
    assert first_round_options(Rules()) == ((1, 2), 1)
    assert first_round_options(Rules(first_round_stand=True)) == ((0, 1, 2), 1)
    assert first_round_options(Rules(first_round_zero_bet=True)) == ((1, 2), 0)


def test_opening_range() -> None:  # R5, R8
    assert opening_range(1, 20, None) == (1, 20)
    assert opening_range(0, 20, 10) == (0, 9)  # strictly below the refused 10
    assert opening_range(1, 20, 1) is None  # refused 1: nothing left to bet in round 1
    assert opening_range(0, 0, None) == (0, 0)


def test_raise_range() -> None:  # R5, R8
    # bet to match 4, min_raise 2, the seat put in 1 and has 9 left: 6 to 10
    assert raise_range(4, 2, 1, 9, None) == (6, 10)
    assert raise_range(4, 2, 1, 9, 8) == (6, 7)  # below a refused raise to 8
    assert raise_range(4, 2, 1, 4, None) is None  # 5 at most: no all-in raise for less
    assert raise_range(4, 1, 0, 9, None, raises=2, max_raises=2) is None  # the cap
    assert raise_range(4, 1, 0, 9, None, raises=1, max_raises=2) == (5, 9)
    assert raise_range(4, 1, 0, 9, None, others_with_chips=0) is None  # pointless


def test_declarable() -> None:  # R6: the truth or higher
    assert declarable(Category.PRIMERO) == (
        Category.PRIMERO,
        Category.SUPREMUS,
        Category.FLUXUS,
        Category.CHORUS,
    )
    assert declarable(Category.CHORUS) == (Category.CHORUS,)
    assert len(declarable(Category.NUMERUS)) == 5


def test_votes() -> None:  # R8
    assert voted(3, True, 3) and not voted(0, True, 5)
    assert not voted(3, True, 2) and not voted(3, False, 4)
    # p3 bets with p2 folded: p4, p5, then round to p1 (all-in players vote too)
    assert voters(2, [F, T, F, F, F]) == (3, 4, 0)
    assert voters(0, [F, F]) == (1,)


def test_turn_order() -> None:  # R5, R4.3, R4.6
    assert SEATS_AFTER[4][1] == (2, 3, 0, 1)
    assert able_to_bet([F, T, F, F], [5, 5, 0, 3]) == [0, 3]
    # p2 raised to 4; p3 folded, p4 all-in, p1 matched 4: the round is over
    assert next_to_act(1, [F, F, T, F], [9, 5, 9, 0], [T, T, F, F], [4, 4, 0, 2], 4) is None
    # p1 had matched only 2: p1 acts
    assert next_to_act(1, [F, F, T, F], [9, 5, 9, 0], [T, T, F, F], [2, 4, 0, 2], 4) == 0
    # first round: no wrapping; a seat that acted or has no chips is skipped
    assert next_exchanger(0, [F, F, F, F], [5, 0, 5, 5], [T, F, T, F]) == 3
    assert next_exchanger(3, [F, F, F, F], [5, 5, 5, 5], [F, F, F, T]) is None
    assert next_in_seat_order(0, [F, T, F]) == 2 and next_in_seat_order(2, [F, T, F]) is None
    # R4.6: every player still in exchanges once, in seat order, all-in ones too
    assert exchange_order([F, T, F, F, T]) == [0, 2, 3]
    assert exchange_order([T, F]) == [1]
    assert next_in_seat_order(-1, [T, F, F]) == 1


def test_reshuffle_pool() -> None:  # R8b
    assert reshuffle_pool([5, 9, 2, 7], [9, 7]) == [5, 2]
    cards = parse_cards("7h Kc 2d")
    assert reshuffle_pool(cards, cards[1:2]) == [cards[0], cards[2]]


def test_pots_over_plain_values() -> None:  # R7
    # p4 folded after 1; p1 all-in for 10; p2 and p3 put in 31
    assert pot_layers([10, 31, 31, 1], [F, F, F, T]) == [(31, (0, 1, 2)), (42, (1, 2))]
    assert pot_layers([0, 0], [F, F]) == []
    assert divide_pot(7, [1, 3], split=True) == ((1, 3), (4, 3))
    assert divide_pot(7, [1, 3], split=False) == ((1,), (7,))


def test_random_move_draws_in_the_order_of_the_kinds() -> None:
    # k kinds: a draw in [i/k, (i+1)/k) picks kinds()[i] (R10: the bot's one procedure)
    names = {
        EXCHANGE: "x",
        BET: "b",
        RAISE: "r",
        CALL: "c",
        FOLD: "f",
        DECLARE: "dc",
        ACCEPT: "y",
        REFUSE: "n",
    }
    for legal in [
        LegalActions(0, exchange=(1, 2), bet=(1, 20)),
        LegalActions(0, exchange=(0, 1, 2), bet=(0, 3)),
        LegalActions(0, exchange=(0, 1, 2)),
        LegalActions(0, raise_to=(4, 9), call=2, fold=True),
        LegalActions(0, call=0, fold=True),
        LegalActions(0, vote=True),
        LegalActions(0, declare=(Category.FLUXUS, Category.CHORUS), fold=True),
        LegalActions(0, declare=(Category.CHORUS,)),
    ]:
        kinds = legal.kinds()
        for i, kind in enumerate(kinds):
            draws = iter([(i + 0.5) / len(kinds), 0.0, 0.0])
            got, value = random_move(lambda d=draws: next(d), legal)  # type: ignore[misc]
            label = names[got] + (str(value) if got == EXCHANGE else "")
            assert label == kind, (legal, kinds, label)


def test_random_cards_pop_in_place() -> None:
    hand = [10, 20, 30, 40]
    draws = iter([0.6, 0.0])  # index 2 of 4, then index 0 of 3
    assert random_cards(lambda: next(draws), hand, 2) == [30, 10]
    assert hand == [20, 40]


def test_random_bot_choose_is_its_call() -> None:
    legal = LegalActions(2, exchange=(1, 2), bet=(1, 5))
    hand = parse_cards("7h Kc")
    a = RandomBot.choose(legal, random.Random(4), hand)
    b = RandomBot.choose(legal, random.Random(4), hand)
    assert a == b and a.seat == 2
    with pytest.raises(ValueError, match="no player's move"):
        RandomBot.choose(LegalActions(None), random.Random(1))
    with pytest.raises(ValueError, match="needs the seat's hand"):
        RandomBot.choose(LegalActions(0, exchange=(2,)), random.Random(1))


def test_evaluate_mask() -> None:  # R2
    cards = parse_cards("7h 6h Ah 2c")
    mask = sum(1 << c.id for c in cards)
    assert evaluate_mask(mask) == evaluate(cards) == value_by_mask()[mask]
    assert len(value_by_mask()) == 91_390
    for bad in [0, mask | 1 << 39 if not mask >> 39 & 1 else 0, 1 << 40 | 7]:
        with pytest.raises(CardError, match="mask of four distinct card ids"):
            evaluate_mask(bad)


def test_match_players_and_the_seed_scheme() -> None:  # R3, R10
    Rules().check_match_players(4)
    with pytest.raises(RulesError, match="a match starts with 4 to 6 players"):
        Rules().check_match_players(7)
    from primero.engine.dealing import derive_seed

    assert derive_seed(1, 0) == 1_000_003 + 7_919 and derive_seed(1, 0) != derive_seed(1, 1)
