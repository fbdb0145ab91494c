"""The person's own cards, with their category and points (R1, R2, R9b)."""

from __future__ import annotations

from collections.abc import Collection

from rich.text import Text

from primero.engine.hands import evaluate
from primero.engine.views import SeatView
from primero.tui.cardart import card_span, cards_span, hand_art

__all__ = ["hand_panel"]


def hand_panel(
    view: SeatView,
    *,
    selected: Collection[int] = (),
    compact: bool = False,
    whose: str = "Your",
    spectator: str = "Watching as a spectator: no cards of your own.",
) -> Text:
    """The viewing seat's cards drawn as cards, numbered for the exchange keys.

    Args:
        view: the seat's view (a spectator's view gives a short note).
        selected: 0-based indices of cards chosen to discard.
        compact: the cards on one line (``[1] 7♥  [2] 6♥``, chosen ones reversed) instead
            of drawn as cards (for 80×24 terminals).
        whose: whose cards the compact line names (``"Your"``, or ``"Ana's"`` in a record
            view).
        spectator: the note for a spectator's view (pass and play says it otherwise).

    Returns:
        The cards, then the category and points of a four-card hand (R2) or a note
        that fewer than four cards have no category, the seat's declaration (R6) and its
        own discards this deal (private to it, R9b).
    """
    if view.seat is None:
        return Text(spectator, style="dim")
    if view.folded[view.seat]:
        return Text("You have folded: your cards are dead (R4.8).", style="dim")
    if compact:
        out = Text(f"{whose} cards: ", style="bold")
        if not view.hand:
            out.append("none yet", style="dim")
        for i, card in enumerate(view.hand):
            chosen = i in selected
            out.append(f"[{i + 1}]", style="bold reverse" if chosen else "dim")
            out.append_text(card_span(card))
            if chosen:
                out.stylize("reverse", len(out) - len(card.pretty), len(out))
            out.append(" ")
        out.append("  ")
    else:
        out = hand_art(view.hand, selected=selected, numbered=True)
        out.append("\n")
    if len(view.hand) == 4:
        value = evaluate(view.hand)
        out.append(f"{value.category.label.capitalize()} ", style="bold green")
        out.append(f"{value.points} points", style="bold")
        out.append("  counting: ")
        out.append_text(cards_span(value.counting))
    elif view.hand:
        out.append(f"{len(view.hand)} cards: no category until you hold four (R2)", style="dim")
    declared = view.declared[view.seat]
    if declared is not None:
        out.append(f"   declared {declared.label}", style="italic")
    if view.discards:
        out.append("   your discards: ")
        out.append_text(cards_span(view.discards))
    return out
