"""The step-through viewer (``primero watch``, ``replay --watch``) at 80x24 and 120x40:
everything essential on screen, the rest scrollable; it opens
at the first step, names the file (``file 1 of 2``), says each action in words with suit
symbols and checks as checks, and shows an invalid record up to its last valid action
with the error there.

Text snapshots live in ``tests/snapshots/watch_*.txt``; after an intended change of the
screen, regenerate them with ``PRIMERO_UPDATE_SNAPSHOTS=1 pytest tests/tui/test_watch_screens.py``
and review the diff.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from pathlib import Path

import pytest
from textual.pilot import Pilot

from primero.engine.history import HandRecord
from primero.play.recordpos import action_lines
from primero.tui.screentext import screen_text
from primero.tui.watch import WatchApp
from primero.tui.watchmodel import WatchModel
from tests.paths import CASES_DIR

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("PRIMERO_UPDATE_SNAPSHOTS") == "1"
SIZES = {"80x24": (80, 24), "120x40": (120, 40)}

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eve", "Fay")
#: Six players (the most at the default table): a bet of 3 in the first round, accepted;
#: a declare round, the second exchange, a last round of checks, and a showdown.
SIX = [
    "d dh p1 Kc 5c", "d dh p2 Jd 7c", "d dh p3 3c Kd", "d dh p4 Js 3s", "d dh p5 As Ad",
    "d dh p6 4h 4d", "p1 x Kc", "d dh p1 Jc", "p2 x Jd", "d dh p2 4c", "p3 b 3", "p4 y",
    "p4 c", "p5 f", "p6 c", "p1 c", "p2 c",
    "d dh p1 3d Qs", "d dh p2 4s 2s", "d dh p3 Kh 2d", "d dh p4 7d 6h", "d dh p6 Qh 6s",
    "p1 dc numerus", "p1 b 4", "p2 y", "p2 dc numerus", "p2 c", "p3 dc numerus", "p3 c",
    "p4 dc numerus", "p4 c", "p6 dc numerus", "p6 c",
    "p1 x", "p2 x 7c", "d dh p2 7s", "p3 x", "p4 x Js", "d dh p4 2c", "p6 x 4h", "d dh p6 3h",
    "p1 b 0", "p2 c", "p3 c", "p4 c", "p6 c",
]  # fmt: skip


def six(lines: Sequence[str] = SIX) -> HandRecord:
    return HandRecord(NAMES, (100,) * 6, list(lines), extra={"hand_number": 3})


def check(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE:
        path.write_text(text + "\n", encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"no snapshot {path}: run with PRIMERO_UPDATE_SNAPSHOTS=1 to write it")
    assert text + "\n" == path.read_text(encoding="utf-8"), f"screen {name} changed"


async def settle(pilot: Pilot[None], app: WatchApp) -> str:
    """The screen once it stops changing (the viewer scrolls to the result or the error
    after a refresh: on a busy machine that can take more than one pause)."""
    text = ""
    for _ in range(50):
        await pilot.pause()
        now = screen_text(app)
        if now == text:
            break
        text = now
    return text


def shoot(app: WatchApp, size: tuple[int, int], *keys: str, step: int | None = None) -> str:
    async def body() -> str:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            if step is not None:
                app.go_to(step)
            for key in keys:
                await pilot.press(key)
            return await settle(pilot, app)

    return asyncio.run(body())


def _app(lines: Sequence[str] = SIX, **kwargs: object) -> WatchApp:
    return WatchApp(WatchModel(six(lines)), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_first_step(size: str) -> None:
    check(f"watch_first_{size}", shoot(_app(name="hand.prh", position=(1, 2)), SIZES[size]))


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_declare_round(size: str) -> None:
    # after action 24 (p2 accepts p1's bet of 4): every seat has its four cards
    text = shoot(_app(name="hand.prh"), SIZES[size], "right", step=23)
    check(f"watch_declare_{size}", text)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_showdown(size: str) -> None:
    check(f"watch_showdown_{size}", shoot(_app(name="hand.prh"), SIZES[size], "end"))


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_invalid_record(size: str) -> None:
    text = shoot(_app([*SIX[:24], "p2 r 2"], name="bad.prh"), SIZES[size], "end")
    check(f"watch_invalid_{size}", text)


def _rows(text: str) -> list[str]:
    return text.splitlines()


def test_the_essentials_fit_80x24_at_every_step() -> None:
    # at every other step and the last, the first screen holds: both banner lines, the
    # header and all six seat rows of the table, and the key buttons (when the hand is
    # not over), or the result (when it is)
    async def body() -> None:
        app = _app(name="hand.prh")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for step in [*range(0, len(SIX), 2), len(SIX)]:
                app.go_to(step)
                text = await settle(pilot, app)
                rows = _rows(text)
                assert len(rows) <= 24 and all(len(r) <= 80 for r in rows)
                assert rows[0].startswith(" Watching p1 Ana · hand.prh · hand 3")
                assert rows[1].startswith(f" Step {step}/{len(SIX)}")
                if step < len(SIX):
                    for name in NAMES:
                        assert any(f" {name} " in r for r in rows), (step, name, text)
                    assert "← back" in text and "q quit" in text, (step, text)
                else:
                    assert "wins" in text and "Showdown" in text, text  # the result

    asyncio.run(body())


def test_the_rest_scrolls_into_view_at_80x24() -> None:
    async def body() -> None:
        app = _app(name="hand.prh")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "Hand log" not in await settle(pilot, app)
            for _ in range(3):
                await pilot.press("pagedown")
            text = await settle(pilot, app)
            assert "Analysis: p1 Ana's exchanges" in text or "Hand log" in text, text
            await pilot.press("right")  # a step goes back to the top
            assert " Ana " in await settle(pilot, app)

    asyncio.run(body())


def test_opens_at_the_first_step_and_says_each_action() -> None:
    async def body() -> None:
        app = _app(name="dir/hand.prh", position=(2, 3))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert app.step == 0
            rows = _rows(screen_text(app))
            assert rows[0].startswith(" Watching p1 Ana · hand.prh (file 2 of 3) · hand 3")
            assert rows[1].startswith(" Step 0/46: the start of the hand (antes in)")
            await pilot.press("right")
            await pilot.pause()
            # suit symbols, as everywhere else on screen, not "Kc 5c"
            assert "action 1: Ana is dealt K♣ 5♣" in screen_text(app)
            app.go_to(41)
            await pilot.press("right")
            await pilot.pause()
            assert app.step == 42
            assert "action 42: Ana checks" in screen_text(app)  # "p1 b 0"
            await pilot.press("right")
            await pilot.pause()
            assert "action 43: Ben checks" in screen_text(app)  # "p2 c" on a bet of 0
            await pilot.press("left", "left", "left")
            await pilot.pause()
            assert "action 40: Fay exchanges 1 card" in screen_text(app)  # hidden (R9b)
            app.go_to(6)
            await pilot.press("right")
            await pilot.pause()
            assert "action 7: Ana exchanges K♣" in screen_text(app)  # her own

    asyncio.run(body())


def test_an_invalid_record_steps_up_to_its_last_valid_action() -> None:
    lines = [*SIX[:24], "p2 r 2", "p2 c"]
    text = (
        'variant = "primero"\nplayers = []\nstarting_stacks = []\nactions = [\n'
        + "".join(f'  "{line}",\n' for line in lines)
        + "]\n"
    )
    file_lines = action_lines(text, "toml")
    assert file_lines is not None and file_lines[24] == 29  # 4 header lines, then one each
    model = WatchModel(six(lines), file_lines=file_lines)
    assert model.steps == 24 and model.error is not None and model.error.index == 24

    async def body() -> None:
        app = WatchApp(model, name="bad.prh")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.step == 0 and "invalid after action 24" in screen_text(app)
            await pilot.press("end")
            screen = await settle(pilot, app)
            assert "action 24 (file line 28): Ana bets 4 · next is invalid ↓" in screen
            # p2 must vote on Ana's bet first (R8)
            assert "bad.prh:29: action 25 ('p2 r 2') is invalid: 'p2 r 2' is not allowed now" in (
                screen.replace("\n ", " ")
            ), screen
            await pilot.press("right")  # no step beyond the last valid one
            assert app.step == 24

    asyncio.run(body())


def test_a_superscript_digit_is_no_seat_key() -> None:
    # "²".isdigit() is true, and int("²") fails: the key must simply do nothing
    async def body() -> None:
        app = _app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("²", "9", "0")
            assert app.seat == 0
            await pilot.press("3")
            assert app.seat == 2

    asyncio.run(body())


def test_at_the_end_the_table_the_cards_and_the_result_are_on_screen_at_80x24() -> None:
    """The same for ``watch``: End at 80x24 shows the seats table (with the cards shown
    at the showdown), the watched seat's cards and the result; PageDown opens the hand
    log at its newest line, not its oldest."""

    async def body() -> None:
        app = _app(name="hand.prh")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("end")
            text = await settle(pilot, app)
            assert "player  stack" in text, text  # the seats table's header
            for name in NAMES:
                assert f" {name} " in text, (name, text)
            assert "3♠ 7♦ 6♥ 2♣" in text  # Dev's cards, shown at the showdown
            assert "Ana's cards: [1]5♣ [2]J♣ [3]3♦ [4]Q♠" in text
            assert "Dev wins 41 chips (primero 64)" in text
            assert "q quit" in text.splitlines()[-1]
            await pilot.press("pagedown")
            text = await settle(pilot, app)
            assert " 46 Fay checks" in text, text
            assert "  1 Ana is dealt" not in text, text

    asyncio.run(body())


@pytest.mark.needs("shared_cases")
@pytest.mark.parametrize("case", ["01-tie-eldest-wins.prh", "09-side-pot.prh"])
def test_a_shared_case_at_its_end_shows_the_seats_and_the_cards_at_80x24(case: str) -> None:
    async def body() -> None:
        model = WatchModel.from_file(CASES_DIR / case)
        app = WatchApp(model, name=case)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("end")
            text = await settle(pilot, app)
            v = model.view(model.steps)
            assert "player  stack" in text, text
            for name in v.players:
                assert f" {name} " in text, (name, text)
            assert all(c.pretty in text for c in v.hand), text
            assert "Chips:" in text, text  # the result

    asyncio.run(body())
