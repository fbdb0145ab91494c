"""Determinization for ISMCTS: a ``python_primero`` state drawn anew behind one seat's
information (:meth:`primero.research.openspiel.PrimeroState.resample_from_infostate`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pyspiel

from primero.engine.hands import evaluate
from primero.engine.state import Phase
from primero.research.actionids import EXCHANGE0, EXCHANGE_POSITIONS

if TYPE_CHECKING:
    from primero.research.openspiel.game import PrimeroState
    from primero.research.openspiel.table import _Table

__all__ = ["resample"]

#: Replays tried before giving up (dead ends are rare: R8b).
TRIES = 200


def resample(state: PrimeroState, player: int, sampler: Callable[[], float]) -> PrimeroState:
    """See :meth:`primero.research.openspiel.PrimeroState.resample_from_infostate`.

    Raises:
        ValueError: ``player`` is not a seat of the game.
        RuntimeError: no consistent deal was found in :data:`TRIES` replays.
    """
    n = state.hand.n
    if not 0 <= player < n:
        raise ValueError(f"no player {player}: players are 0..{n - 1}")
    for _ in range(TRIES):
        other = _resample_once(state, player, sampler)
        if other is not None:
            return other
    raise RuntimeError(f"resample_from_infostate found no consistent deal in {TRIES} tries")


def _resample_once(
    state: PrimeroState, player: int, sampler: Callable[[], float]
) -> PrimeroState | None:
    table = state._table
    game = state.get_game()
    new: PrimeroState = game.new_initial_state()
    new._resampled = True  # its copies may be searched (ISMCTS): no hidden cards of the real hand
    declared = table.hand.declared
    draw = 0
    reserved_after = _future_stock_cards(table, player)
    for item in state.full_history():
        action = int(item.action)
        nt = new._table
        if item.player == pyspiel.PlayerId.CHANCE:
            seat = table.draw_seat[draw]
            if seat == player:
                if action not in (c.id for c in nt.pool()):
                    return None
                if game.preset == "mini" and action not in dict(new.chance_outcomes()):
                    return None
            else:
                reserved = reserved_after[draw]
                pool = [c for c in nt.pool() if c.id not in reserved]
                due = nt.hand.deal_due()
                assert due is not None
                q_cat = declared[seat]
                last_of_second = (
                    nt.hand.phase is Phase.SECOND_DEAL and len(nt.pending) == due[1] - 1
                )
                if q_cat is not None and last_of_second:
                    held = list(nt.hand.hands[seat]) + nt.pending
                    pool = [c for c in pool if evaluate([*held, c]).category <= q_cat]
                if game.preset == "mini":  # its cards come in deck order, not uniformly
                    weights = dict(new.chance_outcomes())
                    pool = [c for c in pool if c.id in weights]
                    if not pool:
                        return None
                    action = _weighted(sampler, [c.id for c in pool], weights)
                elif not pool:
                    return None
                else:
                    action = pool[_below(sampler, len(pool))].id
            draw += 1
        else:
            legal = new.legal_actions()
            if item.player != player and EXCHANGE0 <= action < EXCHANGE0 + len(EXCHANGE_POSITIONS):
                k = len(EXCHANGE_POSITIONS[action - EXCHANGE0])
                same = [
                    a
                    for a in legal
                    if EXCHANGE0 <= a < EXCHANGE0 + len(EXCHANGE_POSITIONS)
                    and len(EXCHANGE_POSITIONS[a - EXCHANGE0]) == k
                ]
                if not same:
                    return None
                action = same[_below(sampler, len(same))]
            elif action not in legal:
                return None
        new.apply_action(action)
    return new


def _weighted(sampler: Callable[[], float], ids: list[int], weights: dict[int, float]) -> int:
    """One of ``ids`` drawn in proportion to ``weights`` (Mini-Primero's ordered draws)."""
    total = sum(weights[i] for i in ids)
    x = float(sampler()) * total
    for i in ids:
        x -= weights[i]
        if x < 0:
            return i
    return ids[-1]


def _below(sampler: Callable[[], float], n: int) -> int:
    return min(int(float(sampler()) * n), n - 1)


def _future_stock_cards(table: _Table, player: int) -> list[frozenset[int]]:
    """For each chance move so far, the card ids ``player`` is dealt from the stock after
    it and before the next void deal (R4.3): they must stay in the stock until then."""
    count = len(table.draw_seat)
    out: list[frozenset[int]] = [frozenset()] * count
    later: set[int] = set()
    for d in range(count - 1, -1, -1):
        if d + 1 < count and table.draw_cycle[d + 1] != table.draw_cycle[d]:
            later = set()
        out[d] = frozenset(later)
        if table.draw_seat[d] == player and table.draw_from_stock[d]:
            later.add(table.draw_card[d])
    return out
