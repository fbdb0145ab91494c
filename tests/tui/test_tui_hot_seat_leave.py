"""Leaving from the pass screen of pass and play (``primero play --hot-seat``): q asks
first in mid-hand, y leaves, n brings the cover back (found by a
fresh-user pass: y on the question asked from the pass screen left the person at the
public table, and only a second q and y left)."""

from __future__ import annotations

from primero.play.table import TableConfig
from primero.tui.play import TableApp
from primero.tui.screens import ConfirmLeave, PassScreen
from tests.tui_helpers import run

CONFIG = TableConfig(hot_seat=("Ana", "Ben"), bots=("heuristic",), seed=5, max_hands=2)


def test_q_then_y_on_the_pass_screen_leaves() -> None:
    async def body() -> None:
        app = TableApp(CONFIG, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, PassScreen)
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmLeave)
            await pilot.press("y")
            await pilot.pause()
            assert not app.is_running

    run(body)


def test_q_then_n_on_the_pass_screen_covers_the_table_again() -> None:
    async def body() -> None:
        app = TableApp(CONFIG, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, PassScreen)
            who = app.passing
            await pilot.press("q")
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            assert app.is_running
            assert isinstance(app.screen, PassScreen) and app.passing == who
            assert app.table.viewer is None  # nobody's cards under the cover

    run(body)
