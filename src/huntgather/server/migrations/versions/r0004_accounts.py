"""Accounts, their sessions and passkeys, ratings per edition, and the account holding each seat.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hg_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(256), nullable=True, unique=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "hg_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("hg_accounts.id"), nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "hg_passkeys",
        sa.Column("credential_id", sa.String(400), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("hg_accounts.id"), nullable=False, index=True),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("transports", sa.String(200), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "hg_challenges",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("challenge", sa.Text, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "hg_ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("hg_accounts.id"), primary_key=True),
        sa.Column("edition", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
    )
    op.create_table(
        "hg_rated_games",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(40), sa.ForeignKey("hg_games.id"), nullable=False, unique=True),
        sa.Column("edition", sa.String(8), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "hg_rating_events",
        sa.Column("seq", sa.Integer, nullable=False, index=True),
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("hg_accounts.id"), nullable=False, index=True),
        sa.Column("edition", sa.String(8), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    with op.batch_alter_table("hg_seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        batch.create_index("ix_hg_seats_account_id", ["account_id"])


def downgrade() -> None:
    with op.batch_alter_table("hg_seats") as batch:
        batch.drop_index("ix_hg_seats_account_id")
        batch.drop_column("account_id")
    for table in ("hg_rating_events", "hg_rated_games", "hg_ratings", "hg_challenges", "hg_passkeys",
                  "hg_sessions", "hg_accounts"):
        op.drop_table(table)
