"""``primero play``: a person plays a match against bots, at the terminal (R3–R9).

The game is a :class:`~primero.play.table.Table`. In a terminal, when the Textual app
(:mod:`primero.tui`) is installed, ``play`` opens it; with ``--plain`` (or without a
terminal) it runs :func:`~primero.cli.plain.run_plain`, the plain prompt. Each hand's
record is saved in ``--save-dir`` (``./hands``), and the match itself after every action
(:mod:`primero.play.savegame`), so that ``--resume`` continues it.

Pass and play: ``--hot-seat Ana,Ben`` seats 2 to 6 people at this one
terminal, in that order, and bots in the other seats (``--players`` in all; default the
people, at least the rules' least number of players). Between turns the table shows only
public things; before a person's turn a screen says "Pass the device to Ben" and hides
the table until Ben presses Enter (:mod:`primero.tui.play`, :mod:`primero.cli.plain`).

Leaving: ``q`` (or quit, exit), Ctrl-C, Ctrl-D (end of input) and Ctrl-Q all mean "leave
the table", in both front ends; in the middle of a hand the table asks first. Leaving
shows the standings and a session summary (:class:`~primero.play.session.SessionSummary`).
"""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer
from rich.console import Console

from primero.bots import BOT_KINDS
from primero.cli.app import app, check_stack, in_range
from primero.cli.commands_simulate import parse_bots
from primero.cli.rule_options import changed_options, rules_from_options, with_rule_options
from primero.engine.errors import PrimeroError
from primero.engine.rules import RulesError

if TYPE_CHECKING:  # the command imports these when it runs, so that the CLI starts fast
    from primero.play.table import Table, TableConfig

__all__ = [
    "check_save_dir",
    "play_command",
]


# --------------------------------------------------------------------------- command


def check_save_dir(save_dir: Path) -> None:
    """Create the folder for the hand histories if needed and check it can be written.

    Raises:
        OSError: it is not a folder, cannot be created or cannot be written to (the
            message says which).
    """
    try:
        save_dir.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OSError(f"{save_dir} exists and is not a folder") from None
    except OSError as exc:
        raise OSError(f"{save_dir} cannot be created ({exc.strerror or exc})") from None
    if not save_dir.is_dir():
        raise OSError(f"{save_dir} is not a folder")
    if not os.access(save_dir, os.W_OK | os.X_OK):
        raise OSError(f"{save_dir} is not writable")


def _run_tui(config: TableConfig, table: Table, speed: float) -> bool:
    """HOOK for the Textual app: run ``primero.tui.run_table`` when it is importable,
    then print the standings and the session summary.

    Returns:
        True when the app ran; False to fall back to the plain prompt.
    """
    try:
        from primero import tui
    except ImportError:
        return False
    run_table = getattr(tui, "run_table", None)
    if run_table is None:
        return False
    from primero.cli.plain import print_leaving
    from primero.play.table import Table

    while True:
        table, summary = run_table(config, bot_delay=speed, table=table)
        console = Console(highlight=False)
        title = "Final standings" if table.over else "Standings when you left"
        if table.match.hand is not None and not table.match.hand.complete:
            console.print(table.left_mid_hand_text(), markup=False)
        print_leaving(console, table, summary, title)
        if not summary.new_match:
            return True
        config = next_match_config(table.config)
        table = Table(config)
        if config.save_dir is not None:
            from primero.play.savegame import MatchSaver

            MatchSaver(table).save()
        console.print("A new match begins.", style="bold")


def next_match_config(config: TableConfig) -> TableConfig:
    """The set-up of the new match asked for with ``n`` (the person out, or the match
    over): the same players, bots and rules; the next seed when one was given (R10: a
    seeded session stays reproducible), a new session name.

    >>> from primero.play.table import TableConfig
    >>> next_match_config(TableConfig(seed=7)).seed
    8
    """
    seed = None if config.seed is None else config.seed + 1
    return dataclasses.replace(config, seed=seed, session=None)


#: The longest ``--name`` (docs/protocol.md: a player name is 1 to 24 characters).
NAME_LONGEST: Final = 24


#: Options that a resumed match takes from its save, with their defaults.
_GAME_OPTION_DEFAULTS: Final[dict[str, object]] = {
    "--players": None,
    "--hot-seat": None,
    "--seed": None,
    "--bots": "heuristic",
    "--name": "You",
    "--stack": 100,
    "--max-hands": None,
}


def _resumed(save_dir: Path, given: dict[str, object], rules_given: list[str]) -> Table:
    """The table of the last unfinished match in ``save_dir`` (``--resume``).

    Raises:
        typer.Exit: (status 2, with a message) game options were given too, there is no
            match to resume, or the save does not replay.
    """
    clash = [name for name, value in given.items() if value != _GAME_OPTION_DEFAULTS[name]]
    clash += rules_given
    if clash:
        typer.echo(
            f"primero: --resume continues the saved match with its own options; leave out "
            f"{', '.join(clash)}",
            err=True,
        )
        raise typer.Exit(2)
    from primero.play.savegame import ResumeError, find_unfinished, resume_table

    try:
        table = resume_table(find_unfinished(save_dir))
    except (ResumeError, OSError) as exc:
        typer.echo(f"primero: cannot resume: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(
        f"Resuming the match {table.session}: {table.match.hands_played} hand"
        f"{'' if table.match.hands_played == 1 else 's'} played"
        + (", a hand in progress." if table.match.hand is not None else ".")
    )
    return table


@app.command("play")
@with_rule_options
def play_command(
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            show_default=False,
            help="Seats, you included (R3). Default 4; with --hot-seat, the people named "
            "(at least 4), bots in the other seats.",
        ),
    ] = None,
    hot_seat: Annotated[
        str | None,
        typer.Option(
            "--hot-seat",
            metavar="NAMES",
            show_default=False,
            help="Pass and play: 2 to 6 people share this terminal, seated in the order named, "
            "e.g. --hot-seat Ana,Ben. Before each person's turn a screen asks to pass the "
            "device and hides the cards until that person presses Enter.",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            "-s",
            callback=in_range("--seed", 0),  # as simulate: seeds are 0 or more (R10)
            help="Seed for a reproducible game (R10), >= 0.",
        ),
    ] = None,
    bots: Annotated[
        str, typer.Option("--bots", "-b", help=f"Bot kinds, cycled: {', '.join(BOT_KINDS)}.")
    ] = "heuristic",
    name: Annotated[
        str, typer.Option("--name", help=f"Your name (1 to {NAME_LONGEST} characters).")
    ] = "You",
    stack: Annotated[
        int, typer.Option("--stack", callback=check_stack, help="Starting chips each (1 to 10^9).")
    ] = 100,
    max_hands: Annotated[
        int | None,
        typer.Option(
            "--max-hands",
            callback=in_range("--max-hands", 1),
            help="End after N hands, 1 or more (R9).",
        ),
    ] = None,
    save_dir: Annotated[
        Path, typer.Option("--save-dir", help="Folder for the hand histories (.prh).")
    ] = Path("hands"),
    no_save: Annotated[bool, typer.Option("--no-save", help="Do not save hand histories.")] = False,
    plain: Annotated[
        bool, typer.Option("--plain", help="Plain text prompt, no full-screen app.")
    ] = False,
    speed: Annotated[
        float,
        typer.Option(
            "--speed",
            callback=in_range("--speed", 0, 10, unit="seconds"),
            help="Seconds between two bots' moves on the full-screen table, 0 to 10 (0: at "
            "once; space skips the wait).",
        ),
    ] = 0.6,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue the last unfinished match saved in --save-dir, where it stood.",
        ),
    ] = False,
    *,
    rule_options: dict[str, Any],
) -> None:
    """Play a match of Primero against bots (in a terminal app, or --plain at a prompt);
    with --hot-seat, several people take turns at one terminal (pass and play)."""
    if resume:
        if no_save:
            typer.echo("primero: --resume needs the save folder: leave out --no-save", err=True)
            raise typer.Exit(2)
        given: dict[str, object] = {
            "--players": players,
            "--hot-seat": hot_seat,
            "--seed": seed,
            "--bots": bots,
            "--name": name,
            "--stack": stack,
            "--max-hands": max_hands,
        }
        table = _resumed(save_dir, given, changed_options(rule_options))
        _play(table.config, table, plain=plain, speed=speed)
        return
    people = _hot_seat_names(hot_seat, name)
    if len(name) > NAME_LONGEST:
        typer.echo(
            f"primero: --name must be 1 to {NAME_LONGEST} characters (as on the server), "
            f"not {len(name)}: choose a shorter name",
            err=True,
        )
        raise typer.Exit(2)
    from primero.play.table import Table, TableConfig

    try:
        rules = rules_from_options(rule_options)
        kinds = parse_bots(bots)
        if players is None:
            players = max(len(people), rules.min_players) if people else 4
        config = TableConfig(
            human_name=name,
            players=players,
            bots=kinds,
            hot_seat=people,
            seed=seed,
            rules=rules,
            stack=stack,
            max_hands=max_hands,
            save_dir=None if no_save else save_dir,
        )
        table = Table(config)  # validate before choosing a front end
    except (RulesError, ValueError) as exc:
        typer.echo(f"primero: {exc}", err=True)
        raise typer.Exit(2) from None
    if config.save_dir is not None:
        try:
            check_save_dir(config.save_dir)
        except OSError as exc:
            typer.echo(
                f"primero: cannot save hand histories: {exc} "
                "(choose another --save-dir, or --no-save)",
                err=True,
            )
            raise typer.Exit(2) from None
    _play(config, table, plain=plain, speed=speed)


def _hot_seat_names(hot_seat: str | None, name: str) -> tuple[str, ...]:
    """The names of ``--hot-seat`` (empty without it).

    Raises:
        typer.Exit: (status 2, with a message) ``--name`` was given too, or the list
            has an empty name (the table checks the count and repeats).
    """
    if hot_seat is None:
        return ()
    if name != "You":
        typer.echo("primero: with --hot-seat the names are given there: leave out --name", err=True)
        raise typer.Exit(2)
    names = tuple(n.strip() for n in hot_seat.split(","))
    if any(not n for n in names):
        typer.echo(
            f"primero: --hot-seat takes names separated by commas, e.g. Ana,Ben; "
            f"{hot_seat!r} has an empty name",
            err=True,
        )
        raise typer.Exit(2)
    return names


def _play(config: TableConfig, table: Table, *, plain: bool, speed: float) -> None:
    """Save the match as it goes (when saving), then play it in the chosen front end."""
    if config.save_dir is not None:
        from primero.play.savegame import MatchSaver

        MatchSaver(table).save()
    from primero.cli.plain import run_plain

    # HOOK: the Textual app when in a terminal and installed; else the plain prompt.
    if not plain and sys.stdin.isatty() and sys.stdout.isatty() and _run_tui(config, table, speed):
        return
    try:
        run_plain(config, table=table)
    except (OSError, PrimeroError) as exc:
        typer.echo(f"primero: {exc}", err=True)
        raise typer.Exit(1) from None
