"""The sentence of an applied action as one seat may read it (R9b).

Other seats' cards are never named: ``"Lorenzo exchanges 2 cards"``. A bet or call of
0 chips reads "checks" (R5: a check is a bet of 0 with no bet open, or a call of 0).

>>> from primero.engine.actions import Bet
>>> sentence(Bet(1, 0), viewer=0, name="Ben")
'Ben checks'
>>> sentence(Bet(0, 5), viewer=0, name="Ana")
'You bet 5'
"""

from __future__ import annotations

from primero.engine.actions import Action, Bet, Call, Deal, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import format_cards

__all__ = ["sentence"]


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'s' if k != 1 else ''}"


def sentence(action: Action, *, viewer: int | None, name: str, call: int | None = None) -> str:
    """The sentence for ``action`` as the seat ``viewer`` may read it (R9b).

    Args:
        action: the applied action (its seat is the 0-based seat of the hand that acted,
            or was dealt to).
        viewer: the 0-based seat reading it (``"You"`` when it is the actor), or None for
            a spectator.
        name: the actor's name.
        call: for a :class:`~primero.engine.actions.Call`, the chips it put in (0 or None: a check).

    Returns:
        E.g. ``"Lorenzo raises to 12"``, ``"You are dealt 7♥ 6♥"``, ``"Isabella exchanges
        2 cards"``, ``"Ben checks"``; only the viewer's own cards are named.
    """
    you = viewer is not None and action.seat == viewer
    who = "You" if you else name

    def verb(plain: str, third: str) -> str:
        return f"{who} {plain if you else third}"

    if isinstance(action, Deal):
        if you:
            return f"You are dealt {format_cards(action.cards, pretty=True)}"
        return f"{who} is dealt {_plural(len(action.cards), 'card')}"
    if isinstance(action, Exchange):
        k = len(action.cards)
        if k == 0:
            return verb("stand pat", "stands pat")
        if you:
            return f"You exchange {format_cards(action.cards, pretty=True)}"
        return f"{who} exchanges {_plural(k, 'card')}"
    if isinstance(action, Bet):
        if action.amount == 0:
            return verb("check", "checks")
        return verb("bet", "bets") + f" {action.amount}"
    if isinstance(action, Raise):
        return verb("raise", "raises") + f" to {action.amount}"
    if isinstance(action, Call):
        if not call:
            return verb("check", "checks")
        return verb("call", "calls") + f" {call}"
    if isinstance(action, Fold):
        return verb("fold", "folds")
    if isinstance(action, Vote):
        return verb("accept", "accepts") if action.accept else verb("refuse", "refuses")
    assert isinstance(action, Declare)
    return verb("declare", "declares") + f" {action.category.label}"
