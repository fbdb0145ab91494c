"""Whether the host opened the chat to spectators (``table_hosts.spectator_chat``).

Revision ID: 0007
Revises: 0006 (fair deals)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``table_hosts.spectator_chat``, false (closed) for every table."""
    op.add_column(
        "table_hosts",
        sa.Column("spectator_chat", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    """Drop ``table_hosts.spectator_chat``."""
    op.drop_column("table_hosts", "spectator_chat")
