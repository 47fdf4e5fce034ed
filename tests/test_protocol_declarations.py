"""The declarations of the protocol (huntgather.server.messages) drive the server and its docs.

Every intent has a handler and every handler an intent; the messages the server really sends fit
their declarations; the docs' tables, the JSON Schema and the browser's copy of the update keys
are what the declarations say; a made-up intent, declared as docs/contributing.md says, is
checked, dispatched, documented and in the schema.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest

with warnings.catch_warnings():   # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from huntgather.server import create_app, dispatch
from huntgather.server.codec import ProtocolError
from huntgather.server.fields import Length, Range, checker
from huntgather.server.messages import (
    INTENTS,
    MESSAGES,
    NOTICES,
    UPDATE_KEYS,
    ErrorCode,
    IntentBase,
    IntentSpec,
    When,
    check_intent,
    decode_notice,
)
from huntgather.server.protocol_docs import render_docs, schema, schema_text
from huntgather.server.rooms import Rooms
from huntgather.server.storage import MAX_NOTICE, move_notice

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SERVER = ROOT / "src" / "huntgather" / "server"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as c:
        yield c


# --------------------------------------------------------------------------- one definition


def test_every_intent_has_a_handler_and_every_handler_an_intent() -> None:
    assert set(dispatch.HANDLERS) == set(INTENTS)
    assert set(Rooms._NOTICE_HANDLERS) == set(NOTICES)


def test_the_docs_and_the_schema_are_made_from_the_declarations() -> None:
    md = (DOCS / "protocol.md").read_text(encoding="utf-8")
    assert render_docs(md) == md, "docs/protocol.md is stale: run python tools/protocol_docs.py"
    committed = (DOCS / "protocol.schema.json").read_text(encoding="utf-8")
    assert committed == schema_text(), "docs/protocol.schema.json is stale: run python tools/protocol_docs.py"


def test_the_browser_replaces_the_declared_update_keys() -> None:
    js = (ROOT / "src" / "huntgather" / "web" / "js" / "game.js").read_text(encoding="utf-8")
    found = re.search(r"export const UPDATE_KEYS = \[(.*?)\];", js, re.DOTALL)
    assert found is not None
    assert tuple(re.findall(r'"(\w+)"', found.group(1))) == UPDATE_KEYS
    assert "for (const k of UPDATE_KEYS)" in js


def test_the_page_handles_every_declared_message_and_no_other() -> None:
    # the page's dispatch (play.js onMessage) is written by hand: it must name every message the
    # server declares (a new one would otherwise be dropped in silence by `default`), and only
    # those; `ping` is answered by the socket itself (connection.js), and `pong` answers a `ping`
    # the page never sends
    web = ROOT / "src" / "huntgather" / "web" / "js"
    play = (web / "play.js").read_text(encoding="utf-8")
    body = re.search(r"async function onMessage\(msg\) \{\n    switch \(msg\.type\) \{\n(.*?)\n    \}",
                     play, re.DOTALL)
    assert body is not None, "play.js: onMessage's switch not found"
    handled = set(re.findall(r'^      case "(\w+)":', body.group(1), re.MULTILINE))
    connection = (web / "connection.js").read_text(encoding="utf-8")
    assert 'if (msg.type === "ping")' in connection and "sock.send(PONG)" in connection
    sent_types = set(re.findall(r'type: "(\w+)"', "".join(p.read_text(encoding="utf-8")
                                                       for p in web.glob("*.js"))))
    assert "ping" not in sent_types, "a page sends ping: it must then handle pong"
    assert handled | {"ping", "pong"} == set(MESSAGES), sorted(handled ^ (set(MESSAGES) - {"ping", "pong"}))


def test_the_python_client_replaces_the_declared_update_keys() -> None:
    # huntgather.client does not import the server (a bot from outside needs none of it): its copy
    # of the list is checked here, as the browser's is
    from huntgather.client.view import REPLACED
    assert REPLACED == UPDATE_KEYS


def test_every_error_code_the_server_raises_is_declared() -> None:
    pattern = re.compile(r'(?:RequestError|ProtocolError|_error)\(\s*"(\w+)"')
    used = {code for path in SERVER.glob("*.py")
            for code in pattern.findall(path.read_text(encoding="utf-8"))}
    assert len(used) > 15   # the pattern finds them
    assert used <= {str(c) for c in ErrorCode}, used - {str(c) for c in ErrorCode}


# --------------------------------------------------------------------------- checks


@pytest.mark.parametrize(("message", "words"), [
    ({"type": "turn", "version": 3, "moves": []}, "'seat' is required: a whole number from 0 to 4"),
    ({"type": "turn", "seat": 9, "version": 3, "moves": []}, "'seat' must be a whole number from 0 to 4"),
    ({"type": "turn", "seat": True, "version": 3, "moves": []}, "'seat' must be"),
    ({"type": "turn", "seat": 0, "version": 3, "moves": [{}] * 5}, "'moves' must be a list of at most 4"),
    ({"type": "seat", "seat": 1, "kind": "robot"}, "'kind' must be 'human', 'bot' or 'remote'"),
    ({"type": "seat", "seat": 1, "kind": "bot", "level": "wizard"}, "'level' must be 'random'"),
    ({"type": "name", "seat": 0, "name": "x" * 201}, "'name' must be text of at most 200 characters"),
    ({"type": "hello", "secrets": ["a"] * 9}, "'secrets' must be a list of at most 8 secrets"),
    ({"type": "resync", "version": "7"}, "'version' must be"),
    ({"type": "dance"}, "unknown message type"),
])
def test_a_field_out_of_its_bounds_is_named(message: dict[str, Any], words: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        check_intent(message)
    assert caught.value.code == "bad_request"
    assert words in caught.value.message, caught.value.message


def test_a_checked_intent_keeps_its_declared_fields_only() -> None:
    msg = check_intent({"type": "seat", "seat": 1, "kind": "bot", "level": "easy", "colour": "red"})
    assert msg == {"type": "seat", "seat": 1, "kind": "bot", "level": "easy"}
    assert type(msg["kind"]).__name__ == "SeatKind"   # an enum field comes back as its member


def test_a_move_notice_drops_its_moves_when_it_would_pass_the_limit() -> None:
    few = decode_notice(move_notice("g1", 10, ["d3", "3@0,1r0", "-"]))
    assert (few.get("start"), few.get("moves"), few.get("version")) == (10, ["d3", "3@0,1r0", "-"], 13)
    many = ["12@-10,-10r3"] * 700   # about 10 KB of moves
    text = move_notice("g1", 10, many)
    assert len(text.encode()) <= MAX_NOTICE
    assert decode_notice(text) == {"type": "move", "game": "g1", "version": 710}
    with pytest.raises(ProtocolError):
        decode_notice("move g1 3 1 -")   # the old space-separated form is no notice


# --------------------------------------------------------------------------- what is sent


def _fits(message: dict[str, Any]) -> None:
    """``message`` fits its declaration exactly: every declared field, nothing else."""
    spec = MESSAGES[message["type"]]
    checker(spec.shape, "bad_message")(message)


def test_every_message_the_server_sends_fits_its_declaration(client: TestClient) -> None:
    made = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
                                           "seed": 4, "short": 6}).json()
    seen: list[dict[str, Any]] = []

    def receive(ws: Any, *types: str) -> dict[str, Any]:
        while True:
            msg: dict[str, Any] = ws.receive_json()
            seen.append(msg)
            if msg["type"] in types:
                return msg

    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "secrets": [made["creator"], made["seats"]["0"]], "version": None})
        view = receive(ws, "snapshot")
        ws.send_json({"type": "ping"})
        receive(ws, "pong")
        ws.send_json({"type": "preview", "seat": 0, "version": view["version"], "moves": [view["legal"][0]],
                      "request": "p"})
        receive(ws, "preview")
        ws.send_json({"type": "turn", "seat": 0, "version": view["version"],
                      "moves": [view["legal"][0], {"kind": "pass"}], "request": 2})
        receive(ws, "ack")
        ws.send_json({"type": "seat", "seat": 1, "kind": "human"})
        receive(ws, "seat_secret")
        ws.send_json({"type": "turn", "seat": 0, "version": 0, "moves": [{"kind": "pass"}]})
        receive(ws, "error")
        ws.send_json({"type": "resync", "version": 1})
        receive(ws, "update")
    assert {m["type"] for m in seen} >= {"welcome", "table", "snapshot", "pong", "preview", "ack", "update",
                                         "seat_secret", "error"}
    for message in seen:
        _fits(message)
    _fits(client.get(f"/api/games/{made['id']}").json())


def test_the_messages_sent_are_valid_under_the_published_schema(client: TestClient) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    published = json.loads((DOCS / "protocol.schema.json").read_text(encoding="utf-8"))
    humans = {"seats": [{"kind": "human"}, {"kind": "human"}], "short": 6}
    made = client.post("/api/games", json=humans).json()
    view = client.get(f"/api/games/{made['id']}").json()
    jsonschema.validate(view, published)
    jsonschema.validate({"type": "turn", "seat": 0, "version": 1, "moves": [{"kind": "pass"}]}, published)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"type": "turn", "seat": 0, "version": 1, "moves": [{"kind": "fly"}]}, published)


# --------------------------------------------------------------------------- the recipe


class Wave(IntentBase):
    """A made-up intent (docs/contributing.md, "Add a server message")."""

    type: Literal["wave"]
    seat: Annotated[int, Range(0, 4)]
    words: Annotated[str, Length(1, 20)]


def test_a_new_intent_is_checked_dispatched_documented_and_in_the_schema(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    waves: list[dict[str, Any]] = []

    async def wave(s: dispatch.Sender, msg: Wave) -> None:
        waves.append(dict(msg))
        s.answer({"type": "pong"})

    # the recipe's steps 1 and 2: the declaration in INTENTS, the handler in HANDLERS
    monkeypatch.setitem(INTENTS, "wave", IntentSpec(Wave, When.JOINED, "anyone", "waves at the table"))
    monkeypatch.setitem(dispatch.HANDLERS, "wave", wave)
    # checked
    with pytest.raises(ProtocolError, match="'words' must be text of 1 to 20 characters"):
        check_intent({"type": "wave", "seat": 0, "words": ""})
    # dispatched, with its request echoed
    humans = {"seats": [{"kind": "human"}, {"kind": "human"}], "short": 6}
    made = client.post("/api/games", json=humans).json()
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "wave", "seat": 0, "words": "hi"})
        assert ws.receive_json()["code"] == "hello_first"   # like every intent after hello
        ws.send_json({"type": "hello", "secrets": [], "version": None})
        ws.send_json({"type": "wave", "seat": 0, "words": "hi", "request": 5})
        ws.send_json({"type": "wave", "seat": 0, "words": 12})
        answers = [ws.receive_json() for _ in range(5)]
    kinds = [(a["type"], a.get("request"), a.get("code")) for a in answers]
    assert kinds[-2:] == [("pong", 5, None), ("error", None, "bad_request")], kinds
    assert waves == [{"type": "wave", "seat": 0, "words": "hi", "request": 5}]
    # documented and in the schema
    md = render_docs((DOCS / "protocol.md").read_text(encoding="utf-8"))
    assert ("| `wave` | `seat`: a whole number from 0 to 4; `words`: text of 1 to 20 characters "
            "| after hello | anyone | waves at the table |") in md
    wave_schema = schema()["$defs"]["Wave"]
    assert wave_schema["properties"]["words"] == {"type": "string", "minLength": 1, "maxLength": 20}
    assert {"$ref": "#/$defs/Wave"} in schema()["$defs"]["intent"]["oneOf"]


def test_an_unknown_intent_is_still_refused_once_the_made_up_one_is_gone() -> None:
    assert "wave" not in INTENTS
    with pytest.raises(ProtocolError, match="unknown message type"):
        check_intent({"type": "wave", "seat": 0, "words": "hi"})
