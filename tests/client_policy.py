"""A client's simple policy over the server's JSON ``state`` message (online.md): shared by
the server tests and ``benchmarks/bench_server.py`` (which adds this folder to its path),
so it imports nothing beyond the standard library."""

from __future__ import annotations

from typing import Any

__all__ = ["choose_line"]


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
