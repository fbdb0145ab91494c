"""A table's driver never freezes silently: an unexpected error restarts
it from what is stored and the table goes on; one that keeps failing leaves its table
"broken" with the reason while the other tables go on. In-process (the hub without
HTTP), on an SQLite file. The bots' workers: no table's decision is timed while they
start, so a slow start never times out every other table's bots."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from primero.server import driver
from primero.server.botpool import FAULT_ENV, BotPool
from primero.server.hub import Hub
from primero.server.models import CreateTable
from primero.server.ops import OPS
from primero.server.runtime import TableRuntime
from primero.server.settings import Settings
from primero.store import Store

BOTS = {"seats": ["random"] * 4, "turn_seconds": 0, "stack": 1000, "max_hands": 1000}


async def _grows(rt: TableRuntime, by: int, seconds: float = 20.0) -> None:
    """Wait until the table's version grew by ``by`` (or its match ended)."""
    start = rt.version
    for _ in range(int(seconds / 0.01)):
        if rt.version >= start + by or rt.status == "over":
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"table {rt.row.id} did not move on within {seconds} s")


async def _scenario(url: str, monkeypatch: pytest.MonkeyPatch, always: bool) -> None:
    store = Store(url)
    store.migrate()
    hub = Hub(Settings(database_url=url, bot_pause=0, bot_processes=0), store, OPS)
    await hub.load()
    try:
        bad = await hub.create(CreateTable.model_validate(BOTS))
        good = await hub.create(CreateTable.model_validate(BOTS))
        await _grows(bad, 20)
        real = driver.start_hand
        failures: list[int] = []

        async def failing(rt: TableRuntime) -> Any:
            if rt is bad and (always or not failures):
                failures.append(1)
                raise RuntimeError("a bug at the start of a hand")
            return await real(rt)

        monkeypatch.setattr(driver, "start_hand", failing)
        for _ in range(2000):  # until the bad table has met its bug
            if failures:
                break
            await asyncio.sleep(0.01)
        assert failures
        await _grows(good, 50)  # the other table goes on meanwhile
        if always:
            for _ in range(2000):
                if bad.status == "broken":
                    break
                await asyncio.sleep(0.01)
            assert bad.status == "broken" and "a bug at the start of a hand" in (bad.broken or "")
            assert len(failures) == driver.CRASH_LIMIT
            assert bad.summary()["status"] == "broken"
            await _grows(good, 50)
        else:
            await _grows(bad, 20)  # restarted from the store, it plays on
            assert bad.status in ("playing", "over") and bad.broken is None
            assert len(failures) == 1
    finally:
        await hub.close()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("always", [False, True], ids=["once", "always"])
def test_a_failing_driver_restarts_or_breaks_its_table_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, always: bool
) -> None:
    asyncio.run(_scenario(f"sqlite:///{tmp_path / 'd.db'}", monkeypatch, always))


START = 3.0  # seconds each worker's start takes here (injected): twice the time limit
LIMIT = 1.5  # seconds a decision may take


async def _two_tables_deciding() -> list[list[tuple[Any, Any]]]:
    """Two tables' decisions asked at once while the workers start: after the server's
    start, and after a restart (what a decision past its limit causes)."""
    pool = BotPool(1, LIMIT)
    try:
        pool.prestart()  # as the server's start does
        first = await asyncio.gather(pool.decide(len, [1, 2]), pool.decide(len, [1, 2, 3]))
        pool._restart(pool._pool)  # a decision past its time: new workers, starting
        again = await asyncio.gather(pool.decide(len, "ab"), pool.decide(len, "abcd"))
    finally:
        pool.close()
    return [list(first), list(again)]


@pytest.mark.timeout(120)
def test_no_decision_is_timed_while_the_workers_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of two decisions asked while the bots' workers start (for START seconds, past
    the LIMIT of a decision) is decided once they have started, not timed out: the second
    caller waits for the start as the first does. Timed from its call, it timed out and
    restarted the workers before they were ready; on a loaded host that went on for good,
    every heuristic move of every table waiting out the limit (the cluster test's
    spectator then heard nothing for 30 s)."""
    monkeypatch.setenv(FAULT_ENV, f"start:{START}")  # read by the spawned workers
    assert asyncio.run(_two_tables_deciding()) == [[(2, len), (3, len)], [(2, len), (4, len)]]
