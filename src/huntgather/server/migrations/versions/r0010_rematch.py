"""Rematches kept in the database, and who listed a game in the lobby.

``hg_rematch`` holds one row per finished game whose seats asked for a rematch: the new game's
id once it is made (``new_game``, NULL until then; set by one conditional UPDATE, so that of two
processes making it at once exactly one does) and the SHA-256 hash of the new game's creator
secret.  ``hg_rematch_seats`` holds one row per seat that wants the rematch, with the hash of
the secret its new seat will have (NULL when the seat was asked for by a page that held it by
its account only).  A new seat's secret is never stored: it is derived from the old seat's
secret (HMAC-SHA256 keyed by it, :func:`huntgather.server.seats.rematch_secret`), so only the
holder of the old secret can have it, on any process, at any time.

``hg_lobby.lister`` is the SHA-256 hash of who listed the game (an account, or a guest's
address): quick match never pairs a person with their own listing, and hands it back to them.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hg_rematch",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("hg_games.id"), primary_key=True),
        sa.Column("new_game", sa.String(40), nullable=True),
        sa.Column("creator_hash", sa.String(64), nullable=True),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "hg_rematch_seats",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("hg_games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("secret_hash", sa.String(64), nullable=True),
    )
    with op.batch_alter_table("hg_lobby") as batch:
        batch.add_column(sa.Column("lister", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hg_lobby") as batch:
        batch.drop_column("lister")
    op.drop_table("hg_rematch_seats")
    op.drop_table("hg_rematch")
