"""Text snapshots of the main screens, deterministic with a seed.

Each screen is exported as plain text (:func:`primero.tui.screentext.screen_text`) and
compared with ``tests/snapshots/<name>.txt``. After an intended change of a screen,
regenerate them with ``PRIMERO_UPDATE_SNAPSHOTS=1 pytest tests/tui/test_tui_snapshots.py``
and review the diff.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.app import App
from textual.pilot import Pilot

from primero.engine.history import HandRecord
from primero.play.table import TableConfig
from primero.tui.learn import LearnApp
from primero.tui.learn_script import Teach, You, keys_for
from primero.tui.play import TableApp
from primero.tui.screentext import screen_text
from primero.tui.watch import WatchApp
from primero.tui.watchmodel import WatchModel

SNAPSHOTS = Path(__file__).parent / "snapshots"
SIZE = (120, 40)
#: Every screen is shot at the standard 80x24 terminal and at 120x40.
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
UPDATE = os.environ.get("PRIMERO_UPDATE_SNAPSHOTS") == "1"


def check(name: str, text: str, size: tuple[int, int] = SIZE) -> None:
    if size != SIZE:
        name = f"{name}_{size[0]}x{size[1]}"
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"no snapshot {path}: run with PRIMERO_UPDATE_SNAPSHOTS=1 to write it")
    assert text + "\n" == path.read_text(encoding="utf-8"), f"screen {name} changed"


Driver = Callable[[Pilot[None]], Awaitable[None]]


def shoot(app: App[None], drive: Driver, size: tuple[int, int] = SIZE) -> str:
    async def body() -> str:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await drive(pilot)
            # settle: a layout change can take more than one refresh (the log's tail is
            # fitted under the table after the table is laid out); bounded, no sleep
            text = ""
            for _ in range(10):
                await pilot.pause()
                now = screen_text(app)
                if now == text:
                    break
                text = now
            return text

    return asyncio.run(body())


def table() -> TableApp:
    return TableApp(TableConfig(seed=7, max_hands=1, bots=("random",)), bot_delay=0)


async def nothing(pilot: Pilot[None]) -> None:
    return None


@pytest.mark.parametrize("size", SIZES)
def test_table_first_turn(size: tuple[int, int]) -> None:
    check("table_first_turn", shoot(table(), nothing, size), size)


@pytest.mark.parametrize("size", SIZES)
def test_table_hints(size: tuple[int, int]) -> None:
    async def drive(pilot: Pilot[None]) -> None:
        await pilot.press("h")

    check("table_hints", shoot(table(), drive, size), size)


@pytest.mark.parametrize("size", SIZES)
def test_table_help(size: tuple[int, int]) -> None:
    async def drive(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")

    check("table_help", shoot(table(), drive, size), size)


@pytest.mark.parametrize("size", SIZES)
def test_table_leave_question(size: tuple[int, int]) -> None:
    async def drive(pilot: Pilot[None]) -> None:
        await pilot.press("q")

    check("table_leave", shoot(table(), drive, size), size)


@pytest.mark.parametrize("size", SIZES)
def test_table_result(size: tuple[int, int]) -> None:
    app = table()

    async def drive(pilot: Pilot[None]) -> None:
        for _ in range(100):
            if app.hand_over:
                return
            keys = [c.key for c in app.pad.choices()]
            if "y" in keys:
                await pilot.press("y")
            elif "d" in keys:
                await pilot.press("d", "1")
            elif (
                "e" in keys and app.current is not None and app.current.phase.name != "FIRST_ROUND"
            ):
                await pilot.press("e", "enter")
            elif "c" in keys:
                await pilot.press("c")
            else:
                await pilot.press("b", "enter")
        assert app.hand_over, "the hand did not end within 100 moves: no result to compare"

    check("table_result", shoot(app, drive, size), size)


def hot_seat() -> TableApp:
    return TableApp(TableConfig(hot_seat=("Ana", "Ben"), seed=7, max_hands=1), bot_delay=0)


@pytest.mark.parametrize("size", SIZES)
def test_table_pass_screen(size: tuple[int, int]) -> None:
    """Pass and play: the cover before Ana's first turn (no table, no card under it)."""
    check("table_pass", shoot(hot_seat(), nothing, size), size)


@pytest.mark.parametrize("size", SIZES)
def test_table_hot_seat_turn(size: tuple[int, int]) -> None:
    """Pass and play: Ana's turn once she pressed enter (her cards, nobody else's)."""

    async def drive(pilot: Pilot[None]) -> None:
        await pilot.press("enter")

    check("table_hot_seat_turn", shoot(hot_seat(), drive, size), size)


def test_watch_decision() -> None:
    lines = [
        "d dh p1 2c 3d", "d dh p2 Kd Qh", "d dh p3 Js 4s", "d dh p4 5h 6d",
        "p1 x 2c", "d dh p1 7c", "p2 x Kd Qh", "d dh p2 Ah As", "p3 x Js", "d dh p3 Jd",
        "p4 x 5h", "d dh p4 5c",
        "d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d",
        "p1 b 1", "p2 y", "p2 f", "p3 f", "p4 f",
    ]  # fmt: skip
    record = HandRecord(("Ana", "Ben", "Cleo", "Dev"), (20,) * 4, lines)

    async def drive(pilot: Pilot[None]) -> None:
        await pilot.press("home", "n")

    check("watch_decision", shoot(WatchApp(WatchModel(record)), drive))


def _learn_until(key: str, size: tuple[int, int]) -> str:
    app = LearnApp()

    async def drive(pilot: Pilot[None]) -> None:
        for _ in range(200):
            step = app.guide.step
            if isinstance(step, Teach):
                if step.key == key:
                    return
                await pilot.press("space")
            elif isinstance(step, You):
                await pilot.press(*keys_for(app.guide.suggestion(), app.guide.view()))
        raise AssertionError(f"the lesson did not reach the step {key!r} within 200 moves")

    return shoot(app, drive, size)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lesson", ["welcome", "bet_or_exchange", "refusal", "declare", "showdown"])
def test_learn(lesson: str, size: tuple[int, int]) -> None:
    check(f"learn_{lesson}", _learn_until(lesson, size), size)
