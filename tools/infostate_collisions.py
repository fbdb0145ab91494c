"""Count collisions of ``python_primero``'s information-state tensor: two different
information states (strings) with one tensor.

Plays seeded random hands of the OpenSpiel game, a seat exchanging (R4.3) rather than
betting with probability ``--exchange`` whenever it may (so that deals are often void
and a hand may be stopped at ``max_void_deals``), and at every node asks every seat's
information state of the observer OpenSpiel uses (perfect recall, public and private
information): the string and the tensor. It keeps 16-byte hashes only (BLAKE2b of the
string and of the tensor's bytes), so that memory stays small, and counts the distinct
information states and the tensors shared by two of them. ``--public`` does the same
with the public-only observer (no seat's cards).

    python tools/infostate_collisions.py [--hands 10000] [--players 4] [--stack 20]
        [--max-void-deals 4] [--seed 1] [--public]

The figure is in docs/research.md ("Information states"); the tests run the same count
on fewer hands (tests/research/test_openspiel_public.py).
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any

import pyspiel

import primero.research.openspiel  # noqa: F401 - registers python_primero

#: The action ids of an exchange: stand pat, one card, two cards (primero.research.actionids).
_EXCHANGES = range(9, 20)


@dataclass
class Census:
    """What :func:`census` found.

    Attributes:
        hands: hands played; void: hands with at least one void deal (R4.3); stopped:
            hands stopped at ``max_void_deals``; longest: the most record lines a hand had.
        states: distinct information states (strings), every seat, every node.
        collisions: tensors shared by two different information states (0 is injective).
    """

    hands: int = 0
    void: int = 0
    stopped: int = 0
    longest: int = 0
    states: int = 0
    collisions: int = 0


def _digest(data: bytes) -> bytes:
    return blake2b(data, digest_size=16).digest()


def census(
    params: dict[str, Any], hands: int, seed: int, *, exchange: float = 0.6, public: bool = False
) -> Census:
    """Play ``hands`` seeded random hands of ``python_primero(params)`` and count the
    distinct information states and the collisions of their tensors (module docstring)."""
    game = pyspiel.load_game("python_primero", params)
    kind = pyspiel.IIGObservationType(
        perfect_recall=True,
        public_info=True,
        private_info=(
            pyspiel.PrivateInfoType.NONE if public else pyspiel.PrivateInfoType.SINGLE_PLAYER
        ),
    )
    observer = game.make_py_observer(kind)
    rng = random.Random(seed)
    owner: dict[bytes, bytes] = {}  # tensor hash -> string hash
    seen: set[bytes] = set()  # string hashes
    out = Census()
    players = game.num_players()
    for _ in range(hands):
        state = game.new_initial_state()
        while True:
            for seat in range(players):
                text = _digest(observer.string_from(state, seat).encode())
                if text in seen:
                    continue
                seen.add(text)
                observer.set_from(state, seat)
                tensor = _digest(observer.tensor.tobytes())
                if owner.setdefault(tensor, text) != text:
                    out.collisions += 1
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            legal = state.legal_actions()
            swaps = [a for a in legal if a in _EXCHANGES]
            if swaps and rng.random() < exchange:
                state.apply_action(swaps[int(rng.random() * len(swaps))])
            else:
                state.apply_action(legal[int(rng.random() * len(legal))])
        hand = state.hand
        out.hands += 1
        out.void += hand.void_deals > 0
        out.stopped += state.truncated
        out.longest = max(out.longest, len(hand.actions))
    out.states = len(seen)
    return out


def main() -> None:
    """Run the count and print it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--stack", type=int, default=20, help="chips (default 20)")
    parser.add_argument("--max-void-deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--exchange", type=float, default=0.6)
    parser.add_argument("--public", action="store_true", help="the public-only observer")
    args = parser.parse_args()
    params = {
        "players": args.players,
        "stack": args.stack,
        "max_void_deals": args.max_void_deals,
    }
    cpu = time.process_time()
    found = census(params, args.hands, args.seed, exchange=args.exchange, public=args.public)
    print(
        f"python_primero{params} seed {args.seed}, "
        f"{'public' if args.public else 'public and private'} information: "
        f"{found.hands:,} hands ({found.void:,} with a void deal, {found.stopped:,} stopped, "
        f"longest {found.longest} lines): {found.states:,} information states, "
        f"{found.collisions} collisions ({time.process_time() - cpu:.0f} CPU s)"
    )


if __name__ == "__main__":
    main()
