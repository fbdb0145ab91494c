"""The plain prompt between hands: anything but Enter (or q) is answered and asked
again, never taken for Enter."""

from __future__ import annotations

import io

from rich.console import Console

from primero.cli.plain import run_plain
from primero.engine.views import SeatView
from primero.play.table import Table, TableConfig

NEXT = "[Enter] next hand, q to leave: "


def cautious(v: SeatView) -> str:
    """Accept, declare the truth, call or check, stand pat, exchange one card, bet least."""
    legal = v.legal
    assert legal is not None
    if legal.vote:
        return "y"
    if legal.declare:
        return "dc " + legal.declare[0].label
    if legal.call is not None:
        return "c"
    if 0 in legal.exchange:
        return "x"
    if legal.exchange:
        return "x " + str(v.hand[0]).lower()
    assert legal.bet is not None
    return f"b {legal.bet[0]}"


def test_an_unknown_answer_at_the_next_hand_prompt_is_answered_and_asked_again() -> None:
    """Two hands: at the prompt between them ``xyz`` and then a long word are answered
    with what the prompt takes, the prompt comes back each time, and hand 2 starts only
    after Enter."""
    config = TableConfig(seed=12, bots=("random",), max_hands=2, stack=20)
    table = Table(config)
    prompts: list[str] = []
    between = iter(["xyz", "w" * 60, ""])
    hands_at: list[int] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        assert len(prompts) < 300
        if prompt == NEXT:
            hands_at.append(table.match.hands_played)
            return next(between)
        return cautious(table.view())

    buf = io.StringIO()
    run_plain(config, Console(file=buf, width=120), answer, table=table)
    out = buf.getvalue()
    assert prompts.count(NEXT) == 3 and hands_at == [1, 1, 1]
    assert "'xyz' does nothing here: press Enter for the next hand, q to leave." in out
    assert f"'{'w' * 39}…' does nothing here" in out
    assert table.match.hands_played == 2
