"""Chat's bounds at a table (docs/protocol.md, the chat rows): who may chat, and how much.

A chat line is sent to every connection at the table, so what one sender causes is its
lines times the table's connections (up to ``Settings.table_connections``). Two token
buckets bound it, on the table's rate clock (``Settings.rate_clock``):

- each connection: :data:`SENDER_RATE` lines a second, bursts of :data:`SENDER_BURST`;
- the whole table: :data:`TABLE_RATE` lines a second, bursts of :data:`TABLE_BURST`, so
  that many senders together send at most ``TABLE_RATE`` times the connections frames a
  second;

and spectators chat only once the host has opened the chat to them
(``PATCH /api/tables/{id}`` with ``"spectator_chat": true``); the host, watching with the
host token, always may. A line over a bound goes to nobody; its sender gets an ``error``
saying why at most once a second (:data:`TOLD_EVERY`): the other refused lines are
dropped in silence, so that a flood costs the server no frame out per frame in.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

__all__ = [
    "SENDER_BURST",
    "SENDER_RATE",
    "TABLE_BURST",
    "TABLE_RATE",
    "chat_refusal",
]

#: Chat lines a second one connection may send (sustained).
SENDER_RATE = 1.0
#: Chat lines one connection may send at once.
SENDER_BURST = 3
#: Chat lines a second a table relays in all (sustained).
TABLE_RATE = 4.0
#: Chat lines a table relays at once.
TABLE_BURST = 8
#: Seconds between two refusals a connection is told of (the others are silent).
TOLD_EVERY = 1.0

CLOSED_WORDS = "the chat is closed to spectators at this table: the host may open it"
SENDER_WORDS = f"too much chat: at most {SENDER_RATE:g} line a second from one connection"
TABLE_WORDS = "the table's chat is busy: try again in a moment"


class _Bucket:
    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = float(burst), now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


_tables: weakref.WeakKeyDictionary[Any, _Bucket] = weakref.WeakKeyDictionary()
_senders: weakref.WeakKeyDictionary[Any, _Bucket] = weakref.WeakKeyDictionary()
_told: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


def _tell(sender: Any, words: str, now: float) -> str:
    """``words`` when ``sender`` was last told of a refusal :data:`TOLD_EVERY` seconds
    ago or more (or never), else ``""``: refused in silence."""
    last = _told.get(sender)
    if last is not None and now - last < TOLD_EVERY:
        return ""
    _told[sender] = now
    return words


def chat_refusal(
    table: Any, sender: Any, *, spectator: bool, host: bool, open_: bool, clock: Callable[[], float]
) -> str | None:
    """Why ``sender``'s chat line may not go out at ``table`` now (in words; ``""``: it
    may not, and the sender was told of a refusal less than :data:`TOLD_EVERY` seconds
    ago, so nothing is sent), or None; a line that may go is counted.

    Args:
        table: the table (its bucket is kept while it lives).
        sender: the connection (likewise).
        spectator: the sender holds no seat.
        host: the sender watches with the host token.
        open_: the host opened the chat to spectators.
        clock: monotonic seconds.
    """
    now = clock()
    if spectator and not host and not open_:
        return _tell(sender, CLOSED_WORDS, now)
    mine = _senders.get(sender)
    if mine is None:
        mine = _senders[sender] = _Bucket(SENDER_RATE, SENDER_BURST, now)
    everyone = _tables.get(table)
    if everyone is None:
        everyone = _tables[table] = _Bucket(TABLE_RATE, TABLE_BURST, now)
    if mine.tokens + (now - mine.stamp) * mine.rate < 1:
        mine.take(now)
        return _tell(sender, SENDER_WORDS, now)
    if not everyone.take(now):
        return _tell(sender, TABLE_WORDS, now)
    mine.take(now)
    return None
