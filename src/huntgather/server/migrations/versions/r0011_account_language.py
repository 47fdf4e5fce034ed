"""The language of an account's mails.

``hg_accounts.language`` is ``en``, ``cs`` or ``de`` (the page's language when the account was
made, changeable on its account screen), NULL for accounts made before: their mails stay in
English (:mod:`huntgather.server.mail_words`).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hg_accounts") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hg_accounts") as batch:
        batch.drop_column("language")
