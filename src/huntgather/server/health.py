"""``GET /healthz`` and ``GET /readyz``: whether the process lives, and whether it can serve.

``/healthz`` answers 200 ``{"status": "ok"}`` as long as the process answers
HTTP at all (a supervisor restarts it otherwise).  ``/readyz`` answers 200
``{"status": "ready", "schema": "0003"}`` only when the server can really take
moves: the SQLite file is the one it opened (:mod:`.dbfile`), the database
answers a cheap query within :data:`READY_TIMEOUT` seconds, its schema is the
one this version writes, no lane of bot workers is broken, and the process is not
draining (SIGTERM: it is about to exit, :func:`huntgather.server.app.drain`); otherwise 503
with an error code and the reason in plain words (a load balancer sends no
player there meanwhile).  One check of the database runs at a time: probes
that come while one still waits are answered 503 at once, so a database that
hangs cannot tie up the server's threads.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import text
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from huntgather.server.storage import SCHEMA, Storage
from huntgather.server.workers import Workers

log = logging.getLogger("huntgather.server")

#: the seconds a readiness check waits for the database
READY_TIMEOUT = 5.0
_NO_STORE = {"Cache-Control": "no-store"}


def _not_ready(code: str, message: str) -> JSONResponse:
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=503,
                        headers=_NO_STORE)


def _schema_of(storage: Storage) -> str | None:
    """The schema revision the database holds (a cheap query that also proves it answers)."""
    with storage.engine.connect() as conn:
        value = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return None if value is None else str(value)


def broken_lanes(workers: Workers) -> list[str]:
    """The lanes whose worker pool broke (a worker process died); they are dropped, so that the next
    search starts a new pool (and the next check finds the lane usable again)."""
    broken = []
    pools: dict[str, Any] = getattr(workers, "_pools", {})
    for lane, pool in list(pools.items()):
        if getattr(pool, "_broken", False):
            broken.append(lane)
            pools.pop(lane, None)
            pool.shutdown(wait=False, cancel_futures=True)
    return broken


def health_routes(storage: Storage, workers: Workers, draining: Callable[[], bool] = lambda: False
                  ) -> list[Route]:
    """The two routes, for the application's route list (``draining()``: whether the process stops)."""
    checking: list[asyncio.Future[str | None]] = []

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"}, headers=_NO_STORE)

    async def readyz(request: Request) -> JSONResponse:
        if draining():
            return _not_ready("draining", "the server is stopping (a restart): send players elsewhere")
        lost = storage.file.problem() if storage.file is not None else None
        if lost is not None:
            return _not_ready("storage_failed", lost)
        if checking and not checking[0].done():
            return _not_ready("storage_failed", "the previous check of the database has not been answered "
                                                "yet; the database is slow or unreachable")
        checking[:] = [asyncio.ensure_future(asyncio.to_thread(_schema_of, storage))]
        checking[0].add_done_callback(lambda f: f.cancelled() or f.exception())   # retrieved, if late
        try:
            schema = await asyncio.wait_for(asyncio.shield(checking[0]), READY_TIMEOUT)
        except TimeoutError:
            return _not_ready("storage_failed",
                              f"the database did not answer within {READY_TIMEOUT:g} seconds")
        except Exception as exc:
            why = storage.file.problem() if storage.file is not None else None
            log.warning("readiness: the database cannot be queried (%s)", type(exc).__name__)
            return _not_ready("storage_failed", why or "the database cannot be reached or queried")
        if schema != SCHEMA:
            return _not_ready("schema_mismatch", f"the database's schema is {schema}, this version writes "
                                                 f"{SCHEMA}: restart the server so that it migrates it")
        broken = broken_lanes(workers)
        if broken:
            return _not_ready("workers_failed", f"the bots' worker processes died ({', '.join(broken)}); "
                                                f"new ones start with the next search")
        return JSONResponse({"status": "ready", "schema": schema}, headers=_NO_STORE)

    return [Route("/healthz", healthz), Route("/readyz", readyz)]
