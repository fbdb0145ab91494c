"""The terminal table behind ``primero play``: a person against bots, keyboard first.

:class:`TableApp` drives a :class:`~primero.play.table.Table` and draws only the person's
:class:`~primero.engine.views.SeatView` (R9b). Bots' moves appear one by one with a short
delay (``bot_delay``, ``--speed``; 0 for tests); space or enter skips the wait. Keys
(see :mod:`primero.tui.actionpad`): ``e`` ``b`` ``r`` ``c`` ``f`` ``y`` ``n`` ``d``
``:``; at a vote ``a`` refuses and sets a limit above which bets are refused for you
(an input aid: the table votes ``n`` for you and says so); ``h`` hints; ``?`` keys and
cheat sheet; ``l`` look back at the last hand (the step-through viewer);
PageUp/PageDown and the arrows scroll; ``enter`` next hand.

Pass and play (``primero play --hot-seat Ana,Ben``): between turns the table shows the
public view (no private card); when a person of this screen is to act, a whole screen
(:class:`~primero.tui.screens.PassScreen`) says "Pass the device to Ben" and hides the
table until Ben presses enter; after Ben's move the public view comes back (unless Ben
acts again at once). One cover per person's turn: while only bots and the dealer moved
since Ben held the device, his next turn in the same hand needs no second cover; a vote
his own refusal limit (``a``) answers is cast without a cover at all (the table says so).
Each person's refusal limit is their own; the look-back (``l``) is off, since a record
shows one seat's cards.

Leaving: ``q``, Ctrl-Q, Ctrl-C and Ctrl-D all mean "leave the table"; in the middle
of a hand the table asks first (``y`` leaves, ``n`` or escape stays). ``q`` and ``?``
typed in the ``:`` move box do the same as the keys. :func:`run_table` returns the
table and the session summary, which ``primero play`` prints with the standings.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Button, Static

from primero.engine.actions import Deal, Vote
from primero.engine.errors import IllegalActionError
from primero.engine.state import DEALER
from primero.engine.views import SeatView
from primero.play.session import SessionSummary
from primero.play.table import Table, TableConfig
from primero.tui.actionpad import ActionPad, KeyChoice, PadMode, key_name
from primero.tui.board import NARROW_CSS, Board, KeyButton
from primero.tui.screens import ConfirmLeave, HelpScreen, PassScreen, show_watch_screen

__all__ = ["DEFAULT_BOT_DELAY", "LEAVE_KEYS", "TableApp", "run_table"]

#: Keys that leave the table (asking first in the middle of a hand).
LEAVE_KEYS = frozenset({"q", "ctrl+q", "ctrl+c", "ctrl+d"})
#: Words in the ``:`` move box that do what a key does.
_BOX_LEAVE = frozenset({"q", "quit", "exit"})
_BOX_HELP = frozenset({"?", "help"})
_BOX_HINTS = frozenset({"h", "hint", "hints"})

#: Seconds between two bots' moves on screen.
DEFAULT_BOT_DELAY = 0.6


class TableApp(App[None]):
    """A match at the terminal: the person (table index 0) against bots (R4–R9).

    Args:
        config: the table's set-up (ignored when ``table`` is given).
        table: a ready table to drive (tests and the lesson build their own).
        bot_delay: seconds between bots' moves on screen (0: at once).
        viewer: runs the step-through viewer on a record file (``l``); the default
            pushes the screen of ``primero watch`` over the table (``q`` comes back).

    Raises:
        RulesError: as :class:`~primero.play.table.Table` for a bad ``config``.
        ValueError: as :class:`~primero.play.table.Table` for an unknown bot kind.
    """

    TITLE = "Primero"
    BINDINGS = [  # noqa: RUF012  (Textual's own class attribute)
        Binding("ctrl+q", "leave", "leave", priority=True),
        Binding("ctrl+c", "leave", "leave", priority=True),
        Binding("ctrl+d", "leave", "leave", priority=True),
    ]
    HORIZONTAL_BREAKPOINTS = Board.BREAKPOINTS
    CSS = (
        """
    Screen { layout: vertical; }
    #banner { height: 1; background: $primary-background; color: $text; padding: 0 1; }
    """
        + NARROW_CSS
    )

    def __init__(
        self,
        config: TableConfig | None = None,
        *,
        table: Table | None = None,
        bot_delay: float = DEFAULT_BOT_DELAY,
        viewer: Callable[[App[None], Path], str] | None = None,
    ) -> None:
        super().__init__()
        if table is None:
            table = Table(config if config is not None else TableConfig())
        self.table = table
        self.viewer = viewer if viewer is not None else show_watch_screen
        self.summary = SessionSummary(start_chips=table.match.chips[0])
        self.note = ""
        self.bot_delay = bot_delay
        self.pad = ActionPad(parser=table.parse_input)
        self.show_hints = False
        self.animating = False
        self.current: SeatView | None = None
        self.hand_over = False
        self.match_over = False
        self.saved_note = ""
        #: Votes cast by a refusal limit since the last key: (whose limit, the bets).
        self.auto_notes: list[tuple[str, list[str]]] = []
        self._generation = 0
        self._limits: dict[int, int | None] = {}  # pass and play: each person's limit (a)
        self.passing: int | None = None  # pass and play: whom the cover waits for
        #: Pass and play: the person who was last shown their cards in this hand (the
        #: device is still in their hands while only bots and the dealer move).
        self.holder: int | None = None
        #: The keys in the key bar now (what a key that does nothing is answered with).
        self.keys_shown: list[KeyChoice] = []

    def compose(self) -> ComposeResult:
        """A banner line and the board."""
        yield Static(id="banner")
        yield Board()

    @property
    def board(self) -> Board:
        """The board widget."""
        return self.query_one(Board)

    def on_mount(self) -> None:
        """Start the first hand."""
        self.board.tail_log = True
        if self.table.hot_seat:
            self.board.spectator_note = (
                "The public table: each person's cards show only at their own turn."
            )
        self._start_hand()

    # ----------------------------------------------------------------- flow

    def _start_hand(self) -> None:
        if self.table.match.hand is None:  # else a resumed match, mid-hand
            self.table.start_hand()
        self.hand_over = False
        self._advance()

    def _advance(self) -> None:
        """Let the dealer and the bots play until the person must act or the hand ends.

        With a delay, one bot move (with the deals before it) is shown per tick.
        """
        if self.bot_delay <= 0:
            self.table.advance()
            self._settle()
            return
        self.animating = True
        self._generation += 1
        self._tick(self._generation)

    def _tick(self, generation: int) -> None:
        if not self.animating or generation != self._generation:
            return  # skipped, or a timer left from an earlier animation
        moved = False
        while True:
            action = self.table.step()
            if action is None:
                break
            moved = True
            if not isinstance(action, Deal) or self.table.view().to_act != DEALER:
                break
        if not moved:
            self._settle()
            return
        self.pad.reset(None)
        self._draw(self.table.view())
        self.set_timer(self.bot_delay, lambda: self._tick(generation))

    def _settle(self) -> None:
        """Show the hand as it stands now: the person's turn, or the result."""
        self.animating = False
        if self.table.hand is not None:
            self.table.advance()
        if self.table.hot_seat and self._pass():
            return
        if self._auto_refuse():
            self._advance()
            return
        current = self.table.view()
        self.pad.reset(current if self.table.waiting_for_human() else None)
        hand = self.table.hand
        if hand is not None and hand.complete and not self.hand_over:
            self.hand_over = True
            self._close_hand()
        self._draw(current)

    def _pass(self) -> bool:
        """Pass and play: when a person who is not the viewer is to act, show the public
        table underneath and cover it with the pass screen until they press enter.

        Returns:
            Whether the pass screen is up (the turn goes on from :meth:`_shown`).
        """
        table = self.table
        who = table.pass_to()
        hand = table.hand
        if who is None:
            if hand is not None and hand.complete:
                table.show_to(None)  # the result in public: no folded cards on screen
                self.holder = None  # everyone looks at the result: the next turn is covered
            return False
        if self._refuse_unseen(who):
            self._advance()
            return True
        if who == self.holder:  # still in their hands: no second cover for one person
            table.show_to(who)
            self.pad.refuse_above = self._limits.get(who)
            return False
        table.show_to(None)
        self.pad.reset(None)
        self._draw(table.view())
        self.passing = who
        self.push_screen(PassScreen(table.match.players[who]), lambda _ok: self._shown(who))
        return True

    def _shown(self, who: int) -> None:
        """Pass and play: ``who`` pressed enter on the pass screen: their view now."""
        self.passing = None
        self.holder = who
        self.table.show_to(who)
        self.pad.refuse_above = self._limits.get(who)
        self._settle()

    def _auto_refuse(self) -> bool:
        """Refuse for the person a bet above their limit (``a`` at a vote), and say so.

        An input aid, not a rule: the vote is the person's ``n`` (R8).

        Returns:
            Whether a vote was cast.
        """
        limit = self.pad.refuse_above
        if limit is None or not self.table.waiting_for_human():
            return False
        v = self.table.view()
        if v.legal is None or not v.legal.vote or v.pending_bet is None or v.seat is None:
            return False
        bettor, amount, is_raise = v.pending_bet
        if amount <= limit:
            return False
        self.table.act(Vote(v.seat, False))
        self._note_refusal(self.table.viewer, limit, bettor, amount, is_raise=is_raise)
        return True

    def _refuse_unseen(self, who: int) -> bool:
        """Pass and play: when ``who`` is to vote on a bet above their own limit, refuse
        it for them without covering the table for them (R8; the vote and the bet are
        public, R9b, so nothing of theirs is shown). The view goes back to the public
        table unless ``who`` holds the device.

        Returns:
            Whether a vote was cast.
        """
        table = self.table
        limit = self._limits.get(who)
        seat = table.model.hand_seat(who)
        public = table.model.view_for(None)
        pending = public.pending_bet
        if limit is None or seat is None or pending is None or public.to_act != seat:
            return False
        bettor, amount, is_raise = pending
        if amount <= limit:
            return False
        table.show_to(who)
        table.act(Vote(seat, False))
        table.show_to(who if who == self.holder else None)
        self._note_refusal(who, limit, bettor, amount, is_raise=is_raise)
        return True

    def _note_refusal(
        self, who: int | None, limit: int, bettor: int, amount: int, *, is_raise: bool
    ) -> None:
        """Keep what was refused for person ``who`` (table index) for :meth:`_auto_note`."""
        what = "raise to" if is_raise else "bet of"
        refused = f"{self.table.seat_label(bettor)}'s {what} {amount}"
        if self.table.hot_seat and who is not None:
            name = self.table.match.players[who]
            head = f"Refused for {name} (above {name}'s limit of {limit}; a at a vote: change it)"
        else:
            head = f"Refused for you (above your limit of {limit}; a at a vote: change it)"
        if self.auto_notes and self.auto_notes[-1][0] == head:
            self.auto_notes[-1][1].append(refused)
        else:
            self.auto_notes.append((head, [refused]))

    def _auto_note(self) -> str:
        """What was refused for the people since the last key, or ""."""
        return "; ".join(f"{head}: {', '.join(bets)}" for head, bets in self.auto_notes)

    def _close_hand(self) -> None:
        """Close the finished hand in the match at once (its record is saved now, R9)."""
        self.saved_note = ""
        self.summary.add(self.table.view())
        try:
            self.table.finish_hand()
        except OSError as exc:
            self.saved_note = f"the record could not be saved: {exc}"
            return
        if self.table.saved:
            self.saved_note = f"saved {self.table.saved[-1]}"

    def _draw(self, current: SeatView) -> None:
        self.current = current
        table = self.table
        board = self.board
        board.show(current, selected=self.pad.selected, title=self._title())
        head = f"Primero — {table.config.human_name} against "
        if table.hot_seat:
            whose = (
                "the public table"
                if table.viewer is None
                else f"{table.match.players[table.viewer]}'s cards"
            )
            head = f"Primero — {whose} · {table.people_names}"
            head += " against " if len(table.people) < len(table.kinds) else ""
        if table.human_out:
            head = f"Primero — {table.out_text()} · watching "
        opponents = _opponents(table)
        if len(head) + len(opponents) > self.size.width - 2:  # say it shorter than cut it
            kinds = ", ".join(dict.fromkeys(k for k in table.kinds if k is not None))
            bots = len(table.kinds) - len(table.people)
            opponents = f"{bots} bot{'' if bots == 1 else 's'} ({kinds})" if bots else ""
        banner = Text(head, style="bold")
        banner.append(opponents)
        self.query_one("#banner", Static).update(banner)
        self._draw_prompt()
        board.set_extra(self._hints(current))

    def _hints(self, current: SeatView) -> RenderableType:
        """The hints under the keys when they are on and a decision is left ("" if not).

        When the hand is over no decision is left, so the hints make room for the
        result (they come back with the next hand while ``h`` keeps them on).
        """
        if not self.show_hints or self.hand_over or self.match_over:
            return ""
        from primero.tui.hints import hints_text  # the odds tables: when first asked for

        return hints_text(current)

    def _draw_prompt(self) -> None:
        board = self.board
        choices: list[KeyChoice]
        if self.match_over:
            standings = self.table.standings()
            text = Text("The match is over. ", style="bold")
            if self.table.human_out:
                text.append(f"{self.table.out_text()}. ", style="bold red")
            text.append(" · ".join(f"{s.place}. {s.name} {s.chips}" for s in standings))
            text.append("   (n: a new match, q: leave)")
            if self.note:
                text.append("\n" + self.note, style="red")
            board.set_prompt(text)
            self._set_keys(
                [KeyChoice("n", "new match"), KeyChoice("q", "leave"), *self._extra_keys()]
            )
            return
        if self.hand_over and self.table.human_out and not self.table.over:
            prompt = Text(f"{self.table.out_text()}.", style="bold red")
            prompt.append(
                "  Press enter to watch the others play on, n for a new match, q to quit.",
                style="bold",
            )
            if self.saved_note:
                prompt.append(f"  ({self.saved_note})", style="dim")
            if self.note:
                prompt.append("\n" + self.note, style="red")
            board.set_prompt(prompt)
            self._set_keys(
                [
                    KeyChoice("enter", "watch"),
                    KeyChoice("n", "new match"),
                    KeyChoice("q", "quit"),
                    *self._extra_keys(),
                ]
            )
            return
        if self.hand_over:
            more = "the match result" if self.table.over else "the next hand"
            prompt = Text(f"The hand is over: press enter for {more}.", style="bold")
            if self.saved_note:
                prompt.append(f"  ({self.saved_note})", style="dim")
            if self._auto_note():
                prompt.append("\n" + self._auto_note(), style="yellow")
            if self.note:
                prompt.append("\n" + self.note, style="red")
            board.set_prompt(prompt)
            self._set_keys(
                [KeyChoice("enter", "next hand"), KeyChoice("q", "leave"), *self._extra_keys()]
            )
            return
        if self.animating or not self.pad.active:
            current = self.current
            folded = (
                current is not None and current.seat is not None and current.folded[current.seat]
            )
            wait = "You folded: the others play on." if folded else "Waiting for the others…"
            prompt = Text(wait, style="dim")
            if self.animating and self.table.hot_seat:
                prompt.append("  Press space to skip the bots' moves.", style="bold")
            elif self.animating:
                prompt.append(
                    "  Press space to skip to your turn or the end of the hand.", style="bold"
                )
            board.set_prompt(prompt)
            keys = [KeyChoice("space", "skip")] if self.animating else []
            self._set_keys([*keys, KeyChoice("q", "leave")])
            return
        prompt = Text(self.pad.prompt() or "Your move: ", style="bold")
        message = self.pad.message or self.note
        used = 0
        if self._auto_note():
            note = Text(self._auto_note(), style="yellow")
            used = len(note.wrap(self.console, self._bar_width()))
            prompt.append("\n")
            prompt.append_text(note)
        if message:
            prompt.append("\n")
            prompt.append_text(self._fit_message(message, used))
        board.set_prompt(prompt)
        choices = self.pad.choices()
        if self.pad.mode is PadMode.IDLE:
            choices = [
                *choices,
                KeyChoice("colon", "type a move"),
                KeyChoice("h", "hints"),
                *self._extra_keys(),
                KeyChoice("q", "leave"),
            ]
        self._set_keys(choices)

    def _set_keys(self, choices: list[KeyChoice]) -> None:
        """Show ``choices`` in the key bar and keep them (:attr:`keys_shown`) to say
        which keys do something when another is pressed."""
        self.keys_shown = choices
        self.board.set_keys(choices)

    def _bar_width(self) -> int:
        """The cells of a line in the key bar (its padding and the side panel left out)."""
        return max(self.size.width - (2 if self.board.narrow else 41), 20)

    def _fit_message(self, message: str, used: int) -> Text:
        """``message`` cut to the rows left in the key bar (half the board at most), so
        a long typed-move error never pushes the move box or the keys off screen.

        Args:
            message: what a key or a typed move did not do (red).
            used: rows of the bar already taken by other notes.
        """
        text = Text(message, style="red")
        rows = text.wrap(self.console, self._bar_width())
        room = max(self.board.size.height // 2 - 4 - used, 2)  # border, box, two key rows
        if len(rows) <= room:
            return text
        out = Text("\n", style="red").join(rows[: room - 1])
        out.append(f"\n… and {len(rows) - room + 1} more lines", style="red")
        return out

    def _extra_keys(self) -> list[KeyChoice]:
        """The help key, and the look-back key once a hand has been saved (not in pass
        and play: a record is seen from one seat)."""
        keys = [KeyChoice("question_mark", "help")]
        if self._last_record() is not None and not self.table.hot_seat:
            keys.append(KeyChoice("l", "last hand"))
        return keys

    def _last_record(self) -> Path | None:
        """The record of the last finished hand, when one was written."""
        return self.table.saved[-1] if self.table.saved else None

    def _next_hand(self) -> None:
        self.hand_over = False
        if self.table.over:
            self.match_over = True
            self._draw_prompt()
            return
        self._start_hand()

    # ----------------------------------------------------------------- input

    def on_key(self, event: events.Key) -> None:
        """Route every key: global keys, the next hand, or the action pad."""
        event.stop()
        self.handle_key(event.key, event.character)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A key button was clicked: same as pressing its key."""
        if isinstance(event.button, KeyButton):
            self.handle_key(event.button.key, None)

    def action_leave(self) -> None:
        """Leave the table (Ctrl-Q, Ctrl-C, Ctrl-D and q): ask first in mid-hand."""
        if isinstance(self.screen, ConfirmLeave):
            self.exit()
            return
        if self.screen is not self.screen_stack[0]:
            if isinstance(self.screen, PassScreen):
                self.table.show_to(None)  # the public table under the question
            self.pop_screen()
        if self._mid_hand():
            self.push_screen(ConfirmLeave(self.table.leave_note), self._confirmed)
        else:
            self.exit()

    def _mid_hand(self) -> bool:
        hand = self.table.hand
        return (
            hand is not None
            and not hand.complete
            and not self.match_over
            and self.table.in_hand()
            and not self.table.human_out
        )

    def _confirmed(self, leave: bool | None) -> None:
        if leave:
            self.exit()
        elif self.passing is not None:  # stayed: the cover comes back
            who = self.passing
            self.push_screen(
                PassScreen(self.table.match.players[who]), lambda _ok: self._shown(who)
            )

    def handle_key(self, key: str, character: str | None) -> None:
        """Do what ``key`` means now (see the module docstring)."""
        self.note = ""
        if not self.animating:
            self.auto_notes = []
        typing_text = self.pad.mode is PadMode.COMMAND
        if key in LEAVE_KEYS and (not typing_text or key != "q"):
            self.action_leave()
            return
        if typing_text and key == "enter":
            word = self.pad.command.strip().lower()
            same_key = (
                "q"
                if word in _BOX_LEAVE
                else "question_mark"
                if word in _BOX_HELP
                else "h"
                if word in _BOX_HINTS
                else None
            )
            if same_key is not None:
                self.pad.mode, self.pad.command = PadMode.IDLE, ""
                self.handle_key(same_key, None)
                return
        if (
            not typing_text
            and (
                self.pad.mode not in (PadMode.AMOUNT, PadMode.LIMIT)
                or key in ("pageup", "pagedown")
            )
            and self.board.scroll_key(key)
        ):
            return
        if not typing_text and key == "question_mark":
            self.push_screen(HelpScreen())
            return
        if not typing_text and key == "l" and self.pad.mode is PadMode.IDLE and not self.animating:
            record = self._last_record()
            if self.table.hot_seat:
                self.note = "the look-back is off in pass and play: a record is seen from one seat"
            elif record is None:
                self.note = "no hand has been saved yet to look back at"
            else:
                self.note = self.viewer(self, record)
            self._draw_prompt()
            return
        if key == "h" and self.pad.mode is PadMode.IDLE:
            self.show_hints = not self.show_hints
            if self.current is not None:
                self.board.set_extra(self._hints(self.current))
            return
        if self.animating:
            if key in ("space", "enter"):  # skip the bots' animation
                self._settle()
            return
        if key == "n" and (self.match_over or (self.hand_over and self.table.human_out)):
            self.summary.new_match = True  # a new match: ``primero play`` starts it
            self.exit()
            return
        if self.match_over:
            keys = ", ".join(f"{KeyButton.key_label(c.key)} {c.label}" for c in self.keys_shown)
            self.note = f"{key_name(key, character)} does nothing now: {keys}"
            self._draw_prompt()
            return
        if self.hand_over:
            if key in ("enter", "space"):
                self._next_hand()
                return
            keys = ", ".join(f"{KeyButton.key_label(c.key)} {c.label}" for c in self.keys_shown)
            self.note = f"{key_name(key, character)} does nothing now: {keys}"
            self._draw_prompt()
            return
        action = self.pad.press(key, character)
        if self.table.hot_seat and self.table.viewer is not None:
            self._limits[self.table.viewer] = self.pad.refuse_above
        if action is not None:
            try:
                self.table.act(action)
            except IllegalActionError as exc:
                self.pad.message = str(exc)
            else:
                self._advance()
                return
        current = self.current
        if current is not None:
            self.board.show(current, selected=self.pad.selected, title=self._title())
        self._draw_prompt()

    def _title(self) -> str:
        table = self.table
        most = table.config.max_hands
        return f"Hand {table.hand_number}" + (f" of {most}" if most else "")


def _opponents(table: Table) -> str:
    """The bots' names, their kind said once when they are all of one kind:
    ``"Lorenzo, Isabella, Girolamo (heuristic)"``."""
    indices = [i for i in range(len(table.match.players)) if i not in table.people]
    if not indices:
        return ""
    kinds = {table.kinds[i] for i in indices}
    if len(kinds) == 1:
        (kind,) = kinds
        return ", ".join(table.match.players[i] for i in indices) + f" ({kind})"
    return ", ".join(table.label(i) for i in indices)


def run_table(
    config: TableConfig, *, bot_delay: float = DEFAULT_BOT_DELAY, table: Table | None = None
) -> tuple[Table, SessionSummary]:
    """Play a match at the terminal (``primero play`` when not ``--plain``).

    Args:
        config: the table's set-up (players, bots, seed, rules, stack, hands, save dir).
        bot_delay: seconds between bots' moves on screen (``--speed``; 0: at once).
        table: a ready table to play on (a resumed match); default a new one.

    Returns:
        The table as it was left and the session's summary (for the standings).

    Raises:
        RulesError: as :class:`~primero.play.table.Table` for a bad ``config``.
        ValueError: as :class:`~primero.play.table.Table` for an unknown bot kind.
    """
    app = TableApp(config, table=table, bot_delay=bot_delay)
    app.run()
    return app.table, app.summary
