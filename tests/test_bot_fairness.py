"""Fair bot searches between the creators of games of bots alone, and such games resting while
nobody watches them (issue 37).  In process, the searches on threads; counted, never timed."""

from __future__ import annotations

import threading
import time
import warnings
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

with warnings.catch_warnings():   # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from app_helpers import make_app, recv, sign_up

from huntgather.client import apply_update
from huntgather.server import create_app
from huntgather.server import rooms as rooms_module
from huntgather.server.workers import Priority

ALONE = [{"kind": "bot", "level": "random"}] * 2


def create(c: TestClient, setup: dict[str, Any]) -> dict[str, Any]:
    r = c.post("/api/games", json=setup)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def until(check: Any, limit: float = 30.0) -> bool:
    deadline = time.monotonic() + limit
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_a_flood_of_bot_games_from_one_creator_delays_another_creators_by_one_search_at_most(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann (a guest: her address) has ten games of random bots going, so about ten searches
    always wait in the quick bots' lane (one search at a time, each made to take 20 ms).  Bob
    (signed in: his account) has one game of greedy bots.  Each time Bob's game asks for a search, at most one
    of Ann's starts before it (round-robin across creators); first come, first served it would
    wait for all of Ann's waiting ones."""
    events: list[tuple[str, Any]] = []
    lock = threading.Lock()
    choose = rooms_module.choose_move

    def slow_choose(level: str, seed: int, state: Any) -> Any:   # on a worker thread
        with lock:
            events.append(("start", level))
        time.sleep(0.02)
        return choose(level, seed, state)

    monkeypatch.setattr(rooms_module, "choose_move", slow_choose)
    app = make_app(bot_games_per_creator=0)   # no cap: the flood is the point here
    workers = app.state.rooms.workers
    run = workers.run

    async def counted_run(lane: str, fn: Any, *args: Any, priority: Priority = Priority.PERSON,
                          who: str | None = None) -> Any:
        with lock:
            events.append(("ask", (who, workers.pending[lane])))
        return await run(lane, fn, *args, priority=priority, who=who)

    monkeypatch.setattr(workers, "run", counted_run)
    with TestClient(app) as c:
        for _ in range(10):
            create(c, {"seats": ALONE, "unwatched": True})   # Ann's, from her address
        assert until(lambda: workers.pending["light"] >= 8)   # the flood waits
        bob = f"account:{sign_up(c, 'Bob')['id']}"   # the same browser, now signed in as Bob
        theirs = create(c, {"seats": [{"kind": "bot", "level": "greedy"}] * 2, "short": 4,
                              "unwatched": True})
        assert until(lambda: c.get(f"/api/games/{theirs['id']}").json()["over"])
        assert app.state.rooms._rooms[theirs["id"]].creator_key == bob
        with lock:
            seen = list(events)
    asks = crowded = 0
    for i, (kind, what) in enumerate(seen):
        if kind != "ask" or what[0] != bob:
            continue
        ahead = 0
        for later, level in seen[i + 1:]:
            if later == "start" and level == "greedy":
                break
            ahead += later == "start"
        else:
            continue   # asked as the app closed
        asks += 1
        crowded += what[1] >= 5   # Bob asked while the flood waited
        # one of Ann's by turn, and one granted just before Bob asked whose thread started after
        assert ahead <= 2, f"{ahead} of Ann's searches started before Bob's (of {what[1]} waiting)"
    assert asks >= 3 and crowded >= 3, (asks, crowded)


def test_a_game_of_bots_alone_pauses_when_its_last_page_leaves_and_goes_on_when_one_opens() -> None:
    """Not created ``unwatched``: its bots wait for a page, play while one is open, stop when the
    last one closes (the game stays where it was, not over) and go on when a page opens it again."""
    app = create_app("sqlite://", bot_delay=0.02, worker_processes=False)
    with TestClient(app) as c:
        made = create(c, {"seats": ALONE})
        room = app.state.rooms._rooms[made["id"]]
        assert room.resting and room._bot_task is None
        start = room.version
        for _ in range(2):   # watched, left alone; watched again, left again
            with c.websocket_connect(f"/ws/{made['id']}") as ws:
                ws.send_json({"type": "hello", "secrets": [], "version": None})
                view = recv(ws, "snapshot")
                assert view["version"] >= start
                while view["version"] < start + 3:   # the bots play while a page watches
                    view = apply_update(view, recv(ws, "update"))
            assert until(lambda: room._bot_task is not None and room._bot_task.done())
            assert room.resting and not room.game.is_over
            paused = room.version
            assert c.get(f"/api/games/{made['id']}").json()["version"] == paused   # nobody moved it
            assert room.version == paused and room._bot_task.done()
            start = paused


def test_the_lane_takes_creators_in_turn_however_many_there_are() -> None:
    """A hundred creators with three searches each, asked all at once, in one lane: they are let in
    round by round (every creator's first, then every second, then every third), the person's
    search before all of them; the turns of creators long gone are forgotten (the gate keeps few)."""
    import asyncio

    from huntgather.server.workers import LaneGate

    async def demo() -> tuple[list[str], int]:
        gate, order = LaneGate(1), []

        async def search(name: str, priority: Priority, who: str | None) -> None:
            async with gate.slot(priority, who):
                order.append(name)
                await asyncio.sleep(0)

        asks = [search(f"{who}/{n}", Priority.BOTS_ONLY, who) for n in range(3) for who in
                (f"c{k}" for k in range(100))]
        await asyncio.gather(*asks, search("person", Priority.PERSON, "p"))
        await asyncio.gather(*(search(f"late{k}", Priority.BOTS_ONLY, f"late{k}") for k in range(80)))
        return order, len(gate._turns)

    order, kept = asyncio.run(demo())
    first = order[:301]
    assert first[0] == "c0/0" and first[1] == "person"   # c0's first went straight in
    rounds = [int(name.split("/")[1]) for name in first if "/" in name]
    assert rounds == sorted(rounds)   # no creator's second before every creator's first
    assert order[301:] == [f"late{k}" for k in range(80)]
    assert kept <= 64 + 1
