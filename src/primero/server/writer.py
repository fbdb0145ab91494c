"""The server's database writes: each in a transaction of its own, in writer threads.

Each write is one table's change (a function of a connection, its values captured when
it was queued); it runs in its own transaction, so a write that fails (a value the
database refuses, a broken connection) rolls back that write alone and touches no other
table's. People's writes (actions, seats) go ahead of the bots' and the dealer's. A
table has at most one write queued (its commands run one at a time, server/actor.py, each
until its write is done), so a table's writes are never reordered.

The errors a write can end with are sorted for the runtime by :func:`transient`: the
database could not be reached (try again soon: every table goes on once it answers) or
the write itself was refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection

from primero.store import Store

__all__ = [
    "WRITE_SECONDS",
    "NotOwner",
    "VersionMoved",
    "Write",
    "WriteFailed",
    "Writer",
    "transient",
]

#: Seconds a write is waited for. PostgreSQL ends a statement after ``statement_timeout``
#: (3 s) or a lock wait after ``lock_timeout`` (2 s), but a database that stopped
#: answering altogether (frozen, or a network path that swallows packets) ends nothing:
#: past this the waiter gets :class:`TimeoutError` (the client: ``retry``). The write may
#: still commit later; the table's version fence then refuses the next write computed
#: from the older version (``StaleVersion``), and the table reads itself back.
WRITE_SECONDS = 4.0

Write = Callable[[Connection], Any]
_Pending = tuple[Write, asyncio.Future[Any], asyncio.AbstractEventLoop]


class NotOwner(RuntimeError):
    """This process does not (surely) hold the table's lease any more: nothing is written
    (docs/protocol.md "Several processes")."""


def transient(error: BaseException) -> bool:
    """Whether ``error`` says the database could not be reached (rather than that it
    refused this write): an operational or interface error, a lost connection, a
    timeout, an error of the operating system."""
    if isinstance(error, NotOwner):
        return True
    if isinstance(error, sa_exc.DBAPIError) and error.connection_invalidated:
        return True
    return isinstance(
        error,
        sa_exc.OperationalError
        | sa_exc.InterfaceError
        | sa_exc.DisconnectionError
        | sa_exc.TimeoutError
        | OSError
        | TimeoutError,
    )


class WriteFailed(RuntimeError):
    """A table's write did not reach the database; nothing of it was applied.

    Attributes:
        transient: the database could not be reached (rather than refusing the write).
    """

    def __init__(self, cause: BaseException) -> None:
        first = str(cause).splitlines()[0] if str(cause) else ""
        super().__init__(f"{type(cause).__name__}: {first}")
        self.transient = transient(cause)


class VersionMoved(WriteFailed):
    """A table's change refused by the store because the table's stored version is not
    the one the server holds in memory (a write it has not applied: another owner's, or
    one whose apply was cut short). Nothing of the change was kept;
    ``TableOwner.reread`` brings the table back to what is stored."""


def _consumed(fut: asyncio.Future[Any]) -> None:
    if not fut.cancelled():
        fut.exception()


def _settle(fut: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if fut.done():
        return
    if error is None:
        fut.set_result(result)
    else:
        fut.set_exception(error)


class Writer:
    """Writer threads for one store.

    Args:
        store: the database.
        threads: writer threads (1 for SQLite, which takes one writer at a time).
    """

    def __init__(self, store: Store, threads: int) -> None:
        self.store = store
        self._cv = threading.Condition()
        self._urgent: deque[_Pending] = deque()
        self._normal: deque[_Pending] = deque()
        self._closing = False
        self._threads = [
            threading.Thread(target=self._loop, name=f"primero-db-{i}", daemon=True)
            for i in range(threads)
        ]
        for t in self._threads:
            t.start()

    def _loop(self) -> None:
        while True:
            with self._cv:
                while not self._urgent and not self._normal and not self._closing:
                    self._cv.wait()
                if not self._urgent and not self._normal:
                    return  # closing, nothing left
                queue = self._urgent if self._urgent else self._normal
                write, fut, loop = queue.popleft()
            result: Any = None
            error: BaseException | None = None
            try:
                with self.store.transaction() as conn:
                    result = write(conn)
            except Exception as exc:  # this write alone failed; its waiter learns why
                error = exc
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(_settle, fut, result, error)

    async def write(self, write: Write, *, urgent: bool = False) -> Any:
        """Run ``write`` in a transaction of its own in a writer thread; answer what it
        returned once committed.

        Raises:
            TimeoutError: no answer within :data:`WRITE_SECONDS` (the database stalls);
                the write may yet commit (see :data:`WRITE_SECONDS`).
            Exception: whatever the database (or ``write``) raised; nothing of the write
                was kept.
        """
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        pending: _Pending = (write, fut, loop)
        queue = self._urgent if urgent else self._normal
        with self._cv:
            queue.append(pending)
            self._cv.notify()
        try:
            return await asyncio.wait_for(asyncio.shield(fut), WRITE_SECONDS)
        except TimeoutError:
            with self._cv, contextlib.suppress(ValueError):
                queue.remove(pending)  # not started yet: it never will be
            fut.add_done_callback(_consumed)  # a late error is nobody's to log
            raise TimeoutError(
                f"the database did not answer a write within {WRITE_SECONDS:g} s"
            ) from None

    async def read(self, read: Callable[[], Any]) -> Any:
        """Run a read of the store in a thread (off the event loop)."""
        return await asyncio.to_thread(read)

    async def close(self) -> None:
        """Finish the queued writes, then stop the threads (10 s at most)."""
        with self._cv:
            self._closing = True
            self._cv.notify_all()
        for t in self._threads:
            await asyncio.to_thread(t.join, 10)
