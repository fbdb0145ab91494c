"""Every table of one server (:class:`Hub`): its store and writer threads, its clock, its
bot workers, and the tables in memory.

A table nobody is connected to and whose driver waits for nobody but a person (or that
is over) leaves memory after :data:`IDLE_SECONDS`; its first touch (a connection, a
move, a seat taken) reads it back from the store. Nothing else is kept of it but its
summary for the lobby. Applied action ids are not loaded at start: the database's unique
constraint answers for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any

from pydantic import BaseModel

from primero.bots import BOT_KINDS, BOT_NAMES
from primero.engine.rules import RulesError
from primero.play.settle import RateError, parse_chip_value, parse_currency
from primero.play.text import TABLE_NAME_LONGEST, TextError, check_name
from primero.server import driver
from primero.server.actor import Command
from primero.server.botpool import BotPool
from primero.server.clock import Clock, SystemClock
from primero.server.cluster import Cluster, Op, OwnerAway, namespace
from primero.server.models import CreateTable
from primero.server.refusals import BadRequest, NotFound, in_words
from primero.server.rule_words import rule_label, rules_from_form, stacks_words
from primero.server.runtime import TableRuntime
from primero.server.security import new_token
from primero.server.setting_words import STACK_LABEL, TURN_TIMER_LABEL, labelled
from primero.server.settings import Settings
from primero.server.writer import Write, WriteFailed, Writer
from primero.store import SeatRow, Store, TableRow
from primero.store.evening import EveningRow, load_evening, save_host

__all__ = ["IDLE_SECONDS", "STEPS", "Hub", "between_seconds", "turn_seconds_words"]

log = logging.getLogger("primero.server")

#: Tables whose bots decide at the same moment (the others wait their turn).
STEPS = 16
#: The statuses of a match that is resumed at start (and on first touch after eviction).
LIVE = ("playing", "paused")
#: Seconds a table with nobody connected and no bot to drive stays in memory.
IDLE_SECONDS = 300.0
#: WebSocket message types a mirror answers itself (no change to the table; chat is
#: relayed to every process; ``ping`` is the client's heartbeat).
LOCAL_KINDS = frozenset({"resync", "hints", "chat", "ping"})
#: Seconds the tables' drivers have to stop when the server stops (within docs/protocol.md's 10).
STOP_SECONDS = 3.0


def between_seconds(field: str, seconds: int) -> int:
    """A table's ``hand_pause_seconds`` or ``rebuy_seconds``, checked: 0 to 3600.

    Raises:
        BadRequest: outside 0 to 3600 (the message names the field by its label in the
            forms, :func:`~primero.server.setting_words.labelled`, and the value).
    """
    if not 0 <= seconds <= 3600:
        raise BadRequest(f"{labelled(field)} must be 0 to 3600, not {seconds}")
    return seconds


def turn_seconds_words(seconds: int) -> str:
    """The refusal of a turn timer of ``seconds`` outside 0 to 86400 (str), naming the
    field as the forms do."""
    return f"{TURN_TIMER_LABEL} must be 0 to 86400 seconds (0: none), not {seconds}"


class Hub:
    """Every table of one server.

    Args:
        settings: the server's settings (its ``clock``, if set, replaces the real one).
        store: the database (migrated).
        ops: what another process may ask of a table driven here
            (:data:`primero.server.ops.OPS`, given by the app: its modules import this one).
    """

    def __init__(self, settings: Settings, store: Store, ops: Mapping[str, Op]) -> None:
        self.settings = settings
        self.store = store
        self.clock: Clock = settings.clock if settings.clock is not None else SystemClock()
        self.tables: dict[str, TableRuntime] = {}
        #: What another process may ask of a table driven here (one explicit table).
        self.ops: Mapping[str, Op] = ops
        self.steps = asyncio.Semaphore(STEPS)
        threads = 1 if store.url.startswith("sqlite") else 4
        self.writer = Writer(store, threads)
        self.bots = BotPool(settings.bot_processes, settings.bot_timeout)
        self._janitor: asyncio.Task[None] | None = None
        self.cluster: Cluster | None = None
        if settings.redis_url is not None:
            self.cluster = Cluster(
                self, settings.redis_url, settings.lease_seconds, namespace(store.url)
            )

    # ----------------------------------------------------------------- several processes

    def fence(self, table_id: str) -> bool:
        """Whether this process may write the table now (see :class:`HubLike`)."""
        return self.cluster is None or self.cluster.valid(table_id)

    def notify(self, rt: TableRuntime, version: int) -> None:
        """Tell the other processes the table's new version (nothing else)."""
        if self.cluster is not None:
            model = rt.model
            deadline = None if model is None or model.person_to_act() is None else model.deadline
            self.cluster.notify(rt.row.id, version, deadline)

    def relay_chat(self, table_id: str, message: dict[str, Any]) -> None:
        """A chat line for the other processes' connections."""
        if self.cluster is not None:
            self.cluster.chat(table_id, message)

    async def discover(self, table_id: str) -> TableRuntime | None:
        """A table another process created: read it from the store (a mirror)."""
        rt = self.tables.get(table_id)
        if rt is not None:
            return rt
        rows = await self.writer.read(lambda: self.store.load(table_id))
        if not rows or table_id in self.tables:
            return self.tables.get(table_id)
        evening = await self.writer.read(lambda: load_evening(self.store.engine, table_id))
        if table_id in self.tables:  # found meanwhile (a notice and a connection at once):
            return self.tables[table_id]  # one runtime per table, never a second one
        rt = TableRuntime(rows[0], self)
        rt.owned = False
        rt.evening = evening.get(table_id, EveningRow())
        rt.refresh_summary()
        self.tables[table_id] = rt
        return rt

    async def adopt(self, table_id: str) -> None:
        """This process took the table's lease: read it back from the store (the truth),
        drive it, and send every connection here its state (a failover). A lease lost
        meanwhile leaves the table a mirror here; one that cannot be read back is no
        longer renewed (it runs out, and a later look takes the table).

        Raises:
            NotFound: the table is not in the store.
            Exception: the store could not be read.
        """
        try:
            rt = self.tables.get(table_id) or await self.discover(table_id)
            if rt is None:
                raise NotFound(f"no table {table_id!r} in the store")
            # The old driver stops before the command is sent: a driver whose cancel was
            # swallowed (Python 3.11's wait_for) goes on to wait for its turn, and the
            # command run here while waiting for it to end would stop the table for good.
            await rt.stop()
            live = False
            async with rt.commands.command(Command.READ):
                await rt.stop()
                # read and replayed aside, then swapped in at once (no state is sent from
                # a new row with the old or no model meanwhile)
                row, evening = await rt.stored()
                broken = row.problem
                live = row.status in LIVE and broken is None
                model = None
                if live:
                    try:
                        model = await asyncio.to_thread(
                            rt.resumed_model, self.clock.now(), row, evening
                        )
                    except Exception as exc:
                        log.error("table %s cannot be resumed: %s", table_id, exc)
                        broken = f"the stored table cannot be resumed: {in_words(exc)}"
                        live = False
                held = self.holds(table_id)  # lost while reading: another may take it
                if held:
                    rt.row, rt.evening, rt.model, rt.decided = row, evening, model, None
                    rt.owned, rt.evicted, rt.broken = True, False, broken
                    rt.recent_ids.clear()
                    if row.current is not None:
                        for _line, seat, action_id in row.current.lines:
                            if seat is not None and action_id is not None:
                                rt.remember(seat, action_id)
                    rt.owner.publish(row.version)
        except BaseException:
            # not driven here: the lease is no longer renewed, so that it runs out and
            # any process takes the table (a held lease nobody drives stops it for good)
            if self.cluster is not None:
                self.cluster.until.pop(table_id, None)
            raise
        if not held:
            rt.owned = False
            if rt.conns:
                await rt.mirror.refresh()
        elif live and rt.owned:
            rt.start()

    def holds(self, table_id: str) -> bool:
        """Whether this process holds the table's lease (always, with one process)."""
        return self.cluster is None or self.cluster.holds(table_id)

    async def disown(self, table_id: str) -> None:
        """This process lost the table's lease: stop driving it at once; it stays a
        mirror (read back from the store when its connections need it)."""
        rt = self.tables.get(table_id)
        if rt is None:
            return
        rt.owned = False
        await rt.stop()
        if rt.conns:
            await rt.mirror.refresh()

    async def begin(self, rt: TableRuntime) -> None:
        """A table just created here: with several processes, take its lease first."""
        if self.cluster is not None:
            rt.owned = False
            try:
                if not await self.cluster.acquire(rt.row.id):
                    return
            except Exception as exc:  # Redis away: a scan takes it once it is back
                log.warning("table %s: its lease cannot be taken yet: %s", rt.row.id, exc)
                return
            rt.owned = True
        if rt.row.status in LIVE:
            rt.start()

    async def call(self, rt: TableRuntime, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run operation ``op`` (:data:`primero.server.ops.OPS`) where the table is
        driven: here with one process, else on its owner.

        Raises:
            WriteFailed: the owner could not be reached (HTTP 503).
            BadRequest, Conflict, NotFound, HTTPException: as the operation raised.
        """
        if self.cluster is None:
            return await self.ops[op](rt, args)
        try:
            return await self.cluster.call(rt, op, args)
        except OwnerAway as exc:
            raise WriteFailed(exc) from exc

    async def route(
        self,
        rt: TableRuntime,
        client: Any,
        kind: str,
        msg: BaseModel,
        handler: Callable[[TableRuntime, Any, BaseModel], Awaitable[None]],
    ) -> None:
        """Run a WebSocket message's handler here, or, for a change to a table another
        process drives, on that process (its answer: errors, and a state built here)."""
        if self.cluster is None or rt.owned or kind in LOCAL_KINDS:
            await handler(rt, client, msg)
            return
        action_id = getattr(msg, "id", None)
        try:
            answer = await self.cluster.call(
                rt, "ws", {"kind": kind, "msg": msg.model_dump(), "index": client.index}
            )
        except OwnerAway as exc:
            log.info("table %s: a forwarded %s got no answer: %s", rt.row.id, kind, exc)
            client.send(rt.retry_message(action_id if isinstance(action_id, str) else None))
            return
        await rt.mirror.at_least(int(answer.get("v", 0)))
        for m in answer.get("msgs", []):
            client.send(rt.state(client.index, client) if m.get("type") == "state" else m)

    async def look(self, table_id: str) -> TableRuntime:
        """The table ``table_id`` as stored now (a mirror is read back first when the
        store moved on): what a REST read answers from any process.

        Raises:
            NotFound: no such table.
        """
        if self.cluster is None:
            return self.get(table_id)
        return await self.touch(table_id)

    async def lobby(self) -> list[TableRuntime]:
        """Every table, in creation order; with several processes the mirrors whose
        stored version moved on are read back first, and tables made elsewhere found."""
        if self.cluster is not None:
            try:
                versions = await self.writer.read(self.store.versions)
            except Exception:  # the database is away: the summaries this process has
                versions = {}
            for table_id, (version, _status) in versions.items():
                rt = self.tables.get(table_id)
                if rt is None:
                    await self.discover(table_id)
                elif not rt.owned and rt.row.version != version:
                    await rt.mirror.refresh(model=False)
        return list(self.tables.values())

    def drive(self, rt: TableRuntime) -> Coroutine[Any, Any, None]:
        """The driver coroutine of table ``rt`` (:func:`primero.server.driver.run`)."""
        return driver.run(rt)

    async def write(self, write: Write, *, urgent: bool = False) -> Any:
        """Run ``write`` in a transaction of its own (see :class:`Writer.write`)."""
        return await self.writer.write(write, urgent=urgent)

    async def load(self) -> None:
        """Load every table from the store and resume the matches in play; a table that
        cannot be read or replayed is ``"broken"`` (listed with its ``detail``), never a
        reason not to start."""
        self.bots.prestart()
        rows = await asyncio.to_thread(self.store.load)
        evenings = await asyncio.to_thread(load_evening, self.store.engine)
        for row in rows:
            rt = TableRuntime(row, self)
            rt.evening = evenings.get(row.id, EveningRow())
            rt.refresh_summary()
            self.tables[row.id] = rt
            if self.cluster is not None:
                rt.owned = False  # a scan takes the tables nobody holds
                continue
            if row.status in LIVE and rt.broken is None and await rt.resume():
                rt.start()
        self._janitor = asyncio.get_running_loop().create_task(self._sweep())
        if self.cluster is not None:
            self.cluster.start()

    def get(self, table_id: str) -> TableRuntime:
        """The table ``table_id``.

        Raises:
            NotFound: no such table.
        """
        rt = self.tables.get(table_id)
        if rt is None:
            raise NotFound(f"no table {table_id!r}")
        return rt

    async def touch(self, table_id: str) -> TableRuntime:
        """The table ``table_id``, read back from the store first if it left memory.

        Raises:
            NotFound: no such table.
        """
        if self.cluster is not None:
            found = self.tables.get(table_id) or await self.discover(table_id)
            if found is None:
                raise NotFound(f"no table {table_id!r}")
            found.touched = self.clock.now()
            if not found.owned:
                try:
                    versions = await self.writer.read(self.store.versions)
                except Exception:  # the database is away: what this process has
                    versions = {table_id: (found.row.version, found.row.status)}
                if found.model is None or versions.get(table_id, (0, ""))[0] != found.row.version:
                    await found.mirror.refresh()
                return found
        rt = self.get(table_id)
        rt.touched = self.clock.now()
        if rt.evicted:
            async with rt.commands.command(Command.READ):
                if rt.evicted:
                    await rt.reload()
                    rt.evicted = False
                    if rt.row.status in LIVE and await rt.resume():
                        rt.start()
        return rt

    async def create(self, spec: CreateTable) -> TableRuntime:
        """Create a table (bots named by the server); it starts at once with no open seat.

        Raises:
            BadRequest: a bad seat list, bot kind, name, stack, rules, timer or max_hands;
                the message says what is allowed.
            WriteFailed: the database did not take it.
        """
        try:
            rules = rules_from_form(spec.rules)
        except (RulesError, TypeError, ValueError) as exc:
            raise BadRequest(str(exc)) from None
        n = len(spec.seats)
        if not (2 <= n <= 8 and rules.min_players <= n <= rules.max_players):
            raise BadRequest(
                f"Seats must be {rules.min_players} to {rules.max_players} (the rules' "
                f"{rule_label('min_players')} to {rule_label('max_players')}), not {n}"
            )
        for kind in spec.seats:
            if kind != "open" and kind not in BOT_KINDS:
                raise BadRequest(
                    f'unknown seat {kind!r}: each seat is "open" or a bot kind: '
                    f"{', '.join(BOT_KINDS)}"
                )
        if not 1 <= spec.stack <= 1_000_000_000:
            raise BadRequest(f"{STACK_LABEL} must be 1 to 1000000000 chips, not {spec.stack}")
        try:  # settings that make no game (docs/rules.md decision 24)
            rules.check_stacks([spec.stack] * n)
        except RulesError as exc:
            raise BadRequest(stacks_words(str(exc))) from None
        if not 0 <= spec.turn_seconds <= 86_400:
            raise BadRequest(turn_seconds_words(spec.turn_seconds))
        if spec.max_hands is not None and not 1 <= spec.max_hands <= 1_000_000:
            raise BadRequest(f"max_hands must be 1 to 1000000 or null, not {spec.max_hands}")
        evening = EveningRow(
            host_hash=None,
            rebuy=spec.rebuy,
            listed=spec.listed,
            approval=spec.approval,
            hand_pause=int(self.settings.hand_pause)
            if spec.hand_pause_seconds is None
            else between_seconds("hand_pause_seconds", spec.hand_pause_seconds),
            rebuy_seconds=int(self.settings.rebuy_seconds)
            if spec.rebuy_seconds is None
            else between_seconds("rebuy_seconds", spec.rebuy_seconds),
        )
        try:
            if spec.chip_value:  # "" or null: chips only, as in PATCH
                evening.chip_value = parse_chip_value(spec.chip_value)
            if spec.currency:
                evening.currency = parse_currency(spec.currency)
        except RateError as exc:
            raise BadRequest(str(exc)) from None
        table_id = secrets.token_hex(4)
        while table_id in self.tables:
            table_id = secrets.token_hex(4)
        name = spec.name if spec.name is not None else f"Table {table_id}"
        try:
            name = check_name(name, "the table name", TABLE_NAME_LONGEST)
        except TextError as exc:
            raise BadRequest(str(exc)) from None
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
            seed_rotation=spec.seed_rotation,
            status="playing" if playing else "waiting",
            version=1,
            hands_played=0,
            dealer_index=n - 1,
            created=int(self.settings.wall_clock()),
            seats=seats,
        )
        store = self.store
        host_token, host_hash = new_token()  # the proof of hosting, shown once

        def write(conn: Any) -> None:
            store.create_table(conn, row)
            save_host(
                conn,
                table_id,
                host_hash,
                spec.rebuy,
                listed=spec.listed,
                approval=spec.approval,
                ev=evening,
            )

        try:
            await self.writer.write(write, urgent=True)
        except Exception as exc:
            raise WriteFailed(exc) from exc
        rt = TableRuntime(row, self)
        evening.host_hash = host_hash
        rt.evening = evening
        rt.host_token_once = host_token
        rt.refresh_summary()
        self.tables[table_id] = rt
        await self.begin(rt)
        return rt

    async def _sweep(self) -> None:
        """Every few seconds: tables idle for :data:`IDLE_SECONDS` leave memory."""
        while True:
            await asyncio.sleep(min(30.0, IDLE_SECONDS / 4))
            now = self.clock.now()
            for rt in list(self.tables.values()):
                if not rt.owned:  # a mirror nobody here watches: only its row is kept
                    if not rt.conns and rt.model is not None and now - rt.touched > IDLE_SECONDS:
                        rt.model = None
                    continue
                if rt.idle(now, IDLE_SECONDS):
                    await rt.evict()

    async def close(self) -> None:
        """Stop every table's task, finish the queued writes, close the store."""
        if self._janitor is not None:
            self._janitor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._janitor
        stops = [asyncio.ensure_future(t.stop()) for t in self.tables.values()]
        if stops:
            _done, stuck = await asyncio.wait(stops, timeout=STOP_SECONDS)
            if stuck:
                log.warning("%d table drivers did not stop within %g s", len(stuck), STOP_SECONDS)
        if self.cluster is not None:  # the leases given back: another process takes over
            await self.cluster.close()
        self.bots.close()
        await self.writer.close()
        self.store.close()
