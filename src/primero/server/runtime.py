"""One table in play on one server: a :class:`TableRuntime` and its driver task.

Every change follows docs/protocol.md's "Writing comes first": it is checked, then stored in a
transaction of this table's own (the table's version checked in the ``WHERE`` clause:
the fencing check a later lease can build on), and only once that is committed applied
in memory and sent. A write that fails changes nothing anyone sees: a person's move gets
``error`` with ``"retry": true``; the dealer's, a bot's or the timer's move is tried
again by the driver within a second, so every table goes on by itself once the database
answers again. The values a write needs are captured before it is queued.

A table's changes are serialized by its lock (held across the write). Its driver task
(deals, bots, timers, hands starting and ending) never dies silently: an unexpected error
restarts it from what is stored; a table that cannot be resumed, or that fails over and
over, is ``"broken"`` with a ``detail`` in words, and every other table goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from primero.engine.actions import Action
from primero.engine.errors import PrimeroError
from primero.engine.fairdeal import ClientSeedError, check_client_seed
from primero.engine.history import parse_record
from primero.engine.rules import Rules
from primero.play.tablemodel import TableModel, seat_guide, seat_note, seat_payload
from primero.server import fairproof, seatchange, seating
from primero.server.botpool import BotPool
from primero.server.chat import chat_refusal
from primero.server.clock import Clock
from primero.server.security import match_token, new_token
from primero.server.settings import TEST_SEED_ENV, Settings, fixed_test_seed
from primero.server.text import TextError, check_person_name, clean
from primero.server.writer import NotOwner, VersionMoved, Write, WriteFailed, Writer
from primero.store import AlreadyApplied, LineRow, StaleVersion, Store, TableRow
from primero.store.evening import (
    EveningRow,
    drop_request,
    load_evening,
    save_presence,
    set_host_seat,
)

__all__ = [
    "TEST_SEED_ENV",
    "BadRequest",
    "Conflict",
    "Connection",
    "HubLike",
    "NotFound",
    "TableRuntime",
    "VersionMoved",
    "WriteFailed",
    "fixed_test_seed",
]

log = logging.getLogger("primero.server")

#: Recently applied action ids kept in memory per seat (older ones: the database).
RECENT_IDS = 64
#: Chat lines a table keeps for the connections that open later (docs/protocol.md).
CHAT_KEPT = 50


class BadRequest(ValueError):
    """A request that cannot be taken (HTTP 400); the message says why."""


class NotFound(LookupError):
    """No such table (HTTP 404)."""


class Conflict(RuntimeError):
    """The request conflicts with the table (HTTP 409), e.g. no open seat."""


class HubLike(Protocol):
    """What a table needs of its server (:class:`primero.server.hub.Hub`)."""

    settings: Settings
    store: Store
    clock: Clock
    writer: Writer
    bots: BotPool
    steps: asyncio.Semaphore

    def drive(self, rt: TableRuntime) -> Coroutine[Any, Any, None]:
        """The driver coroutine of table ``rt`` (:func:`primero.server.driver.run`)."""

    def fence(self, table_id: str) -> bool:
        """Whether this process may write the table now (always, with one process; with
        several, while it surely holds the table's lease). Called in writer threads."""

    def notify(self, rt: TableRuntime, version: int) -> None:
        """The table's version moved on (other processes are told, with several)."""

    def relay_chat(self, table_id: str, message: dict[str, Any]) -> None:
        """A chat line for the connections of the other processes (with several)."""

    async def route(self, rt: TableRuntime, client: Any, kind: Any, msg: Any, handler: Any) -> None:
        """Run a WebSocket message's handler here or on the table's owner."""


class Connection(Protocol):
    """A client connection: its seat (None: a spectator) and a non-blocking send. A
    WebSocket's (``wsclient.Client``) also says whether it was opened with the host
    token (``host``), an asker's (``request``) or a removed person's (``removed``;
    docs/protocol.md "Private tables"), read with ``getattr``."""

    index: int | None

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for the client."""


def error_message(
    action_id: str | None, message: str, *, stale: bool = False, retry: bool = False
) -> dict[str, Any]:
    """An ``error`` message of docs/protocol.md, with its flags when set."""
    out: dict[str, Any] = {"type": "error", "id": action_id, "message": message}
    if stale:
        out["stale"] = True
    if retry:
        out["retry"] = True
    return out


RETRY_WORDS = "the move could not be saved, so it was not made: send it again"

#: Record notation that must not reach a person: a seat label (``p2``) or a quoted line.
_NOTATION = re.compile(r"\bp[1-8]\b|'[^']+'")


def in_words(error: BaseException) -> str:
    """Why a stored table cannot go on, for the people at it (a ``"broken"`` table's
    ``detail``): the error's first line, unless it is the rules' refusal of a stored
    line (``p1 may not bet 99999: …``) or holds record notation; then words that say so
    (the server's log keeps the error itself)."""
    text = str(error).splitlines()[0] if str(error) else ""
    if isinstance(error, PrimeroError) or not text or _NOTATION.search(text):
        return "a stored move does not follow the rules (the log of the server says which)"
    return text


def checked_joiner(name: str, client_seed: str | None) -> tuple[str, str | None]:
    """A joiner's name and client seed as the table keeps them (a join and a join request
    alike): the name by docs/protocol.md "Text" (NFC, no invisible characters, not a label
    the table shows for others), the seed by docs/fair-deals.md ("" or None: none).

    Raises:
        BadRequest: the name or the seed is refused (the reason in words).
    """
    try:
        name = check_person_name(name)
    except TextError as exc:
        raise BadRequest(str(exc)) from None
    try:
        return name, check_client_seed(client_seed) if client_seed else None
    except ClientSeedError as exc:
        raise BadRequest(str(exc)) from None


class TableRuntime:
    """One table: its row (as stored), its model once playing, its connections, its
    driver task.

    Args:
        row: the table as stored.
        hub: the server's tables, store, clock and workers.
    """

    def __init__(self, row: TableRow, hub: HubLike) -> None:
        self.row = row
        self.hub = hub
        self.model: TableModel | None = None
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.conns: set[Connection] = set()
        self.broken: str | None = row.problem
        self.recent_ids: dict[int, deque[str]] = {}
        self.task: asyncio.Task[None] | None = None
        self.crashes: deque[float] = deque()
        self.touched = hub.clock.now()
        self.evicted = False
        self.stopping = False
        self.decided: tuple[int, Action] | None = None
        # several processes (server/cluster.py): whether this process drives the table
        # (else a read-only mirror rebuilt from the store), and the newest version heard
        self.owned = True
        self.heard_version: tuple[int, float | None] = (row.version, None)
        self.remote_seen: dict[int, float] = {}
        self.catching_up = False
        # game night (server/seating.py, host_api.py): host, rebuy, presence, absence
        self.evening = EveningRow()
        self.last_seen: dict[int, float] = {}
        self.last_activity = hub.clock.now()
        self.host_token_once: str | None = None
        self.spectators_seen = 0  # numbers the spectators' chat names ("Spectator 3")
        # between hands (docs/protocol.md "Between hands"): the waits are kept in the
        # evening (``evening.between``), stored with the hand's end
        # the last CHAT_KEPT chat lines, sent to each connection as it opens (in memory:
        # a reload shows them; a server restart forgets them, docs/protocol.md)
        self.chat_lines: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        if row.current is not None:
            for _line, seat, action_id in row.current.lines:
                if seat is not None and action_id is not None:
                    self.remember(seat, action_id)
        self._summary: dict[str, Any] = self._build_summary()

    # ----------------------------------------------------------------- views

    @property
    def store(self) -> Store:
        """The server's store."""
        return self.hub.store

    @property
    def version(self) -> int:
        """The table's version (grows with every change, never otherwise)."""
        return self.row.version

    @property
    def status(self) -> str:
        """``waiting``, ``playing``, ``over`` or ``broken``."""
        return "broken" if self.broken is not None else self.row.status

    def summary(self) -> dict[str, Any]:
        """The table summary of docs/protocol.md (as last written to the store)."""
        return self._summary

    def _build_summary(self) -> dict[str, Any]:
        row = self.row
        model = self.model
        summary = {
            "id": row.id,
            "name": row.name,
            "status": self.status,
            "detail": self.broken,
            "hands_played": row.hands_played,
            "version": row.version,
            "seats": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "chips": model.match.chips[s.idx] if model is not None else s.chips,
                }
                for s in row.seats
            ],
            "stack": row.stack,
            "turn_seconds": row.turn_seconds,
            "max_hands": row.max_hands,
            "rules": dict(row.rules),
            "fair": fairproof.summary_fields(row),
        }
        return seating.merge_summary(summary, seating.summary_extras(self))

    @staticmethod
    def retry_message(action_id: str | None) -> dict[str, Any]:
        """The ``error`` for a change the database did not take (``"retry": true``)."""
        return error_message(action_id, RETRY_WORDS, retry=True)

    def refuse_to_retry(self, conn: Connection, action_id: str | None) -> None:
        """A change the database did not take: ``error`` with ``"retry": true``, then the
        unchanged state (docs/protocol.md: a state follows every refused action), so that the
        client shows the same choices again and its buttons come back."""
        conn.send(self.retry_message(action_id))
        conn.send(self.state(conn.index, conn))

    def refresh_summary(self) -> None:
        """Rebuild the summary for what changes without a version (``connected``)."""
        self._summary = self._build_summary()

    def pop_host_token(self) -> str | None:
        """The host token of a table just created (given once, then forgotten)."""
        token, self.host_token_once = self.host_token_once, None
        return token

    def state(self, index: int | None, conn: Connection | None = None) -> dict[str, Any]:
        """The ``state`` message for table ``index`` (None: a spectator), as connection
        ``conn`` reads it (its ``notice``, the host's ``join_requests``: docs/protocol.md
        "Private tables"; None: as any reader of that seat)."""
        model = self.model
        hand, legal = (None, None) if model is None else seat_payload(model, index)
        deadline = None
        if model is not None and model.person_to_act() is not None:
            deadline = model.deadline
        return {
            "type": "state",
            "version": self.row.version,
            "table": self._summary,
            "hand": hand,
            "legal": legal,
            "deadline": deadline,
            "seat_note": None if model is None else seat_note(model, index),
            "guide": seat_guide(model, index),
            **seatchange.viewer_fields(self, conn),
        }

    def seat_of(self, token: str) -> int | None:
        """The seat holding ``token`` (constant-time compare of hashes), or None."""
        return match_token(token, [(s.idx, s.token_hash) for s in self.row.seats])

    def is_host(self, token: str) -> bool:
        """Whether ``token`` is this table's host token (constant-time compare of hashes)."""
        digest = self.evening.host_hash
        return digest is not None and match_token(token, [(0, digest)]) is not None

    def request_of(self, token: str) -> int | None:
        """The join request made with ``token`` (docs/protocol.md "Private tables"), or
        None (constant-time compare of hashes)."""
        return match_token(token, [(r.id, r.token_hash) for r in self.evening.requests])

    def removed_token(self, token: str) -> bool:
        """Whether ``token`` is that of a person the host removed."""
        former = self.evening.former
        k = match_token(token, [(i, f.token_hash) for i, f in enumerate(former)])
        return k is not None and former[k].removed

    def former_seat(self, token: str) -> tuple[int, str] | None:
        """The seat and name a person held with ``token`` before a bot took it (they keep
        access to the hands they were dealt), or None."""
        former = self.evening.former
        k = match_token(token, [(i, f.token_hash) for i, f in enumerate(former)])
        return None if k is None else (former[k].idx, former[k].name)

    # ----------------------------------------------------------------- writing

    async def store_change(
        self, build: Callable[[int, int], Write], *, urgent: bool = False
    ) -> int:
        """Store one change: ``build(expected, new)`` is the write from this version to
        the next, its values captured now. Returns the new version (not yet published).

        Raises:
            WriteFailed: the database did not take it (nothing was kept).
            AlreadyApplied: a person's action id was already stored.
            StaleVersion: the stored version moved on (this runtime is not the owner).
        """
        expected = self.row.version
        new = expected + 1
        write, fence, table_id = build(expected, new), self.hub.fence, self.row.id

        def fenced(conn: Any) -> Any:  # checked in the writer thread, just before writing
            if not fence(table_id):
                raise NotOwner(f"table {table_id}: this process does not hold its lease")
            return write(conn)

        try:
            await self.hub.writer.write(fenced, urgent=urgent)
        except (AlreadyApplied, StaleVersion):
            raise
        except Exception as exc:
            log.warning("table %s: a write failed: %s", self.row.id, WriteFailed(exc))
            raise WriteFailed(exc) from exc
        return new

    def line_write(
        self, model: TableModel, action: Action, seat: int | None, action_id: str | None
    ) -> Callable[[int, int], Write]:
        hand = model.hand
        assert hand is not None
        table_id, number, idx = self.row.id, model.hand_number, len(hand.actions)
        text, store = action.line(), self.store

        def build(expected: int, new: int) -> Write:
            row = LineRow(table_id, number, idx, text, seat, action_id, new)
            return lambda conn: store.add_line(conn, row, expected)

        return build

    async def changed_by(
        self, write: Write, *, status: str | None = None, restart: bool = True
    ) -> int:
        """Store a change of a person, the host or the sweep (the lock held) in this
        table's own transaction: ``write(conn)``, then the version moved on (checked in
        the ``WHERE`` clause) and the ``status`` set when given. The caller applies the
        change in memory only after, then calls :meth:`publish` with the version returned.

        Args:
            restart: on a version conflict, restart the driver from the store soon (False:
                the caller brings the table back itself, see :meth:`reread`).

        Raises:
            VersionMoved: the stored version is not this runtime's (nothing was kept).
            WriteFailed: the database did not take it (nothing was kept).
        """
        table_id, store = self.row.id, self.store
        values = {} if status is None else {"status": status}

        def build(expected: int, new: int) -> Write:
            def change(conn: Any) -> None:
                write(conn)
                store.bump(conn, table_id, expected, new, **values)

            return change

        try:
            return await self.store_change(build, urgent=True)
        except (StaleVersion, AlreadyApplied) as exc:  # memory is behind the store: reload
            if restart:
                self._restart_soon()
            raise VersionMoved(exc) from exc

    async def reread(self) -> bool:
        """Bring this table back to what is stored (the lock held): its driver stopped, the
        row read back, the match replayed, then a new driver started. Used by a change
        that must not be lost to a version conflict (a person's sit out, sit in, leave or
        rebuy, which do not depend on the state the person saw) before it tries again.

        Returns:
            False when the table cannot go on here (it is stopping, or does not replay:
            then it is ``"broken"``).
        """
        if self.stopping:
            return False
        task, self.task = self.task, None
        if task is not None:  # waits on the lock held here, or on a bot: it stops at once
            task.cancel()
            await asyncio.wait({task}, timeout=2)
        await self.reload()
        if self.row.current is not None:  # the ids stored meanwhile count as applied
            for _line, seat, action_id in self.row.current.lines:
                if seat is not None and action_id is not None:
                    self.remember(seat, action_id)
        if self.row.status != "waiting" and not await self.resume():
            return False
        self._summary = self._build_summary()
        if self.row.status != "waiting":
            self.start()
        return True

    async def end_match(self) -> None:
        """End the match (the lock held; the host's end, or nobody there for an hour): at
        once with no hand in progress, else when that hand ends (``pending: "end"``); a
        ``waiting`` table is closed.

        Raises:
            WriteFailed: the database did not take it (nothing changed).
        """
        model = self.model
        in_hand = model is not None and model.match.hand is not None
        status = self.row.status if in_hand else "over"
        ev = self.evening
        flags = seating.flags_write(
            self.row.id, paused=ev.paused, ended=True, next_table=ev.next_table
        )
        new = await self.changed_by(flags, status=status)
        ev.ended = True
        if model is not None:
            model.match.end()
        self.row.status = status
        self.publish(new)
        self.wake.set()

    def publish(self, version: int) -> None:
        """After a stored change: the new version, the summary, every connection told."""
        self.row.version = version
        self._summary = self._build_summary()
        self._broadcast()
        self.hub.notify(self, version)

    def _broadcast(self) -> None:
        cache: dict[tuple[Any, ...], dict[str, Any]] = {}
        for conn in list(self.conns):
            key = (
                conn.index,
                seatchange.is_host_connection(self, conn),
                getattr(conn, "request", None),
                getattr(conn, "removed", False),
            )
            if key not in cache:
                cache[key] = self.state(conn.index, conn)
            conn.send(cache[key])

    def remember(self, seat: int, action_id: str) -> None:
        ids = self.recent_ids.setdefault(seat, deque(maxlen=RECENT_IDS))
        ids.append(action_id)

    # ----------------------------------------------------------------- people

    async def take_seat(
        self,
        name: str,
        seat_index: int | None = None,
        digest: str | None = None,
        client_seed: str | None = None,
        *,
        request: int | None = None,
        host: bool = False,
    ) -> tuple[int, str]:
        """Give seat ``seat_index`` (0-based table order; None: the first open seat) to
        the person ``name``.

        Args:
            digest: the hash of a token made by another process (which keeps the token:
                it never crosses Redis); None: a token is made here.
            client_seed: the person's client seed (docs/fair-deals.md); None or "": the
                public default. Stored with the seat; never changed by the server.
            request: the join request the host accepted (docs/protocol.md "Private
                tables"): forgotten in the same write, its connections seated; a seat
                asked that is taken meanwhile gives the first open one.
            host: the join carried the host token: the seat is the host's (``host_seat``).

        Returns:
            ``(seat, token)`` (token ``""`` when ``digest`` was given).

        Raises:
            BadRequest: a bad name, or one already at the table; a client seed longer
                than 64 characters or not printable ASCII (the reason in words).
            Conflict: no seat is open, or the table is broken.
            WriteFailed: the database did not take it (HTTP 503).
        """
        name, seed = checked_joiner(name, client_seed)
        async with self.lock:
            if self.broken is not None:
                raise Conflict(f"this table is broken: {self.broken}")
            clash = seatchange.name_clash(self, name, request)
            if clash is not None:
                raise BadRequest(clash)
            open_seats = [s for s in self.row.seats if s.kind == "open"]
            if (
                request is not None
                and seat_index is not None
                and self.row.seats[seat_index].kind != "open"
            ):
                seat_index = None  # the seat asked was taken meanwhile: the first open one
            if seat_index is not None and not 0 <= seat_index < len(self.row.seats):
                raise BadRequest(
                    f"seat must be 0 to {len(self.row.seats) - 1} at this table, not {seat_index}"
                )
            if not open_seats:
                raise Conflict("no seat is open at this table")
            if seat_index is None:
                seat = open_seats[0]
            else:
                seat = self.row.seats[seat_index]
                if seat.kind != "open":
                    raise Conflict(f"seat {seat_index} is taken: choose an open seat")
            token = ""
            if digest is None:
                token, digest = new_token()
            start = len(open_seats) == 1 and self.row.status == "waiting"
            status = "playing" if start else self.row.status
            table_id, idx, store = self.row.id, seat.idx, self.store
            kept = digest
            newcomer = seatchange.seat_newcomer(self, idx, name)  # a seat opened mid-match
            stack = self.row.stack

            def build(expected: int, new: int) -> Write:
                def write(conn: Any) -> None:
                    store.take_seat(conn, table_id, idx, name, kept, status, expected, new, seed)
                    if request is not None:
                        drop_request(conn, request)
                    if host:
                        set_host_seat(conn, table_id, idx)
                    if newcomer is not None:
                        store.set_chips(conn, table_id, [(idx, stack)])
                        save_presence(conn, table_id, newcomer)

                return write

            version = await self.store_change(build, urgent=True)
            seat.name, seat.kind, seat.token_hash = name, "person", kept
            seat.client_seed = seed
            seat.chips = stack if newcomer is not None else seat.chips
            self.row.status = status
            seatchange.newcomer_applied(self, idx, name)
            if host:
                self.evening.host_seat = idx
            if request is not None:
                self.evening.requests = [r for r in self.evening.requests if r.id != request]
                for c in self.conns:
                    if getattr(c, "request", None) == request:
                        c.request = None  # type: ignore[attr-defined]
                        c.index = idx  # the asker plays the seat now
            self.publish(version)
            self.wake.set()  # a table paused for players may deal again
        if start:
            self.start()
        return seat.idx, token

    async def act(
        self, conn: Connection, action_id: str, line: str, version: int | None = None
    ) -> None:
        """A person's proposed action line (its seat is the connection's), chosen in the
        state of ``version`` (None: not said).

        An id already applied for this seat is not applied again: ``conn`` gets the
        current state and no error. A stale ``version`` gets ``error`` with ``"stale":
        true`` and the current state; any other refusal an ``error`` and the state; a
        move the database did not take ``error`` with ``"retry": true``. Nothing changes
        but by an applied move.
        """
        index = conn.index
        if index is None:
            conn.send(error_message(action_id, "spectators may not act: join the table for a seat"))
            conn.send(self.state(None, conn))
            return
        async with self.lock:
            self.touched = self.hub.clock.now()
            if action_id in self.recent_ids.get(index, ()):
                conn.send(self.state(index, conn))
                return
            model = self.model
            stale = version is not None and version != self.row.version
            problem = self._refusal()
            action: Action | None = None
            if problem is None and not stale and model is not None:
                try:
                    action = model.parse_line(line, index)
                except (PrimeroError, ValueError) as exc:
                    problem = str(exc)
            # read back from the store, not yet replayed: no state can say the hand now,
            # and the driver sends the replayed one (a state with no hand would be wrong)
            replaying = model is None and self.row.status == "playing" and self.broken is None
            if action is None or model is None:
                if await self._applied_before(index, action_id):
                    if self.model is not None or not replaying:
                        conn.send(self.state(index, conn))
                elif replaying:
                    conn.send(self.retry_message(action_id))
                elif stale and problem is None:
                    conn.send(
                        error_message(
                            action_id,
                            "the table moved on since you chose that move: look again",
                            stale=True,
                        )
                    )
                    conn.send(self.state(index, conn))
                else:
                    conn.send(error_message(action_id, problem or "that move is not possible now"))
                    conn.send(self.state(index, conn))
                return
            try:
                new = await self.store_change(
                    self.line_write(model, action, index, action_id), urgent=True
                )
            except AlreadyApplied:
                self.remember(index, action_id)
                conn.send(self.state(index, conn))
                return
            except WriteFailed:
                self.refuse_to_retry(conn, action_id)
                return
            except Exception:  # the stored version moved on: start again from the store
                log.exception("table %s: a stored move was refused", self.row.id)
                self.refuse_to_retry(conn, action_id)
                self._restart_soon()
                return
            model.apply_person(action, index, now=self.hub.clock.now())
            self.remember(index, action_id)
            self.publish(new)
        self.wake.set()

    def _refusal(self) -> str | None:
        """Why no move can be made at this table now, or None."""
        if self.broken is not None:
            return f"this table is broken, no move is possible: {self.broken}"
        if self.row.status == "over":
            return "the match is over: no action is possible"
        if self.model is None or self.row.status == "waiting":
            return "the match has not started: it starts when every seat is taken"
        if self.model.hand is None or self.model.hand.complete:
            return "no hand is in progress: wait for the next deal"
        return None

    async def _applied_before(self, index: int, action_id: str) -> bool:
        """Whether the seat's ``action_id`` is stored (an earlier hand, before a restart);
        False when the database cannot say."""
        table_id, store = self.row.id, self.store
        try:
            found: bool = await self.hub.writer.read(
                lambda: store.applied(table_id, index, action_id)
            )
        except Exception:  # the database is away: the move is refused all the same
            return False
        return found

    def chat(self, conn: Connection, text: str) -> None:
        """Send a chat line from the connection's seat, or from a spectator (docs/protocol.md:
        spectators and the host may chat), to everyone at the table. A spectator's line
        is ``from`` its watcher name (``"Spectator 3"``, ``"Host"``) with ``"spectator":
        true``, so that no spectator passes for a seat. The text rules apply to both."""
        try:
            text = clean(text, "a chat line")
        except TextError as exc:
            conn.send(error_message(None, str(exc)))
            return
        if not text.strip():
            conn.send(
                error_message(None, "a chat line must hold a character that is not white space")
            )
            return
        watcher = getattr(conn, "watcher", None)
        refused = chat_refusal(
            self,
            conn,
            spectator=conn.index is None,
            host=watcher == "Host",
            open_=self.evening.spectator_chat,
            clock=self.hub.settings.rate_clock,
        )
        if refused is not None:  # docs/protocol.md: chat is bounded per table
            if refused:  # else told less than a second ago: dropped in silence
                conn.send(error_message(None, refused))
            return
        line: dict[str, Any] = {"type": "chat", "from": "", "text": text}
        if conn.index is None:
            line["from"] = getattr(conn, "watcher", None) or "Spectator"
            line["spectator"] = True
        else:
            line["from"] = self.row.seats[conn.index].name
        self.deliver_chat(line)

    def chat_history(self) -> dict[str, Any]:
        """The ``chat_history`` message: the last :data:`CHAT_KEPT` chat lines this process
        sent or relayed, oldest first."""
        return {"type": "chat_history", "lines": list(self.chat_lines)}

    def deliver_chat(self, message: dict[str, Any], *, relay: bool = True) -> None:
        """Send a chat line to this process's connections (and, with ``relay``, to the
        other processes' through the hub); it is kept among the table's last lines."""
        self.chat_lines.append(message)
        for c in list(self.conns):
            c.send(message)
        if relay:
            self.hub.relay_chat(self.row.id, message)

    # ----------------------------------------------------------------- the driver

    def start(self) -> None:
        """Start (or resume) the match's driver task; the model is built (or replayed
        from the store) in a thread, off the event loop."""
        self.stopping = False
        if self.task is None and self.broken is None:
            self.task = asyncio.get_running_loop().create_task(self.hub.drive(self))

    def _new_model(self, row: TableRow, evening: EveningRow) -> TableModel:
        model = TableModel(
            [s.name or "" for s in row.seats],
            # a seat a removal opened during the match is a left person's (docs/protocol.md)
            [None if s.kind in ("person", "open") else s.kind for s in row.seats],
            stack=row.stack,
            rules=Rules.from_mapping(row.rules),
            max_hands=row.max_hands,
            turn_seconds=row.turn_seconds or None,
            seed=fixed_test_seed(),
            rebuy=evening.rebuy,
            friendly_bots=True,  # bots bet as people at a friendly table
        )
        seating.restore(model, evening)
        return model

    def resumed_model(
        self, now: float, row: TableRow | None = None, evening: EveningRow | None = None
    ) -> TableModel:
        """The match rebuilt from a stored row (None: this runtime's): chips, hands
        played, the dealer, and the hand in progress replayed from its seed and lines
        (the same cards to come). Pure: nothing of this runtime changes.

        Raises:
            Exception: the row does not make a game, or its lines do not replay.
        """
        row = self.row if row is None else row
        model = self._new_model(row, self.evening if evening is None else evening)
        model.match.chips[:] = [s.chips for s in row.seats]
        model.match.hands_played = row.hands_played
        model.match.dealer_index = row.dealer_index
        current = row.current
        if current is not None:
            model.start_hand(current.seed, dealt=current.seats)
            if current.client_seeds is not None and row.server_seed is not None:
                fairproof.install_dealer(model, row, current.client_seeds, current.number)
            for line, _seat, _id in current.lines:
                model.replay_line(line)
            model.refresh_deadline(now)  # a restart gives the person a fresh deadline
        return model

    async def resume(self) -> bool:
        """Build the model, or replay it from the stored row, in a thread (off the event
        loop). A row that does not replay makes the table ``"broken"`` (False)."""
        try:
            model = await asyncio.to_thread(self.resumed_model, self.hub.clock.now())
        except Exception as exc:
            log.error("table %s cannot be resumed: %s: %s", self.row.id, type(exc).__name__, exc)
            self.mark_broken(f"the stored table cannot be resumed: {in_words(exc)}")
            return False
        self.model = model
        self._summary = self._build_summary()
        self._broadcast()  # whoever was sent nothing while it was read back
        return True

    def mark_broken(self, detail: str) -> None:
        """The table cannot go on: ``"broken"`` with ``detail`` in words (record
        notation in it is replaced, see :func:`in_words`; kept in memory; a restart of
        the server tries it again)."""
        log.error("table %s is broken: %s", self.row.id, detail)
        if _NOTATION.search(detail):
            detail = "it could not go on: " + in_words(PrimeroError(detail))
        self.broken = detail
        self._summary = self._build_summary()
        self._broadcast()

    async def reload(self) -> None:
        """Read the table back from the store (the truth); the driver replays it; waits
        while the database cannot be reached."""
        row, evening = await self.stored()
        self.row, self.evening = row, evening
        self.model = None  # the driver replays it
        self.decided = None

    async def stored(self) -> tuple[TableRow, EveningRow]:
        """The table as stored now (its row and its evening), read in one go; nothing
        of this runtime changes (a caller swaps them in at once, so that no state is
        ever built from a new row and an old model). Waits while the database cannot
        be reached.

        Raises:
            RuntimeError: the table is not in the store any more.
        """
        store, table_id, delay = self.store, self.row.id, 0.1
        while True:
            try:
                rows, evening = await self.hub.writer.read(
                    lambda: (store.load(table_id), load_evening(store.engine, table_id))
                )
                break
            except Exception:
                await asyncio.sleep(delay)
                delay = min(1.0, 2 * delay)
        if not rows:
            raise RuntimeError(f"table {table_id} is not in the store any more")
        return rows[0], evening.get(table_id, EveningRow())

    # ----------------------------------------------------------------- mirrors

    def heard(self, version: int, deadline: float | None) -> None:
        """Another process (the owner) says the table is at ``version``: a mirror with
        connections here reads it back from the store (at most one read at a time)."""
        if version > self.heard_version[0]:
            self.heard_version = (version, deadline)
        if self.conns and version > self.row.version and not self.catching_up:
            self.catching_up = True
            asyncio.get_running_loop().create_task(self._catch_up())

    async def _catch_up(self) -> None:
        try:
            while self.conns and not self.owned and self.heard_version[0] > self.row.version:
                before = self.row.version
                await self.refresh()
                if self.row.version == before:
                    break  # not stored yet as far as this read saw: the scan looks again
        finally:
            self.catching_up = False

    async def follow(self) -> None:
        """A mirror reads the table back from the store when the stored version moved on
        past the one it shows (before it answers a resync: a notice of the owner may have
        been lost, or come before the connection). The owner, and a mirror whose database
        does not answer, keep what they have (a resync is always answered)."""
        if self.owned:
            return
        table_id = self.row.id
        try:
            versions = await self.hub.writer.read(self.store.versions)
        except Exception:
            return
        stored = versions.get(table_id)
        if stored is not None and stored[0] != self.row.version:
            await self.refresh()

    async def at_least(self, version: int) -> None:
        """A mirror reads the table back until it is at ``version`` (answered by the
        owner after storing it)."""
        if not self.owned and self.row.version < version:
            await self.refresh(at_least=version)

    def seen_elsewhere(self, seats: list[int]) -> None:
        """The owner hears that these seats are connected to another process (they are
        not away; docs/protocol.md "Presence")."""
        now = self.hub.clock.now()
        self.last_activity = now
        for i in seats:
            if 0 <= i < len(self.row.seats):
                self.last_seen[i] = now
                self.remote_seen[i] = now
                if self.model is not None:
                    self.model.match.presence[i].away = False

    async def refresh(self, *, model: bool = True, at_least: int = 0) -> None:
        """A mirror (a table another process drives): read the row back from the store
        and rebuild the match by replaying the stored lines (``model``: also when nobody
        is connected here); then every connection here gets its state, built by ``view``
        in this process. The stored row and its model are computed aside and swapped in
        at once: no state is ever sent with the new version and the old (or no) hand. A
        finished hand stays shown until the next one is stored. Nothing is read when the
        mirror already reached ``at_least`` (another read did meanwhile). Waits while
        the database cannot be reached."""
        async with self.lock:
            if self.owned or (at_least and self.row.version >= at_least):
                return
            old_model, old_version = self.model, self.row.version
            row, evening = await self.stored()
            if self.owned:  # taken here meanwhile: the owner's own state stands
                return
            if old_model is not None and self.conns:
                await self._show_end(old_model, row)
            if old_model is not None and row.version == old_version:
                self.evening = evening
                return
            keep = (
                old_model is not None
                and row.current is None
                and old_model.hand is not None
                and old_model.hand.complete
                and old_model.hand_number == row.hands_played
            )
            new_model: TableModel | None = None
            if keep or (old_model is not None and self._caught_up(old_model, row, evening)):
                new_model = old_model
            elif (model or self.conns) and row.status != "waiting" and self.broken is None:
                try:
                    new_model = await asyncio.to_thread(
                        self.resumed_model, self.hub.clock.now(), row, evening
                    )
                except Exception as exc:
                    self.row, self.evening, self.model = row, evening, None
                    self.mark_broken(f"the stored table cannot be resumed: {exc}")
                    return
                version, deadline = self.heard_version
                if version == row.version and new_model.deadline is not None:
                    new_model.deadline = deadline
            if self.owned:
                return
            self.row, self.evening, self.model, self.decided = row, evening, new_model, None
            for c in list(self.conns):  # a seat given up or taken by a bot: watching
                if c.index is not None and row.seats[c.index].kind != "person":
                    c.index = None
                seatchange.mirror_marks(c, row, evening)  # accepted, or removed elsewhere
            self.evicted = False
            self._summary = self._build_summary()
            self._broadcast()

    async def _show_end(self, model: TableModel, row: TableRow) -> None:
        """A mirror whose hand in progress has ended since its last read (the owner
        stored the end, ``row``, and may have dealt the next hand already) first shows
        its connections that hand's end, taken from the finished record, so that a
        person connected here sees every showdown and who won what, as at the owner.
        It is sent under the version those connections already hold (never under the
        newer version, whose hand may be the next one)."""
        hand = model.hand
        if hand is None or hand.complete or row.hands_played < model.hand_number:
            return
        table_id, number = row.id, model.hand_number
        text = await self.hub.writer.read(lambda: self.store.hand_record(table_id, number))
        if text is None or self.owned or model is not self.model:
            return
        try:
            lines = parse_record(text).actions
            if list(lines[: len(hand.actions)]) != [a.line() for a in hand.actions]:
                return
            for line in lines[len(hand.actions) :]:
                model.replay_line(line)
        except Exception:  # the caller rebuilds the table from what is stored
            log.debug("table %s: hand %d's end not shown here", table_id, number)
            return
        self._broadcast()

    def _caught_up(self, model: TableModel, row: TableRow, evening: EveningRow) -> bool:
        """A mirror's model of the same hand takes the lines stored since (cheap, no
        replay from the seed); False when it cannot (another hand, a line that does not
        follow): the caller rebuilds it."""
        current, hand = row.current, model.hand
        if current is None or hand is None or model.hand_number != current.number:
            return False
        done = len(hand.actions)
        if done > len(current.lines):
            return False
        try:
            for line, _seat, _id in current.lines[done:]:
                model.replay_line(line)
        except Exception:
            return False
        seating.restore(model, evening)
        version, deadline = self.heard_version
        if version == row.version:
            model.deadline = deadline
        return True

    def idle(self, now: float, seconds: float) -> bool:
        """Whether the table may leave memory: nobody connected for ``seconds``, and it
        is over, or waits for a person with no timer running."""
        model = self.model
        if self.conns or self.evicted or self.broken is not None or now - self.touched < seconds:
            return False
        if self.row.status == "over":
            return True
        return (
            model is not None
            and model.hand is not None
            and model.person_to_act() is not None
            and model.deadline is None
        )

    async def evict(self) -> None:
        """Leave memory (the store keeps everything); :meth:`Hub.touch` reads it back."""
        await self.stop()
        async with self.lock:
            self.model = None
            self.row.current = None
            self.recent_ids.clear()
            self.evicted = True

    def _restart_soon(self) -> None:
        task = self.task
        if task is not None:
            task.cancel()
            self.task = None

            async def restart() -> None:
                async with self.lock:
                    await self.reload()
                self.start()

            asyncio.get_running_loop().create_task(restart())

    async def stop(self) -> None:
        """Stop the driver task (the hand in progress stays kept as far as it went)."""
        task, self.task = self.task, None
        self.stopping = True  # Python 3.11's wait_for can swallow a cancel: the driver
        self.wake.set()
        if task is not None:  # also looks at this flag before each step
            task.cancel()
            with contextlib.suppress(BaseException):  # cancelled, or it had stopped
                await task
