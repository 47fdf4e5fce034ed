"""Passkeys (WebAuthn): the server's routes against an authenticator written here (a P-256 key,
``none`` attestation, as the WebAuthn spec lays the bytes out), and one run in Debian's chromium
with Chrome's virtual authenticator through ``web/js/passkeys.js``.

The authenticator here is independent of ``py_webauthn`` (it builds the authenticator data, the
CBOR and the signatures itself), so that the server's verification is tested against the
spec's layout, not against the library's own idea of it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import shutil
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cbor2
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import select, update
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from huntgather.server import passkeys as passkeys_module
from huntgather.server.account_tables import accounts, challenges, passkeys
from huntgather.server.app import create_app
from huntgather.server.auth import COOKIE
from huntgather.server.storage import Storage

ORIGIN = "http://localhost:8123"


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Authenticator:
    """A passkey authenticator: one P-256 key per credential, resident, with a sign count."""

    def __init__(self, origin: str = ORIGIN, rp_id: str = "localhost") -> None:
        self.origin, self.rp_id = origin, rp_id
        #: credential id -> (private key, user handle)
        self.keys: dict[bytes, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        self.count = 0

    def _auth_data(self, flags: int, tail: bytes = b"") -> bytes:
        rp_hash = hashlib.sha256(self.rp_id.encode()).digest()
        return rp_hash + bytes([flags]) + struct.pack(">I", self.count) + tail

    def _client_data(self, kind: str, challenge: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": self.origin,
                           "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any], cid: bytes | None = None,
               key: ec.EllipticCurvePrivateKey | None = None) -> dict[str, Any]:
        """navigator.credentials.create: a new credential for ``options`` (JSON, base64url), or
        the one of ``cid`` and ``key`` if given."""
        key = key or ec.generate_private_key(ec.SECP256R1())
        cid = cid or secrets.token_bytes(20)
        self.keys[cid] = (key, unb64u(options["user"]["id"]))
        numbers = key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1,   # EC2, ES256, P-256
                            -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        self.count += 1
        attested = bytes(16) + struct.pack(">H", len(cid)) + cid + cose
        auth_data = self._auth_data(0x01 | 0x04 | 0x40, attested)   # user present, verified, attested data
        client_data = self._client_data("webauthn.create", options["challenge"])
        return {"id": b64u(cid), "rawId": b64u(cid), "type": "public-key", "clientExtensionResults": {},
                "authenticatorAttachment": "platform",
                "response": {"clientDataJSON": b64u(client_data),
                             "attestationObject": b64u(cbor2.dumps({"fmt": "none", "attStmt": {},
                                                                    "authData": auth_data})),
                             "transports": ["internal"]}}

    def get(self, options: dict[str, Any], cid: bytes | None = None) -> dict[str, Any]:
        """navigator.credentials.get: an assertion by ``cid`` (the first credential if None)."""
        cid = cid if cid is not None else next(iter(self.keys))
        key, handle = self.keys[cid]
        self.count += 1
        auth_data = self._auth_data(0x01 | 0x04)
        client_data = self._client_data("webauthn.get", options["challenge"])
        signature = key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64u(cid), "rawId": b64u(cid), "type": "public-key", "clientExtensionResults": {},
                "authenticatorAttachment": "platform",
                "response": {"clientDataJSON": b64u(client_data), "authenticatorData": b64u(auth_data),
                             "signature": b64u(signature), "userHandle": b64u(handle)}}


@pytest.fixture
def app() -> Any:
    return create_app("sqlite://", bot_delay=0.0, worker_processes=False, bot_workers=1)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, base_url="http://localhost:8123") as c:
        yield c


def storage_of(client: TestClient) -> Storage:
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    return storage


def other(client: TestClient) -> TestClient:
    """A second browser (no cookies) on the same server."""
    return TestClient(client.app, base_url="http://localhost:8123")


def sign_up(client: TestClient, auth: Authenticator, name: str) -> dict[str, Any]:
    r = client.post("/api/passkeys/signup/options", json={"name": name})
    assert r.status_code == 200, r.text
    start = r.json()
    r = client.post("/api/passkeys/signup", json={"name": name, "challenge_id": start["challenge_id"],
                                                  "credential": auth.create(start["options"])})
    assert r.status_code == 201, r.text
    account: dict[str, Any] = r.json()["account"]
    return account


def sign_in(client: TestClient, auth: Authenticator, cid: bytes | None = None) -> Any:
    start = client.post("/api/passkeys/login/options", json={}).json()
    return client.post("/api/passkeys/login", json={"challenge_id": start["challenge_id"],
                                                    "credential": auth.get(start["options"], cid)})


def stored_count(client: TestClient, cid: bytes) -> int:
    with storage_of(client).engine.connect() as conn:
        count = conn.execute(select(passkeys.c.sign_count).where(passkeys.c.credential_id == b64u(cid)))
        return int(count.scalar_one())


def test_sign_up_then_sign_in_with_the_passkey_alone(client: TestClient) -> None:
    auth = Authenticator()
    r = client.post("/api/passkeys/signup/options", json={"name": "  Ann  Lee "})
    assert r.status_code == 200
    start = r.json()
    opts = start["options"]
    assert opts["rp"]["id"] == "localhost"
    assert opts["user"]["name"] == "Ann Lee"
    assert len(unb64u(opts["challenge"])) == 32
    assert opts["authenticatorSelection"]["residentKey"] == "required"
    assert opts["authenticatorSelection"]["userVerification"] == "preferred"
    assert {p["alg"] for p in opts["pubKeyCredParams"]} >= {-7, -257}   # ES256 and RS256
    # only a hash of the challenge's id is stored
    with storage_of(client).engine.connect() as conn:
        ids = [row.id_hash for row in conn.execute(select(challenges))]
    assert ids == [hashlib.sha256(start["challenge_id"].encode()).hexdigest()]

    credential = auth.create(opts)
    r = client.post("/api/passkeys/signup", json={"name": "Ann Lee", "challenge_id": start["challenge_id"],
                                                  "credential": credential})
    assert r.status_code == 201, r.text
    account = r.json()["account"]
    assert account["name"] == "Ann Lee" and account["has_password"] is False and account["passkeys"] == 1
    assert client.cookies.get(COOKIE)
    listed = client.get("/api/passkeys").json()["passkeys"]
    assert [(p["id"], p["transports"]) for p in listed] == [(credential["id"], ["internal"])]

    browser = other(client)   # signed out: no cookie
    assert browser.get("/api/passkeys").json()["code"] == "signed_out"
    start = browser.post("/api/passkeys/login/options", json={}).json()
    assert start["options"]["allowCredentials"] == [] and start["options"]["rpId"] == "localhost"
    r = browser.post("/api/passkeys/login", json={"challenge_id": start["challenge_id"],
                                                  "credential": auth.get(start["options"])})
    assert r.status_code == 200, r.text
    assert r.json()["account"] == {"id": account["id"], "name": "Ann Lee", "has_password": False,
                                   "passkeys": 1, "language": "en"}
    assert browser.cookies.get(COOKIE) and browser.cookies.get(COOKIE) != client.cookies.get(COOKIE)
    assert [p["id"] for p in browser.get("/api/passkeys").json()["passkeys"]] == [credential["id"]]
    # the sign count moved on to the authenticator's (1 at creation, 2 at this use)
    assert stored_count(client, next(iter(auth.keys))) == 2


def test_a_challenge_answers_once_only_its_purpose_and_only_for_5_minutes(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    auth = Authenticator()
    sign_up(client, auth, "Ann")
    start = client.post("/api/passkeys/login/options", json={}).json()
    credential = auth.get(start["options"])
    body = {"challenge_id": start["challenge_id"], "credential": credential}
    assert client.post("/api/passkeys/login", json=body).status_code == 200
    replayed = client.post("/api/passkeys/login", json=body)   # the very same answer again
    assert (replayed.status_code, replayed.json()["code"]) == (400, "bad_challenge")

    # a sign-up challenge does not sign in, nor one for another name sign up
    signup = client.post("/api/passkeys/signup/options", json={"name": "Bob"}).json()
    r = client.post("/api/passkeys/login", json={"challenge_id": signup["challenge_id"],
                                                 "credential": auth.get(signup["options"])})
    assert r.json()["code"] == "bad_challenge"
    signup = client.post("/api/passkeys/signup/options", json={"name": "Bob"}).json()
    r = client.post("/api/passkeys/signup", json={"name": "Eve", "challenge_id": signup["challenge_id"],
                                                  "credential": Authenticator().create(signup["options"])})
    assert r.json()["code"] == "bad_challenge"
    r = client.post("/api/passkeys/signup", json={"name": "Bob", "challenge_id": "made-up",
                                                  "credential": Authenticator().create(signup["options"])})
    assert r.json()["code"] == "bad_challenge"

    # one answered after 5 minutes is refused
    start = client.post("/api/passkeys/login/options", json={}).json()
    later = time.time() + 301
    monkeypatch.setattr(passkeys_module.time, "time", lambda: later)
    r = client.post("/api/passkeys/login", json={"challenge_id": start["challenge_id"],
                                                 "credential": auth.get(start["options"])})
    assert (r.status_code, r.json()["code"]) == (400, "bad_challenge")


def test_a_name_is_checked_free_when_asked_and_again_when_signing_up(client: TestClient) -> None:
    sign_up(client, Authenticator(), "Ann")
    r = client.post("/api/passkeys/signup/options", json={"name": "ANN"})   # the same name, folded
    assert (r.status_code, r.json()["code"]) == (409, "name_taken")
    r = client.post("/api/passkeys/signup/options", json={"name": "A"})
    assert (r.status_code, r.json()["code"]) == (400, "bad_name")
    first = client.post("/api/passkeys/signup/options", json={"name": "Bob"}).json()
    second = client.post("/api/passkeys/signup/options", json={"name": "Bob"}).json()
    sign = {"name": "Bob", "challenge_id": first["challenge_id"],
            "credential": Authenticator().create(first["options"])}
    assert other(client).post("/api/passkeys/signup", json=sign).status_code == 201
    late = {"name": "Bob", "challenge_id": second["challenge_id"],
            "credential": Authenticator().create(second["options"])}
    r = other(client).post("/api/passkeys/signup", json=late)
    assert (r.status_code, r.json()["code"]) == (409, "name_taken")
    # the name is written as it was asked for (the answer may differ only in what folding drops)
    start = client.post("/api/passkeys/signup/options", json={"name": "Cy Young"}).json()
    answer = {"name": "CY  YOUNG", "challenge_id": start["challenge_id"],
              "credential": Authenticator().create(start["options"])}
    r = other(client).post("/api/passkeys/signup", json=answer)
    assert r.json()["account"]["name"] == "Cy Young"


def test_an_unknown_passkey_another_site_a_forged_signature_and_a_count_going_back_are_refused(
        client: TestClient) -> None:
    auth = Authenticator()
    sign_up(client, auth, "Ann")
    stranger = Authenticator()   # a passkey never registered here, even with Ann's user handle
    stranger.keys[b"\x07" * 16] = (ec.generate_private_key(ec.SECP256R1()), next(iter(auth.keys.values()))[1])
    r = sign_in(client, stranger)
    assert (r.status_code, r.json()["code"]) == (401, "unknown_passkey")

    cid, (key, handle) = next(iter(auth.keys.items()))
    for site in (Authenticator(origin="http://evil.example:8123"), Authenticator(rp_id="evil.example")):
        site.keys[cid], site.count = (key, handle), auth.count + 10
        r = sign_in(client, site)
        assert (r.status_code, r.json()["code"]) == (400, "passkey_refused"), site.origin
    forger = Authenticator()
    forger.keys[cid], forger.count = (ec.generate_private_key(ec.SECP256R1()), handle), auth.count + 10
    assert sign_in(client, forger).json()["code"] == "passkey_refused"
    assert sign_in(client, auth).status_code == 200   # count 2
    before = stored_count(client, cid)
    auth.count = 0   # a copy of the key, used elsewhere: its count starts again
    r = sign_in(client, auth)
    assert (r.status_code, r.json()["code"]) == (400, "passkey_refused")
    assert "sign count" in r.json()["message"]
    assert stored_count(client, cid) == before
    auth.count = before - 1   # the same count again (get() counts one use) is refused too
    assert sign_in(client, auth).json()["code"] == "passkey_refused"
    assert sign_in(client, auth).status_code == 200


def test_a_page_opened_at_an_ip_address_is_told_to_use_a_host_name(app: Any) -> None:
    with TestClient(app, base_url="http://127.0.0.1:8123") as c:
        r = c.post("/api/passkeys/login/options", json={})
        assert (r.status_code, r.json()["code"]) == (400, "passkey_needs_host_name")
        assert "localhost" in r.json()["message"]
        r = c.post("/api/passkeys/signup/options", json={"name": "Ann"})
        assert r.json()["code"] == "passkey_needs_host_name"


def test_passkeys_are_added_listed_and_removed_but_never_the_last_way_in(client: TestClient) -> None:
    for path in ("/api/passkeys/options", "/api/passkeys"):
        r = other(client).post(path, json={})
        assert (r.status_code, r.json()["code"]) == (401, "signed_out"), path
    assert other(client).delete("/api/passkeys/AAAA").json()["code"] == "signed_out"

    phone, laptop = Authenticator(), Authenticator()
    account = sign_up(client, phone, "Ann")
    first = b64u(next(iter(phone.keys)))
    start = client.post("/api/passkeys/options").json()
    assert [c["id"] for c in start["options"]["excludeCredentials"]] == [first]
    assert start["options"]["user"]["id"] == b64u(next(iter(phone.keys.values()))[1])   # the same user
    r = client.post("/api/passkeys", json={"challenge_id": start["challenge_id"],
                                           "credential": laptop.create(start["options"])})
    assert r.status_code == 201, r.text
    second = r.json()["passkey"]["id"]
    assert r.json()["account"]["passkeys"] == 2
    assert sorted(p["id"] for p in client.get("/api/passkeys").json()["passkeys"]) == sorted([first, second])
    assert sign_in(other(client), laptop).json()["account"]["id"] == account["id"]

    # a new passkey's answer that names another id than the one its authenticator attested
    start = client.post("/api/passkeys/options").json()
    again = laptop.create(start["options"])
    again["id"] = again["rawId"] = second
    r = client.post("/api/passkeys", json={"challenge_id": start["challenge_id"], "credential": again})
    assert (r.status_code, r.json()["code"]) == (400, "passkey_refused")

    bob = other(client)
    sign_up(bob, Authenticator(), "Bob")
    r = bob.delete(f"/api/passkeys/{first}")   # not Bob's
    assert (r.status_code, r.json()["code"]) == (404, "unknown_passkey")
    assert client.delete(f"/api/passkeys/{first}").status_code == 204
    r = client.delete(f"/api/passkeys/{second}")
    assert (r.status_code, r.json()["code"]) == (409, "last_sign_in")
    assert [p["id"] for p in client.get("/api/passkeys").json()["passkeys"]] == [second]
    assert sign_in(other(client), phone).json()["code"] == "unknown_passkey"   # removed

    client.app.state.accounts.set_password(account["id"], "correct horse battery")  # type: ignore[attr-defined]
    assert client.delete(f"/api/passkeys/{second}").status_code == 204   # the password remains
    assert client.get("/api/passkeys").json()["passkeys"] == []


def test_a_passkey_registered_twice_is_refused(client: TestClient) -> None:
    auth = Authenticator()
    sign_up(client, auth, "Ann")
    start = client.post("/api/passkeys/options").json()
    # an authenticator that answers with the existing credential's id and key (as a copy would)
    cid, (key, _) = next(iter(auth.keys.items()))
    credential = Authenticator().create(start["options"], cid, key)
    r = client.post("/api/passkeys", json={"challenge_id": start["challenge_id"], "credential": credential})
    assert (r.status_code, r.json()["code"]) == (409, "passkey_exists")


def test_disabled_and_deleted_accounts_cannot_sign_in(client: TestClient) -> None:
    ann, bob = Authenticator(), Authenticator()
    sign_up(other(client), ann, "Ann")
    sign_up(other(client), bob, "Bob")
    with storage_of(client).engine.begin() as conn:
        conn.execute(update(accounts).where(accounts.c.name == "Ann").values(disabled=True))
        conn.execute(update(accounts).where(accounts.c.name == "Bob").values(deleted=True, name_key=None))
    r = sign_in(client, ann)
    assert (r.status_code, r.json()["code"]) == (403, "account_disabled")
    r = sign_in(client, bob)
    assert (r.status_code, r.json()["code"]) == (401, "unknown_passkey")
    assert COOKIE not in client.cookies


def test_bad_bodies_say_what_is_wrong(client: TestClient) -> None:
    start = client.post("/api/passkeys/login/options", json={}).json()
    for credential in (None, "text", {"id": "not base64url!", "response": {}}, {"id": "AAAA"}):
        r = client.post("/api/passkeys/login", json={"challenge_id": start["challenge_id"],
                                                     "credential": credential})
        assert (r.status_code, r.json()["code"]) == (400, "bad_request"), credential
    start = client.post("/api/passkeys/login/options", json={}).json()
    r = client.post("/api/passkeys/login", json={"challenge_id": start["challenge_id"],
                                                 "credential": {"id": "AAAA", "response": {"x": 1}}})
    assert r.json()["code"] == "unknown_passkey"
    r = client.post("/api/passkeys/login/options", content=b"{}")
    assert (r.status_code, r.json()["code"]) == (415, "bad_content_type")
    r = client.post("/api/passkeys/signup/options", json=["Ann"])
    assert r.json()["code"] == "bad_request"


def test_a_database_that_fails_is_answered_storage_failed_without_its_words(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> None:
        raise OperationalError("SELECT secret FROM hg_passkeys", {}, Exception("disk I/O error"))

    monkeypatch.setattr(passkeys_module.Passkeys, "login_options", broken)
    r = client.post("/api/passkeys/login/options", json={})
    assert (r.status_code, r.json()["code"]) == (503, "storage_failed")
    assert "SELECT" not in r.text and "disk" not in r.text


def test_one_address_may_ask_for_30_options_a_minute(client: TestClient) -> None:
    answers = [client.post("/api/passkeys/login/options", json={}).status_code for _ in range(30)]
    assert answers == [200] * 30
    r = client.post("/api/passkeys/signup/options", json={"name": "Ann"})
    assert (r.status_code, r.json()["code"]) == (429, "too_many_attempts")


# --------------------------------------------------------------------------- in chromium

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: one step of the page (never a measure of speed)
TIMEOUT = 20_000

#: each of passkeys.js's calls, run in the page: its answer, or the error's code and message
CALL = """async ([name, arg]) => {
  const m = await import("/static/js/passkeys.js");
  try { return await m[name](arg); } catch (e) { return { code: e.code, message: e.message }; }
}"""
#: the browser's own JSON parsers and toJSON taken away, so that passkeys.js's converters serve
PLAIN = """() => {
  delete PublicKeyCredential.parseCreationOptionsFromJSON;
  delete PublicKeyCredential.parseRequestOptionsFromJSON;
  delete PublicKeyCredential.prototype.toJSON;
  return typeof PublicKeyCredential.prototype.toJSON;
}"""
FETCH = """async ([method, path, body]) => {
  const r = await fetch(path, { method, headers: { "Content-Type": "application/json" },
                               body: body === null ? undefined : body });
  const text = await r.text();
  let data = null;
  try { data = JSON.parse(text); } catch (e) { data = null; }
  return { status: r.status, data };
}"""
AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True, "automaticPresenceSimulation": True}


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_in_chromium_a_passkey_signs_up_signs_in_and_a_stranger_is_refused(tmp_path: Path, browser: Any,
                                                                         servers: list[Any]) -> None:
    pytest.importorskip("uvicorn")
    from play_server import Server

    srv = Server(tmp_path / "games.sqlite").start()
    servers.append(srv)
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"http://localhost:{srv.port}/")   # a host name: WebAuthn takes no IP address
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    first = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})["authenticatorId"]
    assert page.evaluate("async () => (await import('/static/js/passkeys.js')).passkeysAvailable()") is True

    made = page.evaluate(CALL, ["passkeySignUp", "Ann"])
    assert made.get("account", made)["name"] == "Ann", made
    assert made["account"]["has_password"] is False and made["account"]["passkeys"] == 1
    held = cdp.send("WebAuthn.getCredentials", {"authenticatorId": first})["credentials"]
    assert [(c["rpId"], c["isResidentCredential"]) for c in held] == [("localhost", True)]
    listed = page.evaluate(FETCH, ["GET", "/api/passkeys", None])
    assert [p["id"] for p in listed["data"]["passkeys"]] == [b64u(base64.b64decode(held[0]["credentialId"]))]

    # sign out (DELETE /api/session is the accounts' route; without it, the cookie is dropped)
    if page.evaluate(FETCH, ["DELETE", "/api/session", None])["status"] != 204:
        context.clear_cookies()
    assert page.evaluate(FETCH, ["GET", "/api/passkeys", None])["data"]["code"] == "signed_out"

    # sign in, through passkeys.js's own converters this time
    assert page.evaluate(PLAIN) == "undefined"
    posted: list[str] = []
    page.on("request", lambda req: posted.append(req.post_data or "")
            if req.url.endswith("/api/passkeys/login") and req.method == "POST" else None)
    signed = page.evaluate(CALL, ["passkeySignIn", None])
    assert signed.get("account", signed)["id"] == made["account"]["id"], signed
    me = page.evaluate(FETCH, ["GET", "/api/me", None])
    if me["status"] != 404:   # GET /api/me is the accounts' route
        assert me["status"] == 200 and me["data"]["account"]["name"] == "Ann", me
    assert page.evaluate(FETCH, ["GET", "/api/passkeys", None])["status"] == 200
    assert len(posted) == 1
    replayed = page.evaluate(FETCH, ["POST", "/api/passkeys/login", posted[0]])
    assert (replayed["status"], replayed["data"]["code"]) == (400, "bad_challenge")

    # the same authenticator cannot add a second passkey of Ann's (the options exclude its own)
    again = page.evaluate(CALL, ["passkeyAdd", None])
    assert again.get("code") == "passkey_exists", again
    assert len(cdp.send("WebAuthn.getCredentials", {"authenticatorId": first})["credentials"]) == 1

    # another authenticator, holding a passkey for this site (even with Ann's user handle) that
    # was never registered here
    cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": first})
    second = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})["authenticatorId"]
    key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    handle = held[0]["userHandle"]
    assert handle
    cdp.send("WebAuthn.addCredential", {"authenticatorId": second, "credential": {
        "credentialId": base64.b64encode(secrets.token_bytes(16)).decode(), "isResidentCredential": True,
        "rpId": "localhost", "privateKey": base64.b64encode(key).decode(), "userHandle": handle,
        "signCount": 0}})
    stranger = page.evaluate(CALL, ["passkeySignIn", None])
    assert stranger.get("code") == "unknown_passkey", stranger

    # an authenticator that holds nothing for this site: the browser gives no passkey
    cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": second})
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    nothing = page.evaluate(CALL, ["passkeySignIn", None])
    assert nothing.get("code") == "passkey_cancelled", nothing
    page.goto(f"http://127.0.0.1:{srv.port}/")   # an IP address: the server says to use a name
    numeric = page.evaluate(CALL, ["passkeySignIn", None])
    assert numeric.get("code") == "passkey_needs_host_name" and "localhost" in numeric["message"], numeric
    context.close()
    assert not errors, errors
