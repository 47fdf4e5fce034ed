"""Chat at a game's table, and the rematch: through Starlette's test client (no real network).

The page's side (the chat panel, mutes, Resign, Leave, Rematch) is in ``test_web_ui.py``.
"""

from __future__ import annotations

import asyncio
import json
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

from test_server import HUMANS, apply_update, create, hello, play, recv, storage_of

from huntgather.server import create_app
from huntgather.server.messages import ChatChannel, NoticeType, decode_notice, encode_notice
from huntgather.server.rooms import Rooms
from huntgather.server.seats import Deal, GameSetup, hash_secret
from huntgather.server.storage import Storage

SHORT = {**HUMANS, "short": 2}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as c:
        yield c


def say(ws: Any, text: str, seat: int | None = None, request: int | None = None) -> None:
    msg: dict[str, Any] = {"type": "chat", "text": text}
    if seat is not None:
        msg["seat"] = seat
    if request is not None:
        msg["request"] = request
    ws.send_json(msg)


def heard(ws: Any) -> dict[str, Any]:
    """The next chat line (updates and tables passed over)."""
    return recv(ws, "chat", skip=("table", "update", "ack"))


def error(ws: Any) -> dict[str, Any]:
    return recv(ws, "error", skip=("table", "update", "ack"))


def stored_lines(client: TestClient, gid: str) -> list[dict[str, Any]]:
    return [dict(line) for line in storage_of(client).chat_lines(gid)]


def test_players_and_a_watcher_chat_each_in_their_channel(client: TestClient) -> None:
    made = create(client)
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ann, client.websocket_connect(f"/ws/{gid}") as bob, \
            client.websocket_connect(f"/ws/{gid}") as eve:
        hello(ann, [made["seats"]["0"]], name="Ann")
        hello(bob, [made["seats"]["1"]], name="Bob")
        hello(eve, [])
        say(ann, "  good\u0000 luck\n Bob ", seat=0, request=7)
        for page in (ann, bob, eve):
            line = heard(page)
            assert {k: line[k] for k in ("channel", "seat", "name", "text")} == \
                {"channel": "players", "seat": 0, "name": "Ann", "text": "good luck Bob"}
            assert isinstance(line["number"], int) and line["at"] > 1.7e9
        assert recv(ann, "ack")["request"] == 7
        say(eve, "nice opening")
        for page in (ann, bob, eve):
            line = heard(page)
            assert (line["channel"], line["seat"], line["text"]) == ("watchers", None, "nice opening")
        say(bob, "thanks", seat=1)
        assert heard(eve)["name"] == "Bob"
        numbers = [line["number"] for line in stored_lines(client, gid)]
        assert numbers == sorted(numbers) and len(numbers) == 3
        assert [line["channel"] for line in stored_lines(client, gid)] == ["players", "watchers", "players"]
    with client.websocket_connect(f"/ws/{gid}") as bob:   # Bob comes back: the lines come with the welcome
        hello(bob, [made["seats"]["1"]])
        log = recv(bob, "chat_log")
        assert [(x["seat"], x["text"]) for x in log["lines"]] == \
            [(0, "good luck Bob"), (None, "nice opening"), (1, "thanks")]
        assert log["watchers_open"] is True


def test_hostile_chat_is_refused_with_its_own_code_and_nothing_is_stored(client: TestClient) -> None:
    made = create(client)
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ann, client.websocket_connect(f"/ws/{gid}") as eve:
        hello(ann, [made["seats"]["0"]])
        hello(eve, [])
        cases: list[tuple[dict[str, Any], str]] = [
            ({"type": "chat", "seat": 0, "text": "x" * 60_000}, "chat_too_long"),
            ({"type": "chat", "seat": 0, "text": "y" * 301}, "chat_too_long"),
            ({"type": "chat", "seat": 0, "text": "\u0000\u0007\u200b\n\t "}, "chat_empty"),
            ({"type": "chat", "seat": 0, "text": ""}, "chat_empty"),
            ({"type": "chat", "seat": 1, "text": "I am Bob"}, "not_your_seat"),
            ({"type": "chat", "seat": 0, "text": 5}, "bad_request"),
            ({"type": "chat", "seat": 0}, "bad_request"),
        ]
        for msg, code in cases:
            ann.send_json(msg)
            assert error(ann)["code"] == code, msg
        eve.send_json({"type": "chat", "seat": 0, "text": "I am Ann"})
        assert error(eve)["code"] == "not_your_seat"
        ann.send_text(json.dumps({"type": "chat", "seat": 0, "text": "z" * 65_536}))   # over 64 KiB
        assert error(ann)["code"] == "too_large"
        assert stored_lines(client, gid) == []
        # a flood: five lines pass, the sixth is refused (and not stored), the page plays on
        for k in range(5):
            say(ann, f"line {k}", seat=0)
            assert heard(ann)["text"] == f"line {k}"
        say(ann, "one too many", seat=0)
        refused = error(ann)
        assert refused["code"] == "chat_too_fast" and "5 chat lines" in refused["message"]
        assert [line["text"] for line in stored_lines(client, gid)] == [f"line {k}" for k in range(5)]
        assert [heard(eve)["text"] for _ in range(5)] == [f"line {k}" for k in range(5)]
        say(eve, "a watcher has a budget of its own")
        assert heard(eve)["channel"] == "watchers"


def test_the_creator_closes_the_watchers_chat(client: TestClient) -> None:
    made = create(client)
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ann, client.websocket_connect(f"/ws/{gid}") as eve:
        hello(ann, [made["seats"]["0"]])
        hello(eve, [])
        ann.send_json({"type": "chat_watchers", "open": False})
        assert error(ann)["code"] == "not_creator"   # a seat's holder is not the creator
    with client.websocket_connect(f"/ws/{gid}") as boss, client.websocket_connect(f"/ws/{gid}") as eve:
        hello(boss, [made["creator"]])
        hello(eve, [])
        boss.send_json({"type": "chat_watchers", "open": False, "request": 3})
        assert recv(eve, "chat_watchers") == {"type": "chat_watchers", "open": False}
        say(eve, "hello?")
        assert error(eve)["code"] == "chat_closed"
        assert stored_lines(client, gid) == []
    with client.websocket_connect(f"/ws/{gid}") as eve:   # stored: a new page is told at once
        hello(eve, [])
        assert recv(eve, "chat_log") == {"type": "chat_log", "lines": [], "watchers_open": False}
        say(eve, "still closed")
        assert error(eve)["code"] == "chat_closed"


def test_the_latest_hundred_lines_come_with_the_welcome_and_the_replay_has_them_all(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite")
    with TestClient(create_app(db, bot_delay=0.0)) as client:
        made = create(client)
        gid = made["id"]
        storage = storage_of(client)
        for k in range(105):   # written straight to storage: the page's budget is not the point here
            storage.add_chat(gid, ChatChannel.PLAYERS if k % 2 else ChatChannel.WATCHERS,
                             1 if k % 2 else None, "Bob" if k % 2 else None, f"line {k}")
    with TestClient(create_app(db, bot_delay=0.0)) as client:   # a restart: the game loads its chat
        with client.websocket_connect(f"/ws/{gid}") as ann:
            hello(ann, [made["seats"]["0"]])
            log = recv(ann, "chat_log")
            assert [line["text"] for line in log["lines"]] == [f"line {k}" for k in range(5, 105)]
            assert log["lines"][0]["channel"] == "players" and log["lines"][1]["seat"] is None
            assert log["watchers_open"] is True
        everything = client.get(f"/api/games/{gid}/chat").json()["lines"]
        assert [line["text"] for line in everything] == [f"line {k}" for k in range(105)]
        assert client.get("/api/games/nosuchgame/chat").status_code == 404
        assert client.delete(f"/api/games/{gid}",
                             headers={"Authorization": f"Bearer {made['creator']}"}).status_code == 204
        assert storage_of(client).chat_lines(gid) == []


def test_a_chat_line_reaches_the_pages_of_another_process(tmp_path: Path) -> None:
    # two processes' rooms on one database: the notice carries the line, the other process sends it
    # to its pages (once, even when it hears it twice)
    async def scenario() -> None:
        storage = Storage(str(tmp_path / "games.db"))
        ours, theirs = Rooms(storage), Rooms(storage)
        room, _creator, _secrets = await ours.create(GameSetup(deal=Deal.SECRET, short=6))
        other = await theirs.get(room.id)
        sent: list[str] = []

        class Page:   # just enough of a Connection to be broadcast to
            def push(self, text: str, latest: str | None = None) -> None:
                sent.append(text)

        other.conns.add(Page())  # type: ignore[arg-type]
        line = await storage.add_chat_async(room.id, ChatChannel.PLAYERS, 0, "Ann", "hi there")
        notice = encode_notice({"type": NoticeType.CHAT, "game": room.id, "line": line})
        assert decode_notice(notice)["type"] == NoticeType.CHAT
        await theirs._on_notice(notice)
        await theirs._on_notice(notice)
        assert [json.loads(t)["text"] for t in sent] == ["hi there"]
        assert other.chat_log == [line]
        await theirs._on_notice(encode_notice({"type": NoticeType.CHAT, "game": room.id,
                                               "watchers_open": False}))
        assert other.watchers_open is False and json.loads(sent[-1]) == {"type": "chat_watchers",
                                                                           "open": False}
        await ours.close()
        await theirs.close()
        storage.close()

    asyncio.run(scenario())


def test_a_rematch_is_made_once_every_person_wants_one(client: TestClient) -> None:
    made = create(client, {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"},
                                     {"kind": "bot", "level": "easy"}], "short": 2, "start_player": 0})
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ann, client.websocket_connect(f"/ws/{gid}") as bob, \
            client.websocket_connect(f"/ws/{gid}") as eve:
        view = hello(ann, [made["seats"]["0"], made["creator"]])["snapshot"]
        hello(bob, [made["seats"]["1"]])
        hello(eve, [])
        ann.send_json({"type": "rematch", "seat": 0})
        assert error(ann)["code"] == "not_over"
        while not view["over"]:   # the two people play; the bot plays itself
            if view["decision"]["player"] == 0:
                view = play(ann, view)
            elif view["decision"]["player"] == 1:
                bob.send_json({"type": "resync", "version": None})
                snap = recv(bob, "snapshot", skip=("table", "update"))
                bob_view = play(bob, snap)
                view = apply_update(view, recv(ann, "update"))
                assert view["version"] == bob_view["version"]
            else:
                view = apply_update(view, recv(ann, "update"))
        bob.send_json({"type": "rematch", "seat": 0})
        assert error(bob)["code"] == "not_your_seat"
        eve.send_json({"type": "rematch", "seat": 1})
        assert error(eve)["code"] == "not_your_seat"
        ann.send_json({"type": "rematch", "seat": 0, "request": 1})
        table = recv(bob, "table", skip=("update",))
        assert table["rematch"] == [0]
        bob.send_json({"type": "rematch", "seat": 1, "request": 2})
        offers = {name: recv(page, "rematch", skip=("table", "update", "ack"))
                  for name, page in (("ann", ann), ("bob", bob), ("eve", eve))}
        new = offers["ann"]["game"]
        assert new != gid and all(o["game"] == new for o in offers.values())
        assert set(offers["ann"]["seats"]) == {"0"} and offers["ann"]["creator"]
        assert set(offers["bob"]["seats"]) == {"1"} and offers["bob"]["creator"] is None
        assert offers["eve"]["seats"] == {} and offers["eve"]["creator"] is None
        stored = storage_of(client).load(new)
        assert stored is not None
        assert [(s.kind, s.level, s.name) for s in stored.seats] == \
            [("human", None, "Ann"), ("human", None, "Bob"), ("bot", "easy", None)]
        assert stored.seats[0].secret_hash == hash_secret(offers["ann"]["seats"]["0"])
        assert stored.seats[1].secret_hash == hash_secret(offers["bob"]["seats"]["1"])
        assert stored.creator_hash == hash_secret(offers["ann"]["creator"])
        assert stored.setup["start_player"] == 1 and stored.setup["deal"] == "secret"
        assert stored.setup["short"] == 2
        old = storage_of(client).load(gid)
        assert old is not None and stored.setup["seed"] != old.setup["seed"]
        bob.send_json({"type": "rematch", "seat": 1})   # asked again: the same game, the same secret
        assert recv(bob, "rematch", skip=("table", "ack"))["seats"] == offers["bob"]["seats"]
    with client.websocket_connect(f"/ws/{new}") as bob:   # the new secret holds the new seat
        welcome = hello(bob, [offers["bob"]["seats"]["1"]])
        assert welcome["seats"] == [1] and welcome["snapshot"]["decision"]["player"] == 1


def test_a_rated_games_rematch_is_rated_with_the_same_accounts_and_bots(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = Storage(str(tmp_path / "games.db"))
        rooms = Rooms(storage)
        setup = GameSetup.from_json({"seats": [{"kind": "human"}, {"kind": "bot", "level": "hard"},
                                               {"kind": "human"}], "start_player": 2, "rated": True,
                                     "short": 4})
        room, _creator, _secrets = await rooms.create(setup, accounts={0: 11, 2: 12})
        new_setup, accounts = room.rematch_setup()
        assert new_setup.rated and new_setup.deal == Deal.SECRET and new_setup.start_player == 0
        assert [(s.kind, s.level) for s in new_setup.seats] == \
            [("human", None), ("bot", "hard"), ("human", None)]
        assert accounts == {0: 11, 2: 12} and new_setup.short == 4
        for seat in (0, 2):   # held by their accounts: no secret to derive the new ones from
            storage.rematch_offer(room.id, seat, None, None)
        state = await rooms.create_rematch(room)
        assert state.new_game is not None and state.wants == {0: None, 2: None}
        assert (await rooms.create_rematch(room)).new_game == state.new_game   # made once
        stored = storage.load(state.new_game)
        assert stored is not None and stored.setup["rated"] is True
        assert [s.account_id for s in stored.seats] == [11, None, 12]
        assert stored.seats[0].secret_hash and stored.creator_hash
        await rooms.close()
        storage.close()

    asyncio.run(scenario())
