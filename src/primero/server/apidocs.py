"""The API's documentation pages, ``/docs`` (Swagger UI) and ``/redoc``, with every file
served by this server: players on a LAN with no internet get the pages too.

FastAPI's own pages load Swagger UI and ReDoc from a CDN. Here their JavaScript and CSS
come from the ``fastapi-offline`` package's copies (a maintained PyPI package that ships
them as package data), under ``/docs-assets/``; the pages are FastAPI's
(:func:`fastapi.openapi.docs.get_swagger_ui_html`, :func:`~fastapi.openapi.docs.get_redoc_html`)
pointed at those copies. Swagger UI's validator badge (a request to another host) is off.
"""

from __future__ import annotations

import html
import importlib.util
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["ASSETS", "ASSETS_DIR", "mount_docs"]

#: Where the pages' files are served from.
ASSETS = "/docs-assets"


def _assets_dir() -> Path | None:
    """The folder of Swagger UI's and ReDoc's files in the ``fastapi-offline`` package,
    or None when it is not installed (an environment not reinstalled since it became a
    dependency)."""
    if importlib.util.find_spec("fastapi_offline") is None:
        return None
    return Path(str(resources.files("fastapi_offline") / "static"))


#: Swagger UI's and ReDoc's files, as the ``fastapi-offline`` package ships them (None:
#: not installed; ``/docs`` then says where the API is described instead).
ASSETS_DIR = _assets_dir()

#: ``/docs`` and ``/redoc`` without the package: a page of plain text, no script.
_NO_ASSETS = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>primero: the API</title></head>
<body><h1>primero: the API</h1>
<p>The API's pages need the package fastapi-offline (pip install fastapi-offline).
The API is described by the OpenAPI document at <a href="{root}/openapi.json">/openapi.json</a>
and, with every message, in docs/protocol.md.</p></body></html>
"""


def mount_docs(app: FastAPI) -> None:
    """Serve ``/docs``, its OAuth2 redirect page, ``/redoc`` and their files from this
    server. ``app`` must be made with ``docs_url=None, redoc_url=None`` (FastAPI's CDN
    pages off). Without ``fastapi-offline`` installed, ``/docs`` and ``/redoc`` are a
    page of text naming ``/openapi.json`` and docs/protocol.md (never a CDN)."""
    openapi_url = app.openapi_url or "/openapi.json"
    redirect_url = app.swagger_ui_oauth2_redirect_url or "/docs/oauth2-redirect"
    if ASSETS_DIR is None:

        @app.get("/docs", include_in_schema=False)
        @app.get("/redoc", include_in_schema=False)
        async def no_assets(request: Request) -> HTMLResponse:
            root = html.escape(str(request.scope.get("root_path", "")))
            return HTMLResponse(_NO_ASSETS.format(root=root))

        return
    app.mount(ASSETS, StaticFiles(directory=ASSETS_DIR), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_swagger_ui_html(
            openapi_url=f"{root}{openapi_url}",
            title=f"{app.title}: the API",
            oauth2_redirect_url=f"{root}{redirect_url}",
            swagger_js_url=f"{root}{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{root}/static/favicon.svg",
            swagger_ui_parameters={"validatorUrl": None},
        )

    @app.get(redirect_url, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_redoc_html(
            openapi_url=f"{root}{openapi_url}",
            title=f"{app.title}: the API",
            redoc_js_url=f"{root}{ASSETS}/redoc.standalone.js",
            redoc_favicon_url=f"{root}/static/favicon.svg",
            with_google_fonts=False,
        )
