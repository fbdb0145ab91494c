"""The terminal interface (Textual): play a match, watch a recorded hand, learn the game.

Entry points (each imports Textual only when called):

- :func:`run_table` — ``primero play``: a person against bots (R4–R9);
- :func:`run_watch` — ``primero watch FILE``: step through a finished ``.prh`` hand
  as one seat saw it, with an after-hand analysis of its exchanges;
- :func:`run_learn` — ``primero learn``: a guided first hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from primero.play.session import SessionSummary
    from primero.play.table import Table, TableConfig

__all__ = ["run_learn", "run_table", "run_watch"]


def run_table(
    config: TableConfig, *, bot_delay: float = 0.6, table: Table | None = None
) -> tuple[Table, SessionSummary]:
    """Play a match at the terminal; see :func:`primero.tui.play.run_table`."""
    from primero.tui.play import run_table as run

    return run(config, bot_delay=bot_delay, table=table)


def run_watch(path: str | Path, *, seat: str | int | None = None) -> None:
    """Watch a recorded hand; see :func:`primero.tui.watch.run_watch`."""
    from primero.tui.watch import run_watch as run

    run(path, seat=seat)


def run_learn() -> None:
    """Play the guided first hand; see :func:`primero.tui.learn.run_learn`."""
    from primero.tui.learn import run_learn as run

    run()
