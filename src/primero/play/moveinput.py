"""What people type, read in one place: moves, numbers and cards (R1, R4–R8).

Every front end that reads a person's input goes through this module: the plain prompt
of ``primero play --plain``, the ``:`` move box and the amount, exchange and declare
modes of the terminal table, and the ``learn`` screen. Records are *not* read here: the
record grammar (:mod:`primero.engine.actions`, :mod:`primero.engine.cards`) stays strict.

- :func:`read_number` reads a whole number of chips: ASCII digits ``0``–``9`` only.
  (``"²"`` passes :meth:`str.isdigit` and then fails in :func:`int`; here it is a clear
  :class:`InputError`.)
- :func:`digit_key` reads one key press as a digit (``"1"`` → 1; ``"²"``, ``"١"`` → None).
- :func:`read_cards` reads typed cards leniently: ``7h``, ``7H``, ``7♥``, ``7♡``, a lower
  case rank (``kc``), and a suit symbol followed by an emoji variation selector (``6♠️``,
  what phone keyboards send).
- :func:`parse_move` turns a typed move (``b 5``, ``x 7h Kc``, ``dc n``) into an action
  checked against the rules, changing nothing.

>>> read_number("12")
12
>>> read_cards(["6♠\\ufe0f", "kc"])
(Card('6s'), Card('Kc'))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

from primero.engine.actions import (
    Action,
    Bet,
    Call,
    Declare,
    Exchange,
    Fold,
    Raise,
    Vote,
    seat_name,
)
from primero.engine.cards import Card, CardError, parse_card, parse_cards
from primero.engine.errors import IllegalActionError
from primero.engine.hands import Category
from primero.engine.state import LegalActions
from primero.engine.words import first_bet

__all__ = [
    "CARD_HELP",
    "MAX_DIGITS",
    "InputError",
    "allowed_text",
    "count_text",
    "digit_key",
    "input_help",
    "parse_move",
    "personal_message",
    "read_card",
    "read_cards",
    "read_number",
    "strip_allowed",
]


class InputError(ValueError):
    """The person's input is not a legal action now.

    The message says what was wrong and lists what is allowed now (from
    :meth:`~primero.engine.state.LegalActions.describe`) with the short input syntax.
    """


#: Most digits a typed number may have: enough for every chip at the biggest table,
#: 8 seats of the largest stack the command line and the server allow (10^9 chips each,
#: docs/protocol.md), 8 * 10^9 chips.
MAX_DIGITS: Final = 10

#: How typed cards are written, for error messages.
CARD_HELP: Final = (
    "a card is a rank A 2 3 4 5 6 7 J Q K then a suit c d h s "
    "(or ♣ ♦ ♥ ♠, or ♧ ♢ ♡ ♤), e.g. 7h or 7♥"
)

_ASCII_DIGITS: Final = re.compile(r"[0-9]+")
#: Emoji and text variation selectors phone keyboards put after a suit symbol.
_VARIATION_SELECTORS: Final = ("\ufe0f", "\ufe0e")


def read_number(text: str, what: str = "chips") -> int:
    """A whole number typed by a person: ASCII digits only, at most :data:`MAX_DIGITS`.

    Args:
        text: what was typed (surrounding white space is ignored).
        what: what the number counts, for the message (``"chips"``).

    Returns:
        The number (>= 0).

    Raises:
        InputError: ``text`` is not made of the digits 0–9 (e.g. ``"²"``, ``"-3"``,
            ``"5.5"``, ``"five"``), or has more than :data:`MAX_DIGITS` digits; the message
            quotes it and says what is allowed.

    >>> read_number(" 07 ")
    7
    """
    word = text.strip()
    if not _ASCII_DIGITS.fullmatch(word):
        raise InputError(f"{word!r} is not a whole number of {what}: type the digits 0-9")
    if len(word) > MAX_DIGITS:
        raise InputError(f"{word!r} is too large a number of {what} ({MAX_DIGITS} digits at most)")
    return int(word)


def digit_key(key: str) -> int | None:
    """The digit a key press stands for: ``"0"``…``"9"`` → 0…9, anything else → None.

    Only the ASCII digits count: ``"²"`` or ``"٣"`` (which pass :meth:`str.isdigit`) are
    not digits here.

    >>> digit_key("3"), digit_key("²"), digit_key("enter")
    (3, None, None)
    """
    if len(key) == 1 and "0" <= key <= "9":
        return ord(key) - ord("0")
    return None


def _card_word(word: str) -> str:
    """A typed card in the notation of R1: variation selectors dropped, rank upper case."""
    for selector in _VARIATION_SELECTORS:
        word = word.replace(selector, "")
    return word[:1].upper() + word[1:]


def read_card(word: str) -> Card:
    """One card as a person types it (R1), leniently (see the module docstring).

    Raises:
        InputError: ``word`` is not a card; the message lists the accepted forms.

    >>> read_card("7♡").pretty
    '7♥'
    """
    try:
        return parse_card(_card_word(word))
    except CardError:
        raise InputError(f"unknown card {word!r}: {CARD_HELP}") from None


def read_cards(words: Sequence[str]) -> tuple[Card, ...]:
    """Several typed cards (each as :func:`read_card`), each named at most once.

    Raises:
        InputError: a word is not a card, or a card is named twice.
    """
    cards = tuple(read_card(w) for w in words)
    try:
        return parse_cards(cards)
    except CardError as exc:
        raise InputError(str(exc)) from None


# --------------------------------------------------------------------- moves

_VERBS: Final[dict[str, str]] = {
    "b": "b",
    "bet": "b",
    "r": "r",
    "raise": "r",
    "c": "c",
    "call": "c",
    "check": "c",
    "k": "c",
    "f": "f",
    "fold": "f",
    "y": "y",
    "yes": "y",
    "accept": "y",
    "n": "n",
    "no": "n",
    "refuse": "n",
    "x": "x",
    "exchange": "x",
    "discard": "x",
    "stand": "x",
    "dc": "dc",
    "declare": "dc",
}

_KIND_NAMES: Final[dict[str, str]] = {
    "Bet": "bet",
    "Raise": "raise",
    "Call": "call or check",
    "Fold": "fold",
    "Vote": "vote (y/n)",
    "Exchange": "exchange",
    "Declare": "declare",
}


def _kind_allowed(action: Action, legal: LegalActions) -> bool:
    if isinstance(action, Vote):
        return legal.vote
    if legal.vote:
        return False
    if isinstance(action, Declare):
        return bool(legal.declare)
    if isinstance(action, Fold):
        return legal.fold
    if legal.declare:
        return False
    if isinstance(action, Bet):
        return legal.bet is not None
    if isinstance(action, Raise):
        return legal.raise_to is not None
    if isinstance(action, Call):
        return legal.call is not None
    if isinstance(action, Exchange):
        return bool(legal.exchange)
    return True


def _parse(text: str, seat: int, legal: LegalActions) -> Action:
    words = text.replace(",", " ").split()
    if not words:
        raise InputError("nothing typed")
    verb = _VERBS.get(words[0].lower())
    args = words[1:]
    if verb is None:
        raise InputError(f"unknown command {words[0]!r}")
    if verb in ("b", "r"):
        if len(args) != 1:
            raise InputError(f"'{words[0]}' takes one amount, e.g. '{verb} 5'")
        amount = read_number(args[0])
        if verb == "b" and legal.bet is None and first_bet(legal):
            return Raise(seat, amount)  # everyone checked: the first bet raises 0 (R5)
        return Bet(seat, amount) if verb == "b" else Raise(seat, amount)
    if args and verb in ("c", "f", "y", "n"):
        raise InputError(f"'{words[0]}' takes nothing after it")
    if verb == "c":
        if legal.call is None and legal.bet is not None and legal.bet[0] == 0:
            return Bet(seat, 0)  # a check with no bet open is a bet of 0 (R5)
        return Call(seat)
    if verb == "f":
        return Fold(seat)
    if verb in ("y", "n"):
        return Vote(seat, verb == "y")
    if verb == "x":
        if words[0].lower() == "stand" and args and args[0].lower() == "pat":
            args = args[1:]
        return Exchange(seat, read_cards(args))
    # declare
    if len(args) != 1:
        raise InputError("'dc' takes one category, e.g. 'dc numerus' or 'dc n'")
    prefix = args[0].lower()
    matches = [c for c in Category if c.label.startswith(prefix)]
    if len(matches) != 1:
        raise InputError(
            f"{args[0]!r} is not a category: chorus, fluxus, supremus, primero, numerus"
        )
    return Declare(seat, matches[0])


def parse_move(
    text: str, seat: int, legal: LegalActions, check: Callable[[Action], None]
) -> Action:
    """Turn a person's typed move into an action legal now (nothing is applied).

    Syntax (case-insensitive words; cards as :func:`read_card`): ``b N`` bet N chips;
    ``r N`` raise the round's bet to N; ``c`` call, or check (with no bet open in rounds
    2 and 3 ``c`` bets 0, R5); ``f`` fold; ``y`` / ``n`` accept / refuse a bet (R8);
    ``x CARDS`` exchange those cards, ``x`` alone stands pat (R4.3, R4.6); ``dc CATEGORY``
    declare (R6), any unambiguous prefix: ``dc f`` = fluxus. Long words work too: bet,
    raise, call, check, fold, yes, no, accept, refuse, exchange, declare.

    Args:
        text: what the person typed (any Unicode).
        seat: the person's 0-based seat.
        legal: what the seat may do now (its view's ``legal``).
        check: the engine's check of an action (:meth:`primero.engine.state.HandState.check`):
            raises :class:`~primero.engine.errors.IllegalActionError` for an illegal one and
            changes nothing.

    Returns:
        The action, checked against the rules (R4–R8).

    Raises:
        InputError: the text is not understood or the action is not legal now; the
            message says why, in the second person, and lists what is allowed now with
            the syntax (:func:`allowed_text`).
    """
    try:
        action = _parse(text, seat, legal)
        kind = _KIND_NAMES.get(type(action).__name__)
        if kind is not None and not _kind_allowed(action, legal):
            raise InputError(f"you cannot {kind} now")
        check(action)
    except (InputError, IllegalActionError, CardError) as exc:
        message = personal_message(strip_allowed(str(exc)), seat)
        raise InputError(f"{message}\n{allowed_text(legal)}") from None
    return action


#: Third-person verbs of the engine's messages and their second-person forms.
_YOU_VERBS: Final[dict[str, str]] = {
    "holds": "hold",
    "does": "do",
    "is": "are",
    "has": "have",
    "was": "were",
}
_CARD_WORD: Final = re.compile(r"(?<![\w♣♦♥♠])([A2-7JQK][cdhs])(?![\w])")
_ONE_CARDS: Final = re.compile(r"\b1 cards\b")


def personal_message(message: str, seat: int) -> str:
    """An engine message about the person's ``seat`` said to the person (second person),
    cards in Unicode, plurals agreeing.

    >>> personal_message("p1 does not hold 7h: holds 5h Kh", 0)
    'you do not hold 7♥: you hold 5♥ K♥'
    >>> personal_message("p2 holds a primero and may not declare numerus", 1)
    'you hold a primero and may not declare numerus'
    >>> personal_message("p1 may not exchange 1 cards now", 0)
    'you may not exchange 1 card now'
    """
    words = message.split(" ")
    me = seat_name(seat)
    out: list[str] = []
    for i, word in enumerate(words):
        if word == me:
            out.append("you")
            continue
        prev = out[-1] if out else ""
        if prev == "you" or (prev.endswith(":") and i > 0 and word in ("holds", "has")):
            if prev != "you":
                out.append("you")
            out.append(_YOU_VERBS.get(word, word))
            continue
        out.append(word)
    text = " ".join(out)
    # Cards named in the message read as 7♥; the typing help keeps its typed example 7h.
    text = CARD_HELP.join(
        _CARD_WORD.sub(lambda m: parse_card(m.group(1)).pretty, part)
        for part in text.split(CARD_HELP)
    )
    return _ONE_CARDS.sub("1 card", text)


def strip_allowed(message: str) -> str:
    """Drop an engine message's ': p1 may …' tail; the allowed list follows separately."""
    for marker in (": p", ": the dealer may"):
        pos = message.find(marker)
        if pos != -1 and " may " in message[pos:]:
            return message[:pos]
    return message


def count_text(counts: Sequence[int]) -> str:
    """``"1 or 2 cards"``, ``"0, 1 or 2 cards"``, ``"1 card"``."""
    words = [str(k) for k in counts]
    text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return f"{text} card{'' if list(counts) == [1] else 's'}"


def input_help(legal: LegalActions) -> list[str]:
    """The short input syntax for each kind of action allowed now, one line each.

    Args:
        legal: what the seat may do (from its view's ``legal``).

    Returns:
        Lines such as ``"b N      bet N chips (1 to 99)"``; empty when nothing is allowed.
    """
    out: list[str] = []
    if legal.vote:
        return ["y        accept the bet", "n        refuse the bet (R8)"]
    if legal.declare:
        names = ", ".join(c.label for c in legal.declare)
        out.append(f"dc CAT   declare one of {names} (prefix ok: dc {legal.declare[0].label[0]})")
        if legal.fold:
            out.append("f        fold")
        return out
    if legal.exchange:
        nonzero = [k for k in legal.exchange if k > 0]
        example = "x 7h Kc" if 0 not in legal.exchange else "x 7h Kc, or x to stand pat"
        if nonzero:
            out.append(f"x CARDS  exchange {count_text(nonzero)}, e.g. {example}")
        else:
            out.append("x        stand pat")
    if legal.bet is not None:
        low, high = legal.bet
        out.append(f"b N      bet N chips ({low} to {high})")
        if low == 0 and legal.call is None:
            out.append("c        check (bet 0)")
    if legal.raise_to is not None:
        low, high = legal.raise_to
        if first_bet(legal):  # everyone checked: no bet stands to raise (R5)
            out.append(f"b N      bet N chips ({low} to {high})")
        else:
            out.append(f"r N      raise the bet to N chips this round ({low} to {high})")
    if legal.call is not None:
        out.append("c        check" if legal.call == 0 else f"c        call {legal.call}")
    if legal.fold:
        out.append("f        fold")
    return out


def allowed_text(legal: LegalActions) -> str:
    """``"allowed now: …"`` and the :func:`input_help` lines, for an error message."""
    what = legal.describe().split(" may ", 1)[-1]
    return f"allowed now: {what}\n" + "\n".join("  " + line for line in input_help(legal))
