"""The web client's pages: the lobby at ``/``, the table at ``/t/{id}``, files under ``/static``.

An address ``/t/{id}`` that names no table (or is no table id's shape) is answered
``404`` with a page of its own (``missing.html``): there is no table at this address,
and a link back to the lobby.

Every file comes from the package (``primero/web/``): no request leaves the server's own
origin. Pages carry a strict Content-Security-Policy (scripts, styles, images and
connections from this origin only; no inline script or style), so that even a name or
chat line that slipped through as markup could not run (the client sets text only with
``textContent`` anyway).
"""

from __future__ import annotations

import io
import logging
from importlib import resources
from pathlib import Path

import segno
from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, Response

from primero.server import bots_api, rules_api, settings_api
from primero.server.hub import Hub

log = logging.getLogger(__name__)

__all__ = ["CONTENT_SECURITY_POLICY", "WEB_DIR", "mount_pages", "router"]

#: The client's files, shipped as package data.
WEB_DIR = Path(str(resources.files("primero") / "web"))

#: The policy sent with every page and static file. ``connect-src 'self'`` covers the
#: WebSocket to the same host (CSP level 3).
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}

_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".html": "text/html; charset=utf-8",
}

router = APIRouter(include_in_schema=False)


#: The longest table id an address may name (ids are 8 hex digits; room to spare).
MAX_TABLE_ID = 32


def _page(name: str, status_code: int = 200) -> Response:
    return FileResponse(
        WEB_DIR / name, status_code=status_code, media_type=_TYPES[".html"], headers=_HEADERS
    )


def _table_shaped(table_id: str) -> bool:
    """Whether ``table_id`` could be a table id: 1 to :data:`MAX_TABLE_ID` ASCII letters
    and digits."""
    return table_id.isascii() and table_id.isalnum() and len(table_id) <= MAX_TABLE_ID


async def _is_table(request: Request, table_id: str) -> bool:
    """Whether ``table_id`` names a table: one this process holds, or (several processes)
    one the store holds. A store that cannot be read says yes: the page then tells what
    its WebSocket finds."""
    if not _table_shaped(table_id):
        return False
    hub: Hub = request.app.state.hub
    if table_id in hub.tables:
        return True
    if hub.cluster is None:
        return False
    try:
        return await hub.discover(table_id) is not None
    except Exception:  # the database is away: not a reason to say there is no table
        log.warning("table page %s: the store could not be read", table_id, exc_info=True)
        return True


@router.get("/")
def lobby() -> Response:
    """The lobby: the tables, create a table, join, watch."""
    return _page("index.html")


@router.get("/t/{table_id}")
async def table_page(table_id: str, request: Request) -> Response:
    """The table page; the client reads the table id from the address (and its query:
    ``?screen``, ``?pass``, ``?seat=k``, ``?learn``, left to the client).

    Returns:
        ``table.html`` (200), or for an id that names no table (a malformed one too)
        ``missing.html`` with status 404: no table at this address, a link to the lobby.
    """
    if not await _is_table(request, table_id):
        return _page("missing.html", status_code=404)
    return _page("table.html")


@router.get("/t/{table_id}/qr.svg")
def table_qr(table_id: str, request: Request, seat: int | None = None) -> Response:
    """A QR code (SVG, drawn by segno) of the table's address on this server, for a phone
    to open: ``?seat=k`` (0-based) names an open seat to join.

    Raises:
        HTTPException: 404 for an id that is not a table id's shape.
    """
    if not _table_shaped(table_id):
        raise HTTPException(status_code=404, detail="no such table")
    base = str(request.base_url).rstrip("/")
    url = f"{base}/t/{table_id}" + ("" if seat is None else f"?seat={seat}")
    out = io.BytesIO()
    title = "QR code of the table's address" if seat is None else f"QR code to join seat {seat + 1}"
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, title=title)
    return Response(out.getvalue(), media_type=_TYPES[".svg"], headers=_HEADERS)


@router.get("/t/{rest:path}")
def no_table_page(rest: str) -> Response:
    """Any other address under ``/t/`` (none, or one holding a ``/``): no table is there,
    the same ``404`` page as for an id that names no table."""
    return _page("missing.html", status_code=404)


@router.get("/static/{name}")
def static_file(name: str) -> Response:
    """One file of the client (``.js``, ``.css``, ``.svg``; nothing else is served).

    Raises:
        HTTPException: 404 for a name that is not one of the client's files.
    """
    path = WEB_DIR / name
    suffix = Path(name).suffix
    if "/" in name or "\\" in name or suffix not in _TYPES or not path.is_file():
        raise HTTPException(status_code=404, detail=f"no file {name!r} in the web client")
    return FileResponse(path, media_type=_TYPES[suffix], headers=_HEADERS)


def mount_pages(app: FastAPI) -> None:
    """Add the pages, the static files, ``GET /api/bots`` (the lobby's seat choices),
    ``GET /api/rules`` and ``GET /api/table-settings`` (its form's fields)."""
    app.include_router(router)
    app.include_router(bots_api.router)
    app.include_router(rules_api.router)
    app.include_router(settings_api.router)
