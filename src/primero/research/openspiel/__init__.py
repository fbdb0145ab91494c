"""Primero as an OpenSpiel game: importing this module registers ``python_primero``.

>>> import pyspiel
>>> import primero.research.openspiel
>>> game = pyspiel.load_game("python_primero", {"players": 5, "stack": 20})
>>> game.num_players(), game.num_distinct_actions()
(5, 62)

One OpenSpiel game is one hand (R4) between ``players`` seats p1…pN (OpenSpiel player
``i`` is seat p(i+1): p1 acts first, the last player deals), each starting with ``stack``
chips. Parameters (all optional):

========================  =========  ========================================================
parameter                 default    meaning
========================  =========  ========================================================
players                   4          seats, 2..8 (R3)
stack                     100        starting chips of every seat (>= 1)
stacks                    ""         or one starting stack per seat, "100 40 25" (p1
                                     first), as in a match (R9); ids cover the largest
(each rule)               (its)      every house rule of :class:`primero.Rules` (rules.md's
                                     table "House rules"), by its name, with its default;
                                     ``max_raises`` -1 means no cap
max_void_deals            20         the hand stops, everyone getting their ante back
                                     (returns 0, ``state.truncated`` True), at this many
                                     void deals (R4.3 allows any number; OpenSpiel needs a
                                     finite game)
preset                    ""         "mini": Mini-Primero (:mod:`primero.research.mini`),
                                     a variant small enough for CFR; fixes the others
actions                   "full"     or "abstract": 32 ids, bets and raises as pot
                                     fractions (:mod:`primero.research.abstraction`)
========================  =========  ========================================================

Chance: the dealer deals one card at a time; an outcome is a card id (``primero.DECK``)
drawn uniformly from the cards that may be dealt: the stock, and when the stock runs out
(R8b) first every stock card, then the reshuffled discards other than the ones the
receiving seat has just thrown. Player actions use the ids of :mod:`primero.research.actionids`.
Returns are chips won or lost in the hand (final minus starting stack). Observations and
information states are built from :func:`primero.view` (R9b) by :mod:`primero.research.features`:
the information-state string is the seat's record of the hand so far (perfect recall),
the cards of each line in deck order (one state whatever order they were dealt in);
the observation tensor is :func:`primero.research.features.observation_vector`, the
information-state tensor :func:`primero.research.features.infostate_vector` (the same followed by
every public record line, the seat's own cards line by line and the outcome: perfect
recall, one tensor per information state). Observers of the public information only or
of the seat's own cards only exist too (:mod:`primero.research.openspiel.observer`).

A perfect-information algorithm (OpenSpiel's ``MCTSBot``...) run on the game reads
hidden cards through copies of the real hand: the first time, a
:class:`HiddenInformationWarning` says so (:meth:`PrimeroState.chance_outcomes`).
"""

from __future__ import annotations

import pyspiel

from primero.research.build import warn_if_pure
from primero.research.openspiel.bots import ViewBot
from primero.research.openspiel.game import (
    DEFAULT_PARAMS,
    HiddenInformationWarning,
    PrimeroGame,
    PrimeroState,
    game_type,
    rules_of,
)
from primero.research.openspiel.observer import PrimeroObserver

__all__ = [
    "DEFAULT_PARAMS",
    "HiddenInformationWarning",
    "PrimeroGame",
    "PrimeroObserver",
    "PrimeroState",
    "ViewBot",
    "game_type",
    "rules_of",
]

pyspiel.register_game(game_type(), PrimeroGame)

warn_if_pure()  # once a process: the pure-Python build is 2 to 3 times slower
