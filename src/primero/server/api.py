"""The lobby's REST API under ``/api`` (online.md "Tables")."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query, Request, status

from primero.server.hub import Hub
from primero.server.models import CreateTable, JoinTable, SeatTaken, TableSummary

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
    response_model=TableSummary,
    responses=_ERRORS,
    summary="Create a table",
    description="Seats in table order: `\"open\"` for a person, or a bot kind. A table with "
    "no open seat starts at once (bots only, to watch); otherwise the match starts when the "
    "last open seat is taken.",
)
async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
    """Create a table and answer its summary."""
    rt = await _hub(request).create(body)
    return rt.summary()


@router.get(
    "",
    response_model=list[TableSummary],
    summary="List the tables",
    description="The tables that are not `over` nor `broken`, oldest first; "
    "`?status=over` lists the finished tables, `?status=broken` the stored tables that "
    "cannot go on (each with its `detail`).",
)
async def list_tables(
    request: Request,
    status: Literal["over", "broken"] | None = Query(
        None, description="list only the tables `over`, or only the `broken` ones"
    ),
) -> list[dict[str, Any]]:
    """The summaries of the tables asked for."""
    tables = _hub(request).tables.values()
    if status is None:
        return [t.summary() for t in tables if t.status not in ("over", "broken")]
    return [t.summary() for t in tables if t.status == status]


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
    rt = await _hub(request).touch(table_id)
    seat, token = await rt.take_seat(body.name)
    return {"seat": seat, "token": token}
