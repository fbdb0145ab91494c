"""Table rule T1 (docs/rules.md): a hand where no seat still in it is a present person or
a bot ends, by the table's moves for the absent seats; it never deals void for ever."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from primero.engine.rules import Rules
from primero.engine.views import view
from primero.play.tablemodel import TableModel, least_committal


def _to_first_turn(model: TableModel) -> None:
    model.start_hand()
    while model.step() is not None:  # the deal: nobody acts by themselves yet
        pass


def test_the_issue_reproduction_ends_in_one_round() -> None:
    model = TableModel(["Ana", "Ben", "Cy", "Dee"], [None] * 4, stack=20, seed=1)
    _to_first_turn(model)
    assert model.person_to_act() is not None and not model.unattended()
    for i in range(4):
        model.match.leave(i)
    assert model.unattended()
    lines = []
    for _ in range(3000):
        event = model.step()
        if event is None:
            break
        lines.append(event.action.line())
    assert model.hand is not None and model.hand.complete
    assert model.hand.void_deals == 0
    # p1 may not fold or check in the first round (R4.3): the smallest bet; p2 is asked
    # to refuse it (R8) and accepts, as the timer does; then everyone folds to it
    assert [line.split(" ", 2)[:2] for line in lines[-5:]] == [
        ["p1", "b"],
        ["p2", "y"],
        ["p2", "f"],
        ["p3", "f"],
        ["p4", "f"],
    ]
    assert lines[-5] == "p1 b 1"
    model.finish_hand()
    # antes 4 and p1's bet of 1: p1 ends with 20 - 1 - 1 + 5 = 23, the others 19
    assert sorted(model.match.chips) == [19, 19, 19, 23]


def test_one_present_person_keeps_the_least_committal_moves() -> None:
    model = TableModel(["Ana", "Ben", "Cy", "Dee"], [None] * 4, stack=20, seed=1)
    _to_first_turn(model)
    for i in (1, 2, 3):
        model.match.leave(i)
    assert not model.unattended()  # Ana is here: the others' moves stay the timer's


def test_a_bot_in_the_hand_attends_it() -> None:
    model = TableModel(["Ana", "Ben", "Cy", "Dee"], [None, None, None, "random"], seed=2)
    _to_first_turn(model)
    for i in (0, 1, 2):
        model.match.leave(i)
    assert not model.unattended()


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    stack=st.integers(2, 200),
    players=st.integers(2, 6),
    steps=st.integers(0, 30),
)
def test_an_unattended_hand_always_ends_within_a_few_moves(
    seed: int, stack: int, players: int, steps: int
) -> None:
    names = ["Ana", "Ben", "Cy", "Dee", "Eve", "Flo"][:players]
    model = TableModel(names, [None] * players, stack=stack, seed=seed, rules=Rules(min_players=2))
    model.start_hand()
    hand = model.hand
    assert hand is not None
    for _ in range(steps):  # people play a while as the timer would
        if hand.complete:
            return
        if model.step() is None:
            index = model.person_to_act()
            assert index is not None
            model.apply(least_committal(view(hand, hand.to_act)))
    if hand.complete:
        return
    for i in range(players):
        model.match.leave(i)
    voids = hand.void_deals
    moves = 0
    while model.step() is not None:
        moves += 1
        assert moves <= 40, "an unattended hand went on past 40 moves"
    assert hand.complete
    assert hand.void_deals <= voids + 1  # at most the deal in progress is void
