"""The first schema: tables, seats, hands, lines.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the four tables."""
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("stack", sa.Integer, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("turn_seconds", sa.Integer, nullable=False),
        sa.Column("max_hands", sa.Integer, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("hands_played", sa.Integer, nullable=False),
        sa.Column("dealer_index", sa.Integer, nullable=False),
        sa.Column("created", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("chips", sa.Integer, nullable=False),
    )
    op.create_table(
        "hands",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("record", sa.Text, nullable=True),
    )
    op.create_table(
        "lines",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("hand_number", sa.Integer, nullable=False),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("line", sa.String(200), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action_id", sa.String(64), nullable=True),
        sa.UniqueConstraint("table_id", "hand_number", "idx", name="uq_lines_position"),
        sa.UniqueConstraint("table_id", "seat", "action_id", name="uq_lines_action_id"),
    )


def downgrade() -> None:
    """Drop the four tables."""
    for name in ("lines", "hands", "seats", "tables"):
        op.drop_table(name)
