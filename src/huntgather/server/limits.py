"""How many websockets one address may hold open (refused with HTTP 429 before the upgrade), and
how the server lets go of a connection whose peer does not.

:class:`SocketLimit` is ASGI middleware around the whole application.  It counts the open
websockets of each client address (``scope["client"]``: the proxy's ``X-Forwarded-For`` where
the proxy is believed, see ``--forwarded-allow-ips``) from the moment the upgrade is asked for
until the socket's handler returns.  One more than ``limit`` is answered ``429 Too Many
Requests`` with an ``error`` of code ``too_many_sockets`` instead of the upgrade, so that one
address cannot take the process's file descriptors (1,024 by default) and every game with them.

It also puts in each websocket's scope, under :data:`CUT`, a function that cuts the connection
at once (:func:`cutter`): a page dropped for not reading (``too_slow``) may hold its TCP window
shut, and then neither its close frame nor the graceful close of the socket ever goes out, and
the server would keep its descriptor and send buffer for as long as the peer likes.  ASGI has
no word for that, so the function reaches for the server's transport (uvicorn's protocol object
behind ``send``); under a server where it cannot, there is no such function.

>>> import asyncio
>>> async def handler(scope, receive, send):
...     await receive()
>>> async def demo():
...     sent = []
...     async def send(message): sent.append(message.get("status"))
...     async def receive(): return {"type": "websocket.connect"}
...     limit = SocketLimit(handler, 1)
...     limit.open["10.0.0.1"] = 1   # one socket of this address is open already
...     scope = {"type": "websocket", "client": ("10.0.0.1", 5000),
...              "extensions": {"websocket.http.response": {}}}
...     await limit(scope, receive, send)
...     return sent
>>> asyncio.run(demo())
[429, None]
"""

from __future__ import annotations

import contextlib
import logging
import socket
import struct
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from huntgather.server.codec import dumps
from huntgather.server.messages import ErrorCode

log = logging.getLogger("huntgather.server")

#: the most websockets one address may hold open, by default (a person's tabs, a household)
MAX_SOCKETS_PER_ADDRESS = 32
#: the key in a websocket's scope of the function that cuts its connection (see :func:`cutter`)
CUT = "huntgather.cut"

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[MutableMapping[str, Any], Receive, Send], Awaitable[None]]


def cutter(send: Send) -> Callable[[], None] | None:
    """A function that resets the connection behind the ASGI ``send`` of a websocket at once
    (``SO_LINGER`` 0, then the transport aborted: no graceful close, its buffers dropped), or
    None when the server's transport cannot be reached."""
    transport: Any = getattr(getattr(send, "__self__", None), "transport", None)
    if transport is None or not callable(getattr(transport, "abort", None)):   # asyncio's, uvloop's
        return None

    def cut() -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None:   # a closed socket refuses (its descriptor is gone): nothing to reset
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        transport.abort()   # nothing when the connection is closed already

    return cut


class SocketLimit:
    """ASGI middleware: at most ``limit`` open websockets per client address (0: no limit)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        #: address -> its open websockets (an address with none is not kept)
        self.open: dict[str, int] = {}

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        cut = cutter(send)
        if cut is not None:
            scope[CUT] = cut
        if self.limit <= 0:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else ""
        count = self.open.get(address, 0)
        if count >= self.limit:
            await self._refuse(scope, receive, send)
            return
        self.open[address] = count + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.open[address] - 1
            if left:
                self.open[address] = left
            else:
                del self.open[address]

    async def _refuse(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        log.info("refusing a websocket: its address has %d open already", self.limit)
        await receive()   # the request to upgrade (websocket.connect)
        error = {"type": "error", "code": ErrorCode.TOO_MANY_SOCKETS,
                 "message": f"this address has {self.limit} game connections open, the most one address "
                            f"may have; close some (other tabs of this site) and try again"}
        if "websocket.http.response" in scope.get("extensions", {}):
            body = dumps(error).encode()
            await send({"type": "websocket.http.response.start", "status": 429,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "websocket.http.response.body", "body": body})
        else:   # a server without the extension answers 403
            await send({"type": "websocket.close", "code": 1008, "reason": str(ErrorCode.TOO_MANY_SOCKETS)})
