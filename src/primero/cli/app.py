"""The Typer application behind the ``primero`` command; subcommands register on it."""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(
    name="primero",
    help="Primero, the Renaissance ancestor of poker: play, replay, simulate, evaluate.",
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
