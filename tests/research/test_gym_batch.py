"""The vector environment's compiled step (primero.research.vector_batch.step_batch) table by
table: the tables it steps play as one stepper does (the learner's move, then
:meth:`Stepper.run`), the tables it leaves to Python are listed in order with their
kind, an illegal id is replaced or stops the batch; and the vector environment refuses
a step before its first reset.

Needs the ``research`` extra for the last test; tests/needs.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from primero.engine.rules import Rules
from primero.research.stepper import Stepper
from primero.research.vector_batch import CLEAN, DONE, OTHERS, RESET, Outcome, step_batch
from tests.needs import require

Sources = list[Callable[[], float] | None]


def _table(seed: int, bots: bool = True) -> tuple[Stepper, Sources, Callable[[], float]]:
    """A 3-seat hand, stack 10, dealt up to its learner's (p1's) first move; p2 and p3
    random bots (or p3 left to the caller when not ``bots``)."""
    rands: Sources = [None, random.Random(seed + 1).random, random.Random(seed + 2).random]
    if not bots:
        rands[2] = None
    deal = random.Random(seed).random
    table = Stepper([10, 10, 10], Rules(), 10)
    assert table.run(0, rands, deal, 20) == 0
    return table, rands, deal


def test_a_stepped_table_plays_its_hand_as_one_stepper() -> None:
    """A whole hand (seed 11: the learner's highest id each move), step by step against
    a twin stepped by hand: the same moves; CLEAN until the hand ends, then DONE with
    the learner's net chips."""
    table, rands, deal = _table(11)
    twin, twin_rands, twin_deal = _table(11)
    assert table.legal_ids() == [10, 11, 14, *range(21, 30)]  # exchanges, bets 0..7
    steps = [0]
    for move in range(1, 50):
        action = table.legal_ids()[-1]
        out = Outcome(1)
        assert (
            step_batch([table], [False], [action], [0], [rands], [deal], steps, out, 20, 500, True)
            == -1
        )
        twin.apply(action)
        player = twin.run(0, twin_rands, twin_deal, 20)
        assert table.log == twin.log
        assert steps == [move] and out.steps is steps
        assert out.illegal == [False] and out.flagged == []
        if player == 0:  # the learner to move again: nothing left to Python
            assert out.kinds == [CLEAN] and out.visit == []
            assert out.rewards == [0.0] and out.terminated == [False]
            continue
        assert player < 0 and twin.net is not None and sum(twin.net) == 0
        assert out.kinds == [DONE] and out.visit == [0]
        assert out.rewards == [float(twin.net[0])] and out.rewards != [0.0]
        assert out.terminated == [True] and out.truncated == [False]
        assert move >= 2  # the first move (seed 11) leaves the learner to move again
        return
    pytest.fail("the hand did not end in 49 learner moves")


def test_max_steps_truncates_and_ended_tables_are_left_to_reset() -> None:
    a, rands_a, deal_a = _table(3)
    b, rands_b, deal_b = _table(5)
    before = list(b.log)
    out = Outcome(2)
    action = a.legal_ids()[0]
    # table 0 at its learner's last allowed move (max_steps 1); table 1's hand had ended
    stepped = step_batch(
        [a, b], [False, True], [action, 999], [0, 0], [rands_a, rands_b], [deal_a, deal_b],
        [0, 0], out, 20, 1, True,
    )  # fmt: skip
    assert stepped == -1
    assert b.log == before  # not stepped: its id is ignored
    assert out.kinds[1] == RESET and out.visit[-1] == 1
    assert a.net is None  # seed 3: the hand goes on, truncated at one learner move
    assert out.kinds[0] == DONE and out.truncated[0] and not out.terminated[0]
    assert out.visit == [0, 1] and out.rewards == [0.0, 0.0]


def test_an_illegal_id_is_replaced_by_the_lowest_or_stops_the_batch() -> None:
    table, rands, deal = _table(7)
    lowest = table.legal_ids()[0]
    at = len(table.log)
    out = Outcome(1)
    assert (
        step_batch([table], [False], [10_000], [0], [rands], [deal], [0], out, 20, 500, True) == -1
    )
    assert table.log[at] == lowest
    assert out.illegal == [True] and out.flagged == [0]

    first, r1, d1 = _table(7)
    second, r2, d2 = _table(8)
    logs = (list(first.log), list(second.log))
    out = Outcome(2)
    legal = first.legal_ids()[0]
    stop = step_batch(
        [first, second], [False, False], [legal, 10_000], [0, 0], [r1, r2], [d1, d2],
        [0, 0], out, 20, 500, False,
    )  # fmt: skip
    assert stop == 1
    assert len(first.log) > len(logs[0])  # table 0 was stepped
    assert second.log == logs[1]  # table 1 and after: not stepped


def test_a_seat_without_a_random_source_is_left_to_python() -> None:
    table, rands, deal = _table(0, bots=False)
    out = Outcome(1)
    action = table.legal_ids()[0]
    step_batch([table], [False], [action], [0], [rands], [deal], [0], out, 20, 500, True)
    assert table.player == 2  # p2's random bot played; p3 (no source) to move
    assert out.kinds == [OTHERS] and out.visit == [0] and out.steps == [1]
    assert out.rewards == [0.0] and not out.terminated[0] and not out.truncated[0]


def test_the_vector_env_refuses_a_step_before_reset() -> None:
    require("gymnasium")
    from primero.research.gymnasium_vector import PrimeroVectorEnv

    envs = PrimeroVectorEnv(2, players=2, stack=5, bots="random")
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        envs.step([0, 0])
