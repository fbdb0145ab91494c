"""External agents for the provenance tests (loaded by import path)."""

from __future__ import annotations

from typing import ClassVar

from primero.bots import make_bot
from primero.engine.actions import Action
from primero.engine.views import SeatView


class SeededRandom:
    """The random bot as a class taking a seed; remembers every seed it was handed."""

    made: ClassVar[list[int]] = []

    def __init__(self, seed: int) -> None:
        SeededRandom.made.append(seed)
        self.bot = make_bot("random", seed)

    def __call__(self, view: SeatView) -> Action:
        return self.bot(view)


_unseeded = make_bot("random", 1)


def unseeded(view: SeatView) -> Action:
    """A function agent: it takes no seed."""
    return _unseeded(view)
