"""The post-game review on the server: POST/GET /api/games/{id}/review, computed in the
background once, stored, taken up again after a restart; hostile requests.  Tiny budgets
(4 simulations, 1 sample a turn) and short games; the review lane runs on threads."""

from __future__ import annotations

import os
import time
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

with warnings.catch_warnings():   # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from huntgather.bots.review import review_record
from huntgather.record import write_record
from huntgather.server import create_app
from huntgather.server.rooms import GameSetup, restore_game
from huntgather.server.storage import Storage, reviews

POSTGRES = os.environ.get("HUNTGATHER_TEST_POSTGRES")
BOTS = {"seats": [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "easy"}], "short": 3,
        "seed": 5, "unwatched": True}   # played to its end with no page open
PEOPLE = {"seats": [{"kind": "human"}, {"kind": "human"}], "short": 6}


def database(tmp_path: Path, kind: str) -> str:
    """A database of its own: a SQLite file, or a fresh PostgreSQL database (the shared one may
    be at another schema)."""
    if kind == "sqlite":
        return str(tmp_path / "games.sqlite")
    from sqlalchemy import create_engine, text
    assert POSTGRES is not None
    name = f"hg_review_{uuid.uuid4().hex[:10]}"
    engine = create_engine(POSTGRES.replace("postgresql://", "postgresql+psycopg://", 1),
                           isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return POSTGRES.rsplit("/", 1)[0] + "/" + name


def app(db: str) -> Any:
    return create_app(db, bot_delay=0.0, worker_processes=False, review_simulations=4, review_samples=1)


def until(check: Any, what: str, patience: float = 60.0) -> Any:
    deadline = time.monotonic() + patience
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"waited too long for {what}"
        time.sleep(0.05)


def finished_game(client: TestClient) -> str:
    r = client.post("/api/games", json=BOTS)
    assert r.status_code == 201, r.text
    gid: str = r.json()["id"]
    until(lambda: client.get(f"/api/games/{gid}").json()["over"], "the bots to finish")
    return gid


def record_of(db: str, gid: str) -> str:
    storage = Storage(db)
    try:
        stored = storage.load(gid)
        assert stored is not None
        return write_record(restore_game(GameSetup.from_json(stored.setup, stored=True), stored.history))
    finally:
        storage.close()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL to test PostgreSQL"))])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    url = database(tmp_path, request.param)
    yield url
    if request.param == "postgresql":
        from sqlalchemy import create_engine, text
        assert POSTGRES is not None
        engine = create_engine(POSTGRES.replace("postgresql://", "postgresql+psycopg://", 1),
                               isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)"))
        engine.dispose()


def test_a_finished_games_review_is_computed_once_stored_and_kept(db: str) -> None:
    with TestClient(app(db)) as client:
        gid = finished_game(client)
        assert client.get(f"/api/games/{gid}/review").json() == {"status": "none", "progress": None,
                                                                  "review": None}
        asked = client.post(f"/api/games/{gid}/review")
        assert asked.status_code in (200, 202) and asked.json()["status"] in ("queued", "running", "done")
        assert asked.json()["progress"]["total"] >= 3
        done = until(lambda: (a := client.get(f"/api/games/{gid}/review").json())["status"] == "done" and a,
                     "the review")
        # the same numbers as the review of the game's record, computed here
        assert done["review"] == review_record(record_of(db, gid), simulations=4, samples=1).as_dict()
        assert done["progress"]["done"] == done["progress"]["total"] == len(done["review"]["turns"])
        again = client.post(f"/api/games/{gid}/review")   # idempotent: not computed again
        assert again.status_code == 200 and again.json() == done
        reviewer = client.app.state.context.reviews  # type: ignore[attr-defined]
        assert reviewer.computed == 1
    with TestClient(app(db)) as client:   # a restart: stored, not recomputed
        assert client.post(f"/api/games/{gid}/review").json() == done
        assert client.app.state.context.reviews.computed == 0  # type: ignore[attr-defined]


def test_a_review_under_way_when_its_process_died_is_taken_up_after_a_restart(tmp_path: Path) -> None:
    db = database(tmp_path, "sqlite")
    with TestClient(app(db)) as client:
        gid = finished_game(client)
    storage = Storage(db)   # as a process that claimed it and died left it
    with storage.engine.begin() as conn:
        from huntgather.server.reviews import LEVEL
        conn.execute(reviews.insert().values(game_id=gid, level=LEVEL, status="running", done=0, total=3,
                                             partial="[]", review=None, requested=1.0, owner="dead",
                                             heartbeat=1.0))
    storage.close()
    with TestClient(app(db)) as client:
        done = until(lambda: (a := client.get(f"/api/games/{gid}/review").json())["status"] == "done" and a,
                     "the review to be taken up")
        assert done["review"]["turns"] and client.app.state.context.reviews.computed == 1  # type: ignore[attr-defined]
    with Storage(db).engine.connect() as conn:
        row = conn.execute(reviews.select().where(reviews.c.game_id == gid)).one()
    assert row.owner != "dead" and row.partial is None


def test_two_processes_on_one_database_compute_a_queued_review_once(tmp_path: Path) -> None:
    from huntgather.server.reviews import LEVEL
    db = database(tmp_path, "sqlite")
    with TestClient(app(db)) as client:
        gid = finished_game(client)
    storage = Storage(db)   # asked for, and no process has started on it yet
    with storage.engine.begin() as conn:
        conn.execute(reviews.insert().values(game_id=gid, level=LEVEL, status="queued", done=0, total=3,
                                             partial="[]", review=None, requested=1.0, owner=None,
                                             heartbeat=None))
    storage.close()
    with TestClient(app(db)) as one, TestClient(app(db)) as two:   # both look for work at start
        until(lambda: one.get(f"/api/games/{gid}/review").json()["status"] == "done", "the review")
        counts = [c.app.state.context.reviews.computed for c in (one, two)]  # type: ignore[attr-defined]
    assert sorted(counts) == [0, 1]


def test_hostile_and_early_requests_are_refused(tmp_path: Path) -> None:
    with TestClient(app(database(tmp_path, "sqlite"))) as client:
        r = client.post("/api/games", json=PEOPLE)
        gid = r.json()["id"]
        early = client.post(f"/api/games/{gid}/review")
        assert (early.status_code, early.json()["code"]) == (409, "game_not_over")
        assert client.get(f"/api/games/{gid}/review").json()["status"] == "none"
        for bad in ("nosuchgame", "a" * 300, "x%27%3B%20DROP%20TABLE%20hg_games", "%00"):
            for answer in (client.post(f"/api/games/{bad}/review"), client.get(f"/api/games/{bad}/review")):
                assert answer.status_code == 404 and answer.json()["code"] == "unknown_game", bad
        assert client.get("/api/games/..%2F..%2Fetc/review").status_code == 404
        crossed = client.post(f"/api/games/{gid}/review", headers={"Origin": "https://evil.example"})
        assert crossed.status_code == 403 and crossed.json()["code"] == "cross_site"
        codes = [client.post(f"/api/games/{gid}/review").status_code for _ in range(25)]
        assert codes[-1] == 429 and set(codes) <= {409, 429}
        limited = client.post(f"/api/games/{gid}/review").json()
        assert limited["code"] == "too_many_reviews"
