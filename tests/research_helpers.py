"""Helpers shared by the research-interface tests (OpenSpiel, PettingZoo, Gymnasium,
Mini-Primero): the optional-extra import, and policies that play a hand to its end.

Standard library and numpy only; the optional modules are imported through
:func:`require`, which skips without the ``research`` extra and fails when PRIMERO_CI=1.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from primero.research.actionids import EXCHANGE0, EXCHANGE_POSITIONS, REFUSE

__all__ = ["deal_lowest", "deal_random", "exchange_or_refuse", "require"]


def require(name: str) -> ModuleType:
    """Import an optional module: skipped without it, a failure when PRIMERO_CI=1."""
    if os.environ.get("PRIMERO_CI") == "1":
        return importlib.import_module(name)  # CI installs the extra: a missing one fails
    module: ModuleType = pytest.importorskip(
        name, reason=f"{name} missing: pip install -e '.[research]'"
    )
    return module


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
