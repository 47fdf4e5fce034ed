"""The first layout: games (setup, status, scores) and their moves, one row each.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hg_games",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("setup", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("scores", sa.Text, nullable=False),
    )
    op.create_table(
        "hg_moves",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("hg_games.id"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("move", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hg_moves")
    op.drop_table("hg_games")
