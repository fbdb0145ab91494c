"""External agents for the tournament tests (loaded by import path)."""

from __future__ import annotations

from typing import Any, ClassVar

from primero.engine.actions import Action, Call, Declare, Exchange, Fold, Vote
from primero.engine.views import SeatView


def passive(view: SeatView) -> Action:
    """Never bets: accepts every vote, folds to any bet, exchanges two cards when it may,
    declares its true category (R6), checks a bet of 0."""
    legal, me = view.legal, view.seat
    assert legal is not None and me is not None
    if legal.vote:
        return Vote(me, True)
    if legal.fold and view.to_call > 0:
        return Fold(me)
    if legal.declare:
        return Declare(me, legal.declare[0])
    if legal.exchange:
        count = max(legal.exchange)
        return Exchange(me, tuple(sorted(view.hand, key=lambda c: c.id)[:count]))
    if legal.call is not None:
        return Call(me)
    assert legal.bet is not None
    from primero.engine.actions import Bet

    return Bet(me, legal.bet[0])


class Passive:
    """:func:`passive` as a class taking a seed (instantiated once per hand)."""

    made: ClassVar[list[int]] = []

    def __init__(self, seed: int) -> None:
        Passive.made.append(seed)

    def __call__(self, view: SeatView) -> Action:
        return passive(view)


class Recorder:
    """Plays :func:`passive` and records every view it is given."""

    views: ClassVar[list[SeatView]] = []

    def __call__(self, view: SeatView) -> Action:
        Recorder.views.append(view)
        return passive(view)


def spiel_bot_class() -> Any:
    """A ``pyspiel.Bot`` subclass that records the states it is given and plays the
    first legal id that is not a fold (built on demand: pyspiel is optional)."""
    import pyspiel

    class FirstLegal(pyspiel.Bot):  # type: ignore[misc]
        states: ClassVar[list[Any]] = []

        def __init__(self, game: Any, seed: int) -> None:
            pyspiel.Bot.__init__(self)
            self.game = game
            self.seed = seed

        def step(self, state: Any) -> int:
            FirstLegal.states.append(state)
            legal = state.legal_actions()
            return int(legal[1] if len(legal) > 1 and legal[0] == 0 else legal[0])

        def restart_at(self, state: Any) -> None:
            return None

    return FirstLegal


try:
    FirstLegal = spiel_bot_class()
except ModuleNotFoundError:  # without the extra research: the tests that need it skip
    FirstLegal = None
