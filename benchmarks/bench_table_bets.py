"""Bots at a friendly table: first-round bet sizes and hands until broke.

Run as ``python benchmarks/bench_table_bets.py [--hands 200] [--bots heuristic,...]
[--seed 1] [--friendly] [--json FILE]``. Plays seeded matches (R9) of 4 seats, 100 chips each, the
standard rules, one bot kind per seat (``--bots``, cycled; default four heuristic bots),
each wrapped in :class:`primero.bots.friendly.FriendlyBets` with ``--friendly`` (as at a
game-night table of ``primero serve``), one match after another (match ``k`` seeded
``seed + k``) until ``--hands`` hands are played in all. A match ends when a player is
broke (has no chips left): the number of hands it took is one sample of "hands until
someone is broke"; the last match, cut by the hand budget, is counted as at least that
many hands.

Prints the bots' bets and raises in chips in each betting round (the first, R4.3, the
declaring round, R4.5, and the last, R4.7): count, median, 90th percentile, max, and the
median share of the pot they were made into and the hands until
someone was broke. With ``--json`` it writes the same figures and the raw amounts.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from primero.bots import make_bot
from primero.bots.friendly import FriendlyBets
from primero.engine.actions import Action, Bet, Raise
from primero.engine.match import Agent, Match
from primero.engine.state import Phase
from primero.engine.views import SeatView

NAMES = ("Ana", "Ben", "Cleo", "Dev")
#: The betting rounds (R4.3, R4.5, R4.7) and their names in the output.
ROUNDS = (Phase.FIRST_ROUND, Phase.DECLARE_ROUND, Phase.LAST_ROUND)
ROUND_NAMES = {Phase.FIRST_ROUND: "first", Phase.DECLARE_ROUND: "declare", Phase.LAST_ROUND: "last"}


def _percentile(values: list[int] | list[float], q: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])


def run(
    kinds: list[str], hands: int, seed: int, samples: int | None, friendly: bool = False
) -> dict[str, Any]:
    """Play the matches and return the figures (see the module docstring)."""
    amounts: dict[Phase, list[int]] = {p: [] for p in ROUNDS}
    pot_shares: dict[Phase, list[float]] = {p: [] for p in ROUNDS}

    def watch(agent: Agent) -> Agent:
        def act(v: SeatView) -> Action:
            action = agent(v)
            if v.phase in amounts and isinstance(action, Bet | Raise):
                amounts[v.phase].append(action.amount)
                pot_shares[v.phase].append(action.amount / max(1, v.pot_total))
            return action

        return act

    until_broke: list[int] = []
    cut: int | None = None
    played = match_no = 0
    while played < hands:
        match = Match(list(NAMES), seed=seed + match_no)
        bots = [
            make_bot(kinds[i % len(kinds)], 1000 * (seed + match_no) + i, search_samples=samples)
            for i in range(len(NAMES))
        ]
        agents = {
            name: watch(FriendlyBets(bot) if friendly else bot)
            for name, bot in zip(NAMES, bots, strict=True)
        }
        start = played
        while played < hands and min(match.chips) > 0:
            match.play_hand(agents)
            played += 1
        if min(match.chips) == 0:
            until_broke.append(played - start)
        else:
            cut = played - start
        match_no += 1
    return {
        "bots": kinds,
        "hands": played,
        "seed": seed,
        "search_samples": samples,
        "friendly": friendly,
        "bets": {
            ROUND_NAMES[p]: {
                "count": len(amounts[p]),
                "median": statistics.median(amounts[p]) if amounts[p] else None,
                "p90": _percentile(amounts[p], 0.9) if amounts[p] else None,
                "max": max(amounts[p], default=None),
                "median_pot_share": (statistics.median(pot_shares[p]) if pot_shares[p] else None),
                "amounts": amounts[p],
            }
            for p in ROUNDS
        },
        "hands_until_broke": {
            "matches": len(until_broke),
            "median": statistics.median(until_broke) if until_broke else None,
            "min": min(until_broke, default=None),
            "max": max(until_broke, default=None),
            "values": until_broke,
            "last_match_cut_after": cut,
        },
    }


def main() -> None:
    """Parse the arguments, run, print (and write the JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--search-samples", type=int, default=None)
    parser.add_argument(
        "--friendly", action="store_true", help="wrap each bot in FriendlyBets (game-night tables)"
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    out = run(args.bots.split(","), args.hands, args.seed, args.search_samples, args.friendly)
    broke = out["hands_until_broke"]
    friendly = ", friendly bet sizes" if out["friendly"] else ""
    print(f"{out['hands']} hands, bots {','.join(out['bots'])}{friendly}, seed {out['seed']}")
    for name, bets in out["bets"].items():
        if not bets["count"]:
            continue
        print(
            f"{name}-round bets and raises: {bets['count']}, median {bets['median']}, "
            f"90th percentile {bets['p90']}, max {bets['max']} chips; "
            f"median {bets['median_pot_share']:.2f} of the pot"
        )
    print(
        f"hands until someone is broke: {broke['matches']} matches, median "
        f"{broke['median']}, min {broke['min']}, max {broke['max']} "
        f"(values {broke['values']}; last match cut after {broke['last_match_cut_after']})"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
