"""The same seed gives the same game in every process (R10); different seeds differ."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

from primero.bots.random import RandomBot
from primero.engine.cards import DECK
from primero.engine.dealing import Dealer
from primero.engine.match import Match
from primero.engine.rules import Rules
from primero.engine.state import DEALER, HandState
from primero.engine.views import view

SCRIPT = """
import json, sys
from primero.bots.random import RandomBot
from primero.engine.match import Match
from primero.engine.rules import Rules

seed = int(sys.argv[1])
names = ["Ana", "Ben", "Cleo", "Dev", "Eve"]
m = Match(names, stacks=12, seed=seed, max_hands=8, rules=Rules(ties="split"))
agents = {name: RandomBot(seed=seed * 7 + i) for i, name in enumerate(names)}
while not m.over:
    m.play_hand(agents)
print(json.dumps({"lines": [r.actions for r in m.records],
                  "players": [list(r.players) for r in m.records],
                  "chips": m.chips}))
"""


def run_match(seed: int, hash_seed: str) -> dict[str, Any]:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(seed)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    data = json.loads(done.stdout)
    assert isinstance(data, dict)
    return data


def in_process(seed: int) -> dict[str, Any]:
    names = ["Ana", "Ben", "Cleo", "Dev", "Eve"]
    m = Match(names, stacks=12, seed=seed, max_hands=8, rules=Rules(ties="split"))
    agents = {name: RandomBot(seed=seed * 7 + i) for i, name in enumerate(names)}
    while not m.over:
        m.play_hand(agents)
    return {
        "lines": [r.actions for r in m.records],
        "players": [list(r.players) for r in m.records],
        "chips": m.chips,
    }


def test_same_seed_same_match_across_processes_and_hash_seeds() -> None:
    a = run_match(2024, "0")
    b = run_match(2024, "4242")
    c = run_match(2024, "123456789")
    assert a == b == c
    assert len(a["lines"]) == 8 or 0 in a["chips"]
    assert sum(a["chips"]) == 60
    assert all(lines for lines in a["lines"])
    assert in_process(2024) == a


def test_different_seeds_give_different_matches() -> None:
    a = run_match(1, "0")
    b = run_match(2, "0")
    assert a["lines"] != b["lines"]
    assert a["lines"][0][:10] != b["lines"][0][:10]


def test_dealer_draws_from_the_stock_with_random_only() -> None:
    class OnlyRandom:
        """A source with nothing but random(): the dealer and bots need no other method."""

        def __init__(self, seed: int) -> None:
            self._r = random.Random(seed)

        def random(self) -> float:
            return self._r.random()

    state = HandState(["Ana", "Ben", "Cleo", "Dev"], [20, 20, 20, 20])
    dealer = Dealer(OnlyRandom(99))
    dealer.deal_into(state)
    # The same draws, computed here: each card uniformly from the stock in deck order.
    r = random.Random(99)
    stock = list(DECK)
    expected = []
    for _ in range(8):
        expected.append(stock.pop(int(r.random() * len(stock))))
    dealt = [c for hand in state.hands for c in hand]
    assert dealt == expected
    bots = [RandomBot(rng=OnlyRandom(i)) for i in range(4)]
    while not state.complete:
        seat = state.to_act
        assert seat is not None
        state.apply(dealer.deal(state) if seat == DEALER else bots[seat](view(state, seat)))


def test_seeded_dealers_repeat_and_differ() -> None:
    def deals(seed: int) -> list[str]:
        state = HandState(["Ana", "Ben", "Cleo", "Dev"], [20, 20, 20, 20])
        Dealer.seeded(seed).deal_into(state)
        return state.lines()

    assert deals(5) == deals(5)
    assert deals(5) != deals(6)
    assert len({tuple(deals(s)) for s in range(20)}) == 20
