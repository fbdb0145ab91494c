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
from typing import TypeVar

from primero.bots.random_moves import (
    ACCEPT,
    BET,
    CALL,
    DECLARE,
    EXCHANGE,
    FOLD,
    RAISE,
    REFUSE,
    random_cards,
    random_declaration,
    random_facing,
    random_opening,
    random_vote,
)
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
