"""Latency of the search bot's decisions, per setting (samples per decision).

Run as ``python benchmarks/bench_search.py [--hands N] [--samples 1000,200,100]``. For
each setting it plays ``N`` seeded 4-seat hands, search bots in seats 1 and 3 and
heuristic bots in seats 2 and 4, times every decision of the search bots, and prints the
median, the 95th percentile and the maximum in milliseconds, split into searched
decisions (bets, calls, votes, declarations) and the ones it hands to the heuristic
(exchanges: exact odds). The target is under one second for any decision at the default
setting (:data:`primero.bots.search.DEFAULT_SAMPLES`). The first decisions of a process
build the strength tables (about 0.5 s once, then about 20 ms per new set of
declarations); they are included.
"""

from __future__ import annotations

import argparse
import statistics
import time

from primero.bots.heuristic import HeuristicBot
from primero.bots.search import DEFAULT_SAMPLES, SearchBot
from primero.engine.dealing import Dealer
from primero.engine.match import Agent
from primero.engine.state import DEALER, HandState, Phase
from primero.engine.views import view


def measure(samples: int, hands: int) -> None:
    """Play ``hands`` hands and print the decision latencies of the search bots."""
    searched: list[float] = []
    delegated: list[float] = []
    for deal in range(hands):
        agents: list[Agent] = [
            SearchBot(seed=10 * deal + s, samples=samples)
            if s % 2 == 0
            else HeuristicBot(seed=10 * deal + s)
            for s in range(4)
        ]
        state = HandState(["A", "B", "C", "D"], [100] * 4)
        dealer = Dealer.seeded(deal)
        while not state.complete:
            seat = state.to_act
            assert seat is not None
            if seat == DEALER:
                state.apply(dealer.deal(state))
                continue
            v = view(state, seat)
            started = time.perf_counter()
            action = agents[seat](v)
            elapsed = 1000 * (time.perf_counter() - started)
            if seat % 2 == 0:
                assert v.legal is not None
                exchange = bool(v.legal.exchange) and (
                    v.phase is Phase.SECOND_EXCHANGE
                    or (v.phase is Phase.FIRST_ROUND and v.current_bet is None)
                )
                (delegated if exchange else searched).append(elapsed)
            state.apply(action)
    for label, times in (("searched", searched), ("exchanges", delegated)):
        if not times:
            continue
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"samples {samples:5d}  {label:9s}  n {len(times):5d}  "
            f"median {statistics.median(times):7.1f} ms  p95 {p95:7.1f} ms  "
            f"max {times[-1]:7.1f} ms"
        )


def main() -> None:
    """Parse the options and measure each setting."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--samples", default=f"{DEFAULT_SAMPLES},200,100")
    args = parser.parse_args()
    for samples in (int(s) for s in args.samples.split(",")):
        measure(samples, args.hands)


if __name__ == "__main__":
    main()
