"""The Typer application behind the ``primero`` command; subcommands register on it.

Two settings of the help screens, for every command at once:

* commands are listed in :data:`COMMAND_ORDER` (what a newcomer needs first: ``play`` and
  ``learn``), any other command after them in the order it was registered;
* flags (``--plain``, ``--json``, ``--help``…) take no value, so their help shows no type
  (Typer would print ``--plain <bool>``, as if a value were expected).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Final

import typer
from typer.core import TyperGroup, TyperOption

__all__ = ["COMMAND_ORDER", "MAX_STACK", "app", "check_stack", "output_folder"]

#: The order of the commands in ``primero --help``.
COMMAND_ORDER: Final = (
    "play", "learn", "serve", "watch", "replay", "rules", "cheatsheet", "odds", "eval",
    "simulate", "tournament", "hands",
)


class _Commands(TyperGroup):
    """The ``primero`` group: commands listed in :data:`COMMAND_ORDER`."""

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(self.commands)
        first = [n for n in COMMAND_ORDER if n in self.commands]
        return first + [n for n in names if n not in first]


_typed = TyperOption.display_type_rich


def _no_type_for_flags(self: TyperOption, ctx: Any) -> str | None:
    """The type shown in help: none for a flag (it takes no value)."""
    if self.is_bool_flag:
        return None
    return _typed(self, ctx)


setattr(TyperOption, "display_type_rich", _no_type_for_flags)  # noqa: B010

app = typer.Typer(
    name="primero",
    help="Primero, the Renaissance ancestor of poker: play, replay, simulate, evaluate.",
    cls=_Commands,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
)


def _print_version(value: bool) -> None:
    """``--version``: print ``primero <version>`` and exit with status 0."""
    if value:
        from primero import __version__

        typer.echo(f"primero {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    """Primero, the Renaissance ancestor of poker: play, replay, simulate, evaluate."""


#: The largest starting stack the command line accepts, in chips: the server's limit
#: (online.md, ``POST /api/tables``), so that every amount fits what a player types.
MAX_STACK = 1_000_000_000


def check_stack(stack: int) -> int:
    """``stack`` if it is 1 to :data:`MAX_STACK` chips.

    Raises:
        typer.BadParameter: otherwise (exit 2, one message, nothing played).
    """
    if not 1 <= stack <= MAX_STACK:
        raise typer.BadParameter(
            f"a stack is 1 to 1,000,000,000 chips (10^9, as on the server), not {stack:,}",
            param_hint="--stack",
        )
    return stack


def output_folder(folder: Path, option: str, *, create: bool = True) -> Path:
    """Make sure ``folder`` can take output: an existing folder, or one that can be made
    (its nearest existing parent is a folder); with ``create``, make it (and its parents).

    Args:
        folder: the folder given on the command line.
        option: the option that named it (``"--out"``), for the message.
        create: make the folder now; False only checks (before long work, so that a
            failure later leaves nothing behind).

    Returns:
        ``folder``.

    Raises:
        typer.BadParameter: ``folder`` is an existing file, a parent is a file, or the
            folder cannot be created (exit 2, one message, nothing written).
    """
    if folder.exists() and not folder.is_dir():
        raise typer.BadParameter(
            f"{folder} is a file, not a folder: give a folder to write into",
            param_hint=option,
        )
    parent = folder
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise typer.BadParameter(
            f"cannot create the folder {folder}: {parent} is a file", param_hint=option
        )
    if create:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise typer.BadParameter(
                f"cannot create the folder {folder}: {exc.strerror or exc}",
                param_hint=option,
            ) from None
    return folder
