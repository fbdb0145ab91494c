"""Pass and play at one terminal: one cover per person's turn. A vote that a person's
own refusal limit answers is cast without covering the table for them, and a person
who still holds the device (only bots and the dealer moved since) is not covered twice
in a row within a hand."""

from __future__ import annotations

import pytest

from primero.play.table import TableConfig
from primero.tui.actionpad import PadMode
from primero.tui.play import TableApp
from primero.tui.screens import PassScreen
from primero.tui.screentext import screen_text
from tests.tui_helpers import run, turn_keys

SIZE = (80, 24)


@pytest.mark.soak
def test_one_cover_per_turn_and_no_cover_for_a_vote_a_limit_answers() -> None:
    """Ana and Ben (and two bots), three hands; at their first vote each sets a limit of
    0 (``a``, enter with 0): every later bet above 0 is refused for them. Each cover is
    followed by a decision of the person it named (never by nothing to do), two covers
    in a row within a hand always name two people, and the votes cast by a limit are
    in the log, said on screen with the person's name."""

    async def body() -> None:
        config = TableConfig(hot_seat=("Ana", "Ben"), bots=("heuristic",), seed=21, max_hands=3)
        app = TableApp(config, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            covered: list[str] = []  # who each cover of this hand named
            pending_cover: str | None = None  # a cover not yet followed by a decision
            limits: set[str] = set()
            said: set[str] = set()
            for _ in range(800):
                table = app.table
                if app.match_over:
                    break
                text = screen_text(app)
                for name in ("Ana", "Ben"):
                    if f"Refused for {name} (above {name}'s limit of 0" in text:
                        said.add(name)
                if isinstance(app.screen, PassScreen):
                    who = app.passing
                    assert who is not None
                    name = table.match.players[who]
                    assert pending_cover is None, f"a cover for {pending_cover}, then {name}"
                    if covered:
                        assert covered[-1] != name, f"{name} covered twice in a row"
                    covered.append(name)
                    pending_cover = name
                    await pilot.press("enter")
                    continue
                if app.hand_over:
                    covered, pending_cover = [], None
                    await pilot.press("enter")
                    continue
                assert app.pad.active and table.viewer is not None
                name = table.match.players[table.viewer]
                assert pending_cover in (None, name)
                pending_cover = None
                keys = [c.key for c in app.pad.choices()]
                if "y" in keys and name not in limits:
                    limits.add(name)
                    await pilot.press("a")
                    assert app.pad.mode is PadMode.LIMIT
                    await pilot.press("backspace", "backspace", "backspace", "0", "enter")
                    continue
                assert "y" not in keys or (app.current and app.current.pending_bet), keys
                await pilot.press(*turn_keys(app))
            assert app.match_over
            assert limits == {"Ana", "Ben"}
            assert said, "no vote was answered by a limit"

    run(body)
