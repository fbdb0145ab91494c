"""The limits on creating tables (online.md "Limits"): ``--create-rate`` tables a client
address may create in a minute and ``--max-tables`` tables ``waiting``, ``playing`` or
``paused`` at once, both counted in the database (so over every process sharing it).
Past either, ``POST /api/tables`` is ``429`` with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import math

from primero.server.settings import Settings
from primero.store import Store
from primero.store.limits import creator_hash, live_tables, set_creator, tables_created_since

__all__ = ["CREATE_WINDOW", "FULL_RETRY", "CreateGate", "TooMany"]

#: The window of ``--create-rate``, seconds.
CREATE_WINDOW = 60
#: ``Retry-After`` when ``--max-tables`` tables are live, seconds.
FULL_RETRY = 60


class TooMany(Exception):
    """A table may not be created now (HTTP 429).

    Attributes:
        retry_after: whole seconds until it may be asked again.
    """

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = max(1, retry_after)


class CreateGate:
    """Admits table creations one at a time (``lock``), counting in the store.

    Args:
        settings: ``create_rate``, ``max_tables`` and ``wall_clock``.
        store: the database.
    """

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.lock = asyncio.Lock()

    def _check(self, creator: str) -> None:
        s = self.settings
        now = s.wall_clock()
        with self.store.engine.connect() as conn:
            if s.max_tables > 0 and live_tables(conn) >= s.max_tables:
                raise TooMany(
                    f"the server has {s.max_tables} tables open, its limit: try again later",
                    FULL_RETRY,
                )
            if s.create_rate > 0:
                since = math.floor(now) - CREATE_WINDOW + 1
                count, oldest = tables_created_since(conn, creator, since)
                if count >= s.create_rate:
                    wait = (oldest or since) + CREATE_WINDOW - now
                    raise TooMany(
                        f"at most {s.create_rate} tables a minute from one address: try "
                        f"again in {math.ceil(wait)} seconds",
                        math.ceil(wait),
                    )

    async def admit(self, address: str) -> str:
        """Check both limits for a client ``address`` (hold :attr:`lock` from this call
        until :meth:`record`); returns the hash to record.

        Raises:
            TooMany: a limit is reached (with the seconds to wait).
        """
        creator = creator_hash(address)
        await asyncio.to_thread(self._check, creator)
        return creator

    async def record(self, table_id: str, creator: str) -> None:
        """Keep who created ``table_id`` (counted by later :meth:`admit` calls)."""

        def write() -> None:
            with self.store.transaction() as conn:
                set_creator(conn, table_id, creator)

        await asyncio.to_thread(write)
