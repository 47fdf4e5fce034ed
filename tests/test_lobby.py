"""The public lobby and quick match over HTTP, as players and as an attacker would use them.

A public game is listed (``GET /api/lobby``), its open seats taken (``POST
/api/lobby/{id}/seats/{seat}``: a new secret, the account, one winner of a race), nothing is
played and no clock runs until they are; it leaves the lobby when full and is deleted when its
listing expires unfilled.  Quick match sits a person down in the game asking the same whose
creator's rating is nearest, or lists a new one and names the bot level to offer.  Starlette's
test client, SQLite in memory; the race between two server processes on PostgreSQL is in
``test_lobby_processes.py``.
"""

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
pytest.importorskip("argon2")

with warnings.catch_warnings():   # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from app_helpers import device, make_app, recv, sign_up
from starlette.applications import Starlette

from huntgather.server.storage import Storage

CLOCK = {"base": 600, "increment": 10}
PUBLIC = {"seats": [{"kind": "human"}, {"kind": "human"}], "short": 4, "public": True, "clock": CLOCK}


@pytest.fixture
def app() -> Starlette:
    return make_app()


@pytest.fixture
def client(app: Starlette) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def lobby(c: TestClient) -> list[dict[str, Any]]:
    r = c.get("/api/lobby")
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    games: list[dict[str, Any]] = r.json()["games"]
    return games


def take(c: TestClient, gid: str, seat: int, body: Any = None) -> Any:
    return c.post(f"/api/lobby/{gid}/seats/{seat}", json={} if body is None else body)


def test_a_public_game_is_listed_taken_and_then_played(app: Starlette, client: TestClient) -> None:
    sign_up(client, "Ann Lee")
    made = client.post("/api/games", json=PUBLIC).json()
    gid = made["id"]
    assert list(made["seats"]) == ["0"]   # the open seat's secret is the lobby's to give
    [row] = lobby(device(app, "10.0.0.9"))
    assert row["id"] == gid and row["edition"] == "2020" and row["players"] == 2 and not row["rated"]
    assert row["clock"] == {"base": 600.0, "increment": 10.0}
    assert row["creator"] == {"name": "Ann Lee", "rating": 1500}
    assert [(s["seat"], s["open"], s["name"]) for s in row["seats"]] == [(0, False, "Ann Lee"),
                                                                         (1, True, None)]
    assert row["expires"] - row["created"] == pytest.approx(30 * 60)
    assert set(row) == {"id", "edition", "players", "seats", "clock", "rated", "creator", "created",
                        "expires"}
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "secrets": [made["seats"]["0"]]})
        recv(ws, "welcome")
        table = recv(ws, "table")
        assert table["lobby"]["open"] == [1] and table["clock"]["running"] is None
        view = recv(ws, "snapshot")
        ws.send_json({"type": "turn", "request": 1, "seat": 0, "version": view["version"],
                      "moves": [view["legal"][0]]})
        assert recv(ws, "error")["code"] == "waiting_for_players"
        guest = device(app, "10.0.0.2")
        r = take(guest, gid, 1, {"name": "Bea"})
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["seat"] == 1 and got["links"]["play"] == f"/#/play/{gid}/{got['secret']}"
        table = recv(ws, "table")   # the creator's page sees the seat taken and the clock start
        assert "lobby" not in table and table["seats"][1]["name"] == "Bea" and table["seats"][1]["joined"]
        assert table["clock"]["running"] == view["decision"]["player"]
    assert lobby(client) == []
    assert take(device(app, "10.0.0.3"), gid, 1).json()["code"] == "not_listed"
    with guest.websocket_connect(f"/ws/{gid}") as ws:   # the secret answered holds the seat
        ws.send_json({"type": "hello", "secrets": [got["secret"]]})
        assert recv(ws, "welcome")["seats"] == [1]


def test_taking_a_seat_refuses_what_is_not_open(app: Starlette, client: TestClient) -> None:
    three = {**PUBLIC, "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}]}
    gid = client.post("/api/games", json=three).json()["id"]
    other = device(app, "10.0.0.4")
    cases = [(f"/api/lobby/{gid}/seats/0", {}, 409, "seat_not_open"),   # the creator's
             (f"/api/lobby/{gid}/seats/1", {}, 409, "seat_not_open"),   # a bot's
             (f"/api/lobby/{gid}/seats/7", {}, 409, "seat_not_open"),
             (f"/api/lobby/{gid}/seats/-1", {}, 409, "seat_not_open"),
             (f"/api/lobby/{gid}/seats/999", {}, 409, "seat_not_open"),
             ("/api/lobby/nosuchgame12/seats/2", {}, 404, "not_listed"),
             ("/api/lobby/..%2F..%2Fetc/seats/2", {}, 404, None),
             (f"/api/lobby/{gid}/seats/2", {"name": 7}, 400, "bad_request"),
             (f"/api/lobby/{gid}/seats/2", {"name": "x", "secret": "y"}, 400, "bad_request"),
             (f"/api/lobby/{gid}/seats/2", [], 400, "bad_request")]
    for url, body, status, code in cases:
        r = other.post(url, json=body)
        assert r.status_code == status, (url, r.text)
        if code is not None:
            assert r.json()["code"] == code, (url, r.text)
    r = other.post(f"/api/lobby/{gid}/seats/2", content=b"name=x",
                   headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.json()["code"] == "bad_content_type"
    r = other.post(f"/api/lobby/{gid}/seats/2", json={}, headers={"origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["code"] == "cross_site"
    assert take(other, gid, 2).status_code == 200
    assert take(device(app, "10.0.0.5"), gid, 2).json()["code"] == "not_listed"   # full: unlisted


def test_a_rated_public_game_takes_only_signed_in_people_once(app: Starlette, client: TestClient) -> None:
    sign_up(client, "Ann Lee")
    three = {**PUBLIC, "rated": True, "seats": [{"kind": "human"}] * 3}
    gid = client.post("/api/games", json=three).json()["id"]
    guest = device(app, "10.0.0.6")
    r = take(guest, gid, 1)
    assert r.status_code == 401 and r.json()["code"] == "sign_in_required"
    assert take(client, gid, 1).json()["code"] == "already_seated"   # the creator
    bea = device(app, "10.0.0.7")
    sign_up(bea, "Bea Ray")
    assert take(bea, gid, 1).status_code == 200
    assert take(bea, gid, 2).json()["code"] == "already_seated"
    [row] = lobby(guest)
    assert row["rated"] and [s["name"] for s in row["seats"]] == ["Ann Lee", "Bea Ray", None]
    # a public game needs an open seat, and a secret deal
    for bad in ({**PUBLIC, "seats": [{"kind": "human"}, {"kind": "bot"}]}, {**PUBLIC, "seed": 5},
                {**PUBLIC, "public": "yes"}):
        r = client.post("/api/games", json=bad)
        assert r.status_code == 400 and r.json()["code"] == "bad_setup", r.text


def test_a_seat_race_has_one_winner(app: Starlette, client: TestClient) -> None:
    gid = client.post("/api/games", json=PUBLIC).json()["id"]
    storage: Storage = app.state.storage
    from huntgather.server.storage import SeatRow
    # two processes' writes after both saw the seat open: the second finds it gone
    first = storage.take_seat(gid, SeatRow(1, "human", None, "A", "aa", True))
    second = storage.take_seat(gid, SeatRow(1, "human", None, "B", "bb", True))
    assert (first, second) == (True, False)
    assert storage.load_seats(gid)[1].secret_hash == "aa"
    assert take(device(app, "10.0.0.8"), gid, 1).json()["code"] in ("seat_taken", "not_listed")


def test_a_flood_of_seat_requests_is_refused(app: Starlette, client: TestClient) -> None:
    attacker = device(app, "10.6.6.6")
    codes = [take(attacker, "nosuchgame12", 1).json()["code"] for _ in range(21)]
    assert codes[:20] == ["not_listed"] * 20 and codes[20] == "too_many_requests"
    r = attacker.post("/api/quickmatch", json={})
    assert r.status_code == 429 and r.json()["code"] == "too_many_requests"
    assert device(app, "10.0.0.1").post("/api/quickmatch", json={}).status_code == 201   # others play on


def test_quick_match_pairs_the_nearest_rating_or_lists_a_game_and_names_a_bot(
        app: Starlette, client: TestClient) -> None:
    ask = {"edition": "2020", "players": 2, "clock": CLOCK, "rated": False}
    made = client.post("/api/quickmatch", json={**ask, "name": "Cy"})
    assert made.status_code == 201, made.text
    waiting = made.json()
    assert waiting["matched"] is False and waiting["seat"] == 0 and waiting["creator"]
    assert waiting["bot"]["level"] and isinstance(waiting["bot"]["rating"], int)
    [row] = lobby(client)
    assert row["id"] == waiting["id"] and row["creator"] == {"name": "Cy", "rating": None}
    # another edition, clock or size is another queue
    other = device(app, "10.0.1.1")
    for different in ({**ask, "edition": "2002"}, {**ask, "clock": None}, {**ask, "players": 3}):
        r = other.post("/api/quickmatch", json=different)
        assert r.status_code == 201 and r.json()["matched"] is False
    assert len(lobby(client)) == 4
    r = device(app, "10.0.1.2").post("/api/quickmatch", json=ask)
    assert r.status_code == 200 and r.json() == {**r.json(), "matched": True, "id": waiting["id"], "seat": 1}
    assert waiting["id"] not in [g["id"] for g in lobby(client)]
    for bad in ({**ask, "players": 9}, {**ask, "edition": "1999"}, {**ask, "clock": {"base": -1}},
                {**ask, "rated": "no"}, {**ask, "colour": "red"}, {**ask, "players": True}, "2020"):
        r = other.post("/api/quickmatch", json=bad)
        assert r.status_code == 400 and r.json()["code"] in ("bad_setup", "bad_request"), (bad, r.text)
    r = other.post("/api/quickmatch", json={**ask, "rated": True})
    assert r.status_code == 401 and r.json()["code"] == "sign_in_required"


def test_quick_match_prefers_the_creator_of_the_nearest_rating(app: Starlette, client: TestClient) -> None:
    from huntgather.server.storage import lobby as lobby_table
    storage: Storage = app.state.storage
    ask = {"edition": "2020", "players": 2, "clock": None, "rated": False}
    ids = []
    for i, rating in enumerate((1900, 1520, 1200)):
        r = device(app, f"10.0.2.{i}").post("/api/games", json={**PUBLIC, "clock": None})
        ids.append(r.json()["id"])
        with storage.engine.begin() as conn:
            conn.execute(lobby_table.update().where(lobby_table.c.game_id == ids[-1])
                         .values(creator_rating=rating))
    r = device(app, "10.0.2.9").post("/api/quickmatch", json=ask)   # a guest: 1500
    assert r.json()["matched"] and r.json()["id"] == ids[1]


def test_an_unfilled_public_game_expires_and_its_pages_are_told() -> None:
    app = make_app(lobby_expiry=1.5)
    app.state.rooms.clock_tick = 0.05
    app.state.rooms.clock_sweep = 0.05
    with TestClient(app) as c:
        made = c.post("/api/games", json=PUBLIC).json()
        assert len(lobby(c)) == 1
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "hello", "secrets": [made["seats"]["0"]]})
            error = recv(ws, "error")
        assert error["code"] == "deleted" and "nobody took the open seats" in error["message"]
        assert lobby(c) == []
        assert c.get(f"/api/games/{made['id']}").status_code == 404
        deadline = time.monotonic() + 10
        while app.state.storage.load(made["id"]) is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert app.state.storage.load(made["id"]) is None


def test_the_creator_hands_the_open_seat_to_a_bot_and_the_game_starts(app: Starlette,
                                                                      client: TestClient) -> None:
    made = client.post("/api/games", json={**PUBLIC, "start_player": 1}).json()
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "secrets": [made["creator"], made["seats"]["0"]]})
        recv(ws, "welcome")
        assert recv(ws, "table")["lobby"]["open"] == [1]
        ws.send_json({"type": "seat", "request": 3, "seat": 1, "kind": "bot", "level": "random"})
        table = recv(ws, "table")
        assert "lobby" not in table and table["seats"][1]["kind"] == "bot"
        recv(ws, "update")   # the bot, to move first, plays at once
    assert lobby(client) == []


POSTGRES = os.environ.get("HUNTGATHER_TEST_POSTGRES")


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL to test PostgreSQL"))])
def test_the_lobby_is_stored_and_a_seat_race_between_processes_has_one_winner(tmp_path: Path,
                                                                              kind: str) -> None:
    import threading

    from huntgather.server.storage import NO_CLOCK, ClockWrite, Listing, SeatRow

    url = str(tmp_path / "games.sqlite") if kind == "sqlite" else str(POSTGRES)
    first, second = Storage(url), Storage(url)   # two server processes on one database
    try:
        gid = f"lob-{uuid.uuid4().hex[:8]}"   # PostgreSQL's database is shared
        now = time.time()
        seats = [SeatRow(i, "human", None, "Ann" if i == 0 else None, f"h{i}", i == 0) for i in range(3)]
        listing = Listing("", "2020", 3, '{"base": 60.0, "increment": 0.0}', "live:60+0", False, None, "Ann",
                          None, now, now + 60, (1, 2))
        first.create(gid, {"edition": "2020", "public": True}, ["d1"], seats, "c", None,
                     ClockWrite('{"left": [60, 60, 60], "seat": null, "since": 0}', None), listing)
        mine = [r for r in second.lobby(now, edition="2020", players=3, clock="live:60+0")
                if r.game_id == gid]
        assert [r.open_seats for r in mine] == [(1, 2)]
        assert second.lobby_open(gid) == ([1, 2], now + 60)
        results: list[bool] = []
        go = threading.Barrier(2)

        def race(storage: Storage, who: str) -> None:
            go.wait()
            results.append(storage.take_seat(gid, SeatRow(1, "human", None, who, who, True)))

        threads = [threading.Thread(target=race, args=(s, w)) for s, w in ((first, "A"), (second, "B"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == [False, True]
        assert first.load_seats(gid)[1].name in ("A", "B")
        # the last seat starts the clock and unlists the game
        started = ClockWrite('{"left": [60, 60, 60], "seat": 0, "since": 1}', 61.0)
        assert second.take_seat(gid, SeatRow(2, "human", None, "C", "c2", True), started)
        assert first.lobby_open(gid) == ([], None)
        assert first.load_clock(gid) == (1, started.state)
        assert not first.take_seat(gid, SeatRow(2, "human", None, "D", "d2", True), NO_CLOCK)
        assert gid not in [r.game_id for r in first.lobby(now)]
    finally:
        first.close()
        second.close()


def test_a_signed_in_quick_match_goes_by_the_accounts_name_and_rating(app: Starlette,
                                                                    client: TestClient) -> None:
    sign_up(client, "Ann Lee")
    r = client.post("/api/quickmatch", json={"name": "Not Ann", "rated": True})
    assert r.status_code == 201, r.text
    [row] = lobby(client)
    assert row["rated"] and row["creator"] == {"name": "Ann Lee", "rating": 1500}
    again = client.post("/api/quickmatch", json={"rated": True}).json()   # never her own game: handed back
    assert again["matched"] is False and again["id"] == row["id"] and again["seat"] == 0
    assert len(lobby(client)) == 1
