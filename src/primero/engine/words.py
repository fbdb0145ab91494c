"""Moves in words, once: a move's name, what a seat may do, and the cards' points.

Every front end and every layer names moves through these functions: the engine's
error messages (:meth:`~primero.engine.legal.LegalActions.describe`), the sentences and
refusals of the table model (``primero.play.tablemodel.sentences``), the guided hand
(``primero learn`` and the web page's ``?learn``), the research interfaces' action
strings (``primero.research.actionids.describe``) and, through the server's messages,
the web client, which words no move itself (docs/protocol.md).

>>> from primero.engine.actions import Bet, Raise
>>> move_name(Bet(0, 5)), move_name(Bet(0, 0)), move_name(Raise(1, 12))
('bet 5', 'check', 'raise to 12')
>>> points_words()
'7 = 21, 6 = 18, A = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, face cards 10'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from primero.engine.actions import Action, Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import Card, Rank
from primero.engine.hands import Category

__all__ = [
    "BET",
    "EXCHANGE",
    "RAISE",
    "Allowed",
    "allowed_words",
    "capital",
    "chips_words",
    "exchange_name",
    "first_bet",
    "is_raise_over",
    "move_name",
    "or_list",
    "plural",
    "points_words",
]

#: The verb of a bet (``b``) and of a raise (``r``), as a person chooses them (R5).
BET = "bet"
RAISE = "raise to"
#: The verb of an exchange (``x``) of one card or more (R4.3, R4.6).
EXCHANGE = "exchange"


def is_raise_over(is_raise: bool, current_bet: int | None) -> bool:
    """Whether an ``r`` move over the round's bet ``current_bet`` (chips, None: no bet
    open) reads as a raise: over a bet of 0 (everyone so far checked) it is the round's
    first bet, said "bet" (R5).

    >>> is_raise_over(True, 5), is_raise_over(True, 0), is_raise_over(False, 5)
    (True, False, False)
    """
    return is_raise and bool(current_bet)


def first_bet(legal: Allowed) -> bool:
    """Whether the seat's ``r`` move is the round's first bet: a raise is legal over a
    bet of 0 (everyone so far checked, so checking is free: ``call`` is 0), R5.

    A raise with nothing to call happens only over a bet of 0: a seat that has matched
    a bet above 0 does not act again in that round.
    """
    return legal.raise_to is not None and legal.call == 0


class Allowed(Protocol):
    """What :func:`allowed_words` reads of a
    :class:`~primero.engine.legal.LegalActions` (a protocol, as ``legal`` imports this
    module for its messages)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def deal(self) -> int: ...
    @property
    def exchange(self) -> tuple[int, ...]: ...
    @property
    def bet(self) -> tuple[int, int] | None: ...
    @property
    def raise_to(self) -> tuple[int, int] | None: ...
    @property
    def call(self) -> int | None: ...
    @property
    def fold(self) -> bool: ...
    @property
    def vote(self) -> bool: ...
    @property
    def declare(self) -> tuple[Category, ...]: ...


#: The seat label of the dealer in :class:`~primero.engine.legal.LegalActions` (R3).
_DEALER = -1


def plural(k: int, word: str) -> str:
    """``"1 card"``, ``"2 cards"``, ``"0 chips"``.

    >>> plural(1, "chip"), plural(3, "card")
    ('1 chip', '3 cards')
    """
    return f"{k} {word}{'' if k == 1 else 's'}"


def or_list(parts: Sequence[str]) -> str:
    """``"a"``, ``"a or b"``, ``"a, b or c"``.

    >>> or_list(["stand pat", "check", "fold"])
    'stand pat, check or fold'
    """
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def capital(text: str) -> str:
    """The text with its first letter in capitals (a button's label): ``"Stand pat"``."""
    return text[:1].upper() + text[1:]


def chips_words(span: tuple[int, int]) -> str:
    """An amount range in chips (R5): ``"5 chips"``, ``"between 1 and 96 chips"``.

    >>> chips_words((1, 1)), chips_words((1, 96))
    ('1 chip', 'between 1 and 96 chips')
    """
    low, high = span
    if low == high:
        return plural(low, "chip")
    return f"between {low} and {high} chips"


def move_name(
    action: Action,
    *,
    to_call: int | None = None,
    card_text: Callable[[Card], str] | None = None,
) -> str:
    """A move as the person chooses it, in the imperative, lower case (R4–R8): the one
    name of each move (:func:`capital` makes a button's label of it).

    Args:
        action: a player's action (a deal is not a move).
        to_call: for a :class:`~primero.engine.actions.Call`, the chips it puts in (0:
            ``"check"``); None when not known: ``"call or check"``.
        card_text: how to write each card of an exchange (``str``: ``"7h"``;
            ``Card.pretty``: ``"7♥"``); None names their number: ``"exchange 2 cards"``.

    Returns:
        ``"bet 5"``, ``"check"`` (a bet of 0), ``"raise to 12"``, ``"call 3"``,
        ``"fold"``, ``"accept the bet"``, ``"refuse the bet"``, ``"declare primero"``,
        ``"stand pat"``, ``"exchange 2 cards"``; ``"make that move"`` for a deal.

    >>> from primero.engine.actions import Call, Exchange
    >>> from primero.engine.cards import parse_card
    >>> move_name(Call(0), to_call=3), move_name(Call(0), to_call=0), move_name(Call(0))
    ('call 3', 'check', 'call or check')
    >>> x = Exchange(0, (parse_card("7h"),))
    >>> move_name(x), move_name(x, card_text=str), move_name(Exchange(0, ()))
    ('exchange 1 card', 'exchange 7h', 'stand pat')
    """
    if isinstance(action, Vote):
        return "accept the bet" if action.accept else "refuse the bet"
    if isinstance(action, Exchange):
        if not action.cards or card_text is None:
            return exchange_name(len(action.cards))
        return f"{EXCHANGE} " + " ".join(card_text(c) for c in action.cards)
    if isinstance(action, Bet):
        return "check" if action.amount == 0 else f"{BET} {action.amount}"
    if isinstance(action, Raise):
        return f"{RAISE} {action.amount}"
    if isinstance(action, Call):
        if to_call is None:
            return "call or check"
        return "check" if to_call == 0 else f"call {to_call}"
    if isinstance(action, Fold):
        return "fold"
    if isinstance(action, Declare):
        return f"declare {action.category.label}"
    return "make that move"


def exchange_name(count: int) -> str:
    """An exchange of ``count`` cards as the person chooses it (R4.3, R4.6).

    >>> exchange_name(0), exchange_name(1), exchange_name(2)
    ('stand pat', 'exchange 1 card', 'exchange 2 cards')
    """
    return "stand pat" if count == 0 else f"{EXCHANGE} {plural(count, 'card')}"


def allowed_words(legal: Allowed, who: str | None = None) -> str:
    """What the seat to act may do, without record notation (R4–R8): one sentence for
    a person's prompt and refusals, and for the engine's error messages.

    Args:
        legal: what the seat may do.
        who: the seat as named in an error message (``"p1"``, ``"the dealer"``); None
            says it to the person to act (``"you may …"``), to whom a deal or a hand
            over is "no move to make now".

    Returns:
        ``"you may stand pat, exchange 1 or 2 cards, bet between 1 and 99 chips or
        fold"``; ``"p2 may accept or refuse the bet"``; ``"the dealer may deal 2
        cards"``; ``"nothing: the hand is over"`` (``who`` given, the hand over).

    >>> from primero.engine.legal import LegalActions
    >>> allowed_words(LegalActions(0, vote=True))
    'you may accept or refuse the bet'
    >>> allowed_words(LegalActions(0, exchange=(0, 1), call=0, fold=True), "p1")
    'p1 may stand pat, exchange 1 card, check or fold'
    """
    if legal.seat is None or (who is None and legal.seat == _DEALER):
        return "you have no move to make now" if who is None else "nothing: the hand is over"
    parts: list[str] = []
    if legal.deal:
        parts.append(f"deal {plural(legal.deal, 'card')}")
    if legal.vote:
        parts.append("accept or refuse the bet")
    if legal.declare:
        parts.append("declare " + or_list([c.label for c in legal.declare]))
    else:
        counts = [k for k in legal.exchange if k > 0]
        if 0 in legal.exchange:
            parts.append("stand pat")
        if counts:
            parts.append(f"{EXCHANGE} {or_list([str(k) for k in counts])} card")
            parts[-1] += "" if counts == [1] else "s"
        if legal.bet is not None:
            parts.append(f"{BET} {chips_words(legal.bet)}")
        if legal.raise_to is not None:
            verb = BET if first_bet(legal) else RAISE
            parts.append(f"{verb} {chips_words(legal.raise_to)}")
        if legal.call is not None:
            parts.append("check" if legal.call == 0 else f"call {legal.call}")
    if legal.fold:
        parts.append("fold")
    if not parts:
        return "you have no move to make now" if who is None else f"{who} has no move to make"
    return f"{who or 'you'} may " + or_list(parts)


def points_words() -> str:
    """Each rank's points (R1), from the engine's table, highest first, the faces
    together: what a person reads before counting a hand's points.

    >>> points_words()
    '7 = 21, 6 = 18, A = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, face cards 10'
    """
    ranks = sorted(Rank, key=lambda r: -r.points)
    faces = [r for r in ranks if r >= Rank.JACK]
    parts = [f"{r.char} = {r.points}" for r in ranks if r < Rank.JACK]
    if faces and len({r.points for r in faces}) == 1:
        parts.append(f"face cards {faces[0].points}")
    return ", ".join(parts)
