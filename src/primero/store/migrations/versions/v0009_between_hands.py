"""Between hands and settling up in money (docs/protocol.md "Between hands", "Settling
up"): the table settings ``table_hosts.hand_pause_seconds``, ``rebuy_seconds``,
``chip_value`` and ``currency`` (NULL: the server's default, no rate), and what a person
whose seat a bot took had bought in and left with (``seat_former.bought_in``,
``seat_former.chips``, 0 for those stored before).

Revision ID: 0009
Revises: 0008 (seats kept warm)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the four table settings (NULL) and the former people's ledger (0)."""
    op.add_column("table_hosts", sa.Column("hand_pause_seconds", sa.Integer, nullable=True))
    op.add_column("table_hosts", sa.Column("rebuy_seconds", sa.Integer, nullable=True))
    op.add_column("table_hosts", sa.Column("chip_value", sa.String(16), nullable=True))
    op.add_column("table_hosts", sa.Column("currency", sa.String(8), nullable=True))
    op.add_column(
        "seat_former", sa.Column("bought_in", sa.BigInteger, nullable=False, server_default="0")
    )
    op.add_column(
        "seat_former", sa.Column("chips", sa.BigInteger, nullable=False, server_default="0")
    )


def downgrade() -> None:
    """Drop the columns."""
    for column in ("chips", "bought_in"):
        op.drop_column("seat_former", column)
    for column in ("currency", "chip_value", "rebuy_seconds", "hand_pause_seconds"):
        op.drop_column("table_hosts", column)
