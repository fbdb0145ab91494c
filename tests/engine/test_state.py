"""Hand-written scenarios for the hand state machine, at least one per rule (R4–R8b).

Every record here is written in the project's own words (lists of record lines) and
replayed; the chip counts and winners in the asserts are computed by hand in the
comments. Every illegal action is checked for its exact exception type and for leaving
the state exactly as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import primero.engine.state
from primero.engine.actions import Action, Bet, Call, Deal, Declare, Exchange, Fold, Raise, Vote
from primero.engine.actions import parse_action as _parse
from primero.engine.cards import DECK, parse_card, parse_cards
from primero.engine.dealing import Dealer
from primero.engine.errors import (
    BadAmountError,
    BadCardsError,
    BadDeclarationError,
    HandOverError,
    IllegalActionError,
    WrongTurnError,
)
from primero.engine.hands import Category
from primero.engine.history import HandRecord, replay
from primero.engine.pots import Pot
from primero.engine.rules import DEFAULT_RULES, Rules, RulesError
from primero.engine.state import DEALER, HandState, LegalActions, Phase
from primero.engine.views import view

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hal")
EVEN4 = (20, 20, 20, 20)

# ---------------------------------------------------------------- helpers


def play(
    lines: Sequence[str],
    stacks: Sequence[int] = EVEN4,
    rules: Rules = DEFAULT_RULES,
) -> HandState:
    """Replay ``lines`` (all must be valid) and return the hand."""
    record = HandRecord(NAMES[: len(stacks)], tuple(stacks), list(lines), rules)
    outcome = replay(record)
    assert outcome.error is None, str(outcome.error)
    assert outcome.state is not None
    assert outcome.state.lines() == list(lines)
    return outcome.state


def act(state: HandState, *lines: str) -> None:
    for line in lines:
        state.apply(_parse(line, state.n))


def kinds(state: HandState) -> set[str]:
    out = state.legal_actions().kinds()
    assert len(out) == len(set(out))
    return set(out)


#: Whether the engine runs as Python source (not the mypyc-compiled modules of setup.py).
_PURE = primero.engine.state.__file__.endswith(".py")


def attributes(state: HandState) -> dict[str, object]:
    """Every attribute of ``state`` but the views' cache (``view_cache``), by name: from
    ``__dict__``, or the attribute list of the mypyc-compiled class (which has none)."""
    names = getattr(type(state), "__mypyc_attrs__", None) or vars(state)
    return {name: getattr(state, name) for name in names if name != "view_cache"}


def snapshot(state: HandState) -> tuple[object, ...]:
    """Everything a hand holds (every attribute, by repr) plus the public queries."""
    return (
        state.lines(),
        list(state.stacks),
        list(state.contributed),
        [[str(c) for c in hand] for hand in state.hands],
        state.legal_actions(),
        state.to_act,
        state.phase,
        [str(c) for c in state.stock()],
        repr(sorted(attributes(state).items())),
    )


def assert_illegal(state: HandState, action: Action | str, error: type[IllegalActionError]) -> str:
    """``action`` raises exactly ``error`` from apply() and check(), changing nothing."""
    if isinstance(action, str):
        action = _parse(action, state.n)
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert type(info.value) is error, f"{action}: {type(info.value).__name__}: {info.value}"
    assert snapshot(state) == before
    with pytest.raises(IllegalActionError) as again:
        state.check(action)
    assert type(again.value) is error
    assert snapshot(state) == before
    return str(info.value)


def phase(state: HandState) -> Phase:
    """The phase, read through a call so that mypy does not narrow it between actions."""
    return state.phase


def cards(text: str) -> list[str]:
    return [str(c) for c in parse_cards(text)]


def hand_of(state: HandState, seat: int) -> list[str]:
    return sorted(str(c) for c in state.hands[seat])


def check_cards_partition(state: HandState) -> None:
    pool = list(state.stock()) + list(state.discard_pile) + list(state.dead)
    for hand in state.hands:
        pool.extend(hand)
    assert len(pool) == 40
    assert set(pool) == set(DECK)


# A first deal and a first round in which everyone calls p1's bet of 2, then the
# second deal. Hands: p1 7h 6h Ah 2c supremus 55; p2 Ac 2d 3c 4c numerus 43 (clubs
# A 3 4); p3 Ks Qs Js 2s fluxus 42; p4 5h 5d 3d 4d numerus 42 (diamonds 5 3 4).
# Stacks 20 - 1 ante - 2 = 17 each; pot 12.
BASE4 = [
    "d dh p1 7h 6h",
    "d dh p2 Ac 2d",
    "d dh p3 Ks Qs",
    "d dh p4 5h 5d",
    "p1 b 2",
    "p2 y",
    "p2 c",
    "p3 c",
    "p4 c",
    "d dh p1 Ah 2c",
    "d dh p2 3c 4c",
    "d dh p3 Js 2s",
    "d dh p4 3d 4d",
]
DEALS4 = BASE4[:4]


# ---------------------------------------------------------------- R4.1 ante


def test_default_ante_is_one_chip_each() -> None:
    s = HandState(NAMES[:4], list(EVEN4))
    assert s.stacks == [19, 19, 19, 19]
    assert s.contributed == [1, 1, 1, 1]
    assert s.pot_total() == 4
    assert s.pots() == [Pot(4, (0, 1, 2, 3))]
    assert s.to_act == DEALER
    assert phase(s) is Phase.FIRST_DEAL
    assert s.legal_actions().kinds() == ["d"]
    assert s.deal_due() == (0, 2)
    assert s.lines() == []


def test_ante_house_rule_three() -> None:
    s = HandState(NAMES[:3], [10, 20, 30], Rules(ante=3))
    assert s.stacks == [7, 17, 27]
    assert s.pot_total() == 9


def test_ante_zero_leaves_stacks_and_an_uncalled_bet_comes_back() -> None:
    rules = Rules(ante=0)
    s = HandState(NAMES[:4], list(EVEN4), rules)
    assert s.stacks == [20, 20, 20, 20]
    assert s.pot_total() == 0
    assert s.pots() == []
    s = play([*DEALS4, "p1 b 2", "p2 y", "p2 f", "p3 f", "p4 f"], rules=rules)
    assert s.result is not None
    # p1 put in 2, nobody called: the pot of 2 is p1's alone.
    assert s.result.final_stacks == (20, 20, 20, 20)
    assert s.result.net == (0, 0, 0, 0)
    assert [(a.pot.amount, a.winners) for a in s.result.awards] == [(2, (0,))]


def test_all_in_from_the_ante_and_side_pots() -> None:
    # Ante 5: p1 (3 chips) and p2 (exactly 5) are all-in from the ante.
    rules = Rules(ante=5)
    stacks = (3, 5, 20, 20)
    s = HandState(NAMES[:4], list(stacks), rules)
    assert s.stacks == [0, 0, 15, 15]
    assert s.contributed == [3, 5, 5, 5]
    lines = [
        "d dh p1 7h 6h",
        "d dh p2 Kc Qd",
        "d dh p3 5s 4s",
        "d dh p4 Jc 7d",
    ]
    s = play(lines, stacks, rules)
    # p1 and p2 take no turn in the first round: p3 is first.
    assert s.to_act == 2
    assert kinds(s) == {"b", "x1", "x2"}
    # p3 bets 2: four still in, the others vote from p4 round to p2, all-in ones too.
    act(s, "p3 b 2")
    assert s.to_act == 3
    act(s, "p4 n")
    assert s.to_act == 0
    act(s, "p1 n")
    assert s.to_act == 1
    act(s, "p2 y")
    assert s.to_act == 3  # betting goes on after the bettor, skipping all-in players
    act(s, "p4 c")
    assert s.to_act == DEALER and s.deal_due() == (0, 2)
    assert s.contributed == [3, 5, 7, 7]
    act(s, "d dh p1 Ah 2c", "d dh p2 Kh Ks", "d dh p3 3d 2d", "d dh p4 6s 5h")
    # Declare round: p3 and p4 have chips, so it is played; all-in players don't declare.
    assert phase(s) is Phase.DECLARE_ROUND and s.to_act == 2
    act(s, "p3 dc numerus", "p3 b 0", "p4 dc primero", "p4 c")
    assert s.declared == [None, None, Category.NUMERUS, Category.PRIMERO]
    # Second exchange: everyone still in, all-in players too, from p1.
    assert phase(s) is Phase.SECOND_EXCHANGE and s.to_act == 0
    act(s, "p1 x", "p2 x", "p3 x", "p4 x", "p3 b 0", "p4 c")
    assert s.complete and s.result is not None
    # Pots: level 3: 3 x 4 = 12 (all); level 5: 2 x 3 = 6 (p2 p3 p4); level 7: 2 x 2 = 4 (p3 p4).
    # p1 supremus 55 takes the 12; p4 primero 64 beats p2 primero 40 and p3 numerus 29.
    assert [(a.pot.amount, a.pot.eligible, a.winners) for a in s.result.awards] == [
        (12, (0, 1, 2, 3), (0,)),
        (6, (1, 2, 3), (3,)),
        (4, (2, 3), (3,)),
    ]
    assert s.result.final_stacks == (12, 0, 13, 23)
    assert s.result.net == (9, -5, -7, 3)


# ---------------------------------------------------------------- R4.2 deals


def test_first_deal_order_and_deal_errors() -> None:
    s = HandState(NAMES[:4], list(EVEN4))
    assert_illegal(s, "d dh p2 7h 6h", WrongTurnError)  # p1 is dealt first
    assert_illegal(s, "d dh p1 7h", BadCardsError)  # two cards are due
    assert_illegal(s, "d dh p1 7h 6h 5h", BadCardsError)
    assert_illegal(s, Deal(0, (parse_card("7h"), parse_card("7h"))), BadCardsError)
    assert_illegal(s, "p1 b 1", WrongTurnError)  # a deal is due
    assert_illegal(s, "p1 x 7h", WrongTurnError)
    act(s, "d dh p1 7h 6h")
    assert s.deal_due() == (1, 2)
    assert s.stock_count == 38
    assert_illegal(s, "d dh p2 7h Kc", BadCardsError)  # 7h is not in the stock
    assert_illegal(s, "d dh p1 Ac 2c", WrongTurnError)
    assert_illegal(s, "d dh p3 Ac 2c", WrongTurnError)
    act(s, "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d")
    assert s.to_act == 0 and phase(s) is Phase.FIRST_ROUND
    assert s.deal_due() is None
    assert_illegal(s, "d dh p1 Ad", WrongTurnError)  # no deal is due
    assert hand_of(s, 0) == ["6h", "7h"] and hand_of(s, 3) == ["5d", "5h"]
    assert s.stock_count == 32
    check_cards_partition(s)


def test_second_deal_starts_at_the_first_player_still_in() -> None:
    s = play(
        [
            *DEALS4,
            "p1 x 7h",
            "d dh p1 Ah",
            "p2 b 2",
            "p3 y",
            "p3 c",
            "p4 c",
            "p1 f",
        ]
    )
    assert s.folded == [True, False, False, False]
    assert s.dead == [parse_card("6h"), parse_card("Ah")]  # folded hands are dead
    assert s.deal_due() == (1, 2)
    assert_illegal(s, "d dh p1 Jc Qc", WrongTurnError)
    act(s, "d dh p2 Jc Qc")
    assert s.deal_due() == (2, 2)
    assert_illegal(s, "d dh p4 Jd Qd", WrongTurnError)
    act(s, "d dh p3 Jd Qd", "d dh p4 Jh Qh")
    assert phase(s) is Phase.DECLARE_ROUND and s.to_act == 1
    check_cards_partition(s)


# ---------------------------------------------------------------- R4.3 first round


def test_first_round_bet_or_exchange_only() -> None:
    s = play(DEALS4)
    legal = s.legal_actions()
    assert legal.seat == 0
    assert kinds(s) == {"b", "x1", "x2"}
    assert legal.bet == (1, 19)
    assert legal.exchange == (1, 2)
    assert_illegal(s, "p1 x", BadCardsError)  # no standing pat
    assert_illegal(s, "p1 f", WrongTurnError)  # no folding
    assert_illegal(s, "p1 c", WrongTurnError)  # nothing to call
    assert_illegal(s, "p1 b 0", BadAmountError)  # no bet of 0
    assert_illegal(s, "p1 b 20", BadAmountError)  # more than the stack (19)
    assert_illegal(s, "p1 r 2", WrongTurnError)
    assert_illegal(s, "p1 x 5h", BadCardsError)  # not held
    assert_illegal(s, "p1 x 7h Ac", BadCardsError)
    assert_illegal(s, Exchange(0, (parse_card("7h"), parse_card("7h"))), BadCardsError)
    assert_illegal(s, "p1 dc supremus", WrongTurnError)
    assert_illegal(s, "p1 y", WrongTurnError)
    assert_illegal(s, "p2 b 1", WrongTurnError)  # not p2's turn
    assert_illegal(s, "p2 x Ac", WrongTurnError)


def test_first_round_stand_house_rule_and_void_deal_by_standing_pat() -> None:
    rules = Rules(first_round_stand=True)
    s = play(DEALS4, rules=rules)
    assert kinds(s) == {"b", "x0", "x1", "x2"}
    act(s, "p1 x")
    assert s.to_act == 1  # standing pat: no deal line follows
    assert s.exchanges[0] == [0]
    assert hand_of(s, 0) == ["6h", "7h"]
    act(s, "p2 x", "p3 x")
    assert s.void_deals == 0
    act(s, "p4 x")
    # Every player who took a turn exchanged (zero cards) and no bet stands: void.
    assert s.void_deals == 1
    assert s.to_act == DEALER and s.deal_due() == (0, 2)
    assert s.stacks == [19, 19, 19, 19]


def test_first_round_zero_bet_house_rule() -> None:
    rules = Rules(first_round_zero_bet=True)
    s = play(DEALS4, rules=rules)
    assert kinds(s) == {"b", "x1", "x2"}  # x0 still needs first_round_stand
    assert s.legal_actions().bet == (0, 19)
    act(s, "p1 b 0")
    # A bet of 0 stands without a vote and ends the exchanges.
    assert s.vote is None and s.to_act == 1
    assert s.current_bet == 0
    assert kinds(s) == {"r", "c", "f"}
    assert s.legal_actions().call == 0
    assert_illegal(s, "p2 x Ac", WrongTurnError)
    act(s, "p2 c", "p3 c", "p4 c")
    assert s.to_act == DEALER and s.deal_due() == (0, 2)
    assert s.pot_total() == 4


def test_zero_bet_refused_without_the_house_rule_in_round_one_only() -> None:
    s = play(DEALS4)
    assert_illegal(s, "p1 b 0", BadAmountError)


def test_exchange_then_bet_makes_earlier_exchangers_call_raise_or_fold() -> None:
    s = play([*DEALS4, "p1 x 6h", "d dh p1 Ah", "p2 x 2d", "d dh p2 3d", "p3 b 3"])
    # Vote: p4, p1, p2.
    assert s.to_act == 3 and kinds(s) == {"y", "n"}
    act(s, "p4 y")
    assert s.to_act == 3 and kinds(s) == {"r", "c", "f"}  # p4 accepted and still acts
    assert_illegal(s, "p4 x 5h", WrongTurnError)  # no exchange once a bet stands
    act(s, "p4 c")
    assert s.to_act == 0
    assert kinds(s) == {"r", "c", "f"}
    assert s.legal_actions().call == 3
    assert s.legal_actions().exchange == ()
    assert_illegal(s, "p1 x 7h", WrongTurnError)
    act(s, "p1 c", "p2 f")
    assert s.to_act == DEALER and s.deal_due() == (0, 2)
    assert s.stacks == [16, 19, 16, 16]
    assert s.contributed == [4, 1, 4, 4]
    assert s.exchanges == [[1], [1], [], []]


VOID_ROUND = [
    "d dh p1 Ac 2c",
    "d dh p2 3c 4c",
    "d dh p3 5c 6c",
    "d dh p4 7c Jc",
    "p1 x Ac",
    "d dh p1 Qc",
    "p2 x 3c 4c",
    "d dh p2 Kc Ad",
    "p3 x 5c",
    "d dh p3 2d",
    "p4 x 7c Jc",
    "d dh p4 3d 4d",
]


def test_void_deal_antes_stay_no_new_ante_and_repeats() -> None:
    s = play(VOID_ROUND[:-1])
    assert s.void_deals == 0 and s.deal_due() == (3, 2)
    act(s, VOID_ROUND[-1])
    assert s.void_deals == 1
    assert phase(s) is Phase.FIRST_DEAL
    assert s.to_act == DEALER and s.deal_due() == (0, 2)
    assert s.stacks == [19, 19, 19, 19]
    assert s.contributed == [1, 1, 1, 1]
    assert s.hands == [[], [], [], []]
    assert s.stock_count == 40 and len(s.stock()) == 40
    assert s.discard_pile == []
    assert s.exchanges == [[], [], [], []]
    # The same cards can be dealt again, and the deal can be void again.
    act(s, *VOID_ROUND)
    assert s.void_deals == 2
    assert s.stacks == [19, 19, 19, 19] and s.pot_total() == 4
    act(s, *DEALS4)
    assert kinds(s) == {"b", "x1", "x2"}
    act(s, "p1 b 1", "p2 y", "p2 f", "p3 f", "p4 f")
    assert s.result is not None
    # p1 takes the 4 antes and its own bet: 19 - 1 + 5 = 23.
    assert s.result.final_stacks == (23, 19, 19, 19)
    assert len(s.lines()) == 2 * len(VOID_ROUND) + 4 + 5


def test_void_deal_when_a_player_is_all_in_from_the_ante() -> None:
    rules = Rules(ante=2)
    stacks = (2, 20, 20, 20)
    s = play(VOID_ROUND[:4], stacks, rules)
    assert s.to_act == 1  # p1 is all-in and takes no turn
    act(s, "p2 x 3c", "d dh p2 Kc", "p3 x 5c", "d dh p3 2d", "p4 x Jc", "d dh p4 Qc")
    assert s.void_deals == 1
    assert s.deal_due() == (0, 2)
    assert s.stacks == [0, 18, 18, 18]


def test_refused_bet_then_exchanges_still_void() -> None:
    s = play([*VOID_ROUND[:4], "p1 b 5", "p2 n", "p3 n", "p4 n"])
    assert s.to_act == 0 and s.cap == 5
    act(s, "p1 x Ac", "d dh p1 Qc")
    assert s.cap is None
    act(s, *VOID_ROUND[6:])
    assert s.void_deals == 1 and s.stacks == [19, 19, 19, 19]


def test_first_round_skipped_when_fewer_than_two_can_bet() -> None:
    rules = Rules(ante=5)
    stacks = (5, 5, 5, 20)
    s = play(["d dh p1 Kc Qc", "d dh p2 7h 6h", "d dh p3 Ks Qs", "d dh p4 3c 3d"], stacks, rules)
    # Only p4 has chips: no first round (and no void deal): the second deal is due.
    assert phase(s) is Phase.SECOND_DEAL and s.deal_due() == (0, 2)
    assert s.void_deals == 0
    act(s, "d dh p1 Jc 2d", "d dh p2 5h 4h", "d dh p3 Js 2s", "d dh p4 4s 5d")
    # The declare round is skipped too: nobody declares.
    assert phase(s) is Phase.SECOND_EXCHANGE and s.to_act == 0
    assert kinds(s) == {"x0", "x1", "x2"}
    act(s, "p1 x", "p2 x", "p3 x", "p4 x")
    assert s.complete and s.result is not None
    assert s.declared == [None, None, None, None]
    # p2 fluxus 68 beats p3 fluxus 42, p1 numerus 30, p4 numerus 28: pot 20.
    assert s.result.final_stacks == (0, 20, 0, 15)


# ---------------------------------------------------------------- R5 betting


def test_opener_must_bet_in_rounds_two_and_three() -> None:
    s = play(BASE4)
    assert phase(s) is Phase.DECLARE_ROUND and s.to_act == 0
    assert s.legal_actions().kinds() == ["dc"]
    assert_illegal(s, "p1 b 0", WrongTurnError)  # declare first
    assert_illegal(s, "p1 f", WrongTurnError)
    act(s, "p1 dc supremus")
    assert s.legal_actions().kinds() == ["b"]
    assert s.legal_actions().bet == (0, 17)
    assert_illegal(s, "p1 c", WrongTurnError)
    assert_illegal(s, "p1 f", WrongTurnError)
    assert_illegal(s, "p1 x", WrongTurnError)
    assert_illegal(s, "p1 r 3", WrongTurnError)
    assert_illegal(s, "p1 b 18", BadAmountError)
    act(s, "p1 b 0", "p2 dc numerus", "p2 c", "p3 dc fluxus", "p3 c", "p4 dc numerus", "p4 c")
    act(s, "p1 x", "p2 x", "p3 x", "p4 x")
    assert phase(s) is Phase.LAST_ROUND
    assert s.legal_actions().kinds() == ["b"]
    assert s.legal_actions().bet == (0, 17)
    assert_illegal(s, "p1 c", WrongTurnError)
    assert_illegal(s, "p1 f", WrongTurnError)
    act(s, "p1 b 0", "p2 c", "p3 c", "p4 c")
    assert s.result is not None
    # p3's fluxus 42 beats p1's supremus 55 (category first): 17 + 12 = 29.
    assert s.result.final_stacks == (17, 17, 29, 17)


def test_check_facing_a_bet_of_zero() -> None:
    s = play([*BASE4, "p1 dc supremus", "p1 b 0", "p2 dc numerus"])
    legal = s.legal_actions()
    assert legal.call == 0
    assert legal.raise_to == (1, 17)
    assert kinds(s) == {"r", "c", "f"}
    act(s, "p2 c")
    assert s.stacks == [17, 17, 17, 17] and s.round_bets == [0, 0, 0, 0]
    assert s.to_act == 2


def test_all_in_call_for_less_and_the_pots() -> None:
    stacks = (20, 5, 20, 20)
    s = play(
        ["d dh p1 Kc Qc", "d dh p2 7h 6h", "d dh p3 Ks Qs", "d dh p4 7c 6d", "p1 b 10"], stacks
    )
    act(s, "p2 y")
    legal = s.legal_actions()
    assert legal.call == 4  # p2 has 4 chips after the ante
    assert legal.raise_to is None  # cannot reach 11
    assert kinds(s) == {"c", "f"}
    assert_illegal(s, "p2 r 11", WrongTurnError)
    act(s, "p2 c")
    assert s.stacks[1] == 0 and s.round_bets[1] == 4
    act(s, "p3 f", "p4 c")
    assert s.deal_due() == (0, 2)
    act(s, "d dh p1 Jc 2d", "d dh p2 5h 4h", "d dh p4 As 5s")
    assert s.to_act == 0
    act(s, "p1 dc numerus", "p1 b 0", "p4 dc numerus", "p4 c")
    act(s, "p1 x", "p2 x", "p4 x", "p1 b 0", "p4 c")
    assert s.result is not None
    # Contributions 11, 5, 1, 11. Pots: 5+5+1+5 = 16 (p1 p2 p4), 6+6 = 12 (p1 p4).
    # p2 fluxus 68 takes 16; p4 numerus 31 (As 5s) beats p1 numerus 30 (Kc Qc Jc): 12.
    assert [(a.pot.amount, a.pot.eligible, a.winners) for a in s.result.awards] == [
        (16, (0, 1, 3), (1,)),
        (12, (0, 3), (3,)),
    ]
    assert s.result.final_stacks == (9, 16, 19, 21)


def test_raise_minimum_and_the_chips_of_the_round() -> None:
    s = play([*DEALS4, "p1 b 3", "p2 y"])
    assert s.legal_actions().raise_to == (4, 19)
    assert_illegal(s, "p2 r 3", BadAmountError)
    assert_illegal(s, "p2 r 20", BadAmountError)
    assert_illegal(s, "p2 b 4", WrongTurnError)  # a bet is open: raise, not bet
    act(s, "p2 r 6", "p3 y", "p3 c", "p4 c")
    # p1 has 3 in this round and 16 behind: r up to 19; at least 6 + 1.
    assert s.to_act == 0
    assert s.legal_actions().raise_to == (7, 19)
    assert s.legal_actions().call == 3
    assert s.raises == 1


def test_min_raise_house_rule() -> None:
    s = play([*DEALS4, "p1 b 3", "p2 y"], rules=Rules(min_raise=5))
    assert s.legal_actions().raise_to == (8, 19)
    assert_illegal(s, "p2 r 7", BadAmountError)
    s.check(Raise(1, 8))
    act(s, "p2 r 8")
    assert s.current_bet == 3  # the raise is under vote: it does not stand yet
    assert s.vote is not None and s.stacks[1] == 19
    act(s, "p3 y")
    assert s.current_bet == 8


def test_no_short_all_in_raise() -> None:
    s = play([*DEALS4, "p1 b 3", "p2 y"], (20, 4, 20, 20))
    assert s.legal_actions().call == 3 and s.stacks[1] == 3
    assert kinds(s) == {"c", "f"}
    assert_illegal(s, "p2 r 4", WrongTurnError)
    # One more chip and the minimum raise fits exactly.
    s = play([*DEALS4, "p1 b 3", "p2 y"], (20, 5, 20, 20))
    assert s.legal_actions().raise_to == (4, 4)


def test_no_raise_when_every_other_player_is_all_in() -> None:
    s = play(["d dh p1 Kc Qc", "d dh p2 7h 6h", "p1 b 2"], (20, 5))
    assert s.vote is None  # two players: no vote
    assert s.legal_actions().raise_to == (3, 4)
    act(s, "p2 r 4")
    assert s.stacks[1] == 0
    assert s.legal_actions().raise_to is None
    assert kinds(s) == {"c", "f"}
    assert s.legal_actions().call == 2
    assert_illegal(s, "p1 r 10", WrongTurnError)


def test_no_raise_when_the_others_are_all_in_or_folded() -> None:
    s = play([*DEALS4, "p1 b 3", "p2 y", "p2 f", "p3 r 19"], (20, 20, 20, 5))
    # p3 raises to 19; vote p4 (3 still in).
    act(s, "p4 y")
    act(s, "p4 c")  # p4 calls all-in for 4
    assert s.stacks[3] == 0
    assert s.to_act == 0
    # p1 faces 19 with p2 folded and p3, p4 all-in: call or fold only.
    assert s.stacks[2] == 0
    assert kinds(s) == {"c", "f"}


def test_max_raises_caps_raises_and_the_opening_bet_is_not_one() -> None:
    s = play([*DEALS4, "p1 b 2", "p2 y"], rules=Rules(max_raises=0))
    assert kinds(s) == {"c", "f"}
    assert_illegal(s, "p2 r 3", WrongTurnError)
    s = play([*DEALS4, "p1 b 2", "p2 y", "p2 r 3", "p3 y"], rules=Rules(max_raises=1))
    assert kinds(s) == {"c", "f"}
    assert_illegal(s, "p3 r 4", WrongTurnError)


def test_max_raises_does_not_count_a_withdrawn_raise_and_resets_each_round() -> None:
    rules = Rules(max_raises=1)
    s = play([*DEALS4, "p1 b 2", "p2 y", "p2 r 5", "p3 n", "p4 n", "p1 n"], rules=rules)
    assert s.raises == 0
    assert s.to_act == 1
    assert s.legal_actions().raise_to == (3, 4)  # capped below the refused 5
    assert_illegal(s, "p2 r 5", BadAmountError)
    act(s, "p2 r 4", "p3 y")
    assert s.raises == 1
    assert kinds(s) == {"c", "f"}
    act(s, "p3 c", "p4 c", "p1 c")
    act(s, "d dh p1 Ah 2c", "d dh p2 3c 4c", "d dh p3 Js 2s", "d dh p4 3d 4d")
    act(s, "p1 dc supremus", "p1 b 1", "p2 y", "p2 dc numerus")
    assert s.raises == 0
    assert s.legal_actions().raise_to == (2, 15)


def test_the_round_ends_when_everyone_has_matched_the_last_raise() -> None:
    s = play([*DEALS4, "p1 b 2", "p2 y", "p2 r 4", "p3 y", "p3 r 6", "p4 y", "p4 f", "p1 c"])
    assert s.to_act == 1  # p2 has 4 in, short of 6
    assert s.legal_actions().call == 2
    act(s, "p2 c")
    # p3, the last raiser, is not asked again: the second deal is due.
    assert s.to_act == DEALER and s.deal_due() == (0, 2)
    assert s.contributed == [7, 7, 7, 1]
    assert s.stacks == [13, 13, 13, 19]


def test_betting_rounds_skipped_when_fewer_than_two_have_chips() -> None:
    s = play(["d dh p1 Kc Qc", "d dh p2 7h 6h", "p1 b 19", "p2 c"], (20, 20))
    assert s.stacks == [0, 0]
    act(s, "d dh p1 Jc 2d", "d dh p2 5h 4h")
    assert phase(s) is Phase.SECOND_EXCHANGE and s.to_act == 0
    assert s.declared == [None, None]
    act(s, "p1 x Jc", "d dh p1 Jd", "p2 x")
    assert s.complete and s.result is not None
    # p2 fluxus 68 beats p1 Kc Qc Jd 2d (numerus 22: diamonds J 2): 40 chips.
    assert s.result.final_stacks == (0, 40)


# ---------------------------------------------------------------- R6 declarations


def test_declaration_truthful_upward_bluff_and_lower_refused() -> None:
    s = play(BASE4)
    legal = s.legal_actions()
    assert legal.declare == (Category.SUPREMUS, Category.FLUXUS, Category.CHORUS)
    assert not legal.fold
    msg = assert_illegal(s, "p1 dc primero", BadDeclarationError)
    assert "supremus" in msg
    assert_illegal(s, "p1 dc numerus", BadDeclarationError)
    act(s, "p1 dc supremus")  # the truth
    assert s.declared[0] is Category.SUPREMUS
    act(s, "p1 b 3", "p2 y")
    assert s.to_act == 1
    assert s.legal_actions().declare == tuple(Category)
    assert kinds(s) == {"dc", "f"}
    assert_illegal(s, "p2 c", WrongTurnError)
    assert_illegal(s, "p2 r 5", WrongTurnError)
    act(s, "p2 dc chorus")  # numerus 43 bluffing upward
    assert s.declared[1] is Category.CHORUS
    assert kinds(s) == {"r", "c", "f"}
    assert_illegal(s, "p2 dc fluxus", WrongTurnError)


def test_fold_without_declaring_facing_a_bet() -> None:
    s = play([*BASE4, "p1 dc supremus", "p1 b 3", "p2 y", "p2 f"])
    assert s.declared[1] is None and s.folded[1]
    assert s.to_act == 2 and kinds(s) == {"dc", "f"}


def test_no_declaring_twice_after_a_refused_bet() -> None:
    s = play([*BASE4, "p1 dc supremus", "p1 b 5", "p2 n", "p3 n", "p4 n"])
    assert s.to_act == 0
    assert s.declared[0] is Category.SUPREMUS
    assert s.legal_actions().kinds() == ["b"]
    assert s.legal_actions().bet == (0, 4)
    assert_illegal(s, "p1 dc fluxus", WrongTurnError)
    assert_illegal(s, "p1 b 5", BadAmountError)


def test_declaring_outside_the_first_turn_of_the_declare_round() -> None:
    s = play([*BASE4, "p1 dc supremus", "p1 b 0", "p2 dc numerus", "p2 r 2", "p3 y"])
    act(s, "p3 dc fluxus", "p3 c", "p4 dc numerus", "p4 c")
    assert s.to_act == 0 and kinds(s) == {"r", "c", "f"}
    assert_illegal(s, "p1 dc supremus", WrongTurnError)
    act(s, "p1 c")
    assert phase(s) is Phase.SECOND_EXCHANGE
    assert_illegal(s, "p1 dc supremus", WrongTurnError)


def test_declarations_off() -> None:
    rules = Rules(declarations=False)
    s = play(BASE4, rules=rules)
    assert s.legal_actions().kinds() == ["b"]
    assert_illegal(s, "p1 dc supremus", WrongTurnError)
    act(s, "p1 b 0")
    assert kinds(s) == {"r", "c", "f"}
    act(s, "p2 c", "p3 c", "p4 c", "p1 x", "p2 x", "p3 x", "p4 x")
    act(s, "p1 b 0", "p2 c", "p3 c", "p4 c")
    assert s.complete and s.declared == [None, None, None, None]


# ---------------------------------------------------------------- R7 pots and ties


SIDE_POTS = [
    "d dh p1 Ah 2h",
    "d dh p2 7c 6d",
    "d dh p3 Kc Qc",
    "d dh p4 3s 3d",
    "p1 b 5",
    "p2 y",
    "p2 r 10",
    "p3 y",
    "p3 r 20",
    "p4 y",
    "p4 f",
]


@pytest.mark.parametrize(
    ("second_deal", "winners", "final"),
    [
        # p1 fluxus 48 > p2 primero 68 > p3 numerus 20: each pot to a different player.
        (("Jh Qh", "5s 4h", "Kd 2s"), ((0,), (1,), (2,)), (19, 10, 19, 29)),
        # p3 fluxus 42 (Kc Qc Jc 2c) beats p2 primero 68 and p1 numerus 38: all 39.
        (("Jh Qs", "5s 4h", "Jc 2c"), ((2,), (2,), (2,)), (0, 0, 48, 29)),
    ],
)
def test_side_pots_with_three_levels(
    second_deal: tuple[str, str, str],
    winners: tuple[tuple[int, ...], ...],
    final: tuple[int, ...],
) -> None:
    stacks = (6, 11, 30, 30)
    s = play(SIDE_POTS, stacks)
    # Contributions 6, 11, 21, 1 (p4 folded after the ante).
    assert s.contributed == [6, 11, 21, 1]
    assert s.stacks == [0, 0, 9, 29]
    # 6x3 + 1 = 19 for p1 p2 p3; 5 + 5 = 10 for p2 p3; p3's uncalled 10 for p3 alone.
    assert s.pots() == [Pot(19, (0, 1, 2)), Pot(10, (1, 2)), Pot(10, (2,))]
    assert s.deal_due() == (0, 2)
    p1, p2, p3 = second_deal
    act(s, f"d dh p1 {p1}", f"d dh p2 {p2}", f"d dh p3 {p3}")
    # Only p3 has chips: the declare round is skipped.
    assert phase(s) is Phase.SECOND_EXCHANGE
    act(s, "p1 x", "p2 x", "p3 x")
    assert s.complete and s.result is not None
    assert tuple(a.winners for a in s.result.awards) == winners
    assert tuple(a.pot.amount for a in s.result.awards) == (19, 10, 10)
    assert s.result.final_stacks == final
    assert sum(final) == sum(stacks)


TIE = [
    "d dh p1 Kc Qc",
    "d dh p2 7h 6s",
    "d dh p3 2c 3d",
    "d dh p4 7s 6h",
    "p1 x Kc",
    "d dh p1 Jc",
    "p2 b 3",
    "p3 y",
    "p3 c",
    "p4 c",
    "p1 f",
    "d dh p2 Ac 5d",
    "d dh p3 Kd Qd",
    "d dh p4 Ad 5c",
    "p2 dc primero",
    "p2 b 0",
    "p3 f",  # facing a bet of 0, p3 folds without declaring
    "p4 dc primero",
    "p4 c",
    "p2 x",
    "p4 x",
    "p2 b 0",
    "p4 c",
]


def test_tie_goes_to_the_eldest_by_default() -> None:
    s = play(TIE)
    assert s.result is not None
    # p2 and p4 both hold primero 70; p1 and p3 folded. Pot 1 + 4 + 4 + 4 = 13 to p2.
    assert s.result.shown[1] == s.result.shown[3]
    assert s.result.shown[1] is not None and s.result.shown[1].points == 70
    assert [(a.pot.amount, a.winners, a.shares) for a in s.result.awards] == [(13, (1,), (13,))]
    assert s.result.final_stacks == (19, 29, 16, 16)


def test_split_tie_odd_chip_to_the_earliest_tied_seat() -> None:
    s = play(TIE, rules=Rules(ties="split"))
    assert s.result is not None
    # 13 split 7 / 6, the odd chip to p2 (p1 folded, so p2 is the first tied seat).
    assert [(a.pot.amount, a.winners, a.shares) for a in s.result.awards] == [(13, (1, 3), (7, 6))]
    assert s.result.final_stacks == (19, 23, 16, 22)


THREE_WAY = [
    "d dh p1 7s 6h",
    "d dh p2 7h 6s",
    "d dh p3 7d 6c",
    "d dh p4 2c 3d",
    "p1 b 2",
    "p2 y",
    "p2 c",
    "p3 c",
    "p4 f",
    "d dh p1 Ad 5c",
    "d dh p2 Ac 5d",
    "d dh p3 As 5h",
    "p1 dc primero",
    "p1 b 0",
    "p2 dc primero",
    "p2 c",
    "p3 dc primero",
    "p3 c",
    "p1 x",
    "p2 x",
    "p3 x",
    "p1 b 0",
    "p2 c",
    "p3 c",
]


@pytest.mark.parametrize(
    ("ties", "shares", "final"),
    [
        ("eldest", ((0,), (10,)), (27, 17, 17, 19)),
        # 10 / 3 = 3 each and one odd chip, to p1.
        ("split", ((0, 1, 2), (4, 3, 3)), (21, 20, 20, 19)),
    ],
)
def test_three_way_tie(
    ties: str, shares: tuple[tuple[int, ...], tuple[int, ...]], final: tuple[int, ...]
) -> None:
    rules = Rules(ties="split") if ties == "split" else Rules()
    s = play(THREE_WAY, rules=rules)
    assert s.result is not None
    (award,) = s.result.awards
    assert award.pot.amount == 10
    assert (award.winners, award.shares) == shares
    assert s.result.final_stacks == final


def test_uncalled_part_of_a_bet_goes_back() -> None:
    s = play(["d dh p1 Kc Qc", "d dh p2 7h 6h", "p1 b 10", "p2 c"], (20, 5))
    # p2 calls all-in for 4: contributions 11 and 5.
    assert s.pots() == [Pot(10, (0, 1)), Pot(6, (0,))]
    act(s, "d dh p1 Jc 2d", "d dh p2 5h 4h", "p1 x", "p2 x")
    assert s.result is not None
    # p2 fluxus 68 wins the 10; the 6 p2 could not match go back to p1.
    assert [(a.pot.amount, a.winners) for a in s.result.awards] == [(10, (1,)), (6, (0,))]
    assert s.result.final_stacks == (15, 10)


# ---------------------------------------------------------------- R8 refusal


FIVE = [
    "d dh p1 Ac 2c",
    "d dh p2 4c 5c",
    "d dh p3 Jc Qc",
    "d dh p4 Kc Ad",
    "d dh p5 2d 3d",
    "p1 x Ac",
    "d dh p1 3c",
    "p2 x 4c 5c",
    "d dh p2 6c 7c",
    "p3 b 2",
]


def test_vote_order_starts_after_the_bettor_wraps_and_skips_folded() -> None:
    s = play(FIVE, (20,) * 5)
    order: list[int] = []
    for vote in ("n", "n", "n"):
        seat = s.to_act
        assert seat is not None and seat >= 0
        order.append(seat)
        assert kinds(s) == {"y", "n"}
        act(s, f"p{seat + 1} {vote}")
    assert s.to_act is not None
    order.append(s.to_act)
    assert order == [3, 4, 0, 1]
    act(s, "p2 y")
    assert s.vote is None and s.to_act == 3
    act(s, "p4 f", "p5 c", "p1 c", "p2 c")
    act(s, "d dh p1 4d 5d", "d dh p2 6d 7d", "d dh p3 Jd Qd", "d dh p5 Kd Ah")
    act(s, "p1 dc numerus", "p1 b 0", "p2 dc numerus", "p2 r 3")
    # Voters after p2: p3, p5 (p4 folded), p1.
    seen: list[int] = []
    while s.vote is not None:
        seat = s.to_act
        assert seat is not None
        seen.append(seat)
        act(s, f"p{seat + 1} n")
    assert seen == [2, 4, 0]
    assert s.to_act == 1
    assert s.legal_actions().raise_to == (1, 2)
    assert s.legal_actions().call == 0
    assert kinds(s) == {"r", "c", "f"}


def test_first_accept_makes_the_bet_good_and_the_accepter_still_acts() -> None:
    s = play([*DEALS4, "p1 b 2", "p2 n"])
    assert s.to_act == 2
    assert_illegal(s, "p4 y", WrongTurnError)  # not p4's vote yet
    assert_illegal(s, "p2 c", WrongTurnError)  # a vote is due, not a turn
    assert_illegal(s, "p3 c", WrongTurnError)
    act(s, "p3 y")
    assert s.vote is None
    assert s.current_bet == 2 and s.stacks == [17, 19, 19, 19]
    assert s.to_act == 1  # betting goes on after the bettor
    act(s, "p2 c")
    assert s.to_act == 2  # the accepter acts at its turn
    assert kinds(s) == {"r", "c", "f"}


def test_all_refuse_caps_the_bet_for_that_turn_only() -> None:
    s = play([*DEALS4, "p1 b 10", "p2 n", "p3 n", "p4 n"])
    assert s.to_act == 0
    assert s.stacks == [19, 19, 19, 19]  # withdrawn: the chips go back
    assert s.current_bet is None and s.pot_total() == 4
    assert s.legal_actions().bet == (1, 9)
    assert kinds(s) == {"b", "x1", "x2"}
    assert view(s, 0).cap == 10
    assert view(s, 1).cap is None
    assert_illegal(s, "p1 b 10", BadAmountError)
    assert_illegal(s, "p1 b 15", BadAmountError)
    act(s, "p1 b 5", "p2 y", "p2 r 8", "p3 y", "p3 c", "p4 c")
    # At a later turn, p1 may go above the refused 10.
    assert s.to_act == 0
    assert s.legal_actions().raise_to == (9, 19)
    s.check(Raise(0, 15))


def test_refused_opener_may_exchange_instead() -> None:
    s = play([*DEALS4, "p1 b 10", "p2 n", "p3 n", "p4 n", "p1 x 6h", "d dh p1 Ah"])
    assert s.cap is None
    assert s.to_act == 1 and s.legal_actions().bet == (1, 19)


def test_refused_raise_may_call_raise_less_or_fold() -> None:
    s = play([*DEALS4, "p1 b 2", "p2 y", "p2 r 10", "p3 n", "p4 n", "p1 n"])
    assert s.to_act == 1
    assert s.stacks == [17, 19, 19, 19] and s.current_bet == 2
    legal = s.legal_actions()
    assert (legal.call, legal.raise_to, legal.fold) == (2, (3, 9), True)
    assert_illegal(s, "p2 r 10", BadAmountError)
    act(s, "p2 r 9", "p3 y")
    assert s.current_bet == 9 and s.stacks[1] == 10


def test_refusal_cap_can_leave_no_bet_or_no_raise() -> None:
    s = play([*DEALS4, "p1 b 1", "p2 n", "p3 n", "p4 n"])
    # A refused bet of 1: no bet fits below it in the first round; exchange only.
    assert kinds(s) == {"x1", "x2"}
    assert s.legal_actions().bet is None
    assert_illegal(s, "p1 b 1", WrongTurnError)
    s = play([*DEALS4, "p1 b 2", "p2 y", "p2 r 3", "p3 n", "p4 n", "p1 n"])
    assert kinds(s) == {"c", "f"}
    s = play([*BASE4, "p1 dc supremus", "p1 b 1", "p2 n", "p3 n", "p4 n"])
    assert s.legal_actions().kinds() == ["b"]
    assert s.legal_actions().bet == (0, 0)
    assert_illegal(s, "p1 b 1", BadAmountError)


def test_no_vote_with_two_players() -> None:
    s = play(["d dh p1 Kc Qc", "d dh p2 7h 6h", "p1 b 5"], (20, 20))
    assert s.vote is None and s.to_act == 1
    assert kinds(s) == {"r", "c", "f"}
    assert_illegal(s, "p2 n", WrongTurnError)
    assert_illegal(s, "p2 y", WrongTurnError)
    # Four seated, two still in.
    s = play(
        [
            *DEALS4,
            "p1 b 2",
            "p2 y",
            "p2 c",
            "p3 f",
            "p4 f",
            "d dh p1 Ah 2c",
            "d dh p2 3c 4c",
            "p1 dc supremus",
            "p1 b 3",
        ]
    )
    assert s.vote is None and s.to_act == 1
    assert kinds(s) == {"dc", "f"}


def test_refusal_house_rule_off() -> None:
    s = play([*DEALS4, "p1 b 5"], rules=Rules(refusal=False))
    assert s.vote is None and s.to_act == 1 and s.current_bet == 5
    assert kinds(s) == {"r", "c", "f"}
    assert_illegal(s, "p2 n", WrongTurnError)


def test_no_vote_for_a_bet_of_zero() -> None:
    s = play([*BASE4, "p1 dc supremus", "p1 b 0"])
    assert s.vote is None and s.to_act == 1 and s.current_bet == 0
    assert_illegal(s, "p2 y", WrongTurnError)


# ---------------------------------------------------------------- R8b exhaustion

SEVEN = [
    "d dh p1 Ac 2c",
    "d dh p2 3c 4c",
    "d dh p3 5c 6c",
    "d dh p4 7c Jc",
    "d dh p5 Qc Kc",
    "d dh p6 Ad 2d",
    "d dh p7 3d 4d",
    "p1 x Ac 2c",
    "d dh p1 5d 6d",
    "p2 x 3c 4c",
    "d dh p2 7d Jd",
    "p3 x 5c 6c",
    "d dh p3 Qd Kd",
    "p4 x 7c Jc",
    "d dh p4 Ah 2h",
    "p5 x Qc Kc",
    "d dh p5 3h 4h",
    "p6 x Ad",
    "d dh p6 5h",
    "p7 b 1",
    "p1 y",
    "p1 c",
    "p2 c",
    "p3 c",
    "p4 c",
    "p5 c",
    "p6 c",
    "d dh p1 6h 7h",
    "d dh p2 Jh Qh",
    "d dh p3 Kh As",
    "d dh p4 2s 3s",
    "d dh p5 4s 5s",
    "d dh p6 6s 7s",
    "d dh p7 Js Qs",
    *[f"p{i} {w}" for i in range(1, 8) for w in ("dc numerus", "b 0" if i == 1 else "c")],
    "p1 x 5d 6d",
]


def test_deck_exhaustion_twice_with_just_thrown_cards_excluded() -> None:
    rules = Rules(max_players=7)
    stacks = (20,) * 7
    s = play(SEVEN, stacks, rules)
    # The stock holds only Ks; p1 is due 2. The 11 first-round discards (not p1's
    # just-thrown 5d 6d) become the new stock after Ks.
    assert [str(c) for c in s.stock()] == ["Ks"]
    assert s.deal_due() == (0, 2)
    assert sorted(str(c) for c in s.recyclable(0)) == sorted(
        cards("Ac 2c 3c 4c 5c 6c 7c Jc Qc Kc Ad")
    )
    message = assert_illegal(s, "d dh p1 Ac 2c", BadCardsError)  # omits the stock card Ks
    assert "the stock holds 1 card (Ks) and p1 is due 2" in message
    assert_illegal(s, "d dh p1 Ks 5d", BadCardsError)  # 5d was just thrown
    assert_illegal(s, "d dh p1 Ks 7h", BadCardsError)  # 7h is in p1's hand
    assert_illegal(s, "d dh p1 Ks Js", BadCardsError)  # Js is in p7's hand
    assert_illegal(s, "d dh p1 Ks", BadCardsError)  # two are due
    s.check(_parse("d dh p1 Ac Ks", 7))  # a line's cards are a set
    act(s, "d dh p1 Ks Ac")
    assert s.stock_count == 10
    assert sorted(str(c) for c in s.stock()) == sorted(cards("2c 3c 4c 5c 6c 7c Jc Qc Kc Ad"))
    assert s.discard_pile == list(parse_cards("5d 6d"))
    check_cards_partition(s)
    act(
        s,
        "p2 x Jh Qh",
        "d dh p2 2c 3c",
        "p3 x Qd Kd",
        "d dh p3 4c 5c",
        "p4 x Ah 2h",
        "d dh p4 6c 7c",
        "p5 x 3h 4h",
        "d dh p5 Jc Qc",
        "p6 x 2d 5h",
        "d dh p6 Kc Ad",
        "p7 x 3d 4d",
    )
    # Stock empty again; the pile (5d 6d back in play) is reshuffled, less 3d 4d.
    assert s.stock_count == 0
    assert_illegal(s, "d dh p7 3d 5d", BadCardsError)
    act(s, "d dh p7 5d 6d")
    assert s.stock_count == 10
    assert s.discard_pile == list(parse_cards("3d 4d"))
    check_cards_partition(s)
    act(s, "p1 b 0", *[f"p{i} c" for i in range(2, 8)])
    assert s.result is not None
    # p1 6h 7h Ks Ac, p4 2s 3s 6c 7c, p6 6s 7s Kc Ad tie at numerus 39: the eldest, p1,
    # takes the pot of 7 x 2 = 14.
    points = [v.points if v is not None else None for v in s.result.shown]
    assert points == [39, 31, 29, 39, 29, 39, 33]
    assert s.result.final_stacks == (32, 18, 18, 18, 18, 18, 18)


EIGHT = [
    "d dh p1 Ac 2c",
    "d dh p2 3c 4c",
    "d dh p3 5c 6c",
    "d dh p4 7c Jc",
    "d dh p5 Qc Kc",
    "d dh p6 Ad 2d",
    "d dh p7 3d 4d",
    "d dh p8 5d 6d",
    "p1 x Ac 2c",
    "d dh p1 7d Jd",
    "p2 x 3c 4c",
    "d dh p2 Qd Kd",
    "p3 x 5c 6c",
    "d dh p3 Ah 2h",
    "p4 x 7c Jc",
    "d dh p4 3h 4h",
    "p5 x Qc Kc",
    "d dh p5 5h 6h",
    "p6 x Ad 2d",
    "d dh p6 7h Jh",
    "p7 x 3d 4d",
    "d dh p7 Qh Kh",
    "p8 b 1",
    "p1 y",
]


def test_eight_players_second_deal_runs_out() -> None:
    rules = Rules(max_players=8)
    s = play(
        [
            *EIGHT,
            *[f"p{i} c" for i in range(1, 8)],
            "d dh p1 As 2s",
            "d dh p2 3s 4s",
            "d dh p3 5s 6s",
            "d dh p4 7s Js",
            "d dh p5 Qs Ks",
        ],
        (20,) * 8,
        rules,
    )
    assert s.stock_count == 0 and s.deal_due() == (5, 2)
    assert_illegal(s, "d dh p6 3s 4s", BadCardsError)  # in p2's hand
    assert_illegal(s, "d dh p6 Qh Kh", BadCardsError)  # in p7's hand
    act(s, "d dh p6 Ac 2c")  # 14 discards became the stock
    assert s.stock_count == 12 and s.discard_pile == []
    act(s, "d dh p7 3c 4c", "d dh p8 5c 6c")
    assert phase(s) is Phase.DECLARE_ROUND and s.to_act == 0
    assert [str(c) for c in s.stock()] == ["7c", "Jc", "Qc", "Kc", "Ad", "2d", "3d", "4d"]
    check_cards_partition(s)


def test_folded_hands_are_dead_and_never_return() -> None:
    rules = Rules(max_players=8)
    s = play(
        [
            *EIGHT,
            "p1 f",
            *[f"p{i} c" for i in range(2, 8)],
            "d dh p2 As 2s",
            "d dh p3 3s 4s",
            "d dh p4 5s 6s",
            "d dh p5 7s Js",
            "d dh p6 Qs Ks",
        ],
        (20,) * 8,
        rules,
    )
    assert s.dead == list(parse_cards("7d Jd"))
    assert s.stock_count == 0 and s.deal_due() == (6, 2)
    assert_illegal(s, "d dh p7 7d Ac", BadCardsError)
    act(s, "d dh p7 Ac 2c")
    check_cards_partition(s)


# ---------------------------------------------------------------- R4.8 and the end


def test_last_player_in_takes_every_pot_without_showing() -> None:
    s = play([*DEALS4, "p1 b 19", "p2 y", "p2 f", "p3 f"])
    assert not s.complete
    act(s, "p4 f")
    assert s.complete and s.to_act is None and s.result is not None
    assert s.result.uncontested
    assert s.result.shown == (None, None, None, None)
    assert s.result.shown_cards == (None, None, None, None)
    # p1 all-in for 20 takes 20 + 3 antes.
    assert s.result.final_stacks == (23, 19, 19, 19)
    for seat in range(4):
        v = view(s, seat)
        assert v.shown == (None, None, None, None)
        assert v.final_stacks == (23, 19, 19, 19)


def test_hand_ends_in_the_declare_round_when_all_others_fold() -> None:
    s = play([*BASE4, "p1 dc supremus", "p1 b 4", "p2 y", "p2 f", "p3 dc fluxus", "p3 f", "p4 f"])
    assert s.complete and s.result is not None and s.result.uncontested
    # p1 takes 12 + its own 4: 13 + 16 = 29.
    assert s.result.final_stacks == (29, 17, 17, 17)
    assert [(a.pot.amount, a.winners) for a in s.result.awards] == [(16, (0,))]
    assert phase(s) is Phase.COMPLETE


def test_every_action_after_the_hand_is_over_is_refused() -> None:
    s = play([*DEALS4, "p1 b 1", "p2 y", "p2 f", "p3 f", "p4 f"])
    assert s.complete
    assert s.legal_actions().seat is None and s.legal_actions().kinds() == []
    for action in (
        Bet(0, 1),
        Call(1),
        Fold(2),
        Vote(3, True),
        Declare(0, Category.NUMERUS),
        Exchange(0, ()),
        Deal(0, (DECK[0], DECK[1])),
        Raise(0, 5),
    ):
        assert_illegal(s, action, HandOverError)


def test_last_round_house_rule_off_ends_after_the_second_exchange() -> None:
    s = play(
        [
            *BASE4,
            "p1 dc supremus",
            "p1 b 0",
            "p2 dc numerus",
            "p2 c",
            "p3 dc fluxus",
            "p3 c",
            "p4 dc numerus",
            "p4 c",
            "p1 x",
            "p2 x",
            "p3 x",
            "p4 x",
        ],
        rules=Rules(last_round=False),
    )
    assert s.complete and s.result is not None
    assert s.result.final_stacks == (17, 17, 29, 17)


def test_copy_is_independent() -> None:
    s = play(BASE4)
    c = s.copy()
    act(c, "p1 dc supremus", "p1 b 3")
    assert s.lines() == BASE4
    assert s.declared[0] is None and s.vote is None
    assert c.vote is not None and c.declared[0] is Category.SUPREMUS


def test_error_messages_name_what_is_allowed() -> None:
    s = play([*DEALS4, "p1 b 10", "p2 n", "p3 n", "p4 n"])
    msg = assert_illegal(s, "p1 b 10", BadAmountError)
    assert "bet between 1 and 9 chips" in msg and "exchange 1 or 2 cards" in msg
    msg = assert_illegal(s, "p2 c", WrongTurnError)
    assert "p1 may" in msg
    s = play(DEALS4[:1])
    msg = assert_illegal(s, "d dh p3 Ac 2c", WrongTurnError)
    assert "p2" in msg
    s = play([*DEALS4, "p1 b 3", "p2 y"])
    msg = assert_illegal(s, "p2 r 3", BadAmountError)
    assert "raise to between 4 and 19 chips" in msg and "call 3" in msg and "fold" in msg


@pytest.mark.parametrize(
    ("legal", "words"),
    [
        (LegalActions(0, bet=(1, 96)), "p1 may bet between 1 and 96 chips"),
        (LegalActions(1, bet=(5, 5)), "p2 may bet 5 chips"),
        (
            LegalActions(1, raise_to=(1, 96), call=0),  # over a check: the first bet (R5)
            "p2 may bet between 1 and 96 chips or check",
        ),
        (LegalActions(2, raise_to=(7, 7), call=3), "p3 may raise to 7 chips or call 3"),
    ],
)
def test_amount_ranges_read_as_ranges(legal: LegalActions, words: str) -> None:
    assert legal.describe() == words


# --- R8b: reshuffled discards are forgotten; apply takes record lines ------------------


def test_r8b_reshuffled_discards_leave_the_seats_own_discards() -> None:
    # Six players; the stock runs out at p4's second exchange, and p4 is dealt back its
    # own first-round discards 7c Jc from the reshuffle (R8b allows it: only the just
    # thrown Qd Kd are kept out). p4 must no longer see 7c Jc among its discards.
    lines = [
        "d dh p1 Ac 2c",
        "d dh p2 3c 4c",
        "d dh p3 5c 6c",
        "d dh p4 7c Jc",
        "d dh p5 Qc Kc",
        "d dh p6 Ad 2d",
        "p1 x Ac 2c",
        "d dh p1 3d 4d",
        "p2 x 3c 4c",
        "d dh p2 5d 6d",
        "p3 x 5c 6c",
        "d dh p3 7d Jd",
        "p4 x 7c Jc",
        "d dh p4 Qd Kd",
        "p5 x Qc Kc",
        "d dh p5 Ah 2h",
        "p6 b 2",
        "p1 y",
        "p1 c",
        "p2 c",
        "p3 c",
        "p4 c",
        "p5 c",
        "d dh p1 3h 4h",
        "d dh p2 5h 6h",
        "d dh p3 7h Jh",
        "d dh p4 Qh Kh",
        "d dh p5 As 2s",
        "d dh p6 3s 4s",
        "p1 dc numerus",
        "p1 b 0",
        "p2 dc numerus",
        "p2 c",
        "p3 dc numerus",
        "p3 c",
        "p4 dc numerus",
        "p4 c",
        "p5 dc numerus",
        "p5 c",
        "p6 dc numerus",
        "p6 c",
        "p1 x 3d 4d",
        "d dh p1 5s 6s",
        "p2 x 5d 6d",
        "d dh p2 7s Js",
        "p3 x 7d Jd",
        "d dh p3 Qs Ks",
        "p4 x Qd Kd",
        "d dh p4 7c Jc",
    ]
    state = HandState(["A", "B", "C", "D", "E", "F"], [50] * 6)
    for line in lines:
        state.apply(line)
    v = view(state, 3)
    assert [str(c) for c in v.hand] == ["Qh", "Kh", "7c", "Jc"]
    assert [str(c) for c in v.discards] == ["Qd", "Kd"]
    # Every other discard since the last shuffle went back into the stock, p1's second
    # exchange discards 3d 4d included: p1 knows of no dead card any more.
    assert view(state, 0).discards == ()


def test_apply_takes_a_record_line_and_refuses_other_types() -> None:
    state = HandState(["A", "B", "C", "D"], [20] * 4)
    for line in ["d dh p1 7s 6h", "d dh p2 7h 6s", "d dh p3 Kc Qd", "d dh p4 2c 3d"]:
        state.apply(line)
    state.apply("p1 b 2")
    assert state.lines()[-1] == "p1 b 2"
    before = state.lines()
    # the message is the engine's in pure Python; a compiled engine (setup.py) refuses the
    # argument's type before its first line, with mypyc's message
    with pytest.raises(TypeError, match="record line" if _PURE else "got int"):
        state.apply(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat"):
        state.apply("p9 c")
    assert state.lines() == before


# --- error paths and the finished hand --------------------------------


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Ana", "", "Cleo"], "the player name '' is empty"),
        (["Ana", 7, "Cleo"], "a player name is a string, not 7"),
        (["Ana", None, "Cleo"], "a player name is a string, not None"),
    ],
)
def test_player_names_must_be_non_empty_strings(players: list[object], message: str) -> None:
    rules = Rules(min_players=2)
    with pytest.raises(RulesError, match=message):
        HandState(players, [10, 10, 10], rules)  # type: ignore[arg-type]


@pytest.mark.parametrize("stacks", [[10, 10], [10, 10, 10, 10]])
def test_one_starting_stack_per_player(stacks: list[int]) -> None:
    with pytest.raises(RulesError, match=f"3 players, {len(stacks)} stacks"):
        HandState(["Ana", "Ben", "Cleo"], stacks, Rules(min_players=2))


def test_a_deal_asked_for_when_none_is_due_is_refused() -> None:
    s = play(DEALS4)
    assert s.to_act == 0 and s.deal_due() is None
    before = s.lines()
    with pytest.raises(WrongTurnError, match="no deal is due"):
        Dealer.seeded(1).deal(s)
    assert s.lines() == before


def test_describe_and_pots_after_the_hand_is_over() -> None:
    # p1 bets 2, p2 accepts, everyone else folds: p1 takes the 4 antes and its own 2.
    s = play([*DEALS4, "p1 b 2", "p2 y", "p2 f", "p3 f", "p4 f"])
    assert s.complete
    assert s.legal_actions().describe() == "nothing: the hand is over"
    assert s.pots() == [Pot(6, (0,))]
    assert s.pot_total() == 6
    assert s.stacks == [23, 19, 19, 19]
