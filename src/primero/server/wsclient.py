"""One WebSocket connection's limits (docs/protocol.md "Limits"), apart from what its frames
mean (:mod:`primero.server.ws`):

- its queue of messages out is bounded (``Settings.send_queue``): a client that stops
  reading is closed with code 1013 and forgotten by its table, never buffered without
  bound;
- frames in: a token bucket of ``Settings.rate`` frames a second with bursts of twice
  that; a frame over ``Settings.frame_limit`` bytes, not JSON, not an object, is refused
  (:func:`check_frame`); ``Settings.bad_frames`` malformed frames within
  ``Settings.bad_window`` seconds close the connection with code 1008 (frames over the
  rate get an ``error`` and do not count);
- a table takes ``Settings.table_connections`` connections (:func:`admit`); the next is
  closed with code 1013.

The clock is ``Settings.rate_clock`` (tests inject one: no real waits).
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from fastapi import WebSocket

from primero.server.settings import Settings

__all__ = ["INVALID_DATA", "NOT_JSON", "TRY_AGAIN_LATER", "Client", "admit", "check_frame"]

#: WebSocket close code "try again later" (RFC 6455 registry): a full table, a slow reader.
TRY_AGAIN_LATER = 1013
#: WebSocket close code "invalid frame payload data": a text frame not UTF-8 or not JSON.
INVALID_DATA = 1007
#: :func:`check_frame`'s words for a text frame that is not JSON (the connection is closed).
NOT_JSON = 'frame is not JSON: send one JSON object with a "type"'
#: WebSocket close code "policy violation": too many refused frames.
POLICY = 1008


class _Table(Protocol):
    conns: set[Any]


class Client:
    """One WebSocket connection: its seat (None: a spectator), its bounded queue of
    messages out, its rate bucket and its count of refused frames.

    Args:
        ws: the connection.
        index: the seat's 0-based table index, or None for a spectator.
        settings: the limits and the clock.
        forget: called once when the client is dropped (removes it from its table).
    """

    def __init__(
        self,
        ws: WebSocket,
        index: int | None,
        settings: Settings,
        forget: Callable[[Client], None] | None = None,
    ) -> None:
        self.ws = ws
        self.index = index
        self.settings = settings
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.bad: deque[float] = deque()
        self.rate = settings.rate
        self.tokens = 2 * settings.rate
        self.stamp = settings.rate_clock()
        self.forget = forget
        #: ``(close code, reason)`` once dropped; nothing more is queued.
        self.dropped: tuple[int, str] | None = None
        self.done = asyncio.Event()
        #: A spectator's name in chat (``"Spectator 3"``, ``"Host"``); None for a seat.
        self.watcher: str | None = None
        #: Opened with the host token (docs/protocol.md "Private tables"): gets the join
        #: requests; False once the host role is passed on.
        self.host = False
        #: The id of the join request this connection's token made (an asker), or None,
        #: and its token's hash (a mirror finds the seat it is given by it).
        self.request: int | None = None
        self.request_hash: str | None = None
        #: The token's person was removed by the host (their page is told).
        self.removed = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a client with ``send_queue`` messages unsent is dropped (1013)."""
        if self.dropped is not None:
            return
        if self.queue.qsize() >= self.settings.send_queue:
            self.drop(
                TRY_AGAIN_LATER,
                f"too slow: over {self.settings.send_queue} messages unsent",
            )
            return
        self.queue.put_nowait(message)

    def drop(self, code: int, reason: str) -> None:
        """Stop queuing, forget the client at its table, and let its handler close it."""
        if self.dropped is not None:
            return
        self.dropped = (code, reason)
        while not self.queue.empty():  # free what it never read
            self.queue.get_nowait()
        self.queue.put_nowait(None)
        if self.forget is not None:
            self.forget(self)
        self.done.set()

    def allow(self) -> bool:
        """Take one frame from the token bucket; False when over the rate."""
        now = self.settings.rate_clock()
        self.tokens = min(2 * self.rate, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def refused(self) -> bool:
        """Count a refused frame; True when the connection must be closed (1008)."""
        now = self.settings.rate_clock()
        self.bad.append(now)
        while self.bad and self.bad[0] <= now - self.settings.bad_window:
            self.bad.popleft()
        return len(self.bad) >= self.settings.bad_frames

    async def pump(self) -> None:
        """Send queued messages until the queue says stop (None)."""
        while (message := await self.queue.get()) is not None:
            await self.ws.send_text(json.dumps(message, separators=(",", ":")))


def admit(table: _Table, client: Client) -> bool:
    """Add ``client`` to ``table.conns`` unless the table has ``table_connections``
    already (then False: close the new one with 1013). No await between the count and
    the add, so concurrent handshakes cannot pass the cap together."""
    if len(table.conns) >= client.settings.table_connections:
        return False
    table.conns.add(client)
    return True


def check_frame(frame: Mapping[str, Any], limit: int) -> tuple[dict[str, Any] | None, str | None]:
    """The JSON object of a frame, or why it is refused (in words)."""
    if frame.get("bytes") is not None:
        return None, 'frames must be text: one JSON object with a "type"'
    text = frame.get("text") or ""
    if len(text.encode("utf-8", "surrogatepass")) > limit:
        return None, f"frame over {limit // 1024} KiB: frames are at most {limit} bytes"
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        return None, NOT_JSON
    if not isinstance(obj, dict):
        return None, 'frame is not a JSON object: send {"type": ...}'
    return obj, None
