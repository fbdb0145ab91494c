"""A mirror (a table another process drives; online.md "Several processes") that missed
its owner's notices still gives a resync the stored state, the scan still follows it
when Redis cannot be reached, and a process never keeps a table's lease without driving
it nor drives a table without its lease. In-process: two hubs on one SQLite file, the
second one's Redis unreachable (nothing is published, so every notice is "lost")."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import redis

from primero.server.hub import Hub
from primero.server.models import CreateTable, ResyncIn
from primero.server.ops import OPS
from primero.server.runtime import TableRuntime
from primero.server.settings import Settings
from primero.server.ws import HANDLERS
from primero.store import Store

pytestmark = pytest.mark.timeout(120)

#: Nothing listens on port 1: every Redis command fails at once.
NO_REDIS = "redis://127.0.0.1:1/0"


class Watcher:
    """A spectator's connection: it keeps what it is sent."""

    index: int | None = None

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


@asynccontextmanager
async def _two_hubs(tmp_path: Path) -> AsyncIterator[tuple[Hub, Hub, TableRuntime, TableRuntime]]:
    """Hub ``a`` drives a waiting table (seats open, open, random; version 1); hub ``b``
    holds it as a mirror read at version 1 (its cluster's Redis unreachable)."""
    url = f"sqlite:///{tmp_path / 'm.db'}"
    store_a = Store(url)
    store_a.migrate()
    a = Hub(Settings(database_url=url, bot_pause=0, bot_processes=0), store_a, OPS)
    b = Hub(
        Settings(
            database_url=url, bot_pause=0, bot_processes=0, redis_url=NO_REDIS, lease_seconds=1.0
        ),
        Store(url),
        OPS,
    )
    try:
        made = await a.create(
            CreateTable.model_validate(
                {"seats": ["open", "open", "random"], "rules": {"min_players": 3}}
            )
        )
        mirror = await b.discover(made.row.id)
        assert mirror is not None and not mirror.owned
        assert (mirror.row.version, mirror.row.status) == (1, "waiting")
        yield a, b, made, mirror
    finally:
        await a.close()
        await b.close()


async def _seat_ana(owner: TableRuntime) -> None:
    """Ana takes seat 0 at the owner: version 2, still waiting (seat 1 is open)."""
    seat, _token = await owner.owner.take_seat("Ana", 0)
    assert seat == 0
    assert (owner.row.version, owner.row.status) == (2, "waiting")


def test_a_resync_through_a_mirror_that_missed_the_notice_gets_the_stored_state(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with _two_hubs(tmp_path) as (_a, _b, owner, mirror):
            watcher = Watcher()
            mirror.conns.add(watcher)
            await _seat_ana(owner)  # b hears nothing of it
            assert mirror.row.version == 1
            _model, handler = HANDLERS["resync"]
            await handler(mirror, watcher, ResyncIn(type="resync", since=1))  # type: ignore[arg-type]
            last = watcher.sent[-1]
            assert last["type"] == "state" and last["version"] == 2
            assert last["table"]["status"] == "waiting"
            assert [(s["name"], s["kind"]) for s in last["table"]["seats"]] == [
                ("Ana", "person"),
                (None, "open"),
                ("Lorenzo", "random"),
            ]

    asyncio.run(scenario())


def test_the_scan_follows_a_mirror_when_redis_cannot_be_reached(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with _two_hubs(tmp_path) as (_a, b, owner, mirror):
            watcher = Watcher()
            mirror.conns.add(watcher)
            await _seat_ana(owner)
            assert b.cluster is not None
            # taking the free tables needs Redis: the scan fails, after following its mirrors
            with pytest.raises(redis.ConnectionError, match=r"127\.0\.0\.1:1\b"):
                await b.cluster._scan_once()
            states = [m for m in watcher.sent if m["type"] == "state"]
            assert [m["version"] for m in states] == [2]
            assert states[0]["table"]["seats"][0]["name"] == "Ana"

    asyncio.run(scenario())


def test_a_lease_is_not_kept_by_an_adoption_that_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a driver here, the lease is no longer renewed: it runs out and another
    process (or a later scan here) takes the table."""

    async def scenario() -> None:
        async with _two_hubs(tmp_path) as (_a, b, owner, mirror):
            assert b.cluster is not None
            table = owner.row.id
            b.cluster.until[table] = float("inf")  # as acquire() leaves it
            del b.tables[table]

            async def unreadable(table_id: str) -> TableRuntime | None:
                raise OSError("the database did not answer")

            monkeypatch.setattr(b, "discover", unreadable)
            with pytest.raises(OSError, match="did not answer"):
                await b.adopt(table)
            assert table not in b.cluster.until
            assert not mirror.owned

    asyncio.run(scenario())


def test_a_table_driven_without_its_lease_becomes_a_mirror(tmp_path: Path) -> None:
    """The process lost the lease while it took the table (a loaded host): it drives
    nothing it does not hold, and its connections follow the store again."""

    async def scenario() -> None:
        async with _two_hubs(tmp_path) as (_a, b, owner, mirror):
            assert b.cluster is not None
            table = owner.row.id
            b.cluster.until[table] = float("inf")
            await b.adopt(table)
            assert mirror.owned
            assert mirror.task is None  # waiting for people: nothing to drive yet
            b.cluster.until.pop(table)  # the renewal found the lease gone
            watcher = Watcher()
            mirror.conns.add(watcher)
            await _seat_ana(owner)
            # taking the free tables needs Redis: the scan fails, after following its mirrors
            with pytest.raises(redis.ConnectionError, match=r"127\.0\.0\.1:1\b"):
                await b.cluster._scan_once()
            assert not mirror.owned
            assert [m["version"] for m in watcher.sent if m["type"] == "state"] == [2]

    asyncio.run(scenario())


def test_the_event_loops_redis_commands_outlast_a_held_up_loop(tmp_path: Path) -> None:
    """Its timeouts are timed by the event loop: a third of a 1 s lease (0.33 s) timed
    out, on a loaded host, commands answered long before; at least 2 s now."""

    async def scenario() -> None:
        async with _two_hubs(tmp_path) as (_a, b, _owner, _mirror):
            assert b.cluster is not None
            kwargs = b.cluster.redis.connection_pool.connection_kwargs
            assert (kwargs["socket_timeout"], kwargs["socket_connect_timeout"]) == (2.0, 2.0)
            renewal = b.cluster._sync.connection_pool.connection_kwargs
            assert renewal["socket_timeout"] == pytest.approx(1 / 3)  # the renewal's, as was

    asyncio.run(scenario())


class Seat(Watcher):
    """A person's connection at a seat: it keeps what it is sent."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


def test_a_mirror_sends_only_the_stored_versions_content(tmp_path: Path) -> None:
    """A mirror read back at every few versions while its owner plays two hands: each
    state it sends is, for its version, the owner's hand (the same hand number; never a
    new version with the old finished hand or with no hand), and a state built while it
    reads (a connection arriving, a forwarded answer) is one of the same pairs."""
    from tests.server_helpers import cautious_line

    async def scenario() -> None:
        async with _two_hubs(tmp_path) as (a, _b, owner, mirror):
            await owner.owner.take_seat("Ana", 0)
            await owner.owner.take_seat("Ben", 1)  # the last open seat: the match starts
            owner_seen, ana, ben = Watcher(), Seat(0), Seat(1)
            owner.conns.update({owner_seen, ana, ben})
            watcher = Watcher()
            mirror.conns.add(watcher)
            built: list[dict[str, Any]] = []
            done = False

            async def probe() -> None:  # states built at any moment, as a new connection's
                while not done:
                    built.append(mirror.state(None))
                    await asyncio.sleep(0)

            probing = asyncio.ensure_future(probe())
            moves = 0
            async with asyncio.timeout(60):
                while owner.row.hands_played < 2 and owner.row.status != "over":
                    model = owner.model
                    i = None if model is None or model.hand is None else model.person_to_act()
                    if i is not None:
                        moves += 1
                        state = owner.state(i)
                        if state["legal"] is not None:
                            await owner.owner.act(
                                (ana, ben)[i], f"m{moves}", cautious_line(state), state["version"]
                            )
                    if moves % 3 == 0 or i is None:
                        await mirror.mirror.refresh()
                    await asyncio.sleep(0.01)
            await mirror.mirror.refresh()
            done = True
            await probing
            hand_at = {
                m["version"]: (m["hand"] or {}).get("number")
                for m in owner_seen.sent
                if m["type"] == "state"
            }
            sent = [m for m in watcher.sent + built if m["type"] == "state"]
            assert any(m["hand"] and m["hand"]["final_stacks"] for m in sent)
            for m in sent:
                if m["version"] in hand_at and m["version"] > 1:
                    number = (m["hand"] or {}).get("number")
                    assert number == hand_at[m["version"]], (m["version"], number)
            del a

    asyncio.run(scenario())
