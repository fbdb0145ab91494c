"""A table's one command queue (server/actor.py): commands sent concurrently to one table
run one at a time, in the order they arrived; a cancelled waiting command never runs; a
command may not wait for its own table; and no change of a table is written outside a
command. Deterministic: the bodies wait on events the test sets, the loop is only yielded
to (no sleep with a duration)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from pathlib import Path

import pytest

from primero.server.actor import Command, TableActor
from primero.server.hub import Hub
from primero.server.models import CreateTable
from primero.server.ops import OPS
from primero.server.settings import Settings
from primero.store import Store


async def _until(done: Callable[[], bool], what: str, turns: int = 1000) -> None:
    """Yield to the loop until ``done()`` (at most ``turns`` times)."""
    for _ in range(turns):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"{what}: not after {turns} turns of the loop")


async def _in_arrival_order() -> None:
    actor = TableActor()
    events: list[str] = []
    gates = [asyncio.Event() for _ in range(4)]
    kinds = [Command.BOT, Command.MOVE, Command.HOST, Command.TIMER]

    async def body(i: int) -> int:
        events.append(f"start {i}")
        assert actor.running is kinds[i]
        await gates[i].wait()
        events.append(f"end {i}")
        return i * 10

    tasks = []
    for i in range(4):  # sent in this order, all before the first one ends
        tasks.append(asyncio.create_task(actor.run(kinds[i], functools.partial(body, i))))
        await _until(functools.partial(lambda n: actor.waiting == n, i), f"command {i} queued")
    assert events == ["start 0"]
    assert actor.waiting == 3
    # released last to first: each still waits for the ones sent before it
    for i in (3, 2, 1):
        gates[i].set()
    for _ in range(50):  # the loop turns: still none of them may run ahead
        await asyncio.sleep(0)
    assert events == ["start 0"]
    gates[0].set()
    results = await asyncio.gather(*tasks)
    assert results == [0, 10, 20, 30]
    assert events == [
        "start 0",
        "end 0",
        "start 1",
        "end 1",
        "start 2",
        "end 2",
        "start 3",
        "end 3",
    ]
    assert actor.running is None and actor.waiting == 0 and actor.done == 4


def test_commands_run_one_at_a_time_in_arrival_order() -> None:
    asyncio.run(_in_arrival_order())


async def _cancelled_and_nested() -> None:
    actor = TableActor()
    ran: list[str] = []
    gate = asyncio.Event()

    async def first() -> None:
        ran.append("first")
        await gate.wait()

    async def second() -> None:
        ran.append("second")

    async def third() -> None:
        ran.append("third")

    a = asyncio.create_task(actor.run(Command.DEAL, first))
    await _until(lambda: ran == ["first"], "the first command runs")
    b = asyncio.create_task(actor.run(Command.MOVE, second))
    c = asyncio.create_task(actor.run(Command.PRESENCE, third))
    await _until(lambda: actor.waiting == 2, "two commands wait")
    b.cancel()  # a driver stopped while its command waits: it leaves the queue
    await _until(lambda: b.done(), "the cancelled command ends")
    assert actor.waiting == 1
    gate.set()
    await asyncio.gather(a, c)
    assert b.cancelled()
    assert ran == ["first", "third"]
    assert actor.done == 2

    async def nested() -> None:
        async with actor.command(Command.HOST):
            pass

    with pytest.raises(RuntimeError, match="a host command was sent inside a seat command"):
        await actor.run(Command.SEAT, nested)
    assert actor.running is None and actor.waiting == 0


def test_a_cancelled_command_never_runs_and_a_command_never_waits_for_itself() -> None:
    asyncio.run(_cancelled_and_nested())


async def _seats_in_order(url: str) -> None:
    store = Store(url)
    store.migrate()
    hub = Hub(Settings(database_url=url, bot_pause=0, bot_processes=0), store, OPS)
    await hub.load()
    try:
        rt = await hub.create(
            CreateTable.model_validate({"seats": ["open"] * 4, "turn_seconds": 0})
        )
        v = rt.version
        names = ["Ana", "Ben", "Cleo"]
        # three joins sent at once, none for a given seat: each takes the first open
        # seat when its turn comes, so the seats follow the order of arrival
        joins = [asyncio.create_task(rt.owner.take_seat(name)) for name in names]
        seats = [seat for seat, _token in await asyncio.gather(*joins)]
        assert seats == [0, 1, 2]
        assert [s.name for s in rt.row.seats] == ["Ana", "Ben", "Cleo", None]
        assert rt.version == v + 3
        assert rt.commands.done == 3
        assert store.load(rt.row.id)[0].version == v + 3

        # the one writer: a change written outside a command is refused, nothing stored
        def build(expected: int, new: int) -> Callable[[object], None]:
            return lambda conn: store.bump(conn, rt.row.id, expected, new)  # type: ignore[arg-type]

        with pytest.raises(RuntimeError, match="a change written outside its commands"):
            await rt.owner.store_change(build)
        assert rt.version == v + 3
        assert store.load(rt.row.id)[0].version == v + 3
    finally:
        await hub.close()


@pytest.mark.timeout(60)
def test_a_tables_joins_sent_at_once_take_seats_in_arrival_order(tmp_path: Path) -> None:
    asyncio.run(_seats_in_order(f"sqlite:///{tmp_path / 'a.db'}"))
