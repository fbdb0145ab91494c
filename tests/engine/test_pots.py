"""Pots, side pots and their award under both tie rules (R7), with hand-computed amounts."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primero.engine.hands import HandValue, evaluate
from primero.engine.pots import Award, Pot, award_pots, build_pots, live_pots, settle
from tests.referee import r7_payouts

SUPREMUS_55 = evaluate("7h 6h Ah 2c")
FLUXUS_42 = evaluate("Ks Qs Js 2s")
PRIMERO_70_A = evaluate("7h 6s Ac 5d")
PRIMERO_70_B = evaluate("7s 6h Ad 5c")
PRIMERO_68 = evaluate("7c 6d 5s 4h")
NUMERUS_20 = evaluate("Kc Qc Kd 2s")
NUMERUS_39_A = evaluate("6c 7c 6d 7d")
NUMERUS_39_B = evaluate("6h 7h 6s 7s")


def test_hand_values_used_here() -> None:
    assert (SUPREMUS_55.category.name, SUPREMUS_55.points) == ("SUPREMUS", 55)
    assert (FLUXUS_42.category.name, FLUXUS_42.points) == ("FLUXUS", 42)
    assert PRIMERO_70_A == PRIMERO_70_B and PRIMERO_70_A.points == 70
    assert NUMERUS_39_A == NUMERUS_39_B and NUMERUS_39_A.points == 39
    assert FLUXUS_42 > SUPREMUS_55 > PRIMERO_70_A > PRIMERO_68 > NUMERUS_39_A > NUMERUS_20


# ---------------------------------------------------------------- build_pots


def test_single_pot_of_antes() -> None:
    assert build_pots([1, 1, 1, 1], [False] * 4) == [Pot(4, (0, 1, 2, 3))]


def test_side_pot_from_one_short_all_in() -> None:
    # p1 all-in for 10, p2 and p3 put in 31, p4 folded after its ante.
    # 10 + 10 + 10 + 1 = 31 for p1 p2 p3; 21 + 21 = 42 for p2 p3.
    assert build_pots([10, 31, 31, 1], [False, False, False, True]) == [
        Pot(31, (0, 1, 2)),
        Pot(42, (1, 2)),
    ]


def test_three_levels_and_an_uncalled_top() -> None:
    # Levels 6, 11, 21: 6x3 + 1 = 19; 5 + 5 = 10; the uncalled 10 of p3 alone.
    assert build_pots([6, 11, 21, 1], [False, False, False, True]) == [
        Pot(19, (0, 1, 2)),
        Pot(10, (1, 2)),
        Pot(10, (2,)),
    ]


def test_two_all_ins_below_a_call() -> None:
    # 2, 5, 9, 9 all in: 2x4 = 8 (all); 3x3 = 9 (p2 p3 p4); 4x2 = 8 (p3 p4).
    assert build_pots([2, 5, 9, 9], [False] * 4) == [
        Pot(8, (0, 1, 2, 3)),
        Pot(9, (1, 2, 3)),
        Pot(8, (2, 3)),
    ]


def test_folded_chips_between_levels() -> None:
    # p2 folded after putting in 7; levels of the players still in: 4 and 12.
    # Level 4: 4 + 4 + 4 = 12 (p1 p3); level 12: 3 (p2's rest) + 8 = 11 (p3).
    assert build_pots([4, 7, 12], [False, True, False]) == [Pot(12, (0, 2)), Pot(11, (2,))]


def test_folded_chips_above_the_top_level_go_to_the_last_pot() -> None:
    # Still in: p1 5 and p3 3. Level 3: 3 x 3 = 9 (p1 p3); top level 5: 2 + 7 = 9 (p1).
    assert build_pots([5, 10, 3], [False, True, False]) == [Pot(9, (0, 2)), Pot(9, (0,))]


def test_equal_contributions_with_a_folded_short_player() -> None:
    assert build_pots([3, 3, 1, 3], [False, False, True, False]) == [Pot(10, (0, 1, 3))]


def test_empty_pots_are_left_out() -> None:
    assert build_pots([0, 0, 0], [False] * 3) == []
    # p1 put in nothing (ante 0) but is still in: it is eligible for nothing.
    assert build_pots([0, 2, 2], [False] * 3) == [Pot(4, (1, 2))]


def test_build_pots_errors() -> None:
    with pytest.raises(ValueError):
        build_pots([1, 1], [True, True])
    with pytest.raises(ValueError):
        build_pots([1, 1, 1], [False, False])


# ---------------------------------------------------------------- award_pots


def test_single_eligible_pot_needs_no_hand() -> None:
    pot = Pot(9, (2,))
    assert award_pots([pot], [None, None, None]) == [Award(pot, (2,), (9,))]


def test_best_hand_takes_each_pot_it_is_eligible_for() -> None:
    pots = [Pot(19, (0, 1, 2)), Pot(10, (1, 2)), Pot(10, (2,))]
    values: list[HandValue | None] = [FLUXUS_42, PRIMERO_68, NUMERUS_20, None]
    assert award_pots(pots, values) == [
        Award(pots[0], (0,), (19,)),
        Award(pots[1], (1,), (10,)),
        Award(pots[2], (2,), (10,)),
    ]


def test_category_before_points() -> None:
    pot = Pot(8, (0, 1, 2))
    values: list[HandValue | None] = [SUPREMUS_55, FLUXUS_42, PRIMERO_70_A]
    assert award_pots([pot], values) == [Award(pot, (1,), (8,))]


def test_eldest_takes_a_tie() -> None:
    pot = Pot(13, (0, 1, 3))
    values: list[HandValue | None] = [NUMERUS_20, PRIMERO_70_A, None, PRIMERO_70_B]
    assert award_pots([pot], values) == [Award(pot, (1,), (13,))]
    assert award_pots([pot], values, "eldest") == [Award(pot, (1,), (13,))]


def test_split_tie_odd_chip_from_the_earliest_tied_seat() -> None:
    pot = Pot(13, (0, 1, 3))
    values: list[HandValue | None] = [NUMERUS_20, PRIMERO_70_A, None, PRIMERO_70_B]
    assert award_pots([pot], values, "split") == [Award(pot, (1, 3), (7, 6))]


def test_split_three_ways_with_two_odd_chips() -> None:
    pot = Pot(11, (0, 1, 2))
    values: list[HandValue | None] = [NUMERUS_39_A, NUMERUS_39_B, evaluate("6c 7c 6s 7s")]
    assert award_pots([pot], values, "split") == [Award(pot, (0, 1, 2), (4, 4, 3))]
    assert award_pots([pot], values, "eldest") == [Award(pot, (0,), (11,))]


def test_even_split_and_split_of_each_pot_separately() -> None:
    pots = [Pot(12, (0, 1, 2)), Pot(7, (1, 2))]
    values: list[HandValue | None] = [FLUXUS_42, PRIMERO_70_A, PRIMERO_70_B]
    assert award_pots(pots, values, "split") == [
        Award(pots[0], (0,), (12,)),
        Award(pots[1], (1, 2), (4, 3)),
    ]


def test_award_errors() -> None:
    with pytest.raises(ValueError):
        award_pots([Pot(4, (0, 1))], [FLUXUS_42, None])
    with pytest.raises(ValueError):
        award_pots([Pot(4, (0, 1))], [FLUXUS_42, NUMERUS_20], "random")


# ---------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 40), st.booleans()), min_size=2, max_size=8).filter(
        lambda seats: not all(f for _, f in seats)
    ),
    st.sampled_from(["eldest", "split"]),
    st.randoms(use_true_random=False),
)
def test_pots_hold_every_chip_and_awards_share_them(
    seats: list[tuple[int, bool]], ties: str, rnd: random.Random
) -> None:
    contributed = [c for c, _ in seats]
    folded = [f for _, f in seats]
    pots = build_pots(contributed, folded)
    assert sum(p.amount for p in pots) == sum(contributed)
    in_levels = sorted({c for c, f in seats if not f})
    assert len(pots) <= len(in_levels)
    for pot in pots:
        assert pot.amount > 0
        assert pot.eligible and all(not folded[s] for s in pot.eligible)
        assert list(pot.eligible) == sorted(pot.eligible)
    for earlier, later in pairwise(pots):
        assert set(later.eligible) < set(earlier.eligible)
    # The top contributor still in is eligible for every pot.
    top = max(c for c, f in seats if not f)
    for pot in pots:
        assert any(contributed[s] == top for s in pot.eligible)
    hands = [
        "7h 6h Ah 2c",
        "Ks Qs Js 2s",
        "7h 6s Ac 5d",
        "7s 6h Ad 5c",
        "Kc Qc Kd 2s",
        "6c 7c 6d 7d",
        "6h 7h 6s 7s",
        "7c 6d 5s 4h",
    ]
    values: list[HandValue | None] = [None if f else evaluate(rnd.choice(hands)) for _, f in seats]
    awards = award_pots(pots, values, ties)
    assert [a.pot for a in awards] == pots
    for award in awards:
        assert sum(award.shares) == award.pot.amount
        assert set(award.winners) <= set(award.pot.eligible)
        best = max(v for s in award.pot.eligible if (v := values[s]) is not None)
        if len(award.pot.eligible) > 1:
            assert all(values[w] == best for w in award.winners)
        tied = [s for s in award.pot.eligible if values[s] == best]
        if len(award.pot.eligible) == 1:
            assert award.winners == award.pot.eligible
        elif ties == "eldest":
            assert award.winners == (tied[0],)
        else:
            assert list(award.winners) == tied
            assert max(award.shares) - min(award.shares) <= 1
            assert list(award.shares) == sorted(award.shares, reverse=True)


# --- live_pots: the pots a table shows while the hand goes on (R7) ---------------------


def test_live_pots_an_uncalled_bet_is_not_a_side_pot() -> None:
    # p1 bet 5 after a 1-chip ante, p2 called, p3 and p4 have not acted yet: one pot.
    assert live_pots([6, 6, 1, 1], [False] * 4, [10, 10, 10, 10]) == [Pot(14, (0, 1, 2, 3))]


def test_live_pots_split_at_each_all_in_level() -> None:
    # p1 is all-in for 10 in total, p2 and p3 put in 31, p4 folded after the ante.
    assert live_pots([10, 31, 31, 1], [False, False, False, True], [0, 10, 10, 10]) == [
        Pot(31, (0, 1, 2)),
        Pot(42, (1, 2)),
    ]


def test_live_pots_folded_chips_above_every_level_go_to_the_last_pot() -> None:
    # Everyone still in is all-in; p4 folded after putting in 40.
    assert live_pots([10, 31, 31, 40], [False, False, False, True], [0, 0, 0, 10]) == [
        Pot(40, (0, 1, 2)),
        Pot(72, (1, 2)),
    ]


def test_live_pots_equal_build_pots_once_every_bet_is_matched() -> None:
    contributed, folded, stacks = [10, 31, 31, 1], [False, False, False, True], [0, 10, 10, 10]
    assert live_pots(contributed, folded, stacks) == build_pots(contributed, folded)


# --- R7 from the referee (tests/referee.py), on random pots -----------


@settings(max_examples=400, deadline=None)
@given(
    data=st.lists(
        st.tuples(st.integers(0, 30), st.booleans(), st.integers(0, 4)), min_size=2, max_size=8
    ),
    split=st.booleans(),
)
def test_settle_and_award_pots_pay_what_r7_says(
    data: list[tuple[int, bool, int]], split: bool
) -> None:
    contributed = [c for c, _, _ in data]
    folded = [f for _, f, _ in data]
    if all(folded):
        folded[len(folded) // 2] = False
    values: list[int | None] = [None if f else v for (_, _, v), f in zip(data, folded, strict=True)]
    expected = r7_payouts(contributed, folded, values, "split" if split else "eldest")
    stacks = [0] * len(data)
    settled = settle(contributed, folded, values, split, stacks)
    assert stacks == expected
    assert sum(chips for chips, *_ in settled) == sum(contributed)  # every chip is paid out
    awards = award_pots(build_pots(contributed, folded), values, "split" if split else "eldest")
    paid = [0] * len(data)
    for award in awards:
        for seat, chips in zip(award.winners, award.shares, strict=True):
            paid[seat] += chips
    assert paid == expected
