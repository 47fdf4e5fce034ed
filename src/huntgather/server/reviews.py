"""Post-game reviews on the server: asked for once a game is over, computed in the background
at the lowest priority, stored once (docs/review.md, docs/protocol.md).

``POST /api/games/{id}/review`` asks for the review of a finished game (anyone who may see the
game; asking again changes nothing), ``GET /api/games/{id}/review`` answers its state:
``{"status": "none"|"queued"|"running"|"done"|"failed", "progress": {"done", "total"},
"review": {...}|null}``.

A request is a row of ``hg_reviews`` (schema 0009).  Each process runs :class:`Reviews`: a
loop that claims queued rows (an ``UPDATE`` that only one process wins: the claim), at most
:attr:`Workers <huntgather.server.workers.Workers>`' review lane size at once, and searches
:data:`BATCH` turns at a time in the ``reviews`` lane (its own worker processes at ``nice``
19: a review never takes a bot's worker, and the system gives it only CPU to spare).  After
each batch the row gets the progress, the turns searched so far and a heartbeat; a restarted
server (or another process, once the owner has been silent for :data:`STALE` seconds) goes on
from the turns already searched.  The review's numbers do not depend on where or in how many
batches it was computed (:func:`huntgather.bots.review.search_turns`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import time
from dataclasses import asdict
from typing import Any

from sqlalchemy import insert, or_, select, update
from sqlalchemy.engine import Connection

from huntgather.bots.review import (
    SAMPLES,
    SIMULATIONS,
    RecordFacts,
    TurnSearch,
    assemble,
    record_facts,
    search_turns,
)
from huntgather.record import write_record
from huntgather.server.rooms import Rooms
from huntgather.server.storage import reviews
from huntgather.server.workers import Priority

log = logging.getLogger("huntgather.server")

#: turns searched per call to a review worker (the progress moves on after each)
BATCH = 4
#: a running review whose owner has not said anything for this many seconds is taken up by
#: another process (or the same one, restarted)
STALE = 120.0
#: how often each process looks for reviews to take up (besides when one is asked for)
POLL = 30.0
#: the level that reviews (the only one, for now)
LEVEL = "expert"


def _turn_from(data: dict[str, Any]) -> TurnSearch:
    return TurnSearch(int(data["turn"]), int(data["ply"]), int(data["decision"]), int(data["player"]),
                      tuple(data["played"]), tuple(data["best"]), data["chance_played"],
                      data["chance_best"], tuple(data["predicted_played"]), tuple(data["predicted_best"]))


# --------------------------------------------------------------------------- rows (writer thread)


def _ask(conn: Connection, game_id: str, level: str, total: int, now: float) -> None:
    row = conn.execute(select(reviews.c.status).where(reviews.c.game_id == game_id)).first()
    if row is None:
        conn.execute(insert(reviews).values(game_id=game_id, level=level, status="queued", done=0,
                                            total=total, partial="[]", review=None, requested=now,
                                            owner=None, heartbeat=None))
    elif row.status == "failed":   # asked again: another try
        conn.execute(update(reviews).where(reviews.c.game_id == game_id)
                     .values(status="queued", owner=None, heartbeat=None, requested=now))


# The reads below go through the storage's writer thread too (Storage.write), as the lobby's do:
# an in-memory database has one connection, which two threads must never use at once.

def _row(conn: Connection, game_id: str) -> Any:
    """A review's row (status, progress, the review), or None."""
    return conn.execute(select(reviews.c.status, reviews.c.done, reviews.c.total, reviews.c.review)
                        .where(reviews.c.game_id == game_id)).first()


def _waiting(conn: Connection, now: float) -> list[str]:
    """Reviews any process could take up now, oldest first."""
    return list(conn.execute(select(reviews.c.game_id).where(
        or_(reviews.c.status == "queued",
            (reviews.c.status == "running") & (reviews.c.heartbeat < now - STALE)))
        .order_by(reviews.c.requested).limit(50)).scalars())


def _partial(conn: Connection, game_id: str) -> list[dict[str, Any]]:
    """The turns of a review searched so far."""
    partial = conn.execute(select(reviews.c.partial).where(reviews.c.game_id == game_id)).scalar()
    loaded: list[dict[str, Any]] = json.loads(partial or "[]")
    return loaded


def _claim(conn: Connection, game_id: str, owner: str, now: float) -> bool:
    """Make ``owner`` the one process computing the review; False if another has it."""
    taken = conn.execute(update(reviews).where(
        reviews.c.game_id == game_id,
        or_(reviews.c.status == "queued",
            (reviews.c.status == "running") & (reviews.c.heartbeat < now - STALE)))
        .values(status="running", owner=owner, heartbeat=now)).rowcount
    return bool(taken)


def _progress(conn: Connection, game_id: str, owner: str, done: int, partial: str, now: float) -> bool:
    """Store the turns searched so far; False if the claim was lost (or the game deleted)."""
    return bool(conn.execute(update(reviews).where(reviews.c.game_id == game_id,
                                                   reviews.c.owner == owner,
                                                   reviews.c.status == "running")
                             .values(done=done, partial=partial, heartbeat=now)).rowcount)


def _finish(conn: Connection, game_id: str, owner: str, status: str, review: str | None) -> bool:
    return bool(conn.execute(update(reviews).where(reviews.c.game_id == game_id,
                                                   reviews.c.owner == owner,
                                                   reviews.c.status == "running")
                             .values(status=status, review=review, partial=None,
                                     heartbeat=time.time())).rowcount)


def _release(conn: Connection, owner: str) -> None:
    conn.execute(update(reviews).where(reviews.c.owner == owner, reviews.c.status == "running")
                 .values(status="queued", owner=None, heartbeat=None))


# --------------------------------------------------------------------------- the service


class Reviews:
    """One process's part of the reviews: requests, answers and the background loop."""

    def __init__(self, rooms: Rooms, *, simulations: int = SIMULATIONS, samples: int = SAMPLES) -> None:
        self.rooms = rooms
        self.storage, self.workers = rooms.storage, rooms.workers
        self.simulations, self.samples = simulations, samples
        #: this process's name in the claims
        self.owner = secrets.token_hex(8)
        #: reviews computed by this process (what tests count)
        self.computed = 0
        self._wake = asyncio.Event()
        self._running: dict[str, asyncio.Task[None]] = {}
        self._loop: asyncio.Task[None] | None = None

    @property
    def size(self) -> int:
        """At most this many reviews at once in this process (the review lane's workers)."""
        return self.workers.size("reviews")

    def start(self) -> None:
        """Run the background loop in the running event loop (again, if an earlier one is gone:
        a test's app is started more than once)."""
        loop = asyncio.get_running_loop()
        if self._loop is None or self._loop.done() or self._loop.get_loop() is not loop:
            self._wake = asyncio.Event()
            self._loop = loop.create_task(self._run())

    async def close(self) -> None:
        """Stop: the reviews this process was computing go back to the queue (their turns
        searched so far kept), for the next process or the restarted one."""
        tasks = [t for t in (self._loop, *self._running.values()) if t is not None]
        for task in tasks:
            task.cancel()
        here = asyncio.get_running_loop()
        await asyncio.gather(*(t for t in tasks if t.get_loop() is here), return_exceptions=True)
        self._loop = None
        if self._running:
            self._running.clear()
            try:
                await self.storage.write(_release, self.owner)
            except Exception as exc:   # then they are taken up once their claim is stale
                log.warning("giving the reviews under way back failed: %s", type(exc).__name__)

    async def ask(self, game_id: str, record: str) -> dict[str, Any]:
        """Ask for the review of a finished game whose record is ``record`` (nothing if it is
        asked already); its state (:meth:`state`)."""
        facts = await asyncio.to_thread(record_facts, record)
        await self.storage.write(_ask, game_id, LEVEL, facts.turns, time.time())
        self._wake.set()
        return await self.state(game_id)

    async def state(self, game_id: str) -> dict[str, Any]:
        """``{"status", "progress": {"done", "total"}, "review"}`` of a game's review (status
        ``none`` if it was never asked for)."""
        row = await self.storage.write(_row, game_id)
        if row is None:
            return {"status": "none", "progress": None, "review": None}
        return {"status": row.status, "progress": {"done": row.done, "total": row.total},
                "review": json.loads(row.review) if row.status == "done" and row.review else None}


    async def _run(self) -> None:
        # an in-memory database is this process's alone and new: nothing waits there before a
        # request wakes the loop (and its one connection is left to the requests meanwhile)
        look = not self.storage.in_memory
        while True:
            try:
                if look and len(self._running) < self.size:
                    for game_id in await self.storage.write(_waiting, time.time()):
                        if len(self._running) >= self.size:
                            break
                        if game_id in self._running:
                            continue
                        if await self.storage.write(_claim, game_id, self.owner, time.time()):
                            task = asyncio.get_running_loop().create_task(self._compute(game_id))
                            self._running[game_id] = task
                            task.add_done_callback(functools.partial(self._done, game_id))
            except asyncio.CancelledError:
                raise
            except Exception as exc:   # the database is away a moment: try again later
                log.warning("looking for reviews to compute failed: %s", type(exc).__name__)
            self._wake.clear()
            try:
                async with asyncio.timeout(POLL):
                    await self._wake.wait()
                look = True
            except TimeoutError:
                look = not self.storage.in_memory

    def _done(self, game_id: str, _task: asyncio.Task[None]) -> None:
        self._running.pop(game_id, None)
        self._wake.set()   # room for the next one

    async def _compute(self, game_id: str) -> None:
        try:
            room = await self.rooms.get(game_id)
            if not room.game.is_over:
                raise ValueError("the game is not over")
            record = write_record(room.game, comments=False)
            partial = await self.storage.write(_partial, game_id)
            facts: RecordFacts = await asyncio.to_thread(record_facts, record)
            searched = [_turn_from(t) for t in partial]
            while len(searched) < facts.turns:
                more = await self.workers.run("reviews", search_turns, record, LEVEL, self.simulations,
                                              self.samples, len(searched), BATCH,
                                              priority=Priority.BOTS_ONLY)
                searched += more
                still = await self.storage.write(_progress, game_id, self.owner, len(searched),
                                                 json.dumps([asdict(t) for t in searched]), time.time())
                if not still:
                    log.info("review of %s: the claim was lost (or the game deleted)", game_id)
                    return
            review = assemble(facts, searched, LEVEL, self.simulations, self.samples)
            await self.storage.write(_finish, game_id, self.owner, "done", json.dumps(review.as_dict()))
            self.computed += 1
            log.info("review of %s done (%d turns)", game_id, facts.turns)
        except asyncio.CancelledError:
            raise   # the process stops: the row stays running, and is taken up once stale
        except Exception as exc:
            log.error("review of %s failed: %s", game_id, type(exc).__name__)
            # (the database away: the claim goes stale, and the review is taken up again)
            with contextlib.suppress(Exception):
                await self.storage.write(_finish, game_id, self.owner, "failed", None)

