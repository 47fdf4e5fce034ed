"""The server's log: plain lines, or one JSON object a line (``huntgather play --log-format json``).

Every request and game socket runs with a request id and, where its path names one, the
game's id (:class:`LogContext`, through :mod:`contextvars`, so that whatever it logs, and the
tasks it starts, carry them).  A JSON line holds ``time`` (UTC, ISO 8601), ``level``,
``logger``, ``message``, and ``request`` and ``game`` where there are ones, and ``exc`` with a
traceback.  No secret is ever logged: a secret travels in a ``hello`` or an ``Authorization``
header, neither of which the server logs, and the log holds nothing of a request but its
path's game id.

>>> import logging
>>> record = logging.LogRecord("huntgather.server", logging.WARNING, "x.py", 1, "game %s: %s",
...                            ("abc", "stored"), None)
>>> record.created = 0.0
>>> token = GAME.set("abc")
>>> json.loads(JsonFormatter().format(record))   # doctest: +NORMALIZE_WHITESPACE
{'time': '1970-01-01T00:00:00.000Z', 'level': 'WARNING', 'logger': 'huntgather.server',
 'message': 'game abc: stored', 'game': 'abc'}
>>> GAME.reset(token)
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

#: the id of the request (or socket) being served, and of the game its path names
REQUEST: contextvars.ContextVar[str | None] = contextvars.ContextVar("hg_request", default=None)
GAME: contextvars.ContextVar[str | None] = contextvars.ContextVar("hg_game", default=None)

_GAME_PATH = re.compile(r"^/(?:api/games|ws)/([A-Za-z0-9_-]{1,40})(?:/|$)")
#: a request id a proxy passed on (``X-Request-ID``) is kept when it looks like one
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

Message = MutableMapping[str, Any]
Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
                   Awaitable[None]]


class LogContext:
    """ASGI middleware: each HTTP request and websocket runs with its :data:`REQUEST` id (the
    proxy's ``X-Request-ID`` if it is one, else a new one) and its path's :data:`GAME` id."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"x-request-id"), "")
        request = REQUEST.set(given if _REQUEST_ID.fullmatch(given) else secrets.token_hex(6))
        found = _GAME_PATH.match(scope.get("path", ""))
        game = GAME.set(found.group(1) if found else None)
        try:
            await self.app(scope, receive, send)
        finally:
            REQUEST.reset(request)
            GAME.reset(game)


class JsonFormatter(logging.Formatter):
    """A record as one line of JSON (see the module's documentation)."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        line: dict[str, Any] = {"time": f"{stamp}.{int(record.created % 1 * 1000):03d}Z",
                                "level": record.levelname, "logger": record.name,
                                "message": record.getMessage()}
        request, game = REQUEST.get(), GAME.get()
        if request is not None:
            line["request"] = request
        if game is not None:
            line["game"] = game
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, separators=(",", ":"), default=str)


def configure(fmt: str = "text", level: str = "warning") -> None:
    """The server's log on stderr: huntgather's records from ``level`` on, uvicorn's warnings and
    errors, as plain lines (``text``: ``TIME LEVEL LOGGER: MESSAGE``) or JSON (``json``)."""
    handler = logging.StreamHandler()
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    ours = logging.getLogger("huntgather")
    for old in list(ours.handlers):
        ours.removeHandler(old)
    ours.addHandler(handler)
    ours.setLevel(level.upper())
    uv = logging.getLogger("uvicorn")   # uvicorn.error's records come here too
    for old in list(uv.handlers):
        uv.removeHandler(old)
    uv.addHandler(handler)
    uv.propagate = False
    uv.setLevel(logging.WARNING)
    logging.getLogger("uvicorn.access").disabled = True   # never a request line (nor its query)
