"""The hand state machine: one hand of Primero from the ante to the showdown (R4–R8b).

A :class:`HandState` is what its record lines add up to. It knows who acts next
(:attr:`HandState.to_act`) and what they may do (:meth:`HandState.legal_actions`), and
changes only through :meth:`HandState.apply`, which checks the action first and raises
an :class:`~primero.engine.errors.IllegalActionError` (leaving the state untouched) when the
rules do not allow it. Chance is outside: cards come in :class:`~primero.engine.actions.Deal`
actions, from a :class:`~primero.engine.dealing.Dealer` or a record.

>>> from primero.engine.actions import parse_action
>>> s = HandState(["Ana", "Ben", "Cleo", "Dev"], [20, 20, 20, 20])
>>> s.to_act, s.legal_actions().kinds()
(-1, ['d'])
>>> for line in ["d dh p1 7s 6h", "d dh p2 7h 6s", "d dh p3 Kc Qd", "d dh p4 2c 3d"]:
...     s.apply(parse_action(line, 4))
>>> s.to_act, sorted(s.legal_actions().kinds())
(0, ['b', 'x1', 'x2'])
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

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
    parse_action,
)
from primero.engine.cards import DECK, Card
from primero.engine.hands import Category, HandValue, evaluate
from primero.engine.legal import DEALER, LegalActions, check_action
from primero.engine.names import check_player_names
from primero.engine.pots import Award, Pot, live_pots, settle
from primero.engine.rulebook import (
    able_to_bet,
    declarable,
    first_round_options,
    limit_pot,
    next_exchanger,
    next_in_seat_order,
    next_to_act,
    opening_range,
    raise_range,
    reshuffle_pool,
    voted,
    voters,
)
from primero.engine.rules import DEFAULT_RULES, Rules, RulesError

__all__ = ["DEALER", "HandResult", "HandState", "LegalActions", "Phase"]

_ACTION_TYPES: Final = (Deal, Exchange, Bet, Raise, Call, Fold, Vote, Declare)


class Phase(Enum):
    """Where a hand is (R4)."""

    FIRST_DEAL = "first deal"
    FIRST_ROUND = "first round"
    SECOND_DEAL = "second deal"
    DECLARE_ROUND = "declare and bet"
    SECOND_EXCHANGE = "second exchange"
    LAST_ROUND = "last round"
    COMPLETE = "complete"


@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(
        self,
        final_stacks: tuple[int, ...],
        net: tuple[int, ...],
        awards: tuple[Award, ...],
        shown: tuple[HandValue | None, ...],
        shown_cards: tuple[tuple[Card, ...] | None, ...],
        uncontested: bool,
    ) -> None:
        """Set each field, as the generated ``__init__`` would (a compiled one is
        10 times as fast: ``setup.py``)."""
        object.__setattr__(self, "final_stacks", final_stacks)
        object.__setattr__(self, "net", net)
        object.__setattr__(self, "awards", awards)
        object.__setattr__(self, "shown", shown)
        object.__setattr__(self, "shown_cards", shown_cards)
        object.__setattr__(self, "uncontested", uncontested)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (a compiled frozen class cannot
        have its fields set one by one)."""
        return (
            HandResult,
            (
                self.final_stacks,
                self.net,
                self.awards,
                self.shown,
                self.shown_cards,
                self.uncontested,
            ),
        )


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
            ``rules.max_players`` distinct names (R3), each a valid player name
            (:func:`primero.engine.names.name_problem`: a character that is not white space, no
            white space at the start or end, no control characters).
        stacks: chips of each seat before the ante, each >= 1.
        rules: the house rules (default: the standard game).

    Raises:
        RulesError: a wrong number of players, repeated or invalid names (the message
            says what is wrong with which name), or stacks that are not whole numbers
            >= 1, one per player.

    The ante is taken at once (R4.1); the first deal is then due (``to_act == DEALER``).

    Attributes (read them; change the hand only through :meth:`apply`):
        rules, players, n, starting_stacks: as given (``n`` players).
        stacks: chips in front of each seat now.
        contributed: chips each seat put in this hand, antes included (R7).
        round_bets: chips each seat put in during the current betting round (R5; all 0
            between rounds).
        current_bet: the round's bet to match, or None when no bet is open.
        folded, hands, declared: per seat; ``hands`` holds the cards (hidden: use
            :func:`~primero.engine.views.view` for anything shown to a seat, R9b).
        own_discards: per seat, its discards still out of play (private, R9b).
        exchanges: per seat, the number of cards of each exchange (public).
        in_stock, stock_count, discard_pile, dead: where the other cards are (R8b).
        phase: the :class:`Phase`; void_deals: deals voided so far (R4.3).
        vote, cap: the bet being voted on and the bettor's cap after a refusal (R8).
        actions: the record, as applied (every card in it: what a seat may see of it
            is :func:`primero.engine.views.view`'s ``log``, R9b).
        result: the :class:`HandResult` once the hand is complete, else None.
    """

    def __init__(
        self,
        players: list[str] | tuple[str, ...],
        stacks: list[int] | tuple[int, ...],
        rules: Rules = DEFAULT_RULES,
    ) -> None:
        names = tuple(players)
        rules.check_players(len(names))
        check_player_names(names)
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
        #: :mod:`primero.engine.views`' redacted record of this hand (its own business)
        self.view_cache: object = None
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
        all-in level (:func:`~primero.engine.pots.live_pots`); once it is over, the pots awarded."""
        if self.result is not None:
            return [a.pot for a in self.result.awards]
        return live_pots(self.contributed, self.folded, self.stacks)

    def pot_total(self) -> int:
        """All chips put in this hand, antes included."""
        return sum(self.contributed)

    def lines(self) -> list[str]:
        """The record lines of every action applied so far (docs/record-format.md)."""
        return [a.line() for a in self.actions]

    def deal_due(self) -> tuple[int, int] | None:
        """The next deal owed as ``(seat, cards)``, or None when no deal is due."""
        return self.deals_due[0] if self.deals_due else None

    def recyclable(self, seat: int) -> list[Card]:
        """Cards that would form a new stock if the stock ran out dealing to ``seat`` (R8b):
        the discards since the last shuffle, less the cards that seat has just thrown."""
        serving = self.deals_due and self.deals_due[0][0] == seat
        return reshuffle_pool(self.discard_pile, self.just_thrown if serving else ())

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
            held = evaluate(tuple(self.hands[seat])).category
            return LegalActions(seat, declare=declarable(held), fold=facing)
        if not facing:
            exchange: tuple[int, ...] = ()
            low = 0
            if self.phase is Phase.FIRST_ROUND:
                exchange, low = first_round_options(self.rules)
            pot = limit_pot(self.rules, self.contributed)
            return LegalActions(
                seat, exchange=exchange, bet=opening_range(low, stack, self.cap, pot)
            )
        current = self.current_bet
        assert current is not None
        call = min(current - self.round_bets[seat], stack)
        others = sum(
            1 for s in range(self.n) if s != seat and not self.folded[s] and self.stacks[s] > 0
        )
        raise_to = raise_range(
            current,
            self.rules.min_raise,
            self.round_bets[seat],
            stack,
            self.cap,
            self.raises,
            self.rules.max_raises,
            others,
            limit_pot(self.rules, self.contributed),
        )
        return LegalActions(seat, raise_to=raise_to, call=call, fold=True)

    # ----------------------------------------------------------------- apply

    def apply(self, action: Action | str) -> None:
        """Check an action against the rules and apply it, appending its record line.

        Args:
            action: the action of the one to act (a :class:`~primero.engine.actions.Deal` when the
                dealer is due), or its record line, e.g. ``"p1 b 2"``.

        Raises:
            LineError: ``action`` is a string that is not a record line.
            TypeError: ``action`` is neither an action nor a string.
            HandOverError: the hand is complete.
            WrongTurnError: another seat (or the dealer) is to act, or this kind of action
                is not legal now.
            BadAmountError: a bet or raise outside the allowed range.
            BadCardsError: exchange cards not held or the wrong count; deal cards not in
                the stock (R8b) or the wrong count.
            BadDeclarationError: a declaration below the hand's category (R6).

        Every error leaves the state exactly as it was; the message says what is allowed.
        """
        if isinstance(action, str):
            action = parse_action(action, self.n)
        if not isinstance(action, _ACTION_TYPES):
            raise TypeError(
                f"apply takes an action (Deal, Exchange, Bet, Raise, Call, Fold, Vote, "
                f"Declare) or a record line, not {type(action).__name__}"
            )
        self.check(action)
        self.apply_unchecked(action)

    def check(self, action: Action) -> None:
        """Raise the error :meth:`apply` would raise for ``action``, or return None if legal.

        Raises:
            IllegalActionError: see :meth:`apply`.
        """
        check_action(self, action)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action WITHOUT checking it: the unchecked path under :meth:`apply`.

        :meth:`apply` calls it after :meth:`check`. Call it directly only with an action
        already known to be legal here (checked with :meth:`check`, or made from this
        state's own :meth:`legal_actions`, like the dealer's :meth:`Dealer.deal_into
        <primero.engine.dealing.Dealer.deal_into>`): an illegal action corrupts the hand
        without any error. Anything from a person, a bot or a record goes through
        :meth:`apply`.

        Args:
            action: a legal action of the one to act now.
        """
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
            if voted(action.amount, self.rules.refusal, self.n - sum(self.folded)):
                self.vote = _Vote(action.seat, action, voters(action.seat, self.folded))
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
        seat, count = self.deals_due[0]
        cards = action.cards
        if self.stock_count < count:  # R8b: the discards become the new stock
            recycled = self.recyclable(seat)  # R8b
            for card in recycled:
                self.in_stock[card.id] = True
            self.stock_count += len(recycled)
            self.discard_pile = list(self.just_thrown)
            # Discards shuffled back into the stock are no longer known dead to anyone.
            gone = set(recycled)
            for own in self.own_discards:
                own[:] = [c for c in own if c not in gone]
        self.deals_due.pop(0)
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
            nxt = next_exchanger(seat, self.folded, self.stacks, self.acted)
            if nxt is None:
                self._void_deal()
            else:
                self.turn = nxt
        else:  # second exchange: every player still in, in seat order (R4.6)
            nxt = next_in_seat_order(seat, self.folded)
            if nxt is None:
                self.phase = Phase.LAST_ROUND
                if self.rules.last_round:
                    self._start_round()
                else:
                    self._finish()
            else:
                self.turn = nxt

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
        able = able_to_bet(self.folded, self.stacks)
        if len(able) < 2:  # R5: the round is skipped
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
        nxt = next_to_act(
            seat, self.folded, self.stacks, self.acted, self.round_bets, self.current_bet or 0
        )
        if nxt is None:
            self._end_round()
        else:
            self.turn = nxt

    def _end_round(self) -> None:
        self.turn = None
        self.current_bet = None  # no bet to match between rounds
        self.round_bets = [0] * self.n
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
        inside = self.still_in()
        uncontested = len(inside) == 1
        values: list[HandValue | None] = [None] * self.n
        shown_cards: list[tuple[Card, ...] | None] = [None] * self.n
        if not uncontested:
            for s in inside:
                cards = tuple(self.hands[s])
                shown_cards[s] = cards
                values[s] = evaluate(cards)
        # R7 (uncontested, every pot has the one player still in as its only eligible)
        settled = settle(
            self.contributed, self.folded, values, self.rules.ties == "split", self.stacks
        )
        awards = [
            Award(Pot(chips, eligible), winners, shares)
            for chips, eligible, winners, shares in settled
        ]
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

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and deep-copy through the constructor (a compiled class is not built
        without its arguments): the players, stacks and rules, then every other field
        but the views' cache."""
        return (
            _restore,
            (
                self.players,
                self.starting_stacks,
                self.rules,
                {name: getattr(self, name) for name in _FIELDS},
            ),
        )

    def copy(self) -> HandState:
        """An independent copy of the hand (for search bots and what-if analysis)."""
        # through the constructor (a compiled class has no __dict__ to copy), which sets
        # rules, players, n and starting_stacks; every other field is set here
        other = HandState(self.players, self.starting_stacks, self.rules)
        other.stacks = list(self.stacks)
        other.contributed = list(self.contributed)
        other.round_bets = list(self.round_bets)
        other.folded = list(self.folded)
        other.hands = [list(h) for h in self.hands]
        other.own_discards = [list(d) for d in self.own_discards]
        other.exchanges = [list(e) for e in self.exchanges]
        other.declared = list(self.declared)
        other.in_stock = list(self.in_stock)
        other.stock_count = self.stock_count
        other.discard_pile = list(self.discard_pile)
        other.dead = list(self.dead)
        other.void_deals = self.void_deals
        other.actions = list(self.actions)
        other.phase = self.phase
        other.current_bet = self.current_bet
        other.acted = list(self.acted)
        other.raises = self.raises
        other.cap = self.cap
        other.turn = self.turn
        v = self.vote
        other.vote = None if v is None else _Vote(v.bettor, v.action, v.voters, v.index)
        other.deals_due = list(self.deals_due)
        other.just_thrown = self.just_thrown
        other.result = self.result
        other.view_cache = None
        return other


#: The fields of a :class:`HandState` set after its constructor when it is unpickled.
_FIELDS: Final = (
    "stacks",
    "contributed",
    "round_bets",
    "folded",
    "hands",
    "own_discards",
    "exchanges",
    "declared",
    "in_stock",
    "stock_count",
    "discard_pile",
    "dead",
    "void_deals",
    "actions",
    "phase",
    "current_bet",
    "acted",
    "raises",
    "cap",
    "turn",
    "vote",
    "deals_due",
    "just_thrown",
    "result",
)


def _restore(
    players: tuple[str, ...], stacks: tuple[int, ...], rules: Rules, fields: dict[str, object]
) -> HandState:
    """The hand :meth:`HandState.__reduce__` describes."""
    hand = HandState(players, stacks, rules)
    for name, value in fields.items():
        setattr(hand, name, value)
    return hand
