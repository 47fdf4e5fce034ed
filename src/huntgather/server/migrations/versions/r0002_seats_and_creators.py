"""Seats with hashed secrets and display names, and the creator's secret hash, for online play.

Games stored before this revision get no seat rows: the server treats them as open to every page
(as they were), and anyone may delete them.

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


def upgrade() -> None:
    op.create_table(
        "hg_seats",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("hg_games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("secret_hash", sa.String(64), nullable=True),
        sa.Column("joined", sa.Boolean, nullable=False),
    )
    op.create_table(
        "hg_creators",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("hg_games.id"), primary_key=True),
        sa.Column("secret_hash", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hg_creators")
    op.drop_table("hg_seats")
