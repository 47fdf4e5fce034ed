"""Accounts: names, passwords and sessions (optional: guests play without one).

A name is unique after folding (:func:`name_key`): case, compatibility forms and Unicode
confusables (the UTS #39 data, through ``confusable_homoglyphs``) do not make a second name,
so ``Ann``, ``ANN`` and ``Аnn`` (a Cyrillic A) are one.  A password is kept as an argon2id
hash (``argon2-cffi``'s defaults).  A session id is 256 random bits; only its SHA-256 hash is
stored, and it is compared by lookup of that hash (the id itself is never kept).

>>> name_key("Ann  Lee") == name_key("ann lee") == name_key("\\u0410nn Lee")
True
>>> name_key("Ann") == name_key("Anne")
False
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from huntgather.server.account_tables import AccountKind, accounts, challenges, passkeys, sessions
from huntgather.server.messages import NoticeType, encode_notice
from huntgather.server.notify import NotifyStore
from huntgather.server.seats import RequestError, clean_name
from huntgather.server.storage import Storage, games, seats

#: the shortest and longest password taken (a longer one is refused, not cut)
MIN_PASSWORD, MAX_PASSWORD = 8, 256
#: the fewest visible characters of an account's name
MIN_NAME = 2
#: a session ends this long after it was last used
SESSION_IDLE = 30 * 24 * 3600.0
#: a session is replaced by a new id (same account) once it is this old
SESSION_ROTATE = 24 * 3600.0
#: the name a deleted account, and its seats in every game, are shown under
DELETED_NAME = "deleted player"


@cache
def _confusable_map() -> dict[str, str]:
    """Each confusable character -> the one its class is folded to (an ASCII one if any)."""
    from confusable_homoglyphs import confusables

    out: dict[str, str] = {}
    for char, glyphs in confusables.confusables_data.items():
        if len(char) != 1:
            continue
        group = [char, *(g["c"] for g in glyphs if len(g["c"]) == 1)]
        ascii_ones = [c for c in group if c.isascii()]
        out[char] = min(ascii_ones) if ascii_ones else min(group)
    return out


def name_key(name: str) -> str:
    """The form of a name that must be unique: NFKC, case folded, confusables folded, spaces
    made one."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    table = _confusable_map()
    skeleton = "".join(table.get(c, c) for c in folded)
    return " ".join(unicodedata.normalize("NFKC", skeleton).casefold().split())


def account_name(raw: object) -> str:
    """A name an account may take (:func:`~huntgather.server.seats.clean_name`, at least
    :data:`MIN_NAME` characters); raises ``bad_name``."""
    try:
        name = clean_name(raw)
    except RequestError as exc:
        raise RequestError("bad_name", exc.message) from None
    if len(name) < MIN_NAME:
        raise RequestError("bad_name", f"a name needs at least {MIN_NAME} visible characters")
    if name_key(name) in _bot_names():   # a profile or leaderboard name would mean two players
        raise RequestError("bad_name", f"{name!r} is the name of one of the bots; choose another")
    return name


@cache
def _bot_names() -> frozenset[str]:
    """The bot levels' names, folded: the players of that name on the leaderboard are the bots."""
    from huntgather.bots.registry import registered

    return frozenset(name_key(spec.name) for spec in registered())


def check_password_text(raw: object) -> str:
    """A password as given, if it may be one; raises ``bad_password``."""
    if not isinstance(raw, str) or not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD:
        raise RequestError("bad_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return raw


def session_hash(token: str) -> str:
    """The SHA-256 hex digest of a session id (what is stored)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class Account:
    """An account as the server uses it."""

    id: int
    kind: AccountKind
    name: str
    disabled: bool = False
    deleted: bool = False
    has_password: bool = False
    #: the language of its mails (``en``, ``cs``, ``de``), None for English
    language: str | None = None


@dataclass(frozen=True)
class Session:
    """A signed-in session: its account, and a new id when the old one was rotated."""

    account: Account
    #: set when the session's id was replaced (the cookie must be set again with it)
    rotated: str | None = None


def _account(r: Any) -> Account:
    """An :class:`Account` from a row of ``hg_accounts``."""
    return Account(r.id, AccountKind(r.kind), r.name, bool(r.disabled), bool(r.deleted),
                   r.password_hash is not None, r.language)


class Accounts:
    """Accounts and sessions stored beside the games (the same database)."""

    def __init__(self, storage: Storage, hasher: PasswordHasher | None = None) -> None:
        self.storage = storage
        self.hasher = hasher or PasswordHasher()

    @cached_property
    def _dummy(self) -> str:
        """A hash verified against for an unknown name, so that it takes as long as a known one
        (made at the first sign-in, not at start: every server and every test app makes an
        ``Accounts``, and an argon2 hash costs a tenth of a second)."""
        return self.hasher.hash(secrets.token_urlsafe(16))

    # ------------------------------------------------------------------ accounts

    def create(self, name: str, password: str | None = None,
               kind: AccountKind = AccountKind.PERSON, language: str | None = None) -> Account:
        """A new account (``language``: of its mails, checked by the caller); raises
        ``name_taken`` when the folded name is another's."""
        name = account_name(name)
        hashed = self.hasher.hash(check_password_text(password)) if password is not None else None
        try:
            with self.storage.engine.begin() as conn:
                new_id = conn.execute(insert(accounts).values(
                    kind=str(kind), name=name, name_key=name_key(name), password_hash=hashed,
                    created=time.time(), disabled=False, deleted=False,
                    language=language)).inserted_primary_key
        except IntegrityError:
            raise RequestError("name_taken", "that name is taken; choose another") from None
        assert new_id is not None
        return Account(int(new_id[0]), kind, name, has_password=hashed is not None, language=language)

    def set_language(self, account_id: int, language: str) -> None:
        """The language of the account's mails (one of ``mail_words.LANGUAGES``, checked by the caller)."""
        with self.storage.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(language=language))

    def by_id(self, account_id: int) -> Account | None:
        with self.storage.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
        return _account(row) if row is not None else None

    def by_name(self, name: str) -> Account | None:
        """The live account of this name (folded), or None (a deleted one has no name)."""
        with self.storage.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.name_key == name_key(name))).first()
        return _account(row) if row is not None else None

    def check_password(self, name: str, password: str) -> Account | None:
        """The account if ``password`` is its password and it may sign in, else None; an unknown
        name costs one argon2 verification too, as a known one does."""
        with self.storage.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.name_key == name_key(name),
                                                      accounts.c.kind == str(AccountKind.PERSON))).first()
        stored = row.password_hash if row is not None and row.password_hash else self._dummy
        try:
            self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return None
        if row is None or not row.password_hash or row.disabled or row.deleted:
            return None
        if self.hasher.check_needs_rehash(stored):
            self.set_password(row.id, password)
        return _account(row)

    def verify(self, account_id: int, password: str) -> bool:
        """Whether ``password`` is the account's (one argon2 verification, also when it has none)."""
        with self.storage.engine.connect() as conn:
            stored = conn.execute(select(accounts.c.password_hash)
                                  .where(accounts.c.id == account_id)).scalar()
        try:
            self.hasher.verify(stored or self._dummy, password)
        except (VerificationError, InvalidHashError):
            return False
        return bool(stored)

    def passkey_count(self, account_id: int) -> int:
        with self.storage.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(passkeys)
                                    .where(passkeys.c.account_id == account_id)).scalar() or 0)

    def people(self) -> list[tuple[Account, float, int]]:
        """Every person's account (deleted ones too) with when it was made and how many sessions
        it has, oldest first (for ``huntgather admin list``)."""
        live = (select(sessions.c.account_id, func.count().label("n"))
                .group_by(sessions.c.account_id).subquery())
        with self.storage.engine.connect() as conn:
            rows = conn.execute(select(accounts, func.coalesce(live.c.n, 0).label("sessions"))
                                .outerjoin(live, live.c.account_id == accounts.c.id)
                                .where(accounts.c.kind == str(AccountKind.PERSON))
                                .order_by(accounts.c.id)).all()
        return [(_account(r), float(r.created), int(r.sessions)) for r in rows]

    def set_disabled(self, account_id: int, disabled: bool) -> None:
        """Disable an account (it cannot sign in, and its sessions end) or enable it again."""
        with self.storage.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(disabled=disabled))
            if disabled:
                conn.execute(delete(sessions).where(sessions.c.account_id == account_id))

    def delete(self, account_id: int) -> list[str]:
        """Delete an account's personal data, keeping its place in the games it played.

        Its password hash, passkeys, sessions and challenges go, and so do its email address,
        notification settings, mailed links, waiting turns and push subscriptions; its name becomes
        :data:`DELETED_NAME` (and no longer holds the name: ``name_key`` is NULL), and so does
        the name of each of its seats, in every game.  The seats keep their ``account_id`` (a
        number that now names nobody), so that ratings, which are a function of the games, come
        out the same.  A game in play goes on: its seat is played by whoever holds its secret
        link.  Returns the ids of the games in play that had a seat of the account (the other
        server processes are told, on PostgreSQL; the caller updates its own rooms).
        """
        with self.storage.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(
                name=DELETED_NAME, name_key=None, password_hash=None, deleted=True))
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            conn.execute(delete(passkeys).where(passkeys.c.account_id == account_id))
            conn.execute(delete(challenges).where(challenges.c.account_id == account_id))
            NotifyStore.forget(conn, account_id)   # the address, its tokens, the turns waiting, pushes
            conn.execute(update(seats).where(seats.c.account_id == account_id).values(name=DELETED_NAME))
            playing = sorted(conn.execute(
                select(seats.c.game_id).distinct()
                .join(games, games.c.id == seats.c.game_id)
                .where(seats.c.account_id == account_id, games.c.status == "playing")).scalars())
            for game_id in playing:   # the other processes read these games' seats again
                self.storage._notify(conn, encode_notice({"type": NoticeType.SEAT, "game": game_id}))
        return playing

    def set_password(self, account_id: int, password: str) -> None:
        hashed = self.hasher.hash(check_password_text(password))
        with self.storage.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(password_hash=hashed))

    # ------------------------------------------------------------------ sessions

    def new_session(self, account_id: int) -> str:
        """A new session id for the account (the caller sets it as the cookie)."""
        with self.storage.engine.begin() as conn:
            return self._new_session(conn, account_id)

    @staticmethod
    def _new_session(conn: Connection, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        now = time.time()
        conn.execute(insert(sessions).values(id_hash=session_hash(token), account_id=account_id,
                                             created=now, last_seen=now, expires=now + SESSION_IDLE))
        return token

    def session(self, token: str | None, *, rotate: bool = False) -> Session | None:
        """The session of ``token`` if it is live and its account may play, else None.

        Using it moves its expiry on; with ``rotate``, a session older than
        :data:`SESSION_ROTATE` is replaced by a new id (:attr:`Session.rotated`).
        """
        if not token or len(token) > 100:
            return None
        now = time.time()
        key = session_hash(token)
        with self.storage.engine.begin() as conn:
            row = conn.execute(select(sessions, accounts)
                               .join(accounts, accounts.c.id == sessions.c.account_id)
                               .where(sessions.c.id_hash == key)).first()
            if row is None:
                return None
            if row.expires <= now or row.disabled or row.deleted:
                conn.execute(delete(sessions).where(sessions.c.id_hash == key))
                return None
            account = Account(row.account_id, AccountKind(row.kind), row.name, False, False,
                              row.password_hash is not None, row.language)
            if rotate and now - row.created >= SESSION_ROTATE:
                conn.execute(delete(sessions).where(sessions.c.id_hash == key))
                return Session(account, self._new_session(conn, row.account_id))
            if now - row.last_seen > 60:   # one write a minute at most per session
                conn.execute(update(sessions).where(sessions.c.id_hash == key)
                             .values(last_seen=now, expires=now + SESSION_IDLE))
        return Session(account)

    def end_session(self, token: str) -> None:
        with self.storage.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.id_hash == session_hash(token)))

    def end_sessions(self, account_id: int) -> int:
        """Sign the account out everywhere; returns how many sessions ended."""
        with self.storage.engine.begin() as conn:
            return int(conn.execute(delete(sessions).where(sessions.c.account_id == account_id)).rowcount)
