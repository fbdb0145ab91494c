"""Between hands and settling up in money (docs/protocol.md "Between hands", "Settling
up"): the table settings ``table_hosts.hand_pause_seconds``, ``rebuy_seconds``,
``chip_value`` and ``currency`` (NULL: the server's default, no rate), and whether a
former person was removed by the host (``seat_former.removed``; their ledger columns
came with ``v0009``) rather than replaced by a bot when they left.

Revision ID: 0010
Revises: 0009 (private tables)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the four table settings (NULL) and the removed flag (rows before: as v0009
    kept them, a ledger row only for the removed)."""
    op.add_column("table_hosts", sa.Column("hand_pause_seconds", sa.Integer, nullable=True))
    op.add_column("table_hosts", sa.Column("rebuy_seconds", sa.Integer, nullable=True))
    op.add_column("table_hosts", sa.Column("chip_value", sa.String(16), nullable=True))
    op.add_column("table_hosts", sa.Column("currency", sa.String(8), nullable=True))
    op.add_column(
        "seat_former",
        sa.Column("removed", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.execute("UPDATE seat_former SET removed = (bought_in IS NOT NULL)")


def downgrade() -> None:
    """Drop the columns."""
    op.drop_column("seat_former", "removed")
    for column in ("currency", "chip_value", "rebuy_seconds", "hand_pause_seconds"):
        op.drop_column("table_hosts", column)
