"""What a table answers when it refuses: the errors of its requests (HTTP 400, 404, 409),
the ``error`` message of docs/protocol.md, and a broken table's reason in words."""

from __future__ import annotations

import re
from typing import Any

from primero.engine.errors import PrimeroError
from primero.engine.fairdeal import ClientSeedError, check_client_seed
from primero.play.text import TextError, check_person_name

__all__ = [
    "NOTATION",
    "RETRY_WORDS",
    "BadRequest",
    "Conflict",
    "NotFound",
    "checked_joiner",
    "error_message",
    "in_words",
]


class BadRequest(ValueError):
    """A request that cannot be taken (HTTP 400); the message says why."""


class NotFound(LookupError):
    """No such table (HTTP 404)."""


class Conflict(RuntimeError):
    """The request conflicts with the table (HTTP 409), e.g. no open seat."""


def error_message(
    action_id: str | None, message: str, *, stale: bool = False, retry: bool = False
) -> dict[str, Any]:
    """An ``error`` message of docs/protocol.md, with its flags when set."""
    out: dict[str, Any] = {"type": "error", "id": action_id, "message": message}
    if stale:
        out["stale"] = True
    if retry:
        out["retry"] = True
    return out


RETRY_WORDS = "the move could not be saved, so it was not made: send it again"

#: Record notation that must not reach a person: a seat label (``p2``) or a quoted line.
NOTATION = re.compile(r"\bp[1-8]\b|'[^']+'")


def in_words(error: BaseException) -> str:
    """Why a stored table cannot go on, for the people at it (a ``"broken"`` table's
    ``detail``): the error's first line, unless it is the rules' refusal of a stored
    line (``p1 may not bet 99999: …``) or holds record notation; then words that say so
    (the server's log keeps the error itself)."""
    text = str(error).splitlines()[0] if str(error) else ""
    if isinstance(error, PrimeroError) or not text or NOTATION.search(text):
        return "a stored move does not follow the rules (the log of the server says which)"
    return text


def checked_joiner(name: str, client_seed: str | None) -> tuple[str, str | None]:
    """A joiner's name and client seed as the table keeps them (a join and a join request
    alike): the name by docs/protocol.md "Text" (NFC, no invisible characters, not a label
    the table shows for others), the seed by docs/fair-deals.md ("" or None: none).

    Raises:
        BadRequest: the name or the seed is refused (the reason in words).
    """
    try:
        name = check_person_name(name)
    except TextError as exc:
        raise BadRequest(str(exc)) from None
    try:
        return name, check_client_seed(client_seed) if client_seed else None
    except ClientSeedError as exc:
        raise BadRequest(str(exc)) from None
