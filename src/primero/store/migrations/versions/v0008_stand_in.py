"""Seats kept warm (docs/protocol.md "REST: the lobby"): the kind of the bot that plays a
sitting-out person's seat for them, ``seat_presence.stand_in`` (NULL: none).

Revision ID: 0008
Revises: 0007 (spectators' chat)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``seat_presence.stand_in`` (NULL for every seat stored before)."""
    op.add_column("seat_presence", sa.Column("stand_in", sa.String(32), nullable=True))


def downgrade() -> None:
    """Drop the column."""
    op.drop_column("seat_presence", "stand_in")
