"""The hint searches of one process, shared fairly between the people asking.

A hint is a search of the hard bot: costly, so a process runs at most :attr:`HintPool.limit`
at once.  Fairness is per *visitor* (a signed-in account, else a client address), not per
page: one visitor has at most one hint searched or waiting at a time, whatever the number of
pages or games they have open, so one visitor asking in a loop from many pages holds at most
one slot.  When every slot is taken, a request waits its turn (first asked, first served) for
up to :attr:`HintPool.wait` seconds before it is answered ``busy``; at most
:attr:`HintPool.queue` wait at once.

>>> import asyncio
>>> async def demo():
...     pool = HintPool(limit=1, wait=5.0)
...     order = []
...     async def ask(who, seconds):
...         async with pool.slot(who):
...             order.append(who)
...             await asyncio.sleep(seconds)
...     await asyncio.gather(ask("ann", 0.01), ask("bob", 0.0), ask("cy", 0.0))
...     return order, pool.running
>>> asyncio.run(demo())
(['ann', 'bob', 'cy'], 0)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator

from huntgather.bots.base import Limits
from huntgather.server.messages import ErrorCode
from huntgather.server.seats import RequestError


class HintPool:
    """At most ``limit`` hint searches at once, one per visitor, the others waiting in order."""

    def __init__(self, limit: int = 2, *, wait: float = 10.0, queue: int = 32,
                 search: Limits | int | None = None) -> None:
        if limit < 1 or wait < 0 or queue < 0:
            raise ValueError("a hint pool needs at least one slot, and no negative wait or queue")
        self.limit, self.wait, self.queue = limit, wait, queue
        #: the search of a hint: the hard level by default, or an exact number of simulations
        self.search = search
        #: searches running now
        self.running = 0
        #: the visitors with a hint running or waiting
        self._visitors: set[str] = set()
        self._waiting: deque[tuple[str, asyncio.Future[None]]] = deque()

    @property
    def waiting(self) -> int:
        """Requests waiting for a slot."""
        return len(self._waiting)

    @contextlib.asynccontextmanager
    async def slot(self, visitor: str) -> AsyncIterator[None]:
        """Hold a slot for ``visitor``'s hint while the block runs; raise ``busy``
        (:class:`~huntgather.server.seats.RequestError`) when this visitor already has a hint
        searched or waiting, when the queue is full, or when no slot came within the wait."""
        if visitor in self._visitors:
            raise RequestError(ErrorCode.BUSY, "your other hint is still being searched; one at a time")
        if self.running < self.limit and not self._waiting:
            self.running += 1
        else:
            if len(self._waiting) >= self.queue or self.wait == 0:
                raise RequestError(ErrorCode.BUSY, "the hint helper is busy; try again in a moment")
            await self._wait_turn(visitor)
        self._visitors.add(visitor)
        try:
            yield
        finally:
            self._visitors.discard(visitor)
            self._release()

    async def _wait_turn(self, visitor: str) -> None:
        """Wait in the queue until :meth:`_release` hands this request a slot (then it counts in
        :attr:`running`), or raise ``busy`` after :attr:`wait` seconds."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (visitor, turn)
        self._waiting.append(entry)
        self._visitors.add(visitor)
        try:
            async with asyncio.timeout(self.wait):
                await asyncio.shield(turn)
        except TimeoutError:
            if not turn.done():   # no slot came: leave the queue
                self._waiting.remove(entry)
                self._visitors.discard(visitor)
                raise RequestError(ErrorCode.BUSY, "the hint helper is busy; try again in a moment") from None
        except BaseException:   # the page went away while waiting
            if turn.done():   # a slot was handed over meanwhile: give it on
                self._release()
            else:
                self._waiting.remove(entry)
            self._visitors.discard(visitor)
            raise

    def _release(self) -> None:
        """A slot is free: hand it to the first waiting request, or count it free."""
        while self._waiting:
            _, turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)   # the slot passes on: running stays the same
                return
        self.running -= 1
