"""A person's session at the table, summed up on leaving (R7, R9).

:class:`SessionSummary` is fed the person's view of each finished hand (R9b) and says
how the session went: hands played, hands won, the biggest pot won, and the chips
gained or lost over the session.

>>> s = SessionSummary(start_chips=100)
>>> s.lines(100)
['This session: 0 hands played', 'Your chips over the session: 100 → 100 (+0)']
"""

from __future__ import annotations

from dataclasses import dataclass

from primero.engine.views import SeatView
from primero.play.tablemodel.sentences import won_awards

__all__ = ["SessionSummary"]


@dataclass(slots=True)
class SessionSummary:
    """Counts over the hands a person finished in one session.

    Attributes:
        start_chips: the person's chips when the session began (a resumed match: the
            chips at the resume).
        hands_played: finished hands the person was dealt into.
        hands_won: of those, hands in which the person won at least one pot (all or a
            share of it; R7). Chips of the person's own bet that nobody called come
            back to them: that is not a pot won
            (:func:`~primero.play.tablemodel.sentences.won_awards`).
        biggest_pot: the largest pot, in chips, the person won all or part of (0: none),
            uncalled chips not counted.
        new_match: the person left asking for a new match (``n`` once out of chips or
            at the match's end).
    """

    start_chips: int
    hands_played: int = 0
    hands_won: int = 0
    biggest_pot: int = 0
    new_match: bool = False

    def add(self, view: SeatView) -> None:
        """Count a finished hand as the person saw it.

        Args:
            view: the person's view of a complete hand (``final_stacks`` set); a
                spectator's view (seat None) is not counted.

        Raises:
            ValueError: the hand is not over.
        """
        if view.final_stacks is None:
            raise ValueError("the hand is not over")
        seat = view.seat
        if seat is None:
            return
        self.hands_played += 1
        won = [a.pot.amount for a in won_awards(view) if seat in a.winners]
        if won:
            self.hands_won += 1
            self.biggest_pot = max(self.biggest_pot, *won)

    def lines(self, chips_now: int) -> list[str]:
        """The summary, one sentence a line.

        Args:
            chips_now: the person's chips now.

        Returns:
            e.g. ``["This session: 5 hands played, 2 won, biggest pot won 14 chips",
            "Your chips over the session: 100 → 112 (+12)"]``.
        """
        n = self.hands_played
        first = f"This session: {n} hand{'' if n == 1 else 's'} played"
        if n:
            first += f", {self.hands_won} won"
            if self.biggest_pot:
                chips = "chip" if self.biggest_pot == 1 else "chips"
                first += f", biggest pot won {self.biggest_pot} {chips}"
        delta = chips_now - self.start_chips
        return [
            first,
            f"Your chips over the session: {self.start_chips} → {chips_now} ({delta:+d})",
        ]
