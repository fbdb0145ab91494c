"""Hand evaluation throughput: scalar ``evaluate``, ``evaluate_batch``, and pokerkit's.

Run as ``python benchmarks/bench_eval.py``. Prints hands per second (best of several
runs, one core) for:

* ``primero.evaluate`` on tuples of 4 :class:`~primero.engine.cards.Card`: 200,000 random
  hands (the headline figure), and 1,000 hands cycled (tables warm in the caches);
* ``primero.engine.batch.evaluate_batch`` on ``n = 10**6`` random hands, as ``int64`` and as
  ``uint8`` id arrays (validation included);
* pokerkit's 5-card high-hand evaluation of the same run, as the peer figure: the hand
  type (``StandardHighHand(cards).entry``) and the lookup it uses
  (``StandardHighHand.lookup.get_entry(cards)``), on pre-parsed random 5-card hands;
  skipped with a note when pokerkit (``pip install -e '.[bench]'``) is missing;

then the ratios, and the one-time cost of building the evaluators' tables.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from primero.engine import hands as hands_module
from primero.engine.batch import _build_tables, evaluate_batch
from primero.engine.cards import DECK, Card
from primero.engine.hands import evaluate


def best_time(run: Callable[[], object], repeat: int) -> float:
    """The shortest wall time of ``repeat`` calls of ``run``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def scalar_rate(hands: Sequence[tuple[Card, ...]]) -> float:
    """Hands per second of ``evaluate`` over ``hands``."""

    def run() -> None:
        for hand in hands:
            evaluate(hand)

    return len(hands) / best_time(run, 7)


def batch_rate(ids: np.ndarray[Any, Any]) -> float:
    """Hands per second of ``evaluate_batch`` on an (n, 4) id array."""
    return len(ids) / best_time(lambda: evaluate_batch(ids), 20)


def pokerkit_rates(count: int) -> tuple[float, float] | None:
    """Hands per second of pokerkit's hand type and of its lookup, or None if absent."""
    try:
        pokerkit = importlib.import_module("pokerkit")
    except ImportError:
        return None
    hand_type = pokerkit.StandardHighHand
    deck = list(pokerkit.Deck.STANDARD)
    rng = random.Random(2)
    hands = [tuple(rng.sample(deck, 5)) for _ in range(count)]
    lookup = hand_type.lookup

    def run_hand_type() -> None:
        for hand in hands:
            hand_type(hand).entry  # noqa: B018  (the evaluation is the point)

    def run_lookup() -> None:
        for hand in hands:
            lookup.get_entry(hand)

    return count / best_time(run_hand_type, 3), count / best_time(run_lookup, 3)


def row(label: str, rate: float) -> None:
    """Print one aligned figure in millions of hands per second."""
    print(f"{label:<64} {rate / 1e6:9.3f} M hands/s")


def main() -> None:
    """Measure and print the figures."""
    rng = random.Random(1)
    hands = [tuple(rng.sample(DECK, 4)) for _ in range(200_000)]
    scalar = scalar_rate(hands)
    row("primero.evaluate (4-card tuples, 200,000 random hands)", scalar)
    row(
        "primero.evaluate (the same 1,000 hands 200 times, cache-warm)",
        scalar_rate(hands[:1000] * 200),
    )

    n = 10**6
    generator = np.random.default_rng(0)
    ids64 = np.argsort(generator.random((n, 40)), axis=1)[:, :4].astype(np.int64)
    batch64 = batch_rate(ids64)
    batch8 = batch_rate(ids64.astype(np.uint8))
    row("primero.evaluate_batch (n = 10**6, int64 ids)", batch64)
    row("primero.evaluate_batch (n = 10**6, uint8 ids)", batch8)

    peer = pokerkit_rates(50_000)
    if peer is None:
        print("pokerkit is not installed (pip install -e '.[bench]'): peer figure skipped")
    else:
        hand_type, lookup = peer
        row("pokerkit StandardHighHand(cards).entry (5 cards)", hand_type)
        row("pokerkit StandardHighHand.lookup.get_entry (5 cards)", lookup)
        for name, peer_rate in (("hand type", hand_type), ("lookup", lookup)):
            print(
                f"ratio to pokerkit {name}: scalar {scalar / peer_rate:.1f}x, "
                f"batch int64 {batch64 / peer_rate:.0f}x, batch uint8 {batch8 / peer_rate:.0f}x"
            )

    table = best_time(hands_module._build_table, 3)
    tables = best_time(_build_tables, 3)
    print(f"one-time table builds: scalar {table * 1e3:.0f} ms, batch {tables * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
