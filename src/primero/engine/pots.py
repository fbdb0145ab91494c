"""Pots, side pots and their award under both tie rules (R7).

>>> [(p.amount, p.eligible) for p in build_pots([10, 31, 31, 1], [False, False, False, True])]
[(31, (0, 1, 2)), (42, (1, 2))]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from primero.engine.frozen import by_fields

__all__ = [
    "Award",
    "Pot",
    "award_pots",
    "best_seats",
    "build_pots",
    "divide_pot",
    "live_pots",
    "pot_layers",
    "settle",
]


class _Ordered(Protocol):
    def __gt__(self, other: Any, /) -> bool: ...


V = TypeVar("V", bound=_Ordered)


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot (R7).

    Attributes:
        amount: chips in the pot.
        eligible: the 0-based seats that may win it, in seat order.
    """

    amount: int
    eligible: tuple[int, ...]

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (:func:`~primero.engine.frozen.by_fields`)."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class Award:
    """Who won one pot and how many chips each winner took (R7).

    Attributes:
        pot: the pot.
        winners: the 0-based seats that took chips from it, in seat order.
        shares: chips each winner took, aligned with ``winners``; sums to ``pot.amount``.
    """

    pot: Pot
    winners: tuple[int, ...]
    shares: tuple[int, ...]

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (:func:`~primero.engine.frozen.by_fields`)."""
        return by_fields(self)


def build_pots(contributed: Sequence[int], folded: Sequence[bool]) -> list[Pot]:
    """Split the chips put in during a hand into a main pot and side pots (R7).

    One pot per distinct contribution level of the players still in (lowest first);
    each holds, from every player (folded ones too), the chips between the previous level
    and this one, and is eligible to the players still in who reached the level. Chips of
    folded players above the highest level go into the last pot.

    Args:
        contributed: chips each seat put in during the hand, antes included.
        folded: whether each seat has folded; at least one seat must still be in.

    Returns:
        The pots, main pot first; pots of 0 chips are left out.

    Raises:
        ValueError: every seat has folded, or the sequences differ in length.
    """
    if len(contributed) != len(folded):
        raise ValueError("contributed and folded must have one entry per seat")
    if all(folded):
        raise ValueError("at least one player must still be in")
    return [Pot(amount, eligible) for amount, eligible in pot_layers(contributed, folded)]


def pot_layers(
    contributed: Sequence[int], folded: Sequence[bool]
) -> list[tuple[int, tuple[int, ...]]]:
    """The pots of :func:`build_pots` as plain ``(chips, eligible seats)`` pairs (R7).

    The one rule of pot building, shared by :func:`build_pots` and the kernel
    :mod:`primero.research.fastsim`. ``contributed`` and ``folded`` have one entry per seat and at
    least one seat is still in (not checked here: see :func:`build_pots`).

    >>> pot_layers([10, 31, 31, 1], [False, False, False, True])
    [(31, (0, 1, 2)), (42, (1, 2))]
    """
    inside: list[int] = []
    one_level = True
    for s in range(len(folded)):
        if not folded[s]:
            if inside and contributed[s] != contributed[inside[0]]:
                one_level = False
            inside.append(s)
    if one_level:  # the usual case: one pot, every player still in eligible
        total = sum(contributed)
        return [(total, tuple(inside))] if total else []
    levels: list[int] = []
    for s in inside:
        if contributed[s] not in levels:
            levels.append(contributed[s])
    levels.sort()
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    top = levels[-1]
    eligible = tuple(inside)  # the players still in who reached the level
    for level in levels:
        amount = 0
        for c in contributed:  # each player's chips between the previous level and this
            if c > previous:
                amount += (c if level == top or c < level else level) - previous
        if amount:
            pots.append((amount, eligible))
        if level != top:  # who reached the next level: those above this one
            above: list[int] = []
            for s in eligible:
                if contributed[s] > level:
                    above.append(s)
            eligible = tuple(above)
        previous = level
    return pots


def best_seats(eligible: Sequence[int], values: Sequence[V | None]) -> list[int]:
    """The seats among ``eligible`` (seat order) holding the best value, in seat order
    (R7). ``values`` are :class:`~primero.engine.hands.HandValue` or their ``key`` ints.

    Raises:
        ValueError: an eligible seat has no value.
    """
    best: list[int] = []
    best_value: V | None = None
    for seat in eligible:
        value = values[seat]
        if value is None:
            raise ValueError(f"seat p{seat + 1} is eligible for a pot but has no hand")
        if best_value is None or value > best_value:
            best, best_value = [seat], value
        elif value == best_value:
            best.append(seat)
    return best


def divide_pot(
    amount: int, best: Sequence[int], split: bool
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Who takes a pot of ``amount`` chips among the tied best seats ``best`` (seat
    order), and how much each (R7): the eldest (first) takes it all, or under ``split``
    equal shares, the odd chips one at a time from p1.

    >>> divide_pot(7, [1, 3], split=True)
    ((1, 3), (4, 3))
    """
    if not split or len(best) == 1:
        return (best[0],), (amount,)
    share, odd = divmod(amount, len(best))
    shares: list[int] = []
    for i in range(len(best)):
        shares.append(share + 1 if i < odd else share)
    return tuple(best), tuple(shares)


def live_pots(
    contributed: Sequence[int], folded: Sequence[bool], stacks: Sequence[int]
) -> list[Pot]:
    """The pots of a hand in progress, as a table shows them (R7).

    While betting goes on, bets not yet called are not side pots: a side pot starts only
    at the level of a player still in who is all-in. So the levels are the contributions
    of all-in players still in, and everything above the highest of them is the last pot.
    A pot is eligible to the all-in players who reached its level and to every player
    still in with chips (they may still match it). At the showdown :func:`build_pots`
    gives the final pots.

    Args:
        contributed: chips each seat put in so far, antes included.
        folded: whether each seat has folded.
        stacks: chips each seat has left (0 = all-in).

    Returns:
        The pots, main pot first; pots of 0 chips are left out.

    Raises:
        ValueError: the sequences differ in length.
    """
    if not len(contributed) == len(folded) == len(stacks):
        raise ValueError("contributed, folded and stacks must have one entry per seat")
    seats = range(len(contributed))
    all_in = sorted({contributed[s] for s in seats if not folded[s] and stacks[s] == 0})
    pots: list[Pot] = []
    previous = 0
    for level in [*all_in, None]:
        amount = sum(
            max(0, (c if level is None else min(c, level)) - previous) for c in contributed
        )
        eligible = tuple(
            s
            for s in seats
            if not folded[s] and (stacks[s] > 0 or (level is not None and contributed[s] >= level))
        )
        if amount and eligible:
            pots.append(Pot(amount, eligible))
        elif amount and pots:  # folded chips above every level still in: the last pot
            pots[-1] = Pot(pots[-1].amount + amount, pots[-1].eligible)
        previous = previous if level is None else level
    return pots


def award_pots(
    pots: Sequence[Pot], values: Sequence[V | None], ties: str = "eldest"
) -> list[Award]:
    """Give each pot to the best eligible hand (R7).

    A pot with one eligible seat goes to it without comparing hands. Among equal best
    hands, ``ties="eldest"`` gives the pot to the tied seat earliest in seat order (p1
    first); ``ties="split"`` shares it equally, the odd chips going one at a time to the
    tied winners in seat order from p1.

    Args:
        pots: the pots, from :func:`build_pots`.
        values: each seat's hand value, a :class:`~primero.engine.hands.HandValue` or its
            ``key`` (None for seats not at the showdown; a pot with two or more eligible
            seats needs a value for each of them).
        ties: ``"eldest"`` or ``"split"``.

    Returns:
        One :class:`Award` per pot, in the same order.

    Raises:
        ValueError: an eligible seat of a contested pot has no value, or an unknown tie rule.
    """
    if ties not in ("eldest", "split"):
        raise ValueError(f"ties must be 'eldest' or 'split', not {ties!r}")
    awards: list[Award] = []
    for pot in pots:
        if len(pot.eligible) == 1:  # no hands compared
            awards.append(Award(pot, pot.eligible, (pot.amount,)))
            continue
        winners, shares = divide_pot(pot.amount, best_seats(pot.eligible, values), ties == "split")
        awards.append(Award(pot, winners, shares))
    return awards


#: One awarded pot as :func:`settle` reports it: ``(chips, eligible, winners, shares)``.
Settled = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def settle(
    contributed: Sequence[int],
    folded: Sequence[bool],
    values: Sequence[V | None],
    split: bool,
    stacks: list[int],
) -> list[Settled]:
    """Build every pot, award it and pay the winners (R7): the one showdown path of both
    engines, over plain values.

    ``HandState`` wraps the result in :class:`Pot` and :class:`Award`; the kernel
    :mod:`primero.research.fastsim` counts it. A pot with one eligible seat goes to it without
    comparing hands; among equal best values the eldest (first in seat order) takes the
    pot, or under ``split`` equal shares, the odd chips one at a time from p1
    (:func:`divide_pot`).

    Args:
        contributed: chips each seat put in during the hand, antes included.
        folded: whether each seat has folded; at least one seat is still in.
        values: each seat's hand value (:class:`~primero.engine.hands.HandValue` or its ``key``
            int); None for folded seats.
        split: the tie rule ``ties="split"`` (else ``"eldest"``).
        stacks: each seat's chips; the shares are added in place.

    Returns:
        ``(chips, eligible, winners, shares)`` per pot, main pot first (pots of 0 chips
        left out); seats in seat order, ``shares`` aligned with ``winners``.

    Raises:
        ValueError: an eligible seat of a contested pot has no value.

    >>> stacks = [0, 0, 0, 0]
    >>> settle([10, 31, 31, 1], [False, False, False, True], [3, 5, 5, None], True, stacks)
    [(31, (0, 1, 2), (1, 2), (16, 15)), (42, (1, 2), (1, 2), (21, 21))]
    >>> stacks
    [0, 37, 36, 0]
    """
    level = -1
    inside: list[int] = []
    for s in range(len(folded)):
        if not folded[s]:
            if level < 0:
                level = contributed[s]
            elif contributed[s] != level:
                break
            inside.append(s)
    else:  # the usual case: one pot, every player still in eligible
        total = sum(contributed)
        if not total:
            return []
        return [_award(total, tuple(inside), values, split, stacks)]
    settled: list[Settled] = []
    for amount, eligible in pot_layers(contributed, folded):
        settled.append(_award(amount, eligible, values, split, stacks))
    return settled


def _award(
    amount: int,
    eligible: tuple[int, ...],
    values: Sequence[V | None],
    split: bool,
    stacks: list[int],
) -> Settled:
    """Award one pot (R7) and pay its winners into ``stacks``."""
    if len(eligible) == 1:  # no hands compared
        stacks[eligible[0]] += amount
        return amount, eligible, eligible, (amount,)
    winners, shares = divide_pot(amount, best_seats(eligible, values), split)
    if len(winners) == 1:
        stacks[winners[0]] += amount
    else:
        for i in range(len(winners)):
            stacks[winners[i]] += shares[i]
    return amount, eligible, winners, shares
