"""The HTTP routes of turn notifications (:mod:`huntgather.server.notify`).

========================================  ============================================
``GET    /api/me/notifications``          the account's address, switches, and the server's
``PUT    /api/me/notifications``          {email?, email_on?, push_on?}: a new address is mailed
                                          a confirmation link
``POST   /api/push/subscriptions``        a browser's Web Push subscription {endpoint, keys}
``DELETE /api/push/subscriptions``        forget one {endpoint}
``GET    /notifications/confirm?token=``  a page with a button that confirms the address
``POST   /notifications/confirm?token=``  confirm it
``GET    /notifications/unsubscribe?…``   a page with a button that stops the turn mails
``POST   /notifications/unsubscribe?…``   stop them (also RFC 8058 one-click, no session)
``GET    /sw.js``                         the service worker that shows pushed notifications
========================================  ============================================

The two mailed links work without signing in: their token (256 random bits, only its hash
stored) is the permission.  Opening one (GET) changes nothing, so that a mail scanner that
follows links neither confirms nor unsubscribes; the page's button posts.

Shapes and codes: ``docs/protocol.md`` (*Notifications*); policy: ``docs/accounts.md``.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import html
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from huntgather.server.context import RateLimit
from huntgather.server.messages import ErrorCode
from huntgather.server.notify import Notifier, NotifyStore, clean_email
from huntgather.server.routes_accounts import current_session
from huntgather.server.routes_http import read_body, refusal, signed_out, web_dir
from huntgather.server.seats import RequestError

log = logging.getLogger("huntgather.server")

#: the push services whose endpoints are taken (host, or a suffix after a dot), over HTTPS;
#: ``--push-service`` adds others (an endpoint is a URL the server will post to: never any)
PUSH_SERVICES = ("fcm.googleapis.com", "android.googleapis.com", "push.services.mozilla.com",
                 "notify.windows.com", "push.apple.com")
MAX_ENDPOINT = 1000


def notifier_of(request: Request) -> Notifier:
    notifier: Notifier = request.app.state.notifier
    return notifier


def _limits(request: Request) -> dict[str, RateLimit]:
    limits: dict[str, RateLimit] = request.app.state.notify_limits
    return limits


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def _settings_json(notifier: Notifier, store: NotifyStore, account_id: int) -> dict[str, Any]:
    return {"settings": store.prefs(account_id).as_json(), "mail": notifier.mail_on,
            "push": {"key": notifier.vapid_public(), "subscriptions": len(store.subscriptions(account_id))}}


async def get_settings(request: Request) -> Response:
    session = await current_session(request)
    if session is None:
        return signed_out()
    notifier = notifier_of(request)
    answer = await asyncio.to_thread(_settings_json, notifier, notifier.store, session.account.id)
    return JSONResponse(answer, headers={"cache-control": "no-store"})


def _switch(data: dict[str, Any], key: str) -> bool | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise RequestError(ErrorCode.BAD_REQUEST, f"'{key}' must be true or false")
    return value


async def put_settings(request: Request) -> Response:
    session = await current_session(request)
    if session is None:
        return signed_out()
    account = session.account
    notifier = notifier_of(request)
    store = notifier.store
    try:
        data = await read_body(request)
        if not isinstance(data, dict) or set(data) - {"email", "email_on", "push_on"}:
            raise RequestError(ErrorCode.BAD_REQUEST, "send {\"email\"?, \"email_on\"?, \"push_on\"?}")
        email_on, push_on = _switch(data, "email_on"), _switch(data, "push_on")
        email: str | None = None
        change_email = "email" in data
        if change_email and data["email"] not in (None, ""):
            email = clean_email(data["email"])
        if (email is not None or email_on) and not notifier.mail_on:
            raise RequestError(ErrorCode.MAIL_OFF, "this server sends no mail (its operator has not "
                                                   "set it up)")
        if email is not None and not _limits(request)["confirm"].allow(_client(request)):
            raise RequestError(ErrorCode.TOO_MANY_ATTEMPTS, "too many confirmation mails from here; "
                                                            "try again later")
        token = await asyncio.to_thread(store.set_email, account.id, email) if change_email else None
        await asyncio.to_thread(store.set_switches, account.id, email_on, push_on)
    except RequestError as exc:
        return refusal(exc)
    answer = await asyncio.to_thread(_settings_json, notifier, store, account.id)
    if token is not None and email is not None:
        try:
            await asyncio.to_thread(notifier.mail_confirmation, account.name, email, token, account.language)
            answer["confirmation"] = "sent"
        except Exception as exc:
            log.warning("account %d: the confirmation mail failed: %s", account.id, exc)
            answer["confirmation"] = "failed"
    return JSONResponse(answer, headers={"cache-control": "no-store"})


def _b64_bytes(value: object, size: int, name: str) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise RequestError(ErrorCode.BAD_SUBSCRIPTION, f"keys.{name} must be base64url text")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise RequestError(ErrorCode.BAD_SUBSCRIPTION, f"keys.{name} must be base64url text") from None
    if len(raw) != size or (name == "p256dh" and raw[0] != 4):
        raise RequestError(ErrorCode.BAD_SUBSCRIPTION, f"keys.{name} is not a key of the right size")
    return value


def check_endpoint(endpoint: object, extra: tuple[str, ...]) -> str:
    """A push endpoint the server may post to: HTTPS at a known push service, or under one of
    ``extra`` (``--push-service`` URLs); raises ``bad_subscription``."""
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= MAX_ENDPOINT:
        raise RequestError(ErrorCode.BAD_SUBSCRIPTION, f"'endpoint' must be a URL of at most "
                                                       f"{MAX_ENDPOINT} characters")
    if any(endpoint.startswith(prefix.rstrip("/") + "/") for prefix in extra):
        return endpoint
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018  (raises on a bad port)
    except ValueError:
        raise RequestError(ErrorCode.BAD_SUBSCRIPTION, "'endpoint' is not a URL") from None
    if parts.scheme != "https" or parts.username or parts.password or \
            not any(host == s or host.endswith("." + s) for s in PUSH_SERVICES):
        raise RequestError(ErrorCode.BAD_SUBSCRIPTION, "'endpoint' is not the address of a known push "
                                                       "service")
    return endpoint


async def add_subscription(request: Request) -> Response:
    session = await current_session(request)
    if session is None:
        return signed_out()
    try:
        data = await read_body(request)
        if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
            raise RequestError(ErrorCode.BAD_SUBSCRIPTION, "send {\"endpoint\": URL, \"keys\": "
                                                           "{\"p256dh\": …, \"auth\": …}}")
        endpoint = check_endpoint(data.get("endpoint"), request.app.state.push_services)
        p256dh = _b64_bytes(data["keys"].get("p256dh"), 65, "p256dh")
        auth = _b64_bytes(data["keys"].get("auth"), 16, "auth")
        await asyncio.to_thread(notifier_of(request).store.add_subscription, session.account.id, endpoint,
                                p256dh, auth)
    except RequestError as exc:
        return refusal(exc)
    return Response(status_code=201, headers={"cache-control": "no-store"})


async def remove_subscription(request: Request) -> Response:
    session = await current_session(request)
    if session is None:
        return signed_out()
    try:
        data = await read_body(request)
        endpoint = data.get("endpoint") if isinstance(data, dict) else None
        if not isinstance(endpoint, str) or len(endpoint) > MAX_ENDPOINT:
            raise RequestError(ErrorCode.BAD_SUBSCRIPTION, "send {\"endpoint\": URL}")
    except RequestError as exc:
        return refusal(exc)
    await asyncio.to_thread(notifier_of(request).store.remove_subscription, session.account.id, endpoint)
    return Response(status_code=204)


# --------------------------------------------------------------------------- the mailed links

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="referrer" content="no-referrer"><title>{title} · huntgather</title>
<style>body{{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}}
button{{font:inherit;padding:.5rem 1rem}}</style></head>
<body><h1>{title}</h1>{body}<p><a href="/">huntgather</a></p></body></html>
"""


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(_PAGE.format(title=html.escape(title), body=body), status_code=status,
                        headers={"cache-control": "no-store"})


def _token(request: Request) -> str:
    token = request.query_params.get("token", "")
    return token if len(token) <= 100 else ""


def _form(path: str, token: str, button: str) -> str:
    return (f'<form method="post" action="{path}?token={quote(token, safe="")}">'
            f'<button type="submit">{html.escape(button)}</button></form>')


_GONE = "<p>This link is unknown or too old. Your settings are on your account page.</p>"


@dataclass(frozen=True)
class _MailLink:
    """A link of a mail (confirm the address, unsubscribe): a page that asks, a form that acts."""

    kind: str                               # the token's kind, and the path's last part
    ask_title: str
    ask: str                                # "…{email}…?": the question, the address in bold
    button: str
    act: Callable[[NotifyStore, str], bool]
    done_title: str
    done: str

    @property
    def path(self) -> str:
        return f"/notifications/{self.kind}"

    async def page(self, request: Request) -> Response:
        token = _token(request)
        email = await asyncio.to_thread(notifier_of(request).store.token_email, token, self.kind)
        if email is None:
            return _page("Link expired", _GONE, 404)
        return _page(self.ask_title, "<p>" + self.ask.format(email=f"<b>{html.escape(email)}</b>") + "</p>"
                     + _form(self.path, token, self.button))

    async def post(self, request: Request) -> Response:
        if not _limits(request)["links"].allow(_client(request)):
            return _page("Too many tries", "<p>Try again in a minute.</p>", 429)
        done = await asyncio.to_thread(self.act, notifier_of(request).store, _token(request))
        if not done:
            return _page("Link expired", _GONE, 404)
        log.info("a mail's %s link used", self.kind)
        return _page(self.done_title, f"<p>{self.done}</p>")


_MAIL_LINKS = (
    _MailLink("confirm", "Confirm your address", "Send huntgather's turn notifications to {email}?",
              "Confirm", NotifyStore.confirm, "Address confirmed",
              "Turn notifications can go to this address now. Switch them on or off on your account page."),
    _MailLink("unsubscribe", "Stop the turn mails", "Send no more turn notifications to {email}?",
              "Unsubscribe", NotifyStore.unsubscribe, "Unsubscribed",
              "No more turn mails will come. You can switch them on again on your account page."),
)


async def service_worker(request: Request) -> Response:
    return FileResponse(Path(web_dir()) / "sw.js", media_type="text/javascript",
                        headers={"cache-control": "no-cache", "service-worker-allowed": "/"})


def notify_routes() -> list[Route]:
    return [
        Route("/api/me/notifications", get_settings, methods=["GET"]),
        Route("/api/me/notifications", put_settings, methods=["PUT"]),
        Route("/api/push/subscriptions", add_subscription, methods=["POST"]),
        Route("/api/push/subscriptions", remove_subscription, methods=["DELETE"]),
        *(Route(link.path, link.page, methods=["GET"]) for link in _MAIL_LINKS),
        *(Route(link.path, link.post, methods=["POST"]) for link in _MAIL_LINKS),
        Route("/sw.js", service_worker, methods=["GET"]),
    ]
