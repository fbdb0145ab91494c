"""The server's settings (the options of ``primero serve``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from primero.server.clock import Clock

__all__ = ["DEFAULT_DATABASE_URL", "TEST_SEED_ENV", "Settings", "fixed_test_seed"]

#: The default database: an SQLite file in the current folder.
DEFAULT_DATABASE_URL = "sqlite:///primero.db"


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """How a server runs.

    Attributes:
        database_url: an SQLAlchemy URL (SQLite file by default, or PostgreSQL).
        bot_pause: seconds a bot waits before acting, and a finished hand stays shown.
        allow_origins: extra ``Origin`` values accepted at the WebSocket handshake.
        frame_limit: the largest frame taken, bytes (4 KiB).
        rate: frames a second a connection may send (sustained; bursts of ``2 * rate``).
        bot_processes: worker processes for bots' decisions and hints (0: threads of the
            server's process, for in-process tests).
        bot_timeout: seconds a bot's decision (or a hint) may take; then the seat makes
            the least committal move.
        clock: the time and the waits for deadlines (None: the real clock; tests pass a
            :class:`~primero.server.clock.ManualClock`).
    """

    database_url: str = DEFAULT_DATABASE_URL
    bot_pause: float = 1.0
    allow_origins: tuple[str, ...] = ()
    frame_limit: int = 4096
    rate: float = 20.0
    bot_processes: int = 2
    bot_timeout: float = 5.0
    clock: Clock | None = None


#: TEST ONLY: an environment variable holding a whole number that fixes every table's
#: bot seeds and each hand's dealer seed (this number plus the hands already played), so
#: that browser tests can count on the moments they need. It makes R10's live randomness
#: predictable: never set it on a server people play on.
TEST_SEED_ENV = "PRIMERO_TEST_SEED"


def fixed_test_seed() -> int | None:
    """The seed fixed by :data:`TEST_SEED_ENV`, or None (the normal case: secrets)."""
    raw = os.environ.get(TEST_SEED_ENV, "").strip()
    return int(raw) if raw else None
