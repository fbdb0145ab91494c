"""Seats changing hands at a private table, and what each reader is shown of it
(docs/protocol.md "Private tables: listed and approval", "Passing the host role", and
the host's ``DELETE /api/tables/{id}/seats/{k}``): a thin layer the runtime and the
driver call (they import this module; it imports neither).

- :func:`viewer_fields`: what each connection's ``state`` adds (``notice``,
  ``join_requests`` to the host's connections only, ``your_seat``), the words made here;
- :func:`remove_now` and :func:`due_removals`: a removed person's seat becomes a bot's
  or open (at once, or between hands for a removal asked during a hand);
- :func:`seat_newcomer` and :func:`newcomer_applied`: a person takes a seat a removal
  opened during the match;
- :func:`bot_name`: the name of a bot the host seats.

Every change follows the server's write path (docs/protocol.md "Writing comes first"):
checked, stored in the table's own transaction with the version moved on
(``TableOwner.changed_by``), then applied in memory, then sent.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from sqlalchemy.engine import Connection as DbConnection

from primero.bots import BOT_NAMES, make_bot
from primero.engine.match import Agent
from primero.play.tablemodel.presence import SeatPresence
from primero.play.text import name_key
from primero.store import Store
from primero.store.evening import (
    FormerRow,
    PresenceRow,
    drop_removal,
    save_former,
    save_presence,
    set_former_ledger,
)

#: The runtime's types (server.table imports this module: no import back).
TableRuntime = Any
Connection = Any

__all__ = [
    "REFUSED_WORDS",
    "REMOVED_WORDS",
    "asks_to_join",
    "bot_name",
    "due_removals",
    "friendly_bot",
    "is_host_connection",
    "mirror_marks",
    "name_clash",
    "newcomer_applied",
    "remove_now",
    "seat_newcomer",
    "told",
    "viewer_fields",
    "waiting_words",
]

#: What a refused asker's page says.
REFUSED_WORDS = "The host did not let you join this table: you may watch."
#: What a removed person's page says.
REMOVED_WORDS = "The host removed you from this table: you may watch."


def waiting_words(name: str) -> str:
    """What an asker's page says while the host decides.

    >>> waiting_words("Ben")
    'You asked to join as Ben: waiting for the host to let you in.'
    """
    return f"You asked to join as {name}: waiting for the host to let you in."


def asks_to_join(name: str) -> str:
    """A join request as the host's page shows it.

    >>> asks_to_join("Ben")
    'Ben asks to join'
    """
    return f"{name} asks to join"


def is_host_connection(rt: TableRuntime, conn: Connection | None) -> bool:
    """Whether ``conn`` is the host's: opened with the host token, or of the host's
    seat (``host_seat``)."""
    if conn is None:
        return False
    if getattr(conn, "host", False):
        return True
    index = getattr(conn, "index", None)
    return index is not None and index == rt.evening.host_seat


def name_clash(rt: TableRuntime, name: str, request: int | None = None) -> str | None:
    """Why ``name`` may not join the table (docs/protocol.md "Text"): the refusal's words
    when it is, by its name key, a name at the table or of a join request waiting (other
    than ``request``, the one being accepted); None when it is free."""
    key = name_key(name)
    taken = [s.name for s in rt.row.seats if s.name is not None]
    taken += [r.name for r in rt.evening.requests if not r.refused and r.id != request]
    for other in taken:
        if name_key(other) == key:
            return (
                f"the name {name!r} is already at this table"
                + ("" if other == name else f" (it looks like {other!r})")
                + ": choose another"
            )
    return None


def mirror_marks(conn: Connection, row: Any, evening: Any) -> None:
    """A mirror read the table back (several processes): a connection whose join request
    the owner accepted plays its seat now; one whose person the host removed watches."""
    request = getattr(conn, "request", None)
    if request is not None and all(r.id != request for r in evening.requests):
        digest = getattr(conn, "request_hash", None)
        seat = next((s.idx for s in row.seats if digest and s.token_hash == digest), None)
        conn.request, conn.index = None, seat
    index = conn.index
    if (
        index is not None
        and row.seats[index].kind == "person"
        and row.seats[index].token_hash is None
    ):
        conn.index, conn.removed = None, True  # removed during a hand: the token stopped


def viewer_fields(rt: TableRuntime, conn: Connection | None) -> dict[str, Any]:
    """The fields of a ``state`` that depend on its reader (docs/protocol.md): ``notice``
    (a join request's or a removal's words), ``join_requests`` (the requests waiting, to
    the host's connections only; null for every other reader) and ``your_seat``."""
    notice: str | None = None
    request = getattr(conn, "request", None)
    if request is not None:
        row = next((r for r in rt.evening.requests if r.id == request), None)
        if row is not None:
            notice = REFUSED_WORDS if row.refused else waiting_words(row.name)
    elif getattr(conn, "removed", False):
        notice = REMOVED_WORDS
    waiting = None
    if is_host_connection(rt, conn):
        waiting = [
            {"id": r.id, "name": r.name, "text": asks_to_join(r.name)}
            for r in rt.evening.requests
            if not r.refused
        ]
    return {
        "notice": notice,
        "join_requests": waiting,
        "your_seat": getattr(conn, "index", None),
    }


def bot_name(taken: set[str], k: int) -> str:
    """The name of a bot the host seats at seat ``k``: the first of ``BOT_NAMES`` whose
    name key (:func:`primero.play.text.name_key`: case and look-alikes ignored) is none
    of ``taken``'s, so that no bot ``Lorenzo`` sits beside a person ``lorenzo``; when
    every one is taken, ``"Bot N"`` (N the seat's number from 1, made unique the same
    way)."""
    keys = {name_key(n) for n in taken}
    for candidate in BOT_NAMES:
        if name_key(candidate) not in keys:
            return candidate
    number = k + 1
    while name_key(f"Bot {number}") in keys:
        number += 100
    return f"Bot {number}"


def friendly_bot(kind: str) -> Agent:
    """A new bot of ``kind`` with friendly bet sizes, as every bot of a server table."""
    return make_bot(kind, None, friendly=True)


# --------------------------------------------------------------------------- removal


def told(rt: TableRuntime, k: int, name: str) -> None:
    """The removed person's connections watch from now on, and are told."""
    for c in list(rt.conns):
        if c.index == k:
            c.index = None
            c.removed = True
            c.watcher = name


async def remove_now(rt: TableRuntime, k: int, to: str, agent: Agent | None) -> bool:
    """The seat changes hands now (in a command of the table). Returns whether the match starts (a
    waiting table whose last open seat a bot took)."""
    seat = rt.row.seats[k]
    model = rt.model
    ev = rt.evening
    table_id, stack = rt.row.id, rt.row.stack
    pending = k in ev.removals
    name = seat.name
    if model is not None:
        bought, chips = model.match.presence[k].bought_in, model.match.chips[k]
    else:
        kept = next((r for r in ev.seats if r.idx == k), None)
        bought = kept.bought_in if kept and kept.bought_in else stack
        chips = seat.chips
    former: FormerRow | None = None
    if pending:
        token_hash = next(f.token_hash for f in reversed(ev.former) if f.idx == k)
        former = FormerRow(k, name or "", token_hash, bought, chips, removed=True)
    elif seat.token_hash is not None:
        former = FormerRow(k, name or "", seat.token_hash, bought, chips, removed=True)
    new_name = None if to == "open" else bot_name({s.name for s in rt.row.seats if s.name}, k)
    new_kind = to
    if model is not None:
        fresh = SeatPresence(bought_in=stack) if to != "open" else SeatPresence(left=True)
        presence = [fresh if i == k else replace(p) for i, p in enumerate(model.match.presence)]
        rows = [
            PresenceRow(i, p.sitting_out, p.left, p.bought_in, p.stand_in)
            for i, p in enumerate(presence)
        ]
    else:
        rows = [r for r in ev.seats if r.idx != k]
    # an open seat holds the table's stack before the match (as at creation: whoever
    # joins it plays with that); in the match it holds nothing until someone joins
    new_chips = stack if to != "open" or model is None else 0
    start = model is None and to != "open" and rt.row.status == "waiting"
    start = start and all(s.kind != "open" for s in rt.row.seats if s.idx != k)
    status = "playing" if start else rt.row.status

    def write(conn: DbConnection) -> None:
        Store.set_seat(conn, table_id, k, name=new_name, kind=new_kind)
        Store.set_chips(conn, table_id, [(k, new_chips)])
        save_presence(conn, table_id, rows)
        if former is not None:
            if pending:
                set_former_ledger(conn, table_id, former.token_hash, bought, chips)
                drop_removal(conn, table_id, k)
            else:
                save_former(conn, table_id, former)

    new = await rt.owner.changed_by(write, status=status)  # stored first
    if model is not None:  # then applied
        match = model.match
        match.chips[k] = new_chips
        match.presence[k] = presence[k]
        if to != "open":
            if agent is None:
                agent = await asyncio.to_thread(friendly_bot, to)
            match.players = tuple(new_name if i == k else n for i, n in enumerate(match.players))
            model.kinds = tuple(to if i == k else x for i, x in enumerate(model.kinds))
            model.agents = tuple(agent if i == k else a for i, a in enumerate(model.agents))
            match.people.discard(k)
            model.stand_ins.pop(k, None)
    else:
        ev.seats = rows
    seat.name, seat.kind, seat.token_hash, seat.chips = new_name, new_kind, None, new_chips
    rt.row.status = status
    if former is not None:
        if pending:
            ev.former = [former if f.token_hash == former.token_hash else f for f in ev.former]
        else:
            ev.former.append(former)
    ev.removals.pop(k, None)
    told(rt, k, name or "")
    rt.owner.publish(new)  # then sent
    return start


async def due_removals(rt: TableRuntime) -> bool:
    """Between hands (the driver, in a command of the table): make the removals asked
    during the hand that ended. Returns whether any was made."""
    made = False
    for k, to in sorted(rt.evening.removals.items()):
        if rt.model is not None and rt.model.match.in_hand(k):
            continue
        await remove_now(rt, k, to, None)
        made = True
    return made


def seat_newcomer(rt: TableRuntime, k: int, name: str) -> list[PresenceRow] | None:
    """A person takes seat ``k`` opened by a removal during the match: the presence rows
    to store (the seat fresh, with the table's stack), or None when no match is built."""
    model = rt.model
    if model is None:
        return None
    stack = rt.row.stack
    rows = []
    for i, p in enumerate(model.match.presence):
        if i == k:
            rows.append(PresenceRow(i, False, False, stack, None))
        else:
            rows.append(PresenceRow(i, p.sitting_out, p.left, p.bought_in, p.stand_in))
    return rows


def newcomer_applied(rt: TableRuntime, k: int, name: str) -> None:
    """Apply :func:`seat_newcomer` after it was stored: the model's seat ``k`` is
    ``name``'s, a person's, with the table's stack, dealt in from the next hand."""
    model = rt.model
    if model is None:
        return
    match = model.match
    stack = rt.row.stack
    match.players = tuple(name if i == k else n for i, n in enumerate(match.players))
    model.kinds = tuple(None if i == k else x for i, x in enumerate(model.kinds))
    model.agents = tuple(None if i == k else a for i, a in enumerate(model.agents))
    match.people.add(k)
    match.chips[k] = stack
    match.presence[k] = SeatPresence(bought_in=stack)
