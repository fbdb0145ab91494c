"""People coming and going at a table, on the server (docs/protocol.md "Presence",
"rebuy", "Absence"): a thin adapter over :mod:`primero.play.tablemodel.presence`.

- the WebSocket messages ``sit_out``, ``sit_in``, ``leave`` and ``rebuy`` (:data:`HANDLERS`);
- what the summary says of each seat (``sitting_out``, ``left``, ``connected``,
  ``stand_in``, ``ledger``)
  and of the table (``pending``, ``paused_by``, ``rebuy``, ``next_table``);
- why no hand starts (:func:`hold_reason`: the host's pause, or fewer than two seats that
  can be dealt in);
- the sweep (:func:`sweep`, every few seconds): a person with no connection for
  ``--away-seconds`` is away (sat out when the hand ends); a table nobody is connected to
  for an hour and with no host action is ended; a ``waiting`` table nobody joined for an
  hour is closed.

Every change follows the server's write path (docs/protocol.md "Writing comes first"): it is
computed on a draft of the match (:func:`draft`: its own presence, chips and end; the
match itself is not touched), stored in a transaction of the table's own with the
version moved on (``TableOwner.changed_by``), and only then the draft's values are
taken in (:func:`take`) and sent; a write that fails changes nothing anyone sees (the
sender gets ``error`` with ``"retry": true``).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict
from sqlalchemy.engine import Connection as DbConnection

from primero.engine.errors import PrimeroError
from primero.play.settle import chip_rate, settle_seats
from primero.server.actor import Command
from primero.server.writer import VersionMoved, WriteFailed
from primero.store import Store
from primero.store.evening import (
    Between,
    PresenceRow,
    former_ledger,
    removed_rows,
    save_presence,
    set_between,
    set_flags,
)

if TYPE_CHECKING:
    from primero.play.tablemodel import TableModel
    from primero.play.tablemodel.presence import SeatPresence, TableMatch
    from primero.store.evening import EveningRow

#: The runtime's types (server.table imports this module: no import back, not even
#: for types, so that no module imports itself through others).
TableRuntime = Any
Hub = Any
Connection = Any

__all__ = [
    "HANDLERS",
    "IDLE_SECONDS",
    "hold_reason",
    "restore",
    "summary_extras",
    "sweep",
    "watch",
]

log = logging.getLogger("primero.server")

#: A table with no person connected and no host action for this long is ended (seconds).
IDLE_SECONDS = 3600.0
#: How often :func:`watch` sweeps the tables (seconds).
SWEEP_EVERY = 5.0


class _Msg(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


class SitOutIn(_Msg):
    """``{"type": "sit_out"}``: not dealt in from the next hand on."""

    type: Literal["sit_out"]


class SitInIn(_Msg):
    """``{"type": "sit_in"}``: dealt in again from the next hand on."""

    type: Literal["sit_in"]


class LeaveIn(_Msg):
    """``{"type": "leave"}``: give the seat up."""

    type: Literal["leave"]


class RebuyIn(_Msg):
    """``{"type": "rebuy"}``: back to the table's stack (a rebuy table only)."""

    type: Literal["rebuy"]


class NoRebuyIn(_Msg):
    """``{"type": "no_rebuy"}``: not now; the next deal waits no longer for this seat."""

    type: Literal["no_rebuy"]


def _error(message: str) -> dict[str, Any]:
    return {"type": "error", "id": None, "message": message}


# --------------------------------------------------------------------------- summary


def summary_extras(rt: TableRuntime) -> dict[str, Any]:
    """The game-night fields of the summary (docs/protocol.md "The table summary")."""
    model = rt.model
    ev = rt.evening
    connected = {c.index for c in rt.conns if c.index is not None}
    seats: list[dict[str, Any]] = []
    for s in rt.row.seats:
        chips = model.match.chips[s.idx] if model is not None else s.chips
        if model is not None:
            p = model.match.presence[s.idx]
            sitting_out, left, bought = p.sitting_out, p.left, p.bought_in
            stand_in = p.stand_in
        else:
            kept = next((r for r in ev.seats if r.idx == s.idx), None)
            sitting_out = kept.sitting_out if kept else False
            left = kept.left if kept else False
            bought = kept.bought_in if kept and kept.bought_in else rt.row.stack
            stand_in = kept.stand_in if kept else None
        seats.append(
            {
                "sitting_out": sitting_out,
                "left": left,
                "connected": s.kind == "person" and s.idx in connected,
                "stand_in": stand_in if s.kind == "person" else None,
                "ledger": {"bought_in": bought, "net": chips - bought}
                if s.kind != "open"
                else {"bought_in": 0, "net": 0},
            }
        )
    pending = None
    paused_by = None
    if rt.row.status == "playing" and model is not None and model.hand is not None:
        if ev.ended:
            pending = "end"
        elif ev.paused:
            pending = "pause"
    if rt.row.status == "paused":
        paused_by = "host" if ev.paused else "players"
    removed = removed_rows(ev)
    former = former_ledger(ev.former)
    settle = settle_seats(
        [
            (s.name, s.kind, extra["ledger"]["net"])
            for s, extra in zip(rt.row.seats, seats, strict=True)
        ]
        + [(f["name"], "person", f["ledger"]["net"]) for f in former]
        + [(r["name"], "person", r["net"]) for r in removed],
        chip_rate(ev.chip_value, ev.currency),
    )
    return {
        "listed": ev.listed,
        "approval": ev.approval,
        "host_seat": ev.host_seat,
        "removed": removed,
        "seat_extras": seats,
        "settle": settle,
        "pending": pending,
        "paused_by": paused_by,
        "rebuy": ev.rebuy,
        "next_table": ev.next_table,
        "spectator_chat": ev.spectator_chat,
        "hand_pause_seconds": hand_pause(rt),
        "rebuy_seconds": rebuy_seconds(rt),
        "next_hand_at": next_hand_at(rt),
        "rebuy_wait": sorted(still_waited(rt)),
        "chip_value": ev.chip_value,
        "currency": ev.currency,
        "former": former,
    }


# --------------------------------------------------------------------------- between hands


def hand_pause(rt: TableRuntime) -> int:
    """Seconds a finished hand's result stays (docs/protocol.md "Between hands"): the
    table's ``hand_pause_seconds``, else the server's ``--hand-pause``."""
    kept = rt.evening.hand_pause
    return int(rt.hub.settings.hand_pause) if kept is None else int(kept)


def rebuy_seconds(rt: TableRuntime) -> int:
    """Seconds the rebuy window lasts: the table's ``rebuy_seconds``, else the server's
    ``--rebuy-seconds``."""
    kept = rt.evening.rebuy_seconds
    return int(rt.hub.settings.rebuy_seconds) if kept is None else int(kept)


def person_seated(rt: TableRuntime, match: TableMatch | None = None) -> bool:
    """A person holds a seat and has not left (a table of bots alone skips the pause);
    ``match``: the presence read (None: the runtime's match, if any)."""
    if match is None and rt.model is not None:
        match = rt.model.match
    return any(
        s.kind == "person" and not (match is not None and match.presence[s.idx].left)
        for s in rt.row.seats
    )


def between_after(
    rt: TableRuntime, match: TableMatch, broke_before: set[int], status: str, now: float
) -> Between:
    """The waits after a hand that ``match`` (the draft about to be stored, ``status``
    its table's status then) has just finished: the result stays ``hand_pause`` seconds
    where a person is seated, and at a rebuy table each person the hand left broke
    (seated, not left, no chips, and not broke before it: ``broke_before``) is waited
    for up to ``rebuy_seconds`` (docs/protocol.md "Between hands"). Pure: stored with
    the hand's end, then taken in (:func:`open_between`).

    Args:
        now: unix seconds (the server's clock); the deadlines are absolute, so that a
            restart waits what is left of them.
    """
    if match.over or status == "over":  # no next hand: nothing to wait for
        return Between()
    pause = hand_pause(rt) if person_seated(rt, match) else 0
    wait: frozenset[int] = frozenset()
    seconds = rebuy_seconds(rt)
    if rt.evening.rebuy and seconds > 0:
        wait = frozenset(
            s.idx
            for s in rt.row.seats
            if s.kind == "person"
            and s.idx not in broke_before
            and match.chips[s.idx] == 0
            and not match.presence[s.idx].left
        )
    return Between(now + pause if pause > 0 else None, now + seconds if wait else None, wait)


def open_between(rt: TableRuntime, broke_before: set[int], now: float) -> None:
    """:func:`between_after` of the runtime's own match, taken in (not stored: the
    driver stores it with the hand's end, :func:`between_write`)."""
    model = rt.model
    assert model is not None
    rt.evening.between = between_after(rt, model.match, broke_before, rt.row.status, now)


def between_write(table_id: str, between: Between) -> Callable[[DbConnection], None]:
    """The write that keeps ``between`` (``Between()``: no wait) for ``table_id``."""
    return lambda conn: set_between(conn, table_id, between)


def still_waited(rt: TableRuntime) -> set[int]:
    """The seats the rebuy window still waits for: broke, seated, not left, not yet
    chosen (a rebuy gives chips; ``no_rebuy`` and ``leave`` take the seat off)."""
    model = rt.model
    between = rt.evening.between
    if model is None or between.rebuy_until is None:
        return set()
    match = model.match
    return {
        i
        for i in between.rebuy_wait
        if 0 <= i < len(rt.row.seats)
        and match.chips[i] == 0
        and not match.presence[i].left
        and not match.presence[i].leaving
        and not match.presence[i].rebuy_due
        and rt.row.seats[i].kind == "person"
    }


def next_hand_at(rt: TableRuntime) -> float | None:
    """When the next hand is dealt at the latest (unix seconds), while a finished hand's
    result stays or the rebuy window waits for someone; else None. Read from the kept
    waits: after a restart the driver waits what is left of them."""
    between = rt.evening.between
    ends = []
    if between.pause_until is not None:
        ends.append(between.pause_until)
    if between.rebuy_until is not None and still_waited(rt):
        ends.append(between.rebuy_until)
    return max(ends) if ends else None


def close_between(rt: TableRuntime) -> None:
    """The next hand starts (or the waits are dropped): nothing to wait for (in memory;
    the start of the next hand stores it, :func:`between_write`)."""
    rt.evening.between = Between()


def merge_summary(summary: dict[str, Any], extras: dict[str, Any]) -> dict[str, Any]:
    """The summary with the game-night fields merged into its seats."""
    seats = extras.pop("seat_extras")
    for seat, extra in zip(summary["seats"], seats, strict=True):
        seat.update(extra)
    summary.update(extras)
    return summary


def hold_reason(rt: TableRuntime) -> str | None:
    """Why no hand may start now: ``"host"`` (paused by the host), ``"players"`` (fewer
    than two seats can be dealt in), or None."""
    model = rt.model
    if rt.evening.paused:
        return "host"
    if model is not None and not model.match.can_deal():
        return "players"
    return None


def held(rt: TableRuntime) -> str | None:
    """:func:`hold_reason`, the waits taken into account (docs/protocol.md "Between
    hands"): the host's pause drops the waits; too few players keeps the rebuy window, so
    that the first rebuy that makes two seats dealable does not deal at once past the
    others the window still waits for (in memory; stored as they were with the hand's
    end)."""
    reason = hold_reason(rt)
    if reason == "host":
        close_between(rt)
    return reason


# --------------------------------------------------------------------------- storing


def presence_rows(model: TableModel) -> list[PresenceRow]:
    """Every seat's presence and ledger, to store."""
    return [
        PresenceRow(i, p.sitting_out, p.left, p.bought_in, p.stand_in)
        for i, p in enumerate(model.match.presence)
    ]


def presence_write(
    rt: TableRuntime, match: TableMatch | None = None
) -> Callable[[DbConnection], None]:
    """A store write keeping the presence, the ledger and the chips of every seat of
    ``match`` (None: the table's own), values captured now."""
    if match is None:
        assert rt.model is not None
        match = rt.model.match
    rows = [
        PresenceRow(i, p.sitting_out, p.left, p.bought_in, p.stand_in)
        for i, p in enumerate(match.presence)
    ]
    chips = list(match.chips)
    table_id = rt.row.id
    in_hand = set(match.seats) if match.hand is not None else set()
    kept = [(i, c) for i, c in enumerate(chips) if i not in in_hand]

    def write(conn: DbConnection) -> None:
        save_presence(conn, table_id, rows)
        # a rebuy made at once (a seat in the hand keeps its chips at the hand's start)
        Store.set_chips(conn, table_id, kept)

    return write


def flags_write(
    table_id: str, *, paused: bool, ended: bool, next_table: str | None
) -> Callable[[DbConnection], None]:
    """A store write keeping the host's pause or end and the rematch (values captured)."""
    return lambda conn: set_flags(conn, table_id, paused=paused, ended=ended, next_table=next_table)


Snapshot = tuple[list["SeatPresence"], list[int], bool]


def snapshot(match: TableMatch) -> Snapshot:
    """What a presence change may touch: every seat's presence, the chips, the end."""
    return [replace(p) for p in match.presence], list(match.chips), match.ended


def draft(match: TableMatch) -> TableMatch:
    """A draft of ``match`` for a presence change: its own presence, chips and end, the
    rest (the hand, the seats) shared and only read. The match is not touched."""
    out = copy.copy(match)
    out.presence = [replace(p) for p in match.presence]
    out.chips = list(match.chips)
    return out


def take(match: TableMatch, drafted: TableMatch) -> None:
    """Take in a stored draft's presence, chips and end (see :func:`draft`)."""
    match.presence[:] = drafted.presence
    match.chips[:] = drafted.chips
    match.ended = drafted.ended


def restore(model: TableModel, evening: EveningRow) -> None:
    """Put the stored presence and ledger back on a rebuilt model (after a restart)."""
    for row in evening.seats:
        if 0 <= row.idx < len(model.match.presence):
            p = model.match.presence[row.idx]
            p.sitting_out, p.left, p.stand_in = row.sitting_out, row.left, row.stand_in
            if row.bought_in or any(f.idx == row.idx for f in evening.former):
                p.bought_in = row.bought_in  # a bot that took a broke person's seat: 0
    if evening.ended:
        model.match.end()


# --------------------------------------------------------------------------- messages


def _change(match: TableMatch, what: str, index: int) -> Callable[[], object]:
    if what == "sit_out":
        return lambda: match.sit_out(index)
    if what == "sit_in":
        return lambda: match.sit_in(index)
    if what == "leave":
        return lambda: match.leave(index)
    return lambda: match.ask_rebuy(index)


#: Tries of a person's presence change against a table whose stored version moved on
#: under it (each after reading the table back): the change is applied to the state as
#: it is, whatever state the person saw (docs/protocol.md "Presence").
PRESENCE_TRIES = 3


async def _request(rt: TableRuntime, conn: Connection, what: str) -> None:
    """A person's ``sit_out``, ``sit_in``, ``leave`` or ``rebuy``: checked against the
    table as it is now, stored, then applied and sent.

    These do not depend on the state the person saw: a change refused by the store
    because the table's version moved on under this runtime (a write it has not applied)
    is tried again, up to :data:`PRESENCE_TRIES` times, after the table is read back
    (``TableOwner.reread``), so that one tap takes effect. Moves (``action``) keep
    their version check. A write the database could not take gets ``error`` with
    ``"retry": true`` and the unchanged state."""
    index = conn.index
    if index is None:
        conn.send(_error("spectators have no seat: join the table for one"))
        conn.send(rt.state(None, conn))
        return
    for attempt in range(1, PRESENCE_TRIES + 1):
        async with rt.commands.command(Command.PRESENCE):
            try:
                if not await _request_once(rt, conn, what, index):
                    return
                break
            except VersionMoved:
                log.info(
                    "table %s: a %s met a version that moved on (try %d of %d)",
                    rt.row.id,
                    what,
                    attempt,
                    PRESENCE_TRIES,
                )
                if attempt == PRESENCE_TRIES or not await rt.owner.reread():
                    rt.refuse_to_retry(conn, None)
                    return
            except WriteFailed:
                rt.refuse_to_retry(conn, None)
                return
    rt.wake.set()


async def _request_once(rt: TableRuntime, conn: Connection, what: str, index: int) -> bool:
    """One try of a presence change (in a command of the table): False when it was refused (the
    person told why, nothing changed), True once stored, applied and sent.

    Raises:
        VersionMoved: the stored version moved on (nothing was kept).
        WriteFailed: the database did not take it (nothing was kept).
    """
    model = rt.model
    if rt.row.seats[index].kind != "person":  # read back: a bot plays it now
        conn.send(_error("this seat is no longer yours: you are watching"))
        conn.send(rt.state(None, conn))
        return False
    if what == "leave" and model is None and rt.row.status == "waiting":
        await _leave_waiting(rt, index)
        return True
    first = rt.row.hands_played == 0 and rt.row.current is None  # no hand dealt yet
    if model is None and first and rt.status in ("waiting", "playing") and what != "rebuy":
        return await _before_first_hand(rt, conn, what, index)
    if model is None or rt.status in ("waiting", "over", "broken"):
        conn.send(_error("the match is not in play: there is nothing to change"))
        conn.send(rt.state(index, conn))
        return False
    drafted = draft(model.match)  # computed aside: the match is not touched until stored
    try:
        _change(drafted, what, index)()
    except PrimeroError as exc:  # refused: nothing changed
        conn.send(_error(str(exc)))
        conn.send(rt.state(index, conn))
        return False
    if snapshot(drafted) == snapshot(model.match):
        # already so (a repeated tap): the state as it is, same version (docs/protocol.md
        # "Versions, stale moves and resync")
        conn.send(rt.state(index, conn))
        return False
    new = await rt.owner.changed_by(presence_write(rt, drafted), restart=False)  # stored first
    take(model.match, drafted)  # then taken in
    rt.owner.publish(new)  # then sent
    return True


async def _before_first_hand(rt: TableRuntime, conn: Connection, what: str, index: int) -> bool:
    """``sit_out``, ``sit_in`` or ``leave`` of a seat taken before the match's first hand
    (the table waiting for players, or its match not built yet): kept with the table's
    stored presence, which the match is built with (:func:`restore`), so that it applies
    to the first hand (docs/protocol.md "Presence"). Stored, then applied and sent.

    Raises:
        VersionMoved, WriteFailed: as :func:`_request_once` (nothing was kept).
    """
    rows = {r.idx: r for r in rt.evening.seats}
    old = rows.get(index, PresenceRow(index, False, False, 0))
    if what == "sit_out":
        new_row = replace(old, sitting_out=True)
    elif what == "sit_in":
        new_row = replace(old, sitting_out=False)
    else:  # leave, at a table whose seats are all taken: out of the match with its chips
        new_row = replace(old, left=True, sitting_out=False)
    if new_row == old and index in rows:  # already so: the state as it is, same version
        conn.send(rt.state(index, conn))
        return False
    rows[index] = new_row
    kept = [rows[i] for i in sorted(rows)]
    table_id = rt.row.id
    new = await rt.owner.changed_by(lambda c: save_presence(c, table_id, kept), restart=False)
    rt.evening.seats = kept
    if rt.model is not None:  # built meanwhile: it takes the change too
        restore(rt.model, rt.evening)
    rt.owner.publish(new)
    return True


async def _leave_waiting(rt: TableRuntime, index: int) -> None:
    """At a ``waiting`` table a seat given up is open again (stored, then applied).

    Raises:
        WriteFailed: the database did not take it (nothing changed).
    """
    table_id = rt.row.id

    def write(conn: DbConnection) -> None:
        Store.set_seat(conn, table_id, index, name=None, kind="open")

    kept = [r for r in rt.evening.seats if r.idx != index]  # the next person starts afresh

    def write_all(conn: DbConnection) -> None:
        write(conn)
        save_presence(conn, table_id, kept)

    new = await rt.owner.changed_by(write_all, restart=False)
    rt.evening.seats = kept
    seat = rt.row.seats[index]
    seat.name, seat.kind, seat.token_hash = None, "open", None
    for c in list(rt.conns):
        if c.index == index:
            c.index = None  # the token no longer names a seat here
    rt.owner.publish(new)


async def _no_rebuy(rt: TableRuntime, client: Connection, _msg: BaseModel) -> None:
    """A person's ``no_rebuy`` (docs/protocol.md "Between hands"): the rebuy window waits
    no longer for their seat. Stored with the window (a restart does not wait for the
    seat again), then taken in; no new version: every connection gets the state again
    (``rebuy_wait`` without the seat). A write the database did not take changes
    nothing: the person gets ``error`` with ``"retry": true``."""
    index = client.index
    async with rt.commands.command(Command.PRESENCE):
        if index is None or index not in still_waited(rt):
            client.send(
                _error("the next hand is not waiting for you to rebuy: there is nothing to decline")
            )
            client.send(rt.state(index))
            return
        between = rt.evening.between
        chosen = replace(between, rebuy_wait=between.rebuy_wait - {index})
        try:
            await rt.hub.writer.write(between_write(rt.row.id, chosen), urgent=True)
        except Exception as exc:
            log.warning("table %s: a no_rebuy was not stored: %s", rt.row.id, exc)
            rt.refuse_to_retry(client, None)
            return
        rt.evening.between = chosen
        rt.refresh_summary()
        states: dict[int | None, dict[str, Any]] = {}
        for c in list(rt.conns):
            if c.index not in states:
                states[c.index] = rt.state(c.index)
            c.send(states[c.index])
        if client not in rt.conns:  # forwarded from another process
            client.send(rt.state(index))
    rt.wake.set()


def _handler(what: str) -> Callable[[Any, Any, BaseModel], Awaitable[None]]:
    async def handle(rt: Any, client: Any, _msg: BaseModel) -> None:
        await _request(rt, client, what)

    return handle


#: The WebSocket message types of this module: model and handler (see ``ws.HANDLERS``).
HANDLERS: dict[str, tuple[type[BaseModel], Callable[[Any, Any, BaseModel], Awaitable[None]]]] = {
    "sit_out": (SitOutIn, _handler("sit_out")),
    "sit_in": (SitInIn, _handler("sit_in")),
    "leave": (LeaveIn, _handler("leave")),
    "rebuy": (RebuyIn, _handler("rebuy")),
    "no_rebuy": (NoRebuyIn, _no_rebuy),
}


# --------------------------------------------------------------------------- absence


def connected(rt: TableRuntime, index: int | None, exclude: object = None) -> None:
    """A connection of seat ``index`` opened or closed: the seat is seen now (and is no
    longer away: it may ``sit_in``); the summary's ``connected`` is brought up to date
    (no new version: docs/protocol.md). When the seat's ``connected`` changed (its first
    connection opened, or its last closed), every other connection at the table gets the
    state at once (the same version), so that a reconnection is seen without waiting for
    the next change; ``exclude``, the connection just opened, gets its own state."""
    now = rt.hub.clock.now()
    rt.last_activity = now
    if index is not None:
        rt.last_seen[index] = now
        if rt.model is not None and any(c.index == index for c in rt.conns):
            rt.model.match.presence[index].away = False
    before = _connected_flags(rt.summary())
    rt.refresh_summary()
    if index is None or _connected_flags(rt.summary()) == before:
        return
    for c in list(rt.conns):
        if c is not exclude:
            c.send(rt.state(c.index, c))


def _connected_flags(summary: dict[str, Any] | None) -> list[bool]:
    if not summary:
        return []
    return [bool(seat.get("connected")) for seat in summary.get("seats", [])]


async def sweep(hub: Hub, now: float) -> None:
    """One look at every table (docs/protocol.md "Presence", "Status"): people away for
    ``--away-seconds`` are marked away; idle tables are ended or closed."""
    away_after = hub.settings.away_seconds
    for rt in list(hub.tables.values()):
        try:
            await _sweep_table(rt, now, away_after)
        except Exception:  # one table's failure never touches another
            log.exception("table %s: the absence sweep failed", rt.row.id)


async def _sweep_table(rt: TableRuntime, now: float, away_after: float) -> None:
    if not rt.owned:  # another process drives it (it hears which seats are connected here)
        return
    status = rt.row.status
    if status in ("over", "broken"):
        return
    connected = {c.index for c in rt.conns if c.index is not None}
    if rt.conns:  # anyone connected, a spectator too, keeps the table alive
        rt.last_activity = now
    for i in connected:
        rt.last_seen[i] = now
    if now - rt.last_activity >= IDLE_SECONDS:
        if rt.evicted:  # its hand in progress is read back first: it ends after that hand
            await rt.hub.touch(rt.row.id)
        async with rt.commands.command(Command.PRESENCE):
            await rt.owner.end_match()
        return
    model = rt.model
    if model is None:
        return
    marked = False
    async with rt.commands.command(Command.PRESENCE):
        for s in rt.row.seats:
            if s.kind != "person":
                continue
            p = model.match.presence[s.idx]
            seen = rt.last_seen.setdefault(s.idx, now)
            away = s.idx not in connected and now - seen >= away_after
            if away != p.away and not p.left:
                p.away = away
                marked = True
    if marked:
        rt.wake.set()


async def watch(hub: Hub, every: float = SWEEP_EVERY) -> None:
    """Sweep every ``every`` seconds until cancelled."""
    while True:
        await asyncio.sleep(every)
        with contextlib.suppress(Exception):
            await sweep(hub, hub.clock.now())
