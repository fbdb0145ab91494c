"""The hand state machine: one hand of Primero from the ante to the showdown (R4–R8b).

A :class:`HandState` is what its record lines add up to. It knows who acts next
(:attr:`HandState.to_act`) and what they may do (:meth:`HandState.legal_actions`), and
changes only through :meth:`HandState.apply`, which checks the action first and raises
an :class:`~primero.errors.IllegalActionError` (leaving the state untouched) when the
rules do not allow it. Chance is outside: cards come in :class:`~primero.actions.Deal`
actions, from a :class:`~primero.dealing.Dealer` or a record.

>>> from primero.actions import parse_action
>>> s = HandState(["Ana", "Ben", "Cleo", "Dev"], [20, 20, 20, 20])
>>> s.to_act, s.legal_actions().kinds()
(-1, ['d'])
>>> for line in ["d dh p1 7s 6h", "d dh p2 7h 6s", "d dh p3 Kc Qd", "d dh p4 2c 3d"]:
...     s.apply(parse_action(line, 4))
>>> s.to_act, sorted(s.legal_actions().kinds())
(0, ['b', 'x1', 'x2'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from primero.actions import (
    Action,
    Bet,
    Call,
    Deal,
    Declare,
    Exchange,
    Fold,
    Raise,
    Vote,
    public_line,
    seat_name,
)
from primero.cards import DECK, Card, format_cards
from primero.errors import (
    BadAmountError,
    BadCardsError,
    BadDeclarationError,
    HandOverError,
    WrongTurnError,
)
from primero.hands import Category, HandValue, evaluate
from primero.pots import Award, Pot, award_pots, build_pots, live_pots
from primero.rules import DEFAULT_RULES, Rules, RulesError

__all__ = ["DEALER", "HandResult", "HandState", "LegalActions", "Phase"]

#: The value of :attr:`HandState.to_act` when a deal line is due.
DEALER: Final = -1


class Phase(Enum):
    """Where a hand is (R4)."""

    FIRST_DEAL = "first deal"
    FIRST_ROUND = "first round"
    SECOND_DEAL = "second deal"
    DECLARE_ROUND = "declare and bet"
    SECOND_EXCHANGE = "second exchange"
    LAST_ROUND = "last round"
    COMPLETE = "complete"


_BETTING: Final = (Phase.FIRST_ROUND, Phase.DECLARE_ROUND, Phase.LAST_ROUND)


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the one to act may do now (R4–R8).

    Attributes:
        seat: the 0-based seat to act, :data:`DEALER` (-1) when a deal line is due, or
            None when the hand is complete.
        deal: cards due in the next deal line (0 when no deal is due).
        exchange: the allowed numbers of cards to discard, ascending (empty: no exchange).
        bet: the inclusive chip range ``(low, high)`` of an opening bet, or None.
        raise_to: the inclusive range of round totals a raise may reach, or None.
        call: chips a call puts in (0 for a check), or None when no call is possible.
        fold: whether folding is allowed.
        vote: whether a vote (accept or refuse) is due from ``seat``.
        declare: the categories ``seat`` may declare, ascending (empty: no declaration
            now). When non-empty, only a declaration or a fold (if ``fold``) is allowed.
    """

    seat: int | None
    deal: int = 0
    exchange: tuple[int, ...] = ()
    bet: tuple[int, int] | None = None
    raise_to: tuple[int, int] | None = None
    call: int | None = None
    fold: bool = False
    vote: bool = False
    declare: tuple[Category, ...] = ()

    def kinds(self) -> list[str]:
        """The kinds of record line legal now, as hand-history.md lists them.

        Returns:
            Some of ``dc x0 x1 x2 b r c f y n d``, each present when at least one line of
            that kind is legal now.
        """
        if self.deal:
            return ["d"]
        if self.vote:
            return ["y", "n"]
        if self.declare:
            return ["dc", "f"] if self.fold else ["dc"]
        out = [f"x{k}" for k in self.exchange]
        if self.bet is not None:
            out.append("b")
        if self.raise_to is not None:
            out.append("r")
        if self.call is not None:
            out.append("c")
        if self.fold:
            out.append("f")
        return out

    def describe(self) -> str:
        """A short sentence listing what is allowed, for error messages and prompts."""
        if self.seat is None:
            return "nothing: the hand is over"
        who = "the dealer" if self.seat == DEALER else seat_name(self.seat)
        parts: list[str] = []
        if self.deal:
            parts.append(f"deal {self.deal} card{'s' if self.deal > 1 else ''}")
        if self.vote:
            parts.append("accept (y) or refuse (n) the bet")
        if self.declare:
            names = ", ".join(c.name.lower() for c in self.declare)
            parts.append(f"declare one of {names}")
        if not self.declare:
            if self.exchange:
                parts.append("exchange " + " or ".join(str(k) for k in self.exchange) + " cards")
            if self.bet is not None:
                parts.append(f"bet {self.bet[0]} to {self.bet[1]}")
            if self.raise_to is not None:
                parts.append(f"raise to {self.raise_to[0]} to {self.raise_to[1]}")
            if self.call is not None:
                parts.append("check" if self.call == 0 else f"call {self.call}")
        if self.fold:
            parts.append("fold")
        return f"{who} may " + "; ".join(parts)


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a complete hand ended (R4.8, R7).

    Attributes:
        final_stacks: chips of each seat after the hand, seat order p1…pN.
        net: final minus starting stack of each seat (chips).
        awards: who won each pot (main pot first).
        shown: each seat's hand value if shown at the showdown, else None (R9b: a lone
            winner and folded players do not show).
        shown_cards: the cards each shown hand held, else None.
        uncontested: True when everyone else folded and the last player took every pot.
    """

    final_stacks: tuple[int, ...]
    net: tuple[int, ...]
    awards: tuple[Award, ...]
    shown: tuple[HandValue | None, ...]
    shown_cards: tuple[tuple[Card, ...] | None, ...]
    uncontested: bool


@dataclass(slots=True)
class _Vote:
    bettor: int
    action: Bet | Raise
    voters: tuple[int, ...]
    index: int = 0


class HandState:
    """One hand of Primero in progress (R4–R8b).

    Args:
        players: names in seat order p1…pN (p1 acts first, pN deals); 2 to
            ``rules.max_players`` distinct non-empty names (R3).
        stacks: chips of each seat before the ante, each >= 1.
        rules: the house rules (default: the standard game).

    Raises:
        RulesError: a wrong number of players, repeated or empty names, or stacks that
            are not whole numbers >= 1, one per player.

    The ante is taken at once (R4.1); the first deal is then due (``to_act == DEALER``).
    """

    def __init__(
        self,
        players: list[str] | tuple[str, ...],
        stacks: list[int] | tuple[int, ...],
        rules: Rules = DEFAULT_RULES,
    ) -> None:
        names = tuple(players)
        rules.check_players(len(names))
        if any(type(n) is not str or not n for n in names):
            raise RulesError("player names must be non-empty strings")
        if len(set(names)) != len(names):
            raise RulesError("player names must be distinct")
        if len(stacks) != len(names):
            raise RulesError(
                f"one starting stack per player: {len(names)} players, {len(stacks)} stacks"
            )
        for chips in stacks:
            if type(chips) is not int or chips < 1:
                raise RulesError(f"a starting stack is a whole number >= 1, not {chips!r}")
        n = len(names)
        self.rules: Final = rules
        self.players: Final = names
        self.n: Final = n
        self.starting_stacks: Final = tuple(stacks)
        self.stacks: list[int] = list(stacks)
        self.contributed: list[int] = [0] * n
        self.round_bets: list[int] = [0] * n
        self.folded: list[bool] = [False] * n
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.own_discards: list[list[Card]] = [[] for _ in range(n)]
        self.exchanges: list[list[int]] = [[] for _ in range(n)]
        self.declared: list[Category | None] = [None] * n
        self.in_stock: list[bool] = [True] * 40
        self.stock_count = 40
        self.discard_pile: list[Card] = []
        self.dead: list[Card] = []
        self.void_deals = 0
        self.actions: list[Action] = []
        self.public_log: list[str] = []
        self.private_log: list[list[tuple[int, str]]] = [[] for _ in range(n)]
        self.phase = Phase.FIRST_DEAL
        self.current_bet: int | None = None
        self.acted: list[bool] = [False] * n
        self.raises = 0
        self.cap: int | None = None
        self.turn: int | None = None
        self.vote: _Vote | None = None
        self.deals_due: list[tuple[int, int]] = []
        self.just_thrown: tuple[Card, ...] = ()
        self.result: HandResult | None = None
        for seat in range(n):  # R4.1 ante
            chips = min(rules.ante, self.stacks[seat])
            self.stacks[seat] -= chips
            self.contributed[seat] += chips
        self._queue_deal(2)

    # ----------------------------------------------------------------- queries

    @property
    def to_act(self) -> int | None:
        """The 0-based seat to act, :data:`DEALER` (-1) when a deal is due, None when over."""
        if self.phase is Phase.COMPLETE:
            return None
        if self.deals_due:
            return DEALER
        if self.vote is not None:
            return self.vote.voters[self.vote.index]
        return self.turn

    @property
    def complete(self) -> bool:
        """Whether the hand is over."""
        return self.phase is Phase.COMPLETE

    def still_in(self) -> list[int]:
        """Seats that have not folded (all-in players are still in, R3), in seat order."""
        return [s for s in range(self.n) if not self.folded[s]]

    def stock(self) -> list[Card]:
        """The cards in the stock now, in deck order (the stock has no order here, R9b)."""
        return [c for c in DECK if self.in_stock[c.id]]

    def pots(self) -> list[Pot]:
        """The pots as they stand (R7): during the hand, a main pot and one side pot per
        all-in level (:func:`~primero.pots.live_pots`); once it is over, the pots awarded."""
        if self.result is not None:
            return [a.pot for a in self.result.awards]
        return live_pots(self.contributed, self.folded, self.stacks)

    def pot_total(self) -> int:
        """All chips put in this hand, antes included."""
        return sum(self.contributed)

    def lines(self) -> list[str]:
        """The record lines of every action applied so far (hand-history.md)."""
        return [a.line() for a in self.actions]

    def deal_due(self) -> tuple[int, int] | None:
        """The next deal owed as ``(seat, cards)``, or None when no deal is due."""
        return self.deals_due[0] if self.deals_due else None

    def recyclable(self, seat: int) -> list[Card]:
        """Cards that would form a new stock if the stock ran out dealing to ``seat`` (R8b):
        the discards since the last shuffle, less the cards that seat has just thrown."""
        thrown = set(self.just_thrown) if self.deals_due and self.deals_due[0][0] == seat else set()
        return [c for c in self.discard_pile if c not in thrown]

    def legal_actions(self) -> LegalActions:
        """What the one to act may do now; see :class:`LegalActions` (R4–R8)."""
        if self.phase is Phase.COMPLETE:
            return LegalActions(None)
        if self.deals_due:
            return LegalActions(DEALER, deal=self.deals_due[0][1])
        if self.vote is not None:
            return LegalActions(self.vote.voters[self.vote.index], vote=True)
        seat = self.turn
        assert seat is not None
        if self.phase is Phase.SECOND_EXCHANGE:
            return LegalActions(seat, exchange=(0, 1, 2))
        stack = self.stacks[seat]
        facing = self.current_bet is not None
        if (
            self.phase is Phase.DECLARE_ROUND
            and self.rules.declarations
            and self.declared[seat] is None
        ):
            true_category = evaluate(tuple(self.hands[seat])).category
            allowed = tuple(c for c in Category if c >= true_category)
            return LegalActions(seat, declare=allowed, fold=facing)
        if not facing:
            exchange: tuple[int, ...] = ()
            low = 0
            if self.phase is Phase.FIRST_ROUND:
                exchange = (0, 1, 2) if self.rules.first_round_stand else (1, 2)
                low = 0 if self.rules.first_round_zero_bet else 1
            high = stack if self.cap is None else min(stack, self.cap - 1)
            bet = (low, high) if low <= high else None
            return LegalActions(seat, exchange=exchange, bet=bet)
        current = self.current_bet
        assert current is not None
        call = min(current - self.round_bets[seat], stack)
        return LegalActions(seat, raise_to=self._raise_range(seat), call=call, fold=True)

    def _raise_range(self, seat: int) -> tuple[int, int] | None:
        assert self.current_bet is not None
        if self.rules.max_raises is not None and self.raises >= self.rules.max_raises:
            return None
        if not any(
            self.stacks[s] > 0 for s in range(self.n) if s != seat and not self.folded[s]
        ):
            return None
        low = self.current_bet + self.rules.min_raise
        high = self.round_bets[seat] + self.stacks[seat]
        if self.cap is not None:
            high = min(high, self.cap - 1)
        return (low, high) if low <= high else None

    # ----------------------------------------------------------------- apply

    def apply(self, action: Action) -> None:
        """Check an action against the rules and apply it, appending its record line.

        Args:
            action: the action of the one to act (a :class:`~primero.actions.Deal` when the
                dealer is due).

        Raises:
            HandOverError: the hand is complete.
            WrongTurnError: another seat (or the dealer) is to act, or this kind of action
                is not legal now.
            BadAmountError: a bet or raise outside the allowed range.
            BadCardsError: exchange cards not held or the wrong count; deal cards not in
                the stock (R8b) or the wrong count.
            BadDeclarationError: a declaration below the hand's category (R6).

        Every error leaves the state exactly as it was; the message says what is allowed.
        """
        self.check(action)
        self.apply_trusted(action)

    def check(self, action: Action) -> None:
        """Raise the error :meth:`apply` would raise for ``action``, or return None if legal.

        Raises:
            IllegalActionError: see :meth:`apply`.
        """
        legal = self.legal_actions()
        if legal.seat is None:
            raise HandOverError(f"the hand is over: no more actions ({action.line()!r})")
        if isinstance(action, Deal):
            self._check_deal(action, legal)
            return
        if legal.seat == DEALER:
            raise WrongTurnError(f"a deal line is due: {legal.describe()}")
        if action.seat != legal.seat:
            raise WrongTurnError(
                f"{seat_name(action.seat)} may not act now: {legal.describe()}"
            )
        kind_ok = True
        if isinstance(action, Vote):
            kind_ok = legal.vote
        elif isinstance(action, Declare):
            kind_ok = bool(legal.declare)
            if kind_ok and action.category not in legal.declare:
                held = evaluate(tuple(self.hands[action.seat])).category.name.lower()
                raise BadDeclarationError(
                    f"{seat_name(action.seat)} holds a {held} and may not declare "
                    f"{action.category.name.lower()}, which is lower (R6): {legal.describe()}"
                )
        elif legal.declare and not (isinstance(action, Fold) and legal.fold):
            kind_ok = False
        elif isinstance(action, Exchange):
            kind_ok = bool(legal.exchange)
            if kind_ok:
                self._check_exchange(action, legal)
        elif isinstance(action, Bet):
            kind_ok = legal.bet is not None
            if legal.bet is not None and not legal.bet[0] <= action.amount <= legal.bet[1]:
                raise BadAmountError(
                    f"{seat_name(action.seat)} may not bet {action.amount}: {legal.describe()}"
                )
        elif isinstance(action, Raise):
            kind_ok = legal.raise_to is not None
            rng = legal.raise_to
            if rng is not None and not rng[0] <= action.amount <= rng[1]:
                raise BadAmountError(
                    f"{seat_name(action.seat)} may not raise to {action.amount}: "
                    f"{legal.describe()}"
                )
        elif isinstance(action, Call):
            kind_ok = legal.call is not None
        elif isinstance(action, Fold):
            kind_ok = legal.fold
        if not kind_ok:
            raise WrongTurnError(f"{action.line()!r} is not allowed now: {legal.describe()}")

    def _check_exchange(self, action: Exchange, legal: LegalActions) -> None:
        who = seat_name(action.seat)
        if len(action.cards) not in legal.exchange:
            raise BadCardsError(
                f"{who} may not exchange {len(action.cards)} cards now: {legal.describe()}"
            )
        if len(set(action.cards)) != len(action.cards):
            raise BadCardsError("a card is named twice in the exchange")
        hand = self.hands[action.seat]
        for card in action.cards:
            if card not in hand:
                raise BadCardsError(f"{who} does not hold {card}: holds {format_cards(hand)}")

    def _check_deal(self, action: Deal, legal: LegalActions) -> None:
        if legal.seat != DEALER:
            raise WrongTurnError(f"no deal is due now: {legal.describe()}")
        seat, count = self.deals_due[0]
        if action.seat != seat:
            raise WrongTurnError(
                f"the next deal is to {seat_name(seat)} ({count} cards), "
                f"not to {seat_name(action.seat)}"
            )
        cards = action.cards
        if len(cards) != count or len(set(cards)) != count:
            raise BadCardsError(
                f"{seat_name(seat)} is due {count} distinct card{'s' if count > 1 else ''}, "
                f"the line names {len(cards)}"
            )
        if self.stock_count >= count:
            for card in cards:
                if not self.in_stock[card.id]:
                    raise BadCardsError(f"{card} is not in the stock")
            return
        # R8b: the stock runs out: every stock card first, then recycled discards.
        stock = [c for c in cards if self.in_stock[c.id]]
        if len(stock) != self.stock_count:
            raise BadCardsError(
                f"the stock holds {self.stock_count} cards ({format_cards(self.stock())}) and "
                f"{seat_name(seat)} is due {count}: all of them must be dealt first (R8b)"
            )
        recyclable = set(self.recyclable(seat))
        for card in cards:
            if not self.in_stock[card.id] and card not in recyclable:
                raise BadCardsError(
                    f"{card} is neither in the stock nor among the reshuffled discards (R8b)"
                )

    def apply_trusted(self, action: Action) -> None:
        """Apply an action known to be legal (the engine's own fast path), unchecked.

        Applying an illegal action here corrupts the hand: use :meth:`apply` for any
        action that did not come from this state's own :meth:`legal_actions`.
        """
        self.public_log.append(public_line(action))
        if isinstance(action, Deal | Exchange):
            self.private_log[action.seat].append((len(self.actions), action.line()))
        self.actions.append(action)
        if isinstance(action, Deal):
            self._do_deal(action)
        elif isinstance(action, Vote):
            self._do_vote(action)
        elif isinstance(action, Declare):
            self.declared[action.seat] = action.category
        elif isinstance(action, Exchange):
            self._do_exchange(action)
        elif isinstance(action, Bet | Raise):
            if action.amount > 0 and self.rules.refusal and self.n - sum(self.folded) >= 3:
                s = action.seat
                voters = tuple(
                    (s + i) % self.n for i in range(1, self.n) if not self.folded[(s + i) % self.n]
                )
                self.vote = _Vote(s, action, voters)
            else:
                self._make_bet_stand(action)
        elif isinstance(action, Call):
            seat = action.seat
            assert self.current_bet is not None
            self._put_in(seat, min(self.current_bet - self.round_bets[seat], self.stacks[seat]))
            self.acted[seat] = True
            self._next_turn(seat)
        else:  # Fold
            seat = action.seat
            self.folded[seat] = True
            self.dead.extend(self.hands[seat])
            self.hands[seat] = []
            if self.n - sum(self.folded) == 1:
                self._finish()
            else:
                self._next_turn(seat)

    # ----------------------------------------------------------------- internals

    def _put_in(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.round_bets[seat] += chips
        self.contributed[seat] += chips

    def _queue_deal(self, count: int) -> None:
        self.phase = Phase.FIRST_DEAL if self.phase is Phase.FIRST_DEAL else Phase.SECOND_DEAL
        self.deals_due = [(s, count) for s in range(self.n) if not self.folded[s]]

    def _do_deal(self, action: Deal) -> None:
        seat, count = self.deals_due.pop(0)
        cards = action.cards
        if self.stock_count < count:  # R8b: the discards become the new stock
            thrown = set(self.just_thrown)
            for card in self.discard_pile:
                if card not in thrown:
                    self.in_stock[card.id] = True
                    self.stock_count += 1
            self.discard_pile = list(self.just_thrown)
        for card in cards:
            self.in_stock[card.id] = False
        self.stock_count -= len(cards)
        self.hands[seat].extend(cards)
        self.just_thrown = ()
        if self.deals_due:
            return
        if self.phase is Phase.FIRST_DEAL:
            self.phase = Phase.FIRST_ROUND
            self._start_round()
        elif self.phase is Phase.SECOND_DEAL:
            self.phase = Phase.DECLARE_ROUND
            self._start_round()
        else:  # the replacement deal after an exchange
            self._after_exchange(seat)

    def _do_exchange(self, action: Exchange) -> None:
        seat = action.seat
        hand = self.hands[seat]
        for card in action.cards:
            hand.remove(card)
        self.discard_pile.extend(action.cards)
        self.own_discards[seat].extend(action.cards)
        self.exchanges[seat].append(len(action.cards))
        self.cap = None
        if action.cards:
            self.just_thrown = action.cards
            self.deals_due = [(seat, len(action.cards))]
        else:
            self._after_exchange(seat)

    def _after_exchange(self, seat: int) -> None:
        if self.phase is Phase.FIRST_ROUND:
            self.acted[seat] = True
            nxt = self._next_seat(seat, lambda s: self.stacks[s] > 0 and not self.acted[s])
            if nxt is None:
                self._void_deal()
            else:
                self.turn = nxt
        else:  # second exchange: every player still in, in seat order (R4.6)
            nxt = self._next_seat(seat, lambda s: True)
            if nxt is None:
                self.phase = Phase.LAST_ROUND
                if self.rules.last_round:
                    self._start_round()
                else:
                    self._finish()
            else:
                self.turn = nxt

    def _next_seat(self, seat: int, wanted: Callable[[int], bool]) -> int | None:
        """The next seat after ``seat`` (no wrap) still in and satisfying ``wanted``."""
        for s in range(seat + 1, self.n):
            if not self.folded[s] and wanted(s):
                return s
        return None

    def _void_deal(self) -> None:
        """R4.3: every player exchanged and no bet stands: all cards back, deal again."""
        self.void_deals += 1
        self.hands = [[] for _ in range(self.n)]
        self.own_discards = [[] for _ in range(self.n)]
        self.exchanges = [[] for _ in range(self.n)]
        self.in_stock = [True] * 40
        self.stock_count = 40
        self.discard_pile = []
        self.just_thrown = ()
        self.phase = Phase.FIRST_DEAL
        self.turn = None
        self._queue_deal(2)

    def _start_round(self) -> None:
        """Begin a betting round (R5), or skip it when fewer than two can bet."""
        self.round_bets = [0] * self.n
        self.acted = [False] * self.n
        self.current_bet = None
        self.raises = 0
        self.cap = None
        able = [s for s in range(self.n) if not self.folded[s] and self.stacks[s] > 0]
        if len(able) < 2:
            self._end_round()
        else:
            self.turn = able[0]

    def _make_bet_stand(self, action: Bet | Raise) -> None:
        seat = action.seat
        if isinstance(action, Raise):
            self.raises += 1
        self._put_in(seat, action.amount - self.round_bets[seat])
        self.current_bet = action.amount
        self.acted = [False] * self.n
        self.acted[seat] = True
        self.cap = None
        self._next_turn(seat)

    def _do_vote(self, action: Vote) -> None:
        vote = self.vote
        assert vote is not None
        if action.accept:
            self.vote = None
            self._make_bet_stand(vote.action)
            return
        vote.index += 1
        if vote.index == len(vote.voters):  # R8: refused by all, withdrawn
            self.vote = None
            self.cap = vote.action.amount
            self.turn = vote.bettor

    def _next_turn(self, seat: int) -> None:
        """Pass the turn in a betting round, or end the round (R5)."""
        self.cap = None
        current = self.current_bet or 0
        n = self.n
        for i in range(1, n + 1):
            s = (seat + i) % n
            if (
                not self.folded[s]
                and self.stacks[s] > 0
                and (not self.acted[s] or self.round_bets[s] < current)
            ):
                self.turn = s
                return
        self._end_round()

    def _end_round(self) -> None:
        self.turn = None
        if self.phase is Phase.FIRST_ROUND:
            self._queue_deal(2)
        elif self.phase is Phase.DECLARE_ROUND:
            self.phase = Phase.SECOND_EXCHANGE
            self.turn = self.still_in()[0]
        else:
            self._finish()

    def _finish(self) -> None:
        """Award every pot (R4.8, R7) and close the hand."""
        self.phase = Phase.COMPLETE
        self.turn = None
        self.vote = None
        self.deals_due = []
        pots = build_pots(self.contributed, self.folded)
        inside = self.still_in()
        uncontested = len(inside) == 1
        values: list[HandValue | None] = [None] * self.n
        shown_cards: list[tuple[Card, ...] | None] = [None] * self.n
        if not uncontested:
            for s in inside:
                cards = tuple(self.hands[s])
                shown_cards[s] = cards
                values[s] = evaluate(cards)
        if uncontested:
            awards = [Award(p, (inside[0],), (p.amount,)) for p in pots]
        else:
            awards = award_pots(pots, values, self.rules.ties)
        for award in awards:
            for seat, chips in zip(award.winners, award.shares, strict=True):
                self.stacks[seat] += chips
        final = tuple(self.stacks)
        self.result = HandResult(
            final_stacks=final,
            net=tuple(f - s for f, s in zip(final, self.starting_stacks, strict=True)),
            awards=tuple(awards),
            shown=tuple(values),
            shown_cards=tuple(shown_cards),
            uncontested=uncontested,
        )

    # ----------------------------------------------------------------- copying

    def copy(self) -> HandState:
        """An independent copy of the hand (for search bots and what-if analysis)."""
        other = object.__new__(HandState)
        for name, value in self.__dict__.items():
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            other.__dict__[name] = value
        if self.vote is not None:
            v = self.vote
            other.vote = _Vote(v.bettor, v.action, v.voters, v.index)
        return other
