"""Showdown chances of a 4-card hand against k random opponent hands (R7, R10): exact
for one and two opponents, seeded Monte Carlo beyond.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from fractions import Fraction
from math import comb
from typing import Literal

import numpy as np
import numpy.typing as npt

from primero.engine.batch import ranks_of_valid
from primero.engine.cards import Card
from primero.engine.hands import evaluate
from primero.engine.odds.combinatorics import _Geometry, _geometry, _parse, _ranks
from primero.engine.odds.results import OddsError, ShowdownOdds


def showdown_odds(
    own: str | Iterable[Card | str],
    dead: str | Iterable[Card | str] = (),
    opponents: int = 1,
    *,
    method: Literal["auto", "exact", "monte-carlo"] = "auto",
    trials: int = 100_000,
    seed: int = 0,
) -> ShowdownOdds:
    """The chances of a 4-card hand against ``opponents`` random hands (R2, R7, R10).

    Each opponent holds four cards dealt at random from the unseen cards (40 minus the
    hand minus the dead cards), the opponents' hands being disjoint.

    Args:
        own: the seat's four cards, as text or cards.
        dead: cards known not to be in any opponent's hand; default none.
        opponents: the number of opponents, at least 1, at most ``unseen // 4``.
        method: ``"exact"`` counts every deal (one or two opponents only);
            ``"monte-carlo"`` samples ``trials`` deals; ``"auto"`` (the default) is
            exact for one or two opponents and Monte Carlo otherwise.
        trials: the number of random deals of a Monte Carlo estimate (>= 2).
        seed: the seed of the estimate: the deals are drawn with
            ``random.Random(seed).random()`` only (a partial Fisher-Yates shuffle of the
            unseen cards per deal), so the same seed gives the same figures on every
            machine (R10).

    Returns:
        A :class:`ShowdownOdds` with the probabilities of winning, tying and losing and
        the equity (pot share with split ties); for an estimate, its standard error.

    Raises:
        CardError: a card is unknown or repeated, a card is both held and dead, or the
            hand does not hold exactly 4 cards.
        OddsError: ``opponents`` is below 1 or needs more than the unseen cards,
            ``method`` is unknown or ``"exact"`` with more than two opponents, or
            ``trials`` is below 2.
    """
    hand, dead_cards, unseen = _parse(own, dead, (4,))
    n = len(unseen)
    if opponents < 1:
        raise OddsError(f"the number of opponents must be at least 1, got {opponents}")
    if 4 * opponents > n:
        raise OddsError(
            f"{opponents} opponents need {4 * opponents} unseen cards, there are only {n}"
        )
    if method not in ("auto", "exact", "monte-carlo"):
        raise OddsError(f"unknown method {method!r}: one of 'auto', 'exact', 'monte-carlo'")
    if method == "exact" and opponents > 2:
        raise OddsError("exact odds are computed for one or two opponents only")
    value = evaluate(hand)
    ours = int(_ranks(hand, unseen, np.zeros((1, 0), dtype=np.intp))[0])
    if method == "monte-carlo" or (method == "auto" and opponents > 2):
        if trials < 2:
            raise OddsError(f"a Monte Carlo estimate needs at least 2 trials, got {trials}")
        win, tie, lose, equity, error = _monte_carlo(unseen, ours, opponents, trials, seed)
        return ShowdownOdds(
            hand=hand,
            value=value,
            dead=dead_cards,
            opponents=opponents,
            win=win,
            tie=tie,
            lose=lose,
            equity=equity,
            exact=False,
            trials=trials,
            standard_error=error,
            seed=seed,
        )
    geometry = _geometry(n)
    theirs = ranks_of_valid(np.ascontiguousarray(unseen[geometry.quads])).astype(np.intp)
    if opponents == 1:
        total = len(theirs)
        below = int((theirs < ours).sum())
        equal = int((theirs == ours).sum())
        win_f = Fraction(below, total)
        tie_f = Fraction(equal, total)
        equity_f = win_f + tie_f / 2
    else:
        win_f, tie_f, equity_f = _two_opponents(geometry, theirs, ours)
    return ShowdownOdds(
        hand=hand,
        value=value,
        dead=dead_cards,
        opponents=opponents,
        win=float(win_f),
        tie=float(tie_f),
        lose=float(1 - win_f - tie_f),
        equity=float(equity_f),
        exact=True,
        trials=0,
        standard_error=0.0,
        seed=None,
    )


def _two_opponents(
    geometry: _Geometry, theirs: npt.NDArray[np.intp], ours: int
) -> tuple[Fraction, Fraction, Fraction]:
    """Exact win, tie and equity against two disjoint random hands.

    Over ordered pairs (O1, O2) of disjoint hands, ``sum f(O1) g(O2)`` equals
    ``sum over card sets S of (-1)^|S| F(S) G(S)`` with ``F(S) = sum of f over the
    hands containing S`` (inclusion-exclusion on the shared cards, |S| <= 4).
    """
    below = theirs < ours
    equal = theirs == ours
    levels: list[tuple[npt.NDArray[np.intp], int]] = [
        (geometry.quads, geometry.n),
        (geometry.quad_pairs, len(geometry.pairs)),
        (geometry.quad_triples, len(geometry.triples)),
    ]

    def disjoint_sum(f: npt.NDArray[np.bool_], g: npt.NDArray[np.bool_]) -> int:
        total = int(f.sum()) * int(g.sum())  # S empty
        sign = -1
        for subsets, size in levels:
            fs = np.bincount(subsets[f].ravel(), minlength=size)
            gs = fs if g is f else np.bincount(subsets[g].ravel(), minlength=size)
            total += sign * int(fs @ gs)
            sign = -sign
        total += sign * int((f & g).sum())  # S = the whole hand: O1 = O2
        return total

    pairs = len(theirs) * comb(geometry.n - 4, 4)
    both_below = disjoint_sum(below, below)
    below_equal = disjoint_sum(below, equal)
    both_equal = disjoint_sum(equal, equal)
    win = Fraction(both_below, pairs)
    tie = Fraction(2 * below_equal + both_equal, pairs)
    equity = Fraction(3 * both_below + 3 * below_equal + both_equal, 3 * pairs)
    return win, tie, equity


def _monte_carlo(
    unseen: npt.NDArray[np.uint8], ours: int, opponents: int, trials: int, seed: int
) -> tuple[float, float, float, float, float]:
    """Seeded estimate of (win, tie, lose, equity, standard error of equity)."""
    n = len(unseen)
    cards = 4 * opponents
    rng = random.Random(seed)
    draw = rng.random
    uniforms = np.array([draw() for _ in range(trials * cards)], dtype=np.float64)
    uniforms = uniforms.reshape(trials, cards)
    deck = np.tile(np.arange(n, dtype=np.intp), (trials, 1))
    rows = np.arange(trials)
    for i in range(cards):  # partial Fisher-Yates: position i gets a random later card
        j = i + np.floor(uniforms[:, i] * (n - i)).astype(np.intp)
        held = deck[:, i].copy()
        deck[:, i] = deck[rows, j]
        deck[rows, j] = held
    hands = np.ascontiguousarray(unseen[deck[:, :cards]]).reshape(trials * opponents, 4)
    theirs = ranks_of_valid(hands).astype(np.intp).reshape(trials, opponents)
    best = theirs.max(axis=1)
    tied = (theirs == ours).sum(axis=1)
    won = best < ours
    drew = best == ours
    share = np.where(won, 1.0, np.where(drew, 1.0 / (1 + tied), 0.0))
    win = float(won.mean())
    tie = float(drew.mean())
    equity = float(share.mean())
    error = float(share.std(ddof=1) / np.sqrt(trials))
    return win, tie, 1.0 - win - tie, equity, error
