"""Where each action of a record file is, and a record error in words (docs/record-format.md).

Records number their actions from 0 in JSON (``index``, as the specification says); a
person reads the file in an editor. So every message for a person names the line of the
file and the action's number counted from 1 (the numbers of the hand log and of the
step-through viewer), in one wording for ``primero replay`` and ``primero watch``::

    hand.prh:47: action 33 ('p2 r 5') is invalid: p2 may call 4 or fold …
    hand.prh: invalid record: a hand holds 2 to 6 players (max_players), not 7

>>> text = 'variant = "primero"\\nactions = [\\n  "d dh p1 7h 6h",  # p1\\n  "p1 b 2",\\n]\\n'
>>> action_lines(text, "toml")
[3, 4]
>>> action_lines('{"actions": ["a",\\n "b", 5]}', "json")
[1, 2, 2]
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final, Literal

from primero.engine.history import RecordError

__all__ = ["action_lines", "action_lines_of_file", "describe_error", "where"]

_TOML_KEY: Final = re.compile(r"""^[ \t]*(?:actions|"actions"|'actions')[ \t]*=[ \t]*\[""", re.M)
_TOML_TABLE: Final = re.compile(r"^[ \t]*\[", re.M)
_JSON_KEY: Final = re.compile(r'"actions"\s*:\s*\[')


def _string_end(text: str, i: int, fmt: Literal["toml", "json"]) -> int:
    """The index just after the string that starts at ``text[i]`` (a quote)."""
    quote = text[i]
    if fmt == "toml" and text.startswith(quote * 3, i):
        end = text.find(quote * 3, i + 3)
        if end < 0:
            return len(text)
        end += 3
        while end < len(text) and text[end] == quote:  # up to two quotes inside
            end += 1
        return end
    j = i + 1
    while j < len(text):
        ch = text[j]
        if ch == "\\" and quote == '"':
            j += 2
            continue
        if ch == quote or ch == "\n":
            return j + 1
        j += 1
    return j


def action_lines(text: str, fmt: Literal["toml", "json"]) -> list[int] | None:
    """The line of the file (counted from 1) where each entry of ``actions`` starts.

    Args:
        text: the record file's text.
        fmt: ``"toml"`` (``.prh``) or ``"json"``.

    Returns:
        One line number per entry of the ``actions`` array, in order (entries that are
        not strings included), or None when no ``actions`` array is found (the text is
        not a record; messages then give the action's number alone).
    """
    if fmt == "toml":
        match = _TOML_KEY.search(text)
        table = _TOML_TABLE.search(text)
        if match is not None and table is not None and table.start() < match.start():
            return None  # top-level keys come before the first [table]: not the record's
    else:
        match = _JSON_KEY.search(text)
    if match is None:
        return None
    lines: list[int] = []
    line = text.count("\n", 0, match.end()) + 1
    depth = 0
    expecting = True  # the next value starts an entry
    i = match.end()
    while i < len(text):
        ch = text[i]
        if ch == "\n":
            line += 1
        elif ch == "#" and fmt == "toml":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        elif ch in " \t\r":
            pass
        elif ch == "," and depth == 0:
            expecting = True
        elif ch == "]" and depth == 0:
            return lines
        else:
            if expecting and depth == 0:
                lines.append(line)
                expecting = False
            if ch in "\"'":
                end = _string_end(text, i, fmt)
                line += text.count("\n", i, end)
                i = end
                continue
            if ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
        i += 1
    return lines


def action_lines_of_file(path: str | Path) -> list[int] | None:
    """:func:`action_lines` of a record file (TOML unless its name ends in ``.json``);
    None when it cannot be read."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return action_lines(text, "json" if p.suffix.lower() == ".json" else "toml")


def where(index: int, lines: list[int] | None) -> int | None:
    """The file line of action ``index`` (0-based), or None when it is not known."""
    if lines is None or not 0 <= index < len(lines):
        return None
    return lines[index]


def describe_error(name: str, error: RecordError, lines: list[int] | None) -> str:
    """A record error in words, for a person (``replay`` and ``watch`` alike).

    Args:
        name: how to name the file (its path as given).
        error: the error (``index`` None for the header).
        lines: :func:`action_lines` of the file, or None.

    Returns:
        ``"NAME:LINE: action K ('LINE TEXT') is invalid: MESSAGE"`` with ``K`` counted
        from 1 (the file line left out when unknown), or ``"NAME: invalid record:
        MESSAGE"`` for a header error.
    """
    if error.index is None:
        return f"{name}: invalid record: {error.message}"
    line = where(error.index, lines)
    at = f"{name}:{line}" if line is not None else name
    text = f"({error.line!r})" if error.line else "(not a string)"
    return f"{at}: action {error.index + 1} {text} is invalid: {error.message}"
