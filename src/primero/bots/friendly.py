"""Friendly bet sizes: a bot at a game-night table bets like people at a friendly table.

:class:`FriendlyBets` wraps any bot (an agent: a callable ``SeatView -> Action``) and
leaves every move alone except the size of its bets and raises (R5), which it caps:

* the **cap** of a move is the smaller of the pot (``pot_total``, with the call a raise
  makes first: pot-limit, as people at a friendly table play) and a quarter of the
  *smallest stack in the hand* (the chips behind of every seat not folded that still has
  chips, the bot's own included), and never below 1 chip
  (:func:`friendly_cap`);
* a **bet** of more than the cap becomes a bet of the cap (``Bet.amount``, chips);
* a **raise** whose increase over the open bet is more than the cap becomes a raise to
  ``current_bet + cap`` (a round total, chips); when the rules' least raise is above
  that, the bot calls instead (a check or a call is always allowed facing a bet, R5).

An amount is always one the rules allow now: the nearest to the cap inside the legal
range after the refusal steps of :mod:`primero.bots.refusals` (R8), so a capped bet
never re-bets more than the wrapped bot itself could after a refusal. Only where the
rules' least bet is above the cap is the least bet made (a bet of more than the cap is
then the only bet there is). The wrapper reads only the view (R9b) and draws no chance
of its own: the wrapped bot's seed alone decides (R10).

Game-night tables of ``primero serve`` use it for every bot seat
(:class:`primero.play.tablemodel.TableModel`'s ``friendly_bots``); the figures before
and after are in docs/online-play.md ("Bots at the table") and
``benchmarks/bench_table_bets.py --friendly``.

>>> from primero.engine.state import HandState
>>> from primero.engine.dealing import Dealer
>>> from primero.engine.views import view
>>> from primero.bots import make_bot
>>> s = HandState(["Ana", "Ben", "Cleo", "Dev"], [100, 100, 100, 100])
>>> Dealer.seeded(1).deal_into(s)
>>> bot = FriendlyBets(make_bot("heuristic", 1))
>>> bot.name
'heuristic'
>>> s.apply(bot(view(s, 0)))   # always legal
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from primero.bots.refusals import stepped_legal
from primero.engine.actions import Action, Bet, Call, Raise

if TYPE_CHECKING:
    from primero.engine.match import Agent
    from primero.engine.views import SeatView

__all__ = ["POT_SHARE", "STACK_SHARE", "FriendlyBets", "friendly_cap"]

#: The cap as a share of the pot (1: pot-limit).
POT_SHARE: Final = 1.0
#: The cap as a share of the smallest stack in the hand.
STACK_SHARE: Final = 0.25


def friendly_cap(v: SeatView, call: int = 0) -> int:
    """The most a bet, or a raise's increase over the open bet, may be (chips, >= 1).

    Args:
        v: the acting seat's view.
        call: chips the seat must put in first (a raise's call), added to the pot.

    Returns:
        ``max(1, min(POT_SHARE * (pot + call), STACK_SHARE * smallest stack))``, the
        smallest stack taken over the seats not folded that have chips behind.

    >>> from primero.engine.state import HandState
    >>> from primero.engine.dealing import Dealer
    >>> from primero.engine.views import view
    >>> s = HandState(["Ana", "Ben"], [100, 40])
    >>> Dealer.seeded(1).deal_into(s)
    >>> v = view(s, 0)
    >>> v.pot_total, v.stacks, friendly_cap(v)   # the pot of 2 antes is the smaller
    (2, (99, 39), 2)
    """
    stacks = [c for c, out in zip(v.stacks, v.folded, strict=True) if not out and c > 0]
    smallest = min(stacks, default=0)
    return max(1, min(int(POT_SHARE * (v.pot_total + call)), int(STACK_SHARE * smallest)))


class FriendlyBets:
    """A bot whose bets and raises are capped at :func:`friendly_cap` (see the module
    docstring); every other move is the wrapped bot's.

    Args:
        inner: the wrapped agent (picklable when the table decides in worker processes).

    Attributes:
        inner: the wrapped agent (its random state moves on as it decides).
        name: the wrapped bot's ``name`` (its kind), or ``"friendly"``.
    """

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.name: str = str(getattr(inner, "name", "friendly"))

    def __getstate__(self) -> dict[str, Any]:
        return {"inner": self.inner, "name": self.name}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.inner = state["inner"]
        self.name = state["name"]

    def __call__(self, view: SeatView) -> Action:
        """The wrapped bot's move, its bet or raise capped (R5; R8 steps kept).

        Raises:
            ValueError: as the wrapped bot (e.g. asked outside its turn).
        """
        action = self.inner(view)
        if isinstance(action, Bet):
            return self._bet(view, action)
        if isinstance(action, Raise):
            return self._raise(view, action)
        return action

    @staticmethod
    def _bet(v: SeatView, action: Bet) -> Action:
        bounds = stepped_legal(v).bet
        if bounds is None:
            return action
        low, high = bounds
        cap = friendly_cap(v)
        if action.amount <= cap:
            return action
        return Bet(action.seat, max(low, min(high, cap)))

    @staticmethod
    def _raise(v: SeatView, action: Raise) -> Action:
        legal = stepped_legal(v)
        bounds = legal.raise_to
        current = v.current_bet or 0
        if bounds is None:
            return action
        cap = friendly_cap(v, v.to_call)
        if action.amount - current <= cap:
            return action
        low, high = bounds
        to = min(high, current + cap)
        if to >= low:
            return Raise(action.seat, to)
        if legal.call is not None:
            return Call(action.seat)
        return action
