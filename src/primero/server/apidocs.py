"""The API's documentation pages, ``/docs`` (Swagger UI) and ``/redoc``, with every file
served by this server: players on a LAN with no internet get the pages too.

FastAPI's own pages load Swagger UI and ReDoc from a CDN. Here their JavaScript and CSS
come from the ``fastapi-offline`` package's copies (a maintained PyPI package that ships
them as package data), under ``/docs-assets/``; the pages are FastAPI's
(:func:`fastapi.openapi.docs.get_swagger_ui_html`, :func:`~fastapi.openapi.docs.get_redoc_html`)
pointed at those copies. Swagger UI's validator badge (a request to another host) is off.
"""

from __future__ import annotations

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

#: Swagger UI's and ReDoc's files, as the ``fastapi-offline`` package ships them.
ASSETS_DIR = Path(str(resources.files("fastapi_offline") / "static"))


def mount_docs(app: FastAPI) -> None:
    """Serve ``/docs``, its OAuth2 redirect page, ``/redoc`` and their files from this
    server. ``app`` must be made with ``docs_url=None, redoc_url=None`` (FastAPI's CDN
    pages off)."""
    app.mount(ASSETS, StaticFiles(directory=ASSETS_DIR), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"
    redirect_url = app.swagger_ui_oauth2_redirect_url or "/docs/oauth2-redirect"

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
