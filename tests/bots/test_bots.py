"""Bots (random, heuristic): always legal, deterministic for a seed, and the heuristic
plays sensibly and beats the random bot."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from primero.bots import BOT_KINDS, make_bot
from primero.bots.heuristic import HeuristicBot, best_exchange, win_table
from primero.bots.random import RandomBot
from primero.bots.winmodel import Range, bluff_share, first_round_values
from primero.engine.actions import (
    Action,
    Bet,
    Call,
    Declare,
    Exchange,
    Fold,
    Raise,
    Vote,
    parse_action,
)
from primero.engine.cards import DECK, Card, parse_cards
from primero.engine.dealing import Dealer
from primero.engine.hands import Category, evaluate
from primero.engine.match import Agent, Match
from primero.engine.odds import exchange_odds
from primero.engine.rules import Rules
from primero.engine.state import DEALER, HandState, Phase
from primero.engine.views import view


def _random_rules(rng: random.Random) -> Rules:
    return Rules(
        ante=rng.choice([0, 1, 2, 5]),
        ties=rng.choice(["eldest", "split"]),
        refusal=rng.random() < 0.6,
        last_round=rng.random() < 0.7,
        declarations=rng.random() < 0.7,
        first_round_stand=rng.random() < 0.4,
        first_round_zero_bet=rng.random() < 0.4,
        min_raise=rng.choice([1, 1, 2, 5, 25]),
        max_raises=rng.choice([None, None, 0, 1, 3]),
        min_players=2,
        max_players=8,
    )


def _play(state: HandState, dealer: Dealer, agents: list[Agent]) -> list[Action]:
    """Play a hand, checking every bot action with HandState.apply (raises if illegal)."""
    actions: list[Action] = []
    while not state.complete:
        seat = state.to_act
        assert seat is not None
        if seat == DEALER:
            dealer.deal_into(state)
            continue
        v = view(state, seat)
        assert v.legal is not None
        action = agents[seat](v)
        state.apply(action)
        actions.append(action)
        assert len(actions) < 3000, f"a hand that does not end: {state.lines()[-20:]}"
    return actions


def test_make_bot_kinds() -> None:
    assert BOT_KINDS == ("random", "heuristic", "search", "bluff", "uniform", "reference")
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("heuristic", None), HeuristicBot)
    with pytest.raises(ValueError, match="one of random, heuristic"):
        make_bot("perfect", 1)


def test_bots_refuse_to_act_out_of_turn() -> None:
    state = HandState(["A", "B", "C", "D"], [10] * 4)
    Dealer.seeded(1).deal_into(state)
    for bot in (RandomBot(seed=1), HeuristicBot(seed=1)):
        with pytest.raises(ValueError, match="outside its turn"):
            bot(view(state, 1))


def test_bots_only_return_legal_actions_under_random_house_rules() -> None:
    rng = random.Random(2024)
    kinds_seen: set[str] = set()
    for hand_no in range(300):
        rules = _random_rules(rng)
        n = rng.randint(2, 8)
        stacks = [rng.choice([1, 2, 5, 20, 100]) for _ in range(n)]
        state = HandState([f"P{i}" for i in range(n)], stacks, rules)
        agents: list[Agent] = [
            make_bot(rng.choice(BOT_KINDS), hand_no * 10 + i, search_samples=20) for i in range(n)
        ]
        _play(state, Dealer.seeded(hand_no), agents)
        assert state.result is not None
        assert sum(state.result.final_stacks) == sum(stacks)
        kinds_seen.update(line.split()[1] for line in state.lines() if not line.startswith("d"))
    # the hands covered every kind of move
    assert {"x", "b", "r", "c", "f", "y", "n", "dc"} <= kinds_seen


def test_heuristic_alone_at_a_table_stays_legal_over_matches() -> None:
    for seed in range(3):
        match = Match(["A", "B", "C", "D", "E", "F"], seed=seed, max_hands=60, stacks=40)
        agents = {name: HeuristicBot(seed=seed * 10 + i) for i, name in enumerate(match.players)}
        while not match.over:
            match.play_hand(agents)
        assert sum(match.chips) == 240


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_same_seed_same_decisions(kind: str) -> None:
    def run() -> list[str]:
        state = HandState(["A", "B", "C", "D", "E"], [30] * 5)
        agents = [make_bot(kind, 100 + i, search_samples=50) for i in range(5)]
        _play(state, Dealer.seeded(9), agents)
        return state.lines()

    first = run()
    assert first == run()
    assert len(first) > 10


def _net_by_kind(hands: int, kinds: list[str], seed: int) -> dict[str, int]:
    """Play ``hands`` hands in matches (a new one whenever one ends); chips won by kind."""
    names = [f"P{i}" for i in range(len(kinds))]
    agents = {
        n: make_bot(k, seed * 100 + i) for i, (n, k) in enumerate(zip(names, kinds, strict=True))
    }
    net = dict.fromkeys(kinds, 0)
    played = 0
    match_no = 0
    while played < hands:
        match = Match(names, seed=seed * 1000 + match_no)
        match_no += 1
        while not match.over and played < hands:
            record = match.play_hand(agents)
            del record
            played += 1
        for kind, chips in zip(kinds, match.chips, strict=True):
            net[kind] += chips - 100
    return net


def test_heuristic_beats_random_clearly() -> None:
    # duplicate matches of 20 hands: each deal seed is played twice, the heuristic bots
    # in seats 1 and 3, then in seats 2 and 4, so the cards' luck mostly cancels. Over
    # 25 seeds (1,000 hands) the heuristic bots win 5,100-5,700 chips (seeds 0, 500,
    # 900); before the fix of their votes and calls they won 2,000-2,900.
    won = 0
    for seed in range(25):
        for kinds in (["heuristic", "random"] * 2, ["random", "heuristic"] * 2):
            names = [f"P{i}" for i in range(4)]
            agents = {
                n: make_bot(k, seed * 10 + i)
                for i, (n, k) in enumerate(zip(names, kinds, strict=True))
            }
            match = Match(names, seed=seed, max_hands=20)
            while not match.over:
                match.play_hand(agents)
            assert sum(match.chips) == 400
            won += sum(c - 100 for k, c in zip(kinds, match.chips, strict=True) if k == "heuristic")
    assert won > 3_500, won


def test_heuristic_beats_random_heads_up() -> None:
    names = ["H", "R"]
    rules = Rules(min_players=2)
    won = 0
    for seed in range(6):
        match = Match(names, seed=seed, rules=rules, max_hands=50)
        agents: dict[str, Agent] = {"H": HeuristicBot(seed=seed), "R": RandomBot(seed=seed)}
        while not match.over:
            match.play_hand(agents)
        won += match.chips[0] - 100
    assert won > 150, won


# --------------------------------------------------------------------------- decisions


def _state(lines: list[str], stacks: list[int], rules: Rules | None = None) -> HandState:
    n = len(stacks)
    state = HandState([f"P{i}" for i in range(n)], stacks, rules or Rules(min_players=2))
    for line in lines:
        state.apply(parse_action(line, n))
    return state


_FOUR_DEALT = ["d dh p1 Kc Qd", "d dh p2 7h 6h", "d dh p3 Jc 2s", "d dh p4 3d 4d"]


def test_folds_weak_hand_to_a_big_bet_and_refuses_it() -> None:
    # p2 bets 60 into a pot of 4; p1 holds K Q offsuit, a weak start (R4.3)
    state = _state([*_FOUR_DEALT, "p1 x Kc", "d dh p1 Jd", "p2 b 60"], [100, 100, 100, 100])
    assert state.to_act == 2  # p3 votes first (R8)
    bot = HeuristicBot(seed=1)
    assert bot(view(state, 2)) == Vote(2, False)
    # p4 lets the bet stand (R8): p3, who refused it, folds at its turn
    state = _state(
        [*_FOUR_DEALT, "p1 x Kc", "d dh p1 Jd", "p2 b 60", "p3 n", "p4 y"],
        [100, 100, 100, 100],
    )
    assert state.to_act == 2
    assert bot(view(state, 2)) == Fold(2)


def test_strong_hand_accepts_and_calls() -> None:
    lines = [
        "d dh p1 7c 7d",
        "d dh p2 Kh Qh",
        "d dh p3 Jc 2s",
        "p1 b 1",
        "p2 y",
        "p2 c",
        "p3 c",
        "d dh p1 7h 7s",
        "d dh p2 2h 3c",
        "d dh p3 4s Kd",
    ]
    state = _state(lines, [100, 100, 100])
    bot = HeuristicBot(seed=1, bluff_rate=0.0)
    # p1 holds a chorus of sevens (84 points): declares it and bets for value
    assert bot(view(state, 0)) == Declare(0, Category.CHORUS)
    state.apply(Declare(0, Category.CHORUS))
    action = bot(view(state, 0))
    assert isinstance(action, Bet) and action.amount > 0
    # a raise to 50 after two declarations: p3's numerus of 26 refuses it (R8) ...
    state = _state([*lines, "p1 dc chorus", "p1 b 0", "p2 dc fluxus", "p2 r 50"], [100] * 3)
    assert evaluate(state.hands[2]).points == 26
    assert bot(view(state, 2)) == Vote(2, False)
    # ... and the chorus accepts a raise, then calls or raises
    state = _state([*lines, "p1 dc chorus", "p1 b 0", "p2 dc numerus", "p2 r 40"], [100] * 3)
    assert state.to_act == 2  # vote: p3 then p1
    state.apply(Vote(2, False))
    assert state.to_act == 0
    assert bot(view(state, 0)) == Vote(0, True)
    state.apply(Vote(0, True))
    state.apply(Fold(2))
    assert isinstance(bot(view(state, 0)), Call | Raise)


def test_declarations_truthful_or_higher() -> None:
    state = _state(
        [
            "d dh p1 7h 6h",
            "d dh p2 Kc Qd",
            "p1 b 1",
            "p2 c",
            "d dh p1 Ah 2c",
            "d dh p2 Jc 2s",
        ],
        [50, 50],
    )
    assert evaluate(state.hands[0]).category is Category.SUPREMUS
    assert HeuristicBot(seed=1, bluff_rate=0.0)(view(state, 0)) == Declare(0, Category.SUPREMUS)
    # R6: a bluff names one of the higher categories (fluxus or chorus), drawn uniformly
    bluffs = {HeuristicBot(seed=s, bluff_rate=1.0)(view(state, 0)) for s in range(20)}
    assert bluffs == {Declare(0, Category.FLUXUS), Declare(0, Category.CHORUS)}


def test_second_exchange_keeps_the_best_cards() -> None:
    state = _state(
        [
            "d dh p1 7h 6h",
            "d dh p2 Kc Qd",
            "p1 b 1",
            "p2 c",
            "d dh p1 5h Ks",
            "d dh p2 Jc 2s",
        ],
        [50, 50],
    )
    assert state.hands[0] == list(parse_cards("7h 6h 5h Ks"))
    state.apply(parse_action("p1 dc fluxus", 2))
    state.apply(parse_action("p1 b 0", 2))
    state.apply(parse_action("p2 dc numerus", 2))
    state.apply(parse_action("p2 c", 2))
    assert state.phase is Phase.SECOND_EXCHANGE
    assert HeuristicBot(seed=1)(view(state, 0)) == Exchange(0, parse_cards("Ks"))


def test_first_round_bets_strong_pair_and_exchanges_weak_card() -> None:
    state = _state(["d dh p1 7h 6h", "d dh p2 Kc Qd", "d dh p3 Jc Js"], [50, 50, 50])
    assert isinstance(HeuristicBot(seed=1)(view(state, 0)), Bet)
    state = _state(["d dh p1 7h Kc", "d dh p2 6h Qd", "d dh p3 Jc Js"], [50, 50, 50])
    assert HeuristicBot(seed=1)(view(state, 0)) == Exchange(0, parse_cards("Kc"))


def test_no_reckless_all_in_with_a_weak_hand() -> None:
    for seed in range(20):
        state = HandState(["A", "B", "C", "D"], [100] * 4)
        dealer = Dealer.seeded(seed)
        bots = [HeuristicBot(seed=seed * 4 + i) for i in range(4)]
        while not state.complete:
            seat = state.to_act
            assert seat is not None
            if seat == DEALER:
                dealer.deal_into(state)
                continue
            v = view(state, seat)
            action = bots[seat](v)
            if isinstance(action, Bet | Raise) and len(v.hand) == 4:
                put_in = action.amount - v.round_bets[seat]
                if put_in >= v.stacks[seat] and v.phase is Phase.LAST_ROUND:
                    assert evaluate(v.hand).category > Category.NUMERUS or (
                        evaluate(v.hand).points >= 45
                    ), (v.hand, action)
            state.apply(action)


def _refusals(hands: int, kinds: list[str], seed: int) -> tuple[int, int]:
    """``(bets or raises > 0 put to a vote, those refused by every voter)`` over ``hands``
    hands of seeded matches, read from the match records (R8)."""
    names = [f"P{i}" for i in range(len(kinds))]
    agents = {
        n: make_bot(k, seed * 100 + i) for i, (n, k) in enumerate(zip(names, kinds, strict=True))
    }
    voted = refused = played = match_no = 0
    while played < hands:
        match = Match(names, seed=seed * 1000 + match_no)
        match_no += 1
        while not match.over and played < hands:
            lines: list[str] = match.play_hand(agents).actions
            played += 1
            for i, line in enumerate(lines):
                seat, kind, *rest = line.split()
                if kind not in ("b", "r") or int(rest[0]) == 0:
                    continue
                votes = []
                for after in lines[i + 1 :]:
                    if after.split()[1] not in ("y", "n"):
                        break
                    votes.append(after.split()[1])
                if votes:
                    voted += 1
                    if "y" not in votes:  # withdrawn: the bettor takes the turn again
                        refused += 1
                        assert lines[i + 1 + len(votes)].split()[0] == seat
    return voted, refused


@pytest.mark.parametrize("pair", ["5h 4c", "Ac Kd", "6h 5c", "7c Kd", "7h 6h"])
@pytest.mark.parametrize("seed", range(3))
def test_middling_hand_lets_a_modest_bet_stand(pair: str, seed: int) -> None:
    # p1 bets 2 into the 4 antes (half the pot); p2's pair is about average or better.
    # With 19 chips behind, a call of 2 is no token call; the pot odds are 2 to win 8
    # (0.25), and against the bettor alone (the others have not answered the bet) an
    # average pair wins about a third of the time: p2 accepts, meaning to call (R8)
    state = _state(
        ["d dh p1 Jc 2s", f"d dh p2 {pair}", "d dh p3 Kc Qd", "d dh p4 3d 4d", "p1 b 2"],
        [20, 20, 20, 20],
    )
    assert state.to_act == 1
    assert HeuristicBot(seed=seed)(view(state, 1)) == Vote(1, True)


@pytest.mark.parametrize("pair", ["Kc Qd", "Jc 2s", "Kc Jd"])
@pytest.mark.parametrize("stack", [20, 100])
def test_weak_hand_refuses_a_bet_of_its_whole_stack(pair: str, stack: int) -> None:
    # p1 bets everything it has left (R5), which is also everything p2 has left
    dealt = ["d dh p1 7h 6h", f"d dh p2 {pair}", "d dh p3 5h 4c", "d dh p4 3d 4d"]
    state = _state([*dealt, f"p1 b {stack - 1}"], [stack] * 4)
    assert state.to_act == 1 and state.stacks[1] == stack - 1
    for seed in range(3):
        assert HeuristicBot(seed=seed)(view(state, 1)) == Vote(1, False)


def test_heuristic_bots_do_not_refuse_every_bet() -> None:
    # R8 is for bets the others find too high. A heuristic bot accepts exactly the bets
    # it would call; its bets are a third to four fifths of the
    # pot, capped by a share of its stack, and it reads declarations as upper bounds, so
    # few of its bets put to a vote are refused by all (11 of 346 over these 400 hands
    # as first measured). Never none, never many
    voted, refused = _refusals(400, ["heuristic"] * 4, seed=7)
    assert voted > 100
    assert 0 < refused < 0.25 * voted, (refused, voted)


# --------------------------------------------------------------------------- odds


@pytest.mark.parametrize("hand", ["7h 6h 5h Kc", "7h 6h Ah 2c", "Kc Qd Jh 2s", "Jc Qc 2d 3h"])
@pytest.mark.parametrize("category", list(Category))
def test_exchange_enumeration_agrees_with_primero_odds(hand: str, category: Category) -> None:
    # scoring each hand 1 when it is of ``category``: the best expected value is the best
    # probability of that category over the 11 choices of primero.engine.odds
    cards = parse_cards(hand)
    unseen = [c for c in DECK if c not in cards]
    wins = [0.0] * 640
    for key in range(640):
        if key // 128 == category:
            wins[key] = 1.0
    value, _ = best_exchange(cards, unseen, wins)
    odds = exchange_odds(cards)
    assert value == pytest.approx(max(c.probability(category) for c in odds.choices))


def test_win_table_is_monotone_and_reads_declarations_as_upper_bounds() -> None:
    plain = win_table([None, None])
    keys = sorted({evaluate(parse_cards(h)).key for h in ("Kc Qd Jh 2s", "7h 6h Ah 2c")})
    assert plain[keys[0]] < plain[keys[1]]
    primero_key = evaluate(parse_cards("7c 6d Ah 5s")).key
    fluxus_key = evaluate(parse_cards("Kh Qh Jh 7h")).key
    # R6: a declaration is the truth or higher. A chorus may be anything: no information
    assert list(win_table([Category.CHORUS])) == list(win_table([None]))
    # a numerus declaration caps the hand: the weakest primero (K Q J 2, 42 points)
    # beats it nearly always (the rest is the chance that it improved at the exchange
    # since, EXCHANGE_LEAK = 0.15), and an unknown hand less often
    weak_primero = evaluate(parse_cards("Kc Qd Jh 2s")).key
    against_numerus = win_table([Category.NUMERUS])[weak_primero]
    assert against_numerus > 0.85 > win_table([None])[weak_primero]
    # the lower the declaration, the better any hand's chances
    for key in (primero_key, fluxus_key):
        chances = [win_table([c])[key] for c in Category]
        assert chances == sorted(chances, reverse=True)
    assert win_table([Category.FLUXUS])[fluxus_key] > win_table([Category.FLUXUS])[primero_key]


def test_bettor_ranges_hold_more_bluffs_for_bigger_bets() -> None:
    # bluff share bet / (pot + 2 bet): half the pot 1/4, the pot 1/3, an all-in of 99
    # into 4 chips 99/202 (rounded to 0.05, at least 0.2)
    assert bluff_share(5, 10) == 0.25 and bluff_share(10, 10) == 0.35
    assert bluff_share(99, 4) == 0.5 and bluff_share(1, 100) == 0.2
    small = win_table([Range(None, "bet", 0.2)])
    big = win_table([Range(None, "bet", 0.5)])
    plain = win_table([None])
    assert all(s <= b + 1e-15 and b <= p + 1e-15 for s, b, p in zip(small, big, plain, strict=True))
    primero_key = evaluate(parse_cards("7c 6d Ah 5s")).key
    assert small[primero_key] < big[primero_key] < plain[primero_key]


def _scaled_wins(wins: list[float]) -> list[int]:
    """The win chances in the bot's whole-number units (2**24 per 1, rounded to even)."""
    return [int(x) for x in np.rint(np.array(wins) * 2**24)]


def _brute_force_best(
    hand: tuple[Card, ...], dead: tuple[Card, ...], ints: list[int], max_discard: int
) -> tuple[Fraction, tuple[Card, ...]]:
    """The best mean of ``ints`` over the draws of each exchange, by plain enumeration."""
    unseen = [c for c in DECK if c not in hand and c not in dead]
    best: tuple[Fraction, tuple[Card, ...]] | None = None
    for thrown in range(max_discard + 1):
        for discard in combinations(hand, thrown):
            keep = tuple(c for c in hand if c not in discard)
            draws = list(combinations(unseen, thrown))
            mean = Fraction(sum(ints[evaluate(keep + d).key] for d in draws), len(draws))
            if best is None or mean > best[0]:  # on equal means the earlier choice
                best = (mean, discard)
    assert best is not None
    return best


@pytest.mark.parametrize("seed", range(16))
def test_best_exchange_equals_brute_force(seed: int) -> None:
    # the bot's exchange, scored against several (declared) opponents, from the shared
    # enumeration of primero.engine.odds: the same value and choice as a plain enumeration
    rng = random.Random(seed)
    cards = rng.sample(DECK, 4 + rng.choice([0, 1, 2, 4]))
    hand, dead = tuple(cards[:4]), tuple(cards[4:])
    opponents = [rng.choice([None, *Category]) for _ in range(rng.randint(1, 5))]
    wins = win_table(opponents).tolist()
    max_discard = rng.choice([0, 1, 2, 2])
    unseen = [c for c in DECK if c not in cards]
    value, discard = best_exchange(hand, unseen, wins, max_discard)
    mean, expected = _brute_force_best(hand, dead, _scaled_wins(wins), max_discard)
    assert discard == expected
    assert value == float(mean) / 2**24


@pytest.mark.parametrize(("pair", "k"), [("7h 6h", 1), ("Kc 2d", 3), ("5s 5c", 2)])
def test_first_round_values_equal_brute_force(pair: str, k: int) -> None:
    # keeping both, either card or none, then the second deal: every draw from the 38
    # cards other than the pair (the discards do not come back), against k opponents
    a, b = parse_cards(pair)
    ints = _scaled_wins(win_table([None] * k).tolist())
    rest = [c for c in DECK if c not in (a, b)]

    def mean(keep: tuple[Card, ...]) -> float:
        draws = list(combinations(rest, 4 - len(keep)))
        total = sum(ints[evaluate(keep + d).key] for d in draws)
        return float(Fraction(total, len(draws))) / 2**24

    expected = (mean((a, b)), mean((a,)), mean((b,)), mean(()))
    assert first_round_values(a, b, (None,) * k) == expected
    swapped = (expected[0], expected[2], expected[1], expected[3])
    assert first_round_values(b, a, (None,) * k) == swapped
