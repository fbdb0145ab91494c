"""The terminal table between hands: a key that does nothing is answered with the keys
that do something, and the next hand waits for Enter."""

from __future__ import annotations

from primero.play.table import TableConfig
from primero.tui.play import TableApp
from primero.tui.screentext import screen_text
from tests.tui_helpers import run, turn_keys


def test_an_unknown_key_at_the_end_of_a_hand_is_answered() -> None:
    async def body() -> None:
        app = TableApp(TableConfig(seed=12, bots=("random",), max_hands=2), bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(100):
                if app.hand_over:
                    break
                await pilot.press(*turn_keys(app))
            assert app.hand_over and app.table.hand_number == 1
            await pilot.press("x")
            await pilot.pause()
            text = screen_text(app)
            assert "'x' does nothing now: ⏎ next hand, q leave, ? help" in text, text
            assert app.hand_over and app.table.hand_number == 1  # no new hand dealt
            await pilot.press("enter")
            assert not app.hand_over and app.table.hand_number == 2
            assert "does nothing now" not in screen_text(app)

    run(body)
