"""Persistence of the online server: SQLAlchemy 2 tables, Alembic migrations shipped in
the package (run at every start), SQLite by default and PostgreSQL by URL."""

from primero.store.store import (
    AlreadyApplied,
    HandRow,
    LineRow,
    SeatRow,
    StaleVersion,
    Store,
    TableRow,
    migrate,
)

__all__ = [
    "AlreadyApplied",
    "HandRow",
    "LineRow",
    "SeatRow",
    "StaleVersion",
    "Store",
    "TableRow",
    "migrate",
]
