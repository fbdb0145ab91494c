"""The lobby's REST API under ``/api`` (docs/protocol.md "REST: the lobby")."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response, status

from primero.server.hub import Hub
from primero.server.joins import ask
from primero.server.limits import CreateGate, TooMany
from primero.server.models import CreatedTable, CreateTable, JoinTable, SeatTaken, TableSummary
from primero.server.runtime import TableRuntime
from primero.server.security import bearer_token, new_token

__all__ = ["router"]

router = APIRouter(prefix="/api/tables", tags=["tables"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": 'a bad request: `{"detail": "<what is wrong, in words>"}`'},
    413: {"description": "a body over 64 KiB"},
}
_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "no such table"}}
_TOO_MANY: dict[int | str, dict[str, Any]] = {
    429: {
        "description": "too many tables: this address created `--create-rate` tables (default "
        "10) in the last minute, or `--max-tables` tables (default 500) are waiting, playing "
        "or paused; `Retry-After` says how many seconds to wait",
        "headers": {"Retry-After": {"schema": {"type": "integer"}}},
    }
}
#: Tables in one page of the lobby.
PAGE_SIZE = 50
#: The highest page asked for (past the last table a page is empty).
MAX_PAGE = 1_000_000


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _gate(request: Request) -> CreateGate:
    state = request.app.state
    gate: CreateGate | None = getattr(state, "create_gate", None)
    if gate is None:
        hub = _hub(request)
        gate = state.create_gate = CreateGate(hub.settings, hub.store)
    return gate


def client_address(request: Request) -> str:
    """The client's address: the connection's (uvicorn puts ``X-Forwarded-For`` there only
    for a proxy of ``--forwarded-allow-ips``)."""
    return request.client.host if request.client is not None else "unknown"


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=CreatedTable,
    responses={**_ERRORS, **_TOO_MANY},
    summary="Create a table",
    description='Seats in table order: `"open"` for a person, or a bot kind. A table with '
    "no open seat starts at once (bots only, to watch); otherwise the match starts when the "
    "last open seat is taken. Limits: `--create-rate` tables a minute from one client "
    "address (default 10), `--max-tables` tables waiting, playing or paused (default 500); "
    "past either, `429` with `Retry-After`.",
)
async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
    """Create a table and answer its summary (``429`` past a limit)."""
    gate = _gate(request)
    async with gate.lock:
        try:
            creator = await gate.admit(client_address(request))
        except TooMany as exc:
            raise HTTPException(
                status_code=status.HTTP_429_TOO_MANY_REQUESTS,
                detail=str(exc),
                headers={"Retry-After": str(exc.retry_after)},
            ) from None
        rt = await _hub(request).create(body)
        await gate.record(rt.row.id, creator)
    return {**rt.summary(), "host_token": rt.pop_host_token()}


@router.get(
    "",
    response_model=list[TableSummary],
    responses={400: _ERRORS[400]},
    summary="List the tables",
    description='Only the listed tables (created or patched with `"listed": true`; the '
    "others are reached by their link alone). The tables not `over` nor `broken`, newest "
    f"first, {PAGE_SIZE} a page "
    f"(`?page=1`, the default, `?page=2`...); a page shorter than {PAGE_SIZE} is the last. "
    "`?status=over` lists the finished tables the same way, `?status=broken` the stored "
    "tables that cannot go on (each with its `detail`). A bad page is `400`.",
)
async def list_tables(
    request: Request,
    page: Annotated[
        int, Query(ge=1, le=MAX_PAGE, description=f"1 to {MAX_PAGE}; {PAGE_SIZE} tables a page")
    ] = 1,
    status_: Annotated[
        Literal["over", "broken"] | None,
        Query(
            alias="status",
            description='"over": the finished tables instead; "broken": the tables that '
            "cannot go on",
        ),
    ] = None,
) -> list[dict[str, Any]]:
    """One page of the lobby: summaries, newest first."""
    tables = [t for t in await _hub(request).lobby() if t.evening.listed]  # private: unlisted
    if status_ is None:
        chosen = [t for t in tables if t.status not in ("over", "broken")]
    else:
        chosen = [t for t in tables if t.status == status_]
    chosen.reverse()  # the hub keeps tables in creation order
    start = (page - 1) * PAGE_SIZE
    return [t.summary() for t in chosen[start : start + PAGE_SIZE]]


@router.get(
    "/{table_id}",
    response_model=TableSummary,
    responses=_NOT_FOUND,
    summary="One table",
)
async def get_table(table_id: str, request: Request) -> dict[str, Any]:
    """The summary of one table."""
    return (await _hub(request).look(table_id)).summary()


@router.post(
    "/{table_id}/seats",
    status_code=status.HTTP_201_CREATED,
    response_model=SeatTaken,
    responses={
        **_ERRORS,
        **_NOT_FOUND,
        202: {
            "description": 'a join request at an `approval` table: `{"seat": null, '
            '"token": T, "waiting": true}` until the host accepts it',
            "model": SeatTaken,
        },
        409: {"description": "the seat asked for is taken, or no seat is open"},
    },
    summary="Take a seat (the one asked for, or the first open seat)",
    description="`seat` (optional): the 0-based seat in table order; default the first open "
    "seat. Answers the seat's 0-based table index and its token, the only proof of "
    "the seat: connect to `/ws/tables/{id}?token=T`. The match starts by itself when the "
    "last open seat is taken. With `Authorization: Bearer <host_token>` the seat is the "
    "host's own (`host_seat`), seated at once; at an `approval` table any other join is a "
    "request the host answers (`202`, `seat` null, `waiting` true).",
)
async def join_table(
    table_id: str, body: JoinTable, request: Request, response: Response
) -> dict[str, Any]:
    """Give the seat asked for (or the first open seat) to a person, or, at an
    ``approval`` table, keep their request for the host (``202``)."""
    hub = _hub(request)
    rt = await hub.touch(table_id)
    host = False
    given = bearer_token(request.headers.get("authorization"))
    if given is not None:
        if not rt.is_host(given):
            raise HTTPException(403, "that is not this table's host token")
        host = True
    token, digest = new_token()  # made here: a token never crosses Redis, only its hash
    args = {
        "name": body.name,
        "seat": body.seat,
        "digest": digest,
        "client_seed": body.client_seed,
        "host": host,
    }
    answer = await hub.call(rt, "seat", args)
    await rt.mirror.at_least(int(answer["v"]))
    if answer.get("seat") is None:
        response.status_code = status.HTTP_202_ACCEPTED
        return {"seat": None, "token": token, "waiting": True}
    return {"seat": answer["seat"], "token": token, "waiting": False}


async def _seat(rt: TableRuntime, args: dict[str, Any]) -> dict[str, Any]:
    """Take a seat where the table is driven (the token's hash made by the asker); at an
    ``approval`` table a join without the host token is a request (``seat`` None)."""
    if rt.evening.approval and not args.get("host"):
        answer = await ask(
            rt, str(args["name"]), args.get("seat"), str(args["digest"]), args.get("client_seed")
        )
        return {"seat": None, "v": answer["v"]}
    seat, _token = await rt.owner.take_seat(
        str(args["name"]),
        args.get("seat"),
        str(args["digest"]),
        args.get("client_seed"),
        host=bool(args.get("host")),
    )
    return {"seat": seat, "v": rt.row.version}
