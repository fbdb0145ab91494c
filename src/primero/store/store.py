"""The server's persistence: tables, seats, hands and applied lines (SQLAlchemy 2).

Every method is synchronous and short. The writing ones take a connection in a
transaction: the server calls them from one writer thread, never on its event loop,
several in one transaction (group commit), committed before anyone is told of them.
SQLite (the default, a file) and PostgreSQL (``postgresql+psycopg://…``) run the same code.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, bindparam, create_engine, event, insert, select, update
from sqlalchemy.engine import Connection

from primero.store.schema import hands, lines, seats, tables

__all__ = ["HandRow", "LineRow", "SeatRow", "Store", "TableRow", "migrate"]

_MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass(frozen=True, slots=True)
class LineRow:
    """An applied line to record: its hand, position, text, the table index and action
    id of a person's line, and the table's version after it."""

    table_id: str
    hand_number: int
    idx: int
    line: str
    seat: int | None
    action_id: str | None
    version: int


@dataclass(slots=True)
class SeatRow:
    """One seat: ``kind`` is ``"open"``, ``"person"`` or a bot kind; chips before the
    current hand."""

    idx: int
    name: str | None
    kind: str
    token_hash: str | None
    chips: int


@dataclass(slots=True)
class HandRow:
    """A hand started at a table: its dealer seed, its lines so far (with the table index
    and action id of a person's line), and its record once finished."""

    number: int
    seed: int
    lines: list[tuple[str, int | None, str | None]] = field(default_factory=list)
    record: str | None = None


@dataclass(slots=True)
class TableRow:
    """A table as kept: set-up, status, version and match progress."""

    id: str
    name: str
    stack: int
    rules: dict[str, Any]
    turn_seconds: int
    max_hands: int | None
    status: str
    version: int
    hands_played: int
    dealer_index: int
    created: int
    seats: list[SeatRow]
    current: HandRow | None = None
    applied_ids: dict[int, set[str]] = field(default_factory=dict)


def migrate(connection: Connection) -> None:
    """Bring the schema on ``connection`` to the newest Alembic revision."""
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def _engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit survives kill -9
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class Store:
    """The database of one server.

    Args:
        url: an SQLAlchemy URL (``sqlite:///primero.db``, ``postgresql+psycopg://…``).

    Raises:
        sqlalchemy.exc.ArgumentError: a malformed URL.
        sqlalchemy.exc.OperationalError: the database cannot be reached (on :meth:`migrate`).
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _engine(url)

    def migrate(self) -> None:
        """Run the migrations to the newest schema (at every start)."""
        with self.engine.begin() as conn:
            migrate(conn)

    def transaction(self) -> Any:
        """A context manager giving a connection in a transaction, committed at its end."""
        return self.engine.begin()

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()

    # ----------------------------------------------------------------- writes

    def create_table(self, conn: Connection, row: TableRow) -> None:
        """Insert a new table and its seats."""
        conn.execute(
            insert(tables).values(
                id=row.id,
                name=row.name,
                stack=row.stack,
                rules=json.dumps(row.rules, sort_keys=True),
                turn_seconds=row.turn_seconds,
                max_hands=row.max_hands,
                status=row.status,
                version=row.version,
                hands_played=row.hands_played,
                dealer_index=row.dealer_index,
                created=row.created or int(time.time()),
            )
        )
        conn.execute(
            insert(seats),
            [
                {
                    "table_id": row.id,
                    "idx": s.idx,
                    "name": s.name,
                    "kind": s.kind,
                    "token_hash": s.token_hash,
                    "chips": s.chips,
                }
                for s in row.seats
            ],
        )

    def take_seat(
        self,
        conn: Connection,
        table_id: str,
        idx: int,
        name: str,
        token_hash: str,
        status: str,
        version: int,
    ) -> None:
        """A person takes open seat ``idx`` (only its token's hash is kept)."""
        conn.execute(
            update(seats)
            .where(seats.c.table_id == table_id, seats.c.idx == idx)
            .values(name=name, kind="person", token_hash=token_hash)
        )
        self._set(conn, table_id, status=status, version=version)

    def start_hand(
        self, conn: Connection, table_id: str, number: int, seed: int, version: int
    ) -> None:
        """Record a new hand and its dealer seed, before any card of it is dealt."""
        conn.execute(insert(hands).values(table_id=table_id, number=number, seed=seed))
        self._set(conn, table_id, version=version)

    def add_lines(self, conn: Connection, rows: Sequence[LineRow]) -> None:
        """Record applied lines (before anyone is told of them), several at once; each
        table's version becomes the highest given, never lower than it was."""
        if not rows:
            return
        conn.execute(
            insert(lines),
            [
                {
                    "table_id": r.table_id,
                    "hand_number": r.hand_number,
                    "idx": r.idx,
                    "line": r.line,
                    "seat": r.seat,
                    "action_id": r.action_id,
                }
                for r in rows
            ],
        )
        newest: dict[str, int] = {}
        for r in rows:
            newest[r.table_id] = max(newest.get(r.table_id, 0), r.version)
        conn.execute(
            update(tables)
            .where(tables.c.id == bindparam("tid"), tables.c.version < bindparam("v"))
            .values(version=bindparam("v")),
            [{"tid": t, "v": v} for t, v in sorted(newest.items())],
        )

    def finish_hand(
        self,
        conn: Connection,
        table_id: str,
        number: int,
        record: str,
        chips: Sequence[int],
        dealer_index: int,
        status: str,
        version: int,
    ) -> None:
        """Store a finished hand's complete record and the match's progress after it."""
        conn.execute(
            update(hands)
            .where(hands.c.table_id == table_id, hands.c.number == number)
            .values(record=record)
        )
        for idx, c in enumerate(chips):
            conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.idx == idx)
                .values(chips=c)
            )
        self._set(
            conn,
            table_id,
            hands_played=number,
            dealer_index=dealer_index,
            status=status,
            version=version,
        )

    def set_status(self, conn: Connection, table_id: str, status: str, version: int) -> None:
        """Change a table's status."""
        self._set(conn, table_id, status=status, version=version)

    @staticmethod
    def _set(conn: Connection, table_id: str, **values: Any) -> None:
        conn.execute(update(tables).where(tables.c.id == table_id).values(**values))

    # ----------------------------------------------------------------- reads

    def load(self) -> list[TableRow]:
        """Every table with its seats, its hand in progress and the applied action ids."""
        out: list[TableRow] = []
        with self.engine.connect() as conn:
            seat_rows: dict[str, list[SeatRow]] = {}
            for r in conn.execute(select(seats).order_by(seats.c.table_id, seats.c.idx)):
                seat_rows.setdefault(r.table_id, []).append(
                    SeatRow(r.idx, r.name, r.kind, r.token_hash, r.chips)
                )
            for r in conn.execute(select(tables).order_by(tables.c.created, tables.c.id)):
                row = TableRow(
                    id=r.id,
                    name=r.name,
                    stack=r.stack,
                    rules=json.loads(r.rules),
                    turn_seconds=r.turn_seconds,
                    max_hands=r.max_hands,
                    status=r.status,
                    version=r.version,
                    hands_played=r.hands_played,
                    dealer_index=r.dealer_index,
                    created=r.created,
                    seats=seat_rows.get(r.id, []),
                )
                current = conn.execute(
                    select(hands).where(
                        hands.c.table_id == r.id,
                        hands.c.number == r.hands_played + 1,
                        hands.c.record.is_(None),
                    )
                ).first()
                if current is not None:
                    row.current = HandRow(current.number, current.seed)
                    for pos in conn.execute(
                        select(lines.c.line, lines.c.seat, lines.c.action_id)
                        .where(lines.c.table_id == r.id, lines.c.hand_number == current.number)
                        .order_by(lines.c.idx)
                    ):
                        row.current.lines.append((pos.line, pos.seat, pos.action_id))
                for ln in conn.execute(
                    select(lines.c.seat, lines.c.action_id).where(
                        lines.c.table_id == r.id, lines.c.action_id.is_not(None)
                    )
                ):
                    row.applied_ids.setdefault(ln.seat, set()).add(ln.action_id)
                out.append(row)
        return out

    def table_ids(self) -> list[str]:
        """The id of every table kept, sorted."""
        with self.engine.connect() as conn:
            return sorted(r.id for r in conn.execute(select(tables.c.id)))

    def finished_hands(self, table_id: str | None = None) -> Iterator[tuple[str, int, str]]:
        """``(table id, hand number, .prh text)`` of every finished hand (of one table)."""
        query = select(hands.c.table_id, hands.c.number, hands.c.record).where(
            hands.c.record.is_not(None)
        )
        if table_id is not None:
            query = query.where(hands.c.table_id == table_id)
        with self.engine.connect() as conn:
            for r in conn.execute(query.order_by(hands.c.table_id, hands.c.number)):
                yield r.table_id, r.number, r.record
