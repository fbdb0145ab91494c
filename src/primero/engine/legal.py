"""What the one to act may do now (R4–R8), and the check of an action against it.

:class:`LegalActions` is the answer of ``HandState.legal_actions()``; :func:`check_action`
raises the specific error for an action the rules do not allow, changing nothing.

>>> LegalActions(0, exchange=(1, 2), bet=(1, 20)).kinds()
['x1', 'x2', 'b']
>>> LegalActions(0, exchange=(1, 2), bet=(1, 20)).describe()
'p1 may exchange 1 or 2 cards or bet between 1 and 20 chips'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

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
    seat_name,
)
from primero.engine.cards import Card, format_cards
from primero.engine.errors import (
    BadAmountError,
    BadCardsError,
    BadDeclarationError,
    HandOverError,
    WrongTurnError,
)
from primero.engine.frozen import by_fields
from primero.engine.hands import Category, evaluate
from primero.engine.words import BET, RAISE, allowed_words, first_bet

__all__ = ["DEALER", "HandLike", "LegalActions", "check_action", "line_limit"]

#: The value of ``HandState.to_act`` (and ``LegalActions.seat``) when a deal line is due.
DEALER: Final = -1


@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(
        self,
        seat: int | None,
        deal: int = 0,
        exchange: tuple[int, ...] = (),
        bet: tuple[int, int] | None = None,
        raise_to: tuple[int, int] | None = None,
        call: int | None = None,
        fold: bool = False,
        vote: bool = False,
        declare: tuple[Category, ...] = (),
    ) -> None:
        """Set each field, as the generated ``__init__`` would (a compiled one is
        10 times as fast: ``setup.py``)."""
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "deal", deal)
        object.__setattr__(self, "exchange", exchange)
        object.__setattr__(self, "bet", bet)
        object.__setattr__(self, "raise_to", raise_to)
        object.__setattr__(self, "call", call)
        object.__setattr__(self, "fold", fold)
        object.__setattr__(self, "vote", vote)
        object.__setattr__(self, "declare", declare)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle and copy by the constructor (:func:`~primero.engine.frozen.by_fields`)."""
        return by_fields(self)

    def kinds(self) -> list[str]:
        """The kinds of record line legal now, as docs/record-format.md lists them.

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
        """A short sentence listing what is allowed, for error messages and prompts:
        :func:`primero.engine.words.allowed_words` for this seat (``"p1 may …"``)."""
        who = "the dealer" if self.seat == DEALER else seat_name(self.seat or 0)
        return allowed_words(self, who)


class HandLike(Protocol):
    """What :func:`check_action` reads of a hand: :class:`~primero.engine.state.HandState`
    has all of it (a protocol, so that this module does not import the state's)."""

    @property
    def hands(self) -> Sequence[Sequence[Card]]: ...
    @property
    def deals_due(self) -> Sequence[tuple[int, int]]: ...
    @property
    def stock_count(self) -> int: ...
    @property
    def in_stock(self) -> Sequence[bool]: ...

    def legal_actions(self) -> LegalActions: ...
    def stock(self) -> list[Card]: ...
    def recyclable(self, seat: int) -> list[Card]: ...


def line_limit(players: int, max_stack: int) -> int:
    """The most record lines one deal of a hand can have: from its first deal line to
    its end or its voiding (R4–R8b).

    Every legal hand stays within it, so a driver that goes past it has met a rule bug
    (:func:`primero.engine.match.play_hand` raises then). Void deals (R4.3) start the count
    again: their number has no limit in the rules.

    The count, for ``n`` players and a largest stack of ``B`` chips: at most ``7n``
    deal and exchange lines (R4.2–R4.6); in each of the three betting rounds a
    standing bet or raise strictly raises the bet to match, within ``0..B`` (R5), so at
    most ``B + 1`` of them, each followed by at most ``n - 1`` calls or folds, plus ``n``
    first-round exchanges: ``(B + 2) n`` turns; a turn is at most ``B`` refused bets of
    ``n`` lines each (the refused amounts strictly fall and stay >= 1, R8), a last action
    with up to ``n - 1`` votes, and a declaration (R6): ``(B + 1) n + 1`` lines.

    Args:
        players: players in the hand (2..8).
        max_stack: the largest starting stack, in chips (>= 0).

    Returns:
        The bound, a number of record lines.

    >>> line_limit(4, 3)
    1048
    """
    turns = (max_stack + 2) * players
    per_turn = (max_stack + 1) * players + 1
    return 7 * players + 3 * turns * per_turn


def check_action(state: HandLike, action: Action) -> None:
    """Raise the error ``state.apply(action)`` would raise, or return None if legal.

    Args:
        state: the hand.
        action: the action to check; nothing is changed.

    Raises:
        HandOverError: the hand is complete.
        WrongTurnError: another seat (or the dealer) is to act, or this kind of action is
            not legal now.
        BadAmountError: a bet or raise outside the allowed range (R5, R8).
        BadCardsError: exchange cards not held or the wrong count; deal cards not in the
            stock (R8b) or the wrong count.
        BadDeclarationError: a declaration below the hand's category (R6).
    """
    legal = state.legal_actions()
    if legal.seat is None:
        raise HandOverError(f"the hand is over: no more actions ({action.line()!r})")
    if isinstance(action, Deal):
        _check_deal(state, action, legal)
        return
    if legal.seat == DEALER:
        raise WrongTurnError(f"a deal line is due: {legal.describe()}")
    if action.seat != legal.seat:
        raise WrongTurnError(f"{seat_name(action.seat)} may not act now: {legal.describe()}")
    kind_ok = True
    if isinstance(action, Vote):
        kind_ok = legal.vote
    elif isinstance(action, Declare):
        kind_ok = bool(legal.declare)
        if kind_ok and action.category not in legal.declare:
            held = evaluate(tuple(state.hands[action.seat])).category.name.lower()
            raise BadDeclarationError(
                f"{seat_name(action.seat)} holds a {held} and may not declare "
                f"{action.category.name.lower()}, which is lower (R6): {legal.describe()}"
            )
    elif legal.declare and not (isinstance(action, Fold) and legal.fold):
        kind_ok = False
    elif isinstance(action, Exchange):
        kind_ok = bool(legal.exchange)
        if kind_ok:
            _check_exchange(state, action, legal)
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
                f"{seat_name(action.seat)} may not {BET if first_bet(legal) else RAISE} "
                f"{action.amount}: {legal.describe()}"
            )
    elif isinstance(action, Call):
        kind_ok = legal.call is not None
    elif isinstance(action, Fold):
        kind_ok = legal.fold
    if not kind_ok:
        raise WrongTurnError(f"{action.line()!r} is not allowed now: {legal.describe()}")


def _check_exchange(state: HandLike, action: Exchange, legal: LegalActions) -> None:
    who = seat_name(action.seat)
    if len(action.cards) not in legal.exchange:
        raise BadCardsError(
            f"{who} may not exchange {len(action.cards)} cards now: {legal.describe()}"
        )
    if len(set(action.cards)) != len(action.cards):
        raise BadCardsError("a card is named twice in the exchange")
    hand = state.hands[action.seat]
    for card in action.cards:
        if card not in hand:
            raise BadCardsError(f"{who} does not hold {card}: holds {format_cards(hand)}")


def _check_deal(state: HandLike, action: Deal, legal: LegalActions) -> None:
    if legal.seat != DEALER:
        raise WrongTurnError(f"no deal is due now: {legal.describe()}")
    seat, count = state.deals_due[0]
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
    if state.stock_count >= count:
        for card in cards:
            if not state.in_stock[card.id]:
                raise BadCardsError(f"{card} is not in the stock")
        return
    # R8b: the stock runs out: every stock card first, then recycled discards.
    stock = [c for c in cards if state.in_stock[c.id]]
    if len(stock) != state.stock_count:
        raise BadCardsError(
            f"the stock holds {state.stock_count} card{'s' if state.stock_count != 1 else ''} "
            f"({format_cards(state.stock())}) and "
            f"{seat_name(seat)} is due {count}: all of them must be dealt first (R8b)"
        )
    recyclable = set(state.recyclable(seat))
    for card in cards:
        if not state.in_stock[card.id] and card not in recyclable:
            raise BadCardsError(
                f"{card} is neither in the stock nor among the reshuffled discards (R8b)"
            )
