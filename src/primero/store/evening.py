"""What game night keeps beside a table (migration ``v0004_evening``): the host token's
hash, the rebuy setting, the host's pause or end, the rematch, each seat's sitting out,
leaving, ledger (``bought_in``) and stand-in bot (``stand_in``, migration ``v0008``), the
token hashes of people whose seat a bot took and their ledger, and the table settings of
migration ``v0009``: the pause after a hand, the rebuy window, the money a chip is worth.

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

from primero.play.settle import chip_rate, settle_seats

__all__ = [
    "EveningRow",
    "FormerRow",
    "PresenceRow",
    "former_ledger",
    "ledgers",
    "load_evening",
    "save_former",
    "save_host",
    "save_presence",
    "set_flags",
    "set_settings",
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
    Column("hand_pause_seconds", Integer, nullable=True),
    Column("rebuy_seconds", Integer, nullable=True),
    Column("chip_value", String(16), nullable=True),
    Column("currency", String(8), nullable=True),
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
    Column("bought_in", BigInteger, nullable=False, server_default="0"),
    Column("chips", BigInteger, nullable=False, server_default="0"),
)


@dataclass(frozen=True, slots=True)
class FormerRow:
    """A person who held seat ``idx`` as ``name`` before a bot took it: the hash of their
    token (docs/protocol.md: they keep access to the hands they were dealt), and their
    ledger: the chips they bought in and the chips they left with (docs/protocol.md
    "Settling up"; 0 and 0 for a row stored before migration ``v0009``)."""

    idx: int
    name: str
    token_hash: str
    bought_in: int = 0
    chips: int = 0


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
    #: seconds a finished hand's result stays (None: the server's ``--hand-pause``)
    hand_pause: int | None = None
    #: seconds the rebuy window lasts (None: the server's ``--rebuy-seconds``)
    rebuy_seconds: int | None = None
    #: the money one chip is worth, a decimal string ("0.10"), or None: chips only
    chip_value: str | None = None
    #: the money's name ("EUR"), or None
    currency: str | None = None


def save_host(
    conn: Connection,
    table_id: str,
    host_hash: str | None,
    rebuy: bool,
    ev: EveningRow | None = None,
) -> None:
    """Keep a new table's host token hash and rebuy setting, and the settings of ``ev``
    (the pauses, the money; None: none)."""
    conn.execute(
        insert(table_hosts).values(
            table_id=table_id,
            host_hash=host_hash,
            rebuy=rebuy,
            paused=False,
            ended=False,
            next_table=None,
            last_seen=0,
            hand_pause_seconds=None if ev is None else ev.hand_pause,
            rebuy_seconds=None if ev is None else ev.rebuy_seconds,
            chip_value=None if ev is None else ev.chip_value,
            currency=None if ev is None else ev.currency,
        )
    )


def set_settings(conn: Connection, table_id: str, ev: EveningRow) -> None:
    """Keep the host's table settings of ``ev``: the pause after a hand, the rebuy window,
    the money a chip is worth (a row is made if missing)."""
    values = {
        "hand_pause_seconds": ev.hand_pause,
        "rebuy_seconds": ev.rebuy_seconds,
        "chip_value": ev.chip_value,
        "currency": ev.currency,
    }
    done = conn.execute(
        update(table_hosts).where(table_hosts.c.table_id == table_id).values(**values)
    )
    if done.rowcount == 0:
        conn.execute(
            insert(table_hosts).values(
                table_id=table_id,
                host_hash=None,
                rebuy=ev.rebuy,
                paused=False,
                ended=False,
                next_table=None,
                last_seen=0,
                **values,
            )
        )


def set_flags(
    conn: Connection, table_id: str, *, paused: bool, ended: bool, next_table: str | None
) -> None:
    """Keep the host's pause or end and the rematch's id (a row is made if missing; the
    row's other columns are kept)."""
    done = conn.execute(
        update(table_hosts)
        .where(table_hosts.c.table_id == table_id)
        .values(paused=paused, ended=ended, next_table=next_table)
    )
    if done.rowcount == 0:
        conn.execute(
            insert(table_hosts).values(
                table_id=table_id,
                host_hash=None,
                rebuy=False,
                paused=paused,
                ended=ended,
                next_table=next_table,
                last_seen=0,
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
                hand_pause=r.hand_pause_seconds,
                rebuy_seconds=r.rebuy_seconds,
                chip_value=r.chip_value,
                currency=r.currency,
            )
        for r in conn.execute(presence.order_by(seat_presence.c.idx)):
            out.setdefault(r.table_id, EveningRow()).seats.append(
                PresenceRow(r.idx, bool(r.sitting_out), bool(r.left), int(r.bought_in), r.stand_in)
            )
        for r in conn.execute(former.order_by(seat_former.c.id)):
            out.setdefault(r.table_id, EveningRow()).former.append(
                FormerRow(r.idx, r.name, r.token_hash, int(r.bought_in), int(r.chips))
            )
    return out


def save_former(conn: Connection, table_id: str, row: FormerRow) -> None:
    """Keep the token hash of a person whose seat a bot took (their hands stay theirs)."""
    conn.execute(
        insert(seat_former).values(
            table_id=table_id,
            idx=row.idx,
            name=row.name,
            token_hash=row.token_hash,
            bought_in=row.bought_in,
            chips=row.chips,
        )
    )


def ledgers(engine: Engine, table_id: str | None = None) -> dict[str, dict[str, Any]]:
    """The ledger of every table (or of one), as ``primero hands export`` writes it to
    ``DIR/<table id>/ledger.json``: for each seat its ``name``, ``kind``, ``chips`` (before
    the hand in progress), ``left``, ``sitting_out`` and ``ledger`` (``bought_in``: the
    stack at joining plus every rebuy and top-up; ``net``: chips minus ``bought_in``),
    ``former``: each person whose seat a bot took, with their ``chips`` and ``ledger``,
    the table's ``chip_value`` and ``currency``, and ``settle``: who pays whom, in chips
    and in money (:func:`primero.play.settle.settle_seats`)."""
    from primero.store.schema import seats, tables

    evening = load_evening(engine)
    out: dict[str, dict[str, Any]] = {}
    with engine.connect() as conn:
        query = select(tables.c.id, tables.c.name, tables.c.stack, tables.c.status)
        if table_id is not None:
            query = query.where(tables.c.id == table_id)
        for t in conn.execute(query.order_by(tables.c.id)):
            ev = evening.get(t.id, EveningRow())
            kept = {r.idx: r for r in ev.seats}
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
            former = former_ledger(ev.former)
            settle = settle_seats(
                [(r["name"], r["kind"], r["ledger"]["net"]) for r in rows]
                + [(f["name"], "person", f["ledger"]["net"]) for f in former],
                chip_rate(ev.chip_value, ev.currency),
            )
            out[t.id] = {
                "table": t.id,
                "name": t.name,
                "status": t.status,
                "seats": rows,
                "former": former,
                "chip_value": ev.chip_value,
                "currency": ev.currency,
                "settle": settle,
            }
    return out


def former_ledger(former: Sequence[FormerRow]) -> list[dict[str, Any]]:
    """The ledger rows of people whose seat a bot took (docs/protocol.md "Settling up"):
    ``{"seat", "name", "chips", "ledger": {"bought_in", "net"}}`` each, chips they left
    with minus chips they bought in. Rows stored before migration ``v0009`` (nothing
    bought in recorded) are left out: their ledger was not kept."""
    return [
        {
            "seat": f.idx,
            "name": f.name,
            "chips": f.chips,
            "ledger": {"bought_in": f.bought_in, "net": f.chips - f.bought_in},
        }
        for f in former
        if f.bought_in
    ]
