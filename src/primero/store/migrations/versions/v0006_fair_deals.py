"""Deals anyone can check (docs/fair-deals.md): the table's secret server seed (and how
many hands each derived seed deals), each
seat's client seed, and the client seeds of each hand (table order), all stored before
the first card they deal.

Revision ID: 0006
Revises: 0005 (the seats of a hand)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.server_seed`` (NULL for tables made before: they keep the seeded
    dealer), ``tables.seed_rotation`` (hands per seed; NULL: one seed for the match),
    ``seats.client_seed`` and ``hands.client_seeds`` (a JSON list)."""
    op.add_column("tables", sa.Column("server_seed", sa.String(64), nullable=True))
    op.add_column("tables", sa.Column("seed_rotation", sa.Integer, nullable=True))
    op.add_column("seats", sa.Column("client_seed", sa.String(64), nullable=True))
    op.add_column("hands", sa.Column("client_seeds", sa.Text, nullable=True))


def downgrade() -> None:
    """Drop the three columns."""
    op.drop_column("hands", "client_seeds")
    op.drop_column("seats", "client_seed")
    op.drop_column("tables", "seed_rotation")
    op.drop_column("tables", "server_seed")
