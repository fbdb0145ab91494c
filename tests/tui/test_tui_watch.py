"""Watching a recorded hand (primero.tui.watch, watchmodel, analysis) and its commands."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.cli import commands_tui
from primero.cli.app import app as cli_app
from primero.engine.cards import parse_cards
from primero.engine.history import HandRecord, RecordError, read_record, write_record
from primero.engine.odds import exchange_odds
from primero.engine.state import Phase
from primero.play.table import TableConfig
from primero.tui.analysis import exchange_decisions
from primero.tui.play import TableApp
from primero.tui.screentext import screen_text
from primero.tui.watch import WatchApp
from primero.tui.watchmodel import WatchModel, default_seat, parse_seat

VOID_DEAL = [
    "d dh p1 2c 3d", "d dh p2 Kd Qh", "d dh p3 Js 4s", "d dh p4 5h 6d",
    "p1 x 2c", "d dh p1 7c", "p2 x Kd Qh", "d dh p2 Ah As", "p3 x Js", "d dh p3 Jd",
    "p4 x 5h", "d dh p4 5c",
    "d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d",
    "p1 b 1", "p2 y", "p2 f", "p3 f", "p4 f",
]  # fmt: skip

SHOWDOWN = [
    "d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d",
    "p1 x 6h", "d dh p1 Ah", "p2 b 3", "p3 y", "p3 c", "p4 f", "p1 c",
    "d dh p1 6d 3c", "d dh p2 7c 5c", "d dh p3 Kh 4d",
    "p1 dc numerus", "p1 b 0", "p2 dc fluxus", "p2 c", "p3 dc primero", "p3 c",
    "p1 x 3c", "d dh p1 Jd", "p2 x 2d", "d dh p2 5s", "p3 x",
    "p1 b 0", "p2 c", "p3 c",
]  # fmt: skip

NAMES = ("Ana", "Ben", "Cleo", "Dev")


def record(lines: list[str], **extra: object) -> HandRecord:
    return HandRecord(NAMES, (20, 20, 20, 20), list(lines), extra=dict(extra))


def test_the_model_keeps_every_step_and_hides_other_cards() -> None:
    model = WatchModel(record(SHOWDOWN))
    assert model.steps == len(SHOWDOWN) and model.complete and model.seat == 0
    first = model.view(1)
    assert first.hand == parse_cards("7h 6h") and first.log == ("d dh p1 7h 6h",)
    as_ben = model.view(2, 1)
    assert as_ben.log[0] == "d dh p1 ?? ??" and as_ben.hand == parse_cards("Ac 2d")
    with pytest.raises(IndexError):
        model.view(model.steps + 1)


def test_the_default_seat_is_the_records_human() -> None:
    assert default_seat(record(SHOWDOWN, human="p3")) == 2
    assert default_seat(record(SHOWDOWN, human="Ben")) == 1
    assert default_seat(record(SHOWDOWN, human="nobody")) == 0
    assert default_seat(record(SHOWDOWN)) == 0
    assert parse_seat("Dev", NAMES) == 3 and parse_seat("P2", NAMES) == 1
    with pytest.raises(ValueError, match="no seat 'p7'"):
        parse_seat("p7", NAMES)


def test_an_invalid_record_is_watched_up_to_its_last_valid_action() -> None:
    model = WatchModel(record([*SHOWDOWN[:4], "p1 b 0", "p2 c"]))
    assert model.steps == 4 and not model.complete
    assert model.error is not None and model.error.index == 4
    with pytest.raises(RecordError):  # a bad header: no hand to show
        WatchModel(HandRecord(("Ana",), (20,), []))


def test_the_analysis_finds_each_exchange_decision_with_the_seats_odds() -> None:
    model = WatchModel(record(VOID_DEAL))
    decisions = exchange_decisions(model)
    assert [(d.step, d.move) for d in decisions] == [(4, "p1 x 2c"), (16, "p1 b 1")]
    first, second = decisions
    assert first.phase is Phase.FIRST_ROUND and first.chosen == parse_cards("2c")
    assert first.odds == exchange_odds("2c 3d")
    assert second.chosen == () and second.hand == parse_cards("7h 6h")
    assert second.dead == ()  # the void deal took the discards back (R4.3)
    assert second.agrees and second.cost == 0
    assert first.cost == pytest.approx(first.odds.best.score - first.chosen_choice.score)
    ben = exchange_decisions(WatchModel(record(SHOWDOWN)), 0)
    last = ben[-1]
    assert last.phase is Phase.SECOND_EXCHANGE and last.dead == parse_cards("6h")
    assert last.odds == exchange_odds(last.hand, parse_cards("6h"))


def test_watch_steps_forward_and_back_and_shows_the_analysis() -> None:
    async def body() -> None:
        app = WatchApp(WatchModel(record(VOID_DEAL)))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert app.step == 0  # opens at the start of the hand
            assert "start of the hand" in screen_text(app)
            await pilot.press("end")
            text = screen_text(app)
            assert "Analysis: p1 Ana's exchanges" in text and "Ana wins 4 chips" in text
            await pilot.press("home")
            assert app.step == 0 and "start of the hand" in screen_text(app)
            await pilot.press("right", "right")
            assert app.step == 2 and "action 2: Ben is dealt 2 cards" in screen_text(app)
            await pilot.press("left")
            assert app.step == 1
            await pilot.press("n")
            assert app.step == 4
            text = screen_text(app)
            assert "Decision at action 5" in text and "←" in text and "★" in text
            await pilot.press("n", "p")
            assert app.step == 4
            await pilot.press("end")
            assert app.step == len(VOID_DEAL)
            await pilot.press("a")
            assert "Analysis:" not in screen_text(app)
            await pilot.press("a", "2")
            assert app.seat == 1 and "Analysis: p2 Ben's exchanges" in screen_text(app)
            await pilot.press("home", "right", "right")
            text = screen_text(app)
            assert "K♦" in text and "2♣" not in text  # Ben's cards, not Ana's (R9b)
            await pilot.press("tab")
            assert app.seat == 2
            await pilot.press("q")

    asyncio.run(body())


def test_watch_command_prints_the_analysis(tmp_path: Path) -> None:
    path = write_record(record(SHOWDOWN, human="p2"), tmp_path / "hand.prh")
    result = CliRunner().invoke(cli_app, ["watch", "--text", str(path)])
    assert result.exit_code == 0, result.output
    assert "Analysis: p2 Ben's exchanges" in result.output
    result = CliRunner().invoke(cli_app, ["watch", "--text", "--seat", "Cleo", str(path)])
    assert "Analysis: p3 Cleo's exchanges" in result.output
    result = CliRunner().invoke(cli_app, ["watch", "--text", "--seat", "p9", str(path)])
    assert result.exit_code == commands_tui.EXIT_INVALID
    bad = tmp_path / "bad.prh"
    bad.write_text('variant = "primero"\n', encoding="utf-8")
    assert commands_tui.watch_files([bad], text=True) == commands_tui.EXIT_INVALID


def test_watch_files_opens_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_record(record(SHOWDOWN), tmp_path / "hand.prh")
    opened: list[WatchApp] = []
    monkeypatch.setattr(WatchApp, "run", lambda self, *a, **k: opened.append(self))
    monkeypatch.setattr(commands_tui, "has_terminal", lambda: True)
    assert commands_tui.watch_files([path, path], seat="p4") == 0
    assert [a.seat for a in opened] == [3, 3]
    assert read_record(path).actions == SHOWDOWN


def test_a_hand_saved_by_the_table_is_watched_from_the_persons_seat(tmp_path: Path) -> None:
    async def body() -> Path:
        config = TableConfig(seed=3, max_hands=2, bots=("random",), save_dir=tmp_path)
        app = TableApp(config, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for _ in range(300):
                if app.hand_over:
                    break
                keys = [c.key for c in app.pad.choices()]
                await pilot.press("c" if "c" in keys else keys[0])
                if app.pad.mode.value != "idle":
                    await pilot.press("enter" if keys[0] != "d" else "1")
            assert app.hand_over and app.table.saved  # saved as soon as the hand ended
            await pilot.press("enter")
            for _ in range(300):
                if app.hand_over:
                    break
                keys = [c.key for c in app.pad.choices()]
                await pilot.press("f" if "f" in keys else keys[0])
                if app.pad.mode.value != "idle":
                    await pilot.press("enter" if keys[0] != "d" else "1")
            assert len(app.table.saved) == 2
            return app.table.saved[-1]

    path = asyncio.run(body())
    model = WatchModel.from_file(path)
    assert model.record.players[model.seat] == "You"
    assert model.seat == 3  # the person deals the second hand (R3): p4, not p1


def test_watch_without_a_terminal_refuses_and_suggests_text(tmp_path: Path) -> None:
    path = write_record(record(SHOWDOWN), tmp_path / "hand.prh")
    for args in (["watch", str(path)], ["replay", "--watch", str(path)]):
        result = CliRunner().invoke(cli_app, args, input="")  # stdin/stdout not a terminal
        assert result.exit_code == 2, args
        assert "needs a terminal" in result.stderr
        assert "primero watch --text FILE" in result.stderr
        assert "\x1b" not in result.output
    result = CliRunner().invoke(cli_app, ["watch", "--text", str(path)], input="")
    assert result.exit_code == 0 and "Analysis:" in result.stdout
