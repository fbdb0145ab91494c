"""Refusal auctions: how many times a bot re-bets after its bet is refused by all (R8).

Usage::

    python benchmarks/bench_refusals.py [--hands 2000] [--kinds heuristic search]
        [--threshold 5] [--samples N] [--seed 1]

Issue 18 item 2: a person who refuses every bet above an amount should not have to
refuse a bot's bet again and again while it comes back one chip lower. For each bot kind
this plays ``--hands`` seeded hands (hand ``k`` dealt with seed ``seed + k``) at a table
of four: three bots of that kind and a person-like policy. The person plays as a
heuristic bot, except that it refuses (R8) every bet or raise above ``--threshold``
chips and accepts the others. Stacks are 100 chips, default rules, so a vote is held
whenever three or more players are still in.

A *turn* here is one bettor's turn that saw at least one refusal by all: the bot bets,
every voter refuses, the bet is withdrawn and the bot takes the same turn again (R8).
Its *re-bets* are the bets or raises it makes again in that turn; the turn ends with a
bet that stands, a call, a check, a fold or an exchange. The script prints, per kind,
the distribution of re-bets per turn (0, 1, 2, …), the most in one turn, and how many
turns had more than 3 (the issue's goal: none). Only the bots' turns are counted.

The same bots the package has now are measured: run it again after the bots change.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from collections.abc import Sequence

from primero.bots import make_bot
from primero.engine.actions import Action, Bet, Raise, Vote
from primero.engine.dealing import Dealer
from primero.engine.match import Agent, play_hand
from primero.engine.state import HandState
from primero.engine.views import SeatView

#: The person's seat at the table of four (it acts third in every hand: R3).
PERSON = 2


def person_policy(threshold: int, seed: int) -> Agent:
    """A heuristic player that refuses every bet or raise above ``threshold`` chips."""
    inner = make_bot("heuristic", seed)

    def act(view: SeatView) -> Action:
        legal = view.legal
        assert legal is not None and view.seat is not None
        if legal.vote and view.pending_bet is not None:
            return Vote(view.seat, view.pending_bet[1] <= threshold)
        return inner(view)

    return act


def rebets_per_turn(actions: Sequence[Action], bots: set[int]) -> list[int]:
    """The re-bets of each bettor's turn that saw a refusal by all (see the module).

    Args:
        actions: a hand's actions in order.
        bots: the seats whose turns count.

    Returns:
        One count per such turn, in order.
    """
    out: list[int] = []
    i, n = 0, len(actions)
    while i < n:
        action = actions[i]
        if not isinstance(action, Bet | Raise) or action.seat not in bots:
            i += 1
            continue
        seat = action.seat
        rebets = -1
        while True:  # this bettor's bets in one turn, while each is refused by all
            rebets += 1
            j = i + 1
            votes: list[bool] = []
            while j < n and isinstance(actions[j], Vote):
                votes.append(actions[j].accept)  # type: ignore[union-attr]
                j += 1
            withdrawn = bool(votes) and not any(votes)
            if not withdrawn or j >= n:
                break
            again = actions[j]
            if again.seat != seat or not isinstance(again, Bet | Raise):
                break  # the turn ended with a call, check, fold or exchange
            i = j
        if rebets > 0 or (votes and not any(votes)):
            out.append(rebets)
        i = j
    return out


def measure(kind: str, hands: int, threshold: int, seed: int, samples: int | None) -> None:
    """Play the hands for one bot kind and print the distribution."""
    counts: collections.Counter[int] = collections.Counter()
    votes_asked = 0
    start = time.process_time()
    for k in range(hands):
        hand_seed = seed + k
        agents: list[Agent] = []
        for s in range(4):
            if s == PERSON:
                agents.append(person_policy(threshold, hand_seed * 7 + s))
            else:
                agents.append(make_bot(kind, hand_seed * 7 + s, search_samples=samples))
        state = HandState(["Ana", "Ben", "You", "Dea"], [100] * 4)
        play_hand(state, Dealer(random.Random(hand_seed)), agents)
        votes_asked += sum(
            1 for a in state.actions if isinstance(a, Vote) and a.seat == PERSON
        )
        counts.update(rebets_per_turn(state.actions, {0, 1, 3}))
    cpu = time.process_time() - start
    turns = sum(counts.values())
    worst = max(counts) if counts else 0
    over = sum(c for r, c in counts.items() if r > 3)
    print(f"{kind}: {hands} hands, {cpu:.1f} s CPU, the person voted {votes_asked} times")
    print(f"  turns with a refusal by all: {turns}; most re-bets in one turn: {worst}; "
          f"turns with more than 3: {over}")
    print("  re-bets per turn: " + ", ".join(
        f"{r}: {counts[r]}" for r in range(worst + 1) if counts[r]
    ))


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments and measure each kind."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--kinds", nargs="+", default=["heuristic", "search"])
    parser.add_argument("--threshold", type=int, default=5)
    parser.add_argument("--samples", type=int, default=None,
                        help="samples per decision of the search bot (default: its own)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"threshold: the person refuses every bet above {args.threshold} chips")
    for kind in args.kinds:
        measure(kind, args.hands, args.threshold, args.seed, args.samples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
