"""Game clocks: each game's clock state and the running seat's deadline.

``hg_games.clock`` holds the clock's state as JSON (:class:`huntgather.server.clock.ClockState`:
the time each seat had left when it last changed, the seat whose time runs, since when, and
the seats whose time ran out); ``hg_games.deadline`` the moment the running seat's time runs
out (NULL: no clock, or no time running), indexed so that each process finds the games whose
deadline passed.  Both change only in the transaction that stores moves, or in the one that
records a timeout.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hg_games") as batch:
        batch.add_column(sa.Column("clock", sa.Text, nullable=True))
        batch.add_column(sa.Column("deadline", sa.Float, nullable=True))
    op.create_index("ix_hg_games_deadline", "hg_games", ["deadline"])


def downgrade() -> None:
    op.drop_index("ix_hg_games_deadline", "hg_games")
    with op.batch_alter_table("hg_games") as batch:
        batch.drop_column("deadline")
        batch.drop_column("clock")
