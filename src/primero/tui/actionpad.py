"""Keys to actions: what the person may press now, and the action a key sequence makes.

The pad knows nothing of Textual: it takes key names (as Textual reports them:
``"e"``, ``"1"``, ``"enter"``, ``"escape"``, ``"backspace"``, ``"up"``…) and, from the
seat's :class:`~primero.engine.views.SeatView`, turns them into one
:class:`~primero.engine.actions.Action` (R4–R8):

- ``e`` exchange: then ``1``–``4`` choose the cards to discard, ``enter`` confirms
  (with none chosen in the second exchange: stand pat), ``escape`` cancels (R4.3, R4.6);
- ``b`` bet / ``r`` raise: then type the amount (``up``/``down`` change it by one),
  ``enter`` confirms (R5);
- ``c`` call (or check; with no bet open in rounds 2 and 3, a bet of 0), ``f`` fold;
- ``y`` / ``n`` accept / refuse a bet (R8); ``a`` refuses it and sets a limit: from
  then on every bet or raise above the amount typed is refused for you without asking
  (:attr:`ActionPad.refuse_above`; an input aid, not a rule; enter with no amount: no
  limit);
- ``d`` declare: then ``1``–``5`` pick a category, always the same one for the same key:
  1 numerus, 2 primero, 3 supremus, 4 fluxus, 5 chorus; those below the hand held are
  shown off (:attr:`KeyChoice.enabled` false) and refused with the reason (R6);
- ``:`` type an action in the short syntax (``b 5``, ``x 7h Kc``), ``enter`` sends it.

>>> from primero.engine.state import HandState
>>> from primero.engine.actions import parse_action
>>> from primero.engine.views import view
>>> s = HandState(["Ana", "Ben"], [10, 10])
>>> for line in ["d dh p1 7h 6h", "d dh p2 Ac 2d"]:
...     s.apply(parse_action(line, 2))
>>> pad = ActionPad()
>>> pad.reset(view(s, 0))
>>> [c.key for c in pad.choices()]
['e', 'b']
>>> pad.press("e"), pad.press("2"), pad.press("enter")
(None, None, Exchange(seat=0, cards=(Card('6h'),)))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from primero.engine.actions import Action, Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import Card
from primero.engine.hands import Category
from primero.engine.state import LegalActions
from primero.engine.views import SeatView
from primero.play.moveinput import MAX_DIGITS, InputError, count_text, digit_key, read_number
from primero.play.tablemodel.sentences import move_words

__all__ = ["ActionPad", "KeyChoice", "PadMode", "declare_key", "key_name"]


#: The keys a terminal may send for Backspace (DEL, or ^H on some terminals).
_BACKSPACE = frozenset({"backspace", "ctrl+h"})


class PadMode(Enum):
    """What the pad is collecting."""

    IDLE = "idle"
    EXCHANGE = "exchange"
    AMOUNT = "amount"
    DECLARE = "declare"
    COMMAND = "command"
    LIMIT = "limit"


@dataclass(frozen=True, slots=True)
class KeyChoice:
    """A key the person may press now and what it does.

    Attributes:
        key: the Textual key name (``"e"``, ``"enter"``, ``"1"``…).
        label: a short description, e.g. ``"bet 1–99"``.
        enabled: False for a key shown but off now (a declaration below the hand held,
            R6): it keeps its place and meaning, and pressing it says why it is off.
    """

    key: str
    label: str
    enabled: bool = True


def declare_key(category: Category) -> str:
    """The key that declares ``category`` (R6), the same in every hand: 1 numerus,
    2 primero, 3 supremus, 4 fluxus, 5 chorus (low to high, as R2 ranks them upwards).

    >>> [declare_key(c) for c in Category]
    ['1', '2', '3', '4', '5']
    """
    return str(int(category) + 1)


def key_name(key: str, character: str | None) -> str:
    """A key as the person may read it: its printable character quoted (``'z'``), else
    its Textual key name (``escape``, ``enter``, ``space``); never a control character.

    >>> key_name("z", "z"), key_name("escape", "\\x1b"), key_name("enter", "\\r")
    ("'z'", 'escape', 'enter')
    """
    if character and character.isprintable() and not character.isspace():
        return f"'{character}'"
    if key.isprintable() and len(key) == 1 and not key.isspace():
        return f"'{key}'"
    return "".join(ch for ch in key if ch.isprintable()) or "that key"


class ActionPad:
    """Collects the person's key presses into one legal-looking action (R4–R8).

    The pad proposes; the engine decides: an action it returns may still be refused by
    :meth:`primero.engine.state.HandState.apply` (e.g. a raise after a refusal cap), whose
    message the interface shows.

    Args:
        parser: turns typed short syntax into an action (``Table.parse_input``); None
            disables the ``:`` command line.

    Attributes:
        mode: what is being collected (:class:`PadMode`).
        selected: 0-based indices of the cards chosen to discard.
        amount: the amount being typed, as text.
        command: the command line being typed.
        message: a note for the person (what a key did not do), or "".
        refuse_above: the person's limit: bets and raises above it are refused for them
            (None: no limit); kept from hand to hand.
    """

    def __init__(self, parser: Callable[[str], Action] | None = None) -> None:
        self.parser = parser
        self.seat: int | None = None
        self.legal: LegalActions | None = None
        self.hand: tuple[Card, ...] = ()
        self.mode = PadMode.IDLE
        self.selected: list[int] = []
        self.amount_kind = "b"
        self.amount = ""
        self._fresh = False
        self.command = ""
        self.message = ""
        self.refuse_above: int | None = None
        self.pending: int | None = None
        self.current_bet: int | None = None

    # ----------------------------------------------------------------- state

    def reset(self, view: SeatView | None) -> None:
        """Start over from the seat's view (``legal`` None: nothing may be pressed)."""
        self.seat = None if view is None else view.seat
        self.legal = None if view is None else view.legal
        self.hand = () if view is None else view.hand
        pending = None if view is None else view.pending_bet
        self.pending = None if pending is None else pending[1]
        self.current_bet = None if view is None else view.current_bet
        self.mode = PadMode.IDLE
        self.selected = []
        self.amount = ""
        self.command = ""
        self.message = ""

    @property
    def active(self) -> bool:
        """Whether the seat must act now (its view had ``legal`` set)."""
        return self.legal is not None and self.seat is not None

    def _range(self) -> tuple[int, int] | None:
        legal = self.legal
        if legal is None:
            return None
        return legal.bet if self.amount_kind == "b" else legal.raise_to

    def choices(self) -> list[KeyChoice]:
        """The keys that do something now, in the order to show them."""
        legal = self.legal
        if legal is None or self.seat is None:
            return []
        if self.mode is PadMode.EXCHANGE:
            out = [KeyChoice(str(i + 1), f"pick {c.pretty}") for i, c in enumerate(self.hand)]
            if self.selected:
                out.append(KeyChoice("enter", f"discard {len(self.selected)}"))
            elif 0 in legal.exchange:
                out.append(KeyChoice("enter", "stand pat"))
            return [*out, KeyChoice("escape", "back")]
        if self.mode is PadMode.AMOUNT:
            low, high = self._range() or (0, 0)
            what = "bet" if self.amount_kind == "b" else self._raise_word().lower()
            return [
                KeyChoice("down", "−1"),
                KeyChoice("up", "+1"),
                KeyChoice("enter", f"{what} {self.amount or '?'} ({low}–{high})"),
                KeyChoice("escape", "back"),
            ]
        if self.mode is PadMode.DECLARE:
            out = [KeyChoice(declare_key(c), c.label, enabled=c in legal.declare) for c in Category]
            return [*out, KeyChoice("escape", "back")]
        if self.mode is PadMode.COMMAND:
            return [
                KeyChoice("enter", "send"),
                KeyChoice("ctrl+u", "clear"),
                KeyChoice("escape", "back"),
            ]
        if self.mode is PadMode.LIMIT:
            return [
                KeyChoice("down", "−1"),
                KeyChoice("up", "+1"),
                KeyChoice("enter", "refuse, and bets above it" if self.amount else "no limit"),
                KeyChoice("escape", "back"),
            ]
        out = []
        if legal.vote:
            return [
                KeyChoice("y", "accept the bet"),
                KeyChoice("n", "refuse the bet"),
                KeyChoice("a", "refuse above…"),
            ]
        if legal.declare:
            out.append(KeyChoice("d", "declare"))
            if legal.fold:
                out.append(KeyChoice("f", "fold"))
            return out
        if legal.exchange:
            counts = "/".join(str(k) for k in legal.exchange)
            out.append(KeyChoice("e", f"exchange {counts}"))
        if legal.bet is not None:
            low, high = legal.bet
            out.append(KeyChoice("b", f"bet {low}–{high}" if low != high else f"bet {low}"))
            if low == 0 and legal.call is None:
                out.append(KeyChoice("c", "check (bet 0)"))
        if legal.raise_to is not None:
            low, high = legal.raise_to
            span = f"{low}–{high}" if low != high else str(low)
            out.append(KeyChoice("r", f"{self._raise_word().lower()} {span}"))
        if legal.call is not None:
            out.append(KeyChoice("c", "check" if legal.call == 0 else f"call {legal.call}"))
        if legal.fold:
            out.append(KeyChoice("f", "fold"))
        return out

    def _raise_word(self) -> str:
        """The ``r`` move's name: "Raise to" over a bet of more than 0, "Bet" over a bet
        of 0 (R5; :func:`~primero.play.tablemodel.sentences.move_words`)."""
        legal = self.legal
        if legal is None:
            return "Raise to"
        return move_words(legal, self.current_bet)["raise"] or "Raise to"

    def prompt(self) -> str:
        """A line saying what is being entered now, or "" when idle."""
        if self.mode is PadMode.EXCHANGE:
            legal = self.legal
            counts = count_text([k for k in legal.exchange if k > 0]) if legal else ""
            pat = " (none: stand pat)" if legal is not None and 0 in legal.exchange else ""
            chosen = " ".join(self.hand[i].pretty for i in sorted(self.selected)) or "none"
            return f"Exchange {counts}{pat}: press 1–{len(self.hand)} to choose ({chosen}), enter"
        if self.mode is PadMode.AMOUNT:
            low, high = self._range() or (0, 0)
            what = "Bet" if self.amount_kind == "b" else self._raise_word()
            if what == "Raise to":
                what = "Raise the round's bet to"
            return f"{what}: {self.amount or '_'}  ({low} to {high}; type digits, enter)"
        if self.mode is PadMode.DECLARE:
            return "Declare your category or a higher one (R6); below your hand: off"
        if self.mode is PadMode.COMMAND:
            return f": {self.command}_"
        if self.mode is PadMode.LIMIT:
            return (
                f"Refuse this bet, and from now on every bet above: {self.amount or '_'} "
                "chips  (type digits, enter; no amount: no limit)"
            )
        return ""

    # ----------------------------------------------------------------- keys

    def press(self, key: str, character: str | None = None) -> Action | None:
        """Handle one key press.

        Args:
            key: the Textual key name.
            character: the printable character of the key, if any (for ``:`` typing).

        Returns:
            The action the keys made, or None while collecting (or when the key does
            nothing now; :attr:`message` then says why).
        """
        self.message = ""
        if not self.active:
            return None
        handler = {
            PadMode.IDLE: self._idle,
            PadMode.EXCHANGE: self._exchange,
            PadMode.AMOUNT: self._amount,
            PadMode.DECLARE: self._declare,
            PadMode.COMMAND: self._command,
            PadMode.LIMIT: self._limit,
        }[self.mode]
        return handler(key, character)

    def _idle(self, key: str, character: str | None) -> Action | None:
        legal, seat = self.legal, self.seat
        assert legal is not None and seat is not None
        if key in ("colon", "slash") and self.parser is not None:
            self.mode, self.command = PadMode.COMMAND, ""
            return None
        if legal.vote:
            if key in ("y", "n"):
                return Vote(seat, key == "y")
            if key == "a":
                self.mode, self._fresh = PadMode.LIMIT, True
                if self.refuse_above is not None:
                    self.amount = str(self.refuse_above)
                else:
                    self.amount = str(max((self.pending or 1) - 1, 0))
                return None
        elif legal.declare:
            if key == "d":
                self.mode = PadMode.DECLARE
                return None
            if key == "f" and legal.fold:
                return Fold(seat)
        else:
            if key == "e" and legal.exchange:
                self.mode, self.selected = PadMode.EXCHANGE, []
                return None
            if key in ("b", "r"):
                rng = legal.bet if key == "b" else legal.raise_to
                if rng is not None:
                    self.mode, self.amount_kind = PadMode.AMOUNT, key
                    self.amount, self._fresh = str(rng[0]), True
                    return None
            if key == "c":
                if legal.call is not None:
                    return Call(seat)
                if legal.bet is not None and legal.bet[0] == 0:
                    return Bet(seat, 0)  # a check with no bet open is a bet of 0 (R5)
            if key == "f" and legal.fold:
                return Fold(seat)
        keys = ", ".join(f"{c.key} {c.label}" for c in self.choices() if c.enabled)
        self.message = f"{key_name(key, character)} does nothing now: {keys}"
        return None

    def _exchange(self, key: str, character: str | None) -> Action | None:
        legal, seat = self.legal, self.seat
        assert legal is not None and seat is not None
        most = max(legal.exchange)
        if key == "escape":
            self.mode, self.selected = PadMode.IDLE, []
        elif (digit := digit_key(key)) is not None and 1 <= digit <= len(self.hand):
            index = digit - 1
            if index in self.selected:
                self.selected.remove(index)
            elif len(self.selected) < most:
                self.selected.append(index)
            else:
                self.message = f"at most {most} cards: press a chosen card again to put it back"
        elif key == "enter":
            if len(self.selected) not in legal.exchange:
                counts = " or ".join(str(k) for k in legal.exchange)
                self.message = f"choose {counts} cards to exchange"
                return None
            cards = tuple(self.hand[i] for i in sorted(self.selected))
            self.mode, self.selected = PadMode.IDLE, []
            return Exchange(seat, cards)
        else:
            self.message = (
                f"press 1–{len(self.hand)} to choose, enter to confirm, escape to go back"
            )
        return None

    def _amount(self, key: str, character: str | None) -> Action | None:
        seat, rng = self.seat, self._range()
        assert seat is not None and rng is not None
        low, high = rng
        if key == "escape":
            self.mode = PadMode.IDLE
        elif digit_key(key) is not None:
            typed = key if self._fresh else (self.amount + key).lstrip("0") or "0"
            if len(typed) > MAX_DIGITS:
                self.message = f"the amount must be from {low} to {high}"
                return None
            self.amount, self._fresh = typed, False
        elif key in _BACKSPACE:
            self.amount, self._fresh = self.amount[:-1], False
        elif key in ("up", "plus", "right"):
            self.amount, self._fresh = str(min(high, int(self.amount or low - 1) + 1)), False
        elif key in ("down", "minus", "left"):
            self.amount, self._fresh = str(max(low, int(self.amount or low + 1) - 1)), False
        elif key == "enter":
            try:
                amount = read_number(self.amount)
            except InputError:
                amount = -1
            if not low <= amount <= high:
                self.message = f"the amount must be from {low} to {high}"
                return None
            self.mode = PadMode.IDLE
            return Bet(seat, amount) if self.amount_kind == "b" else Raise(seat, amount)
        else:
            self.message = f"type an amount from {low} to {high}, then enter (escape: back)"
        return None

    def _declare(self, key: str, character: str | None) -> Action | None:
        legal, seat = self.legal, self.seat
        assert legal is not None and seat is not None
        allowed = " or ".join(f"{declare_key(c)} {c.label}" for c in legal.declare)
        if key == "escape":
            self.mode = PadMode.IDLE
        elif (digit := digit_key(key)) is not None and 1 <= digit <= len(Category):
            category = Category(digit - 1)
            if category not in legal.declare:
                self.message = (
                    f"{category.label} is below the hand you hold: you may declare {allowed} (R6)"
                )
                return None
            self.mode = PadMode.IDLE
            return Declare(seat, category)
        else:
            self.message = f"press {allowed} to declare, escape to go back"
        return None

    def _limit(self, key: str, character: str | None) -> Action | None:
        seat = self.seat
        assert seat is not None
        if key == "escape":
            self.mode = PadMode.IDLE
        elif digit_key(key) is not None:
            typed = key if self._fresh else (self.amount + key).lstrip("0") or "0"
            if len(typed) <= MAX_DIGITS:
                self.amount, self._fresh = typed, False
        elif key in _BACKSPACE:
            self.amount, self._fresh = self.amount[:-1], False
        elif key in ("up", "plus", "right"):
            self.amount, self._fresh = str(int(self.amount or -1) + 1), False
        elif key in ("down", "minus", "left"):
            self.amount, self._fresh = str(max(0, int(self.amount or 1) - 1)), False
        elif key == "enter":
            self.mode = PadMode.IDLE
            if not self.amount:
                self.refuse_above = None
                self.message = "no limit: you vote on every bet yourself"
                return None
            self.refuse_above = int(self.amount)
            return Vote(seat, False)
        else:
            self.message = "type the most you accept, then enter (escape: back)"
        return None

    def _command(self, key: str, character: str | None) -> Action | None:
        if key == "escape":
            self.mode = PadMode.IDLE
        elif key in _BACKSPACE:
            self.command = self.command[:-1]
        elif key == "ctrl+u":  # clear the line, as in a shell
            self.command = ""
        elif key == "enter":
            assert self.parser is not None
            try:
                action = self.parser(self.command)
            except ValueError as exc:
                self.message = str(exc)  # what was wrong, then one allowed move a line
                return None
            self.mode, self.command = PadMode.IDLE, ""
            return action
        elif character is not None and character.isprintable():
            self.command += character
        return None
