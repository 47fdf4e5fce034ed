"""Bot moves and hints, searched in worker processes, in lanes that cannot starve each other.

Searches are pure Python: run in the server's own process they would compete
with the event loop for the interpreter lock and slow every acknowledgement.
So they run in worker processes (``spawn``ed: the server's threads are never
forked), in three lanes with their own workers:

* ``light``: the quick bots (random, greedy, easy), so a quick bot's reply
  never waits behind another game's hard searches;
* ``heavy``: medium and hard bots, first come first served across games (each
  game asks for one move at a time, so games take turns);
* ``hints``: searches asked for by people, rationed per page and in all by
  the rooms.

A worker that dies is replaced, and the search is retried once.  Each search
is a pure function of its arguments (a bot built from its level and a seed for
this position), so where it runs never changes its result.

>>> from huntgather import Game
>>> g = Game(2, seed=4)
>>> choose_move("greedy", 1, g.state) in g.legal_moves()
True
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from huntgather.bots import make_bot, suggest_turns
from huntgather.bots.base import Limits
from huntgather.moves import Move
from huntgather.state import State

log = logging.getLogger("huntgather.server")

LIGHT_LEVELS = frozenset({"random", "greedy", "easy"})
_T = TypeVar("_T")


def choose_move(level: str, seed: int, state: State) -> Move:
    """The move of a bot of ``level`` seeded with ``seed`` (runs in a worker)."""
    return make_bot(level, seed=seed).choose(state)


def suggest(state: State, seed: int, limit: Limits | int | None = None
            ) -> list[tuple[tuple[Move, ...], float, int]]:
    """Up to three hints from the hard bot's search (:func:`huntgather.bots.suggest_turns`)."""
    return suggest_turns(state, top=3, limit=limit, seed=seed)


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
    """The three lanes; ``processes=False`` runs them on threads instead (for a quick test)."""

    def __init__(self, bot_workers: int = 2, *, processes: bool = True) -> None:
        self.processes = processes
        self._sizes = {"light": 1, "heavy": max(1, bot_workers), "hints": 1}
        self._pools: dict[str, Executor] = {}

    def _pool(self, lane: str) -> Executor:
        pool = self._pools.get(lane)
        if pool is None:
            size = self._sizes[lane]
            if self.processes:
                pool = ProcessPoolExecutor(size, mp_context=multiprocessing.get_context("spawn"),
                                           initializer=_watch_parent, initargs=(os.getpid(),))
            else:
                pool = ThreadPoolExecutor(size, thread_name_prefix=f"hg-{lane}")
            self._pools[lane] = pool
        return pool

    @staticmethod
    def lane_of(level: str) -> str:
        return "light" if level in LIGHT_LEVELS else "heavy"

    async def run(self, lane: str, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)`` in a worker of ``lane``; a dead worker is replaced and the call tried again."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(self._pool(lane), fn, *args)
            except BrokenProcessPool:
                log.error("a %s worker died; starting a new one (attempt %d)", lane, attempt)
                broken = self._pools.pop(lane, None)
                if broken is not None:
                    broken.shutdown(wait=False, cancel_futures=True)
        raise RuntimeError(f"the {lane} workers keep dying")

    def shutdown(self) -> None:
        """Stop every worker now (a search in progress is abandoned)."""
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)
            # a search can take seconds: end the workers rather than wait for it
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.join(2)
        self._pools.clear()
