"""Passkeys (WebAuthn): sign up, sign in, add, list and remove, with ``py_webauthn``.

A passkey is a key pair an authenticator (the phone, the computer, a security key) keeps for
this site; the server keeps only its public key, in ``hg_passkeys`` with the credential's id
(base64url) and its *sign count*, which each use moves on (a count that goes backwards, other
than an authenticator that always says 0, is refused: the passkey may have been copied).

Every ceremony starts with options that carry a *challenge*: 32 random bytes, kept in
``hg_challenges`` under the SHA-256 hash of a random ``challenge_id`` (the id itself is never
stored), for :data:`CHALLENGE_TTL` seconds, for one purpose (:class:`Purpose`) and bound to the
name being signed up or the account adding a passkey.  Taking a challenge deletes it: it answers
once, whether the passkey's answer is then verified or not.

The *relying party* is the site the page was opened under: its id is the request's host name
(browsers refuse an IP address as one, so the server says so at once:
``passkey_needs_host_name``), the origin the page's (``scheme://host[:port]``).  A passkey made
under ``localhost`` therefore works only there, one made under ``play.example.org`` only there.

Signing in uses *discoverable* credentials (the authenticator offers this site's passkeys; no
name is typed): the options name no credential, and the answer's credential id finds the
passkey, whose *user handle* must be its account's.  The user handle is derived from the
account's folded name (:func:`user_handle`), so that signing up can give it before the account
exists; it says nothing the name does not.  User verification (a PIN, a fingerprint) is
preferred, not required.

>>> relying_party("http", "localhost", 8000)
RelyingParty(id='localhost', origin='http://localhost:8000')
>>> relying_party("https", "Play.Example.org", 443)
RelyingParty(id='play.example.org', origin='https://play.example.org')
>>> for host in ("127.0.0.1", "[::1]"):
...     try:
...         relying_party("http", host, 8000)
...     except RequestError as exc:
...         print(exc.code)
passkey_needs_host_name
passkey_needs_host_name
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import re
import secrets
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from huntgather.server.account_tables import AccountKind, accounts, challenges, passkeys
from huntgather.server.accounts import Account, Accounts, account_name, name_key, session_hash
from huntgather.server.messages import ErrorCode
from huntgather.server.seats import RequestError

#: the seconds a challenge may be answered in
CHALLENGE_TTL = 300.0
#: what the browser shows as the site a passkey is for
RP_NAME = "Hunters and Gatherers"
#: the milliseconds the browser is told to wait for the person (a hint to it)
TIMEOUT_MS = 120_000
#: the longest credential id taken (base64url of the 1,023 bytes WebAuthn allows at most)
MAX_CREDENTIAL_ID = 400
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+")


class Purpose(StrEnum):
    """What a challenge was given for; it answers only that."""

    SIGNUP = "signup"
    LOGIN = "login"
    ADD = "add"


@dataclass(frozen=True)
class RelyingParty:
    """The site passkeys are made for and used on: its id (a host name) and its origin."""

    id: str
    origin: str


def relying_party(scheme: str, host: str | None, port: int | None) -> RelyingParty:
    """The relying party of a page opened at ``scheme://host:port``; raises
    ``passkey_needs_host_name`` for an IP address (or no host at all)."""
    host = (host or "").strip("[]").lower().rstrip(".")
    try:
        ipaddress.ip_address(host)
        numeric = True
    except ValueError:
        numeric = False
    if numeric or not host:
        raise RequestError(ErrorCode.PASSKEY_NEEDS_HOST_NAME,
                           "passkeys need a host name, not an IP address: open this page as "
                           "http://localhost:PORT/ (or under the server's domain name) instead")
    default = {"http": 80, "https": 443}.get(scheme)
    origin = f"{scheme}://{host}" if port is None or port == default else f"{scheme}://{host}:{port}"
    return RelyingParty(host, origin)


def user_handle(name: str) -> bytes:
    """The WebAuthn user handle of the account named ``name``: 32 bytes derived from the folded
    name, the same for every passkey of the account (and known before signing up ends)."""
    return hashlib.sha256(b"huntgather passkey user\x00" + name_key(name).encode()).digest()


@dataclass(frozen=True)
class Options:
    """A ceremony's start: the options for ``navigator.credentials`` (JSON, base64url) and the
    id that names its challenge when the answer comes back."""

    options: dict[str, Any]
    challenge_id: str

    def as_json(self) -> dict[str, Any]:
        return {"options": self.options, "challenge_id": self.challenge_id}


@dataclass(frozen=True)
class Passkey:
    """A passkey as listed to its account."""

    id: str
    created: float
    transports: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "created": self.created, "transports": list(self.transports)}


def _credential(raw: object) -> dict[str, Any]:
    """The credential a page posted (its ``toJSON()``), checked for the id that finds it."""
    if not isinstance(raw, dict):
        raise RequestError(ErrorCode.BAD_REQUEST, "`credential` must be the passkey's answer as JSON")
    cid = raw.get("id")
    if not isinstance(cid, str) or not 0 < len(cid) <= MAX_CREDENTIAL_ID or not _BASE64URL.fullmatch(cid):
        raise RequestError(ErrorCode.BAD_REQUEST, "`credential.id` must be the passkey's id in base64url")
    if not isinstance(raw.get("response"), dict):
        raise RequestError(ErrorCode.BAD_REQUEST, "`credential.response` is missing")
    return raw


def _transports(credential: dict[str, Any]) -> tuple[str, ...]:
    """The transports a registration's answer names, only those WebAuthn knows."""
    named = credential["response"].get("transports")
    known = {t.value for t in AuthenticatorTransport}
    return tuple(t for t in named if isinstance(t, str) and t in known)[:8] if isinstance(named, list) else ()


def _refused(exc: Exception) -> RequestError:
    return RequestError(ErrorCode.PASSKEY_REFUSED,
                        f"the passkey's answer could not be verified ({exc}); nothing changed")


class Passkeys:
    """Passkeys and their challenges, stored beside the accounts (the same database)."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.engine = accounts.storage.engine

    # ------------------------------------------------------------------ challenges

    def _challenge(self, purpose: Purpose, *, name: str | None = None,
                   account_id: int | None = None) -> tuple[bytes, str]:
        """A new challenge (bytes) and its id, stored (hashed) for :data:`CHALLENGE_TTL`."""
        challenge, challenge_id = secrets.token_bytes(32), secrets.token_urlsafe(32)
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(delete(challenges).where(challenges.c.expires <= now))
            conn.execute(insert(challenges).values(
                id_hash=session_hash(challenge_id), purpose=str(purpose), account_id=account_id,
                name=name, challenge=bytes_to_base64url(challenge), expires=now + CHALLENGE_TTL))
        return challenge, challenge_id

    def _take(self, challenge_id: object, purpose: Purpose, *, name: str | None = None,
              account_id: int | None = None) -> tuple[bytes, str | None]:
        """The challenge of ``challenge_id``, deleted (it answers once), and the name it was
        given for; raises ``bad_challenge`` when it is unknown, used, expired, or for another
        purpose, name or account."""
        bad = RequestError(ErrorCode.BAD_CHALLENGE, "this passkey request is unknown, used already or "
                                                    "expired (after 5 minutes); start again")
        if not isinstance(challenge_id, str) or not 0 < len(challenge_id) <= 100:
            raise bad
        key = session_hash(challenge_id)
        with self.engine.begin() as conn:
            row = conn.execute(select(challenges).where(challenges.c.id_hash == key)).first()
            taken = conn.execute(delete(challenges).where(challenges.c.id_hash == key)).rowcount
            if row is None or taken != 1:
                raise bad
        if row.expires <= time.time() or row.purpose != purpose or row.account_id != account_id \
                or (name is not None and (row.name is None or name_key(row.name) != name_key(name))):
            raise bad
        return base64url_to_bytes(row.challenge), row.name

    # ------------------------------------------------------------------ registering

    def _creation_options(self, rp: RelyingParty, name: str, challenge: bytes,
                          exclude: list[PublicKeyCredentialDescriptor]) -> dict[str, Any]:
        options = generate_registration_options(
            rp_id=rp.id, rp_name=RP_NAME, user_name=name, user_id=user_handle(name), challenge=challenge,
            timeout=TIMEOUT_MS, exclude_credentials=exclude,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED))
        out: dict[str, Any] = json.loads(options_to_json(options))
        return out

    def _verify_new(self, rp: RelyingParty, challenge: bytes,
                    credential: dict[str, Any]) -> tuple[str, str, int, str]:
        """A registration's answer verified: the credential id, public key (base64url), sign
        count and transports; raises ``passkey_refused`` or ``passkey_exists``."""
        try:
            verified = verify_registration_response(credential=credential, expected_challenge=challenge,
                                                    expected_rp_id=rp.id, expected_origin=rp.origin)
        except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
            raise _refused(exc) from None
        cid = bytes_to_base64url(verified.credential_id)
        if cid != credential["id"]:
            raise RequestError(ErrorCode.PASSKEY_REFUSED, "the passkey's id is not the one its "
                                                          "authenticator made")
        with self.engine.connect() as conn:
            if conn.execute(select(passkeys.c.account_id).where(passkeys.c.credential_id == cid)).first():
                raise RequestError(ErrorCode.PASSKEY_EXISTS, "this passkey is registered already")
        return (cid, bytes_to_base64url(verified.credential_public_key), verified.sign_count,
                ",".join(_transports(credential)))

    def _store(self, conn: Connection, account_id: int, new: tuple[str, str, int, str]) -> None:
        cid, public_key, sign_count, transports = new
        conn.execute(insert(passkeys).values(credential_id=cid, account_id=account_id, public_key=public_key,
                                             sign_count=sign_count, transports=transports or None,
                                             created=time.time()))

    def signup_options(self, rp: RelyingParty, raw_name: object) -> Options:
        """Options to make the first passkey of a new account named ``raw_name``; raises
        ``bad_name``, or ``name_taken`` when the name (folded) is another's."""
        name = account_name(raw_name)
        if self.accounts.by_name(name) is not None:
            raise RequestError(ErrorCode.NAME_TAKEN, "that name is taken; choose another")
        challenge, challenge_id = self._challenge(Purpose.SIGNUP, name=name)
        return Options(self._creation_options(rp, name, challenge, []), challenge_id)

    def signup(self, rp: RelyingParty, raw_name: object, challenge_id: object, credential: object) -> Account:
        """The new account (no password) whose first passkey ``credential`` is; its name is
        written as it was when the options were asked for (``raw_name`` may differ only in
        what folding takes away)."""
        checked = _credential(credential)
        challenge, name = self._take(challenge_id, Purpose.SIGNUP, name=account_name(raw_name))
        assert name is not None
        new = self._verify_new(rp, challenge, checked)
        account = self.accounts.create(name, None)
        try:
            with self.engine.begin() as conn:
                self._store(conn, account.id, new)
        except IntegrityError:   # the same passkey registered at the same moment elsewhere
            with self.engine.begin() as conn:
                conn.execute(delete(accounts).where(accounts.c.id == account.id))
            raise RequestError(ErrorCode.PASSKEY_EXISTS, "this passkey is registered already") from None
        return account

    def add_options(self, rp: RelyingParty, account: Account) -> Options:
        """Options to add a passkey to ``account`` (its own passkeys excluded, so that an
        authenticator holding one says so)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(passkeys).where(passkeys.c.account_id == account.id)).all()
        exclude = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(r.credential_id)) for r in rows]
        challenge, challenge_id = self._challenge(Purpose.ADD, account_id=account.id)
        return Options(self._creation_options(rp, account.name, challenge, exclude), challenge_id)

    def add(self, rp: RelyingParty, account: Account, challenge_id: object, credential: object) -> Passkey:
        """``credential`` made one more passkey of ``account``."""
        checked = _credential(credential)
        challenge, _ = self._take(challenge_id, Purpose.ADD, account_id=account.id)
        new = self._verify_new(rp, challenge, checked)
        try:
            with self.engine.begin() as conn:
                self._store(conn, account.id, new)
        except IntegrityError:
            raise RequestError(ErrorCode.PASSKEY_EXISTS, "this passkey is registered already") from None
        return Passkey(new[0], time.time(), tuple(new[3].split(",")) if new[3] else ())

    # ------------------------------------------------------------------ signing in

    def login_options(self, rp: RelyingParty) -> Options:
        """Options to sign in with any passkey of this site (discoverable: none is named)."""
        challenge, challenge_id = self._challenge(Purpose.LOGIN)
        options = generate_authentication_options(rp_id=rp.id, challenge=challenge, timeout=TIMEOUT_MS,
                                                  allow_credentials=[],
                                                  user_verification=UserVerificationRequirement.PREFERRED)
        return Options(json.loads(options_to_json(options)), challenge_id)

    def login(self, rp: RelyingParty, challenge_id: object, raw: object) -> Account:
        """The account whose passkey answered; its sign count moves on.  Raises
        ``bad_challenge``, ``unknown_passkey`` (not registered, or its account deleted),
        ``account_disabled`` or ``passkey_refused``."""
        credential = _credential(raw)
        challenge, _ = self._take(challenge_id, Purpose.LOGIN)
        unknown = RequestError(ErrorCode.UNKNOWN_PASSKEY, "this passkey is not registered here (it may have "
                                                          "been removed); sign in another way")
        with self.engine.connect() as conn:
            row = conn.execute(select(passkeys, accounts)
                               .join(accounts, accounts.c.id == passkeys.c.account_id)
                               .where(passkeys.c.credential_id == credential["id"])).first()
        if row is None or row.deleted or row.kind != str(AccountKind.PERSON):
            raise unknown
        try:
            verified = verify_authentication_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=rp.id,
                expected_origin=rp.origin, credential_public_key=base64url_to_bytes(row.public_key),
                credential_current_sign_count=row.sign_count)
        except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
            raise _refused(exc) from None
        handle = credential["response"].get("userHandle")
        if not isinstance(handle, str) or not _BASE64URL.fullmatch(handle) \
                or base64url_to_bytes(handle) != user_handle(row.name):
            raise RequestError(ErrorCode.PASSKEY_REFUSED, "the passkey's user is not the account it was "
                                                          "registered for")
        if row.disabled:
            raise RequestError(ErrorCode.ACCOUNT_DISABLED,
                               "this account is disabled; ask the server's operator")
        with self.engine.begin() as conn:   # only from the count verified against: one use at a time
            moved = conn.execute(update(passkeys).where(passkeys.c.credential_id == row.credential_id,
                                                        passkeys.c.sign_count == row.sign_count)
                                 .values(sign_count=verified.new_sign_count)).rowcount
        if moved != 1:
            raise RequestError(ErrorCode.PASSKEY_REFUSED,
                               "this passkey was used twice at once; sign in again")
        return Account(row.account_id, AccountKind(row.kind), row.name, False, False,
                       row.password_hash is not None, row.language)

    # ------------------------------------------------------------------ the account's passkeys

    def listed(self, account_id: int) -> list[Passkey]:
        """The account's passkeys, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(passkeys).where(passkeys.c.account_id == account_id)
                                .order_by(passkeys.c.created)).all()
        return [Passkey(r.credential_id, r.created, tuple(r.transports.split(",")) if r.transports else ())
                for r in rows]

    def remove(self, account_id: int, credential_id: str) -> None:
        """Remove a passkey of the account; raises ``unknown_passkey``, or ``last_sign_in`` when
        the account has no password and no other passkey."""
        with self.engine.begin() as conn:
            row = conn.execute(select(passkeys.c.credential_id).where(
                passkeys.c.credential_id == credential_id, passkeys.c.account_id == account_id)).first()
            if row is None:
                raise RequestError(ErrorCode.UNKNOWN_PASSKEY, "this account has no such passkey")
            password = conn.execute(select(accounts.c.password_hash)
                                    .where(accounts.c.id == account_id)).scalar()
            others = conn.execute(select(func.count()).select_from(passkeys).where(
                passkeys.c.account_id == account_id, passkeys.c.credential_id != credential_id)).scalar_one()
            if password is None and not others:
                raise RequestError(ErrorCode.LAST_SIGN_IN,
                                   "this passkey is the account's only way to sign in; "
                                   "set a password or add another passkey first")
            conn.execute(delete(passkeys).where(passkeys.c.credential_id == credential_id))



