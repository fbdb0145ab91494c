"""Tables in play on one server: each one a :class:`TableRuntime` driven by its own task.

A table's changes are serialized by its lock: an applied line is written to the store
(in the hub's writer thread) before any connection is told, and the version grows with
every applied line, seat taken, hand started or ended. Bot decisions run in a thread pool,
so a slow bot never stalls the event loop or another table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from sqlalchemy.engine import Connection as DbConnection

from primero.bots import BOT_KINDS
from primero.engine.errors import PrimeroError
from primero.engine.history import dump_record
from primero.engine.match import Agent
from primero.engine.rules import Rules, RulesError
from primero.engine.views import SeatView
from primero.play.table import BOT_NAMES
from primero.play.tablemodel import Event, TableModel, least_committal, seat_payload
from primero.server import seating
from primero.server.models import CreateTable
from primero.server.security import check_name, match_token, new_token
from primero.server.settings import Settings
from primero.store import LineRow, SeatRow, Store, TableRow
from primero.store.evening import EveningRow, load_evening, save_host

__all__ = ["BadRequest", "Conflict", "Connection", "Hub", "NotFound", "TableRuntime"]

log = logging.getLogger("primero.server")

#: TEST ONLY: an environment variable holding a whole number that fixes every table's
#: bot seeds and each hand's dealer seed (this number plus the hands already played), so
#: that browser tests can count on the moments they need. It makes R10's live randomness
#: predictable: never set it on a server people play on.
TEST_SEED_ENV = "PRIMERO_TEST_SEED"


def fixed_test_seed() -> int | None:
    """The seed fixed by :data:`TEST_SEED_ENV`, or None (the normal case: secrets)."""
    raw = os.environ.get(TEST_SEED_ENV, "").strip()
    return int(raw) if raw else None
T = TypeVar("T")


class BadRequest(ValueError):
    """A request that cannot be taken (HTTP 400); the message says why."""


class NotFound(LookupError):
    """No such table (HTTP 404)."""


class Conflict(RuntimeError):
    """The request conflicts with the table (HTTP 409), e.g. no open seat."""


class Connection(Protocol):
    """A client connection: its seat (None: a spectator) and a non-blocking send."""

    index: int | None

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for the client."""


class TableRuntime:
    """One table: its row, its model once playing, its connections, its driver task."""

    def __init__(self, row: TableRow, hub: Hub) -> None:
        self.row = row
        self.hub = hub
        self.rules = Rules.from_mapping(row.rules)
        self.model: TableModel | None = None
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.conns: set[Connection] = set()
        self.applied_ids: dict[int, set[str]] = row.applied_ids
        self.task: asyncio.Task[None] | None = None
        self.evening = EveningRow()  # game night: host, rebuy, presence (seating.py)
        self.last_seen: dict[int, float] = {}
        self.last_activity = time.time()
        self.host_token_once: str | None = None
        self._summary: dict[str, Any] = self._build_summary()

    # ----------------------------------------------------------------- views

    @property
    def version(self) -> int:
        """The table's version (grows with every change, never otherwise)."""
        return self.row.version

    def summary(self) -> dict[str, Any]:
        """The table summary of online.md (as last written to the store)."""
        return self._summary

    def _build_summary(self) -> dict[str, Any]:
        row = self.row
        model = self.model
        summary = {
            "id": row.id,
            "name": row.name,
            "status": row.status,
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
        }
        return seating.merge_summary(summary, seating.summary_extras(self))

    def state(self, index: int | None) -> dict[str, Any]:
        """The ``state`` message for table ``index`` (None: a spectator)."""
        hand, legal = (None, None) if self.model is None else seat_payload(self.model, index)
        deadline = None
        if self.model is not None and self.model.person_to_act() is not None:
            deadline = self.model.deadline
        return {
            "type": "state",
            "version": self.row.version,
            "table": self._summary,
            "hand": hand,
            "legal": legal,
            "deadline": deadline,
        }

    def seat_of(self, token: str) -> int | None:
        """The seat holding ``token`` (constant-time compare of hashes), or None."""
        return match_token(token, [(s.idx, s.token_hash) for s in self.row.seats])

    # ----------------------------------------------------------------- changes

    async def changed_by(self, write: Write) -> None:
        """A change asked by a person or the host (the lock held): stored (with the new
        version), then sent."""
        row = self.row

        def with_version(conn: DbConnection) -> None:
            write(conn)
            self.hub.store.set_status(conn, row.id, row.status, row.version)

        await self._changed(with_version, urgent=True)

    async def end_idle(self) -> None:
        """End the match of a table nobody is connected to (the lock held): at once with
        no hand in progress, else when the hand ends; a ``waiting`` table is closed."""
        self.evening.ended = True
        flags = seating.flags_write(self)
        if self.model is not None:
            self.model.match.end()
        if self.model is None or self.model.hand is None or self.model.match.hand is None:
            self.row.status = "over"
            row = self.row

            def write(conn: DbConnection) -> None:
                flags(conn)
                self.hub.store.set_status(conn, row.id, "over", row.version)

            await self._changed(write)
        else:
            await self._changed(flags)

    def refresh_summary(self) -> None:
        """Rebuild the summary for what changes without a version (``connected``)."""
        self._summary = self._build_summary()

    def pop_host_token(self) -> str | None:
        """The host token of a table just created (given once, then forgotten)."""
        token, self.host_token_once = self.host_token_once, None
        return token

    async def _changed(self, write: Write | LineRow, *, urgent: bool = False) -> None:
        """Bump the version, write (in the writer thread), then tell every connection."""
        self.row.version += 1
        await self.hub.write(write, urgent=urgent)
        self._summary = self._build_summary()
        self._broadcast()

    def _broadcast(self) -> None:
        cache: dict[int | None, dict[str, Any]] = {}
        for conn in list(self.conns):
            if conn.index not in cache:
                cache[conn.index] = self.state(conn.index)
            conn.send(cache[conn.index])

    async def take_seat(self, name: str) -> tuple[int, str]:
        """Give the first open seat to the person ``name``.

        Returns:
            ``(seat, token)``.

        Raises:
            BadRequest: a bad name, or one already at the table.
            Conflict: no seat is open.
        """
        problem = check_name(name, "a name", 24)
        if problem is not None:
            raise BadRequest(problem)
        async with self.lock:
            if any(s.name == name for s in self.row.seats):
                raise BadRequest(f"the name {name!r} is already at this table: choose another")
            open_seats = [s for s in self.row.seats if s.kind == "open"]
            if not open_seats:
                raise Conflict("no seat is open at this table")
            seat = open_seats[0]
            token, digest = new_token()
            seat.name, seat.kind, seat.token_hash = name, "person", digest
            start = len(open_seats) == 1
            if start:
                self.row.status = "playing"
            row = self.row
            await self._changed(
                urgent=True,
                write=lambda conn: self.hub.store.take_seat(
                    conn, row.id, seat.idx, name, digest, row.status, row.version
                ),
            )
        if start:
            self.start()
        return seat.idx, token

    def start(self) -> None:
        """Start (or resume) the match's driver task."""
        if self.model is None:
            self.model = self._new_model()
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    def _new_model(self) -> TableModel:
        row = self.row
        model = TableModel(
            [s.name or "" for s in row.seats],
            [None if s.kind == "person" else s.kind for s in row.seats],
            stack=row.stack,
            rules=self.rules,
            max_hands=row.max_hands,
            turn_seconds=row.turn_seconds or None,
            seed=fixed_test_seed(),
            rebuy=self.evening.rebuy,
        )
        seating.restore(model, self.evening)
        return model

    def resume(self) -> None:
        """Rebuild the match from the stored row: chips, hands played, the dealer, and the
        hand in progress replayed from its seed and lines (the same cards to come).

        Raises:
            PrimeroError: the stored lines do not replay (a corrupt database).
        """
        row = self.row
        model = self._new_model()
        model.match.chips[:] = [s.chips for s in row.seats]
        model.match.hands_played = row.hands_played
        model.match.dealer_index = row.dealer_index
        current = row.current
        if current is not None:
            model.start_hand(current.seed)
            for line, _seat, _id in current.lines:
                model.replay_line(line)
            model.refresh_deadline(time.time())  # a restart gives the person a fresh deadline
        self.model = model
        self._summary = self._build_summary()

    async def act(
        self, conn: Connection, action_id: str, line: str, version: int | None = None
    ) -> None:
        """A person's proposed action line (its seat is the connection's).

        An id already applied for this seat is not applied again: ``conn`` alone gets the
        current state. Anything refused gets an ``error`` and changes nothing.
        """
        index = conn.index
        async with self.lock:
            if index is None:
                conn.send(_error(action_id, "spectators may not act: join the table for a seat"))
                return
            if action_id in self.applied_ids.get(index, set()):
                conn.send(self.state(index))
                return
            model = self.model
            if self.row.status == "over":
                conn.send(_error(action_id, "the match is over: no action is possible"))
                return
            if model is None or self.row.status != "playing":
                conn.send(
                    _error(
                        action_id,
                        "the match has not started: it starts when every seat is taken",
                    )
                )
                return
            if model.hand is None:
                conn.send(_error(action_id, "no hand is in progress: wait for the next deal"))
                return
            if version is not None and version != self.row.version:  # a stale click
                stale = _error(action_id, "the table moved on before your move arrived")
                conn.send(stale | {"stale": True})
                conn.send(self.state(index))
                return
            try:
                event = model.apply_line(line, index, now=time.time())
            except (PrimeroError, ValueError) as exc:
                conn.send(_error(action_id, str(exc)))
                return
            self.applied_ids.setdefault(index, set()).add(action_id)
            await self._commit(event, index, action_id, urgent=True)
        self.wake.set()

    async def _commit(
        self, event: Event, seat: int | None, action_id: str | None, *, urgent: bool = False
    ) -> None:
        row = self.row
        model = self.model
        assert model is not None
        line = LineRow(
            row.id,
            model.hand_number,
            event.index,
            event.action.line(),
            seat,
            action_id,
            row.version + 1,
        )
        await self._changed(line, urgent=urgent)

    def chat(self, conn: Connection, text: str) -> None:
        """Send a chat line from the connection's seat to everyone at the table."""
        if conn.index is None:
            conn.send(_error(None, "spectators may not chat: join the table for a seat"))
            return
        if any(ord(ch) < 32 and ch not in "\t" for ch in text) or not text.strip():
            conn.send(
                _error(
                    None,
                    "a chat line is 1 to 300 characters of plain text, "
                    "not only white space and no control characters",
                )
            )
            return
        name = self.row.seats[conn.index].name
        for c in list(self.conns):
            c.send({"type": "chat", "from": name, "text": text})

    # ----------------------------------------------------------------- the driver

    async def _run(self) -> None:
        try:
            while await self._tick():
                pass
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug: log it, keep the server up
            log.exception("table %s stopped", self.row.id)

    async def _tick(self) -> bool:
        """One step of the match; False when it is over."""
        model = self.model
        assert model is not None
        pause = self.hub.settings.bot_pause
        self.wake.clear()
        async with self.lock:
            hand = model.hand
            if hand is None or model.match.hand is None:  # no hand open: start one
                if model.over:
                    if self.row.status != "over":
                        self.row.status = "over"
                        row = self.row
                        await self._changed(
                            lambda conn: self.hub.store.set_status(
                                conn, row.id, "over", row.version
                            )
                        )
                    return False
                hold = seating.hold_reason(self)
                if hold is not None:  # online.md "Status": paused by the host or players
                    if self.row.status != "paused":
                        self.row.status = "paused"
                        await self._set_status()
                else:
                    self.row.status = "playing"
                    fixed = fixed_test_seed()
                    seed = (
                        secrets.randbits(63) if fixed is None else fixed + model.match.hands_played
                    )
                    model.turn_seconds = self.row.turn_seconds or None  # the host's PATCH
                    model.start_hand(seed, now=time.time())
                    number, row = model.hand_number, self.row

                    def write(conn: DbConnection) -> None:
                        self.hub.store.set_status(conn, row.id, "playing", row.version)
                        self.hub.store.start_hand(conn, row.id, number, seed, row.version)

                    await self._changed(write)
                    return True
        if hand is None or model.match.hand is None:
            with contextlib.suppress(TimeoutError):  # a sit-in, a rebuy or the host wakes it
                await asyncio.wait_for(self.wake.wait(), 5.0)
            return True
        async with self.lock:
            if hand.complete:
                await self._finish()
                closed = True
            else:
                closed = False
                due = model.due()
        if closed:
            await asyncio.sleep(pause)  # the finished hand stays shown
            return True
        if due is None:  # a person is to act
            deadline = model.deadline
            timeout = None if deadline is None else max(0.0, deadline - time.time())
            try:
                await asyncio.wait_for(self.wake.wait(), timeout)
            except TimeoutError:
                await self._time_out()
            return True
        agent, v = due
        if pause > 0 and agent is not None:
            await asyncio.sleep(pause)
        async with self.hub.steps:  # few tables step at once: people's frames stay prompt
            await self._step(agent, v)
        return True

    async def _step(self, agent: Agent | None, v: SeatView) -> None:
        """The dealer's deal (``agent`` None) or a bot's move, decided in a bot thread."""
        model = self.model
        assert model is not None
        if agent is None:
            async with self.lock:
                await self._commit(model.deal(now=time.time()), None, None)
            return
        try:
            action = await self.hub.think(agent, v)
        except Exception:  # a bug in the bot: the table goes on with the timer's move
            log.exception("table %s: a bot failed; it makes the least committal move", self.row.id)
            action = least_committal(v)
        async with self.lock:
            try:
                event = model.apply(action, now=time.time())
            except PrimeroError:
                log.exception(
                    "table %s: a bot's move was illegal; it makes the least committal move",
                    self.row.id,
                )
                event = model.apply(least_committal(v), now=time.time())
            await self._commit(event, None, None)

    async def _set_status(self) -> None:
        row = self.row
        await self._changed(
            lambda conn: self.hub.store.set_status(conn, row.id, row.status, row.version)
        )

    async def _time_out(self) -> None:
        async with self.lock:
            model = self.model
            assert model is not None
            index = model.person_to_act()
            if index is None or not model.timed_out(time.time()):
                return
            event = model.time_out(now=time.time())
            await self._commit(event, index, None, urgent=True)

    async def _finish(self) -> None:
        model = self.model
        assert model is not None
        record = model.finish_hand()
        record.extra["table"] = self.row.id
        record.extra["hand_number"] = model.match.hands_played
        text = dump_record(record)
        row = self.row
        row.hands_played = model.match.hands_played
        chips = list(model.match.chips)
        for seat, c in zip(row.seats, chips, strict=True):
            seat.chips = c
        if model.over:
            row.status = "over"
        number, dealer, status = row.hands_played, model.match.dealer_index, row.status
        presence = seating.presence_write(self)

        def write(conn: DbConnection) -> None:
            self.hub.store.finish_hand(
                conn, row.id, number, text, chips, dealer, status, row.version
            )
            presence(conn)

        await self._changed(write)

    async def stop(self) -> None:
        """Stop the driver task (the hand in progress stays kept as far as it went)."""
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _settle(fut: asyncio.Future[None], error: BaseException | None) -> None:
    if fut.done():
        return
    if error is None:
        fut.set_result(None)
    else:
        fut.set_exception(error)


def _error(action_id: str | None, message: str) -> dict[str, Any]:
    return {"type": "error", "id": action_id, "message": message}


Write = Callable[[DbConnection], None]
Pending = tuple["Write | LineRow", asyncio.Future[None], asyncio.AbstractEventLoop]
#: Tables whose dealer or bots step at the same moment (the others wait their turn).
STEPS = 16
#: The most non-urgent writes in one transaction (short transactions keep people's
#: actions prompt while bots play at many tables).
BATCH = 200


class Hub:
    """Every table of one server, its store, its writer thread and its bots' threads.

    Args:
        settings: the server's settings.
        store: the database (migrated).
    """

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.tables: dict[str, TableRuntime] = {}
        self.steps = asyncio.Semaphore(STEPS)
        self._cv = threading.Condition()
        self._urgent: deque[Pending] = deque()  # people's actions and seats: first
        self._normal: deque[Pending] = deque()  # bots, deals, hands
        self._closing = False
        self._writer = threading.Thread(target=self._write_loop, name="primero-db", daemon=True)
        self._writer.start()
        self._bots = ThreadPoolExecutor(max_workers=8, thread_name_prefix="primero-bot")

    def _write_loop(self) -> None:
        """The writer thread: the writes waiting (every urgent one, and up to
        :data:`BATCH` others) are done in one transaction (group commit); each waiter is
        woken once it is committed (or with the error). A table has at most one write
        waiting (it holds its lock until the write is done), so no table's writes are
        reordered."""
        while True:
            with self._cv:
                while not self._urgent and not self._normal and not self._closing:
                    self._cv.wait()
                if self._closing and not self._urgent and not self._normal:
                    return
                batch = list(self._urgent)
                self._urgent.clear()
                while self._normal and len(batch) < BATCH:
                    batch.append(self._normal.popleft())
            error: BaseException | None = None
            try:
                with self.store.transaction() as conn:
                    rows: list[LineRow] = []
                    for write, _fut, _loop in batch:
                        if isinstance(write, LineRow):
                            rows.append(write)
                        else:
                            write(conn)
                    self.store.add_lines(conn, rows)
            except Exception as exc:  # every waiter of the batch learns it
                error = exc
            for _write, fut, loop in batch:
                with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                    loop.call_soon_threadsafe(_settle, fut, error)

    async def write(self, write: Write | LineRow, *, urgent: bool = False) -> None:
        """Run a store write (a function of a connection, or a line to insert) in the
        writer thread and wait until it is committed; ``urgent`` (a person's action or
        seat) goes into the next transaction, ahead of the bots' writes.

        Raises:
            Exception: whatever the database raised (the write's batch is rolled back).
        """
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        with self._cv:
            (self._urgent if urgent else self._normal).append((write, fut, loop))
            self._cv.notify()
        await fut

    async def think(self, agent: Callable[[Any], T], view: Any) -> T:
        """Run a bot's decision in a bot thread."""
        return await asyncio.get_running_loop().run_in_executor(self._bots, agent, view)

    async def load(self) -> None:
        """Load every table from the store and resume the matches in play."""
        rows = await asyncio.to_thread(self.store.load)
        evenings = await asyncio.to_thread(load_evening, self.store.engine)
        for row in rows:
            rt = TableRuntime(row, self)
            rt.evening = evenings.get(row.id, EveningRow())
            rt._summary = rt._build_summary()
            self.tables[row.id] = rt
            if row.status in ("playing", "paused"):
                try:
                    rt.resume()
                except RulesError as exc:  # stored before tables were checked: no game
                    log.warning("table %s is not resumed: %s", row.id, exc)
                    continue
                rt.start()

    def get(self, table_id: str) -> TableRuntime:
        """The table ``table_id``.

        Raises:
            NotFound: no such table.
        """
        rt = self.tables.get(table_id)
        if rt is None:
            raise NotFound(f"no table {table_id!r}")
        return rt

    async def create(self, spec: CreateTable) -> TableRuntime:
        """Create a table (bots named by the server); it starts at once with no open seat.

        Raises:
            BadRequest: a bad seat list, bot kind, name, stack, rules, timer or max_hands;
                the message says what is allowed.
        """
        try:
            rules = Rules.from_mapping(spec.rules)
        except (RulesError, TypeError, ValueError) as exc:
            raise BadRequest(f"rules: {exc}") from None
        n = len(spec.seats)
        if not (2 <= n <= 8 and rules.min_players <= n <= rules.max_players):
            raise BadRequest(
                f"seats must list {rules.min_players} to {rules.max_players} seats "
                f"(the rules' min_players/max_players), not {n}"
            )
        for kind in spec.seats:
            if kind != "open" and kind not in BOT_KINDS:
                raise BadRequest(
                    f'unknown seat {kind!r}: each seat is "open" or a bot kind: '
                    f"{', '.join(BOT_KINDS)}"
                )
        if not 1 <= spec.stack <= 1_000_000_000:
            raise BadRequest(f"stack must be 1 to 1000000000 chips, not {spec.stack}")
        try:  # settings that make no game (docs/rules.md decision 24)
            rules.check_stacks([spec.stack] * n)
        except RulesError as exc:
            raise BadRequest(f"stack and rules: {exc}") from None
        if not 0 <= spec.turn_seconds <= 86_400:
            raise BadRequest(f"turn_seconds must be 0 to 86400, not {spec.turn_seconds}")
        if spec.max_hands is not None and not 1 <= spec.max_hands <= 1_000_000:
            raise BadRequest(f"max_hands must be 1 to 1000000 or null, not {spec.max_hands}")
        table_id = secrets.token_hex(4)
        while table_id in self.tables:
            table_id = secrets.token_hex(4)
        name = spec.name if spec.name is not None else f"Table {table_id}"
        problem = check_name(name, "a table name", 40)
        if problem is not None:
            raise BadRequest(problem)
        bot_names = iter(BOT_NAMES)
        seats = [
            SeatRow(i, None if k == "open" else next(bot_names), k, None, spec.stack)
            for i, k in enumerate(spec.seats)
        ]
        playing = all(k != "open" for k in spec.seats)
        row = TableRow(
            id=table_id,
            name=name,
            stack=spec.stack,
            rules=rules.overrides(),
            turn_seconds=spec.turn_seconds,
            max_hands=spec.max_hands,
            status="playing" if playing else "waiting",
            version=1,
            hands_played=0,
            dealer_index=n - 1,
            created=int(time.time()),
            seats=seats,
        )
        host_token, host_hash = new_token()

        def write(conn: DbConnection) -> None:
            self.store.create_table(conn, row)
            save_host(conn, row.id, host_hash, spec.rebuy)

        await self.write(write, urgent=True)
        rt = TableRuntime(row, self)
        rt.evening = EveningRow(host_hash=host_hash, rebuy=spec.rebuy)
        rt.host_token_once = host_token
        rt._summary = rt._build_summary()
        self.tables[table_id] = rt
        if playing:
            rt.start()
        return rt

    async def close(self) -> None:
        """Stop every table's task, wait for the pending writes, close the store."""
        await asyncio.gather(*(t.stop() for t in self.tables.values()))
        self._bots.shutdown(wait=False, cancel_futures=True)
        with self._cv:
            self._closing = True
            self._cv.notify()
        await asyncio.to_thread(self._writer.join, 10)
        self.store.close()
