"""A bot that picks uniformly among the legal moves of its view (a baseline, R10-seeded)."""

from __future__ import annotations

import random

from primero.actions import Action, Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.dealing import RandomSource, randbelow
from primero.views import SeatView

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses a legal kind of move uniformly, then its amount or cards uniformly.

    Args:
        seed: seed of its own ``random.Random`` (R10); None draws a fresh seed.
        rng: a random source to use instead (overrides ``seed``).
    """

    name = "random"

    def __init__(self, seed: int | None = None, rng: RandomSource | None = None) -> None:
        self.rng: RandomSource = rng if rng is not None else random.Random(seed)

    def __call__(self, view: SeatView) -> Action:
        """Return a legal action for the seat of ``view``.

        Raises:
            ValueError: the view is not this seat's move (``view.legal`` is None).
        """
        legal = view.legal
        if legal is None or view.seat is None:
            raise ValueError("RandomBot was asked to act outside its turn")
        seat, rng = view.seat, self.rng
        kinds = legal.kinds()
        kind = kinds[randbelow(rng, len(kinds))]
        if kind in ("y", "n"):
            return Vote(seat, kind == "y")
        if kind == "dc":
            return Declare(seat, legal.declare[randbelow(rng, len(legal.declare))])
        if kind.startswith("x"):
            pool = list(view.hand)
            cards = [pool.pop(randbelow(rng, len(pool))) for _ in range(int(kind[1]))]
            return Exchange(seat, tuple(cards))
        if kind == "b" and legal.bet is not None:
            low, high = legal.bet
            return Bet(seat, low + randbelow(rng, high - low + 1))
        if kind == "r" and legal.raise_to is not None:
            low, high = legal.raise_to
            return Raise(seat, low + randbelow(rng, high - low + 1))
        if kind == "c":
            return Call(seat)
        return Fold(seat)
