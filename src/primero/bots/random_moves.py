"""The random bot's draws over plain values (R10): which kind of move, the amount, the
declaration, the vote and the cards, each from ``random()`` floats.

:class:`primero.bots.random.RandomBot` calls them through
:func:`~primero.bots.random.random_move`, and the random-playout kernel
:mod:`primero.research.fastsim` calls them directly, so both draw the same random numbers in
the same order. This module imports nothing of the engine: the kernel reads it without
the checked engine's classes.

>>> random_facing(lambda: 0.1, (4, 9))
(2, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import floor
from typing import Final, TypeVar

__all__ = [
    "ACCEPT",
    "BET",
    "CALL",
    "DECLARE",
    "EXCHANGE",
    "FOLD",
    "RAISE",
    "REFUSE",
    "random_cards",
    "random_declaration",
    "random_facing",
    "random_opening",
    "random_vote",
]

T = TypeVar("T")

#: Kinds of move :func:`random_move` returns, listed in the order of
#: :meth:`LegalActions.kinds` (``x0 x1 x2 b r c f``; ``dc f``; ``y n``).
EXCHANGE: Final = 0
BET: Final = 1
RAISE: Final = 2
CALL: Final = 3
FOLD: Final = 4
DECLARE: Final = 5
ACCEPT: Final = 6
REFUSE: Final = 7

# The moves without a value, built once (the hot path returns them often).
_CALL_MOVE: Final = (CALL, 0)
_FOLD_MOVE: Final = (FOLD, 0)


def random_opening(
    rand: Callable[[], float], exchange: Sequence[int], bet: tuple[int, int] | None
) -> tuple[int, int]:
    """A random move of a seat facing no bet (kinds ``x0 x1 x2 b``): one draw over the
    kinds, then for a bet one draw of the amount, uniform in ``bet`` (chips)."""
    nx = len(exchange)
    if bet is None:  # the kinds are the exchanges only
        return EXCHANGE, exchange[floor(rand() * nx)]
    i = floor(rand() * (nx + 1))
    if i < nx:
        return EXCHANGE, exchange[i]
    low, high = bet
    return BET, low + floor(rand() * (high - low + 1))


def random_facing(rand: Callable[[], float], raise_to: tuple[int, int] | None) -> tuple[int, int]:
    """A random move of a seat facing a bet (kinds ``r c f`` or ``c f``): one draw over
    the kinds, then for a raise one draw of the round total, uniform in ``raise_to``."""
    if raise_to is None:
        return _CALL_MOVE if rand() < 0.5 else _FOLD_MOVE
    i = floor(rand() * 3)
    if i == 0:
        low, high = raise_to
        return RAISE, low + floor(rand() * (high - low + 1))
    return _CALL_MOVE if i == 1 else _FOLD_MOVE


def random_declaration(rand: Callable[[], float], allowed: int, fold: bool) -> tuple[int, int]:
    """A random move of a seat due to declare (kinds ``dc f`` or ``dc``): one draw over
    the kinds, then for a declaration one draw among the ``allowed`` categories."""
    if fold and rand() >= 0.5:
        return _FOLD_MOVE
    if not fold:
        rand()  # the one kind "dc" is drawn too
    return DECLARE, floor(rand() * allowed)


def random_vote(rand: Callable[[], float]) -> bool:
    """Accept (True) or refuse a bet at random, as :class:`RandomBot` votes (R8): one
    draw over the kinds ``y n``."""
    return rand() < 0.5


def random_cards(rand: Callable[[], float], hand: list[T], count: int) -> list[T]:
    """Take ``count`` cards out of ``hand`` at random, in place, as :class:`RandomBot`
    exchanges: each popped at ``floor(rand() * len(hand))``, so the kept cards stay in
    order (R10). Returns the cards taken, in the order taken."""
    if count == 1:
        return [hand.pop(floor(rand() * len(hand)))]
    if count == 2:
        size = len(hand)
        first = hand.pop(floor(rand() * size))
        return [first, hand.pop(floor(rand() * (size - 1)))]
    taken: list[T] = []
    for _ in range(count):
        taken.append(hand.pop(floor(rand() * len(hand))))
    return taken
