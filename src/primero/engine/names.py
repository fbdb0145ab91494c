"""Player names, as docs/record-format.md and rules.md ("Decisions where the source is silent")
define them: at least one character that is not white space, no white space at the start
or the end, no control characters; the names of one hand or match are distinct.

>>> name_problem("Ana") is None
True
>>> name_problem(" Ana")
"the player name ' Ana' starts with white space"
>>> check_player_names(["Ana", "Ana"])
Traceback (most recent call last):
...
primero.engine.rules.RulesError: player names must be distinct: 'Ana' is there twice
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from primero.engine.rules import RulesError

__all__ = ["check_player_names", "name_problem"]


def name_problem(name: object) -> str | None:
    """What is wrong with one player name, in words, or None when it is a valid name.

    Args:
        name: the name (anything: a non-string is a problem too).

    Returns:
        None for a string with at least one character that is not white space, no white
        space at its start or end, and no control character (Unicode category Cc: tab,
        line break, escape…); else a sentence saying what is wrong.
    """
    if not isinstance(name, str):
        return f"a player name is a string, not {name!r}"
    if not name.strip():
        what = "empty" if not name else "only white space"
        return (
            f"the player name {name!r} is {what}: a name needs a character that is not white space"
        )
    for ch in name:
        if unicodedata.category(ch) == "Cc":
            return (
                f"the player name {name!r} holds a control character (U+{ord(ch):04X}), "
                "which names may not hold"
            )
    if name[0].isspace():
        return f"the player name {name!r} starts with white space"
    if name[-1].isspace():
        return f"the player name {name!r} ends with white space"
    return None


def check_player_names(names: Iterable[object]) -> None:
    """Check the player names of a hand, a match or a record.

    Args:
        names: the names, in seat (or table) order.

    Raises:
        RulesError: a name that :func:`name_problem` refuses (the message says what is
            wrong with which name), or the same name twice.
    """
    seen: set[str] = set()
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise RulesError(problem)
        assert isinstance(name, str)
        if name in seen:
            raise RulesError(f"player names must be distinct: {name!r} is there twice")
        seen.add(name)
