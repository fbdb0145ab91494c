"""The random-playout kernel's tables and its view of the house rules (R2, R4.3, R5, R7, R8).

Read by the kernel :mod:`primero.research.fastsim` (the rare-path dealer is here too;
its record lines are written by :mod:`primero.engine.lines`, as the record's are):
card ids are ints 0-39 in deck order (:data:`primero.engine.cards.DECK`), seats are
0-based ints in seat order, chips are ints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import floor
from typing import Final, NamedTuple

from primero.engine.cards import DECK
from primero.engine.hands import Category, value_by_mask
from primero.engine.rulebook import first_round_options, reshuffle_pool
from primero.engine.rules import Rules

__all__ = [
    "ALONE",
    "ANY_EXCHANGE",
    "BIT",
    "CARD",
    "CATEGORY",
    "DECK_IDS",
    "DONE",
    "VALUE",
    "VOID",
    "Params",
    "Rand",
    "draw_short",
    "params",
    "showdown_keys",
]

#: A bound ``random()`` method (floats in [0, 1)): the kernel calls it directly.
Rand = Callable[[], float]

#: The evaluator's table of every hand's :class:`~primero.engine.hands.HandValue` by card mask
#: (``sum(1 << id)``); ``.key`` is ``category * 128 + points`` (R2).
VALUE: Final = value_by_mask()
#: ``BIT[id]``: the mask bit of card ``id`` (``1 << id``).
BIT: Final = tuple(1 << i for i in range(40))
#: ``CARD[id]``: the card's record name (``"7h"``, docs/record-format.md).
CARD: Final = tuple(str(card) for card in DECK)
#: ``CATEGORY[c]``: the :class:`~primero.engine.hands.Category` of index ``c``.
CATEGORY: Final = tuple(Category)
#: The full stock in card id order: a hand's deal starts from a copy of it (R4.2).
DECK_IDS: Final = list(range(40))
#: The numbers of cards a seat may exchange in the second exchange (R4.6).
ANY_EXCHANGE: Final = (0, 1, 2)

# Outcomes of a betting round.
DONE: Final = 0  #: the round is over, the hand goes on
ALONE: Final = 1  #: everyone else folded: the hand is over (R4.8)
VOID: Final = 2  #: first round: everyone exchanged and no bet stands (R4.3)


class Params(NamedTuple):
    """The house rules as the kernel reads them, once per hand: the rules themselves
    (every rule by its name, as declared on :class:`~primero.engine.rules.Rules`) and
    the values the kernel derives from them."""

    rules: Rules
    split: bool
    first_exchange: tuple[int, ...]
    first_low: int


def params(rules: Rules) -> Params:
    """The kernel's view of the house rules (R4.3 first-round options, R7 ties).

    >>> params(Rules()).first_exchange, params(Rules()).first_low
    ((1, 2), 1)
    """
    first_exchange, first_low = first_round_options(rules)
    return Params(
        rules=rules,
        split=rules.ties == "split",
        first_exchange=first_exchange,
        first_low=first_low,
    )


# ------------------------------------------------------------------ dealing (R8b) and records


def draw_short(
    count: int, stock: list[int], discard: list[int], thrown: Sequence[int], drand: Rand
) -> list[int]:
    """Deal ``count`` cards from a stock that holds fewer, as the Dealer does (R8b).

    All the stock cards are dealt first (in card id order, the order of
    ``HandState.stock()``); then the discards since the last shuffle, except ``thrown``
    (the receiver's just-thrown cards), form the new stock: the rest is drawn from them
    in discard-pile order, the undealt ones stay in the stock (kept in card id order),
    and the discard pile restarts with ``thrown``. Called by the kernel
    (a rare path: the stock runs out only with 7 or 8 players).

    Args:
        count: cards to deal (1 or 2), more than ``stock`` holds.
        stock: the undealt card ids in card id order; replaced by the new stock.
        discard: the discard pile since the last shuffle (card ids, in order, ending
            with ``thrown``); restarted with ``thrown``.
        thrown: the receiver's just-thrown card ids (empty in the second deal).
        drand: the dealer's ``random()``.

    Returns:
        The ``count`` card ids dealt, in the order dealt.
    """
    cards = stock[:]
    pool = reshuffle_pool(discard, thrown)
    for _ in range(count - len(stock)):
        cards.append(pool.pop(floor(drand() * len(pool))))
    stock[:] = sorted(pool)
    discard[:] = thrown
    return cards


def showdown_keys(hands: list[list[int]], folded: list[bool]) -> list[int]:
    """Each seat's hand value key at a showdown (``category * 128 + points``, R2, R7),
    -1 for a folded seat: the showdown step of the kernel and of the stepper.

    Args:
        hands: each seat's 4 card ids (empty for a folded seat).
        folded: whether each seat folded.
    """
    keys = [-1] * len(folded)
    for s in range(len(folded)):
        if not folded[s]:
            a, b, c, d = hands[s]
            keys[s] = VALUE[BIT[a] | BIT[b] | BIT[c] | BIT[d]].key
    return keys
