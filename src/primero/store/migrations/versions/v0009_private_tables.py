"""Private tables and a host in charge (docs/protocol.md "Private tables", "Passing the
host role", the host's ``DELETE …/seats/{k}``):

- ``table_hosts.listed`` (true for every table stored before: they were in the lobby),
  ``table_hosts.approval`` (false) and ``table_hosts.host_seat`` (NULL: not known);
- ``join_requests``: the join requests the host has not accepted (the asker's name, the
  seat asked, the client seed, the token's hash; ``refused`` once refused);
- ``seat_removals``: the removals asked during a hand, made when it ends (the seat's
  next kind: a bot kind or ``"open"``);
- ``seat_former.bought_in`` and ``seat_former.chips``: the ledger row of a removed
  person (NULL for a person whose seat a bot took after they left).

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
    """Add the columns and the two tables."""
    op.add_column(
        "table_hosts", sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.true())
    )
    op.add_column(
        "table_hosts",
        sa.Column("approval", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column("table_hosts", sa.Column("host_seat", sa.Integer, nullable=True))
    op.add_column("seat_former", sa.Column("bought_in", sa.BigInteger, nullable=True))
    op.add_column("seat_former", sa.Column("chips", sa.BigInteger, nullable=True))
    op.create_table(
        "join_requests",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False, index=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("client_seed", sa.String(64), nullable=True),
        sa.Column("refused", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "seat_removals",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("seat_removals")
    op.drop_table("join_requests")
    op.drop_column("seat_former", "chips")
    op.drop_column("seat_former", "bought_in")
    op.drop_column("table_hosts", "host_seat")
    op.drop_column("table_hosts", "approval")
    op.drop_column("table_hosts", "listed")
