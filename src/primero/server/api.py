"""The lobby's REST API under ``/api`` (online.md "Tables")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, status

from primero.server.models import CreatedTable, CreateTable, JoinTable, SeatTaken, TableSummary
from primero.server.runtime import Hub

__all__ = ["router"]

router = APIRouter(prefix="/api/tables", tags=["tables"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "a bad request: `{\"detail\": \"<what is wrong, in words>\"}`"},
}
_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "no such table"}}


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=CreatedTable,
    responses=_ERRORS,
    summary="Create a table",
    description="Seats in table order: `\"open\"` for a person, or a bot kind. A table with "
    "no open seat starts at once (bots only, to watch); otherwise the match starts when the "
    "last open seat is taken.",
)
async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
    """Create a table and answer its summary."""
    rt = await _hub(request).create(body)
    return {**rt.summary(), "host_token": rt.pop_host_token()}


@router.get(
    "",
    response_model=list[TableSummary],
    summary="List the tables",
    description="Every table of the server, oldest first.",
)
async def list_tables(request: Request) -> list[dict[str, Any]]:
    """The summaries of every table."""
    return [t.summary() for t in _hub(request).tables.values()]


@router.get(
    "/{table_id}",
    response_model=TableSummary,
    responses=_NOT_FOUND,
    summary="One table",
)
async def get_table(table_id: str, request: Request) -> dict[str, Any]:
    """The summary of one table."""
    return _hub(request).get(table_id).summary()


@router.post(
    "/{table_id}/seats",
    status_code=status.HTTP_201_CREATED,
    response_model=SeatTaken,
    responses={
        **_ERRORS,
        **_NOT_FOUND,
        409: {"description": "no seat is open"},
    },
    summary="Take the first open seat",
    description="Answers the seat's 0-based table index and its token, the only proof of "
    "the seat: connect to `/ws/tables/{id}?token=T`. The match starts by itself when the "
    "last open seat is taken.",
)
async def join_table(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
    """Give the first open seat to a person."""
    seat, token = await _hub(request).get(table_id).take_seat(body.name)
    return {"seat": seat, "token": token}
