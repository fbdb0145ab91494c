"""The actions of a hand and their record lines (docs/record-format.md, "Action lines").

The lines' text is :mod:`primero.engine.lines`' (which the random-playout kernel writes
with too); reading a line is here (:func:`parse_action`, :func:`parse_hidden`).

Every change to a hand is one of these frozen values. Seats are 0-based here
(``seat=0`` is p1, the first to act); the record text writes them ``p1``…``pN``.

>>> parse_action("p3 x 7h Kc", 4)
Exchange(seat=2, cards=(Card('7h'), Card('Kc')))
>>> Bet(0, 5).line()
'p1 b 5'
>>> parse_action("d dh p2 7h Kc", 4).line()
'd dh p2 7h Kc'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from primero.engine.cards import Card, CardError, parse_cards
from primero.engine.frozen import by_fields
from primero.engine.hands import Category
from primero.engine.lines import (
    bet_line,
    call_line,
    deal_line,
    declare_line,
    exchange_line,
    fold_line,
    seat_name,
    vote_line,
)

__all__ = [
    "HIDDEN",
    "Action",
    "Bet",
    "Call",
    "Deal",
    "Declare",
    "Exchange",
    "Fold",
    "LineError",
    "Raise",
    "Vote",
    "parse_action",
    "parse_hidden",
    "seat_name",
]


#: How a hidden card is written in a public line (R9b).
HIDDEN = "??"


class LineError(ValueError):
    """A record line that does not follow the grammar of docs/record-format.md."""


def _names(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


@dataclass(frozen=True, slots=True, init=False)
class Deal:
    """The dealer deals ``cards`` face down to ``seat`` (R4.2, R4.4, exchanges, R8b)."""

    seat: int
    cards: tuple[Card, ...]

    def __init__(self, seat: int, cards: tuple[Card, ...]) -> None:
        """Set each field, as the generated ``__init__`` would (a compiled one is
        10 times as fast: ``setup.py``)."""
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (:func:`~primero.engine.frozen.by_fields`)."""
        return by_fields(self)

    def line(self) -> str:
        """The record line, e.g. ``"d dh p3 7h Kc"``."""
        return deal_line(self.seat, _names(self.cards))

    def hidden_line(self) -> str:
        """The record line as another seat sees it (R9b), e.g. ``"d dh p3 ?? ??"``."""
        return deal_line(self.seat, [HIDDEN] * len(self.cards))


@dataclass(frozen=True, slots=True, init=False)
class Exchange:
    """``seat`` discards ``cards`` (0, 1 or 2; none = stand pat) to draw as many (R4.3, R4.6)."""

    seat: int
    cards: tuple[Card, ...]

    def __init__(self, seat: int, cards: tuple[Card, ...]) -> None:
        """Set each field, as the generated ``__init__`` would (a compiled one is
        10 times as fast: ``setup.py``)."""
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (:func:`~primero.engine.frozen.by_fields`)."""
        return by_fields(self)

    def line(self) -> str:
        """The record line, e.g. ``"p3 x 7h Kc"`` or ``"p3 x"``."""
        return exchange_line(self.seat, _names(self.cards))

    def hidden_line(self) -> str:
        """The record line as another seat sees it (R9b), e.g. ``"p3 x ?? ??"``."""
        return exchange_line(self.seat, [HIDDEN] * len(self.cards))


@dataclass(frozen=True, slots=True, init=False)
class Bet:
    """``seat`` makes the first bet of the round: ``amount`` chips (R5)."""

    seat: int
    amount: int

    def __init__(self, seat: int, amount: int) -> None:
        """Set each field, as the generated ``__init__`` would (a compiled one is
        10 times as fast: ``setup.py``)."""
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "amount", amount)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (:func:`~primero.engine.frozen.by_fields`)."""
        return by_fields(self)

    def line(self) -> str:
        """The record line, e.g. ``"p3 b 5"``."""
        return bet_line(self.seat, self.amount, False)


@dataclass(frozen=True, slots=True, init=False)
class Raise:
    """``seat`` raises the round's bet to ``amount`` chips in total for this round (R5)."""

    seat: int
    amount: int

    def __init__(self, seat: int, amount: int) -> None:
        """Set each field, as the generated ``__init__`` would (a compiled one is
        10 times as fast: ``setup.py``)."""
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "amount", amount)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (:func:`~primero.engine.frozen.by_fields`)."""
        return by_fields(self)

    def line(self) -> str:
        """The record line, e.g. ``"p3 r 12"``."""
        return bet_line(self.seat, self.amount, True)


@dataclass(frozen=True, slots=True, init=False)
class Call:
    """``seat`` calls the open bet (a check when it is 0; all-in for less when short) (R5)."""

    seat: int

    def __init__(self, seat: int) -> None:
        """Set each field, as the generated ``__init__`` would (a compiled one is
        10 times as fast: ``setup.py``)."""
        object.__setattr__(self, "seat", seat)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (:func:`~primero.engine.frozen.by_fields`)."""
        return by_fields(self)

    def line(self) -> str:
        """The record line, e.g. ``"p3 c"``."""
        return call_line(self.seat)


@dataclass(frozen=True, slots=True, init=False)
class Fold:
    """``seat`` folds (R5)."""

    seat: int

    def __init__(self, seat: int) -> None:
        """Set each field, as the generated ``__init__`` would (a compiled one is
        10 times as fast: ``setup.py``)."""
        object.__setattr__(self, "seat", seat)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (:func:`~primero.engine.frozen.by_fields`)."""
        return by_fields(self)

    def line(self) -> str:
        """The record line, e.g. ``"p3 f"``."""
        return fold_line(self.seat)


@dataclass(frozen=True, slots=True, init=False)
class Vote:
    """``seat`` accepts (``accept=True``) or refuses the pending bet (R8)."""

    seat: int
    accept: bool

    def __init__(self, seat: int, accept: bool) -> None:
        """Set each field, as the generated ``__init__`` would (a compiled one is
        10 times as fast: ``setup.py``)."""
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "accept", accept)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (:func:`~primero.engine.frozen.by_fields`)."""
        return by_fields(self)

    def line(self) -> str:
        """The record line: ``"p3 y"`` or ``"p3 n"``."""
        return vote_line(self.seat, self.accept)


@dataclass(frozen=True, slots=True, init=False)
class Declare:
    """``seat`` declares ``category`` (R6)."""

    seat: int
    category: Category

    def __init__(self, seat: int, category: Category) -> None:
        """Set each field, as the generated ``__init__`` would (a compiled one is
        10 times as fast: ``setup.py``)."""
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "category", category)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (:func:`~primero.engine.frozen.by_fields`)."""
        return by_fields(self)

    def line(self) -> str:
        """The record line, e.g. ``"p3 dc fluxus"``."""
        return declare_line(self.seat, self.category.label)


#: Any action of a hand.
Action = Deal | Exchange | Bet | Raise | Call | Fold | Vote | Declare

_SEAT: Final = re.compile(r"p([1-9][0-9]*)\Z")
_NUMBER: Final = re.compile(r"(0|[1-9][0-9]*)\Z")
_CATEGORIES: Final = {c.name.lower(): c for c in Category}


def _parse_seat(word: str, players: int) -> int:
    m = _SEAT.match(word)
    if m is None:
        raise LineError(f"expected a seat p1..p{players}, got {word!r}")
    seat = int(m.group(1)) - 1
    if seat >= players:
        raise LineError(f"no seat {word}: this hand has seats p1..p{players}")
    return seat


def _parse_amount(word: str) -> int:
    if _NUMBER.match(word) is None:
        raise LineError(
            f"expected a whole number of chips (no sign, no leading zeros), got {word!r}"
        )
    return int(word)


def _parse_card_words(words: list[str]) -> tuple[Card, ...]:
    try:
        return parse_cards(words)
    except CardError as exc:
        raise LineError(str(exc)) from None


def parse_action(line: str, players: int) -> Action:
    """Parse one record line (docs/record-format.md) into an action.

    Everything from the first ``#`` is a comment; the rest, stripped, must be words
    separated by single spaces.

    Args:
        line: the line, e.g. ``"p2 r 12"``.
        players: the number of seats in the hand (seats are p1..p``players``).

    Returns:
        The action, with a 0-based seat.

    Raises:
        LineError: the line is empty, has a double space, names an unknown seat, verb,
            card or category, a malformed amount, a repeated card, or the wrong number of
            words for its verb; the message says what was expected.
    """
    text = line.split("#", 1)[0].strip()
    if not text:
        raise LineError("empty line: expected an action such as 'p1 b 2' or 'd dh p1 7h Kc'")
    words = text.split(" ")
    if "" in words:
        raise LineError("words must be separated by single spaces")
    if words[0] == "d":
        if len(words) < 3 or words[1] != "dh":
            raise LineError("a deal line is 'd dh <seat> <cards>', e.g. 'd dh p3 7h Kc'")
        seat = _parse_seat(words[2], players)
        cards = _parse_card_words(words[3:])
        if not cards:
            raise LineError("a deal line names at least one card")
        return Deal(seat, cards)
    seat = _parse_seat(words[0], players)
    if len(words) < 2:
        raise LineError(f"{words[0]} needs a verb: x, b, r, c, f, y, n or dc")
    verb, args = words[1], words[2:]
    if verb == "x":
        cards = _parse_card_words(args)
        if len(cards) > 2:
            raise LineError(f"an exchange discards 0, 1 or 2 cards, not {len(cards)}")
        return Exchange(seat, cards)
    if verb in ("b", "r"):
        if len(args) != 1:
            raise LineError(f"'{verb}' takes one amount, e.g. '{words[0]} {verb} 5'")
        amount = _parse_amount(args[0])
        return Bet(seat, amount) if verb == "b" else Raise(seat, amount)
    if verb in ("c", "f", "y", "n"):
        if args:
            raise LineError(f"'{verb}' takes no arguments")
        if verb == "c":
            return Call(seat)
        if verb == "f":
            return Fold(seat)
        return Vote(seat, verb == "y")
    if verb == "dc":
        if len(args) != 1 or args[0] not in _CATEGORIES:
            raise LineError("'dc' takes one category: chorus, fluxus, supremus, primero or numerus")
        return Declare(seat, _CATEGORIES[args[0]])
    raise LineError(f"unknown verb {verb!r}: one of x, b, r, c, f, y, n, dc (or 'd dh')")


def parse_hidden(line: str, players: int) -> tuple[str, int, int] | None:
    """Read a record line whose cards are hidden (``??``, R9b), as a seat's public log
    writes a deal or an exchange of another seat.

    Args:
        line: a record line, e.g. ``"d dh p3 ?? ??"`` or ``"p2 x ??"``.
        players: the number of seats in the hand.

    Returns:
        ``("deal" or "exchange", 0-based seat, number of cards)``, or None when the line
        hides no card (read it with :func:`parse_action`).

    Raises:
        LineError: a hidden card anywhere but in a deal's or an exchange's cards, or a
            seat that is not p1..p``players``.

    >>> parse_hidden("d dh p3 ?? ??", 4), parse_hidden("p1 b 2", 4)
    (('deal', 2, 2), None)
    """
    words = line.split()
    if HIDDEN not in words:
        return None
    if words[0] == "d" and len(words) > 3 and all(w == HIDDEN for w in words[3:]):
        return "deal", _parse_seat(words[2], players), len(words) - 3
    if len(words) > 2 and words[1] == "x" and all(w == HIDDEN for w in words[2:]):
        return "exchange", _parse_seat(words[0], players), len(words) - 2
    raise LineError(f"{line!r}: only a deal's or an exchange's cards may be hidden (??)")
