"""The search bot: views only, legal moves, seeded, sound decisions."""

from __future__ import annotations

import random

import pytest

from primero.bots import make_bot
from primero.bots.heuristic import HeuristicBot
from primero.bots.search import SearchBot
from primero.bots.strength import hand_key, strength_table
from primero.engine.actions import Action, Call, Declare, Fold, Raise, Vote
from primero.engine.cards import parse_cards
from primero.engine.dealing import Dealer
from primero.engine.hands import Category, evaluate
from primero.engine.match import Agent, play_hand
from primero.engine.rules import Rules
from primero.engine.state import DEALER, HandState, Phase
from primero.engine.views import HIDDEN, view


def _state(players: int, lines: list[str], stack: int = 100) -> HandState:
    state = HandState([f"P{i}" for i in range(players)], [stack] * players)
    for line in lines:
        state.apply(line)
    return state


# A heads-up hand up to the last round: p1 holds four sevens (the best chorus, R2),
# p2 a numerus of 20 points (J Q of clubs, the lowest hand there is).
_HEADS_UP = [
    "d dh p1 7c 7d",
    "d dh p2 Jc Qc",
    "p1 b 1",
    "p2 c",
    "d dh p1 7h 7s",
    "d dh p2 Kd 2h",
    "p1 dc chorus",
    "p1 b 1",
    "p2 dc numerus",
    "p2 c",
    "p1 x",
    "p2 x",
]


def test_best_hand_never_folds_and_raises_a_raise() -> None:
    state = _state(2, [*_HEADS_UP, "p1 b 0", "p2 r 40"])
    assert evaluate(state.hands[0]).points == 84
    for seed in range(5):
        action = SearchBot(seed=seed, samples=60)(view(state, 0))
        # nothing beats four sevens: folding loses the pot, calling wins 40 more
        assert isinstance(action, Raise | Call), action


def test_lowest_hand_folds_to_a_big_bet_heads_up() -> None:
    state = _state(2, [*_HEADS_UP, "p1 b 60"])
    assert evaluate(state.hands[1]).key == hand_key([p.id for p in parse_cards("Jc Qc Kd 2h")])
    for seed in range(5):
        assert SearchBot(seed=seed, samples=60)(view(state, 1)) == Fold(1)


def _four_handed(p2_cards: str, p4_cards: str) -> HandState:
    """p3 faces a bet of 6 in the first round; p2's and p4's cards vary."""
    return _state(
        4,
        [
            "d dh p1 Ac 6c",
            f"d dh p2 {p2_cards}",
            "d dh p3 7d 6d",
            f"d dh p4 {p4_cards}",
            "p1 b 6",
            "p2 y",
            "p2 c",
        ],
    )


def test_decisions_depend_on_the_view_only() -> None:
    """Two hands that differ only in cards p3 cannot see give p3 the same view, and the
    search bot (same seed) the same action: it reads nothing hidden (R9b)."""
    one = _four_handed("Kh Qs", "2s 3h")
    two = _four_handed("5s 5h", "Jh Js")
    v1, v2 = view(one, 2), view(two, 2)
    assert v1 == v2
    assert f"d dh p2 {HIDDEN} {HIDDEN}" in v1.log and "d dh p3 7d 6d" in v1.log
    for seed in range(3):
        assert SearchBot(seed=seed, samples=80)(v1) == SearchBot(seed=seed, samples=80)(v2)


def test_samples_respect_the_view() -> None:
    """Sampled opponent hands avoid the seat's own cards and discards, and a declared
    numerus (R6) is a numerus."""
    state = _state(
        4,
        [
            "d dh p1 Ac 6c",
            "d dh p2 Kh Qs",
            "d dh p3 7d 6d",
            "d dh p4 2s 3h",
            "p1 x Ac",
            "d dh p1 4c",
            "p2 b 2",
            "p3 y",
            "p3 c",
            "p4 c",
            "p1 c",
            "d dh p1 5c 5d",
            "d dh p2 Jd Kd",
            "d dh p3 2d 3d",
            "d dh p4 4h 5s",
            "p1 dc numerus",
            "p1 b 2",
            "p2 n",
        ],
    )
    bot = SearchBot(seed=3, samples=200)
    v = view(state, 2)
    assert v.legal is not None and v.legal.vote
    others = tuple(s for s in v.still_in if s != 2)
    samples = bot._sample(v, bot._spot(v, 2, others))
    mine = {c.id for c in v.hand}
    assert mine == {c.id for c in parse_cards("7d 6d 2d 3d")}
    for x in samples:
        held = [c for s in others for c in x.cards[s]]
        assert len(held) == len(set(held)) == 12
        assert not mine & set(held)
        assert hand_key(x.cards[0]) < 128  # p1 declared numerus: a numerus
        assert all(0 <= k < 640 for s, k in enumerate(x.final) if s in (0, 1, 2, 3))
    # p1's discarded Ac is unseen by p3: it may be dealt to anyone in a sample
    assert any(0 in x.cards[1] or 0 in x.cards[3] for x in samples)


def _play(agents: list[Agent], players: int, seed: int, rules: Rules, stack: int) -> HandState:
    state = HandState([f"P{i}" for i in range(players)], [stack] * players, rules)
    play_hand(state, Dealer.seeded(seed), agents)  # apply() checks every action
    return state


@pytest.mark.parametrize("seed", range(6))
def test_only_legal_moves_under_random_house_rules(seed: int) -> None:
    rng = random.Random(seed)
    players = rng.choice([2, 3, 4, 6, 8])
    rules = Rules(
        ties=rng.choice(["eldest", "split"]),
        refusal=rng.random() < 0.7,
        last_round=rng.random() < 0.8,
        declarations=rng.random() < 0.8,
        first_round_stand=rng.random() < 0.3,
        first_round_zero_bet=rng.random() < 0.3,
        min_raise=rng.choice([1, 2, 5]),
        max_raises=rng.choice([None, 1, 3]),
        max_players=8,
    )
    for hand in range(4):
        agents: list[Agent] = [
            SearchBot(seed=100 * seed + s, samples=30)
            if s % 2 == 0
            else make_bot(rng.choice(["random", "heuristic"]), s)
            for s in range(players)
        ]
        state = _play(agents, players, 1000 * seed + hand, rules, rng.choice([5, 30, 100]))
        assert state.complete


def test_same_seed_same_game() -> None:
    def lines(seed: int) -> list[str]:
        agents: list[Agent] = [SearchBot(seed=seed + s, samples=40) for s in range(4)]
        return _play(agents, 4, 11, Rules(), 100).lines()

    assert lines(5) == lines(5)


@pytest.mark.soak
def test_beats_the_heuristic_bot_over_duplicate_hands() -> None:
    """60 seeded deals, each played twice with the seats swapped (duplicate): the search
    bot (two seats of four) wins chips from the heuristic bot."""
    total = 0
    for deal in range(60):
        for swap in (0, 1):
            agents: list[Agent] = [
                SearchBot(seed=deal * 8 + s, samples=60)
                if (s + swap) % 2 == 0
                else HeuristicBot(seed=deal * 8 + s)
                for s in range(4)
            ]
            state = _play(agents, 4, deal, Rules(), 100)
            assert state.result is not None
            total += sum(state.result.net[s] for s in range(4) if (s + swap) % 2 == 0)
    assert total > 0


def test_strength_tables_by_hand() -> None:
    table = strength_table((None,))
    # four sevens beat any single random hand; a numerus of 20 almost never does
    sevens = [c.id for c in parse_cards("7c 7d 7h 7s")]
    lowest = [c.id for c in parse_cards("Jc Qc Kd 2h")]
    assert table.strength(sevens, exchange_ahead=False) > 0.99
    assert table.strength(lowest, exchange_ahead=False) < 0.01
    # with an exchange ahead the lowest hand can still draw: it is worth more
    assert table.strength(lowest, exchange_ahead=True) > 0.05
    # a primero (one card of each suit) stands pat
    primero = sorted(c.id for c in parse_cards("7c 6d Ah 5s"))
    assert table.best_keep(primero) == tuple(primero)
    held = [c.id for c in parse_cards("7h 6h Ah Kd")]
    assert evaluate(parse_cards("7h 6h Ah Kd")).category is Category.SUPREMUS
    # A 6 7 of hearts + Kd: throwing the Kd cannot lose (another suit: supremus again,
    # a heart: fluxus), so the Kd goes
    assert table.best_keep(held) == tuple(sorted(c.id for c in parse_cards("7h 6h Ah")))
    # a known public exchange of one card: exactly one card goes
    kept = table.best_keep([c.id for c in parse_cards("Jc Qc Kc 7d")], exact=1)
    assert len(kept) == 3


def test_refuses_to_act_out_of_turn_and_checks_samples() -> None:
    state = _state(4, ["d dh p1 Ac 6c"])
    assert state.to_act == DEALER
    with pytest.raises(ValueError, match="outside its turn"):
        SearchBot(seed=1)(view(state, 0))
    with pytest.raises(ValueError, match="samples must be at least 1"):
        SearchBot(seed=1, samples=0)


def test_declares_and_votes_legally_at_every_point() -> None:
    """A hand where the search bot must vote and declare: its answers are of the asked
    kind (R6 declarations never below the hand)."""
    state = _state(
        4,
        [
            "d dh p1 Ac 6c",
            "d dh p2 Kh Qs",
            "d dh p3 7d 6d",
            "d dh p4 2s 3h",
            "p1 b 3",
        ],
    )
    vote = SearchBot(seed=2, samples=50)(view(state, 1))
    assert isinstance(vote, Vote)
    state = _state(
        4,
        [
            "d dh p1 Ac 6c",
            "d dh p2 Kh Qs",
            "d dh p3 7d 6d",
            "d dh p4 2s 3h",
            "p1 b 3",
            "p2 y",
            "p2 c",
            "p3 c",
            "p4 c",
            "d dh p1 7c 2c",
            "d dh p2 Jd Kd",
            "d dh p3 2d 3d",
            "d dh p4 4h 5s",
        ],
    )
    assert state.phase is Phase.DECLARE_ROUND
    action = SearchBot(seed=2, samples=50)(view(state, 0))
    assert isinstance(action, Declare)
    assert action.category >= evaluate(state.hands[0]).category  # fluxus of clubs
    assert isinstance(action, Action)


def test_a_person_can_play_against_search_bots() -> None:
    """``primero play --bots search``: the table makes search bots from the registry."""
    from primero.play.table import Table, TableConfig

    table = Table(TableConfig(players=4, seed=5, max_hands=1, bots=("search",)))
    table.start_hand()
    table.advance()
    assert table.waiting_for_human()
    v = table.view()
    table.act(table.parse_input("x " + str(v.hand[0])))
    table.advance()


def _evaluation(split: bool, keys: list[list[int]], w: float) -> object:
    import numpy as np

    from primero.bots.search_eval import Evaluation

    return Evaluation(
        me=1,
        opponents=(0, 2),
        pot=30,
        stacks=(100, 100, 100),
        round_bets=(0, 0, 0),
        ties_split=split,
        weights=np.ones(len(keys)),
        final=np.array(keys, dtype=np.int64),
        believed=np.full((len(keys), 2), w),
        baseline=np.full(2, 0.3),
    )


def test_showdown_shares_follow_r7() -> None:
    """Seat p2 (index 1) between p1 and p3: a tie with p1 loses to the eldest, a tie with
    p3 wins; split ties share the pot (R7)."""
    import numpy as np

    from primero.bots.search_eval import Evaluation

    keys = [[300, 300, 100], [100, 300, 300], [100, 300, 200], [400, 300, 100]]
    eldest = _evaluation(False, keys, 1.0)
    split = _evaluation(True, keys, 1.0)
    assert isinstance(eldest, Evaluation) and isinstance(split, Evaluation)
    callers = np.ones((4, 2), dtype=np.bool_)
    assert eldest.share(callers).tolist() == [0.0, 1.0, 1.0, 0.0]
    assert split.share(callers).tolist() == [0.5, 0.5, 1.0, 0.0]
    # a bet of 20 into 30: both opponents (sure they win) call, 30 + 3 * 20 = 90 chips
    assert eldest.values(20).tolist() == [-20.0, 70.0, 70.0, -20.0]
    # opponents sure to lose fold: the pot of 30 is this seat's whatever its cards
    hopeless = _evaluation(False, keys, 0.0)
    assert isinstance(hopeless, Evaluation)
    assert hopeless.values(20).tolist() == [30.0] * 4
