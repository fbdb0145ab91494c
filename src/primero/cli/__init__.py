"""The ``primero`` command line (Typer + Rich). Each subcommand lives in its own module."""

from __future__ import annotations

import sys

from primero.cli import (
    commands_info,  # noqa: F401  (registers eval, rules, cheatsheet)
    commands_lbr,  # noqa: F401  (registers lbr)
    commands_odds,  # noqa: F401  (registers odds)
    commands_play,  # noqa: F401  (registers play)
    commands_replay,  # noqa: F401  (registers replay)
    commands_serve,  # noqa: F401  (registers serve, hands export)
    commands_simulate,  # noqa: F401  (registers simulate)
    commands_tournament,  # registers tournament; main() uses ray_flag_args
    commands_tui,  # noqa: F401  (registers learn, watch)
    commands_verify,  # noqa: F401  (registers verify)
)
from primero.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``primero`` console script."""
    app(args=commands_tournament.ray_flag_args(sys.argv[1:]))
