"""Several ``primero serve`` processes on one PostgreSQL database and one Redis
(docs/protocol.md "Several processes"; docs/protocol.md "Several processes").

- **Leases.** Each table is driven by one process, its owner, under a Redis key
  ``primero:<database>:lease:<table id>`` holding the owner's process id with a TTL of
  ``--lease-seconds``. It is taken with ``SET NX PX`` and renewed every third of the lease
  by one Lua script that moves the expiry only of keys whose value is still this
  process's. A table whose key is gone or names another process is dropped at once (its
  driver stopped; the table becomes a mirror). The owner writes only while its lease
  is surely valid (:meth:`Cluster.valid`: less than 0.9 of the lease since the renewal
  was *sent*); the table's version, checked in the ``WHERE`` clause of every write, is
  the fencing token: a paused owner's late write fails.
- **Mirrors.** Every other process keeps the table as a read-only mirror rebuilt from
  PostgreSQL (dealer seed and stored lines), for its own connections; their states are
  built by ``view`` in that process. Nothing with a hidden card crosses Redis: the owner
  publishes only ``{"t": table, "v": version, "d": deadline}``; a mirror with
  connections reads the table back from the database when the version moves on, and
  every half lease when the stored version moved on (a notice may be lost), even with
  Redis away; a resync at a mirror reads the stored version first.
- **Forwarding.** A move (or a seat, a presence message, a host request) sent to a
  process that is not the owner is published to the owner's request channel
  ``primero:<database>:proc:<pid>``; the owner runs it as if it were its own and answers
  on the sender's channel with the outcome (errors in words, and which version to wait
  for), never a state. A request unanswered within the lease plus 2 s is refused with
  ``"retry": true`` (nothing was applied as far as the sender knows; the action id makes
  a second try safe).
- **Taking over.** Every half lease each process looks for tables ``waiting``,
  ``playing`` or ``paused`` with no lease and takes them (up to a fair share: the active
  tables divided by the live processes, rounded up), reading them back from the database.
  No lease is kept without a driver (a table that could not be read back is no longer
  renewed) and no driver runs without a lease (:meth:`Cluster._follow`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import redis
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from sqlalchemy.engine import make_url

if TYPE_CHECKING:
    from primero.server.runtime import TableRuntime
    from primero.server.writer import Writer
    from primero.store import Store

__all__ = ["LOOP_TIMEOUT", "Cluster", "ClusterHub", "Op", "OwnerAway", "namespace"]

log = logging.getLogger("primero.server")


class ClusterHub(Protocol):
    """What a :class:`Cluster` needs of its process's tables
    (:class:`primero.server.hub.Hub`; a protocol, so that the hub may own a cluster
    without an import circle)."""

    tables: dict[str, TableRuntime]
    store: Store
    writer: Writer
    ops: Mapping[str, Op]

    async def discover(self, table_id: str) -> TableRuntime | None: ...

    async def adopt(self, table_id: str) -> None: ...

    async def disown(self, table_id: str) -> None: ...


#: An operation a process asks of a table's owner: ``op(table, args)`` runs on the owner
#: and answers a JSON-able dict (every one is in :data:`primero.server.ops.OPS`).
Op = Callable[["TableRuntime", dict[str, Any]], Awaitable[dict[str, Any]]]

RENEW = """
local out = {}
for i, k in ipairs(KEYS) do
  if redis.call('GET', k) == ARGV[1] then
    redis.call('PEXPIRE', k, ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

RELEASE = """
for i, k in ipairs(KEYS) do
  if redis.call('GET', k) == ARGV[1] then redis.call('DEL', k) end
end
return 0
"""

#: The part of a lease an owner trusts (from when its renewal was sent).
TRUST = 0.9
#: Statuses of a table that needs an owner.
ACTIVE = ("waiting", "playing", "paused")
#: Seconds at least that a command of the event loop's Redis client may take. Its
#: timeout is measured by the event loop: with a third of a 1 s lease (0.33 s), a loop
#: held up half a second on a loaded host timed out commands answered in a millisecond,
#: and the scan that follows mirrors and takes ownerless tables failed with them.
LOOP_TIMEOUT = 2.0


class OwnerAway(RuntimeError):
    """The table's owner could not be reached (Redis away, or no answer in time)."""


def namespace(database_url: str) -> str:
    """The Redis key prefix of a deployment: ``primero:<database name>`` (processes of
    one database share it; tests on separate databases never collide)."""
    return f"primero:{make_url(database_url).database or 'db'}"


class Cluster:
    """This process's part in a group of servers sharing one database and one Redis.

    Args:
        hub: this process's tables.
        url: the Redis URL (``redis://host:6379/0``).
        lease_seconds: a lease's length, seconds.
        prefix: the Redis key prefix (:func:`namespace`).
    """

    def __init__(self, hub: ClusterHub, url: str, lease_seconds: float, prefix: str) -> None:
        self.hub = hub
        self.lease = lease_seconds
        self.prefix = prefix
        self.pid = secrets.token_hex(8)
        timeout = max(0.2, lease_seconds / 3)
        # The event loop's client waits longer than the renewal's: its timeouts are timed
        # on the event loop, so a loop held up for a moment (a loaded host, a long step)
        # would time out a command whose answer had come long before (LOOP_TIMEOUT).
        loop_timeout = max(LOOP_TIMEOUT, lease_seconds)
        self.redis = Redis.from_url(
            url,
            socket_timeout=loop_timeout,
            socket_connect_timeout=loop_timeout,
            retry=Retry(NoBackoff(), 0),
            decode_responses=True,
        )
        # The renewal runs in a thread of its own with a blocking client, so that a busy
        # event loop never makes a live owner miss its renewal.
        self._sync = redis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout, decode_responses=True
        )
        self._renew = self._sync.register_script(RENEW)
        self._release = self.redis.register_script(RELEASE)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        #: Owned tables: monotonic time until which this process trusts its lease.
        self.until: dict[str, float] = {}
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._out: asyncio.Queue[tuple[str, str]] = asyncio.Queue(maxsize=100_000)
        self._tasks: list[asyncio.Task[None]] = []
        self._busy: set[asyncio.Task[Any]] = set()
        self.redis_ok = False

    # ----------------------------------------------------------------- keys

    def _lease(self, table_id: str) -> str:
        return f"{self.prefix}:lease:{table_id}"

    @property
    def events(self) -> str:
        """The channel of version notices, chat lines and seen seats."""
        return f"{self.prefix}:events"

    def inbox(self, pid: str) -> str:
        """A process's channel of requests and answers."""
        return f"{self.prefix}:proc:{pid}"

    # ----------------------------------------------------------------- leases

    def valid(self, table_id: str) -> bool:
        """Whether this process surely still holds the table's lease (the fence of every
        write; thread-safe: a dict read and the monotonic clock)."""
        until = self.until.get(table_id)
        return until is not None and time.monotonic() < until

    async def acquire(self, table_id: str) -> bool:
        """Try to take the table's lease (``SET NX PX``); True when this process holds it.

        Raises:
            redis.RedisError: Redis could not be reached.
        """
        sent = time.monotonic()
        got = await self.redis.set(
            self._lease(table_id), self.pid, nx=True, px=int(self.lease * 1000)
        )
        if got:  # a fresh lease: the caller reads the table back (someone may have written)
            self.until[table_id] = sent + TRUST * self.lease
        return bool(got)

    async def owner(self, table_id: str) -> str | None:
        """The process id holding the table's lease, or None."""
        found = await self.redis.get(self._lease(table_id))
        return None if found is None else str(found)

    def _renewer(self) -> None:
        """The renewal thread: every quarter lease, one script renews every lease this
        process holds; a table whose key is gone or another's is dropped at once, and
        with Redis away each table is dropped when its trusted time runs out."""
        while not self._stop.wait(self.lease / 4):
            ids = list(self.until)
            sent = time.monotonic()
            lost: list[str] = []
            try:
                kept = (
                    self._renew(
                        keys=[self._lease(t) for t in ids], args=[self.pid, int(self.lease * 1000)]
                    )
                    if ids
                    else []
                )
                now_ms = int(time.time() * 1000)
                key = f"{self.prefix}:procs"
                pipe = self._sync.pipeline(transaction=False)
                pipe.zadd(key, {self.pid: now_ms + int(self.lease * 1000)})
                pipe.zremrangebyscore(key, 0, now_ms)
                pipe.pexpire(key, int(self.lease * 10_000))
                pipe.execute()
                if not self.redis_ok:
                    log.info("redis: reachable")
                self.redis_ok = True
                for t, ok in zip(ids, kept, strict=True):
                    if ok and t in self.until:
                        self.until[t] = sent + TRUST * self.lease
                    elif not ok:
                        lost.append(t)
            except Exception as exc:  # Redis away: the leases run out, the tables stop
                if self.redis_ok:
                    log.warning("redis: cannot renew the leases: %s", exc)
                self.redis_ok = False
                now = time.monotonic()
                lost = [t for t in ids if self.until.get(t, 0.0) <= now]
            for t in lost:
                if self.until.get(t, 0.0) <= sent + TRUST * self.lease:  # not taken anew
                    self.until.pop(t, None)
            loop = self._loop
            if lost and loop is not None:
                with contextlib.suppress(RuntimeError):  # the loop is closing
                    loop.call_soon_threadsafe(self._spawn, self._lost(lost))

    async def _lost(self, ids: list[str]) -> None:
        for table_id in ids:
            if table_id in self.until:
                continue  # taken again meanwhile
            log.warning("table %s: the lease is lost; another process may drive it", table_id)
            await self.hub.disown(table_id)

    async def _live_processes(self) -> int:
        now_ms = int(time.time() * 1000)
        n: int = await self.redis.zcount(f"{self.prefix}:procs", now_ms, "+inf")
        return max(1, n)

    def holds(self, table_id: str) -> bool:
        """Whether this process holds the table's lease as far as it knows (it renews it;
        :meth:`valid` also asks that the last renewal be recent)."""
        return table_id in self.until

    async def _scan_once(self) -> None:
        """Take the active tables nobody holds (up to a fair share); keep mirrors with
        connections up to date, also when Redis cannot be reached (the database is the
        truth); tell owners which of their seats are connected here."""
        versions = await self.hub.writer.read(self.hub.store.versions)
        try:
            await self._take_free(versions)
        finally:
            await self._follow(versions)

    async def _take_free(self, versions: dict[str, tuple[int, str]]) -> None:
        """Take the active tables whose lease nobody holds (up to a fair share).

        Raises:
            redis.RedisError: Redis could not be reached.
        """
        hub = self.hub
        active = [t for t, (_v, status) in versions.items() if status in ACTIVE]
        if active:
            owners = await self.redis.mget([self._lease(t) for t in active])
            free = [t for t, o in zip(active, owners, strict=True) if o is None]
            fair = math.ceil(len(active) / await self._live_processes())
            # only the active tables held here count (a finished table's lease does not)
            mine = sum(1 for t in active if t in self.until)
            room = max(0, fair - mine)
            if free and room == 0:
                room = 1  # every table finds an owner, if slowly
            for t in free[:room]:
                if await self.acquire(t):
                    await hub.adopt(t)

    async def _follow(self, versions: dict[str, tuple[int, str]]) -> None:
        """A table driven here whose lease this process no longer holds becomes a mirror;
        mirrors with connections here are read back when the stored version moved on
        (a notice may have been lost), each on its own (one that fails stops no other)."""
        hub = self.hub
        for t, driven in list(hub.tables.items()):
            if driven.owned and not self.holds(t):
                log.warning("table %s: driven here without its lease; it becomes a mirror", t)
                await hub.disown(t)
        for t, (v, _status) in versions.items():
            rt = hub.tables.get(t)
            if rt is None or rt.owned or not rt.conns:
                continue
            if v != rt.row.version:
                try:
                    await rt.mirror.refresh()
                except Exception as exc:
                    log.warning("table %s: its mirror could not be read back: %s", t, exc)
            seen = sorted({c.index for c in rt.conns if c.index is not None})
            if seen:
                self.send(self.events, {"t": t, "seen": seen})

    async def _every(self, seconds: float, step: Callable[[], Awaitable[None]], what: str) -> None:
        while True:
            try:
                await step()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.debug("cluster %s: %s", what, exc)
            await asyncio.sleep(seconds)

    # ----------------------------------------------------------------- messages

    def send(self, channel: str, message: dict[str, Any]) -> None:
        """Publish ``message`` soon (dropped when Redis is away: mirrors also poll)."""
        with contextlib.suppress(asyncio.QueueFull):
            self._out.put_nowait((channel, json.dumps(message)))

    async def _publisher(self) -> None:
        """Publish what is queued, everything waiting in one pipeline (one round trip:
        hundreds of version notices a second never queue up behind each other)."""
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < 1000:
                batch.append(self._out.get_nowait())
            pipe = self.redis.pipeline(transaction=False)
            for channel, data in batch:
                pipe.publish(channel, data)
            with contextlib.suppress(Exception):
                await pipe.execute()

    def notify(self, table_id: str, version: int, deadline: float | None) -> None:
        """Tell every process the table's new version (nothing hidden: a number)."""
        self.send(self.events, {"t": table_id, "v": version, "d": deadline})

    def chat(self, table_id: str, message: dict[str, Any]) -> None:
        """Relay a chat line to the connections of the other processes."""
        self.send(self.events, {"t": table_id, "chat": message, "from": self.pid})

    async def _listener(self) -> None:
        delay = 0.1
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(self.events, self.inbox(self.pid))
                delay = 0.1
                while True:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if msg is not None and msg.get("type") == "message":
                        self._dispatch(msg["channel"], json.loads(msg["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.debug("cluster listener: %s", exc)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]
            await asyncio.sleep(delay)
            delay = min(1.0, 2 * delay)

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._busy.add(task)
        task.add_done_callback(self._busy.discard)

    def _dispatch(self, channel: str, msg: dict[str, Any]) -> None:
        hub = self.hub
        if channel == self.events:
            rt = hub.tables.get(str(msg.get("t")))
            if "v" in msg:
                if rt is None:
                    self._spawn(hub.discover(str(msg["t"])))
                elif not rt.owned:
                    rt.mirror.heard(int(msg["v"]), msg.get("d"))
            elif "chat" in msg:
                if rt is not None and msg.get("from") != self.pid:
                    rt.deliver_chat(msg["chat"], relay=False)
            elif "seen" in msg and rt is not None and rt.owned:
                rt.owner.seen_elsewhere([int(i) for i in msg["seen"]])
            return
        if "rid" in msg and "op" in msg:
            self._spawn(self._serve(msg))
        elif "rid" in msg:
            fut = self._replies.pop(str(msg["rid"]), None)
            if fut is not None and not fut.done():
                fut.set_result(msg)

    async def _serve(self, msg: dict[str, Any]) -> None:
        """Run a forwarded request on a table this process owns; answer the sender."""
        answer: dict[str, Any] = {"rid": msg["rid"]}
        rt = self.hub.tables.get(str(msg.get("t")))
        op = self.hub.ops.get(str(msg.get("op")))
        if rt is None or op is None or not rt.owned:
            answer["away"] = True
        else:
            try:
                answer["ok"] = await op(rt, dict(msg.get("args") or {}))
            except Exception as exc:
                answer["err"] = error_kind(exc)
                answer["msg"] = str(getattr(exc, "detail", None) or exc)
                answer["status"] = getattr(exc, "status_code", None)
        with contextlib.suppress(Exception):  # at once, ahead of the queued notices
            await self.redis.publish(self.inbox(str(msg["from"])), json.dumps(answer))

    async def call(self, rt: TableRuntime, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run operation ``op`` on the table's owner (this process when it holds or can
        take the lease) and answer what it answered; its exceptions are raised here.

        Raises:
            OwnerAway: Redis or the owner could not be reached within the lease plus 2 s.
            BadRequest, Conflict, NotFound, WriteFailed, HTTPException: as the owner raised.
        """
        table_id = rt.row.id
        try:
            owner = await self.owner(table_id)
            if owner is None and await self.acquire(table_id):
                await self.hub.adopt(table_id)
                owner = self.pid
        except Exception as exc:
            raise OwnerAway(f"redis: {exc}") from exc
        if owner == self.pid and rt.owned:
            return await self.hub.ops[op](rt, args)
        if owner is None or owner == self.pid:
            raise OwnerAway("the table is changing owner")
        rid = secrets.token_hex(8)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[rid] = fut
        try:
            heard = await self.redis.publish(
                self.inbox(owner),
                json.dumps({"rid": rid, "from": self.pid, "t": table_id, "op": op, "args": args}),
            )
            if not heard:
                raise OwnerAway("the owner is not listening")
            answer = await asyncio.wait_for(fut, self.lease + 2)
        except OwnerAway:
            raise
        except Exception as exc:
            raise OwnerAway(f"no answer from the owner: {exc!r}") from exc
        finally:
            self._replies.pop(rid, None)
        if answer.get("away"):
            raise OwnerAway("the owner let the table go")
        if "err" in answer:
            raise rebuild_error(answer)
        result: dict[str, Any] = answer.get("ok") or {}
        return result

    # ----------------------------------------------------------------- life

    def start(self) -> None:
        """Start the renewal, scan, listener and publisher tasks."""
        loop = self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._renewer, name="primero-lease", daemon=True)
        self._thread.start()
        self._tasks = [
            loop.create_task(self._every(self.lease / 2, self._scan_once, "scan")),
            loop.create_task(self._listener()),
            loop.create_task(self._publisher()),
        ]

    async def close(self) -> None:
        """Stop the tasks and give the leases back (another process takes over at once)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._stop.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 5)
        ids, self.until = list(self.until), {}
        with contextlib.suppress(Exception):
            if ids:
                await self._release(keys=[self._lease(t) for t in ids], args=[self.pid])
            await self.redis.zrem(f"{self.prefix}:procs", self.pid)
        with contextlib.suppress(Exception):
            await self.redis.aclose()
        with contextlib.suppress(Exception):
            self._sync.close()


def error_kind(exc: BaseException) -> str:
    """The name under which a forwarded request's exception travels back."""
    return type(exc).__name__


def rebuild_error(answer: dict[str, Any]) -> Exception:
    """The exception the owner raised, rebuilt on the sender (its words kept)."""
    from fastapi import HTTPException

    from primero.server.refusals import BadRequest, Conflict, NotFound
    from primero.server.writer import WriteFailed

    kind, text = str(answer.get("err")), str(answer.get("msg") or "")
    if kind == "HTTPException":
        return HTTPException(int(answer.get("status") or 500), text)
    known: dict[str, type[Exception]] = {
        "BadRequest": BadRequest,
        "Conflict": Conflict,
        "NotFound": NotFound,
    }
    if kind in known:
        return known[kind](text)
    return WriteFailed(RuntimeError(text))
