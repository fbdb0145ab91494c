"""The server's persistence: tables, seats, hands and applied lines (SQLAlchemy 2).

Every method is synchronous and short. The writing ones take a connection in a
transaction: the server calls them from its writer threads, never on its event loop, each
in a transaction of its own (one table's change), committed before anyone is told of it.
Every write names the table's version it was computed from (``expected``) and the
version after it (``new``): the ``UPDATE`` of the table's row checks ``expected`` in its
``WHERE`` clause and raises :class:`StaleVersion` when the stored version moved on (a
fencing check: a table's writer that is not its owner any more writes nothing).
SQLite (the default, a file) and PostgreSQL (``postgresql+psycopg://…``) run the same code.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, insert, select, update
from sqlalchemy.engine import Connection

from primero.engine.fairdeal import new_server_seed
from primero.store.schema import hands, lines, seats, tables

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

_MIGRATIONS = Path(__file__).parent / "migrations"


class StaleVersion(RuntimeError):
    """The stored version of the table is not the one the write was computed from."""


class AlreadyApplied(RuntimeError):
    """The seat's action id is already stored (docs/protocol.md: applied once)."""


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
    #: The person's client seed (docs/fair-deals.md); None: the public default.
    client_seed: str | None = None


@dataclass(slots=True)
class HandRow:
    """A hand started at a table: its dealer seed, its lines so far (with the table index
    and action id of a person's line), and its record once finished."""

    number: int
    seed: int
    lines: list[tuple[str, int | None, str | None]] = field(default_factory=list)
    record: str | None = None
    #: The table indices dealt in (None: a hand stored before they were kept).
    seats: list[int] | None = None
    #: The client seeds in table order (docs/fair-deals.md); None: the seeded dealer.
    client_seeds: list[str] | None = None


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
    problem: str | None = None  # why the stored row cannot be read (a "broken" table)
    #: The secret server seed, 64 hex characters (docs/fair-deals.md), made with the row;
    #: None for a table stored before fair deals (it keeps the seeded dealer).
    server_seed: str | None = field(default_factory=lambda: new_server_seed().hex())
    #: A new seed every this many hands, the old one revealed (None: one seed, revealed
    #: when the match is over; docs/fair-deals.md "The reveal").
    seed_rotation: int | None = None


def migrate(connection: Connection) -> None:
    """Bring the schema on ``connection`` to the newest Alembic revision."""
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


#: PostgreSQL's ``idle_in_transaction_session_timeout`` for the server's sessions (ms).
IDLE_IN_TRANSACTION_MS = 10_000
#: PostgreSQL's ``statement_timeout`` for the server's sessions (ms): a statement of a
#: stalled database fails within it, and the move is answered ``retry``.
STATEMENT_MS = 3_000
#: PostgreSQL's ``lock_timeout`` for the server's sessions (ms): a row or table lock held
#: by another session (a ``LOCK TABLE``, a frozen process) fails a write within it.
LOCK_MS = 2_000


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
    # A database that does not answer fails a write within seconds (the table then tries
    # again) instead of holding a writer thread for minutes. A session left idle inside a
    # transaction for 10 s (its process stopped or frozen between a write and its commit)
    # is ended by PostgreSQL, so the row locks it holds do not stop the process that took
    # its tables over (docs/protocol.md "Several processes"); a write's transaction lasts
    # milliseconds.
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_timeout=5,
        connect_args={
            "connect_timeout": 3,
            "keepalives": 1,
            "tcp_user_timeout": 5000,
            "options": f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS} "
            f"-c statement_timeout={STATEMENT_MS} -c lock_timeout={LOCK_MS}",
        },
    )


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
        """Run the migrations to the newest schema (at every start), with no statement or
        lock timeout (a migration may rewrite a large table, or wait for another
        process's)."""
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
                conn.exec_driver_sql("SET LOCAL lock_timeout = 0")
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
                server_seed=row.server_seed,
                seed_rotation=row.seed_rotation,
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
                    "client_seed": s.client_seed,
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
        expected: int,
        new: int,
        client_seed: str | None = None,
    ) -> None:
        """A person takes open seat ``idx`` (only its token's hash is kept) with their
        client seed (None: the public default, docs/fair-deals.md).

        Raises:
            StaleVersion: the stored version is not ``expected``.
        """
        self.bump(conn, table_id, expected, new, status=status)
        conn.execute(
            update(seats)
            .where(seats.c.table_id == table_id, seats.c.idx == idx)
            .values(name=name, kind="person", token_hash=token_hash, client_seed=client_seed)
        )

    def start_hand(
        self,
        conn: Connection,
        table_id: str,
        number: int,
        seed: int,
        expected: int,
        new: int,
        status: str | None = None,
        dealt: Sequence[int] | None = None,
        client_seeds: Sequence[str] | None = None,
    ) -> None:
        """Record a new hand, its dealer seed, the table indices ``dealt`` in and the
        client seeds of a fair deal (table order; docs/fair-deals.md), before any card of
        it is dealt (and the table's ``status``, when given: a paused table plays again).

        Raises:
            StaleVersion: the stored version is not ``expected``.
        """
        self.bump(conn, table_id, expected, new, **({} if status is None else {"status": status}))
        kept = None if dealt is None else ",".join(str(i) for i in dealt)
        fair = None if client_seeds is None else json.dumps(list(client_seeds))
        conn.execute(
            insert(hands).values(
                table_id=table_id, number=number, seed=seed, seats=kept, client_seeds=fair
            )
        )

    def add_line(self, conn: Connection, row: LineRow, expected: int) -> None:
        """Record one applied line (before anyone is told of it); the table's version
        becomes ``row.version``.

        Raises:
            StaleVersion: the stored version is not ``expected``.
            AlreadyApplied: the seat's action id is already stored (the unique constraint
                ``uq_lines_action_id`` holds it too).
        """
        self.bump(conn, row.table_id, expected, row.version)
        if row.action_id is not None and self._has_id(conn, row.table_id, row.seat, row.action_id):
            raise AlreadyApplied(row.action_id)
        conn.execute(
            insert(lines).values(
                table_id=row.table_id,
                hand_number=row.hand_number,
                idx=row.idx,
                line=row.line,
                seat=row.seat,
                action_id=row.action_id,
            )
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
        expected: int,
        new: int,
    ) -> None:
        """Store a finished hand's complete record and the match's progress after it.

        Raises:
            StaleVersion: the stored version is not ``expected``.
        """
        self.bump(
            conn,
            table_id,
            expected,
            new,
            hands_played=number,
            dealer_index=dealer_index,
            status=status,
        )
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

    def set_status(
        self, conn: Connection, table_id: str, status: str, expected: int, new: int
    ) -> None:
        """Change a table's status.

        Raises:
            StaleVersion: the stored version is not ``expected``.
        """
        self.bump(conn, table_id, expected, new, status=status)

    @staticmethod
    def set_setup(conn: Connection, table_id: str, *, name: str, turn_seconds: int) -> None:
        """Change a table's name and its turn timer (seconds, 0: none); the caller moves
        the version on in the same transaction (:meth:`bump`)."""
        conn.execute(
            update(tables)
            .where(tables.c.id == table_id)
            .values(name=name, turn_seconds=turn_seconds)
        )

    @staticmethod
    def set_seat(conn: Connection, table_id: str, idx: int, *, name: str | None, kind: str) -> None:
        """Give seat ``idx`` (0-based) to ``name`` of ``kind`` (a bot kind, or ``"open"``
        with ``name`` None); its token's hash is forgotten (the token names no seat)."""
        conn.execute(
            update(seats)
            .where(seats.c.table_id == table_id, seats.c.idx == idx)
            .values(name=name, kind=kind, token_hash=None)
        )

    @staticmethod
    def set_chips(conn: Connection, table_id: str, chips: Sequence[tuple[int, int]]) -> None:
        """Set the chips (before the current hand) of the seats ``(idx, chips)`` given."""
        for idx, c in chips:
            conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.idx == idx)
                .values(chips=c)
            )

    def hand_records(self, table_id: str, number: int | None = None) -> list[tuple[int, str]]:
        """``(hand number, .prh text)`` of a table's finished hands in order (only hand
        ``number`` when given; none when it is not finished or does not exist)."""
        query = select(hands.c.number, hands.c.record).where(
            hands.c.table_id == table_id, hands.c.record.is_not(None)
        )
        if number is not None:
            query = query.where(hands.c.number == number)
        with self.engine.connect() as conn:
            return [(r.number, r.record) for r in conn.execute(query.order_by(hands.c.number))]

    @staticmethod
    def bump(conn: Connection, table_id: str, expected: int, new: int, **values: Any) -> None:
        """Move the table's version from ``expected`` to ``new`` (and set ``values``), the
        version checked in the ``WHERE`` clause.

        Raises:
            StaleVersion: the stored version is not ``expected`` (or no such table).
        """
        done = conn.execute(
            update(tables)
            .where(tables.c.id == table_id, tables.c.version == expected)
            .values(version=new, **values)
        )
        if done.rowcount != 1:
            raise StaleVersion(f"table {table_id}: the stored version is not {expected}")

    @staticmethod
    def _has_id(conn: Connection, table_id: str, seat: int | None, action_id: str) -> bool:
        query = select(lines.c.id).where(
            lines.c.table_id == table_id, lines.c.seat == seat, lines.c.action_id == action_id
        )
        return conn.execute(query.limit(1)).first() is not None

    # ----------------------------------------------------------------- reads

    def applied(self, table_id: str, seat: int, action_id: str) -> bool:
        """Whether seat ``seat`` of the table has an applied line with ``action_id``."""
        with self.engine.connect() as conn:
            return self._has_id(conn, table_id, seat, action_id)

    @contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """A connection whose reads all see one snapshot (PostgreSQL's ``REPEATABLE
        READ``; on SQLite one read transaction, as Python's sqlite3 begins none for a
        SELECT and each statement would see the newest commit), ended when it closes.

        Raises:
            sqlalchemy.exc.OperationalError: the database cannot be reached.
        """
        with self.engine.connect() as plain:
            if self.url.startswith("sqlite"):
                plain.exec_driver_sql("BEGIN")
                yield plain
            else:
                yield plain.execution_options(isolation_level="REPEATABLE READ")

    def load(self, table_id: str | None = None, conn: Connection | None = None) -> list[TableRow]:
        """Every table (or the one ``table_id``) with its seats and the lines of its hand
        in progress (with their action ids). A row that cannot be read is given with its
        ``problem``; the others are read all the same. It reads one snapshot (its own, or
        ``conn``'s from :meth:`snapshot`): a table's version and its lines always agree,
        also while another process writes."""
        if conn is None:
            with self.snapshot() as own:
                return self.load(table_id, own)
        out: list[TableRow] = []
        seat_query = select(seats).order_by(seats.c.table_id, seats.c.idx)
        table_query = select(tables).order_by(tables.c.created, tables.c.id)
        if table_id is not None:
            seat_query = seat_query.where(seats.c.table_id == table_id)
            table_query = table_query.where(tables.c.id == table_id)
        seat_rows: dict[str, list[SeatRow]] = {}
        for r in conn.execute(seat_query):
            seat_rows.setdefault(r.table_id, []).append(
                SeatRow(r.idx, r.name, r.kind, r.token_hash, r.chips, r.client_seed)
            )
        for r in conn.execute(table_query):
            row = TableRow(
                id=r.id,
                name=r.name,
                stack=r.stack,
                rules={},
                turn_seconds=r.turn_seconds,
                max_hands=r.max_hands,
                status=r.status,
                version=r.version,
                hands_played=r.hands_played,
                dealer_index=r.dealer_index,
                created=r.created,
                seats=seat_rows.get(r.id, []),
                server_seed=r.server_seed,
                seed_rotation=r.seed_rotation,
            )
            try:
                row.rules = json.loads(r.rules)
                if not isinstance(row.rules, dict):
                    raise ValueError("the stored rules are not a JSON object")
                if r.status == "playing":
                    row.current = self._current(conn, r.id, r.hands_played + 1)
            except Exception as exc:  # a row this code cannot read: "broken"
                row.rules = {}
                row.problem = f"the stored table cannot be read: {exc}"
            out.append(row)
        return out

    @staticmethod
    def _current(conn: Connection, table_id: str, number: int) -> HandRow | None:
        current = conn.execute(
            select(hands).where(
                hands.c.table_id == table_id,
                hands.c.number == number,
                hands.c.record.is_(None),
            )
        ).first()
        if current is None:
            return None
        hand = HandRow(current.number, current.seed)
        if current.seats:
            hand.seats = [int(i) for i in current.seats.split(",")]
        if current.client_seeds is not None:
            hand.client_seeds = [str(s) for s in json.loads(current.client_seeds)]
        for pos in conn.execute(
            select(lines.c.line, lines.c.seat, lines.c.action_id)
            .where(lines.c.table_id == table_id, lines.c.hand_number == current.number)
            .order_by(lines.c.idx)
        ):
            hand.lines.append((pos.line, pos.seat, pos.action_id))
        return hand

    def versions(self) -> dict[str, tuple[int, str]]:
        """Every table's ``(version, status)`` by id (one small query: the processes of
        a group compare it with their mirrors)."""
        with self.engine.connect() as conn:
            query = select(tables.c.id, tables.c.version, tables.c.status)
            return {r.id: (r.version, r.status) for r in conn.execute(query)}

    def table_ids(self) -> list[str]:
        """The id of every table kept, sorted."""
        with self.engine.connect() as conn:
            return sorted(r.id for r in conn.execute(select(tables.c.id)))

    def hand_record(self, table_id: str, number: int) -> str | None:
        """The ``.prh`` text of finished hand ``number`` (from 1) of a table, or None
        while it is not finished (or there is no such hand)."""
        query = select(hands.c.record).where(hands.c.table_id == table_id, hands.c.number == number)
        with self.engine.connect() as conn:
            record: str | None = conn.execute(query).scalar()
        return record

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
