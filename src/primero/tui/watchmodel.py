"""A recorded hand, step by step, as one seat saw it (docs/record-format.md, R9b).

:class:`WatchModel` replays a record once and keeps the hand after every line, so a
screen can step forward and back; each step is shown only through
:func:`primero.engine.views.view` for the chosen seat.

>>> from primero.engine.history import HandRecord
>>> rec = HandRecord(players=("Ana", "Ben"), starting_stacks=(5, 5),
...                  actions=["d dh p1 7h 6h", "d dh p2 Ac 2d", "p1 b 1", "p2 f"])
>>> m = WatchModel(rec)
>>> m.steps, m.seat, len(m.view(2).hand), m.view(2).log[1]
(4, 0, 2, 'd dh p2 ?? ??')
"""

from __future__ import annotations

import re
from pathlib import Path

from primero.engine.actions import parse_action, seat_name
from primero.engine.history import HandRecord, read_record, replay
from primero.engine.state import HandState
from primero.engine.views import SeatView, view
from primero.play.recordpos import action_lines_of_file, where

__all__ = ["WatchModel", "default_seat", "parse_seat"]

_SEAT = re.compile(r"p([1-9][0-9]*)\Z")


def parse_seat(text: str | int, players: tuple[str, ...]) -> int:
    """A 0-based seat from ``"p3"``, a player's name, or a 0-based number.

    Raises:
        ValueError: no such seat in this hand (the message lists the seats).
    """
    n = len(players)
    if isinstance(text, int):
        seat = text
    else:
        m = _SEAT.match(text.strip().lower())
        if m is not None:
            seat = int(m.group(1)) - 1
        elif text in players:
            seat = players.index(text)
        else:
            seat = -1
    if not 0 <= seat < n:
        seats = ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(players))
        raise ValueError(f"no seat {text!r} in this hand: {seats}")
    return seat


def default_seat(record: HandRecord) -> int:
    """The seat to watch by default: the one the record's ``human`` key names (``"p3"``
    or a player's name); else, when its ``bots`` table names every player but one (as
    :class:`primero.play.table.Table` writes it), that one; else p1 (0)."""
    human = record.extra.get("human")
    if isinstance(human, str | int) and not isinstance(human, bool):
        try:
            return parse_seat(human, record.players)
        except ValueError:
            pass
    bots = record.extra.get("bots")
    if isinstance(bots, dict):
        people = [s for s, name in enumerate(record.players) if name not in bots]
        if len(people) == 1:
            return people[0]
    return 0


class WatchModel:
    """A replayed record with the hand kept after every line.

    Args:
        record: the hand record. A record that stops mid-hand is fine: the last step is
            where it stops. So is one with an invalid action: the steps go up to the
            last valid one, and :attr:`error` says what is wrong with the next.
        seat: the seat to watch (see :func:`parse_seat`); default :func:`default_seat`.
        file_lines: the line of the file of each action
            (:func:`primero.play.recordpos.action_lines`), when the record comes from a file.

    Raises:
        RecordError: the record's header is invalid (there is no hand to show).
        ValueError: ``seat`` is not a seat of the hand.

    Attributes:
        record: the record.
        seat: the 0-based seat watched.
        states: the hand before any line (index 0) and after each valid line (index k).
        error: the first invalid action (as replay reports it), or None.
        file_lines: as given, or None.
    """

    def __init__(
        self,
        record: HandRecord,
        seat: str | int | None = None,
        *,
        file_lines: list[int] | None = None,
    ) -> None:
        outcome = replay(record)
        if outcome.error is not None and outcome.error.index is None:
            raise outcome.error
        self.record = record
        self.error = outcome.error
        self.file_lines = file_lines
        self.seat = default_seat(record) if seat is None else parse_seat(seat, record.players)
        state = HandState(record.players, record.starting_stacks, record.rules)
        self.states: list[HandState] = [state.copy()]
        valid = len(record.actions) if self.error is None else self.error.index
        assert valid is not None
        for line in record.actions[:valid]:
            state.apply(parse_action(str(line), state.n))
            self.states.append(state.copy())

    @classmethod
    def from_file(cls, path: str | Path, seat: str | int | None = None) -> WatchModel:
        """Read a ``.prh`` (or ``.json``) record and replay it, up to its first invalid
        action if it has one (:attr:`error`).

        Raises:
            RecordError: unreadable file or bad header.
            ValueError: ``seat`` is not a seat of the hand.
        """
        return cls(read_record(path), seat, file_lines=action_lines_of_file(path))

    def file_line(self, step: int) -> int | None:
        """The line of the file of the action that led to ``step`` (None for step 0 or
        when not known)."""
        return None if step == 0 else where(step - 1, self.file_lines)

    @property
    def steps(self) -> int:
        """The number of lines (the last step index)."""
        return len(self.states) - 1

    @property
    def complete(self) -> bool:
        """Whether the record is a finished hand (valid to its end)."""
        return self.error is None and self.states[-1].complete

    def view(self, step: int, seat: int | None = None) -> SeatView:
        """The hand after ``step`` lines as ``seat`` (default the watched seat) saw it.

        Raises:
            IndexError: ``step`` outside ``0..steps``.
        """
        if not 0 <= step <= self.steps:
            raise IndexError(f"step {step} outside 0..{self.steps}")
        return view(self.states[step], self.seat if seat is None else seat)

    def line(self, step: int) -> str:
        """The record line that led to ``step`` ("" for step 0)."""
        return "" if step == 0 else str(self.record.actions[step - 1])
