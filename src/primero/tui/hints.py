"""Hints on demand: the exact odds of the person's own exchange choices (R2, R4.3, R4.6).

Computed by :mod:`primero.engine.odds` from the seat's view only: its own cards and its own
discards (the dead cards it knows, R9b). No hidden card is ever used: the stock and the
other hands are the unseen cards the odds average over.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from primero.engine.cards import Card
from primero.engine.hands import Category
from primero.engine.odds import ExchangeChoice, ExchangeOdds, OddsError, exchange_odds
from primero.engine.state import Phase
from primero.engine.views import SeatView
from primero.play.hints import (
    exchange_ahead,
    exchange_now,
    keep_label,
    percent,
    showdown_now,
)
from primero.tui.cardart import cards_span

__all__ = [
    "choice_label",
    "exchange_ahead",
    "exchange_now",
    "hints_text",
    "keep_label",
    "odds_table",
    "percent",
    "same_choice",
]


def choice_label(choice: ExchangeChoice, *, two_cards: bool, keep: str | None = None) -> Text:
    """``"keep both"`` / ``"stand pat"`` or ``"discard 7♥ 2♣"``, suits coloured.

    Args:
        choice: the exchange choice.
        two_cards: whether the hand holds two cards (the first round).
        keep: the words for keeping every card (default "keep both" / "stand pat"; see
            :func:`keep_label`).
    """
    if not choice.discard:
        return Text(keep if keep is not None else ("keep both" if two_cards else "stand pat"))
    out = Text("discard ")
    out.append_text(cards_span(choice.discard))
    return out


def same_choice(choice: ExchangeChoice, discard: Sequence[Card]) -> bool:
    """Whether ``choice`` throws exactly the cards ``discard`` (in any order)."""
    return set(choice.discard) == set(discard)


def odds_table(
    odds: ExchangeOdds,
    *,
    allowed: Sequence[int] | None = None,
    chosen: Sequence[Card] | None = None,
    keep: str | None = None,
    mark_best: bool = True,
    only_keep: bool = False,
) -> Table:
    """Every exchange choice with the chance of each category, expected points and score.

    Args:
        odds: from :func:`primero.engine.odds.exchange_odds`.
        allowed: the numbers of cards that may be discarded now; other choices are
            dimmed (None: all shown plainly).
        chosen: the discards actually made, marked ``←`` (for the after-hand analysis).
        keep: the words for the choice that keeps every card (see :func:`choice_label`).
        mark_best: mark the best choice ★ (False when no exchange is left to choose).
        only_keep: show only the choice that keeps every card (no exchange is allowed
            before the cards are played: a bet stands in the first round, R4.3).

    Returns:
        A Rich table; the best choice by :data:`primero.engine.odds.CRITERION` is marked ★.
    """
    grid = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
    grid.add_column("", width=1)
    grid.add_column("choice", no_wrap=True)
    for category in Category:
        grid.add_column(category.label[:3], justify="right")
    grid.add_column("pts", justify="right")
    grid.add_column("win", justify="right")
    grid.add_column("", width=1)
    for choice in odds.choices:
        if only_keep and choice.discard:
            continue
        best = mark_best and choice == odds.best
        label = choice_label(choice, two_cards=odds.second_deal, keep=keep)
        style = "bold green" if best else ""
        if allowed is not None and len(choice.discard) not in allowed and choice.discard:
            style = "dim"
        mark = "←" if chosen is not None and same_choice(choice, chosen) else ""
        grid.add_row(
            Text("★" if best else "", style="bold green"),
            label,
            *(percent(p) for p in choice.category_probabilities),
            f"{choice.expected_points:.1f}",
            percent(choice.score),
            Text(mark, style="bold yellow"),
            style=style,
        )
    return grid


def hints_text(view: SeatView) -> RenderableType:
    """The hints panel: the odds of the seat's exchange choices and of its hand now.

    Args:
        view: the person's view; only ``hand``, ``discards``, ``legal``, ``folded`` and
            the number of players still in are read.

    Returns:
        For a hand of 2 or 4 cards: the table of :func:`odds_table` (with 2 cards each
        choice includes the second deal, R4.4), what "win" means, and with 4 cards the
        chance to win a showdown now against the players still in (exact against one or
        two, a seeded estimate against more, R10). Otherwise a short note.
    """
    title = Text("Hints: exact odds from your cards and your own discards only\n", style="bold")
    if view.seat is None or view.folded[view.seat] or len(view.hand) not in (2, 4):
        return Group(title, Text("No exchange to weigh now.", style="dim"))
    parts: list[RenderableType] = [title]
    if exchange_ahead(view):
        table = _exchange_part(view)
        if table is None:
            unseen = 40 - len(view.hand) - len(view.discards)
            parts.append(
                Text(
                    f"Only {unseen} unseen card{'' if unseen == 1 else 's'}: too few to "
                    "weigh an exchange.",
                    style="dim",
                )
            )
            return Group(*parts)
        parts.extend(table)
    elif view.phase is Phase.LAST_ROUND:
        parts.append(
            Text(
                "No exchange is left in this hand (R4.6): the last round of betting (R4.7), "
                "then the showdown.",
                style="dim",
            )
        )
    else:
        parts.append(Text("No exchange is left in this hand: only the showdown.", style="dim"))
    now = showdown_now(view)
    if now is not None:
        opponents, odds_now = now
        how = "exact" if odds_now.exact else f"estimate, {odds_now.trials} deals"
        parts.append(
            Text(
                f"Showdown now against {opponents} random hand"
                f"{'s' if opponents > 1 else ''}: win {percent(odds_now.win)}, "
                f"tie {percent(odds_now.tie)} ({how})"
            )
        )
    return Group(*parts)


def _exchange_part(view: SeatView) -> list[RenderableType] | None:
    """The exchange table and its note, or None when too few cards are unseen."""
    try:
        odds = exchange_odds(view.hand, view.discards)
    except OddsError:
        return None
    legal = view.legal
    now = exchange_now(view)
    allowed: Sequence[int] | None = (0,)  # nothing to discard until the next exchange
    if now:
        allowed = legal.exchange if legal is not None and legal.exchange else None
    keep = keep_label(view)
    parts: list[RenderableType] = []
    if not now and view.phase is Phase.FIRST_ROUND:
        parts.append(
            Text(
                "A bet stands: no exchange in this round (R4.3). The second deal brings two "
                "more cards, and after the declarations comes the second exchange (R4.6), "
                "of up to two cards.",
                style="yellow",
            )
        )
    elif not now:
        parts.append(
            Text(
                "The second exchange (R4.6) is still ahead: up to two cards, after this "
                "betting round.",
                style="yellow",
            )
        )
    if odds.second_deal:
        parts.append(
            Text("With 2 cards each choice is followed by the second deal (R4.4).", style="dim")
        )
    closed = not now and view.phase is Phase.FIRST_ROUND  # no exchange before the deal
    parts.append(
        odds_table(odds, allowed=allowed, keep=keep, mark_best=not closed, only_keep=closed)
    )
    note = Text()
    if not closed:
        note.append("★ best" + ("" if now else " at the second exchange") + ": ")
        note.append_text(choice_label(odds.best, two_cards=odds.second_deal, keep=keep))
        note.append(". ")
    note.append(
        "num pri sup flu cho: the chance to end with a numerus, primero, supremus, fluxus "
        "or chorus (R2); pts: the points to expect; win: the chance to beat one random "
        f"hand of the {odds.unseen} cards you have not seen, ties half.",
        style="dim",
    )
    parts.append(note)
    return parts
