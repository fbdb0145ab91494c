"""A bot that picks uniformly among the legal moves of its view (a baseline, R10-seeded).

Its whole decision procedure is :func:`random_move` (which kind of move, then the amount
or the declaration) and :func:`random_cards` (which cards to exchange), over plain
values: :meth:`RandomBot.choose` calls them with a :class:`~primero.legal.LegalActions`,
and the random-playout kernel :mod:`primero.fastsim` calls the very same functions, so
both draw the same random numbers in the same order (R10).

>>> import random
>>> from primero.legal import LegalActions
>>> RandomBot.choose(LegalActions(0, raise_to=(4, 9), call=2, fold=True), random.Random(3))
Raise(seat=0, amount=7)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import floor
from typing import Final, TypeVar

from primero.actions import Action, Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.cards import Card
from primero.dealing import RandomSource
from primero.legal import LegalActions
from primero.views import SeatView

__all__ = [
    "ACCEPT",
    "BET",
    "CALL",
    "DECLARE",
    "EXCHANGE",
    "FOLD",
    "RAISE",
    "REFUSE",
    "RandomBot",
    "random_cards",
    "random_move",
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


def random_move(
    rand: Callable[[], float],
    exchange: Sequence[int],
    bet: tuple[int, int] | None,
    raise_to: tuple[int, int] | None,
    call: bool,
    fold: bool,
    vote: bool,
    declare: int,
) -> tuple[int, int]:
    """A uniformly random legal move, as :class:`RandomBot` plays (R10).

    It draws ``floor(rand() * k)`` over the ``k`` kinds of move legal now, in the order of
    :meth:`LegalActions.kinds`; then, for a bet or raise, the amount uniformly in its
    range (one more draw), or for a declaration the category among the ``declare``
    allowed ones (one more draw). ``floor(rand() * k)`` equals
    :func:`primero.dealing.randbelow` for every ``random()`` value.

    Args:
        rand: a ``random()`` function, floats in [0, 1).
        exchange: the allowed numbers of cards to exchange, ascending.
        bet, raise_to: the inclusive chip ranges of a bet and a raise, or None.
        call, fold, vote: whether a call (or check), a fold, a vote is allowed.
        declare: how many categories may be declared (0: no declaration due).

    Returns:
        ``(kind, value)``: :data:`EXCHANGE` and the number of cards, :data:`BET` or
        :data:`RAISE` and the amount (chips), :data:`DECLARE` and the index of the
        category among the allowed ones, or :data:`CALL`, :data:`FOLD`,
        :data:`ACCEPT`, :data:`REFUSE` and 0.
    """
    if vote:  # kinds y n
        return (ACCEPT, 0) if rand() < 0.5 else (REFUSE, 0)
    if declare:  # kinds dc [f]
        if fold and rand() >= 0.5:
            return FOLD, 0
        if not fold:
            rand()  # the one kind "dc" is drawn too
        return DECLARE, floor(rand() * declare)
    nx = len(exchange)
    i = floor(rand() * (nx + (bet is not None) + (raise_to is not None) + call + fold))
    if i < nx:
        return EXCHANGE, exchange[i]
    i -= nx
    if bet is not None:
        if not i:
            return BET, bet[0] + floor(rand() * (bet[1] - bet[0] + 1))
        i -= 1
    if raise_to is not None:
        if not i:
            return RAISE, raise_to[0] + floor(rand() * (raise_to[1] - raise_to[0] + 1))
        i -= 1
    if call and not i:
        return CALL, 0
    return FOLD, 0


def random_cards(rand: Callable[[], float], hand: list[T], count: int) -> list[T]:
    """Take ``count`` cards out of ``hand`` at random, in place, as :class:`RandomBot`
    exchanges: each popped at ``floor(rand() * len(hand))``, so the kept cards stay in
    order (R10). Returns the cards taken, in the order taken."""
    return [hand.pop(floor(rand() * len(hand))) for _ in range(count)]


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
        return self.choose(legal, self.rng, view.hand)

    @staticmethod
    def choose(legal: LegalActions, rng: RandomSource, hand: Sequence[Card] = ()) -> Action:
        """A uniformly random legal action (:func:`random_move`, :func:`random_cards`).

        Args:
            legal: what the seat may do now (its ``seat`` is a player's).
            rng: the random source (only ``random()`` is used, R10).
            hand: the seat's cards, in hand order (needed when it may exchange).

        Raises:
            ValueError: ``legal`` is not a player's move (the dealer's, or the hand is over).
        """
        seat = legal.seat
        if seat is None or seat < 0:
            raise ValueError(f"no player's move to choose: {legal.describe()}")
        kind, value = random_move(
            rng.random, legal.exchange, legal.bet, legal.raise_to, legal.call is not None,
            legal.fold, legal.vote, len(legal.declare),
        )
        if kind == EXCHANGE:
            return Exchange(seat, tuple(random_cards(rng.random, list(hand), value)))
        if kind == BET:
            return Bet(seat, value)
        if kind == RAISE:
            return Raise(seat, value)
        if kind == DECLARE:
            return Declare(seat, legal.declare[value])
        if kind in (ACCEPT, REFUSE):
            return Vote(seat, kind == ACCEPT)
        return Call(seat) if kind == CALL else Fold(seat)
