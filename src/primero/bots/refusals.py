"""Betting again after a refusal (R8), in real steps: what the heuristic and search bots
may bet at a turn where their bet was refused.

R8 lets a refused bettor bet or raise again at the same turn, below the refused amount.
A bot that re-bets one chip lower each time makes a person refuse twenty times in a row.
So both bots choose their re-bet from :func:`stepped`, a narrowing of the
legal moves by the number of refusals at this turn (:func:`refusals_at_turn`):

* after the first and the second refusal, a bet or raise of at most **half** the refused
  step: a bet below ``cap // 2`` chips, a raise to at most halfway between the open bet
  and the refused raise (so 40 becomes at most 20, then 10);
* after the third refusal, no more bets that can be refused: a bet of 0 where allowed
  (R5: a bet of 0 has no vote), else the other moves (an exchange in the first round,
  a call or a fold after a refused raise).

So a turn has at most three re-bets, and each asks for half of what was refused.

>>> from primero.engine.legal import LegalActions
>>> stepped(LegalActions(0, bet=(0, 39)), refusals=1, cap=40, current_bet=None).bet
(0, 20)
>>> stepped(LegalActions(0, bet=(0, 9)), refusals=3, cap=10, current_bet=None).bet
(0, 0)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from primero.engine.legal import LegalActions
from primero.engine.views import SeatView

__all__ = ["MAX_REBETS", "refusals_at_turn", "stepped", "stepped_legal"]

#: The most bets or raises that can be refused again at one turn.
MAX_REBETS: Final = 3


def refusals_at_turn(v: SeatView) -> int:
    """How many of this seat's bets or raises were refused at its current turn (R8),
    read from the public events (R9b): its bet or raise lines each followed only by ``n``
    votes, at the end of the log. 0 when it is not acting after a refusal.

    Args:
        v: the seat's view.

    Returns:
        The number of refusals in a row at this turn (0, 1, 2, ...).
    """
    if v.cap is None or v.seat is None:
        return 0
    log = v.public_events
    i = len(log) - 1
    count = 0
    while i >= 0:
        votes = 0
        while i >= 0 and log[i].kind == "vote" and not log[i].accept:
            votes += 1
            i -= 1
        if votes == 0 or i < 0:
            break
        event = log[i]
        if event.seat != v.seat or event.kind not in ("bet", "raise"):
            break
        count += 1
        i -= 1
    return count


def stepped(
    legal: LegalActions, *, refusals: int, cap: int | None, current_bet: int | None
) -> LegalActions:
    """``legal`` narrowed for a seat whose bet was refused ``refusals`` times at this turn
    (see the module docstring). Unchanged with no refusal or no cap.

    Args:
        legal: the seat's legal moves (already capped by the rules below ``cap``, R8).
        refusals: refusals at this turn (:func:`refusals_at_turn`).
        cap: the refused amount (a bet, or a raise's round total), the view's ``cap``.
        current_bet: the round's open bet (None when opening).

    Returns:
        The narrowed moves; never empty: when nothing else is left, the smallest legal
        bet or raise stays.
    """
    if refusals <= 0 or cap is None:
        return legal
    bet, raise_to = legal.bet, legal.raise_to
    if refusals >= MAX_REBETS:
        bet = (0, 0) if bet is not None and bet[0] == 0 else None
        raise_to = None
    else:
        if bet is not None:
            high = min(bet[1], cap // 2)
            bet = (bet[0], high) if high >= bet[0] else None
        if raise_to is not None:
            base = current_bet or 0
            high = min(raise_to[1], base + (cap - base) // 2)
            raise_to = (raise_to[0], high) if high >= raise_to[0] else None
    narrowed = replace(legal, bet=bet, raise_to=raise_to)
    if not (
        narrowed.exchange
        or narrowed.bet
        or narrowed.raise_to
        or narrowed.fold
        or narrowed.call is not None
    ):
        low = legal.bet or legal.raise_to
        assert low is not None
        if legal.bet is not None:
            return replace(legal, bet=(low[0], low[0]), raise_to=None)
        return replace(legal, bet=None, raise_to=(low[0], low[0]))
    return narrowed


def stepped_legal(v: SeatView) -> LegalActions:
    """The seat's legal moves as :func:`stepped` narrows them after refusals.

    Raises:
        ValueError: it is not this seat's move.
    """
    if v.legal is None:
        raise ValueError("no move is due from this seat")
    return stepped(v.legal, refusals=refusals_at_turn(v), cap=v.cap, current_bet=v.current_bet)
