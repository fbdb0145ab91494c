"""Action ids of the research interfaces (primero.research.actionids): the documented table, by
hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from primero.bots.random import RandomBot
from primero.engine.actions import Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import DECK, parse_cards
from primero.engine.dealing import Dealer
from primero.engine.hands import Category
from primero.engine.legal import DEALER, LegalActions
from primero.engine.rules import Rules
from primero.engine.state import HandState
from primero.engine.views import view
from primero.research.actionids import (
    ACCEPT,
    BET0,
    CALL,
    FOLD,
    REFUSE,
    action_of,
    describe,
    id_of,
    legal_ids,
    mask_of,
    num_actions,
    raise0,
)

# In deck order (clubs, diamonds, hearts, spades; A 2 3 4 5 6 7 J Q K): 2c Kc Ah 7h.
HAND = parse_cards("Kc 7h Ah 2c")


def test_table_of_ids_for_a_stack_of_ten() -> None:
    assert num_actions(10) == 42  # 22 + 2 * 10
    assert (FOLD, CALL, ACCEPT, REFUSE, BET0, raise0(10)) == (0, 1, 2, 3, 20, 31)
    assert action_of(0, seat=2, hand=HAND, max_stack=10) == Fold(2)
    assert action_of(1, seat=2, hand=HAND, max_stack=10) == Call(2)
    assert action_of(2, seat=2, hand=HAND, max_stack=10) == Vote(2, True)
    assert action_of(3, seat=2, hand=HAND, max_stack=10) == Vote(2, False)
    assert action_of(4, seat=2, hand=HAND, max_stack=10) == Declare(2, Category.NUMERUS)
    assert action_of(8, seat=2, hand=HAND, max_stack=10) == Declare(2, Category.CHORUS)
    assert action_of(9, seat=2, hand=HAND, max_stack=10) == Exchange(2, ())
    assert action_of(20, seat=2, hand=HAND, max_stack=10) == Bet(2, 0)
    assert action_of(30, seat=2, hand=HAND, max_stack=10) == Bet(2, 10)
    assert action_of(31, seat=2, hand=HAND, max_stack=10) == Raise(2, 0)
    assert action_of(41, seat=2, hand=HAND, max_stack=10) == Raise(2, 10)


def test_exchange_positions_count_in_deck_order() -> None:
    two, king, ace, seven = parse_cards("2c Kc Ah 7h")
    assert action_of(10, seat=0, hand=HAND, max_stack=10) == Exchange(0, (two,))
    assert action_of(12, seat=0, hand=HAND, max_stack=10) == Exchange(0, (ace,))
    assert action_of(13, seat=0, hand=HAND, max_stack=10) == Exchange(0, (seven,))
    assert action_of(14, seat=0, hand=HAND, max_stack=10) == Exchange(0, (two, king))
    assert action_of(19, seat=0, hand=HAND, max_stack=10) == Exchange(0, (ace, seven))
    assert describe(16, hand=HAND, max_stack=10) == "exchange 2c 7h"
    assert id_of(Exchange(0, (seven, king)), hand=HAND, max_stack=10) == 18  # positions 1, 3


def test_out_of_range_ids_and_positions_are_errors() -> None:
    with pytest.raises(ValueError, match=r"ids are 0\.\.41"):
        action_of(42, seat=0, hand=HAND, max_stack=10)
    with pytest.raises(ValueError, match="holds 2 cards"):
        action_of(13, seat=0, hand=HAND[:2], max_stack=10)
    with pytest.raises(ValueError, match=r"0\.\.10 chips"):
        id_of(Bet(0, 11), hand=HAND, max_stack=10)
    with pytest.raises(ValueError, match="not in the hand"):
        id_of(Exchange(0, (DECK[39],)), hand=HAND, max_stack=10)


def test_legal_ids_follow_legal_actions() -> None:
    # first round, two cards: exchange one or two, or bet 1..3
    first = LegalActions(0, exchange=(1, 2), bet=(1, 3))
    assert legal_ids(first, hand_size=2, max_stack=10) == [10, 11, 14, 21, 22, 23]
    # a vote (R8)
    assert legal_ids(LegalActions(1, vote=True), hand_size=4, max_stack=10) == [2, 3]
    # a first turn of the declare round facing a bet: declare primero or higher, or fold
    declare = LegalActions(1, declare=tuple(Category)[1:], fold=True)
    assert legal_ids(declare, hand_size=4, max_stack=10) == [0, 5, 6, 7, 8]
    # facing a bet: fold, call, raise to 5..7
    facing = LegalActions(2, raise_to=(5, 7), call=3, fold=True)
    assert legal_ids(facing, hand_size=4, max_stack=10) == [0, 1, 36, 37, 38]
    # second exchange: 0, 1 or 2 of four cards = 1 + 4 + 6 ids
    assert legal_ids(LegalActions(0, exchange=(0, 1, 2)), hand_size=4, max_stack=10) == list(
        range(9, 20)
    )
    assert legal_ids(LegalActions(DEALER, deal=2), hand_size=0, max_stack=10) == []
    assert legal_ids(LegalActions(None), hand_size=0, max_stack=10) == []


@given(st.integers(0, num_actions(12) - 1))
def test_every_id_round_trips(action_id: int) -> None:
    action = action_of(action_id, seat=1, hand=HAND, max_stack=12)
    assert id_of(action, hand=HAND, max_stack=12) == action_id


def test_descriptions_are_unique_over_all_ids() -> None:
    texts = [describe(i, hand=HAND, max_stack=10, to_call=2) for i in range(num_actions(10))]
    assert len(set(texts)) == len(texts)
    assert texts[:4] == ["fold", "call 2", "accept the bet", "refuse the bet"]
    assert texts[9] == "stand pat"


def _expected_count(legal: LegalActions, hand_size: int) -> int:
    """How many ids ``legal`` allows, counted from rules.md by hand: votes 2; a declaring
    turn its categories (+ fold); else C(hand, k) exchanges per allowed k, the bet and raise
    ranges, call and fold."""
    if legal.vote:
        return 2
    if legal.declare:
        return len(legal.declare) + int(legal.fold)
    choose = {0: 1, 1: hand_size, 2: hand_size * (hand_size - 1) // 2}
    count = sum(choose[k] for k in legal.exchange)
    for rng in (legal.bet, legal.raise_to):
        if rng is not None:
            count += rng[1] - rng[0] + 1
    return count + int(legal.call is not None) + int(legal.fold)


RULE_SETS = [
    Rules(),
    Rules(first_round_stand=True, first_round_zero_bet=True, min_raise=3, max_raises=2),
    Rules(refusal=False, declarations=False, last_round=False, ante=0, max_players=8),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=["default", "stand-zero-raises", "bare"])
def test_legal_ids_are_exactly_the_engines_legal_moves(rules: Rules) -> None:
    """In seeded random hands, every id offered is accepted by the engine's own check,
    and there are as many as the engine's legal actions allow (none missing)."""
    for seed in range(25):
        players = 3 + seed % 4
        state = HandState([f"p{i + 1}" for i in range(players)], [12] * players, rules)
        dealer, bot = Dealer.seeded(seed), RandomBot(seed=seed)
        while not state.complete:
            seat = state.to_act
            if seat == DEALER:
                dealer.deal_into(state)
                continue
            assert seat is not None
            legal = state.legal_actions()
            hand = state.hands[seat]
            ids = legal_ids(legal, hand_size=len(hand), max_stack=12)
            assert len(ids) == len(set(ids)) == _expected_count(legal, len(hand))
            for action_id in ids:
                state.check(action_of(action_id, seat=seat, hand=hand, max_stack=12))
            state.apply(bot(view(state, seat)))


@given(st.sets(st.integers(0, 63)), st.integers(0, 8))
def test_a_mask_has_a_1_at_each_id_and_a_0_elsewhere(ids: set[int], spare: int) -> None:
    """Whatever the runs of ids (one at the end, several, single ids), the mask is the
    plain definition: 1 where an id is, 0 elsewhere, ``size`` bytes."""
    size = 64 + spare
    mask = mask_of(sorted(ids), size)
    assert len(mask) == size
    assert [i for i, bit in enumerate(mask) if bit] == sorted(ids)
    assert set(mask) <= {0, 1}


def test_a_mask_of_exchanges_then_a_run_of_bets() -> None:
    assert list(mask_of([4, 6, 9, 10, 11, 12], 14)) == [0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0]
    assert list(mask_of([], 3)) == [0, 0, 0]
    assert list(mask_of([0, 1, 2], 3)) == [1, 1, 1]
