"""Cross-site request forgery: another site's page may not change anything here.

A browser sends a session cookie with every request to this server, whichever page made it
(``SameSite=Lax`` keeps it off another site's POST, but not off a sibling subdomain's, nor off
an older browser's).  So every change (``POST``, ``PUT``, ``PATCH``, ``DELETE``) is refused
with 403 ``cross_site``, before any route runs, when the browser says it came from elsewhere:

* its ``Origin`` header is present and is neither this server's origin (the scheme and host the
  request was made to, as the request sees them: behind a proxy, what ``--forwarded-allow-ips``
  lets it say) nor one of the allowed origins (``--allow-origin``); an ``Origin: null`` (a
  sandboxed page, a redirect across sites) is refused too;
* or its ``Sec-Fetch-Site`` header is ``cross-site``.

A request with neither header passes: it does not come from a browser's page (a bot, a test,
``curl``), and a browser always sends ``Origin`` on a cross-origin POST.  A form posted from
another site is refused here too, and would be anyway: the routes take only
``application/json`` (``bad_content_type``, 415), which a form cannot send.

>>> is_same_origin("https://games.example.org", "https", "games.example.org", set())
True
>>> is_same_origin("https://games.example.org:443", "https", "games.example.org", set())
True
>>> is_same_origin("http://games.example.org", "https", "games.example.org", set())
False
>>> is_same_origin("https://evil.example", "https", "games.example.org", {"evil.example"})
True
>>> is_same_origin("null", "https", "games.example.org", set())
False
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from huntgather.server.messages import ErrorCode

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: the methods that change something (the others must not, and pass)
CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def _netloc(scheme: str, netloc: str) -> str:
    """``host[:port]`` in lower case, without the scheme's default port."""
    netloc = netloc.lower()
    default = _DEFAULT_PORTS.get(scheme)
    if default is not None and netloc.endswith(f":{default}") and not netloc.endswith("]"):
        netloc = netloc[: -len(default) - 1]
    return netloc


def is_same_origin(origin: str, scheme: str, host: str, allowed: set[str]) -> bool:
    """Whether a request whose ``Origin`` header is ``origin``, made over ``scheme`` to ``host``
    (its ``Host`` header), comes from this server's pages or from an allowed origin (netlocs)."""
    parts = urlsplit(origin.strip())
    if not parts.scheme or not parts.netloc:   # "null", or not an origin at all
        return False
    theirs = _netloc(parts.scheme.lower(), parts.netloc)
    if theirs in allowed or parts.netloc.lower() in allowed:
        return True
    scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    return parts.scheme.lower() == scheme and theirs == _netloc(scheme, host)


class CrossSiteGuard:
    """ASGI middleware: refuse a change another site's page sent (403 ``cross_site``)."""

    _BODY = json.dumps({"type": "error", "code": ErrorCode.CROSS_SITE,
                        "message": "another site's page may not change anything here; "
                                   "use this server's own page"}).encode()

    def __init__(self, app: ASGIApp, allowed: set[str]) -> None:
        self.app = app
        #: the netlocs of other sites' pages that may (``ServerContext.origins``)
        self.allowed = allowed

    def refuses(self, scope: Scope) -> bool:
        """Whether the request of ``scope`` is a change sent from another site."""
        if scope.get("method") not in CHANGES:
            return False
        headers: dict[bytes, bytes] = {}
        for key, value in scope.get("headers", []):
            headers.setdefault(key.lower(), value)
        if headers.get(b"sec-fetch-site", b"").strip().lower() == b"cross-site":
            return True
        origin = headers.get(b"origin")
        if origin is None:
            return False
        host = headers.get(b"host", b"").decode("latin-1")
        return not is_same_origin(origin.decode("latin-1"), str(scope.get("scheme", "http")), host,
                                  self.allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.refuses(scope):
            await send({"type": "http.response.start", "status": 403,
                        "headers": [(b"content-type", b"application/json"), (b"cache-control", b"no-store"),
                                    (b"vary", b"Origin")]})
            await send({"type": "http.response.body", "body": self._BODY})
            return
        await self.app(scope, receive, send)
