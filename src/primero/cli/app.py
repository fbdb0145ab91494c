"""The Typer application behind the ``primero`` command; subcommands register on it."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="primero",
    help="Primero, the Renaissance ancestor of poker: play, replay, simulate, evaluate.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
)
