"""The ``hints`` WebSocket message: exact-odds hints for the asking seat (docs/protocol.md).

``{"type": "hints"}`` from a seated client is answered, to that connection only, with
``{"type": "hints", "version": v, "note": ..., "exchange": ..., "showdown": ...}`` as
:func:`primero.play.hints.seat_hints` computes it from that seat's :func:`primero.view` (R9b:
its own cards and discards only). The odds run in the server's worker processes (at
most two at a time), so no table is held up, and are cached per table, seat and
version, so asking again costs nothing until the hand moves on. A spectator gets an
``error``; nothing changes.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from primero.server.actor import Command
from primero.server.runtime import TableRuntime

__all__ = ["HintsIn", "hints_handler"]

#: Cached answers kept at most (oldest dropped first).
CACHE_LIMIT = 512
_cache: dict[tuple[str, int, int], dict[str, Any]] = {}


class HintsIn(BaseModel):
    """``{"type": "hints"}``: ask for the exact odds of this seat's choices."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["hints"]


class _Client(Protocol):
    index: int | None

    def send(self, message: dict[str, Any]) -> None: ...


async def hints_handler(rt: TableRuntime, client: _Client, msg: BaseModel) -> None:
    """Answer a ``hints`` message (see the module docstring)."""
    index = client.index
    if index is None:
        message = "hints are for a seated player, not a spectator"
        client.send({"type": "error", "id": None, "message": message})
        return
    async with rt.commands.command(Command.READ):
        model = rt.model
        version = rt.version
        view = None if model is None or model.hand is None else model.view_for(index)
    key = (rt.row.id, index, version)
    answer = _cache.get(key)
    if answer is None:
        if view is None:
            data: dict[str, Any] = {
                "note": "No hand is being played.",
                "exchange": None,
                "showdown": None,
            }
        else:
            try:
                data = await rt.hub.bots.hints(view)
            except Exception:  # too slow, or the workers restarted: say so, change nothing
                message = "the hints could not be worked out just now: ask again"
                client.send({"type": "error", "id": None, "message": message})
                return
        answer = {"type": "hints", "version": version, **data}
        if len(_cache) >= CACHE_LIMIT:
            del _cache[next(iter(_cache))]
        _cache[key] = answer
    client.send(answer)
