"""Every operation one process may ask of a table's owner, in one table
(docs/protocol.md "Several processes"): a seat taken, a WebSocket message that changes
the table, and the host's requests. The owner runs ``OPS[name](table, args)`` exactly as
its own; the answer is a JSON-able dict (never a state: the asking process builds that).

With one process :meth:`primero.server.hub.Hub.call` runs the same operation here. Add
an operation here, beside its handler's module; nothing registers itself at import.
"""

from __future__ import annotations

from collections.abc import Mapping

from primero.server import api, host_api, joins, ws
from primero.server.cluster import Op

__all__ = ["OPS"]

#: Operation name -> what the owner runs (the name travels in the forwarded request).
OPS: Mapping[str, Op] = {
    "seat": api._seat,  # POST /api/tables/{id}/seats
    "ws": ws._forwarded,  # a table-changing WebSocket message (ws.HANDLERS)
    "host_patch": host_api._patch,  # PATCH /api/tables/{id}
    "host_flag": host_api._set_flag,  # pause and resume
    "host_end": host_api._end,
    "host_bot": host_api._seat_bot,
    "host_rematch": host_api._rematch,
    "host_accept": joins.accept,  # POST /api/tables/{id}/requests/{r}/accept
    "host_refuse": joins.refuse,
    "host_remove": joins.remove,  # DELETE /api/tables/{id}/seats/{k}
    "host_pass": joins.pass_host,  # POST /api/tables/{id}/host
}
