"""Garbage-collector settings for a long-running server process.

Under load (500 games, 1,000 sockets) a server process holds some 300,000
objects the cyclic garbage collector tracks: the rooms' events and moves, and
the coroutines and frames of every open connection.  With CPython's default
thresholds (700, 10, 10) a full collection walks all of them every few seconds
and stops every game in the process for 150–320 ms, which was the whole of the
load benchmark's p99 (docs/performance.md).

:func:`tune_gc` does what CPython's documentation suggests for such servers:
it collects once after start-up, freezes what survives (modules, tile
pictures, the application — never garbage, so never scanned again) and raises
the first threshold, so that young collections are rarer and full ones, which
run only after many young ones, rarer still.  Reference counting frees almost
everything the server makes; the collector is needed only for cycles.

Called by ``huntgather play`` and :func:`huntgather.server.app_from_env`
just before serving, never by :func:`~huntgather.server.create_app`, so
test processes keep Python's defaults.

>>> import gc
>>> before = gc.get_threshold()
>>> tune_gc()
(20000, 20, 10)
>>> gc.get_freeze_count() > 0
True
>>> gc.unfreeze(); gc.set_threshold(*before)
"""

from __future__ import annotations

import gc

#: (objects allocated before a young collection, young collections per middle one,
#: middle collections per full one); the defaults are (700, 10, 10)
THRESHOLDS = (20_000, 20, 10)


def tune_gc() -> tuple[int, int, int]:
    """Collect, freeze the survivors and raise the thresholds; returns the thresholds now set."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    return THRESHOLDS
