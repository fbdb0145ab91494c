"""``primero watch FILE``: step through a recorded hand as one seat saw it (R9b).

:class:`WatchApp` shows the table after each line of a ``.prh`` record through
:func:`primero.engine.views.view` for the chosen seat (other seats' cards stay hidden until a
showdown), with the after-hand analysis of that seat's exchange decisions
(:mod:`primero.tui.analysis`).

Keys: ``left``/``right`` one action back/forward, ``home``/``end`` the start/end,
``p``/``n`` the previous/next exchange decision of the seat, ``1``–``8`` or ``tab``
choose the seat, ``a`` show or hide the analysis, ``up``/``down``/``pgup``/``pgdn``
scroll, ``q`` quit.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Button, Static

from primero.engine.actions import seat_name
from primero.engine.views import SeatView
from primero.play.recordpos import describe_error
from primero.play.tablemodel.sentences import hand_sentences
from primero.tui.actionpad import KeyChoice
from primero.tui.analysis import ExchangeDecision, exchange_decisions
from primero.tui.board import NARROW_CSS, Board, KeyButton
from primero.tui.cardart import cards_span
from primero.tui.hints import choice_label, odds_table, percent
from primero.tui.logpanel import sentence_text
from primero.tui.watchmodel import WatchModel

__all__ = ["WatchApp", "WatchScreen", "analysis_summary", "run_watch"]


def analysis_summary(decisions: list[ExchangeDecision], names: tuple[str, ...], seat: int) -> Text:
    """The analysis in a few lines per decision: the hand, the choice made, the best one.

    Args:
        decisions: from :func:`~primero.tui.analysis.exchange_decisions`.
        names: the players' names.
        seat: the seat analysed.

    Returns:
        A text for the side panel.
    """
    if names[seat] == "You":
        title = f"Analysis: your exchanges ({seat_name(seat)})\n"
    else:
        title = f"Analysis: {seat_name(seat)} {names[seat]}'s exchanges\n"
    out = Text(title, style="bold")
    if not decisions:
        out.append("No exchange decision in this hand.", style="dim")
        return out
    agreed = sum(d.agrees for d in decisions)
    n = len(decisions)
    out.append(
        f"{agreed} of {n} exchange{'' if n == 1 else 's'} as the odds advise "
        "(★: the best chance to win)\n",
        style="dim",
    )
    for d in decisions:
        two = d.odds.second_deal
        where = "1st round" if two else "2nd exchange"
        out.append(f"\naction {d.step + 1} · {where}: ", style="bold")
        out.append_text(cards_span(d.hand))
        out.append("\n  chose ")
        out.append_text(choice_label(d.chosen_choice, two_cards=two))
        out.append(f" ({percent(d.chosen_choice.score)})")
        if d.agrees:
            out.append("  ✓ best", style="bold green")
        else:
            out.append("\n  best  ")
            out.append_text(choice_label(d.odds.best, two_cards=two))
            out.append(f" ({percent(d.odds.best.score)})", style="green")
    return out


class WatchScreen(Screen[None]):
    """Step through a recorded hand as one seat saw it, with the exchange analysis: the
    screen of ``primero watch`` (:class:`WatchApp`) and of ``l`` at the play table, which
    pushes it over the table (``q`` goes back).

    It opens at the first step (the antes in). The two banner lines say whose view it
    is, which file (``file 1 of 2``), and what the current action did, with its number
    (counted from 1, as in the hand log) and its line in the file. A record with an
    invalid action steps up to the last valid one, where the error is shown in the
    wording of ``primero replay`` (:func:`primero.play.recordpos.describe_error`).

    At 80x24 the banner, the table, the seat's cards, the result (at the end) and the
    keys are on screen; the analysis and the newest lines of the hand log follow below,
    and ``pgdn``/``down``/``pgup``/``up`` open the whole log (as at the play table).
    Wider than 100 columns the analysis and the log sit at the right; under 80×24 the
    board asks for a larger terminal.

    Args:
        model: the replayed record and the seat to watch.
        name: how to name the file (default the record's hand number, if any).
        position: ``(k, n)``: this is file k of n (shown when n > 1).
    """

    HORIZONTAL_BREAKPOINTS = Board.BREAKPOINTS
    CSS = (
        """
    WatchScreen { layout: vertical; }
    WatchScreen #banner { height: 2; background: $primary-background; padding: 0 1; }
    WatchScreen Board #prompt { display: none; }
    """
        + NARROW_CSS
        + """
    Screen.-narrow Board { overflow-y: auto; }
    Screen.-narrow Board #side { height: auto; }
    Screen.-narrow Board #log-scroll { height: auto; }
    """
    ).replace("Screen.-narrow", "WatchScreen.-narrow")  # a screen's CSS is scoped to it

    def __init__(
        self, model: WatchModel, *, name: str = "", position: tuple[int, int] = (1, 1)
    ) -> None:
        super().__init__()
        self.model = model
        self.file_name = name
        self.position = position
        self.step = 0
        self.show_analysis = True
        self.decisions = exchange_decisions(model)

    @property
    def seat(self) -> int:
        """The 0-based seat watched."""
        return self.model.seat

    def compose(self) -> ComposeResult:
        """A banner and the board."""
        yield Static(id="banner")
        yield Board()

    def on_mount(self) -> None:
        """Show the first step (the antes in), with the key buttons (the same at every
        step). On narrow screens the hand log shows its newest lines under the table, the
        cards and the result, as at the play table."""
        self.query_one(Board).tail_log = True
        self.query_one(Board).set_keys(
            [
                KeyChoice("left", "back"),
                KeyChoice("right", "forward"),
                KeyChoice("n", "next decision"),
                KeyChoice("tab", "seat"),
                KeyChoice("a", "analysis"),
                KeyChoice("q", "quit"),
            ]
        )
        self._draw()

    def _decision_at(self, step: int) -> ExchangeDecision | None:
        return next((d for d in self.decisions if d.step == step), None)

    def _banner(self, v: SeatView) -> Text:
        model = self.model
        names = v.players
        banner = Text("Watching ", style="bold")
        banner.append(f"{seat_name(self.seat)} {names[self.seat]}", style="bold cyan")
        k, n = self.position
        if self.file_name:
            banner.append(f" · {Path(self.file_name).name}")
        if n > 1:
            banner.append(f" (file {k} of {n})")
        extra = model.record.extra.get("hand_number")
        if extra is not None:
            banner.append(f" · hand {extra}")
        if model.error is None and not model.complete:
            banner.append(" · the record stops mid-hand", style="yellow")
        banner.append("\n")
        step = Text(f"Step {self.step}/{model.steps}", style="bold")
        tail = Text()
        if model.error is not None and self.step == model.steps:
            tail.append(" · next is invalid ↓", style="bold red")
        elif model.error is not None:
            tail.append(f" · invalid after action {model.steps}", style="red")
        width = max(20, self.size.width - 2)
        if self.step == 0:
            step.append(": the start of the hand (antes in)")
        else:
            line = model.file_line(self.step)
            where = f" (file line {line})" if line is not None else ""
            sentence = sentence_text(hand_sentences(v, names, you=False)[self.step - 1])
            head = f" · action {self.step}{where}: "
            if len(step) + len(head) + len(sentence) + len(tail) > width:
                head = f" · action {self.step}: "  # narrow: the file line goes first
            step.append(head)
            room = width - len(step) - len(tail)
            if len(sentence) > room:  # cut the sentence, never what follows it
                sentence.truncate(max(room - 1, 0))
                sentence.append("…")
            step.append_text(sentence)
        step.append_text(tail)
        banner.append_text(step)
        banner.no_wrap = True
        banner.overflow = "ellipsis"
        return banner

    def _draw(self) -> None:
        model = self.model
        v = model.view(self.step)
        names = v.players
        board = self.query_one(Board)
        board.show(v, you=None)
        self.query_one("#banner", Static).update(self._banner(v))
        panel: RenderableType = ""
        detail: list[RenderableType] = []
        last = self.step == model.steps
        if model.error is not None and last:
            detail.append(
                Text(
                    describe_error(self.file_name or "record", model.error, model.file_lines),
                    style="bold red",
                )
            )
        if self.show_analysis:
            panel = analysis_summary(self.decisions, names, self.seat)
            decision = self._decision_at(self.step)
            if decision is not None:
                head = Text(
                    f"Decision at action {decision.step + 1}: the odds "
                    f"{'you' if names[self.seat] == 'You' else names[self.seat]} "
                    "could see (own cards and discards only)",
                    style="bold",
                )
                detail += [head, odds_table(decision.odds, chosen=decision.chosen)]
        board.set_panel(panel)
        board.set_extra(Group(*detail) if detail else "")
        if board.narrow:
            # the board keeps the table, the cards and the result at the top
            board.scroll_home(animate=False)
        elif last and (v.final_stacks is not None or model.error is not None):
            target = "#result" if v.final_stacks is not None else "#extra"
            self.call_after_refresh(board.query_one(target).scroll_visible, animate=False)
        else:
            board.scroll_home(animate=False)

    def go_to(self, step: int) -> None:
        """Show the hand after ``step`` actions (clamped to ``0..steps``)."""
        self.step = max(0, min(self.model.steps, step))
        self._draw()

    def on_key(self, event: events.Key) -> None:
        """Every key goes to :meth:`press`."""
        event.stop()
        self.press(event.key)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A key button: same as its key."""
        if isinstance(event.button, KeyButton):
            self.press(event.button.key)

    _SCROLL: ClassVar[dict[str, str]] = {
        "up": "scroll_up",
        "down": "scroll_down",
        "pageup": "scroll_page_up",
        "pagedown": "scroll_page_down",
    }

    def press(self, key: str) -> None:
        """Move through the hand, change the seat, toggle the analysis, scroll, or quit."""
        model = self.model
        seats = [str(k) for k in range(1, len(model.record.players) + 1)]
        if key == "q":
            self.dismiss(None)
            return
        if key in self._SCROLL:
            board = self.query_one(Board)
            if board.narrow:  # the newest log lines, or the whole log (as at the table)
                board.scroll_key(key)
                return
            scroller = board if board.allow_vertical_scroll else board.query_one("#main")
            getattr(scroller, self._SCROLL[key])(animate=False)
            return
        if key == "left":
            self.step = max(0, self.step - 1)
        elif key == "right":
            self.step = min(model.steps, self.step + 1)
        elif key == "home":
            self.step = 0
        elif key == "end":
            self.step = model.steps
        elif key in ("n", "p"):
            steps = [d.step for d in self.decisions]
            later = [s for s in steps if s > self.step]
            earlier = [s for s in steps if s < self.step]
            if key == "n" and later:
                self.step = later[0]
            elif key == "p" and earlier:
                self.step = earlier[-1]
        elif key == "tab" or key in seats:
            n = len(model.record.players)
            model.seat = (model.seat + 1) % n if key == "tab" else seats.index(key)
            self.decisions = exchange_decisions(model)
        elif key == "a":
            self.show_analysis = not self.show_analysis
        else:
            return
        self._draw()


class WatchApp(App[None]):
    """``primero watch``: the :class:`WatchScreen` of a record as a whole application,
    which ends when the screen is left (``q``).

    Args:
        model: the replayed record and the seat to watch.
        name: how to name the file (default the record's hand number, if any).
        position: ``(k, n)``: this is file k of n (shown when n > 1).
    """

    TITLE = "Primero — watch"
    HORIZONTAL_BREAKPOINTS = Board.BREAKPOINTS

    def __init__(
        self, model: WatchModel, *, name: str = "", position: tuple[int, int] = (1, 1)
    ) -> None:
        super().__init__()
        self.watch_screen = WatchScreen(model, name=name, position=position)

    def on_mount(self) -> None:
        """Show the watch screen; leaving it ends the application."""
        self.push_screen(self.watch_screen, lambda _: self.exit())

    @property
    def model(self) -> WatchModel:
        """The replayed record and the seat watched."""
        return self.watch_screen.model

    @property
    def seat(self) -> int:
        """The 0-based seat watched."""
        return self.watch_screen.seat

    @property
    def step(self) -> int:
        """The actions shown (0: the antes in)."""
        return self.watch_screen.step

    def go_to(self, step: int) -> None:
        """Show the hand after ``step`` actions (clamped to ``0..steps``)."""
        self.watch_screen.go_to(step)

    def handle_key(self, key: str) -> None:
        """As :meth:`WatchScreen.press`."""
        self.watch_screen.press(key)


def run_watch(path: str | Path, *, seat: str | int | None = None) -> None:
    """Watch a recorded hand at the terminal (``primero watch FILE``).

    Args:
        path: a ``.prh`` (or ``.json``) record.
        seat: the seat to watch: ``"p2"``, a player's name, or None for the record's
            ``human`` seat, else p1.

    Raises:
        RecordError: the record cannot be read or its header is invalid.
        ValueError: ``seat`` is not a seat of the hand.
    """
    WatchApp(WatchModel.from_file(path, seat), name=str(path)).run()
