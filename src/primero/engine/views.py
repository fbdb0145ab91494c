"""What one seat (or a spectator) may see of a hand: the one place hidden cards are hidden (R9b).

Every bot, screen and network message reads a :class:`SeatView`, never the
:class:`~primero.engine.state.HandState` itself. The hand's state and its record alike
are filtered here (as boardgame.io's ``playerView`` filters state and log): the
:class:`~primero.engine.state.HandState` keeps every action with its cards
(``state.actions``), and :func:`view` writes each record line as the seat may see it
with :func:`redact`, the one function that hides a card of the record.

Public to everyone: names, seats, the dealer, stacks, every bet, call, raise, fold and
vote, the pots, each declaration, how many cards each player exchanged. Private to a
seat: its own cards and its own discards. Never shown during the hand: the stock and its
order, other players' discards. At a showdown the hands of the players still in are
shown; a lone winner does not show; folded hands are never shown.

``view(state, None)`` is the **public view**: a view for no seat, what every seat sees
alike (no cards, no discards, no moves to make). A spectator sees it, and the research
interfaces build their public-only observations from it.

>>> from primero.engine.state import HandState
>>> from primero.engine.dealing import Dealer
>>> s = HandState(["Ana", "Ben", "Cleo", "Dev"], [20, 20, 20, 20])
>>> Dealer.seeded(1).deal_into(s)
>>> v = view(s, 0)
>>> len(v.hand), v.log[1]
(2, 'd dh p2 ?? ??')
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from primero.engine.actions import (
    HIDDEN,
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
    parse_hidden,
)
from primero.engine.cards import Card
from primero.engine.frozen import by_fields
from primero.engine.hands import Category, HandValue
from primero.engine.pots import Award, Pot, live_pots
from primero.engine.rules import Rules
from primero.engine.state import HandState, LegalActions, Phase

__all__ = [
    "HIDDEN",
    "EventKind",
    "LogEvent",
    "SeatView",
    "event_of",
    "parse_event",
    "redact",
    "redact_event",
    "view",
]

#: The kinds of :class:`LogEvent`, one per verb of docs/record-format.md.
EventKind = Literal["deal", "exchange", "bet", "raise", "call", "fold", "vote", "declare"]


class LogEvent(NamedTuple):
    """One line of a hand's record as a seat may see it (R9b), typed: what the sentences,
    the bots, the terminal, the server and the research features read instead of
    splitting record lines.

    Attributes:
        kind: ``"deal"``, ``"exchange"``, ``"bet"``, ``"raise"``, ``"call"``, ``"fold"``,
            ``"vote"`` or ``"declare"``.
        seat: the 0-based seat acting, or dealt to.
        amount: a bet's or raise's amount (chips, the round total of R5), else 0.
        n_cards: how many cards were dealt or exchanged (public), else 0; 0 for
            standing pat.
        cards: the cards dealt or exchanged when this seat may see them (its own), None
            when hidden (another seat's, or a spectator's view); ``()`` for other kinds.
        accept: a vote's answer (R8); False for other kinds.
        category: a declaration's category (R6), else None.
    """

    kind: EventKind
    seat: int
    amount: int = 0
    n_cards: int = 0
    cards: tuple[Card, ...] | None = ()
    accept: bool = False
    category: Category | None = None


def event_of(action: Action) -> LogEvent:
    """The event of an applied ``action``, its cards shown: for the seat that holds them.

    >>> from primero.engine.actions import parse_action
    >>> event_of(parse_action("p2 r 12", 3))
    LogEvent(kind='raise', seat=1, amount=12, n_cards=0, cards=(), accept=False, category=None)
    """
    if isinstance(action, Deal):
        return LogEvent("deal", action.seat, n_cards=len(action.cards), cards=action.cards)
    if isinstance(action, Exchange):
        return LogEvent("exchange", action.seat, n_cards=len(action.cards), cards=action.cards)
    if isinstance(action, Bet):
        return LogEvent("bet", action.seat, amount=action.amount)
    if isinstance(action, Raise):
        return LogEvent("raise", action.seat, amount=action.amount)
    if isinstance(action, Call):
        return LogEvent("call", action.seat)
    if isinstance(action, Fold):
        return LogEvent("fold", action.seat)
    if isinstance(action, Vote):
        return LogEvent("vote", action.seat, accept=action.accept)
    assert isinstance(action, Declare)
    return LogEvent("declare", action.seat, category=action.category)


def redact_event(action: Action, seat: int | None) -> LogEvent:
    """The event of ``action`` as ``seat`` may see it (R9b): the typed twin of
    :func:`redact`, hiding the same cards (another seat's deal or exchange: ``cards``
    None, their number public; standing pat hides nothing). ``seat`` None is a spectator.

    >>> from primero.engine.actions import parse_action
    >>> deal = parse_action("d dh p2 7h Kc", 4)
    >>> redact_event(deal, 0).cards is None, redact_event(deal, 1).cards == deal.cards
    (True, True)
    """
    if isinstance(action, Deal | Exchange) and action.seat != seat and action.cards:
        kind: EventKind = "deal" if isinstance(action, Deal) else "exchange"
        return LogEvent(kind, action.seat, n_cards=len(action.cards), cards=None)
    return event_of(action)


def parse_event(line: str, players: int) -> LogEvent:
    """The event of one record line as a seat sees it (docs/record-format.md), hidden
    cards (``??``) included: for code given record lines rather than a view (a test, a
    record read back), so that nothing else splits a record line.

    Args:
        line: a record line, e.g. ``"p2 r 12"`` or ``"d dh p3 ?? ??"``.
        players: the number of seats of the hand.

    Raises:
        LineError: the line does not follow the record's grammar.

    >>> parse_event("d dh p3 ?? ??", 4)
    LogEvent(kind='deal', seat=2, amount=0, n_cards=2, cards=None, accept=False, category=None)
    """
    hidden = parse_hidden(line, players)
    if hidden is None:
        return event_of(parse_action(line, players))
    kind, seat, count = hidden
    return LogEvent("deal" if kind == "deal" else "exchange", seat, n_cards=count, cards=None)


@dataclass(frozen=True, slots=True, init=False)
class SeatView:
    """A hand as one seat may see it (R9b).

    Attributes:
        seat: the 0-based seat seeing it, or None for a spectator.
        players: names in seat order p1…pN; the dealer is the last.
        rules: the house rules in force.
        phase: where the hand is.
        to_act: the seat to act, -1 when the dealer is due, None when the hand is over.
        legal: what this seat may do now, or None when it is not this seat's move.
        hand: this seat's cards (empty for a spectator or a folded seat).
        discards: this seat's own discards still out of play (in this deal, and not
            shuffled back into the stock by R8b): cards it knows are not in the stock.
        hand_sizes: how many cards each seat holds.
        exchanges: for each seat, the number of cards of each exchange it made (public).
        stacks: chips in front of each seat.
        contributed: chips each seat put in this hand, antes included.
        round_bets: chips each seat put in during the current betting round.
        current_bet: the round's bet to match, or None when no bet is open.
        pending_bet: ``(seat, amount, is_raise)`` of a bet being voted on (R8), or None.
        cap: for the seat to act after a refusal, amounts must stay below this (R8).
        folded: whether each seat has folded.
        declared: each seat's declaration, or None.
        stock_count: cards left in the stock (their identity and order are hidden).
        void_deals: deals voided so far in this hand (R4.3).
        public_log: the record lines so far as every seat sees them (cards as ``??``).
        private_log: ``(index, line)`` of this seat's own deal and exchange lines.
        shown: at a showdown, each seat's shown hand value, else None (R9b).
        shown_cards: at a showdown, each seat's shown cards, else None.
        awards: when the hand is over, who won each pot; else empty.
        final_stacks: when the hand is over, the stacks after it; else None.
        public_events: the record so far as typed events every seat sees (cards hidden),
            one per line of ``public_log``.
        private_events: ``(index, event)`` of this seat's own deal and exchange events.
    """

    seat: int | None
    players: tuple[str, ...]
    rules: Rules
    phase: Phase
    to_act: int | None
    legal: LegalActions | None
    hand: tuple[Card, ...]
    discards: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    exchanges: tuple[tuple[int, ...], ...]
    stacks: tuple[int, ...]
    contributed: tuple[int, ...]
    round_bets: tuple[int, ...]
    current_bet: int | None
    pending_bet: tuple[int, int, bool] | None
    cap: int | None
    folded: tuple[bool, ...]
    declared: tuple[Category | None, ...]
    stock_count: int
    void_deals: int
    public_log: tuple[str, ...]
    private_log: tuple[tuple[int, str], ...]
    shown: tuple[HandValue | None, ...]
    shown_cards: tuple[tuple[Card, ...] | None, ...]
    awards: tuple[Award, ...]
    final_stacks: tuple[int, ...] | None
    public_events: tuple[LogEvent, ...]
    private_events: tuple[tuple[int, LogEvent], ...]

    def __init__(
        self,
        seat: int | None,
        players: tuple[str, ...],
        rules: Rules,
        phase: Phase,
        to_act: int | None,
        legal: LegalActions | None,
        hand: tuple[Card, ...],
        discards: tuple[Card, ...],
        hand_sizes: tuple[int, ...],
        exchanges: tuple[tuple[int, ...], ...],
        stacks: tuple[int, ...],
        contributed: tuple[int, ...],
        round_bets: tuple[int, ...],
        current_bet: int | None,
        pending_bet: tuple[int, int, bool] | None,
        cap: int | None,
        folded: tuple[bool, ...],
        declared: tuple[Category | None, ...],
        stock_count: int,
        void_deals: int,
        public_log: tuple[str, ...],
        private_log: tuple[tuple[int, str], ...],
        shown: tuple[HandValue | None, ...],
        shown_cards: tuple[tuple[Card, ...] | None, ...],
        awards: tuple[Award, ...],
        final_stacks: tuple[int, ...] | None,
        public_events: tuple[LogEvent, ...] = (),
        private_events: tuple[tuple[int, LogEvent], ...] = (),
    ) -> None:
        """Set each field, as the generated ``__init__`` would (a compiled one is
        10 times as fast: ``setup.py``)."""
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "to_act", to_act)
        object.__setattr__(self, "legal", legal)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "discards", discards)
        object.__setattr__(self, "hand_sizes", hand_sizes)
        object.__setattr__(self, "exchanges", exchanges)
        object.__setattr__(self, "stacks", stacks)
        object.__setattr__(self, "contributed", contributed)
        object.__setattr__(self, "round_bets", round_bets)
        object.__setattr__(self, "current_bet", current_bet)
        object.__setattr__(self, "pending_bet", pending_bet)
        object.__setattr__(self, "cap", cap)
        object.__setattr__(self, "folded", folded)
        object.__setattr__(self, "declared", declared)
        object.__setattr__(self, "stock_count", stock_count)
        object.__setattr__(self, "void_deals", void_deals)
        object.__setattr__(self, "public_log", public_log)
        object.__setattr__(self, "private_log", private_log)
        object.__setattr__(self, "shown", shown)
        object.__setattr__(self, "shown_cards", shown_cards)
        object.__setattr__(self, "awards", awards)
        object.__setattr__(self, "final_stacks", final_stacks)
        object.__setattr__(self, "public_events", public_events)
        object.__setattr__(self, "private_events", private_events)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (:func:`~primero.engine.frozen.by_fields`)."""
        return by_fields(self)

    @property
    def log(self) -> tuple[str, ...]:
        """The record lines so far, with cards this seat may not see written ``??`` (R9b)."""
        if not self.private_log:
            return self.public_log
        lines = list(self.public_log)
        for index, line in self.private_log:
            lines[index] = line
        return tuple(lines)

    @property
    def events(self) -> tuple[LogEvent, ...]:
        """The record so far as typed events, one per line of :attr:`log`, with the cards
        this seat may not see hidden (``cards`` None; R9b)."""
        if not self.private_events:
            return self.public_events
        events = list(self.public_events)
        for index, event in self.private_events:
            events[index] = event
        return tuple(events)

    @property
    def pots(self) -> tuple[Pot, ...]:
        """The pots as they stand (R7); see :func:`primero.engine.pots.live_pots`."""
        if self.awards:
            return tuple(a.pot for a in self.awards)
        return tuple(live_pots(self.contributed, self.folded, self.stacks))

    @property
    def n(self) -> int:
        """The number of seats."""
        return len(self.players)

    @property
    def pot_total(self) -> int:
        """All chips in the pots (chips)."""
        return sum(self.contributed)

    @property
    def still_in(self) -> tuple[int, ...]:
        """Seats that have not folded, in seat order."""
        return tuple(s for s in range(self.n) if not self.folded[s])

    @property
    def to_call(self) -> int:
        """Chips this seat needs to put in to match the open bet (0 if none or a spectator)."""
        if self.seat is None or self.current_bet is None:
            return 0
        return min(self.current_bet - self.round_bets[self.seat], self.stacks[self.seat])


def redact(action: Action, seat: int | None) -> str:
    """The record line of ``action`` as ``seat`` may see it (R9b).

    Cards dealt to or discarded by another seat are written ``??`` (their number is
    public); everything else is public. ``seat`` None is a spectator.

    >>> from primero.engine.actions import parse_action
    >>> deal = parse_action("d dh p2 7h Kc", 4)
    >>> redact(deal, None), redact(deal, 0), redact(deal, 1)
    ('d dh p2 ?? ??', 'd dh p2 ?? ??', 'd dh p2 7h Kc')
    """
    if isinstance(action, Deal | Exchange) and action.seat != seat:
        return action.hidden_line()
    return action.line()


@dataclass(slots=True)
class _Log:
    """A hand's record as each seat sees it, for ``count`` actions (the last one ``last``)."""

    count: int = 0
    last: Action | None = None
    public: list[str] = field(default_factory=list)
    #: per seat: ``(index, line)`` of its own deal and exchange lines, cards shown
    private: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    #: the same as typed events (:class:`LogEvent`)
    public_events: list[LogEvent] = field(default_factory=list)
    private_events: dict[int, list[tuple[int, LogEvent]]] = field(default_factory=dict)


#: One lock for every hand's redacted record (kept in ``HandState.view_cache``): a view
#: per decision extends the record instead of rewriting it, and two threads viewing one
#: hand do not extend it twice.
_LOGS_LOCK = threading.Lock()


def _log(state: HandState) -> _Log:
    """The redacted record of ``state`` up to its last action (R9b).

    Kept in ``state.view_cache`` and extended as the hand grows (a hand's actions only
    grow: ``HandState.apply_unchecked`` appends); a log whose count or last action no
    longer matches the hand's record is rebuilt.
    """
    actions = state.actions
    with _LOGS_LOCK:
        log = state.view_cache
        if (
            not isinstance(log, _Log)
            or log.count > len(actions)
            or (log.count and actions[log.count - 1] is not log.last)
        ):
            log = _Log()
            state.view_cache = log
        for index in range(log.count, len(actions)):
            action = actions[index]
            log.public.append(redact(action, None))
            log.public_events.append(redact_event(action, None))
            if isinstance(action, Deal | Exchange):
                log.private.setdefault(action.seat, []).append((index, action.line()))
                own = (index, event_of(action))
                log.private_events.setdefault(action.seat, []).append(own)
        if actions:
            log.count, log.last = len(actions), actions[-1]
        return log


def view(state: HandState, seat: int | None) -> SeatView:
    """What ``seat`` may see of ``state`` now (R9b).

    Args:
        state: the hand.
        seat: a 0-based seat of the hand, or None for the public view (a spectator's:
            what every seat sees, no cards).

    Returns:
        The :class:`SeatView`.

    Raises:
        ValueError: ``seat`` is not a seat of this hand.
    """
    if seat is not None and not 0 <= seat < state.n:
        raise ValueError(f"no seat {seat}: this hand has seats 0..{state.n - 1}")
    to_act = state.to_act
    log = _log(state)
    legal = state.legal_actions() if seat is not None and to_act == seat else None
    bettor = state.vote_bettor
    pending = None if bettor < 0 else (bettor, state.vote_amount, state.vote_raise)
    result = state.result
    shown: tuple[HandValue | None, ...] = (None,) * state.n
    shown_cards: tuple[tuple[Card, ...] | None, ...] = (None,) * state.n
    awards: tuple[Award, ...] = ()
    final: tuple[int, ...] | None = None
    if result is not None:
        shown, shown_cards, awards, final = (
            result.shown,
            result.shown_cards,
            result.awards,
            result.final_stacks,
        )
    return SeatView(
        seat=seat,
        players=state.players,
        rules=state.rules,
        phase=state.phase,
        to_act=to_act,
        legal=legal,
        hand=tuple(state.hands[seat]) if seat is not None else (),
        discards=tuple(state.own_discards[seat]) if seat is not None else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        exchanges=tuple(tuple(e) for e in state.exchanges),
        stacks=tuple(state.stacks),
        contributed=tuple(state.contributed),
        round_bets=tuple(state.round_bets),
        current_bet=state.current_bet,
        pending_bet=pending,
        cap=state.cap if seat == state.turn and bettor < 0 else None,
        folded=tuple(state.folded),
        declared=tuple(state.declared),
        stock_count=state.stock_count,
        void_deals=state.void_deals,
        public_log=tuple(log.public),
        private_log=tuple(log.private.get(seat, ())) if seat is not None else (),
        shown=shown,
        shown_cards=shown_cards,
        awards=awards,
        final_stacks=final,
        public_events=tuple(log.public_events),
        private_events=tuple(log.private_events.get(seat, ())) if seat is not None else (),
    )
