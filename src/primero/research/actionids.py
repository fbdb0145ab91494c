"""Stable whole-number ids for a seat's actions, shared by the research interfaces.

OpenSpiel (:mod:`primero.research.openspiel`), PettingZoo (:mod:`primero.research.pettingzoo`) and
Gymnasium (:mod:`primero.research.gymnasium_env`) number a seat's actions the same way, for a game
whose largest starting stack is ``S`` chips (``num_actions(S) == 22 + 2 * S`` ids):

=========================  ==============================================================
id                          action (record line)
=========================  ==============================================================
0                           fold (``f``, R5)
1                           call, or check when the bet is 0 (``c``, R5)
2                           accept the bet under vote (``y``, R8)
3                           refuse the bet under vote (``n``, R8)
4 .. 8                      declare numerus, primero, supremus, fluxus, chorus (``dc``, R6)
9                           stand pat: exchange no card (``x``, R4.3 house rule, R4.6)
10 .. 13                    exchange the card at position 0, 1, 2, 3 of the hand
14 .. 19                    exchange the cards at positions (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
20 .. 20 + S                bet ``id - 20`` chips (``b X``, R5)
21 + S .. 21 + 2S           raise to ``id - 21 - S`` chips in total this round (``r X``, R5)
=========================  ==============================================================

Positions refer to the seat's hand **sorted in deck order** (by card id, ``primero.DECK``),
so an id names the same cards whatever order the cards were dealt in. The dealer's
chance outcomes are card ids 0..39 (``primero.DECK[i]``), one card at a time.

>>> from primero.engine.cards import parse_cards
>>> from primero.engine.legal import LegalActions
>>> legal_ids(LegalActions(0, exchange=(1, 2), bet=(1, 3)), hand_size=2, max_stack=10)
[10, 11, 14, 21, 22, 23]
>>> action_of(14, seat=0, hand=parse_cards("Kc 7h"), max_stack=10)
Exchange(seat=0, cards=(Card('Kc'), Card('7h')))
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations
from typing import Final

from primero.engine.actions import Action, Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import Card
from primero.engine.hands import Category
from primero.engine.legal import LegalActions
from primero.engine.words import move_name

__all__ = [
    "ACCEPT",
    "BET0",
    "CALL",
    "DECLARE0",
    "EXCHANGE0",
    "EXCHANGE_POSITIONS",
    "FOLD",
    "REFUSE",
    "action_of",
    "describe",
    "id_of",
    "legal_ids",
    "mask_of",
    "num_actions",
    "raise0",
    "starting_stacks",
]

FOLD: Final = 0
CALL: Final = 1
ACCEPT: Final = 2
REFUSE: Final = 3
#: ``DECLARE0 + int(category)`` declares ``category`` (numerus 0 … chorus 4).
DECLARE0: Final = 4
#: ``EXCHANGE0 + i`` discards the positions ``EXCHANGE_POSITIONS[i]`` of the sorted hand.
EXCHANGE0: Final = 9
EXCHANGE_POSITIONS: Final[tuple[tuple[int, ...], ...]] = (
    (),
    *((i,) for i in range(4)),
    *combinations(range(4), 2),
)
#: ``BET0 + x`` bets ``x`` chips.
BET0: Final = EXCHANGE0 + len(EXCHANGE_POSITIONS)


def raise0(max_stack: int) -> int:
    """The id of "raise to 0 chips": ``raise0(S) + x`` raises to ``x`` chips (x <= S)."""
    return BET0 + max_stack + 1


def num_actions(max_stack: int) -> int:
    """How many distinct action ids a game with largest starting stack ``max_stack`` has.

    Args:
        max_stack: the largest starting stack of the game (chips, >= 1).

    Returns:
        ``22 + 2 * max_stack``: bets and raises of 0..max_stack chips each get an id.
    """
    return raise0(max_stack) + max_stack + 1


def mask_of(ids: Sequence[int], size: int) -> bytearray:
    """A mask of ``size`` bytes, 1 at each of ``ids`` (ascending, distinct, in range) and
    0 elsewhere.

    The ids are set one by one until the rest are consecutive (the bet or raise amounts,
    the long run at the end of a seat's legal ids), which are set as one slice: a mask
    of 200 legal ids costs a few single bytes and one slice copy. View it as an array
    with ``numpy.frombuffer(mask, dtype=numpy.int8)``.

    >>> list(mask_of([0, 1, 20, 21, 22, 30], 32)[18:24])
    [0, 0, 1, 1, 1, 0]
    """
    out = bytearray(size)
    listed = ids if isinstance(ids, list) else list(ids)  # a list is indexed natively
    n = len(listed)
    if n:
        last = listed[n - 1]
        for j in range(n):
            first = listed[j]
            if last - first == n - 1 - j:  # the rest is one run
                out[first : last + 1] = b"\x01" * (n - j)
                break
            out[first] = 1
    return out


def _sorted(hand: Sequence[Card]) -> list[Card]:
    return sorted(hand, key=lambda c: c.id)


def legal_ids(legal: LegalActions, *, hand_size: int, max_stack: int) -> list[int]:
    """The ids of every action ``legal`` allows, ascending (R4–R8).

    Args:
        legal: what the seat to act may do (``HandState.legal_actions()`` or a view's
            ``legal``); a deal or a finished hand gives no ids.
        hand_size: cards the seat holds (2 or 4), for the exchange positions.
        max_stack: the game's largest starting stack (chips), for the bet/raise ids.

    Returns:
        The ids, ascending and without repeats; empty when no seat's action is due.
    """
    if legal.seat is None or legal.seat < 0:
        return []
    if legal.vote:
        return [ACCEPT, REFUSE]
    if legal.declare:
        ids = [DECLARE0 + int(c) for c in legal.declare]
        return [FOLD, *ids] if legal.fold else ids
    out: list[int] = []
    if legal.fold:
        out.append(FOLD)
    if legal.call is not None:
        out.append(CALL)
    if legal.exchange:
        out.extend(_exchange_ids(legal.exchange, hand_size))
    if legal.bet is not None:
        low, high = legal.bet
        out.extend(range(BET0 + low, BET0 + high + 1))
    if legal.raise_to is not None:
        low, high = legal.raise_to
        out.extend(range(raise0(max_stack) + low, raise0(max_stack) + high + 1))
    return out


@cache
def _exchange_ids(counts: tuple[int, ...], hand_size: int) -> tuple[int, ...]:
    """The exchange ids discarding ``counts`` cards from a hand of ``hand_size``."""
    return tuple(
        EXCHANGE0 + i
        for i, positions in enumerate(EXCHANGE_POSITIONS)
        if len(positions) in counts and all(p < hand_size for p in positions)
    )


def action_of(action_id: int, *, seat: int, hand: Sequence[Card], max_stack: int) -> Action:
    """The action an id stands for, for ``seat`` holding ``hand``.

    Args:
        action_id: an id in ``0 .. num_actions(max_stack) - 1``.
        seat: the 0-based seat acting.
        hand: the seat's cards (any order: positions count in deck order).
        max_stack: the game's largest starting stack (chips).

    Returns:
        The :mod:`primero.engine.actions` value (not checked against the rules: apply it with
        ``HandState.apply`` for that, or take ids from :func:`legal_ids`).

    Raises:
        ValueError: the id is out of range, or names a hand position the hand lacks.
    """
    if not 0 <= action_id < num_actions(max_stack):
        raise ValueError(
            f"action id {action_id} is out of range: ids are 0..{num_actions(max_stack) - 1}"
        )
    if action_id == FOLD:
        return Fold(seat)
    if action_id == CALL:
        return Call(seat)
    if action_id in (ACCEPT, REFUSE):
        return Vote(seat, action_id == ACCEPT)
    if action_id < EXCHANGE0:
        return Declare(seat, Category(action_id - DECLARE0))
    if action_id < BET0:
        positions = EXCHANGE_POSITIONS[action_id - EXCHANGE0]
        cards = _sorted(hand)
        if any(p >= len(cards) for p in positions):
            raise ValueError(
                f"action id {action_id} discards hand positions {positions}, but the hand "
                f"holds {len(cards)} cards"
            )
        return Exchange(seat, tuple(cards[p] for p in positions))
    if action_id < raise0(max_stack):
        return Bet(seat, action_id - BET0)
    return Raise(seat, action_id - raise0(max_stack))


def id_of(action: Action, *, hand: Sequence[Card], max_stack: int) -> int:
    """The id of a seat's action (the inverse of :func:`action_of`).

    Args:
        action: a seat's action (not a deal).
        hand: the seat's cards before the action.
        max_stack: the game's largest starting stack (chips).

    Raises:
        ValueError: a deal, an amount above ``max_stack``, or exchange cards not in ``hand``.
    """
    if isinstance(action, Fold):
        return FOLD
    if isinstance(action, Call):
        return CALL
    if isinstance(action, Vote):
        return ACCEPT if action.accept else REFUSE
    if isinstance(action, Declare):
        return DECLARE0 + int(action.category)
    if isinstance(action, Exchange):
        cards = _sorted(hand)
        try:
            positions = tuple(sorted(cards.index(c) for c in action.cards))
        except ValueError:
            raise ValueError(f"{action.line()!r} discards a card not in the hand") from None
        return EXCHANGE0 + EXCHANGE_POSITIONS.index(positions)
    if isinstance(action, Bet | Raise):
        if not 0 <= action.amount <= max_stack:
            raise ValueError(f"{action.line()!r}: amounts have ids for 0..{max_stack} chips")
        base = BET0 if isinstance(action, Bet) else raise0(max_stack)
        return base + action.amount
    raise ValueError(f"a deal has no action id ({action.line()!r}): deals are chance outcomes")


def describe(action_id: int, *, hand: Sequence[Card], max_stack: int, to_call: int = 0) -> str:
    """A short text for an id, unique among the ids legal at one moment.

    Args:
        action_id: the id.
        hand: the seat's cards (exchanges are named by their cards).
        max_stack: the game's largest starting stack (chips).
        to_call: chips a call puts in (0 writes "check").

    Returns:
        :func:`primero.engine.words.move_name` of its action, cards in record notation:
        ``"fold"``, ``"call 3"``, ``"check"``, ``"accept the bet"``, ``"declare
        fluxus"``, ``"stand pat"``, ``"exchange 7h Kc"``, ``"bet 5"``, ``"raise to 12"``;
        an id that names positions the hand lacks gives ``"exchange positions (0, 3)"``.
    """
    action: Action
    if EXCHANGE0 <= action_id < BET0:
        positions = EXCHANGE_POSITIONS[action_id - EXCHANGE0]
        cards = _sorted(hand)
        if any(p >= len(cards) for p in positions):
            return f"exchange positions {positions}"
        action = Exchange(0, tuple(cards[p] for p in positions))
    else:
        action = action_of(action_id, seat=0, hand=hand, max_stack=max_stack)
    return move_name(action, to_call=to_call, card_text=str)


def starting_stacks(players: int, stack: int, stacks: Sequence[int] | None) -> tuple[int, ...]:
    """Each seat's starting chips for an environment: ``stacks`` if given, else ``stack``
    for every seat. Ids then cover amounts up to the largest of them.

    Raises:
        ValueError: ``stack`` is not a whole number >= 1, or ``stacks`` is not ``players``
            whole numbers >= 1.
    """
    if type(stack) is not int or stack < 1:
        raise ValueError(f"stack must be a whole number of chips >= 1, not {stack!r}")
    if stacks is None:
        return (stack,) * players
    out = tuple(stacks)
    if len(out) != players or any(type(x) is not int or x < 1 for x in out):
        raise ValueError(
            f"stacks must be {players} whole numbers of chips >= 1 (one per seat, p1 "
            f"first), not {stacks!r}"
        )
    return out
