"""The screen of a running Textual app as plain text (for text snapshots and debugging)."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from textual.app import App

__all__ = ["screen_text"]


def screen_text(app: App[Any]) -> str:
    """What the app's current screen shows, as lines of plain text (no colours).

    Args:
        app: a running app (e.g. inside ``app.run_test()``).

    Returns:
        The screen, one line per terminal row, trailing spaces removed.

    Raises:
        AssertionError: the app is not running.
    """
    assert app.is_running, "the app must be running"
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    update = app.screen._compositor.render_update(full=True)
    console.print(update)
    text = console.export_text(styles=False)
    return "\n".join(line.rstrip() for line in text.splitlines())
