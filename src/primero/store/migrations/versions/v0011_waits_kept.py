"""The waits between hands kept (docs/protocol.md "Between hands"): when a finished
hand's result stops staying (``table_hosts.pause_until``), when the rebuy window closes
(``rebuy_until``; unix seconds, NULL: no wait) and the seats it still waits for
(``rebuy_wait``, seat numbers joined by commas, "" or NULL: none), so that a restart
waits the remainder instead of dealing at once.

Revision ID: 0011
Revises: 0010 (between hands)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the three columns (NULL: a table stored before waits nothing, as it did)."""
    op.add_column("table_hosts", sa.Column("pause_until", sa.Float, nullable=True))
    op.add_column("table_hosts", sa.Column("rebuy_until", sa.Float, nullable=True))
    op.add_column("table_hosts", sa.Column("rebuy_wait", sa.String(32), nullable=True))


def downgrade() -> None:
    """Drop the columns."""
    for column in ("rebuy_wait", "rebuy_until", "pause_until"):
        op.drop_column("table_hosts", column)
