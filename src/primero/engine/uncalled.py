"""The bet nobody called, and the pots as won (R7): one outcome shape for every reader.

The engine awards the part of a top bet that nobody matched as a pot with a single
eligible player (R7). A player reads it otherwise: the chips are *returned*, not won.
``primero replay --json``, :meth:`primero.engine.history.ReplayOutcome.to_json`, the
terminal, the web table and the session summary all say it this way: the pots as won
(:func:`won_awards`, the uncalled chips taken out of the last pot, a pot left with 0
chips not listed) and the chips returned (:func:`uncalled_bet`). The pots as won and
the chips returned together hold every chip put in during the hand.

>>> uncalled_bet([3, 10, 1], [False, False, True])
Uncalled(seat=1, chips=7)
>>> uncalled_bet([3, 3, 1], [False, False, True]) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from primero.engine.pots import Award, Pot

__all__ = ["Uncalled", "uncalled_bet", "won_awards"]


@dataclass(frozen=True, slots=True)
class Uncalled:
    """Chips a player bet that nobody called; they go back to the player (R7).

    Attributes:
        seat: the 0-based seat they go back to.
        chips: how many (> 0).
    """

    seat: int
    chips: int


def uncalled_bet(contributed: Sequence[int], folded: Sequence[bool]) -> Uncalled | None:
    """The uncalled part of a finished hand's top bet, or None (R7).

    The player still in who put in strictly more than every other seat (folded seats
    included) gets the difference back: nobody called it.

    Args:
        contributed: chips each seat put in during the hand, antes included.
        folded: whether each seat folded.
    """
    if len(contributed) < 2:
        return None
    order = sorted(range(len(contributed)), key=lambda s: -contributed[s])
    top, second = order[0], order[1]
    excess = contributed[top] - contributed[second]
    if excess <= 0 or folded[top]:
        return None
    return Uncalled(top, excess)


def won_awards(awards: Sequence[Award], back: Uncalled | None) -> list[Award]:
    """The pots of a finished hand as won: the engine's awards less the uncalled bet
    ``back`` (R7), taken out of the last pot; a pot left with 0 chips is not listed
    (it held only the returned chips: there was nothing to win)."""
    out = list(awards)
    if back is None or not out:
        return out
    last = out[-1]
    amount = last.pot.amount - back.chips
    if last.winners != (back.seat,) or amount < 0:
        return out  # not the shape R7 gives; say the engine's pots as they are
    if amount == 0:
        return out[:-1]
    out[-1] = Award(Pot(amount, last.pot.eligible), last.winners, (amount,))
    return out
