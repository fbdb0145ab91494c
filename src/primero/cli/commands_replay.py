"""``primero replay``: replay hand records and report each outcome (docs/record-format.md,
"Replaying").

For every file, one of three outcomes: a complete hand (pots and winners, the hands
shown, final stacks and net), a record that stops mid-hand (who is to act and which kinds
of line they may write), or the first invalid line (on standard error). With ``--json``
each file gives one JSON object on one line of standard output, in the order of the
files, naming its file. An error names the line of the file and the action, counted
from 1 (:func:`primero.play.recordpos.describe_error`, the wording ``watch`` uses too). The
exit status is 2 when any record is invalid, else 0.

The per-file work is :func:`replay_file`, so that a later ``--watch`` option can call it
again whenever a file changes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, TextIO

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from primero.cli.app import app
from primero.cli.commands_tui import WatchFlag, watch_files
from primero.engine.cards import Card, Suit

if TYPE_CHECKING:  # the command imports these when it runs, so that the CLI starts fast
    from primero.engine.history import HandRecord, ReplayOutcome

__all__ = ["EXIT_INVALID", "describe_outcome", "replay_command", "replay_file"]

#: Exit status when at least one record is invalid (docs/record-format.md).
EXIT_INVALID: Final = 2


def _card(card: Card) -> Text:
    red = card.suit in (Suit.HEARTS, Suit.DIAMONDS)
    return Text(card.pretty, style="red" if red else "")


def _who(record: HandRecord, seat: int) -> str:
    from primero.engine.actions import seat_name

    return f"{seat_name(seat)} {record.players[seat]}"


def describe_outcome(name: str, record: HandRecord, outcome: ReplayOutcome) -> list[Text | Table]:
    """The person-readable report of a valid record's outcome (complete or pending).

    Args:
        name: how to name the file in the report.
        record: the record replayed.
        outcome: its replay outcome, without an error.

    Returns:
        Rich renderables to print, in order.
    """
    from primero.engine.actions import seat_name

    state = outcome.state
    assert state is not None
    out: list[Text | Table] = []
    declared = [
        f"{_who(record, s)} {c.label}" for s, c in enumerate(state.declared) if c is not None
    ]
    if outcome.complete:
        from primero.engine.views import view
        from primero.play.tablemodel.sentences import result_sentences, uncalled_bet, won_awards

        result = state.result
        assert result is not None
        seen = view(state, None)
        awards = won_awards(seen)  # R7: the bet nobody called is returned, not won
        voids = f", {state.void_deals} void deal(s)" if state.void_deals else ""
        out.append(Text(f"{name}: complete hand ({len(record.actions)} actions{voids})", "bold"))
        if uncalled_bet(seen) is not None:  # the table's sentence
            names = [_who(record, s) for s in range(state.n)]
            out.append(Text(result_sentences(seen, names, you=False)[0] + "."))
        if result.uncontested:
            winner = next(s for s in range(state.n) if not state.folded[s])
            out.append(
                Text(
                    f"Everyone else folded: {_who(record, winner)} takes "
                    f"{sum(a.pot.amount for a in awards)} chips without showing."
                )
            )
        else:
            shown = Table(title="Hands shown", title_justify="left")
            for col in ("seat", "cards", "category", "points"):
                shown.add_column(col)
            for s, (value, cards) in enumerate(zip(result.shown, result.shown_cards, strict=True)):
                if value is None or cards is None:
                    continue
                shown.add_row(
                    _who(record, s),
                    Text(" ").join(_card(c) for c in cards),
                    value.category.label,
                    str(value.points),
                )
            out.append(shown)
        pots = Table(title="Pots", title_justify="left")
        for col in ("pot", "chips", "eligible", "won by"):
            pots.add_column(col)
        for i, award in enumerate(awards):
            winners = ", ".join(
                f"{_who(record, w)} ({share})"
                for w, share in zip(award.winners, award.shares, strict=True)
            )
            pots.add_row(
                "main" if i == 0 else f"side {i}",
                str(award.pot.amount),
                " ".join(seat_name(s) for s in award.pot.eligible),
                winners,
            )
        out.append(pots)
        stacks = Table(title="Stacks", title_justify="left")
        for col in ("seat", "start", "final", "net"):
            stacks.add_column(col)
        for s in range(state.n):
            net = result.net[s]
            stacks.add_row(
                _who(record, s),
                str(record.starting_stacks[s]),
                str(result.final_stacks[s]),
                Text(f"{net:+d}", style="green" if net > 0 else "red" if net < 0 else ""),
            )
        out.append(stacks)
    else:
        to_act = outcome.to_act
        assert to_act is not None
        who = "the dealer (a deal line is due)" if to_act == "dealer" else to_act
        if to_act != "dealer":
            who = f"{to_act} {record.players[int(to_act[1:]) - 1]}"
        out.append(Text(f"{name}: the record stops mid-hand ({state.phase.value})", "bold"))
        out.append(Text(f"To act: {who}"))
        out.append(Text(f"May write: {', '.join(outcome.legal)}"))
        out.append(Text(state.legal_actions().describe()))
        out.append(
            Text(
                f"Pot: {state.pot_total()} chips; stacks: "
                + ", ".join(f"{seat_name(s)} {c}" for s, c in enumerate(state.stacks))
            )
        )
    if declared:
        out.append(Text("Declarations: " + "; ".join(declared)))
    return out


def replay_file(path: Path, *, as_json: bool, out: TextIO, err: TextIO) -> bool:
    """Replay one record file and report its outcome.

    Args:
        path: a ``.prh`` (TOML) or ``.json`` record.
        as_json: print one JSON object on one line to ``out`` (errors included) instead
            of words: docs/record-format.md's object with a ``"file"`` key (the path as
            given) and, in an error, ``"file_line"`` (the line of the file of the
            invalid action, counted from 1; null for a header error).
        out: where reports go (standard output).
        err: where errors go in the words mode (standard error).

    Returns:
        True when the record is valid (complete or pending), False when it is invalid
        (header or line error, or the file cannot be read).
    """
    from primero.engine.history import RecordError, read_record, replay
    from primero.play.recordpos import action_lines_of_file, describe_error, where

    record: HandRecord | None
    try:
        record = read_record(path)
        outcome = replay(record)
        error = outcome.error
    except RecordError as exc:
        record, outcome, error = None, None, exc
    if as_json:
        payload: dict[str, Any] = {"file": str(path)}
        if error is not None:
            lines = action_lines_of_file(path) if error.index is not None else None
            payload["error"] = error.to_json()
            payload["error"]["file_line"] = (
                None if error.index is None else where(error.index, lines)
            )
        else:
            assert outcome is not None
            payload.update(outcome.to_json())  # the Python API's shape, one for both
        out.write(json.dumps(payload, ensure_ascii=False) + "\n")
        out.flush()
        return error is None
    if error is not None:
        console = Console(file=err, highlight=False, soft_wrap=True)
        lines = action_lines_of_file(path) if error.index is not None else None
        console.print(describe_error(str(path), error, lines), style="red", markup=False)
        return False
    assert record is not None and outcome is not None
    console = Console(file=out, highlight=False, soft_wrap=True)
    for item in describe_outcome(str(path), record, outcome):
        console.print(item)
    console.print()
    return True


@app.command("replay")
def replay_command(
    files: Annotated[
        list[Path],
        typer.Argument(help="Hand records (.prh TOML or .json) to replay.", show_default=False),
    ],
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="One JSON object per file, one per line: the outcome, or the error.",
        ),
    ] = False,
    watch: WatchFlag = False,
) -> None:
    """Replay hand records (.prh) line by line and report each outcome.

    Complete hands show the pots and their winners, the hands shown and the stacks; a
    record that stops mid-hand shows who is to act and what they may write; an invalid
    record names its first bad line on standard error. Exit status 2 if any record is
    invalid. With --watch, step through each hand on a terminal screen as one seat saw
    it, with the analysis of its exchange decisions (as ``primero watch``).
    """
    if watch:
        raise typer.Exit(watch_files(files))
    valid = True
    for path in files:
        valid = replay_file(path, as_json=as_json, out=sys.stdout, err=sys.stderr) and valid
    if not valid:
        raise typer.Exit(EXIT_INVALID)
