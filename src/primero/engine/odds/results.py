"""The answers of the odds functions: result types, the criterion, the odds error (R2, R7).

Each is a frozen value; see :mod:`primero.engine.odds` for the model behind the figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Final

import numpy as np
import numpy.typing as npt

from primero.engine.cards import Card, format_cards
from primero.engine.hands import Category, HandValue

__all__ = [
    "CRITERION",
    "ExchangeChoice",
    "ExchangeOdds",
    "ExchangeOutcomes",
    "OddsError",
    "ShowdownOdds",
]

CRITERION: Final = (
    "score = P(the resulting hand beats one opponent's hand dealt at random from the "
    "cards still unseen) + 1/2 P(tie); best = highest score, then highest expected "
    "points, then fewest cards drawn"
)


class OddsError(ValueError):
    """An odds question that cannot be answered: too few unseen cards for the draws and
    opponent hands it needs, a bad number of opponents or trials, an unknown method.

    Card problems (unknown or repeated card, a card both held and dead, a wrong number
    of cards) raise :class:`primero.engine.cards.CardError` instead; both are ``ValueError``.
    """


@dataclass(frozen=True, slots=True)
class ExchangeChoice:
    """One way to exchange and the exact distribution of the hand it leads to (R2, R4).

    Attributes:
        keep: the cards kept, in the order given.
        discard: the cards thrown away (empty: stand pat, or keep both of two).
        draws: how many cards the seat receives before its hand has four cards again:
            the replacements, plus the second deal's two with a 2-card hand.
        outcomes: the number of equally likely draws, ``C(unseen, draws)``.
        category_probabilities: probability of each category of the resulting hand,
            indexed by the :class:`~primero.engine.hands.Category` value (``[0]`` numerus ..
            ``[4]`` chorus); they sum to 1.
        expected_points: the mean points (R2) of the resulting hand.
        score: the criterion (:data:`CRITERION`): probability, in 0..1, that the
            resulting hand beats one random opponent hand from the cards still unseen,
            ties counting half.
    """

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    draws: int
    outcomes: int
    category_probabilities: tuple[float, float, float, float, float]
    expected_points: float
    score: float

    def probability(self, category: Category) -> float:
        """The probability that the resulting hand is of ``category`` (0..1)."""
        return self.category_probabilities[category]

    @property
    def label(self) -> str:
        """A short description: ``"stand pat"`` (4 cards kept), ``"keep both"`` (2 cards
        kept), ``"discard 2c"``, ``"discard Ah 2c"``."""
        if self.discard:
            return f"discard {format_cards(self.discard)}"
        return "stand pat" if len(self.keep) == 4 else "keep both"


@dataclass(frozen=True, slots=True)
class ExchangeOdds:
    """Every exchange choice of one seat, and the best by :data:`CRITERION` (R4.3, R4.6).

    Attributes:
        own: the seat's cards (2 or 4), in the order given.
        dead: the cards known not to be in the stock.
        unseen: how many cards the seat has not seen: 40 - own - dead.
        second_deal: true for a 2-card hand, whose choices include the second deal.
        choices: every choice: with 4 cards stand pat, each single discard in card
            order, then each pair of discards (11); with 2 cards keep both, discard
            either, discard both (4).
        best: the choice with the highest score; ties go to the higher expected points,
            then to fewer cards drawn, then to the earlier choice.
    """

    own: tuple[Card, ...]
    dead: tuple[Card, ...]
    unseen: int
    second_deal: bool
    choices: tuple[ExchangeChoice, ...]
    best: ExchangeChoice


@dataclass(frozen=True, slots=True, eq=False)
class ExchangeOutcomes:
    """Every exchange choice of one seat and the exact value of the hand after every
    equally likely draw (R2, R4.3, R4.4, R4.6): the one enumeration of the exchanges,
    from which :func:`exchange_odds` and the heuristic bot both score the choices.

    Hand values are *value ranks*, as :func:`primero.engine.batch.value_ranks` returns them:
    0 (numerus 20) up to ``len(VALUE_CATEGORY) - 1`` (chorus of sevens), ordered as the
    hands compare, so that equal ranks are ties (R7); :data:`primero.engine.batch.VALUE_CATEGORY`
    and :data:`primero.engine.batch.VALUE_POINTS` give each rank's category and points.

    Attributes:
        own: the seat's cards (2 or 4), in the order given.
        dead: the cards known not to be in the stock.
        unseen: the cards the seat may draw (40 - own - dead), in deck order.
        keeps: the cards kept by each choice, in the order of
            :attr:`ExchangeOdds.choices` (4 cards: stand pat, each single discard, each
            pair of discards; 2 cards: keep both, discard either, discard both).
        discards: the cards thrown by each choice.
        ranks: for each choice, a read-only ``uint8`` array: the value rank of the 4-card
            hand ``keep + draw`` for every draw of ``4 - len(keep)`` unseen cards. The
            draws are the subsets of the positions in :attr:`unseen`, in
            colexicographic order (by largest position first: the draws from the first
            ``m`` unseen cards come first, for every ``m``); ``C(len(unseen), draws)``
            entries, 0 when there are too few unseen cards.
        counts: a read-only ``(choices, len(VALUE_CATEGORY))`` ``int64`` array:
            ``counts[i, r]`` is how many draws of choice ``i`` give a hand of value rank
            ``r`` (the histogram of ``ranks[i]``).
    """

    own: tuple[Card, ...]
    dead: tuple[Card, ...]
    unseen: tuple[Card, ...]
    keeps: tuple[tuple[Card, ...], ...]
    discards: tuple[tuple[Card, ...], ...]
    ranks: tuple[npt.NDArray[np.uint8], ...]
    counts: npt.NDArray[np.int64]

    def draws(self, choice: int) -> int:
        """How many cards choice ``choice`` draws: ``4 - len(keeps[choice])``."""
        return 4 - len(self.keeps[choice])

    def outcomes(self, choice: int) -> int:
        """The number of equally likely draws of choice ``choice``: ``C(unseen, draws)``."""
        return comb(len(self.unseen), self.draws(choice))


@dataclass(frozen=True, slots=True)
class ShowdownOdds:
    """The chances of a 4-card hand against random opponent hands (R2, R7).

    Attributes:
        hand: the seat's four cards.
        value: their :class:`~primero.engine.hands.HandValue`.
        dead: the cards known not to be in any opponent's hand.
        opponents: the number of opponents (each holds four unseen cards).
        win: probability that the hand beats every opponent (0..1).
        tie: probability that no opponent is better but at least one is equal (R7: the
            eldest of the tied hands wins by default; ``ties = "split"`` shares the pot).
        lose: probability that some opponent's hand is better; ``win + tie + lose == 1``.
        equity: the expected share of the pot when ties are split equally:
            ``win`` plus each tie's ``1 / (number of tied hands)``; heads-up this is
            ``win + tie / 2``.
        exact: true when the figures are exact (every deal of opponent hands counted),
            false for a Monte Carlo estimate.
        trials: the number of random deals for an estimate; 0 when exact.
        standard_error: the standard error of :attr:`equity` (0.0 when exact); for an
            estimate the error of ``win``, ``tie`` and ``lose`` is of the same order.
        seed: the seed of the estimate (``None`` when exact).
    """

    hand: tuple[Card, ...]
    value: HandValue
    dead: tuple[Card, ...]
    opponents: int
    win: float
    tie: float
    lose: float
    equity: float
    exact: bool
    trials: int
    standard_error: float
    seed: int | None
