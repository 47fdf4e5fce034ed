"""The public lobby: the games listed for anyone to join, and their open seats.

``hg_lobby`` holds one row per listed game: what the lobby shows of it without reading its
setup (edition, players, clock, rated, the creator's name and rating, when it was listed and
when it expires) and ``clock_key``, the clock in one comparable word, for quick match to find
the games that ask the same.  ``hg_lobby_seats`` holds one row per seat still open; taking a
seat deletes its row (of two people taking one seat at once, the one whose delete finds the
row wins).  A game leaves the lobby (its row deleted) when its last open seat is taken, when
it expires, or when it is deleted.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hg_lobby",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("hg_games.id"), primary_key=True),
        sa.Column("edition", sa.String(8), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("clock", sa.Text, nullable=True),
        sa.Column("clock_key", sa.String(40), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("creator_account", sa.Integer, nullable=True),
        sa.Column("creator_name", sa.String(64), nullable=True),
        sa.Column("creator_rating", sa.Integer, nullable=True),
        sa.Column("created", sa.Float, nullable=False, index=True),
        sa.Column("expires", sa.Float, nullable=False, index=True),
    )
    op.create_table(
        "hg_lobby_seats",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("hg_games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("hg_lobby_seats")
    op.drop_table("hg_lobby")
