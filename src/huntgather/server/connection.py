"""One page's connection: the seats it holds and a bounded outbox that never holds up the game.

Nothing in the server ever waits for a client to read.  A message for a page
goes into its outbox (:meth:`Connection.push`, which never blocks); the page's
own writer task sends from there, each send bounded by a timeout.  A page that
falls behind by more than ``limit`` messages, or whose send takes longer than
``timeout`` seconds, is dropped: its socket is closed with code 4008 and the
``too_slow`` reason, and when it reconnects it resyncs from the version it has.  Its
connection is cut :data:`CUT_AFTER` seconds later (if it has not closed by then): a page that
holds its TCP window shut could otherwise keep its socket, descriptor and buffers for ever.

A message that a later one makes useless (the ``table``: who is there) is pushed with a
``latest`` key: while one of that key waits in the outbox, the newer one takes its place
instead of queueing behind it.  So a storm of watchers joining, each of whom changes the table
every page is sent, costs each page one place in its outbox, and never drops a player.

The timeout is kept by one watcher per event loop (:class:`_Watcher`), which
looks at the sends in flight every :data:`SWEEP_PERIOD` seconds, rather than
by a timer per message (``asyncio.timeout``: a heap entry made and cancelled
for each of the thousands of messages a second a busy server sends).  A send
is thus stopped between ``timeout`` and ``timeout + SWEEP_PERIOD`` seconds.

A page is also looked at every few seconds (:meth:`Connection.keep_alive`), sent a ping
unless the talk both ways already shows it alive, and closed with code 4009 (``silent``) once
it has said nothing for longer than its deadline: a page whose network went away without a
word, whose seats must show offline to the others.  That is one timer per page, set again at
each look; hearing a message, or pushing one, only notes the time.

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
import weakref
from collections.abc import Awaitable, Callable

from huntgather.server.messages import CloseCode

log = logging.getLogger("huntgather.server")

#: websocket close codes of our own (4000-4999 are for applications), declared in
#: :class:`~huntgather.server.messages.CloseCode`
CLOSE_TOO_SLOW = CloseCode.TOO_SLOW
CLOSE_SILENT = CloseCode.SILENT
CLOSE_BAD_SECRET = CloseCode.BAD_ORIGIN
CLOSE_GONE = CloseCode.GONE
CLOSE_RESTART = CloseCode.RESTART

#: seconds between two looks of a :class:`_Watcher` at the sends in flight
SWEEP_PERIOD = 0.25
#: seconds a page dropped (``too_slow``) or gone ``silent`` has to take its close before its
#: connection is cut (so that a peer that never reads holds nothing of the server's)
CUT_AFTER = 2.0

#: a page's budget of costly intents (:class:`Budget`), by default: this many a second, and four
#: seconds' worth at once
BUDGET_RATE = 5.0
BUDGET_BURST = 20

_STOP = object()


class _Latest:
    """A place in an outbox that the newest message of its key takes (see :meth:`Connection.push`)."""

    __slots__ = ("key", "text")

    def __init__(self, key: str, text: str) -> None:
        self.key, self.text = key, text


class _Watcher:
    """The sends in flight on one event loop, and the timer that stops those past their deadline."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        #: connection → the loop time by which its send in flight must be done
        self.sending: dict[Connection, float] = {}
        self._timer: asyncio.TimerHandle | None = None

    def watch(self, conn: Connection, deadline: float) -> None:
        self.sending[conn] = deadline
        if self._timer is None:
            self._timer = self.loop.call_later(SWEEP_PERIOD, self._sweep)

    def _sweep(self) -> None:
        self._timer = None
        now = self.loop.time()
        late = [conn for conn, deadline in self.sending.items() if deadline <= now]
        for conn in late:
            del self.sending[conn]
            conn._overdue()
        if self.sending:
            self._timer = self.loop.call_later(SWEEP_PERIOD, self._sweep)


_watchers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Watcher] = weakref.WeakKeyDictionary()


def _watcher(loop: asyncio.AbstractEventLoop) -> _Watcher:
    watcher = _watchers.get(loop)
    if watcher is None:
        watcher = _watchers[loop] = _Watcher(loop)
    return watcher


class Budget:
    """A page's budget of costly intents: a bucket of ``burst`` tokens, refilled at ``rate`` a
    second; each costly intent takes one, and one that finds none is refused (``too_fast``).

    >>> b = Budget(burst=2, rate=1.0)
    >>> [b.take(now=0.0) for _ in range(3)], b.take(now=1.0), b.take(now=1.0)
    ([True, True, False], True, False)
    """

    def __init__(self, burst: int = BUDGET_BURST, rate: float = BUDGET_RATE) -> None:
        self.burst, self.rate = burst, rate
        self._tokens = float(burst)
        self._at: float | None = None

    def take(self, now: float) -> bool:
        """Take a token at time ``now`` (seconds); False when none is left."""
        if self._at is not None:
            self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True


class Connection:
    """A page connected to a game: its seats, its role, and its outbox."""

    def __init__(self, send: Callable[[str], Awaitable[None]], close: Callable[[int, str], Awaitable[None]],
                 *, limit: int = 64, timeout: float = 5.0, cut: Callable[[], None] | None = None) -> None:
        self._send = send
        self._close = close
        #: cuts the connection at once, without a close (see :data:`CUT_AFTER`)
        self._cut = cut
        self._queue: asyncio.Queue[object] = asyncio.Queue(maxsize=limit + 1)   # +1: room for the stop mark
        #: the messages waiting in the outbox that a newer one of their key replaces
        self._latest: dict[str, _Latest] = {}
        self._limit = limit
        self.timeout = timeout
        #: the seats this page holds (by their secrets)
        self.held: set[int] = set()
        #: whether this page holds the creator's secret
        self.creator = False
        #: the signed-in account of the page (its session cookie, read when the socket opened)
        self.account_id: int | None = None
        self.account_name: str | None = None
        #: the seats this page holds by its account only (no secret of theirs given)
        self.by_account: set[int] = set()
        #: the secret the page gave for each seat it holds by a secret, and the creator's secret
        #: (kept in memory only: a rematch's secrets are derived from them,
        #: :func:`~huntgather.server.seats.rematch_secret`)
        self.secrets: dict[int, str] = {}
        self.creator_secret: str | None = None
        #: set once hello has been answered
        self.ready = False
        #: who the page is, for sharing the hints fairly (:mod:`huntgather.server.hint_pool`): its
        #: client's address (set by the websocket route)
        self.visitor = "?"
        #: the page's budget of costly intents (:class:`Budget`; None: no limit)
        self.budget: Budget | None = Budget()
        self.dropped = False
        self._closing = False
        self._close_with: tuple[int, str] | None = None
        self._task: asyncio.Task[None] | None = None
        self._timed_out = False
        #: the loop time of the page's last message (see :meth:`keep_alive`)
        self.heard_at = 0.0
        #: the seconds between two pings (:meth:`keep_alive`), None while none are sent
        self.heartbeat: float | None = None
        self._beat: asyncio.TimerHandle | None = None
        #: the loop of :meth:`keep_alive`, and its time when a message was last pushed
        self._loop: asyncio.AbstractEventLoop | None = None
        self.told_at = 0.0

    @property
    def watcher(self) -> bool:
        return not self.held

    def forget_account(self) -> None:
        """The page's account is gone (deleted): it keeps only the seats of its secrets."""
        self.held -= self.by_account
        self.by_account = set()
        self.account_id = self.account_name = None

    def push(self, text: str, latest: str | None = None) -> None:
        """Queue ``text`` for the page without waiting; drop the page if it has fallen too far behind.

        With ``latest``, ``text`` supersedes the message of that key still waiting in the outbox
        (it takes that one's place, and the outbox grows by nothing)."""
        if self._closing:
            return
        if self._loop is not None:
            self.told_at = self._loop.time()
        if latest is not None:
            waiting = self._latest.get(latest)
            if waiting is not None:
                waiting.text = text
                return
        if self._queue.qsize() >= self._limit:
            log.info("dropping a page that does not read its messages")
            self.dropped = True
            self.finish()
            return
        if latest is None:
            self._queue.put_nowait(text)
        else:
            place = self._latest[latest] = _Latest(latest, text)
            self._queue.put_nowait(place)

    def keep_alive(self, interval: float, silent_after: float, ping: str) -> None:
        """Look at the page every ``interval`` seconds: close the socket (code 4009, ``silent``)
        once the page has said nothing for ``silent_after`` seconds (:meth:`heard` tells of its
        messages), else push ``ping`` unless the page has spoken since the last look and was
        pushed a message in the last ``interval / 2`` seconds (a page in a game that moves is
        alive both ways: at a turn a second, pings and pongs were 0.8 of its 5.2 messages a
        turn).  So the page is sent something at least every ``1.5 * interval`` seconds, and
        answers a ping whenever it has said nothing for an interval.  One timer per page, set
        again at each look: a message costs no timer."""
        loop = self._loop = asyncio.get_running_loop()
        looked = self.heard_at = self.told_at = loop.time()
        self.heartbeat = interval

        def beat() -> None:
            nonlocal looked
            self._beat = None
            if self._closing:
                return
            now = loop.time()
            if now - self.heard_at >= silent_after:
                log.info("closing a page that has said nothing for %.0f s", silent_after)
                self.finish(CLOSE_SILENT, "silent")
                return
            if self.heard_at <= looked or now - self.told_at >= interval / 2:
                self.push(ping)
            looked = now
            self._beat = loop.call_later(interval, beat)

        self._beat = loop.call_later(interval, beat)

    def heard(self, now: float) -> None:
        """The page sent a message at loop time ``now``: it is alive."""
        self.heard_at = now

    def finish(self, code: int | None = None, reason: str = "") -> None:
        """Stop the writer after what is queued (or at once, for a dropped page); then close the
        socket with ``code``, if given."""
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None
        if code is not None and self._close_with is None:
            self._close_with = (code, reason)
        if not self._closing:
            self._closing = True
            self._queue.put_nowait(_STOP)

    def _overdue(self) -> None:
        """From the watcher: the send in flight has taken longer than ``timeout``; stop it."""
        if self._task is not None and not self._task.done():
            self._timed_out = True
            self._task.cancel()

    async def run(self) -> None:
        """Send queued messages until :meth:`finish`; close the socket if the page is too slow."""
        loop = asyncio.get_running_loop()
        watcher = _watcher(loop)
        self._task = asyncio.current_task()
        try:
            while True:
                item = await self._queue.get()
                if item is _STOP or self.dropped:
                    break
                if isinstance(item, _Latest):
                    del self._latest[item.key]   # from now on a newer one queues anew
                    item = item.text
                assert isinstance(item, str)
                watcher.watch(self, loop.time() + self.timeout)
                try:
                    await self._send(item)
                finally:
                    watcher.sending.pop(self, None)
        except asyncio.CancelledError:
            if not self._timed_out:
                raise   # the server stops this writer: not the page's fault
            if self._task is not None:
                self._task.uncancel()
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
            # a page that does not read may never take the close, nor let the socket close: cut it
            if close[0] in (CLOSE_TOO_SLOW, CLOSE_SILENT) and self._cut is not None:
                loop.call_later(CUT_AFTER, self._cut)
