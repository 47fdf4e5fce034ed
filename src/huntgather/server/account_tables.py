"""The tables of accounts, sessions, passkeys and ratings (schema revision 0004), and of turn
notifications (0007).

Every table here is made by the migration ``r0004_accounts`` (or ``r0007_notifications``); this
module declares them once, for the queries and for a new database's tables.  An account is a
person's or a bot level's (``kind``); its ``name_key``
is the name folded for uniqueness (:func:`huntgather.server.accounts.name_key`), None once
the account is deleted.  A session, a passkey challenge: only the SHA-256 hash of its id is
stored.  A rating is per account and edition (OpenSkill's mu and sigma); ``hg_rated_games``
holds one row per game rated (its ``seq`` orders the rating updates, so that recomputing them
from the games gives the same numbers) and ``hg_rating_events`` one row per seat of it.
"""

from __future__ import annotations

from enum import StrEnum

from sqlalchemy import Boolean, Column, Float, ForeignKey, Integer, String, Table, Text, false

from huntgather.server.metadata import metadata


class AccountKind(StrEnum):
    """Whose an account is: a person's, or a bot level's (rated on the people's scale)."""

    PERSON = "person"
    BOT = "bot"


accounts = Table(
    "hg_accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("name_key", String(256), nullable=True, unique=True),
    Column("password_hash", Text, nullable=True),
    Column("created", Float, nullable=False),
    Column("disabled", Boolean, nullable=False, default=False, server_default=false()),
    Column("deleted", Boolean, nullable=False, default=False, server_default=false()),
    #: the language of the account's mails (en, cs, de; NULL: English), from the page it signed
    #: up on, changeable on its account screen (migration 0011)
    Column("language", String(8), nullable=True),
)

sessions = Table(
    "hg_sessions", metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("hg_accounts.id"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

passkeys = Table(
    "hg_passkeys", metadata,
    Column("credential_id", String(400), primary_key=True),
    Column("account_id", Integer, ForeignKey("hg_accounts.id"), nullable=False, index=True),
    Column("public_key", Text, nullable=False),
    Column("sign_count", Integer, nullable=False),
    Column("transports", String(200), nullable=True),
    Column("created", Float, nullable=False),
)

challenges = Table(
    "hg_challenges", metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("purpose", String(16), nullable=False),
    Column("account_id", Integer, nullable=True),
    Column("name", String(64), nullable=True),
    Column("challenge", Text, nullable=False),
    Column("expires", Float, nullable=False),
)

ratings = Table(
    "hg_ratings", metadata,
    Column("account_id", Integer, ForeignKey("hg_accounts.id"), primary_key=True),
    Column("edition", String(8), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
)

rated_games = Table(
    "hg_rated_games", metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(40), ForeignKey("hg_games.id"), nullable=False, unique=True),
    Column("edition", String(8), nullable=False),
    Column("at", Float, nullable=False),
)

rating_events = Table(
    "hg_rating_events", metadata,
    Column("seq", Integer, nullable=False, index=True),
    Column("game_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("hg_accounts.id"), nullable=False, index=True),
    Column("edition", String(8), nullable=False),
    Column("rank", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", Float, nullable=False),
)

# --------------------------------------------------------------------------- notifications (0007)

#: an account's email address and its switches for turn notifications (:mod:`.notify`)
notify_settings = Table(
    "hg_notify_settings", metadata,
    Column("account_id", Integer, ForeignKey("hg_accounts.id"), primary_key=True),
    Column("email", String(254), nullable=True),
    Column("email_confirmed", Boolean, nullable=False, default=False),
    Column("email_on", Boolean, nullable=False, default=False),
    Column("push_on", Boolean, nullable=False, default=False),
    #: when the last confirmation mail went out (a new one waits a while)
    Column("confirm_sent", Float, nullable=True),
)

#: the links mailed: a confirmation of an address or an unsubscribe (only the token's hash)
notify_tokens = Table(
    "hg_notify_tokens", metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("hg_accounts.id"), nullable=False, index=True),
    Column("purpose", String(16), nullable=False),
    Column("email", String(254), nullable=True),
    Column("expires", Float, nullable=False),
)

#: one turn that passed to an account while none of its pages was on the game
notify_waiting = Table(
    "hg_notify_waiting", metadata,
    Column("account_id", Integer, ForeignKey("hg_accounts.id"), primary_key=True),
    Column("game_id", String(40), ForeignKey("hg_games.id"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("since", Float, nullable=False, index=True),
    #: ``waiting``, ``sending`` (claimed by ``claimed_by``), ``sent`` or ``dropped``
    Column("state", String(8), nullable=False, index=True),
    Column("claimed_by", String(16), nullable=True),
    Column("claimed_at", Float, nullable=True),
    Column("tries", Integer, nullable=False, default=0),
)

#: each browser's Web Push subscription (its endpoint is unique: ``endpoint_hash``)
push_subscriptions = Table(
    "hg_push_subscriptions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("hg_accounts.id"), nullable=False, index=True),
    Column("endpoint", Text, nullable=False),
    Column("endpoint_hash", String(64), nullable=False, unique=True),
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(100), nullable=False),
    Column("created", Float, nullable=False),
)

#: the server's own keys (the VAPID key pair of Web Push)
server_keys = Table(
    "hg_server_keys", metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)
