"""Shedding load before the games in progress slow down.

One process's work is its event loop's: every acknowledgement of every game waits its turn
there.  :class:`LoopLag` measures how late the loop wakes a timer (a few times a second): a
loop with time to spare wakes it on time, an overloaded one late, and the acknowledgements
are late by as much.  While the smoothed lag is above ``shed_after`` seconds the process is
*overloaded*, until it falls below half of that again.  Meanwhile :class:`ShedLoad` refuses
what would add work — a new game (``POST /api/games``) and a new websocket — with HTTP 503
and an ``error`` of code ``busy`` and a ``Retry-After``; the pages already connected play on,
and every other request is served.  Behind a proxy with several processes, the refused page
reconnects (to another process, or here a moment later).

>>> lag = LoopLag(shed_after=0.1)
>>> for _ in range(10): lag.observe(0.5)
>>> lag.overloaded, round(lag.smoothed, 2) > 0.1
(True, True)
>>> for _ in range(30): lag.observe(0.0)
>>> lag.overloaded
False
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from huntgather.server.messages import ErrorCode
from huntgather.server.metrics import Tally

log = logging.getLogger("huntgather.server")

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[MutableMapping[str, Any], Receive, Send], Awaitable[None]]

#: the smoothed loop lag (seconds) past which a process sheds load, by default
SHED_AFTER = 0.1
#: seconds between two looks at the loop
PERIOD = 0.1
#: the weight of the newest look in the smoothed lag
WEIGHT = 0.2


class LoopLag:
    """How late the event loop runs (smoothed), and whether that is too late."""

    def __init__(self, shed_after: float = SHED_AFTER, tally: Tally | None = None) -> None:
        self.shed_after = shed_after
        self.smoothed = 0.0
        self.overloaded = False
        #: the server's counts: the smoothed lag and the requests refused, for the metrics
        self.tally = tally or Tally()

    def observe(self, lag: float) -> None:
        """One look: the loop woke a timer ``lag`` seconds late."""
        self.smoothed += WEIGHT * (max(0.0, lag) - self.smoothed)
        self.tally.loop_lag = self.smoothed
        if self.shed_after <= 0:   # never shed: the lag is only measured (for the metrics)
            return
        if not self.overloaded and self.smoothed > self.shed_after:
            self.overloaded = True
            log.warning("overloaded: the event loop runs %.0f ms late; new games and connections are "
                        "refused until it catches up", self.smoothed * 1000)
        elif self.overloaded and self.smoothed < self.shed_after / 2:
            self.overloaded = False
            log.warning("no longer overloaded (the event loop runs %.0f ms late)", self.smoothed * 1000)

    async def watch(self) -> None:
        """Look at the loop every :data:`PERIOD` seconds, for ever (a task of the server's)."""
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(PERIOD)
            self.observe(loop.time() - start - PERIOD)


class ShedLoad:
    """ASGI middleware: while ``lag`` says overloaded, refuse new games and new websockets (503
    ``busy``); everything else passes."""

    _BODY = json.dumps({"type": "error", "code": ErrorCode.BUSY,
                        "message": "the server is overloaded right now, so it takes no new game or "
                                   "connection; try again in a few seconds"}).encode()
    _HEADERS = ((b"content-type", b"application/json"), (b"retry-after", b"5"),
                (b"cache-control", b"no-store"), (b"content-length", str(len(_BODY)).encode()))

    def __init__(self, app: ASGIApp, lag: LoopLag) -> None:
        self.app, self.lag = app, lag

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if self.lag.overloaded and self._adds_work(scope):
            self.lag.tally.shed += 1
            if scope["type"] == "http":
                await send({"type": "http.response.start", "status": 503, "headers": list(self._HEADERS)})
                await send({"type": "http.response.body", "body": self._BODY})
                return
            await receive()   # the request to upgrade
            if "websocket.http.response" in scope.get("extensions", {}):
                await send({"type": "websocket.http.response.start", "status": 503,
                            "headers": list(self._HEADERS)})
                await send({"type": "websocket.http.response.body", "body": self._BODY})
            else:
                await send({"type": "websocket.close", "code": 1013, "reason": str(ErrorCode.BUSY)})
            return
        await self.app(scope, receive, send)

    @staticmethod
    def _adds_work(scope: MutableMapping[str, Any]) -> bool:
        if scope["type"] == "websocket":
            return True
        return scope["type"] == "http" and scope.get("method") == "POST" and scope.get("path") == "/api/games"
