"""Ratings with two server processes on one PostgreSQL: every rated game is rated once.

Two real ``huntgather play`` processes share the throw-away PostgreSQL that ``scripts/test.sh``
starts (``HUNTGATHER_TEST_POSTGRES``).  Finished rated games left unrated (as by a crash between
a game's last move and its rating) are there when both start, so both sweeps race for them; a
rated game open on both processes is ended by their bots, racing for its last moves.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from play_server import Page, Server

pytest.importorskip("websockets")
pytest.importorskip("openskill")

from argon2 import PasswordHasher
from sqlalchemy import func, select

from huntgather.record import write_position
from huntgather.server.account_tables import rated_games, rating_events, ratings
from huntgather.server.accounts import Accounts
from huntgather.server.ratings import rate_game, recompute
from huntgather.server.rooms import build_game
from huntgather.server.seats import GameSetup, hash_secret, new_secret
from huntgather.server.storage import SeatRow, Storage

POSTGRES = os.environ.get("HUNTGATHER_TEST_POSTGRES")
pytestmark = pytest.mark.skipif(not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL "
                                                     "(scripts/test.sh starts one when run as root)")


def person(storage: Storage) -> int:
    acc = Accounts(storage, hasher=PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1))
    return acc.create("Ann " + new_secret()[:8]).id


def finished_unrated(storage: Storage, account: int, scores: list[int]) -> str:
    """A rated game against an easy bot, over, that no process rated."""
    gid = new_secret()[:12]
    storage.create(gid, {"edition": "2020", "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
                         "start_player": 0, "seed": 0, "short": 2, "rated": True}, [],
                   [SeatRow(0, "human", None, "Ann", None, True, account),
                    SeatRow(1, "bot", "easy", None, None, True)])
    storage.append(gid, 0, [], status="over", scores=scores)
    return gid


def rated_to_play(storage: Storage, account: int) -> tuple[str, str]:
    """A new rated game, stored as the server stores one: Ann against an easy bot."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}]
    setup = GameSetup.from_json({"seats": seats, "short": 3, "rated": True})
    game = build_game(setup)
    setup = replace(setup, stack=game.initial.normal)
    gid, secret = new_secret()[:12], new_secret()
    storage.create(gid, setup.to_json(), [str(m) for m in game.history],
                   [SeatRow(0, "human", None, "Ann", hash_secret(secret), False, account),
                    SeatRow(1, "bot", "easy", None, None, False)], hash_secret(new_secret()),
                   write_position(game.state))
    return gid, secret


def wait_for(check: Callable[[], bool], what: str, patience: float = 60.0) -> None:
    deadline = time.monotonic() + patience
    while not check():
        assert time.monotonic() < deadline, f"after {patience:.0f} s: {what}"
        time.sleep(0.1)


def over(page: Page) -> Callable[[], bool]:
    return lambda: bool(page.view and page.view["over"])


def counts(storage: Storage, games: list[str]) -> dict[str, tuple[int, int]]:
    """Per game: its rows in hg_rated_games and in hg_rating_events."""
    with storage.engine.connect() as conn:
        rated: dict[str, int] = dict(conn.execute(
            select(rated_games.c.game_id, func.count()).where(rated_games.c.game_id.in_(games))
            .group_by(rated_games.c.game_id)).all())
        events: dict[str, int] = dict(conn.execute(
            select(rating_events.c.game_id, func.count()).where(rating_events.c.game_id.in_(games))
            .group_by(rating_events.c.game_id)).all())
    return {g: (int(rated.get(g, 0)), int(events.get(g, 0))) for g in games}


def test_two_processes_rate_each_game_once() -> None:
    assert POSTGRES
    storage = Storage(POSTGRES)
    try:
        ann = person(storage)
        missed = [finished_unrated(storage, ann, [10 + i, 20 - i]) for i in range(4)]
        live, secret = rated_to_play(storage, ann)
        servers = [Server(POSTGRES), Server(POSTGRES)]
        with ThreadPoolExecutor(2) as pool:   # both start at once: their sweeps race
            list(pool.map(Server.start, servers))
        try:
            async def scenario() -> None:
                a, b = servers
                ann_page = await Page.join(a, live, [secret])
                watcher = await Page.join(b, live, [])   # the game is live on both: both run its bot
                await ann_page.resign()   # Ann leaves: two bots play it out, on either process
                for page in (ann_page, watcher):
                    assert await page.wait_until(over(page), 60)
                await ann_page.close()
                await watcher.close()

            asyncio.run(scenario())
            every = [*missed, live]
            wait_for(lambda: all(n == (1, 2) for n in counts(storage, every).values()),
                     f"every game rated, once: {counts(storage, every)}")
            with storage.engine.connect() as conn:
                mine = conn.execute(select(ratings).where(ratings.c.account_id == ann)).one()
                left = conn.execute(select(rating_events.c.rank).where(rating_events.c.game_id == live,
                                                                       rating_events.c.seat == 0)).scalar()
            assert mine.games == 5 and left == 2   # Ann left the live game: last
            assert not recompute(storage, write=False).changed
            for server in servers:   # no rating failed (and was retried) on either
                assert "failed" not in server.log(), server.log()
        finally:
            for server in servers:
                server.stop()
    finally:
        storage.close()


def test_rate_game_racing_in_two_connections_rates_once() -> None:
    assert POSTGRES
    storage = Storage(POSTGRES)
    other = Storage(POSTGRES)
    try:
        ann = person(storage)
        gid = finished_unrated(storage, ann, [5, 4])
        start = threading.Barrier(2)

        def rate(st: Storage) -> bool:
            start.wait()
            return rate_game(st, gid)

        with ThreadPoolExecutor(2) as pool:
            results = list(pool.map(rate, [storage, other]))
        assert sorted(results) == [False, True]
        assert counts(storage, [gid]) == {gid: (1, 2)}
    finally:
        other.close()
        storage.close()
