"""Latency of the heuristic bot's decisions, by kind of decision (ms per decision).

Run as ``python benchmarks/bench_heuristic.py [HANDS]``. Plays HANDS seeded hands
(default 300) of six heuristic bots in matches and times every call of the bot, grouped by
the kind of move it returned; prints the count, the median, the 99th percentile and the
maximum in milliseconds. The first decisions of a process fill the bot's caches (the win
model per set of opponents, the exact exchange enumeration per hand), so the maximum is
a cold one.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict

from primero.bots.heuristic import HeuristicBot
from primero.engine.match import Match
from primero.engine.state import DEALER
from primero.engine.views import view


def main(hands: int = 300) -> None:
    """Play ``hands`` hands and print the decision latencies (ms) per kind of move."""
    names = [f"P{i}" for i in range(6)]
    bots = {name: HeuristicBot(seed=i) for i, name in enumerate(names)}
    times: dict[str, list[float]] = defaultdict(list)
    played = match_no = 0
    while played < hands:
        match = Match(names, seed=match_no)
        match_no += 1
        while not match.over and played < hands:
            state = match.start_hand()
            while not state.complete:
                seat = state.to_act
                if seat == DEALER:
                    match.dealer.deal_into(state)
                    continue
                assert seat is not None
                seat_view = view(state, seat)
                started = time.perf_counter()
                action = bots[state.players[seat]](seat_view)
                times[action.line().split()[1]].append(time.perf_counter() - started)
                state.apply(action)
            match.finish_hand()
            played += 1
    print(f"heuristic bot, {played} hands of 6 players: ms per decision")
    print(f"{'move':>5} {'count':>7} {'median':>8} {'p99':>8} {'max':>8}")
    everything = sorted(t for values in times.values() for t in values)
    for kind, values in [*sorted(times.items()), ("all", everything)]:
        values = sorted(values)
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        print(
            f"{kind:>5} {len(values):>7} {1000 * statistics.median(values):>8.3f} "
            f"{1000 * p99:>8.3f} {1000 * values[-1]:>8.3f}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
