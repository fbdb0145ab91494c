"""The server's settings (the options of ``primero serve``) and its limits.

Every limit a stranger could run into is here, with its default; docs/protocol.md
("Limits") lists them and the OpenAPI document states them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
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
        bot_pause: seconds a bot waits before acting, and a finished hand stays shown at a
            table with no person seated.
        hand_pause: the default of a new table's ``hand_pause_seconds``: seconds a finished
            hand's result stays before the next deal (docs/protocol.md "Between hands").
            ``primero serve`` sets 5 (``--hand-pause``); 0 here, for in-process tests.
        rebuy_seconds: the default of a new table's ``rebuy_seconds``: seconds the next
            deal at a rebuy table waits for a person who just went broke to choose.
            ``primero serve`` sets 30 (``--rebuy-seconds``); 0 here.
        allow_origins: extra ``Origin`` values accepted at the WebSocket handshake.
        listen_host: the address ``primero serve`` listens on (``--host``); the ``Host``
            header of every request must name it, ``localhost``, ``127.0.0.1``, ``[::1]``
            or one of ``allow_hosts`` (DNS rebinding). ``0.0.0.0`` or ``::`` with no
            ``allow_hosts``: any host. None (an app run in-process, with no address of
            its own, as in tests): ``Host`` is not checked.
        allow_hosts: extra host names accepted in ``Host`` (``--allow-host``).
        create_rate: tables one client address may create in a minute (0: no limit).
        max_tables: tables ``waiting``, ``playing`` or ``paused`` at once (0: no limit).
        table_connections: WebSocket connections one table takes; the next is closed
            with code 1013.
        send_queue: messages queued for one connection that does not read; past it the
            connection is closed (1013) and forgotten.
        frame_limit: the largest frame taken, bytes (4 KiB).
        rate: frames a second a connection may send (sustained; bursts of ``2 * rate``).
        bad_frames: refused frames within ``bad_window`` seconds that close a connection
            with code 1008.
        bad_window: seconds (see ``bad_frames``).
        rate_clock: the monotonic clock of the rate windows, seconds (tests inject one).
        wall_clock: unix seconds (creation times; the create-rate window).
        bot_processes: worker processes for bots' decisions and hints (0: threads of the
            server's process, for in-process tests).
        bot_timeout: seconds a bot's decision (or a hint) may take; then the seat makes
            the least committal move.
        clock: the time and the waits for deadlines (None: the real clock; tests pass a
            :class:`~primero.server.clock.ManualClock`).
        tune_gc: tune the garbage collector for a long-running server
            (:mod:`primero.server.gctune`; ``primero serve`` sets it, tests do not).
        away_seconds: a person with no open connection this long is away (sat out when
            the hand ends; docs/protocol.md "Presence").
        redis_url: Redis for several processes on one PostgreSQL database (None: this
            process alone drives every table; docs/protocol.md "Several processes").
        lease_seconds: how long a table's lease lasts without renewal, seconds (with
            ``redis_url``); a dead owner's tables are taken over after it.
    """

    database_url: str = DEFAULT_DATABASE_URL
    bot_pause: float = 1.0
    hand_pause: float = 0.0
    rebuy_seconds: float = 0.0
    allow_origins: tuple[str, ...] = ()
    listen_host: str | None = None
    allow_hosts: tuple[str, ...] = ()
    create_rate: int = 10
    max_tables: int = 500
    table_connections: int = 100
    send_queue: int = 256
    frame_limit: int = 4096
    rate: float = 20.0
    bad_frames: int = 10
    bad_window: float = 10.0
    rate_clock: Callable[[], float] = time.monotonic
    wall_clock: Callable[[], float] = time.time
    bot_processes: int = 2
    bot_timeout: float = 5.0
    clock: Clock | None = None
    away_seconds: float = 120.0
    redis_url: str | None = None
    lease_seconds: float = 5.0
    tune_gc: bool = False


#: TEST ONLY: an environment variable holding a whole number that fixes every table's
#: bot seeds and each hand's dealer seed (this number plus the hands already played), so
#: that browser tests can count on the moments they need. It makes R10's live randomness
#: predictable: never set it on a server people play on.
TEST_SEED_ENV = "PRIMERO_TEST_SEED"


def fixed_test_seed() -> int | None:
    """The seed fixed by :data:`TEST_SEED_ENV`, or None (the normal case: secrets)."""
    raw = os.environ.get(TEST_SEED_ENV, "").strip()
    return int(raw) if raw else None
