"""Pass and play at one terminal (``primero play --hot-seat``): the
Textual table at 80x24 and the plain prompt. Between turns of different people no
private card is on screen; each person sees only their own view (R9b)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from primero.cli import app as cli_app
from primero.cli.plain import run_plain
from primero.engine.cards import DECK, Card
from primero.engine.state import HandState
from primero.play.savegame import MatchSaver, find_unfinished, resume_table
from primero.play.table import Table, TableConfig
from primero.tui.play import TableApp
from primero.tui.screens import PassScreen
from primero.tui.screentext import screen_text
from tests.tui_helpers import run, turn_keys

SIZE = (80, 24)
#: Two people and two bots (the rules' least number of players is 4, R3).
CONFIG = TableConfig(hot_seat=("Ana", "Ben"), bots=("heuristic",), seed=7, max_hands=2)
SUITS = "♣♦♥♠"


def public_cards(table: Table) -> set[Card]:
    """The cards every seat may see now: those in the public record and those shown at
    the showdown."""
    public = table.model.view_for(None)
    seen = {c for c in DECK for line in public.log if str(c) in line.split()}
    for shown in public.shown_cards:
        seen |= set(shown or ())
    return seen


def private_cards(hand: HandState, table: Table, seat: int | None) -> set[Card]:
    """Every card dealt in this hand that seat ``seat`` (None: nobody) may not see: the
    cards of the record lines, less the public ones and less those in ``seat``'s own
    view (its hand, its discards, its own deal lines)."""
    dealt = {c for c in DECK for line in hand.lines() if str(c) in line.split()}
    own: set[Card] = set()
    if seat is not None:
        v = table.view()
        own = {c for c in DECK for line in v.log if str(c) in line.split()}
    return dealt - public_cards(table) - own


def on_screen(text: str, cards: set[Card]) -> list[Card]:
    """The cards of ``cards`` written on the screen ``text`` (as the table writes them)."""
    return [c for c in cards if c.pretty in text]


@pytest.mark.soak
def test_a_hot_seat_match_at_80x24_never_shows_the_next_players_cards() -> None:
    """Two hands of Ana and Ben (and two bots) by keys only: before each person's turn
    a whole screen asks to pass the device and shows no card at all (no suit sign); the
    table underneath is the public view; after Enter the person sees their own cards and
    none of anybody else's; every change of person has a pass screen in between."""

    async def body() -> None:
        app = TableApp(CONFIG, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            passes: dict[str, int] = {"Ana": 0, "Ben": 0}
            last_person: int | None = None
            passed_since_turn = False
            hands = 0
            for _ in range(600):
                table = app.table
                if app.match_over:
                    break
                if isinstance(app.screen, PassScreen):
                    who = app.passing
                    assert who is not None and table.viewer is None
                    name = table.match.players[who]
                    text = screen_text(app)
                    assert f"Pass the device to {name}" in text
                    assert f"{name}, press Enter when only you can see the screen." in text
                    assert not any(s in text for s in SUITS), text  # no card at all
                    assert table.model.person_to_act() == who
                    passes[name] += 1
                    passed_since_turn = True
                    await pilot.press("enter")
                    assert table.viewer == who
                    continue
                hand = table.hand
                assert hand is not None
                text = screen_text(app)
                if app.hand_over:
                    assert table.viewer is None  # the result in public
                    assert not on_screen(text, private_cards(hand, table, None)), text
                    hands += 1
                    await pilot.press("enter")
                    continue
                assert app.pad.active and table.viewer is not None
                me = table.viewer
                if last_person is not None and me != last_person:
                    assert passed_since_turn, "a change of person without the pass screen"
                mine = set(table.view().hand)
                assert mine and all(c.pretty in text for c in mine)  # their own cards
                leaked = on_screen(text, private_cards(hand, table, me))
                assert not leaked, f"{table.match.players[me]} sees {leaked} (R9b)"
                last_person, passed_since_turn = me, False
                await pilot.press(*turn_keys(app))
            assert app.match_over and hands == 2
            assert passes["Ana"] >= 2 and passes["Ben"] >= 2
            await pilot.press("q")

    run(body)


def test_after_a_move_the_bots_play_on_the_public_table() -> None:
    """With the bots' moves shown one by one (a long delay: the timer never fires in the
    test), the screen after Ana's move is the public table: none of Ana's cards."""

    async def body() -> None:
        app = TableApp(CONFIG, bot_delay=60)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            for _ in range(20):  # skip the deals and bots to the first pass screen
                if isinstance(app.screen, PassScreen):
                    break
                await pilot.press("space")
            assert isinstance(app.screen, PassScreen)
            await pilot.press("enter")
            mover = app.table.viewer
            assert mover is not None
            cards = set(app.table.view().hand)
            assert all(c.pretty in screen_text(app) for c in cards)
            await pilot.press(*turn_keys(app))
            await pilot.pause()
            text = screen_text(app)
            if app.table.viewer is None:  # another's turn next: Ana's cards are gone
                assert not on_screen(text, cards), text
                assert "the public table" in text or isinstance(app.screen, PassScreen)

    run(body)


def test_the_look_back_is_off_and_the_banner_names_the_view() -> None:
    async def body() -> None:
        app = TableApp(CONFIG, bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, PassScreen)
            name = app.table.match.players[app.passing or 0]
            await pilot.press("enter")
            text = screen_text(app)
            assert f"Primero — {name}'s cards · Ana and Ben against Lorenzo, Isabella" in text
            await pilot.press("l")
            assert "the look-back is off in pass and play" in screen_text(app)

    run(body)


# --------------------------------------------------------------------- the plain prompt


def test_the_plain_prompt_passes_the_device_and_clears_between_people() -> None:
    """The plain prompt, a scripted hand: the output since the last clearing (or the
    hand's heading) holds no private card of anyone when the device is passed, and
    after Enter the person's own cards are printed."""
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    table = Table(TableConfig(hot_seat=("Ana", "Ben"), seed=3, max_hands=1))
    passes: list[str] = []
    asked_after_pass: list[bool] = []
    prompts: list[str] = []

    def segment() -> str:
        text = out.getvalue()
        starts = [text.rfind("the screen is cleared here"), text.rfind(" Hand 1 ·")]
        return text[max(starts) :]

    def answer(prompt: str) -> str:
        prompts.append(prompt)  # a bound: a wrong answer would be asked again for ever
        assert len(prompts) < 400, out.getvalue()[-2000:]
        hand = table.hand
        if "press Enter when only you can see the screen" in prompt:
            assert hand is not None and table.viewer is None
            name = prompt.split(",")[0]
            passes.append(name)
            leaked = on_screen(segment(), private_cards(hand, table, None))
            assert not leaked, f"{leaked} on the terminal when passing to {name}"
            asked_after_pass.append(True)
            return ""
        if prompt.startswith("[Enter] next hand"):
            return ""
        assert prompt == "> ", prompt
        assert hand is not None and table.viewer is not None
        assert asked_after_pass.pop(), "a turn without a pass"
        v = table.view()
        assert "Your cards: " + " ".join(c.pretty for c in v.hand) in out.getvalue()
        legal = v.legal
        assert legal is not None
        asked_after_pass.append(True)  # the same person may act again at once
        if legal.vote:
            return "y"
        if legal.declare:
            return "dc " + legal.declare[0].label
        if legal.call is not None:
            return "c"
        if 0 in legal.exchange:
            return "x"
        if legal.exchange:
            return "x " + str(v.hand[0]).lower()
        assert legal.bet is not None
        return f"b {legal.bet[0]}"

    run_plain(table.config, console=console, input_fn=answer, table=table)
    text = out.getvalue()
    assert "pass and play: Ana and Ben against Lorenzo (heuristic), Isabella (heuristic)" in text
    assert set(passes) == {"Ana", "Ben"}
    assert "hand over" in text and "Final standings" in text
    assert "Your chips over the session" not in text  # one person's summary: not here


# --------------------------------------------------------------------- the command

runner = CliRunner()


def test_the_command_checks_the_names() -> None:
    result = runner.invoke(cli_app, ["play", "--plain", "--hot-seat", "Ana"])
    assert result.exit_code == 2
    assert "pass and play is for 2 to 6 people, not 1" in result.stderr
    result = runner.invoke(cli_app, ["play", "--plain", "--hot-seat", "Ana,ana"])
    assert result.exit_code == 2 and "two people are called ana" in result.stderr
    result = runner.invoke(cli_app, ["play", "--plain", "--hot-seat", "Ana,,Ben"])
    assert result.exit_code == 2 and "has an empty name" in result.stderr
    result = runner.invoke(cli_app, ["play", "--plain", "--hot-seat", "Ana,Ben", "--name", "X"])
    assert result.exit_code == 2 and "leave out --name" in result.stderr
    result = runner.invoke(
        cli_app, ["play", "--plain", "--hot-seat", "A,B,C,D,E", "--players", "4"]
    )
    assert result.exit_code == 2 and "5 people need at least 5 seats, not 4" in result.stderr


def test_the_command_plays_a_hot_seat_hand_and_says_so_in_help() -> None:
    result = runner.invoke(cli_app, ["play", "--help"])
    assert result.exit_code == 0
    assert "--hot-seat" in result.stdout
    help_text = re.sub(r"\s+", " ", result.stdout.replace("│", " "))
    assert "Pass and play" in help_text
    # end of input at the first pass: leaves (no hand of a person was shown)
    result = runner.invoke(
        cli_app,
        ["play", "--plain", "--hot-seat", "Ana,Ben,Cleo", "--seed", "3", "--no-save"],
        input="",
    )
    assert result.exit_code == 0, result.output
    assert "pass and play: Ana, Ben and Cleo against Lorenzo (heuristic)." in result.stdout
    assert "Pass the device to" in result.stdout
    assert "Your cards:" not in result.stdout


def test_a_hot_seat_match_is_saved_and_resumed_with_its_people(tmp_path: Path) -> None:
    """``--resume`` continues a pass-and-play match: the same people, bots and hand, and
    the public view until the next pass (nobody's cards on the resumed screen)."""
    config = TableConfig(hot_seat=("Ana", "Ben"), seed=3, save_dir=tmp_path)
    table = Table(config)
    MatchSaver(table).save()
    table.start_hand()
    table.advance()
    who = table.pass_to()
    assert who is not None
    table.show_to(who)
    lines = table.hand.lines() if table.hand is not None else []
    again = resume_table(find_unfinished(tmp_path))
    assert again.config.hot_seat == ("Ana", "Ben")
    assert again.match.players[:2] == ("Ana", "Ben") and again.people == (0, 1)
    assert again.kinds == (None, None, "heuristic", "heuristic")
    assert again.viewer is None and again.view().hand == ()
    assert again.hand is not None and again.hand.lines() == lines
    assert again.pass_to() == who
