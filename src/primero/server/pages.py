"""The web client's pages: the lobby at ``/``, the table at ``/t/{id}``, files under ``/static``.

Every file comes from the package (``primero/web/``): no request leaves the server's own
origin. Pages carry a strict Content-Security-Policy (scripts, styles, images and
connections from this origin only; no inline script or style), so that even a name or
chat line that slipped through as markup could not run (the client sets text only with
``textContent`` anyway).
"""

from __future__ import annotations

import io
from importlib import resources
from pathlib import Path

import segno
from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, Response

from primero.server import bots_api

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


def _page(name: str) -> Response:
    return FileResponse(WEB_DIR / name, media_type=_TYPES[".html"], headers=_HEADERS)


@router.get("/")
def lobby() -> Response:
    """The lobby: the tables, create a table, join, watch."""
    return _page("index.html")


@router.get("/t/{table_id}")
def table_page(table_id: str) -> Response:
    """The table page; the client reads the table id from the address."""
    return _page("table.html")


@router.get("/t/{table_id}/qr.svg")
def table_qr(table_id: str, request: Request, seat: int | None = None) -> Response:
    """A QR code (SVG, drawn by segno) of the table's address on this server, for a phone
    to open: ``?seat=k`` (0-based) names an open seat to join.

    Raises:
        HTTPException: 404 for an id that is not a table id's shape.
    """
    if not table_id.isalnum() or len(table_id) > 32:
        raise HTTPException(status_code=404, detail="no such table")
    base = str(request.base_url).rstrip("/")
    url = f"{base}/t/{table_id}" + ("" if seat is None else f"?seat={seat}")
    out = io.BytesIO()
    title = "QR code of the table's address" if seat is None else f"QR code to join seat {seat + 1}"
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, title=title)
    return Response(out.getvalue(), media_type=_TYPES[".svg"], headers=_HEADERS)


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
    """Add the pages, the static files and ``GET /api/bots`` (the lobby's seat choices)."""
    app.include_router(router)
    app.include_router(bots_api.router)
