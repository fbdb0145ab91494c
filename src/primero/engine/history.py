"""Hand histories: read and write ``.prh`` records and replay them (docs/record-format.md).

A record is the list of lines a hand is made of. :func:`replay` applies them one by one
to a :class:`~primero.engine.state.HandState` and gives one of three outcomes: a complete hand,
a hand waiting for its next line, or the first invalid line.

>>> rec = HandRecord(players=("Ana", "Ben"), starting_stacks=(5, 5),
...                  actions=["d dh p1 7h 6h", "d dh p2 Ac 2d", "p1 b 1", "p2 f"])
>>> out = replay(rec)
>>> out.complete, out.state.result.final_stacks
(True, (6, 4))
"""

from __future__ import annotations

import datetime
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

import tomli_w

from primero.engine.actions import LineError, parse_action, seat_name
from primero.engine.errors import IllegalActionError, PrimeroError
from primero.engine.legal import LegalActions
from primero.engine.names import check_player_names
from primero.engine.rules import DEFAULT_RULES, Rules, RulesError
from primero.engine.state import DEALER, HandState
from primero.engine.uncalled import uncalled_bet, won_awards
from primero.engine.words import or_list, plural

__all__ = [
    "HandRecord",
    "RecordError",
    "ReplayOutcome",
    "dump_record",
    "load_record",
    "parse_record",
    "read_record",
    "record_of",
    "replay",
    "write_record",
]

_HEADER_KEYS: Final = ("variant", "rules", "players", "starting_stacks", "actions", "seed")


class RecordError(PrimeroError, ValueError):
    """An invalid record: a wrong header (``index`` None) or an invalid line.

    Attributes:
        index: the 0-based index in ``actions`` of the first invalid line, or None when
            the record as a whole is wrong.
        line: that line's text ("" when ``index`` is None or the entry is not a string).
        message: what was wrong and what is allowed.
    """

    def __init__(self, message: str, index: int | None = None, line: str = "") -> None:
        where = "record" if index is None else f"actions[{index}] ({line!r})"
        super().__init__(f"{where}: {message}")
        self.index = index
        self.line = line
        self.message = message

    def to_json(self) -> dict[str, Any]:
        """The error object of docs/record-format.md: ``{"index", "line", "message"}``."""
        return {"index": self.index, "line": self.line, "message": self.message}


@dataclass(slots=True)
class HandRecord:
    """One hand record (docs/record-format.md).

    Attributes:
        players: names in seat order p1…pN (pN deals).
        starting_stacks: chips of each seat before the ante.
        actions: the record lines, in the order they happened (entries that are not
            strings are kept as read, and are an error at their index on replay).
        rules: the house rules in force.
        seed: the seed that produced the deals, if the engine dealt them.
        extra: other top-level keys, kept by a rewrite and ignored by replay.
    """

    players: tuple[str, ...]
    starting_stacks: tuple[int, ...]
    actions: list[Any]
    rules: Rules = DEFAULT_RULES
    seed: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ReplayOutcome:
    """The result of :func:`replay`.

    Attributes:
        state: the hand after the last valid line (None when the header is wrong).
        error: the first fault, or None when every line was valid.

    Exactly one of three cases holds: :attr:`complete` (a finished hand), a pending hand
    (no error, not complete: :attr:`to_act` and :attr:`legal`), or :attr:`error` set.
    """

    state: HandState | None
    error: RecordError | None

    @property
    def complete(self) -> bool:
        """Whether every line was valid and the hand is over."""
        return self.error is None and self.state is not None and self.state.complete

    @property
    def to_act(self) -> str | None:
        """For a pending hand, the seat to act (``"p2"``) or ``"dealer"``; else None."""
        if self.error is not None or self.state is None or self.state.complete:
            return None
        seat = self.state.to_act
        assert seat is not None
        return "dealer" if seat == DEALER else seat_name(seat)

    @property
    def legal(self) -> list[str]:
        """For a pending hand, the kinds of line legal next (docs/record-format.md); else []."""
        if self.to_act is None or self.state is None:
            return []
        return self.state.legal_actions().kinds()

    def to_json(self) -> dict[str, Any]:
        """The JSON object ``primero replay --json`` prints for this outcome (without its
        ``"file"`` key): the three outcomes of docs/record-format.md.

        A complete hand: ``complete`` (true), ``final_stacks`` and ``net`` (chips, seat
        order), ``pots`` as won (R7: ``amount``, ``eligible``, ``winners``, ``shares``;
        the chips of a bet nobody called are not in them, and a pot that held only those
        is not listed), ``uncalled`` (``{"seat": "p2", "chips": 18}``, the bet nobody
        called, returned to its bettor; null when every bet was called), ``shown``,
        ``declarations`` and ``void_deals``. The pots' amounts and ``uncalled``'s chips
        add up to every chip put in during the hand
        (:mod:`primero.engine.uncalled`).

        A pending hand: ``complete`` (false), ``to_act``, ``legal``, ``phase`` and
        ``declarations``. An invalid record: ``error`` (:meth:`RecordError.to_json`).
        """
        if self.error is not None:
            return {"error": self.error.to_json()}
        state = self.state
        assert state is not None
        declarations = {
            seat_name(s): c.name.lower() for s, c in enumerate(state.declared) if c is not None
        }
        if not state.complete:
            return {
                "complete": False,
                "to_act": self.to_act,
                "legal": self.legal,
                "phase": state.phase.value,
                "declarations": declarations,
            }
        result = state.result
        assert result is not None
        back = uncalled_bet(state.contributed, state.folded)
        return {
            "complete": True,
            "final_stacks": list(result.final_stacks),
            "net": list(result.net),
            "pots": [
                {
                    "amount": a.pot.amount,
                    "eligible": [seat_name(s) for s in a.pot.eligible],
                    "winners": [seat_name(s) for s in a.winners],
                    "shares": list(a.shares),
                }
                for a in won_awards(result.awards, back)
            ],
            "uncalled": (
                None if back is None else {"seat": seat_name(back.seat), "chips": back.chips}
            ),
            "shown": {
                seat_name(s): {
                    "cards": [str(c) for c in cards],
                    "category": v.category.name.lower(),
                    "points": v.points,
                }
                for s, (v, cards) in enumerate(zip(result.shown, result.shown_cards, strict=True))
                if v is not None and cards is not None
            },
            "declarations": declarations,
            "void_deals": state.void_deals,
        }


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise RecordError(message)


def load_record(data: Mapping[str, Any]) -> HandRecord:
    """Check a record's header and build a :class:`HandRecord` (lines are checked on replay).

    Args:
        data: the parsed TOML or JSON object.

    Returns:
        The record.

    Raises:
        RecordError: (``index`` None) a missing or wrong ``variant``, ``players`` (a
            name that is not a valid player name, :func:`primero.engine.names.name_problem`, or
            repeated), ``starting_stacks``, ``actions`` or ``seed``, or an invalid
            ``rules`` table.
    """
    _require(isinstance(data, Mapping), "a record is a table (TOML) or an object (JSON)")
    _require(data.get("variant") == "primero", 'variant must be "primero"')
    raw_rules = data.get("rules", {})
    _require(isinstance(raw_rules, Mapping), "rules must be a table")
    try:
        rules = Rules.from_mapping(raw_rules)
    except (RulesError, TypeError) as exc:
        raise RecordError(str(exc)) from None
    players = data.get("players")
    _require(isinstance(players, list), "players must be an array of names")
    assert isinstance(players, list)
    try:
        check_player_names(players)
        rules.check_players(len(players))
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    stacks = data.get("starting_stacks")
    _require(
        isinstance(stacks, list) and all(type(s) is int and s >= 1 for s in stacks),
        "starting_stacks must be an array of whole numbers >= 1",
    )
    assert isinstance(stacks, list)
    _require(
        len(stacks) == len(players),
        f"one starting stack per player: {len(players)} players, {len(stacks)} stacks",
    )
    actions = data.get("actions")
    _require(isinstance(actions, list), "actions must be an array of lines")
    assert isinstance(actions, list)
    seed = data.get("seed")
    _require("seed" not in data or type(seed) is int, "seed must be a whole number")
    extra = {k: v for k, v in data.items() if k not in _HEADER_KEYS}
    return HandRecord(tuple(players), tuple(stacks), list(actions), rules, seed, extra)


def parse_record(text: str, fmt: Literal["toml", "json"] = "toml") -> HandRecord:
    """Parse a record's text.

    Args:
        text: the file's content.
        fmt: ``"toml"`` (``.prh``) or ``"json"``.

    Raises:
        RecordError: (``index`` None) the text is empty or only white space, is not valid
            TOML/JSON, or the header is wrong.
    """
    if not text.strip():
        raise RecordError(
            "it is empty: a record holds at least its variant, players,"
            " starting stacks and actions (docs/record-format.md)"
        )
    try:
        data = tomllib.loads(text) if fmt == "toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"not valid {fmt.upper()}: {exc}") from None
    return load_record(data)


def read_record(path: str | Path) -> HandRecord:
    """Read a ``.prh`` (TOML) or ``.json`` record file; the extension picks the format.

    Raises:
        RecordError: (``index`` None) unreadable file, bad syntax or a wrong header.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:  # the reason only: the file is named by the caller's message
        raise RecordError(f"cannot read {p}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"cannot read {p}: {exc}") from None
    fmt: Literal["toml", "json"] = "json" if p.suffix.lower() == ".json" else "toml"
    try:
        return parse_record(text, fmt)
    except RecordError as exc:
        looks_json = fmt == "toml" and text.lstrip().startswith("{")
        if looks_json and exc.index is None and exc.message.startswith("not valid TOML"):
            raise RecordError(
                f"{exc.message} (this looks like a JSON record: JSON records are read "
                f"from files named .json, e.g. {p.with_suffix('.json').name})"
            ) from None
        raise


def replay(record: HandRecord) -> ReplayOutcome:
    """Replay a record line by line, validating each (docs/record-format.md, "Replaying").

    Args:
        record: the record.

    Returns:
        The outcome: complete, pending, or the first invalid line (never raises for a
        bad line; the state is the hand just before it).
    """
    try:
        state = HandState(record.players, record.starting_stacks, record.rules)
    except RulesError as exc:
        return ReplayOutcome(None, RecordError(str(exc)))
    for index, line in enumerate(record.actions):
        if not isinstance(line, str):
            return ReplayOutcome(
                state, RecordError(f"an action is a string, not {line!r}", index, "")
            )
        try:
            if state.complete:
                raise RecordError("the hand is already over", index, line)
            action = parse_action(line, state.n)
            state.apply(action)
        except IllegalActionError as exc:
            message = f"{exc} (as record lines: {record_forms(state.legal_actions())})"
            return ReplayOutcome(state, RecordError(message, index, line))
        except LineError as exc:
            return ReplayOutcome(state, RecordError(str(exc), index, line))
        except RecordError as exc:
            return ReplayOutcome(state, exc)
    return ReplayOutcome(state, None)


def record_forms(legal: LegalActions) -> str:
    """The record lines (docs/record-format.md) of what the seat to act may do (R4–R8),
    for an error about a record line: the words of
    :func:`~primero.engine.words.allowed_words` are a player's (a first bet over a bet of
    0 is "bet"), these are the file's (``r``, R5). Amounts are chips, ``low..high``
    inclusive. Raises nothing.

    Args:
        legal: what the seat to act may do (:meth:`HandState.legal_actions`).

    Returns:
        The forms joined with "or": ``"p2 r 1..96, p2 c or p2 f"``; ``"none"`` when the
        seat has no move; ``"none: the hand is over"``.

    >>> from primero.engine.legal import LegalActions
    >>> record_forms(LegalActions(1, raise_to=(1, 96), call=0, fold=True))
    'p2 r 1..96, p2 c or p2 f'
    >>> record_forms(LegalActions(DEALER, deal=2))
    'd dh pK with 2 cards'
    """
    if legal.seat is None:
        return "none: the hand is over"
    if legal.seat == DEALER:
        return f"d dh pK with {plural(legal.deal, 'card')}"
    p = seat_name(legal.seat)
    forms: list[str] = []
    if legal.vote:
        forms += [f"{p} y", f"{p} n"]
    forms += [f"{p} dc {c.label}" for c in legal.declare]
    if not legal.declare:
        if 0 in legal.exchange:
            forms.append(f"{p} x")
        counts = [str(k) for k in legal.exchange if k > 0]
        if counts:
            forms.append(f"{p} x with {'/'.join(counts)} of its cards")
        for verb, span in (("b", legal.bet), ("r", legal.raise_to)):
            if span is not None:
                low, high = span
                forms.append(f"{p} {verb} {low}" if low == high else f"{p} {verb} {low}..{high}")
        if legal.call is not None:
            forms.append(f"{p} c")
    if legal.fold:
        forms.append(f"{p} f")
    return or_list(forms) or "none"


def record_of(
    state: HandState, *, seed: int | None = None, extra: Mapping[str, Any] | None = None
) -> HandRecord:
    """The record of a hand played so far (its applied actions in canonical text)."""
    return HandRecord(
        players=state.players,
        starting_stacks=state.starting_stacks,
        actions=state.lines(),
        rules=state.rules,
        seed=seed,
        extra=dict(extra or {}),
    )


def dump_record(record: HandRecord, fmt: Literal["toml", "json"] = "toml") -> str:
    """The text of a record, canonical (docs/record-format.md): only non-default rules, lines
    rewritten canonically (comments dropped), other keys kept.

    Raises:
        RecordError: a line is not valid record grammar (it cannot be made canonical), or
            (TOML) an extra key holds a JSON null, which TOML cannot write. TOML dates and
            times written as JSON become ISO 8601 strings.
        TypeError: (JSON) an extra key holds a value JSON cannot write (not a string,
            number, boolean, null, list, table, date or time).
    """
    lines: list[str] = []
    for index, line in enumerate(record.actions):
        if not isinstance(line, str):
            raise RecordError(f"an action is a string, not {line!r}", index, "")
        try:
            lines.append(parse_action(line, len(record.players)).line())
        except LineError as exc:
            raise RecordError(str(exc), index, line) from None
    data: dict[str, Any] = {"variant": "primero"}
    rules = record.rules.overrides()
    data["players"] = list(record.players)
    data["starting_stacks"] = list(record.starting_stacks)
    data["actions"] = lines
    if record.seed is not None:
        data["seed"] = record.seed
    if fmt == "json":
        if rules:
            data["rules"] = rules
        data.update(record.extra)
        return json.dumps(data, indent=2, ensure_ascii=False, default=_json_default) + "\n"
    if rules:
        data["rules"] = {k: v for k, v in rules.items() if v is not None}
    for key, value in record.extra.items():
        if _holds_null(value):
            raise RecordError(
                f"the extra key {key!r} holds a null, which TOML cannot write: write JSON instead"
            )
    data.update(record.extra)
    return tomli_w.dumps(data, multiline_strings=False, indent=2)


def _json_default(value: object) -> str:
    """TOML dates and times become ISO 8601 strings in JSON."""
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} cannot be written as JSON")


def _holds_null(value: object) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(_holds_null(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_null(v) for v in value)
    return False


def write_record(record: HandRecord, path: str | Path) -> Path:
    """Write a record to ``path`` (``.json`` for JSON, anything else TOML); returns the path.

    Raises:
        RecordError: as :func:`dump_record`.
        OSError: the file cannot be written.
    """
    p = Path(path)
    text = dump_record(record, "json" if p.suffix.lower() == ".json" else "toml")
    p.write_text(text, encoding="utf-8")
    return p
