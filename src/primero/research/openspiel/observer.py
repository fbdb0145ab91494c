"""OpenSpiel's observer for ``python_primero``: strings and tensors from one seat's
:func:`primero.view` (R9b), through :mod:`primero.research.features`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pyspiel

from primero.engine.actions import Deal
from primero.engine.views import redact, view
from primero.research.features import (
    infostate_size,
    infostate_string,
    infostate_vector,
    observation_size,
    observation_string,
    observation_vector,
)

if TYPE_CHECKING:
    from primero.research.openspiel.game import PrimeroState

__all__ = ["PrimeroObserver"]


class PrimeroObserver:
    """OpenSpiel's observer for ``python_primero``: strings and tensors from a seat's view.

    Args:
        iig_obs_type: ``perfect_recall=True`` gives the information state (the record as
            the seat saw it), else the observation of the moment. Only the seat's own
            private information with the public information is supported.
        params: observer parameters: none are supported.
        players, stack: the game's seats and starting stack (chips).

    Raises:
        ValueError: observer parameters, or an observation type without public
            information or with other seats' private information.
    """

    def __init__(
        self,
        iig_obs_type: pyspiel.IIGObservationType,
        params: dict[str, Any] | None,
        *,
        players: int,
        stack: int,
    ) -> None:
        if params:
            raise ValueError(f"python_primero observers take no parameters, got {params}")
        if (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError(
                "python_primero observers show one seat's view (R9b): the public information "
                "and that seat's own cards (public_info=True, private_info=SINGLE_PLAYER)"
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.stack = stack
        size = infostate_size(players) if self.perfect_recall else observation_size(players)
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, dtype=np.float32)
        obs = observation_size(players)
        self.dict = {"observation": self.tensor[:obs]}
        if self.perfect_recall:
            self.dict["history"] = self.tensor[obs:].reshape(16 * players, players + 15)

    def set_from(self, state: PrimeroState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation (or information state) of
        ``state``."""
        v = view(state.hand, player)
        encode = infostate_vector if self.perfect_recall else observation_vector
        self.tensor[:] = encode(v, max_stack=self.stack)

    def string_from(self, state: PrimeroState, player: int) -> str:
        """``player``'s information state (perfect recall) or observation, as a string."""
        v = view(state.hand, player)
        text = infostate_string(v) if self.perfect_recall else observation_string(v)
        table = state._table
        if table.pending:  # a deal under way: its line as this seat may see it (R9b)
            due = table.hand.deal_due()
            assert due is not None
            cards = tuple(sorted(table.pending, key=lambda c: c.id))
            text += "; dealing " + redact(Deal(due[0], cards), player).removeprefix("d dh ")
        return text
