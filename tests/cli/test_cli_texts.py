"""What a person reads on the command line: help screens, the rules
in a pager, the simulate table's notes, and a few sentences of the engine."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from primero.cli import app, commands_info
from primero.cli.app import COMMAND_ORDER
from primero.engine.actions import Bet, Call, Deal, Exchange
from primero.engine.dealing import Dealer
from primero.engine.errors import IllegalActionError
from primero.engine.rules import Rules
from primero.engine.state import DEALER, HandState, Phase

runner = CliRunner()
COMMANDS = [
    "play",
    "learn",
    "serve",
    "watch",
    "replay",
    "verify",
    "rules",
    "cheatsheet",
    "odds",
    "eval",
    "simulate",
    "tournament",
    "lbr",
    "hands",
]


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_flags_take_no_value_in_help(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.stdout and "BOOLEAN" not in result.stdout
    row = next(line for line in result.stdout.splitlines() if "--help" in line)
    assert re.search(r"--help\s+Show this message and exit", row), row


def test_play_help_lists_its_flags_bare() -> None:
    out = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "120"}).stdout
    for flag in ("--plain", "--no-save", "--no-refusal", "--first-round-stand"):
        row = next(line for line in out.splitlines() if line.startswith(f"│ {flag} "))
        assert re.search(flag + r"\s{2,}[A-Z]", row), row  # straight on to the help text
    row = next(line for line in out.splitlines() if line.startswith("│ --ante "))
    assert "<int" in row  # options with a value still show it


def _descriptions(out: str) -> tuple[int, list[str]]:
    """The width of the options' description column of a help screen, and its lines."""
    rows = [line for line in out.splitlines() if line.startswith("│ ")]
    start = next(line.index("Show this message") for line in rows if "--help" in line)
    return len(rows[0]) - 2 - start, [line[start:-2].rstrip() for line in rows]


@pytest.mark.parametrize(("columns", "at_least"), [(80, 34), (120, 74)])
def test_play_help_keeps_a_wide_description_column(columns: int, at_least: int) -> None:
    # the help column had 21 of 80 columns (58 of 120): the type column kept Typer's
    # ranges ("<float range> [0<=x<=10]") and --ties its choices whole
    out = runner.invoke(app, ["play", "--help"], env={"COLUMNS": str(columns)}).stdout
    panel = [line for line in out.splitlines() if line.startswith(("╭", "│", "╰"))]
    assert panel and all(len(line) == columns for line in panel), out  # the terminal's width
    width, lines = _descriptions(out)
    assert width >= at_least, out
    said = " ".join(" ".join(lines).split())
    for text in (
        "Seats, you included (R3). Default 4; with --hot-seat, the people named (at least "
        "4), bots in the other seats.",
        "End after N hands, 1 or more (R9).",
        "Chips each player puts in the pot before the first deal, 0 chips or more (R4.1).",
        "Ties (R7): eldest (among equal best hands the first in seat order takes the pot) "
        "or split (the tied players share it). [default: eldest]",
        "Seconds between two bots' moves on the full-screen table, 0 to 10 (0: at once; "
        "space skips the wait). [default: 0.6]",
    ):
        assert text in said, said
    assert "…" not in out and "range" not in out


def test_commands_are_listed_play_and_learn_first() -> None:
    out = runner.invoke(app, ["--help"], env={"COLUMNS": "120"}).stdout
    listed = [m.group(1) for m in re.finditer(r"^│ (\w+)\s", out, re.MULTILINE)]
    assert listed == list(COMMAND_ORDER) == COMMANDS


def test_help_cites_no_file_that_is_not_installed() -> None:
    for command in COMMANDS:
        out = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).stdout
        assert ".md" not in out, (command, out)


def test_rules_use_a_pager_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    paged: list[str] = []
    monkeypatch.setattr(commands_info.RulesPager, "show", lambda self, text: paged.append(text))
    result = runner.invoke(app, ["rules"])  # piped: printed, no pager
    assert result.exit_code == 0 and "R1 Cards" in result.stdout and paged == []
    monkeypatch.setattr(commands_info, "use_pager", lambda console: True)
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0
    assert len(paged) == 1 and "R1 Cards" in paged[0] and "R10 Randomness" in paged[0]
    assert "Order of play (R4)" in paged[0]  # the cheat sheet too
    assert "R1 Cards" not in result.stdout
    result = runner.invoke(app, ["rules", "--section", "R8"])  # one section: no pager
    assert "R8 Refusing a bet" in result.stdout and len(paged) == 1


def test_use_pager_only_on_a_terminal() -> None:
    from rich.console import Console

    assert not commands_info.use_pager(Console(force_terminal=False))


def test_simulate_table_explains_its_counts() -> None:
    result = runner.invoke(
        app,
        ["simulate", "--hands", "30", "--players", "4", "--seed", "1", "--quiet"],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert (
        "hands won: hands in which the seat took a pot. Split pots (R7 ties) and side "
        "pots give one hand several winners, so the column can add up to more than the "
        "hands played." in out
    )
    assert (
        "One hand can take the main pot and side pots (R7), so a category can win "
        "more pots than it showed hands." in out
    )


def test_exchange_counts_in_words() -> None:
    # the second exchange allows 0, 1 or 2 cards (R4.6)
    state = HandState(["A", "B"], [20, 20], Rules(min_players=2))
    dealer = Dealer.seeded(1)
    dealer.deal_into(state)
    state.apply(Bet(0, 1))
    state.apply(Call(1))
    dealer.deal_into(state)
    state.apply("p1 dc " + _true(state, 0))
    state.apply("p1 b 0")
    state.apply("p2 dc " + _true(state, 1))
    state.apply("p2 c")
    assert state.phase is Phase.SECOND_EXCHANGE
    assert "p1 may stand pat or exchange 1 or 2 cards" in state.legal_actions().describe()
    with pytest.raises(IllegalActionError, match=r"stand pat or exchange 1 or 2 cards"):
        state.apply(Bet(0, 1))


def _true(state: HandState, seat: int) -> str:
    legal = state.legal_actions()
    assert legal.seat == seat
    return legal.declare[0].label


def test_the_stock_holds_one_card_not_one_cards() -> None:
    # 8 players (R8b): 16 cards dealt, p1-p6 exchange two and p7 one (13 more), p8 bets
    # and everyone calls; the second deal gives p1-p5 two each: 40 - 16 - 13 - 10 = 1
    # card is left when p6 is due two
    rules = Rules(min_players=8, max_players=8)
    state = HandState([f"P{i}" for i in range(8)], [20] * 8, rules)
    dealer = Dealer.seeded(3)
    dealer.deal_into(state)
    for seat in range(7):
        state.apply(Exchange(seat, tuple(state.hands[seat][: 2 if seat < 6 else 1])))
        dealer.deal_into(state)
    state.apply(Bet(7, 1))
    state.apply("p1 y")  # p1 votes first and lets the bet stand (R8)
    for seat in range(7):
        state.apply(Call(seat))
    for _ in range(5):
        assert state.to_act == DEALER
        state.apply(dealer.deal(state))
    assert state.stock_count == 1
    due = state.legal_actions()
    assert due.deal == 2
    stock = state.stock()
    wrong = [c for c in state.recyclable(due.seat or 0) if c not in stock][:2]
    with pytest.raises(IllegalActionError, match=r"the stock holds 1 card \("):
        state.apply(Deal(5, tuple(wrong)))


# --------------------------------------------------------------------------- the log


def test_checks_are_said_as_checks() -> None:
    from primero.play.tablemodel.sentences import line_sentences

    names = ("Ana", "Ben", "Cleo")
    lines = [
        "d dh p1 7h 6h", "d dh p2 Kc Qd", "d dh p3 Jc 2s",
        "p1 b 2",  # 3: a bet
        "p2 y", "p2 c", "p3 c",  # 5, 6: calls of 2
        "d dh p1 5h 4h", "d dh p2 Jd Jh", "d dh p3 3c 3d",
        "p1 dc fluxus", "p1 b 0",  # 11: an opening bet of 0 is a check
        "p2 dc numerus", "p2 r 5", "p3 n", "p1 n",  # 13: refused by all (R8): withdrawn
        "p2 c",  # 16: nothing to put in: a check
        "p3 dc numerus", "p3 c",  # 18: a check
        "p1 x", "p2 x", "p3 x",
        "p1 b 3", "p2 y", "p2 c", "p3 c",  # 22 bet; 24, 25 calls of 3
    ]  # fmt: skip
    said = line_sentences(lines, names, viewer=None, starting_stacks=[20] * 3, ante=1)
    assert said[11] == "Ana checks" and said[16] == "Ben checks" and said[18] == "Cleo checks"
    assert said[5] == "Ben calls 2" and said[24] == "Ben calls 3" and said[3] == "Ana bets 2"
    assert said[13] == "Ben bets 5"  # over a check nothing is raised: the first bet (R5)
    assert said[15] == "Ana refuses the bet: it is withdrawn (R8)"
    assert said[0] == "Ana is dealt 7♥ 6♥" and said[19] == "Ana stands pat"
    assert line_sentences(["p1 b 0", "p2 c"], ("You", "Ben"), viewer=0, starting_stacks=[5, 5]) == [
        "You check",
        "Ben checks",
    ]


def test_card_errors_list_every_accepted_suit_symbol() -> None:
    from primero.engine.cards import CardError, parse_card

    assert parse_card("6♤") == parse_card("6s")  # R1: the white suits are accepted
    with pytest.raises(CardError) as info:
        parse_card("9s")
    assert "♣♦♥♠ ♧♢♡♤" in str(info.value)
