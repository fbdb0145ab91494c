"""Matches (R3, R9): the deal passing right, eliminations, the end, standings."""

from __future__ import annotations

import pytest

from primero.bots.random import RandomBot
from primero.engine.actions import Action, Bet, Call, Exchange, Vote, parse_action
from primero.engine.dealing import Dealer
from primero.engine.errors import EndlessHandError, IllegalActionError, PrimeroError
from primero.engine.flow import HandFlow
from primero.engine.history import HandRecord, replay
from primero.engine.legal import line_limit
from primero.engine.match import Agent, Match, MatchOverError, Standing, play_hand
from primero.engine.rules import Rules, RulesError
from primero.engine.state import HandState
from primero.engine.views import SeatView

TABLE = ["Ana", "Ben", "Cleo", "Dev"]


def act(state: HandState, *lines: str) -> None:
    for line in lines:
        state.apply(parse_action(line, state.n))


def current(m: Match) -> HandState:
    assert m.hand is not None
    return m.hand


def p1_takes_the_antes(state: HandState, cards: list[str]) -> None:
    """Deal ``cards`` (one pair per seat), p1 bets 1, the first voter accepts, all fold."""
    for seat, pair in enumerate(cards):
        act(state, f"d dh p{seat + 1} {pair}")
    act(state, "p1 b 1")
    if state.n >= 3:
        act(state, "p2 y")
    act(state, *[f"p{s} f" for s in range(2, state.n + 1)])
    assert state.complete


def random_agents(m: Match, seed: int) -> dict[str, Agent]:
    return {name: RandomBot(seed=seed * 100 + i) for i, name in enumerate(m.players)}


def test_the_deal_passes_to_the_right() -> None:
    m = Match(TABLE, stacks=20, seed=1)
    hand = m.start_hand()
    assert hand.players == ("Ana", "Ben", "Cleo", "Dev")  # Dev deals first
    assert m.seats == (0, 1, 2, 3)
    p1_takes_the_antes(hand, ["7h 6h", "Ac 2d", "Ks Qs", "5h 5d"])
    record = m.finish_hand()
    # Ana: 20 - 2 + 5 = 23.
    assert m.chips == [23, 19, 19, 19]
    assert record.players == ("Ana", "Ben", "Cleo", "Dev")
    assert record.extra == {"hand_number": 1}
    assert record.seed == 1
    hand = m.start_hand()
    # The old p1 (Ana) deals: Ben sits on her right and acts first.
    assert hand.players == ("Ben", "Cleo", "Dev", "Ana")
    assert hand.starting_stacks == (19, 19, 19, 23)
    assert m.seats == (1, 2, 3, 0)
    p1_takes_the_antes(hand, ["7h 6h", "Ac 2d", "Ks Qs", "5h 5d"])
    m.finish_hand()
    assert m.chips == [22, 22, 18, 18]
    assert current_players(m) == ("Cleo", "Dev", "Ana", "Ben")
    assert m.hands_played == 2 and len(m.records) == 2


def current_players(m: Match) -> tuple[str, ...]:
    return m.start_hand().players


def test_an_eliminated_player_is_skipped_and_the_deal_passes_over_them() -> None:
    m = Match(TABLE, stacks=[1, 20, 20, 20], seed=2)
    hand = m.start_hand()
    assert hand.stacks == [0, 19, 19, 19]  # Ana is all-in from the ante
    act(hand, "d dh p1 Kc Qd", "d dh p2 7h 6h", "d dh p3 2c 3d", "d dh p4 4c 5d")
    assert hand.to_act == 1
    act(hand, "p2 b 1", "p3 y", "p3 f", "p4 f")
    act(hand, "d dh p1 Jc 2s", "d dh p2 5h 4h", "p1 x", "p2 x")
    assert hand.complete
    m.finish_hand()
    # Ben's fluxus 68 beats Ana's numerus 20: both pots (4 and 1): 19 - 1 + 5 = 23.
    assert m.chips == [0, 23, 19, 19]
    assert m.in_match() == [1, 2, 3]
    assert not m.over
    hand = m.start_hand()
    # The old p1 (Ana) is out: Ben, the next to the old dealer's right, deals.
    assert hand.players == ("Cleo", "Dev", "Ben")
    assert m.seats == (2, 3, 1)
    assert hand.starting_stacks == (19, 19, 23)
    p1_takes_the_antes(hand, ["7h 6h", "Ac 2d", "Ks Qs"])
    m.finish_hand()
    # Cleo: 19 - 2 + 4 = 21.
    assert m.chips == [0, 22, 21, 18]
    hand = m.start_hand()
    assert hand.players == ("Dev", "Ben", "Cleo")  # Cleo (old p1) deals


def test_the_match_ends_when_one_player_holds_every_chip() -> None:
    m = Match(["Ana", "Ben"], stacks=3, rules=Rules(min_players=2), seed=3)
    hand = m.start_hand()
    act(hand, "d dh p1 7h 6h", "d dh p2 Kc Qd", "p1 b 2", "p2 c")
    act(hand, "d dh p1 5h 4h", "d dh p2 Jc 2s", "p1 x", "p2 x")
    m.finish_hand()
    assert m.chips == [6, 0]
    assert m.over
    assert m.standings() == [Standing(1, "Ana", 6), Standing(2, "Ben", 0)]
    with pytest.raises(MatchOverError):
        m.start_hand()
    with pytest.raises(MatchOverError):
        m.play_hand({"Ana": RandomBot(seed=1), "Ben": RandomBot(seed=2)})


def test_random_match_plays_to_one_winner_and_chains_its_records() -> None:
    for seed in range(12):
        m = Match(TABLE, stacks=6, seed=seed)
        agents = random_agents(m, seed)
        hands = 0
        while not m.over:
            record = m.play_hand(agents)
            hands += 1
            assert hands < 2000
            assert sum(m.chips) == 24
            check_record_replays(record)
        assert m.max_hands is None
        assert sorted(m.chips) == [0, 0, 0, 24]
        assert m.hands_played == len(m.records) == hands
        winner = m.standings()[0]
        assert winner.place == 1 and winner.chips == 24
        assert [s.place for s in m.standings()] == [1, 2, 2, 2]
        check_deal_passes_right(m, [6] * 4)


def check_record_replays(record: HandRecord) -> None:
    outcome = replay(record)
    assert outcome.complete, outcome.error


def check_deal_passes_right(m: Match, start: list[int]) -> None:
    """Recompute each hand's seating from the previous one (R3) and the chips."""
    table = list(m.players)
    chips = list(start)
    dealer = len(table) - 1
    for number, record in enumerate(m.records):
        if number > 0:
            # The old p1 deals, or the next player still in to the old dealer's right.
            i = (dealer + 1) % len(table)
            while chips[i] == 0:
                i = (i + 1) % len(table)
            dealer = i
        order = [table[(dealer + k) % len(table)] for k in range(1, len(table) + 1)]
        expected = tuple(name for name in order if chips[table.index(name)] > 0)
        assert record.players == expected, (number, record.players, expected)
        assert record.players[-1] == table[dealer]
        assert record.starting_stacks == tuple(chips[table.index(p)] for p in record.players)
        assert record.extra == {"hand_number": number + 1}
        outcome = replay(record)
        assert outcome.state is not None and outcome.state.result is not None
        for name, final in zip(record.players, outcome.state.result.final_stacks, strict=True):
            chips[table.index(name)] = final
    assert chips == m.chips


def test_max_hands_ends_the_match() -> None:
    m = Match(TABLE, seed=5, max_hands=3)
    agents = random_agents(m, 5)
    while not m.over:
        m.play_hand(agents)
    assert m.hands_played == 3 and len(m.records) == 3
    assert sum(m.chips) == 400
    check_deal_passes_right(m, [100] * 4)
    with pytest.raises(MatchOverError):
        m.start_hand()


def test_standings_share_places_for_equal_chips() -> None:
    m = Match(TABLE, stacks=20, seed=1, max_hands=1)
    p1_takes_the_antes(m.start_hand(), ["7h 6h", "Ac 2d", "Ks Qs", "5h 5d"])
    m.finish_hand()
    assert m.over
    assert m.standings() == [
        Standing(1, "Ana", 23),
        Standing(2, "Ben", 19),
        Standing(2, "Cleo", 19),
        Standing(2, "Dev", 19),
    ]


def test_standings_after_a_shared_place() -> None:
    m = Match(TABLE, stacks=[30, 20, 30, 20], seed=1)
    # Before any hand: Ana and Cleo share first, Ben and Dev the next place. R9 says only
    # that equal chips share a place; this is the usual "1, 1, 3, 3" ranking.
    assert m.standings() == [
        Standing(1, "Ana", 30),
        Standing(1, "Cleo", 30),
        Standing(3, "Ben", 20),
        Standing(3, "Dev", 20),
    ]


@pytest.mark.parametrize(
    ("players", "kwargs"),
    [
        (["Ana", "Ben", "Cleo"], {}),  # 3 < min_players 4
        (["A", "B", "C", "D", "E", "F", "G"], {}),  # 7 > max_players 6
        (["Ana", "Ben", "Ana", "Dev"], {}),
        (["Ana", "", "Cleo", "Dev"], {}),
        (TABLE, {"stacks": 0}),
        (TABLE, {"stacks": [20, 20, 20]}),
        (TABLE, {"stacks": [20, 20, 20, 0]}),
        (TABLE, {"max_hands": 0}),
        (TABLE, {"max_hands": True}),
    ],
)
def test_match_arguments_are_checked(players: list[str], kwargs: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        Match(players, **kwargs)  # type: ignore[arg-type]


def test_two_to_eight_players_with_house_rules() -> None:
    Match(["A", "B"], rules=Rules(min_players=2, max_players=2))
    Match(list("ABCDEFGH"), rules=Rules(min_players=8, max_players=8))
    with pytest.raises(RulesError):
        Match(["A", "B"], rules=Rules(min_players=3, max_players=8))


def test_hands_must_be_finished_in_order() -> None:
    m = Match(TABLE, seed=1)
    with pytest.raises(PrimeroError):
        m.finish_hand()
    m.start_hand()
    with pytest.raises(PrimeroError):
        m.start_hand()
    with pytest.raises(PrimeroError):
        m.finish_hand()


def test_missing_agent_and_illegal_agent() -> None:
    m = Match(TABLE, seed=1)
    with pytest.raises(KeyError):
        m.play_hand({"Ana": RandomBot(seed=1)})

    def cheater(v: SeatView) -> Bet:
        assert v.seat is not None
        return Bet(v.seat, 10_000)

    m = Match(TABLE, seed=1)
    with pytest.raises(IllegalActionError):
        m.play_hand({name: cheater for name in TABLE})
    hand = current(m)
    # The dealer dealt the four hands; the cheating bet was not applied.
    assert len(hand.lines()) == 4 and hand.to_act == 0


# --- the guard against hands that cannot end ------------------------


def refuse_all_then_bet_the_most(v: SeatView) -> Action:
    """Refuses every bet above 1 chip; opens with the most it may; else calls or plays
    at random."""
    legal = v.legal
    assert legal is not None and v.seat is not None
    if legal.vote:
        assert v.pending_bet is not None
        return Vote(v.seat, v.pending_bet[1] == 1)
    if legal.bet is not None:
        return Bet(v.seat, legal.bet[1])
    if legal.call is not None:
        return Call(v.seat)
    return RandomBot(seed=0)(v)


@pytest.mark.timeout(60)
def test_a_rule_bug_that_loops_fails_instead_of_hanging(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bug of the review: a refused bettor's cap made non-strict (R8 says strictly
    # less), so the refused amount may be bet again for ever.
    real = HandFlow._vote

    def lax_vote(self: HandFlow, accept: bool) -> None:
        real(self, accept)
        if self.cap_below >= 0:
            self.cap_below += 1

    monkeypatch.setattr(HandFlow, "_vote", lax_vote)
    state = HandState(TABLE, [3, 3, 3, 3])
    with pytest.raises(EndlessHandError, match="past 1048 lines"):
        play_hand(state, Dealer.seeded(1), [refuse_all_then_bet_the_most] * 4)
    assert len(state.actions) == 1048 + 1  # counted from the first deal line: one past it


def always_exchange(v: SeatView) -> Action:
    assert v.seat is not None
    return Exchange(v.seat, v.hand[:1])


@pytest.mark.timeout(60)
def test_endless_void_deals_are_stopped() -> None:
    # R4.3 allows any number of void deals; agents that always exchange never end a hand.
    state = HandState(TABLE, [5, 5, 5, 5])
    with pytest.raises(EndlessHandError, match="6 void deals"):
        play_hand(state, Dealer.seeded(2), [always_exchange] * 4, max_void_deals=5)
    assert state.void_deals == 6


def test_the_longest_legal_deals_stay_within_the_limit() -> None:
    # Many refusals: each opener bets its whole stack, is refused, bets one less, ...
    # down to 1 (R8: strictly less each time), which is accepted.
    state = HandState(TABLE, [3, 3, 3, 3])
    play_hand(state, Dealer.seeded(3), [refuse_all_then_bet_the_most] * 4)
    assert state.complete
    assert len(state.actions) <= line_limit(4, 3)


def test_line_limit_by_hand() -> None:
    # 2 players, 1 chip: (1 + 2) * 2 = 6 turns of at most 2 * 2 + 1 = 5 lines, 3 rounds,
    # plus 7 * 2 deal and exchange lines.
    assert line_limit(2, 1) == 14 + 3 * 6 * 5
    assert line_limit(8, 0) == 56 + 3 * 16 * 9


def test_the_dealable_hook_chooses_who_is_dealt_in() -> None:
    # R9: a player with no chips is out; R3: seats from the dealer's right (Dev deals).
    m = Match(["Ana", "Ben", "Cleo", "Dev"], seed=1, stacks=[5, 1, 7, 9])
    m.chips[1] = 0  # Ben lost his last chip in an earlier hand
    assert [m.dealable(i) for i in range(4)] == [True, False, True, True]
    assert m.dealt_in() == [0, 2, 3] and m.can_deal()
    hand = m.start_hand()
    assert m.seats == (0, 2, 3) and hand.players == ("Ana", "Cleo", "Dev")


def test_a_hand_may_be_started_with_the_seats_it_was_dealt() -> None:
    # A stored hand rebuilt after a restart deals in exactly the seats it had.
    m = Match(["Ana", "Ben", "Cleo", "Dev"], seed=1)
    hand = m.start_hand(dealt={1, 3})
    assert m.seats == (1, 3) and hand.players == ("Ben", "Dev")
    assert hand.starting_stacks == (100, 100)
