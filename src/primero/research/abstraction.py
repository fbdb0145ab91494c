"""A smaller action set for learning: bets and raises as fractions of the pot.

The full ids of :mod:`primero.research.actionids` give every amount its own id (``22 +
2·S`` ids: 222 for stacks of 100). This abstraction keeps every other choice and
replaces the amounts by :data:`NUM_ABSTRACT` ``= 32`` ids whatever the stacks:

==========  ===========================================================================
id          action (record line)
==========  ===========================================================================
0 .. 19     as in :mod:`~primero.research.actionids`: fold ``f``, call/check ``c``,
            accept ``y``, refuse ``n``, declare ``dc ...`` (4..8), stand pat ``x``
            (9), exchange positions of the sorted hand (10..19)
20 .. 25    bet: the smallest bet allowed, 1/4, 1/2, 1 and 2 pots, all-in (``b X``)
26 .. 31    raise: the smallest raise allowed, then raise by 1/4, 1/2, 1 and 2 pots
            over the bet to match, all-in (``r X``)
==========  ===========================================================================

"Pot" is every chip put in this hand, antes included (``SeatView.pot_total``). An
amount is rounded to whole chips and then kept in the range the rules allow now (R5,
R8: a refused bettor's cap, ``min_raise``, the stack), so an id is legal whenever a bet
(or raise) is; two ids may then name the same amount. :func:`concrete_id` maps an
abstract id back to the full id (and :func:`record_line` to the record line), which is
what the environments apply: the rules and the record stay those of the full game.

>>> from primero.engine.legal import LegalActions
>>> legal = LegalActions(0, exchange=(1, 2), bet=(1, 19))
>>> abstract_legal_ids(legal, hand_size=2)
[10, 11, 14, 20, 21, 22, 23, 24, 25]
>>> [concrete_id(a, legal, pot=4, current_bet=0, max_stack=20) - 20 for a in range(20, 26)]
[1, 1, 2, 4, 8, 19]
"""

from __future__ import annotations

from typing import Final

from primero.engine.actions import Action
from primero.engine.cards import Card
from primero.engine.legal import LegalActions
from primero.research.actionids import BET0, action_of, legal_ids, raise0

__all__ = [
    "ABSTRACT_BET0",
    "ABSTRACT_RAISE0",
    "FRACTIONS",
    "NUM_ABSTRACT",
    "abstract_id_of",
    "abstract_legal_ids",
    "concrete_action",
    "concrete_id",
    "describe_abstract",
    "env_action",
    "env_legal_ids",
    "record_line",
]

#: Pot fractions of the middle bet and raise ids (the smallest comes first, all-in last).
FRACTIONS: Final = (0.25, 0.5, 1.0, 2.0)
#: ``ABSTRACT_BET0 + k``: the smallest bet (k = 0), FRACTIONS[k - 1] of the pot, all-in.
ABSTRACT_BET0: Final = BET0
#: ``ABSTRACT_RAISE0 + k``: the same for raises.
ABSTRACT_RAISE0: Final = ABSTRACT_BET0 + len(FRACTIONS) + 2
#: How many abstract ids there are.
NUM_ABSTRACT: Final = ABSTRACT_RAISE0 + len(FRACTIONS) + 2

_SIZES: Final = len(FRACTIONS) + 2


def abstract_legal_ids(legal: LegalActions, *, hand_size: int) -> list[int]:
    """The abstract ids legal now, ascending (every bet id when a bet is allowed, every
    raise id when a raise is).

    Args:
        legal: what the seat to act may do (a view's ``legal``).
        hand_size: cards the seat holds (2 or 4), for the exchange positions.
    """
    out = [i for i in legal_ids(legal, hand_size=hand_size, max_stack=0) if i < BET0]
    if legal.bet is not None:
        out.extend(range(ABSTRACT_BET0, ABSTRACT_BET0 + _SIZES))
    if legal.raise_to is not None:
        out.extend(range(ABSTRACT_RAISE0, ABSTRACT_RAISE0 + _SIZES))
    return out


def _amount(k: int, low: int, high: int, base: int, pot: int) -> int:
    if k == 0:
        return low
    if k == _SIZES - 1:
        return high
    return min(max(base + round(FRACTIONS[k - 1] * pot), low), high)


def concrete_id(
    abstract_id: int, legal: LegalActions, *, pot: int, current_bet: int, max_stack: int
) -> int:
    """The full action id (:mod:`~primero.research.actionids`) an abstract id stands for now.

    Args:
        abstract_id: one of :func:`abstract_legal_ids`.
        legal: what the seat may do now.
        pot: chips in the pots now, antes included.
        current_bet: the round's bet to match (chips; 0 when none): a raise of a share
            of the pot goes to this plus the share.
        max_stack: the game's largest starting stack (the full ids' range).

    Raises:
        ValueError: the id is not legal now.
    """
    if abstract_id < BET0:
        return abstract_id
    if ABSTRACT_BET0 <= abstract_id < ABSTRACT_RAISE0 and legal.bet is not None:
        low, high = legal.bet
        return BET0 + _amount(abstract_id - ABSTRACT_BET0, low, high, 0, pot)
    if ABSTRACT_RAISE0 <= abstract_id < NUM_ABSTRACT and legal.raise_to is not None:
        low, high = legal.raise_to
        k = abstract_id - ABSTRACT_RAISE0
        return raise0(max_stack) + _amount(k, low, high, current_bet, pot)
    raise ValueError(f"abstract action id {abstract_id} is not legal now")


def concrete_action(
    abstract_id: int,
    legal: LegalActions,
    *,
    seat: int,
    hand: tuple[Card, ...] | list[Card],
    pot: int,
    current_bet: int,
    max_stack: int,
) -> Action:
    """The engine action an abstract id stands for (see :func:`concrete_id`).

    Raises:
        ValueError: the id is not legal now.
    """
    full = concrete_id(abstract_id, legal, pot=pot, current_bet=current_bet, max_stack=max_stack)
    return action_of(full, seat=seat, hand=hand, max_stack=max_stack)


def record_line(
    abstract_id: int,
    legal: LegalActions,
    *,
    seat: int,
    hand: tuple[Card, ...] | list[Card],
    pot: int,
    current_bet: int,
    max_stack: int,
) -> str:
    """The record line an abstract id plays now, e.g. ``"p2 r 14"`` (docs/record-format.md).

    Raises:
        ValueError: the id is not legal now.
    """
    return concrete_action(
        abstract_id,
        legal,
        seat=seat,
        hand=hand,
        pot=pot,
        current_bet=current_bet,
        max_stack=max_stack,
    ).line()


def describe_abstract(abstract_id: int) -> str:
    """A short name for an abstract bet or raise id, e.g. ``"bet 1/2 pot"``; other ids
    are described by :func:`primero.research.actionids.describe`."""
    if abstract_id < ABSTRACT_BET0 or abstract_id >= NUM_ABSTRACT:
        raise ValueError(f"{abstract_id} is not an abstract bet or raise id")
    verb = "bet" if abstract_id < ABSTRACT_RAISE0 else "raise"
    k = (abstract_id - ABSTRACT_BET0) % _SIZES
    if k == 0:
        return f"{verb} the least"
    if k == _SIZES - 1:
        return f"{verb} all-in"
    share = {0.25: "1/4", 0.5: "1/2", 1.0: "1", 2.0: "2"}[FRACTIONS[k - 1]]
    return f"{verb} {share} pot" + ("" if verb == "bet" else " more")


def env_legal_ids(
    legal: LegalActions, *, hand_size: int, max_stack: int, abstract: bool
) -> list[int]:
    """The legal ids of an environment's action set: the full ids, or the abstract ones."""
    if abstract:
        return abstract_legal_ids(legal, hand_size=hand_size)
    return legal_ids(legal, hand_size=hand_size, max_stack=max_stack)


def env_action(
    action_id: int,
    legal: LegalActions,
    *,
    seat: int,
    hand: tuple[Card, ...] | list[Card],
    pot: int,
    current_bet: int,
    max_stack: int,
    abstract: bool,
) -> Action:
    """The engine action of an environment's id (full or abstract; take ids from
    :func:`env_legal_ids`, which the action mask shows).

    Raises:
        ValueError: an abstract bet or raise id when no bet or raise is allowed.
    """
    if abstract:
        return concrete_action(
            action_id,
            legal,
            seat=seat,
            hand=hand,
            pot=pot,
            current_bet=current_bet,
            max_stack=max_stack,
        )
    return action_of(action_id, seat=seat, hand=hand, max_stack=max_stack)


def abstract_id_of(
    full_id: int, legal: LegalActions, *, pot: int, current_bet: int, max_stack: int
) -> int:
    """The abstract id closest to a full id (for a player of the full game, such as a
    built-in bot, in an abstract game): the same id below 20, else the bet (or raise) id
    whose amount now is nearest (the lower id on a tie).

    Raises:
        ValueError: a bet or raise id when no bet or raise is allowed now.
    """
    if full_id < BET0:
        return full_id
    is_raise = full_id >= raise0(max_stack)
    first = ABSTRACT_RAISE0 if is_raise else ABSTRACT_BET0
    if (legal.raise_to if is_raise else legal.bet) is None:
        raise ValueError(f"action id {full_id} is not legal now")
    return min(
        range(first, first + _SIZES),
        key=lambda a: abs(
            concrete_id(a, legal, pot=pot, current_bet=current_bet, max_stack=max_stack) - full_id
        ),
    )
