"""Turn notifications: "your turn" by email and by Web Push, for the accounts that opt in.

When the turn passes to a person seat held by an account and no page holds that seat (on any
process), the process that stored the move records the turn in ``hg_notify_waiting`` (one row
per account, game and version: :meth:`Notifier.turn_passed`), provided the account has
notifications switched on.  A page of the account that opens the game drops its waiting rows
(:meth:`Notifier.seen`).  Every process runs :meth:`Notifier.run`: once an account's oldest
waiting turn is :attr:`NotifySettings.delay` seconds old, the process claims every waiting row
of that account with a conditional UPDATE (so that of several processes only one sends them),
drops those whose turn was played meanwhile (the stored version moved on) or whose seat changed
hands, and sends what is left as one mail (a link per game, ``PUBLIC/#/play/GAME``: no secret;
a signed-in page holds its account's seats by its cookie) and one push to each of the
account's subscriptions.  A mail that fails is tried again (after 1, 2, 4… minutes, at most
:data:`MAX_TRIES` times); a failure is logged, never shown to anyone.

An address gets nothing before it is confirmed by the link mailed to it
(:meth:`NotifyStore.set_email`), so nobody can have a stranger's mailbox filled.  Every turn
mail carries a link (and RFC 8058 one-click headers) that turns the mails off without signing
in: a random token whose SHA-256 hash is stored.

>>> s = SmtpSettings.from_url("smtp://ann:s3cret@mail.example.org:587")
>>> s.host, s.port, s.user, s.security
('mail.example.org', 587, 'ann', 'starttls')
>>> "s3cret" in repr(s)
False
>>> SmtpSettings.from_url("smtps://mail.example.org").port, SmtpSettings.from_url("smtp+starttls://m.example").security
(465, 'require-starttls')
>>> clean_email("Ann.Lee@Example.ORG")
'Ann.Lee@example.org'
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import re
import secrets
import smtplib
import ssl
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from functools import partial
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from sqlalchemy import and_, delete, exists, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from huntgather.server.account_tables import (
    accounts,
    notify_settings,
    notify_tokens,
    notify_waiting,
    push_subscriptions,
    server_keys,
)
from huntgather.server.mail_words import words
from huntgather.server.seats import RequestError, SeatKind
from huntgather.server.storage import Storage, games, seats

log = logging.getLogger("huntgather.server")

#: the default seconds between a turn passing to someone and the mail about it
NOTIFY_DELAY = 300.0
#: how many times a mail (and its pushes) is tried before it is given up
MAX_TRIES = 5
#: a confirmation link lasts this long; an unsubscribe link this long
CONFIRM_LIFE = 2 * 86400.0
UNSUBSCRIBE_LIFE = 180 * 86400.0
#: seconds between two confirmation mails of one account
CONFIRM_EVERY = 60.0
#: the most push subscriptions (browsers) one account keeps
MAX_SUBSCRIPTIONS = 10
#: the most games one mail lists (the rest are summed up)
MAX_LISTED = 20

_LOCAL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}$")
_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def clean_email(raw: object) -> str:
    """An email address mail may be sent to (ASCII local part, a domain with a dot; the domain
    lower-cased, an international one in its IDNA form); raises ``bad_email``.

    >>> clean_email("a@b")
    Traceback (most recent call last):
    ...
    huntgather.server.seats.RequestError: that is not an email address (name@example.org)
    >>> clean_email("x@example.org\\r\\nBcc: all@example.org")
    Traceback (most recent call last):
    ...
    huntgather.server.seats.RequestError: that is not an email address (name@example.org)
    """
    bad = RequestError("bad_email", "that is not an email address (name@example.org)")
    if not isinstance(raw, str) or len(raw) > 254:
        raise bad
    local, at, domain = raw.strip().rpartition("@")
    if not at or not _LOCAL.match(local) or local.startswith(".") or local.endswith(".") or ".." in local:
        raise bad
    try:
        domain = domain.encode("idna").decode("ascii").lower()
    except (UnicodeError, ValueError):
        raise bad from None
    labels = domain.split(".")
    if len(labels) < 2 or not all(_LABEL.match(label) for label in labels) or labels[-1].isdigit():
        raise bad
    address = f"{local}@{domain}"
    if len(address) > 254:
        raise bad
    return address


def token_hash(token: str) -> str:
    """The SHA-256 hex digest of a mailed token (what is stored)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


# --------------------------------------------------------------------------- mail


@dataclass(frozen=True)
class SmtpSettings:
    """Where mail goes: ``--smtp smtp://user:pass@host:port`` and its security.

    ``security``: ``starttls`` (``smtp://``: STARTTLS when the server offers it, else plain;
    no password is sent in plain text except to a loopback address), ``require-starttls``
    (``smtp+starttls://``, or ``smtp://…?starttls=require``: no mail unless STARTTLS works) or
    ``tls`` (``smtps://``: TLS from the first byte, port 465 by default).
    """

    host: str
    port: int
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    security: str = "starttls"
    timeout: float = 20.0

    @classmethod
    def from_url(cls, url: str) -> SmtpSettings:
        """Read ``--smtp``; raises ValueError saying what is wrong (never echoing a password)."""
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        query = parse_qs(parts.query)
        if scheme not in ("smtp", "smtp+starttls", "smtps"):
            raise ValueError("the SMTP URL must start with smtp://, smtp+starttls:// or smtps://")
        try:
            host, port = parts.hostname, parts.port
        except ValueError:
            raise ValueError("the SMTP URL's port is not a number from 1 to 65535") from None
        if not host:
            raise ValueError("the SMTP URL needs a host: smtp://user:password@host:port")
        starttls = query.get("starttls", [""])[-1].lower()
        if starttls not in ("", "require", "auto"):
            raise ValueError("starttls= may be require or auto")
        unknown = set(query) - {"starttls"}
        if unknown:
            raise ValueError(f"unknown SMTP URL parameter: {sorted(unknown)[0]}")
        security = "tls" if scheme == "smtps" else \
            "require-starttls" if scheme == "smtp+starttls" or starttls == "require" else "starttls"
        default = 465 if security == "tls" else 587 if parts.username else 25
        return cls(host, port or default, unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password is not None else None, security)

    @property
    def loopback(self) -> bool:
        return self.host in ("localhost", "127.0.0.1", "::1")

    def describe(self) -> str:
        """Where mail goes, for the server's announcement (no password)."""
        how = {"starttls": "STARTTLS if offered", "require-starttls": "STARTTLS required",
               "tls": "TLS"}[self.security]
        who = f"{self.user}@" if self.user else ""
        return f"{who}{self.host}:{self.port} ({how})"


class MailError(RuntimeError):
    """A mail could not be handed to the SMTP server (the message never holds the password)."""


def send_mail(smtp: SmtpSettings, message: EmailMessage, context: ssl.SSLContext | None = None) -> None:
    """Hand ``message`` to the SMTP server (blocking: call it in a thread); raises :class:`MailError`."""
    context = context or ssl.create_default_context()
    try:
        client: smtplib.SMTP
        if smtp.security == "tls":
            client = smtplib.SMTP_SSL(smtp.host, smtp.port, timeout=smtp.timeout, context=context)
        else:
            client = smtplib.SMTP(smtp.host, smtp.port, timeout=smtp.timeout)
        with client:
            client.ehlo()
            encrypted = smtp.security == "tls"
            if smtp.security != "tls" and client.has_extn("starttls"):
                client.starttls(context=context)
                client.ehlo()
                encrypted = True
            if smtp.security == "require-starttls" and not encrypted:
                raise MailError(f"{smtp.host} offers no STARTTLS, and it is required")
            if smtp.user is not None:
                if not encrypted and not smtp.loopback:
                    raise MailError(f"{smtp.host} offers no STARTTLS: the password is not sent in "
                                    f"plain text (use smtps:// or a server that offers STARTTLS)")
                client.login(smtp.user, smtp.password or "")
            client.send_message(message)
    except MailError:
        raise
    except (smtplib.SMTPException, OSError, ssl.SSLError) as exc:
        raise MailError(f"{type(exc).__name__}: {_safe(str(exc), smtp)}") from None


def _safe(text: str, smtp: SmtpSettings) -> str:
    """``text`` without the SMTP password (an error message may quote what was sent)."""
    if smtp.password:
        text = text.replace(smtp.password, "***")
    return text[:300]


# --------------------------------------------------------------------------- Web Push keys


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def vapid_public_key(private: str) -> str:
    """The public key (uncompressed point, base64url) of a raw private VAPID key (base64url)."""
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid

    key = Vapid.from_string(private).public_key
    return _b64(key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))


def new_vapid_key() -> str:
    """A new raw private VAPID key (P-256), base64url."""
    from cryptography.hazmat.primitives.asymmetric import ec

    number = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    return _b64(number.to_bytes(32, "big"))


def check_vapid_key(private: str) -> str:
    """``private`` if it is a raw P-256 private key in base64url (as ``vapid --gen`` or
    :func:`new_vapid_key` make); raises ValueError."""
    try:
        vapid_public_key(private)
    except Exception:
        raise ValueError("the VAPID key must be a raw P-256 private key in base64url (43 characters)") \
            from None
    return private.strip()


# --------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class NotifySettings:
    """What ``huntgather play`` says about notifications."""

    #: where mail goes (None: no mail is ever sent, and the account page says so)
    smtp: SmtpSettings | None = None
    #: the From of every mail
    mail_from: str = "huntgather@localhost"
    #: the address the links in mails are built from, e.g. https://games.example.org/
    public_url: str = ""
    #: seconds between a turn passing to someone and the notification about it
    delay: float = NOTIFY_DELAY
    #: the VAPID private key (None: one is made at the first start and kept in the database)
    vapid_key: str | None = None
    #: the TLS context for the SMTP connection (tests give one that trusts their own certificate)
    ssl_context: ssl.SSLContext | None = None

    @property
    def base(self) -> str:
        return self.public_url.rstrip("/") + "/"


@dataclass(frozen=True)
class Prefs:
    """An account's notification settings as the account page shows them."""

    email: str | None = None
    email_confirmed: bool = False
    email_on: bool = False
    push_on: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"email": self.email, "email_confirmed": self.email_confirmed, "email_on": self.email_on,
                "push_on": self.push_on}


@dataclass(frozen=True)
class Waiting:
    """A game waiting for an account's move, as a mail lists it."""

    game_id: str
    version: int
    seat: int
    #: the other seats: a person's name as it is, or an :class:`Opponent` worded in the mail's language
    opponents: list[str | Opponent]
    edition: str


@dataclass(frozen=True)
class Opponent:
    """Another seat of a waiting game: a bot of ``level``, or a person without a name."""

    seat: int
    level: str | None = None


def opponent_words(o: str | Opponent, language: str | None) -> str:
    """An opponent as a mail names it in ``language``: a name, ``'easy bot'``, ``'seat 2'``."""
    if isinstance(o, str):
        return o
    return words(language, "seat.bot", level=o.level) if o.level else words(language, "seat.n", n=o.seat + 1)


# --------------------------------------------------------------------------- storage


class NotifyStore:
    """The notification tables (``hg_notify_*``, ``hg_push_subscriptions``, ``hg_server_keys``)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    @property
    def _engine(self) -> Any:
        return self.storage.engine

    # ------------------------------------------------------------------ settings

    def prefs(self, account_id: int) -> Prefs:
        with self._engine.connect() as conn:
            row = conn.execute(select(notify_settings)
                               .where(notify_settings.c.account_id == account_id)).first()
        if row is None:
            return Prefs()
        return Prefs(row.email, bool(row.email_confirmed), bool(row.email_on), bool(row.push_on))

    @staticmethod
    def _ensure(conn: Connection, account_id: int) -> None:
        if conn.execute(select(notify_settings.c.account_id)
                        .where(notify_settings.c.account_id == account_id)).first() is None:
            conn.execute(insert(notify_settings).values(account_id=account_id, email=None,
                                                        email_confirmed=False, email_on=False,
                                                        push_on=False))

    def set_switches(self, account_id: int, email_on: bool | None, push_on: bool | None) -> None:
        values: dict[str, bool] = {}
        if email_on is not None:
            values["email_on"] = email_on
        if push_on is not None:
            values["push_on"] = push_on
        if not values:
            return
        with self._engine.begin() as conn:
            self._ensure(conn, account_id)
            conn.execute(update(notify_settings).where(notify_settings.c.account_id == account_id)
                         .values(**values))

    def set_email(self, account_id: int, email: str | None) -> str | None:
        """Set (or with None, remove) the account's address, unconfirmed; returns the token of
        the confirmation link to mail (None: nothing to mail).  Raises ``too_many_attempts`` when
        the last confirmation mail went out under :data:`CONFIRM_EVERY` seconds ago."""
        now = time.time()
        with self._engine.begin() as conn:
            self._ensure(conn, account_id)
            row = conn.execute(select(notify_settings)
                               .where(notify_settings.c.account_id == account_id)).one()
            conn.execute(delete(notify_tokens).where(notify_tokens.c.account_id == account_id,
                                                     notify_tokens.c.purpose == "confirm"))
            if email is None:
                conn.execute(update(notify_settings).where(notify_settings.c.account_id == account_id)
                             .values(email=None, email_confirmed=False, email_on=False))
                return None
            if row.email == email and row.email_confirmed:
                return None
            if row.confirm_sent is not None and now - row.confirm_sent < CONFIRM_EVERY:
                raise RequestError("too_many_attempts", "a confirmation mail went out a moment ago; "
                                                        "wait a minute before asking for another")
            token = secrets.token_urlsafe(32)
            conn.execute(insert(notify_tokens).values(id_hash=token_hash(token), account_id=account_id,
                                                      purpose="confirm", email=email,
                                                      expires=now + CONFIRM_LIFE))
            conn.execute(update(notify_settings).where(notify_settings.c.account_id == account_id)
                         .values(email=email, email_confirmed=False, confirm_sent=now))
        return token

    def _token(self, conn: Connection, token: str, purpose: str) -> Any:
        if not token or len(token) > 100:
            return None
        row = conn.execute(select(notify_tokens).where(notify_tokens.c.id_hash == token_hash(token),
                                                       notify_tokens.c.purpose == purpose)).first()
        if row is None or row.expires <= time.time():
            return None
        return row

    def token_email(self, token: str, purpose: str) -> str | None:
        """The address a live token of ``purpose`` was made for (shown on its page), or None."""
        with self._engine.connect() as conn:
            row = self._token(conn, token, purpose)
        return None if row is None else row.email

    def confirm(self, token: str) -> bool:
        """Confirm the address a confirmation token was mailed to (if it is still the account's)."""
        with self._engine.begin() as conn:
            row = self._token(conn, token, "confirm")
            if row is None:
                return False
            conn.execute(delete(notify_tokens).where(notify_tokens.c.id_hash == row.id_hash))
            done = conn.execute(update(notify_settings).where(
                notify_settings.c.account_id == row.account_id, notify_settings.c.email == row.email)
                .values(email_confirmed=True)).rowcount
        return bool(done)

    def unsubscribe_token(self, conn: Connection, account_id: int, email: str) -> str:
        """A new unsubscribe token for a mail to the account (its expired links are removed)."""
        conn.execute(delete(notify_tokens).where(notify_tokens.c.account_id == account_id,
                                                 notify_tokens.c.expires <= time.time()))
        token = secrets.token_urlsafe(32)
        conn.execute(insert(notify_tokens).values(id_hash=token_hash(token), account_id=account_id,
                                                  purpose="unsubscribe", email=email,
                                                  expires=time.time() + UNSUBSCRIBE_LIFE))
        return token

    def unsubscribe(self, token: str) -> bool:
        """Turn the mails of the token's account off; False if the token is unknown or old."""
        with self._engine.begin() as conn:
            row = self._token(conn, token, "unsubscribe")
            if row is None:
                return False
            conn.execute(update(notify_settings).where(notify_settings.c.account_id == row.account_id)
                         .values(email_on=False))
            conn.execute(update(notify_waiting).where(notify_waiting.c.account_id == row.account_id,
                                                      notify_waiting.c.state == "waiting")
                         .values(state="dropped"))
        return True

    @staticmethod
    def forget(conn: Connection, account_id: int) -> None:
        """Delete everything of the account's notifications (the account is deleted)."""
        for table in (notify_tokens, notify_waiting, push_subscriptions, notify_settings):
            conn.execute(delete(table).where(table.c.account_id == account_id))

    # ------------------------------------------------------------------ push subscriptions

    def add_subscription(self, account_id: int, endpoint: str, p256dh: str, auth: str) -> None:
        """Keep a browser's subscription (the same endpoint again replaces its keys and owner);
        raises ``too_many_subscriptions`` beyond :data:`MAX_SUBSCRIPTIONS`."""
        key = token_hash(endpoint)
        with self._engine.begin() as conn:
            conn.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint_hash == key))
            count = conn.execute(select(func.count()).select_from(push_subscriptions)
                                 .where(push_subscriptions.c.account_id == account_id)).scalar() or 0
            if count >= MAX_SUBSCRIPTIONS:
                raise RequestError("too_many_subscriptions",
                                   f"an account keeps at most {MAX_SUBSCRIPTIONS} browsers for "
                                   f"notifications; switch them off in one you no longer use")
            conn.execute(insert(push_subscriptions).values(
                account_id=account_id, endpoint=endpoint, endpoint_hash=key, p256dh=p256dh, auth=auth,
                created=time.time()))

    def remove_subscription(self, account_id: int, endpoint: str) -> bool:
        """Forget the account's subscription of ``endpoint`` (another account's stays)."""
        with self._engine.begin() as conn:
            return bool(conn.execute(delete(push_subscriptions).where(
                push_subscriptions.c.endpoint_hash == token_hash(endpoint),
                push_subscriptions.c.account_id == account_id)).rowcount)

    def subscriptions(self, account_id: int) -> list[Any]:
        with self._engine.connect() as conn:
            return list(conn.execute(select(push_subscriptions)
                                     .where(push_subscriptions.c.account_id == account_id)).all())

    def drop_subscription(self, sub_id: int) -> None:
        with self._engine.begin() as conn:
            conn.execute(delete(push_subscriptions).where(push_subscriptions.c.id == sub_id))

    # ------------------------------------------------------------------ keys

    def vapid_key(self, given: str | None) -> str:
        """The VAPID private key: ``given``, else the one kept in the database (made and kept at
        the first start; of two processes starting at once, the first one's is kept)."""
        if given:
            return given
        with self._engine.connect() as conn:
            kept = conn.execute(select(server_keys.c.value).where(server_keys.c.name == "vapid")).scalar()
        if kept:
            return str(kept)
        try:
            with self._engine.begin() as conn:
                conn.execute(insert(server_keys).values(name="vapid", value=new_vapid_key()))
        except IntegrityError:
            pass
        with self._engine.connect() as conn:
            return str(conn.execute(select(server_keys.c.value)
                                    .where(server_keys.c.name == "vapid")).scalar())

    # ------------------------------------------------------------------ waiting turns

    @staticmethod
    def add_waiting(conn: Connection, account_id: int, game_id: str, version: int, seat: int) -> bool:
        """Record that the turn passed to the account's ``seat`` at ``version``, if the account
        wants notifications; True if a row was added.  (A write of :meth:`Storage.write`: in the
        writer's transaction.)"""
        wants = exists().where(notify_settings.c.account_id == account_id, or_(
            and_(notify_settings.c.email_on, notify_settings.c.email_confirmed),
            notify_settings.c.push_on))
        if not conn.execute(select(wants)).scalar():
            return False
        if conn.execute(select(notify_waiting.c.state).where(
                notify_waiting.c.account_id == account_id, notify_waiting.c.game_id == game_id,
                notify_waiting.c.version == version)).first() is not None:
            return False   # recorded already (the same turn told twice)
        conn.execute(update(notify_waiting).where(   # older turns of this game are over
            notify_waiting.c.account_id == account_id, notify_waiting.c.game_id == game_id,
            notify_waiting.c.state == "waiting").values(state="dropped"))
        conn.execute(insert(notify_waiting).values(
            account_id=account_id, game_id=game_id, version=version, seat=seat, since=time.time(),
            state="waiting", claimed_by=None, claimed_at=None, tries=0))
        return True

    @staticmethod
    def seen(conn: Connection, account_id: int, game_id: str) -> int:
        """A page of the account opened the game: its waiting turns there are not mailed."""
        return int(conn.execute(update(notify_waiting).where(
            notify_waiting.c.account_id == account_id, notify_waiting.c.game_id == game_id,
            notify_waiting.c.state == "waiting").values(state="dropped")).rowcount)

    def due(self, now: float, delay: float) -> list[int]:
        """The accounts with a turn waiting ``delay`` seconds or more, or a send to retry."""
        retry = [and_(notify_waiting.c.state == "sending", notify_waiting.c.tries == n,
                      notify_waiting.c.claimed_at <= now - 60.0 * 2 ** (n - 1)) for n in range(1, MAX_TRIES)]
        stale = and_(notify_waiting.c.state == "sending", notify_waiting.c.claimed_at <= now - 600.0)
        with self._engine.connect() as conn:
            return list(conn.execute(select(notify_waiting.c.account_id).distinct().where(or_(
                and_(notify_waiting.c.state == "waiting", notify_waiting.c.since <= now - delay),
                stale, *retry)).limit(100)).scalars())

    def claim(self, account_id: int, now: float, delay: float) -> tuple[str, list[Any]]:
        """Take the account's waiting turns (and its sends due for a retry) for this process:
        one conditional UPDATE, so that of several processes only one gets each row."""
        claim = secrets.token_hex(8)
        retry = or_(*[and_(notify_waiting.c.tries == n,
                           notify_waiting.c.claimed_at <= now - 60.0 * 2 ** (n - 1))
                      for n in range(1, MAX_TRIES)],
                    notify_waiting.c.claimed_at <= now - 600.0)
        with self._engine.begin() as conn:
            conn.execute(update(notify_waiting).where(
                notify_waiting.c.account_id == account_id,
                or_(notify_waiting.c.state == "waiting", and_(notify_waiting.c.state == "sending", retry)))
                .values(state="sending", claimed_by=claim, claimed_at=now))
            rows = conn.execute(select(notify_waiting).where(notify_waiting.c.claimed_by == claim,
                                                             notify_waiting.c.state == "sending")).all()
        return claim, list(rows)

    def still_waiting(self, account_id: int, rows: list[Any]) -> tuple[list[Waiting], list[Any]]:
        """Of claimed rows, the games still waiting for the account at the row's version (and
        the rows that are not: played meanwhile, over, the seat another's or a bot's)."""
        live: list[Waiting] = []
        gone: list[Any] = []
        with self._engine.connect() as conn:
            for row in rows:
                game = conn.execute(select(games.c.ply, games.c.status, games.c.setup)
                                    .where(games.c.id == row.game_id)).first()
                seat_rows = conn.execute(select(seats).where(seats.c.game_id == row.game_id)
                                         .order_by(seats.c.seat)).all()
                mine = [s for s in seat_rows if s.seat == row.seat]
                if game is None or game.status != "playing" or game.ply != row.version or not mine \
                        or mine[0].account_id != account_id or mine[0].kind != SeatKind.HUMAN:
                    gone.append(row)
                    continue
                try:
                    edition = str(json.loads(game.setup).get("edition", "2020"))
                except (ValueError, AttributeError):
                    edition = "?"
                others: list[str | Opponent] = [
                    (s.name or Opponent(s.seat)) if s.kind == SeatKind.HUMAN
                    else Opponent(s.seat, s.level or "?")
                    for s in seat_rows if s.seat != row.seat]
                live.append(Waiting(row.game_id, row.version, row.seat, others, edition))
        return live, gone

    def settle(self, claim: str, rows: list[Any], state: str) -> None:
        """Mark claimed rows ``sent`` or ``dropped``."""
        with self._engine.begin() as conn:
            for row in rows:
                conn.execute(update(notify_waiting).where(
                    notify_waiting.c.account_id == row.account_id, notify_waiting.c.game_id == row.game_id,
                    notify_waiting.c.version == row.version, notify_waiting.c.claimed_by == claim)
                    .values(state=state))

    def failed(self, claim: str, rows: list[Any]) -> None:
        """A send failed: tried again later (the rows stay claimed, with one more try), or
        given up after :data:`MAX_TRIES`."""
        with self._engine.begin() as conn:
            for row in rows:
                tries = row.tries + 1
                conn.execute(update(notify_waiting).where(
                    notify_waiting.c.account_id == row.account_id, notify_waiting.c.game_id == row.game_id,
                    notify_waiting.c.version == row.version, notify_waiting.c.claimed_by == claim)
                    .values(tries=tries, state="sending" if tries < MAX_TRIES else "failed",
                            claimed_at=time.time()))

    def recipient(self, account_id: int) -> tuple[str, Prefs, str | None] | None:
        """The account's name, settings and language (of its mails; None: English), if it is a
        live account."""
        with self._engine.connect() as conn:
            row = conn.execute(select(accounts.c.name, accounts.c.deleted, accounts.c.disabled,
                                      accounts.c.language).where(accounts.c.id == account_id)).first()
        if row is None or row.deleted or row.disabled:
            return None
        return row.name, self.prefs(account_id), row.language


# --------------------------------------------------------------------------- the notifier


class Notifier:
    """Records the turns waiting and sends their notifications (one per process)."""

    def __init__(self, storage: Storage, settings: NotifySettings) -> None:
        self.storage = storage
        self.store = NotifyStore(storage)
        self.settings = settings
        self._tasks: set[asyncio.Task[Any]] = set()
        self._vapid: str | None = None
        #: how many mails and pushes this process sent, and how many failed (tests, logs)
        self.sent = self.failures = self.pushed = 0

    @property
    def mail_on(self) -> bool:
        return self.settings.smtp is not None

    def vapid_key(self) -> str:
        if self._vapid is None:
            self._vapid = self.store.vapid_key(self.settings.vapid_key)
        return self._vapid

    def vapid_public(self) -> str:
        return vapid_public_key(self.vapid_key())

    # ------------------------------------------------------------------ what rooms tell

    def _spawn(self, fn: Any, *args: Any) -> None:
        """``fn(conn, *args)`` by the storage's writer thread (with the moves' writes), quietly;
        nothing with a database in memory (see :meth:`run`)."""
        if self.storage.in_memory:
            return

        async def run() -> None:
            try:
                await self.storage.write(fn, *args)
            except Exception as exc:   # a courtesy: never fail a move or a page over it
                log.warning("turn notifications: %s failed (%s)", fn.__name__, type(exc).__name__)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def turn_passed(self, game_id: str, seat: int, account_id: int, version: int) -> None:
        """The turn passed to ``seat`` (held by the account, no page on it) at ``version``."""
        self._spawn(self.store.add_waiting, account_id, game_id, version, seat)

    def seen(self, game_id: str, account_id: int) -> None:
        """A page holding the account's seat opened the game."""
        self._spawn(self.store.seen, account_id, game_id)

    # ------------------------------------------------------------------ sending

    async def run(self) -> None:
        """Send what is due, every fraction of the delay (at most every 5 s), for ever.  Not with
        a database in memory (tests): its one connection is the writer's and the readers' in
        turn, and nothing there outlives the process anyway."""
        if self.storage.in_memory:
            return
        tick = min(5.0, max(0.1, self.settings.delay / 4))
        while True:
            try:
                await self.sweep()
            except Exception as exc:
                log.warning("turn notifications: looking for turns to tell failed (%s)", type(exc).__name__)
            await asyncio.sleep(tick)

    async def sweep(self) -> int:
        """Send every account's due notification; returns how many accounts were told."""
        now = time.time()
        told = 0
        for account_id in await asyncio.to_thread(self.store.due, now, self.settings.delay):
            told += await self._tell(account_id, now)
        return told

    async def _tell(self, account_id: int, now: float) -> int:
        claim, rows = await asyncio.to_thread(self.store.claim, account_id, now, self.settings.delay)
        if not rows:
            return 0   # another process took them
        live, gone = await asyncio.to_thread(self.store.still_waiting, account_id, rows)
        if gone:
            await asyncio.to_thread(self.store.settle, claim, gone, "dropped")
        who = await asyncio.to_thread(self.store.recipient, account_id)
        if not live or who is None:
            await asyncio.to_thread(self.store.settle, claim, [r for r in rows if r not in gone], "dropped")
            return 0
        name, prefs, language = who
        sending = [r for r in rows if r not in gone]
        mail = prefs.email_on and prefs.email_confirmed and bool(prefs.email) \
            and self.settings.smtp is not None
        if not mail and not prefs.push_on:   # switched off meanwhile
            await asyncio.to_thread(self.store.settle, claim, sending, "dropped")
            return 0
        ok = True
        if prefs.push_on and all(r.tries == 0 for r in sending):   # not again when a mail is retried
            await self._push(account_id, live, language)
        if mail:
            assert prefs.email is not None
            try:
                await asyncio.to_thread(self._mail_turns, account_id, name, prefs.email, live, language)
                self.sent += 1
                log.info("turn notifications: mailed account %d about %d games", account_id, len(live))
            except Exception as exc:
                ok = False
                self.failures += 1
                log.warning("turn notifications: mail to account %d failed (try %d of %d): %s", account_id,
                            max(r.tries for r in sending) + 1, MAX_TRIES, exc)
        if ok:
            await asyncio.to_thread(self.store.settle, claim, sending, "sent")
        else:
            await asyncio.to_thread(self.store.failed, claim, sending)
        return 1

    def game_link(self, game_id: str) -> str:
        return f"{self.settings.base}#/play/{quote(game_id, safe='')}"

    def _message(self, to: str, subject: str, text: str) -> EmailMessage:
        message = EmailMessage()
        message["From"] = formataddr(("huntgather", self.settings.mail_from))
        message["To"] = to
        message["Subject"] = subject
        domain = self.settings.mail_from.rpartition("@")[2] or "localhost"
        message["Message-ID"] = make_msgid(domain=domain)
        message["Auto-Submitted"] = "auto-generated"
        message.set_content(text)
        return message

    def _mail_turns(self, account_id: int, name: str, email: str, live: list[Waiting],
                    language: str | None = None) -> None:
        """The turn mail, in the account's ``language`` (:mod:`huntgather.server.mail_words`)."""
        assert self.settings.smtp is not None
        with self.storage.engine.begin() as conn:
            token = self.store.unsubscribe_token(conn, account_id, email)
        unsubscribe = f"{self.settings.base}notifications/unsubscribe?token={token}"
        count = len(live)
        say = partial(words, language)
        subject = say("turns.subject", n=count)
        lines = [say("turns.hello", name=name), "", say("turns.intro", n=count), ""]
        for w in live[:MAX_LISTED]:
            against = ", ".join(opponent_words(o, language) for o in w.opponents) or say("turns.nobody")
            lines.append(say("turns.game", against=against, edition=w.edition))
            lines.append(f"  {self.game_link(w.game_id)}")
        if count > MAX_LISTED:
            lines.append(say("turns.more", n=count - MAX_LISTED, link=f"{self.settings.base}#/me"))
        lines += ["", say("turns.open"), say("turns.once"),
                  "", say("turns.unsubscribe", link=unsubscribe),
                  say("turns.settings", link=f"{self.settings.base}#/me")]
        message = self._message(email, subject, "\n".join(lines) + "\n")
        message["List-Unsubscribe"] = f"<{unsubscribe}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        send_mail(self.settings.smtp, message, self.settings.ssl_context)

    def mail_confirmation(self, name: str, email: str, token: str, language: str | None = None) -> None:
        """Mail the link that confirms ``email`` in ``language`` (blocking: call in a thread);
        raises MailError."""
        assert self.settings.smtp is not None
        link = f"{self.settings.base}notifications/confirm?token={token}"
        text = words(language, "confirm.text", name=name, link=link, days=int(CONFIRM_LIFE // 86400))
        send_mail(self.settings.smtp, self._message(email, words(language, "confirm.subject"), text),
                  self.settings.ssl_context)

    async def _push(self, account_id: int, live: list[Waiting], language: str | None = None) -> None:
        subs = await asyncio.to_thread(self.store.subscriptions, account_id)
        if not subs:
            return
        count = len(live)
        against = ", ".join(opponent_words(o, language) for o in live[0].opponents)
        payload = json.dumps({
            "title": words(language, "push.title", n=count),
            "body": words(language, "push.against", against=against) if count == 1
            else words(language, "push.waiting"),
            "game": live[0].game_id, "games": [w.game_id for w in live[:MAX_LISTED]],
            "url": f"#/play/{quote(live[0].game_id, safe='')}" if count == 1 else "#/me"})
        for sub in subs:
            await asyncio.to_thread(self._push_one, sub, payload)

    def _push_one(self, sub: Any, payload: str) -> None:
        from pywebpush import WebPushException, webpush

        subject = f"mailto:{self.settings.mail_from}" if "@" in self.settings.mail_from \
            else "mailto:huntgather@localhost"
        try:
            webpush({"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}, payload,
                    vapid_private_key=self.vapid_key(), vapid_claims={"sub": subject}, timeout=10, ttl=86400)
            self.pushed += 1
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):   # the browser unsubscribed: forget it
                self.store.drop_subscription(sub.id)
                log.info("turn notifications: a push subscription of account %d is gone (%s)",
                         sub.account_id, status)
            else:
                log.warning("turn notifications: a push to account %d failed (%s)", sub.account_id, status)
        except Exception as exc:
            log.warning("turn notifications: a push to account %d failed (%s)", sub.account_id,
                        type(exc).__name__)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
