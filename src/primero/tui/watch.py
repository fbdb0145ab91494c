"""``primero watch FILE``: step through a recorded hand as one seat saw it (R9b).

:class:`WatchApp` shows the table after each line of a ``.prh`` record through
:func:`primero.views.view` for the chosen seat (other seats' cards stay hidden until a
showdown), with the after-hand analysis of that seat's exchange decisions
(:mod:`primero.tui.analysis`).

Keys: ``left``/``right`` one line back/forward, ``home``/``end`` the start/end,
``p``/``n`` the previous/next exchange decision of the seat, ``1``–``8`` or ``tab``
choose the seat, ``a`` show or hide the analysis, ``q`` quit.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Button, Static

from primero.actions import seat_name
from primero.tui.actionpad import KeyChoice
from primero.tui.analysis import ExchangeDecision, exchange_decisions
from primero.tui.board import NARROW_CSS, Board, KeyButton
from primero.tui.cardart import cards_span
from primero.tui.hints import choice_label, odds_table, percent
from primero.tui.logpanel import describe_line
from primero.tui.watchmodel import WatchModel

__all__ = ["WatchApp", "analysis_summary", "run_watch"]


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
    out.append(f"{agreed} of {len(decisions)} as the odds favour (★)\n", style="dim")
    for d in decisions:
        two = d.odds.second_deal
        where = "1st round" if two else "2nd exchange"
        out.append(f"\nline {d.step + 1} · {where}: ", style="bold")
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


class WatchApp(App[None]):
    """Step through a recorded hand as one seat saw it, with the exchange analysis.

    Args:
        model: the replayed record and the seat to watch.
    """

    TITLE = "Primero — watch"
    HORIZONTAL_BREAKPOINTS = Board.BREAKPOINTS
    CSS = (
        """
    Screen { layout: vertical; }
    #banner { height: 1; background: $primary-background; padding: 0 1; }
    """
        + NARROW_CSS
    )

    def __init__(self, model: WatchModel) -> None:
        super().__init__()
        self.model = model
        self.step = model.steps
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
        """Show the last step (the end of the hand)."""
        self._draw()

    def _decision_at(self, step: int) -> ExchangeDecision | None:
        return next((d for d in self.decisions if d.step == step), None)

    def _draw(self) -> None:
        model = self.model
        v = model.view(self.step)
        names = v.players
        board = self.query_one(Board)
        title = f"Step {self.step}/{model.steps}"
        board.show(v, title=title, you=None)
        banner = Text("Watching as ", style="bold")
        banner.append(f"{seat_name(self.seat)} {names[self.seat]}", style="bold cyan")
        record = model.record
        extra = record.extra.get("hand_number")
        if extra is not None:
            banner.append(f" · hand {extra}")
        if not model.complete:
            banner.append(" · the record stops mid-hand", style="yellow")
        self.query_one("#banner", Static).update(banner)
        last = Text("start of the hand (antes in)")
        if self.step > 0:
            last = Text(f"line {self.step}: {describe_line(v.log[self.step - 1], names)}")
        keys = "←/→ step · home/end · p/n decision · 1-8/tab seat · a analysis · q quit"
        board.set_prompt(Group(last, Text(keys, style="dim")))
        board.set_keys(
            [
                KeyChoice("left", "back"),
                KeyChoice("right", "forward"),
                KeyChoice("p", "decision"),
                KeyChoice("n", "decision"),
                KeyChoice("tab", "seat"),
                KeyChoice("a", "analysis"),
            ]
        )
        panel: RenderableType = ""
        detail: RenderableType = ""
        if self.show_analysis:
            panel = analysis_summary(self.decisions, names, self.seat)
            decision = self._decision_at(self.step)
            if decision is not None:
                head = Text(
                    f"Decision at line {decision.step + 1}: the odds "
                    f"{'you' if names[self.seat] == 'You' else names[self.seat]} "
                    "could see (own cards and discards only)",
                    style="bold",
                )
                detail = Group(head, odds_table(decision.odds, chosen=decision.chosen))
        board.set_panel(panel)
        board.set_extra(detail)

    def on_key(self, event: events.Key) -> None:
        """Every key goes to :meth:`handle_key`."""
        event.stop()
        self.handle_key(event.key)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A key button: same as its key."""
        if isinstance(event.button, KeyButton):
            self.handle_key(event.button.key)

    def handle_key(self, key: str) -> None:
        """Move through the hand, change the seat, toggle the analysis, or quit."""
        model = self.model
        if key == "q":
            self.exit()
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
        elif key == "tab" or (key.isdigit() and 1 <= int(key) <= len(model.record.players)):
            n = len(model.record.players)
            model.seat = (model.seat + 1) % n if key == "tab" else int(key) - 1
            self.decisions = exchange_decisions(model)
        elif key == "a":
            self.show_analysis = not self.show_analysis
        else:
            return
        self._draw()


def run_watch(path: str | Path, *, seat: str | int | None = None) -> None:
    """Watch a recorded hand at the terminal (``primero watch FILE``).

    Args:
        path: a ``.prh`` (or ``.json``) record.
        seat: the seat to watch: ``"p2"``, a player's name, or None for the record's
            ``human`` seat, else p1.

    Raises:
        RecordError: the record cannot be read or is invalid.
        ValueError: ``seat`` is not a seat of the hand.
    """
    WatchApp(WatchModel.from_file(path, seat)).run()
