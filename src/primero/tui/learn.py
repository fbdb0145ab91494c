"""``primero learn``: a guided first hand for someone who has never played Primero.

:class:`LearnApp` plays the scripted, seeded hand of :mod:`primero.tui.learn_script`.
At each moment it pauses with a lesson from :mod:`primero.play.lessons` (space or
enter goes on), then lets the person make the suggested move with the same keys as the
real table (:mod:`primero.tui.actionpad`). While a lesson that asks for a move shows,
a key of that move leaves the lesson and counts as the move's first key. The hand is
read only through the person's :class:`~primero.engine.views.SeatView` (R9b).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Button, Static

from primero.engine.errors import IllegalActionError
from primero.engine.hands import evaluate
from primero.engine.views import SeatView
from primero.play.lessons import LESSONS, Lesson
from primero.tui.actionpad import ActionPad, KeyChoice, PadMode
from primero.tui.board import NARROW_CSS, Board, KeyButton
from primero.tui.learn_script import GuidedHand, Teach, You, describe_move, keys_for
from primero.tui.play import LEAVE_KEYS
from primero.tui.screens import HelpScreen

__all__ = ["LearnApp", "lesson_fields", "run_learn"]

_KEY_NAMES = {"enter": "enter", "escape": "escape"}
#: Keys shown in every key bar of the lesson: the help and how to leave.
_ALWAYS = (KeyChoice("question_mark", "help"), KeyChoice("q", "leave"))


def _keys_text(keys: list[str]) -> str:
    return "press " + ", ".join(_KEY_NAMES.get(k, k) for k in keys)


def _last_bet(v: SeatView) -> tuple[int, int] | None:
    """The seat and amount of the pending bet, else of the last bet or raise in the log."""
    if v.pending_bet is not None:
        return v.pending_bet[0], v.pending_bet[1]
    for event in reversed(v.events):
        if event.kind in ("bet", "raise"):
            return event.seat, event.amount
    return None


def lesson_fields(hand: GuidedHand) -> dict[str, Any]:
    """The values of every placeholder of :data:`~primero.play.lessons.PLACEHOLDERS`,
    from the person's view of the guided hand now (and the move the script asks next)."""
    v = hand.view()
    names = v.players
    fields: dict[str, Any] = {
        "you": names[0],
        "hand": " ".join(c.pretty for c in v.hand) or "no cards",
        "pot": v.pot_total,
        "suggest": "",
        "keys": "",
        "bettor": "",
        "amount": "",
        "declared": "",
        "showdown": "",
        "winner": "",
        "dealer": names[-1],  # the dealer acts last (R3)
    }
    fields["value"] = (
        str(evaluate(v.hand)) if len(v.hand) == 4 else "no category yet (fewer than four cards)"
    )
    for step in hand.script[hand.index :]:
        if isinstance(step, You):
            move = step.choose(v)
            fields["suggest"] = describe_move(move, v)
            fields["keys"] = _keys_text(keys_for(move, v))
            break
        if not isinstance(step, Teach):
            break
    bet = _last_bet(v)
    if bet is not None:
        seat, amount = bet
        fields["bettor"], fields["amount"] = names[seat], amount
        declared = v.declared[seat]
        fields["declared"] = declared.label if declared is not None else "nothing"
    shown = []
    for s in range(v.n):
        value, cards = v.shown[s], v.shown_cards[s]
        if value is not None and cards is not None:
            shown.append(f"{names[s]} {' '.join(c.pretty for c in cards)}, {value}")
    fields["showdown"] = "; ".join(shown)
    winners = " and ".join(dict.fromkeys(names[w] for a in v.awards for w in a.winners))
    fields["winner"] = "you" if winners == "You" else winners
    return fields


class LearnApp(App[None]):
    """The guided first hand (``primero learn``).

    Args:
        hand: the guided hand to play (default: the scripted, seeded one).
    """

    TITLE = "Primero — learn"
    BINDINGS = [  # noqa: RUF012  (Textual's own class attribute)
        Binding("ctrl+q", "leave", "leave", priority=True),
        Binding("ctrl+c", "leave", "leave", priority=True),
        Binding("ctrl+d", "leave", "leave", priority=True),
    ]
    HORIZONTAL_BREAKPOINTS = Board.BREAKPOINTS
    CSS = (
        """
    Screen { layout: vertical; }
    #banner { height: 1; background: $primary-background; padding: 0 1; }
    """
        + NARROW_CSS
    )

    def __init__(self, hand: GuidedHand | None = None) -> None:
        super().__init__()
        self.guide = hand if hand is not None else GuidedHand()
        self.pad = ActionPad()
        self.lesson: Lesson | None = None
        self.lesson_text = ""
        self.seen: list[str] = []

    def compose(self) -> ComposeResult:
        """A banner and the board."""
        yield Static(Text("Primero — your first hand, step by step", style="bold"), id="banner")
        yield Board()

    def on_mount(self) -> None:
        """Show the first lesson; on narrow screens the hand log shows its newest lines
        under the table and the cards, as at the play table."""
        self.query_one(Board).tail_log = True
        self._refresh()

    def _move_after_lesson(self) -> tuple[str, list[str]] | None:
        """The move asked for by the lesson showing now, when the person makes it next:
        its words and keys (``("exchange 2♣", ["e", "1", "enter"])``); else None."""
        guide = self.guide
        if not isinstance(guide.step, Teach):
            return None
        following = guide.script[guide.index + 1 : guide.index + 2]
        if not following or not isinstance(following[0], You):
            return None
        v = guide.view()
        move = following[0].choose(v)
        return describe_move(move, v), keys_for(move, v)

    @property
    def finished(self) -> bool:
        """Whether the script has run to its end."""
        return self.guide.step is None

    def _refresh(self) -> None:
        guide = self.guide
        guide.run_bots()
        step = guide.step
        if isinstance(step, Teach):
            self.lesson = LESSONS[step.key]
            self.lesson_text = self.lesson.text.format_map(lesson_fields(guide))
            self.seen.append(step.key)
        v = guide.view()
        self.pad.reset(v if isinstance(step, You) else None)
        self._draw()

    def _draw(self, message: str = "") -> None:
        guide = self.guide
        v = guide.view()
        board = self.query_one(Board)
        board.show(v, selected=self.pad.selected, title="Guided hand")
        panel: list[Text] = []
        if self.lesson is not None:
            rules = ", ".join(self.lesson.rules)
            panel.append(Text(f"{self.lesson.title}  ({rules})", style="bold yellow"))
            panel.append(Text(self.lesson_text))
        board.set_panel(Group(*panel))
        step = guide.step
        if isinstance(step, Teach):
            last = step.key == "next_steps"
            ahead = self._move_after_lesson()
            if ahead is not None:
                words, keys = ahead
                board.set_prompt(
                    Text(
                        f"Press space to go on, or make the move now: {_keys_text(keys)}.",
                        style="bold",
                    )
                )
                board.set_keys([KeyChoice("space", "go on"), KeyChoice(keys[0], words), *_ALWAYS])
                return
            board.set_prompt(
                Text("Press q to leave." if last else "Press space to go on.", style="bold")
            )
            board.set_keys(
                [KeyChoice("q", "leave")] if last else [KeyChoice("space", "go on"), *_ALWAYS]
            )
            return
        if step is None:
            board.set_prompt(Text("The lesson is over. Press q to leave.", style="bold"))
            board.set_keys([KeyChoice("q", "leave")])
            return
        prompt = Text(self.pad.prompt() or "Your move.", style="bold")
        note = message or self.pad.message
        if note:
            prompt.append("\n" + note, style="red")
        board.set_prompt(prompt)
        choices = self.pad.choices()
        if self.pad.mode is PadMode.IDLE:
            choices = [*choices, *_ALWAYS]
        board.set_keys(choices)

    def on_key(self, event: events.Key) -> None:
        """Every key goes to :meth:`handle_key`."""
        event.stop()
        self.handle_key(event.key, event.character)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A key button: same as its key."""
        if isinstance(event.button, KeyButton):
            self.handle_key(event.button.key, None)

    def action_leave(self) -> None:
        """Leave the lesson (q, Ctrl-Q, Ctrl-C, Ctrl-D, as at the table)."""
        self.exit()

    def handle_key(self, key: str, character: str | None) -> None:
        """Go on after a lesson, make a move with the pad's keys, scroll (PageUp,
        PageDown, arrows), the keys and cheat sheet (?), or leave (q)."""
        if key in LEAVE_KEYS and (key != "q" or self.pad.mode is PadMode.IDLE):
            self.exit()
            return
        if self.pad.mode is not PadMode.AMOUNT or key in ("pageup", "pagedown"):
            board = self.query_one(Board)
            if key != "enter" and board.scroll_key(key):
                return
        if key == "question_mark" and self.pad.mode is PadMode.IDLE:
            self.push_screen(HelpScreen())
            return
        step = self.guide.step
        if isinstance(step, Teach):
            if key in ("space", "enter") and step.key != "next_steps":
                self.guide.next_lesson()
                self._refresh()
                return
            ahead = self._move_after_lesson()
            if ahead is None or key not in ahead[1]:
                return
            # a key of the move the lesson asks for: leave the lesson and start the move
            self.guide.next_lesson()
            self._refresh()
            step = self.guide.step
        if not isinstance(step, You):
            return
        action = self.pad.press(key, character)
        if action is None:
            self._draw()
            return
        try:
            self.guide.act(action)
        except IllegalActionError as exc:
            self.pad.reset(self.guide.view())
            self._draw(str(exc))
            return
        self._refresh()


def run_learn() -> None:
    """Play the guided first hand at the terminal (``primero learn``)."""
    LearnApp().run()
