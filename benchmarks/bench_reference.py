"""Decision time of the reference agent beside the heuristic bot's, against its limit.

Run as ``python benchmarks/bench_reference.py [HANDS]``. Plays HANDS seeded hands (default
500) at 4 seats of 100 chips, two reference agents against two heuristic bots (seats
alternating), timing every decision of each; prints the count, mean, median, 99th
percentile and maximum in milliseconds and the share of reference decisions within the
limit of 1 ms (docs/research.md, "The reference agent"). The first decisions of a
process fill the win model's caches, so the maximum is a cold one.
"""

from __future__ import annotations

import statistics
import sys
import time

from primero.bots.heuristic import HeuristicBot
from primero.bots.reference import ReferenceBot
from primero.engine.actions import Action
from primero.engine.dealing import Dealer
from primero.engine.match import Agent, play_hand
from primero.engine.state import HandState
from primero.engine.views import SeatView

LIMIT_MS = 1.0


def main(hands: int = 500) -> None:
    """Play ``hands`` hands and print the decision times (ms) of both kinds."""
    times: dict[str, list[float]] = {"reference": [], "heuristic": []}

    def timed(bot: Agent, kind: str) -> Agent:
        def decide(seat_view: SeatView) -> Action:
            started = time.perf_counter()
            action = bot(seat_view)
            times[kind].append(time.perf_counter() - started)
            return action

        return decide

    for hand in range(hands):
        bots = [
            timed(ReferenceBot(seed=4 * hand), "reference"),
            timed(HeuristicBot(seed=4 * hand + 1), "heuristic"),
            timed(ReferenceBot(seed=4 * hand + 2), "reference"),
            timed(HeuristicBot(seed=4 * hand + 3), "heuristic"),
        ]
        play_hand(HandState(["p1", "p2", "p3", "p4"], [100] * 4), Dealer.seeded(hand), bots)
    print(f"{hands} hands, 4 seats: ms per decision (limit {LIMIT_MS} ms)")
    print(
        f"{'bot':>10} {'count':>7} {'mean':>7} {'median':>7} {'p99':>7} {'max':>7} {'<=limit':>8}"
    )
    for kind, values in times.items():
        values = sorted(values)
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        within = sum(v * 1000 <= LIMIT_MS for v in values) / len(values)
        print(
            f"{kind:>10} {len(values):>7} {1000 * statistics.fmean(values):>7.3f} "
            f"{1000 * statistics.median(values):>7.3f} {1000 * p99:>7.3f} "
            f"{1000 * values[-1]:>7.3f} {100 * within:>7.2f}%"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
