"""One page's connection: the seats it holds and a bounded outbox that never holds up the game.

Nothing in the server ever waits for a client to read.  A message for a page
goes into its outbox (:meth:`Connection.push`, which never blocks); the page's
own writer task sends from there, each send bounded by a timeout.  A page that
falls behind by more than ``limit`` messages, or whose send takes longer than
``timeout`` seconds, is dropped: its socket is closed with code 4008 and the
``too_slow`` reason, and when it reconnects it resyncs from the version it has.

>>> import asyncio
>>> async def demo():
...     sent = []
...     async def send(text): sent.append(text)
...     async def close(code, reason): sent.append(("closed", code))
...     conn = Connection(send, close, limit=2)
...     writer = asyncio.create_task(conn.run())
...     conn.push("a"); conn.push("b")
...     await asyncio.sleep(0)
...     conn.finish(); await writer
...     return sent
>>> asyncio.run(demo())
['a', 'b']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("huntgather.server")

#: websocket close codes of our own (4000-4999 are for applications)
CLOSE_TOO_SLOW = 4008
CLOSE_BAD_SECRET = 4403
CLOSE_GONE = 4404

_STOP = object()


class Connection:
    """A page connected to a game: its seats, its role, and its outbox."""

    def __init__(self, send: Callable[[str], Awaitable[None]], close: Callable[[int, str], Awaitable[None]],
                 *, limit: int = 64, timeout: float = 5.0) -> None:
        self._send = send
        self._close = close
        self._queue: asyncio.Queue[object] = asyncio.Queue(maxsize=limit + 1)   # +1: room for the stop mark
        self._limit = limit
        self.timeout = timeout
        #: the seats this page holds (by their secrets)
        self.held: set[int] = set()
        #: whether this page holds the creator's secret
        self.creator = False
        #: set once hello has been answered
        self.ready = False
        #: a hint of this page is being searched
        self.hinting = False
        self.dropped = False
        self._closing = False
        self._close_with: tuple[int, str] | None = None

    @property
    def watcher(self) -> bool:
        return not self.held

    def push(self, text: str) -> None:
        """Queue ``text`` for the page without waiting; drop the page if it has fallen too far behind."""
        if self._closing:
            return
        if self._queue.qsize() >= self._limit:
            log.info("dropping a page that does not read its messages")
            self.dropped = True
            self.finish()
            return
        self._queue.put_nowait(text)

    def finish(self, code: int | None = None, reason: str = "") -> None:
        """Stop the writer after what is queued (or at once, for a dropped page); then close the
        socket with ``code``, if given."""
        if code is not None and self._close_with is None:
            self._close_with = (code, reason)
        if not self._closing:
            self._closing = True
            self._queue.put_nowait(_STOP)

    async def run(self) -> None:
        """Send queued messages until :meth:`finish`; close the socket if the page is too slow."""
        try:
            while True:
                item = await self._queue.get()
                if item is _STOP or self.dropped:
                    break
                assert isinstance(item, str)
                async with asyncio.timeout(self.timeout):   # no task per message, unlike wait_for
                    await self._send(item)
        except TimeoutError:
            log.info("dropping a page whose socket took over %.1f s to take a message", self.timeout)
            self.dropped = True
        except Exception:   # the socket is gone: nothing more to send, and nothing to close
            self.dropped = True
            return
        close = (CLOSE_TOO_SLOW, "too_slow") if self.dropped else self._close_with
        if close is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(1.0):
                    await self._close(*close)
