"""The move the table makes for a person whose time is up (docs/protocol.md "Bots and the timer").

The least committal legal move, computed only from the seat's view and its legal actions:

1. in a vote (R8): accept, letting the bet stand;
2. a declaration due (R6): the true category of the seat's hand;
3. an exchange allowed (R4.3, R4.6): stand pat where allowed, else exchange the one card
   whose loss costs the fewest points (the card whose removal leaves the best suit total
   of the remaining cards highest; on equal totals the card of fewer points, then the
   first in deck order);
4. a bet of 0 allowed (R5): bet 0 (a check);
5. a call of 0 (a check): check;
6. folding allowed: fold;
7. otherwise (the rules leave no other move) the smallest bet or call.

It puts in chips only where the rules leave no other move.
"""

from __future__ import annotations

from collections.abc import Sequence

from primero.engine.actions import Action, Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import Card
from primero.engine.hands import category_of
from primero.engine.views import SeatView

__all__ = ["least_committal", "weakest_card"]


def _best_suit_total(cards: Sequence[Card]) -> int:
    totals: dict[int, int] = {}
    for card in cards:
        totals[int(card.suit)] = totals.get(int(card.suit), 0) + card.points
    return max(totals.values(), default=0)


def weakest_card(hand: Sequence[Card]) -> Card:
    """The card whose loss costs the fewest points (see the module doc).

    Raises:
        ValueError: ``hand`` is empty.
    """
    if not hand:
        raise ValueError("an empty hand has no card to exchange")

    def key(i: int) -> tuple[int, int, int]:
        rest = [c for j, c in enumerate(hand) if j != i]
        return (-_best_suit_total(rest), hand[i].points, hand[i].id)

    return hand[min(range(len(hand)), key=key)]


def least_committal(v: SeatView) -> Action:
    """The timer's move for the seat of ``v`` (the module doc lists the order).

    Args:
        v: the view of the seat to act (``v.legal`` set, ``v.seat`` not None).

    Returns:
        A legal action of that seat.

    Raises:
        ValueError: it is not this seat's move (``v.legal`` is None or ``v.seat`` None).
    """
    legal, seat = v.legal, v.seat
    if legal is None or seat is None:
        raise ValueError("the view's seat is not to act: no move to make")
    if legal.vote:
        return Vote(seat, True)
    if legal.declare:
        true = category_of(v.hand) if len(v.hand) == 4 else legal.declare[0]
        return Declare(seat, true if true in legal.declare else legal.declare[0])
    if legal.exchange:
        if 0 in legal.exchange:
            return Exchange(seat, ())
        if 1 in legal.exchange:
            return Exchange(seat, (weakest_card(v.hand),))
    if legal.bet is not None and legal.bet[0] == 0:
        return Bet(seat, 0)
    if legal.call == 0:
        return Call(seat)
    if legal.fold:
        return Fold(seat)
    if legal.exchange:
        ordered = sorted(v.hand, key=lambda c: (c.points, c.id))
        return Exchange(seat, tuple(ordered[: legal.exchange[0]]))
    if legal.call is not None:
        return Call(seat)
    if legal.bet is not None:
        return Bet(seat, legal.bet[0])
    assert legal.raise_to is not None
    return Raise(seat, legal.raise_to[0])
