"""Research-interface speed: random legal play through PettingZoo and pyspiel, beside
OpenSpiel's built-in poker games in the same run.

Usage::

    python benchmarks/bench_research.py [--seconds S] [--players N] [--stack C]
    PYTHONPATH=$(python tools/build_compiled.py) python benchmarks/bench_research.py

The first measures the modules as installed (an editable install: pure Python); the
second the mypyc-compiled engine of a wheel build (``setup.COMPILED``, built beside a
copy of the package by ``tools/build_compiled.py``). The first line printed says which.

Needs the ``research`` extra (``pip install -e '.[research]'``). For S seconds each, in
this order and in this process, it plays whole hands with uniformly random legal moves:

(a) ``primero.research.pettingzoo.env(players=N, stack=C)``: the AEC loop (``agent_iter``,
    ``last``, a uniform choice among the ids of ``action_mask``, ``step``);
(b) ``python_primero(players=N, stack=C)`` through ``pyspiel``: chance outcomes sampled
    by their probabilities, a uniform choice among ``legal_actions()``, ``apply_action``;
(c) the same pyspiel loop over OpenSpiel's C++ ``leduc_poker`` and ``kuhn_poker``
    and its Python ``python_kuhn_poker`` (2 players each), the yardsticks a researcher
    knows (the last one shows what any game written in Python costs through pyspiel);
(d) the engine alone (``HandState``, a ``Dealer`` dealing whole lines, the legal ids of
    :mod:`primero.research.actionids`, ``apply_unchecked``): no interface at all, the
    ceiling of any interface that runs the rules through the engine.

It prints hands per second (wall clock and CPU time) and moves per hand of each, then
the two ratios the project tracks (hands per CPU second): pyspiel Primero to C++ ``leduc_poker``
and PettingZoo Primero to Python ``python_kuhn_poker``, and the load average (the
machine may be shared: CPU time is the fairer figure).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple


class Figure(NamedTuple):
    """Whole hands per second of wall-clock time and of CPU time, and moves per hand."""

    hands: int
    wall: float
    cpu: float
    moves: float

    def __str__(self) -> str:
        return (
            f"{self.hands / self.wall:10,.0f} hands/s  ({self.hands / self.cpu:,.0f} per CPU s;"
            f" {self.moves:.1f} moves a hand, {self.hands:,} hands)"
        )


def measure(play_one: Callable[[], int], seconds: float) -> Figure:
    """Play hands with ``play_one`` (returns the moves it made) for about ``seconds``,
    after one hand not counted (one-time set-up, such as the evaluator's table, is not
    a hand's cost)."""
    play_one()
    hands = moves = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while True:
        moves += play_one()
        hands += 1
        wall = time.perf_counter() - wall0
        if wall >= seconds:
            break
    return Figure(hands, wall, time.process_time() - cpu0, moves / hands)


def pyspiel_hand(game: Any, rng: random.Random) -> int:
    """One hand of uniformly random legal play through pyspiel; the moves made."""
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            r, acc = rng.random(), 0.0
            action = outcomes[-1][0]
            for a, p in outcomes:
                acc += p
                if r < acc:
                    action = a
                    break
            state.apply_action(action)
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        moves += 1
    return moves


def pettingzoo_hand(env: Any, rng: random.Random) -> int:
    """One hand of uniformly random legal play through the AEC loop; the moves made."""
    env.reset(seed=int(rng.random() * 2**31))
    moves = 0
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[int(rng.random() * len(legal))]))
        moves += 1
    return moves


def engine_hand(players: int, stack: int, rng: random.Random) -> int:
    """One hand of uniformly random legal ids through the engine alone; the moves made
    (deal lines and seat moves)."""
    from primero.engine.dealing import Dealer
    from primero.engine.legal import DEALER
    from primero.engine.rules import Rules
    from primero.engine.state import HandState
    from primero.research.actionids import action_of, legal_ids

    hand = HandState(
        [f"p{i + 1}" for i in range(players)],
        [stack] * players,
        Rules(min_players=2, max_players=8),
    )
    dealer = Dealer(rng)
    moves = 0
    while not hand.complete:
        seat = hand.to_act
        if seat == DEALER:
            hand.apply_unchecked(dealer.deal(hand))
        else:
            assert seat is not None
            ids = legal_ids(hand.legal_actions(), hand_size=len(hand.hands[seat]), max_stack=stack)
            chosen = ids[int(rng.random() * len(ids))]
            hand.apply_unchecked(
                action_of(chosen, seat=seat, hand=hand.hands[seat], max_stack=stack)
            )
        moves += 1
    return moves


def main() -> None:
    """Run the figures and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per figure (default 5)")
    parser.add_argument("--players", type=int, default=4, help="Primero seats (default 4)")
    parser.add_argument("--stack", type=int, default=100, help="starting chips (default 100)")
    args = parser.parse_args()

    import pyspiel
    from open_spiel.python.games import kuhn_poker  # noqa: F401 - registers python_kuhn_poker

    import primero.research.openspiel  # noqa: F401 - registers python_primero
    from primero.engine import state as engine_state
    from primero.research.pettingzoo import env as primero_env

    compiled = not engine_state.__file__.endswith(".py")
    print(
        "engine build: "
        + ("mypyc-compiled (a wheel's)" if compiled else "pure Python")
        + f" ({engine_state.__file__})"
    )
    rng = random.Random(1)
    rows: list[tuple[str, Figure]] = []
    zoo = primero_env(players=args.players, stack=args.stack)
    rows.append(
        (
            f"primero, PettingZoo AEC ({args.players} players)",
            measure(lambda: pettingzoo_hand(zoo, rng), args.seconds),
        )
    )
    game = pyspiel.load_game("python_primero", {"players": args.players, "stack": args.stack})
    rows.append(
        (
            f"primero, pyspiel python_primero ({args.players} players)",
            measure(lambda: pyspiel_hand(game, rng), args.seconds),
        )
    )
    for name, kind in (
        ("leduc_poker", "C++"),
        ("kuhn_poker", "C++"),
        ("python_kuhn_poker", "Python"),
    ):
        peer = pyspiel.load_game(name)
        rows.append(
            (
                f"OpenSpiel {name} ({kind}, 2 players)",
                measure(partial(pyspiel_hand, peer, rng), args.seconds),
            )
        )
    rows.append(
        (
            f"primero, the engine alone, no interface ({args.players} players)",
            measure(lambda: engine_hand(args.players, args.stack, rng), args.seconds),
        )
    )
    width = max(len(name) for name, _ in rows)
    print(f"random legal play, {args.seconds:g} s each (pyspiel moves include chance draws):")
    for name, figure in rows:
        print(f"  {name:<{width}}  {figure}")
    per_cpu = [figure.hands / figure.cpu for _, figure in rows]
    print(
        f"pyspiel primero = 1/{per_cpu[2] / per_cpu[1]:.1f} of leduc_poker; "
        f"PettingZoo primero = 1/{per_cpu[4] / per_cpu[0]:.1f} of python_kuhn_poker "
        f"(hands per CPU second); the engine alone = 1/{per_cpu[2] / per_cpu[5]:.0f} of "
        f"leduc_poker; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
