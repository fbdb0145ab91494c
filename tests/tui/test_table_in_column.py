"""The seats' ``in`` column: chips a seat put in the pot this hand; a bet nobody called
went back (R7), so once the hand is over it is not counted as in."""

from __future__ import annotations

import io

from rich.console import Console

from primero.engine.state import HandState
from primero.engine.views import view
from primero.tui.tablepanel import table_panel


def rows(text: str) -> dict[str, list[str]]:
    """The seats' rows of a drawn panel by name: their cells split on spaces."""
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        cells = line.replace("▶", " ").split()
        for name in ("Ana", "Ben"):
            if name in cells and name not in out:  # the seat's row (the pots line comes after)
                out[name] = cells[cells.index(name) + 1 :]
    return out


def draw(state: HandState) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=100, color_system=None).print(table_panel(view(state, None)))
    return buffer.getvalue()


def test_an_uncalled_raise_is_not_counted_in_once_returned() -> None:
    """Ana and Ben ante 1 each; Ana bets 2, Ben raises to 20, Ana folds: Ben put in 21
    chips, 18 of them nobody called (they go back), so the hand ends with 3 in for Ben
    (his ante and the 2 Ana called) and 3 for Ana; stacks 7 and 30 + 3 = 33 after the
    award (Ben wins the 6-chip pot)."""
    state = HandState(["Ana", "Ben"], [10, 30])
    for line in ["d dh p1 7h Kc", "d dh p2 2s 3s", "p1 b 2", "p2 r 20"]:
        state.apply(line)
    before = rows(draw(state))
    assert before["Ana"][:2] == ["7", "3"] and before["Ben"][:2] == ["9", "21"]  # stack, in
    state.apply("p1 f")
    after = rows(draw(state))
    assert after["Ana"][:2] == ["7", "3"]
    assert after["Ben"][:2] == ["33", "3"], after
    assert "uncalled 18 returned to Ben" in draw(state)
