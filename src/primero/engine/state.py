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
from primero.engine.flow import (
    COMPLETE,
    DECLARE_ROUND,
    FIRST_ROUND,
    FLOW_FIELDS,
    SECOND_EXCHANGE,
    HandFlow,
)
from primero.engine.frozen import by_fields
from primero.engine.hands import Category, HandValue, evaluate
from primero.engine.legal import DEALER, LegalActions, check_action
from primero.engine.names import check_player_names
from primero.engine.pots import Award, Pot, live_pots, settle
from primero.engine.rulebook import (
    declarable,
    first_round_options,
    limit_pot,
    opening_range,
    raise_range,
    reshuffle_pool,
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


#: :class:`Phase` by the flow's phase number (:mod:`primero.engine.flow`).
_PHASES: Final = tuple(Phase)


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

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (:func:`~primero.engine.frozen.by_fields`)."""
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class _Vote:
    """The bet or raise under vote (R8): its bettor, the action, who votes in what
    order, and the index of the voter due (read from the flow's fields)."""

    bettor: int
    action: Bet | Raise
    voters: tuple[int, ...]
    index: int


class HandState(HandFlow):
    """One hand of Primero in progress (R4–R8b): the checked façade over the hand's flow.

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
    The phase transitions are :class:`~primero.engine.flow.HandFlow`'s, the very ones the
    research stepper runs; this class checks every action and keeps the cards as
    :class:`~primero.engine.cards.Card` objects and the record.

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
        self.players: Final = names
        self.starting_stacks: Final = tuple(stacks)
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.own_discards: list[list[Card]] = [[] for _ in range(n)]
        self.exchanges: list[list[int]] = [[] for _ in range(n)]
        self.declared: list[Category | None] = [None] * n
        self.in_stock: list[bool] = [True] * 40
        self.stock_count = 40
        self.discard_pile: list[Card] = []
        self.dead: list[Card] = []
        self.actions: list[Action] = []
        self.just_thrown: tuple[Card, ...] = ()
        self.result: HandResult | None = None
        #: :mod:`primero.engine.views`' redacted record of this hand (its own business)
        self.view_cache: object = None
        super().__init__(stacks, rules)  # R4.1 ante, the first deal queued

    # ----------------------------------------------------------------- queries

    @property
    def phase(self) -> Phase:
        """Where the hand is (R4)."""
        return _PHASES[self.stage]

    @property
    def turn(self) -> int | None:
        """The seat whose turn it is in a round or an exchange, None between them."""
        return None if self.turn_seat < 0 else self.turn_seat

    @property
    def current_bet(self) -> int | None:
        """The round's bet to match (chips), or None when no bet is open (R5)."""
        return None if self.current < 0 else self.current

    @property
    def cap(self) -> int | None:
        """After a refusal, the bettor's amounts stay below this (chips, R8), else None."""
        return None if self.cap_below < 0 else self.cap_below

    @property
    def vote(self) -> _Vote | None:
        """The bet or raise being voted on (R8), or None."""
        bettor = self.vote_bettor
        if bettor < 0:
            return None
        amount = self.vote_amount
        action: Bet | Raise = Raise(bettor, amount) if self.vote_raise else Bet(bettor, amount)
        return _Vote(bettor, action, self.vote_voters, self.vote_index)

    @property
    def deals_due(self) -> list[tuple[int, int]]:
        """The deals owed as ``(seat, cards)``, the next first (R4.2, R4.4)."""
        return self.due

    @property
    def to_act(self) -> int | None:
        """The 0-based seat to act, :data:`DEALER` (-1) when a deal is due, None when over."""
        seat = self.seat_to_act()
        return None if seat == -2 else seat

    @property
    def complete(self) -> bool:
        """Whether the hand is over."""
        return self.stage == COMPLETE

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
        return self.due[0] if self.due else None

    def recyclable(self, seat: int) -> list[Card]:
        """Cards that would form a new stock if the stock ran out dealing to ``seat`` (R8b):
        the discards since the last shuffle, less the cards that seat has just thrown."""
        serving = self.due and self.due[0][0] == seat
        return reshuffle_pool(self.discard_pile, self.just_thrown if serving else ())

    def legal_actions(self) -> LegalActions:
        """What the one to act may do now; see :class:`LegalActions` (R4–R8)."""
        stage = self.stage
        if stage == COMPLETE:
            return LegalActions(None)
        if self.due:
            return LegalActions(DEALER, deal=self.due[0][1])
        if self.vote_bettor >= 0:
            return LegalActions(self.vote_voters[self.vote_index], vote=True)
        seat = self.turn_seat
        if stage == SECOND_EXCHANGE:
            return LegalActions(seat, exchange=(0, 1, 2))
        stack = self.stacks[seat]
        facing = self.current >= 0
        cap = None if self.cap_below < 0 else self.cap_below
        if stage == DECLARE_ROUND and self.rules.declarations and self.declared[seat] is None:
            held = evaluate(tuple(self.hands[seat])).category
            return LegalActions(seat, declare=declarable(held), fold=facing)
        if not facing:
            exchange: tuple[int, ...] = ()
            low = 0
            if stage == FIRST_ROUND:
                exchange, low = first_round_options(self.rules)
            pot = limit_pot(self.rules, self.contributed)
            return LegalActions(seat, exchange=exchange, bet=opening_range(low, stack, cap, pot))
        others = sum(
            1 for s in range(self.n) if s != seat and not self.folded[s] and self.stacks[s] > 0
        )
        raise_to = raise_range(
            self.current,
            self.rules.min_raise,
            self.round_bets[seat],
            stack,
            cap,
            self.raises,
            self.rules.max_raises,
            others,
            limit_pot(self.rules, self.contributed),
        )
        call = min(self.current - self.round_bets[seat], stack)
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
            self._vote(action.accept)
        elif isinstance(action, Declare):
            self.declared[action.seat] = action.category
        elif isinstance(action, Exchange):
            self._do_exchange(action)
        elif isinstance(action, Bet):
            self._bet(action.seat, action.amount, False)
        elif isinstance(action, Raise):
            self._bet(action.seat, action.amount, True)
        elif isinstance(action, Call):
            self._call(action.seat)
        else:
            self._fold(action.seat)

    # ----------------------------------------------------------------- the cards

    def _do_deal(self, action: Deal) -> None:
        seat = self.due[0][0]
        cards = action.cards
        if self.stock_count < len(cards):  # R8b: the discards become the new stock
            recycled = self.recyclable(seat)  # R8b
            for card in recycled:
                self.in_stock[card.id] = True
            self.stock_count += len(recycled)
            self.discard_pile = list(self.just_thrown)
            # Discards shuffled back into the stock are no longer known dead to anyone.
            gone = set(recycled)
            for own in self.own_discards:
                own[:] = [c for c in own if c not in gone]
        for card in cards:
            self.in_stock[card.id] = False
        self.stock_count -= len(cards)
        self.hands[seat].extend(cards)
        self.just_thrown = ()
        self._dealt(seat)

    def _do_exchange(self, action: Exchange) -> None:
        seat = action.seat
        hand = self.hands[seat]
        for card in action.cards:
            hand.remove(card)
        self.discard_pile.extend(action.cards)
        self.own_discards[seat].extend(action.cards)
        self.exchanges[seat].append(len(action.cards))
        if action.cards:
            self.just_thrown = action.cards
        self._exchanged(seat, len(action.cards))

    def _muck(self, seat: int) -> None:
        self.dead.extend(self.hands[seat])
        self.hands[seat] = []

    def _collect(self) -> None:
        n = self.n
        self.hands = [[] for _ in range(n)]
        self.own_discards = [[] for _ in range(n)]
        self.exchanges = [[] for _ in range(n)]
        self.in_stock = [True] * 40
        self.stock_count = 40
        self.discard_pile = []
        self.just_thrown = ()

    def _settle(self) -> None:
        """Award every pot (R4.8, R7) into :attr:`result`."""
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
        # rules, players, n and starting_stacks; the flow's fields, then the cards here
        other = HandState(self.players, self.starting_stacks, self.rules)
        self.copy_flow_into(other)
        other.hands = [list(h) for h in self.hands]
        other.own_discards = [list(d) for d in self.own_discards]
        other.exchanges = [list(e) for e in self.exchanges]
        other.declared = list(self.declared)
        other.in_stock = list(self.in_stock)
        other.stock_count = self.stock_count
        other.discard_pile = list(self.discard_pile)
        other.dead = list(self.dead)
        other.actions = list(self.actions)
        other.just_thrown = self.just_thrown
        other.result = self.result
        other.view_cache = None
        return other


#: The fields of a :class:`HandState` set after its constructor when it is unpickled:
#: the flow's, then the cards and the record.
_FIELDS: Final = (
    *FLOW_FIELDS,
    "hands",
    "own_discards",
    "exchanges",
    "declared",
    "in_stock",
    "stock_count",
    "discard_pile",
    "dead",
    "actions",
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
