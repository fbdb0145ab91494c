"""The server's clock: what ``now`` is (unix seconds) and how a table waits for a deadline.

The table model takes ``now`` as an argument; the server's runtime takes it from a
:class:`Clock`, so that a test can move time on by hand (:class:`ManualClock`) instead of
sleeping: a turn timer of 60 seconds passes the moment the test calls ``advance(60)``.

>>> clock = ManualClock(1000.0)
>>> clock.now()
1000.0
>>> clock.advance(2.5)
>>> clock.now()
1002.5
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Protocol

__all__ = ["Clock", "ManualClock", "SystemClock"]


class Clock(Protocol):
    """Where a server reads the time and waits for deadlines."""

    def now(self) -> float:
        """The time now, unix seconds."""

    async def wait(self, event: asyncio.Event, deadline: float | None) -> bool:
        """Wait until ``event`` is set (True) or the clock reaches ``deadline`` (False;
        ``deadline`` None: no limit, wait for the event only)."""


class SystemClock:
    """The real clock (:func:`time.time`)."""

    def now(self) -> float:
        """``time.time()``."""
        return time.time()

    async def wait(self, event: asyncio.Event, deadline: float | None) -> bool:
        """See :meth:`Clock.wait`."""
        timeout = None if deadline is None else max(0.0, deadline - time.time())
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            return event.is_set()
        return True


class ManualClock:
    """A clock that moves only when :meth:`advance` is called (tests); thread-safe, so a
    test thread may advance the clock of a server running in another thread.

    Args:
        start: the time it shows first, unix seconds.
    """

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    def now(self) -> float:
        """The time it shows."""
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds`` and wake every waiter to look at it again."""
        with self._lock:
            self._now += seconds
            waiters = list(self._waiters)
        for loop, moved in waiters:
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(moved.set)

    async def wait(self, event: asyncio.Event, deadline: float | None) -> bool:
        """See :meth:`Clock.wait`."""
        loop = asyncio.get_running_loop()
        moved = asyncio.Event()
        entry = (loop, moved)
        with self._lock:
            self._waiters.add(entry)
        try:
            while not event.is_set():
                if deadline is not None and self.now() >= deadline:
                    return False
                moved.clear()
                waits = [
                    asyncio.ensure_future(event.wait()),
                    asyncio.ensure_future(moved.wait()),
                ]
                try:
                    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for w in waits:
                        w.cancel()
            return True
        finally:
            with self._lock:
                self._waiters.discard(entry)
