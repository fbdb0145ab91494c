"""The text rules of docs/protocol.md ("Text: names, chat, action ids") for everything people type:
names, table names, chat lines and action ids. Every front end uses these functions and
nothing else: REST (through the Pydantic models of :mod:`primero.server.models`), the
WebSocket, and the terminal's ``primero play`` (:class:`primero.play.table.Table`).

- Text is NFC-normalized, then refused if it holds a character of Unicode category Cc,
  Cs, Co or Cn, or of Cf other than U+200C ZERO WIDTH NON-JOINER / U+200D ZERO WIDTH
  JOINER standing between two other characters (emoji, Persian and Indic names need
  them). Bidirectional overrides (U+202E ...) are Cf: refused. The message names the
  character and its position (1-based, in the NFC text).
- A name is 1 to 24 characters, with no leading or trailing white space; two names are
  one when their :func:`name_key` is equal: ``casefold(skeleton(name))`` of the name
  decomposed (NFKD) without its combining marks and U+200C/U+200D (``Aná`` is ``Ana``),
  ``skeleton`` being Unicode's confusable skeleton (UTS #39) as computed by ICU's
  SpoofChecker (the ``pyicu-wheels`` package, ICU's own confusables data).
- A person's name may not pass for one of the table's labels (:data:`SYSTEM_LABELS`),
  nor carry a bot's mark, a bot kind in brackets (``Lorenzo (heuristic)``).

>>> clean("Ana", "a name")
'Ana'
>>> name_key("Ana") == name_key("ana") == name_key("\\u0410na") == name_key("Ana\\u0301")
True
>>> problem("Ana\\u200b", "a name")
'A name must not hold U+200B ZERO WIDTH SPACE (an invisible format character) at position 4'
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

import icu  # PyICU (no type stubs: see [tool.mypy] overrides)

__all__ = [
    "CHAT_LONGEST",
    "ID_LONGEST",
    "JOINERS",
    "NAME_LONGEST",
    "SYSTEM_LABELS",
    "TABLE_NAME_LONGEST",
    "TextError",
    "bot_mark",
    "check_name",
    "check_person_name",
    "clean",
    "name_key",
    "problem",
    "skeleton",
]

#: The two format characters allowed between two other characters.
JOINERS = frozenset("\u200c\u200d")
#: Longest person's name, table name, chat line and action id, in characters (docs/protocol.md).
NAME_LONGEST = 24
TABLE_NAME_LONGEST = 40
CHAT_LONGEST = 300
ID_LONGEST = 64

_REFUSED = {
    "Cc": "a control character",
    "Cs": "a surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Cf": "an invisible format character",
}


class TextError(ValueError):
    """Text that breaks a rule of docs/protocol.md; the message says which, in words."""


def _cap(what: str) -> str:
    """``what`` starting a sentence: ``"your name"`` → ``"Your name"``."""
    return what[:1].upper() + what[1:]


def _describe(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} {name}".rstrip()


def problem(text: str, what: str) -> str | None:
    """Why ``text`` (already NFC) may not be used as ``what`` (``"a name"``, ``"a chat
    line"``...), or None when it may: the first refused character, with its position."""
    last = len(text) - 1
    for i, ch in enumerate(text):
        category = unicodedata.category(ch)
        if category not in _REFUSED:
            continue
        if (
            ch in JOINERS
            and 0 < i < last
            and text[i - 1] not in JOINERS
            and text[i + 1] not in JOINERS
        ):
            continue
        kind = _REFUSED[category]
        if ch in JOINERS:
            kind = "a joiner, allowed only between two other characters"
        return f"{_cap(what)} must not hold {_describe(ch)} ({kind}) at position {i + 1}"
    return None


def clean(text: str, what: str) -> str:
    """``text`` NFC-normalized, checked by :func:`problem`.

    Raises:
        TextError: a refused character (the message names it and its position).
    """
    text = unicodedata.normalize("NFC", text)
    why = problem(text, what)
    if why is not None:
        raise TextError(why)
    return text


def check_name(name: str, what: str = "a name", longest: int = NAME_LONGEST) -> str:
    """A person's or table's name, NFC-normalized and checked: 1 to ``longest``
    characters, no leading or trailing white space, the characters of :func:`clean`.

    Raises:
        TextError: the rule it breaks, in words.
    """
    name = clean(name, what)
    if not name:
        raise TextError(f"{_cap(what)} is empty: type a name of 1 to {longest} characters")
    if not 1 <= len(name) <= longest:
        raise TextError(f"{_cap(what)} must be 1 to {longest} characters, not {len(name)}")
    if name != name.strip():
        raise TextError(f"{_cap(what)} must not start or end with white space")
    return name


_lock = threading.Lock()
_checker: icu.SpoofChecker | None = None


def skeleton(text: str) -> str:
    """The confusable skeleton of ``text`` (UTS #39, ICU's data): two strings that look
    alike have one skeleton (``"\\u0410na"`` and ``"Ana"``; ``"m"`` and ``"rn"``).

    >>> skeleton("L\\u043erenzo")
    'Lorenzo'
    """
    global _checker
    with _lock:  # an ICU SpoofChecker is not documented as thread-safe
        if _checker is None:
            _checker = icu.SpoofChecker()
        out: str = _checker.getSkeleton(0, text)
    return out


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """What two names are compared by: ``casefold(skeleton(name))`` of the name decomposed
    (NFKD) without its combining marks (accents: ``Aná`` is ``Ana``) and without U+200C
    and U+200D (docs/protocol.md). Equal keys: one name at a table."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if ch not in JOINERS and not unicodedata.combining(ch))
    key = skeleton(text).casefold()
    return "".join(ch for ch in key if ch not in JOINERS)


#: What the table itself is called on screen and in chat, never a person's name, with
#: what it names there: a spectator's chat name (``Spectator 3``), the host watching
#: (``Host``), the dealer (the ``Dealer`` mark; ``"dealer"`` to act), an open seat (``Open
#: seat``), the reader's own seat (``(you)``, ``Your turn``).
SYSTEM_LABELS = {
    "Spectator": "people watching (Spectator 1, Spectator 2…)",
    "Host": "the host watching",
    "Dealer": "the dealer",
    "Open seat": "a seat nobody has taken",
    "You": "each person's own seat",
}


def _bare(key: str) -> str:
    """A name key without white space and punctuation (``open seat``: ``openseat``)."""
    return "".join(ch for ch in key if unicodedata.category(ch)[0] not in "PZ")


_DIGIT_KEYS = frozenset("".join(name_key(d) for d in "0123456789"))


def system_label(name: str) -> str | None:
    """The label of :data:`SYSTEM_LABELS` that ``name`` passes for, or None. Compared as
    names are (:func:`name_key`: case and look-alike letters), without white space and
    punctuation; ``Spectator`` with a number after it too (``spectator 12``, ``Ѕpectator
    #3`` with a Cyrillic Ѕ).

    >>> system_label("spectator 1"), system_label("HOST"), system_label("Ana")
    ('Spectator', 'Host', None)
    """
    bare = _bare(name_key(name))
    for label in SYSTEM_LABELS:
        key = _bare(name_key(label))
        if bare == key:
            return label
        number = bare[len(key) :]
        if (
            label == "Spectator"
            and bare.startswith(key)
            and all(ch in _DIGIT_KEYS or ch.isdigit() for ch in number)
        ):
            return label
    return None


def check_person_name(name: str, what: str = "a name") -> str:
    """A person's name at a table: :func:`check_name`, and not one of the table's own
    labels (:func:`system_label`): that person would pass for a spectator, the host or
    the dealer.

    Raises:
        TextError: the rule it breaks, in words.
    """
    name = check_name(name, what)
    label = system_label(name)
    if label is not None:
        raise TextError(
            f"{_cap(what)} may not be {name!r}: the table uses {label!r} for "
            f"{SYSTEM_LABELS[label]}; choose another"
        )
    kind = bot_mark(name)
    if kind is not None:
        raise TextError(
            f"{_cap(what)} may not carry {f'({kind})'!r}: the table marks its bots that "
            "way; choose a name without it"
        )
    return name


_BRACKETED = re.compile(r"[(\[{（［](.*?)[)\]}）］]")


def bot_mark(name: str) -> str | None:
    """The bot kind ``name`` carries in brackets, as the table marks its bots
    (``"Lorenzo (heuristic)"``), compared as names are (case and look-alikes), or None.

    >>> bot_mark("Lorenzo (heuristic)"), bot_mark("Ana (RANDOM)"), bot_mark("Ana (Bea)")
    ('heuristic', 'random', None)
    """
    from primero.bots import BOT_KINDS  # the kinds the table names bots by

    kinds = {_bare(name_key(kind)): kind for kind in BOT_KINDS}
    for inner in _BRACKETED.findall(name):
        kind = kinds.get(_bare(name_key(inner.casefold())))  # RANDOM: random
        if kind is not None:
            return kind
    return None
