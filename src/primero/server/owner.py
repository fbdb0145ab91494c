"""The owner of a table: the only writer of the table this process drives (with several
processes, while it holds the table's lease; docs/protocol.md "Several processes").

Every change follows docs/protocol.md's "Writing comes first", in one path: computed
aside (on the model, or a draft of the match), stored in a transaction of the table's
own with the version checked in the ``WHERE`` clause (:meth:`TableOwner.store_change`:
the fence), then applied in memory, then published (:meth:`TableOwner.publish`). A write
that fails changes nothing anyone sees: a person's move gets ``error`` with ``"retry":
true``; the dealer's, a bot's or the timer's move is tried again by the driver within a
second. The values a write needs are captured before it is queued.

Each change runs in a command of the table's one queue (:mod:`primero.server.actor`): a
person's move (:meth:`TableOwner.act`), a seat taken (:meth:`TableOwner.take_seat`), and
the driver's, the host's and the presence changes, which call :meth:`TableOwner.changed_by`
or :meth:`TableOwner.store_change`; a write outside a command is refused.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from primero.engine.actions import Action
from primero.engine.errors import PrimeroError
from primero.play.tablemodel import TableModel
from primero.server import seatchange, seating
from primero.server.actor import Command
from primero.server.refusals import BadRequest, Conflict, checked_joiner, error_message
from primero.server.security import new_token
from primero.server.table import Connection, TableState
from primero.server.writer import NotOwner, VersionMoved, Write, WriteFailed
from primero.store import AlreadyApplied, LineRow, StaleVersion
from primero.store.evening import drop_request, save_presence, set_host_seat

__all__ = ["TableOwner"]

log = logging.getLogger("primero.server")


class TableOwner:
    """The writer of one table (see the module docstring).

    Args:
        table: the table it writes.
    """

    def __init__(self, table: TableState) -> None:
        self.table = table

    async def store_change(
        self, build: Callable[[int, int], Write], *, urgent: bool = False
    ) -> int:
        """Store one change: ``build(expected, new)`` is the write from this version to
        the next, its values captured now. Returns the new version (not yet published).

        Raises:
            WriteFailed: the database did not take it (nothing was kept).
            AlreadyApplied: a person's action id was already stored.
            StaleVersion: the stored version moved on (this process is not the owner).
            RuntimeError: not called in a command of this table (the one writer).
        """
        table = self.table
        if not table.commands.in_command():
            raise RuntimeError(f"table {table.row.id}: a change written outside its commands")
        expected = table.row.version
        new = expected + 1
        write, fence, table_id = build(expected, new), table.hub.fence, table.row.id

        def fenced(conn: Any) -> Any:  # checked in the writer thread, just before writing
            if not fence(table_id):
                raise NotOwner(f"table {table_id}: this process does not hold its lease")
            return write(conn)

        try:
            await table.hub.writer.write(fenced, urgent=urgent)
        except (AlreadyApplied, StaleVersion):
            raise
        except Exception as exc:
            log.warning("table %s: a write failed: %s", table.row.id, WriteFailed(exc))
            raise WriteFailed(exc) from exc
        return new

    def line_write(
        self, model: TableModel, action: Action, seat: int | None, action_id: str | None
    ) -> Callable[[int, int], Write]:
        """The write of ``action``, the next line of ``model``'s hand (``seat`` and
        ``action_id``: a person's move; None: the dealer's, a bot's), to pass to
        :meth:`store_change`."""
        hand = model.hand
        assert hand is not None
        table_id, number, idx = self.table.row.id, model.hand_number, len(hand.actions)
        text, store = action.line(), self.table.store

        def build(expected: int, new: int) -> Write:
            row = LineRow(table_id, number, idx, text, seat, action_id, new)
            return lambda conn: store.add_line(conn, row, expected)

        return build

    async def changed_by(
        self, write: Write, *, status: str | None = None, restart: bool = True
    ) -> int:
        """Store a change of a person, the host or the sweep (in a command of the table)
        in this table's own transaction: ``write(conn)``, then the version moved on (checked in
        the ``WHERE`` clause) and the ``status`` set when given. The caller applies the
        change in memory only after, then calls :meth:`publish` with the version returned.

        Args:
            restart: on a version conflict, restart the driver from the store soon (False:
                the caller brings the table back itself, see :meth:`reread`).

        Raises:
            VersionMoved: the stored version is not this table's (nothing was kept).
            WriteFailed: the database did not take it (nothing was kept).
        """
        table_id, store = self.table.row.id, self.table.store
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
                self.table.restart_soon()
            raise VersionMoved(exc) from exc

    async def reread(self) -> bool:
        """Bring this table back to what is stored (in a command of the table): its driver
        stopped, the row read back, the match replayed, then a new driver started. Used by a
        change that must not be lost to a version conflict (a person's sit out, sit in, leave
        or rebuy, which do not depend on the state the person saw) before it tries again.

        Returns:
            False when the table cannot go on here (it is stopping, or does not replay:
            then it is ``"broken"``).
        """
        table = self.table
        if table.stopping:
            return False
        task, table.task = table.task, None
        if task is not None:  # waits for its turn after this command, or on a bot:
            # it stops at once
            task.cancel()
            await asyncio.wait({task}, timeout=2)
        await table.reload()
        if table.row.current is not None:  # the ids stored meanwhile count as applied
            for _line, seat, action_id in table.row.current.lines:
                if seat is not None and action_id is not None:
                    table.remember(seat, action_id)
        if table.row.status != "waiting" and not await table.resume():
            return False
        table.refresh_summary()
        if table.row.status != "waiting":
            table.start()
        return True

    async def end_match(self) -> None:
        """End the match (in a command of the table; the host's end, or nobody there for
        an hour): at once with no hand in progress, else when that hand ends (``pending:
        "end"``); a ``waiting`` table is closed.

        Raises:
            WriteFailed: the database did not take it (nothing changed).
        """
        table = self.table
        model = table.model
        in_hand = model is not None and model.match.hand is not None
        status = table.row.status if in_hand else "over"
        ev = table.evening
        flags = seating.flags_write(
            table.row.id, paused=ev.paused, ended=True, next_table=ev.next_table
        )
        new = await self.changed_by(flags, status=status)
        ev.ended = True
        if model is not None:
            model.match.end()
        table.row.status = status
        self.publish(new)
        table.wake.set()

    def publish(self, version: int) -> None:
        """After a stored change: the new version, the summary, every connection told."""
        self.table.row.version = version
        self.table.refresh_summary()
        self.table.broadcast()
        self.table.hub.notify(self.table, version)

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
        table = self.table
        name, seed = checked_joiner(name, client_seed)
        async with table.commands.command(Command.SEAT):
            if table.broken is not None:
                raise Conflict(f"this table is broken: {table.broken}")
            clash = seatchange.name_clash(self.table, name, request)
            if clash is not None:
                raise BadRequest(clash)
            open_seats = [s for s in table.row.seats if s.kind == "open"]
            if (
                request is not None
                and seat_index is not None
                and table.row.seats[seat_index].kind != "open"
            ):
                seat_index = None  # the seat asked was taken meanwhile: the first open one
            if seat_index is not None and not 0 <= seat_index < len(table.row.seats):
                raise BadRequest(
                    f"seat must be 0 to {len(table.row.seats) - 1} at this table, not {seat_index}"
                )
            if not open_seats:
                raise Conflict("no seat is open at this table")
            if seat_index is None:
                seat = open_seats[0]
            else:
                seat = table.row.seats[seat_index]
                if seat.kind != "open":
                    raise Conflict(f"seat {seat_index} is taken: choose an open seat")
            token = ""
            if digest is None:
                token, digest = new_token()
            start = len(open_seats) == 1 and table.row.status == "waiting"
            status = "playing" if start else table.row.status
            table_id, idx, store = table.row.id, seat.idx, table.store
            kept = digest
            newcomer = seatchange.seat_newcomer(self.table, idx, name)  # a seat opened mid-match
            stack = table.row.stack

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
            table.row.status = status
            seatchange.newcomer_applied(self.table, idx, name)
            if host:
                table.evening.host_seat = idx
            if request is not None:
                table.evening.requests = [r for r in table.evening.requests if r.id != request]
                for c in table.conns:
                    if getattr(c, "request", None) == request:
                        c.request = None  # type: ignore[attr-defined]
                        c.index = idx  # the asker plays the seat now
            self.publish(version)
            table.wake.set()  # a table paused for players may deal again
        if start:
            table.start()
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
        table = self.table
        index = conn.index
        if index is None:
            conn.send(error_message(action_id, "spectators may not act: join the table for a seat"))
            conn.send(table.state(None, conn))
            return
        async with table.commands.command(Command.MOVE):
            table.touched = table.hub.clock.now()
            if action_id in table.recent_ids.get(index, ()):
                conn.send(table.state(index, conn))
                return
            model = table.model
            stale = version is not None and version != table.row.version
            problem = self._refusal()
            action: Action | None = None
            if problem is None and not stale and model is not None:
                try:
                    action = model.parse_line(line, index)
                except (PrimeroError, ValueError) as exc:
                    problem = str(exc)
            # read back from the store, not yet replayed: no state can say the hand now,
            # and the driver sends the replayed one (a state with no hand would be wrong)
            replaying = model is None and table.row.status == "playing" and table.broken is None
            if action is None or model is None:
                if await self._applied_before(index, action_id):
                    if table.model is not None or not replaying:
                        conn.send(table.state(index, conn))
                elif replaying:
                    conn.send(table.retry_message(action_id))
                elif stale and problem is None:
                    conn.send(
                        error_message(
                            action_id,
                            "the table moved on since you chose that move: look again",
                            stale=True,
                        )
                    )
                    conn.send(table.state(index, conn))
                else:
                    conn.send(error_message(action_id, problem or "that move is not possible now"))
                    conn.send(table.state(index, conn))
                return
            try:
                new = await self.store_change(
                    self.line_write(model, action, index, action_id), urgent=True
                )
            except AlreadyApplied:
                table.remember(index, action_id)
                conn.send(table.state(index, conn))
                return
            except WriteFailed:
                table.refuse_to_retry(conn, action_id)
                return
            except Exception:  # the stored version moved on: start again from the store
                log.exception("table %s: a stored move was refused", table.row.id)
                table.refuse_to_retry(conn, action_id)
                table.restart_soon()
                return
            model.apply_person(action, index, now=table.hub.clock.now())
            table.remember(index, action_id)
            self.publish(new)
        table.wake.set()

    def _refusal(self) -> str | None:
        """Why no move can be made at this table now, or None."""
        if self.table.broken is not None:
            return f"this table is broken, no move is possible: {self.table.broken}"
        if self.table.row.status == "over":
            return "the match is over: no action is possible"
        if self.table.model is None or self.table.row.status == "waiting":
            return "the match has not started: it starts when every seat is taken"
        if self.table.model.hand is None or self.table.model.hand.complete:
            return "no hand is in progress: wait for the next deal"
        return None

    async def _applied_before(self, index: int, action_id: str) -> bool:
        """Whether the seat's ``action_id`` is stored (an earlier hand, before a restart);
        False when the database cannot say."""
        table_id, store = self.table.row.id, self.table.store
        try:
            found: bool = await self.table.hub.writer.read(
                lambda: store.applied(table_id, index, action_id)
            )
        except Exception:  # the database is away: the move is refused all the same
            return False
        return found

    def seen_elsewhere(self, seats: list[int]) -> None:
        """The owner hears that these seats are connected to another process (they are
        not away; docs/protocol.md "Presence")."""
        now = self.table.hub.clock.now()
        self.table.last_activity = now
        for i in seats:
            if 0 <= i < len(self.table.row.seats):
                self.table.last_seen[i] = now
                self.table.remote_seen[i] = now
                if self.table.model is not None:
                    self.table.model.match.presence[i].away = False
