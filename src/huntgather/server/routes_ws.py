"""The websocket of a game, ``/ws/{game_id}``: one reader and one writer task per page.

The reader hands each message to :func:`huntgather.server.dispatch.handle`; the writer sends
the page's outbox (:class:`~huntgather.server.connection.Connection`).  While the process
drains (SIGTERM, :func:`huntgather.server.app.drain`) each page is closed with 1012
(``service_restart``) once the message it is handling is answered, and a new one at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from urllib.parse import urlsplit

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from huntgather.server import protocol
from huntgather.server.accounts import Account
from huntgather.server.auth import signed_in
from huntgather.server.codec import dumps
from huntgather.server.connection import CLOSE_BAD_SECRET, CLOSE_GONE, CLOSE_RESTART, Budget, Connection
from huntgather.server.context import ServerContext, context_of
from huntgather.server.dispatch import handle
from huntgather.server.limits import CUT
from huntgather.server.messages import CloseCode, ErrorCode
from huntgather.server.rooms import Room
from huntgather.server.seats import RequestError

log = logging.getLogger("huntgather.server")
_PING = dumps(protocol.ping())
#: the reason sent with close code 1012
RESTART_REASON = "service_restart"


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
    if ctx.draining:   # the process stops: the page is to reconnect (to another one, behind a proxy)
        await ws.close(code=CLOSE_RESTART, reason=RESTART_REASON)
        return
    ctx.tally.sockets_open += 1
    try:
        try:
            room = await ctx.rooms.get(ws.path_params["game_id"])
        except RequestError as exc:
            await ws.send_text(dumps(protocol.error(exc.code, exc.message, None, None)))
            await ws.close(code=CLOSE_GONE)
            return
        room.sockets += 1   # from now on the room stays in memory until this socket is gone
        log.info("a page opened")
        try:
            account = await signed_in(ws)
        except Exception as exc:   # the page plays as a guest: its secrets still hold its seats
            log.warning("reading a page's session failed: %s", type(exc).__name__)
            account = None
        code = await _serve(ws, room, ctx, account)
        log.info("a page closed%s", f" (code {code})" if code is not None else "")
    finally:
        ctx.tally.sockets_open -= 1


async def _serve(ws: WebSocket, room: Room, ctx: ServerContext, account: Account | None = None) -> int | None:
    """Two tasks for the life of the socket (not one per message): the reader, and the writer
    that sends the page's queue.  Whichever ends first ends both: a page that stopped reading
    is dropped by its writer even when it sends nothing more.  A socket that has not said
    ``hello`` within the context's ``hello_timeout`` seconds is closed (``no_hello``).  Returns
    the code the server closed the socket with, if it did.  ``account``: the page's signed-in
    account (its ``hg_session`` cookie), whose seats its ``hello`` holds."""
    closed_with: list[int] = []

    async def close(code: int, reason: str) -> None:
        closed_with.append(code)
        await ws.close(code=code, reason=reason)

    conn = Connection(ws.send_text, close, cut=ws.scope.get(CUT))
    # hints are shared per visitor: the account when signed in, else the address
    conn.visitor = f"address:{ws.client.host}" if ws.client else "address:?"
    if account is not None:
        conn.account_id, conn.account_name = account.id, account.name
        conn.visitor = f"account:{account.id}"
    rate = ctx.costly_per_second
    conn.budget = Budget(burst=max(1, round(4 * rate)), rate=rate) if rate > 0 else None
    conn.keep_alive(ctx.heartbeat, ctx.silent_after, _PING)

    def no_hello() -> None:
        if not conn.ready:
            conn.finish(CloseCode.NO_HELLO, "no_hello")

    deadline = asyncio.get_running_loop().call_later(ctx.hello_timeout, no_hello)
    tasks: set[asyncio.Task[None]] = set()
    idle = asyncio.Event()   # set while the reader waits for a message (not while it handles one)
    idle.set()
    restart = asyncio.Event()   # set by the drain: close this page with 1012
    ctx.pages.add(restart)
    loop = asyncio.get_running_loop()
    writer = loop.create_task(conn.run())
    reader = loop.create_task(_read(ws, room, conn, tasks, idle))
    told = loop.create_task(restart.wait())
    try:
        await asyncio.wait({reader, writer, told}, return_when=asyncio.FIRST_COMPLETED)
        failure = reader.exception() if reader.done() and not reader.cancelled() else None
        if failure is not None:
            raise failure   # a bug: let the server log it
    finally:
        told.cancel()
        # a message being handled is finished first (its move may be stored already, and its
        # answer is sent before a 1012); the reader is stopped only while it waits for the next one
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
        if restart.is_set():
            conn.finish(CLOSE_RESTART, RESTART_REASON)
        else:
            conn.finish()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(conn.timeout + 2):
                await writer
        ctx.pages.discard(restart)
    return closed_with[0] if closed_with else None


async def _read(ws: WebSocket, room: Room, conn: Connection, tasks: set[asyncio.Task[None]],
                idle: asyncio.Event) -> None:
    """The page's messages, one after the other, until it goes or the game closes."""
    loop = asyncio.get_running_loop()
    with contextlib.suppress(WebSocketDisconnect):
        while not conn.dropped:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            received = loop.time()
            conn.heard(received)
            if message.get("bytes") is not None:
                conn.push(dumps(protocol.error(ErrorCode.BINARY_NOT_ACCEPTED, "send text frames (JSON), "
                                               "not binary ones", None, room.version)))
                continue
            idle.clear()
            try:
                await handle(room, conn, message.get("text") or "", tasks, received)
            finally:
                idle.set()
            if room.closed:
                return


def ws_routes() -> list[WebSocketRoute]:
    return [WebSocketRoute("/ws/{game_id}", game_socket)]
