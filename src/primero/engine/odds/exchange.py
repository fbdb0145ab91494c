"""Exact exchange odds: every choice's outcomes and its score (R4.3, R4.6, R7).

See :mod:`primero.engine.odds` for the model; :func:`exchange_outcomes` is the one exact
enumeration that :func:`exchange_odds` and the heuristic bot both score.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import comb

import numpy as np
import numpy.typing as npt

from primero.engine.cards import Card
from primero.engine.odds.combinatorics import (
    _CATEGORY_OF_VALUE,
    _VALUE_POINTS_I,
    _enumerate,
    _geometry,
    _parse,
)
from primero.engine.odds.opponent import _Opponent
from primero.engine.odds.results import ExchangeChoice, ExchangeOdds, ExchangeOutcomes, OddsError


def _choice(
    keep: tuple[Card, ...],
    discard: tuple[Card, ...],
    counts: npt.NDArray[np.int64],
    doubled: int | None,
    opponent_hands: int,
) -> tuple[ExchangeChoice, tuple[Fraction, Fraction, int]]:
    """Summarise the outcomes of one choice (its value rank counts); with its exact sort
    key."""
    outcomes = int(counts.sum())
    categories = _CATEGORY_OF_VALUE.T @ counts
    points = Fraction(int(counts @ _VALUE_POINTS_I), outcomes)
    # doubled None: a uniformly random hand against another, 1/2 by symmetry
    half = Fraction(1, 2)
    score = half if doubled is None else Fraction(doubled, 2 * opponent_hands * outcomes)
    probabilities = tuple(float(Fraction(int(c), outcomes)) for c in categories)
    choice = ExchangeChoice(
        keep=keep,
        discard=discard,
        draws=4 - len(keep),
        outcomes=outcomes,
        category_probabilities=(
            probabilities[0],
            probabilities[1],
            probabilities[2],
            probabilities[3],
            probabilities[4],
        ),
        expected_points=float(points),
        score=float(score),
    )
    return choice, (score, points, len(keep))


def exchange_outcomes(
    own: str | Iterable[Card | str], dead: str | Iterable[Card | str] = ()
) -> ExchangeOutcomes:
    """The value of the hand after every exchange choice and every draw, exactly (R2,
    R4.3, R4.4, R4.6).

    The enumeration behind :func:`exchange_odds` (which scores it heads-up), for callers
    that score the resulting hands their own way, e.g. against several opponents (the
    heuristic bot): weight ``counts[i]`` by a score per value rank and divide by
    :meth:`ExchangeOutcomes.outcomes`. A 4-card call costs some tens of microseconds;
    a 2-card one about a millisecond (discarding both draws every 4 unseen cards).

    Args:
        own: the seat's 2 or 4 cards, as text or cards, in any order.
        dead: cards known not to be in the stock (the seat's own discards, R9b).

    Returns:
        An :class:`ExchangeOutcomes`: the choices in the order of
        :attr:`ExchangeOdds.choices`, each with the value rank of every draw and their
        counts. A choice that draws more cards than are unseen has no draws.

    Raises:
        CardError: a card is unknown or repeated, a card is both held and dead, or the
            seat does not hold 2 or 4 cards.

    >>> out = exchange_outcomes("6h 6c 6d 2s")
    >>> out.discards[4], out.outcomes(4)  # throw the 2s: 36 equally likely draws
    ((Card('2s'),), 36)
    >>> from primero.engine.batch import VALUE_CATEGORY
    >>> from primero.engine.hands import Category
    >>> int(out.counts[4][VALUE_CATEGORY == Category.CHORUS].sum())  # the 6s
    1
    """
    hand, dead_cards, unseen = _parse(own, dead, (2, 4))
    return _enumerate(hand, dead_cards, unseen)


def exchange_odds(
    own: str | Iterable[Card | str], dead: str | Iterable[Card | str] = ()
) -> ExchangeOdds:
    """The exact outcome of every exchange choice, and the best one (R2, R4.3, R4.6).

    Args:
        own: the seat's 2 or 4 cards, as text (``"7h 6h"``) or cards, in any order.
        dead: cards known not to be in the stock or in any opponent's hand (the seat's
            own discards, R9b), same forms; default none.

    Returns:
        An :class:`ExchangeOdds`: for every choice (4 cards: stand pat, discard one,
        discard two; 2 cards: keep both, discard one, discard both, each followed by the
        second deal of two cards) the exact probability of each category of the
        resulting 4-card hand, its expected points and its score, and the best choice by
        :data:`CRITERION`. See the module documentation for the model.

    Raises:
        CardError: a card is unknown or repeated, a card is both held and dead, or the
            seat does not hold 2 or 4 cards.
        OddsError: fewer unseen cards than the draws plus one opponent hand need (6 with
            4 cards, 8 with 2).
    """
    hand, dead_cards, unseen = _parse(own, dead, (2, 4))
    n = len(unseen)
    needed = 6 if len(hand) == 4 else 8
    if n < needed:
        raise OddsError(
            f"only {n} unseen card{'' if n == 1 else 's'}: an exchange with {len(hand)} "
            f"cards needs {needed} (the most cards it can draw and one opponent hand)"
        )
    outcomes = _enumerate(hand, dead_cards, unseen)
    geometry = _geometry(n)
    # with 2 cards, discarding both draws every 4-subset of the unseen cards: the
    # opponent's possible hands, already evaluated
    opponent = _Opponent(unseen, geometry, outcomes.ranks[-1] if len(hand) == 2 else None)
    results: list[tuple[ExchangeChoice, tuple[Fraction, Fraction, int]]] = []
    for i, (keep, discard) in enumerate(zip(outcomes.keeps, outcomes.discards, strict=True)):
        size = 4 - len(keep)
        counts = outcomes.counts[i]
        if size == 4:  # a random hand against a random hand: 1/2 by symmetry
            results.append(_choice(keep, discard, counts, None, 1))
            continue
        beaten = opponent.doubled_beaten(size, outcomes.ranks[i])
        results.append(_choice(keep, discard, counts, beaten, comb(n - size, 4)))
    best = max(range(len(results)), key=lambda k: (results[k][1], -k))
    return ExchangeOdds(
        own=hand,
        dead=dead_cards,
        unseen=n,
        second_deal=len(hand) == 2,
        choices=tuple(r[0] for r in results),
        best=results[best][0],
    )
