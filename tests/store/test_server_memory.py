"""Idle tables leave memory and come back on first touch, and applied
action ids are not all loaded at start: the database answers for an id of an earlier
hand. In-process (the hub without HTTP), on an SQLite file, with a hand-moved clock."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from primero.server.clock import ManualClock
from primero.server.hub import IDLE_SECONDS, Hub
from primero.server.models import CreateTable
from primero.server.ops import OPS
from primero.server.settings import Settings
from primero.store import Store
from tests.client_policy import choose_line


class _Conn:
    def __init__(self, index: int | None) -> None:
        self.index = index
        self.got: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.got.append(message)


async def _settled(hub: Hub, table: str, seconds: float = 20.0) -> None:
    """Wait until a person is to act at ``table`` (nothing moves until they do)."""
    rt = hub.get(table)
    for _ in range(int(seconds / 0.01)):
        model = rt.model
        if model is not None and model.hand is not None and model.person_to_act() is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"no person to act at {table} within {seconds} s")


async def _scenario(url: str) -> None:
    store = Store(url)
    store.migrate()
    clock = ManualClock()
    hub = Hub(Settings(database_url=url, bot_pause=0, bot_processes=0, clock=clock), store, OPS)
    await hub.load()
    try:
        spec = CreateTable.model_validate(
            {"seats": ["open", "random", "random", "random"], "turn_seconds": 0}
        )
        rt = await hub.create(spec)
        _seat, _token = await rt.owner.take_seat("Ana")
        await _settled(hub, rt.row.id)
        me = _Conn(rt.model.person_to_act() if rt.model else None)
        state = rt.state(me.index)
        rt.conns.add(me)
        await rt.owner.act(me, "first", choose_line(state))
        assert me.got[-1]["version"] == state["version"] + 1
        await _settled(hub, rt.row.id)
        before = rt.state(me.index)
        assert not rt.idle(clock.now() + 2 * IDLE_SECONDS, IDLE_SECONDS)  # someone is here
        rt.conns.discard(me)
        assert not rt.idle(clock.now(), IDLE_SECONDS)  # touched just now
        clock.advance(IDLE_SECONDS + 1)
        assert rt.idle(clock.now(), IDLE_SECONDS)  # nobody here, no timer, a person to act
        await rt.evict()
        assert rt.model is None and rt.task is None and not rt.recent_ids
        back = await hub.touch(rt.row.id)  # read back from the store, replayed
        assert back is rt and rt.model is not None and not rt.evicted
        again = rt.state(me.index)
        assert again["version"] == before["version"] and again["hand"] == before["hand"]
        # "first" is no longer in memory: the database says it was applied (no error)
        me.got.clear()
        await rt.owner.act(me, "first", choose_line(again))
        assert [m["type"] for m in me.got] == ["state"]
        assert me.got[0]["version"] == before["version"]
    finally:
        await hub.close()


def test_an_idle_table_leaves_memory_and_comes_back(tmp_path: Path) -> None:
    asyncio.run(_scenario(f"sqlite:///{tmp_path / 'm.db'}"))
