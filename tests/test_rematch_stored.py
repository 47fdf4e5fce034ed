"""The rematch kept in the database (schema 0010), and quick match's own listing.

The offers and the rematch made outlive a restart; a player whose page was closed when the
rematch was made gets the new seat on opening the old game again; two processes on PostgreSQL
make one rematch, and both pages get their secrets of it.  A guest's (or an account's) quick
match never pairs them with their own listing: asked again, it hands that listing back.
"""

from __future__ import annotations

import asyncio
import os
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

from app_helpers import PASSWORD, device, make_app, sign_up
from test_lobby import lobby
from test_server import create, hello, play, recv, storage_of

from huntgather.server import create_app
from huntgather.server.seats import hash_secret, rematch_secret
from huntgather.server.storage import Storage

POSTGRES = os.environ.get("HUNTGATHER_TEST_POSTGRES")
TWO = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], "short": 2}


def played_out(client: TestClient) -> dict[str, Any]:
    """A game of Ann and Bob, played to its end by one page holding both seats."""
    made = create(client, TWO)
    with client.websocket_connect(f"/ws/{made['id']}") as page:
        view = hello(page, [made["creator"], made["seats"]["0"], made["seats"]["1"]])["snapshot"]
        while not view["over"]:
            view = play(page, view)
    return made


def table_of(ws: Any) -> dict[str, Any]:
    return recv(ws, "table", skip=("update", "ack", "chat_log"))


def test_an_offer_outlives_a_restart_and_a_closed_page_gets_its_new_seat(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite")
    with TestClient(create_app(db, bot_delay=0.0, worker_processes=False)) as client:
        made = played_out(client)
        gid = made["id"]
        ann_old = [made["seats"]["0"], made["creator"]]
        with client.websocket_connect(f"/ws/{gid}") as ann:
            hello(ann, ann_old)
            ann.send_json({"type": "rematch", "seat": 0, "request": 1})
            assert table_of(ann)["rematch"] == [0]
    # the server restarts; Ann's page is closed
    with TestClient(create_app(db, bot_delay=0.0, worker_processes=False)) as client:
        with client.websocket_connect(f"/ws/{gid}") as bob:
            welcome = hello(bob, [made["seats"]["1"]])
            assert welcome["table"]["rematch"] == [0]   # Ann's offer was kept
            bob.send_json({"type": "rematch", "seat": 1, "request": 2})
            offer = recv(bob, "rematch", skip=("table", "ack", "chat_log"))
            assert "again" not in offer and offer["creator"] is None and set(offer["seats"]) == {"1"}
            new = offer["game"]
            assert offer["seats"]["1"] == rematch_secret(made["seats"]["1"], gid)
        stored = storage_of(client).load(new)
        assert stored is not None and [s.name for s in stored.seats] == ["Ann", "Bob"]
        assert stored.seats[1].secret_hash == hash_secret(offer["seats"]["1"])
        # no new secret is stored, only its hash
        assert offer["seats"]["1"] not in repr(storage_of(client).rematch_of(gid))
        # Ann opens the old game again: she is offered her seat of the new one, and the creator's
        with client.websocket_connect(f"/ws/{gid}") as ann:
            hello(ann, ann_old)
            again = recv(ann, "rematch", skip=("table", "chat_log"))
            assert again["game"] == new and again["again"] is True and set(again["seats"]) == {"0"}
            assert again["creator"]
        with client.websocket_connect(f"/ws/{new}") as ann:
            welcome = hello(ann, [again["seats"]["0"], again["creator"]])
            assert welcome["seats"] == [0] and welcome["creator"] is True
        # a watcher of the old game is offered the new one to watch, with no secret
        with client.websocket_connect(f"/ws/{gid}") as eve:
            hello(eve, ["not-a-secret-of-this-game"])
            watched = recv(eve, "rematch", skip=("table", "chat_log"))
            assert watched == {"type": "rematch", "game": new, "seats": {}, "creator": None, "again": True}
        # a second offer after it was made makes nothing new
        with client.websocket_connect(f"/ws/{gid}") as bob:
            hello(bob, [made["seats"]["1"]])
            recv(bob, "rematch", skip=("table", "chat_log"))
            bob.send_json({"type": "rematch", "seat": 1})
            assert recv(bob, "rematch", skip=("table", "ack"))["game"] == new


def test_a_game_stored_before_seats_had_secrets_rematches_as_openly_as_it_was(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite")
    with TestClient(create_app(db, bot_delay=0.0, worker_processes=False)) as client:
        gid = played_out(client)["id"]
        from huntgather.server.storage import creators, seats
        with storage_of(client).engine.begin() as conn:   # as the first layout stored it
            conn.execute(seats.delete().where(seats.c.game_id == gid))
            conn.execute(creators.delete().where(creators.c.game_id == gid))
    with TestClient(create_app(db, bot_delay=0.0, worker_processes=False)) as client:
        with client.websocket_connect(f"/ws/{gid}") as page:
            assert hello(page, [])["seats"] == [0, 1]   # every page holds every seat
            page.send_json({"type": "rematch", "seat": 0})
            page.send_json({"type": "rematch", "seat": 1})
            offer = recv(page, "rematch", skip=("table", "ack", "chat_log"))
        assert set(offer["seats"]) == {"0", "1"} and offer["creator"]
        with client.websocket_connect(f"/ws/{offer['game']}") as page:   # the new game has secrets
            assert hello(page, [offer["seats"]["1"]])["seats"] == [1]


def test_the_offers_are_stored_on_sqlite_and_postgresql(tmp_path: Path) -> None:
    urls = [str(tmp_path / "r.sqlite")] + ([POSTGRES] if POSTGRES else [])
    for url in urls:
        storage = Storage(url)
        try:
            gid = uuid.uuid4().hex[:12]
            storage.create(gid, {"edition": "2020"}, [], [], "cc")
            assert storage.rematch_of(gid) is None
            assert storage.rematch_offer(gid, 0, None, None).wants == {0: None}
            state = storage.rematch_offer(gid, 0, "aa", "cr")   # a hash given later is kept
            assert state.wants == {0: "aa"} and state.creator_hash == "cr" and state.new_game is None
            storage.rematch_offer(gid, 1, "bb", "other")
            new = gid + "n"
            made = storage.rematch_make(gid, new, {"edition": "2020"}, [], [], "fallback")
            assert made.new_game == new and made.creator_hash == "cr"
            assert storage.rematch_make(gid, new + "x", {"edition": "2020"}, [], [], "f").new_game == new
            assert storage.load(new + "x") is None   # the loser stored nothing
            loaded = storage.load(new)
            assert loaded is not None and loaded.creator_hash == "cr"
            assert storage.rematch_offer(gid, 1, "zz", None).wants == {0: "aa", 1: "bb"}   # made: kept
            storage.delete(new)
            assert storage.delete(gid) and storage.rematch_of(gid) is None
        finally:
            storage.close()


@pytest.mark.skipif(not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL "
                                         "(scripts/test.sh starts one when run as root)")
def test_two_processes_make_one_rematch_and_both_pages_get_their_secrets(
        postgres_processes: tuple[Any, Any]) -> None:
    from play_server import Page

    from huntgather.client import create_game

    a, b = postgres_processes
    assert POSTGRES

    async def scenario() -> None:
        made = await create_game(a.http, TWO)
        gid = made["id"]
        hot = await Page.join(a, gid, [made["creator"], made["seats"]["0"], made["seats"]["1"]])
        while not hot.view["over"]:
            await hot.play()
        await hot.close()
        ann = await Page.join(a, gid, [made["seats"]["0"], made["creator"]])   # on process 1
        bob = await Page.join(b, gid, [made["seats"]["1"]])                    # on process 2
        await asyncio.gather(ann.send({"type": "rematch", "seat": 0}),   # at the same moment
                             bob.send({"type": "rematch", "seat": 1}))
        offers = await asyncio.gather(ann.receive("rematch"), bob.receive("rematch"))
        new = offers[0]["game"]
        assert offers[1]["game"] == new != gid
        assert set(offers[0]["seats"]) == {"0"} and offers[0]["creator"]
        assert set(offers[1]["seats"]) == {"1"} and offers[1]["creator"] is None
        storage = Storage(POSTGRES)
        try:
            state = storage.rematch_of(gid)
            assert state is not None and state.new_game == new and set(state.wants) == {0, 1}
        finally:
            storage.close()
        await ann.close()
        await bob.close()
        ann = await Page.join(b, new, [offers[0]["seats"]["0"], offers[0]["creator"]])
        bob = await Page.join(a, new, [offers[1]["seats"]["1"]])
        assert ann.seats == [0] and bob.seats == [1]
        await ann.close()
        await bob.close()

    asyncio.run(scenario())


# --------------------------------------------------------------------------- quick match


@pytest.fixture
def app() -> Any:
    return make_app()


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


ASK = {"edition": "2020", "players": 2, "clock": None, "rated": False}


def test_a_guest_asking_twice_gets_their_own_listing_back_never_a_game_with_themselves(
        app: Any, client: TestClient) -> None:
    first = client.post("/api/quickmatch", json=ASK)
    assert first.status_code == 201 and first.json()["matched"] is False
    again = client.post("/api/quickmatch", json=ASK)   # a second tab: the same address
    assert again.status_code == 200, again.text
    back = again.json()
    assert back["id"] == first.json()["id"] and back["seat"] == 0 and back["matched"] is False
    assert back["again"] is True and back["secret"] != first.json()["secret"]
    assert [g["id"] for g in lobby(client)] == [back["id"]]   # one listing, its seat 1 still open
    assert lobby(client)[0]["seats"][1]["open"] is True
    stored = storage_of(client).load(back["id"])
    assert stored is not None and stored.seats[0].secret_hash == hash_secret(back["secret"])
    from huntgather.server.storage import lobby as lobby_table
    with storage_of(client).engine.connect() as conn:
        [lister] = conn.execute(lobby_table.select()).all()
    assert lister.lister and "testclient" not in lister.lister   # who listed, hashed
    # another person (another address) is paired with it
    other = device(app, "10.9.0.1").post("/api/quickmatch", json=ASK)
    assert other.status_code == 200 and other.json()["matched"] is True and other.json()["id"] == back["id"]
    assert lobby(client) == []


def test_a_guest_is_never_paired_with_a_public_game_they_listed(app: Any, client: TestClient) -> None:
    made = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}], "public": True})
    assert made.status_code == 201, made.text
    r = client.post("/api/quickmatch", json=ASK)   # asking the same: their own seat back, not seat 1
    assert r.status_code == 200 and r.json()["id"] == made.json()["id"]
    assert r.json()["seat"] == 0 and r.json()["matched"] is False
    with client.websocket_connect(f"/ws/{made.json()['id']}") as page:   # the old secret lost its seat
        assert hello(page, [made.json()["seats"]["0"]])["seats"] == []
    assert lobby(client)[0]["seats"][1]["open"] is True


def test_a_signed_in_person_asking_again_gets_their_listing_back(app: Any, client: TestClient) -> None:
    sign_up(client, "Ann Lee")
    first = client.post("/api/quickmatch", json={**ASK, "rated": True}).json()
    phone = device(app, "10.9.0.2")   # her other device, signed in there too
    r = phone.post("/api/session", json={"name": "Ann Lee", "password": PASSWORD})
    assert r.status_code == 200, r.text
    back = phone.post("/api/quickmatch", json={**ASK, "rated": True})
    assert back.status_code == 200, back.text
    assert back.json()["id"] == first["id"] and back.json()["seat"] == 0 and back.json()["again"]
    assert len(lobby(client)) == 1
    bea = device(app, "10.9.0.3")
    sign_up(bea, "Bea Ray")
    paired = bea.post("/api/quickmatch", json={**ASK, "rated": True}).json()
    assert paired["matched"] is True and paired["id"] == first["id"] and paired["seat"] == 1
