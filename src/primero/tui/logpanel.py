"""The hand log on screen: the sentences of :mod:`primero.play.tablemodel.sentences`
(the same the server sends), numbered, with stage headings, cards in colour and the
result of a finished hand. Nothing here reads record lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from primero.engine.cards import CardError, parse_card
from primero.engine.views import SeatView
from primero.play.tablemodel.sentences import (
    hand_sentences,
    result_sentences,
    section_marker,
)
from primero.tui.cardart import card_span

__all__ = ["award_lines", "log_text", "sentence_text"]


def sentence_text(sentence: str) -> Text:
    """A sentence with its cards shown as cards with suit symbols (``7♥``, in colour)."""
    out = Text()
    for i, word in enumerate(sentence.split(" ")):
        if i:
            out.append(" ")
        try:
            card = parse_card(word)
        except CardError:
            out.append(word)
        else:
            out.append_text(card_span(card))
    return out


def award_lines(view: SeatView, names: Sequence[str], *, you: bool = True) -> list[str]:
    """What the chips of a finished hand did, one sentence each: the uncalled bet
    returned, then who won each pot (R7, R9b; the sentences of
    :func:`~primero.play.tablemodel.sentences.result_sentences`).

    A winner's category and points are named only when the hand was shown; folded and
    unshown hands are never named. Empty when the hand is not over.
    """
    return result_sentences(view, names, you=you)


def log_text(
    view: SeatView,
    names: Sequence[str],
    *,
    last: int | None = None,
    you: bool = True,
    result: bool = True,
) -> Text:
    """The hand log as the seat sees it (R9b), one numbered sentence per line.

    Args:
        view: the seat's view; its ``log`` hides others' cards as ``??``.
        names: display names per seat.
        last: keep only the last ``last`` lines (None: all).
        you: say "You" for the viewing seat (False: its name, as ``watch`` does).
        result: end a finished hand with what its chips did (False: the result is on
            screen elsewhere).

    Returns:
        The log with stage headings, the seat's own lines in bold; a finished hand ends
        with what its chips did (:func:`award_lines`).
    """
    said = hand_sentences(view, names, you=you)
    count = len(view.log)
    lines = list(enumerate(said[:count]))
    if last is not None:
        lines = lines[-last:] if last > 0 else []
    mine = None
    if view.seat is not None:
        mine = "You " if you else f"{names[view.seat]} "
    out = Text()
    events = view.events
    for k, (index, sentence) in enumerate(lines):
        if k:
            out.append("\n")
        marker = section_marker(events, index)
        if marker is not None:
            out.append(f"── {marker}\n", style="yellow")
        out.append(f"{index + 1:>3} ", style="dim")
        text = sentence_text(sentence)
        if mine is not None and sentence.startswith(mine):
            text.stylize("bold")
        out.append_text(text)
    if not lines:
        out.append("(nothing yet)", style="dim")
    won = said[count:]
    if won and result:
        out.append("\n── result (R7)", style="yellow")
        for won_line in won:
            out.append("\n    ")
            out.append(won_line, style="bold green")
    return out
