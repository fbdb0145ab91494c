"""Cards drawn as cards: small framed boxes with the rank and a coloured suit (R1).

Hearts and diamonds are red, clubs and spades are drawn in the default colour, as on
the table. Everything here returns :class:`rich.text.Text`, so the same drawing serves
every screen and the text snapshots of the tests.

>>> from primero.engine.cards import parse_cards
>>> print(hand_art(parse_cards("7h Kc")).plain)
╭────╮ ╭────╮
│ 7♥ │ │ K♣ │
╰────╯ ╰────╯
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from rich.text import Text

from primero.engine.cards import Card, Suit

__all__ = ["RED", "back_art", "card_span", "cards_span", "hand_art", "suit_style"]

#: The style of red suits (hearts, diamonds).
RED: Final = "bold red"
#: The style of black suits (clubs, spades).
BLACK: Final = "bold"
_SELECTED: Final = "reverse"
_WIDTH: Final = 6


def suit_style(card: Card) -> str:
    """The Rich style of ``card``'s suit: red for hearts and diamonds (R1)."""
    return RED if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK


def card_span(card: Card) -> Text:
    """One card inline, e.g. ``7♥`` in red."""
    return Text(card.pretty, style=suit_style(card))


def cards_span(cards: Sequence[Card], *, separator: str = " ") -> Text:
    """Cards inline, separated by ``separator``; ``"—"`` for no cards."""
    if not cards:
        return Text("—", style="dim")
    return Text(separator).join(card_span(c) for c in cards)


def hand_art(
    cards: Sequence[Card],
    *,
    selected: Collection[int] = (),
    numbered: bool = False,
) -> Text:
    """Cards side by side as framed boxes, three lines high (four when ``numbered``).

    Args:
        cards: the cards, left to right.
        selected: 0-based indices of cards drawn raised and reversed (chosen to discard).
        numbered: add a line with the key of each card (1, 2, …) under it.

    Returns:
        The drawing; an empty hand gives a single dim line.
    """
    if not cards:
        return Text("(no cards)", style="dim")
    top, mid, bottom, keys = Text(), Text(), Text(), Text()
    for i, card in enumerate(cards):
        if i:
            for line in (top, mid, bottom, keys):
                line.append(" ")
        frame = "bold yellow" if i in selected else ""
        top.append("╭────╮", style=frame)
        mid.append("│", style=frame)
        face = f"{card.pretty:^4}"
        style = suit_style(card) + (" " + _SELECTED if i in selected else "")
        mid.append(face, style=style)
        mid.append("│", style=frame)
        bottom.append("╰────╯", style=frame)
        mark = f"[{i + 1}]" + ("×" if i in selected else " ")
        keys.append(f"{mark:^{_WIDTH}}", style="bold yellow" if i in selected else "dim")
    lines = [top, mid, bottom] + ([keys] if numbered else [])
    return Text("\n").join(lines)


def back_art(count: int) -> Text:
    """``count`` face-down cards inline (``▒▒`` each), or ``"—"`` for none."""
    if count <= 0:
        return Text("—", style="dim")
    return Text(" ".join(["▒▒"] * count), style="blue")
