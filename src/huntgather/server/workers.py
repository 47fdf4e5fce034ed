"""Bot moves and hints, searched in worker processes, in lanes that cannot starve each other.

Searches are pure Python: run in the server's own process they would compete
with the event loop for the interpreter lock and slow every acknowledgement.
So they run in worker processes (``spawn``ed: the server's threads are never
forked), in three lanes with their own workers:

* ``light``: the quick bots (random, greedy, easy), so a quick bot's reply
  never waits behind another game's hard searches;
* ``heavy``: medium, hard and expert bots (a level's lane is its registration's,
  :attr:`huntgather.bots.registry.BotSpec.lane`);
* ``hints``: searches asked for by people, rationed per page and in all by
  the rooms;
* ``reviews``: the post-game reviews (:mod:`huntgather.server.reviews`), their own
  processes at the lowest CPU priority the system gives (``nice`` 19 unless the server is told
  otherwise: ``--review-nice``), so that a review never takes a bot's worker and the system
  runs it only with CPU to spare.

In each lane, a search for a game a person plays in goes before the searches of games of
bots alone (:class:`Priority`).  Among equals, the searches of different creators take turns
(round-robin, :class:`LaneGate`), and each game asks for one move at a time, so the games of one
creator take turns too.  A flood of bot-only games thus never delays a person's bot opponent by
more than the searches already running, nor another creator's game of bots alone by more than
those and one search of the flood.

A worker that dies is replaced, and the search is retried once.  Each search
is a pure function of its arguments (a bot built from its level and a seed for
this position), so where it runs never changes its result, as long as it
finishes its simulation budget within its safety net: the levels themselves
have no time cap (:data:`huntgather.bots.LEVELS`), but here a search stops
after its level's :attr:`~huntgather.bots.registry.BotSpec.safety_seconds`
(hints after :data:`HINT_SAFETY_SECONDS`), so an overloaded server still
answers; only then may the move depend on the load.

>>> from huntgather import Game
>>> g = Game(2, seed=4)
>>> choose_move("greedy", 1, g.state) in g.legal_moves()
True
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from enum import IntEnum
from typing import Any, TypeVar

from huntgather.bots import EXPERT, make_bot, suggest_turns
from huntgather.bots.analysis import predict_after
from huntgather.bots.base import Bot, Limits
from huntgather.bots.registry import get_spec
from huntgather.bots.search import SearchBot
from huntgather.moves import Move
from huntgather.state import State

log = logging.getLogger("huntgather.server")

#: the server's safety net for a hint's search: it stops after this many seconds even if its budget
#: is not spent (a bot's search, after its level's safety seconds)
HINT_SAFETY_SECONDS = 12.0
_T = TypeVar("_T")


def server_bot(level: str, seed: int) -> Bot:
    """The bot of ``level`` seeded with ``seed``, with the server's time limit as a safety net.

    >>> server_bot("hard", 1).limits
    Limits(simulations=150, seconds=12.0)
    >>> server_bot("expert", 1).limits
    Limits(simulations=150, seconds=12.0)
    >>> server_bot("greedy", 1).name
    'greedy'
    """
    bot = make_bot(level, seed=seed)
    spec = get_spec(level)
    if isinstance(bot, SearchBot) and spec is not None and spec.safety_seconds is not None:
        bot.limits = Limits(bot.limits.simulations, spec.safety_seconds)
    return bot


def choose_move(level: str, seed: int, state: State) -> Move:
    """The move of a bot of ``level`` seeded with ``seed`` (runs in a worker)."""
    return server_bot(level, seed).choose(state)


def suggest(state: State, seed: int, limit: Limits | int | None = None, predict: bool = True
            ) -> list[tuple[tuple[Move, ...], float, int, list[float] | None]]:
    """Up to three hints from the expert's search (:func:`huntgather.bots.suggest_turns`), each
    with every seat's final score as the learned evaluation predicts it after that turn
    (:func:`huntgather.bots.analysis.predict_after`), or None without ``predict`` (a short
    game: the evaluation learned whole games, and would guess a short one's end wrongly).

    Without a ``limit``, the expert's budget with :data:`HINT_SAFETY_SECONDS` as a safety net.
    """
    if limit is None:
        limit = Limits(EXPERT.simulations, HINT_SAFETY_SECONDS)
    return [(plan, value, visits, predict_after(state, plan) if predict else None)
            for plan, value, visits in suggest_turns(state, top=3, limit=limit, seed=seed,
                                                     bot="expert")]


class Priority(IntEnum):
    """Which searches of a lane go first (the lower first)."""

    #: a game a person (or an outside bot) plays in: someone is waiting for the bot
    PERSON = 0
    #: a game of the server's bots alone
    BOTS_ONLY = 1


class LaneGate:
    """At most ``size`` searches of a lane at once; the others wait, by :class:`Priority`, then
    round-robin across those who asked (``who``: a game's creator), then in the order asked.

    Round-robin is fair queueing by turns: each search waiting is given a turn number, one more
    than its asker's previous search of that priority, and never less than the turn of the
    search last let in.  So an asker with many searches waiting holds turns far ahead, and one
    who asks now is let in after at most one more of theirs.  Searches asked without ``who``
    take the turn now due (first come, first served among themselves).

    >>> async def demo():
    ...     gate, order = LaneGate(1), []
    ...     async def search(name, priority, who=None):
    ...         async with gate.slot(priority, who):
    ...             order.append(name)
    ...             await asyncio.sleep(0)
    ...     await asyncio.gather(search("bots 1", Priority.BOTS_ONLY), search("bots 2", Priority.BOTS_ONLY),
    ...                          search("person", Priority.PERSON))
    ...     await asyncio.gather(*(search(f"ann {n}", Priority.BOTS_ONLY, "ann") for n in range(1, 4)),
    ...                          search("bob", Priority.BOTS_ONLY, "bob"))
    ...     return order
    >>> asyncio.run(demo())
    ['bots 1', 'person', 'bots 2', 'ann 1', 'ann 2', 'bob', 'ann 3']
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.running = 0
        self._waiting: list[tuple[int, int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        #: by priority: the turn of the search last let in
        self._due: dict[int, int] = {}
        #: by (priority, who): the turn of that asker's latest search (pruned once it is past)
        self._turns: dict[tuple[int, str], int] = {}

    def _turn(self, priority: int, who: str | None) -> int:
        due = self._due.get(priority, 0)
        if who is None:
            return due
        turn = max(due, self._turns.get((priority, who), 0)) + 1
        self._turns[(priority, who)] = turn
        return turn

    def _let_in(self, priority: int, turn: int) -> None:
        if turn > self._due.get(priority, 0):
            self._due[priority] = turn
            if len(self._turns) > 64:   # forget askers whose turns are past: they start afresh
                self._turns = {k: t for k, t in self._turns.items() if t > self._due.get(k[0], 0)}

    @contextlib.asynccontextmanager
    async def slot(self, priority: Priority, who: str | None = None) -> AsyncIterator[None]:
        turn = self._turn(int(priority), who)
        if self.running < self.size and not self._waiting:
            self.running += 1
            self._let_in(int(priority), turn)
        else:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (int(priority), turn, next(self._order), future))
            try:
                await future   # the slot is handed over by _release (running stays counted)
            except BaseException:
                if future.done() and not future.cancelled():
                    self._release()   # handed over just as the caller went: give it on
                else:
                    future.cancel()   # left in the heap, skipped by _release
                raise
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        while self._waiting:
            priority, turn, _, future = heapq.heappop(self._waiting)
            if not future.done():
                self._let_in(priority, turn)
                future.set_result(None)
                return
        self.running -= 1


#: the niceness of the review workers unless the server is told otherwise: the lowest priority
REVIEW_NICE = 19


def _start_worker(parent: int, nice: int | None) -> None:
    """In a worker: the niceness ``nice`` if one is given (the review lane's; never less than the
    server's own), then watch the server (:func:`_watch_parent`)."""
    if nice is not None:
        with contextlib.suppress(OSError, AttributeError):   # (no os.nice on Windows)
            os.nice(max(0, nice - os.nice(0)))
    _watch_parent(parent)


def _watch_parent(parent: int) -> None:
    """In a worker: exit as soon as the server process ``parent`` is gone (even after ``kill -9``).

    The server passes its own id: a worker that asked for its parent's id itself, after the
    server had already died, would be told the id of init and watch that forever.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="hg-parent-watch", daemon=True).start()


class Workers:
    """The four lanes; ``processes=False`` runs them on threads instead (for a quick test).
    ``reviews``: the review lane's workers (at most that many reviews computed at once), at the
    niceness ``review_nice`` (0 to 19)."""

    def __init__(self, bot_workers: int = 2, *, processes: bool = True, reviews: int = 1,
                 review_nice: int = REVIEW_NICE) -> None:
        if not 0 <= review_nice <= 19:
            raise ValueError("the review workers' niceness must be from 0 to 19")
        self.processes = processes
        self.review_nice = review_nice
        self._sizes = {"light": 1, "heavy": max(1, bot_workers), "hints": 1, "reviews": max(1, reviews)}
        self._pools: dict[str, Executor] = {}
        #: the searches waiting or running in each lane (for the metrics)
        self.pending: dict[str, int] = dict.fromkeys(self._sizes, 0)
        self._gates = {lane: LaneGate(size) for lane, size in self._sizes.items()}
        #: shut down: no worker is started any more (a search asked or retried after raises)
        self.closed = False

    def _pool(self, lane: str) -> Executor:
        if self.closed:
            raise RuntimeError("the workers are shut down")
        pool = self._pools.get(lane)
        if pool is None:
            size = self._sizes[lane]
            if self.processes:
                nice = self.review_nice if lane == "reviews" else None
                pool = ProcessPoolExecutor(size, mp_context=multiprocessing.get_context("spawn"),
                                           initializer=_start_worker, initargs=(os.getpid(), nice))
            else:
                pool = ThreadPoolExecutor(size, thread_name_prefix=f"hg-{lane}")
            self._pools[lane] = pool
        return pool

    def warm(self, lane: str) -> Future[int] | None:
        """Start ``lane``'s first worker now, in the background: a worker process takes a second
        or two to start (a new interpreter importing the engine and the bots), which the first
        search in that lane would otherwise wait for.  Returns what is done once it has started
        (its pid); nothing to do on threads (None)."""
        if self.processes:
            return self._pool(lane).submit(os.getpid)
        return None

    def size(self, lane: str) -> int:
        """How many searches ``lane`` runs at once."""
        return self._sizes[lane]

    @staticmethod
    def lane_of(level: str) -> str:
        """The lane of a bot ``level``: its registration's (``heavy`` for a level without one)."""
        spec = get_spec(level)
        return spec.lane if spec is not None and spec.lane is not None else "heavy"

    async def run(self, lane: str, fn: Callable[..., _T], *args: Any,
                  priority: Priority = Priority.PERSON, who: str | None = None) -> _T:
        """``fn(*args)`` in a worker of ``lane`` once its turn comes (:class:`LaneGate`: by
        ``priority``, then round-robin across ``who``, the game's creator); a dead worker is
        replaced and the call tried again."""
        loop = asyncio.get_running_loop()
        self.pending[lane] = self.pending.get(lane, 0) + 1
        try:
            async with self._gates[lane].slot(priority, who):
                for attempt in (1, 2):
                    try:
                        return await loop.run_in_executor(self._pool(lane), fn, *args)
                    except BrokenProcessPool:
                        if self.closed:   # ended by shutdown(): no new worker for a process that stops
                            raise
                        log.error("a %s worker died; starting a new one (attempt %d)", lane, attempt)
                        broken = self._pools.pop(lane, None)
                        if broken is not None:
                            broken.shutdown(wait=False, cancel_futures=True)
                raise RuntimeError(f"the {lane} workers keep dying")
        finally:
            self.pending[lane] -= 1

    def shutdown(self) -> None:
        """Stop every worker now (a search in progress is abandoned, and none starts after)."""
        self.closed = True
        for pool in self._pools.values():
            # a search can take seconds: end the workers rather than wait for it (taken before the
            # shutdown, which forgets them: ended after it, a worker's search under way would hold
            # the process's exit, whose multiprocessing clean-up joins every child, until it ends)
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
            for process in processes:
                process.join(2)
        self._pools.clear()
