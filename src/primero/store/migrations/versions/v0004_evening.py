"""Game night: the host token's hash, the rebuy setting, and each seat's
sitting out, leaving and ledger, and the token hashes of people whose seat a bot took
(they keep access to the hands they were dealt), in three tables of their own.

Revision ID: 0004
Revises: 0002 (server edge's 64-bit chips)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``table_hosts`` and ``seat_presence``."""
    op.create_table(
        "table_hosts",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("host_hash", sa.String(64), nullable=True),
        sa.Column("rebuy", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("ended", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("next_table", sa.String(32), nullable=True),
        sa.Column("last_seen", sa.BigInteger, nullable=False, server_default="0"),
    )
    op.create_table(
        "seat_presence",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("sitting_out", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("left", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("bought_in", sa.BigInteger, nullable=False, server_default="0"),
    )
    op.create_table(
        "seat_former",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
    )
    op.create_index("ix_seat_former_table", "seat_former", ["table_id"])


def downgrade() -> None:
    """Drop the three tables."""
    op.drop_index("ix_seat_former_table", table_name="seat_former")
    op.drop_table("seat_former")
    op.drop_table("seat_presence")
    op.drop_table("table_hosts")
