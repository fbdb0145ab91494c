"""The host's requests of a private table (docs/protocol.md "Private tables: listed and
approval", "Passing the host role", ``DELETE /api/tables/{id}/seats/{k}``), each with
``Authorization: Bearer <host_token>`` as every host request (``server/host_api.py``):

- ``POST /api/tables/{id}/requests/{r}/accept`` and ``…/refuse``: a join request at an
  ``approval`` table (made by :func:`ask`, from ``POST /api/tables/{id}/seats``);
- ``DELETE /api/tables/{id}/seats/{k}[?bot=KIND]``: remove a person;
- ``POST /api/tables/{id}/host`` ``{"seat": k}``: pass the host role.

Each runs where the table is driven (``Hub.call``, the operations of ``server/ops.py``)
and follows the server's write path: checked, stored in the table's own transaction
with the version moved on (``TableOwner.changed_by``), then applied, then sent.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict
from sqlalchemy.engine import Connection as DbConnection

from primero.bots import BOT_KINDS
from primero.engine.match import Agent
from primero.server import seating
from primero.server.actor import Command
from primero.server.host_api import HOST_RESPONSES, hosted, on_owner
from primero.server.models import SeatIndex
from primero.server.refusals import BadRequest, Conflict, NotFound, checked_joiner
from primero.server.runtime import TableRuntime
from primero.server.seatchange import friendly_bot, name_clash, remove_now, told
from primero.server.security import new_token
from primero.store import Store
from primero.store.evening import (
    FormerRow,
    RequestRow,
    add_request,
    refuse_request,
    save_former,
    save_removal,
    set_host,
)

__all__ = ["accept", "ask", "pass_host", "refuse", "remove", "router"]

router = APIRouter(prefix="/api/tables", tags=["host"])


class HostPass(BaseModel):
    """``POST /api/tables/{id}/host``: the seat of the person who hosts from now on."""

    model_config = ConfigDict(extra="ignore", strict=True)
    seat: SeatIndex


def _seat_index(rt: TableRuntime, k: int) -> None:
    seats = rt.row.seats
    if not 0 <= k < len(seats):
        raise NotFound(f"there is no seat {k} at this table: its seats are 0 to {len(seats) - 1}")


@router.post(
    "/{table_id}/requests/{request_id}/accept",
    status_code=204,
    responses=HOST_RESPONSES,
    summary="Accept a join request (host)",
)
async def accept_request(table_id: str, request_id: int, request: Request) -> Response:
    """The asker takes the seat asked (else the first open one) with their token."""
    rt = await hosted(request, table_id)
    await on_owner(rt, "host_accept", {"id": request_id})
    return Response(status_code=204)


@router.post(
    "/{table_id}/requests/{request_id}/refuse",
    status_code=204,
    responses=HOST_RESPONSES,
    summary="Refuse a join request (host)",
)
async def refuse_join(table_id: str, request_id: int, request: Request) -> Response:
    """The asker is told they were not let in; nothing else changes."""
    rt = await hosted(request, table_id)
    await on_owner(rt, "host_refuse", {"id": request_id})
    return Response(status_code=204)


@router.delete(
    "/{table_id}/seats/{k}",
    status_code=204,
    responses=HOST_RESPONSES,
    summary="Remove a person (host)",
)
async def remove_person(
    table_id: str,
    k: int,
    request: Request,
    bot: Annotated[
        str | None, Query(description="the bot kind that takes the seat; absent: it is open")
    ] = None,
) -> Response:
    """From the next hand (at once if the seat is in no hand in play) the seat is a bot
    of ``bot`` or open; the person's token stops acting for it at once; their ledger row
    stays (the summary's ``removed``)."""
    rt = await hosted(request, table_id)
    _seat_index(rt, k)
    if bot is not None and bot not in BOT_KINDS:
        raise BadRequest(f"unknown bot kind {bot!r}: one of {', '.join(BOT_KINDS)}")
    await on_owner(rt, "host_remove", {"k": k, "kind": bot})
    return Response(status_code=204)


@router.post(
    "/{table_id}/host",
    status_code=204,
    responses=HOST_RESPONSES,
    summary="Pass the host role to a seated person (host)",
)
async def pass_host_role(table_id: str, body: HostPass, request: Request) -> Response:
    """A new host token goes to that person's own connections only; the old one stops
    working."""
    rt = await hosted(request, table_id)
    _seat_index(rt, body.seat)
    await on_owner(rt, "host_pass", {"seat": body.seat})
    return Response(status_code=204)


def _waiting(rt: TableRuntime, request_id: int) -> RequestRow:
    for r in rt.evening.requests:
        if r.id == request_id and not r.refused:
            return r
    raise NotFound(f"there is no join request {request_id} waiting at this table")


# --------------------------------------------------------------------------- requests


async def ask(
    rt: TableRuntime, name: str, seat: int | None, digest: str, client_seed: str | None
) -> dict[str, Any]:
    """A join at an ``approval`` table: checked as a join, then the request stored (the
    token's hash, never the token), then kept and sent to the host's connections.

    Returns:
        ``{"request": id, "v": version}``.

    Raises:
        BadRequest: a bad name, one at the table or of another waiting request, a bad
            seed, a seat the table does not have.
        Conflict: the seat asked is taken, or no seat is open.
        WriteFailed: the database did not take it (nothing changed).
    """
    name, seed = checked_joiner(name, client_seed)
    async with rt.commands.command(Command.SEAT):
        if rt.broken is not None:
            raise Conflict(f"this table is broken: {rt.broken}")
        seats = rt.row.seats
        clash = name_clash(rt, name)
        if clash is not None:
            raise BadRequest(clash)
        if seat is not None and not 0 <= seat < len(seats):
            raise BadRequest(f"seat must be 0 to {len(seats) - 1} at this table, not {seat}")
        if not any(s.kind == "open" for s in seats):
            raise Conflict("no seat is open at this table")
        if seat is not None and seats[seat].kind != "open":
            raise Conflict(f"seat {seat} is taken: choose an open seat")
        row = RequestRow(0, name, seat, digest, seed)
        made: list[int] = []
        table_id = rt.row.id

        def write(conn: DbConnection) -> None:
            made.append(add_request(conn, table_id, row))

        new = await rt.owner.changed_by(write)  # stored first
        rt.evening.requests.append(replace(row, id=made[0]))  # then kept
        rt.owner.publish(new)  # then sent: the requests go to the host's connections only
    return {"request": made[0], "v": rt.row.version}


async def accept(rt: TableRuntime, args: dict[str, Any]) -> dict[str, Any]:
    """The host accepts join request ``args["id"]``: the asker takes the seat asked (else
    the first open one) with their token, as a join (``TableOwner.take_seat``).

    Raises:
        NotFound: no such request waiting.
        BadRequest, Conflict, WriteFailed: as a join.
    """
    row = _waiting(rt, int(args["id"]))
    seat, _token = await rt.owner.take_seat(
        row.name, row.seat, row.token_hash, row.client_seed, request=row.id
    )
    return {"seat": seat, "v": rt.row.version}


async def refuse(rt: TableRuntime, args: dict[str, Any]) -> dict[str, Any]:
    """The host refuses join request ``args["id"]``: kept as refused (the asker is told),
    nothing else changes.

    Raises:
        NotFound: no such request waiting.
        WriteFailed: the database did not take it.
    """
    async with rt.commands.command(Command.HOST):
        row = _waiting(rt, int(args["id"]))
        new = await rt.owner.changed_by(lambda conn: refuse_request(conn, row.id))
        ev = rt.evening
        ev.requests = [replace(r, refused=True) if r.id == row.id else r for r in ev.requests]
        rt.owner.publish(new)
    return {"v": rt.row.version}


# --------------------------------------------------------------------------- host


async def pass_host(rt: TableRuntime, args: dict[str, Any]) -> dict[str, Any]:
    """Pass the host role to the person of seat ``args["seat"]`` (docs/protocol.md
    "Passing the host role"): a new host token, its hash stored with the seat in place of
    the old one, then sent (``host_token``) to that seat's connections here only.

    Raises:
        BadRequest: not a person's seat, or the host's own.
        Conflict: the person has left, or has no connection open here.
        WriteFailed: the database did not take it (nothing changed).
    """
    k = int(args["seat"])
    async with rt.commands.command(Command.HOST):
        seat = rt.row.seats[k]
        ev = rt.evening
        if seat.kind != "person":
            raise BadRequest(f"seat {k} is not a person's: the host role goes to a person")
        if ev.host_seat == k:
            raise BadRequest(f"{seat.name} already hosts this table")
        model = rt.model
        if model is not None and (
            model.match.presence[k].left or model.match.presence[k].leaving or k in ev.removals
        ):
            raise Conflict(f"{seat.name} has left this table: choose someone still playing")
        targets = [c for c in rt.conns if c.index == k]
        if not targets:
            raise Conflict(
                f"{seat.name} has no connection open to this table: they must have the "
                "table's page open to take the host role"
            )
        token, digest = new_token()  # made here, never stored nor logged: only its hash
        table_id = rt.row.id
        new = await rt.owner.changed_by(lambda conn: set_host(conn, table_id, digest, k))
        ev.host_hash, ev.host_seat = digest, k
        for c in rt.conns:
            c.host = False  # type: ignore[attr-defined]  # the old token: a plain spectator
        rt.owner.publish(new)
        for c in targets:
            c.send({"type": "host_token", "token": token})
    return {"v": rt.row.version}


# --------------------------------------------------------------------------- removal


async def remove(rt: TableRuntime, args: dict[str, Any]) -> dict[str, Any]:
    """The host removes the person of seat ``args["k"]``; the seat becomes a bot of
    ``args["kind"]`` or, None, open. Their token stops acting for the seat at once; the
    seat changes hands at once when it is in no hand in play, else when that hand ends
    (its moves the timer's meanwhile, as after a ``leave``).

    Raises:
        BadRequest: an open seat, a bot's seat, the host's own seat.
        Conflict: the match is over, or the removal is already asked.
        WriteFailed: the database did not take it (nothing changed).
    """
    k, kind = int(args["k"]), args.get("kind")
    to = "open" if kind is None else str(kind)
    agent: Agent | None = None
    if to != "open" and rt.model is not None:  # built off the event loop
        agent = await asyncio.to_thread(friendly_bot, to)
    start = False
    async with rt.commands.command(Command.HOST):
        if rt.row.status in ("over", "broken"):
            raise Conflict("the match is over: there is nobody to remove")
        seat = rt.row.seats[k]
        ev = rt.evening
        if seat.kind == "open":
            raise BadRequest(f"seat {k} is open: there is nobody to remove")
        if seat.kind != "person":
            raise BadRequest(f"seat {k} is {seat.name}, a bot: only a person can be removed")
        if ev.host_seat == k:
            raise BadRequest("that is your own seat: pass the host role to someone else first")
        if k in ev.removals or seat.token_hash is None:
            raise Conflict(
                f"{seat.name} is already being removed: the seat changes hands when this hand ends"
            )
        model = rt.model
        if model is not None and model.match.in_hand(k):
            await _remove_later(rt, k, to)
        else:
            start = await remove_now(rt, k, to, agent)
    if start:
        rt.start()
    rt.wake.set()
    return {"v": rt.row.version}


async def _remove_later(rt: TableRuntime, k: int, to: str) -> None:
    """A person in the hand in play: they leave when it ends (the timer's moves
    meanwhile), their token stops now, the seat's change is kept for then."""
    model = rt.model
    assert model is not None
    seat = rt.row.seats[k]
    name, token_hash = seat.name or "", seat.token_hash or ""
    p = model.match.presence[k]
    drafted = seating.draft(model.match)
    if not (p.left or p.leaving):
        drafted.leave(k)
    former = FormerRow(k, name, token_hash, p.bought_in, model.match.chips[k], removed=True)
    presence = seating.presence_write(rt, drafted)
    table_id = rt.row.id

    def write(conn: DbConnection) -> None:
        presence(conn)
        Store.set_seat(conn, table_id, k, name=name, kind="person")  # the token forgotten
        save_former(conn, table_id, former)
        save_removal(conn, table_id, k, to)

    new = await rt.owner.changed_by(write)  # stored first
    seating.take(model.match, drafted)  # then applied
    seat.token_hash = None
    rt.evening.former.append(former)
    rt.evening.removals[k] = to
    told(rt, k, name)
    rt.owner.publish(new)  # then sent
