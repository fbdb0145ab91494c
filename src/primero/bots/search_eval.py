"""The search bot's scoring of one decision over all its samples at once (NumPy).

:class:`Evaluation` holds, for ``S`` sampled deals and the ``m`` opponents still in, the
final hand keys (R2), each opponent's believed strength and baseline, and the public
chips; :meth:`Evaluation.values` answers "what is each sample worth to me, in chips from
now on, if the round's bet becomes ``to``?", with every opponent answering by the
heuristic bot's pot-odds rule and the showdown decided by R7 (ties to the eldest, or
split). See :mod:`primero.bots.search` for the model.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["Evaluation"]

_Floats = npt.NDArray[np.float64]
_Bools = npt.NDArray[np.bool_]


class Evaluation:
    """One decision's samples, ready to score candidate bets (chips).

    Args:
        me: this seat.
        opponents: the other seats still in, ascending (``m`` of them).
        pot: chips in the pots now.
        stacks, round_bets: per seat of the hand (chips).
        ties_split: R7 ties split the pot (else the eldest tied player wins).
        weights: ``(S,)`` sample weights (> 0).
        final: ``(S, n)`` final hand key of every seat in every sample.
        believed: ``(S, m)`` each opponent's believed win chance.
        baseline: ``(m,)`` each opponent's average-hand win chance.
    """

    def __init__(
        self,
        *,
        me: int,
        opponents: Sequence[int],
        pot: int,
        stacks: Sequence[int],
        round_bets: Sequence[int],
        ties_split: bool,
        weights: _Floats,
        final: npt.NDArray[np.int64],
        believed: _Floats,
        baseline: _Floats,
    ) -> None:
        opp = np.asarray(opponents, dtype=np.intp)
        self.me = me
        self.pot = pot
        self.my_stack = stacks[me]
        self.my_round = round_bets[me]
        self.stack = np.asarray(stacks, dtype=np.int64)[opp]
        self.round = np.asarray(round_bets, dtype=np.int64)[opp]
        self.index = {s: i for i, s in enumerate(opponents)}
        self.weights = weights
        self.total = float(weights.sum())
        self.w = believed
        self.base = baseline
        mine = final[:, me][:, None]
        keys = final[:, opp]
        self.beats = keys > mine
        self.ties = keys == mine
        self.lower = opp < me
        self.split = ties_split
        self.token = np.maximum(1, self.stack // 50)

    def continues(self, owed: npt.NDArray[np.int64], pot: int) -> _Bools:
        """``(S, m)``: whether each opponent puts ``owed`` chips into a pot of ``pot``:
        the heuristic bot's rule (pot odds with a margin of 0.04 on 85 % of its win
        chance, no call of 40 % of its stack without a clear edge, a token call with an
        average hand)."""
        owed_f = owed.astype(np.float64)
        need = owed_f / np.maximum(1.0, pot + owed_f)
        adjusted = 0.85 * self.w
        ok = adjusted >= need + 0.04
        big = (owed_f >= 0.4 * self.stack) & (adjusted < np.maximum(0.3, need + 0.06))
        token = (owed <= self.token) & (self.w >= 0.7 * self.base)
        forced = (owed <= 0) | (self.stack == 0)
        result: _Bools = forced | token | (ok & ~big)
        return result

    def share(self, callers: _Bools) -> _Floats:
        """``(S,)``: this seat's share of the pot at a showdown against ``callers`` (R7)."""
        beaten = (callers & self.beats).any(axis=1)
        tied = callers & self.ties
        if self.split:
            share: _Floats = np.where(beaten, 0.0, 1.0 / (1 + tied.sum(axis=1)))
            return share
        lost_tie = (tied & self.lower).any(axis=1)
        return np.where(beaten | lost_tie, 0.0, 1.0)

    def values(self, to: int, bettor: int | None = None) -> _Floats:
        """``(S,)``: chips got back from now on minus chips put in, if the round's bet
        becomes ``to`` (a call when ``to`` is the current bet). ``bettor``: an opponent
        whose bet of ``to`` is being voted on (it stays in; its chips are not in yet)."""
        put = min(to - self.my_round, self.my_stack)
        pot = self.pot + put
        owed = np.minimum(to - self.round, self.stack)
        if bettor is not None:
            pot += to - int(self.round[self.index[bettor]])
            owed[self.index[bettor]] = 0
        callers = self.continues(owed, pot)
        calls = (callers * np.maximum(owed, 0)).sum(axis=1)
        anyone = callers.any(axis=1)
        result: _Floats = np.where(anyone, self.share(callers) * (pot + calls) - put, self.pot)
        return result

    def accepted(self, to: int, bettor_round: int, voters: Sequence[int]) -> _Bools:
        """``(S,)``: whether any of ``voters`` would accept a bet of ``to`` (R8): the
        heuristic's vote, deterministic part (accept what it would call, or a bet of up
        to half the pot with a middling hand; all-in, accept with an average hand)."""
        if not voters:
            return np.zeros(len(self.weights), dtype=np.bool_)
        cols = np.asarray([self.index[s] for s in voters], dtype=np.intp)
        extra = to - bettor_round
        owed = np.minimum(to - self.round, self.stack)
        calls = self.continues(owed, self.pot + extra)
        modest: _Bools = (self.w >= 0.85 * self.base) & bool(extra <= 0.5 * max(1, self.pot))
        accept = np.where(self.stack == 0, self.w >= self.base, calls | modest)
        result: _Bools = np.asarray(accept[:, cols].any(axis=1), dtype=np.bool_)
        return result

    def mean(self, values: _Floats) -> float:
        """The weighted mean of per-sample values (chips)."""
        return float((self.weights * values).sum()) / self.total
