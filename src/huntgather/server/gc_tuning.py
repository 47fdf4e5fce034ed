"""Garbage-collector settings for a long-running server process.

Under load (500 games, 1,000 sockets) a server process holds some 260,000
objects the cyclic garbage collector tracks: the rooms' events and moves, and
the coroutines and frames of every open connection.  Two things made the
collector stop every game of a process for 100–300 ms every few seconds, which
was the whole of the load benchmark's p99 (docs/performance.md):

* **full collections** walk every tracked object; with CPython's default
  thresholds they ran every few seconds;
* **young collections grew**: CPython starts one when allocations minus
  deallocations pass the first threshold, but deallocations of *old* objects
  (a finished game's room, a closed socket) count too, so under churn the
  young generation kept filling with new objects, up to 200,000 of them
  (a 200 ms young collection), while the count stayed under the threshold.

:func:`tune_gc` collects once after start-up, freezes what survives (modules,
tile pictures, the application: never garbage, so never scanned again) and
raises the thresholds; :func:`collect_young_every` then runs a young
collection on a timer (every 0.1 s), so the young generation never holds
more than a tenth of a second of allocations (a few milliseconds to collect),
and full collections stay rare and short.  Reference counting frees almost
everything the server makes; the collector is needed only for cycles.

``huntgather play`` and :func:`huntgather.server.app_from_env` call
:func:`tune_gc` just before serving; the application starts the timer when
it starts serving if, and only if, the process was tuned.  Test processes
that build the application themselves keep Python's defaults.

>>> import gc
>>> before = gc.get_threshold()
>>> tune_gc()
(20000, 20, 10)
>>> gc.get_freeze_count() > 0 and tuned()
True
>>> gc.unfreeze(); gc.set_threshold(*before); untune()
>>> tuned()
False
"""

from __future__ import annotations

import asyncio
import gc

#: (objects allocated before a young collection, young collections per middle one,
#: middle collections per full one); the defaults are (700, 10, 10)
THRESHOLDS = (20_000, 20, 10)
#: seconds between the timed young collections
YOUNG_PERIOD = 0.1

_tuned = False


def tune_gc() -> tuple[int, int, int]:
    """Collect, freeze the survivors and raise the thresholds; returns the thresholds now set."""
    global _tuned
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    _tuned = True
    return THRESHOLDS


def tuned() -> bool:
    """Whether :func:`tune_gc` ran in this process."""
    return _tuned


def untune() -> None:
    """Forget :func:`tune_gc` (for tests; the thresholds are the caller's to restore)."""
    global _tuned
    _tuned = False


def collect_young_every(period: float = YOUNG_PERIOD) -> asyncio.TimerHandle:
    """From the running event loop: a young collection every ``period`` seconds, for good.

    Returns the first timer (cancelling it before it fires stops the chain).
    """
    loop = asyncio.get_running_loop()

    def tick() -> None:
        gc.collect(0)
        loop.call_later(period, tick)

    return loop.call_later(period, tick)
