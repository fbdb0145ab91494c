"""The OpenAPI document says what the server does (schemathesis checks it in the tests):

- a request whose fields are missing, of the wrong type or out of range is ``400`` with
  ``{"detail": "<in words>"}`` (the app's handler), never FastAPI's ``422``: every
  ``422`` of the generated document becomes that ``400``;
- the rules' ``min_players`` is at most their ``max_players`` (4 and 6 when absent),
  which JSON Schema says with an ``anyOf`` over the cases;
- a method a path does not take is ``405`` whose ``Allow`` names every method that path
  takes (Starlette names only those of the first route at that path), through
  :func:`method_not_allowed`.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

__all__ = ["PLAYERS_CASES", "method_not_allowed", "tidy_openapi"]

#: ``400``'s words in the document.
BAD_REQUEST = (
    'a bad request: `{"detail": "<what is wrong, in words>"}` (a field missing, of the '
    "wrong type or out of range, or a value the rules refuse)"
)


def _players_cases(low: int = 2, high: int = 8) -> list[dict[str, Any]]:
    """The JSON Schema cases of ``min_players`` <= ``max_players`` (R3; defaults 4, 6)."""
    neither: dict[str, Any] = {
        "not": {"anyOf": [{"required": ["min_players"]}, {"required": ["max_players"]}]}
    }
    only_min = {
        "required": ["min_players"],
        "not": {"required": ["max_players"]},
        "properties": {"min_players": {"maximum": 6}},
    }
    only_max = {
        "required": ["max_players"],
        "not": {"required": ["min_players"]},
        "properties": {"max_players": {"minimum": 4}},
    }
    both = [
        {
            "required": ["min_players", "max_players"],
            "properties": {"min_players": {"const": m}, "max_players": {"minimum": m}},
        }
        for m in range(low, high + 1)
    ]
    return [neither, only_min, only_max, *both]


#: The ``anyOf`` added to the rules' schema.
PLAYERS_CASES = _players_cases()


def _tidy(doc: dict[str, Any]) -> dict[str, Any]:
    for operations in doc.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.get("responses", {})
            if "422" not in responses:
                continue
            del responses["422"]
            answer = responses.setdefault("400", {"description": BAD_REQUEST})
            answer["content"] = {
                "application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}
            }
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    schemas["Problem"] = {
        "title": "Problem",
        "type": "object",
        "properties": {"detail": {"type": "string", "description": "what is wrong, in words"}},
        "required": ["detail"],
    }
    rules = schemas.get("Rules")
    if rules is not None:
        rules["anyOf"] = PLAYERS_CASES
    return doc


def tidy_openapi(app: FastAPI) -> None:
    """Make ``app``'s OpenAPI document (built once, on first request) say what it does."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _tidy(generate())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _allowed(app: FastAPI, path: str) -> set[str]:
    """The methods the OpenAPI document gives ``path`` (its paths' templates matched as
    Starlette matches them: a parameter is one segment)."""
    found: set[str] = set()
    for template, operations in app.openapi().get("paths", {}).items():
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path):
            found |= {m.upper() for m in operations}
    return found


async def method_not_allowed(request: Request, exc: Exception) -> Response:
    """The app's handler of HTTP errors: a ``405``'s ``Allow`` names every method its
    path takes (every operation the OpenAPI document has there); any other error as
    FastAPI answers it."""
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code != 405:
        return await http_exception_handler(request, exc)
    allowed = _allowed(request.app, request.url.path)
    if not allowed:  # a path of no operation (a page): Starlette's own
        allowed = {m.strip() for m in (exc.headers or {}).get("Allow", "").split(",") if m}
    return JSONResponse(
        {"detail": "Method Not Allowed"},
        status_code=405,
        headers={"Allow": ", ".join(sorted(allowed))},
    )
