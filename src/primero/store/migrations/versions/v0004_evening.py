"""Game night (issue 17): the host token's hash, the rebuy setting, and each seat's
sitting out, leaving and ledger, in two tables of their own.

Revision ID: 0004
Revises: 0001 (at the merge: the newest revision of the branch it lands after)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0001"
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


def downgrade() -> None:
    """Drop the two tables."""
    op.drop_table("seat_presence")
    op.drop_table("table_hosts")
