"""Each rule of a hand written once, as pure functions over plain ints, bools and lists.

The checked engine (:class:`~primero.engine.state.HandState`) and the trusted random-playout
kernel (:mod:`primero.research.fastsim`) both call these, so that a rule changes in one place:
the amounts a seat may bet or raise to (R5, R8), who acts next (R4.3, R4.6, R5), who
votes on a bet and in what order (R8), which categories a seat may declare (R6) and
which discards a new stock is made of (R8b). Pots and their award are in
:mod:`primero.engine.pots`, on the same terms.

Seats are 0-based ints in seat order (p1 first); chips are ints; ``folded``,
``stacks``, ``acted`` and ``round_bets`` are per-seat sequences.

>>> raise_range(current=4, min_raise=2, round_bet=1, stack=9, cap=None)
(6, 10)
>>> voters(2, [False, True, False, False])
(3, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

from primero.engine.hands import Category
from primero.engine.rules import Rules

__all__ = [
    "SEATS_AFTER",
    "able_to_bet",
    "declarable",
    "exchange_order",
    "first_round_options",
    "limit_pot",
    "next_exchanger",
    "next_in_seat_order",
    "next_to_act",
    "opening_range",
    "raise_range",
    "reshuffle_pool",
    "voted",
    "voters",
]

T = TypeVar("T")

#: ``SEATS_AFTER[n][s]``: the seats after ``s`` in a hand of ``n`` players, going round
#: in seat order and ending with ``s`` itself (R3, R5, R8).
SEATS_AFTER: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple((s + i) % n for i in range(1, n + 1)) for s in range(n)) for n in range(9)
)

#: ``_OTHERS[n][s]``: the same without ``s`` (R8 voters, before skipping folded players).
_OTHERS: Final = tuple(tuple(ring[:-1] for ring in rings) for rings in SEATS_AFTER)

_CATEGORIES: Final = tuple(Category)
#: ``_DECLARABLE[c]``: the categories from ``c`` up (R6).
_DECLARABLE: Final = tuple(tuple(c for c in _CATEGORIES if c >= low) for low in _CATEGORIES)


# ------------------------------------------------------------------ amounts (R4.3, R5, R8)


def first_round_options(rules: Rules) -> tuple[tuple[int, ...], int]:
    """What a seat facing no bet may do in the first round (R4.3): the numbers of cards it
    may exchange, and the least it may bet (chips).

    >>> first_round_options(Rules())
    ((1, 2), 1)
    """
    exchange = (0, 1, 2) if rules.first_round_stand else (1, 2)
    return exchange, 0 if rules.first_round_zero_bet else 1


def limit_pot(rules: Rules, contributed: Sequence[int]) -> int | None:
    """The pot that limits bets and raises (R5, house rule ``bet_limit``): every chip put
    in this hand, antes and this round's bets included (a bet refused by vote, R8, was
    never in it), under ``bet_limit = "pot"``; None under ``"none"`` (no limit).

    >>> limit_pot(Rules(bet_limit="pot"), [3, 1, 5]), limit_pot(Rules(), [3, 1, 5])
    (9, None)
    """
    if rules.bet_limit != "pot":
        return None
    total = 0
    for chips in contributed:
        total += chips
    return total


def opening_range(
    low: int, stack: int, cap: int | None, pot: int | None = None
) -> tuple[int, int] | None:
    """The chips an opening bet may be (R5): ``low`` (0, or 1 in the first round, R4.3)
    to the whole ``stack``, strictly below ``cap``, the amount just refused (R8), and
    under ``bet_limit = "pot"`` at most ``pot`` (:func:`limit_pot`; None: no limit).

    >>> opening_range(1, 50, None, pot=4), opening_range(1, 3, None, pot=4)
    ((1, 4), (1, 3))

    Returns:
        The inclusive range ``(low, high)``, or None when no bet is possible.
    """
    high = stack if cap is None or stack < cap else cap - 1
    if pot is not None and pot < high:
        high = pot
    return (low, high) if low <= high else None


def raise_range(
    current: int,
    min_raise: int,
    round_bet: int,
    stack: int,
    cap: int | None,
    raises: int = 0,
    max_raises: int | None = None,
    others_with_chips: int = 1,
    pot: int | None = None,
) -> tuple[int, int] | None:
    """The round totals a raise may reach (R5): at least the bet to match plus
    ``min_raise`` (no all-in raise for less), at most what the seat put in this round
    plus its stack, and strictly below ``cap``, the amount just refused (R8).

    Under ``bet_limit = "pot"`` (``pot`` is :func:`limit_pot`, the chips in the pot
    before this raise; None: no limit) the raise adds at most the pot after calling:
    the round total is at most ``current + pot + (current - round_bet)``.

    >>> raise_range(current=4, min_raise=1, round_bet=0, stack=50, cap=None, pot=10)
    (5, 18)

    No raise at all once ``raises`` raises stood this round and ``max_raises`` (None: no
    cap) is reached, or when no other player still in has chips (``others_with_chips``
    is 0: no pointless raises).

    Returns:
        The inclusive range ``(low, high)`` of round totals, or None when no raise is
        allowed.
    """
    if not others_with_chips or (max_raises is not None and raises >= max_raises):
        return None
    low = current + min_raise
    high = round_bet + stack
    if cap is not None and high >= cap:
        high = cap - 1
    if pot is not None:
        most = current + pot + current - round_bet
        if most < high:
            high = most
    return (low, high) if low <= high else None


def declarable(held: int) -> tuple[Category, ...]:
    """The categories a seat holding a hand of category ``held`` may declare: the truth or
    higher (R6), ascending."""
    return _DECLARABLE[held]


# ------------------------------------------------------------------ votes (R8)


def voted(amount: int, refusal: bool, still_in: int) -> bool:
    """Whether a bet or raise of ``amount`` goes to a vote (R8): more than 0, with the
    house rule ``refusal`` on and at least three players still in."""
    return amount > 0 and refusal and still_in >= 3


def voters(bettor: int, folded: Sequence[bool]) -> tuple[int, ...]:
    """Who votes on a bet of ``bettor`` and in what order (R8): every other player still
    in (all-in ones too), from the seat after the bettor, going round."""
    out: list[int] = []
    for s in _OTHERS[len(folded)][bettor]:
        if not folded[s]:
            out.append(s)
    return tuple(out)


# ------------------------------------------------------------------ turn order (R4.3, R4.6, R5)


def able_to_bet(folded: Sequence[bool], stacks: Sequence[int]) -> list[int]:
    """The seats that take turns in a betting round (R5): still in, with chips, in seat
    order. The first of them opens it; with fewer than two the round is skipped."""
    able: list[int] = []
    for s in range(len(folded)):
        if not folded[s] and stacks[s] > 0:
            able.append(s)
    return able


def next_to_act(
    seat: int,
    folded: Sequence[bool],
    stacks: Sequence[int],
    acted: Sequence[bool],
    round_bets: Sequence[int],
    current: int,
) -> int | None:
    """Who acts after ``seat`` in a betting round (R5): the next seat going round that is
    still in, has chips, and has not acted since the last standing bet or has not matched
    ``current`` (0 when no bet is open); None when the round is over."""
    for s in SEATS_AFTER[len(folded)][seat]:
        if not folded[s] and stacks[s] > 0 and (not acted[s] or round_bets[s] < current):
            return s
    return None


def next_exchanger(
    seat: int, folded: Sequence[bool], stacks: Sequence[int], acted: Sequence[bool]
) -> int | None:
    """Who takes the next first-round turn after ``seat`` exchanged (R4.3): the next seat
    in seat order (no wrapping) still in, with chips, that has not acted; None when every
    player has had a turn and no bet stands: the deal is void."""
    for s in range(seat + 1, len(folded)):
        if not folded[s] and stacks[s] > 0 and not acted[s]:
            return s
    return None


def exchange_order(folded: Sequence[bool]) -> list[int]:
    """Who exchanges in the second exchange (R4.6) and in what order: every player still
    in (all-in ones too), in seat order, each once (no wrapping)."""
    order: list[int] = []
    for s in range(len(folded)):
        if not folded[s]:
            order.append(s)
    return order


def next_in_seat_order(seat: int, folded: Sequence[bool]) -> int | None:
    """Who exchanges after ``seat`` in the second exchange (R4.6): the next seat of
    :func:`exchange_order`; None when everyone has."""
    for s in exchange_order(folded):
        if s > seat:
            return s
    return None


# ------------------------------------------------------------------ the stock (R8b)


def reshuffle_pool(discards: Sequence[T], thrown: Sequence[T]) -> list[T]:
    """The cards that form a new stock when the stock runs out (R8b): the discards since
    the last shuffle, in discard-pile order, less the cards the player being dealt to has
    just thrown (which start the new discard pile). Works on cards or card ids."""
    return [c for c in discards if c not in thrown]
