"""Turn notifications: each account's address and switches, the turns waiting, push subscriptions.

``hg_notify_settings`` holds one row per account that has set anything: its email address
(NULL: none), whether the address was confirmed by the mailed link, and the switches for
email and Web Push.  ``hg_notify_tokens`` holds the links mailed (a confirmation, an
unsubscribe): only the SHA-256 hash of each token.  ``hg_notify_waiting`` has one row per
turn that passed to an account while no page of it was on the game (its key: account, game,
the version the turn started at), claimed by one process with a conditional UPDATE before it
is mailed, so that several processes send it once.  ``hg_push_subscriptions`` keeps each
browser's Web Push subscription, and ``hg_server_keys`` the server's VAPID key pair.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hg_notify_settings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("hg_accounts.id"), primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("email_confirmed", sa.Boolean, nullable=False),
        sa.Column("email_on", sa.Boolean, nullable=False),
        sa.Column("push_on", sa.Boolean, nullable=False),
        sa.Column("confirm_sent", sa.Float, nullable=True),
    )
    op.create_table(
        "hg_notify_tokens",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("hg_accounts.id"), nullable=False, index=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "hg_notify_waiting",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("hg_accounts.id"), primary_key=True),
        sa.Column("game_id", sa.String(40), sa.ForeignKey("hg_games.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("since", sa.Float, nullable=False, index=True),
        sa.Column("state", sa.String(8), nullable=False, index=True),
        sa.Column("claimed_by", sa.String(16), nullable=True),
        sa.Column("claimed_at", sa.Float, nullable=True),
        sa.Column("tries", sa.Integer, nullable=False),
    )
    op.create_table(
        "hg_push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("hg_accounts.id"), nullable=False, index=True),
        sa.Column("endpoint", sa.Text, nullable=False),
        sa.Column("endpoint_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "hg_server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in ("hg_server_keys", "hg_push_subscriptions", "hg_notify_waiting", "hg_notify_tokens",
                  "hg_notify_settings"):
        op.drop_table(table)
