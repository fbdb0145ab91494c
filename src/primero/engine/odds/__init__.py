"""Exact odds for a seat's exchange decisions and showdown chances (R2, R4, R7, R10).

Two questions, both from one seat's point of view, knowing only its own cards and some
*dead* cards (cards it knows are not in the stock, e.g. its own discards, R9b). All
other cards are *unseen*: the stock and the other players' hands look alike to the seat,
so every card it is dealt, and every opponent hand, is a uniformly random choice among
the unseen cards.

:func:`exchange_odds`
    For every way to exchange, the exact distribution of the 4-card hand that results:
    the probability of each category, the expected points and a *score*, and the best
    choice. The score (the criterion, also in :data:`CRITERION`) is the seat's equity
    heads-up: the probability that the resulting hand beats the hand of one opponent
    dealt four cards at random from the cards still unseen (the unseen cards minus the
    ones the seat drew), ties counting half. It is computed exactly, card removal
    included, by inclusion-exclusion over the cards the seat draws.

    * With 4 cards (the second exchange, R4.6): keep all (stand pat), discard any one
      card or any two: 1 + 4 + 6 = 11 choices; the discards are replaced from the
      unseen cards.
    * With 2 cards (the first round, R4.3): keep both (what betting, or standing pat
      under the house rule ``first_round_stand``, does), discard either card, or both:
      4 choices. The hand reported is the 4-card hand after the replacements *and* the
      second deal of two cards (R4.4), before any second exchange: keeping k cards
      means drawing 4 - k cards. Discarding both gives a uniformly random hand, whose
      score is exactly 1/2 by symmetry (the seat's and the opponent's hands are then two
      exchangeable random hands from the same cards).

:func:`exchange_outcomes`
    The enumeration under :func:`exchange_odds`: for every choice, the value of the
    resulting hand for every equally likely draw, and how many draws give each value.
    Other scorers use it too (the heuristic bot scores it against several opponents and
    their declarations), so there is one exact enumeration of the exchanges.

:func:`showdown_odds`
    The chances of a 4-card hand against k opponents whose hands are dealt at random
    from the unseen cards: exact for one opponent (every opponent hand enumerated) and
    for two (inclusion-exclusion over shared cards), seeded Monte Carlo with a standard
    error otherwise (R10: only ``random.Random(seed).random()`` is used).

Deck exhaustion (R8b) is not modelled: the draws come from the unseen cards.

>>> from primero.engine.hands import Category
>>> best = exchange_odds("7h 6h Ah 2c").best  # a supremus: throw the 2c for a heart
>>> best.label, round(best.score, 3), best.probability(Category.FLUXUS)
('discard 2c', 0.992, 0.19444444444444445)

The package is split by idea: :mod:`~primero.engine.odds.results` (the answers),
:mod:`~primero.engine.odds.combinatorics` (NumPy subsets and the enumeration of draws),
:mod:`~primero.engine.odds.opponent` (the opponent model of the score),
:mod:`~primero.engine.odds.exchange` and :mod:`~primero.engine.odds.showdown` (the two questions).
"""

from __future__ import annotations

from primero.engine.odds.exchange import exchange_odds, exchange_outcomes
from primero.engine.odds.results import (
    CRITERION,
    ExchangeChoice,
    ExchangeOdds,
    ExchangeOutcomes,
    OddsError,
    ShowdownOdds,
)
from primero.engine.odds.showdown import showdown_odds

__all__ = [
    "CRITERION",
    "ExchangeChoice",
    "ExchangeOdds",
    "ExchangeOutcomes",
    "OddsError",
    "ShowdownOdds",
    "exchange_odds",
    "exchange_outcomes",
    "showdown_odds",
]
