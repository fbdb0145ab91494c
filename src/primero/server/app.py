"""The FastAPI application of ``primero serve``: REST lobby under ``/api``, the WebSocket
under ``/ws``, the pages at ``/`` and ``/t/{id}``, the OpenAPI document at
``/openapi.json``, browsable at ``/docs`` and ``/redoc`` with every file served locally
(:mod:`primero.server.apidocs`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

import primero
from primero.engine.hands import evaluate
from primero.server import (
    api,
    apidocs,
    contract,
    fairproof,
    gctune,
    hands_api,
    host_api,
    joins,
    pages,
    seating,
    ws,
)
from primero.server.fieldwords import field_words
from primero.server.hub import Hub
from primero.server.limits import BodyLimit
from primero.server.loopprobe import probe_path, run_probe
from primero.server.ops import OPS
from primero.server.refusals import BadRequest, Conflict, NotFound
from primero.server.security import HostCheck
from primero.server.settings import Settings
from primero.server.writer import WriteFailed, transient
from primero.store import Store

__all__ = ["create_app"]

DESCRIPTION = """
Play Primero, the Renaissance ancestor of poker, with friends and bots.

1. `POST /api/tables` with the seats (`"open"` for a person, or a bot kind).
2. Each person `POST /api/tables/{id}/seats` with a name and keeps the token.
3. Connect to the WebSocket `/ws/tables/{id}?token=T` (no token: watch as a spectator);
   the server sends `state` messages and takes `action`, `resync` and `chat` messages.

The protocol is described in docs/protocol.md.

## Limits

- Text people type (names, table names, chat, action ids) is NFC-normalized and may not
  hold characters of Unicode categories Cc, Cs, Co, Cn, nor Cf except U+200C/U+200D
  between two other characters; names are 1 to 24 characters, unique at a table by
  their UTS #39 confusable skeleton (case ignored).
- `POST /api/tables`: at most `--create-rate` tables a minute per client address
  (default 10) and `--max-tables` tables waiting, playing or paused (default 500): past
  either, `429` with `Retry-After`. Stacks 1 to 10^9 chips.
- A REST body is at most 64 KiB (`413`). The lobby: 50 tables a page.
- A request whose `Host` names neither the listening address, `localhost`, `127.0.0.1`,
  `[::1]` nor an `--allow-host` is `400`.
- WebSocket: frames of at most 4 KiB, 20 a second (bursts of 40); 10 malformed frames
  within 10 s close with 1008; 100 connections a table (the next: 1013); a connection
  with 256 messages unsent is closed with 1013.
"""


#: ``Retry-After`` of a ``503`` while the database cannot be reached, seconds.
UNREACHABLE_RETRY = 2


def _unreachable() -> JSONResponse:
    return JSONResponse(
        {"detail": "the database cannot be reached: nothing was changed, try again"},
        status_code=503,
        headers={"Retry-After": str(UNREACHABLE_RETRY)},
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server application.

    Args:
        settings: how it runs (default: :class:`Settings` defaults, SQLite ``primero.db``).

    Returns:
        The FastAPI app; its lifespan migrates the database, loads every table and
        resumes the hands in progress, and on shutdown stops every table's task.
    """
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url)
        await asyncio.to_thread(store.migrate)
        # The hand evaluator's table is built on first use (40 ms of CPU): here, in a
        # thread, before any state is built on the event loop.
        await asyncio.to_thread(evaluate, "7h 7d 7c 7s")
        hub = Hub(settings, store, OPS)
        app.state.hub = hub
        await hub.load()
        freezer = None
        if settings.tune_gc:  # what start-up built is never walked again
            gctune.settle()
            freezer = asyncio.get_running_loop().create_task(gctune.keep_frozen())
        path = probe_path()
        probe = None if path is None else asyncio.get_running_loop().create_task(run_probe(path))
        sweeper = asyncio.get_running_loop().create_task(seating.watch(hub))
        try:
            yield
        finally:
            sweeper.cancel()
            if freezer is not None:
                freezer.cancel()
            if probe is not None:
                probe.cancel()
            await hub.close()

    app = FastAPI(
        title="primero",
        summary="Online tables of Primero",
        description=DESCRIPTION,
        version=primero.__version__,  # the installed distribution's (pyproject.toml)
        lifespan=lifespan,
        docs_url=None,  # FastAPI's pages load their files from a CDN: apidocs serves them
        redoc_url=None,
    )

    @app.exception_handler(RequestValidationError)
    async def _bad_body(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": field_words(exc.errors())}, status_code=400)

    @app.exception_handler(BadRequest)
    async def _bad(_request: Request, exc: BadRequest) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.exception_handler(NotFound)
    async def _missing(_request: Request, exc: NotFound) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    @app.exception_handler(Conflict)
    async def _conflict(_request: Request, exc: Conflict) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=409)

    @app.exception_handler(WriteFailed)
    async def _unstored(_request: Request, exc: WriteFailed) -> JSONResponse:
        return _unreachable()

    # A read of the database (a lookup, the lobby, the creation limits, the hands) that
    # could not reach it: 503 as for a write, never 500.
    @app.exception_handler(SQLAlchemyError)
    async def _unread(_request: Request, exc: SQLAlchemyError) -> JSONResponse:
        if not transient(exc):
            raise exc
        return _unreachable()

    @app.exception_handler(TimeoutError)
    async def _slow(_request: Request, exc: TimeoutError) -> JSONResponse:
        return _unreachable()

    app.add_exception_handler(StarletteHTTPException, contract.method_not_allowed)
    contract.tidy_openapi(app)
    app.include_router(api.router)
    app.include_router(host_api.router)
    app.include_router(joins.router)
    app.include_router(hands_api.router)
    app.include_router(fairproof.router)
    app.include_router(ws.router)
    pages.mount_pages(app)
    apidocs.mount_docs(app)
    app.add_middleware(BodyLimit)
    if settings.listen_host is not None:  # DNS rebinding: Host names this server
        app.add_middleware(HostCheck, listen=settings.listen_host, allowed=settings.allow_hosts)
    return app
