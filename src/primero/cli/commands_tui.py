"""``primero learn`` and ``primero watch``: the terminal interface's own commands.

``primero learn`` plays a guided first hand (:mod:`primero.tui.learn`). ``primero
watch FILE`` steps through a recorded hand as one seat saw it, with the analysis of
that seat's exchanges (:mod:`primero.tui.watch`); ``--text`` prints the analysis
instead of opening the screen. :func:`watch_files` is what ``primero replay --watch``
calls.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Final

import typer
from rich.console import Console

from primero.cli.app import app

__all__ = [
    "EXIT_INVALID",
    "NO_TERMINAL",
    "WatchFlag",
    "has_terminal",
    "learn_command",
    "watch_command",
    "watch_files",
]

#: Exit status for an unreadable or invalid record, or an unknown seat (as ``replay``).
EXIT_INVALID: Final = 2

#: The ``--watch`` option, for ``primero replay``.
WatchFlag = Annotated[
    bool,
    typer.Option("--watch", help="Step through each hand on a terminal screen (primero watch)."),
]


def _err(message: str) -> None:
    Console(file=sys.stderr, highlight=False, soft_wrap=True).print(
        message, style="red", markup=False
    )


def has_terminal() -> bool:
    """Whether standard input and output are both a terminal (the screen needs one)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


#: Why the screen cannot open, and what to do instead.
NO_TERMINAL: Final = (
    "primero: watching a hand needs a terminal (standard input and output are not one); "
    "use 'primero watch --text FILE' to print the exchange analysis instead"
)


def watch_files(files: list[Path], *, seat: str | None = None, text: bool = False) -> int:
    """Watch each record in turn (quit one screen with q to see the next).

    Args:
        files: ``.prh`` or ``.json`` records.
        seat: the seat to watch (``"p2"`` or a player's name); None: the record's
            ``human`` seat, else p1.
        text: print the exchange analysis as text instead of opening the screen.

    Returns:
        The exit status: 0, or :data:`EXIT_INVALID` when a record is invalid (the reason
        is written on standard error in the wording of ``primero replay``; a record with
        an invalid action is still shown up to its last valid one, and the other files
        are shown too), or at once, with nothing shown, when the screen is asked for
        without a terminal (:data:`NO_TERMINAL`).
    """
    if not text and not has_terminal():
        _err(NO_TERMINAL)
        return EXIT_INVALID
    from primero.engine.history import RecordError
    from primero.play.recordpos import describe_error
    from primero.tui.analysis import exchange_decisions
    from primero.tui.watchmodel import WatchModel

    status = 0
    for k, path in enumerate(files, 1):
        try:
            model = WatchModel.from_file(path, seat)
        except RecordError as exc:
            _err(describe_error(str(path), exc, None))
            status = EXIT_INVALID
            continue
        except ValueError as exc:
            _err(f"{path}: {exc}")
            status = EXIT_INVALID
            continue
        if text:
            from primero.tui.watch import analysis_summary

            console = Console(highlight=False, soft_wrap=True)
            heading = f"{path}" + (f" (file {k} of {len(files)})" if len(files) > 1 else "")
            console.print(heading, style="bold", markup=False)
            console.print(
                analysis_summary(exchange_decisions(model), model.record.players, model.seat)
            )
            console.print()
        else:
            from primero.tui.watch import WatchApp

            WatchApp(model, name=str(path), position=(k, len(files))).run()
        if model.error is not None:
            # shown on the screen at the last valid step; said again here, as replay does
            _err(describe_error(str(path), model.error, model.file_lines))
            status = EXIT_INVALID
    return status


@app.command("watch")
def watch_command(
    files: Annotated[
        list[Path],
        typer.Argument(help="Hand records (.prh TOML or .json) to watch.", show_default=False),
    ],
    seat: Annotated[
        str | None,
        typer.Option(
            "--seat",
            "-s",
            help="Seat to watch: p1..pN or a player's name (default: the record's "
            "'human' seat, else p1).",
        ),
    ] = None,
    text: Annotated[
        bool,
        typer.Option("--text", help="Print the exchange analysis instead of the screen."),
    ] = False,
) -> None:
    """Step through a recorded hand as one seat saw it, with an exchange analysis.

    Opens at the first step. Keys: left/right step, home/end, p/n previous/next exchange
    decision, 1-8 or tab choose the seat, a analysis on/off, up/down/pgup/pgdn scroll,
    q quit. A record with an invalid action is shown up to its last valid one, with the
    error there. Exit status 2 if a record is invalid, or without a terminal unless
    --text.
    """
    status = watch_files(files, seat=seat, text=text)
    if status:
        raise typer.Exit(status)


@app.command("learn")
def learn_command() -> None:
    """Learn Primero: a guided first hand that explains each moment of the game."""
    if not has_terminal():
        _err(
            "primero: the guided hand needs a terminal (standard input and output are not "
            "one); run 'primero learn' in a terminal window, or 'primero rules' to read the rules"
        )
        raise typer.Exit(EXIT_INVALID)
    from primero.tui import run_learn

    run_learn()
