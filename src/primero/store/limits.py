"""What the server's limits count, read from the database so that every process sharing
it counts the same tables (docs/protocol.md "Limits": ``--create-rate``, ``--max-tables``).

The functions are synchronous and short; the server calls them off its event loop.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection

from primero.store.schema import tables

__all__ = ["LIVE", "creator_hash", "live_tables", "set_creator", "tables_created_since"]

#: The statuses that count towards ``--max-tables`` (a table still taking resources).
LIVE = ("waiting", "playing", "paused")


def creator_hash(address: str) -> str:
    """The SHA-256 hex digest kept for a client address (never the address itself)."""
    return hashlib.sha256(address.encode("utf-8", "surrogatepass")).hexdigest()


def live_tables(conn: Connection) -> int:
    """How many tables are ``waiting``, ``playing`` or ``paused``."""
    return int(conn.execute(select(func.count()).where(tables.c.status.in_(LIVE))).scalar_one())


def tables_created_since(conn: Connection, creator: str, since: int) -> tuple[int, int | None]:
    """How many tables ``creator`` (a :func:`creator_hash`) created at unix second
    ``since`` or later, and the oldest such creation time (None when there is none)."""
    row = conn.execute(
        select(func.count(), func.min(tables.c.created)).where(
            tables.c.creator == creator, tables.c.created >= since
        )
    ).one()
    return int(row[0]), None if row[1] is None else int(row[1])


def set_creator(conn: Connection, table_id: str, creator: str) -> None:
    """Record who created table ``table_id`` (a :func:`creator_hash`)."""
    conn.execute(update(tables).where(tables.c.id == table_id).values(creator=creator))
