"""The Typer application behind the ``primero`` command; subcommands register on it.

Two settings of the help screens, for every command at once:

* commands are listed in :data:`COMMAND_ORDER` (what a newcomer needs first: ``play`` and
  ``learn``), any other command after them in the order it was registered;
* flags (``--plain``, ``--json``, ``--help``…) take no value, so their help shows no type
  (Typer would print ``--plain <bool>``, as if a value were expected).
"""

from __future__ import annotations

from typing import Annotated, Any, Final

import typer
from typer.core import TyperGroup, TyperOption

__all__ = ["COMMAND_ORDER", "app"]

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
