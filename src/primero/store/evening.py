"""What game night keeps beside a table (migration ``v0004_evening``): the host token's
hash, the rebuy setting, the host's pause or end, the rematch, each seat's sitting out,
leaving, ledger (``bought_in``) and stand-in bot (``stand_in``, migration ``v0008``), and
the token hashes of people whose seat a bot took; since migration ``v0009``: whether
the lobby lists the table and joins wait for the host (``listed``, ``approval``), the
host's seat, the join requests waiting, the removals asked during a hand, and the ledger
of a person whose seat went to a bot or who was removed; since ``v0010`` the table
settings: the pause after a hand, the rebuy window, the money a chip is worth; since
``v0011`` the waits under way between two hands (:class:`Between`).

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
    Float,
    Integer,
    MetaData,
    String,
    Table,
    delete,
    false,
    insert,
    select,
    true,
    update,
)
from sqlalchemy.engine import Connection

from primero.play.settle import chip_rate, settle_seats

__all__ = [
    "Between",
    "EveningRow",
    "FormerRow",
    "PresenceRow",
    "RequestRow",
    "add_request",
    "drop_removal",
    "drop_request",
    "former_ledger",
    "ledgers",
    "load_evening",
    "refuse_request",
    "removed_rows",
    "save_former",
    "save_host",
    "save_presence",
    "save_removal",
    "set_access",
    "set_between",
    "set_flags",
    "set_former_ledger",
    "set_host",
    "set_host_seat",
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
    Column("listed", Boolean, nullable=False, server_default=true()),  # v0009
    Column("approval", Boolean, nullable=False, server_default=false()),  # v0009
    Column("host_seat", Integer, nullable=True),  # v0009
    Column("hand_pause_seconds", Integer, nullable=True),
    Column("rebuy_seconds", Integer, nullable=True),
    Column("chip_value", String(16), nullable=True),
    Column("currency", String(8), nullable=True),
    Column("pause_until", Float, nullable=True),  # v0011
    Column("rebuy_until", Float, nullable=True),  # v0011
    Column("rebuy_wait", String(32), nullable=True),  # v0011
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
    Column("bought_in", BigInteger, nullable=True),  # the ledger of a former person (v0009)
    Column("chips", BigInteger, nullable=True),
    Column("removed", Boolean, nullable=False, server_default=false()),  # v0010
)

join_requests = Table(
    "join_requests",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False, index=True),
    Column("name", String(100), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("token_hash", String(64), nullable=False),
    Column("client_seed", String(64), nullable=True),
    Column("refused", Boolean, nullable=False, server_default=false()),
)

seat_removals = Table(
    "seat_removals",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("kind", String(32), nullable=False),
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
    bought_in: int | None = None  # their ledger when the seat went to someone else
    chips: int | None = None
    removed: bool = False  # the host removed them (else a bot took the seat they left)


@dataclass(frozen=True, slots=True)
class RequestRow:
    """A join request at an ``approval`` table (docs/protocol.md "Private tables"): its
    id, the asker's name, the seat asked (None: the first open one), the hash of the
    asker's token, their client seed, and whether the host refused it."""

    id: int
    name: str
    seat: int | None
    token_hash: str
    client_seed: str | None = None
    refused: bool = False


@dataclass(frozen=True, slots=True)
class PresenceRow:
    """One seat's presence: sitting out, left, chips bought in (ledger), and the kind of
    the bot playing for a sitting-out person (None: none)."""

    idx: int
    sitting_out: bool
    left: bool
    bought_in: int
    stand_in: str | None = None


@dataclass(frozen=True, slots=True)
class Between:
    """The waits between two hands (docs/protocol.md "Between hands"), kept so that a
    restart waits their remainder: when the finished hand's result stops staying and
    when the rebuy window closes (unix seconds; None: no such wait), and the seats the
    window waits for (0-based; a ``no_rebuy`` takes its seat off)."""

    pause_until: float | None = None
    rebuy_until: float | None = None
    rebuy_wait: frozenset[int] = frozenset()


def _seats_text(seats: frozenset[int]) -> str | None:
    """``{0, 2}`` as ``"0,2"`` (None: no seat)."""
    return ",".join(str(i) for i in sorted(seats)) or None


def _seats_of(text: str | None) -> frozenset[int]:
    """:func:`_seats_text` read back (a NULL or "": no seat)."""
    return frozenset(int(x) for x in (text or "").split(",") if x.strip())


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
    listed: bool = True  # a table stored before private tables was in the lobby
    approval: bool = False
    host_seat: int | None = None
    requests: list[RequestRow] = field(default_factory=list)
    removals: dict[int, str] = field(default_factory=dict)  # seat -> bot kind or "open"
    #: seconds a finished hand's result stays (None: the server's ``--hand-pause``)
    hand_pause: int | None = None
    #: seconds the rebuy window lasts (None: the server's ``--rebuy-seconds``)
    rebuy_seconds: int | None = None
    #: the money one chip is worth, a decimal string ("0.10"), or None: chips only
    chip_value: str | None = None
    #: the money's name ("EUR"), or None
    currency: str | None = None
    #: the waits under way between two hands (none: :class:`Between` ``()``)
    between: Between = field(default_factory=Between)


def save_host(
    conn: Connection,
    table_id: str,
    host_hash: str | None,
    rebuy: bool,
    *,
    listed: bool = False,
    approval: bool = False,
    ev: EveningRow | None = None,
) -> None:
    """Keep a new table's host token hash, rebuy setting, whether the lobby lists it and
    joins wait for the host (docs/protocol.md "Private tables"), and the settings of
    ``ev`` (the pauses, the money; None: none)."""
    conn.execute(
        insert(table_hosts).values(
            table_id=table_id,
            host_hash=host_hash,
            rebuy=rebuy,
            paused=False,
            ended=False,
            next_table=None,
            last_seen=0,
            listed=listed,
            approval=approval,
            hand_pause_seconds=None if ev is None else ev.hand_pause,
            rebuy_seconds=None if ev is None else ev.rebuy_seconds,
            chip_value=None if ev is None else ev.chip_value,
            currency=None if ev is None else ev.currency,
        )
    )


def set_settings(conn: Connection, table_id: str, ev: EveningRow) -> None:
    """Keep the host's table settings of ``ev``: the pause after a hand, the rebuy window,
    the money a chip is worth (a row is made if missing)."""
    _set(
        conn,
        table_id,
        hand_pause_seconds=ev.hand_pause,
        rebuy_seconds=ev.rebuy_seconds,
        chip_value=ev.chip_value,
        currency=ev.currency,
    )


def set_between(conn: Connection, table_id: str, between: Between) -> None:
    """Keep the waits under way between two hands (``Between()``: none; a row is made
    if missing)."""
    _set(
        conn,
        table_id,
        pause_until=between.pause_until,
        rebuy_until=between.rebuy_until,
        rebuy_wait=_seats_text(between.rebuy_wait),
    )


def _set(conn: Connection, table_id: str, **values: Any) -> None:
    """Set ``values`` of the table's ``table_hosts`` row (one is made if missing: a table
    stored before game night, listed as it was; the row's other columns are kept)."""
    done = conn.execute(
        update(table_hosts).where(table_hosts.c.table_id == table_id).values(**values)
    )
    if done.rowcount == 0:
        row: dict[str, Any] = {
            "host_hash": None,
            "rebuy": False,
            "paused": False,
            "ended": False,
            "next_table": None,
            "last_seen": 0,
            "spectator_chat": False,
            "listed": True,
            "approval": False,
        }
        row.update(values)
        conn.execute(insert(table_hosts).values(table_id=table_id, **row))


def set_flags(
    conn: Connection, table_id: str, *, paused: bool, ended: bool, next_table: str | None
) -> None:
    """Keep the host's pause or end and the rematch's id (a row is made if missing)."""
    _set(conn, table_id, paused=paused, ended=ended, next_table=next_table)


def set_spectator_chat(conn: Connection, table_id: str, open_: bool) -> None:
    """Keep whether spectators may chat at the table (a row is made if missing)."""
    _set(conn, table_id, spectator_chat=open_)


def set_access(conn: Connection, table_id: str, *, listed: bool, approval: bool) -> None:
    """Keep whether the lobby lists the table and whether joins wait for the host."""
    _set(conn, table_id, listed=listed, approval=approval)


def set_host(conn: Connection, table_id: str, host_hash: str, host_seat: int | None) -> None:
    """Keep a new host token's hash (the old one stops working) and the host's seat."""
    _set(conn, table_id, host_hash=host_hash, host_seat=host_seat)


def set_host_seat(conn: Connection, table_id: str, host_seat: int | None) -> None:
    """Keep the seat the host holds (None: none known)."""
    _set(conn, table_id, host_seat=host_seat)


def add_request(conn: Connection, table_id: str, row: RequestRow) -> int:
    """Keep a join request (``row.id`` is ignored); returns its id."""
    done = conn.execute(
        insert(join_requests).values(
            table_id=table_id,
            name=row.name,
            seat=row.seat,
            token_hash=row.token_hash,
            client_seed=row.client_seed,
            refused=False,
        )
    )
    key = done.inserted_primary_key
    assert key is not None
    return int(key[0])


def refuse_request(conn: Connection, request_id: int) -> None:
    """Keep the host's refusal of a join request (the asker is told)."""
    conn.execute(update(join_requests).where(join_requests.c.id == request_id).values(refused=True))


def drop_request(conn: Connection, request_id: int) -> None:
    """Forget a join request (accepted: its token now holds a seat)."""
    conn.execute(delete(join_requests).where(join_requests.c.id == request_id))


def save_removal(conn: Connection, table_id: str, idx: int, kind: str) -> None:
    """Keep a removal asked during a hand: seat ``idx`` becomes ``kind`` (a bot kind or
    ``"open"``) when the hand ends."""
    conn.execute(insert(seat_removals).values(table_id=table_id, idx=idx, kind=kind))


def drop_removal(conn: Connection, table_id: str, idx: int) -> None:
    """Forget a removal once made."""
    conn.execute(
        delete(seat_removals).where(
            seat_removals.c.table_id == table_id, seat_removals.c.idx == idx
        )
    )


def set_former_ledger(
    conn: Connection, table_id: str, token_hash: str, bought_in: int, chips: int
) -> None:
    """Keep a removed person's ledger row (their chips when the seat changed hands)."""
    conn.execute(
        update(seat_former)
        .where(seat_former.c.table_id == table_id, seat_former.c.token_hash == token_hash)
        .values(bought_in=bought_in, chips=chips, removed=True)
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


def load_evening(source: Engine | Connection, table_id: str | None = None) -> dict[str, EveningRow]:
    """Every table's game-night data (or one table's), by table id: on a connection of
    its own (``source`` an engine), or on ``source`` within the caller's snapshot (see
    ``Store.load``)."""
    if isinstance(source, Connection):
        return _read_evening(source, table_id)
    with source.connect() as conn:
        return _read_evening(conn, table_id)


def _read_evening(conn: Connection, table_id: str | None) -> dict[str, EveningRow]:
    out: dict[str, EveningRow] = {}
    hosts, presence, former = select(table_hosts), select(seat_presence), select(seat_former)
    requests, removals = select(join_requests), select(seat_removals)
    if table_id is not None:
        hosts = hosts.where(table_hosts.c.table_id == table_id)
        presence = presence.where(seat_presence.c.table_id == table_id)
        former = former.where(seat_former.c.table_id == table_id)
        requests = requests.where(join_requests.c.table_id == table_id)
        removals = removals.where(seat_removals.c.table_id == table_id)
    for r in conn.execute(hosts):
        out[r.table_id] = EveningRow(
            r.host_hash,
            bool(r.rebuy),
            bool(r.paused),
            bool(r.ended),
            r.next_table,
            spectator_chat=bool(r.spectator_chat),
            listed=bool(r.listed),
            approval=bool(r.approval),
            host_seat=r.host_seat,
            hand_pause=r.hand_pause_seconds,
            rebuy_seconds=r.rebuy_seconds,
            chip_value=r.chip_value,
            currency=r.currency,
            between=Between(
                None if r.pause_until is None else float(r.pause_until),
                None if r.rebuy_until is None else float(r.rebuy_until),
                _seats_of(r.rebuy_wait),
            ),
        )
    for r in conn.execute(presence.order_by(seat_presence.c.idx)):
        out.setdefault(r.table_id, EveningRow()).seats.append(
            PresenceRow(r.idx, bool(r.sitting_out), bool(r.left), int(r.bought_in), r.stand_in)
        )
    for r in conn.execute(former.order_by(seat_former.c.id)):
        out.setdefault(r.table_id, EveningRow()).former.append(
            FormerRow(
                r.idx,
                r.name,
                r.token_hash,
                None if r.bought_in is None else int(r.bought_in),
                None if r.chips is None else int(r.chips),
                bool(r.removed),
            )
        )
    for r in conn.execute(requests.order_by(join_requests.c.id)):
        out.setdefault(r.table_id, EveningRow()).requests.append(
            RequestRow(r.id, r.name, r.seat, r.token_hash, r.client_seed, bool(r.refused))
        )
    for r in conn.execute(removals):
        out.setdefault(r.table_id, EveningRow()).removals[int(r.idx)] = r.kind
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
            removed=row.removed,
        )
    )


def ledgers(engine: Engine, table_id: str | None = None) -> dict[str, dict[str, Any]]:
    """The ledger of every table (or of one), as ``primero hands export`` writes it to
    ``DIR/<table id>/ledger.json``: for each seat its ``name``, ``kind``, ``chips`` (before
    the hand in progress), ``left``, ``sitting_out`` and ``ledger`` (``bought_in``: the
    stack at joining plus every rebuy and top-up; ``net``: chips minus ``bought_in``),
    ``former``: each person whose seat a bot took, with their ``chips`` and ``ledger``,
    ``removed``: each person the host removed, with theirs,
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
            removed = removed_rows(ev)
            former = former_ledger(ev.former)
            settle = settle_seats(
                [(r["name"], r["kind"], r["ledger"]["net"]) for r in rows]
                + [(f["name"], "person", f["ledger"]["net"]) for f in former]
                + [(r["name"], "person", r["net"]) for r in removed],
                chip_rate(ev.chip_value, ev.currency),
            )
            out[t.id] = {
                "table": t.id,
                "name": t.name,
                "status": t.status,
                "seats": rows,
                "removed": removed,
                "former": former,
                "chip_value": ev.chip_value,
                "currency": ev.currency,
                "settle": settle,
            }
    return out


def removed_rows(evening: EveningRow) -> list[dict[str, Any]]:
    """The ledger rows of the people the host removed (docs/protocol.md "The table
    summary", ``removed``): ``{"name", "bought_in", "chips", "net"}`` in chips, in the
    order they were removed; a removal asked during a hand has its row once that hand
    ended."""
    return [
        {
            "name": f.name,
            "bought_in": f.bought_in,
            "chips": f.chips,
            "net": f.chips - f.bought_in,
        }
        for f in evening.former
        if f.removed and f.bought_in is not None and f.chips is not None
    ]


def former_ledger(former: Sequence[FormerRow]) -> list[dict[str, Any]]:
    """The ledger rows of people whose seat a bot took (docs/protocol.md "Settling up"):
    ``{"seat", "name", "chips", "ledger": {"bought_in", "net"}}`` each, chips they left
    with minus chips they bought in. The people the host removed are :func:`removed_rows`;
    rows stored before migration ``v0009`` (nothing bought in recorded) are left out:
    their ledger was not kept."""
    return [
        {
            "seat": f.idx,
            "name": f.name,
            "chips": f.chips,
            "ledger": {"bought_in": f.bought_in, "net": f.chips - f.bought_in},
        }
        for f in former
        if not f.removed and f.bought_in is not None and f.chips is not None
    ]
