"""Pot-limit betting (R5, house rule ``bet_limit = "pot"``) in the checked engine, with
amounts worked out by hand from docs/rules.md.

Four players with 20 chips each ante 1 (R4.1): the pot is 4 before the first bet.
"""

from __future__ import annotations

import pytest

from primero.engine.errors import BadAmountError
from primero.engine.history import dump_record, parse_record, record_of, replay
from primero.engine.rules import Rules, RulesError
from primero.engine.state import HandState

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
DEAL = ["d dh p1 7s 6h", "d dh p2 7h 6s", "d dh p3 Kc Qd", "d dh p4 2c 3d"]
POT = Rules(bet_limit="pot", refusal=False)


def _hand(rules: Rules, lines: list[str], stacks: list[int] | None = None) -> HandState:
    state = HandState(NAMES, stacks or [20, 20, 20, 20], rules)
    for line in DEAL + lines:
        state.apply(line)
    return state


def test_the_opening_bet_is_at_most_the_pot() -> None:
    legal = _hand(POT, []).legal_actions()
    assert legal.bet == (1, 4)  # pot 4 (four antes)
    assert _hand(Rules(refusal=False), []).legal_actions().bet == (1, 19)  # no limit


def test_a_raise_adds_at_most_the_pot_after_calling() -> None:
    # p1 bets 4: pot 8; p2 must call 4 first, pot 12: raise to at most 4 + 12 = 16
    legal = _hand(POT, ["p1 b 4"]).legal_actions()
    assert (legal.call, legal.raise_to) == (4, (5, 16))
    # p2 raises to 16: pot 24; p3 calls 16 first (pot 40): 56, but p3 holds 19
    legal = _hand(POT, ["p1 b 4", "p2 r 16"]).legal_actions()
    assert (legal.call, legal.raise_to) == (16, (17, 19))


def test_a_raiser_who_already_put_chips_in_counts_only_what_is_owed() -> None:
    # p1 b 2 (pot 6), p2 r 6 (pot 12), p3 c (pot 18), p4 f; p1 owes 4: pot after
    # calling 22, so p1 may raise to 6 + 22 = 28, held back by p1's 19 chips in play
    legal = _hand(POT, ["p1 b 2", "p2 r 6", "p3 c", "p4 f"]).legal_actions()
    assert (legal.call, legal.raise_to) == (4, (7, 19))
    deep = _hand(POT, ["p1 b 2", "p2 r 6", "p3 c", "p4 f"], stacks=[50, 50, 50, 50])
    assert deep.legal_actions().raise_to == (7, 28)


def test_a_bet_above_the_pot_is_refused_in_words_and_changes_nothing() -> None:
    state = _hand(POT, [])
    before = state.lines()
    with pytest.raises(BadAmountError) as caught:
        state.apply("p1 b 5")
    assert str(caught.value) == (
        "p1 may not bet 5: p1 may exchange 1 or 2 cards or bet between 1 and 4 chips"
    )
    assert state.lines() == before
    with pytest.raises(BadAmountError):
        _hand(POT, ["p1 b 4"]).apply("p2 r 17")


def test_after_a_refusal_both_the_refused_amount_and_the_pot_cap_the_bet() -> None:
    # R8: p1's 4 is refused by all; the next bet must be below 4 (and at most the pot, 4)
    state = _hand(Rules(bet_limit="pot"), ["p1 b 4", "p2 n", "p3 n", "p4 n"])
    assert state.legal_actions().bet == (1, 3)


def test_when_the_pot_limit_is_below_the_minimum_raise_only_call_or_fold() -> None:
    # p1 bets 1 (pot 5): p2 may add at most 5 + 1 = 6, but min_raise is 7
    legal = _hand(Rules(bet_limit="pot", refusal=False, min_raise=7), ["p1 b 1"]).legal_actions()
    assert (legal.raise_to, legal.call, legal.fold) == (None, 1, True)


def test_a_short_stack_may_still_call_all_in_for_less() -> None:
    # p2 has 3 chips after the ante: calling p1's 4 puts in all 3 (R5)
    state = _hand(POT, ["p1 b 4"], stacks=[20, 4, 20, 20])
    assert state.legal_actions().call == 3
    state.apply("p2 c")
    assert state.stacks[1] == 0


def test_pot_limit_needs_an_ante() -> None:
    with pytest.raises(RulesError) as caught:
        Rules(bet_limit="pot", ante=0)
    assert "needs an ante of at least 1 chip" in str(caught.value)
    with pytest.raises(RulesError) as caught:
        Rules(bet_limit="table")  # type: ignore[arg-type]
    assert str(caught.value) == "bet_limit must be 'none' or 'pot', not 'table'"


def test_the_record_header_says_pot_limit_and_replay_checks_it() -> None:
    state = _hand(POT, ["p1 b 4", "p2 r 16", "p3 f", "p4 f", "p1 f"])
    assert state.complete
    text = dump_record(record_of(state))
    assert 'bet_limit = "pot"' in text
    outcome = replay(parse_record(text))
    assert outcome.state is not None and outcome.state.result is not None
    # p2 takes the pot of 4 antes, p1's 4 and its own 16: 20 - 17 + 24 = 27
    assert outcome.state.result.final_stacks == (15, 27, 19, 19)
    too_much = text.replace('"p2 r 16"', '"p2 r 17"')
    refused = replay(parse_record(too_much))
    assert refused.error is not None and "may not raise to 17" in str(refused.error)
    no_limit = text.replace('bet_limit = "pot"\n', "")
    assert replay(parse_record(no_limit.replace('"p2 r 16"', '"p2 r 17"'))).complete
