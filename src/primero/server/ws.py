"""The WebSocket ``/ws/tables/{id}?token=T`` (online.md): one per client, spectators
without a token.

Every frame in is checked in this order: rate (``Settings.rate`` frames a second, bursts of
twice that), size (4 KiB), JSON object, known ``type`` (a table of handlers), fields
(Pydantic). A refused frame gets an ``error`` and changes nothing; after 10 refused frames
within 10 seconds the connection is closed with code 1008.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ValidationError

from primero.server import seating
from primero.server.hints import HintsIn, hints_handler
from primero.server.models import ActionIn, ChatIn, ResyncIn
from primero.server.runtime import Hub, NotFound, TableRuntime
from primero.server.security import origin_allowed

__all__ = ["HANDLERS", "router"]

router = APIRouter()

#: Refused frames that close a connection (1008) within :data:`BAD_WINDOW` seconds.
BAD_LIMIT = 10
BAD_WINDOW = 10.0
#: Messages queued for a client that does not read before it is dropped.
QUEUE_LIMIT = 256


class Client:
    """One WebSocket connection: its seat and its queue of messages out."""

    def __init__(self, ws: WebSocket, index: int | None, rate: float) -> None:
        self.ws = ws
        self.index = index
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.bad: deque[float] = deque()
        self.rate = rate
        self.tokens = 2 * rate
        self.stamp = time.monotonic()

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message (a client that stops reading is dropped)."""
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message)

    def allow(self) -> bool:
        """Take one frame from the token bucket; False when over the rate."""
        now = time.monotonic()
        self.tokens = min(2 * self.rate, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def refused(self) -> bool:
        """Count a refused frame; True when the connection must be closed (1008)."""
        now = time.monotonic()
        self.bad.append(now)
        while self.bad and self.bad[0] <= now - BAD_WINDOW:
            self.bad.popleft()
        return len(self.bad) >= BAD_LIMIT

    async def pump(self) -> None:
        """Send queued messages until the queue says stop (None)."""
        while (message := await self.queue.get()) is not None:
            await self.ws.send_text(json.dumps(message, separators=(",", ":")))


async def _action(rt: TableRuntime, client: Client, msg: BaseModel) -> None:
    assert isinstance(msg, ActionIn)
    await rt.act(client, msg.id, msg.line, msg.version)


async def _resync(rt: TableRuntime, client: Client, msg: BaseModel) -> None:
    async with rt.lock:
        client.send(rt.state(client.index))


async def _chat(rt: TableRuntime, client: Client, msg: BaseModel) -> None:
    assert isinstance(msg, ChatIn)
    rt.chat(client, msg.text)


Handler = Callable[[TableRuntime, Client, BaseModel], Awaitable[None]]

#: Each client message ``type``: its Pydantic model and its handler. Add a type here.
HANDLERS: dict[str, tuple[type[BaseModel], Handler]] = {
    "action": (ActionIn, _action),
    "resync": (ResyncIn, _resync),
    "chat": (ChatIn, _chat),
    "hints": (HintsIn, hints_handler),
    **seating.HANDLERS,
}


def _error(action_id: object, message: str) -> dict[str, Any]:
    return {
        "type": "error",
        "id": action_id if isinstance(action_id, str) else None,
        "message": message,
    }


def _validation_words(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(x) for x in err["loc"]) or "message"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def _check(frame: Mapping[str, Any], limit: int) -> tuple[dict[str, Any] | None, str | None]:
    """The JSON object of a frame, or why it is refused."""
    if frame.get("bytes") is not None:
        return None, "frames must be text: one JSON object with a \"type\""
    text = frame.get("text") or ""
    if len(text.encode("utf-8", "surrogatepass")) > limit:
        return None, f"frame over {limit // 1024} KiB: frames are at most {limit} bytes"
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        return None, "frame is not JSON: send one JSON object with a \"type\""
    if not isinstance(obj, dict):
        return None, "frame is not a JSON object: send {\"type\": ...}"
    return obj, None


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
        rt = hub.get(table_id)
    except NotFound:
        await ws.close(code=1008, reason="no such table")
        return
    token = ws.query_params.get("token")
    index: int | None = None
    if token is not None:
        index = rt.seat_of(token)
        if index is None:
            await ws.close(code=1008, reason="unknown token")
            return
    client = Client(ws, index, settings.rate)
    pump = asyncio.get_running_loop().create_task(client.pump())
    try:
        async with rt.lock:
            rt.conns.add(client)
            seating.connected(rt, index)
            client.send(rt.state(index))
        await _serve(rt, client, settings.frame_limit)
    except WebSocketDisconnect:
        pass
    finally:
        rt.conns.discard(client)
        seating.connected(rt, client.index)
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pump


async def _serve(rt: TableRuntime, client: Client, limit: int) -> None:
    ws = client.ws
    while True:
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return
        obj: dict[str, Any] | None = None
        problem: str | None
        if not client.allow():
            problem = f"too many frames: at most {client.rate:g} a second"
        else:
            obj, problem = _check(frame, limit)
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
                    problem = _validation_words(exc)
                else:
                    await handler(rt, client, msg)
                    continue
        assert problem is not None
        client.send(_error(obj.get("id") if obj else None, problem))
        if client.refused():
            await asyncio.sleep(0.05)  # let the error go out first
            await ws.close(code=1008, reason="too many refused frames")
            return
