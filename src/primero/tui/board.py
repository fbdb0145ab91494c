"""The table board: one Textual widget showing a seat's view of a hand (R9b).

Used by the play, watch and learn screens alike. It shows only what a
:class:`~primero.views.SeatView` holds: the status line, the seats, the seat's own cards,
a prompt with the keys that do something now (also as buttons, for the mouse), the
hand log, a side panel (hints, analysis or lesson) and the result of a finished hand.
The main column scrolls; when a hand ends it is scrolled to the result, so the result
is on screen even when the column is taller than the terminal.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from primero.tui.actionpad import KeyChoice
from primero.tui.handpanel import hand_panel
from primero.tui.logpanel import log_text
from primero.tui.resultpanel import result_text
from primero.tui.tablepanel import labels_for, status_text, table_panel
from primero.views import SeatView

__all__ = ["NARROW_CSS", "Board", "KeyButton"]

#: App CSS for screens narrower than 100 cells: the side panel goes under the table.
NARROW_CSS = """
Screen.-narrow Board { layout: vertical; }
Screen.-narrow Board #main { height: auto; width: 1fr; }
Screen.-narrow Board #side {
    width: 1fr; height: 1fr; min-height: 6; border-left: none; border-top: solid $primary;
}
"""


class KeyButton(Button):
    """A button standing for a key; pressing it is the same as pressing the key.

    Buttons never take the focus, so every key reaches the screen (keyboard play).

    Args:
        choice: the key and its label.
    """

    def __init__(self, choice: KeyChoice) -> None:
        arrows = {
            "enter": "⏎",
            "escape": "esc",
            "up": "↑",
            "down": "↓",
            "left": "←",
            "right": "→",
            "colon": ":",
        }
        name = arrows.get(choice.key, choice.key)
        super().__init__(f"{name} {choice.label}", compact=True, classes="keybutton")
        self.key = choice.key
        self.can_focus = False


class Board(Horizontal):
    """The table as one seat sees it, with a side panel.

    Call :meth:`show` with each new view; the other setters change one part.
    """

    DEFAULT_CSS = """
    Board { height: 1fr; }
    Board #main { width: 1fr; padding: 0 1; }
    Board #side { width: 38; border-left: solid $primary; padding: 0 1; }
    Board #status { height: auto; margin-bottom: 1; }
    Board #seats { height: auto; margin-bottom: 1; }
    Board #hand { height: auto; margin-bottom: 1; }
    Board #prompt { height: auto; color: $warning; }
    Board #buttons { height: auto; margin-bottom: 1; }
    Board .keybutton { width: auto; min-width: 0; margin-right: 1; }
    Board #result { height: auto; }
    Board #extra { height: auto; margin-bottom: 1; }
    Board #panel { height: auto; max-height: 60%; margin-bottom: 1; }
    Board #log-scroll { height: 1fr; }
    """

    #: Screens narrower than 100 cells stack the side panel under the table (set on the
    #: apps as ``HORIZONTAL_BREAKPOINTS``).
    BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (100, "-wide")]

    _was_over = False

    def compose(self) -> ComposeResult:
        """The parts of the board."""
        with VerticalScroll(id="main"):
            yield Static(id="status")
            yield Static(id="seats")
            yield Static(id="hand")
            yield Static(id="prompt")
            yield Horizontal(id="buttons")
            yield Static(id="extra")
            yield Static(id="result")
        with Vertical(id="side"):
            yield Static(id="panel")
            yield Static(Text("Hand log", style="bold underline"), id="log-title")
            with VerticalScroll(id="log-scroll"):
                yield Static(id="log")

    def show(
        self,
        view: SeatView,
        labels: Sequence[str] | None = None,
        *,
        selected: Collection[int] = (),
        title: str = "",
        you: str | None = "you",
    ) -> None:
        """Draw ``view``: status, seats, the seat's cards, log and result (if over).

        Args:
            view: what the seat sees (R9b).
            labels: display names per seat in the seats table (default the names; the
                log and the result use the short names).
            selected: indices of the seat's cards chosen to discard.
            title: a line shown before the status (e.g. the hand number).
            you: how the status calls the viewing seat ("you"); None: by its name.
        """
        names = labels_for(view, labels)
        status = Text(title + "  ", style="bold cyan") if title else Text()
        status.append_text(status_text(view, view.players, you=you))
        self.query_one("#status", Static).update(status)
        self.query_one("#seats", Static).update(table_panel(view, names))
        self.query_one("#hand", Static).update(hand_panel(view, selected=selected))
        self.query_one("#log", Static).update(log_text(view, view.players))
        self.query_one("#log-scroll", VerticalScroll).scroll_end(animate=False)
        self.query_one("#result", Static).update(result_text(view, view.players))
        over = view.final_stacks is not None
        main = self.query_one("#main", VerticalScroll)
        if over:
            main.scroll_end(animate=False)  # the result is the last part of the column
        elif self._was_over:
            main.scroll_home(animate=False)  # a new hand: back to the status line
        self._was_over = over

    def set_prompt(self, text: RenderableType) -> None:
        """Show a prompt or message under the cards ("" clears it)."""
        self.query_one("#prompt", Static).update(text)

    def set_keys(self, choices: Sequence[KeyChoice]) -> None:
        """Show one button per key that does something now."""
        box = self.query_one("#buttons", Horizontal)
        box.remove_children()
        box.mount_all([KeyButton(c) for c in choices])

    def set_extra(self, content: RenderableType) -> None:
        """Fill the area under the keys (hints or analysis; "" hides it)."""
        extra = self.query_one("#extra", Static)
        extra.update(content)
        extra.display = bool(content)

    def set_panel(self, content: RenderableType) -> None:
        """Fill the side panel above the log (hints, analysis or a lesson; "" hides it)."""
        panel = self.query_one("#panel", Static)
        panel.update(content)
        panel.display = bool(content)
