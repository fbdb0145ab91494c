"""The WebSocket ``/ws/tables/{id}?token=T`` (docs/protocol.md): one per client, spectators
without a token.

Every frame in is checked in this order: rate (``Settings.rate`` frames a second, bursts of
twice that), size (4 KiB), JSON (a text frame that is not JSON closes the connection with
code 1007 and one log line; one that is not UTF-8 is closed so by
:mod:`primero.server.doors`), an object, known ``type`` (a table of handlers), fields
(Pydantic, with the text rules of :mod:`primero.play.text`). A refused frame gets an
``error`` and changes nothing; after 10 malformed frames (refused for what they are, not
for coming too fast) within 10 seconds the connection is closed with code 1008. The
connection's limits (queue out, connections per table, the clock) are in
:mod:`primero.server.wsclient`. The token is read only from the literal query key
``token`` (:func:`primero.server.security.query_token`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ValidationError

from primero.server import seating
from primero.server.actor import Command
from primero.server.fieldwords import field_words
from primero.server.hints import HintsIn, hints_handler
from primero.server.hub import Hub
from primero.server.models import ActionIn, ChatIn, PingIn, ResyncIn
from primero.server.refusals import NotFound
from primero.server.runtime import TableRuntime
from primero.server.security import origin_allowed, query_token
from primero.server.writer import transient
from primero.server.wsclient import (
    INVALID_DATA,
    NOT_JSON,
    POLICY,
    TRY_AGAIN_LATER,
    Client,
    admit,
    check_frame,
)

__all__ = ["HANDLERS", "router"]

router = APIRouter()
log = logging.getLogger("primero.server")
#: Handlers running (shielded from their connection closing): kept until they end.
_RUNNING: set[asyncio.Future[None]] = set()


async def _action(rt: TableRuntime, client: Client, msg: BaseModel) -> None:
    assert isinstance(msg, ActionIn)
    await rt.owner.act(client, msg.id, msg.line, msg.version)


async def _resync(rt: TableRuntime, client: Client, msg: BaseModel) -> None:
    # ``since`` is read and not used: the answer is always the whole current state
    # (docs/protocol.md, "Versions, stale moves and resync"), the stored one at a mirror.
    await rt.mirror.follow()
    async with rt.commands.command(Command.READ):
        client.send(rt.state(client.index, client))


async def _chat(rt: TableRuntime, client: Client, msg: BaseModel) -> None:
    assert isinstance(msg, ChatIn)
    rt.chat(client, msg.text)


async def _ping(rt: TableRuntime, client: Client, msg: BaseModel) -> None:
    # The client's heartbeat (docs/protocol.md): no lock, no store, answered at once.
    client.send({"type": "pong"})


Handler = Callable[[TableRuntime, Client, BaseModel], Awaitable[None]]

#: Each client message ``type``: its Pydantic model and its handler. Add a type here.
HANDLERS: dict[str, tuple[type[BaseModel], Handler]] = {
    "action": (ActionIn, _action),
    "resync": (ResyncIn, _resync),
    "chat": (ChatIn, _chat),
    "ping": (PingIn, _ping),
    "hints": (HintsIn, hints_handler),
    **seating.HANDLERS,
}


class _Collected:
    """A connection on another process, seen by the owner: its seat, and what it is sent
    (a ``state`` goes back only as ``{"type": "state"}``: the sender's process builds it)."""

    def __init__(self, index: int | None) -> None:
        self.index = index
        self.host = False
        self.request: int | None = None
        self.removed = False
        self.sent: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append({"type": "state"} if message.get("type") == "state" else message)


async def _forwarded(rt: TableRuntime, args: dict[str, Any]) -> dict[str, Any]:
    """A WebSocket message sent to another process, run here by the table's owner."""
    model, handler = HANDLERS[str(args["kind"])]
    index = args.get("index")
    conn = _Collected(index if isinstance(index, int) else None)
    await handler(rt, conn, model.model_validate(args["msg"]))  # type: ignore[arg-type]
    return {"msgs": conn.sent, "v": rt.row.version}


def _error(action_id: object, message: str) -> dict[str, Any]:
    return {
        "type": "error",
        "id": action_id if isinstance(action_id, str) else None,
        "message": message,
    }


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    """One client at a table: a seat with ``?token=T``, a spectator without."""
    hub: Hub = ws.app.state.hub
    settings = hub.settings
    if not origin_allowed(
        ws.headers.get("origin"), ws.url.scheme, ws.headers.get("host"), settings.allow_origins
    ):
        await ws.close(code=1008)  # before accept: the handshake is refused with HTTP 403
        return
    await ws.accept()
    try:
        rt = await hub.touch(table_id)
    except NotFound:
        await ws.close(code=1008, reason="no such table")
        return
    except Exception as exc:  # the database cannot be reached: come back soon
        if not transient(exc):
            raise
        await ws.close(code=TRY_AGAIN_LATER, reason="the database cannot be reached")
        return
    token = query_token(ws.scope.get("query_string", b""))
    index: int | None = None
    watcher: str | None = None
    host = removed = False
    request: int | None = None
    if token is not None:
        index = rt.seat_of(token)
        former = None if index is not None else rt.former_seat(token)
        if former is not None:  # a bot's seat now: it watches, under its former name
            watcher = former[1]
            removed = rt.removed_token(token)
        elif index is None:
            request = rt.request_of(token)  # an asker waiting for the host: watches
            if request is None:
                if not rt.is_host(token):  # docs/protocol.md: the host token watches
                    await ws.close(code=1008, reason="unknown token")
                    return
                watcher, host = "Host", True
    client = Client(ws, index, settings, forget=rt.conns.discard)
    client.host, client.request, client.removed = host, request, removed
    if request is not None:
        client.request_hash = next(r.token_hash for r in rt.evening.requests if r.id == request)
    if index is None:  # a spectator's name in chat (docs/protocol.md: spectators may chat)
        rt.spectators_seen += 1
        client.watcher = watcher or f"Spectator {rt.spectators_seen}"
    # joined and sent the state at once: no broadcast in between
    async with rt.commands.command(Command.PRESENCE):
        admitted = admit(rt, client)
        if admitted:
            seating.connected(rt, index, exclude=client)  # the others see it at once
            client.send(rt.state(index, client))
            if rt.chat_lines:  # the table's last chat lines: a reload shows them
                client.send(rt.chat_history())
    if admitted and not rt.owned:  # notices heard before it was here: caught up now
        rt.mirror.heard(*rt.mirror.heard_version)
    if not admitted:
        await ws.close(
            code=TRY_AGAIN_LATER,
            reason=f"the table is full: at most {settings.table_connections} connections",
        )
        return
    loop = asyncio.get_running_loop()
    pump = loop.create_task(client.pump())
    serve = loop.create_task(_serve(rt, client, settings.frame_limit))
    dropped = loop.create_task(client.done.wait())
    try:
        await asyncio.wait({serve, pump, dropped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        rt.conns.discard(client)
        seating.connected(rt, client.index)
        for task in (serve, pump, dropped):
            task.cancel()
        for task in (serve, pump, dropped):
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
                await task
        if client.dropped is not None:  # a slow reader: close it, without waiting long
            code, reason = client.dropped
            log.info("table %s: a connection was closed (%d): %s", rt.row.id, code, reason)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=code, reason=reason), 2)


async def _serve(rt: TableRuntime, client: Client, limit: int) -> None:
    ws = client.ws
    while True:
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return
        obj: dict[str, Any] | None = None
        problem: str | None
        over_rate = not client.allow()
        if over_rate:  # refused, not malformed: it does not count towards the 1008 close
            problem = f"too many frames: at most {client.rate:g} a second"
        else:
            obj, problem = check_frame(frame, limit)
        if obj is not None:
            kind = obj.get("type")
            entry = HANDLERS.get(kind) if isinstance(kind, str) else None
            if entry is None:
                problem = f"unknown type {kind!r}: one of {', '.join(HANDLERS)}"
            else:
                model, handler = entry
                try:
                    msg = model.model_validate(obj)
                except ValidationError as exc:
                    problem = field_words(exc.errors())
                else:
                    # Shielded: a connection closing while its change is being stored
                    # must not cut the change between its write and its apply (memory
                    # would lag behind the store). It runs to its end; only the wait stops.
                    task = asyncio.ensure_future(rt.hub.route(rt, client, kind, msg, handler))
                    _RUNNING.add(task)
                    task.add_done_callback(_RUNNING.discard)
                    await asyncio.shield(task)
                    continue
        assert problem is not None
        if problem == NOT_JSON:  # not the protocol at all: no error, the connection ends
            log.info(
                "table %s: a connection sent a frame that is not JSON: closed (1007)", rt.row.id
            )
            await ws.close(code=INVALID_DATA, reason="frames are JSON objects")
            return
        client.send(_error(obj.get("id") if obj else None, problem))
        if not over_rate and client.refused():
            await asyncio.sleep(0.05)  # let the error go out first
            await ws.close(code=POLICY, reason="too many refused frames")
            return
