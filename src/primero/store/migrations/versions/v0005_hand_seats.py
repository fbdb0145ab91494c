"""The table indices dealt in each hand (``hands.seats``, "0,2,3"): a person may sit out
during a hand, so the seats of a hand in progress cannot be read back from the presence
flags after a restart.

Revision ID: 0005
Revises: 0004 (game night)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``hands.seats`` (NULL for hands stored before it: their seats are the seats
    dealable under the stored presence, as before)."""
    op.add_column("hands", sa.Column("seats", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop ``hands.seats``."""
    op.drop_column("hands", "seats")
