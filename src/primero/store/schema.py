"""The database tables of the online server (SQLAlchemy Core; created by Alembic).

- ``tables``: one row per table (its set-up, status, version, match progress).
- ``seats``: one row per seat (name, kind, the token's hash, chips before the current hand).
- ``hands``: one row per hand started (its dealer seed; once finished, the ``.prh`` record).
- ``lines``: every applied record line of every hand, in order, with the client's action
  id for a person's action (ids are unique per seat for the whole match).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

__all__ = ["hands", "lines", "metadata", "seats", "tables"]

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("stack", BigInteger, nullable=False),  # chips: 64-bit (migration 0002)
    Column("rules", Text, nullable=False),  # JSON: the rule overrides
    Column("turn_seconds", Integer, nullable=False),
    Column("max_hands", Integer, nullable=True),
    Column("status", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("hands_played", Integer, nullable=False),
    Column("dealer_index", Integer, nullable=False),
    Column("created", BigInteger, nullable=False),  # unix seconds
    Column("creator", String(64), nullable=True),  # SHA-256 of the creating address
    # the secret server seed of fair deals, hex (migration 0006; NULL: made before it)
    Column("server_seed", String(64), nullable=True),
    Column("seed_rotation", Integer, nullable=True),  # hands per seed (NULL: the match)
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("name", String(40), nullable=True),
    Column("kind", String(32), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("chips", BigInteger, nullable=False),  # 64-bit (migration 0002)
    Column("client_seed", String(64), nullable=True),  # the person's (migration 0006)
)

hands = Table(
    "hands",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seed", BigInteger, nullable=False),
    Column("record", Text, nullable=True),  # the finished hand's .prh (TOML) text
    # the table indices dealt in ("0,2,3"): who sat out may change during the hand
    Column("seats", String(64), nullable=True),
    # the client seeds in table order, JSON (migration 0006; NULL: the seeded dealer)
    Column("client_seeds", Text, nullable=True),
)

lines = Table(
    "lines",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("hand_number", Integer, nullable=False),
    Column("idx", Integer, nullable=False),
    Column("line", String(200), nullable=False),
    Column("seat", Integer, nullable=True),  # table index of a person's action
    Column("action_id", String(64), nullable=True),
    UniqueConstraint("table_id", "hand_number", "idx", name="uq_lines_position"),
    UniqueConstraint("table_id", "seat", "action_id", name="uq_lines_action_id"),
)
