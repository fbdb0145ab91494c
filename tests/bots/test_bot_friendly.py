"""Friendly bet sizes at game-night tables: the wrapper's bets and
raises are always legal and within :func:`friendly_cap`, and over seeded hands the bots'
first-round bets stay small."""

from __future__ import annotations

import pickle
import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from primero.bots import make_bot
from primero.bots.friendly import FriendlyBets, friendly_cap
from primero.engine.actions import Action, Bet, Raise
from primero.engine.dealing import Dealer
from primero.engine.match import Agent, Match, play_hand
from primero.engine.rules import Rules
from primero.engine.state import HandState, Phase
from primero.engine.views import SeatView, view
from primero.play.tablemodel import TableModel
from tests.strategies import rules as rules_strategy
from tests.strategies import stacks as stacks_strategy


def _checked(agent: Agent, seen: list[tuple[SeatView, Action]]) -> Agent:
    def act(v: SeatView) -> Action:
        action = agent(v)
        seen.append((v, action))
        return action

    return act


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 6),
    data=st.data(),
    seed=st.integers(0, 2**31),
    kind=st.sampled_from(["random", "heuristic"]),  # the exploiters are never capped
)
def test_bets_are_legal_and_within_the_cap(
    n: int, data: st.DataObject, seed: int, kind: str
) -> None:
    rules = data.draw(rules_strategy(n))
    chips = data.draw(stacks_strategy(n))
    state = HandState([f"P{i}" for i in range(n)], chips, rules=rules)
    seen: list[tuple[SeatView, Action]] = []
    agents = [_checked(FriendlyBets(make_bot(kind, seed + i)), seen) for i in range(n)]
    play_hand(state, Dealer.seeded(seed), agents)  # raises on an illegal move
    for v, action in seen:
        # the rules' range (a move the wrapped bot made within the cap is its own; a
        # capped amount is also inside the refusal steps, checked by the doctests' table)
        legal = v.legal
        assert legal is not None
        if isinstance(action, Bet):
            assert legal.bet is not None
            low, high = legal.bet
            assert low <= action.amount <= high
            assert action.amount <= max(low, friendly_cap(v)), (v.public_log, action)
        elif isinstance(action, Raise):
            assert legal.raise_to is not None
            low, high = legal.raise_to
            assert low <= action.amount <= high
            assert action.amount - (v.current_bet or 0) <= friendly_cap(v, v.to_call)


def test_the_cap_is_the_pot_or_a_quarter_of_the_smallest_stack() -> None:
    # 4 players, ante 1: the pot is 4 chips before the first bet
    s = HandState(["Ana", "Ben", "Cleo", "Dev"], [100, 100, 100, 100])
    Dealer.seeded(3).deal_into(s)

    assert friendly_cap(view(s, 0)) == 4  # min(pot 4, 99 // 4 = 24)
    s = HandState(["Ana", "Ben", "Cleo", "Dev"], [100, 9, 100, 100])
    Dealer.seeded(3).deal_into(s)
    assert friendly_cap(view(s, 0)) == 2  # min(pot 4, 8 // 4 = 2): Ben's 8 chips behind
    s = HandState(["Ana", "Ben"], [100, 2])
    Dealer.seeded(3).deal_into(s)
    assert friendly_cap(view(s, 0)) == 1  # a quarter of 1 chip is 0: never below 1


def _first_round_bets(friendly: bool, hands: int) -> tuple[list[int], list[int]]:
    """Opening bets, and bets and raises' increases (chips), of the first round over
    ``hands`` seeded hands of 4 random bots (the widest bettors) at 100 chips, matches
    seeded 0, 1, ..."""
    amounts: list[int] = []
    openings: list[int] = []

    def watch(agent: Agent) -> Agent:
        def act(v: SeatView) -> Action:
            action = agent(v)
            if v.phase is Phase.FIRST_ROUND and isinstance(action, Bet):
                amounts.append(action.amount)
                openings.append(action.amount)
            elif v.phase is Phase.FIRST_ROUND and isinstance(action, Raise):
                amounts.append(action.amount - (v.current_bet or 0))
            return action

        return act

    names = ["Ana", "Ben", "Cleo", "Dev"]
    played = k = 0
    while played < hands:
        match = Match(names, seed=k)
        agents = {
            name: watch(make_bot("random", 100 * k + i, friendly=friendly))
            for i, name in enumerate(names)
        }
        while played < hands and min(match.chips) > 0:
            match.play_hand(agents)
            played += 1
        k += 1
    return openings, amounts


def test_seeded_first_round_bets_stay_small() -> None:
    """Over 50 seeded hands of 4 random bots (which bet anything legal) at 100 chips: an
    opening bet of the first round is at most the pot, 4 antes of 1 chip = 4 chips, and
    the median of the bets and raises (their increases) is at most 4 chips too, whereas
    the same bots uncapped bet a median of 25 chips (at most 360)."""
    openings, friendly = _first_round_bets(True, 50)
    _, wild = _first_round_bets(False, 50)
    assert openings and wild
    assert max(openings) <= 4
    assert statistics.median(friendly) <= 4
    assert statistics.median(wild) == 25


def test_game_night_tables_wrap_their_bots() -> None:
    """The table model's ``friendly_bots`` (set by ``primero serve``) wraps each bot;
    the wrapped bot pickles (the server decides in worker processes) and keeps its
    kind's name (the test fault of :mod:`primero.server.botpool` reads it)."""
    names, kinds = ["Ana", "Ben", "Cleo", "Dev"], [None, "heuristic", None, None]
    plain = TableModel(names, kinds, seed=1)
    friendly = TableModel(names, kinds, seed=1, friendly_bots=True)
    assert not isinstance(plain.agents[1], FriendlyBets)
    bot = friendly.agents[1]
    assert isinstance(bot, FriendlyBets)
    assert bot.name == "heuristic"
    again = pickle.loads(pickle.dumps(bot))
    assert isinstance(again, FriendlyBets) and again.name == "heuristic"
    assert friendly.friendly_bots and not plain.friendly_bots
    exploiters = TableModel(names, [None, "bluff", "uniform", None], seed=1, friendly_bots=True)
    assert not isinstance(exploiters.agents[1], FriendlyBets)  # they bet their own way
    assert not isinstance(exploiters.agents[2], FriendlyBets)
    assert Rules().ante == 1  # the bounds above count on it


def test_a_bot_the_host_seats_has_friendly_bet_sizes_too() -> None:
    from primero.server import seatchange

    bot = seatchange.friendly_bot("search")  # the host's bots and the removals' alike
    assert isinstance(bot, FriendlyBets) and bot.name == "search"
