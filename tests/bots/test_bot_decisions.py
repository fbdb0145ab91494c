"""The heuristic bot's votes and calls (R5, R8) against situations computed by hand and
the exact odds of :mod:`primero.engine.odds`: it never lets a bet stand that it then
folds to, calls when its exact equity clearly beats the pot odds, folds or refuses when
it clearly does not, and neither refuses every bet nor accepts every bet."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primero.bots import make_bot
from primero.bots.heuristic import HeuristicBot, accepted_bet
from primero.engine.actions import Bet, Call, Fold, Raise, Vote, parse_action
from primero.engine.cards import parse_cards
from primero.engine.dealing import Dealer
from primero.engine.hands import evaluate
from primero.engine.match import Match
from primero.engine.odds import exchange_odds, showdown_odds
from primero.engine.rules import Rules
from primero.engine.state import DEALER, HandState
from primero.engine.views import view


def _state(lines: list[str], stacks: list[int]) -> HandState:
    n = len(stacks)
    state = HandState([f"P{i}" for i in range(n)], stacks, Rules(min_players=2))
    for line in lines:
        state.apply(parse_action(line, n))
    return state


def _folds_after_accepting(lines: list[str]) -> list[int]:
    """Indices of lines where a seat folds to the very bet it accepted by vote (R8), no
    raise having stood in between. A bet or raise stands when nobody votes on it or
    someone accepts it; a deal or an exchange line starts another round."""
    faults = []
    for i, line in enumerate(lines):
        seat, verb, *_ = line.split()
        if verb != "y":
            continue
        accepted = next(
            int(b.split()[2]) for b in reversed(lines[:i]) if b.split()[1] in ("b", "r")
        )
        standing = accepted
        for j in range(i + 1, len(lines)):
            who, what, *rest = lines[j].split()
            if who == "d" or what == "x":
                break
            if what in ("b", "r"):
                votes = []
                for after in lines[j + 1 :]:
                    if after.split()[1] not in ("y", "n"):
                        break
                    votes.append(after.split()[1])
                if not votes or "y" in votes:
                    standing = int(rest[0])
            if who == seat and what not in ("y", "n", "dc"):
                if what == "f" and standing == accepted:
                    faults.append(j)
                break
    return faults


def test_the_checker_finds_a_fold_after_accepting() -> None:
    # the test's own checker, on lines written by hand
    lines = ["d dh p1 7h 6h", "p1 b 3", "p2 y", "p2 f"]
    assert _folds_after_accepting(lines) == [3]
    # a raise that stood in between: folding is fine
    stood = ["p1 b 3", "p2 y", "p2 c", "p3 r 9", "p1 y", "p1 c", "p2 f"]
    assert _folds_after_accepting(stood) == []
    # a raise refused by all does not change the bet
    assert _folds_after_accepting(["p1 b 3", "p2 y", "p3 r 9", "p1 n", "p2 n", "p3 c", "p2 f"]) == [
        6
    ]


def test_no_heuristic_bot_accepts_a_bet_and_then_folds_to_it() -> None:
    # 203 of 869 acceptances in 300 seeded hands were followed by a fold to the
    # same bet. 1,000 hands at tables of 4, 5 and 6 heuristic bots
    played = accepted = 0
    faults: list[list[str]] = []
    table = 0
    while played < 1000:
        seats = 4 + table % 3
        names = [f"P{i}" for i in range(seats)]
        agents = {n: make_bot("heuristic", table * 10 + i) for i, n in enumerate(names)}
        match = Match(names, seed=table, max_hands=min(100, 1000 - played))
        table += 1
        while not match.over:
            lines = match.play_hand(agents).actions
            played += 1
            accepted += sum(1 for line in lines if line.split()[1] == "y")
            if _folds_after_accepting(lines):
                faults.append(lines)
    assert played == 1000
    assert accepted > 200  # the votes were there to be tested
    assert faults == []


def test_accepted_bet_reads_the_public_log() -> None:
    dealt = ["d dh p1 7h 6h", "d dh p2 Kc Qd", "d dh p3 Jc 2s", "d dh p4 5h 4c"]
    state = _state([*dealt, "p1 b 3", "p2 n", "p3 y"], [50] * 4)
    v = view(state, 1)
    assert accepted_bet(v, 1) is None  # p2 refused
    assert accepted_bet(v, 2) == 3
    assert accepted_bet(v, 3) is None  # p4 did not vote
    # p2 raises to 8 and everyone refuses: the bet is 3 again, and p3's acceptance holds
    state = _state([*dealt, "p1 b 3", "p2 n", "p3 y", "p2 r 8", "p3 n", "p4 n", "p1 n"], [50] * 4)
    assert state.to_act == 1 and state.current_bet == 3
    state.apply(Call(1))
    assert accepted_bet(view(state, 2), 2) == 3
    # a raise that stands: p3's acceptance of 3 no longer binds it
    state = _state([*dealt, "p1 b 3", "p2 n", "p3 y", "p2 r 8", "p3 n", "p4 y"], [50] * 4)
    assert state.to_act == 2 and state.current_bet == 8
    assert accepted_bet(view(state, 2), 2) is None


def test_a_bot_that_accepted_calls_the_same_bet() -> None:
    # p3 holds J 2 offsuit and p4 let a 20-chip bet stand for it (a call it would not make
    # on pot odds alone: exact heads-up equity of keeping both 0.393 < 20 / (4 + 20 + 20))
    dealt = ["d dh p1 7h 6h", "d dh p2 Kc Qd", "d dh p3 Jc 2s", "d dh p4 5h 4c"]
    assert exchange_odds("Jc 2s").choices[0].score < 20 / 44
    refused = _state([*dealt, "p1 b 20", "p2 n", "p3 n", "p4 y"], [50] * 4)
    refused.apply(Fold(1))
    assert HeuristicBot(seed=1)(view(refused, 2)) == Fold(2)
    accepted = _state([*dealt, "p1 b 20", "p2 n", "p3 y"], [50] * 4)
    accepted.apply(Fold(1))
    assert HeuristicBot(seed=1)(view(accepted, 2)) == Call(2)


# ------------------------------------------------------------- against the exact odds


def _last_round(p1: tuple[str, str], p2: tuple[str, str], p1_declares: str) -> list[str]:
    """Lines of a heads-up hand up to the last round (R4.7), both standing pat; p2
    declares its true category."""
    p2_declares = evaluate(parse_cards(f"{p2[0]} {p2[1]}")).category.name.lower()
    return [
        f"d dh p1 {p1[0]}",
        f"d dh p2 {p2[0]}",
        "p1 b 1",
        "p2 c",
        f"d dh p1 {p1[1]}",
        f"d dh p2 {p2[1]}",
        f"p1 dc {p1_declares}",
        "p1 b 0",
        f"p2 dc {p2_declares}",
        "p2 c",
        "p1 x",
        "p2 x",
    ]


def test_folds_a_hopeless_hand_to_a_half_pot_bet() -> None:
    # p2 holds Kc Qc Jd Jh, a numerus of 20: the lowest hand; its exact showdown equity
    # against one random hand is 0.01, far below the pot odds of a half-pot bet, 2 to
    # win 6 (2 / (6 + 2) = 0.25)
    lines = _last_round(("7h 6h", "5h 4h"), ("Kc Qc", "Jd Jh"), "fluxus")
    assert showdown_odds("Kc Qc Jd Jh").equity < 0.02
    state = _state([*lines, "p1 b 2"], [50, 50])
    assert state.to_act == 1 and sum(state.contributed) == 6
    assert HeuristicBot(seed=1)(view(state, 1)) == Fold(1)


@pytest.mark.parametrize(
    ("hand", "declared"), [(("7h 6h", "5h 4h"), "numerus"), (("Kc Qd", "Jh 2s"), "numerus")]
)
def test_calls_a_pot_sized_bet_with_the_odds(hand: tuple[str, str], declared: str) -> None:
    # a fluxus of 68 (exact equity 1.0) and a primero of 42 (0.879) against a bettor who
    # declared numerus: a pot-sized bet of 4 into 4 needs 4 / (8 + 4) = 1/3
    held = f"{hand[0]} {hand[1]}"
    assert showdown_odds(held).equity > 0.85
    other = ("3c 3d", "Ac 2c")
    state = _state([*_last_round(other, hand, declared), "p1 b 4"], [50, 50])
    assert state.to_act == 1
    assert isinstance(HeuristicBot(seed=1)(view(state, 1)), Call | Raise)


def test_first_round_vote_follows_the_exact_odds() -> None:
    # 4 players, 4 antes in the pot; p1 bets 3: pot odds 3 / (4 + 3 + 3) = 0.30.
    # p2's 7h 6h wins 0.825 heads-up when kept (exact_odds, keep both): it accepts, then
    # calls or raises. K Q offsuit (0.363 kept) facing a bet of 20 (20 / 44 = 0.45)
    # refuses it
    assert exchange_odds("7h 6h").choices[0].score > 0.8
    assert exchange_odds("Kc Qd").choices[0].score < 20 / 44
    good = ["d dh p1 Jc 2s", "d dh p2 7h 6h", "d dh p3 Kd Qs", "d dh p4 3d 4d"]
    state = _state([*good, "p1 b 3"], [100] * 4)
    assert HeuristicBot(seed=1)(view(state, 1)) == Vote(1, True)
    state.apply(Vote(1, True))
    assert isinstance(HeuristicBot(seed=1)(view(state, 1)), Call | Raise)
    weak = ["d dh p1 Jc 2s", "d dh p2 Kc Qd", "d dh p3 7h 6h", "d dh p4 3d 4d"]
    state = _state([*weak, "p1 b 20"], [100] * 4)
    assert HeuristicBot(seed=1)(view(state, 1)) == Vote(1, False)


def _stands(bet: int, deals: int) -> float:
    """Share of ``deals`` seeded deals in which three heuristic voters let p1's
    first-round opening bet of ``bet`` chips stand (4 players, 100 chips, ante 1)."""
    stood = 0
    for seed in range(deals):
        state = HandState(["A", "B", "C", "D"], [100] * 4)
        dealer = Dealer.seeded(seed)
        while state.to_act == DEALER:
            dealer.deal_into(state)
        state.apply(Bet(0, bet))
        bots = [HeuristicBot(seed=seed * 4 + i) for i in range(4)]
        while state.vote is not None:
            seat = state.to_act
            assert seat is not None
            vote = bots[seat](view(state, seat))
            state.apply(vote)
            if vote == Vote(seat, True):
                stood += 1
                break
    return stood / deals


def test_a_small_first_round_bet_is_contested_but_not_always() -> None:
    # bets of 3-4 chips, whatever the bettor held, took the antes. Now a bet of
    # 3 into 4 antes is let stand (and so called) in about 75% of deals (whoever holds a
    # hand with the odds to call it), a bet of 8 in about 28%, a bet of 1 always
    small, large, token = _stands(3, 120), _stands(8, 120), _stands(1, 40)
    assert 0.5 < small < 0.95, small
    assert 0.1 < large < small, (large, small)
    assert token == 1.0


def test_a_persons_raise_is_let_stand() -> None:
    # all bots refused every raise of a person in one hand. Here the person
    # (p1) opens the first round with 1 chip, calls, and in the declare round raises the
    # bots' bet to about twice it plus half the pot (R5); the three heuristic voters let
    # it stand unless all of them would fold to it
    from primero.engine.actions import Declare, Exchange

    votes = stood = 0
    for seed in range(60):
        state = HandState(["You", "B", "C", "D"], [100] * 4)
        dealer = Dealer.seeded(seed)
        bots = [HeuristicBot(seed=seed * 4 + i) for i in range(4)]
        raised = False
        while not state.complete:
            seat = state.to_act
            if seat == DEALER:
                dealer.deal_into(state)
                continue
            assert seat is not None
            if seat != 0:
                state.apply(bots[seat](view(state, seat)))
                continue
            legal = state.legal_actions()
            current = state.current_bet or 0
            if legal.vote:
                state.apply(Vote(0, True))
            elif legal.declare:
                state.apply(Declare(0, legal.declare[0]))
            elif (
                legal.raise_to is not None
                and not raised
                and current > 0
                and (state.phase.name == "DECLARE_ROUND")
            ):
                low, high = legal.raise_to
                wanted = 2 * current + sum(state.contributed) // 2
                state.apply(Raise(0, min(high, max(low, wanted))))
                raised = True
                if state.vote is not None:
                    votes += 1
                    while state.vote is not None:
                        voter = state.to_act
                        assert voter is not None
                        vote = bots[voter](view(state, voter))
                        state.apply(vote)
                        stood += vote == Vote(voter, True)
            elif legal.bet is not None:
                state.apply(Bet(0, legal.bet[0]))
            elif legal.call is not None:
                state.apply(Call(0))
            else:
                state.apply(Exchange(0, ()))
    # 19 of the 20 raises put to a vote stood (100 of 101 over 300 seeds)
    assert votes >= 15
    assert stood >= 0.6 * votes, (stood, votes)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(3, 8),
    stacks=st.lists(st.sampled_from([2, 5, 20, 100]), min_size=8, max_size=8),
    ante=st.sampled_from([0, 1, 2]),
    min_raise=st.sampled_from([1, 2, 5]),
    max_raises=st.sampled_from([None, 0, 1, 3]),
    declarations=st.booleans(),
    zero_bet=st.booleans(),
)
def test_no_fold_after_accepting_under_any_house_rules(
    seed: int,
    players: int,
    stacks: list[int],
    ante: int,
    min_raise: int,
    max_raises: int | None,
    declarations: bool,
    zero_bet: bool,
) -> None:
    rules = Rules(
        ante=ante,
        min_raise=min_raise,
        max_raises=max_raises,
        declarations=declarations,
        first_round_zero_bet=zero_bet,
        min_players=2,
        max_players=8,
    )
    state = HandState([f"P{i}" for i in range(players)], stacks[:players], rules)
    dealer = Dealer.seeded(seed)
    bots = [HeuristicBot(seed=seed + i) for i in range(players)]
    while not state.complete:
        seat = state.to_act
        if seat == DEALER:
            dealer.deal_into(state)
            continue
        assert seat is not None
        state.apply(bots[seat](view(state, seat)))
    assert _folds_after_accepting(state.lines()) == []
