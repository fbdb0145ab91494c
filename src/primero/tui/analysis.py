"""After-hand analysis: at each exchange decision of one seat, the exact odds of every
choice from that seat's view only, and whether the choice made was the one they favour.

A decision is every turn of the seat where an exchange was allowed (R4.3, R4.6): in the
first round, betting instead keeps both cards (the odds' "keep both"); in the second
exchange, standing pat keeps all four. The odds come from :func:`primero.engine.odds.exchange_odds`
fed with the seat's own cards and own discards as its view held them then (R9b).
"""

from __future__ import annotations

from dataclasses import dataclass

from primero.engine.actions import Exchange, parse_action
from primero.engine.cards import Card
from primero.engine.odds import ExchangeChoice, ExchangeOdds, exchange_odds
from primero.engine.state import Phase
from primero.tui.hints import same_choice
from primero.tui.watchmodel import WatchModel

__all__ = ["ExchangeDecision", "exchange_decisions"]


@dataclass(frozen=True, slots=True)
class ExchangeDecision:
    """One exchange decision of a seat and its odds.

    Attributes:
        step: the step of :class:`~primero.tui.watchmodel.WatchModel` where the seat
            decided (the hand before its move); the move is record line ``step``
            (0-based), leading to step ``step + 1``.
        phase: the first round (R4.3) or the second exchange (R4.6).
        hand: the seat's cards then.
        dead: the seat's own discards then (the only dead cards it knows).
        odds: the exact odds of every choice.
        chosen: the cards the seat threw (empty: kept them all, by betting in the first
            round or standing pat).
        move: the record line of the move.
    """

    step: int
    phase: Phase
    hand: tuple[Card, ...]
    dead: tuple[Card, ...]
    odds: ExchangeOdds
    chosen: tuple[Card, ...]
    move: str

    @property
    def chosen_choice(self) -> ExchangeChoice:
        """The odds' entry for the choice made."""
        return next(c for c in self.odds.choices if same_choice(c, self.chosen))

    @property
    def agrees(self) -> bool:
        """Whether the choice made is the one the odds favour
        (:data:`primero.engine.odds.CRITERION`)."""
        return same_choice(self.odds.best, self.chosen)

    @property
    def cost(self) -> float:
        """How much score (0..1) the choice made gave up against the best one."""
        return self.odds.best.score - self.chosen_choice.score


def exchange_decisions(model: WatchModel, seat: int | None = None) -> list[ExchangeDecision]:
    """Every exchange decision of ``seat`` in the recorded hand, with its odds.

    Args:
        model: the replayed hand.
        seat: the 0-based seat (default the model's watched seat).

    Returns:
        The decisions in the order they happened; each one's odds use only what that
        seat's view held at that moment (R9b).
    """
    who = model.seat if seat is None else seat
    out: list[ExchangeDecision] = []
    for step in range(model.steps):
        v = model.view(step, who)
        legal = v.legal
        if legal is None or not legal.exchange or legal.vote or len(v.hand) not in (2, 4):
            continue
        line = model.line(step + 1)
        action = parse_action(line, v.n)
        chosen = action.cards if isinstance(action, Exchange) else ()
        out.append(
            ExchangeDecision(
                step=step,
                phase=v.phase,
                hand=v.hand,
                dead=v.discards,
                odds=exchange_odds(v.hand, v.discards),
                chosen=chosen,
                move=line,
            )
        )
    return out
