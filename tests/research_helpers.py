"""Helpers shared by the research-interface tests (OpenSpiel, PettingZoo, Gymnasium,
Mini-Primero): policies that play a hand to its end. Standard library and numpy only;
the optional modules are imported through :func:`tests.needs.require`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from primero.research.actionids import EXCHANGE0, EXCHANGE_POSITIONS, REFUSE

__all__ = ["deal_lowest", "deal_random", "exchange_or_refuse"]


def exchange_or_refuse(legal: list[int] | np.ndarray[Any, Any]) -> int:
    """The stubborn policy: exchange (the most cards) whenever allowed, refuse
    every bet under vote (R8), else the lowest legal id."""
    ids = [int(a) for a in legal]
    exchanges = [a for a in ids if EXCHANGE0 < a < EXCHANGE0 + len(EXCHANGE_POSITIONS)]
    if exchanges:
        return max(exchanges)
    if REFUSE in ids:
        return REFUSE
    return min(ids)


def deal_lowest(state: Any) -> None:
    """Deal the lowest possible card while a pyspiel state is at a chance node."""
    while state.is_chance_node():
        state.apply_action(min(a for a, _ in state.chance_outcomes()))


def deal_random(state: Any, rng: np.random.RandomState) -> None:
    """Deal cards at random (by their probabilities) while at a chance node."""
    while state.is_chance_node():
        ids, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(ids, p=probs)))
