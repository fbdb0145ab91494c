"""Many flat hands stepped in one call: the hot loop of the Gymnasium vector environment.

:class:`~primero.research.gymnasium_vector.PrimeroVectorEnv` keeps, for its tables on the
flat :class:`~primero.research.stepper.Stepper`, one list per attribute (the steppers,
the learners' seats, the random bots' sources, the dealers' sources, the learners' moves
this hand) and steps them all here, in one compiled call (mypyc, ``setup.COMPILED``):
the learner's move, the random bots' moves and the deals (R4–R8b, drawn as
:class:`~primero.bots.random.RandomBot` and :class:`~primero.engine.dealing.Dealer` draw,
R10), then the reward, ``terminated`` and ``truncated`` of every table whose next mover is
its learner or whose hand is over. What needs Python objects (a reset, an opponent that
is not a random bot, the end of a hand under ``same_step``) is left to the caller, which
visits those tables in table order.

>>> from primero.engine.rules import Rules
>>> from primero.research.stepper import Stepper
>>> table = Stepper([10, 10], Rules(), 10)
>>> import random
>>> rands = [None, random.Random(1).random]
>>> deal = random.Random(2).random
>>> table.run(0, rands, deal, 20) == 0  # dealt; the learner (p1) to move
True
>>> out = Outcome(1)
>>> step_batch([table], [False], [table.legal_ids()[0]], [0], [rands], [deal], [0],
...            out, 20, 500, True)
-1
>>> out.kinds[0] in (CLEAN, DONE), out.steps[0]
(True, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from primero.research.stepper import Stepper

__all__ = ["CLEAN", "DONE", "OTHERS", "RESET", "Outcome", "step_batch"]

#: :attr:`Outcome.kinds`: the table is stepped and its learner is to move.
CLEAN: Final = 0
#: the table's hand ended (``terminated`` or ``truncated``) in this step.
DONE: Final = 1
#: the table's hand had ended: the caller resets it (its action is ignored).
RESET: Final = 2
#: an opponent that is not a random bot is to move: the caller plays it, then reads the
#: reward, ``terminated`` and ``truncated``.
OTHERS: Final = 3


class Outcome:
    """One step's answer for ``n`` tables, filled by :func:`step_batch`.

    Attributes:
        rewards: each table's learner's chips won or lost (at the end of a hand, else 0.0).
        terminated: the hand is complete (R4).
        truncated: the hand stopped unplayed (``max_steps`` learner moves, or
            ``max_void`` void deals, R4.3).
        illegal: the table's id was not legal and its lowest legal id was played.
        flagged: the tables of ``illegal``, ascending.
        kinds: :data:`CLEAN`, :data:`DONE`, :data:`RESET` or :data:`OTHERS` per table.
        steps: each table's learner moves this hand (the caller's list, kept).
        visit: the tables the caller must visit, ascending (every kind but :data:`CLEAN`).
    """

    def __init__(self, n: int) -> None:
        self.rewards: list[float] = [0.0] * n
        self.terminated: list[bool] = [False] * n
        self.truncated: list[bool] = [False] * n
        self.illegal: list[bool] = [False] * n
        self.flagged: list[int] = []
        self.kinds: list[int] = [CLEAN] * n
        self.steps: list[int] = [0] * n
        self.visit: list[int] = []


def step_batch(
    tables: list[Stepper],
    ended: list[bool],
    actions: list[int],
    learners: list[int],
    rands: list[list[Callable[[], float] | None]],
    deals: list[Callable[[], float]],
    steps: list[int],
    out: Outcome,
    max_void: int,
    max_steps: int,
    lowest: bool,
) -> int:
    """One learner move at every table whose hand has not ``ended``.

    Table ``i`` plays id ``actions[i]`` for its learner ``learners[i]`` (or its lowest legal
    id when that is not legal and ``lowest``: ``out.illegal[i]``), then its random bots
    (``rands[i]``) and its dealer (``deals[i]``) play up to the learner's next move
    (:meth:`Stepper.run`); ``steps[i]`` counts the move. ``out`` (made for as many tables)
    gets the rewards and flags of the tables whose step is over (:data:`CLEAN`,
    :data:`DONE`) and lists in ``out.visit`` the others.

    Returns:
        -1, or the first table whose id is not legal when not ``lowest``: nothing is
        stepped from it on (the caller visits the tables before it, then raises).
    """
    n = len(tables)
    rewards = [0.0] * n
    terminated = [False] * n
    truncated = [False] * n
    illegal = [False] * n
    kinds = [CLEAN] * n
    visit: list[int] = []
    flagged: list[int] = []
    out.flagged = flagged
    out.rewards, out.terminated, out.truncated = rewards, terminated, truncated
    out.illegal, out.kinds, out.steps, out.visit = illegal, kinds, steps, visit
    for i in range(n):
        if ended[i]:
            kinds[i] = RESET
            visit.append(i)
            continue
        table = tables[i]
        action = actions[i]
        if not table.is_legal(action):
            if not lowest:
                return i
            action = table.legal_ids()[0]
            illegal[i] = True
            flagged.append(i)
        table.apply(action)
        seat = learners[i]
        player = table.run(seat, rands[i], deals[i], max_void)
        steps[i] += 1
        if player >= 0 and player != seat and table.void_deals < max_void:
            kinds[i] = OTHERS
            visit.append(i)
            continue
        net = table.net
        if net is not None:
            rewards[i] = float(net[seat])
            terminated[i] = True
        elif steps[i] >= max_steps or table.void_deals >= max_void:
            truncated[i] = True
        else:
            continue
        kinds[i] = DONE
        visit.append(i)
    return -1
