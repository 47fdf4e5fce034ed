"""Turn notifications by email and Web Push (server/notify.py, routes_notify.py).

The main test plays correspondence games between two accounts on real server processes (two
on one PostgreSQL when ``HUNTGATHER_TEST_POSTGRES`` is set, so that "exactly once" is checked
across processes; else one on a SQLite file), with a real SMTP server (``aiosmtpd``) and a
local push endpoint that decrypts what it receives with the subscription's private key.  The
other tests run the app in Starlette's test client: the confirmation flow, the mailed links,
and hostile input for every new endpoint.
"""

from __future__ import annotations

import asyncio
import base64
import email
import email.policy
import json
import os
import re
import secrets
import threading
import time
import warnings
from collections.abc import Iterator
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiosmtpd")
pytest.importorskip("pywebpush")
pytest.importorskip("httpx")
pytest.importorskip("websockets")

import httpx
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from play_server import PATIENCE, Page, Server, free_port

with warnings.catch_warnings():   # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from argon2 import PasswordHasher
from sqlalchemy import func, select
from starlette.applications import Starlette

from huntgather.client import create_game
from huntgather.server import create_app
from huntgather.server.account_tables import notify_settings, notify_tokens, push_subscriptions
from huntgather.server.accounts import Accounts
from huntgather.server.auth import COOKIE
from huntgather.server.notify import NotifySettings, SmtpSettings

POSTGRES = os.environ.get("HUNTGATHER_TEST_POSTGRES")
PASSWORD = "correct horse"


# --------------------------------------------------------------------------- a mail server


class Inbox:
    """aiosmtpd's handler: every mail received, parsed, with a condition to wait on."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.changed = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self.changed:
            self.mails.append(message)
            self.changed.notify_all()
        return "250 OK"

    def to(self, address: str, subject: str = "") -> list[EmailMessage]:
        return [m for m in self.mails if m["To"] == address and subject in str(m["Subject"])]

    def wait(self, address: str, subject: str, count: int = 1) -> list[EmailMessage]:
        """Block until ``address`` got ``count`` mails whose subject holds ``subject``."""
        with self.changed:
            if not self.changed.wait_for(lambda: len(self.to(address, subject)) >= count, PATIENCE):
                raise AssertionError(f"{address} got {len(self.to(address, subject))} mails "
                                     f"about {subject!r}, not {count}")
        return self.to(address, subject)


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    handler = Inbox()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield handler, port
    controller.stop()


def text_of(mail: EmailMessage) -> str:
    body = mail.get_body(("plain",))
    assert body is not None
    content: str = body.get_content()
    return content


def link(mail: EmailMessage, path: str) -> str:
    found = re.search(r"(https?://\S+" + re.escape(path) + r"\?token=[\w-]+)", text_of(mail))
    assert found, text_of(mail)
    return found.group(1)


# --------------------------------------------------------------------------- a push service


class PushService:
    """A local push endpoint: keeps what it receives (headers and encrypted body); answers 201,
    or ``status`` when set (410: the subscription is gone)."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.changed = threading.Condition()
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                with service.changed:
                    headers = {k.lower(): v for k, v in self.headers.items()}
                    service.received.append((self.path, headers, body))
                    service.changed.notify_all()
                self.send_response(service.status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait(self, count: int) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.received) >= count, PATIENCE), self.received


class Browser:
    """A browser's push subscription: its ECDH key pair and auth secret, as PushManager makes."""

    def __init__(self, service: PushService) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = secrets.token_bytes(16)
        self.endpoint = f"{service.url}/push/{secrets.token_hex(8)}"

    def subscription(self) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        b64 = lambda raw: base64.urlsafe_b64encode(raw).rstrip(b"=").decode()   # noqa: E731
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def read(self, body: bytes) -> dict[str, Any]:
        import http_ece

        data: dict[str, Any] = json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                                           version="aes128gcm"))
        return data


# --------------------------------------------------------------------------- the processes


@pytest.fixture
def push() -> Iterator[PushService]:
    service = PushService()
    yield service
    service.server.shutdown()


def _servers(smtp_port: int, push: PushService, tmp: Path) -> tuple[Server, Server, list[Server]]:
    public = free_port()   # the first process's: the processes behind one address share it

    def args(port: int) -> tuple[str, ...]:
        return ("--smtp", f"smtp://127.0.0.1:{smtp_port}", "--mail-from", "turns@example.org",
                "--public-url", f"http://127.0.0.1:{public}/", "--notify-delay", "1",
                "--push-service", push.url, "--log-level", "info")

    if POSTGRES:
        pa, pb = public, free_port()
        a = Server(POSTGRES, pa, args=args(pa)).start()
        try:
            b = Server(POSTGRES, pb, args=args(pb)).start()
        except Exception:
            a.stop()
            raise
        return a, b, [a, b]
    one = Server(tmp / "games.sqlite", public, args=args(public)).start()
    return one, one, [one]


async def _account(http: httpx.AsyncClient, name: str) -> None:
    r = await http.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text


async def _confirm(http: httpx.AsyncClient, inbox: Inbox, address: str) -> None:
    r = await http.put("/api/me/notifications", json={"email": address})
    assert r.status_code == 200 and r.json()["confirmation"] == "sent", r.text
    assert r.json()["settings"]["email_confirmed"] is False
    mail = await asyncio.to_thread(inbox.wait, address, "Confirm")
    url = link(mail[0], "/notifications/confirm")
    async with httpx.AsyncClient() as stranger:   # the link works without the session
        page = await stranger.get(url)
        assert page.status_code == 200 and "<form" in page.text and address in page.text
        again = await http.get("/api/me/notifications")
        assert again.json()["settings"]["email_confirmed"] is False   # opening it changed nothing
        done = await stranger.post(url)
        assert done.status_code == 200 and "confirmed" in done.text
    r = await http.put("/api/me/notifications", json={"email_on": True})
    assert r.json()["settings"] == {"email": address, "email_confirmed": True, "email_on": True,
                                    "push_on": False}


async def _pass_turn(page: Page) -> None:
    """Play whole turns of the seat to move until the turn passes to the other seat: the server
    draws at random, and a forest completed with a menhir gives its player a bonus turn."""
    seat = page.to_move
    await page.play()
    while page.to_move == seat:
        await page.play()


def _cookie(http: httpx.AsyncClient) -> dict[str, str]:
    return {"Cookie": f"{COOKIE}={http.cookies[COOKIE]}"}


def test_the_player_to_move_gets_one_mail_per_waiting_batch_with_working_links(
        inbox: tuple[Inbox, int], push: PushService, tmp_path: Path) -> None:
    box, smtp_port = inbox
    a, b, started = _servers(smtp_port, push, tmp_path)
    run = secrets.token_hex(3)
    ann_mail, bob_mail = f"ann-{run}@example.org", f"bob-{run}@example.org"

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=a.http) as ann, httpx.AsyncClient(base_url=b.http) as bob:
            await _account(ann, f"Ann {run}")
            await _account(bob, f"Bob {run}")
            await _confirm(ann, box, ann_mail)
            await _confirm(bob, box, bob_mail)
            browser = Browser(push)
            r = await bob.post("/api/push/subscriptions", json=browser.subscription())
            assert r.status_code == 201, r.text
            r = await bob.put("/api/me/notifications", json={"push_on": True})
            assert r.json()["settings"]["push_on"] is True and r.json()["push"]["subscriptions"] == 1

            async def game(bob_stays: bool = False) -> tuple[str, dict[str, Any], Page, Page | None]:
                made = await create_game(a.http, {"seats": [{"kind": "human"}, {"kind": "human"}],
                                                  "short": 8, "clock": {"days_per_move": 3}})
                gid = made["id"]
                ann_page = await Page.join(a, gid, [made["seats"]["0"]], additional_headers=_cookie(ann))
                bob_page = await Page.join(b, gid, [made["seats"]["1"]], additional_headers=_cookie(bob))
                await ann_page.wait_for_table(lambda t: t["seats"][1]["online"] and t["seats"][1]["account"],
                                              "Bob's page holds seat 1 for his account")
                if not bob_stays:
                    await bob_page.close()
                    await ann_page.wait_for_table(lambda t: not t["seats"][1]["online"], "Bob left")
                await _pass_turn(ann_page)   # the turn passes to Bob
                return gid, made, ann_page, bob_page if bob_stays else None

            g1, made1, ann1, _ = await game()
            g2, made2, ann2, _ = await game()
            mails = await asyncio.to_thread(box.wait, bob_mail, "Your turn")
            assert len(mails) == 1 and "2 games" in str(mails[0]["Subject"])
            text = text_of(mails[0])
            for gid, made in ((g1, made1), (g2, made2)):
                assert f"{a.http}/#/play/{gid}" in text
                for secret in (made["creator"], *made["seats"].values()):
                    assert secret not in text and secret not in str(mails[0])   # no secret, anywhere
            unsubscribe = link(mails[0], "/notifications/unsubscribe")
            assert mails[0]["List-Unsubscribe"] == f"<{unsubscribe}>"
            assert mails[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
            assert not box.to(ann_mail, "Your turn")   # her pages were open all along

            await asyncio.to_thread(push.wait, 1)   # the push went with the mail, encrypted
            path, headers, body = push.received[0]
            assert path.endswith(browser.endpoint.rsplit("/", 1)[1])
            assert headers["content-encoding"] == "aes128gcm" and headers["authorization"].startswith("vapid")
            payload = browser.read(body)
            assert set(payload["games"]) == {g1, g2} and payload["title"] == "Your turn in 2 games"

            # the link opens the game for Bob's account: his cookie holds the seat, no secret needed
            page = await Page.join(b, g1, [], additional_headers=_cookie(bob))
            assert page.seats == [1] and page.to_move == 1
            me = (await bob.get("/api/me")).json()
            assert [g["your_turn"] for g in me["games"] if g["id"] == g1] == [True]

            # while Bob's page is on a game, its turn is not mailed; the next waiting game is
            g3, _, ann3, bob3 = await game(bob_stays=True)
            g4, _, ann4, _ = await game()
            mails = await asyncio.to_thread(box.wait, bob_mail, "Your turn", 2)
            assert len(mails) == 2 and f"/#/play/{g4}" in text_of(mails[1])
            assert f"/#/play/{g3}" not in text_of(mails[1]) and f"/#/play/{g1}" not in text_of(mails[1])

            # unsubscribe, one click, no session: Bob gets no more turn mails
            async with httpx.AsyncClient() as mail_provider:
                r = await mail_provider.post(unsubscribe, content=b"List-Unsubscribe=One-Click",
                                             headers={"content-type": "application/x-www-form-urlencoded"})
                assert r.status_code == 200
            assert (await bob.get("/api/me/notifications")).json()["settings"]["email_on"] is False
            await game()                     # a turn passes to Bob, who is away
            await ann1.close()               # Ann leaves game 1; Bob plays there: her turn is mailed
            await page.wait_for_table(lambda t: not t["seats"][0]["online"], "Ann left")
            await _pass_turn(page)
            await asyncio.to_thread(box.wait, ann_mail, "Your turn")
            assert len(box.to(bob_mail, "Your turn")) == 2
            for p in (page, ann2, ann3, ann4, bob3):
                if p is not None:
                    await p.close()

    try:
        asyncio.run(scenario())
    finally:
        for server in started:
            server.stop()
    log = "".join(s.log() for s in started)
    assert "Traceback" not in log


# --------------------------------------------------------------------------- in the test client


class _Hasher(PasswordHasher):
    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8192, parallelism=1)


def make_app(smtp_port: int | None, **options: Any) -> Starlette:
    smtp = SmtpSettings("127.0.0.1", smtp_port) if smtp_port else None
    app = create_app("sqlite://", bot_delay=0.0, worker_processes=False,
                     notify=NotifySettings(smtp, "turns@example.org", "https://games.example.org/", 1.0),
                     **options)
    app.state.accounts = Accounts(app.state.storage, hasher=_Hasher())
    return app


def signed_up(app: Starlette, name: str) -> TestClient:
    c = TestClient(app)
    assert c.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    return c


def count(app: Starlette, table: Any) -> int:
    with app.state.storage.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar() or 0)


def test_an_address_is_confirmed_by_its_link_before_anything_else_is_sent(inbox: tuple[Inbox, int]) -> None:
    box, port = inbox
    app = make_app(port)
    with TestClient(app), signed_up(app, "Ann Lee") as ann:
        for bad in ["ann", "a@b", "ann@@example.org", "ann@example.org\r\nBcc: x@example.org",
                    "ann lee@example.org", "x" * 65 + "@example.org", "ann@" + "a" * 250 + ".org", 12,
                    ["ann@example.org"], "ann@-example.org", "ann@example.123", ".ann@example.org"]:
            r = ann.put("/api/me/notifications", json={"email": bad})
            assert r.status_code == 400 and r.json()["code"] in ("bad_email", "bad_request"), (bad, r.text)
        for body in [{"email_on": "yes"}, {"push_on": 1}, {"other": True}, [], "x"]:
            r = ann.put("/api/me/notifications", json=body)
            assert r.status_code == 400 and r.json()["code"] == "bad_request", (body, r.text)
        assert ann.put("/api/me/notifications", content=b"{}").status_code == 415
        huge = b'{"email": "' + b"a" * 70_000 + b'"}'
        r = ann.put("/api/me/notifications", content=huge, headers={"content-type": "application/json"})
        assert r.status_code == 413
        r = ann.put("/api/me/notifications", json={"email": "ann@example.org"},
                    headers={"origin": "https://evil.example"})
        assert r.status_code == 403 and r.json()["code"] == "cross_site"
        assert TestClient(app).put("/api/me/notifications", json={"email_on": True}).status_code == 401
        assert not box.mails   # nothing was mailed for any of these

        r = ann.put("/api/me/notifications", json={"email": "Ann@Example.ORG", "email_on": True})
        assert r.status_code == 200 and r.json()["confirmation"] == "sent"
        assert r.json()["settings"] == {"email": "Ann@example.org", "email_confirmed": False,
                                        "email_on": True, "push_on": False}
        mail = box.wait("Ann@example.org", "Confirm")[0]
        url = link(mail, "/notifications/confirm").replace("https://games.example.org", "")
        assert count(app, notify_tokens) == 1
        with app.state.storage.engine.connect() as conn:   # only the token's hash is kept
            assert url.rsplit("=", 1)[1] not in str(conn.execute(select(notify_tokens)).all())
        # a second address within the minute: refused, and the first link still unconfirmed
        r = ann.put("/api/me/notifications", json={"email": "other@example.org"})
        assert r.status_code == 429 and r.json()["code"] == "too_many_attempts"
        stranger = TestClient(app)
        assert stranger.post("/notifications/confirm?token=nope").status_code == 404
        assert stranger.get("/notifications/confirm?token=" + "x" * 500).status_code == 404
        assert stranger.get(url).status_code == 200
        assert ann.get("/api/me/notifications").json()["settings"]["email_confirmed"] is False
        assert stranger.post(url).status_code == 200
        assert ann.get("/api/me/notifications").json()["settings"]["email_confirmed"] is True
        assert stranger.post(url).status_code == 404   # used once
        assert not box.to("other@example.org")

        # deleting the account removes its address, links and subscriptions
        assert ann.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 204
        assert count(app, notify_settings) == count(app, notify_tokens) == 0


def test_without_smtp_no_mail_is_attempted_and_the_settings_say_so() -> None:
    app = make_app(None)
    with TestClient(app), signed_up(app, "Ann Lee") as ann:
        shown = ann.get("/api/me/notifications").json()
        assert shown["mail"] is False and len(shown["push"]["key"]) == 87   # an uncompressed P-256 point
        for body in [{"email": "ann@example.org"}, {"email_on": True}]:
            r = ann.put("/api/me/notifications", json=body)
            assert r.status_code == 409 and r.json()["code"] == "mail_off"
        assert ann.put("/api/me/notifications", json={"push_on": True}).json()["settings"]["push_on"] is True
        # the key is kept: the next start serves the same one
        assert ann.get("/api/me/notifications").json()["push"]["key"] == shown["push"]["key"]


def test_push_subscriptions_refuse_hostile_input(push: PushService) -> None:
    app = make_app(None, push_services=(push.url,))
    good = Browser(push).subscription()
    with TestClient(app), signed_up(app, "Ann Lee") as ann, signed_up(app, "Bob Ray") as bob:
        assert TestClient(app).post("/api/push/subscriptions", json=good).status_code == 401
        bad_endpoints = ["http://fcm.googleapis.com/x", "https://evil.example/x", "https://127.0.0.1/x",
                         "https://user@fcm.googleapis.com/x", "file:///etc/passwd", push.url + "evil/x",
                         "https://fcm.googleapis.com.evil.example/x", "x" * 2000, 5]
        for endpoint in bad_endpoints:
            r = ann.post("/api/push/subscriptions", json={**good, "endpoint": endpoint})
            assert r.status_code == 400 and r.json()["code"] == "bad_subscription", endpoint
        for keys in [{}, {"p256dh": "AAAA", "auth": good["keys"]["auth"]}, {"p256dh": good["keys"]["p256dh"]},
                     {"p256dh": good["keys"]["p256dh"], "auth": "!!!"}, "keys"]:
            r = ann.post("/api/push/subscriptions", json={**good, "keys": keys})
            assert r.status_code == 400 and r.json()["code"] == "bad_subscription", keys
        r = ann.post("/api/push/subscriptions", json=good, headers={"origin": "https://evil.example"})
        assert r.status_code == 403
        assert ann.post("/api/push/subscriptions", json=good).status_code == 201
        fcm = {**good, "endpoint": "https://fcm.googleapis.com/fcm/send/abc"}
        assert ann.post("/api/push/subscriptions", json=fcm).status_code == 201
        # another account cannot remove Ann's subscription
        forget = {"endpoint": good["endpoint"]}
        assert bob.request("DELETE", "/api/push/subscriptions", json=forget).status_code == 204
        assert count(app, push_subscriptions) == 2
        for n in range(8):
            assert ann.post("/api/push/subscriptions",
                            json={**good, "endpoint": f"{push.url}/more/{n}"}).status_code == 201
        r = ann.post("/api/push/subscriptions", json={**good, "endpoint": f"{push.url}/one-too-many"})
        assert r.status_code == 409 and r.json()["code"] == "too_many_subscriptions"
        assert ann.request("DELETE", "/api/push/subscriptions", json=forget).status_code == 204
        assert count(app, push_subscriptions) == 9


def test_the_unsubscribe_page_changes_nothing_until_its_button_is_pressed() -> None:
    app = make_app(None)
    with TestClient(app), signed_up(app, "Ann Lee") as ann:
        account = ann.get("/api/me").json()["account"]["id"]
        store = app.state.notifier.store
        store.set_switches(account, True, None)
        with app.state.storage.engine.begin() as conn:
            token = store.unsubscribe_token(conn, account, "ann@example.org")
        stranger = TestClient(app)
        page = stranger.get(f"/notifications/unsubscribe?token={token}")
        assert page.status_code == 200 and "ann@example.org" in page.text and "<form" in page.text
        assert store.prefs(account).email_on is True
        assert stranger.post("/notifications/unsubscribe?token=wrong").status_code == 404
        assert stranger.post(f"/notifications/unsubscribe?token={token}").status_code == 200
        assert store.prefs(account).email_on is False
        r = stranger.get("/sw.js")
        assert r.status_code == 200 and "showNotification" in r.text
        assert r.headers["service-worker-allowed"] == "/"


def test_smtp_urls() -> None:
    assert SmtpSettings.from_url("smtp://127.0.0.1:2525?starttls=require").security == "require-starttls"
    assert SmtpSettings.from_url("smtp://a%40b:p%3Ass@mail.example.org").user == "a@b"
    assert SmtpSettings.from_url("smtp://a%40b:p%3Ass@mail.example.org").password == "p:ss"
    for bad in ["http://mail.example.org", "smtp://", "smtp://m.example.org:99999", "smtp://m.example?x=1"]:
        with pytest.raises(ValueError):
            SmtpSettings.from_url(bad)


def _certificate() -> tuple[bytes, bytes]:
    """A self-signed certificate for ``localhost`` and its key (PEM)."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(hours=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    return (cert.public_bytes(serialization.Encoding.PEM),
            key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                              serialization.NoEncryption()))


def test_starttls_is_used_when_offered_required_when_asked_tls_with_smtps_and_no_password_said(
        tmp_path: Path) -> None:
    import ssl

    from aiosmtpd.smtp import AuthResult

    from huntgather.server.notify import MailError, send_mail

    cert, key = _certificate()
    (tmp_path / "cert.pem").write_bytes(cert)
    (tmp_path / "key.pem").write_bytes(key)
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    trusting = ssl.create_default_context(cadata=cert.decode())

    def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        return AuthResult(success=data.login == b"ann" and data.password == b"s3cret pass")

    box = Inbox()
    tls_port, plain_port = free_port(), free_port()
    with_tls = Controller(box, hostname="localhost", port=tls_port, tls_context=server_tls,
                          require_starttls=True, authenticator=authenticator)
    plain = Controller(box, hostname="localhost", port=plain_port)
    implicit = Controller(box, hostname="localhost", port=free_port(), ssl_context=server_tls)
    with_tls.start()
    plain.start()
    implicit.start()
    try:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = "t@example.org", "ann@example.org", "hello"
        message.set_content("hi")
        for url in (f"smtp://ann:s3cret%20pass@localhost:{tls_port}",
                    f"smtp+starttls://ann:s3cret%20pass@localhost:{tls_port}"):
            send_mail(SmtpSettings.from_url(url), message, trusting)
        send_mail(SmtpSettings.from_url(f"smtps://localhost:{implicit.port}"), message, trusting)
        assert len(box.wait("ann@example.org", "hello", 3)) == 3
        with pytest.raises(MailError, match="offers no STARTTLS") as refused:
            send_mail(SmtpSettings.from_url(f"smtp://localhost:{plain_port}?starttls=require"), message,
                      trusting)
        with pytest.raises(MailError) as wrong:   # (a server that takes no password: said quickly)
            send_mail(SmtpSettings.from_url(f"smtp://ann:not%20it@localhost:{plain_port}"), message,
                      trusting)
        with pytest.raises(MailError, match=r"SSL|certificate"):   # a certificate nobody vouches for
            send_mail(SmtpSettings.from_url(f"smtp://ann:s3cret%20pass@localhost:{tls_port}"), message)
        assert "not it" not in str(wrong.value) and "s3cret" not in str(refused.value)
        assert len(box.mails) == 3
    finally:
        with_tls.stop()
        plain.stop()
        implicit.stop()


def test_a_failed_mail_is_retried_later_a_played_turn_is_dropped_and_each_turn_is_claimed_once(
        tmp_path: Path) -> None:
    """The notifier alone, on a SQLite file: the SMTP server is down at first (the failure is
    counted and the turn kept for a retry a minute later), two notifiers claim one batch once,
    a turn played meanwhile is left out, and deleting a game removes its waiting turns."""
    from huntgather.server.notify import Notifier, NotifyStore
    from huntgather.server.storage import SeatRow, Storage, games

    storage = Storage(str(tmp_path / "games.sqlite"))
    store = NotifyStore(storage)
    ann = Accounts(storage, hasher=_Hasher()).create("Ann Lee", PASSWORD)
    token = store.set_email(ann.id, "ann@example.org")
    assert token is not None and store.confirm(token)
    store.set_switches(ann.id, True, None)
    for gid in ("g1", "g2"):
        storage.create(gid, {"edition": "2020"}, ["d3"],
                       [SeatRow(0, "human", None, "Bob", "ab", True),
                        SeatRow(1, "human", None, "Ann Lee", "cd", True, ann.id)])
        with storage.engine.begin() as conn:
            assert store.add_waiting(conn, ann.id, gid, 1, 1)
            assert not store.add_waiting(conn, ann.id, gid, 1, 1)   # the same turn told twice: once
    port = free_port()
    settings = NotifySettings(SmtpSettings("127.0.0.1", port), "turns@example.org",
                              "https://games.example.org/", 0)
    first, second = Notifier(storage, settings), Notifier(storage, settings)

    async def scenario() -> None:
        assert await first.sweep() == 1 and first.failures == 1 and first.sent == 0   # nobody listens
        assert await first.sweep() == 0 and await second.sweep() == 0   # the retry waits a minute
        box = Inbox()
        controller = Controller(box, hostname="127.0.0.1", port=port)
        controller.start()
        try:
            with storage.engine.begin() as conn:   # g2's turn is played meanwhile
                conn.execute(games.update().where(games.c.id == "g2").values(ply=2))
            later = time.time() + 61
            assert store.due(later, 0) == [ann.id]
            told = await asyncio.gather(first._tell(ann.id, later), second._tell(ann.id, later))
            assert sorted(told) == [0, 1]   # one of the two took the batch
            mails = box.wait("ann@example.org", "Your turn")
            # (g2's link, not "g2": the mail's random unsubscribe token may hold those two letters)
            assert len(mails) == 1 and "/#/play/g1" in text_of(mails[0])
            assert "/#/play/g2" not in text_of(mails[0])
        finally:
            controller.stop()
        assert await first.sweep() == 0 and await second.sweep() == 0   # never again for that turn

    asyncio.run(scenario())
    assert storage.delete("g1")
    with storage.engine.connect() as conn:
        from huntgather.server.account_tables import notify_waiting

        assert [r.game_id for r in conn.execute(select(notify_waiting))] == ["g2"]
    storage.close()


def test_a_push_service_saying_the_subscription_is_gone_makes_the_server_forget_it(
        tmp_path: Path, push: PushService) -> None:
    from huntgather.server.notify import Notifier, Waiting
    from huntgather.server.storage import Storage

    storage = Storage(str(tmp_path / "games.sqlite"))
    notifier = Notifier(storage, NotifySettings(None, "turns@example.org", "https://games.example.org/", 0))
    ann = Accounts(storage, hasher=_Hasher()).create("Ann Lee", PASSWORD)
    browsers = [Browser(push), Browser(push)]
    for b in browsers:
        sub = b.subscription()
        notifier.store.add_subscription(ann.id, sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"])
    waiting = [Waiting("g1", 3, 1, ["Bob"], "2020")]
    asyncio.run(notifier._push(ann.id, waiting))
    push.wait(2)
    by_path = {b.endpoint.removeprefix(push.url): b for b in browsers}
    assert sorted(by_path[path].read(body)["game"] for path, _, body in push.received) == ["g1", "g1"]
    push.status = 410   # both browsers unsubscribed: the push service says so
    asyncio.run(notifier._push(ann.id, waiting))
    push.wait(4)
    assert notifier.store.subscriptions(ann.id) == [] and notifier.pushed == 2
    storage.close()


def test_the_mail_options_are_checked_in_plain_words_without_echoing_the_password() -> None:
    from argparse import Namespace

    from huntgather.cli import CommandError
    from huntgather.commands.play import notify_settings
    from huntgather.server.notify import new_vapid_key

    def settings(**given: Any) -> NotifySettings:
        options = {"smtp": None, "mail_from": None, "public_url": None, "notify_delay": 300.0,
                   "vapid_key": None, **given}
        made: NotifySettings = notify_settings(Namespace(**options))
        return made

    assert settings().smtp is None
    ok = settings(smtp="smtp+starttls://ann:hunter2@smtp.example.org:587", mail_from="t@example.org",
                  public_url="https://games.example.org/")
    assert ok.smtp is not None and ok.smtp.security == "require-starttls" and ok.base == "https://games.example.org/"
    assert "hunter2" not in repr(ok) and "hunter2" not in ok.smtp.describe()
    key = new_vapid_key()
    assert settings(vapid_key=key).vapid_key == key
    for given, said in [({"smtp": "smtp://ann:hunter2@smtp.example.org:99999"}, "port"),
                        ({"smtp": "imap://ann:hunter2@smtp.example.org"}, "smtp://"),
                        ({"smtp": "smtp://ann:hunter2@smtp.example.org"}, "--mail-from"),
                        ({"smtp": "smtp://smtp.example.org", "mail_from": "nope",
                          "public_url": "https://games.example.org/"}, "--mail-from"),
                        ({"public_url": "games.example.org"}, "--public-url"),
                        ({"notify_delay": -1.0}, "--notify-delay"),
                        ({"vapid_key": "hunter2"}, "--vapid-key")]:
        with pytest.raises(CommandError, match=said) as refused:
            settings(**given)
        assert "hunter2" not in str(refused.value)


# --------------------------------------------------------------------------- the mails' language


def test_the_mail_catalogues_have_every_key_with_the_same_parameters_and_czech_plurals() -> None:
    from huntgather.server.mail_words import LANGUAGES, catalogue, words

    def params(entry: object) -> set[str]:
        texts = [entry] if isinstance(entry, str) else list(entry.values()) if isinstance(entry, dict) else []
        return {p for text in texts for p in re.findall(r"\{(\w+)\}", str(text))}

    english = catalogue("en")
    for lang in LANGUAGES:
        other = catalogue(lang)
        assert set(other) == set(english), lang
        for key, entry in english.items():
            for text in [other[key]] if isinstance(other[key], str) else list(other[key].values()):
                assert set(re.findall(r"\{(\w+)\}", text)) <= params(entry), (lang, key, text)
            if lang != "en" and isinstance(entry, str) and len(entry) > 12:
                assert other[key] != entry, f"{lang}: {key} is still English"
    assert words("cs", "push.title", n=1) == "Jste na tahu"
    assert words("cs", "push.title", n=3) == "Jste na tahu ve 3 hrách"
    assert words("cs", "push.title", n=5) == "Jste na tahu v 5 hrách"
    assert words("xx", "push.title", n=5) == "Your turn in 5 games"   # an unknown language: English


def test_an_account_keeps_the_language_it_signed_up_in_and_its_mails_speak_it(
        inbox: tuple[Inbox, int]) -> None:
    """Sign-up takes the page's language (checked), the account screen changes it, and the
    confirmation mail comes in it; an account without one gets English."""
    box, port = inbox
    app = make_app(port)
    with TestClient(app) as anyone:
        for bad in ["fr", "", 3, None, ["cs"]]:
            r = anyone.post("/api/accounts", json={"name": "Eva", "password": PASSWORD, "language": bad})
            assert (r.status_code, r.json()["code"]) == (400, "bad_language") if bad is not None else \
                r.status_code == 201, (bad, r.text)
        eva = TestClient(app)
        assert eva.post("/api/session", json={"name": "Eva", "password": PASSWORD}).status_code == 200
        assert eva.get("/api/me").json()["account"]["language"] == "en"   # none given: English
        petr = TestClient(app)
        r = petr.post("/api/accounts", json={"name": "Petr", "password": PASSWORD, "language": "cs"})
        assert r.status_code == 201 and r.json()["account"]["language"] == "cs"
        r = petr.put("/api/me/notifications", json={"email": "petr@example.org"})
        assert r.status_code == 200 and r.json()["confirmation"] == "sent"
        mail = box.wait("petr@example.org", "Potvrďte svou adresu")[0]
        assert text_of(mail).startswith("Dobrý den, Petr,")
        assert "/notifications/confirm?token=" in text_of(mail)
        # changed on the account screen: checked, signed in only, not from another site
        for bad in [{"language": "en-GB"}, {"language": None}, {}, []]:
            r = petr.put("/api/me/language", json=bad)
            assert (r.status_code, r.json()["code"]) == (400, "bad_language"), (bad, r.text)
        assert TestClient(app).put("/api/me/language", json={"language": "de"}).status_code == 401
        r = petr.put("/api/me/language", json={"language": "de"}, headers={"origin": "https://evil.example"})
        assert r.status_code == 403
        assert petr.put("/api/me/language", json={"language": "de"}).status_code == 204
        assert petr.get("/api/me").json()["account"]["language"] == "de"
        r = eva.put("/api/me/notifications", json={"email": "eva@example.org"})
        assert box.wait("eva@example.org", "Confirm your address")   # English


def test_a_turn_mail_and_a_push_in_the_accounts_language(tmp_path: Path, push: PushService) -> None:
    from huntgather.server.notify import Notifier, Opponent, Waiting
    from huntgather.server.storage import Storage

    storage = Storage(str(tmp_path / "games.sqlite"))
    port = free_port()
    notifier = Notifier(storage, NotifySettings(SmtpSettings("127.0.0.1", port), "turns@example.org",
                                                "https://games.example.org/", 0))
    accounts = Accounts(storage, hasher=_Hasher())
    jan = accounts.create("Jan", PASSWORD, language="cs")
    found = accounts.by_id(jan.id)
    assert found is not None and found.language == "cs"
    browser = Browser(push)
    sub = browser.subscription()
    notifier.store.add_subscription(jan.id, sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"])
    waiting = [Waiting("g1", 3, 1, ["Bob", Opponent(2, "expert"), Opponent(3)], "2020"),
               Waiting("g2", 5, 0, [Opponent(1, "easy")], "2002")]
    box = Inbox()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        notifier._mail_turns(jan.id, "Jan", "jan@example.org", waiting, "cs")
        (mail,) = box.wait("jan@example.org", "Jste na tahu ve 2 hrách")
    finally:
        controller.stop()
    text = text_of(mail).replace("\r\n", "\n")
    assert text.startswith("Dobrý den, Jan,\n\njste na tahu v těchto 2 hrách:")
    assert "* proti: Bob, robot expert, místo 4 (vydání 2020):" in text and "robot easy (vydání 2002)" in text
    assert "Žádné další takové e-maily: https://games.example.org/notifications/unsubscribe?token=" in text
    asyncio.run(notifier._push(jan.id, waiting[:1], "de"))
    push.wait(1)
    ((_, _, body),) = push.received
    payload = browser.read(body)
    assert payload["title"] == "Du bist am Zug" and payload["body"] == "gegen Bob, Bot expert, Platz 4"
    storage.close()
