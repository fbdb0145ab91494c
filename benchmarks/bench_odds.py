"""Latency of the odds decisions of :mod:`primero.engine.odds`, per decision type.

Run as ``python benchmarks/bench_odds.py``. For each kind of question, times it on many
random hands (random own cards, random dead cards where stated) and prints the median
and the maximum latency in milliseconds, and the first call's (after the import, which
builds the tables). The target is under 10 ms for any single exchange decision, and well
under 1 ms for the shared enumeration :func:`primero.engine.odds.exchange_outcomes` of 4 cards,
which the heuristic bot scores at every exchange decision (the last row: the bot's own
scoring included).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from primero.bots.heuristic import best_exchange, win_table
from primero.engine.cards import DECK, Card
from primero.engine.odds import exchange_odds, exchange_outcomes, showdown_odds

Question = Callable[[tuple[Card, ...], tuple[Card, ...]], object]


def measure(
    label: str, question: Question, own: int, dead: tuple[int, int], hands: int, seed: int
) -> None:
    """Time ``question(own cards, dead cards)`` on ``hands`` random deals and print it.

    Args:
        label: the row's name.
        question: the call to time.
        own: how many own cards to deal.
        dead: the range (inclusive) of the number of dead cards to deal.
        hands: how many random deals to time.
        seed: the seed of the deals.
    """
    rng = random.Random(seed)
    times = []
    for _ in range(hands):
        cards = rng.sample(DECK, own + dead[1])
        n_dead = rng.randint(dead[0], dead[1])
        mine, gone = tuple(cards[:own]), tuple(cards[own : own + n_dead])
        start = time.perf_counter()
        question(mine, gone)
        times.append((time.perf_counter() - start) * 1e3)
    print(
        f"{label:<50} first {times[0]:7.3f}  median {statistics.median(times):7.3f}"
        f"  max {max(times):7.3f}  ms  ({hands} hands)"
    )


def main() -> None:
    """Time every decision type."""
    start = time.perf_counter()
    exchange_odds("7h 6h Ah 2c")
    print(f"first call after import: {(time.perf_counter() - start) * 1e3:.1f} ms")
    measure("exchange, 4 cards (11 choices), no dead", exchange_odds, 4, (0, 0), 300, 1)
    measure("exchange, 4 cards, 1-4 dead (own discards)", exchange_odds, 4, (1, 4), 300, 2)
    measure("exchange, 2 cards (4 choices, second deal)", exchange_odds, 2, (0, 0), 300, 3)
    measure("exchange, 2 cards, 1-2 dead", exchange_odds, 2, (1, 2), 300, 4)
    measure("exchange outcomes, 4 cards (shared enumeration)", exchange_outcomes, 4, (0, 0), 300, 9)
    measure("exchange outcomes, 4 cards, 1-4 dead", exchange_outcomes, 4, (1, 4), 300, 10)
    measure("exchange outcomes, 2 cards (second deal)", exchange_outcomes, 2, (0, 2), 300, 11)
    wins = win_table([None, None, None])

    def bot(own: tuple[Card, ...], dead: tuple[Card, ...]) -> object:
        return best_exchange(own, [c for c in DECK if c not in own and c not in dead], wins)

    measure("heuristic bot exchange, 4 cards, 3 opponents", bot, 4, (0, 4), 300, 12)
    measure("showdown, 1 opponent (exact)", showdown_odds, 4, (0, 2), 300, 5)

    def two(own: tuple[Card, ...], dead: tuple[Card, ...]) -> object:
        return showdown_odds(own, dead, opponents=2)

    def three(own: tuple[Card, ...], dead: tuple[Card, ...]) -> object:
        return showdown_odds(own, dead, opponents=3, trials=20_000)

    def five(own: tuple[Card, ...], dead: tuple[Card, ...]) -> object:
        return showdown_odds(own, dead, opponents=5, trials=20_000)

    measure("showdown, 2 opponents (exact)", two, 4, (0, 2), 100, 6)
    measure("showdown, 3 opponents (Monte Carlo, 20,000 deals)", three, 4, (0, 2), 30, 7)
    measure("showdown, 5 opponents (Monte Carlo, 20,000 deals)", five, 4, (0, 2), 30, 8)


if __name__ == "__main__":
    main()
