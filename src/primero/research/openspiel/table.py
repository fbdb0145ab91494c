"""The Python side of a ``python_primero`` state: the engine's hand, the cards of a deal
line being drawn, and the chance outcomes (R4.2, R4.4, R8b; see
:mod:`primero.research.openspiel`)."""

from __future__ import annotations

from itertools import compress, repeat
from math import comb
from typing import Any, Final

from primero.engine.actions import Deal
from primero.engine.cards import DECK, Card
from primero.engine.state import HandState

__all__ = ["_Table"]

_IDS: Final = range(40)


class _Table:
    """The Python side of a state: the engine's hand and the cards of a deal in progress.

    Copied with :meth:`HandState.copy` (OpenSpiel clones a state by deep-copying this);
    pickled through its constructor (the class is compiled by mypyc in a wheel build,
    ``setup.py``, and such a class is neither built without its arguments nor given its
    fields one by one by pickle)."""

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

    def __reduce__(self) -> tuple[object, ...]:
        return (_restore, (self.hand, {name: getattr(self, name) for name in _FIELDS}))

    def draw(self, card_id: int) -> None:
        """Deal card ``card_id`` (a legal chance outcome) into the deal line due, and apply
        the line once it holds every card due (R4.2, R4.4, R8b: the cards come from the
        engine's own pool, so the line is applied unchecked)."""
        hand = self.hand
        seat, count = hand.deals_due[0]
        self.draw_card.append(card_id)
        self.draw_seat.append(seat)
        self.draw_from_stock.append(hand.in_stock[card_id])
        self.draw_cycle.append(hand.void_deals)
        pending = self.pending
        pending.append(DECK[card_id])
        if len(pending) == count:
            self.pending = []
            hand.apply_unchecked(Deal(seat, tuple(pending)))

    def usual_draw(self, card_id: int) -> bool:
        """Whether ``card_id`` is a stock card not yet drawn while the stock holds the deal
        due: the common case, a legal draw without building the outcomes (R8b)."""
        hand = self.hand
        return (
            hand.stock_count >= hand.deals_due[0][1] and hand.in_stock[card_id]
            and DECK[card_id] not in self.pending
        )

    def stock_outcomes(self) -> list[tuple[int, float]]:
        """Each card the next draw may give with its probability, all equal (R8b)."""
        pool = self.pool_ids()
        return list(zip(pool, repeat(1.0 / len(pool))))

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


#: The fields of a :class:`_Table` beside its hand, set after its constructor on unpickling.
_FIELDS: Final = (
    "pending", "truncated", "draw_card", "draw_cycle", "draw_from_stock", "draw_seat",
)


def _restore(hand: HandState, fields: dict[str, Any]) -> _Table:
    """The table :meth:`_Table.__reduce__` describes."""
    table = _Table(hand)
    for name, value in fields.items():
        setattr(table, name, value)
    return table
