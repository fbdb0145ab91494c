"""A referee written from docs/rules.md alone: the test oracle of the property tests.

It follows a hand line by line (record lines, hand-history.md) with its own bookkeeping
and says, at every point, what the rules allow: who acts, which bet and raise amounts
(R5), which declarations (R6, from the evaluator), votes and their order (R8), which
cards a deal may and must hold (R8b, from the discards), and at the end the final
stacks (R7 pots and ties). It shares no code with ``primero.engine.state``,
``primero.engine.legal``,
``primero.engine.pots`` or ``primero.research.fastsim``: it only uses the card and evaluator modules
(R1, R2), the action values and their parser, and ``LegalActions`` as a plain record to
compare with. It is written for clarity, not speed, and checks nothing of its own: the
tests ask it what is legal and compare.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from primero.engine.actions import (
    Action,
    Bet,
    Call,
    Deal,
    Declare,
    Exchange,
    Fold,
    Raise,
    Vote,
)
from primero.engine.cards import DECK, Card
from primero.engine.hands import Category, HandValue, evaluate
from primero.engine.rules import Rules
from primero.engine.state import DEALER, LegalActions


class Comparable(Protocol):
    def __gt__(self, other: Any, /) -> bool: ...
    def __lt__(self, other: Any, /) -> bool: ...


FIRST_DEAL = "first deal"
FIRST_ROUND = "first round"
SECOND_DEAL = "second deal"
DECLARE_ROUND = "declare round"
SECOND_EXCHANGE = "second exchange"
LAST_ROUND = "last round"
OVER = "over"
BETTING = (FIRST_ROUND, DECLARE_ROUND, LAST_ROUND)


@dataclass
class PendingVote:
    """A bet or raise of more than 0 waiting for the others' votes (R8)."""

    bettor: int
    action: Bet | Raise
    voters: list[int]


class Referee:
    """One hand, as docs/rules.md tells it. ``stacks`` are before the ante (R4.1)."""

    def __init__(self, stacks: list[int], rules: Rules) -> None:
        n = self.n = len(stacks)
        self.rules = rules
        self.stacks = list(stacks)
        self.void_deals = 0
        self.final_stacks: list[int] | None = None
        self.round_bets = [0] * n
        self.acted = [False] * n
        self.current: int | None = None
        self.raises = 0
        self.cap: int | None = None
        self.contributed = [0] * n
        for s in range(n):  # R4.1: the ante, or all of a short stack
            chips = min(self.rules.ante, self.stacks[s])
            self.stacks[s] -= chips
            self.contributed[s] += chips
        self.folded = [False] * n
        self.declared = [False] * n
        self._redeal()

    # ------------------------------------------------------------------ cards (R4, R8b)

    def _redeal(self) -> None:
        """R4.2: a full shuffled deck, two cards to each player, p1 first."""
        self.hands: list[list[Card]] = [[] for _ in range(self.n)]
        self.stock: set[Card] = set(DECK)
        self.discards: list[Card] = []  # discarded since the last shuffle (R8b)
        self.thrown: tuple[Card, ...] = ()  # the cards of the exchange being served
        self.phase: str = FIRST_DEAL
        self.due: list[tuple[int, int]] = [(s, 2) for s in range(self.n) if not self.folded[s]]
        self.turn: int | None = None
        self.vote: PendingVote | None = None

    def deal_pools(self) -> tuple[set[Card], set[Card]]:
        """``(must, may)``: cards the due deal must include and may include (R8b)."""
        count = self.due[0][1]
        if len(self.stock) >= count:
            return set(), set(self.stock)
        again = {c for c in self.discards if c not in self.thrown}
        return set(self.stock), set(self.stock) | again

    def deal_is_legal(self, action: Deal) -> bool:
        if not self.due:
            return False
        seat, count = self.due[0]
        cards = set(action.cards)
        must, may = self.deal_pools()
        return (
            action.seat == seat
            and len(action.cards) == count == len(cards)
            and must <= cards <= may
        )

    # ------------------------------------------------------------------ what is legal

    def to_act(self) -> int | None:
        if self.phase == OVER:
            return None
        if self.due:
            return DEALER
        if self.vote is not None:
            return self.vote.voters[0]
        return self.turn

    def legal(self) -> LegalActions:
        """What the rules allow now, in the terms of :class:`LegalActions`."""
        if self.phase == OVER:
            return LegalActions(None)
        if self.due:
            return LegalActions(DEALER, deal=self.due[0][1])
        if self.vote is not None:
            return LegalActions(self.vote.voters[0], vote=True)
        seat = self.turn
        assert seat is not None
        if self.phase == SECOND_EXCHANGE:  # R4.6: zero, one or two cards
            return LegalActions(seat, exchange=(0, 1, 2))
        stack = self.stacks[seat]
        facing = self.current is not None
        if self.phase == DECLARE_ROUND and self.rules.declarations and not self.declared[seat]:
            held = evaluate(self.hands[seat]).category  # R6: the truth or higher
            return LegalActions(seat, declare=tuple(c for c in Category if c >= held), fold=facing)
        if self.current is None:  # R5 opening; R4.3 bet or exchange in the first round
            first = self.phase == FIRST_ROUND
            exchange: tuple[int, ...] = ()
            if first:
                exchange = (0, 1, 2) if self.rules.first_round_stand else (1, 2)
            low = 1 if first and not self.rules.first_round_zero_bet else 0
            high = stack if self.cap is None else min(stack, self.cap - 1)  # R8
            return LegalActions(seat, exchange=exchange, bet=(low, high) if low <= high else None)
        call = min(self.current - self.round_bets[seat], stack)  # all-in for less
        return LegalActions(seat, raise_to=self._raise_range(seat), call=call, fold=True)

    def _raise_range(self, seat: int) -> tuple[int, int] | None:
        assert self.current is not None
        if self.rules.max_raises is not None and self.raises >= self.rules.max_raises:
            return None  # R5 raise cap (refused raises do not count)
        others = [s for s in range(self.n) if s != seat and not self.folded[s]]
        if all(self.stacks[s] == 0 for s in others):
            return None  # R5: no raise when every other player still in is all-in
        low = self.current + self.rules.min_raise  # R5 minimum raise, no all-in for less
        high = self.round_bets[seat] + self.stacks[seat]
        if self.cap is not None:
            high = min(high, self.cap - 1)  # R8: strictly below the refused amount
        return (low, high) if low <= high else None

    def is_legal(self, action: Action) -> bool:
        """Whether the rules allow ``action`` now."""
        if self.phase == OVER:
            return False
        if isinstance(action, Deal):
            return self.deal_is_legal(action)
        legal = self.legal()
        if legal.seat in (None, DEALER) or action.seat != legal.seat:
            return False
        if isinstance(action, Vote):
            return legal.vote
        if legal.vote:
            return False
        if isinstance(action, Declare):
            return action.category in legal.declare
        if legal.declare:
            return isinstance(action, Fold) and legal.fold
        if isinstance(action, Exchange):
            held = self.hands[action.seat]
            return (
                len(action.cards) in legal.exchange
                and len(set(action.cards)) == len(action.cards)
                and all(c in held for c in action.cards)
            )
        if isinstance(action, Bet):
            return legal.bet is not None and legal.bet[0] <= action.amount <= legal.bet[1]
        if isinstance(action, Raise):
            r = legal.raise_to
            return r is not None and r[0] <= action.amount <= r[1]
        if isinstance(action, Call):
            return legal.call is not None
        return legal.fold

    # ------------------------------------------------------------------ following play

    def apply(self, action: Action) -> None:
        """Follow a legal action (the caller checked :meth:`is_legal`)."""
        assert self.is_legal(action), f"the referee was given an illegal {action}"
        if isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, Vote):
            self._vote(action)
        elif isinstance(action, Declare):
            self.declared[action.seat] = True  # R8: it stands even if the bet is refused
        elif isinstance(action, Exchange):
            self._exchange(action)
        elif isinstance(action, Bet | Raise):
            still_in = self.folded.count(False)
            if action.amount > 0 and self.rules.refusal and still_in >= 3:
                s = action.seat  # R8: the others still in vote, from the next seat round
                voters = [(s + i) % self.n for i in range(1, self.n)]
                self.vote = PendingVote(s, action, [v for v in voters if not self.folded[v]])
            else:
                self._stand(action)
        elif isinstance(action, Call):
            s = action.seat
            assert self.current is not None
            self._put(s, min(self.current - self.round_bets[s], self.stacks[s]))
            self.acted[s] = True
            self._next_turn(s)
        else:
            s = action.seat
            self.folded[s] = True  # the hand is dead, never back in play (R8b)
            self.hands[s] = []
            if self.folded.count(False) == 1:
                self._award()
            else:
                self._next_turn(s)

    def _deal(self, action: Deal) -> None:
        seat, count = self.due.pop(0)
        if len(self.stock) < count:  # R8b: the discards less the just thrown reshuffled
            again = [c for c in self.discards if c not in self.thrown]
            self.stock |= set(again)
            self.discards = list(self.thrown)
        self.stock -= set(action.cards)
        self.hands[seat].extend(action.cards)
        self.thrown = ()
        if self.due:
            return
        if self.phase == FIRST_DEAL:
            self._start_round(FIRST_ROUND)
        elif self.phase == SECOND_DEAL:
            self._start_round(DECLARE_ROUND)
        elif self.phase == FIRST_ROUND:
            self._after_first_round_exchange(seat)
        else:
            self._next_second_exchange(seat)

    def _exchange(self, action: Exchange) -> None:
        s = action.seat
        for card in action.cards:
            self.hands[s].remove(card)
        self.discards.extend(action.cards)
        self.thrown = action.cards
        self.cap = None
        if action.cards:
            self.due = [(s, len(action.cards))]
        elif self.phase == FIRST_ROUND:
            self._after_first_round_exchange(s)
        else:
            self._next_second_exchange(s)

    def _after_first_round_exchange(self, s: int) -> None:
        """R4.3: the next player in turn who has not yet acted; none left: void deal."""
        self.acted[s] = True
        for t in range(s + 1, self.n):
            if not self.folded[t] and self.stacks[t] > 0 and not self.acted[t]:
                self.turn = t
                return
        self.void_deals += 1
        self._redeal()

    def _next_second_exchange(self, s: int) -> None:
        """R4.6: every player still in, all-in ones too, in seat order; then R4.7."""
        for t in range(s + 1, self.n):
            if not self.folded[t]:
                self.turn = t
                return
        if self.rules.last_round:
            self._start_round(LAST_ROUND)
        else:
            self._award()

    def _start_round(self, phase: str) -> None:
        """R5: from p1, skipping folded and all-in players; skipped with fewer than two."""
        self.phase = phase
        self.round_bets = [0] * self.n
        self.acted = [False] * self.n
        self.current = None
        self.raises = 0
        self.cap = None
        able = [s for s in range(self.n) if not self.folded[s] and self.stacks[s] > 0]
        if len(able) >= 2:
            self.turn = able[0]
        else:
            self._end_round()

    def _end_round(self) -> None:
        self.turn = None
        self.current = None
        if self.phase == FIRST_ROUND:
            self.phase = SECOND_DEAL  # R4.4
            self.due = [(s, 2) for s in range(self.n) if not self.folded[s]]
        elif self.phase == DECLARE_ROUND:
            self.phase = SECOND_EXCHANGE
            self.turn = self.folded.index(False)
        else:
            self._award()

    def _put(self, s: int, chips: int) -> None:
        self.stacks[s] -= chips
        self.round_bets[s] += chips
        self.contributed[s] += chips

    def _stand(self, action: Bet | Raise) -> None:
        s = action.seat
        if isinstance(action, Raise):
            self.raises += 1
        self._put(s, action.amount - self.round_bets[s])
        self.current = action.amount
        self.acted = [t == s for t in range(self.n)]
        self.cap = None
        self._next_turn(s)

    def _vote(self, action: Vote) -> None:
        vote = self.vote
        assert vote is not None
        if action.accept:  # R8: the first accept makes the bet good
            self.vote = None
            self._stand(vote.action)
            return
        vote.voters.pop(0)
        if not vote.voters:  # refused by all: withdrawn, the bettor acts again below it
            self.vote = None
            self.cap = vote.action.amount
            self.turn = vote.bettor

    def _next_turn(self, s: int) -> None:
        """R5: the next player round from ``s``, still in with chips, who has not acted
        since the last standing bet or has not matched it; none: the round ends."""
        self.cap = None
        current = self.current or 0
        for i in range(1, self.n + 1):
            t = (s + i) % self.n
            if (
                not self.folded[t]
                and self.stacks[t] > 0
                and (not self.acted[t] or self.round_bets[t] < current)
            ):
                self.turn = t
                return
        self._end_round()

    # ------------------------------------------------------------------ the end (R7)

    def _award(self) -> None:
        self.phase = OVER
        self.due = []
        self.vote = None
        self.turn = None
        final = list(self.stacks)
        inside = [s for s in range(self.n) if not self.folded[s]]
        if len(inside) == 1:  # everyone else folded: every chip put in, unseen
            final[inside[0]] += sum(self.contributed)
            self.final_stacks = final
            return
        values: list[HandValue | None] = [
            evaluate(self.hands[s]) if s in inside else None for s in range(self.n)
        ]
        for s, chips in enumerate(
            r7_payouts(self.contributed, self.folded, values, self.rules.ties)
        ):
            final[s] += chips
        self.final_stacks = final


def r7_payouts(
    contributed: list[int],
    folded: list[bool],
    values: Sequence[Comparable | None],
    ties: str,
) -> list[int]:
    """The chips each seat takes at a showdown, from R7 alone: one pot per contribution
    level of the players still in, each holding every player's chips between the previous
    level and this one (the last one everything above), won by the best value among the
    players still in who reached the level; ties to the eldest, or split with the odd
    chips one at a time from p1."""
    n = len(contributed)
    inside = [s for s in range(n) if not folded[s]]
    levels = sorted({contributed[s] for s in inside})
    paid = [0] * n
    below = 0
    for i, level in enumerate(levels):
        top = i == len(levels) - 1
        amount = sum(max(0, (c if top else min(c, level)) - below) for c in contributed)
        eligible = [s for s in inside if contributed[s] >= level]
        if len(eligible) == 1:
            paid[eligible[0]] += amount
        elif amount:
            ranked = [values[s] for s in eligible]
            best = max(v for v in ranked if v is not None)
            winners = [s for s in eligible if values[s] == best]  # seat order, p1 first
            if ties == "eldest":
                paid[winners[0]] += amount
            else:  # equal shares, odd chips one each from p1
                share, odd = divmod(amount, len(winners))
                for k, s in enumerate(winners):
                    paid[s] += share + (1 if k < odd else 0)
        below = level
    return paid


def referee_lines(stacks: list[int], rules: Rules, lines: list[str]) -> Referee:
    """Follow ``lines`` (every one must be legal) and return the referee at the end."""
    from primero.engine.actions import parse_action

    ref = Referee(list(stacks), rules)
    for index, line in enumerate(lines):
        action = parse_action(line, len(stacks))
        assert ref.is_legal(action), f"line {index} {line!r} is not legal: {ref.legal()}"
        ref.apply(action)
    return ref
