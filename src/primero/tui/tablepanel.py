"""The table as one seat sees it: seats, names, stacks, bets, declarations, pots (R9b).

Everything is drawn from a :class:`~primero.engine.views.SeatView` only, so hidden cards stay
hidden: other seats' cards are drawn face down until a showdown shows them.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from primero.engine.actions import seat_name
from primero.engine.state import DEALER, Phase
from primero.engine.views import SeatView
from primero.engine.words import is_raise_over
from primero.play.table import phase_name
from primero.play.tablemodel.sentences import uncalled_bet, won_awards
from primero.tui.cardart import back_art, cards_span

__all__ = ["labels_for", "possessive", "pots_text", "status_text", "table_panel"]


def possessive(name: str) -> str:
    """``"Ben's"``; ``"your"`` for the person's default name "You".

    >>> possessive("Ben"), possessive("You")
    ("Ben's", 'your')
    """
    return "your" if name == "You" else f"{name}'s"


def labels_for(view: SeatView, labels: Sequence[str] | None = None) -> tuple[str, ...]:
    """The display name of each seat: ``labels`` if given (one per seat), else the names."""
    if labels is not None and len(labels) == view.n:
        return tuple(labels)
    return view.players


def _seat_flags(view: SeatView, seat: int) -> Text:
    """A short note on a seat: folded, all-in, its bet under vote, or its vote due."""
    flags = Text()
    if view.folded[seat]:
        flags.append("folded", style="dim italic")
    elif view.stacks[seat] == 0 and view.phase is not Phase.COMPLETE:
        flags.append("all-in", style="bold magenta")
    if view.pending_bet is not None:
        if view.pending_bet[0] == seat:
            flags.append(" under vote" if flags else "under vote", style="yellow")
        elif view.to_act == seat:
            flags.append(" to vote" if flags else "to vote", style="bold yellow")
    return flags


def _seat_cards(view: SeatView, seat: int) -> Text:
    shown = view.shown_cards[seat]
    if shown is not None:
        return cards_span(shown)
    if seat == view.seat and view.hand:
        return cards_span(view.hand)
    if view.folded[seat]:
        return Text("")
    return back_art(view.hand_sizes[seat])


def table_panel(
    view: SeatView, labels: Sequence[str] | None = None, *, seat_names: bool = False
) -> RenderableType:
    """The seats of the hand as a table (R3, R9b).

    Args:
        view: what the seat sees.
        labels: display names per seat (e.g. with the bot kind), default the names.
        seat_names: add the record's seat names (p1…pN) in a first column (record
            views); the table screens show names only, since seats change every hand.

    Returns:
        A Rich renderable: one row per seat in acting order (the dealer last, marked
        ``D``), with a ▶ on the seat to act, the name, the stack, chips put ``in`` the pot
        this hand (once the hand is over, less a bet nobody called, since it went back:
        R7), the ``bet`` of the open round, the declaration (R6), the size of each
        exchange made (``x``), the cards (face down unless shown at the showdown or the
        viewer's own) and a note (folded, all-in, a bet under vote, a vote due), then
        the pots. Declarations are never cut: the note wraps first.
    """
    names = labels_for(view, labels)
    grid = Table(box=None, padding=(0, 1), expand=False, show_edge=False, pad_edge=False)
    grid.add_column("", width=1)
    if seat_names:
        grid.add_column("seat", style="dim", no_wrap=True)
    grid.add_column("", width=1, style="bold")
    # the only column that shrinks besides the note: a long name is cut (…) before any
    # number, mark or card is (its cells never wrap: see ``name`` below)
    grid.add_column("player", min_width=4)
    grid.add_column("stack", justify="right", no_wrap=True)
    grid.add_column("in", justify="right", no_wrap=True)
    grid.add_column("bet", justify="right", no_wrap=True)
    declarations = view.rules.declarations  # none declare without them (R6): no column
    if declarations:
        grid.add_column("declared", no_wrap=True, min_width=8)
    grid.add_column("x", no_wrap=True)
    grid.add_column("cards", no_wrap=True)
    flags = [_seat_flags(view, s) for s in range(view.n)]
    put_in = list(view.contributed)
    returned = uncalled_bet(view)
    if returned is not None:
        put_in[returned.seat] -= returned.chips  # given back: not in the pot (R7)
    # the note takes room only when some seat has one (so the name is cut only if needed)
    grid.add_column("", min_width=6 if any(flags) else None)
    for s in range(view.n):
        turn = "▶" if view.to_act == s else ""
        name = Text(
            names[s],
            style="bold cyan" if s == view.seat else "",
            no_wrap=True,
            overflow="ellipsis",
        )
        if view.folded[s]:
            name.stylize("dim")
        declared = view.declared[s]
        open_round = view.current_bet is not None and view.phase is not Phase.COMPLETE
        cells: list[RenderableType] = [Text(turn, style="bold yellow")]
        if seat_names:
            cells.append(seat_name(s))
        cells += [
            Text("D" if s == view.n - 1 else "", style="bold"),
            name,
            str(view.stacks[s]),
            str(put_in[s]),
            str(view.round_bets[s]) if open_round else "",
        ]
        if declarations:
            cells.append(Text(declared.label if declared is not None else "", style="italic"))
        cells += [
            ",".join(str(k) for k in view.exchanges[s]),
            _seat_cards(view, s),
            flags[s],
        ]
        grid.add_row(*cells)
    return Group(grid, Text(""), pots_text(view, names))


def pots_text(view: SeatView, names: Sequence[str]) -> Text:
    """The pots as they stand (R7): the total, and each side pot with who may win it.

    Once the hand is over, a bet nobody called is not said as a pot (as
    the table's sentences say it): the pots are those won
    (:func:`~primero.play.tablemodel.sentences.won_awards`) and the chips given back are
    said beside them.
    """
    back: tuple[int, int] | None = None  # (seat, chips) of a bet nobody called
    if view.final_stacks is not None:
        pots = [award.pot for award in won_awards(view)]
        uncalled = uncalled_bet(view)
        if uncalled is not None:
            back = (uncalled.seat, uncalled.chips)
    else:  # chips bet this hand, called or not yet
        pots = list(view.pots)
    out = Text("Pot ", style="bold")
    out.append(str(sum(pot.amount for pot in pots)), style="bold green")
    if len(pots) > 1:
        parts = []
        for i, pot in enumerate(pots):
            who = ", ".join(names[s] for s in pot.eligible)
            label = "main" if i == 0 else f"side {i}"
            parts.append(f"{label} {pot.amount} ({who})")
        out.append("  ·  " + "  ·  ".join(parts))
    if back is not None:
        out.append(f"  ·  uncalled {back[1]} returned to {names[back[0]]}")
    if view.current_bet is not None and view.phase is not Phase.COMPLETE:
        out.append(f"   bet to match this round: {view.current_bet}")
    if view.void_deals:
        out.append(f"   void deals: {view.void_deals}", style="yellow")
    return out


def status_text(
    view: SeatView, labels: Sequence[str] | None = None, *, you: str | None = "you"
) -> Text:
    """One line: the phase and who must act, or that the hand is over (R4).

    Args:
        view: the seat's view.
        labels: display names per seat.
        you: the word for the viewing seat (None: its name).
    """
    names = labels_for(view, labels)
    out = Text(phase_name(view).capitalize(), style="bold")
    if view.to_act is None:  # "The hand is over"
        return out
    if view.to_act == DEALER:
        out.append(" — the dealer deals")
        return out
    who = you if you is not None and view.to_act == view.seat else names[view.to_act]
    if view.pending_bet is not None:
        bettor, amount, is_raise = view.pending_bet
        verb = "raise to" if is_raise_over(is_raise, view.current_bet) else "bet of"
        whose = "your" if you is not None and bettor == view.seat else possessive(names[bettor])
        out.append(f" — {whose} {verb} {amount}: {who} to accept or refuse (R8)")
    else:
        out.append(f" — {who} to act")
    if view.cap is not None:
        out.append(f" (after a refusal, amounts below {view.cap})", style="yellow")
    return out
