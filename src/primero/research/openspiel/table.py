"""The Python side of a ``python_primero`` state: the engine's hand, the cards of a deal
line being drawn, and the chance outcomes (R4.2, R4.4, R8b; see
:mod:`primero.research.openspiel`)."""

from __future__ import annotations

from itertools import compress
from math import comb
from typing import Any, Final

from primero.engine.cards import DECK, Card
from primero.engine.state import HandState

__all__ = ["_Table"]

_IDS: Final = range(40)


class _Table:
    """The Python side of a state: the engine's hand and the cards of a deal in progress.

    Copied with :meth:`HandState.copy` (OpenSpiel clones a state by deep-copying this)."""

    __slots__ = (
        "draw_card", "draw_cycle", "draw_from_stock", "draw_seat", "hand", "pending", "truncated"
    )

    def __init__(self, hand: HandState) -> None:
        self.hand = hand
        self.pending: list[Card] = []
        self.truncated = False
        #: per chance move so far: the card id, the seat dealt to, whether the card was a
        #: stock card, and the void deals before it (R4.3: a void deal puts every card back)
        self.draw_card: list[int] = []
        self.draw_seat: list[int] = []
        self.draw_from_stock: list[bool] = []
        self.draw_cycle: list[int] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        other = _Table(self.hand.copy())
        other.pending = list(self.pending)
        other.truncated = self.truncated
        other.draw_card = list(self.draw_card)
        other.draw_seat = list(self.draw_seat)
        other.draw_from_stock = list(self.draw_from_stock)
        other.draw_cycle = list(self.draw_cycle)
        return other

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, data: dict[str, Any]) -> None:
        for name, value in data.items():
            setattr(self, name, value)

    def pool_ids(self) -> list[int]:
        """The ids of the cards the next chance draw may give, ascending (R8b): the stock
        cards not yet drawn, or once the stock is used up, the reshuffled discards."""
        hand = self.hand
        seat, count = hand.deals_due[0]
        stock = list(compress(_IDS, hand.in_stock))
        drawn = [c.id for c in self.pending]
        if drawn:
            stock = [i for i in stock if i not in drawn]
        if hand.stock_count >= count or stock:
            return stock
        return sorted(c.id for c in hand.recyclable(seat) if c.id not in drawn)

    def pool(self) -> list[Card]:
        """The cards the next chance draw may give, in deck order (R8b)."""
        return [DECK[i] for i in self.pool_ids()]

    def sorted_outcomes(self) -> list[tuple[int, float]]:
        """The next card of a deal line drawn in deck order (the ``mini`` preset): only
        cards above the last one drawn from the same source (stock or reshuffled
        discards), card ``c`` with probability ``C(a, r - 1) / C(m, r)`` where ``m``
        cards may come, ``a`` of them above ``c``, and ``r`` are still due from this
        source: every set of cards is then as likely as in an unordered draw."""
        hand = self.hand
        count = hand.deals_due[0][1]
        in_stock = hand.in_stock
        from_stock = hand.stock_count >= count or any(
            in_stock[i] and all(c.id != i for c in self.pending) for i in range(40)
        )
        mine = [c.id for c in self.pending if in_stock[c.id] == from_stock]
        if from_stock and hand.stock_count < count:
            due = hand.stock_count - len(mine)  # R8b: every stock card first
        else:
            due = count - len(self.pending)
        last = max(mine, default=-1)
        ids = [i for i in self.pool_ids() if i > last]
        total = comb(len(ids), due)
        out = []
        for k, card_id in enumerate(ids):
            ways = comb(len(ids) - k - 1, due - 1)
            if ways:
                out.append((card_id, ways / total))
        return out
