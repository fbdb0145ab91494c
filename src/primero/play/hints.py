"""Exact-odds hints for one seat, from that seat's view only (R2, R4.3, R4.6, R9b).

The pure part of the terminal table's hints (:mod:`primero.tui.hints` draws them with
Rich; the same rules for what is ahead and what is open now): what the odds are, as
plain data that the web table's ``hints`` message carries.
Only the view's ``hand``, ``discards`` (the seat's own dead cards), ``legal``, ``phase``,
``current_bet``, ``pending_bet`` and ``folded`` are read; the stock and the other hands
are the unseen cards the odds average over, so no hidden card is ever used.

>>> from primero.engine.state import HandState
>>> from primero.engine.dealing import Dealer
>>> from primero.engine.views import view
>>> s = HandState(["Ana", "Ben", "Cleo", "Dev"], [20, 20, 20, 20])
>>> Dealer.seeded(1).deal_into(s)
>>> h = seat_hints(view(s, 0))
>>> h["exchange"]["second_deal"], len(h["exchange"]["choices"]), h["showdown"]
(True, 4, None)
"""

from __future__ import annotations

import functools
from typing import Any

from primero.engine.cards import Card
from primero.engine.hands import Category
from primero.engine.odds import OddsError, ShowdownOdds, exchange_odds, showdown_odds
from primero.engine.state import Phase
from primero.engine.views import SeatView

__all__ = [
    "SHOWDOWN_TRIALS",
    "exchange_ahead",
    "exchange_now",
    "keep_label",
    "percent",
    "seat_hints",
    "showdown_now",
]

#: Monte Carlo deals for the showdown odds against three or more opponents.
SHOWDOWN_TRIALS = 20_000


def percent(p: float) -> str:
    """A probability as a short percentage: ``"·"`` for 0, one decimal below 10 %.

    >>> percent(0), percent(0.0001), percent(0.042), percent(0.5)
    ('·', '<0.1%', '4.2%', '50%')
    """
    if p <= 0:
        return "·"
    if p < 0.0005:
        return "<0.1%"
    if p < 0.1:
        return f"{p * 100:.1f}%"
    return f"{p * 100:.0f}%"


def exchange_ahead(view: SeatView) -> bool:
    """Whether the seat will still choose cards to exchange in this hand (R4.3, R4.6):
    from the first deal to the end of the second exchange, while it is still in. A bet
    that stands in the first round ends the *first* exchanges only: the second exchange
    (R4.6) is still ahead after the second deal and the declarations."""
    if view.seat is not None and view.folded[view.seat]:
        return False
    return view.phase in (
        Phase.FIRST_DEAL,
        Phase.FIRST_ROUND,
        Phase.SECOND_DEAL,
        Phase.DECLARE_ROUND,
        Phase.SECOND_EXCHANGE,
    )


def exchange_now(view: SeatView) -> bool:
    """Whether an exchange is open to the seat in the current round: the first round
    while no bet stands (R4.3), or the second exchange (R4.6)."""
    if view.phase is Phase.FIRST_ROUND:
        return view.current_bet is None and view.pending_bet is None
    return view.phase is Phase.SECOND_EXCHANGE


def keep_label(view: SeatView) -> str:
    """What keeping every card means now: in the first round before any bet, keeping
    both cards means betting (R4.3; or standing pat with ``first_round_stand``); once a
    bet stands, calling with them (R5); in the second exchange, standing pat (R4.6)."""
    if len(view.hand) != 2:
        return "stand pat"
    if view.phase is Phase.FIRST_ROUND and exchange_now(view):
        legal = view.legal
        if legal is not None and 0 in legal.exchange:
            return "keep both (stand pat or bet)"
        return "keep both and bet"
    if view.phase is Phase.FIRST_ROUND:
        return "keep both (no exchange now)"
    return "keep both"


def seat_hints(view: SeatView) -> dict[str, Any]:
    """The hints for the seat of ``view``, as JSON-ready data.

    The hints are ``{"note": str | None, "exchange": {...} | None, "showdown": {...} | None}``:

    - ``exchange`` while an exchange is ahead in the hand (:func:`exchange_ahead`)
      and the seat holds 2 or 4 cards: ``second_deal`` (bool: with 2 cards each choice
      is followed by the second deal, R4.4), ``unseen`` (cards the seat has not seen),
      ``now`` (bool: an exchange is open in this round, :func:`exchange_now`),
      ``keep`` (what keeping every card means now, :func:`keep_label`),
      ``categories`` (the category names, low to high) and ``choices``: for each way
      to discard, ``discard`` (card texts), ``probabilities`` (of ending in each
      category, in the order of ``categories``), ``expected_points``, ``win`` (chance
      to beat one random hand of the unseen cards, ties half; 0..1), ``best`` (the
      best choice by :data:`primero.engine.odds.CRITERION`) and ``allowed`` (whether that
      many cards may be discarded now: keeping every card always is; while no
      exchange is open, nothing else).
    - ``showdown`` with 4 cards and at least one opponent still in: ``opponents``,
      ``win``, ``tie`` (0..1), ``exact`` (bool; an estimate over ``trials`` seeded
      deals against three or more, R10).
    - ``note``: why there is nothing (or less) to show, else None.

    Args:
        view: a seat's view (a spectator's view gives only a note).

    Returns:
        The hints, as above.
    """
    out: dict[str, Any] = {"note": None, "exchange": None, "showdown": None}
    if view.seat is None or view.folded[view.seat] or len(view.hand) not in (2, 4):
        out["note"] = "No exchange to weigh now."
        return out
    if exchange_ahead(view):
        try:
            odds = exchange_odds(view.hand, view.discards)
        except OddsError:
            unseen = 40 - len(view.hand) - len(view.discards)
            out["note"] = (
                f"Only {unseen} unseen card{'' if unseen == 1 else 's'}: too few to weigh "
                "an exchange."
            )
            return out
        now = exchange_now(view)
        legal = view.legal
        allowed: tuple[int, ...] | None = (0,)  # nothing to discard until the next exchange
        if now:
            allowed = legal.exchange if legal is not None and legal.exchange else None
        if not now and view.phase is Phase.FIRST_ROUND:
            out["note"] = (
                "A bet stands: no exchange in this round (R4.3). The second deal brings two "
                "more cards, and after the declarations comes the second exchange (R4.6), "
                "of up to two cards."
            )
        elif not now:
            out["note"] = (
                "The second exchange (R4.6) is still ahead: up to two cards, after this "
                "betting round."
            )
        out["exchange"] = {
            "second_deal": odds.second_deal,
            "unseen": odds.unseen,
            "now": now,
            "keep": keep_label(view),
            "categories": [c.label for c in Category],
            "choices": [
                {
                    "discard": [str(c) for c in choice.discard],
                    "probabilities": list(choice.category_probabilities),
                    "expected_points": choice.expected_points,
                    "win": choice.score,
                    "best": choice == odds.best,
                    "allowed": allowed is None
                    or not choice.discard
                    or len(choice.discard) in allowed,
                }
                for choice in odds.choices
            ],
        }
    else:
        out["note"] = "No exchange is left in this hand (R4): only the showdown."
    showdown = showdown_now(view)
    if showdown is not None:
        opponents, odds_now = showdown
        out["showdown"] = {
            "opponents": opponents,
            "win": odds_now.win,
            "tie": odds_now.tie,
            "exact": odds_now.exact,
            "trials": odds_now.trials,
        }
    return out


def showdown_now(view: SeatView) -> tuple[int, ShowdownOdds] | None:
    """The seat's chances if the showdown came now, against the other players still in
    as random hands of the unseen cards (R2, R7; the seat's view only, R9b).

    Args:
        view: the seat's view.

    Returns:
        ``(opponents, odds)``: exact for 1-2 opponents, else a Monte Carlo estimate over
        :data:`SHOWDOWN_TRIALS` deals with seed 0; None when the seat does not hold four
        cards, nobody else is in, or too few cards are unseen. Never raises.
    """
    opponents = len(view.still_in) - 1
    if len(view.hand) != 4 or opponents < 1:
        return None
    odds = _showdown(tuple(view.hand), tuple(view.discards), opponents)
    return None if odds is None else (opponents, odds)


@functools.lru_cache(maxsize=256)
def _showdown(
    hand: tuple[Card, ...], dead: tuple[Card, ...], opponents: int
) -> ShowdownOdds | None:
    """:func:`showdown_odds` of ``hand`` (None if it raises :class:`OddsError`), kept: the
    figures are seeded, so they depend on these arguments only, and the table asks for
    them again at each move of the others while the seat's cards stay the same."""
    try:
        return showdown_odds(hand, dead, opponents, trials=SHOWDOWN_TRIALS, seed=0)
    except OddsError:
        return None
