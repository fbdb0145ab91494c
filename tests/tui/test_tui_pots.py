"""The table's pot line (``primero.tui.tablepanel.pots_text``, R7): once a hand is over, a
bet nobody called is said as returned, never as a pot (found by a
fresh-user pass: "Pot 400 · main 198 · side 1 202 (Isabella)" beside "Uncalled bet of 202
chips returned to Isabella"). Worked out by hand; ante 1 each."""

from __future__ import annotations

from primero.engine.state import HandState
from primero.engine.views import view
from primero.tui.tablepanel import pots_text

NAMES = ["Isabella", "You"]
ALL_IN = [
    "d dh p1 Ks Js",
    "d dh p2 Ah 7d",
    "p1 b 300",
    "p2 c",
    "d dh p1 Kc 2c",
    "d dh p2 Ac Kd",
    "p1 x",
    "p2 x",
]


def _pots_after(lines: list[str], stacks: list[int]) -> list[str]:
    state = HandState(NAMES, stacks)
    said = []
    for line in lines:
        state.apply(line)
        said.append(pots_text(view(state, 1), NAMES).plain)
    return said


def test_an_uncalled_bet_is_returned_not_a_pot_at_the_end() -> None:
    said = _pots_after(ALL_IN, [301, 99])
    # While the hand goes on, every chip bet is in the pot: 2 antes, then 300 + 98 more.
    assert said[2] == "Pot 302   bet to match this round: 300"
    assert said[3] == "Pot 400  ·  main 198 (Isabella, You)  ·  side 1 202 (Isabella)"
    # Over: You won the 198 both could win; Isabella's 202 nobody could call come back.
    assert said[-1] == "Pot 198  ·  uncalled 202 returned to Isabella"


def test_a_fold_to_a_raise_leaves_the_pot_won_and_the_raise_returned() -> None:
    # 10 and 30 chips: Isabella bets 2, You raise to 20, Isabella folds. You win the
    # antes, Isabella's 2 and your 2 that called it (6); your other 18 come back.
    said = _pots_after(["d dh p1 7h Kc", "d dh p2 2s 3s", "p1 b 2", "p2 r 20", "p1 f"], [10, 30])
    assert said[-1] == "Pot 6  ·  uncalled 18 returned to You"


def test_a_called_hand_has_no_uncalled_words() -> None:
    said = _pots_after(
        [
            "d dh p1 7h Kc",
            "d dh p2 2s 3s",
            "p1 b 2",
            "p2 c",
            "d dh p1 Ah 2c",
            "d dh p2 5d 3d",
            "p1 dc numerus",
            "p1 b 0",
            "p2 dc numerus",
            "p2 c",
            "p1 x",
            "p2 x",
            "p1 b 0",
            "p2 c",
        ],
        [10, 30],
    )
    assert said[-1].startswith("Pot 6")
    assert "uncalled" not in said[-1]
