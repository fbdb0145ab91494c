"""Helpers shared by the server tests: a client's simple policy and card checks."""

from __future__ import annotations

import re
from typing import Any

CARD = re.compile(r"(?<![A-Za-z0-9])([A2-7JQK][cdhs])(?![A-Za-z0-9])")


def choose_line(state: dict[str, Any]) -> str:
    """A legal action line for the seat to act, from its ``legal`` and its cards only:
    accept, declare the lowest allowed (the truth), stand pat, call or check, the
    smallest bet, else exchange the first card, else fold."""
    legal = state["legal"]
    hand = state["hand"]["hand"]
    if legal["vote"]:
        return "y"
    if legal["declare"]:
        return f"dc {legal['declare'][0]}"
    if 0 in legal["exchange"]:
        return "x"
    if legal["call"] is not None:
        return "c"
    if legal["bet"] is not None:
        return f"b {legal['bet'][0]}"
    if legal["exchange"]:
        return "x " + " ".join(hand[: legal["exchange"][0]])
    return "f"


def cards_in(message: Any) -> set[str]:
    """Every card text (``7h``) anywhere in a message's strings."""
    found: set[str] = set()
    if isinstance(message, str):
        found.update(CARD.findall(message))
    elif isinstance(message, dict):
        for value in message.values():
            found |= cards_in(value)
    elif isinstance(message, list):
        for value in message:
            found |= cards_in(value)
    return found
