"""Each game's current position as text (record format, any decision), stored with its moves.

A game whose moves no longer replay under a newer huntgather (a rule fixed, a tile corrected) is
then continued from its position instead of being lost. Games stored before this revision have
no position (NULL) and are rebuilt from their moves alone, as before.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hg_games") as batch:
        batch.add_column(sa.Column("position", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hg_games") as batch:
        batch.drop_column("position")
