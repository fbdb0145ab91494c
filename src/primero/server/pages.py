"""The pages: ``/`` (the lobby) and ``/t/{id}`` (a table) from ``primero/web/`` when the
web client is installed, else a minimal placeholder; static files under ``/static``.
The web client's developer owns this module from here on."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["WEB", "mount_pages", "router"]

#: The web client's folder.
WEB = Path(__file__).resolve().parent.parent / "web"

router = APIRouter(include_in_schema=False)

_PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Primero</title></head>
<body><main><h1>Primero</h1>
<p>The web client is not installed in this build. The REST API is under
<a href="/docs">/docs</a>; tables are played over the WebSocket
<code>/ws/tables/{id}?token=T</code> (see docs/protocol.md).</p></main></body></html>
"""


def _page(name: str) -> FileResponse | HTMLResponse:
    path = WEB / name
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return HTMLResponse(_PLACEHOLDER)


@router.get("/", response_model=None)
async def lobby() -> FileResponse | HTMLResponse:
    """The lobby page."""
    return _page("index.html")


@router.get("/t/{table_id}", response_model=None)
async def table_page(table_id: str) -> FileResponse | HTMLResponse:
    """A table's page (the token stays in the fragment or localStorage)."""
    return _page("table.html")


def mount_pages(app: FastAPI) -> None:
    """Add the pages and ``/static`` (when ``primero/web/static`` exists) to ``app``."""
    app.include_router(router)
    static = WEB / "static"
    if static.is_dir():
        app.mount("/static", StaticFiles(directory=static), name="static")
