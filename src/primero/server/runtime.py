"""One table in play on one server (:class:`TableRuntime`): its state (server/table.py),
its owner, the only writer (server/owner.py), and its mirror, which follows a table
another process owns (server/mirror.py). Its changes are the commands of its one queue
(server/actor.py); what one process may ask of another's table is ``ops.OPS``.
"""

from __future__ import annotations

from primero.server.mirror import TableMirror
from primero.server.owner import TableOwner
from primero.server.table import Connection, HubLike, TableState
from primero.store import TableRow

__all__ = ["Connection", "HubLike", "TableRuntime"]


class TableRuntime(TableState):
    """One table, with its owner (:attr:`owner`: its changes, while :attr:`owned`) and
    its mirror (:attr:`mirror`: following the store, while another process owns it).
    Which one is in force moves with the table's lease (server/cluster.py); both work on
    this one object, so that its connections stay where they are.

    Args:
        row: the table as stored.
        hub: the server's tables, store, clock and workers.
    """

    def __init__(self, row: TableRow, hub: HubLike) -> None:
        super().__init__(row, hub)
        self.owner = TableOwner(self)
        self.mirror = TableMirror(self)
