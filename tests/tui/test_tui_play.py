"""The terminal table (primero.tui.play): whole hands driven by keys only, headless."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from primero.engine.cards import Card, CardError, parse_card
from primero.engine.views import SeatView
from primero.play.table import Table, TableConfig
from primero.play.tablemodel.sentences import result_sentences
from primero.tui import play as play_module
from primero.tui.actionpad import PadMode
from primero.tui.logpanel import award_lines
from primero.tui.play import TableApp
from primero.tui.screens import ConfirmLeave
from primero.tui.screentext import screen_text
from tests.tui_helpers import run, turn_keys

SIZE = (120, 40)


def mode(app: TableApp) -> PadMode:
    """The pad's mode now (a call, so that type checkers do not narrow it)."""
    return app.pad.mode


def hidden_cards(app: TableApp) -> list[Card]:
    """The cards in other seats' hands now (from the engine) that the person never saw.

    A card the person saw earlier (e.g. one they held before a void deal, R4.3) may be
    in another hand after the redeal; showing it in the person's log is no leak.
    """
    hand = app.table.hand
    assert hand is not None
    seat = app.table.human_seat
    seen: set[Card] = set()
    for line in app.table.view().log:
        for word in line.split():
            with contextlib.suppress(CardError):
                seen.add(parse_card(word))
    return [c for s, cards in enumerate(hand.hands) if s != seat for c in cards if c not in seen]


def test_a_whole_match_by_keys_only_never_shows_hidden_cards() -> None:
    async def body() -> None:
        app = TableApp(TableConfig(seed=11, max_hands=2), bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            hands_seen = 0
            for _ in range(400):
                if app.match_over:
                    break
                if app.hand_over:
                    text = screen_text(app)
                    view = app.current
                    assert view is not None and "Chips:" in text
                    for line in result_sentences(view, view.players):
                        assert line in text  # who won which pot
                    hands_seen += 1
                    await pilot.press("enter")
                    continue
                assert app.pad.active
                screen = screen_text(app)
                for card in hidden_cards(app):
                    assert card.pretty not in screen, f"{card} is hidden (R9b)"
                await pilot.press(*turn_keys(app))
            assert app.match_over and hands_seen == 2
            assert app.table.over
            assert "The match is over" in screen_text(app)
            assert sum(app.table.match.chips) == 400
            await pilot.press("q")

    run(body)


def test_keys_make_the_exchange_and_the_bet() -> None:
    async def body() -> None:
        app = TableApp(TableConfig(seed=5, max_hands=1), bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            view = app.current
            assert view is not None and len(view.hand) == 2
            await pilot.press("e", "2")
            assert mode(app) is PadMode.EXCHANGE and app.pad.selected == [1]
            assert "[2]×" in screen_text(app)  # the chosen card is marked
            await pilot.press("escape", "b")
            assert mode(app) is PadMode.AMOUNT and app.pad.amount == "1"
            await pilot.press("1", "0", "0", "0", "enter")  # more than the stack
            assert "the amount must be from 1 to 99" in screen_text(app)
            await pilot.press("backspace", "backspace", "backspace", "enter")
            hand = app.table.hand
            assert hand is not None and "p1 b 1" in hand.lines()

    run(body)


def test_a_key_that_does_nothing_says_what_is_allowed() -> None:
    async def body() -> None:
        app = TableApp(TableConfig(seed=5, max_hands=1), bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("z")
            text = screen_text(app)
            assert "'z' does nothing now" in text and "e exchange" in text

    run(body)


def test_the_command_line_takes_the_short_syntax() -> None:
    async def body() -> None:
        app = TableApp(TableConfig(seed=5, max_hands=1), bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            view = app.current
            assert view is not None
            card = str(view.hand[0])
            await pilot.press("colon", "x")
            assert app.pad.mode is PadMode.COMMAND
            await pilot.press("space", *card, "enter")
            hand = app.table.hand
            assert hand is not None and f"p1 x {card}" in hand.lines()

    run(body)


def test_bots_moves_appear_one_by_one_with_a_delay() -> None:
    async def body() -> None:
        table = Table(TableConfig(seed=5, max_hands=1))
        app = TableApp(table=table, bot_delay=0.02)
        drawn: list[int] = []
        draw = app._draw

        def recording_draw(current: SeatView) -> None:
            drawn.append(len(current.log))
            draw(current)

        app._draw = recording_draw  # type: ignore[method-assign]
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            for _ in range(300):
                if not app.animating and app.pad.active:
                    break
                await pilot.pause(0.02)
            start = len(drawn)
            await pilot.press("b", "enter")  # p1 bets 1: the bots vote and act
            for _ in range(300):
                if not app.animating:
                    break
                await pilot.pause(0.02)
            assert not app.animating
            frames = drawn[start:]
            assert len(set(frames)) > 2  # the log grew in several steps
            assert frames == sorted(frames)

    run(body)


def test_run_table_builds_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[TableApp] = []
    monkeypatch.setattr(TableApp, "run", lambda self, *a, **k: ran.append(self))
    play_module.run_table(TableConfig(seed=1, max_hands=1))
    assert len(ran) == 1 and ran[0].table.config.seed == 1


def test_status_line_says_your_bet_for_the_persons_bet() -> None:
    from primero.engine.actions import parse_action
    from primero.engine.state import HandState
    from primero.engine.views import view
    from primero.tui.tablepanel import status_text

    s = HandState(["You", "Ben", "Cy", "Di"], [20] * 4)
    for line in ["d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d", "p1 b 4"]:
        s.apply(parse_action(line, 4))
    text = status_text(view(s, 0), ("You", "Ben", "Cy", "Di")).plain
    assert "your bet of 4: Ben to accept or refuse" in text
    assert "You's" not in text


def test_seats_table_marks_the_bet_under_vote_and_the_voter() -> None:
    from primero.engine.actions import parse_action
    from primero.engine.state import HandState
    from primero.engine.views import view
    from primero.tui.tablepanel import _seat_flags

    s = HandState(["You", "Ben", "Cy", "Di"], [20] * 4)
    for line in ["d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d", "p1 b 4"]:
        s.apply(parse_action(line, 4))
    v = view(s, 1)
    assert v.to_act == 1
    assert _seat_flags(v, 0).plain == "under vote"
    assert _seat_flags(v, 1).plain == "to vote"
    assert _seat_flags(v, 2).plain == ""


# seeds where the keyboard player (who calls every bet) still has chips after hand 1:
# with seed 8 at 5 seats the heuristic bots take all its chips
@pytest.mark.parametrize(("seed", "players"), [(11, 4), (3, 6), (10, 5)])
def test_the_result_is_on_screen_at_the_end_of_a_hand_with_hints_on(
    seed: int, players: int
) -> None:
    """At 100x30 with the hints open, a finished hand shows its result, not the hints."""

    async def body() -> None:
        config = TableConfig(seed=seed, players=players, max_hands=2)
        app = TableApp(config, bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("h")
            assert "Hints:" in screen_text(app)
            for _ in range(200):
                if app.hand_over:
                    break
                await pilot.press(*turn_keys(app))
            assert app.hand_over
            await pilot.pause()
            view = app.current
            assert view is not None and view.final_stacks is not None
            text = screen_text(app)
            assert "Hints:" not in text  # no decision is left: the hints make room
            assert "Chips:" in text
            for line in result_sentences(view, view.players):
                assert line in text  # who won which pot
            if any(v is not None for v in view.shown):
                assert "Showdown" in text
            for value in view.shown:
                if value is not None:
                    assert f"{value.category.label} {value.points}" in text
            for line in award_lines(view, view.players):
                assert line in text  # the log ends with who won each pot
            await pilot.press("enter")  # the next hand: the hints are back
            await pilot.pause()
            assert not app.hand_over and "Hints:" in screen_text(app)

    run(body)


def _finished(lines: list[str], players: int = 4) -> SeatView:
    from primero.engine.actions import parse_action
    from primero.engine.state import HandState
    from primero.engine.views import view

    names = ["You", "Ben", "Cy", "Di", "Eve", "Flo"][:players]
    s = HandState(names, [20] * players)
    for line in lines:
        s.apply(parse_action(line, players))
    assert s.complete
    return view(s, 0)


def test_award_lines_name_only_winners_and_shown_hands() -> None:
    deal = ["d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d"]
    everyone_folds = _finished([*deal, "p1 b 4", "p2 y", "p2 f", "p3 f", "p4 f"])
    names = everyone_folds.players
    lines = award_lines(everyone_folds, names)
    # antes 4, p1's bet of 4 uncalled: it comes back, the 4 antes are won (R7)
    assert lines == ["Uncalled bet of 4 chips returned to you", "You win 4 chips"]
    winner = everyone_folds.awards[0].winners[0]
    assert "(" not in lines[1]  # the lone winner does not show (R9b)
    for seat in range(4):
        if seat != winner:
            assert names[seat] not in " ".join(lines)


def test_a_record_that_cannot_be_saved_is_reported_and_play_goes_on(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        afile = tmp_path / "afile"
        afile.write_text("not a folder")  # the save folder is a file: the save fails
        app = TableApp(TableConfig(seed=11, max_hands=2, save_dir=afile), bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            for _ in range(200):
                if app.hand_over:
                    break
                await pilot.press(*turn_keys(app))
            assert app.hand_over
            assert app.saved_note.startswith("the record could not be saved:")
            assert "is not a folder" in app.saved_note or "exists" in app.saved_note
            assert app.table.match.hands_played == 1  # the hand is closed in the match anyway
            await pilot.press("enter")
            assert not app.hand_over and app.table.hand is not None

    run(body)


def test_a_refuses_above_a_limit_so_a_long_refusal_auction_takes_one_key() -> None:
    """The input aid: ``a 1 enter`` at the first vote refuses that bet and
    every later bet above 1 chip without asking; only bets of at most 1 still come to
    the person (R8 unchanged). Seed 13: a bot bets 4, everyone refuses, it bets again
    lower (its re-bet, refused for the person), so the log holds more of the person's
    refusals than keys pressed, and the table says what it refused."""

    async def body() -> None:
        app = TableApp(TableConfig(seed=13, max_hands=1, bots=("heuristic",)), bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            asked: list[int] = []
            pressed_n = 0
            said = False
            for _ in range(200):
                said = said or "Refused for you (above your limit of 1" in screen_text(app)
                if app.hand_over:
                    break
                v = app.current
                assert v is not None
                keys = [c.key for c in app.pad.choices()]
                if "y" in keys:
                    assert v.pending_bet is not None
                    asked.append(v.pending_bet[1])
                    if len(asked) == 1:
                        assert "a" in keys
                        await pilot.press("a")
                        assert app.pad.mode is PadMode.LIMIT
                        # the amount offered starts one below the bet asked
                        assert f"every bet above: {asked[0] - 1}" in screen_text(app)
                        await pilot.press("backspace", "backspace", "1", "enter")
                        await pilot.pause()
                        assert app.pad.refuse_above == 1
                    else:
                        await pilot.press("n")
                        pressed_n += 1
                elif "d" in keys:
                    await pilot.press("d", "1")
                elif "c" in keys:
                    await pilot.press("c")
                elif "b" in keys:
                    await pilot.press("b", "enter")
                else:
                    await pilot.press("e", "enter")
            assert said
            assert asked[0] == 4 and all(a <= 1 for a in asked[1:]), asked
            log = app.table.view().log
            seat = app.table.human_seat
            assert seat is not None
            refusals = [line for line in log if line == f"p{seat + 1} n"]
            assert len(refusals) == pressed_n + 2, (refusals, pressed_n)

    run(body)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_going_out_says_the_place_and_offers_watch_new_match_quit(
    size: tuple[int, int],
) -> None:
    """Seed 0 with stacks of 4, betting all: the person is out after
    hand 1, last of 4; the screen says so with the choices; enter watches on as a
    spectator; n ends the app asking for a new match."""

    async def body() -> None:
        app = TableApp(TableConfig(seed=0, stack=4, bots=("random",)), bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for _ in range(50):
                if app.hand_over:
                    break
                v = app.current
                assert v is not None and v.legal is not None
                keys = [c.key for c in app.pad.choices()]
                if "y" in keys:
                    await pilot.press("y")
                elif "d" in keys:
                    await pilot.press("d", "1")
                elif "c" in keys:
                    await pilot.press("c")
                elif "b" in keys and v.legal.bet is not None:
                    await pilot.press("b", *str(v.legal.bet[1]), "enter")
                else:
                    await pilot.press("e", "enter")
                await pilot.pause()
            assert app.hand_over and app.table.human_out and not app.table.over
            text = screen_text(app)
            assert "You are out: 4th of 4." in text
            assert "You are out: 4th of 4 · watching" in text  # the banner
            for label in ("watch", "new match", "quit"):
                assert label in text
            await pilot.press("enter")  # watch: the next hand plays out without you
            await pilot.pause()
            assert app.hand_over or app.match_over
            assert "Watching as a spectator" in screen_text(app) or app.match_over
            await pilot.press("n")
            await pilot.pause()
        assert app.summary.new_match

    run(body)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_move_box_lists_the_allowed_moves_one_a_line(size: tuple[int, int]) -> None:
    """':' then a wrong word shows what was wrong, then each allowed
    move on its own line; Backspace (also ^H) deletes, escape goes back, Ctrl-D asks to
    leave."""

    async def body() -> None:
        app = TableApp(TableConfig(seed=7, max_hands=1, bots=("random",)), bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press("colon", "f", "o", "o", "enter")
            await pilot.pause()
            lines = [line.split("│")[0].strip() for line in screen_text(app).splitlines()]
            start = lines.index("unknown command 'foo'")
            assert lines[start + 1].startswith("allowed now: exchange 1 or 2 cards")
            assert lines[start + 2].startswith("x CARDS  exchange 1 or 2 cards")
            assert lines[start + 3] == "b N      bet N chips (1 to 99)"
            await pilot.press("backspace", "ctrl+h")
            assert app.pad.command == "f"
            await pilot.press("escape")
            assert app.pad.mode is PadMode.IDLE
            await pilot.press("colon", "b", "ctrl+d")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmLeave)
            await pilot.press("n")
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmLeave)

    run(body)


def test_wide_side_log_stays_where_the_person_scrolled_it() -> None:
    """In the wide layout the hand log beside the table no longer jumps
    to its end after the person scrolled it up; it follows again from its end."""
    from textual.containers import VerticalScroll

    async def body() -> None:
        app = TableApp(TableConfig(seed=7, max_hands=1, bots=("random",)), bot_delay=0)
        async with app.run_test(size=(120, 24)) as pilot:
            await pilot.pause()
            log = app.board.query_one("#log-scroll", VerticalScroll)
            for _ in range(100):  # play on until the side log is longer than its box
                if app.hand_over or log.max_scroll_y > 3:
                    break
                keys = [c.key for c in app.pad.choices()]
                await pilot.press(
                    *(
                        ["y"]
                        if "y" in keys
                        else ["d", "1"]
                        if "d" in keys
                        else ["c"]
                        if "c" in keys
                        else ["b", "enter"]
                    )
                )
                await pilot.pause()
            assert log.max_scroll_y > 3 and not app.hand_over
            assert log.scroll_y == log.max_scroll_y  # it follows its newest line
            await pilot.press("pageup")
            await pilot.pause()
            held = log.scroll_y
            assert held < log.max_scroll_y
            keys = [c.key for c in app.pad.choices()]
            await pilot.press(
                *(
                    ["y"]
                    if "y" in keys
                    else ["d", "1"]
                    if "d" in keys
                    else ["c"]
                    if "c" in keys
                    else ["b", "enter"]
                )
            )
            await pilot.pause()
            assert log.scroll_y == held  # not pulled back to the end

    run(body)
