"""The limits on creating tables (docs/protocol.md "Limits"): ``--create-rate`` tables a client
address may create in a minute and ``--max-tables`` tables ``waiting``, ``playing`` or
``paused`` at once, both counted in the database (so over every process sharing it).
Past either, ``POST /api/tables`` is ``429`` with ``Retry-After``. And a REST body is at
most :data:`BODY_LIMIT` bytes (:class:`BodyLimit`, ``413``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from typing import Any

from starlette.requests import ClientDisconnect

from primero.server.settings import Settings
from primero.store import Store
from primero.store.limits import creator_hash, live_tables, set_creator, tables_created_since

__all__ = ["BODY_LIMIT", "CREATE_WINDOW", "FULL_RETRY", "BodyLimit", "CreateGate", "TooMany"]

#: The window of ``--create-rate``, seconds.
CREATE_WINDOW = 60
#: ``Retry-After`` when ``--max-tables`` tables are live, seconds.
FULL_RETRY = 60


class TooMany(Exception):
    """A table may not be created now (HTTP 429).

    Attributes:
        retry_after: whole seconds until it may be asked again.
    """

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = max(1, retry_after)


class CreateGate:
    """Admits table creations one at a time (``lock``), counting in the store.

    Args:
        settings: ``create_rate``, ``max_tables`` and ``wall_clock``.
        store: the database.
    """

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.lock = asyncio.Lock()

    def _check(self, creator: str) -> None:
        s = self.settings
        now = s.wall_clock()
        with self.store.engine.connect() as conn:
            if s.max_tables > 0 and live_tables(conn) >= s.max_tables:
                raise TooMany(
                    f"the server has {s.max_tables} table{'' if s.max_tables == 1 else 's'} "
                    "open, its limit: try again later",
                    FULL_RETRY,
                )
            if s.create_rate > 0:
                since = math.floor(now) - CREATE_WINDOW + 1
                count, oldest = tables_created_since(conn, creator, since)
                if count >= s.create_rate:
                    wait = (oldest or since) + CREATE_WINDOW - now
                    raise TooMany(
                        f"at most {s.create_rate} table{'' if s.create_rate == 1 else 's'} "
                        f"a minute from one address: try again in {math.ceil(wait)} seconds",
                        math.ceil(wait),
                    )

    async def admit(self, address: str) -> str:
        """Check both limits for a client ``address`` (hold :attr:`lock` from this call
        until :meth:`record`); returns the hash to record.

        Raises:
            TooMany: a limit is reached (with the seconds to wait).
        """
        creator = creator_hash(address)
        await asyncio.to_thread(self._check, creator)
        return creator

    async def record(self, table_id: str, creator: str) -> None:
        """Keep who created ``table_id`` (counted by later :meth:`admit` calls)."""

        def write() -> None:
            with self.store.transaction() as conn:
                set_creator(conn, table_id, creator)

        await asyncio.to_thread(write)


#: The largest REST request body, bytes (a table's set-up is well under 1 KiB).
BODY_LIMIT = 64 * 1024


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``limit`` bytes is answered ``413`` with
    ``{"detail": ...}`` (by its ``Content-Length``, or once the chunks read pass it), so
    that nobody can make the server hold a body without bound.

    Args:
        app: the application.
        limit: bytes (default :data:`BODY_LIMIT`).
    """

    def __init__(self, app: Any, limit: int = BODY_LIMIT) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Hand the request on, or answer ``413``."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", ()):
            if key == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse(send)
                return
        seen = 0
        refused = False

        async def counted_receive() -> Any:
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:  # answer now; the app sees the client leave
                    refused = True
                    await self._refuse(send)
                    return {"type": "http.disconnect"}
            return message

        async def watched_send(message: Any) -> None:
            if not refused:  # after a 413, whatever the app answers is dropped
                await send(message)

        with contextlib.suppress(ClientDisconnect):
            await self.app(scope, counted_receive, watched_send)

    async def _refuse(self, send: Any) -> None:
        body = json.dumps(
            {"detail": f"the request body is over {self.limit // 1024} KiB: send less"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
