"""What the routes of one server share: its storage, rooms and workers, and its settings."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from starlette.requests import HTTPConnection

from huntgather.server.metrics import Tally
from huntgather.server.reviews import Reviews
from huntgather.server.rooms import Rooms
from huntgather.server.storage import Storage
from huntgather.server.workers import Workers


class RateLimit:
    """At most ``count`` events per ``window`` seconds for each key (a client address)."""

    def __init__(self, count: int, window: float = 60.0) -> None:
        self.count, self.window = count, window
        self._seen: dict[str, deque[float]] = {}

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        if len(self._seen) > 10_000:   # forget the quiet ones, so the table stays small
            self._seen = {k: q for k, q in self._seen.items() if q and q[-1] > now - self.window}
        seen = self._seen.setdefault(key, deque())
        while seen and seen[0] <= now - self.window:
            seen.popleft()
        if len(seen) >= self.count:
            return False
        seen.append(now)
        return True


@dataclass
class ServerContext:
    """One server: what :func:`~huntgather.server.app.create_app` made, kept in ``app.state``."""

    storage: Storage
    workers: Workers
    rooms: Rooms
    #: the most games one address may create a minute
    games_per_minute: int
    #: the netlocs of other sites whose pages may open a websocket
    origins: set[str]
    heartbeat: float
    silent_after: float
    #: the seconds a socket has to say ``hello`` before it is closed (``no_hello``)
    hello_timeout: float
    #: each page's budget of costly intents a second (four seconds' worth at once; 0: no budget)
    costly_per_second: float = 5.0
    #: the most lobby seats taken and quick matches asked for a minute, per address or account
    lobby_per_minute: int = 20
    #: the post-game reviews (:mod:`huntgather.server.reviews`)
    reviews: Reviews | None = None
    #: whether ``/static/app.js`` is sent as one file with its imports where esbuild is installed
    #: (:mod:`huntgather.server.client_bundle`)
    bundle_client: bool = True
    creations: RateLimit = field(init=False)
    lobby_requests: RateLimit = field(init=False)
    #: one event per open game socket: set, it closes its page with 1012 once the message being
    #: handled is answered (:func:`huntgather.server.app.drain`)
    pages: set[asyncio.Event] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.creations = RateLimit(self.games_per_minute)
        self.lobby_requests = RateLimit(self.lobby_per_minute)

    @property
    def tally(self) -> Tally:
        """The server's counts (:mod:`huntgather.server.metrics`)."""
        return self.rooms.tally

    @property
    def draining(self) -> bool:
        """The process stops (SIGTERM): no new socket, no HTTP change, pages told to reconnect."""
        return self.rooms.tally.draining


def context_of(conn: HTTPConnection) -> ServerContext:
    """The server a request or websocket came to."""
    ctx: ServerContext = conn.app.state.context
    return ctx


_Kept = TypeVar("_Kept")


def kept_on_app(request: HTTPConnection, name: str, make: Callable[[], _Kept]) -> _Kept:
    """The object the app keeps under ``name`` for a route module (its rate limits, its cache),
    made by ``make`` when first asked for."""
    state = request.app.state
    if not hasattr(state, name):
        setattr(state, name, make())
    kept: _Kept = getattr(state, name)
    return kept
