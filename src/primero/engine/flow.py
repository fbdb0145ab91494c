"""The hand's flow, written once: the phase transitions of one hand of Primero (R4–R8).

Why it exists: the checked engine (:class:`~primero.engine.state.HandState`) and the
flat research stepper (:class:`~primero.research.stepper.Stepper`, which OpenSpiel,
PettingZoo and Gymnasium run) each wrote the same transitions: the ante, the deals due,
the first round with its exchanges and void deal, the votes on a bet, the declare round,
the second exchange, the last round and the end of the hand. :class:`HandFlow` holds the
state those transitions read and write as flat ints, bools and lists (seats, chips, -1
for "none") and makes them; both classes are subclasses of it and add only their cards
(``Card`` objects in the engine, card ids in the stepper) through four hooks:
:meth:`HandFlow._muck` (a fold), :meth:`HandFlow._collect` (a void deal takes every card
back), :meth:`HandFlow._settle` (the showdown or the uncontested award) and the
card bookkeeping of a deal or an exchange before :meth:`HandFlow._dealt` and
:meth:`HandFlow._exchanged`.

The flat state is the core and ``HandState`` a checked façade over it (its ``phase``,
``turn``, ``current_bet``, ``cap`` and ``vote`` read these fields), because the flat
form is what the compiled stepper needs to stay fast (no boxed ``None`` or enum in the
hot path) and reads as well from the engine. The random-playout kernel
(:mod:`primero.research.fastsim`) keeps its own loop over local variables: it shares
the rulebook, the phase numbers and the pots, not these methods (docs/performance.md).

Every rule itself (turn order, who votes, the void deal's condition) comes from
:mod:`primero.engine.rulebook`. Compiled by mypyc in a wheel build (``setup.py``).
"""

from __future__ import annotations

from typing import Final

from primero.engine.rulebook import (
    able_to_bet,
    next_exchanger,
    next_in_seat_order,
    next_to_act,
    voted,
    voters,
)
from primero.engine.rules import Rules

__all__ = [
    "COMPLETE",
    "DECLARE_ROUND",
    "FIRST_DEAL",
    "FIRST_ROUND",
    "FLOW_FIELDS",
    "LAST_ROUND",
    "NONE",
    "SECOND_DEAL",
    "SECOND_EXCHANGE",
    "HandFlow",
]

# The phases (R4), in the order of :class:`primero.engine.state.Phase` (and of the
# observation's one-hot, :mod:`primero.research.features`).
FIRST_DEAL: Final = 0
FIRST_ROUND: Final = 1
SECOND_DEAL: Final = 2
DECLARE_ROUND: Final = 3
SECOND_EXCHANGE: Final = 4
LAST_ROUND: Final = 5
COMPLETE: Final = 6
#: "none" in a seat or chips field: no seat to act, no bet open, no cap, no vote.
NONE: Final = -1
#: The fields of a :class:`HandFlow` that change during a hand (all but ``n`` and
#: ``rules``), as :meth:`HandFlow.copy_flow_into` copies them; a subclass's pickling
#: lists them from here.
FLOW_FIELDS: Final = (
    "stacks",
    "contributed",
    "round_bets",
    "folded",
    "acted",
    "stage",
    "current",
    "raises",
    "cap_below",
    "turn_seat",
    "vote_bettor",
    "vote_amount",
    "vote_raise",
    "vote_voters",
    "vote_index",
    "due",
    "void_deals",
)


class HandFlow:
    """The flow of one hand as flat state, and its transitions (R4–R8).

    Args:
        stacks: each seat's chips before the ante, p1 first (checked by the subclass).
        rules: the house rules.

    The ante is taken at once (R4.1) and the first deal queued. Subclasses add the
    cards; everything here is read by them and by the views, never set from outside.

    Attributes:
        n, rules: the number of seats and the house rules.
        stacks, contributed, round_bets, folded, acted: per seat (chips; R5, R7).
        stage: the phase, one of this module's phase numbers.
        current: the round's bet to match, :data:`NONE` when no bet is open.
        raises: raises made in this round (R5).
        cap_below: after a refusal, amounts of the bettor stay below this (R8); NONE.
        turn_seat: the seat whose turn it is in a round or exchange, NONE between.
        vote_bettor, vote_amount, vote_raise, vote_voters, vote_index: the bet under
            vote (R8), ``vote_bettor`` NONE when none is.
        due: the deals owed, ``(seat, cards)`` each, first due first (R4.2, R4.4).
        void_deals: deals voided so far (R4.3).
    """

    def __init__(self, stacks: list[int] | tuple[int, ...], rules: Rules) -> None:
        n = len(stacks)
        self.n = n
        self.rules = rules
        self.stacks: list[int] = list(stacks)
        self.contributed: list[int] = [0] * n
        self.round_bets: list[int] = [0] * n
        self.folded: list[bool] = [False] * n
        self.acted: list[bool] = [False] * n
        self.stage = FIRST_DEAL
        self.current = NONE
        self.raises = 0
        self.cap_below = NONE
        self.turn_seat = NONE
        self.vote_bettor = NONE
        self.vote_amount = 0
        self.vote_raise = False
        self.vote_voters: tuple[int, ...] = ()
        self.vote_index = 0
        self.due: list[tuple[int, int]] = []
        self.void_deals = 0
        ante = rules.ante
        for s in range(n):  # R4.1 ante: all of it when short
            chips = ante if self.stacks[s] > ante else self.stacks[s]
            self.stacks[s] -= chips
            self.contributed[s] = chips
        self._queue_deal(2)

    def copy_flow_into(self, other: HandFlow) -> None:
        """Set every field of :data:`FLOW_FIELDS` in ``other`` (a copy: lists copied;
        written out, not looped over, for the speed of OpenSpiel's clones)."""
        other.stacks = list(self.stacks)
        other.contributed = list(self.contributed)
        other.round_bets = list(self.round_bets)
        other.folded = list(self.folded)
        other.acted = list(self.acted)
        other.stage = self.stage
        other.current = self.current
        other.raises = self.raises
        other.cap_below = self.cap_below
        other.turn_seat = self.turn_seat
        other.vote_bettor = self.vote_bettor
        other.vote_amount = self.vote_amount
        other.vote_raise = self.vote_raise
        other.vote_voters = self.vote_voters
        other.vote_index = self.vote_index
        other.due = list(self.due)
        other.void_deals = self.void_deals

    def seat_to_act(self) -> int:
        """The seat to act, -1 when a deal is due, -2 once the hand is complete."""
        if self.stage == COMPLETE:
            return -2
        if self.due:
            return -1
        if self.vote_bettor >= 0:
            return self.vote_voters[self.vote_index]
        return self.turn_seat

    # ------------------------------------------------------------- the hooks

    def _muck(self, seat: int) -> None:
        """``seat`` folded: its cards leave play (R8b)."""
        raise NotImplementedError

    def _collect(self) -> None:
        """A void deal: every card back into the stock (R4.3)."""
        raise NotImplementedError

    def _settle(self) -> None:
        """The hand is over: award every pot (R4.8, R7)."""
        raise NotImplementedError

    # ------------------------------------------------------------- moves

    def _put_in(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.round_bets[seat] += chips
        self.contributed[seat] += chips

    def _bet(self, seat: int, amount: int, is_raise: bool) -> None:
        """``seat`` bets or raises to ``amount``: to a vote (R8) or standing (R5)."""
        if voted(amount, self.rules.refusal, self.n - self.folded.count(True)):
            self.vote_bettor = seat
            self.vote_amount = amount
            self.vote_raise = is_raise
            self.vote_voters = voters(seat, self.folded)
            self.vote_index = 0
        else:
            self._bet_stands(seat, amount, is_raise)

    def _call(self, seat: int) -> None:
        """``seat`` calls (a check when nothing is owed; all-in for less when short, R5)."""
        chips = self.current - self.round_bets[seat]
        if chips > self.stacks[seat]:
            chips = self.stacks[seat]
        self._put_in(seat, chips)
        self.acted[seat] = True
        self._next_turn(seat)

    def _fold(self, seat: int) -> None:
        """``seat`` folds; the last player still in takes every pot (R4.8)."""
        self.folded[seat] = True
        self._muck(seat)
        if self.folded.count(False) == 1:
            self._finish()
        else:
            self._next_turn(seat)

    def _vote(self, accept: bool) -> None:
        """The voter due accepts or refuses the bet under vote (R8)."""
        if accept:
            bettor = self.vote_bettor
            self.vote_bettor = NONE
            self._bet_stands(bettor, self.vote_amount, self.vote_raise)
            return
        self.vote_index += 1
        if self.vote_index == len(self.vote_voters):  # R8: refused by all, withdrawn
            self.turn_seat = self.vote_bettor
            self.vote_bettor = NONE
            self.cap_below = self.vote_amount

    def _queue_deal(self, count: int) -> None:
        """Owe ``count`` cards to each player still in, in seat order (R4.2, R4.4)."""
        self.stage = FIRST_DEAL if self.stage == FIRST_DEAL else SECOND_DEAL
        folded = self.folded
        self.due = [(s, count) for s in range(self.n) if not folded[s]]

    def _dealt(self, seat: int) -> None:
        """The line due to ``seat`` was dealt (its cards placed by the subclass)."""
        self.due.pop(0)
        if self.due:
            return
        if self.stage == FIRST_DEAL:
            self.stage = FIRST_ROUND
            self._start_round()
        elif self.stage == SECOND_DEAL:
            self.stage = DECLARE_ROUND
            self._start_round()
        else:  # the replacement deal after an exchange
            self._after_exchange(seat)

    def _exchanged(self, seat: int, count: int) -> None:
        """``seat`` threw ``count`` cards (placed by the subclass): as many are dealt to
        it, or the exchange is over when it stood pat (R4.3, R4.6)."""
        self.cap_below = NONE
        if count:
            self.due = [(seat, count)]
        else:
            self._after_exchange(seat)

    # ------------------------------------------------------------- transitions

    def _after_exchange(self, seat: int) -> None:
        if self.stage == FIRST_ROUND:
            self.acted[seat] = True
            nxt = next_exchanger(seat, self.folded, self.stacks, self.acted)
            if nxt is None:
                self._void_deal()
            else:
                self.turn_seat = nxt
        else:  # the second exchange: every player still in, in seat order (R4.6)
            nxt = next_in_seat_order(seat, self.folded)
            if nxt is None:
                self.stage = LAST_ROUND
                if self.rules.last_round:
                    self._start_round()
                else:
                    self._finish()
            else:
                self.turn_seat = nxt

    def _void_deal(self) -> None:
        """R4.3: every player exchanged and no bet stands: all cards back, deal again
        (the antes stay in the pot)."""
        self.void_deals += 1
        self._collect()
        self.stage = FIRST_DEAL
        self.turn_seat = NONE
        self._queue_deal(2)

    def _start_round(self) -> None:
        """Begin a betting round (R5), or skip it when fewer than two can bet."""
        n = self.n
        self.round_bets = [0] * n
        self.acted = [False] * n
        self.current = NONE
        self.raises = 0
        self.cap_below = NONE
        able = able_to_bet(self.folded, self.stacks)
        if len(able) < 2:  # R5: the round is skipped
            self._end_round()
        else:
            self.turn_seat = able[0]

    def _bet_stands(self, seat: int, amount: int, is_raise: bool) -> None:
        if is_raise:
            self.raises += 1
        self._put_in(seat, amount - self.round_bets[seat])
        self.current = amount
        self.acted = [False] * self.n
        self.acted[seat] = True
        self.cap_below = NONE
        self._next_turn(seat)

    def _next_turn(self, seat: int) -> None:
        """Pass the turn in a betting round, or end the round (R5)."""
        self.cap_below = NONE
        nxt = next_to_act(
            seat,
            self.folded,
            self.stacks,
            self.acted,
            self.round_bets,
            self.current if self.current >= 0 else 0,
        )
        if nxt is None:
            self._end_round()
        else:
            self.turn_seat = nxt

    def _end_round(self) -> None:
        self.turn_seat = NONE
        self.current = NONE  # no bet to match between rounds
        self.round_bets = [0] * self.n
        if self.stage == FIRST_ROUND:
            self._queue_deal(2)
        elif self.stage == DECLARE_ROUND:  # R4.6: the second exchange, from p1's side
            self.stage = SECOND_EXCHANGE
            self.turn_seat = self.folded.index(False)
        else:
            self._finish()

    def _finish(self) -> None:
        """Close the hand and award every pot (R4.8, R7)."""
        self.stage = COMPLETE
        self.turn_seat = NONE
        self.vote_bettor = NONE
        self.due = []
        self._settle()
