"""People coming and going at a table: sitting out, leaving, being away, rebuying (R9).

docs/protocol.md "The match with people coming and going" as an I/O-free match:

- a seat is *dealt in* when it holds chips, is not sitting out and has not left;
- a seat that has *left* counts for nothing in R9: the match ends when one seat that has
  not left holds every chip among those that have not left (or after ``max_hands``);
- at a ``rebuy`` table a broke person is not out (they may rebuy): the match ends only by
  ``max_hands``, by the host (:meth:`TableMatch.end`), or when every person has left; a
  broke bot is out (bots never rebuy);
- with fewer than two seats dealt in, no hand starts (:meth:`TableMatch.can_deal`: the
  table is paused by the players until a seat can play again).

:meth:`Match.start_hand` is the one start of a hand; :meth:`TableMatch.dealable` is what
this class changes in it.

What happens at the end of a hand (:meth:`TableMatch.finish_hand`): a seat that asked to
leave during it is now ``left``; a person whose turns the timer played twice in a row, or
who is away, is sat out; a rebuy asked during the hand is made (dropped if the seat then
holds at least the stack).

>>> m = TableMatch(["Ana", "Ben", "Cleo", "Dev"], people={0, 1}, stacks=100)
>>> m.presence[1].left = True
>>> m.over, m.can_deal(), m.dealt_in()
(False, True, [0, 2, 3])
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from primero.engine.errors import PrimeroError
from primero.engine.history import HandRecord
from primero.engine.match import Match, NotDealableError
from primero.engine.rules import DEFAULT_RULES, Rules

__all__ = ["NotDealableError", "SeatPresence", "TableMatch"]

#: Timer moves in a row after which a person is sat out at the end of the hand.
TIMEOUTS_TO_SIT_OUT = 2


@dataclass(slots=True)
class SeatPresence:
    """Whether a seat plays, and its ledger.

    Attributes:
        sitting_out: not dealt in from the next hand on (keeps its chips, pays no ante).
        left: gave the seat up: out of the match with its chips (its ledger stays).
        leaving: asked to leave during a hand it is dealt in: the timer's least committal
            move is made at each of its turns, and it is ``left`` when the hand ends.
        away: the server saw no connection for ``--away-seconds``: sat out when the hand
            ends (with no timer, its moves are made for it meanwhile).
        timeouts: the person's turns the timer played in a row.
        rebuy_due: a rebuy asked during a hand the seat is dealt in: made when it ends.
        bought_in: the stack at joining plus what every rebuy and top-up added (chips).
        stand_in: the kind of the bot that plays a sitting-out person's seat for them
            (dealt in with the seat's chips; the seat and ledger stay theirs), or None.
    """

    sitting_out: bool = False
    left: bool = False
    leaving: bool = False
    away: bool = False
    timeouts: int = 0
    rebuy_due: bool = False
    bought_in: int = 0
    stand_in: str | None = None


class TableMatch(Match):
    """A :class:`~primero.engine.match.Match` whose seats may sit out, leave and rebuy.

    Args:
        players: as :class:`Match`.
        people: the table indices played by people (the others are bots).
        stacks: as :class:`Match`; also the rebuy amount (the table's ``stack``).
        rules: as :class:`Match`.
        max_hands: as :class:`Match`.
        seed: as :class:`Match`.
        rebuy: whether a broke person may rebuy (docs/protocol.md ``rebuy``).

    Raises:
        RulesError: as :class:`Match`.
    """

    def __init__(
        self,
        players: Sequence[str],
        *,
        people: Collection[int],
        stacks: int | Sequence[int] = 100,
        rules: Rules = DEFAULT_RULES,
        max_hands: int | None = None,
        seed: int | None = None,
        rebuy: bool = False,
    ) -> None:
        super().__init__(players, stacks=stacks, rules=rules, max_hands=max_hands, seed=seed)
        self.people = set(people)
        self.rebuy = rebuy
        self.stack = stacks if isinstance(stacks, int) else max(stacks)
        self.presence = [SeatPresence(bought_in=c) for c in self.chips]
        self.ended = False

    # ----------------------------------------------------------------- who plays

    def dealable(self, index: int) -> bool:
        """Whether table ``index`` would be dealt in the next hand: chips, and playing
        (not sitting out, or a stand-in plays for them) and not left (the hook of
        :meth:`Match.start_hand`)."""
        p = self.presence[index]
        playing = not p.sitting_out or p.stand_in is not None  # a stand-in plays for them
        return self.chips[index] > 0 and playing and not p.left

    @property
    def over(self) -> bool:
        """Whether the match is over (R9 with left seats; see the module doc)."""
        if self.ended:
            return True
        if self.max_hands is not None and self.hands_played >= self.max_hands:
            return True
        staying = [i for i in range(len(self.players)) if not self.presence[i].left]
        if self.people and not any(i in self.people for i in staying):
            return True  # every person has left
        if self.rebuy:
            return False
        holders = [i for i in staying if self.chips[i] > 0]
        return len(holders) <= 1

    def end(self) -> None:
        """The host ends the match (after the hand in progress, if any)."""
        self.ended = True

    def in_match(self) -> list[int]:
        """Table indices of the seats still in the match (chips, or a person who may
        rebuy; not left)."""
        return [
            i
            for i, c in enumerate(self.chips)
            if not self.presence[i].left and (c > 0 or (self.rebuy and i in self.people))
        ]

    # ----------------------------------------------------------------- hands

    def finish_hand(self) -> HandRecord:
        """Close the hand (:meth:`Match.finish_hand`), then leaving seats leave, away or
        twice-timed-out people sit out, and rebuys asked during the hand are made.

        Raises:
            PrimeroError: there is no finished hand to close.
        """
        record = super().finish_hand()
        for i, p in enumerate(self.presence):
            if p.leaving:
                p.leaving, p.left = False, True
            if i in self.people and not p.left and (p.away or p.timeouts >= TIMEOUTS_TO_SIT_OUT):
                p.sitting_out = True
            if p.rebuy_due:
                p.rebuy_due = False
                self._top_up(i)
            if p.stand_in is not None and (p.left or not p.sitting_out):
                p.stand_in = None  # back in: the seat is theirs again from the next hand
        return record

    def in_hand(self, index: int) -> bool:
        """Whether table ``index`` is dealt in the hand in progress (not yet complete)."""
        return self.hand is not None and not self.hand.complete and index in self.seats

    # ----------------------------------------------------------------- requests

    def broke(self, index: int) -> bool:
        """Whether table ``index`` is out of chips: none, and in no hand in progress (a
        seat all in during a hand may still win: it is not broke yet)."""
        return self.chips[index] == 0 and not self.in_hand(index)

    def sit_out(self, index: int) -> None:
        """From the next hand on, table ``index`` is not dealt in.

        Raises:
            PrimeroError: the seat has left, or is out of chips (it is dealt in no hand
                anyway: docs/protocol.md gives it rebuy where the table allows it, watch, leave).
        """
        self._not_left(index)
        if self.broke(index):
            if self.rebuy and index in self.people:
                raise PrimeroError(
                    "you are out of chips, so there is nothing to sit out: rebuy to play on, "
                    "or leave"
                )
            raise PrimeroError(
                "you are out of chips and out of the match, so there is nothing to sit out: "
                "you may watch or leave"
            )
        self.presence[index].sitting_out = True

    def stand_in_for(self, index: int, kind: str) -> None:
        """A bot of ``kind`` plays sitting-out person ``index`` (docs/protocol.md "REST: the
        lobby"): the seat is dealt in again, its chips and ledger unchanged; the stand-in
        plays from now on (the rest of a hand in progress too) until :meth:`sit_in`.

        Raises:
            PrimeroError: not a person's seat, a seat that left, one that does not sit
                out, or one that already has a stand-in.
        """
        if index not in self.people:
            raise PrimeroError("that seat is not a person's")
        self._not_left(index)
        p = self.presence[index]
        if p.stand_in is not None:
            raise PrimeroError(f"a {p.stand_in} bot already plays for {self.players[index]}")
        if not p.sitting_out:
            raise PrimeroError(
                f"{self.players[index]} is playing: a bot may play for a person who sits out"
            )
        p.stand_in = kind

    def sit_in(self, index: int) -> None:
        """From the next hand on, table ``index`` is dealt in again (back from away too);
        a stand-in plays the hand in progress to its end, none at once between hands.

        Raises:
            PrimeroError: the seat has left.
        """
        self._not_left(index)
        p = self.presence[index]
        p.sitting_out = p.away = False
        p.timeouts = 0
        if not self.in_hand(index):
            p.stand_in = None  # else the stand-in plays this hand to its end

    def leave(self, index: int) -> bool:
        """Table ``index`` gives the seat up: at once when it is in no hand in progress,
        else when that hand ends (its moves made by the timer's rule meanwhile).

        Returns:
            True when the seat has left at once, False when it leaves at the hand's end.

        Raises:
            PrimeroError: the seat has already left.
        """
        self._not_left(index)
        p = self.presence[index]
        if self.in_hand(index):
            p.leaving = True
            return False
        p.left = True
        return True

    def ask_rebuy(self, index: int) -> bool:
        """A person's rebuy (broke) or top-up (below the stack) to the table's stack; the
        seat is dealt in from the next hand (a seat sitting out sits in: docs/protocol.md).

        Returns:
            True when made at once, False when due at the end of the hand in progress.

        Raises:
            PrimeroError: not a rebuy table, a bot, a seat that left, or a seat holding at
                least the stack (the message says which).
        """
        if not self.rebuy:
            raise PrimeroError("this table has no rebuys")
        if index not in self.people:
            raise PrimeroError("bots never rebuy")
        self._not_left(index)
        if self.holding(index) >= self.stack:
            raise PrimeroError(f"you already hold at least the stack of {self.stack} chips")
        p = self.presence[index]
        p.sitting_out = p.away = False  # dealt in from the next hand (docs/protocol.md "Presence")
        p.timeouts = 0
        if not self.in_hand(index):
            p.stand_in = None
        if self.in_hand(index):
            self.presence[index].rebuy_due = True
            return False
        self._top_up(index)
        return True

    def holding(self, index: int) -> int:
        """The chips table ``index`` holds now (in front of it in a hand in progress)."""
        if self.in_hand(index) and self.hand is not None:
            return int(self.hand.stacks[self.seats.index(index)])
        return self.chips[index]

    def _top_up(self, index: int) -> None:
        missing = self.stack - self.chips[index]
        if missing > 0:
            self.chips[index] += missing
            self.presence[index].bought_in += missing

    def _not_left(self, index: int) -> None:
        if self.presence[index].left or self.presence[index].leaving:
            raise PrimeroError("you have left this table: you may watch and chat")
