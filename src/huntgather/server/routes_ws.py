"""The websocket of a game, ``/ws/{game_id}``: one reader and one writer task per page.

The reader hands each message to :func:`huntgather.server.dispatch.handle`; the writer sends
the page's outbox (:class:`~huntgather.server.connection.Connection`).
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from huntgather.server import protocol
from huntgather.server.codec import dumps
from huntgather.server.connection import CLOSE_BAD_SECRET, CLOSE_GONE, Connection
from huntgather.server.context import context_of
from huntgather.server.dispatch import handle
from huntgather.server.limits import CUT
from huntgather.server.messages import CloseCode, ErrorCode
from huntgather.server.rooms import Room
from huntgather.server.seats import RequestError

_PING = dumps(protocol.ping())


def _same_origin(ws: WebSocket, allowed: set[str]) -> bool:
    """A browser's websocket must come from a page of this server (or an allowed origin)."""
    origin = ws.headers.get("origin")
    if origin is None:   # not a browser (a bot, a test, a load generator)
        return True
    netloc = urlsplit(origin).netloc.lower()
    return netloc == ws.headers.get("host", "").lower() or netloc in allowed


async def game_socket(ws: WebSocket) -> None:
    """A page's websocket: refused from another site's page, closed for an unknown game."""
    ctx = context_of(ws)
    if not _same_origin(ws, ctx.origins):
        await ws.close(code=CLOSE_BAD_SECRET, reason="this page's origin may not play here")
        return
    await ws.accept()
    try:
        room = await ctx.rooms.get(ws.path_params["game_id"])
    except RequestError as exc:
        await ws.send_text(dumps(protocol.error(exc.code, exc.message, None, None)))
        await ws.close(code=CLOSE_GONE)
        return
    room.sockets += 1   # from now on the room stays in memory until this socket is gone
    await _serve(ws, room, ctx.heartbeat, ctx.silent_after, ctx.hello_timeout)


async def _serve(ws: WebSocket, room: Room, heartbeat: float, silent_after: float,
                 hello_timeout: float) -> None:
    """Two tasks for the life of the socket (not one per message): the reader, and the writer
    that sends the page's queue.  Whichever ends first ends both: a page that stopped reading
    is dropped by its writer even when it sends nothing more.  A socket that has not said
    ``hello`` within ``hello_timeout`` seconds is closed (``no_hello``)."""

    async def close(code: int, reason: str) -> None:
        await ws.close(code=code, reason=reason)

    conn = Connection(ws.send_text, close, cut=ws.scope.get(CUT))
    conn.keep_alive(heartbeat, silent_after, _PING)

    def no_hello() -> None:
        if not conn.ready:
            conn.finish(CloseCode.NO_HELLO, "no_hello")

    deadline = asyncio.get_running_loop().call_later(hello_timeout, no_hello)
    tasks: set[asyncio.Task[None]] = set()
    idle = asyncio.Event()   # set while the reader waits for a message (not while it handles one)
    idle.set()
    loop = asyncio.get_running_loop()
    writer = loop.create_task(conn.run())
    reader = loop.create_task(_read(ws, room, conn, tasks, idle))
    try:
        await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
        failure = reader.exception() if reader.done() and not reader.cancelled() else None
        if failure is not None:
            raise failure   # a bug: let the server log it
    finally:
        # a message being handled is finished first (its move may be stored already); the
        # reader is stopped only while it waits for the next one
        while not reader.done():
            await idle.wait()
            if idle.is_set():
                reader.cancel()
                await asyncio.wait({reader})
        deadline.cancel()
        for task in tasks:
            task.cancel()
        room.sockets -= 1
        room.detach(conn)
        conn.finish()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(conn.timeout + 2):
                await writer


async def _read(ws: WebSocket, room: Room, conn: Connection, tasks: set[asyncio.Task[None]],
                idle: asyncio.Event) -> None:
    """The page's messages, one after the other, until it goes or the game closes."""
    loop = asyncio.get_running_loop()
    with contextlib.suppress(WebSocketDisconnect):
        while not conn.dropped:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            conn.heard(loop.time())
            if message.get("bytes") is not None:
                conn.push(dumps(protocol.error(ErrorCode.BINARY_NOT_ACCEPTED, "send text frames (JSON), "
                                               "not binary ones", None, room.version)))
                continue
            idle.clear()
            try:
                await handle(room, conn, message.get("text") or "", tasks)
            finally:
                idle.set()
            if room.closed:
                return


def ws_routes() -> list[WebSocketRoute]:
    return [WebSocketRoute("/ws/{game_id}", game_socket)]
