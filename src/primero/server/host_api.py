"""The host's controls (online.md "Tables"): ``PATCH /api/tables/{id}``, ``pause``,
``resume``, ``end``, ``rematch`` and ``seats/{k}/bot``, each with ``Authorization: Bearer
<host_token>`` (``401`` without it, ``403`` with another token).

The host token is returned once by ``POST /api/tables`` and kept only as a hash
(``table_hosts``, migration ``v0004_evening``).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from sqlalchemy import update
from sqlalchemy.engine import Connection as DbConnection

from primero.bots import BOT_KINDS, make_bot
from primero.play.table import BOT_NAMES
from primero.server import seating
from primero.server.models import TableSummary
from primero.server.runtime import BadRequest, Conflict, Hub, TableRuntime
from primero.server.security import check_name, match_token
from primero.store import SeatRow, TableRow
from primero.store.evening import EveningRow, save_host
from primero.store.schema import seats as seats_table
from primero.store.schema import tables as tables_table

__all__ = ["router"]

router = APIRouter(prefix="/api/tables", tags=["host"])

_HOST: dict[int | str, dict[str, Any]] = {
    401: {"description": "no `Authorization: Bearer <host_token>` header"},
    403: {"description": "a token that is not this table's host token"},
    404: {"description": "no such table"},
    409: {"description": "not possible at this table now (the detail says why)"},
}


class TablePatch(BaseModel):
    """``PATCH``: the timer (seconds, 0 = none, at most 86400) and the table's name."""

    model_config = ConfigDict(extra="ignore", strict=True)
    turn_seconds: StrictInt | None = Field(None, description="0 to 86400 seconds")
    name: StrictStr | None = Field(None, description="1 to 40 characters")


class BotSeat(BaseModel):
    """A bot for a seat: its kind (``GET /api/bots``)."""

    model_config = ConfigDict(extra="ignore", strict=True)
    kind: StrictStr


def _hosted(request: Request, table_id: str) -> TableRuntime:
    hub: Hub = request.app.state.hub
    rt = hub.get(table_id)
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(401, "the host's requests carry Authorization: Bearer <host token>")
    host_hash = rt.evening.host_hash
    if host_hash is None or match_token(token.strip(), [(0, host_hash)]) is None:
        raise HTTPException(403, "that is not this table's host token")
    rt.last_activity = time.time()
    return rt


def _not_over(rt: TableRuntime) -> None:
    if rt.row.status in ("over", "broken"):
        raise Conflict("the match is over: start a rematch for another one")


@router.patch("/{table_id}", response_model=TableSummary, responses=_HOST,
              summary="Change the timer or the name (host)")
async def patch_table(table_id: str, body: TablePatch, request: Request) -> dict[str, Any]:
    """The new timer takes effect from the next hand."""
    rt = _hosted(request, table_id)
    if body.turn_seconds is not None and not 0 <= body.turn_seconds <= 86_400:
        raise BadRequest(f"turn_seconds must be 0 to 86400, not {body.turn_seconds}")
    if body.name is not None:
        problem = check_name(body.name, "a table name", 40)
        if problem is not None:
            raise BadRequest(problem)
    async with rt.lock:
        row = rt.row
        if body.turn_seconds is not None:  # the driver gives it to the next hand
            row.turn_seconds = body.turn_seconds
        if body.name is not None:
            row.name = body.name
        values = {"turn_seconds": row.turn_seconds, "name": row.name}

        def write(conn: DbConnection) -> None:
            conn.execute(
                update(tables_table)
                .where(tables_table.c.id == row.id)
                .values(**values, version=row.version)
            )

        await rt.changed_by(write)
    return rt.summary()


@router.post("/{table_id}/pause", status_code=204, responses=_HOST, summary="Pause (host)")
async def pause(table_id: str, request: Request) -> Response:
    """No hand starts until ``resume``; asked during a hand, after it (``pending``)."""
    return await _flag(request, table_id, paused=True)


@router.post("/{table_id}/resume", status_code=204, responses=_HOST, summary="Resume (host)")
async def resume(table_id: str, request: Request) -> Response:
    """Lift the host's pause (not the players')."""
    return await _flag(request, table_id, paused=False)


async def _flag(request: Request, table_id: str, *, paused: bool) -> Response:
    rt = _hosted(request, table_id)
    async with rt.lock:
        _not_over(rt)
        if rt.evening.paused != paused:
            rt.evening.paused = paused
            await rt.changed_by(seating.flags_write(rt))
    rt.wake.set()
    return Response(status_code=204)


@router.post("/{table_id}/end", status_code=204, responses=_HOST, summary="End (host)")
async def end(table_id: str, request: Request) -> Response:
    """End the match: at once, or when the hand in progress ends (``pending: "end"``)."""
    rt = _hosted(request, table_id)
    async with rt.lock:
        _not_over(rt)
        if not rt.evening.ended:
            await rt.end_idle()
    rt.wake.set()
    return Response(status_code=204)


@router.post("/{table_id}/seats/{k}/bot", status_code=204, responses=_HOST,
             summary="Seat a bot (host)")
async def seat_bot(table_id: str, k: int, body: BotSeat, request: Request) -> Response:
    """The seat is played by that bot from the next hand on (at once for an open seat)."""
    rt = _hosted(request, table_id)
    if body.kind not in BOT_KINDS:
        raise BadRequest(f"unknown bot kind {body.kind!r}: one of {', '.join(BOT_KINDS)}")
    start = False
    async with rt.lock:
        _not_over(rt)
        seats = rt.row.seats
        if not 0 <= k < len(seats):
            raise BadRequest(f"seat must be 0 to {len(seats) - 1}, not {k}")
        seat = seats[k]
        model = rt.model
        taken = {s.name for s in seats if s.name}
        name = next(n for n in BOT_NAMES if n not in taken)
        if seat.kind == "open":
            seat.name, seat.kind, seat.token_hash = name, body.kind, None
            start = all(s.kind != "open" for s in seats)
            if start:
                rt.row.status = "playing"
        else:
            if model is None or seat.kind != "person":
                raise Conflict("that seat is not a person's")
            p = model.match.presence[k]
            if not (p.left or p.sitting_out) or model.match.in_hand(k):
                raise Conflict("that person is playing: a bot may take a seat that was left "
                               "or sat out, between hands")
            seat.name, seat.kind, seat.token_hash = name, body.kind, None
            _make_bot(rt, k, name, body.kind)
        row = rt.row
        values = {"name": seat.name, "kind": seat.kind, "token_hash": None}

        def write(conn: DbConnection) -> None:
            conn.execute(
                update(seats_table)
                .where(seats_table.c.table_id == row.id, seats_table.c.idx == k)
                .values(**values)
            )
            conn.execute(
                update(tables_table).where(tables_table.c.id == row.id).values(
                    status=row.status, version=row.version
                )
            )

        for c in list(rt.conns):
            if c.index == k:
                c.index = None  # the person's token only watches now
        await rt.changed_by(write)
    if start:
        rt.start()
    rt.wake.set()
    return Response(status_code=204)


def _make_bot(rt: TableRuntime, k: int, name: str, kind: str) -> None:
    model = rt.model
    assert model is not None
    match = model.match
    match.players = tuple(name if i == k else n for i, n in enumerate(match.players))
    model.kinds = tuple(kind if i == k else x for i, x in enumerate(model.kinds))
    model.agents = tuple(
        make_bot(kind, None) if i == k else a for i, a in enumerate(model.agents)
    )
    match.people.discard(k)
    p = match.presence[k]
    p.left = p.sitting_out = p.away = False


@router.post("/{table_id}/rematch", status_code=status.HTTP_201_CREATED,
             response_model=TableSummary, responses=_HOST, summary="Rematch (host)")
async def rematch(table_id: str, request: Request) -> dict[str, Any]:
    """A new table with the same set-up and host token; people who had not left keep
    their seats and tokens; bots stay bots; other seats are open."""
    rt = _hosted(request, table_id)
    hub: Hub = request.app.state.hub
    async with rt.lock:
        if rt.row.status != "over" or rt.evening.next_table is not None:
            raise Conflict("a rematch is for a finished match, once")
        old = rt.row
        model = rt.model
        new_id = secrets.token_hex(4)
        while new_id in hub.tables:
            new_id = secrets.token_hex(4)
        seats: list[SeatRow] = []
        for s in old.seats:
            left = model is not None and model.match.presence[s.idx].left
            if s.kind == "person" and not left:
                seats.append(SeatRow(s.idx, s.name, "person", s.token_hash, old.stack))
            elif s.kind in ("person", "open"):
                seats.append(SeatRow(s.idx, None, "open", None, old.stack))
            else:
                seats.append(SeatRow(s.idx, s.name, s.kind, None, old.stack))
        playing = all(s.kind != "open" for s in seats)
        row = TableRow(
            id=new_id, name=old.name, stack=old.stack, rules=dict(old.rules),
            turn_seconds=old.turn_seconds, max_hands=old.max_hands,
            status="playing" if playing else "waiting", version=1, hands_played=0,
            dealer_index=len(seats) - 1, created=int(time.time()), seats=seats,
        )
        host_hash, rebuy = rt.evening.host_hash, rt.evening.rebuy

        def write(conn: DbConnection) -> None:
            hub.store.create_table(conn, row)
            save_host(conn, new_id, host_hash, rebuy)

        await hub.write(write, urgent=True)
        new = TableRuntime(row, hub)
        new.evening = EveningRow(host_hash=host_hash, rebuy=rebuy)
        new.refresh_summary()
        hub.tables[new_id] = new
        rt.evening.next_table = new_id
        await rt.changed_by(seating.flags_write(rt))
    if playing:
        new.start()
    return new.summary()
