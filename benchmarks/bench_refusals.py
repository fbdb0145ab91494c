"""Bots' re-bets after refusals (R8): how many times a bot bets again in
one turn when a person refuses every bet above a threshold.

Run as ``python benchmarks/bench_refusals.py [--hands 2000] [--threshold 5]
[--search-samples 100] [--json FILE]``. Plays seeded hands (hand ``i`` dealt with seed
``seed + i``) from fresh 100-chip stacks at 4 seats: a person-like policy in one seat
(rotating with the hand number) and three bots: half the hands heuristic bots, half
search bots (``--search-samples`` samples a decision; the table's default is 400).

The person-like policy plays as a heuristic bot, except that it votes (R8) by a
threshold, as a person tired of big bets does: it refuses every bet or raise above
``--threshold`` chips (a round total) and accepts the others.

For every bot turn at which a bet or raise was refused (every voter refused, R8), it
counts the re-bets: the bets and raises that bot made again at that same turn. Prints
the distribution (turns with 1, 2, 3, ... re-bets) per bot kind; the goal is no turn
with more than 3.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from primero.bots import make_bot
from primero.bots.heuristic import HeuristicBot
from primero.engine.actions import Action, Vote
from primero.engine.dealing import Dealer
from primero.engine.match import Agent, play_hand
from primero.engine.state import HandState
from primero.engine.views import SeatView


class Person:
    """A heuristic player that refuses every bet above ``threshold`` chips (R8)."""

    def __init__(self, seed: int, threshold: int) -> None:
        self.bot = HeuristicBot(seed=seed)
        self.threshold = threshold

    def __call__(self, v: SeatView) -> Action:
        assert v.legal is not None and v.seat is not None
        if v.legal.vote and v.pending_bet is not None:
            return Vote(v.seat, v.pending_bet[1] <= self.threshold)
        return self.bot(v)


def run(hands: int, seed: int, threshold: int, samples: int) -> dict[str, Any]:
    """Play the hands; return the re-bet counts per bot kind (see the module docstring)."""
    rebets: dict[str, Counter[int]] = {"heuristic": Counter(), "search": Counter()}
    worst: dict[str, tuple[int, list[str]] | None] = {"heuristic": None, "search": None}
    for i in range(hands):
        kind = "heuristic" if i % 2 == 0 else "search"
        person_seat = i % 4
        agents: list[Agent] = [
            Person(seed + i, threshold)
            if s == person_seat
            else make_bot(kind, 10 * (seed + i) + s, search_samples=samples)
            for s in range(4)
        ]
        state = HandState(["A", "B", "C", "D"], [100] * 4)
        play_hand(state, Dealer.seeded(seed + i), agents)
        log = state.lines()
        for seat, n in rebets_per_turn(log):
            if seat == person_seat:
                continue
            rebets[kind][n] += 1
            current = worst[kind]
            if current is None or n > current[0]:
                worst[kind] = (n, log)
    return {
        "hands": hands,
        "seed": seed,
        "threshold": threshold,
        "search_samples": samples,
        "turns_with_a_refusal": {k: sum(c.values()) for k, c in rebets.items()},
        "rebets_per_turn": {k: dict(sorted(c.items())) for k, c in rebets.items()},
        "max_rebets": {k: (w[0] if w else 0) for k, w in worst.items()},
        "worst_hand": {k: (w[1] if w else None) for k, w in worst.items()},
    }


def _refused(log: list[str], i: int) -> int | None:
    """If the bet or raise at line ``i`` was refused by every voter (R8), the index of
    the line after the votes (the bettor's turn again); else None."""
    k = i + 1
    voted = False
    while k < len(log) and log[k].split()[1] in ("y", "n"):
        if log[k].split()[1] == "y":
            return None
        voted = True
        k += 1
    return k if voted and k < len(log) else None


def rebets_per_turn(log: list[str]) -> list[tuple[int, int]]:
    """``(seat, re-bets)`` for each turn at which a bet or raise was refused (R8): how
    many bets and raises that seat made again at that turn, from the record lines.

    >>> rebets_per_turn(["p1 b 9", "p2 n", "p3 n", "p1 b 5", "p2 n", "p3 n", "p1 b 2",
    ...                  "p2 y", "p2 c", "p3 f"])
    [(0, 2)]
    >>> rebets_per_turn(["p1 b 9", "p2 n", "p3 n", "p1 x 7h"])
    [(0, 0)]
    """
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(log):
        words = log[i].split()
        after = _refused(log, i) if words[1] in ("b", "r") else None
        if after is None:
            i += 1
            continue
        count = 0
        while after is not None:
            nxt = log[after].split()
            if nxt[0] != words[0] or nxt[1] not in ("b", "r"):
                break
            count += 1
            i = after
            after = _refused(log, after)
        out.append((int(words[0][1:]) - 1, count))
        i += 1
    return out


def main() -> None:
    """Parse the arguments, run, print (and write the JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threshold", type=int, default=5)
    parser.add_argument("--search-samples", type=int, default=100)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    out = run(args.hands, args.seed, args.threshold, args.search_samples)
    print(
        f"{out['hands']} hands (half heuristic, half search at {out['search_samples']} "
        f"samples), a person refusing bets above {out['threshold']} chips"
    )
    for kind, dist in out["rebets_per_turn"].items():
        print(
            f"{kind}: {out['turns_with_a_refusal'][kind]} turns with a refused bet; "
            f"re-bets per turn {dist}; most {out['max_rebets'][kind]}"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
