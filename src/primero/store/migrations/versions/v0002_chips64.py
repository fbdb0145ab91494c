"""Chips in 64 bits; who created a table (for the create-rate limit).

Every chip column (``tables.stack``, ``seats.chips``) becomes ``BIGINT``: stacks may be
10^9 and 8 seats hold their sum (docs/protocol.md "Limits"). On SQLite an
``INTEGER`` column already stores 64-bit integers (the declared type is only an affinity),
so only PostgreSQL's columns are altered. ``tables.creator`` is the SHA-256 of the client
address that created the table (never the address itself), indexed with ``created`` for
``--create-rate``; ``tables.status`` is indexed for ``--max-tables`` and the lobby.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_CHIPS = (("tables", "stack"), ("seats", "chips"))


def upgrade() -> None:
    """Widen the chip columns (PostgreSQL), add ``tables.creator`` and two indexes."""
    if op.get_bind().dialect.name != "sqlite":
        for table, column in _CHIPS:
            op.alter_column(
                table,
                column,
                type_=sa.BigInteger(),
                existing_type=sa.Integer(),
                existing_nullable=False,
            )
    op.add_column("tables", sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("ix_tables_creator_created", "tables", ["creator", "created"])
    op.create_index("ix_tables_status", "tables", ["status"])


def downgrade() -> None:
    """Back to 32-bit chip columns (fails on PostgreSQL if a value does not fit)."""
    op.drop_index("ix_tables_status", "tables")
    op.drop_index("ix_tables_creator_created", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("creator")
    if op.get_bind().dialect.name != "sqlite":
        for table, column in _CHIPS:
            op.alter_column(
                table,
                column,
                type_=sa.Integer(),
                existing_type=sa.BigInteger(),
                existing_nullable=False,
            )
