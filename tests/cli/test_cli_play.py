"""``primero play --plain`` with scripted input, and ``primero simulate``."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from primero.cli import app
from primero.cli.commands_simulate import simulate
from primero.cli.plain import run_plain
from primero.engine.history import read_record, replay
from primero.engine.rules import Rules
from primero.engine.views import SeatView
from primero.play.table import InputError, Table, TableConfig

runner = CliRunner()


def _text_for(v: SeatView) -> str:
    """What a cautious person types: accept, declare the truth, check/call, stand pat,
    exchange their first card in the first round, bet 0 when they must open."""
    legal = v.legal
    assert legal is not None
    if legal.vote:
        return "y"
    if legal.declare:
        return "dc " + legal.declare[0].label
    if legal.call is not None:
        return "c"
    if 0 in legal.exchange:
        return "x"
    if legal.bet is not None and legal.bet[0] == 0:
        return "b 0"
    if legal.exchange:
        return "x " + str(v.hand[0]).lower()
    assert legal.bet is not None
    return f"b {legal.bet[0]}"


def _script_one_hand(config: TableConfig) -> list[str]:
    """The inputs of the first hand of a seeded table (the same game replays them)."""
    table = Table(config)
    table.start_hand()
    texts: list[str] = []
    while True:
        table.advance()
        if table.hand is not None and table.hand.complete:
            return texts
        text = _text_for(table.view())
        table.act(table.parse_input(text))
        texts.append(text)


def _args(seed: int) -> list[str]:
    return ["play", "--plain", "--seed", str(seed), "--players", "4", "--bots", "heuristic,random"]


def test_play_one_hand_then_quit(tmp_path: Path) -> None:
    config = TableConfig(seed=5, bots=("heuristic", "random"))
    texts = _script_one_hand(config)
    assert texts, "the person acts at least once"
    script = ["zz", *texts, "q"]  # one bad input first: it re-prompts and says why
    result = runner.invoke(
        app, [*_args(5), "--save-dir", str(tmp_path / "h")], input="\n".join(script) + "\n"
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Hand 1" in out
    assert "unknown command 'zz'" in out
    assert "allowed now:" in out
    assert "Your cards:" in out
    assert "Your turn (first round)" in out
    assert "Pot:" in out
    assert "hand over" in out
    assert re.search(r"wins? \d+ chips?|split \d+ chips?", out)
    assert "Stacks:" in out
    assert "Standings when you left" in out
    assert "Hands played in the match: 1" in out
    assert "This session: 1 hand played" in out
    assert "Your chips over the session: 100 → " in out
    assert "Lorenzo (heuristic)" in out and "Isabella (random)" in out
    saved = list((tmp_path / "h").glob("*.prh"))
    assert len(saved) == 1 and "hand001" in saved[0].name
    assert replay(read_record(saved[0])).complete


def test_play_end_of_input_quits_cleanly(tmp_path: Path) -> None:
    result = runner.invoke(app, [*_args(3), "--no-save"], input="")
    assert result.exit_code == 0, result.output
    assert "Standings when you left" in result.stdout
    assert "Hands played in the match: 0" in result.stdout
    assert "This session: 0 hands played" in result.stdout


def test_play_rejects_bad_options() -> None:
    result = runner.invoke(app, ["play", "--plain", "--players", "9"])
    assert result.exit_code == 2
    assert "--players must be 4 to 6, not 9" in result.stderr
    result = runner.invoke(app, ["play", "--plain", "--bots", "wizard"])
    assert result.exit_code == 2
    assert "random, heuristic" in result.stderr


def test_play_house_rule_options_reach_the_game(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            *_args(8),
            "--no-declarations",
            "--ante",
            "2",
            "--ties",
            "split",
            "--max-raises",
            "1",
            "--no-save",
        ],
        input="q\n",
    )
    assert result.exit_code == 0, result.output
    assert "House rules: ante=2, ties=split, declarations=False, max_raises=1" in result.stdout


def test_run_plain_with_scripted_input_plays_a_whole_short_match(tmp_path: Path) -> None:
    config = TableConfig(
        seed=12, bots=("random",), max_hands=3, stack=20, save_dir=tmp_path, players=5
    )
    table = Table(config)
    prompts: list[str] = []

    def input_fn(prompt: str) -> str:  # a cautious person reading the prompt's view
        prompts.append(prompt)
        if prompt.startswith("[Enter]"):
            return ""
        return _text_for(table.view())

    buf = io.StringIO()
    returned = run_plain(config, Console(file=buf, width=120), input_fn, table=table)
    out = buf.getvalue()
    assert returned is table
    assert table.over or table.human_out
    assert sum(table.match.chips) == 100
    assert ("Final standings" in out) or ("you are out of the match" in out)
    hands = table.match.hands_played
    assert len(list(tmp_path.glob("*.prh"))) == hands
    assert prompts.count("[Enter] next hand, q to leave: ") == hands - 1


# --------------------------------------------------------------------------- simulate


def test_simulate_quiet_prints_only_the_table_and_is_deterministic() -> None:
    args = ["simulate", "--hands", "200", "--players", "6", "--seed", "1", "--quiet"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    out = first.stdout
    assert "200 hands, 6 players" in out
    assert "seed 1" in out
    for word in ("Lorenzo", "Vittoria", "heuristic", "random", "chips won", "Showdowns"):
        assert word in out
    for category in ("chorus", "fluxus", "supremus", "primero", "numerus"):
        assert category in out
    assert "simulating" not in out and "hands/s" not in out
    second = runner.invoke(app, args)
    assert second.stdout == out


def test_simulate_counts_add_up() -> None:
    result = simulate(150, 4, ["heuristic", "random"], 3)
    assert result.hands == 150
    assert sum(result.net) == 0
    assert result.kinds == ("heuristic", "random", "heuristic", "random")
    assert result.showdowns <= 150
    assert sum(result.won_with.values()) >= result.showdowns
    again = simulate(150, 4, ["heuristic", "random"], 3)
    assert again.net == result.net and again.shown == result.shown


def test_simulate_bad_options() -> None:
    result = runner.invoke(app, ["simulate", "--hands", "5", "--bots", "oracle"])
    assert result.exit_code == 2
    result = runner.invoke(app, ["simulate", "--hands", "5", "--players", "12"])
    assert result.exit_code == 2


def test_simulate_with_rules_two_players() -> None:
    result = simulate(40, 2, ["random"], 9, rules=Rules(min_players=2), stack=10)
    assert result.hands == 40 and sum(result.net) == 0


def test_play_help_then_quit() -> None:
    result = runner.invoke(app, [*_args(1), "--no-save"], input="?\nq\n")
    assert result.exit_code == 0, result.output
    assert "Input (what is allowed now is listed at each turn)" in result.stdout
    assert "Leave in the middle of this hand?" in result.stdout  # q asks first mid-hand
    assert "You left the table in the middle of a hand" in result.stdout


def test_play_no_save_never_says_the_match_is_saved() -> None:
    result = runner.invoke(app, [*_args(1), "--no-save"], input="q\ny\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())  # the console wraps at 80 columns
    note = "This match is not saved (--no-save): leaving ends it."
    assert f"Leave in the middle of this hand? {note} [y/N]" in out  # the question
    assert f"(the hand in progress is not counted below). {note}" in out  # after leaving
    assert "--resume" not in out


def test_play_saved_leaves_with_the_same_resume_note_first_time_and_resumed(
    tmp_path: Path,
) -> None:
    note = "The match is saved: primero play --resume continues it."
    save = ["--save-dir", str(tmp_path / "h")]
    first = runner.invoke(app, [*_args(1), *save], input="q\ny\n")
    again = runner.invoke(app, ["play", "--plain", "--resume", *save], input="q\ny\n")
    for result in (first, again):
        assert result.exit_code == 0, result.output
        out = " ".join(result.stdout.split())  # the console wraps at 80 columns
        assert f"Leave in the middle of this hand? {note} [y/N]" in out
        assert (
            f"You left the table in the middle of a hand (the hand in progress is not "
            f"counted below). {note}"
        ) in out


def test_play_refuses_a_name_over_24_characters(tmp_path: Path) -> None:
    name = "Maximiliano Fernandez de la Cruz"  # 32 characters
    result = runner.invoke(app, [*_args(1), "--save-dir", str(tmp_path), "--name", name])
    assert result.exit_code == 2
    assert "--name must be 1 to 24 characters (as on the server), not 32" in result.stderr
    assert list(tmp_path.iterdir()) == []  # nothing started, nothing saved
    ok = runner.invoke(app, [*_args(1), "--no-save", "--name", "x" * 24], input="q\ny\n")
    assert ok.exit_code == 0, ok.output


# --------------------------------------------------------------------------- --save-dir


def test_play_refuses_a_save_dir_that_is_a_file_before_any_hand(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    result = runner.invoke(
        app, [*_args(5), "--save-dir", str(afile), "--max-hands", "3"], input="q\n"
    )
    assert result.exit_code == 2
    assert "Hand 1" not in result.stdout
    assert f"cannot save hand histories: {afile} exists and is not a folder" in result.stderr
    assert "--no-save" in result.stderr


def test_play_refuses_a_save_dir_that_cannot_be_created(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    result = runner.invoke(app, [*_args(5), "--save-dir", str(afile / "sub")], input="q\n")
    assert result.exit_code == 2
    assert "Hand 1" not in result.stdout
    assert f"{afile / 'sub'} cannot be created" in result.stderr


def test_play_creates_the_save_dir_at_start(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "hands"
    result = runner.invoke(app, [*_args(5), "--save-dir", str(folder)], input="q\n")
    assert result.exit_code == 0, result.output
    assert folder.is_dir()


def test_run_plain_warns_when_a_record_cannot_be_written_and_plays_on(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    config = TableConfig(
        seed=12, bots=("random",), max_hands=2, stack=20, save_dir=afile, players=4
    )
    table = Table(config)

    def input_fn(prompt: str) -> str:
        return "" if prompt.startswith("[Enter]") else _text_for(table.view())

    buf = io.StringIO()
    run_plain(config, Console(file=buf, width=200), input_fn, table=table)
    out = buf.getvalue()
    assert table.match.hands_played == 2
    assert out.count(f"Warning: the record of hand 1 could not be saved in {afile}") == 1
    assert "Warning: the record of hand 2 could not be saved" in out
    assert "Playing on without it." in out
    assert "Final standings" in out
    assert table.saved == []


def test_plain_mode_sentences_agree_with_you_and_numbers(tmp_path: Path) -> None:
    import re

    config = TableConfig(seed=12, bots=("random",), max_hands=4, stack=100, players=4)
    table = Table(config)

    def input_fn(prompt: str) -> str:
        return "" if prompt.startswith("[Enter]") else _text_for(table.view())

    buf = io.StringIO()
    run_plain(config, Console(file=buf, width=200), input_fn, table=table)
    out = buf.getvalue()
    assert table.match.hands_played == 4
    assert "Stacks of 100 chips each" in out
    assert "· you deal" in out and "You deals" not in out
    assert re.search(r"\(\d+\) wins", out) is None, "no amount repeated before 'wins'"
    assert re.search(r"wins? (the main pot, )?\d+ chips?", out)
    for wrong in ("You wins", "You's", "you holds", "you does", "You does", " 1 chips"):
        assert wrong not in out


def test_plain_mode_one_chip_is_singular() -> None:
    # with no ante (a stack of 1 and the ante of 1 make no game: test_game_options.py)
    result = runner.invoke(
        app, [*_args(3), "--no-save", "--stack", "1", "--ante", "0"], input="q\n"
    )
    assert "Stacks of 1 chip each" in result.stdout


def test_simulate_refuses_an_empty_bot_kind() -> None:
    result = runner.invoke(app, ["simulate", "--bots", "random,,heuristic", "--hands", "5"])
    assert result.exit_code == 2
    assert "empty bot kind in 'random,,heuristic'" in result.stderr
    assert "random, heuristic" in result.stderr


def test_plain_mode_h_prints_hints_and_question_mark_the_help() -> None:
    result = runner.invoke(app, [*_args(1), "--no-save"], input="h\n?\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Hints: exact odds from your cards and your own discards only" in out
    assert "★ best:" in out
    assert out.index("Hints:") < out.index("Input (what is allowed now is listed at each turn)")


# --------------------------------------------------------------------------- leaving


def test_plain_superscript_amount_is_refused_without_a_traceback() -> None:
    result = runner.invoke(
        app,
        ["play", "--plain", "--seed", "5", "--max-hands", "1", "--no-save", "--players", "4"],
        input="b ²\nq\ny\n",
    )
    assert result.exit_code == 0, result.output
    assert result.exception is None
    assert "'²' is not a whole number of chips: type the digits 0-9" in result.stdout


def _leave_script(
    first: str | type[BaseException], answer: str | type[BaseException]
) -> tuple[Callable[[str], str], list[str]]:
    """An input function: at the first turn ``first`` (a line, or an exception to raise),
    then ``answer`` to the leave question, then q/y for good."""
    calls: list[str] = []

    def input_fn(prompt: str) -> str:
        calls.append(prompt)
        k = len(calls)
        value: str | type[BaseException] = first if k == 1 else answer if k == 2 else "q"
        if k > 3 and prompt.startswith("Leave"):
            value = "y"
        if isinstance(value, str):
            return value
        raise value

    return input_fn, calls


@pytest.mark.parametrize("leave", ["q", "quit", "\x11", KeyboardInterrupt, EOFError])
def test_plain_every_leave_key_asks_first_mid_hand_and_n_stays(
    leave: str | type[BaseException],
) -> None:
    config = TableConfig(seed=5, max_hands=1)
    input_fn, calls = _leave_script(leave, "n")
    buf = io.StringIO()
    run_plain(config, Console(file=buf, width=120), input_fn)
    assert calls[0] == "> "
    assert calls[1].startswith("Leave in the middle of this hand?")
    assert calls[2] == "> "  # n: the person stays at the same turn
    out = buf.getvalue()
    assert "You stay." in out
    assert "Standings when you left" in out


@pytest.mark.parametrize("answer", ["y", "Y", "q", KeyboardInterrupt, EOFError])
def test_plain_leave_confirmed_shows_standings_and_summary(
    answer: str | type[BaseException],
) -> None:
    config = TableConfig(seed=5, max_hands=1)
    input_fn, calls = _leave_script("q", answer)
    buf = io.StringIO()
    run_plain(config, Console(file=buf, width=120), input_fn)
    assert len(calls) == 2
    out = buf.getvalue()
    assert "You left the table in the middle of a hand" in out
    assert "Standings when you left" in out
    assert "This session: 0 hands played" in out
    # the hand in progress is not counted (it can be resumed): chips as it started
    assert "Your chips over the session: 100 → 100 (+0)" in out
    assert "the hand in progress is not counted" in out


def test_plain_leaving_between_hands_does_not_ask() -> None:
    config = TableConfig(seed=12, bots=("random",), max_hands=3, players=4)
    table = Table(config)
    prompts: list[str] = []

    def input_fn(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("[Enter]"):
            return "q"
        return _text_for(table.view())

    buf = io.StringIO()
    run_plain(config, Console(file=buf, width=120), input_fn, table=table)
    assert not any(p.startswith("Leave") for p in prompts)
    out = buf.getvalue()
    assert "This session: 1 hand played" in out
    chips = table.match.chips[0]
    assert f"Your chips over the session: 100 → {chips} ({chips - 100:+d})" in out


def test_plain_tables_name_players_not_record_seats() -> None:
    # seats change every hand (R3): the screen names players; p1..pN are for records
    result = runner.invoke(
        app,
        ["play", "--plain", "--seed", "5", "--max-hands", "1", "--no-save", "--players", "4"],
        input="b 1\nq\ny\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "1 hand at most" in out
    assert not re.search(r"\bp[1-6]\b", out)
    assert re.search(r"Girolamo \(heuristic\) +99 .* dealer", out)


def test_the_terminal_table_gets_the_speed_and_leaving_prints_the_summary(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from primero import tui
    from primero.cli import commands_play
    from primero.play.session import SessionSummary

    calls: list[float] = []

    def fake_run_table(
        config: TableConfig, *, bot_delay: float, table: Table | None = None
    ) -> tuple[Table, SessionSummary]:
        calls.append(bot_delay)
        assert table is not None
        return table, SessionSummary(start_chips=100, hands_played=3, hands_won=1, biggest_pot=9)

    monkeypatch.setattr(tui, "run_table", fake_run_table)
    config = TableConfig(seed=2, max_hands=3)
    assert commands_play._run_tui(config, Table(config), 0.25)
    assert calls == [0.25]
    out = capsys.readouterr().out
    assert "Standings when you left" in out
    assert "This session: 3 hands played, 1 won, biggest pot won 9 chips" in out
    assert "Your chips over the session: 100 → 100 (+0)" in out


@settings(max_examples=40, deadline=None)
@example(["b ²", "r ²", "x 6♠\ufe0f", "²", "?", "h", "dc ²", "b 1"])
@given(st.lists(st.text(max_size=20), max_size=8))
def test_plain_prompt_takes_any_unicode_lines(lines: list[str]) -> None:
    """Arbitrary lines at the plain prompt: no exception; a line that is refused
    changes nothing; chips are conserved (R7)."""
    config = TableConfig(seed=9, max_hands=1, bots=("random",))
    table = Table(config)
    script = iter(lines)
    pending: list[list[str]] = []  # the hand's lines before a line that must be refused

    def input_fn(prompt: str) -> str:
        hand = table.hand
        now = hand.lines() if hand is not None else []
        if pending:
            assert now == pending.pop(), "a refused line changed the hand"
        if prompt.startswith("Leave"):
            return "y"
        text = next(script, "q")
        if prompt == "> " and text.strip().lower() not in {"q", "quit", "exit", "\x11"}:
            try:
                table.parse_input(text)
            except InputError:
                pending.append(now)
        return text

    buf = io.StringIO()
    run_plain(config, Console(file=buf, width=100), input_fn, table=table)
    out = buf.getvalue()
    assert "Traceback" not in out
    assert sum(table.match.chips) == 400  # chips move only when a hand is closed (R7, R9)
    assert "Standings" in out


def test_n_for_a_new_match_starts_one_with_the_next_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from primero import tui
    from primero.cli import commands_play
    from primero.play.session import SessionSummary

    tables: list[Table] = []

    def fake_run_table(
        config: TableConfig, *, bot_delay: float, table: Table | None = None
    ) -> tuple[Table, SessionSummary]:
        assert table is not None
        tables.append(table)
        summary = SessionSummary(start_chips=100)
        summary.new_match = len(tables) == 1  # n once, then q
        return table, summary

    monkeypatch.setattr(tui, "run_table", fake_run_table)
    config = TableConfig(seed=2, max_hands=3, save_dir=tmp_path)
    assert commands_play._run_tui(config, Table(config), 0)
    assert [t.config.seed for t in tables] == [2, 3]
    assert tables[1].session != tables[0].session
    assert len(list(tmp_path.glob("*.match.json"))) == 1  # the new match is saved
    assert "A new match begins." in capsys.readouterr().out
