"""A table's driver never freezes silently (issue 15 item 1): an unexpected error restarts
it from what is stored and the table goes on; one that keeps failing leaves its table
"broken" with the reason while the other tables go on. In-process (the hub without
HTTP), on an SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from primero.server import driver
from primero.server.hub import Hub
from primero.server.models import CreateTable
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
    hub = Hub(Settings(database_url=url, bot_pause=0, bot_processes=0), store)
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
            assert bad.status == "broken" and "a bug at the start of a hand" in (
                bad.broken or ""
            )
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
