"""The terminal table: 80x24 screens, scrolling, leaving, help, look-back,
the skip key, and arbitrary keys in every input mode."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rich.console import Console
from textual.app import App
from textual.containers import VerticalScroll

from primero.engine.actions import parse_action
from primero.engine.state import HandState
from primero.engine.views import view
from primero.play.table import Table, TableConfig
from primero.play.tablemodel.sentences import result_sentences
from primero.tui.actionpad import PadMode
from primero.tui.learn import LearnApp
from primero.tui.learn_script import Teach
from primero.tui.play import TableApp
from primero.tui.screens import ConfirmLeave, HelpScreen
from primero.tui.screentext import screen_text
from primero.tui.tablepanel import table_panel
from tests.tui_helpers import first_declare, run

NARROW = (80, 24)
WIDE = (120, 40)


def table_app(**kw: Any) -> TableApp:
    config = TableConfig(seed=7, max_hands=2, bots=("random",), **kw)
    return TableApp(config, bot_delay=0)


# ------------------------------------------------------------------ the seats table


def _declared_vote_view() -> HandState:
    # Declare round (R4.5): p1 declares supremus and bets 3; with three players still
    # in, the others vote (R8). p2 must accept or refuse, reading p1's declaration.
    s = HandState(["Baldassare", "Lucrezia", "Vittoria", "Caterina"], [50] * 4)
    for line in [
        "d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d",
        "p1 b 2", "p2 y", "p2 c", "p3 c", "p4 f",
        "d dh p1 Ah 2c", "d dh p2 3c 4c", "d dh p3 Kd Qd",
        "p1 dc supremus", "p1 b 3",
    ]:  # fmt: skip
        s.apply(parse_action(line, 4))
    return s


@pytest.mark.parametrize("width", [78, 118])
def test_declarations_stay_readable_while_a_bet_is_under_vote(width: int) -> None:
    s = _declared_vote_view()
    v = view(s, 1)
    assert v.legal is not None and v.legal.vote
    console = Console(file=io.StringIO(), width=width, color_system=None, record=True)
    console.print(table_panel(v))
    text = console.export_text()

    def rows(name: str) -> str:
        (line,) = [line for line in text.splitlines() if name in line]
        return line

    assert "supremus" in rows("Baldassare") and "under vote" in rows("Baldassare")
    assert "to vote" in rows("Lucrezia")
    assert "…" not in text  # nothing cut
    assert "p1" not in text and "p2" not in text  # names, not record seat labels
    assert max(len(line) for line in text.splitlines()) <= width


def _six_long_names_four_cards() -> HandState:
    # Six seats, stacks of 100000; p1 bets 200 (R4.2 ante 1 first), all call: everyone
    # has 201 in the pot and four cards after the second deal (R4.4).
    names = ["Maximiliano Fernandez de", "Lorenzo", "Isabella", "Girolamo", "Caterina",
             "Baldassare"]  # fmt: skip
    s = HandState(names, [100000] * 6)
    first = ["7h 6h", "Ac 2d", "Ks Qs", "5h 5d", "4c 4s", "3h 3d"]
    for i, cards in enumerate(first):
        s.apply(parse_action(f"d dh p{i + 1} {cards}", 6))
    for line in ["p1 b 200", "p2 y", "p2 c", "p3 c", "p4 c", "p5 c", "p6 c"]:
        s.apply(parse_action(line, 6))
    second = ["Ah 2c", "3c 4h", "Kd Qd", "5c 5s", "6c 6d", "7c 7d"]
    for i, cards in enumerate(second):
        s.apply(parse_action(f"d dh p{i + 1} {cards}", 6))
    return s


@pytest.mark.parametrize("width", [56, 66, 78])
def test_long_names_are_cut_before_numbers_marks_and_cards(width: int) -> None:
    v = view(_six_long_names_four_cards(), 0)
    assert v.to_act == 0 and all(size == 4 for size in v.hand_sizes)
    labels = [f"{name} (heuristic)" if s else name for s, name in enumerate(v.players)]
    console = Console(file=io.StringIO(), width=width, color_system=None, record=True)
    console.print(table_panel(v, labels))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= width
    rows = lines[1:7]
    assert rows[0].startswith("▶") and rows[5].split()[0] == "D"  # marks kept
    for row in rows:
        assert " 99799 " in row and " 201 " in row  # stack and chips in, whole
        assert row.count("▒▒") == 4 or "7♥ 6♥ A♥ 2♣" in row  # four cards, none cut
    if width < 66:
        assert "…" in rows[0] and "Maximiliano Fernandez de" not in rows[0]


def test_seats_show_names_and_a_dealer_mark() -> None:
    v = view(_declared_vote_view(), 0)
    console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
    console.print(table_panel(v))
    lines = console.export_text().splitlines()
    dealer = next(line for line in lines if "Caterina" in line)
    assert dealer.split()[0] == "D"  # p4 deals (R3)
    assert not any(line.split()[:1] == ["D"] for line in lines if "Caterina" not in line)


# ------------------------------------------------------------------ 80x24


def test_learn_at_80x24_shows_the_lesson_text_after_three_spaces() -> None:
    async def body() -> None:
        app = LearnApp()
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            for _ in range(3):
                await pilot.press("space")
            await pilot.pause()
            step = app.guide.step
            assert isinstance(step, Teach)
            text = screen_text(app)
            assert app.lesson is not None and app.lesson.title in text
            first_words = " ".join(app.lesson_text.split()[:6])
            assert first_words in " ".join(text.split())
            assert "Press space to go on" in text

    run(body)


async def _play_to_result(app: TableApp, pilot: Any) -> None:
    for _ in range(200):
        if app.hand_over:
            break
        keys = [c.key for c in app.pad.choices()]
        if "y" in keys:
            await pilot.press("y")
        elif "d" in keys:
            await pilot.press("d", first_declare(app))
        elif "c" in keys:
            await pilot.press("c")
        elif "e" in keys and app.current is not None and app.current.phase.name != "FIRST_ROUND":
            await pilot.press("e", "enter")
        else:
            await pilot.press("b", "enter")
    await pilot.pause()


@pytest.mark.parametrize("size", [NARROW, WIDE])
def test_the_result_and_the_log_are_reachable(size: tuple[int, int]) -> None:
    async def body() -> None:
        app = table_app()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await _play_to_result(app, pilot)
            assert app.hand_over
            text = screen_text(app)
            view = app.current
            assert view is not None
            assert "Chips:" in text  # the chips and who won on screen
            for line in result_sentences(view, view.players):
                assert line in text
            # PageDown/PageUp/arrows scroll: the start of the log can be reached
            main = app.board.query_one("#main", VerticalScroll)
            for _ in range(10):
                await pilot.press("pagedown")
            await pilot.pause()
            if size == NARROW:
                assert main.scroll_y > 0
                assert re.search(r"^ {1,3}\d{1,3} [A-Z]", screen_text(app), re.M)  # log lines
            for _ in range(30):
                await pilot.press("pageup")
            await pilot.pause()
            assert main.scroll_y == 0 or size == WIDE
            if size == NARROW:
                assert "Hand 1 of 2" in screen_text(app)  # back at the top
                await pilot.press("down")
                await pilot.pause()
                assert main.scroll_y == 1

    run(body)


# ------------------------------------------------------------------ leaving


@pytest.mark.parametrize("key", ["q", "ctrl+q", "ctrl+c", "ctrl+d"])
def test_every_leave_key_asks_mid_hand_and_n_stays(key: str) -> None:
    async def body() -> None:
        app = table_app()
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, ConfirmLeave)
            assert "Leave the table in the middle of this hand?" in screen_text(app)
            await pilot.press("n")
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmLeave)
            assert app.is_running and app.pad.active
            await pilot.press(key)
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
        assert app.return_code == 0

    run(body)


@pytest.mark.parametrize("saving", [False, True])
def test_the_leave_question_says_whether_the_match_is_saved(saving: bool, tmp_path: Path) -> None:
    async def body() -> None:
        app = table_app(save_dir=tmp_path if saving else None)
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
            text = " ".join(screen_text(app).split())
            resume = "primero play --resume continues it."
            not_saved = "This match is not saved (--no-save): leaving ends it."
            assert (resume in text) is saving
            assert (not_saved in text) is not saving
            await pilot.press("n")

    run(body)


def test_leaving_between_hands_does_not_ask_and_counts_the_session() -> None:
    async def body() -> None:
        app = table_app()
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            await _play_to_result(app, pilot)
            assert "q leave" in screen_text(app)  # the key bar says how to leave
            await pilot.press("q")
            await pilot.pause()
            assert not app.is_running
        assert app.summary.hands_played == 1
        chips = app.table.match.chips[0]
        assert app.summary.lines(chips)[1] == (
            f"Your chips over the session: 100 → {chips} ({chips - 100:+d})"
        )

    run(body)


@pytest.mark.parametrize(("typed", "expect"), [("q", ConfirmLeave), ("?", HelpScreen)])
def test_the_move_box_takes_q_and_question_mark(typed: str, expect: type) -> None:
    async def body() -> None:
        app = table_app()
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            await pilot.press("colon", typed, "enter")
            await pilot.pause()
            assert isinstance(app.screen, expect)
            assert "unknown command" not in screen_text(app)

    run(body)


def test_help_shows_the_keys_and_the_cheat_sheet_and_scrolls() -> None:
    async def body() -> None:
        app = table_app()
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            text = screen_text(app)
            assert "Keys at the table" in text and "q          leave" in text
            scroll = app.screen.query_one(VerticalScroll)
            await pilot.press("pagedown")
            await pilot.pause()
            assert scroll.scroll_y > 0 and screen_text(app) != text
            await pilot.press("end")
            await pilot.pause()
            assert scroll.scroll_y == scroll.max_scroll_y > 0
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, HelpScreen) and app.pad.active

    run(body)


# ------------------------------------------------------------------ look back, skip


def test_l_opens_the_viewer_on_the_last_saved_hand(tmp_path: Path) -> None:
    opened: list[Path] = []

    def viewer(app: App[None], path: Path) -> str:
        opened.append(path)
        return "" if len(opened) == 1 else f"the viewer could not open here; see {path}"

    async def body() -> None:
        app = TableApp(
            TableConfig(seed=7, max_hands=2, bots=("random",), save_dir=tmp_path),
            bot_delay=0,
            viewer=viewer,
        )
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            await pilot.press("l")
            await pilot.pause()
            assert not opened and "no hand has been saved yet" in screen_text(app)
            await _play_to_result(app, pilot)
            assert "l last hand" in screen_text(app)
            await pilot.press("l")
            await pilot.pause()
            assert opened == [app.table.saved[-1]]
            assert app.is_running
            await pilot.press("l")  # a viewer that cannot open says so, and play goes on
            await pilot.pause()
            assert "the viewer could not open here" in screen_text(app)
            assert app.hand_over and app.is_running

    run(body)


def test_l_shows_the_viewer_inside_the_table_and_q_comes_back(tmp_path: Path) -> None:
    # the viewer is a screen of the app, never the shell's prompt
    from primero.tui.watch import WatchScreen

    async def body() -> None:
        app = table_app(save_dir=tmp_path)
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            await _play_to_result(app, pilot)
            await pilot.press("l")
            await pilot.pause()
            assert isinstance(app.screen, WatchScreen)
            text = screen_text(app)
            saved = app.table.saved[-1]
            assert f"Watching p1 You · {saved.name}" in text, text
            assert "Step 0/" in text and "q quit" in text
            await pilot.press("right")
            await pilot.pause()
            assert app.screen.step == 1 and "Step 1/" in screen_text(app)
            await pilot.press("q")
            await pilot.pause()
            assert not isinstance(app.screen, WatchScreen)
            assert app.is_running and app.hand_over
            assert "l last hand" in screen_text(app)

    run(body)


def test_the_wait_for_the_bots_shows_the_skip_key() -> None:
    async def body() -> None:
        app = TableApp(TableConfig(seed=7, max_hands=1, bots=("random",)), bot_delay=30)
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            assert app.animating
            text = screen_text(app)
            assert "Press space to skip" in text and "space skip" in text
            await pilot.press("space")
            await pilot.pause()
            assert not app.animating

    run(body)


def test_after_folding_the_skip_key_shows_and_skips_to_the_end() -> None:
    async def body() -> None:
        app = TableApp(TableConfig(seed=7, max_hands=1, bots=("random",)), bot_delay=30)
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            for _ in range(50):
                if app.hand_over:
                    break
                if app.animating:
                    await pilot.press("space")
                    await pilot.pause()
                    continue
                legal = app.current.legal if app.current is not None else None
                if legal is not None and legal.fold:
                    await pilot.press("f")
                    await pilot.pause()
                    text = screen_text(app)
                    assert app.animating  # the others play on, slowly
                    assert "You folded: the others play on." in text
                    assert "Press space to skip" in text
                    await pilot.press("space")
                    await pilot.pause()
                    assert app.hand_over
                    return
                keys = [c.key for c in app.pad.choices()]
                await pilot.press("y" if "y" in keys else "b", *([] if "y" in keys else ["enter"]))
                await pilot.pause()
            pytest.fail("the person never had the chance to fold")

    run(body)


# ------------------------------------------------------------------ arbitrary keys

_KEY_NAMES = [
    "enter", "escape", "backspace", "up", "down", "left", "right", "pageup", "pagedown",
    "home", "end", "tab", "space", "colon", "question_mark", "h", "l", "e", "b", "r", "c",
    "f", "y", "n", "d", "x", "1", "2", "3", "4", "5", "0", "9",
]  # fmt: skip
_LEAVING = {"q", "ctrl+q", "ctrl+c", "ctrl+d"}


def _mode_keys(mode: str) -> list[str]:
    return {"idle": [], "exchange": ["e"], "amount": ["b"], "declare": ["d"], "command": ["colon"]}[
        mode
    ]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mode=st.sampled_from(["idle", "exchange", "amount", "command"]),
    keys=st.lists(
        st.one_of(
            st.sampled_from(_KEY_NAMES),
            st.characters(codec="utf-8").filter(lambda c: c not in _LEAVING),
        ),
        max_size=12,
    ),
)
def test_arbitrary_keys_in_every_mode_never_crash_the_table(mode: str, keys: list[str]) -> None:
    """Unicode keys (² included) in each input mode: no exception; and until a key
    that makes a move, nothing changes in the hand."""

    async def body() -> None:
        app = table_app()
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            hand = app.table.hand
            assert hand is not None
            before = hand.lines()
            for key in _mode_keys(mode):
                app.handle_key(key, None)
            for key in keys:
                character = key if len(key) == 1 else None
                app.handle_key(key, character)
                if app.pad.mode is PadMode.IDLE and mode != "idle":
                    break
            await pilot.pause()
            changed = hand.lines() != before
            if changed:  # only a complete, legal move changes the hand
                assert hand.lines()[: len(before)] == before
            assert app.is_running

    run(body)


@settings(max_examples=150, deadline=None)
@example(["²", "٣", "1"])
@example(["escape", "f"])
@given(st.lists(st.one_of(st.sampled_from(_KEY_NAMES), st.characters(codec="utf-8")), max_size=10))
def test_arbitrary_keys_in_the_declare_mode(keys: list[str]) -> None:
    s = _declared_vote_view()
    # p2 accepts; the next seat to declare is p2 (declare mode keys are digits 1..n)
    s.apply(parse_action("p2 y", 4))
    from primero.tui.actionpad import ActionPad

    pad = ActionPad()
    v = view(s, s.to_act if s.to_act is not None and s.to_act >= 0 else 0)
    pad.reset(v)
    pad.press("d")
    assert pad.mode is PadMode.DECLARE
    for key in keys:
        if pad.mode is not PadMode.DECLARE:
            break  # escape left declare mode: later keys belong to another mode
        action = pad.press(key, key if len(key) == 1 else None)
        if action is not None:  # only 1..n picks a category (R6); the engine decides
            assert key in "12345" and len(key) == 1
            break
    assert s.lines()[-1] == "p2 y"  # the pad changes nothing by itself


@settings(max_examples=150, deadline=None)
@example(mode="exchange", keys=["²"])
@example(mode="amount", keys=["²", "enter"])
@example(mode="amount", keys=["9"] * 12 + ["up", "enter"])
@example(mode="command", keys=["b", "space", "²", "enter"])
@example(mode="idle", keys=["٣", "⁴"])
@given(
    mode=st.sampled_from(["exchange", "amount", "command", "idle"]),
    keys=st.lists(
        st.one_of(st.sampled_from(_KEY_NAMES), st.characters(codec="utf-8")), max_size=12
    ),
)
def test_arbitrary_keys_in_every_pad_mode(mode: str, keys: list[str]) -> None:
    """Every input mode of the action pad (first round: exchange, amount, command)."""
    from primero.tui.actionpad import ActionPad

    table = Table(TableConfig(seed=7, max_hands=1))
    table.start_hand()
    table.advance()
    hand = table.hand
    assert hand is not None
    pad = ActionPad(parser=table.parse_input)
    pad.reset(table.view())
    for key in _mode_keys(mode):
        pad.press(key)
    before = hand.lines()
    for key in keys:
        try:
            pad.press(key, key if len(key) == 1 else None)
        except Exception as exc:  # pragma: no cover - the property under test
            raise AssertionError(f"{key!r} in {mode} raised {exc!r}") from exc
    assert hand.lines() == before  # the pad proposes; only the table applies


def test_superscript_two_in_exchange_and_declare_mode_is_no_digit() -> None:
    async def body() -> None:
        app = table_app()
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            await pilot.press("e")
            app.handle_key("²", "²")
            assert app.pad.selected == [] and app.pad.mode is PadMode.EXCHANGE
            assert "press 1–2 to choose" in app.pad.message
            await pilot.press("escape", "b")
            app.handle_key("²", "²")
            assert app.pad.amount == "1"

    run(body)


def test_table_object_unchanged_by_a_bad_line() -> None:
    table = Table(TableConfig(seed=7, max_hands=1))
    table.start_hand()
    table.advance()
    hand = table.hand
    assert hand is not None
    before = hand.lines()
    from primero.play.moveinput import InputError

    for text in ["b ²", "x 6♠️ 6♠️", "dc", "\x00", "🂡"]:
        with pytest.raises(InputError):
            table.parse_input(text)
    assert hand.lines() == before


def test_exchange_prompt_says_how_many_cards_in_words() -> None:
    from primero.engine.state import LegalActions
    from primero.tui.actionpad import ActionPad

    s = HandState(["A", "B"], [20, 20])
    for line in ["d dh p1 7h 6h", "d dh p2 Ac 2d"]:
        s.apply(parse_action(line, 2))
    pad = ActionPad()
    pad.reset(view(s, 0))
    pad.press("e")
    assert pad.prompt().startswith("Exchange 1 or 2 cards: press 1–2")
    pad.legal = LegalActions(seat=0, exchange=(0, 1, 2))
    assert pad.prompt().startswith("Exchange 1 or 2 cards (none: stand pat): press 1–2")
    assert "0 or 1 or 2" not in pad.prompt()


def test_a_pass_through_learn_at_80x24_shows_every_lesson_and_its_keys() -> None:
    """Every lesson's whole text, title and keys are on screen."""
    from primero.tui.learn_script import You, keys_for

    async def body() -> None:
        app = LearnApp()
        seen: list[str] = []
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            for _ in range(300):
                step = app.guide.step
                if step is None:
                    break
                if isinstance(step, Teach):
                    await pilot.pause()
                    text = re.sub("[▁▂▃▄▅▆▇█]", " ", screen_text(app))
                    assert app.lesson is not None and app.lesson.title in text, step.key
                    assert " ".join(app.lesson_text.split()) in " ".join(text.split()), step.key
                    assert "Press " in text.splitlines()[-2]  # the prompt, at the bottom
                    seen.append(step.key)
                    if step.key == "next_steps":
                        break
                    await pilot.press("space")
                elif isinstance(step, You):
                    await pilot.press(*keys_for(app.guide.suggestion(), app.guide.view()))
        assert seen[0] == "welcome" and seen[-1] == "next_steps" and len(seen) >= 15

    run(body)


def test_learn_scrolls_with_pagedown_and_leaves_with_ctrl_c() -> None:
    from primero.tui.learn_script import You, keys_for

    async def body() -> None:
        app = LearnApp()
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            for _ in range(100):  # on to the declarations: a long hand log
                step = app.guide.step
                if isinstance(step, Teach) and step.key == "declare":
                    break
                if isinstance(step, You):
                    await pilot.press(*keys_for(app.guide.suggestion(), app.guide.view()))
                else:
                    await pilot.press("space")
            await pilot.pause()
            main = app.query_one("#main", VerticalScroll)
            assert main.max_scroll_y == 0  # the newest log lines fit under the table
            await pilot.press("pagedown")  # the whole log opens, its newest line shown
            await pilot.pause()
            assert main.scroll_y > 0
            for _ in range(10):
                await pilot.press("pageup")
            await pilot.pause()
            assert main.scroll_y == 0
            await pilot.press("ctrl+c")
            await pilot.pause()
        assert not app.is_running

    run(body)


@pytest.mark.parametrize(
    ("size", "players", "banner"),
    [
        (NARROW, 6, "Primero — You against 5 bots (heuristic, random)"),
        (WIDE, 6, "Primero — You against 5 bots (heuristic, random)"),
        (NARROW, 4, "Primero — You against 3 bots (heuristic, random)"),
        (
            WIDE,
            4,
            "Primero — You against Lorenzo (heuristic), Isabella (random), Girolamo (heuristic)",
        ),
    ],
)
def test_the_banner_is_never_cut(size: tuple[int, int], players: int, banner: str) -> None:
    async def body() -> None:
        config = TableConfig(seed=11, players=players, max_hands=1, bots=("heuristic", "random"))
        app = TableApp(config, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            assert screen_text(app).splitlines()[0].strip() == banner

    run(body)


def test_record_views_may_show_the_record_seats() -> None:
    v = view(_declared_vote_view(), 0)
    console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
    console.print(table_panel(v, seat_names=True))
    lines = console.export_text().splitlines()
    assert any("p1" in line and "Baldassare" in line for line in lines)
    assert any("p4" in line and "Caterina" in line for line in lines)


def test_lessons_name_players_not_record_seats() -> None:
    from primero.play.lessons import LESSONS

    for lesson in LESSONS.values():
        assert not re.search(r"\bp[1-8]\b", lesson.text), lesson.key


def test_a_record_view_names_whose_cards_on_one_line() -> None:
    from primero.engine.history import HandRecord
    from primero.tui.watch import WatchApp
    from primero.tui.watchmodel import WatchModel

    lines = ["d dh p1 2c 3d", "d dh p2 Kd Qh", "d dh p3 Js 4s", "d dh p4 5h 6d", "p1 b 1"]
    record = HandRecord(("Ana", "Ben", "Cleo", "Dev"), (20,) * 4, lines)

    async def body() -> None:
        app = WatchApp(WatchModel(record))
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            await pilot.press("end")
            await pilot.pause()
            text = screen_text(app)
            assert "Ana's cards: [1]2♣ [2]3♦" in text and "Your cards" not in text

    run(body)


def test_help_says_each_declare_key_names_one_category_in_every_hand() -> None:
    # the declare keys keep their meaning from hand to hand (R6: those below are off)
    from primero.tui.screens import KEYS_HELP

    lines = KEYS_HELP.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("d "))
    said = " ".join(lines[at : at + 2])
    assert "declare: 1 numerus 2 primero 3 supremus 4 fluxus 5 chorus" in said
    assert "(R6), the same keys every hand; those below your hand are off" in said


def test_the_key_line_never_breaks_between_a_key_and_its_label() -> None:
    from primero.tui.actionpad import KeyChoice
    from primero.tui.board import keys_line

    choices = [KeyChoice("e", "exchange"), KeyChoice("b", "bet"), KeyChoice("c", "call"),
               KeyChoice("f", "fold"), KeyChoice("colon", "type a move"),
               KeyChoice("h", "hints"), KeyChoice("question_mark", "help"),
               KeyChoice("l", "last hand"), KeyChoice("q", "leave")]  # fmt: skip
    for width in (78, 40, 20):
        console = Console(file=io.StringIO(), width=width, color_system=None, record=True)
        console.print(keys_line(choices, width))
        lines = console.export_text().splitlines()
        assert all(len(line) <= width for line in lines)
        pairs = [c.split(" ", 1) for line in lines for c in line.strip().split("   ")]
        assert pairs == [
            ["e", "exchange"], ["b", "bet"], ["c", "call"], ["f", "fold"],
            [":", "type a move"], ["h", "hints"], ["?", "help"], ["l", "last hand"],
            ["q", "leave"],
        ]  # fmt: skip
    assert len(lines) > 1  # at 20 cells the keys take several lines


def test_at_80_columns_the_key_bar_keeps_q_with_leave(tmp_path: Path) -> None:
    async def body() -> None:
        app = table_app(save_dir=tmp_path)  # a saved hand adds "l last hand"
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            await _play_to_result(app, pilot)
            await pilot.press("enter")
            await pilot.pause()
            assert app.pad.active
            # where the line breaks moves with the width (under 80 the board asks for a
            # larger terminal; from 100 the layout is wide)
            for width in range(80, 100):
                await pilot.resize_terminal(width, 24)
                await pilot.pause()
                lines = screen_text(app).splitlines()
                bar = lines[next(i for i, line in enumerate(lines) if "Your move" in line) :]
                assert any("? help" in line for line in bar), (width, bar)
                assert any("l last hand" in line for line in bar), (width, bar)
                assert any("q leave" in line for line in bar), (width, bar)
                assert not any(line.endswith((" q", " ?", " l", " h")) for line in bar)

    run(body)


def _table_on_screen(app: TableApp, text: str) -> None:
    """The status line, every seat's row and the person's cards are on screen."""
    view = app.current
    assert view is not None
    assert f"Hand {app.table.hand_number}" in text, text
    for name in view.players:
        assert re.search(rf"^[▶D ]+{name} +\d", text, re.M), (name, text)
    if view.seat is not None and view.hand:
        assert "Your cards:" in text, text


# seed 3 in the README's test command; 21 and 7, more hands of the same checks, in soak
@pytest.mark.parametrize(
    "seed", [pytest.param(21, marks=pytest.mark.soak), pytest.param(7, marks=pytest.mark.soak), 3]
)
def test_at_80x24_the_table_cards_and_result_stay_on_screen(seed: int) -> None:
    """At every turn of the person and at every hand's end, the table,
    the cards and (at the end) the result are on screen, over several hands; the log
    shows its newest lines under them; PgUp opens the whole log."""

    async def body() -> None:
        app = TableApp(TableConfig(seed=seed, max_hands=3, bots=("random",)), bot_delay=0)
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            main = app.board.query_one("#main", VerticalScroll)
            ends = turns = 0
            for _ in range(300):
                if app.match_over:
                    break
                await pilot.pause()
                text = screen_text(app)
                assert main.scroll_y == 0, text
                _table_on_screen(app, text)
                if app.hand_over:
                    view = app.current
                    assert view is not None
                    for line in result_sentences(view, view.players):
                        assert line in text, (line, text)
                    assert "Chips:" in text
                    ends += 1
                    await pilot.press("enter")
                    continue
                turns += 1
                newest = len(app.table.view().log)
                assert re.search(rf"^ *{newest} [A-Z]", text, re.M), text  # newest line
                keys = [c.key for c in app.pad.choices()]
                if "y" in keys:
                    await pilot.press("n" if turns % 2 else "y")
                elif "d" in keys:
                    await pilot.press("d", first_declare(app))
                elif "c" in keys:
                    await pilot.press("c")
                elif "e" in keys and turns % 3 == 0:
                    await pilot.press("e", "1", "enter")  # sometimes a void deal
                else:
                    await pilot.press("b", "enter")
            assert ends == 3 and turns > 3
            await pilot.press("pageup")  # the whole log, its newest line at the bottom
            await pilot.pause()
            assert app.board._full_log and main.max_scroll_y > 0
            assert re.search(r"^ +1 [A-Z]", screen_text(app), re.M) is None or main.scroll_y == 0

    run(body)


def test_at_80x24_pageup_opens_the_whole_log_and_a_move_closes_it() -> None:
    async def body() -> None:
        app = TableApp(TableConfig(seed=21), bot_delay=0)
        async with app.run_test(size=NARROW) as pilot:
            await pilot.pause()
            for key in ["colon", "b", "space", "1", "enter"]:  # bet 1; all call (R4.2)
                await pilot.press(key)
            await pilot.pause()
            v = app.table.view()
            assert len(v.hand) == 4  # the second deal came: 13 lines in the log
            text = screen_text(app)
            assert "13 Girolamo is dealt 2 cards" in text  # newest line on screen
            _table_on_screen(app, text)
            main = app.board.query_one("#main", VerticalScroll)
            assert main.scroll_y == 0 and main.max_scroll_y == 0
            await pilot.press("pageup")
            await pilot.pause()
            assert app.board._full_log and main.scroll_y == main.max_scroll_y > 0
            assert "  1 You are dealt" in screen_text(app) or main.max_scroll_y > 0
            for _ in range(5):
                await pilot.press("pageup")
            await pilot.pause()
            assert main.scroll_y == 0
            assert "  1 You are dealt" in screen_text(app)
            keys = [c.key for c in app.pad.choices()]
            await pilot.press(*(["c"] if "c" in keys else ["d", first_declare(app)]))
            await pilot.pause()
            assert not app.board._full_log and main.scroll_y == 0

    run(body)


@pytest.mark.parametrize("declarations", [True, False])
def test_without_declarations_the_round_is_named_by_what_happens(declarations: bool) -> None:
    from primero.engine.rules import Rules
    from primero.tui.tablepanel import status_text

    # first round: p1 bets 1, all call; after the second deal comes round 2 (R4.5),
    # a betting round only when declarations are off (R6 house rule)
    s = HandState(["Ana", "Ben", "Cy", "Di"], [50] * 4, Rules(declarations=declarations))
    for line in [
        "d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d",
        "p1 b 1", "p2 y", "p2 c", "p3 c", "p4 c",
        "d dh p1 Ah 2c", "d dh p2 3c 4c", "d dh p3 Kd Qd", "d dh p4 4h 4d",
    ]:  # fmt: skip
        s.apply(parse_action(line, 4))
    v = view(s, 0)
    status = status_text(v).plain
    console = Console(file=io.StringIO(), width=80, color_system=None, record=True)
    console.print(table_panel(v))
    header = console.export_text().splitlines()[0]
    if declarations:
        assert status.startswith("Declare and bet — you to act") and "declared" in header
    else:
        assert status.startswith("Second round — you to act"), status
        assert "declare" not in status.lower() and "declared" not in header


def test_plain_without_declarations_names_the_second_round_and_hides_the_column() -> None:
    from typer.testing import CliRunner

    from primero.cli import app

    result = CliRunner().invoke(
        app,
        ["play", "--plain", "--no-save", "--seed", "21", "--no-declarations"],
        input="b 1\nq\ny\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "second round" in out and "Your turn (second round)" in out
    assert "declare and bet" not in out and "declared" not in out


@pytest.mark.needs("pty")
def test_without_echo_turns_echo_off_and_drops_typed_keys() -> None:
    import os
    import pty
    import termios

    from primero.tui.screens import without_echo

    master, slave = pty.openpty()
    try:
        assert termios.tcgetattr(slave)[3] & termios.ECHO  # a new terminal echoes

        def during() -> int:
            os.write(master, b"\x1b[C\n")  # keys typed while the viewer starts
            return int(termios.tcgetattr(slave)[3] & termios.ECHO)

        assert without_echo(slave, during) == 0  # echo off meanwhile
        assert termios.tcgetattr(slave)[3] & termios.ECHO  # restored
        os.set_blocking(slave, False)
        with pytest.raises(BlockingIOError):
            os.read(slave, 16)  # the typed key was dropped, not left for the table
        null = os.open(os.devnull, os.O_RDONLY)
        assert without_echo(null, lambda: 7) == 7  # not a terminal: just called
        os.close(null)
    finally:
        os.close(master)
        os.close(slave)


def _newest_log_line(v: Any, you: bool = True) -> str:
    """The start of the newest hand-log sentence as it is drawn (cards as symbols)."""
    from primero.play.tablemodel.sentences import hand_sentences
    from primero.tui.logpanel import sentence_text

    said = hand_sentences(v, v.players, you=you)[len(v.log) - 1]
    return f"{len(v.log):>3} " + sentence_text(said).plain[:30]


@pytest.mark.parametrize("size", [NARROW, WIDE])
def test_learn_keeps_the_table_the_cards_and_the_newest_log_lines_at_each_turn(
    size: tuple[int, int],
) -> None:
    """The same for ``learn``: at every move the person is asked for, the status, every
    seat, the person's own cards and the newest log line are on screen (as in ``play``)."""
    from primero.tui.learn_script import You, keys_for

    async def body() -> None:
        app = LearnApp()
        turns = 0
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for _ in range(300):
                step = app.guide.step
                if step is None or (isinstance(step, Teach) and step.key == "next_steps"):
                    break
                if isinstance(step, You):
                    for _ in range(4):  # the log's tail is fitted over a few frames
                        await pilot.pause()
                    v = app.guide.view()
                    text = screen_text(app)
                    assert "Guided hand" in text, text
                    for name in v.players:
                        assert f" {name} " in text, (name, text)
                    for card in v.hand:
                        assert card.pretty in text, (card, text)
                    assert _newest_log_line(v) in text, (_newest_log_line(v), text)
                    turns += 1
                    await pilot.press(*keys_for(app.guide.suggestion(), v))
                else:
                    await pilot.press("space")
        assert turns >= 5

    run(body)


def _long_error(text: str) -> Any:
    """A move parser whose error is longer than half an 80x24 screen (a test double for
    a position with many allowed moves)."""
    moves = "\n".join(f"  m{i} N   move number {i}" for i in range(14))
    raise ValueError(f"unknown card 'Zz' in {text!r}\nallowed now:\n{moves}")


@pytest.mark.parametrize("size", [NARROW, WIDE])
def test_a_long_typed_move_error_keeps_the_move_box_and_keys_and_ctrl_u_clears(
    size: tuple[int, int],
) -> None:
    async def body() -> None:
        app = table_app()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press("colon", "x", "space", "Z", "z", "enter")  # the real parser
            await pilot.pause()
            text = screen_text(app)
            assert ": x Zz_" in text and "unknown card 'Zz'" in text, text
            app.pad.parser = _long_error
            await pilot.press("enter")
            await pilot.pause()
            rows = screen_text(app).splitlines()
            assert len(rows) == size[1]
            assert any(r.startswith(" : x Zz_ ") or r == " : x Zz_" for r in rows), rows
            assert "unknown card 'Zz' in 'x Zz'" in "\n".join(rows)
            assert "⏎ send" in rows[-1] or "⏎ send" in rows[-2], rows  # the keys, at the bottom
            if size == NARROW:
                assert any(r.startswith(" … and ") and r.endswith(" more lines") for r in rows)
                assert "Hand 1 of 2" in rows[1] and any("Your cards:" in r for r in rows)
            await pilot.press("ctrl+u")
            await pilot.pause()
            rows = screen_text(app).splitlines()
            assert any(r.split("│")[0].rstrip() == " : _" for r in rows), rows
            assert app.pad.command == ""
            await pilot.press("b", "space", "1", "backspace", "2")
            assert app.pad.command == "b 2"

    run(body)


def _watch_app() -> App[None]:
    from primero.engine.history import HandRecord
    from primero.tui.watch import WatchApp
    from primero.tui.watchmodel import WatchModel

    lines = ["d dh p1 Kc 5c", "d dh p2 Jd 7c", "p1 b 3"]
    return WatchApp(WatchModel(HandRecord(("Ana", "Ben"), (100, 100), lines)))


@pytest.mark.parametrize("make", [table_app, LearnApp, _watch_app])
@pytest.mark.parametrize("size", [(40, 12), (79, 24), (80, 23)])
def test_a_terminal_smaller_than_80x24_says_so_and_the_table_comes_back(
    make: Callable[[], App[None]], size: tuple[int, int]
) -> None:
    async def body() -> None:
        app = make()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            text = " ".join(screen_text(app).split())
            width, height = size
            assert "Make the terminal at least 80×24" in text, text
            assert f"(it is {width}×{height} now; q leaves)" in text, text
            assert "player stack" not in text  # no unreadable table under it
            await pilot.resize_terminal(80, 24)
            for _ in range(100):  # bounded: the resize is drawn within a few refreshes
                await pilot.pause()
                text = screen_text(app)
                if "Make the terminal" not in text:
                    break
            assert "Make the terminal" not in text
            assert re.search("player +stack", text), text

    run(body)
