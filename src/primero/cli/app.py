"""The Typer application behind the ``primero`` command; subcommands register on it.

Two settings of the help screens, for every command at once:

* commands are listed in :data:`COMMAND_ORDER` (what a newcomer needs first: ``play`` and
  ``learn``), any other command after them in the order it was registered;
* flags (``--plain``, ``--json``, ``--help``…) take no value, so their help shows no type
  (Typer would print ``--plain <bool>``, as if a value were expected).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, Final, TypeVar

import typer
from typer.core import TyperGroup, TyperOption

__all__ = [
    "COMMAND_ORDER",
    "MAX_STACK",
    "app",
    "check_stack",
    "in_range",
    "one_of",
    "output_folder",
]

#: The order of the commands in ``primero --help``.
COMMAND_ORDER: Final = (
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
#: (docs/protocol.md, ``POST /api/tables``), so that every amount fits what a player types.
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


_Number = TypeVar("_Number", int, float)


def one_of(option: str, choices: Sequence[str]) -> Callable[[str], str]:
    """A Typer callback that refuses a value of ``option`` not among ``choices``, in
    words that list them: ``Invalid value for --ties: give eldest or split, not 'foo'``
    (exit status 2, nothing done), never a validation library's wording.

    Raises:
        typer.BadParameter: (from the callback) the value is not one of ``choices``.
    """

    def check(value: str) -> str:
        if value in choices:
            return value
        said = ", ".join(choices[:-1]) + " or " + choices[-1] if len(choices) > 1 else choices[0]
        raise typer.BadParameter(f"give {said}, not {value!r}", param_hint=option)

    return check


def _as_written(number: float) -> str:
    """``number`` as a person writes it: ``1,000,000``, ``0.1``, ``10`` (not ``10.0``)."""
    if isinstance(number, float) and not number.is_integer():
        return str(number)  # also nan and inf
    return f"{int(number):,}"


def in_range(
    option: str, low: float, high: float | None = None, *, unit: str = ""
) -> Callable[[_Number | None], _Number | None]:
    """A Typer callback that refuses a number of ``option`` outside ``low``..``high``.

    Typer's own ``min=``/``max=`` refuse in pydantic's words ("Input should be greater
    than or equal to 1"); this callback says what was wrong and what is allowed, e.g.
    ``Invalid value for --hands: give a whole number from 1 to 1,000,000, not 0``
    (exit status 2, nothing done). A missing optional value (None) passes.

    Args:
        option: the option's long name (``"--hands"``), for the message.
        low: the smallest value allowed (inclusive).
        high: the largest value allowed (inclusive); None: no upper limit.
        unit: what the number counts, for the message (``"seconds"``); with a float
            option the message says "a number", with an int option "a whole number".

    Returns:
        The callback: it returns the value unchanged when it is allowed.

    Raises:
        typer.BadParameter: (from the callback) the value is below ``low``, above
            ``high``, or a float that is not finite (``nan``, ``inf``).
    """

    def check(value: _Number | None) -> _Number | None:
        if value is None:
            return None
        allowed = math.isfinite(value) and low <= value and (high is None or value <= high)
        if allowed:
            return value
        what = "a number" if isinstance(value, float) else "a whole number"
        if unit:
            what += f" of {unit}"
        if high is None:
            span = f"{what}, {_as_written(low)} or more"
        else:
            span = f"{what} from {_as_written(low)} to {_as_written(high)}"
        raise typer.BadParameter(f"give {span}, not {_as_written(value)}", param_hint=option)

    return check


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
