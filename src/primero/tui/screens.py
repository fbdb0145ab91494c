"""Screens over the table: the question before leaving mid-hand, the keys and cheat
sheet (``?``), the step-through viewer of the last hand (``l``), and the cover that
hides the table while the screen is passed to the next person (pass and play)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult, SuspendNotSupported
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from primero.play.table import pass_lines

__all__ = [
    "KEYS_HELP",
    "ConfirmLeave",
    "HelpScreen",
    "PassScreen",
    "run_watch_viewer",
    "show_watch_screen",
]

#: The table's keys, shown by ``?`` above the cheat sheet.
KEYS_HELP: Final = """\
Keys at the table
  e          exchange: then 1-4 choose cards, enter confirms (none: stand pat)
  b / r      bet / raise: type the amount (up/down +-1), enter confirms
  c          call, or check (no bet open in rounds 2 and 3: bet 0)
  f          fold
  y / n      accept / refuse a bet (R8)
  a          at a vote: refuse it, and every bet above the amount you type
             from now on, without asking (enter with no amount: no limit)
  d          declare: 1 numerus 2 primero 3 supremus 4 fluxus 5 chorus
             (R6), the same keys every hand; those below your hand are off
  :          type a move: b 5, r 10, x 7h Kc, dc n, q, ?
  h          hints: exact odds of your exchange choices
  l          look back at the last hand, step by step (q comes back)
  ?          this help; escape or q closes it
  PgUp PgDn  scroll (also the arrows, home, end)
  space      skip the bots' moves
  enter      next hand
  q          leave (Ctrl-Q, Ctrl-C, Ctrl-D too); mid-hand it asks first.
             Saved (the default): primero play --resume continues the match;
             with --no-save leaving ends it.
Cards: rank A 2 3 4 5 6 7 J Q K, suit c d h s (or ♣ ♦ ♥ ♠ / ♧ ♢ ♡ ♤), e.g. 7h.
"""


class ConfirmLeave(ModalScreen[bool]):
    """Leave in the middle of a hand? ``y`` (or q, Ctrl-Q, Ctrl-C, Ctrl-D again) leaves;
    ``n``, escape or any other key stays. Dismisses with True to leave.

    Args:
        note: what leaving means for this match (:attr:`~primero.play.table.Table.leave_note`).
    """

    DEFAULT_CSS = """
    ConfirmLeave { align: center middle; }
    ConfirmLeave > Vertical {
        width: 64; max-width: 100%; height: auto; border: thick $warning;
        background: $surface; padding: 1 2;
    }
    """

    def __init__(self, note: str) -> None:
        super().__init__()
        self.note = note

    def compose(self) -> ComposeResult:
        """The question."""
        with Vertical():
            yield Static(
                Text.assemble(
                    ("Leave the table in the middle of this hand?\n\n", "bold"),
                    self.note,
                    "\n\n",
                    ("y", "bold"),
                    " leave    ",
                    ("n", "bold"),
                    " / escape  stay",
                )
            )

    def on_key(self, event: events.Key) -> None:
        """y (or a leave key again) leaves; anything else stays."""
        event.stop()
        self.dismiss(event.key in ("y", "q", "ctrl+q", "ctrl+c", "ctrl+d"))


class PassScreen(Screen[bool]):
    """Pass and play (``primero play --hot-seat``): a whole screen, not a window over the
    table, so nothing of the table is drawn while the device goes to ``name``: no card,
    no view. Enter (or space) says only ``name`` is looking and dismisses with True; q
    leaves (asking first in mid-hand, as at the table); other keys do nothing.

    Args:
        name: the person to pass to.
    """

    DEFAULT_CSS = """
    PassScreen { align: center middle; }
    PassScreen > Vertical {
        width: 60; max-width: 100%; height: auto; border: thick $accent;
        background: $surface; padding: 1 2;
    }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.person = name

    def compose(self) -> ComposeResult:
        """The title, the line and the keys."""
        title, line = pass_lines(self.person)
        with Vertical():
            yield Static(
                Text.assemble(
                    (title, "bold"),
                    "\n\n",
                    line,
                    "\n\n",
                    ("enter", "bold"),
                    f"  I am {self.person}: show my cards    ",
                    ("q", "bold"),
                    " leave",
                ),
                id="pass-text",
            )

    def on_key(self, event: events.Key) -> None:
        """Enter or space: shown to the person; q: leave; any other key: nothing."""
        event.stop()
        if event.key in ("enter", "space"):
            self.dismiss(True)
        elif event.key == "q":
            leave = getattr(self.app, "action_leave", None)
            if leave is not None:
                # From the app, not from this screen: leaving pops this screen, and the
                # question's answer goes to the screen that asked (Textual calls a
                # dismissed screen's callback through it): asked from here, "y" went
                # nowhere and the person stayed at the table.
                self.app.call_later(leave)


class HelpScreen(ModalScreen[None]):
    """The keys and the cheat sheet (categories, points), scrollable; escape, q or ?
    closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 100; max-width: 100%; height: 100%; border: thick $primary;
        background: $surface; padding: 0 1;
    }
    """

    def compose(self) -> ComposeResult:
        """The keys, then the cheat sheet."""
        with VerticalScroll():
            yield Static(Text(KEYS_HELP))
            from rich.markdown import Markdown  # markdown-it: only when help is opened

            from primero.play.cheatsheet import cheatsheet

            yield Static(Markdown(str(cheatsheet("md"))))

    def on_key(self, event: events.Key) -> None:
        """Scroll, or close."""
        event.stop()
        scroll = self.query_one(VerticalScroll)
        moves = {
            "pageup": scroll.scroll_page_up,
            "pagedown": scroll.scroll_page_down,
            "up": scroll.scroll_up,
            "down": scroll.scroll_down,
            "home": scroll.scroll_home,
            "end": scroll.scroll_end,
        }
        if event.key in moves:
            moves[event.key](animate=False)
        elif event.key in ("escape", "q", "question_mark", "enter", "space"):
            self.dismiss(None)


_T = TypeVar("_T")


def without_echo(fd: int, run: Callable[[], _T]) -> _T:
    """Call ``run`` with the echo of terminal ``fd`` off, then drop the keys typed but
    not read meanwhile and restore the terminal's modes (no ``^[[C`` printed over the
    shell while the table hands the terminal to the viewer and back).

    Args:
        fd: a file descriptor; when it is not a terminal, ``run`` is just called.
        run: what to do meanwhile.

    Returns:
        What ``run`` returns.
    """
    try:
        import termios
    except ImportError:  # not on POSIX: nothing to do
        return run()
    try:
        saved = termios.tcgetattr(fd)
    except (termios.error, OSError):  # not a terminal
        return run()
    quiet = list(saved)
    quiet[3] = saved[3] & ~termios.ECHO  # the local modes, echo off
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    try:
        return run()
    finally:
        termios.tcflush(fd, termios.TCIFLUSH)
        termios.tcsetattr(fd, termios.TCSANOW, saved)


def run_watch_viewer(app: App[Any], path: Path) -> str:
    """Suspend ``app`` and run ``primero watch`` on ``path`` in the same terminal; the
    table comes back when the viewer is left (q).

    Returns:
        A note for the person ("" when it ran; else why it could not).
    """
    command = [
        sys.executable,
        "-c",
        "from primero.cli import app; app(prog_name='primero')",
        "watch",
        str(path),
    ]
    try:
        with app.suspend():
            without_echo(sys.stdin.fileno(), lambda: subprocess.run(command, check=False))
    except (SuspendNotSupported, OSError) as exc:  # no terminal to hand over: say so
        return f"the viewer could not open here ({type(exc).__name__}); see {path}"
    return ""


def show_watch_screen(app: App[Any], path: Path) -> str:
    """Push the step-through viewer of ``primero watch`` for ``path`` over ``app`` (the
    record's ``human`` seat, else p1); ``q`` there goes back to the table. Nothing leaves
    the application, so the shell prompt never shows.

    Returns:
        A note for the person ("" when it opened; else why it could not).
    """
    from primero.engine.history import RecordError
    from primero.tui.watch import WatchScreen
    from primero.tui.watchmodel import WatchModel

    try:
        model = WatchModel.from_file(path, None)
    except (RecordError, OSError, ValueError) as exc:
        return f"the viewer could not open {path}: {exc}"
    app.push_screen(WatchScreen(model, name=str(path)))
    return ""
