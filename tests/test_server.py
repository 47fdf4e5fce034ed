"""The web server: seats and secrets, the versioned protocol, hidden draws, storage and resuming.

The server is driven through Starlette's test client (no real network); real
server processes are in ``test_web_ui.py`` and ``test_server_processes.py``.
Expected values come from the engine run independently (a :class:`Game` with
the same seed or the same draws), never from the server's own answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import sqlite3
import time
import warnings
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from play_server import PATIENCE, whole_turn_after

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

with warnings.catch_warnings():   # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
import app_helpers
from starlette.websockets import WebSocketDisconnect

from huntgather import Game, parse_move
from huntgather.bots import EXPERT
from huntgather.bots.analysis import predict_after
from huntgather.cli import main as cli_main
from huntgather.editions import get_edition
from huntgather.moves import Draw
from huntgather.server import create_app
from huntgather.server.app import web_dir
from huntgather.server.codec import dumps
from huntgather.server.messages import UPDATE_KEYS, NoticeType, decode_notice, encode_notice
from huntgather.server.protocol import move_from_json, snapshot
from huntgather.server.rooms import GameSetup, Room, Rooms, build_game, effective_history, restore_game
from huntgather.server.seats import Deal, hash_secret
from huntgather.server.storage import (
    SeatRow,
    Storage,
    StorageError,
    public_url,
    seat_notice,
)
from huntgather.svg import hut_path, meeple_path

HUMANS = {"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 11, "short": 6}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as c:
        yield c


def storage_of(client: TestClient) -> Storage:
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    return storage


def create(client: TestClient, setup: dict[str, Any] = HUMANS) -> dict[str, Any]:
    r = client.post("/api/games", json=setup)
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def history(client: TestClient, gid: str) -> list[str]:
    stored = storage_of(client).load(gid)
    assert stored is not None
    return stored.history


def recv(ws: Any, *types: str, skip: tuple[str, ...] = ("table",)) -> dict[str, Any]:
    """:func:`app_helpers.recv`, passing over only ``table`` messages unless told otherwise."""
    return app_helpers.recv(ws, *types, skip=skip)


def hello(ws: Any, secrets: list[str], version: int | None = None, name: str | None = None) -> dict[str, Any]:
    """Say hello; return the ``welcome`` with the first ``table`` and the snapshot (if any) in it."""
    msg: dict[str, Any] = {"type": "hello", "secrets": secrets, "version": version}
    if name is not None:
        msg["name"] = name
    ws.send_json(msg)
    welcome = recv(ws, "welcome")
    welcome["table"] = recv(ws, "table")
    if version is None:
        welcome["snapshot"] = recv(ws, "snapshot")
    return welcome


def whole_turn(ws: Any, view: dict[str, Any], seat: int | None = None) -> list[dict[str, Any]]:
    """A whole turn for the seat to move: the first legal placement, then the first choice offered."""
    seat = view["decision"]["player"] if seat is None else seat
    place = view["legal"][0]
    ws.send_json({"type": "preview", "seat": seat, "version": view["version"], "moves": [place]})
    return whole_turn_after(place, recv(ws, "preview"))


def play(ws: Any, view: dict[str, Any], request: int = 1) -> dict[str, Any]:
    """Play one whole turn from ``view``; return the update that comes back."""
    seat = view["decision"]["player"]
    ws.send_json({"type": "turn", "request": request, "seat": seat, "version": view["version"],
                  "moves": whole_turn(ws, view)})
    new = apply_update(view, recv(ws, "update"))
    assert recv(ws, "ack") == {"type": "ack", "request": request, "version": new["version"]}
    return new


def apply_update(view: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """What a page does with an update: append the new tiles and events, replace the rest."""
    assert update["from"] == view["version"], (update["from"], view["version"])
    new = dict(view)
    new["board"] = view["board"] + update["placed"]
    new["log"] = view["log"] + update["events"]
    for key in ("version", *UPDATE_KEYS):
        new[key] = update[key]
    return new


def until_placed_by(ws: Any, view: dict[str, Any], seat: int) -> dict[str, Any]:
    """Play this page's turns (a menhir turn may come first) until ``seat`` (a bot) has placed a tile."""
    def placed() -> bool:
        return any(e["kind"] == "TilePlaced" and e["player"] == seat for e in view["log"])

    while not placed() and not view["over"]:
        if view["decision"]["player"] != seat:
            view = play(ws, view)
        else:
            view = apply_update(view, recv(ws, "update"))
    return view


def reference_game(client: TestClient, gid: str) -> Game:
    """The engine's game after the stored moves (draws taken from storage)."""
    stored = storage_of(client).load(gid)
    assert stored is not None
    setup = GameSetup.from_json(stored.setup, stored=True)
    game = Game.replay(build_game(setup, random.Random(0)).initial, [parse_move(m) for m in stored.history])
    return game


# --------------------------------------------------------------------------- creating


def test_creating_a_game_gives_one_secret_per_person_and_stores_only_hashes(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with TestClient(create_app(str(db), bot_delay=30.0)) as c:
        made = create(c, {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"},
                                    {"kind": "human"}]})
        assert set(made["seats"]) == {"0", "2"}   # no secret for the bot's seat
        secrets = [made["creator"], *made["seats"].values()]
        assert len(set(secrets)) == 3
        for s in secrets:
            assert len(s) >= 22   # 16 random bytes in URL-safe base64: 128 bits
        gid = made["id"]
        assert made["links"] == {"play": {"0": f"/#/play/{gid}/{made['seats']['0']}",
                                          "2": f"/#/play/{gid}/{made['seats']['2']}"},
                                 "watch": f"/#/watch/{gid}"}
    dump = "\n".join(sqlite3.connect(db).iterdump())
    for s in secrets:
        assert s not in dump   # only hashes are stored
    assert "Ann" in dump


def test_a_seeded_deal_matches_the_engine_with_the_same_seed(client: TestClient) -> None:
    setup = {"seats": [{"kind": "human"}] * 3, "seed": 42, "start_player": 2}
    made = create(client, setup)
    view = client.get(f"/api/games/{made['id']}").json()
    reference = Game(3, seed=42, start_player=2)
    assert view["deal"] == "seeded" and view["seed"] is None   # not revealed while the game is on
    assert view["decision"]["player"] == 2
    assert view["decision"]["tile"] == reference.decision.tile
    assert sorted(map(str, view["legal"])) == sorted(
        str({"kind": "place", "x": m.x, "y": m.y, "rotation": m.rotation}) for m in reference.legal_moves())
    assert history(client, made["id"]) == [str(m) for m in reference.history]
    assert [p["meeples"] for p in view["players"]] == [5, 5, 5]   # 2020: 5 meeples each
    assert [p["huts"] for p in view["players"]] == [3, 3, 3]      # 2020: 3 huts each


def test_2002_edition_has_its_own_pieces(client: TestClient) -> None:
    made = create(client, {"edition": "2002", "seats": [{"kind": "human"}] * 2})
    view = client.get(f"/api/games/{made['id']}").json()
    assert view["edition"] == "2002" and view["deal"] == "secret"
    assert [p["huts"] for p in view["players"]] == [2, 2]   # 2002: 2 huts each
    assert view["board"] == [{"x": 0, "y": 0, "tile": 1, "rotation": 0}]   # 2002 start tile is 1


def test_short_game_has_a_stack_of_that_many_tiles(client: TestClient) -> None:
    made = create(client, {**HUMANS, "short": 4})
    view = client.get(f"/api/games/{made['id']}").json()
    # 4 tiles in the stack, one of them already drawn for the first player
    assert len(view["remaining"]) == 3
    assert view["bonus_left"] == 16   # the bonus stack is untouched (16 menhir tiles in 2020)


@pytest.mark.parametrize(("setup", "words"), [
    ({"edition": "1999"}, "edition"),
    ({"seats": [{"kind": "human"}]}, "seats"),
    ({"seats": [{"kind": "human"}] * 6}, "seats"),
    ({"seats": [{"kind": "alien"}, {"kind": "human"}]}, "seat 0"),
    ({"seats": [{"kind": "human", "colour": "red"}, {"kind": "human"}]}, "seat 0"),
    ({"seats": [{"kind": "bot", "level": "godlike"}, {"kind": "human"}]}, "bot level"),
    ({"seats": [{"kind": "human", "name": "\u0000\u200b "}, {"kind": "human"}]}, "name"),
    ({"seats": [{"kind": "human", "name": 7}, {"kind": "human"}]}, "name"),
    ({"start_player": 2}, "start_player"),
    ({"seed": -1}, "seed"),
    ({"seed": "abc"}, "seed"),
    ({"seed": 1e30}, "seed"),
    ({"short": 0}, "short"),
    ({"short": 79}, "short"),   # the 2020 normal stack has 78 tiles
    ({"colour": "pink"}, "unknown setup field"),
    ({"deal": "seeded"}, "unknown setup field"),
    ([1, 2], "JSON object"),
])
def test_bad_setups_are_refused_and_create_nothing(client: TestClient, setup: Any, words: str) -> None:
    r = client.post("/api/games", json=setup)
    assert r.status_code == 400
    assert r.json()["code"] == "bad_setup"
    assert words in r.json()["message"]
    assert storage_of(client).count() == 0


@pytest.mark.parametrize(("body", "headers", "status", "code"), [
    (b"{not json", {"Content-Type": "application/json"}, 400, "bad_json"),
    (b"{}", {"Content-Type": "text/plain"}, 415, "bad_content_type"),
    (b"{}", {}, 415, "bad_content_type"),
    (b'{"seed": ' + b"9" * 5000 + b"}", {"Content-Type": "application/json"}, 400, "bad_json"),
    (b"[" * 50_000 + b"]" * 50_000, {"Content-Type": "application/json"}, 413, "too_large"),
    (b"[" * 1000 + b"]" * 1000, {"Content-Type": "application/json"}, 400, "bad_json"),
    (b'{"seed": NaN}', {"Content-Type": "application/json"}, 400, "bad_json"),
])
def test_bad_request_bodies_get_their_own_error(client: TestClient, body: bytes, headers: dict[str, str],
                                                status: int, code: str) -> None:
    r = client.post("/api/games", content=body, headers=headers)
    assert (r.status_code, r.json()["code"]) == (status, code), r.text
    assert "Traceback" not in r.text
    assert storage_of(client).count() == 0


def test_creating_games_is_rate_limited_per_address_or_per_account() -> None:
    with TestClient(create_app("sqlite://", bot_delay=0.0, games_per_minute=3)) as c:
        codes = [c.post("/api/games", json=HUMANS).status_code for _ in range(4)]
        assert codes == [201, 201, 201, 429]
        r = c.post("/api/games", json=HUMANS)
        assert r.json()["code"] == "too_many_games" and "minute" in r.json()["message"]
        assert storage_of(c).count() == 3
        # signed in, a person is counted as themselves, not as the address they share
        r = c.post("/api/accounts", json={"name": "Ann Lee", "password": "a long enough secret"})
        assert r.status_code == 201, r.text
        codes = [c.post("/api/games", json=HUMANS).status_code for _ in range(4)]
        assert codes == [201, 201, 201, 429]
        assert storage_of(c).count() == 6


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/api/editions", "/static/app.js"):
        headers = client.get(path).headers
        assert "script-src" not in headers["content-security-policy"]   # default-src 'self' covers it
        assert "default-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"


def test_every_file_of_the_client_is_served_with_its_type_under_the_policy(client: TestClient) -> None:
    """The page's modules (app.js and js/*.js) load as scripts, its catalogues (i18n/*.json) as JSON:
    a browser runs a module only with a JavaScript type, and with nosniff it takes the server's
    word; index.html loads the entry module."""
    web = Path(web_dir())
    files = sorted(p.relative_to(web).as_posix() for p in web.rglob("*") if p.is_file())
    assert "app.js" in files and sum(f.startswith("js/") for f in files) >= 8
    expected = {".js": "text/javascript", ".css": "text/css", ".html": "text/html",
                ".json": "application/json"}
    for name in files:
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        assert r.headers["content-type"].split(";")[0] == expected[Path(name).suffix], name
        assert "default-src 'self'" in r.headers["content-security-policy"]
    assert '<script type="module" src="/static/app.js">' in client.get("/").text
    # every module a module imports is a file the server serves (a typo would stop the page)
    for name in (f for f in files if f.endswith(".js")):
        text = (web / name).read_text(encoding="utf-8")
        for target in re.findall(r'^import [^;]* from "(\./[^"]+)";', text, flags=re.M):
            assert (web / name).parent.joinpath(target).resolve().is_file(), (name, target)


def test_the_page_draws_pieces_and_letters_from_the_servers_data(client: TestClient) -> None:
    meta = client.get("/api/editions").json()
    assert meta["pieces"] == {"meeple": meeple_path(0, 0, 1.15), "hut": hut_path(0, 0, 1.15)}
    assert set(meta["roles"]) == {"fisher", "gatherer", "hunter", "hut"}
    # the letter on a player's colour is black or white, whichever reads better (WCAG ≥ 4.5:1)
    assert [c["ink"] for c in meta["colours"]] == ["#000000", "#000000", "#000000", "#ffffff", "#000000"]


def test_database_urls_are_shown_without_their_password() -> None:
    assert public_url("postgresql://hg:s3cret@db/games") == "postgresql://hg:***@db/games"
    assert "s3cret" not in public_url("postgresql+psycopg://hg:s3cret@db:5432/games")


def test_unknown_game_over_http_and_websocket(client: TestClient) -> None:
    r = client.get("/api/games/doesnotexist")
    assert r.status_code == 404 and r.json()["code"] == "unknown_game"
    assert client.get("/api/games/doesnotexist/at/0").status_code == 404
    assert client.get("/api/games/no%20such/at/0").status_code == 404
    with client.websocket_connect("/ws/doesnotexist") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "unknown_game"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_tile_pictures_cover_every_tile_in_four_rotations(client: TestClient) -> None:
    data = client.get("/api/tiles/2020").json()
    assert len(data["tiles"]) == 95   # 1 start + 78 normal + 16 menhir tiles
    for tile in data["tiles"].values():
        assert len(tile["svg"]) == 4 and len(tile["anchors"]) == 4
        assert set(tile["anchors"][0]) == set(tile["zones"])
        for zone in tile["zones"].values():   # each zone in words, as it lies in each rotation
            phrases = zone["phrases"]
            assert len(phrases) == 4 and all(p.startswith(f"the {zone['kind']}") for p in phrases)
    start = data["tiles"]["56"]["zones"]["3"]["phrases"]   # the start tile's river: west, turned to the north
    assert start[0] == "the river to the west" and start[1] == "the river to the north"
    assert client.get("/api/tiles/1999").status_code == 404
    # the painted style: the same tiles and anchors, other pictures and symbols
    painted = client.get("/api/tiles/2020?style=painted").json()
    assert painted["style"] == "painted" and 'id="hgp-meadow"' in painted["defs"]
    for tid, tile in painted["tiles"].items():
        assert tile["anchors"] == data["tiles"][tid]["anchors"]
        assert "hg-painted" in tile["svg"][0] and "hg-painted" not in data["tiles"][tid]["svg"][0]
    assert client.get("/api/tiles/2020?style=oils").status_code == 400


def test_the_games_list_shows_only_the_games_asked_for(client: TestClient) -> None:
    mine = create(client, {**HUMANS, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}]})
    other = create(client)
    games = client.get(f"/api/games?ids={mine['id']},nosuchgame,bad%20id").json()["games"]
    assert [g["id"] for g in games] == [mine["id"]]
    assert games[0]["players"][0]["name"] == "Ann" and games[0]["status"] == "playing"
    assert client.get("/api/games").json()["games"] == []   # no way to list every game
    assert other["id"] not in str(client.get(f"/api/games?ids={mine['id']}").json())
    too_many = ",".join(f"g{i}" for i in range(101))
    assert client.get(f"/api/games?ids={too_many}").status_code == 400


# --------------------------------------------------------------------------- seats and secrets


def test_a_seat_secret_moves_only_its_seat(client: TestClient) -> None:
    made = create(client)
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ann, client.websocket_connect(f"/ws/{gid}") as bob, \
            client.websocket_connect(f"/ws/{gid}") as cy:
        assert hello(ann, [made["seats"]["0"]], name="Ann")["seats"] == [0]
        welcome = hello(bob, [made["seats"]["1"]], name="Bob")
        assert welcome["seats"] == [1] and welcome["creator"] is False
        watch = hello(cy, [])
        assert watch["seats"] == [] and watch["table"]["watchers"] == 1
        view = watch["snapshot"]
        assert view["decision"]["player"] == 0
        before = history(client, gid)
        turn = {"type": "turn", "version": view["version"], "moves": [view["legal"][0], {"kind": "pass"}]}
        for ws, message, code in [
            (bob, turn | {"seat": 0}, "not_your_seat"),      # a foreign seat
            (cy, turn | {"seat": 0}, "not_your_seat"),       # a spectator trying to move
            (cy, turn | {"seat": 1}, "not_your_seat"),
            (bob, turn | {"seat": 1}, "not_your_turn"),      # his seat, not his turn
            (ann, turn, "bad_request"),                       # seat is required
            (ann, {k: v for k, v in turn.items() if k != "version"} | {"seat": 0}, "bad_request"),
            (ann, turn | {"seat": 0, "version": view["version"] - 1}, "stale"),
            (ann, turn | {"seat": True}, "bad_request"),
            (bob, {"type": "preview", "seat": 0, "version": view["version"], "moves": []}, "not_your_seat"),
            (cy, {"type": "hint", "seat": 0, "version": view["version"], "moves": []}, "not_your_seat"),
            (bob, {"type": "resign", "seat": 0, "version": view["version"]}, "not_your_seat"),
            (bob, {"type": "name", "seat": 0, "name": "Mallory"}, "not_your_seat"),
            (bob, {"type": "seat", "seat": 0, "kind": "bot", "level": "easy"}, "not_creator"),
        ]:
            ws.send_json(message)
            answer = recv(ws, "error")
            assert answer["code"] == code, (message, answer)
            assert answer["version"] == view["version"] and answer["message"]
        assert history(client, gid) == before
        # the holder moves; every page gets the same update
        ann.send_json(turn | {"seat": 0, "request": "t1"})
        updates = [recv(ws, "update") for ws in (ann, bob, cy)]
        ack = recv(ann, "ack")
        assert ack["request"] == "t1" and ack["version"] > view["version"]
        assert updates[0] == updates[1] == updates[2]
        assert updates[0]["version"] == ack["version"] and updates[0]["from"] == view["version"]
        assert updates[0]["decision"]["player"] == 1


def test_a_refused_secret_costs_only_itself(client: TestClient) -> None:
    made = create(client)
    other = create(client)   # a secret of another game holds nothing here
    gid = made["id"]
    cut = made["seats"]["1"][:-3]   # an invitation link whose end a chat app cut off
    with client.websocket_connect(f"/ws/{gid}") as ws:
        welcome = hello(ws, [cut, made["seats"]["0"], other["seats"]["1"], made["creator"], "not-a-secret"])
        # the page holds what its good secrets hold; the others are named by their place in `secrets`
        assert welcome["seats"] == [0] and welcome["creator"] is True
        assert welcome["refused"] == [0, 2, 4]
        assert [s["online"] for s in welcome["table"]["seats"]] == [True, False]
        view = welcome["snapshot"]
        # a refused secret grants nothing: seat 1 is not this page's
        ws.send_json({"type": "turn", "seat": 1, "version": view["version"], "moves": [view["legal"][0]]})
        assert recv(ws, "error")["code"] == "not_your_seat"
        play(ws, view)   # seat 0 is
    with client.websocket_connect(f"/ws/{gid}") as ws:   # nothing but bad secrets: a watcher
        welcome = hello(ws, [cut])
        assert (welcome["seats"], welcome["creator"], welcome["refused"]) == ([], False, [0])
        assert welcome["table"]["watchers"] == 1
        ws.send_json({"type": "resync", "version": None})   # the socket stays open
        assert recv(ws, "snapshot")["game"] == gid
    # the answer tells nothing but "not valid here": a secret of another game, a cut one, one
    # that was never anything, and the right one with its end cut off read alike
    answers = []
    for bad in (other["seats"]["0"], cut, "AAAAAAAAAAAAAAAAAAAAAA", made["creator"][:-1]):
        with client.websocket_connect(f"/ws/{gid}") as ws:
            welcome = hello(ws, [bad])
            answers.append({k: v for k, v in welcome.items() if k not in ("table", "snapshot")})
    assert all(a == answers[0] for a in answers), answers
    assert set(answers[0]) == {"type", "game", "seats", "creator", "version", "refused", "heartbeat"}


@pytest.mark.parametrize(("first", "code"), [
    ({"type": "turn", "seat": 0, "version": 1, "moves": []}, "hello_first"),
    ({"type": "hello", "secrets": "abc"}, "bad_request"),
    ({"type": "hello", "secrets": ["x" * 101]}, "bad_request"),
    ({"type": "hello", "secrets": ["a"] * 9}, "bad_request"),
    ({"type": "hello", "secrets": [], "version": "7"}, "bad_request"),
    ({"type": "hello", "secrets": [], "name": ""}, None),   # an empty name is no name
])
def test_hello_is_checked(client: TestClient, first: dict[str, Any], code: str | None) -> None:
    made = create(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json(first)
        answer = ws.receive_json()
        if code is None:
            assert answer["type"] == "welcome"
        else:
            assert answer["type"] == "error" and answer["code"] == code, answer
            hello(ws, [])   # the page can still say hello properly


def test_hotseat_one_page_holds_several_seats(client: TestClient) -> None:
    made = create(client, {**HUMANS, "seats": [{"kind": "human"}] * 3})
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        welcome = hello(ws, [made["creator"], *made["seats"].values()])
        assert welcome["seats"] == [0, 1, 2] and welcome["creator"] is True
        assert all(s["online"] for s in welcome["table"]["seats"])
        view = welcome["snapshot"]
        for _ in range(3):   # each seat in turn, from one page
            view = play(ws, view)
        placed = [e["player"] for e in view["log"] if e["kind"] == "TilePlaced" and not e["bonus"]]
        assert placed[:3] == [0, 1, 2]


def test_names_are_cleaned_stored_and_shown_to_everyone(client: TestClient) -> None:
    made = create(client)
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ann, client.websocket_connect(f"/ws/{gid}") as cy:
        hello(cy, [])
        welcome = hello(ann, [made["seats"]["0"]], name="  <b>Ann</b>\u202e\n ")
        assert welcome["table"]["seats"][0]["name"] == "<b>Ann</b>"   # escaping is the page's job
        assert recv(cy, "table")["seats"][0]["name"] == "<b>Ann</b>"
        ann.send_json({"type": "name", "seat": 0, "name": "A" * 100})
        table = recv(cy, "table")
        assert table["seats"][0]["name"] == "A" * 24
        assert recv(ann, "ack")["request"] is None
        ann.send_json({"type": "name", "seat": 0, "name": "\u0007"})
        assert recv(ann, "error")["code"] == "bad_request"
    stored = storage_of(client).load(gid)
    assert stored is not None and stored.seats[0].name == "A" * 24


def test_presence_joined_online_and_watchers(client: TestClient) -> None:
    made = create(client)
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ann:
        table = hello(ann, [made["creator"], made["seats"]["0"]])["table"]
        assert [(s["joined"], s["online"]) for s in table["seats"]] == [(True, True), (False, False)]
        with client.websocket_connect(f"/ws/{gid}") as bob:
            hello(bob, [made["seats"]["1"]])
            table = recv(ann, "table")
            assert [(s["joined"], s["online"]) for s in table["seats"]] == [(True, True), (True, True)]
        table = recv(ann, "table")   # Bob left
        assert [(s["joined"], s["online"]) for s in table["seats"]] == [(True, True), (True, False)]
        with client.websocket_connect(f"/ws/{gid}") as cy:
            hello(cy, [])
            assert recv(ann, "table")["watchers"] == 1


def test_a_seat_is_joined_once_its_link_is_opened_not_while_the_creator_holds_it(client: TestClient) -> None:
    made = create(client)
    gid = made["id"]
    everything = [made["creator"], made["seats"]["0"], made["seats"]["1"]]
    with client.websocket_connect(f"/ws/{gid}") as ann:   # the new game's page holds every seat
        table = hello(ann, everything)["table"]
        assert [(s["joined"], s["online"]) for s in table["seats"]] == [(False, True), (False, True)]
    with client.websocket_connect(f"/ws/{gid}") as ann:   # it handed seat 1's link out
        table = hello(ann, [made["creator"], made["seats"]["0"]])["table"]
        assert [(s["joined"], s["online"]) for s in table["seats"]] == [(True, True), (False, False)]
        with client.websocket_connect(f"/ws/{gid}") as bob:   # Bob opens it
            hello(bob, [made["seats"]["1"]])
            table = recv(ann, "table")
            assert [(s["joined"], s["online"]) for s in table["seats"]] == [(True, True), (True, True)]
        table = recv(ann, "table")   # Bob left: offline, no longer "not joined yet"
        assert [(s["joined"], s["online"]) for s in table["seats"]] == [(True, True), (True, False)]
    stored = storage_of(client).load(gid)
    assert stored is not None and [s.joined for s in stored.seats] == [True, True]


def test_the_server_answers_a_ping_and_pings_every_page() -> None:
    with TestClient(create_app("sqlite://", bot_delay=0.0, heartbeat=0.05, silent_after=30.0)) as c:
        made = create(c)
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "ping"})   # before hello too
            assert recv(ws, "pong", skip=("ping",)) == {"type": "pong"}
            welcome = hello(ws, [made["seats"]["0"]])
            assert welcome["heartbeat"] == 0.05
            assert recv(ws, "ping", skip=("table", "ping")) == {"type": "ping"}
            ws.send_json({"type": "ping", "request": 3})
            assert recv(ws, "pong", skip=("ping",)) == {"type": "pong"}
    with pytest.raises(ValueError, match="heartbeat must be positive and shorter than the silence"):
        create_app("sqlite://", heartbeat=5.0, silent_after=5.0)


def test_a_page_that_talks_both_ways_is_not_pinged_and_a_quiet_one_is() -> None:
    """At each look (every heartbeat) a page is pinged unless it has spoken since the last look
    and was pushed a message within half a heartbeat: a page playing a game at a turn a second
    gets no ping, while a page that only listens, or is told nothing, still does (and never
    goes more than a heartbeat and a half without a message)."""
    from huntgather.server.connection import Connection

    beat = 0.1

    async def scene() -> dict[str, list[str]]:
        sent: dict[str, list[str]] = {"playing": [], "listening": [], "told_nothing": []}
        pages: dict[str, Connection] = {}
        writers = []
        for name, log in sent.items():
            async def send(text: str, log: list[str] = log) -> None:
                log.append(text)

            async def close(code: int, reason: str) -> None:
                pass
            conn = pages[name] = Connection(send, close)
            conn.keep_alive(beat, 30.0, "ping")
            writers.append(asyncio.create_task(conn.run()))
        loop = asyncio.get_running_loop()
        for _ in range(100):   # 2 s: 20 looks at each page, a message each way every 0.02 s
            await asyncio.sleep(beat / 5)
            pages["playing"].heard(loop.time())
            pages["playing"].push("update")
            pages["listening"].push("update")
            pages["told_nothing"].heard(loop.time())
        for conn in pages.values():
            conn.finish()
        await asyncio.gather(*writers)
        return sent

    sent = asyncio.run(scene())
    # (a loaded machine may hold the loop past half a heartbeat now and then: a ping or two)
    assert sent["playing"].count("ping") <= 2 and sent["playing"].count("update") == 100
    assert sent["listening"].count("ping") >= 15 and sent["told_nothing"].count("ping") >= 15


def test_a_silent_page_is_closed_and_its_seat_shown_offline() -> None:
    with TestClient(create_app("sqlite://", bot_delay=0.0, heartbeat=0.05, silent_after=1.5)) as c:
        made = create(c)
        gid = made["id"]
        with c.websocket_connect(f"/ws/{gid}") as ann, c.websocket_connect(f"/ws/{gid}") as bob:
            hello(ann, [made["creator"], made["seats"]["0"]])
            hello(bob, [made["seats"]["1"]])
            # Bob's page says nothing more (its network is gone); Ann's answers every ping
            table = recv(ann, "table")
            while table["seats"][1]["online"]:
                table = recv(ann, "table")
            assert [(s["joined"], s["online"]) for s in table["seats"]] == [(True, True), (True, False)]
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    assert bob.receive_json()["type"] in ("ping", "table")
            assert closed.value.code == 4009


# --------------------------------------------------------------------------- versions and reconnecting


def test_a_page_that_reconnects_receives_exactly_the_missed_events(client: TestClient) -> None:
    made = create(client, {**HUMANS, "short": 12})
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as bob:
        seen = hello(bob, [made["seats"]["1"]])["snapshot"]
    with client.websocket_connect(f"/ws/{gid}") as ann, client.websocket_connect(f"/ws/{gid}") as cy:
        view = hello(ann, [made["seats"]["0"]])["snapshot"]
        watched = hello(cy, [])["snapshot"]
        missed: list[dict[str, Any]] = []
        view = play(ann, view)                    # Ann moves while Bob is away ...
        missed.append(recv(cy, "update"))
        watched = apply_update(watched, missed[-1])
    with client.websocket_connect(f"/ws/{gid}") as bob:
        hello(bob, [made["seats"]["1"]], version=seen["version"])
        catch_up = recv(bob, "update")
        assert catch_up["from"] == seen["version"] and catch_up["version"] == view["version"]
        assert catch_up["events"] == [e for u in missed for e in u["events"]]
        assert apply_update(seen, catch_up) == watched   # the same view as a page that never left
        # up to date: a hello with the current version gets no catch-up at all
    with client.websocket_connect(f"/ws/{gid}") as cy:
        hello(cy, [], version=view["version"])
        cy.send_json({"type": "resync", "version": view["version"]})
        cy.send_json({"type": "resync", "version": -5})   # a version never seen: a snapshot
        assert recv(cy, "snapshot", "update")["type"] == "snapshot"


def test_a_stale_turn_is_refused_with_the_current_version(client: TestClient) -> None:
    made = create(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        view = hello(ws, [made["creator"], *made["seats"].values()])["snapshot"]
        old = view
        view = play(ws, view)
        ws.send_json({"type": "turn", "seat": 1, "version": old["version"],
                      "moves": [view["legal"][0], {"kind": "pass"}]})
        answer = recv(ws, "error")
        assert answer["code"] == "stale" and answer["version"] == view["version"]
        assert str(view["version"]) in answer["message"]


def test_bad_messages_get_their_own_error_and_change_nothing(client: TestClient) -> None:
    made = create(client)
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = hello(ws, [made["seats"]["0"]])["snapshot"]
        v = view["version"]
        before = history(client, gid)
        start_tile = {"kind": "place", "x": 0, "y": 0, "rotation": 0}   # the start tile lies at (0,0)
        bad: list[tuple[Any, str]] = [
            ("{not json", "bad_json"),
            ("[1, 2]", "bad_request"),
            ('{"type": "turn", "seat": ' + "9" * 4400 + "}", "bad_json"),   # a huge number
            ("[" * 100 + "]" * 100, "bad_json"),                              # nested too deep
            ('{"type": "turn", "x": NaN}', "bad_json"),
            ('{"type": "turn", "seat": 0, "version": 1, "moves": [], "pad": "' + "x" * 70_000 + '"}',
             "too_large"),
            ({"type": "dance"}, "bad_request"),
            ({"type": "hello", "secrets": []}, "bad_request"),   # hello comes once
            ({"type": "turn", "seat": 0, "version": v, "moves": "12@0,1r0"}, "bad_request"),
            ({"type": "turn", "seat": 0, "version": v, "moves": []}, "bad_request"),
            ({"type": "turn", "seat": 0, "version": v, "moves": ["12@0,1r0"]}, "invalid_move"),
            ({"type": "turn", "seat": 0, "version": v, "moves": [{"kind": "fly"}]}, "invalid_move"),
            ({"type": "turn", "seat": 0, "version": v, "moves": [{"kind": "place", "x": 1}]}, "invalid_move"),
            ({"type": "turn", "seat": 0, "version": v,
              "moves": [{"kind": "place", "x": 10**9, "y": 0, "rotation": 0}]}, "invalid_move"),
            ({"type": "turn", "seat": 0, "version": v, "moves": [start_tile | {"evil": 1}]}, "invalid_move"),
            ({"type": "turn", "seat": 0, "version": v, "moves": [start_tile]}, "illegal_move"),
            ({"type": "turn", "seat": 0, "version": v, "moves": [{"kind": "pass"}]}, "illegal_move"),
            ({"type": "turn", "seat": 0, "version": v,
              "moves": [view["legal"][0], {"kind": "pass"}, view["legal"][1]]}, "illegal_move"),
            ({"type": "turn", "seat": 0, "version": v, "moves": [{}] * 5}, "bad_request"),
            ({"type": "preview", "seat": 0, "version": v, "moves": [start_tile]}, "illegal_move"),
            ({"type": "turn", "request": {"a": 1}, "seat": 0, "version": v, "moves": []}, "bad_request"),
        ]
        for message, code in bad:
            if isinstance(message, str):
                ws.send_text(message)
            else:
                ws.send_json(message)
            answer = recv(ws, "error")
            assert answer["code"] == code, (message if isinstance(message, dict) else message[:80], answer)
            assert answer["message"] and "Traceback" not in answer["message"]
        ws.send_bytes(b"\x00\x01")
        assert recv(ws, "error")["code"] == "binary_not_accepted"
        ws.send_json({"type": "resync", "version": None})
        assert recv(ws, "snapshot") == view   # nothing changed
    assert history(client, gid) == before


def test_preview_shows_structured_choices_and_stores_nothing(client: TestClient) -> None:
    made = create(client, {**HUMANS, "short": None})
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = hello(ws, [made["seats"]["0"]])["snapshot"]
        reference = reference_game(client, gid)
        for place in view["legal"][:12]:
            ws.send_json({"type": "preview", "request": 7, "seat": 0, "version": view["version"],
                          "moves": [place]})
            preview = recv(ws, "preview")
            assert preview["request"] == 7 and preview["version"] == view["version"]
            state = reference.state.copy()
            state.apply(move_from_json(state, place))
            engine = {str(m) for m in state.legal_moves()} if state.phase in ("shaman", "occupy") else set()
            offered = {str(move_from_json(state, m)) for m in preview["legal"]}
            assert offered == engine
            assert preview["turn_over"] is (not engine)
            for choice in preview["legal"]:
                assert choice["text"]   # every choice in words
                assert "zone" not in choice["text"] and "tile" not in choice["text"]
            assert not any(e["kind"] == "TileDrawn" for e in preview["events"])   # a preview draws nothing
    assert history(client, gid) == [str(m) for m in reference.history]


# --------------------------------------------------------------------------- hidden information


class LowestFirst(random.SystemRandom):
    """A scripted draw source: the lowest tile while more than ``switch`` are left, then the highest
    (with ``then_highest``).  Stateless, so the copies the server makes share it harmlessly."""

    def __init__(self, switch: int, then_highest: bool) -> None:
        super().__init__()
        self.switch, self.then_highest = switch, then_highest

    def choice(self, seq: Any) -> Any:
        if len(seq) > self.switch or not self.then_highest:
            return min(seq)
        return max(seq)

    def sample(self, population: Any, k: int, **kwargs: Any) -> list[Any]:
        return sorted(population)[:k]   # the short game's stack: the same in both games


def _scripted_app(then_highest: bool) -> Any:
    def rooms(storage: Storage, workers: Any) -> Rooms:
        return Rooms(storage, workers, 0.0, hint_search=30,   # exact: no time cap
                     draws=lambda: LowestFirst(3, then_highest))
    return create_app("sqlite://", bot_delay=0.0, rooms_factory=rooms)


def _received_until_the_draws_differ(then_highest: bool) -> list[list[dict[str, Any]]]:
    """Every message two players and a watcher receive over two turns of a 6-tile game whose first
    three draws are the lowest tiles; the game id, which differs, is left out."""
    with TestClient(_scripted_app(then_highest)) as c:
        made = create(c, {"seats": [{"kind": "human"}, {"kind": "human"}], "short": 6})
        gid = made["id"]
        logs: list[list[dict[str, Any]]] = [[], [], []]
        with c.websocket_connect(f"/ws/{gid}") as ann, c.websocket_connect(f"/ws/{gid}") as bob, \
                c.websocket_connect(f"/ws/{gid}") as cy:
            pages = [ann, bob, cy]
            secrets = [[made["seats"]["0"]], [made["seats"]["1"]], []]

            def until(seat: int, kind: str, request: Any = None) -> None:
                while not any(m["type"] == kind and m.get("request") == request for m in logs[seat]):
                    logs[seat].append(pages[seat].receive_json())

            for seat, secret in enumerate(secrets):   # one after the other, so the order is always the same
                pages[seat].send_json({"type": "hello", "secrets": secret, "version": None})
                until(seat, "snapshot")
            view = c.get(f"/api/games/{gid}").json()
            for turn in range(2):   # the draw after the second turn still comes from 4 tiles: the same
                seat = view["decision"]["player"]
                page = pages[seat]
                page.send_json({"type": "preview", "request": turn, "seat": seat, "version": view["version"],
                                "moves": [view["legal"][0]]})
                page.send_json({"type": "hint", "request": 10 + turn, "seat": seat,
                                "version": view["version"], "moves": []})
                until(seat, "hint", 10 + turn)
                page.send_json({"type": "turn", "request": 20 + turn, "seat": seat,
                                "version": view["version"], "moves": [view["legal"][0], {"kind": "pass"}]})
                until(seat, "ack", 20 + turn)
                view = c.get(f"/api/games/{gid}").json()
            for ws, log in zip(pages, logs, strict=True):
                ws.send_json({"type": "resync", "version": None})
                while not log or log[-1]["type"] != "snapshot" or log[-1]["version"] != view["version"]:
                    log.append(ws.receive_json())
        for log in logs:
            for m in log:
                m.pop("game", None)
        # the server's heartbeat pings come by the clock, not by the game: left out
        return [[m for m in log if m["type"] != "ping"] for log in logs]


def test_nothing_a_page_receives_depends_on_the_draws_still_to_come() -> None:
    # Two games whose first three draws are the same and whose later draws differ: every message
    # of both players and the watcher (welcome, tables, snapshots, previews, hints, updates,
    # acks) is identical.  If anything derived from the future order leaked, they would differ.
    low = _received_until_the_draws_differ(then_highest=False)
    high = _received_until_the_draws_differ(then_highest=True)
    assert sum(len(log) for log in low) > 15
    assert low == high
    for log in low:
        for m in log:
            assert m.get("seed") is None and "rng" not in str(m)


def test_the_seed_is_revealed_only_when_the_game_is_over(client: TestClient) -> None:
    made = create(client, {**HUMANS, "seed": None, "short": 2})
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        view = hello(ws, [made["creator"], *made["seats"].values()])["snapshot"]
        assert view["seed"] is None and view["deal"] == "secret"
        while not view["over"]:
            view = play(ws, view)
        stored = storage_of(client).load(made["id"])
        assert stored is not None and view["seed"] == stored.setup["seed"]


def test_secret_deals_are_drawn_from_the_operating_system() -> None:
    # two games with the same setup (no seed) almost surely differ in their first 3 draws
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as c:
        firsts = set()
        for _ in range(4):
            made = create(c, {"seats": [{"kind": "human"}] * 2})
            firsts.add(tuple(history(c, made["id"])))
        assert len(firsts) > 1


# --------------------------------------------------------------------------- playing and storing


def test_a_hotseat_game_is_stored_move_by_move_and_replays_exactly(client: TestClient) -> None:
    made = create(client)
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = hello(ws, [made["creator"], *made["seats"].values()])["snapshot"]
        while not view["over"]:
            view = play(ws, view)
    stored = storage_of(client).load(gid)
    assert stored is not None
    again = restore_game(GameSetup.from_json(stored.setup, stored=True), stored.history)
    assert list(again.scores) == [p["score"] for p in view["players"]] == view["final"]["scores"]
    assert again.is_over
    # the page built from the first snapshot plus updates equals a fresh snapshot
    assert client.get(f"/api/games/{gid}").json() | {"log": None} == view | {"log": None, "type": "snapshot"}
    assert [e for e in client.get(f"/api/games/{gid}").json()["log"] if e["kind"] != "TileDrawn"] == \
        [e for e in view["log"] if e["kind"] != "TileDrawn"]
    # the final table's rows add up to the final scores minus what was scored during play
    during = [0, 0]
    for entry in view["log"]:
        if entry["kind"] == "FeatureScored":
            during = [a + b for a, b in zip(during, entry["points"], strict=True)]
    totals = [during[i] + sum(r["points"][i] for r in view["final"]["rows"]) for i in range(2)]
    assert totals == view["final"]["scores"]
    assert client.get(f"/api/games?ids={gid}").json()["games"][0]["status"] == "over"
    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = hello(ws, [made["seats"]["0"]])["snapshot"]
        ws.send_json({"type": "turn", "seat": 0, "version": view["version"], "moves": [{"kind": "pass"}]})
        assert recv(ws, "error")["code"] == "game_over"


def test_replay_positions(client: TestClient) -> None:
    made = create(client)
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = hello(ws, [made["creator"], *made["seats"].values()])["snapshot"]
        while not view["over"]:
            view = play(ws, view)
    start = client.get(f"/api/games/{gid}/at/0").json()
    assert len(start["board"]) == 1 and start["total"] == view["version"] and start["replay"] is True
    assert start["legal"] == []
    end = client.get(f"/api/games/{gid}/at/{view['version']}").json()
    assert sorted(map(str, end["board"])) == sorted(map(str, view["board"]))
    # after the first draw and the first placement, two tiles lie on the board
    assert len(client.get(f"/api/games/{gid}/at/2").json()["board"]) == 2
    for bad in ("-1", str(view["version"] + 1)):
        assert client.get(f"/api/games/{gid}/at/{bad}").status_code == 400
    assert client.get(f"/api/games/{gid}/at/two").json()["code"] == "bad_request"


DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not os.environ.get("HUNTGATHER_TEST_POSTGRES"),
    reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL to test PostgreSQL"))]


@pytest.mark.parametrize("kind", DATABASES)
@pytest.mark.parametrize("seeded", [True, False])
def test_resume_after_restart_continues_the_same_game(tmp_path: Path, kind: str, seeded: bool) -> None:
    db = str(tmp_path / "games.sqlite") if kind == "sqlite" else os.environ["HUNTGATHER_TEST_POSTGRES"]
    setup = {**HUMANS, "short": 10} if seeded else {"seats": HUMANS["seats"], "short": 10}
    with TestClient(create_app(db, bot_delay=0.0)) as c1:
        made = create(c1, setup)
        gid = made["id"]
        with c1.websocket_connect(f"/ws/{gid}") as ws:
            view = hello(ws, [made["creator"], *made["seats"].values()], name="Ann")["snapshot"]
            for _ in range(3):
                view = play(ws, view)
    before = view
    with TestClient(create_app(db, bot_delay=0.0)) as c2:
        resumed = c2.get(f"/api/games/{gid}").json()
        assert resumed == before | {"type": "snapshot", "log": resumed["log"]}
        # the secrets still hold their seats, the names are kept, old versions still catch up
        with c2.websocket_connect(f"/ws/{gid}") as ws:
            welcome = hello(ws, [made["seats"]["1"], made["seats"]["0"]], version=before["version"])
            assert welcome["seats"] == [0, 1] and welcome["table"]["seats"][0]["name"] == "Ann"
            view = play(ws, view)
        stored = storage_of(c2).load(gid)
        assert stored is not None
        if seeded:   # the same moves on a game that never stopped bring the same next draws
            reference = build_game(GameSetup.from_json(setup))
            for text in stored.history[len(reference.history):]:
                if not text.startswith("d"):
                    reference.play(parse_move(text))
            assert stored.history == [str(m) for m in reference.history]
        else:        # a new tile was drawn, from what was left
            assert isinstance(parse_move(stored.history[-1]), Draw)
            drawn = int(stored.history[-1][1:])
            # from what was left, or from the menhir stack for a menhir turn
            assert drawn in before["remaining"] or drawn in get_edition("2020").tiles.bonus_ids


def test_storage_refuses_a_conflicting_append() -> None:
    st = Storage("sqlite://")
    st.create("g", {"edition": "2020"}, ["d1"])
    st.append("g", 1, ["1@0,1r0"], status="playing", scores=[0, 0])
    with pytest.raises(StorageError, match="2 stored moves, not 1"):
        st.append("g", 1, ["-"], status="playing", scores=[0, 0])
    with pytest.raises(StorageError, match="no stored game"):
        st.append("nope", 0, ["-"], status="playing", scores=[0, 0])
    stored = st.load("g")
    assert stored is not None and stored.history == ["d1", "1@0,1r0"]


def test_restore_refuses_a_record_whose_draws_differ() -> None:
    setup = GameSetup.from_json(HUMANS)
    game = build_game(setup)
    wrong = next(t for t in (*game.state.normal, game.decision.tile) if t != game.decision.tile)
    with pytest.raises(ValueError, match="differs from the replay"):
        restore_game(setup, [f"d{wrong}"])


def test_a_game_stored_before_seats_had_secrets_is_open_to_its_pages(tmp_path: Path) -> None:
    # such a game has no seat rows: as before, any page may move for its person seats
    db = tmp_path / "old.sqlite"
    st = Storage(str(db))
    setup = GameSetup.from_json(HUMANS)
    st.create("oldgame", setup.to_json() | {"deal": None}, [str(m) for m in build_game(setup).history])
    with sqlite3.connect(db) as conn:   # the old setup had no "deal": its draws follow its seed
        conn.execute("UPDATE hg_games SET setup = ? WHERE id = 'oldgame'",
                     ('{"edition": "2020", "seats": [{"kind": "human"}, {"kind": "human"}], '
                      '"start_player": 0, "seed": 11, "short": 6}',))
    st.close()
    with TestClient(create_app(str(db), bot_delay=0.0)) as c:
        with c.websocket_connect("/ws/oldgame") as ws:
            welcome = hello(ws, [])
            assert welcome["seats"] == [0, 1]
            play(ws, welcome["snapshot"])
        assert c.delete("/api/games/oldgame").status_code == 204


def test_admin_secures_the_games_stored_before_seats_had_secrets(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """huntgather admin secure-old-games gives such a game a creator's secret and one per person
    seat (a bot seat none) and prints their links once; after it, a page with no secret only
    watches, the printed links hold their seats, and the creator's secret deletes the game."""
    db = tmp_path / "old.sqlite"
    st = Storage(str(db))
    setup = GameSetup.from_json({"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
                                 "seed": 5, "short": 6})
    st.create("oldgame", setup.to_json(), [str(m) for m in build_game(setup).history])
    st.create("newgame", setup.to_json(), [str(m) for m in build_game(setup).history],
              [SeatRow(0, "human", None, "Ann", hash_secret("s"), True),
               SeatRow(1, "bot", "random", None, None, True)], hash_secret("c"))
    st.close()
    assert cli_main(["admin", "secure-old-games", "--db", str(db)]) == 0
    said = capsys.readouterr().out
    creator = re.search(r"game oldgame: creator's secret (\S+)", said)
    link = re.search(r"seat 0: /#/play/oldgame/(\S+)", said)
    assert creator and link and "seat 1:" not in said and "newgame" not in said, said
    assert "1 game stored before seats had secrets was given secrets" in said
    assert cli_main(["admin", "secure-old-games", "--db", str(db)]) == 0   # nothing left to do
    assert "0 games stored" in capsys.readouterr().out
    st = Storage(str(db))
    stored = st.load("oldgame")
    assert stored is not None
    assert [(r.kind, r.level) for r in stored.seats] == [("human", None), ("bot", "random")]
    st.close()
    with TestClient(create_app(str(db), bot_delay=0.0)) as c:
        with c.websocket_connect("/ws/oldgame") as ws:
            assert hello(ws, [])["seats"] == []   # no longer open to every page
        with c.websocket_connect("/ws/oldgame") as ws:
            assert hello(ws, [link.group(1)])["seats"] == [0]
        assert c.delete("/api/games/oldgame").status_code == 403
        assert c.delete("/api/games/oldgame", headers={"Authorization": f"Bearer {creator.group(1)}"}
                        ).status_code == 204


# --------------------------------------------------------------------------- bots and seat changes


def wait_for(client: TestClient, gid: str, done: Any, limit: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while True:
        view: dict[str, Any] = client.get(f"/api/games/{gid}").json()
        if done(view) or time.monotonic() > deadline:
            return view
        time.sleep(0.02)


def test_bots_play_a_whole_game_by_themselves(client: TestClient) -> None:
    seats = [{"kind": "bot", "level": level} for level in ("random", "easy", "greedy")]
    made = create(client, {"seats": seats, "short": 8, "unwatched": True})   # no page watches it
    assert made["seats"] == {}
    view = wait_for(client, made["id"], lambda v: v["over"])
    assert view["over"], "the bots did not finish the game"
    stored = storage_of(client).load(made["id"])
    assert stored is not None
    again = restore_game(GameSetup.from_json(stored.setup, stored=True), stored.history)
    assert list(again.scores) == view["final"]["scores"]


@pytest.mark.parametrize("level", ["easy", "expert"])
def test_a_bot_answers_a_persons_turn(client: TestClient, level: str) -> None:
    made = create(client, {"seats": [{"kind": "human"}, {"kind": "bot", "level": level}], "short": 6})
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        view = hello(ws, [made["seats"]["0"]])["snapshot"]
        view = play(ws, view)
        while not view["over"] and view["decision"]["player"] != 0:   # updates until it is ours again
            view = apply_update(view, recv(ws, "update"))
    placed_by = [e["player"] for e in view["log"] if e["kind"] == "TilePlaced" and not e["bonus"]]
    assert placed_by[:2] == [0, 1]


def test_a_bot_seat_cannot_be_played_by_a_client() -> None:
    setup = {"seats": [{"kind": "bot", "level": "random"}, {"kind": "human"}], "start_player": 0, "short": 6}
    with TestClient(create_app("sqlite://", bot_delay=30.0)) as slow:   # the bot waits: its turn stays open
        made = create(slow, setup)
        with slow.websocket_connect(f"/ws/{made['id']}") as ws:
            view = hello(ws, [made["creator"], made["seats"]["1"]])["snapshot"]
            assert view["decision"]["player"] == 0
            for kind in ("turn", "hint"):
                ws.send_json({"type": kind, "seat": 0, "version": view["version"], "moves": []})
                assert recv(ws, "error")["code"] == "not_your_seat"
                ws.send_json({"type": kind, "seat": 1, "version": view["version"], "moves": []})
                answer = recv(ws, "error")
                assert answer["code"] == "not_your_turn" and "bot" in answer["message"]


def test_the_creator_hands_a_seat_to_a_bot_and_back(client: TestClient) -> None:
    made = create(client, {**HUMANS, "short": 10})
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ann, client.websocket_connect(f"/ws/{gid}") as bob:
        view = hello(ann, [made["creator"], made["seats"]["0"]])["snapshot"]
        hello(bob, [made["seats"]["1"]])
        view = play(ann, view)   # Bob's turn now; Bob leaves the table
        ann.send_json({"type": "seat", "seat": 1, "kind": "bot", "level": "wizard"})
        assert recv(ann, "error")["code"] == "bad_request"
        ann.send_json({"type": "seat", "seat": 1, "kind": "bot", "level": "greedy"})
        table = recv(ann, "table")
        while table["seats"][1]["kind"] != "bot":
            table = recv(ann, "table")
        assert table["seats"][1]["level"] == "greedy" and table["seats"][1]["online"]
        assert recv(ann, "ack")["request"] is None
        # Bob's page no longer holds the seat, and the bot plays it
        bob.send_json({"type": "turn", "seat": 1, "version": view["version"], "moves": []})
        assert recv(bob, "error", skip=("table", "update"))["code"] == "not_your_seat"
        view = until_placed_by(ann, view, 1)
        assert any(e["kind"] == "TilePlaced" and e["player"] == 1 for e in view["log"])
    with client.websocket_connect(f"/ws/{gid}") as bob:   # the old link holds nothing now
        welcome = hello(bob, [made["seats"]["1"]])
        assert (welcome["seats"], welcome["refused"]) == ([], [0])
    with client.websocket_connect(f"/ws/{gid}") as ann:   # and back to a person, with a new secret
        hello(ann, [made["creator"]])
        ann.send_json({"type": "seat", "seat": 1, "kind": "human"})
        # the bot may still finish a move it was making: its update may come first
        fresh = recv(ann, "seat_secret", skip=("table", "update"))
        assert fresh["seat"] == 1 and fresh["secret"] != made["seats"]["1"]
    with client.websocket_connect(f"/ws/{gid}") as bob:
        assert hello(bob, [fresh["secret"]])["seats"] == [1]


def test_a_flood_of_renames_is_held_to_the_pages_budget_and_the_page_plays_on(client: TestClient) -> None:
    """200 renames at once (each one a database write): the page's budget of costly intents
    takes the first 20 and then 5 a second; the rest are answered ``too_fast``, stored nowhere,
    and the page stays connected and plays its turn."""
    made = create(client, HUMANS)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        view = hello(ws, [made["seats"]["0"], made["seats"]["1"]])["snapshot"]
        started = time.monotonic()
        for i in range(200):
            ws.send_json({"type": "name", "request": i, "seat": 0, "name": f"Ann {i}"})
        answers = [recv(ws, "ack", "error") for _ in range(200)]
        elapsed = time.monotonic() - started
        done = [a["request"] for a in answers if a["type"] == "ack"]
        refused = [a for a in answers if a["type"] == "error"]
        assert {a["code"] for a in refused} == {"too_fast"}
        assert 20 <= len(done) <= 20 + 5 * elapsed + 1, (len(done), elapsed)
        assert done == sorted(done) and done[:20] == list(range(20))
        stored = storage_of(client).load(made["id"])
        assert stored is not None and stored.seats[0].name == f"Ann {done[-1]}"
        play(ws, view, request=999)   # turns are not counted: the page plays on


def test_a_seat_given_a_new_secret_is_taken_from_the_page_open_with_the_old_one(client: TestClient) -> None:
    """The creator revokes Bob's link (the seat to a person again, a new secret): Bob's page,
    still open, loses the seat at once and cannot move for it (the bug: it kept the seat and
    played a turn)."""
    made = create(client, {**HUMANS, "short": 10})
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ann, client.websocket_connect(f"/ws/{gid}") as bob:
        view = hello(ann, [made["creator"], made["seats"]["0"]])["snapshot"]
        assert hello(bob, [made["seats"]["1"]])["seats"] == [1]
        view = play(ann, view)   # Bob's turn now
        ann.send_json({"type": "seat", "seat": 1, "kind": "human"})
        fresh = recv(ann, "seat_secret")
        assert fresh["seat"] == 1 and fresh["secret"] != made["seats"]["1"]
        bob.send_json({"type": "turn", "seat": 1, "version": view["version"], "moves": []})
        assert recv(bob, "error", skip=("table", "update"))["code"] == "not_your_seat"
        bob.send_json({"type": "name", "seat": 1, "name": "Bob"})
        assert recv(bob, "error", skip=("table", "update"))["code"] == "not_your_seat"
    with client.websocket_connect(f"/ws/{gid}") as bob:   # the new secret holds it
        assert hello(bob, [fresh["secret"]])["seats"] == [1]


def test_resigning_hands_the_seat_to_a_bot(client: TestClient) -> None:
    made = create(client, {**HUMANS, "short": 10})
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ann, client.websocket_connect(f"/ws/{gid}") as bob:
        view = hello(ann, [made["seats"]["0"]])["snapshot"]
        hello(bob, [made["seats"]["1"]])
        bob.send_json({"type": "resign", "seat": 1, "version": view["version"] - 1})
        assert recv(bob, "error")["code"] == "stale"
        bob.send_json({"type": "resign", "seat": 1, "version": view["version"]})
        table = recv(ann, "table")
        while table["seats"][1]["kind"] != "bot":
            table = recv(ann, "table")
        assert recv(bob, "ack")["request"] is None
        bob.send_json({"type": "name", "seat": 1, "name": "Bob"})   # the seat is no longer Bob's
        assert recv(bob, "error")["code"] == "not_your_seat"
        view = until_placed_by(ann, view, 1)
        placed = [e["player"] for e in view["log"] if e["kind"] == "TilePlaced" and not e["bonus"]]
        assert placed[:2] == [0, 1]


def test_a_move_that_cannot_be_stored_does_not_count(client: TestClient,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    made = create(client)
    gid = made["id"]
    storage = storage_of(client)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise StorageError("INSERT INTO hg_moves failed: disk I/O error")

    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = hello(ws, [made["seats"]["0"]])["snapshot"]
        monkeypatch.setattr(storage, "append_async", broken)
        turn = {"type": "turn", "seat": 0, "version": view["version"],
                "moves": [view["legal"][0], {"kind": "pass"}]}
        ws.send_json(turn)
        answer = recv(ws, "error")
        assert answer["code"] == "storage_failed" and "does not count" in answer["message"]
        assert "INSERT" not in answer["message"] and "disk" not in answer["message"]   # no SQL to the client
        monkeypatch.undo()
        ws.send_json({"type": "resync", "version": None})
        assert recv(ws, "snapshot") == view
        ws.send_json(turn)   # once the database works again, the same turn is accepted
        assert recv(ws, "update")["from"] == view["version"]
        assert recv(ws, "ack")["version"] > view["version"]


@pytest.mark.parametrize("setup", [HUMANS, {"seats": HUMANS["seats"], "short": 6}], ids=["seeded", "secret"])
def test_a_move_that_cannot_be_stored_leaves_the_game_and_a_seeded_deals_draws_as_they_were(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, setup: dict[str, Any]) -> None:
    """A turn refused with storage_failed changes nothing the game shows, and a seeded deal draws
    the same tiles once the turn is stored as a game where nothing failed (its copy of the game,
    unlike a secret deal's, draws from a copy of the generator: Room._turn_copy)."""
    storage = storage_of(client)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise StorageError("database is locked")

    def two_turns(fail: bool) -> list[str]:
        made = create(client, setup)
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            view = hello(ws, [made["seats"]["0"], made["seats"]["1"]])["snapshot"]
            for _ in range(2):
                turn = {"type": "turn", "seat": view["decision"]["player"], "version": view["version"],
                        "moves": [view["legal"][0], {"kind": "pass"}]}
                if fail:
                    monkeypatch.setattr(storage, "append_async", broken)
                    ws.send_json(turn)
                    assert recv(ws, "error")["code"] == "storage_failed"
                    monkeypatch.undo()
                    ws.send_json({"type": "resync", "version": None})
                    assert recv(ws, "snapshot") == view   # nothing changed
                ws.send_json(turn)
                recv(ws, "update")
                recv(ws, "ack")
                ws.send_json({"type": "resync", "version": None})
                view = recv(ws, "snapshot")
        return history(client, made["id"])

    failed, smooth = two_turns(fail=True), two_turns(fail=False)
    # each game stored its two turns once, a placement and a pass each: the refused attempts left
    # nothing (a secret deal's draws may differ in number: a tile that fits nowhere is drawn again,
    # in about one game of sixty with six tiles)
    for stored in (failed, smooth):
        assert len([m for m in stored if not m.startswith("d")]) == 4, stored
    if setup is HUMANS:   # seeded: the same tiles drawn
        assert failed == smooth


def test_bots_wait_for_storage_and_carry_on_when_it_works_again(monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as c:
        storage = storage_of(c)
        real = storage.append_async
        failures = {"left": 3}

        async def flaky(*args: Any, **kwargs: Any) -> None:
            if failures["left"] > 0:
                failures["left"] -= 1
                raise StorageError("database is locked")
            await real(*args, **kwargs)

        monkeypatch.setattr(storage, "append_async", flaky)
        made = create(c, {"seats": [{"kind": "bot", "level": "random"}] * 2, "short": 3, "unwatched": True})
        view = wait_for(c, made["id"], lambda v: v["over"])
        assert view["over"] and failures["left"] == 0


# --------------------------------------------------------------------------- taking a turn back

AGAINST_GREEDY = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]}


def until_turn_of(ws: Any, view: dict[str, Any], seat: int) -> dict[str, Any]:
    """Take the bots' updates until it is ``seat``'s turn (or the game is over)."""
    while view["decision"]["player"] != seat and not view["over"]:
        view = apply_update(view, recv(ws, "update"))
    return view


def undo(ws: Any, version: int, request: int = 9) -> dict[str, Any]:
    """Ask to take seat 0's last turn back; return the snapshot with the ack in it, or the error."""
    ws.send_json({"type": "undo", "request": request, "seat": 0, "version": version})
    answer = recv(ws, "snapshot", "error")
    if answer["type"] == "snapshot":
        answer["ack"] = recv(ws, "ack")
    return answer


def bot_placed(log: list[dict[str, Any]]) -> bool:
    return any(e["kind"] == "TilePlaced" and e["player"] == 1 for e in log)


SAME_POSITION = ("board", "players", "occupants", "remaining", "bonus_left", "decision", "legal", "over")


@pytest.mark.parametrize("seed", [None, 8], ids=["secret", "seeded"])
def test_undo_against_a_bot_returns_the_position_before_the_persons_turn(tmp_path: Path,
                                                                          seed: int | None) -> None:
    db = tmp_path / "g.sqlite"
    # (ann2 and the watcher say hello only after Ann's turns, which on a loaded machine can take
    # longer than the 10 s a socket is given to say hello: they are given a minute)
    with TestClient(create_app(str(db), bot_delay=0.0, hello_timeout=60.0)) as c:
        made = create(c, AGAINST_GREEDY if seed is None else {**AGAINST_GREEDY, "seed": seed})
        gid = made["id"]
        with c.websocket_connect(f"/ws/{gid}") as ann, c.websocket_connect(f"/ws/{gid}") as ann2, \
                c.websocket_connect(f"/ws/{gid}") as watcher:
            view = hello(ann, [made["seats"]["0"]])["snapshot"]
            view = until_turn_of(ann, play(ann, view), 0)   # a first turn each
            while True:   # Ann's turn and the bot's reply (a turn that earns her a menhir turn is
                before, stored_before = view, history(c, gid)   # followed by it: that is her last)
                assert isinstance(parse_move(stored_before[-1]), Draw)   # Ann's tile is drawn: her turn
                view = until_turn_of(ann, play(ann, view), 0)
                if bot_placed(view["log"][len(before["log"]):]) or view["over"]:
                    break
            taken_back = history(c, gid)[len(stored_before):]
            assert bot_placed(view["log"][len(before["log"]):])
            other = hello(ann2, [made["seats"]["0"]])["snapshot"]
            watching = hello(watcher, [])["snapshot"]
            assert other["version"] == watching["version"] == view["version"]

            back = undo(ann, view["version"])
            assert back["type"] == "snapshot" and back["version"] > view["version"]   # versions only grow
            assert back["ack"] == {"type": "ack", "request": 9, "version": back["version"]}
            for key in SAME_POSITION:   # the page's view before the turn, Ann's tile in hand again
                assert back[key] == before[key], key
            assert back["decision"]["tile"] == before["decision"]["tile"] is not None
            stored = history(c, gid)
            assert stored == [*stored_before, *taken_back, f"undo {len(stored_before)}"]
            assert effective_history(stored)[0] == stored_before
            # the same as the engine's game replayed to that point
            setup = GameSetup.from_json(storage_of(c).load(gid).setup, stored=True)  # type: ignore[union-attr]
            replayed = Game.replay(build_game(setup, random.Random(0)).initial,
                                   [parse_move(m) for m in stored_before])
            assert {**snapshot(replayed, gid, setup.seed, str(setup.deal)), "version": back["version"]} \
                == {k: v for k, v in back.items() if k != "ack"}
            # every page of the game gets it: Ann's other page and the watcher
            for page in (ann2, watcher):
                assert recv(page, "snapshot", skip=("table", "update")) == \
                    {k: v for k, v in back.items() if k != "ack"}

            # Ann plays again, and the bot replies again; an old version is refused as stale
            stale = undo(ann, view["version"], request=10)
            assert stale["type"] == "error" and stale["code"] == "stale"
            again = until_turn_of(ann, play(ann, {k: v for k, v in back.items() if k != "ack"}), 0)
            while not bot_placed(again["log"][len(back["log"]):]) and not again["over"]:   # a menhir turn
                again = until_turn_of(ann, play(ann, again), 0)
            assert bot_placed(again["log"][len(back["log"]):])
            if seed is None:   # the tiles the undone draws brought come again, in the same order
                redrawn = [m for m in history(c, gid)[len(stored):] if m.startswith("d")]
                undone = [m for m in taken_back if m.startswith("d")]
                assert redrawn[:len(undone)] == undone[:len(redrawn)]
            final = again

    # a new process on the same file (and a new Storage) has the game as undone and played on
    fresh = Storage(str(db))
    try:
        stored_game = fresh.load(gid)
        assert stored_game is not None
        game = restore_game(GameSetup.from_json(stored_game.setup, stored=True), stored_game.history)
        assert snapshot(game, gid, 0, "secret")["board"] == final["board"]
        assert [str(m) for m in game.history] == effective_history(stored_game.history)[0]
    finally:
        fresh.close()
    with TestClient(create_app(str(db), bot_delay=0.0)) as c2, c2.websocket_connect(f"/ws/{gid}") as w:
        again_view = hello(w, [])["snapshot"]
        for key in (*SAME_POSITION, "version"):
            assert again_view[key] == final[key], key


def test_undo_is_refused_with_people_before_a_turn_and_once_over() -> None:
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as c:
        # two people: never
        made = create(c)
        with c.websocket_connect(f"/ws/{made['id']}") as ann:
            view = play(ann, hello(ann, [made["seats"]["0"]])["snapshot"])   # seat 0 starts
            refused = undo(ann, view["version"])
            assert refused["type"] == "error" and refused["code"] == "no_undo"
            assert "people" in refused["message"]
        # an outside bot counts as a person
        made = create(c, {"seats": [{"kind": "human"}, {"kind": "remote"}]})
        with c.websocket_connect(f"/ws/{made['id']}") as ann:
            view = hello(ann, [made["seats"]["0"]])["snapshot"]
            refused = undo(ann, view["version"])
            assert refused["type"] == "error" and refused["code"] == "no_undo"
        # against a bot, before the first turn: nothing to take back
        made = create(c, {**AGAINST_GREEDY, "start_player": 0})
        with c.websocket_connect(f"/ws/{made['id']}") as ann:
            view = hello(ann, [made["seats"]["0"]])["snapshot"]
            refused = undo(ann, view["version"])
            assert refused["type"] == "error" and refused["code"] == "no_undo"
            assert "no turn" in refused["message"]
        # a finished game
        made = create(c, {**AGAINST_GREEDY, "short": 2, "seed": 3})
        with c.websocket_connect(f"/ws/{made['id']}") as ann:
            view = hello(ann, [made["seats"]["0"]])["snapshot"]
            while not view["over"]:
                view = until_turn_of(ann, view, 0)
                if not view["over"]:
                    view = play(ann, view)
            refused = undo(ann, view["version"])
            assert refused["type"] == "error" and refused["code"] == "game_over"
            assert len(history(c, made["id"])) == view["version"]   # nothing stored


# --------------------------------------------------------------------------- hints


def test_describe_turn_in_words() -> None:
    from huntgather import Occupy, Pass, Place
    from huntgather.server.protocol import describe_turn
    game = Game(2, seed=0, normal_order=[44])   # tile 44: forest (1 menhir) · forest · meadow (deer)
    state = game.state
    # unturned: forest 0 on the north and west sides, forest 1 east, meadow 2 south.  Turned 180°
    # the west side faces east and the north side south: forest 0 covers the compass points
    # north-east, east, south-east, south and south-west.  No ids or coordinates in the words.
    assert describe_turn(state, [Place(44, 1, 0, 2), Occupy(44, 0, "meeple")]) == \
        "the tile turned 180°; gatherer on the forest from north-east to south-west (1 menhir)"
    assert describe_turn(state, [Place(44, 0, -1, 0), Occupy(44, 2, "meeple")]) == \
        "the tile as drawn; hunter on the meadow to the south (a deer)"
    assert describe_turn(state, [Place(44, 0, 1, 1), Pass()]) == "the tile turned 90°; no piece"
    assert game.history == [parse_move("d44")]   # describing changed nothing


def complete_turn(reference: Game, moves: list[dict[str, Any]]) -> None:
    """Play structured ``moves`` on the engine; check that they make exactly the rest of one turn."""
    player = reference.decision.player
    for i, data in enumerate(moves):
        assert not reference.is_over and reference.decision.player == player, (moves, i)
        reference.play(move_from_json(reference.state, data))   # raises if illegal
    assert reference.is_over or reference.decision.player != player or \
        reference.decision.stack == "bonus", moves


def test_hints_are_whole_legal_turns_and_store_nothing(client: TestClient) -> None:
    made = create(client)
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = hello(ws, [made["seats"]["0"]])["snapshot"]
        ws.send_json({"type": "hint", "request": 3, "seat": 0, "version": view["version"], "moves": []})
        hint = recv(ws, "hint")
        assert hint["request"] == 3 and hint["version"] == view["version"] and hint["player"] == 0
        assert 1 <= len(hint["turns"]) <= 3
        firsts = [str(t["moves"][0]) for t in hint["turns"]]
        assert len(set(firsts)) == len(firsts) and set(firsts) <= {str(m) for m in view["legal"]}
        for turn in hint["turns"]:
            complete_turn(reference_game(client, gid), turn["moves"])
            place = turn["moves"][0]
            turned = f"turned {90 * place['rotation']}°" if place["rotation"] else "as drawn"
            assert turn["text"].startswith(f"the tile {turned}; ")
            assert 0 < turn["value"] < 1 and 1 <= turn["visits"] <= EXPERT.simulations
            # its square in words (no coordinates), no two squares alike
            assert turn["where"] and not re.search(r"\(-?\d+, ?-?\d+\)", turn["where"])
            # a short game: no predicted final scores (the evaluation learned whole games)
            assert "predicted" not in turn
        # mid-turn: after a placement, the hint is the rest of the turn (an occupant or none)
        place = view["legal"][0]
        ws.send_json({"type": "preview", "seat": 0, "version": view["version"], "moves": [place]})
        preview = recv(ws, "preview")
        assert not preview["turn_over"]   # a placement next to the start tile always allows a piece
        squares = {(t["moves"][0]["x"], t["moves"][0]["y"]): t["where"] for t in hint["turns"]}
        assert len(set(squares.values())) == len(squares)
        ws.send_json({"type": "hint", "seat": 0, "version": view["version"], "moves": [place]})
        for turn in recv(ws, "hint")["turns"]:
            assert "where" not in turn   # the tile is down: no square to name
            assert turn["moves"][0] in [{k: v for k, v in m.items() if k not in ("text", "say", "role")}
                                        for m in preview["legal"]]
            reference = reference_game(client, gid)
            reference.play(move_from_json(reference.state, place))
            complete_turn(reference, turn["moves"])
        ws.send_json({"type": "resync", "version": None})
        assert recv(ws, "snapshot") == view


def test_a_hint_in_a_whole_game_predicts_every_seats_final_score(client: TestClient) -> None:
    made = create(client, {"seats": [{"kind": "human"}] * 3, "seed": 12})
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = hello(ws, [made["seats"]["0"]])["snapshot"]
        ws.send_json({"type": "hint", "seat": 0, "version": view["version"], "moves": []})
        turns = recv(ws, "hint")["turns"]
        assert turns
        for turn in turns:
            # the learned evaluation's final scores of the three seats once this very turn is played
            reference = reference_game(client, gid)
            plan = [move_from_json(reference.state, m) for m in turn["moves"]]
            expected = predict_after(reference.state, plan)
            assert turn["predicted"] == [round(x, 1) for x in expected] and len(expected) == 3


def test_hint_errors_change_nothing(client: TestClient) -> None:
    made = create(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        view = hello(ws, [made["creator"], *made["seats"].values()])["snapshot"]
        v = view["version"]
        whole = [view["legal"][0], {"kind": "pass"}]
        for message, code in [
            ({"type": "hint", "seat": 0, "version": v - 1, "moves": []}, "stale"),
            ({"type": "hint", "seat": 1, "version": v, "moves": []}, "not_your_turn"),
            ({"type": "hint", "seat": 0, "version": v, "moves": "x"}, "bad_request"),
            ({"type": "hint", "seat": 0, "version": v, "moves": whole}, "bad_request"),  # nothing left
            ({"type": "hint", "seat": 0, "version": v,
              "moves": [{"kind": "place", "x": 0, "y": 0, "rotation": 0}]}, "illegal_move"),
        ]:
            ws.send_json(message)
            answer = recv(ws, "error")
            assert answer["code"] == code, (message, answer)
        ws.send_json({"type": "resync", "version": None})
        assert recv(ws, "snapshot") == view


def test_hints_are_rationed_one_at_a_time_per_visitor(client: TestClient) -> None:
    made = create(client, {**HUMANS, "short": None})
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        view = hello(ws, [made["seats"]["0"]])["snapshot"]
        for request in (1, 2):
            ws.send_json({"type": "hint", "request": request, "seat": 0, "version": view["version"],
                          "moves": []})
        answers = {m["request"]: m for m in (recv(ws, "hint", "error"), recv(ws, "hint", "error"))}
        assert answers[1]["type"] == "hint"
        assert answers[2]["type"] == "error" and answers[2]["code"] == "busy"


# --------------------------------------------------------------------------- deleting and memory


def test_deleting_a_game_needs_the_creators_secret(client: TestClient) -> None:
    keep, gone = create(client), create(client)
    storage = storage_of(client)
    with client.websocket_connect(f"/ws/{gone['id']}") as ws:
        hello(ws, [gone["seats"]["0"]])
        for headers in ({}, {"Authorization": "Bearer " + gone["seats"]["0"]},
                        {"Authorization": "Bearer " + keep["creator"]}, {"Authorization": gone["creator"]}):
            r = client.delete(f"/api/games/{gone['id']}", headers=headers)
            assert r.status_code == 403 and r.json()["code"] == "not_creator"
        assert storage.load(gone["id"]) is not None
        r = client.delete(f"/api/games/{gone['id']}", headers={"Authorization": "Bearer " + gone["creator"]})
        assert r.status_code == 204
        told = recv(ws, "error")
        assert told["code"] == "deleted"
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()
        assert (closed.value.code, closed.value.reason) == (4404, "deleted")
    assert storage.load(gone["id"]) is None
    assert client.get(f"/api/games/{gone['id']}").status_code == 404
    again = client.delete(f"/api/games/{gone['id']}", headers={"Authorization": "Bearer " + gone["creator"]})
    assert again.status_code == 404 and again.json()["code"] == "unknown_game"
    assert storage.load(keep["id"]) is not None   # the other game is untouched


async def _one_game_on_two_processes(path: Path) -> tuple[Storage, Rooms, Rooms, Room, Room]:
    """One database, two processes' rooms (ours, theirs) and one game open in both."""
    storage = Storage(str(path / "games.db"))
    ours, theirs = Rooms(storage), Rooms(storage)
    room, _creator, _secrets = await ours.create(GameSetup(deal=Deal.SECRET, short=6))
    return storage, ours, theirs, room, await theirs.get(room.id)


def _count_calls(storage: Storage, name: str) -> list[tuple[Any, ...]]:
    """Record the arguments of every call of ``storage``'s method ``name`` (which still runs)."""
    calls: list[tuple[Any, ...]] = []
    real = getattr(storage, name)

    def counted(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    setattr(storage, name, counted)
    return calls


def test_pages_at_one_version_get_one_catch_up_built_once(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # Pages that open (or resync) a game at the same version get the same text, built and encoded
    # once for all of them (a watcher storm costs one snapshot); after a move, a page gets the new one.
    from huntgather.server import connection, protocol

    built: list[int] = []
    real = protocol.snapshot

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(protocol, "snapshot", counted)

    async def scenario() -> None:
        _storage, _ours, _theirs, room, _other = await _one_game_on_two_processes(tmp_path)

        async def page(version: int | None) -> list[str]:
            got: list[str] = []

            async def send(text: str) -> None:
                got.append(text)

            async def close(code: int, reason: str) -> None:
                pass

            conn = connection.Connection(send, close)
            asyncio.get_running_loop().create_task(conn.run())
            await room.attach(conn, {"type": "hello", "secrets": [], "version": version})
            await room.resync(conn, version)
            await asyncio.sleep(0.01)
            conn.finish()
            return [m for m in got if json.loads(m)["type"] in ("snapshot", "update")]

        first = await page(None)
        assert len(first) == 2 and first[0] == first[1]   # the hello's and the resync's
        assert await page(None) == first and len(built) == 1
        v0 = room.version
        game = room.game.copy()
        game.play(game.legal_moves()[0])
        game.play(game.legal_moves()[-1])
        async with room.lock:
            await room._store(game, v0)
        after = await page(None)
        assert len(built) == 2 and after[0] != first[0]
        assert json.loads(after[0]) == json.loads(dumps(room.snapshot()))
        since = await page(v0)   # a page one turn behind gets the update, once built too
        assert [json.loads(m)["type"] for m in since] == ["update", "update"] and since[0] == since[1]
        assert json.loads(since[0])["from"] == v0 and len(built) == 3   # (the last check's own snapshot)

    asyncio.run(scenario())


def test_a_process_follows_moves_from_the_notification_without_reading_them_back(tmp_path: Path) -> None:
    # Two processes' rooms on one database.  A notification carries the moves stored (start, moves):
    # the follower takes the part it lacks, and when it lacks none (every listener, the storing
    # process too, gets each notification, which may arrive after the moves were adopted), it does
    # nothing; neither reads the moves back from the database.
    async def scenario() -> None:
        storage, ours, theirs, room, other = await _one_game_on_two_processes(tmp_path)
        reads = _count_calls(storage, "history_from")

        async def a_turn() -> tuple[int, list[str]]:
            game, start = room.game.copy(), room.version
            game.play(game.legal_moves()[0])   # a placement (the tile was drawn after the last turn)
            game.play(game.legal_moves()[-1])  # pass or an occupation: the turn ends, the next draw follows
            async with room.lock:
                await room._store(game, start)
            return start, [str(m) for m in room.game.history[start:]]

        v0 = other.version
        start, first = await a_turn()
        assert start == v0 and len(first) >= 3
        async with other.lock:
            await other.follow_storage((start, first))
            assert other.version == room.version
            await other.follow_storage((start, first))   # again, as the storing process gets it: nothing
        assert other.version == room.version and reads == []
        second_start, second = await a_turn()
        assert second_start == start + len(first)
        async with other.lock:   # a notification that starts before the follower's version
            await other.follow_storage((start, first + second))
        assert other.version == room.version and reads == []
        assert [str(m) for m in other.game.history] == [str(m) for m in room.game.history]
        await ours.close()
        await theirs.close()
        storage.close()

    asyncio.run(scenario())


def test_a_process_takes_a_changed_seat_from_the_notification(tmp_path: Path) -> None:
    # The notice of a stored seat carries the row; the other process applies it without reading
    # the seats back (it reads them all only after its listening connection was lost).
    async def scenario() -> None:
        storage, ours, theirs, room, other = await _one_game_on_two_processes(tmp_path)
        reads = _count_calls(storage, "load_seats")
        async with room.lock:
            await room._store_seat(1, replace(room.seats[1], name="Bob Stone"))
        notice = seat_notice(room.id, room.seats[1].row(1))
        await theirs._on_notice(notice)
        assert other.seats[1].name == "Bob Stone" and reads == []
        # after a reconnect: all seats read back
        await theirs._on_notice(encode_notice({"type": NoticeType.SEAT, "game": room.id}))
        assert reads == [(room.id,)] and other.seats == room.seats
        with pytest.raises(ValueError, match="seat"):   # a seat row cut short is no notice
            decode_notice(f'{{"type": "seat", "game": "{room.id}", "seat": {{"seat": 1, "kind": "human"}}}}')
        await ours.close()
        await theirs.close()
        storage.close()

    asyncio.run(scenario())


def test_idle_games_leave_memory_and_come_back_from_storage() -> None:
    with TestClient(create_app("sqlite://", bot_delay=0.0, max_rooms=2)) as c:
        rooms = c.app.state.rooms  # type: ignore[attr-defined]
        made = [create(c) for _ in range(2)]
        ids = [m["id"] for m in made]
        with c.websocket_connect(f"/ws/{ids[0]}") as ws:
            view = hello(ws, [made[0]["seats"]["0"]])["snapshot"]
            played = play(ws, view)
            # a third and fourth game: only idle rooms are dropped, the watched one stays
            ids += [create(c)["id"], create(c)["id"]]
            assert ids[0] in rooms.live and ids[1] not in rooms.live and len(rooms.live) <= 3
        ids.append(create(c)["id"])
        assert len(rooms.live) == 2 and ids[0] not in rooms.live
        # the dropped game comes back from storage exactly as it was
        back = c.get(f"/api/games/{ids[0]}").json()
        assert back | {"log": None} == played | {"type": "snapshot", "log": None}


# --------------------------------------------------------------------------- command line


def test_play_command_reports_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["play", "--port", "70000", "--no-browser"]) == 2
    assert "--port" in capsys.readouterr().err


def test_play_command_reports_an_unusable_database(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["play", "--db", "nosuchdriver://user:pw@x/y", "--no-browser"]) == 1
    err = capsys.readouterr().err
    assert "cannot open the database" in err and "pw" not in err


# --------------------------------------------------------------------------- web security


def test_only_allowed_host_names_are_served() -> None:
    app = create_app("sqlite://", bot_delay=0.0, allowed_hosts=("127.0.0.1", "localhost"))
    with TestClient(app, base_url="http://127.0.0.1:8765") as ok:
        assert ok.get("/api/editions").status_code == 200
    with TestClient(app, base_url="http://evil.example:8765") as rebound:   # DNS rebinding
        r = rebound.get("/api/editions")
        assert r.status_code == 400
        assert rebound.post("/api/games", json=HUMANS).status_code == 400
        with pytest.raises(WebSocketDisconnect) as refused, rebound.websocket_connect("/ws/whatever") as ws:
            ws.receive_json()
        assert refused.value.status_code == 400   # refused before the upgrade: a host it does not serve


def test_a_page_of_another_site_cannot_open_a_game_socket(client: TestClient) -> None:
    made = create(client)
    evil = {"Origin": "https://evil.example"}
    with pytest.raises(WebSocketDisconnect) as refused, \
            client.websocket_connect(f"/ws/{made['id']}", headers=evil) as ws:
        ws.receive_json()
    assert refused.value.code == 4403
    with client.websocket_connect(f"/ws/{made['id']}", headers={"Origin": "http://testserver"}) as ws:
        assert hello(ws, [])["seats"] == []   # a page of this server
    allowed = create_app("sqlite://", bot_delay=0.0, allowed_origins=("https://games.example.org",))
    with TestClient(allowed) as c:
        gid = create(c)["id"]
        with c.websocket_connect(f"/ws/{gid}", headers={"Origin": "https://games.example.org"}) as ws:
            assert hello(ws, [])["seats"] == []


def test_listening_on_every_address_warns_and_allows_the_lan_addresses() -> None:
    from huntgather.server.hosts import allowed_hosts, lan_addresses
    names = allowed_hosts("0.0.0.0", ["games.example.org"])
    assert {"127.0.0.1", "localhost", "games.example.org", *lan_addresses()} <= set(names)
    assert allowed_hosts("192.0.2.7", [])[-1] == "192.0.2.7"
    assert allowed_hosts("::", []) == allowed_hosts("0.0.0.0", [])


# --------------------------------------------------------------------------- fairness


def test_games_of_hard_bots_alone_delay_neither_a_quick_bot_nor_a_persons_hard_bot() -> None:
    # Twelve games of five hard bots keep the heavy lane busy: each game asks for one search at a
    # time, so about twelve searches wait there, two at a time.  Ann plays a greedy and a hard bot.
    # Her greedy bot's reply comes from its own lane, before most of them; her hard bot's search
    # waits in the heavy lane, but before every bot-only game's (it has a person waiting), so only
    # the searches already running end first.  In one first-come queue either reply would come
    # after all twelve, and every hard game would have moved on meanwhile.  Counted, not timed:
    # on a loaded machine the hard searches only take longer.  Both lanes' workers are started
    # first (a worker's start, a second or two, would otherwise be counted against the lanes).
    def version_of(c: TestClient, gid: str) -> int:   # through the server (its database is in use)
        version: int = c.get(f"/api/games/{gid}").json()["version"]
        return version

    def placed_by(view: dict[str, Any], seat: int, since: int) -> bool:
        return any(e["kind"] == "TilePlaced" and e["player"] == seat for e in view["log"][since:])

    app = create_app("sqlite://", bot_delay=0.0, bot_games_per_creator=0)
    with TestClient(app) as c:
        for lane in ("light", "heavy"):
            started = app.state.context.workers.warm(lane)
            assert started is not None and started.result(timeout=60) > 0
        hard = [create(c, {"seats": [{"kind": "bot", "level": "hard"}] * 5, "unwatched": True})["id"]
                for _ in range(12)]
        made = create(c, {"seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"},
                                    {"kind": "bot", "level": "hard"}], "short": 12})
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            view = hello(ws, [made["seats"]["0"]])["snapshot"]
            before = {gid: version_of(c, gid) for gid in hard}
            view = play(ws, view)
            while view["decision"]["player"] == 0 and not view["over"]:   # a menhir turn first
                before = {gid: version_of(c, gid) for gid in hard}
                view = play(ws, view)
            since = len(view["log"])
            moved: dict[int, list[str]] = {}   # bot seat -> the hard games that moved before it
            while view["decision"]["player"] != 0 and not view["over"]:   # both bots (and menhirs)
                view = apply_update(view, recv(ws, "update"))
                for seat in (1, 2):
                    if seat not in moved and placed_by(view, seat, since):
                        moved[seat] = [gid for gid in hard if version_of(c, gid) > before[gid]]
            assert set(moved) == {1, 2}
            assert len(moved[1]) <= 4, f"{len(moved[1])} of 12 hard games moved before the greedy bot"
            assert len(moved[2]) <= 6, f"{len(moved[2])} of 12 hard games moved before Ann's hard bot"


def test_a_game_of_bots_alone_rests_while_nobody_watches_and_goes_on_when_a_page_opens() -> None:
    """Nobody's CPU goes to a game of the server's bots alone that no page has open: created, its
    bots do not start; a watcher's page starts them and sees the game to its end.  Created
    ``unwatched``, the bots play at once."""
    app = create_app("sqlite://", bot_delay=0.0)
    with TestClient(app) as c:
        rooms = app.state.rooms
        made = create(c, {"seats": [{"kind": "bot", "level": "random"}] * 2, "short": 3})
        room = rooms._rooms[made["id"]]
        assert room.resting and room._bot_task is None and room.version == made["version"]
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            view = hello(ws, [])["snapshot"]
            while not view["over"]:
                view = apply_update(view, recv(ws, "update"))
        assert room.game.is_over
        alone = create(c, {"seats": [{"kind": "bot", "level": "random"}] * 2, "short": 3, "unwatched": True})
        assert wait_for(c, alone["id"], lambda v: v["over"])["over"]
        for bad in ("yes", 1, None):
            r = c.post("/api/games", json={"seats": [{"kind": "bot"}] * 2, "unwatched": bad})
            assert r.status_code == 400 and r.json()["code"] == "bad_setup", bad


def test_no_update_is_made_for_a_game_no_page_has_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """The words of a turn's events and its live projection are made for the pages that show
    them: a game of bots alone that no page has open makes no update at all; a page that opens
    it afterwards gets the whole game, and the updates from then on."""
    from huntgather.server import protocol

    made: list[int] = []
    real = protocol.update

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(protocol, "update", counted)
    app = create_app("sqlite://", bot_delay=0.0)
    with TestClient(app) as c:
        alone = create(c, {"seats": [{"kind": "bot", "level": "random"}] * 2, "short": 3, "unwatched": True})
        over = wait_for(c, alone["id"], lambda v: v["over"])
        assert over["over"] and made == []
        with c.websocket_connect(f"/ws/{alone['id']}") as ws:
            assert hello(ws, [])["snapshot"] == over   # the finished game, whole, for the page that opens it
        watched = create(c, {"seats": [{"kind": "bot", "level": "random"}] * 2, "short": 3})
        with c.websocket_connect(f"/ws/{watched['id']}") as ws:
            view = hello(ws, [])["snapshot"]
            while not view["over"]:
                view = apply_update(view, recv(ws, "update"))
        assert made   # a page had it open: an update a turn


def test_one_creator_has_at_most_four_games_of_bots_alone_going() -> None:
    """The fifth game of bots alone going at once from one address is refused 429
    ``too_many_bot_games`` (plain words); another address is not held back; resting games (no page
    open) and finished ones do not count; a game with a person never counts."""
    app = create_app("sqlite://", bot_delay=0.0)
    long_alone = {"seats": [{"kind": "bot", "level": "random"}] * 2, "unwatched": True}
    with TestClient(app) as c:
        for _ in range(4):   # resting: no page, not unwatched
            create(c, {"seats": [{"kind": "bot", "level": "random"}] * 2})
        going = [create(c, long_alone)["id"] for _ in range(4)]
        r = c.post("/api/games", json=long_alone)
        assert r.status_code == 429 and r.json()["code"] == "too_many_bot_games", r.text
        assert "4 games of bots alone going" in r.json()["message"]
        create(c, {"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]})   # a person plays
        other = TestClient(app, client=("198.51.100.7", 4242))
        assert other.post("/api/games", json=long_alone).status_code == 201
        wait_for(c, going[0], lambda v: v["over"])
        assert c.post("/api/games", json=long_alone).status_code == 201   # one finished: room again


def test_a_flood_of_hints_from_one_visitor_holds_one_slot_and_others_are_served() -> None:
    """Six pages of one address ask for a hint at once: one is searched, five are ``busy`` (one
    at a time per visitor); a page from another address asking meanwhile is answered (the bug:
    one visitor with two pages kept every other player at ``busy``)."""
    app = create_app("sqlite://", bot_delay=0.0)
    with TestClient(app) as c:
        other = TestClient(app, client=("198.51.100.7", 4242))   # another visitor, same server
        made = create(c, {"seats": [{"kind": "human"}] * 2})
        pages = [c.websocket_connect(f"/ws/{made['id']}") for _ in range(6)]
        theirs = other.websocket_connect(f"/ws/{made['id']}")
        try:
            views = [hello(ws.__enter__(), [made["seats"]["0"]])["snapshot"] for ws in pages]
            their_view = hello(theirs.__enter__(), [made["seats"]["0"]])["snapshot"]
            for i, ws in enumerate(pages):
                ws.send_json({"type": "hint", "request": i, "seat": 0, "version": views[i]["version"],
                              "moves": []})
            theirs.send_json({"type": "hint", "request": 99, "seat": 0,
                              "version": their_view["version"], "moves": []})
            answers = [recv(ws, "hint", "error") for ws in pages]
            their_answer = recv(theirs, "hint", "error")
        finally:
            for ws in [*pages, theirs]:
                ws.__exit__(None, None, None)
        busy = [a for a in answers if a["type"] == "error"]
        assert [a["code"] for a in busy] == ["busy"] * 5
        assert their_answer["type"] == "hint", their_answer


def test_a_game_with_an_open_socket_stays_in_memory_even_before_hello() -> None:
    # the race the load benchmark found: a page between opening its socket and its hello must pin
    # the game, or a second page would get a second copy and never see the first page's moves
    with TestClient(create_app("sqlite://", bot_delay=0.0, max_rooms=1)) as c:
        rooms = c.app.state.rooms  # type: ignore[attr-defined]
        made = create(c)
        with c.websocket_connect(f"/ws/{made['id']}") as early:
            for _ in range(3):   # new games push the oldest idle ones out of memory
                create(c)
            assert made["id"] in rooms.live
            with c.websocket_connect(f"/ws/{made['id']}") as ann:
                view = hello(ann, [made["seats"]["0"]])["snapshot"]
                watched = hello(early, [])["snapshot"]
                view = play(ann, view)
                assert apply_update(watched, recv(early, "update"))["version"] == view["version"]


def test_a_worker_whose_server_is_already_gone_exits() -> None:
    # a worker that starts after its server was killed must not wait forever on a dead pipe: it is
    # told its server's id and leaves as soon as its parent is another process
    import subprocess
    import sys
    code = ("import time; from huntgather.server.workers import _watch_parent; "
            "_watch_parent(-1); time.sleep(30)")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], timeout=20, check=False)
    assert done.returncode == 0 and time.monotonic() - started < 15


def test_no_worker_starts_after_shutdown() -> None:
    # a search asked of workers that are shut down (a process that stops) starts none: it raises
    import asyncio

    from huntgather.server.workers import Workers

    workers = Workers(1)
    workers.shutdown()
    with pytest.raises(RuntimeError, match="the workers are shut down"):
        asyncio.run(workers.run("hints", os.getpid))
    with pytest.raises(RuntimeError, match="the workers are shut down"):
        workers.warm("light")


def test_shutdown_ends_a_worker_whose_search_is_under_way(tmp_path: Path) -> None:
    # the bug: the workers were looked up after the pool's shutdown, which forgets them, so none was
    # ended; a search under way (a hint asked just before SIGTERM) then held the server's exit
    # until it finished, multiprocessing's clean-up at exit joining every child process.  The
    # "search" here reads a FIFO whose writer this test holds open: it never ends by itself.
    import asyncio
    import multiprocessing

    from huntgather.server.workers import Workers

    fifo = tmp_path / "search"
    os.mkfifo(fifo)
    writer: list[int] = []

    async def search_under_way(workers: Workers) -> None:
        searching = asyncio.ensure_future(workers.run("hints", fifo.read_bytes))
        deadline = time.monotonic() + PATIENCE
        while not writer:   # the worker has the FIFO open: the search is under way
            try:
                writer.append(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                assert time.monotonic() < deadline, "the worker never started the search"
                await asyncio.sleep(0.05)
        workers.shutdown()
        searching.cancel()
        with contextlib.suppress(BaseException):
            await searching

    try:
        asyncio.run(search_under_way(Workers(1)))
        for process in multiprocessing.active_children():   # what the exit's clean-up waits for
            process.join(PATIENCE)
        assert multiprocessing.active_children() == []
    finally:
        for fd in writer:
            os.close(fd)


def test_the_review_workers_run_at_the_niceness_asked_and_the_bots_workers_at_the_servers() -> None:
    # reviews take the lowest priority by default (19); --review-nice N asks for another one,
    # never below the server's own niceness; the bots' lanes keep the server's
    import asyncio
    import os

    from huntgather.server.workers import REVIEW_NICE, Workers

    async def nices(workers: Workers) -> tuple[int, int]:
        try:
            return (await workers.run("reviews", os.nice, 0), await workers.run("light", os.nice, 0))
        finally:
            workers.shutdown()

    own = os.nice(0)
    assert REVIEW_NICE == 19
    assert asyncio.run(nices(Workers(1))) == (19, own)
    assert asyncio.run(nices(Workers(1, review_nice=7))) == (max(7, own), own)
    with pytest.raises(ValueError, match="niceness"):
        Workers(1, review_nice=20)


def test_the_rules_page_reads_its_numbers_from_the_edition(client: TestClient) -> None:
    page = client.get("/api/rules/2020").json()
    titles = [s["title"] for s in page["sections"]]
    assert titles[0] == "A turn" and titles[-1] == "The end"
    forest = next(s for s in page["sections"] if s["title"] == "Forests and gatherers")
    # 2020 rulebook: a forest scores 2 per tile, 3 per mushroom group; the diagram's forest of
    # 3 tiles scores 3 × 2 = 6 for red's gatherer, and yellow, who closed it, plays a menhir tile
    assert "2 points per tile and 3 per group of mushrooms" in forest["paragraphs"][0]
    (diagram,) = forest["diagrams"]
    assert diagram["svg"].startswith("<svg") and "6 points (3 tiles × 2)" in diagram["caption"]
    # the end of the game and the pit trap are drawn at the end, their captions the final scoring's rows
    end = next(s for s in page["sections"] if s["title"] == "Huts and hunters: scored at the end")
    assert "→ yellow (1 hut)" in end["diagrams"][0]["caption"]
    specials = next(s for s in page["sections"] if s["title"] == "Special tiles")
    assert "pit trap's area" in specials["diagrams"][0]["caption"]
    missing = client.get("/api/rules/1999")
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_edition"
    old = client.get("/api/rules/2002").json()
    forest = next(s for s in old["sections"] if s["title"] == "Forests and gatherers")
    # 2002 rulebook: 2 per forest tile, 2 per mushroom group; a forest with a gold nugget earns
    # its closer a bonus tile.  The diagram's forest of 3 tiles: 3 × 2 = 6.
    assert old["edition"] == "2002"
    assert "2 points per tile and 2 per group of mushrooms" in forest["paragraphs"][0]
    (diagram,) = forest["diagrams"]
    assert "6 points (3 tiles × 2)" in diagram["caption"]
    assert "gold nugget, plays a bonus tile" in diagram["caption"]


# --------------------------------------------------------------------------- the encoder

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(blacklist_categories=()), max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=4) | st.integers(-5, 5), inner, max_size=4),
    max_leaves=16)


@settings(deadline=None)   # a loaded CI machine can take longer than hypothesis's 200 ms on one value
@given(JSON_VALUES)
def test_what_the_server_sends_reads_as_the_standard_library_would_write_it(value: Any) -> None:
    """orjson writes the messages; what it cannot write (a lone surrogate, an integer beyond 64
    bits) the standard library does: either way a client reads the same value."""
    message = {"type": "x", "value": value}
    assert json.loads(dumps(message)) == json.loads(json.dumps(message))


def test_a_request_label_orjson_cannot_write_is_echoed_all_the_same(client: TestClient) -> None:
    made = create(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_text('{"type": "resync", "request": "\\ud800"}')
        reply = recv(ws, "error")
        assert reply["code"] == "hello_first" and reply["request"] == "\ud800"
        ws.send_text('{"type": "resync", "request": 99999999999999999999}')   # 20 digits > 2**64
        assert recv(ws, "error")["request"] == 10**20 - 1


# --------------------------------------------------------------------------- a page's outbox


def test_each_send_has_its_own_deadline_and_a_late_one_drops_the_page(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """20 sends of 50 ms each under a 400 ms timeout all go (1 s in all: the deadline is each
    send's, not the writer's); a send that never ends is stopped between the timeout and the
    timeout, and the socket is closed ``too_slow``; a writer cancelled by the server itself is
    not taken for a slow page.  No upper bound on the time: a loaded machine only makes it later."""
    from huntgather.server import connection
    monkeypatch.setattr(connection, "SWEEP_PERIOD", 0.02)

    async def demo() -> tuple[list[object], bool, float, bool]:
        loop = asyncio.get_running_loop()
        events: list[object] = []

        async def send(text: str) -> None:
            await asyncio.sleep(3600 if text == "stuck" else 0.05)
            events.append(text)

        async def close(code: int, reason: str) -> None:
            events.append((code, reason))

        conn = connection.Connection(send, close, timeout=0.4)
        writer = asyncio.create_task(conn.run())
        for i in range(20):
            conn.push(str(i))
        conn.push("stuck")
        start = loop.time()
        await asyncio.wait_for(writer, 5)
        took = loop.time() - start
        # a writer the server cancels: the cancellation goes on up
        other = connection.Connection(send, close, timeout=0.4)
        task = asyncio.create_task(other.run())
        other.push("stuck")
        await asyncio.sleep(0.01)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return events, conn.dropped, took, task.cancelled() and not other.dropped

    events, dropped, took, cancelled = asyncio.run(demo())
    assert events == [str(i) for i in range(20)] + [(4008, "too_slow")] and dropped
    # the stuck send was stopped after its own 0.4 s (not before), and at all (within wait_for's
    # 5 s); the 20 sends before it took 1 s in all, over the 0.4 s a writer-wide deadline allows
    assert took >= 1.0 + 0.4, took
    assert cancelled


def test_a_table_waiting_in_an_outbox_is_replaced_by_a_newer_one_and_never_overflows_it() -> None:
    """A page's outbox holds at most one ``table`` waiting: 500 tables pushed while the writer
    has not run (a storm of watchers joining) take one place, the newest is the one sent, and
    other messages keep their order around it; the page is not dropped."""
    from huntgather.server import connection

    async def demo() -> tuple[list[object], bool]:
        sent: list[object] = []

        async def send(text: str) -> None:
            sent.append(text)

        async def close(code: int, reason: str) -> None:
            sent.append((code, reason))

        conn = connection.Connection(send, close, limit=8)
        conn.push("welcome")
        for i in range(500):
            conn.push(f"table {i}", latest="table")
        conn.push("update")
        writer = asyncio.create_task(conn.run())
        for _ in range(100):   # until the writer has sent the three
            if len(sent) == 3:
                break
            await asyncio.sleep(0)
        conn.push("table 500", latest="table")   # the one waiting was sent: this one queues anew
        conn.finish()
        await asyncio.wait_for(writer, 5)
        return sent, conn.dropped

    sent, dropped = asyncio.run(demo())
    assert sent == ["welcome", "table 499", "update", "table 500"] and not dropped


# --------------------------------------------------------------------------- limits (issue 37)


def test_one_address_may_hold_only_so_many_sockets_and_one_more_is_answered_429() -> None:
    from starlette.testclient import WebSocketDenialResponse
    with TestClient(create_app("sqlite://", bot_delay=0.0, max_sockets_per_address=2)) as c:
        gid = create(c)["id"]
        with c.websocket_connect(f"/ws/{gid}") as first, c.websocket_connect(f"/ws/{gid}"):
            hello(first, [])
            with pytest.raises(WebSocketDenialResponse) as refused, c.websocket_connect(f"/ws/{gid}"):
                pass
            assert refused.value.status_code == 429
            body = refused.value.json()
            assert body["type"] == "error" and body["code"] == "too_many_sockets", body
            assert "2 game connections open" in body["message"]
            assert c.get(f"/api/games/{gid}").status_code == 200   # HTTP is not counted
        with c.websocket_connect(f"/ws/{gid}") as again:   # closed ones no longer count
            hello(again, [])
    with pytest.raises(ValueError):
        create_app("sqlite://", max_sockets_per_address=-1)


def test_a_game_takes_so_many_watchers_and_one_more_is_refused_and_closed() -> None:
    with TestClient(create_app("sqlite://", bot_delay=0.0, max_watchers=2)) as c:
        made = create(c)
        gid = made["id"]
        with c.websocket_connect(f"/ws/{gid}") as w1, c.websocket_connect(f"/ws/{gid}") as w2, \
                c.websocket_connect(f"/ws/{gid}") as w3, c.websocket_connect(f"/ws/{gid}") as player:
            hello(w1, [])
            hello(w2, [])
            w3.send_json({"type": "hello", "secrets": ["not a secret of this game"], "version": None})
            error = recv(w3, "error")
            assert error["code"] == "too_many_watchers" and "2 watchers" in error["message"], error
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(w3, "nothing more")
            assert (closed.value.code, closed.value.reason) == (4429, "too_many_watchers")
            welcome = hello(player, [made["seats"]["1"]])   # a player is never refused
            assert welcome["seats"] == [1] and welcome["table"]["watchers"] == 2


def test_a_socket_that_does_not_say_hello_in_time_is_closed() -> None:
    """Answering the heartbeat is not enough: a socket that has not said ``hello`` within
    ``hello_timeout`` seconds is closed with 4408 ``no_hello``; one that said it stays."""
    with TestClient(create_app("sqlite://", bot_delay=0.0, hello_timeout=0.3)) as c:
        gid = create(c)["id"]
        # the page opens first: its deadline has passed by the time the mute socket's has
        with c.websocket_connect(f"/ws/{gid}") as page, c.websocket_connect(f"/ws/{gid}") as mute:
            hello(page, [])
            mute.send_json({"type": "ping"})
            assert recv(mute, "pong") == {"type": "pong"}
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(mute, "nothing more")
            assert (closed.value.code, closed.value.reason) == (4408, "no_hello")
            page.send_json({"type": "resync", "version": None})   # the page that said hello is still served
            assert recv(page, "snapshot")["game"] == gid
    with pytest.raises(ValueError):
        create_app("sqlite://", hello_timeout=0)


def test_a_dropped_page_has_its_connection_cut_a_moment_after_its_close(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A page too slow to take a message is closed ``too_slow``, then its connection is cut (the
    close may never reach a peer that does not read); a page closed for another reason is not cut."""
    from huntgather.server import connection
    monkeypatch.setattr(connection, "SWEEP_PERIOD", 0.01)
    monkeypatch.setattr(connection, "CUT_AFTER", 0)   # the next turn of the loop

    async def demo() -> tuple[list[object], list[object]]:
        events: list[object] = []

        async def send(text: str) -> None:
            await asyncio.sleep(3600 if text == "stuck" else 0)

        async def close(code: int, reason: str) -> None:
            events.append((code, reason))

        slow = connection.Connection(send, close, timeout=0.05, cut=lambda: events.append("cut"))
        slow.push("stuck")
        await asyncio.wait_for(slow.run(), 5)
        for _ in range(5):   # a few turns of the loop: the cut comes after the close
            await asyncio.sleep(0)
        others: list[object] = []
        gone = connection.Connection(send, close, cut=lambda: others.append("cut"))
        gone.push("hello")
        gone.finish(4404, "deleted")
        await asyncio.wait_for(gone.run(), 5)
        for _ in range(5):   # as many turns as the cut above took
            await asyncio.sleep(0)
        return events, others

    events, others = asyncio.run(demo())
    assert events == [(4008, "too_slow"), "cut", (4404, "deleted")] and others == []


def test_name_resign_and_seat_are_answered_with_their_request(client: TestClient) -> None:
    """Each of them is answered an ``ack`` with its ``request`` once done (after the ``table`` that
    shows it), and an ``error`` with its ``request`` when refused.  Each is followed by a ``ping``,
    whose ``pong`` comes after the answer: a missing answer fails at once, not by waiting."""

    def ask(ws: Any, msg: dict[str, Any], *types: str) -> dict[str, Any]:
        ws.send_json(msg)
        ws.send_json({"type": "ping"})
        answer = recv(ws, *types)
        recv(ws, "pong")
        return answer

    made = create(client, {"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]})
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as creator, client.websocket_connect(f"/ws/{gid}") as bob:
        view = hello(creator, [made["creator"], made["seats"]["0"]])["snapshot"]
        hello(bob, [made["seats"]["1"]])
        named = ask(creator, {"type": "name", "seat": 0, "name": "Ann", "request": 7}, "ack")
        assert named == {"type": "ack", "request": 7, "version": view["version"]}
        creator.send_json({"type": "seat", "seat": 2, "kind": "human", "request": "s"})
        assert recv(creator, "seat_secret")["seat"] == 2
        creator.send_json({"type": "ping"})
        assert recv(creator, "ack")["request"] == "s"
        recv(creator, "pong")
        # Bob is not the creator
        refused = ask(bob, {"type": "seat", "seat": 2, "kind": "bot", "request": 8}, "error")
        assert (refused["code"], refused["request"]) == ("not_creator", 8)
        resigned = ask(bob, {"type": "resign", "seat": 1, "version": view["version"], "request": 9}, "ack")
        assert resigned["request"] == 9
