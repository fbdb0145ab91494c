"""OpenSpiel's observer for ``python_primero``: strings and tensors from one seat's
:func:`primero.view` (R9b), or from the public view (``view(hand, None)``: what every seat
sees), through :mod:`primero.research.features`.

The observation types follow OpenSpiel's ``IIGObservationType`` as its own Python games
do (``kuhn_poker.py``): the tensor is made of named pieces, each there or not by the type,
``player`` always first.

==================  ==================================  ===================================
piece               when                                what
==================  ==================================  ===================================
``player``          always                              the seat observed, one-hot (n)
``state``           ``public_info``                     phase (7), my move, my vote, a bet
                                                        is open, the hand is over
``private``         ``private_info=SINGLE_PLAYER``      my cards, my discards (40 each),
                                                        my category and points (6)
``table``           ``public_info``                     per seat and table blocks
                                                        (:mod:`~primero.research.features`)
``history``         ``public_info``, perfect recall     every public record line
``private_history`` ``SINGLE_PLAYER``, perfect recall   my own deal and exchange lines
``outcome``         ``public_info``, perfect recall     shown cards, returns, winners,
                                                        stopped
==================  ==================================  ===================================

With both kinds of information the pieces are, in this order, exactly
:func:`~primero.research.features.observation_vector` (or
:func:`~primero.research.features.infostate_vector` with perfect recall) of the seat's
view. Without ``private_info`` they come from the public view (``view(hand, None)``), so
they are the same for every seat but ``player``, and the seat's own flags ("my move",
"my vote", "my cap") are 0.

The strings hold the same pieces: ``"p2 of 4"`` first, then the moment's parts (or the
record lines) of the type: public only, every card written ``??``; private only, the
seat's cards (and its own deal and exchange lines). A deal being drawn card by card is
added as ``"; dealing p1 7h"`` (``??`` for a card the observer may not see; a
private-only string shows only its own), and the information state of a finished hand
ends with its outcome (:func:`~primero.research.features.outcome_string`), or with
``"; stopped after 20 void deals: every return 0"`` when it was stopped (R4.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel

from primero.engine.actions import Deal
from primero.engine.cards import DECK, parse_cards
from primero.engine.views import SeatView, redact, view
from primero.research.features import (
    history_lines,
    history_vector,
    history_width,
    infostate_string,
    observation_size,
    observation_string,
    observation_vector,
    outcome_size,
    outcome_vector,
    private_history_vector,
    private_slots,
)

if TYPE_CHECKING:
    from primero.research.openspiel.game import PrimeroState

__all__ = ["PrimeroObserver"]

#: Entries of the ``state`` piece (phase one-hot and four flags) and of ``private``.
_STATE: Final = 7 + 4
_PRIVATE: Final = 40 + 40 + 6


class PrimeroObserver:
    """OpenSpiel's observer for ``python_primero``: strings and tensors from a seat's view
    or the public view (module docstring).

    Args:
        iig_obs_type: ``perfect_recall=True`` gives the information state (the record),
            else the observation of the moment; ``public_info`` adds what every seat
            sees; ``private_info=SINGLE_PLAYER`` adds the seat's own cards.
        params: observer parameters: none are supported.
        players, stack: the game's seats and largest starting stack (chips).
        max_void_deals: the game's (R4.3): the perfect-recall pieces' sizes follow it.

    Raises:
        ValueError: observer parameters, other seats' private information
            (``ALL_PLAYERS``: every hidden card, which no seat sees), or no information
            at all.

    Attributes:
        tensor: the float32 tensor; dict: its named pieces (views of ``tensor``).
    """

    def __init__(
        self,
        iig_obs_type: pyspiel.IIGObservationType,
        params: dict[str, Any] | None,
        *,
        players: int,
        stack: int,
        max_void_deals: int = 20,
    ) -> None:
        if params:
            raise ValueError(f"python_primero observers take no parameters, got {params}")
        private_info = iig_obs_type.private_info
        if private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "python_primero observers show what a seat may see (R9b): the public "
                "information, a seat's own cards or both, never every seat's cards "
                "(private_info=ALL_PLAYERS); state.hand has them, for analysis only"
            )
        self.public = bool(iig_obs_type.public_info)
        self.private = private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if not (self.public or self.private):
            raise ValueError(
                "python_primero observers need public_info=True or "
                "private_info=SINGLE_PLAYER: this type observes nothing"
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.players, self.stack, self.max_void_deals = players, stack, max_void_deals
        n = players
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))]
        if self.public:
            pieces.append(("state", (_STATE,)))
        if self.private:
            pieces.append(("private", (_PRIVATE,)))
        if self.public:
            pieces.append(("table", (observation_size(n) - n - _STATE - _PRIVATE,)))
        if self.perfect_recall:
            if self.public:
                pieces.append(("history", (history_lines(n, max_void_deals), history_width(n))))
            if self.private:
                pieces.append(("private_history", (private_slots(max_void_deals), len(DECK))))
            if self.public:
                pieces.append(("outcome", (outcome_size(n),)))
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, dtype=np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        index = 0
        for name, shape in pieces:
            length = int(np.prod(shape))
            self.dict[name] = self.tensor[index : index + length].reshape(shape)
            index += length

    def _view(self, state: PrimeroState, player: int) -> SeatView:
        """The seat's view, or the public view (no seat, R9b) for a public-only type."""
        return view(state.hand, player if self.private else None)

    def _dealing(self, state: PrimeroState, player: int) -> list[str] | None:
        """The words of the deal line being drawn card by card, as this observer may see
        it (R9b, through :func:`~primero.engine.views.redact`): ``["d", "dh", "p1",
        "7h"]`` or ``[..., "??"]``; None when no deal is under way."""
        table = state._table
        if not table.pending:
            return None
        due = table.hand.deal_due()
        assert due is not None
        cards = tuple(sorted(table.pending, key=lambda c: c.id))
        return redact(Deal(due[0], cards), player if self.private else None).split(" ")

    def set_from(self, state: PrimeroState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation (or information state) of
        ``state``, the pieces of the observation type only."""
        v = self._view(state, player)
        n, d = self.players, self.dict
        obs = observation_vector(v, max_stack=self.stack)
        if self.public and self.private and not self.perfect_recall:
            self.tensor[:] = obs  # every piece, in observation_vector's order
            return
        self.tensor.fill(0.0)
        d["player"][player] = 1.0
        if self.public:
            d["state"][:] = obs[n : n + _STATE]
            d["table"][:] = obs[n + _STATE + _PRIVATE :]
        if self.private:
            d["private"][:] = obs[n + _STATE : n + _STATE + _PRIVATE]
        if not self.perfect_recall:
            return
        words = self._dealing(state, player)
        if self.public:
            seen = None if words is None else (int(words[2][1:]) - 1, len(words) - 3)
            d["history"].reshape(-1)[:] = history_vector(
                v, max_stack=self.stack, max_void_deals=self.max_void_deals, dealing=seen
            )
            d["outcome"][:] = outcome_vector(v, max_stack=self.stack, truncated=state.truncated)
        if self.private:
            mine = () if words is None or "??" in words else parse_cards(" ".join(words[3:]))
            d["private_history"].reshape(-1)[:] = private_history_vector(
                v, max_void_deals=self.max_void_deals, dealing=tuple(mine)
            )

    def string_from(self, state: PrimeroState, player: int) -> str:
        """``player``'s information state (perfect recall) or observation, as a string of
        the pieces of the observation type (module docstring)."""
        v = self._view(state, player)
        public, private = self.public, self.private
        if self.perfect_recall:
            text = infostate_string(v, player=player, public=public, private=private)
        else:
            text = observation_string(v, player=player, public=public, private=private)
        words = self._dealing(state, player)
        if words is not None and (public or "??" not in words):
            text += "; dealing " + " ".join(words[2:])  # a deal under way (R9b)
        if self.perfect_recall and public and state.truncated:
            text += f"; stopped after {v.void_deals} void deals: every return 0"
        return text
