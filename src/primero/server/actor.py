"""A table's one command queue: every change of a table is a command, run one at a time
in the order the commands arrived (docs/protocol.md "Writing comes first").

A command is a person's move, a bot's move, the timer's move, the dealer's deal, the
driver's step between hands (start, finish, hold, end), a presence change (sit out, sit
in, leave, rebuy, connect, the sweep), a host's request, a seat taken, or the table read
back from the store. While one runs, the others of the table wait in a queue, first come
first served; a waiting command that is cancelled leaves the queue and changes nothing.
So a table has one writer at a time, whatever asks: a WebSocket, a REST request, another
process (through :data:`primero.server.ops.OPS`) or the table's own driver.

A command runs in the task that sent it (the sender awaits its own command), so that a
sender's cancellation (a driver stopped while it waits) reaches its command exactly as it
reaches any other await. A command may not send another to its own table: it would wait
for itself; :meth:`TableActor.command` refuses it with :class:`RuntimeError`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from enum import StrEnum
from typing import Any, TypeVar

__all__ = ["Command", "TableActor"]

T = TypeVar("T")


class Command(StrEnum):
    """What a command of a table is (for the log and the tests; each runs alike)."""

    MOVE = "move"  # a person's move (WebSocket "act")
    BOT = "bot"  # a bot's move
    TIMER = "timer"  # the timer's move for a person out of time
    DEAL = "deal"  # the dealer's deal
    HAND = "hand"  # the driver between hands: start, finish, hold, end
    PRESENCE = "presence"  # sit out, sit in, leave, rebuy, no rebuy, connect, the sweep
    HOST = "host"  # the host's requests (docs/protocol.md "The host")
    SEAT = "seat"  # a seat taken, a join request
    READ = "read"  # the table read back from the store (a reload, a mirror's refresh)


class TableActor:
    """The command queue of one table (see the module docstring)."""

    def __init__(self) -> None:
        self._waiting: deque[tuple[Command, asyncio.Future[None]]] = deque()
        self._runner: asyncio.Task[Any] | None = None
        #: The command running now (None: none).
        self.running: Command | None = None
        #: How many commands have run to their end (or error) so far.
        self.done = 0

    def in_command(self) -> bool:
        """Whether the calling task is running a command of this table now."""
        return self._runner is not None and self._runner is asyncio.current_task()

    @property
    def waiting(self) -> int:
        """How many commands wait for their turn."""
        return sum(1 for _kind, fut in self._waiting if not fut.done())

    @contextlib.asynccontextmanager
    async def command(self, kind: Command) -> AsyncIterator[None]:
        """Run the body of the ``async with`` as one command of kind ``kind``: it starts
        when every command sent before it has ended.

        Raises:
            RuntimeError: the calling task already runs a command of this table.
        """
        if self.in_command():
            raise RuntimeError(f"a {kind} command was sent inside a {self.running} command")
        if self.running is None and self.waiting == 0:
            self.running = kind
        else:
            entry: tuple[Command, asyncio.Future[None]] = (
                kind,
                asyncio.get_running_loop().create_future(),
            )
            self._waiting.append(entry)
            try:
                await entry[1]
            except asyncio.CancelledError:
                if entry[1].done() and not entry[1].cancelled():
                    self._next()  # its turn came as it was cancelled: the next one's now
                else:
                    with contextlib.suppress(ValueError):
                        self._waiting.remove(entry)
                raise
        self._runner = asyncio.current_task()
        try:
            yield
        finally:
            self._runner = None
            self.done += 1
            self._next()

    async def run(self, kind: Command, body: Callable[[], Awaitable[T]]) -> T:
        """Run ``body()`` as one command of kind ``kind`` and return what it returns.

        Raises:
            RuntimeError: the calling task already runs a command of this table.
            Exception: whatever ``body`` raises (the queue goes on).
        """
        async with self.command(kind):
            return await body()

    def _next(self) -> None:
        """The running command ended: the first one still waiting runs next."""
        self.running = None
        while self._waiting:
            kind, fut = self._waiting.popleft()
            if not fut.done():
                self.running = kind
                fut.set_result(None)
                return
