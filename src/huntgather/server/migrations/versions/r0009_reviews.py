"""Post-game reviews: one row per reviewed game, its state and, once done, the review.

``hg_reviews`` holds a game's review request (``status`` queued, running, done or failed), its
progress (turns searched of ``total``), the turns searched so far (``partial``, JSON: a
restarted server goes on from there), the review itself once done (JSON,
:meth:`huntgather.bots.review.Review.as_dict`), and the claim of the process computing it
(``owner`` and ``heartbeat``: another process takes a running review up only once its owner
has been silent for a while), so that a review is computed once even with several processes.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hg_reviews",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("hg_games.id"), primary_key=True),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("status", sa.String(8), nullable=False, index=True),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("partial", sa.Text, nullable=True),
        sa.Column("review", sa.Text, nullable=True),
        sa.Column("requested", sa.Float, nullable=False),
        sa.Column("owner", sa.String(40), nullable=True),
        sa.Column("heartbeat", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("hg_reviews")
