"""The end of a hand: the hands shown, who won which pot, and each seat's gain (R4.8, R7)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from primero.engine.views import SeatView
from primero.play.tablemodel.sentences import result_sentences
from primero.tui.cardart import cards_span

__all__ = ["net_chips", "result_text"]


def net_chips(view: SeatView) -> tuple[int, ...]:
    """Each seat's gain in the finished hand: chips won from pots minus chips put in.

    Raises:
        ValueError: the hand is not over.
    """
    if view.final_stacks is None:
        raise ValueError("the hand is not over")
    won = [0] * view.n
    for award in view.awards:
        for seat, chips in zip(award.winners, award.shares, strict=True):
            won[seat] += chips
    return tuple(w - c for w, c in zip(won, view.contributed, strict=True))


def result_text(
    view: SeatView, names: Sequence[str], *, compact: bool = False, you: bool = True
) -> Text:
    """The result of a finished hand (R4.8, R7, R9b).

    Args:
        view: a view of a complete hand.
        names: display names per seat.
        compact: the narrow layout's few lines: the hands shown by category and points
            only (their cards are in the seats table above).
        you: say "You" for the viewing seat (False: its name).

    Returns:
        The hands shown with category and points (none when everyone else folded: the
        lone winner does not show), the uncalled bet returned and who won each pot
        (:func:`~primero.play.tablemodel.sentences.result_sentences`), and the chips
        each seat won or lost. An empty text when the hand is not over.
    """
    out = Text()
    if view.final_stacks is None:
        return out
    shown = [s for s in range(view.n) if view.shown[s] is not None]
    if shown and compact:
        out.append("Showdown: ", style="bold")
        for k, s in enumerate(shown):
            value = view.shown[s]
            assert value is not None
            if k:
                out.append(" · ")
            out.append(f"{names[s]} {value.category.label} {value.points}")
            declared = view.declared[s]
            if declared is not None and declared != value.category:
                out.append(f" (declared {declared.label})", style="italic yellow")
        out.append("\n")
    elif shown:
        out.append("Showdown\n", style="bold underline")
        width = max(len(names[s]) for s in shown)
        for s in shown:
            value, cards = view.shown[s], view.shown_cards[s]
            assert value is not None and cards is not None
            out.append(f"  {names[s]:<{width}}  ")
            out.append_text(cards_span(cards))
            out.append(f"  {value.category.label} {value.points}", style="bold")
            declared = view.declared[s]
            if declared is not None and declared != value.category:
                out.append(f"  (declared {declared.label})", style="italic yellow")
            out.append("\n")
    elif not compact:
        out.append("Everyone else folded: the winner does not show (R9b).\n", style="italic")
    for line in result_sentences(view, names, you=you):
        out.append(line + "\n", style="bold green")
    out.append("Chips: ")
    parts = []
    for s, delta in enumerate(net_chips(view)):
        parts.append(f"{names[s]} {delta:+d} ({view.final_stacks[s]})")
    out.append(" · ".join(parts))
    return out
