"""The table board: one Textual widget showing a seat's view of a hand (R9b).

Used by the play, watch and learn screens alike. It shows only what a
:class:`~primero.engine.views.SeatView` holds: the status line, the seats, the seat's own cards,
a prompt with the keys that do something now (also as buttons, for the mouse), the
hand log, a side panel (hints, analysis or lesson) and the result of a finished hand.
The main column scrolls (PageUp/PageDown, arrows: :meth:`Board.scroll_key`) above a key
bar that stays at the bottom; when a hand ends it is scrolled to the result, so the
result is on screen even when the column is taller than the terminal. Under 100 cells
wide (80×24 terminals) everything is one column: the status, the seats, the cards on one
line, the result, the hints, the lesson or analysis and the hand log. At the play table
(``tail_log``) that column never scrolls away from the table by itself: the hand log
shows only its newest lines that fit under the rest, so the table, your cards and the
result stay on screen at your turn and at the end of a hand; PageUp or ↑
opens the whole log, and the next move closes it again.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from typing import ClassVar

from rich.console import Console, ConsoleOptions, RenderableType
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from primero.engine.views import SeatView
from primero.tui.actionpad import KeyChoice
from primero.tui.handpanel import hand_panel
from primero.tui.logpanel import log_text
from primero.tui.resultpanel import result_text
from primero.tui.tablepanel import labels_for, possessive, status_text, table_panel

__all__ = ["MIN_SIZE", "NARROW_CSS", "Board", "KeyButton", "KeysLine", "keys_line"]

#: The smallest terminal (columns, rows) the board's layout supports; below it the board
#: says so instead of drawing a table nobody can read.
MIN_SIZE = (80, 24)

#: App CSS for screens narrower than 100 cells: one scrolling column (the side panel's
#: lesson or analysis and the hand log move into it), the cards on one line, the prompt
#: and keys kept at the bottom.
NARROW_CSS = """
Screen.-narrow Board #side { display: none; }
Screen.-narrow Board .narrow-only { display: block; }
Screen.-narrow Board #npanel.-empty { display: none; }
Screen.-narrow Board #hand { display: none; }
Screen.-narrow Board #status { margin-bottom: 0; }
Screen.-narrow Board #seats { margin-bottom: 0; }
Screen.-narrow Board #buttons { display: none; }
Screen.-narrow Board #keys-text { display: block; }
"""


_NOTHING = object()  # no key yet (:meth:`Board._put`)


def _content_key(content: RenderableType) -> object:
    """What a part filled with ``content`` shows, for :meth:`Board._put`: a string or a
    Text by its characters and styles; anything else by identity (always drawn)."""
    if isinstance(content, str):
        return ("str", content)
    if isinstance(content, Text):
        return (
            "text",
            content.plain,
            tuple(content.spans),
            content.style,
            content.justify,
            content.overflow,
            content.no_wrap,
            content.end,
            content.tab_size,
        )
    return object()


class _DrawnOnce:
    """A Rich renderable drawn once per width and kept: Textual draws a part once to
    measure its height and again to show it, and the seats' table is the costliest part
    of the board to draw. For renderables whose lines do not depend on
    ``options.height`` (a :class:`rich.table.Table` draws with no height; Text ignores
    it).
    """

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable
        self._drawn: dict[tuple[object, ...], list[Segment]] = {}

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        """The segments of ``renderable`` at ``options`` (drawn the first time only)."""
        key = (
            options.max_width,
            options.min_width,
            options.justify,
            options.overflow,
            options.no_wrap,
            options.highlight,
            options.markup,
            options.ascii_only,
            options.legacy_windows,
            options.encoding,
            options.is_terminal,
        )
        segments = self._drawn.get(key)
        if segments is None:
            segments = self._drawn[key] = list(console.render(self.renderable, options))
        yield from segments

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """The width of ``renderable``."""
        return Measurement.get(console, options, self.renderable)


class KeyButton(Button):
    """A button standing for a key; pressing it is the same as pressing the key.

    Buttons never take the focus, so every key reaches the screen (keyboard play).

    Args:
        choice: the key and its label.
    """

    def __init__(self, choice: KeyChoice) -> None:
        super().__init__(self.text(choice), compact=True, classes="keybutton")
        self.key = choice.key
        self.can_focus = False

    @classmethod
    def text(cls, choice: KeyChoice) -> str:
        """The button's label: the key as written on screen and what it does."""
        return f"{cls.key_label(choice.key)} {choice.label}"

    def show_choice(self, choice: KeyChoice) -> None:
        """Stand for another key: its label and key (an existing button reused, which
        costs far less than mounting a new one)."""
        self.key = choice.key
        self.label = self.text(choice)
        self.refresh(layout=True)  # the width follows the label

    @staticmethod
    def key_label(key: str) -> str:
        """How a key is written on screen: ``⏎`` for enter, ``?`` for question_mark…"""
        names = {
            "enter": "⏎",
            "escape": "esc",
            "up": "↑",
            "down": "↓",
            "left": "←",
            "right": "→",
            "colon": ":",
            "question_mark": "?",
            "ctrl+u": "^U",
        }
        return names.get(key, key)


def keys_line(choices: Sequence[KeyChoice], width: int) -> Text:
    """The keys as text lines of at most ``width`` cells, broken only between two keys:
    a key and its label (``? help``, ``q leave``) always stay on one line.

    Args:
        choices: the keys that do something now, with their labels.
        width: the cells available per line (a single key wider than that is cut).

    Returns:
        The lines joined by line breaks, keys in bold reverse.
    """
    out = Text(no_wrap=True, overflow="ellipsis")
    used = 0
    for choice in choices:
        name = KeyButton.key_label(choice.key)
        size = len(name) + 1 + len(choice.label)
        if used and used + 3 + size > width:
            out.append("\n")
            used = 0
        elif used:
            out.append("   ")
            used += 3
        out.append(name, style="bold reverse")
        out.append(f" {choice.label}")
        used += size
    return out


class KeysLine:
    """A Rich renderable: :func:`keys_line` broken for the width it is drawn at."""

    def __init__(self, choices: Sequence[KeyChoice]) -> None:
        self.choices = tuple(choices)

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[RenderableType]:
        """The key lines at ``options.max_width`` cells."""
        yield keys_line(self.choices, options.max_width)


class Board(Horizontal):
    """The table as one seat sees it, with a side panel.

    Call :meth:`show` with each new view; the other setters change one part.
    """

    DEFAULT_CSS = """
    Board { height: 1fr; }
    Board #left { width: 1fr; height: 1fr; }
    Board #main { height: 1fr; padding: 0 1; }
    Board #bar { height: auto; max-height: 50%; padding: 0 1; border-top: solid $primary; }
    Board #side { width: 38; border-left: solid $primary; padding: 0 1; }
    Board .narrow-only { display: none; }
    Board.-keys-wrap #buttons { display: none; }
    Board.-keys-wrap #keys-text { display: block; }
    Board #status { height: auto; margin-bottom: 1; }
    Board #seats { height: auto; margin-bottom: 1; }
    Board #hand { height: auto; margin-bottom: 1; }
    Board #hand-line { height: auto; margin-bottom: 1; }
    Board #npanel { height: auto; margin-bottom: 1; }
    Board #prompt { height: auto; color: $warning; }
    Board #buttons { height: auto; }
    Board .keybutton { width: auto; min-width: 0; margin-right: 1; }
    Board #result { height: auto; margin-bottom: 1; }
    Board #extra { height: auto; margin-bottom: 1; }
    Board #nlog { height: auto; }
    Board #panel { height: auto; max-height: 60%; margin-bottom: 1; }
    Board #log-scroll { height: 1fr; }
    Board #too-small { display: none; width: 1fr; height: 1fr; content-align: center middle;
                       text-style: bold; color: $warning; }
    Board.-too-small #too-small { display: block; }
    Board.-too-small #left { display: none; }
    Board.-too-small #side { display: none; }
    """

    #: Screens narrower than 100 cells stack the side panel under the table (set on the
    #: apps as ``HORIZONTAL_BREAKPOINTS``).
    BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (100, "-wide")]

    #: On narrow screens, show only the newest hand-log lines that fit under the table
    #: (the play table; the lesson and the viewer keep their whole text instead).
    tail_log = False
    #: What the hand panel says for a spectator's view (None: "Watching as a
    #: spectator"); pass and play says the public table instead.
    spectator_note: str | None = None
    _was_over = False
    #: Whether the narrow play column shows the whole log (PageUp/↑ opened it).
    _full_log = False
    _log_lines = 0
    _log = Text()
    #: How many log lines the narrow tail shows (set after each layout).
    _tail = 6
    _fit_rounds = 0
    #: The keys shown now (:meth:`set_keys`) and the buttons standing for them, in order.
    _choices: tuple[KeyChoice, ...] | None = None
    _buttons: tuple[KeyButton, ...] = ()
    #: The key of what each part of :meth:`show` shows (:meth:`_put`), and of ``_log``.
    _drawn: dict[str, object]
    _log_key: object = None

    def __init__(self) -> None:
        super().__init__()
        self._drawn = {}

    def compose(self) -> ComposeResult:
        """The parts of the board: a scrolling column and the key bar under it; the side
        panel and hand log beside them (on narrow screens, inside the column)."""
        with Vertical(id="left"):
            # not focusable: the apps handle the paging keys themselves (a focused
            # scroll would also take End and Home, animated)
            with VerticalScroll(id="main", can_focus=False):
                yield Static(id="status")
                yield Static(id="seats")
                yield Static(id="hand")
                yield Static(id="hand-line", classes="narrow-only")
                yield Static(id="result")
                extra = Static(id="extra")
                extra.display = False  # until hints or an analysis fill it
                yield extra
                yield Static(id="npanel", classes="narrow-only -empty")
                yield Static(id="nlog", classes="narrow-only")
            with Vertical(id="bar"):
                yield Static(id="prompt")
                yield Horizontal(id="buttons")
                yield Static(id="keys-text", classes="narrow-only")
        yield Static(id="too-small")
        with Vertical(id="side"):
            yield Static(id="panel")
            yield Static(Text("Hand log", style="bold underline"), id="log-title")
            with VerticalScroll(id="log-scroll", can_focus=False):
                yield Static(id="log")

    @property
    def narrow(self) -> bool:
        """Whether the screen is in its narrow layout (under 100 cells wide)."""
        return self.screen.has_class("-narrow")

    def scroll_key(self, key: str) -> bool:
        """Scroll for a paging key: ``pageup``/``pagedown`` by a page, ``up``/``down`` by a
        line, ``home``/``end`` to the top or bottom of the column. On a wide screen whose
        column fits, the hand log beside it scrolls instead.

        Returns:
            Whether ``key`` is a paging key (it was used).
        """
        main = self.query_one("#main", VerticalScroll)
        target = main
        if not self.narrow and main.max_scroll_y == 0:
            target = self.query_one("#log-scroll", VerticalScroll)
        if (
            self.narrow
            and self.tail_log
            and not self._full_log
            and key in ("pageup", "up", "home", "pagedown", "down", "end")
        ):
            self._full_log = True  # the whole log, its newest line at the bottom
            self._draw_nlog()
            self.call_after_refresh(main.scroll_end, animate=False)
            if key in ("pageup", "up", "home"):
                return True
        moves = {
            "pageup": target.scroll_page_up,
            "pagedown": target.scroll_page_down,
            "up": target.scroll_up,
            "down": target.scroll_down,
            "home": target.scroll_home,
            "end": target.scroll_end,
        }
        move = moves.get(key)
        if move is None:
            return False
        move(animate=False)
        return True

    def show(
        self,
        view: SeatView,
        labels: Sequence[str] | None = None,
        *,
        selected: Collection[int] = (),
        title: str = "",
        you: str | None = "you",
        seat_names: bool = False,
    ) -> None:
        """Draw ``view``: status, seats, the seat's cards, log and result (if over).

        Args:
            view: what the seat sees (R9b).
            labels: display names per seat in the seats table (default the names; the
                log and the result use the short names).
            selected: indices of the seat's cards chosen to discard.
            title: a line shown before the status (e.g. the hand number).
            you: how the status calls the viewing seat ("you"); None: by its name.
            seat_names: also show the record's seat names p1…pN (record views such as
                ``watch``); the table screens show names and the dealer mark only.
        """
        names = labels_for(view, labels)
        chosen = frozenset(selected)

        def status() -> Text:
            out = Text(title + "  ", style="bold cyan") if title else Text()
            out.append_text(status_text(view, view.players, you=you))
            return out

        self._put("#status", (view, title, you), status)
        self._put(
            "#seats",
            (view, names, seat_names),
            lambda: _DrawnOnce(table_panel(view, names, seat_names=seat_names)),
        )
        spectator = self.spectator_note or "Watching as a spectator: no cards of your own."
        self._put(
            "#hand",
            (view, chosen, spectator),
            lambda: hand_panel(view, selected=chosen, spectator=spectator),
        )
        whose = "Your"
        if you is None and view.seat is not None:
            whose = possessive(names[view.seat])
            whose = whose[:1].upper() + whose[1:]
        self._put(
            "#hand-line",
            (view, chosen, whose, spectator),
            lambda: hand_panel(
                view, selected=chosen, compact=True, whose=whose, spectator=spectator
            ),
        )
        lines = len(view.log)
        grew = lines != self._log_lines
        new_hand = lines < self._log_lines
        self._log_lines = lines
        over = view.final_stacks is not None
        log_scroll = self.query_one("#log-scroll", VerticalScroll)
        at_end = log_scroll.scroll_y >= log_scroll.max_scroll_y
        mine = you is not None
        if (view, mine, self.tail_log) != self._log_key:
            self._log_key = (view, mine, self.tail_log)
            self._log = log_text(view, view.players, you=mine, result=not self.tail_log)
        whole = None if self.tail_log else self._log  # the side log's text too: made once
        self._put(
            "#log",
            (view, mine),
            lambda: whole if whole is not None else log_text(view, view.players, you=mine),
        )
        if at_end or new_hand:
            # the side log's newest line on screen, unless the person scrolled it up (it
            # stays where they left it until they scroll back down, or the next hand)
            log_scroll.scroll_end(animate=False)
        narrow = self.narrow
        result = self._put(
            "#result",
            (view, narrow, mine),
            lambda: result_text(view, view.players, compact=narrow, you=mine),
        )
        result.display = over
        main = self.query_one("#main", VerticalScroll)
        if self.tail_log and self.narrow:
            if grew or over != self._was_over:
                self._full_log = False  # a move: back to the table
                main.scroll_home(animate=False)
            self._draw_nlog()
            self._fit_rounds = 0
            self.call_after_refresh(self._fit_tail)
        else:
            self._draw_nlog()
            if over and not self._was_over:
                # the result on screen, its top at the top of the column when it is long
                # (a lesson or an analysis follows it on a narrow screen)
                self.call_after_refresh(main.scroll_to_widget, result, top=True, animate=False)
            elif self._was_over and not over:
                main.scroll_home(animate=False)  # a new hand: back to the status line
        self._was_over = over

    def _put(self, name: str, key: object, content: Callable[[], RenderableType]) -> Static:
        """Fill the part ``name`` with ``content()``, unless it shows the content of an
        equal ``key`` already (the parts of :meth:`show` are functions of their keys):
        an unchanged part is not drawn and measured again at each refresh.

        Returns:
            The part.
        """
        part = self.query_one(name, Static)
        if self._drawn.get(name, _NOTHING) != key:
            part.update(content())
            self._drawn[name] = key
        return part

    def _draw_nlog(self) -> None:
        """The narrow column's hand log: whole, or its newest lines (``tail_log``)."""
        nlog = self.query_one("#nlog", Static)
        rows = self._log.split("\n")
        if not self.tail_log or self._full_log or len(rows) <= self._tail:
            text = Text("Hand log\n", style="bold underline")
            text.append_text(self._log)
            nlog.update(text)
            return
        keep = rows[len(rows) - self._tail :] if self._tail > 0 else []
        text = Text("Hand log", style="bold underline")
        text.append("  (the newest lines · PgUp: the whole log)", style="dim")
        for row in keep:
            row.no_wrap = True
            row.overflow = "ellipsis"
            text.append("\n")
            text.append_text(row)
        nlog.update(text)

    def _fit_tail(self) -> None:
        """Show as many newest log lines as fit under the rest of the narrow column."""
        if not self.narrow or self._full_log:
            return
        main = self.query_one("#main", VerticalScroll)
        nlog = self.query_one("#nlog", Static)
        free = main.scrollable_content_region.height - nlog.virtual_region.y - 1
        tail = max(free, 1)
        self._fit_rounds += 1
        if tail != self._tail:
            self._tail = tail
            self._draw_nlog()
            self._fit_rounds = 0
        if self._fit_rounds < 3:  # the layout may settle over a few frames
            self.call_after_refresh(self._fit_tail)

    def on_mount(self) -> None:
        """Say so at once when the terminal is too small."""
        self._check_size()

    def _check_size(self) -> None:
        """Show "Make the terminal at least 80×24" instead of the table when the terminal
        is smaller than :data:`MIN_SIZE`."""
        width, height = self.app.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        if small:
            self.query_one("#too-small", Static).update(
                Text(
                    f"Make the terminal at least {MIN_SIZE[0]}×{MIN_SIZE[1]}\n"
                    f"(it is {width}×{height} now; q leaves)",
                    justify="center",
                )
            )
        self.set_class(small, "-too-small")

    def on_resize(self) -> None:
        """Check the terminal's size; fit the narrow log's tail to the new height."""
        self._check_size()
        if self.tail_log:
            self._fit_rounds = 0
            self.call_after_refresh(self._fit_tail)

    def set_prompt(self, text: RenderableType) -> None:
        """Show a prompt or message under the cards ("" clears it)."""
        self._put("#prompt", _content_key(text), lambda: text)

    def set_keys(self, choices: Sequence[KeyChoice]) -> None:
        """Show one button per key that does something now; when they do not fit on one
        line, the keys as a wrapped line of text instead."""
        width = self.app.size.width - (0 if self.narrow else 39)  # the side panel: 38 + 1
        needed = sum(len(KeyButton.key_label(c.key)) + len(c.label) + 4 for c in choices)
        self.set_class(needed > width - 2, "-keys-wrap")
        choices = tuple(choices)
        if choices == self._choices:
            return  # the same keys: the buttons and the key line stand (they follow the width)
        self._choices = choices
        box = self.query_one("#buttons", Horizontal)
        # the buttons there stand for the first keys (each Button mounted costs a
        # style pass of its own); only the surplus is removed or the missing mounted
        buttons = self._buttons
        for button, choice in zip(buttons, choices, strict=False):
            button.show_choice(choice)
        if len(buttons) > len(choices):
            box.remove_children(list(buttons[len(choices) :]))
            self._buttons = buttons[: len(choices)]
        elif len(choices) > len(buttons):
            new = [KeyButton(c) for c in choices[len(buttons) :]]
            box.mount_all(new)
            self._buttons = (*buttons, *new)
        self.query_one("#keys-text", Static).update(KeysLine(choices))

    def set_extra(self, content: RenderableType) -> None:
        """Fill the area under the keys (hints or analysis; "" hides it)."""
        extra = self._put("#extra", _content_key(content), lambda: content)
        extra.display = bool(content)

    def set_panel(self, content: RenderableType) -> None:
        """Fill the side panel above the log (hints, analysis or a lesson; "" hides it)."""
        key = _content_key(content)
        for name in ("#panel", "#npanel"):
            panel = self._put(name, key, lambda: content)
            panel.set_class(not content, "-empty")
        self.query_one("#panel", Static).display = bool(content)
