"""Helpers shared by the terminal tests (``test_tui_*``): running an async Textual body
and a simple keyboard player."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from primero.tui.actionpad import declare_key
from primero.tui.play import TableApp


def run(body: Callable[[], Awaitable[None]]) -> None:
    """Run an async test body (no pytest-asyncio needed)."""
    asyncio.run(body())  # type: ignore[arg-type]


def first_declare(app: TableApp) -> str:
    """The key of the lowest category the person may declare now (R6): each category
    has its own key in every hand (1 numerus ... 5 chorus)."""
    legal = app.pad.legal
    assert legal is not None and legal.declare, "no declaration is due"
    return declare_key(legal.declare[0])


def turn_keys(app: TableApp) -> list[str]:
    """A simple keyboard player: the keys of one move, read from the keys on screen
    (accept, declare the first category, exchange one card in the first round and stand
    pat in the second, call, bet the least)."""
    keys = [c.key for c in app.pad.choices()]
    view = app.current
    assert view is not None and view.legal is not None
    if "y" in keys:
        return ["y"]
    if "d" in keys:
        return ["d", first_declare(app)]
    if "e" in keys and view.legal.bet is not None:
        return ["e", "1", "enter"]  # first round: exchange one card
    if "e" in keys:
        return ["e", "enter"]  # second exchange: stand pat
    if "c" in keys:
        return ["c"]
    assert "b" in keys, keys
    return ["b", "enter"]
