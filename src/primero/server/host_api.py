"""The host's controls (docs/protocol.md "REST: the lobby"): ``PATCH /api/tables/{id}``, ``pause``,
``resume``, ``end``, ``rematch`` and ``seats/{k}/bot``, each with ``Authorization: Bearer
<host_token>`` (``401`` without it, ``403`` with another token).

The host token is returned once by ``POST /api/tables`` and kept only as a hash
(``table_hosts``, migration ``v0004_evening``).

Every change follows the server's write path: checked, stored in the table's own
transaction with the version moved on (``TableOwner.changed_by``), then applied in
memory and sent; a write the database does not take changes nothing (``503`` with
``Retry-After``).
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import replace
from typing import Any, cast

from fastapi import APIRouter, HTTPException, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from sqlalchemy.engine import Connection as DbConnection

from primero.bots import BOT_KINDS
from primero.engine.errors import PrimeroError
from primero.engine.match import Agent
from primero.play.settle import RateError, parse_chip_value, parse_currency
from primero.play.tablemodel.presence import TableMatch
from primero.play.text import TABLE_NAME_LONGEST, TextError, check_name
from primero.server import seating
from primero.server.actor import Command
from primero.server.hub import Hub, between_seconds, turn_seconds_words
from primero.server.models import CHIP_VALUE_PATTERN, CURRENCY_PATTERN, TableSummary
from primero.server.refusals import BadRequest, Conflict
from primero.server.runtime import TableRuntime
from primero.server.seatchange import bot_name, friendly_bot
from primero.server.security import bearer_token, match_token
from primero.store import SeatRow, Store, TableRow
from primero.store.evening import (
    EveningRow,
    FormerRow,
    PresenceRow,
    save_former,
    save_host,
    save_presence,
    set_access,
    set_host_seat,
    set_settings,
    set_spectator_chat,
)

__all__ = ["HOST_RESPONSES", "bot_name", "hosted", "on_owner", "router"]

router = APIRouter(prefix="/api/tables", tags=["host"])

HOST_RESPONSES: dict[int | str, dict[str, Any]] = {
    401: {"description": "no `Authorization: Bearer <host_token>` header"},
    403: {"description": "a token that is not this table's host token"},
    404: {"description": "no such table"},
    409: {"description": "not possible at this table now (the detail says why)"},
}


class TablePatch(BaseModel):
    """``PATCH``: the timer (seconds, 0 = none, at most 86400), the table's name, whether
    spectators may chat, whether the lobby lists the table and whether joins wait for the
    host (docs/protocol.md "Private tables"), the pause after a hand and the rebuy window
    (0 to 3600 seconds), and the money a chip is worth (docs/protocol.md "Between hands",
    "Settling up")."""

    model_config = ConfigDict(extra="ignore", strict=True)
    turn_seconds: StrictInt | None = Field(None, description="0 to 86400 seconds")
    name: StrictStr | None = Field(None, description="1 to 40 characters")
    spectator_chat: StrictBool | None = Field(
        None, description="open (true) or close (false) the chat to spectators"
    )
    listed: StrictBool | None = Field(
        None, description="list the table in the lobby (true) or take it out (false)"
    )
    approval: StrictBool | None = Field(
        None, description="joins wait for the host's yes (true) or seat at once (false)"
    )
    hand_pause_seconds: StrictInt | None = Field(
        None, description="seconds a finished hand's result stays, 0 to 3600"
    )
    rebuy_seconds: StrictInt | None = Field(
        None, description="seconds the rebuy window waits for a broke person, 0 to 3600"
    )
    chip_value: StrictStr | None = Field(
        None,
        max_length=12,
        pattern=CHIP_VALUE_PATTERN,
        description='the money one chip is worth ("0.10"); "": none',
    )
    currency: StrictStr | None = Field(
        None,
        max_length=8,
        pattern=CURRENCY_PATTERN,
        description='the money\'s name, 1 to 8 letters ("EUR"); "": none',
    )


class BotSeat(BaseModel):
    """A bot for a seat: its kind (``GET /api/bots``)."""

    model_config = ConfigDict(extra="ignore", strict=True)
    kind: StrictStr


async def hosted(request: Request, table_id: str) -> TableRuntime:
    hub: Hub = request.app.state.hub
    rt = await hub.touch(table_id)
    token = bearer_token(request.headers.get("authorization"))
    if token is None:
        raise HTTPException(401, "the host's requests carry Authorization: Bearer <host token>")
    host_hash = rt.evening.host_hash
    if host_hash is None or match_token(token, [(0, host_hash)]) is None:
        raise HTTPException(403, "that is not this table's host token")
    rt.last_activity = hub.clock.now()
    return rt


def _not_over(rt: TableRuntime) -> None:
    if rt.row.status in ("over", "broken"):
        raise Conflict("the match is over: start a rematch for another one")


@router.patch(
    "/{table_id}",
    response_model=TableSummary,
    responses=HOST_RESPONSES,
    summary="Change the timer, the name, the spectators' chat, listed or approval (host)",
)
async def patch_table(table_id: str, body: TablePatch, request: Request) -> dict[str, Any]:
    """The new timer takes effect from the next hand."""
    rt = await hosted(request, table_id)
    if body.turn_seconds is not None and not 0 <= body.turn_seconds <= 86_400:
        raise BadRequest(turn_seconds_words(body.turn_seconds))
    name = body.name
    if name is not None:
        try:
            name = check_name(name, "the table name", TABLE_NAME_LONGEST)
        except TextError as exc:
            raise BadRequest(str(exc)) from None
    try:
        for field in ("hand_pause_seconds", "rebuy_seconds"):
            seconds = getattr(body, field)
            if seconds is not None:
                between_seconds(field, seconds)
        chip_value = body.chip_value
        if chip_value:
            chip_value = parse_chip_value(chip_value)
        currency = body.currency
        if currency:
            currency = parse_currency(currency)
    except RateError as exc:
        raise BadRequest(str(exc)) from None
    await on_owner(
        rt,
        "host_patch",
        {
            "turn_seconds": body.turn_seconds,
            "name": name,
            "spectator_chat": body.spectator_chat,
            "listed": body.listed,
            "approval": body.approval,
            "hand_pause_seconds": body.hand_pause_seconds,
            "rebuy_seconds": body.rebuy_seconds,
            "chip_value": chip_value,
            "currency": currency,
        },
    )
    return rt.summary()


async def on_owner(rt: TableRuntime, op: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run a host operation where the table is driven (see ``Hub.call``); a mirror here is
    then read back to the version it made."""
    hub = cast(Hub, rt.hub)
    answer = await hub.call(rt, op, args)
    await rt.mirror.at_least(int(answer.get("v", 0)))
    return answer


async def _patch(rt: TableRuntime, args: dict[str, Any]) -> dict[str, Any]:
    async with rt.commands.command(Command.HOST):
        row = rt.row
        seconds = row.turn_seconds if args["turn_seconds"] is None else args["turn_seconds"]
        name = row.name if args["name"] is None else args["name"]
        chat = args.get("spectator_chat")
        chat = rt.evening.spectator_chat if chat is None else bool(chat)
        listed = args.get("listed")
        listed = rt.evening.listed if listed is None else bool(listed)
        approval = args.get("approval")
        approval = rt.evening.approval if approval is None else bool(approval)
        table_id = row.id
        ev = rt.evening
        kept = replace(ev)  # the settings as they will be (None or absent: unchanged)
        for field, attr in (
            ("hand_pause_seconds", "hand_pause"),
            ("rebuy_seconds", "rebuy_seconds"),
        ):
            if args.get(field) is not None:
                setattr(kept, attr, int(args[field]))
        for attr in ("chip_value", "currency"):
            if args.get(attr) is not None:
                setattr(kept, attr, args[attr] or None)  # "": taken away

        def write(conn: DbConnection) -> None:
            Store.set_setup(conn, table_id, name=name, turn_seconds=seconds)
            set_spectator_chat(conn, table_id, chat)
            set_access(conn, table_id, listed=listed, approval=approval)
            set_settings(conn, table_id, kept)

        new = await rt.owner.changed_by(write)  # stored, then applied and sent
        row.turn_seconds, row.name = seconds, name  # the driver gives the timer to the next hand
        ev.spectator_chat = chat
        ev.listed, ev.approval = listed, approval
        ev.hand_pause, ev.rebuy_seconds = kept.hand_pause, kept.rebuy_seconds
        ev.chip_value, ev.currency = kept.chip_value, kept.currency
        rt.owner.publish(new)
    return {"v": rt.row.version}


@router.post("/{table_id}/pause", status_code=204, responses=HOST_RESPONSES, summary="Pause (host)")
async def pause(table_id: str, request: Request) -> Response:
    """No hand starts until ``resume``; asked during a hand, after it (``pending``)."""
    return await _flag(request, table_id, paused=True)


@router.post(
    "/{table_id}/resume", status_code=204, responses=HOST_RESPONSES, summary="Resume (host)"
)
async def resume(table_id: str, request: Request) -> Response:
    """Lift the host's pause (not the players')."""
    return await _flag(request, table_id, paused=False)


async def _flag(request: Request, table_id: str, *, paused: bool) -> Response:
    rt = await hosted(request, table_id)
    await on_owner(rt, "host_flag", {"paused": paused})
    return Response(status_code=204)


async def _set_flag(rt: TableRuntime, args: dict[str, Any]) -> dict[str, Any]:
    paused = bool(args["paused"])
    async with rt.commands.command(Command.HOST):
        _not_over(rt)
        ev = rt.evening
        if ev.paused != paused:
            flags = seating.flags_write(
                rt.row.id, paused=paused, ended=ev.ended, next_table=ev.next_table
            )
            new = await rt.owner.changed_by(flags)
            ev.paused = paused
            rt.owner.publish(new)
    rt.wake.set()
    return {"v": rt.row.version}


@router.post("/{table_id}/end", status_code=204, responses=HOST_RESPONSES, summary="End (host)")
async def end(table_id: str, request: Request) -> Response:
    """End the match: at once, or when the hand in progress ends (``pending: "end"``)."""
    rt = await hosted(request, table_id)
    await on_owner(rt, "host_end", {})
    return Response(status_code=204)


async def _end(rt: TableRuntime, _args: dict[str, Any]) -> dict[str, Any]:
    async with rt.commands.command(Command.HOST):
        _not_over(rt)
        if not rt.evening.ended:
            await rt.owner.end_match()
    rt.wake.set()
    return {"v": rt.row.version}


@router.post(
    "/{table_id}/seats/{k}/bot",
    status_code=204,
    responses=HOST_RESPONSES,
    summary="Seat a bot (host)",
)
async def seat_bot(table_id: str, k: int, body: BotSeat, request: Request) -> Response:
    """An open seat takes the bot at once; a sitting-out person's seat is kept warm (the
    bot plays for them until their ``sit_in``); a person who left gives the seat to the
    bot between hands (docs/protocol.md "REST: the lobby")."""
    rt = await hosted(request, table_id)
    if body.kind not in BOT_KINDS:
        raise BadRequest(f"unknown bot kind {body.kind!r}: one of {', '.join(BOT_KINDS)}")
    await on_owner(rt, "host_bot", {"k": k, "kind": body.kind})
    return Response(status_code=204)


async def _seat_bot(rt: TableRuntime, args: dict[str, Any]) -> dict[str, Any]:
    k, kind = int(args["k"]), str(args["kind"])
    agent: Agent | None = None
    if rt.model is not None:  # built off the event loop (a search bot takes a while)
        agent = await asyncio.to_thread(friendly_bot, kind)
    start = False
    async with rt.commands.command(Command.HOST):
        _not_over(rt)
        seats = rt.row.seats
        if not 0 <= k < len(seats):
            raise BadRequest(f"seat must be 0 to {len(seats) - 1}, not {k}")
        seat = seats[k]
        model = rt.model
        name = bot_name({s.name for s in seats if s.name}, k)
        former: FormerRow | None = None
        if model is not None and seat.kind == "person" and not _gone(model.match, k):
            if agent is None:
                agent = await asyncio.to_thread(friendly_bot, kind)
            await _stand_in(rt, k, kind, agent)
            rt.wake.set()
            return {"v": rt.row.version}
        if seat.kind == "open":
            start = all(s.kind != "open" for s in seats if s.idx != k)
        else:
            if model is None or seat.kind != "person":
                raise Conflict("that seat is not a person's")
            if model.match.in_hand(k):
                raise Conflict(
                    "that person leaves when this hand ends: a bot may take the seat then"
                )
            if agent is None:
                agent = await asyncio.to_thread(friendly_bot, kind)
            # docs/protocol.md "Settling up": the person stays in the ledger with what
            # they bought in and left with; the bot buys in the chips the seat holds
            chips = model.match.chips[k]
            bought = model.match.presence[k].bought_in
            if seat.name is not None:
                former = FormerRow(k, seat.name, seat.token_hash or "", bought, chips)
            rows = [
                PresenceRow(k, False, False, chips, None) if r.idx == k else r
                for r in seating.presence_rows(model)
            ]
        status = "playing" if start else rt.row.status
        row_id = rt.row.id

        def write(conn: DbConnection) -> None:
            Store.set_seat(conn, row_id, k, name=name, kind=kind)
            if former is not None:
                save_former(conn, row_id, former)
                save_presence(conn, row_id, rows)

        new = await rt.owner.changed_by(write, status=status)  # stored, then applied and sent
        seat.name, seat.kind, seat.token_hash = name, kind, None
        rt.row.status = status
        if former is not None:
            rt.evening.former.append(former)
        if model is not None and agent is not None and seat.kind != "open":
            _make_bot(rt, k, name, kind, agent)
            if former is not None:
                model.match.presence[k].bought_in = chips  # the bot buys in what it holds
        for c in list(rt.conns):
            if c.index == k:
                c.index = None  # the person's token only watches now
        rt.owner.publish(new)
    if start:
        rt.start()
    rt.wake.set()
    return {"v": rt.row.version}


def _gone(match: TableMatch, k: int) -> bool:
    """Whether the person of seat ``k`` has left (or leaves when this hand ends)."""
    p = match.presence[k]
    return p.left or p.leaving


async def _stand_in(rt: TableRuntime, k: int, kind: str, agent: Agent) -> None:
    """Keep the seat of a sitting-out person warm (docs/protocol.md "REST: the lobby"):
    ``agent`` plays it for them from now on; seat, token, chips and ledger stay theirs.
    Computed on a draft, stored, then taken in and sent (in a command of the table).

    Raises:
        Conflict: the person plays (does not sit out), or a bot already plays for them.
        WriteFailed: the database did not take it (nothing changed).
    """
    model = rt.model
    assert model is not None
    drafted = seating.draft(model.match)
    try:
        drafted.stand_in_for(k, kind)
    except PrimeroError as exc:
        raise Conflict(str(exc)) from None
    new = await rt.owner.changed_by(seating.presence_write(rt, drafted))  # stored first
    seating.take(model.match, drafted)  # then taken in
    model.set_stand_in(k, kind, agent)
    rt.owner.publish(new)  # then sent


def _make_bot(rt: TableRuntime, k: int, name: str, kind: str, agent: Agent) -> None:
    model = rt.model
    assert model is not None
    match = model.match
    match.players = tuple(name if i == k else n for i, n in enumerate(match.players))
    model.kinds = tuple(kind if i == k else x for i, x in enumerate(model.kinds))
    model.agents = tuple(agent if i == k else a for i, a in enumerate(model.agents))
    match.people.discard(k)
    p = match.presence[k]
    p.left = p.sitting_out = p.away = False
    p.stand_in = None
    model.stand_ins.pop(k, None)


@router.post(
    "/{table_id}/rematch",
    status_code=status.HTTP_201_CREATED,
    response_model=TableSummary,
    responses=HOST_RESPONSES,
    summary="Rematch (host)",
)
async def rematch(table_id: str, request: Request) -> dict[str, Any]:
    """A new table with the same set-up and host token; people who had not left keep
    their seats and tokens; bots stay bots; other seats are open."""
    rt = await hosted(request, table_id)
    answer = await on_owner(rt, "host_rematch", {})
    summary: dict[str, Any] = answer["summary"]
    return summary


async def _rematch(rt: TableRuntime, _args: dict[str, Any]) -> dict[str, Any]:
    hub = cast(Hub, rt.hub)
    async with rt.commands.command(Command.HOST):
        if rt.row.status != "over" or rt.evening.next_table is not None:
            raise Conflict("a rematch is for a finished match, once")
        old = rt.row
        model = rt.model
        new_id = secrets.token_hex(4)
        while new_id in hub.tables:
            new_id = secrets.token_hex(4)
        seats: list[SeatRow] = []
        kept_left = {r.idx for r in rt.evening.seats if r.left}  # as stored (no model)
        for s in old.seats:
            left = model.match.presence[s.idx].left if model is not None else s.idx in kept_left
            if s.kind == "person" and not left:
                seats.append(SeatRow(s.idx, s.name, "person", s.token_hash, old.stack))
            elif s.kind in ("person", "open"):
                seats.append(SeatRow(s.idx, None, "open", None, old.stack))
            else:
                seats.append(SeatRow(s.idx, s.name, s.kind, None, old.stack))
        playing = all(s.kind != "open" for s in seats)
        row = TableRow(
            id=new_id,
            name=old.name,
            stack=old.stack,
            rules=dict(old.rules),
            turn_seconds=old.turn_seconds,
            max_hands=old.max_hands,
            seed_rotation=old.seed_rotation,
            status="playing" if playing else "waiting",
            version=1,
            hands_played=0,
            dealer_index=len(seats) - 1,
            created=int(hub.settings.wall_clock()),
            seats=seats,
        )
        ev = rt.evening
        host_hash, rebuy, store = ev.host_hash, ev.rebuy, hub.store
        listed, approval = ev.listed, ev.approval
        kept_seats = {s.idx for s in seats if s.kind == "person"}
        host_seat = ev.host_seat if ev.host_seat in kept_seats else None
        settings = EveningRow(
            host_hash=host_hash,
            rebuy=rebuy,
            listed=listed,
            approval=approval,
            host_seat=host_seat,
            hand_pause=ev.hand_pause,
            rebuy_seconds=ev.rebuy_seconds,
            chip_value=ev.chip_value,
            currency=ev.currency,
        )
        flags = seating.flags_write(old.id, paused=ev.paused, ended=ev.ended, next_table=new_id)

        def write(conn: DbConnection) -> None:  # one transaction: the new table, the link
            store.create_table(conn, row)
            save_host(conn, new_id, host_hash, rebuy, listed=listed, approval=approval, ev=settings)
            set_host_seat(conn, new_id, host_seat)
            flags(conn)

        version = await rt.owner.changed_by(write)  # stored, then applied and sent
        new = TableRuntime(row, hub)
        new.evening = settings
        new.refresh_summary()
        hub.tables[new_id] = new
        ev.next_table = new_id
        rt.owner.publish(version)
    await hub.begin(new)  # with several processes its lease first
    return {"v": rt.row.version, "summary": new.summary()}
