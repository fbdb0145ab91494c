"""What game night keeps beside a table (migration ``v0004_evening``): the host token's
hash, the rebuy setting, the host's pause or end, the rematch, each seat's sitting out,
leaving, ledger (``bought_in``) and stand-in bot (``stand_in``, migration ``v0008``), and
the token hashes of people whose seat a bot took.

The writing functions take a connection in a transaction (the server's writer thread
calls them); :func:`load_evening` reads everything once at start.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Engine,
    Integer,
    MetaData,
    String,
    Table,
    delete,
    false,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection

from primero.play.settle import settle_seats

__all__ = [
    "EveningRow",
    "FormerRow",
    "PresenceRow",
    "ledgers",
    "load_evening",
    "save_former",
    "save_host",
    "save_presence",
    "set_flags",
    "set_spectator_chat",
]

metadata = MetaData()

table_hosts = Table(
    "table_hosts",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("host_hash", String(64), nullable=True),
    Column("rebuy", Boolean, nullable=False),
    Column("paused", Boolean, nullable=False),
    Column("ended", Boolean, nullable=False),
    Column("next_table", String(32), nullable=True),
    Column("last_seen", BigInteger, nullable=False),
    Column("spectator_chat", Boolean, nullable=False, server_default=false()),
)

seat_presence = Table(
    "seat_presence",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("sitting_out", Boolean, nullable=False),
    Column("left", Boolean, nullable=False),
    Column("bought_in", BigInteger, nullable=False),
    Column("stand_in", String(32), nullable=True),
)


seat_former = Table(
    "seat_former",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False),
    Column("idx", Integer, nullable=False),
    Column("name", String(100), nullable=False),
    Column("token_hash", String(64), nullable=False),
)


@dataclass(frozen=True, slots=True)
class FormerRow:
    """A person who held seat ``idx`` as ``name`` before a bot took it: the hash of their
    token (docs/protocol.md: they keep access to the hands they were dealt)."""

    idx: int
    name: str
    token_hash: str


@dataclass(frozen=True, slots=True)
class PresenceRow:
    """One seat's presence: sitting out, left, chips bought in (ledger), and the kind of
    the bot playing for a sitting-out person (None: none)."""

    idx: int
    sitting_out: bool
    left: bool
    bought_in: int
    stand_in: str | None = None


@dataclass(slots=True)
class EveningRow:
    """A table's game-night data (defaults for a table stored before it existed)."""

    host_hash: str | None = None
    rebuy: bool = False
    paused: bool = False
    ended: bool = False
    next_table: str | None = None
    seats: list[PresenceRow] = field(default_factory=list)
    former: list[FormerRow] = field(default_factory=list)
    spectator_chat: bool = False


def save_host(conn: Connection, table_id: str, host_hash: str | None, rebuy: bool) -> None:
    """Keep a new table's host token hash and rebuy setting."""
    conn.execute(
        insert(table_hosts).values(
            table_id=table_id,
            host_hash=host_hash,
            rebuy=rebuy,
            paused=False,
            ended=False,
            next_table=None,
            last_seen=0,
        )
    )


def set_flags(
    conn: Connection, table_id: str, *, paused: bool, ended: bool, next_table: str | None
) -> None:
    """Keep the host's pause or end and the rematch's id (a row is made if missing)."""
    old = conn.execute(
        select(table_hosts.c.host_hash, table_hosts.c.rebuy, table_hosts.c.spectator_chat).where(
            table_hosts.c.table_id == table_id
        )
    ).first()
    conn.execute(delete(table_hosts).where(table_hosts.c.table_id == table_id))
    conn.execute(
        insert(table_hosts).values(
            table_id=table_id,
            host_hash=None if old is None else old.host_hash,
            rebuy=False if old is None else old.rebuy,
            paused=paused,
            ended=ended,
            next_table=next_table,
            last_seen=0,
            spectator_chat=False if old is None else old.spectator_chat,
        )
    )


def set_spectator_chat(conn: Connection, table_id: str, open_: bool) -> None:
    """Keep whether spectators may chat at the table (a row is made if missing)."""
    done = conn.execute(
        update(table_hosts).where(table_hosts.c.table_id == table_id).values(spectator_chat=open_)
    )
    if done.rowcount == 0:
        conn.execute(
            insert(table_hosts).values(
                table_id=table_id,
                host_hash=None,
                rebuy=False,
                paused=False,
                ended=False,
                next_table=None,
                last_seen=0,
                spectator_chat=open_,
            )
        )


def save_presence(conn: Connection, table_id: str, rows: Sequence[PresenceRow]) -> None:
    """Keep every seat's presence and ledger (replacing what was kept)."""
    conn.execute(delete(seat_presence).where(seat_presence.c.table_id == table_id))
    if rows:
        conn.execute(
            insert(seat_presence),
            [
                {
                    "table_id": table_id,
                    "idx": r.idx,
                    "sitting_out": r.sitting_out,
                    "left": r.left,
                    "bought_in": r.bought_in,
                    "stand_in": r.stand_in,
                }
                for r in rows
            ],
        )


def load_evening(engine: Engine, table_id: str | None = None) -> dict[str, EveningRow]:
    """Every table's game-night data (or one table's), by table id."""
    out: dict[str, EveningRow] = {}
    hosts, presence, former = select(table_hosts), select(seat_presence), select(seat_former)
    if table_id is not None:
        hosts = hosts.where(table_hosts.c.table_id == table_id)
        presence = presence.where(seat_presence.c.table_id == table_id)
        former = former.where(seat_former.c.table_id == table_id)
    with engine.connect() as conn:
        for r in conn.execute(hosts):
            out[r.table_id] = EveningRow(
                r.host_hash,
                bool(r.rebuy),
                bool(r.paused),
                bool(r.ended),
                r.next_table,
                spectator_chat=bool(r.spectator_chat),
            )
        for r in conn.execute(presence.order_by(seat_presence.c.idx)):
            out.setdefault(r.table_id, EveningRow()).seats.append(
                PresenceRow(r.idx, bool(r.sitting_out), bool(r.left), int(r.bought_in), r.stand_in)
            )
        for r in conn.execute(former.order_by(seat_former.c.id)):
            out.setdefault(r.table_id, EveningRow()).former.append(
                FormerRow(r.idx, r.name, r.token_hash)
            )
    return out


def save_former(conn: Connection, table_id: str, row: FormerRow) -> None:
    """Keep the token hash of a person whose seat a bot took (their hands stay theirs)."""
    conn.execute(
        insert(seat_former).values(
            table_id=table_id, idx=row.idx, name=row.name, token_hash=row.token_hash
        )
    )


def ledgers(engine: Engine, table_id: str | None = None) -> dict[str, dict[str, Any]]:
    """The ledger of every table (or of one), as ``primero hands export`` writes it to
    ``DIR/<table id>/ledger.json``: for each seat its ``name``, ``kind``, ``chips`` (before
    the hand in progress), ``left``, ``sitting_out`` and ``ledger`` (``bought_in``: the
    stack at joining plus every rebuy and top-up; ``net``: chips minus ``bought_in``), and
    ``settle``: who pays whom (:func:`primero.play.settle.settle_seats`)."""
    from primero.store.schema import seats, tables

    evening = load_evening(engine)
    out: dict[str, dict[str, Any]] = {}
    with engine.connect() as conn:
        query = select(tables.c.id, tables.c.name, tables.c.stack, tables.c.status)
        if table_id is not None:
            query = query.where(tables.c.id == table_id)
        for t in conn.execute(query.order_by(tables.c.id)):
            kept = {r.idx: r for r in evening.get(t.id, EveningRow()).seats}
            rows = []
            for s in conn.execute(
                select(seats).where(seats.c.table_id == t.id).order_by(seats.c.idx)
            ):
                p = kept.get(s.idx)
                bought = 0 if s.kind == "open" else (p.bought_in if p and p.bought_in else t.stack)
                rows.append(
                    {
                        "seat": s.idx,
                        "name": s.name,
                        "kind": s.kind,
                        "chips": s.chips if s.kind != "open" else 0,
                        "left": bool(p and p.left),
                        "sitting_out": bool(p and p.sitting_out),
                        "ledger": {
                            "bought_in": bought,
                            "net": (s.chips if s.kind != "open" else 0) - bought,
                        },
                    }
                )
            settle = settle_seats((r["name"], r["kind"], r["ledger"]["net"]) for r in rows)
            out[t.id] = {
                "table": t.id,
                "name": t.name,
                "status": t.status,
                "seats": rows,
                "settle": settle,
            }
    return out
