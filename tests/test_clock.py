"""Game clocks kept by the server: the arithmetic, the setup's checks, and a server whose clocks
run out (a bot takes the seat, the game goes on), add their increment, and survive a restart.

The clocks here are real (2 seconds and up), so these tests wait a few seconds in all; every
bound on time is generous (a slow machine fails none of them).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from huntgather.server.clock import ClockKind, ClockSetup, ClockState
from huntgather.server.seats import GameSetup, RequestError

LIVE = ClockSetup.from_json({"base": 60, "increment": 5})
POST = ClockSetup.from_json({"days_per_move": 3})


# --------------------------------------------------------------------------- the arithmetic


def test_a_live_clock_charges_the_seat_that_moved_and_adds_the_increment_after_its_turn() -> None:
    state = ClockState.start(LIVE, 3, running=0, now=1000.0)
    assert state.left == (60.0, 60.0, 60.0) and state.deadline == 1060.0
    part = state.after_turn(LIVE, now=1010.0, turn_over=False, running=0)   # the turn goes on
    assert part.left == (50.0, 60.0, 60.0) and part.deadline == 1060.0
    done = part.after_turn(LIVE, now=1015.0, turn_over=True, running=1)
    assert done.left == (50.0, 60.0, 60.0) and done.seat == 1 and done.deadline == 1075.0
    assert done.left_now(1035.0) == (50.0, 40.0, 60.0)
    assert done.left_now(2000.0) == (50.0, 0.0, 60.0)   # never below nothing
    assert done.left_now(900.0) == done.left           # a clock that steps back charges nothing


def test_a_bot_to_move_stops_every_clock_and_the_next_person_starts_when_it_has_moved() -> None:
    state = ClockState((30.0, 30.0), 0, 0.0).after_turn(LIVE, now=10.0, turn_over=True, running=None)
    assert state.seat is None and state.deadline is None and not state.expired(1e9)
    assert state.left == (25.0, 30.0)
    later = state.after_turn(LIVE, now=500.0, turn_over=True, running=0)   # the bot's turn charged nobody
    assert later.left == (25.0, 30.0) and later.deadline == 525.0


def test_a_correspondence_clock_gives_each_move_its_days() -> None:
    state = ClockState.start(POST, 2, running=1, now=0.0)
    assert state.deadline == 3 * 86400
    after = state.after_turn(POST, now=86400.0, turn_over=True, running=0)
    assert after.left == (3 * 86400.0, 3 * 86400.0) and after.deadline == 4 * 86400.0


def test_a_timeout_leaves_nothing_on_the_seat_and_stops_the_clock() -> None:
    state = ClockState((2.0, 9.0), 0, 100.0)
    assert not state.expired(101.9) and state.expired(102.0)
    out = state.timed_out(102.3)
    assert out.left == (0.0, 9.0) and out.seat is None and out.out == (0,) and out.deadline is None
    assert ClockState.from_json(out.to_json()) == out


@pytest.mark.parametrize("clock", [
    {"base": 0}, {"base": -5}, {"base": 10**9}, {"base": "60"}, {"base": True}, {"base": float("nan")},
    {"base": 60, "increment": -1}, {"base": 60, "increment": 10**6}, {"increment": 5},
    {"base": 60, "days_per_move": 2}, {"days_per_move": 0}, {"days_per_move": 15},
    {"days_per_move": 1.5}, {"minutes": 5}, [60, 5], "blitz",
])
def test_a_clock_out_of_its_bounds_is_refused(clock: Any) -> None:
    with pytest.raises(RequestError) as info:
        GameSetup.from_json({"clock": clock})
    assert info.value.code == "bad_setup"
    assert "clock" in info.value.message or "days_per_move" in info.value.message


def test_the_setup_keeps_its_clock_and_timeout_bot_when_stored() -> None:
    setup = GameSetup.from_json({"clock": {"base": 5, "increment": 2}, "on_timeout": "medium"})
    assert setup.clock == ClockSetup(ClockKind.LIVE, 5.0, 2.0) and setup.on_timeout == "medium"
    again = GameSetup.from_json(setup.to_json(), stored=True)
    assert again.clock == setup.clock and again.on_timeout == "medium"
    assert GameSetup.from_json({}).clock is None and "clock" not in GameSetup.from_json({}).to_json()
    with pytest.raises(RequestError, match="on_timeout"):
        GameSetup.from_json({"clock": {"days_per_move": 2}, "on_timeout": "grandmaster"})


# --------------------------------------------------------------------------- the server

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402
from test_server import create, hello, play, recv, whole_turn  # noqa: E402

from huntgather.server import create_app  # noqa: E402
from huntgather.server.storage import Storage  # noqa: E402

HUMANS = {"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 11, "short": 10}


def storage_of(client: TestClient) -> Storage:
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    return storage


def test_a_clock_that_runs_out_hands_the_seat_to_the_timeout_bot_and_the_game_goes_on(tmp_path: Path) -> None:
    # a file, not memory: the test reads the database while the bots write (one connection in memory)
    with TestClient(create_app(str(tmp_path / "games.sqlite"), bot_delay=0.0)) as client:
        made = create(client, {**HUMANS, "clock": {"base": 2, "increment": 0}, "on_timeout": "random"})
        gid = made["id"]
        with client.websocket_connect(f"/ws/{gid}") as ann, client.websocket_connect(f"/ws/{gid}") as bob:
            welcome = hello(ann, [made["seats"]["0"]])
            clock = welcome["table"]["clock"]
            assert clock["kind"] == "live" and clock["running"] == 0 and clock["out"] == []
            assert 0 < clock["deadline"] - clock["now"] <= 2 and clock["left"][1] == 2
            hello(bob, [made["seats"]["1"]])
            start = time.monotonic()
            timeout = recv(bob, "timeout")   # ann never moves
            assert 1.5 < time.monotonic() - start < 30
            assert timeout["seat"] == 0 and timeout["level"] == "random"
            table = recv(ann, "table")
            while table["seats"][0]["kind"] != "bot":
                table = recv(ann, "table")
            assert table["seats"][0]["level"] == "random" and table["clock"]["out"] == [0]
            assert table["clock"]["left"][0] == 0
            ann.send_json({"type": "name", "seat": 0, "name": "Ann"})   # the seat is no longer Ann's
            assert recv(ann, "error", skip=("table", "timeout", "update"))["code"] == "not_your_seat"
            # the bot plays seat 0, then bob's time runs, and bob plays on
            update = recv(bob, "update", skip=("table", "timeout"))
            view = client.get(f"/api/games/{gid}").json()
            while view["decision"]["player"] != 1:
                update = recv(bob, "update")
                view = client.get(f"/api/games/{gid}").json()
            assert update["version"] <= view["version"]
            table = client_table(bob)
            assert table["clock"]["running"] == 1
            view = play(bob, view)
            assert view["version"] > update["version"]
        stored = storage_of(client).load(gid)
        assert stored is not None and stored.seats[0].kind == "bot" and stored.seats[0].level == "random"


def client_table(ws: Any) -> dict[str, Any]:
    """The latest table this page has (asks for none: a ping's pong marks the end of what came)."""
    ws.send_json({"type": "ping"})
    table = None
    while True:
        msg = ws.receive_json()
        if msg["type"] == "table":
            table = msg
        elif msg["type"] == "pong":
            break
    if table is None:   # nothing new since: a page keeps its last one; ask the server for one
        ws.send_json({"type": "resync", "version": None})
        while (msg := ws.receive_json())["type"] != "snapshot":
            if msg["type"] == "table":
                table = msg
    assert table is not None
    return table


def test_the_increment_is_added_after_each_turn() -> None:
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as client:
        made = create(client, {**HUMANS, "clock": {"base": 60, "increment": 30}})
        gid = made["id"]
        with client.websocket_connect(f"/ws/{gid}") as ann:
            welcome = hello(ann, [made["seats"]["0"], made["seats"]["1"]])
            view = welcome["snapshot"]
            assert view["decision"]["player"] == 0
            start = time.monotonic()
            ann.send_json({"type": "turn", "request": 1, "seat": 0, "version": view["version"],
                           "moves": whole_turn(ann, view)})
            tables = []
            while (msg := recv(ann, "table", "update", "ack"))["type"] != "ack":
                if msg["type"] == "table":
                    tables.append(msg)
            used = time.monotonic() - start
            clock = tables[-1]["clock"]
            assert clock["running"] == 1 and clock["version"] == msg["version"]
            assert 90 - used - 1 <= clock["left"][0] <= 90   # 60 - the time used + 30
            assert 0 < clock["deadline"] - clock["now"] <= 60


def test_a_restarted_server_acts_on_a_deadline_that_passed_while_it_was_down(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite")
    with TestClient(create_app(db, bot_delay=30.0)) as client:
        made = create(client, {**HUMANS, "clock": {"base": 2, "increment": 1}})
    time.sleep(2.5)   # the deadline passes while no server runs
    with TestClient(create_app(db, bot_delay=30.0)) as client:
        storage = storage_of(client)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            stored = storage.load(made["id"])
            assert stored is not None
            if stored.seats[0].kind == "bot":
                break
            time.sleep(0.1)
        assert stored is not None
        assert stored.seats[0].kind == "bot" and stored.seats[0].level == "easy"
        assert stored.clock is not None and ClockState.from_json(stored.clock).out == (0,)
        assert storage.expired(time.time()) == []
        with client.websocket_connect(f"/ws/{made['id']}") as bob:   # and the game is on for bob
            table = hello(bob, [made["seats"]["1"]])["table"]
            assert table["seats"][0]["kind"] == "bot" and table["clock"]["out"] == [0]


def test_a_bad_clock_is_refused_with_its_reason() -> None:
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as client:
        r = client.post("/api/games", json={**HUMANS, "clock": {"days_per_move": 30}})
        assert r.status_code == 400 and r.json()["code"] == "bad_setup"
        assert "days_per_move" in r.json()["message"]


# --------------------------------------------------------------------------- storage


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_timeout_is_recorded_once_and_a_move_made_against_it_is_a_conflict(tmp_path: Path,
                                                                            database: str) -> None:
    from huntgather.server.seats import new_secret
    from huntgather.server.storage import ClockWrite, SeatRow, TimedOutError

    postgres = os.environ.get("HUNTGATHER_TEST_POSTGRES")
    url = str(tmp_path / "games.sqlite") if database == "sqlite" else postgres
    if url is None:
        pytest.skip("set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL")
    storage = Storage(url)
    gid = new_secret()[:12]
    try:
        running = ClockState((5.0, 5.0), 0, time.time() - 10)   # seat 0's deadline passed 5 s ago
        assert running.deadline is not None
        storage.create(gid, {"edition": "2020"}, ["d3"], [SeatRow(0, "human", None, "Ann", "ab", True, 7),
                                                           SeatRow(1, "human", None, None, "cd", True)],
                       "ef", None, ClockWrite(running.to_json(), running.deadline))
        assert gid in storage.expired(time.time())
        assert gid not in storage.expired(running.deadline - 1)
        now = time.time()
        out = running.timed_out(now)
        bot = SeatRow(0, "bot", "easy", "Ann", None, True, 7)
        assert storage._write(storage._expire, gid, 1, now, out.to_json(), bot) is True
        assert storage._write(storage._expire, gid, 1, now, out.to_json(), bot) is False   # done already
        stored = storage.load(gid)
        assert stored is not None and stored.seats[0] == bot and stored.clock == out.to_json()
        assert gid not in storage.expired(time.time())
        # a move by the seat, made by a copy that had not heard of the timeout, is refused
        with pytest.raises(TimedOutError):
            storage.append(gid, 1, ["3@0,1r0"], status="playing", scores=[0, 0],
                           clock=ClockWrite(running.to_json(), None, running.deadline))
        # the bot's move, made knowing it, is stored with the clock it leads to
        after = out.after_turn(LIVE, now=now + 1, turn_over=True, running=1)
        storage.append(gid, 1, ["3@0,1r0"], status="playing", scores=[0, 0],
                       clock=ClockWrite(after.to_json(), after.deadline, None))
        assert storage.load_clock(gid) == (2, after.to_json())
        # the next move is made against the deadline stored: the same number, read back exactly
        stored = storage.load(gid)
        assert stored is not None and stored.clock is not None
        deadline = ClockState.from_json(stored.clock).deadline
        assert deadline is not None and deadline == after.deadline
        nxt = after.after_turn(LIVE, now=now + 2, turn_over=True, running=0)
        storage.append(gid, 2, ["-", "d7"], status="playing", scores=[0, 0],
                       clock=ClockWrite(nxt.to_json(), nxt.deadline, deadline))
        assert storage.load_clock(gid) == (4, nxt.to_json())
    finally:
        storage.close()


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_moves_of_many_games_at_once_store_each_clock(tmp_path: Path, database: str) -> None:
    from huntgather.server.seats import new_secret
    from huntgather.server.storage import NO_CLOCK, ClockWrite, MixedBatch

    postgres = os.environ.get("HUNTGATHER_TEST_POSTGRES")
    url = str(tmp_path / "games.sqlite") if database == "sqlite" else postgres
    if url is None:
        pytest.skip("set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL")
    storage = Storage(url)
    try:
        clocked, plain = new_secret()[:12], new_secret()[:12]
        start = ClockState((60.0, 60.0), 0, 1000.0)
        storage.create(clocked, {}, ["d3"], clock=ClockWrite(start.to_json(), start.deadline))
        storage.create(plain, {}, ["d3"])
        after = start.after_turn(LIVE, now=1010.0, turn_over=True, running=1)
        calls: list[tuple[Any, ...]] = [
            (clocked, 1, ["3@0,1r0", "d7"], "playing", [0, 0], None,
             ClockWrite(after.to_json(), after.deadline, start.deadline)),
            (plain, 1, ["3@0,1r0", "d7"], "playing", [0, 0], None, NO_CLOCK)]
        with storage.engine.begin() as conn:
            storage._append_many(conn, calls)
        assert storage.load_clock(clocked) == (3, after.to_json())
        assert storage.load_clock(plain) == (3, None)
        stale = [(clocked, 3, ["-"], "playing", [0, 0], None, ClockWrite(None, None, start.deadline))]
        with pytest.raises(MixedBatch), storage.engine.begin() as conn:   # the deadline moved on
            storage._append_many(conn, stale)
    finally:
        storage.close()
