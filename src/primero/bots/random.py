"""A bot that picks uniformly among the legal moves of its view (a baseline, R10-seeded).

Its whole decision procedure is :func:`random_move` (which kind of move, then the amount
or the declaration; in four parts over plain values: :func:`random_vote`,
:func:`random_declaration`, :func:`random_facing`, :func:`random_opening`) and
:func:`random_cards` (which cards to exchange). :meth:`RandomBot.choose` calls them with
a :class:`~primero.engine.legal.LegalActions`, and the random-playout kernel
:mod:`primero.research.fastsim` calls the very same functions, so both draw the same random
numbers in the same order (R10).

>>> import random
>>> from primero.engine.legal import LegalActions
>>> RandomBot.choose(LegalActions(0, raise_to=(4, 9), call=2, fold=True), random.Random(3))
Raise(seat=0, amount=7)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import floor
from typing import Final, TypeVar

from primero.engine.actions import Action, Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import Card
from primero.engine.dealing import RandomSource
from primero.engine.legal import LegalActions
from primero.engine.views import SeatView

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
    "random_declaration",
    "random_facing",
    "random_move",
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


def random_move(rand: Callable[[], float], legal: LegalActions) -> tuple[int, int]:
    """A uniformly random legal move, as :class:`RandomBot` plays (R10).

    It draws ``floor(rand() * k)`` over the ``k`` kinds of move legal now, in the order of
    :meth:`LegalActions.kinds`; then, for a bet or raise, the amount uniformly in its
    range (one more draw), or for a declaration the category among the allowed ones
    (one more draw). ``floor(rand() * k)`` equals :func:`primero.engine.dealing.randbelow` for
    every ``random()`` value. The kernel :mod:`primero.research.fastsim` calls the four parts
    (:func:`random_vote`, :func:`random_declaration`, :func:`random_facing`,
    :func:`random_opening`) directly with plain values.

    Args:
        rand: a ``random()`` function, floats in [0, 1).
        legal: what the seat may do (as ``HandState.legal_actions()`` gives it).

    Returns:
        ``(kind, value)``: :data:`EXCHANGE` and the number of cards, :data:`BET` or
        :data:`RAISE` and the amount (chips), :data:`DECLARE` and the index of the
        category in ``legal.declare``, or :data:`CALL`, :data:`FOLD`, :data:`ACCEPT`,
        :data:`REFUSE` and 0.
    """
    if legal.vote:  # kinds y n
        return (ACCEPT, 0) if random_vote(rand) else (REFUSE, 0)
    if legal.declare:
        return random_declaration(rand, len(legal.declare), legal.fold)
    if legal.call is not None:  # facing a bet: call and fold always, raise maybe
        return random_facing(rand, legal.raise_to)
    return random_opening(rand, legal.exchange, legal.bet)


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
            ValueError: ``legal`` is not a player's move (the dealer's, or the hand is over),
                or an exchange was drawn and ``hand`` holds fewer cards.
        """
        seat = legal.seat
        if seat is None or seat < 0:
            raise ValueError(f"no player's move to choose: {legal.describe()}")
        kind, value = random_move(rng.random, legal)
        if kind == EXCHANGE:
            if value > len(hand):
                raise ValueError(f"to exchange {value} cards the bot needs the seat's hand")
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
