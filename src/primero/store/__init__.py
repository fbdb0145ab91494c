"""Persistence of the online server: SQLAlchemy 2 tables, Alembic migrations shipped in
the package (run at every start), SQLite by default and PostgreSQL by URL."""

from primero.store.store import HandRow, LineRow, SeatRow, Store, TableRow, migrate

__all__ = ["HandRow", "LineRow", "SeatRow", "Store", "TableRow", "migrate"]
