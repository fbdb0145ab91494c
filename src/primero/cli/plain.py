"""The plain prompt of ``primero play --plain`` (R3–R9): a person against bots, in text.

:func:`run_plain` shows, at each of the person's turns, their cards with category and
points, the pot, the players (by name; the dealer marked), their stacks, bets,
declarations and exchanges, whose turn it is and the legal actions in the short input
syntax of :mod:`primero.play.moveinput`. Bots' actions are printed as they happen; after each
hand the hands shown, the pots and their winners and the stacks.

Pass and play (``--hot-seat Ana,Ben``): between turns only public lines are printed;
before a person's turn the prompt says "Pass the device to Ben" and waits for Ben's
Enter before printing Ben's cards; after Ben's move the terminal is cleared (screen and
scrollback, when it is a terminal) before anything else is printed.

Leaving: ``q`` (or quit, exit), Ctrl-C, Ctrl-D (end of input) and Ctrl-Q all mean "leave
the table"; in the middle of a hand the prompt asks first. Leaving shows the standings
and a session summary (:class:`~primero.play.session.SessionSummary`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from rich.console import Console, JustifyMethod
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from primero.engine.actions import Deal
from primero.engine.cards import Card, Suit
from primero.engine.hands import evaluate
from primero.engine.state import Phase
from primero.engine.views import SeatView
from primero.engine.words import is_raise_over
from primero.play.moveinput import input_help
from primero.play.session import SessionSummary
from primero.play.table import InputError, Table, TableConfig, pass_lines, phase_name
from primero.play.tablemodel.sentences import result_sentences, section_marker

__all__ = [
    "HELP",
    "LEAVE_QUESTION",
    "QUIT_WORDS",
    "InputFn",
    "card_text",
    "cards_text",
    "pot_info",
    "print_leaving",
    "run_plain",
]

#: Inputs that leave the table (``\x11`` is Ctrl-Q typed at a prompt).
QUIT_WORDS: Final = frozenset({"q", "quit", "exit", "\x11"})
_HELP_WORDS: Final = frozenset({"?", "help"})
_HINT_WORDS: Final = frozenset({"h", "hint", "hints"})
#: The input syntax, shown for ``?``.
HELP: Final = """Input (what is allowed now is listed at each turn):
  b N        bet N chips (first bet of a round; 0 allowed in rounds 2 and 3)
  r N        raise the round's bet to N chips in total for this round
  c          call, or check (with no bet open in rounds 2 and 3: bet 0)
  f          fold
  y / n      accept / refuse a bet (R8)
  x CARDS    exchange those cards, e.g. x 7h Kc (x alone: stand pat)
  dc CAT     declare a category; prefixes work: dc n, dc p, dc s, dc f, dc c
  h          hints: the exact odds of your exchange choices (your cards only)
  q          leave the table (Ctrl-C, Ctrl-D, Ctrl-Q too); mid-hand it asks first.
             Saved (the default): primero play --resume continues the match;
             with --no-save leaving ends it.
Cards: rank A 2 3 4 5 6 7 J Q K, suit c d h s (or ♣ ♦ ♥ ♠, or ♧ ♢ ♡ ♤), e.g. 7h."""

InputFn = Callable[[str], str]


class _Quit(Exception):
    """The person asked to leave the table."""


# --------------------------------------------------------------------------- rendering


def card_text(card: Card) -> Text:
    """A card in Unicode, red for hearts and diamonds, e.g. ``7♥``."""
    red = card.suit in (Suit.HEARTS, Suit.DIAMONDS)
    return Text(card.pretty, style="bold red" if red else "bold")


def cards_text(cards: tuple[Card, ...] | list[Card]) -> Text:
    """Cards in Unicode, space-separated, suit-coloured."""
    return Text(" ").join(card_text(c) for c in cards)


def _chips(n: int) -> str:
    """``"1 chip"``, ``"11 chips"``."""
    return f"{n} chip{'' if n == 1 else 's'}"


def _hand_line(v: SeatView) -> Text:
    line = Text("Your cards: ")
    if not v.hand:
        line.append("none (folded)" if v.seat is not None else "— (watching)")
        return line
    line.append_text(cards_text(v.hand))
    if len(v.hand) == 4:
        value = evaluate(v.hand)
        line.append(f"   {value.category.label} {value.points}", style="bold cyan")
        line.append("  (counting ")
        line.append_text(cards_text(value.counting))
        line.append(")")
    else:
        line.append("   (no category until you hold four cards)", style="dim")
    if v.discards:
        line.append("   discarded: ")
        line.append_text(cards_text(v.discards))
    return line


def _players_table(table: Table, v: SeatView) -> RichTable:
    rt = RichTable(show_edge=False, pad_edge=False, box=None, header_style="bold")
    columns: list[tuple[str, JustifyMethod]] = [
        ("player", "left"),
        ("stack", "right"),
        ("round", "right"),
        ("in pot", "right"),
        ("declared", "left"),
        ("exchanged", "left"),
        ("", "left"),
    ]
    declarations = v.rules.declarations  # none declare without them (R6): no column
    if not declarations:
        columns.remove(("declared", "left"))
    for col, justify in columns:
        rt.add_column(col, justify=justify)
    for s in range(v.n):
        status = []
        if s == v.n - 1:
            status.append("dealer")
        if v.folded[s]:
            status.append("folded")
        elif v.stacks[s] == 0 and v.final_stacks is None:
            status.append("all-in")
        if v.to_act == s:
            status.append("← to act")
        declared = v.declared[s]
        style = "dim" if v.folded[s] else ("bold" if s == v.seat else "")
        cells = [
            table.seat_label(s),
            str(v.stacks[s]),
            str(v.round_bets[s])
            if v.phase in (Phase.FIRST_ROUND, Phase.DECLARE_ROUND, Phase.LAST_ROUND)
            else "",
            str(v.contributed[s]),
            declared.label if declared is not None else "",
            ", ".join(str(k) for k in v.exchanges[s]),
            ", ".join(status),
        ]
        if not declarations:
            del cells[4]
        rt.add_row(*cells, style=style)
    return rt


def pot_info(v: SeatView, seat_label: Callable[[int], str]) -> str:
    """The pots of a hand in progress in words, as the turn panel says them (R7).

    A last pot only one seat may win is the part of a bet nobody can call: it is said as
    an uncalled bet to be returned, never as a pot (as the table's
    sentences, :func:`primero.play.tablemodel.sentences.result_sentences`).

    >>> from primero.engine.state import HandState
    >>> from primero.engine.views import view
    >>> s = HandState(["Ana", "Ben", "Cleo"], [5, 30, 30])
    >>> for line in ["d dh p1 7h Kc", "d dh p2 2s 3s", "d dh p3 Js 4s", "p1 b 4", "p2 y",
    ...              "p2 r 20", "p3 y", "p3 f", "d dh p1 Ah 2c", "d dh p2 5d 3d"]:
    ...     s.apply(line)
    >>> pot_info(view(s, 0), ["Ana", "Ben", "Cleo"].__getitem__)
    'Pot: 11 chips · uncalled bet of 16 chips, to be returned to Ben'
    """
    live = list(v.pots)
    back = None
    if len(live) > 1 and len(live[-1].eligible) == 1:  # nobody can call it: not a pot (R7)
        back = live.pop()
    pots = " + ".join(str(p.amount) for p in live) or "0"
    info = f"Pot: {_chips(sum(p.amount for p in live))}"
    if len(live) > 1:
        info += f" ({pots})"
    if back is not None:  # worded as the table's sentences
        who = "you" if back.eligible[0] == v.seat else seat_label(back.eligible[0])
        info += f" · uncalled bet of {_chips(back.amount)}, to be returned to {who}"
    return info


def _turn_panel(console: Console, table: Table, v: SeatView) -> None:
    console.print()
    console.print(_players_table(table, v))
    info = pot_info(v, table.seat_label)
    if v.current_bet is not None:
        info += f" · bet to match this round: {v.current_bet} (you need {v.to_call})"
    if v.pending_bet is not None:
        bettor, amount, is_raise = v.pending_bet
        what = "raise to" if is_raise_over(is_raise, v.current_bet) else "bet of"
        whose = "your" if bettor == v.seat else f"{table.seat_label(bettor)}'s"
        info += f" · vote on {whose} {what} {amount} (R8)"
    if v.cap is not None:
        info += f" · after the refusal your amount must stay below {v.cap} (R8)"
    console.print(info)
    console.print(_hand_line(v))
    legal = v.legal
    if legal is not None:
        console.print(Text(f"Your turn ({phase_name(v)}). You may:", style="bold yellow"))
        for line in input_help(legal):
            console.print("  " + line, markup=False, highlight=False)


def _result(console: Console, table: Table, v: SeatView) -> None:
    console.print(Rule("hand over"))
    shown = [
        (s, c, val)
        for s, (c, val) in enumerate(zip(v.shown_cards, v.shown, strict=True))
        if c is not None and val is not None
    ]
    if shown:
        rt = RichTable(title="Showdown", title_justify="left", box=None, header_style="bold")
        for col in ("player", "cards", "category", "points"):
            rt.add_column(col)
        for s, cards, value in shown:
            rt.add_row(
                table.seat_label(s), cards_text(cards), value.category.label, str(value.points)
            )
        console.print(rt)
    names = [table.seat_label(s) for s in range(v.n)]
    for line in result_sentences(v, names):
        console.print(line, markup=False, highlight=False)
    final = v.final_stacks
    if final is not None:
        parts = []
        for s in range(v.n):
            start = table.match.chips[table.match.seats[s]]  # not yet updated: the hand's start
            parts.append(f"{table.seat_label(s)} {final[s]} ({final[s] - start:+d})")
        console.print("Stacks: " + ", ".join(parts), markup=False)


def print_leaving(console: Console, table: Table, summary: SessionSummary, title: str) -> None:
    """The standings (R9) and the session summary, printed when the person leaves or
    the match ends (both front ends)."""
    _standings(console, table, title)
    if table.hot_seat:
        return  # the session summary counts one person's hands
    for line in summary.lines(table.match.chips[0]):
        console.print(line, markup=False, highlight=False)


def _standings(console: Console, table: Table, title: str) -> None:
    rt = RichTable(title=title, title_justify="left", header_style="bold")
    rt.add_column("place", justify="right")
    rt.add_column("player")
    rt.add_column("chips", justify="right")
    index = {name: i for i, name in enumerate(table.match.players)}
    for st in table.standings():
        rt.add_row(str(st.place), table.label(index[st.name]), str(st.chips))
    console.print(rt)
    console.print(f"Hands played in the match: {table.match.hands_played}")
    if table.saved:
        console.print(f"Hand histories saved in {table.saved[-1].parent}", markup=False)


# --------------------------------------------------------------------------- the loop


def _ask(input_fn: InputFn, prompt: str) -> str:
    try:
        text = input_fn(prompt)
    except (EOFError, KeyboardInterrupt):
        raise _Quit from None
    if text.strip().lower() in QUIT_WORDS:
        raise _Quit
    return text


def _next_hand_prompt(console: Console, input_fn: InputFn) -> None:
    """Wait for Enter before the next hand; anything else typed is answered (never
    taken for Enter) and asked again; q leaves (:func:`_ask`)."""
    while text := _ask(input_fn, "[Enter] next hand, q to leave: ").strip():
        shown = text if len(text) <= 40 else text[:39] + "…"
        console.print(
            f"{shown!r} does nothing here: press Enter for the next hand, q to leave.",
            style="yellow",
            markup=False,
            highlight=False,
        )


#: The question before leaving in the middle of a hand (then the table's leave note).
LEAVE_QUESTION: Final = "Leave in the middle of this hand?"


def _confirm_leave(input_fn: InputFn, table: Table) -> bool:
    """Ask before leaving mid-hand: y (or q, Ctrl-C, Ctrl-D again) leaves."""
    try:
        text = input_fn(f"{LEAVE_QUESTION} {table.leave_note} [y/N] ")
    except (EOFError, KeyboardInterrupt):
        return True
    return text.strip().lower() in {"y", "yes"} | QUIT_WORDS


def _clear(console: Console) -> None:
    """Pass and play: take the last person's cards off the terminal (the screen and its
    scrollback) before anything else is printed; a note where output is not a terminal."""
    if console.is_terminal:
        console.clear()
        console.file.write("\x1b[3J")  # the scrollback too
        console.file.flush()
    else:
        console.print(Rule("the screen is cleared here for the next person", style="dim"))


def _pass_screen(console: Console, table: Table, input_fn: InputFn, who: int) -> None:
    """Pass and play: ask to pass the device to ``who`` and show them the table once they
    press Enter (q leaves, asking first in mid-hand)."""
    title, line = pass_lines(table.match.players[who])
    while True:
        console.print()
        console.print(Rule(title, style="bold"))
        try:
            _ask(input_fn, f"{line} ")
        except _Quit:
            if _confirm_leave(input_fn, table):
                raise
            console.print("You stay.", style="dim")
            continue
        table.show_to(who)
        return


def _play_hand(console: Console, table: Table, input_fn: InputFn, summary: SessionSummary) -> None:
    resumed = table.match.hand is not None  # a resumed match, mid-hand
    if not resumed:
        table.start_hand()
    v = table.view()
    dealer = "you deal" if v.n - 1 == v.seat else f"{table.seat_label(v.n - 1)} deals"
    console.print()
    again = " (resumed where you left it)" if resumed else ""
    console.print(Rule(f"Hand {table.hand_number} · {dealer}{again}"))
    printed = 0
    while True:
        table.advance()
        v = table.view()
        log = v.events
        for event in table.events[printed:]:
            marker = section_marker(log, event.index)
            if marker is not None:  # the stage's heading before its first line
                console.print(Rule(marker, style="dim"))
            # others' deals are implied (first/second deal, replacements of an exchange)
            if event.seat != table.human_seat and isinstance(event.action, Deal):
                continue
            style = "" if event.seat == table.human_seat else "cyan"
            console.print(f"  {event.text}", style=style, markup=False, highlight=False)
        printed = len(table.events)
        who = table.pass_to() if table.hot_seat else None
        if who is not None:
            _pass_screen(console, table, input_fn, who)
            v = table.view()
        if not table.waiting_for_human():
            break
        _turn_panel(console, table, v)
        while True:
            try:
                text = _ask(input_fn, "> ")
            except _Quit:
                if _confirm_leave(input_fn, table):
                    raise
                console.print("You stay.", style="dim")
                continue
            if text.strip().lower() in _HELP_WORDS:
                console.print(HELP, markup=False, highlight=False)
                continue
            if text.strip().lower() in _HINT_WORDS:
                from primero.tui.hints import hints_text  # reads only the person's view

                console.print(hints_text(v))
                continue
            try:
                action = table.parse_input(text)
            except InputError as exc:
                console.print(str(exc), style="red", markup=False, highlight=False)
                continue
            table.act(action)
            if table.hot_seat and table.viewer is None:
                _clear(console)  # their move is made: their cards off the terminal
            break
    _result(console, table, table.view())  # before finish_hand: match.chips are the start
    summary.add(table.view())
    saved = len(table.saved)
    try:
        table.finish_hand()
    except OSError as exc:  # the hand is closed in the match; only its record is lost
        console.print(
            f"Warning: the record of hand {table.hand_number} could not be saved in "
            f"{table.config.save_dir}: {exc}. Playing on without it.",
            style="yellow",
            markup=False,
            highlight=False,
        )
        return
    if len(table.saved) > saved:
        console.print(f"Saved {table.saved[-1]}", style="dim", markup=False)


def run_plain(
    config: TableConfig,
    console: Console | None = None,
    input_fn: InputFn = input,
    *,
    table: Table | None = None,
    summary: SessionSummary | None = None,
) -> Table:
    """Play a match at a plain text prompt until it ends or the person quits (R3–R9).

    Args:
        config: the table set-up.
        console: where to print (default: standard output).
        input_fn: reads one line of the person's input, given a prompt (default
            :func:`input`); EOFError or KeyboardInterrupt, or the words q / quit / exit,
            leave the table.
        table: a table built from ``config`` to play on (default: a new one), e.g. so
            that a scripted input can read the person's view, or a resumed match.
        summary: the session's counts, filled in as hands finish (default a new one).

    Returns:
        The table as it was left (its match holds the chips and records).

    A hand record that cannot be written to ``config.save_dir`` is reported with a
    warning and the match goes on (:func:`check_save_dir` checks the folder first).

    Raises:
        RulesError, ValueError: the configuration is invalid (see
            :class:`~primero.play.table.Table`).
    """
    console = console or Console(highlight=False)
    if table is None:
        table = Table(config)
    if summary is None:
        summary = SessionSummary(start_chips=table.match.chips[0])
    bots = [i for i in range(len(table.match.players)) if i not in table.people]
    kinds = ", ".join(table.label(i) for i in bots)
    if table.hot_seat:
        against = f" against {kinds}" if kinds else ""
        console.print(
            Text("Primero", style="bold"),
            f"— pass and play: {table.people_names}{against}. Pass the device when asked.",
        )
    else:
        console.print(Text("Primero", style="bold"), f"— you play against {kinds}.")
    overrides = config.rules.overrides()
    if overrides:
        console.print(
            "House rules: " + ", ".join(f"{k}={v}" for k, v in overrides.items()), markup=False
        )
    console.print(
        f"Stacks of {_chips(config.stack)} each"
        + (
            f", {config.max_hands} hand{'' if config.max_hands == 1 else 's'} at most"
            if config.max_hands
            else ""
        )
        + (f", seed {config.seed}" if config.seed is not None else "")
        + ". Type ? for help, h for hints, q to leave."
    )
    try:
        while not table.over:
            _play_hand(console, table, input_fn, summary)
            if table.human_out:
                console.print(f"{table.out_text()} (no chips left, R9).", style="bold red")
                break
            if table.over:
                break
            _next_hand_prompt(console, input_fn)
    except _Quit:
        console.print()
        if table.hand is not None and not table.hand.complete:
            console.print(table.left_mid_hand_text(), markup=False)
        print_leaving(console, table, summary, "Standings when you left")
        return table
    print_leaving(console, table, summary, "Final standings" if table.over else "Standings")
    return table
