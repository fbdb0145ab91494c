"""Chance: the dealer that supplies the cards a hand asks for (R8b, R10).

A :class:`Dealer` draws each card uniformly at random from the cards that may be dealt
(the stock, or under R8b the stock first and then the reshuffled discards), which is the
same game as dealing from a shuffled deck. Seeded dealers use ``random.Random`` and only
its ``random()`` method, whose sequence Python guarantees across versions and machines
(R10); live play uses ``random.SystemRandom`` (the ``secrets`` module's source).

>>> from primero.engine.state import HandState
>>> s = HandState(["Ana", "Ben", "Cleo", "Dev"], [10, 10, 10, 10])
>>> deal = Dealer.seeded(7).deal(s)
>>> deal.seat, len(deal.cards)
(0, 2)
"""

from __future__ import annotations

import random

from mypy_extensions import mypyc_attr

from primero.engine.actions import Deal
from primero.engine.cards import Card
from primero.engine.errors import WrongTurnError
from primero.engine.randomness import RandomSource, derive_seed, randbelow
from primero.engine.state import HandState

__all__ = ["Dealer", "RandomSource", "derive_seed", "randbelow"]


@mypyc_attr(allow_interpreted_subclasses=True)  # FairDealer (engine/fairdeal.py) is pure
class Dealer:
    """Supplies the cards of every deal a hand asks for (R4.2, R4.4, exchanges, R8b).

    Args:
        rng: the random source; see :meth:`seeded` and :meth:`live`.
    """

    def __init__(self, rng: RandomSource) -> None:
        self.rng = rng

    @classmethod
    def seeded(cls, seed: int) -> Dealer:
        """A reproducible dealer: the same seed deals the same cards everywhere (R10)."""
        return cls(random.Random(seed))

    @classmethod
    def live(cls) -> Dealer:
        """A dealer for live games, drawing from the operating system's secure source (R10)."""
        return cls(random.SystemRandom())  # secrets.SystemRandom is this class

    def draft(self) -> Dealer:
        """A copy of this dealer to deal from (R10): the server deals from the draft,
        stores the deal, and only then keeps the draft as the match's dealer, so a deal
        whose write failed changes none of the cards to come. A dealer drawing from the
        operating system's source keeps no state: it is its own draft.

        >>> d = Dealer.seeded(3)
        >>> copy = d.draft()
        >>> copy.rng.random() == d.rng.random()  # the same cards to come, drawn apart
        True
        """
        getstate = getattr(self.rng, "getstate", None)
        if getstate is None or isinstance(self.rng, random.SystemRandom):
            return self
        rng = random.Random()
        rng.setstate(getstate())
        return Dealer(rng)

    def deal(self, state: HandState) -> Deal:
        """The deal the hand is due now, with cards drawn at random.

        Args:
            state: a hand whose next action is a deal.

        Returns:
            The :class:`~primero.engine.actions.Deal`, stock cards first when the stock runs out
            (R8b); not yet applied.

        Raises:
            WrongTurnError: no deal is due.
        """
        due = state.deal_due()
        if due is None:
            raise WrongTurnError("no deal is due now")
        seat, count = due
        stock = state.stock()
        if len(stock) >= count:
            cards = self._draw(stock, count)
        else:  # R8b: the whole stock, then from the reshuffled discards
            cards = stock + self._draw(state.recyclable(seat), count - len(stock))
        return Deal(seat, tuple(cards))

    def _draw(self, pool: list[Card], count: int) -> list[Card]:
        pool = list(pool)
        out: list[Card] = []
        for _ in range(count):
            out.append(pool.pop(randbelow(self.rng, len(pool))))
        return out

    def deal_into(self, state: HandState) -> None:
        """Deal every card due now into ``state``, unchecked: :meth:`deal` draws only
        what the rules allow (R8b), so :meth:`HandState.apply_unchecked` is safe here."""
        while state.deal_due() is not None:
            state.apply_unchecked(self.deal(state))
