"""Hints at an 80x24 terminal: they say where the rest is (PgDn) instead of pushing
the hand log off screen, and the log keeps its newest lines under them."""

from __future__ import annotations

import re

from primero.play.table import TableConfig
from primero.tui.board import MIN_TAIL
from primero.tui.play import TableApp
from primero.tui.screentext import screen_text
from tests.tui_helpers import run


def test_hints_are_cut_with_a_pgdn_line_and_the_log_keeps_its_newest_lines() -> None:
    async def body() -> None:
        app = TableApp(TableConfig(seed=12, max_hands=1), bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("h")
            text = ""
            for _ in range(10):  # the cut follows the layout over a few frames
                await pilot.pause()
                text = screen_text(app)
                if "more lines of hints: PgDn" in text:
                    break
            assert re.search(r"▼ \d+ more lines of hints: PgDn \(then the whole log\)", text), text
            newest = len(app.table.view().log)
            numbers = [int(n) for n in re.findall(r"^ +(\d+) [A-Z]", text, re.M)]
            assert len(numbers) >= MIN_TAIL and numbers[-1] == newest, text
            assert "the chance to beat one random hand" not in text  # the hints' last line
            await pilot.press("pagedown", "pagedown")
            await pilot.pause()
            text = screen_text(app)
            assert "more lines of hints" not in text
            assert "the chance to beat one random hand" in text, text

    run(body)
