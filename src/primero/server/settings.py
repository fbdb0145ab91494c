"""The server's settings (the options of ``primero serve``)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_DATABASE_URL", "Settings"]

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
        away_seconds: a person with no open connection this long is away (sat out when
            the hand ends; online.md "Absence").
    """

    database_url: str = DEFAULT_DATABASE_URL
    bot_pause: float = 1.0
    allow_origins: tuple[str, ...] = ()
    frame_limit: int = 4096
    rate: float = 20.0
    away_seconds: float = 120.0
