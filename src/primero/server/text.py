"""The text rules of docs/protocol.md for everything people type, as the server applies
them: the rules themselves are :mod:`primero.play.text`, shared with the terminal's
front ends, so that a name refused in the browser is refused at ``primero play`` too."""

from __future__ import annotations

from primero.play.text import (
    CHAT_LONGEST,
    ID_LONGEST,
    JOINERS,
    NAME_LONGEST,
    SYSTEM_LABELS,
    TABLE_NAME_LONGEST,
    TextError,
    check_name,
    check_person_name,
    clean,
    name_key,
    problem,
    skeleton,
    system_label,
)

__all__ = [
    "CHAT_LONGEST",
    "ID_LONGEST",
    "JOINERS",
    "NAME_LONGEST",
    "SYSTEM_LABELS",
    "TABLE_NAME_LONGEST",
    "TextError",
    "check_name",
    "check_person_name",
    "clean",
    "name_key",
    "problem",
    "skeleton",
    "system_label",
]
