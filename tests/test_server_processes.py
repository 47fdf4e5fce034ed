"""Several server processes on one PostgreSQL: a game played across them, seen on both, deleted on both.

Two real ``huntgather play`` processes share the throw-away PostgreSQL that
``scripts/test.sh`` starts (``HUNTGATHER_TEST_POSTGRES``).  Ann and a watcher
are on one process, Bob and another watcher on the other: every move must
reach all four pages within a second, presence crosses processes, and a delete
on one process closes the game's pages on the other.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from play_server import free_port, launch, stop

pytest.importorskip("websockets")
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

POSTGRES = os.environ.get("HUNTGATHER_TEST_POSTGRES")
pytestmark = pytest.mark.skipif(not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL "
                                                     "(scripts/test.sh starts one when run as root)")


class Process:
    """A ``huntgather play`` process."""

    def __init__(self, db: str) -> None:
        self.port = free_port()
        self.output: list[str] = []
        self.sockets = contextlib.ExitStack()
        self.proc = launch(db, self.port, output=self.output)

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.sockets.close()
        stop(self.proc)

    def http(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json", **(headers or {})})
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read()
            return json.loads(text) if text else None

    def page(self, game_id: str, secrets: list[str]) -> Page:
        ws = self.sockets.enter_context(connect(f"ws://127.0.0.1:{self.port}/ws/{game_id}", open_timeout=10))
        return Page(ws, secrets)


class Page:
    """One browser page, as its websocket: it keeps the latest table and applies every update."""

    def __init__(self, ws: ClientConnection, secrets: list[str]) -> None:
        self.ws = ws
        ws.send(json.dumps({"type": "hello", "secrets": secrets, "version": None}))
        self.welcome = self.next("welcome")
        self.table: dict[str, Any] = {}
        self.view = self.next("snapshot")

    def next(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next message of ``kind`` (tables and updates on the way are taken in)."""
        deadline = time.monotonic() + timeout
        while True:
            msg: dict[str, Any] = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if msg["type"] == "ping":   # the server's heartbeat: a page answers it
                self.ws.send(json.dumps({"type": "pong"}))
            elif msg["type"] == "table":
                self.table = msg
            elif msg["type"] == "update":
                assert msg["from"] == self.view["version"], (msg["from"], self.view["version"])
                self.view = {**self.view, **{k: v for k, v in msg.items() if k not in ("type", "from")}}
            elif msg["type"] == "error" and kind != "error":
                raise AssertionError(f"error while waiting for {kind}: {msg}")
            if msg["type"] == kind:
                return msg

    def until(self, check: Any, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            self.next("table", timeout=deadline - time.monotonic())


def play_turn(mover: Page, request: int = 0) -> tuple[dict[str, Any], float]:
    """The seat to move plays a whole turn from ``mover``'s page; return the ack and when it was sent."""
    view = mover.view
    seat = view["decision"]["player"]
    mover.ws.send(json.dumps({"type": "preview", "seat": seat, "version": view["version"],
                              "moves": [view["legal"][0]]}))
    preview = mover.next("preview")
    moves = [view["legal"][0]]
    if not preview["turn_over"]:
        moves += [{"kind": "pass"}] * (2 if preview["decision"]["phase"] == "shaman" else 1)
    sent = time.monotonic()
    mover.ws.send(json.dumps({"type": "turn", "request": request, "seat": seat, "version": view["version"],
                              "moves": moves}))
    return mover.next("ack"), sent


@pytest.fixture
def processes() -> Iterator[tuple[Process, Process]]:
    assert POSTGRES
    a = Process(POSTGRES)
    try:
        b = Process(POSTGRES)
    except Exception:
        a.stop()
        raise
    yield a, b
    a.stop()
    b.stop()


def test_a_game_played_across_two_processes(processes: tuple[Process, Process]) -> None:
    a, b = processes
    made = a.http("POST", "/api/games", {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}],
                                         "short": 6})
    gid = made["id"]
    ann = a.page(gid, [made["creator"], made["seats"]["0"]])
    cy = a.page(gid, [])
    bob = b.page(gid, [made["seats"]["1"]])
    dee = b.page(gid, [])
    pages = [ann, cy, bob, dee]
    # presence crosses processes: Ann sees Bob online and two watchers, Bob sees Ann
    ann.until(lambda: ann.table["seats"][1]["online"] and ann.table["watchers"] == 2, timeout=5)
    bob.until(lambda: bob.table["seats"][0]["online"] and bob.table["seats"][0]["name"] == "Ann", timeout=5)
    seat_page = {0: ann, 1: bob}
    turns = 0
    while not ann.view["over"]:
        mover = seat_page[ann.view["decision"]["player"]]
        assert mover.view["version"] == ann.view["version"]
        ack, sent = play_turn(mover, turns)
        for page in pages:   # every page, on either process, sees the move within a second
            while page.view["version"] < ack["version"]:
                page.next("update", timeout=max(0.01, sent + 1.0 - time.monotonic()))
            assert page.view["version"] == ack["version"]
        assert time.monotonic() - sent < 1.0 + 0.5   # the waits above are bounded by one second each
        turns += 1
        assert turns < 100
    finals = [p.view["final"] for p in pages]
    assert all(f == finals[0] for f in finals) and finals[0] is not None
    assert [p["score"] for p in bob.view["players"]] == finals[0]["scores"]
    # a stale move is refused on the other process too
    bob.ws.send(json.dumps({"type": "turn", "seat": 1, "version": 1, "moves": [{"kind": "pass"}]}))
    assert bob.next("error")["code"] in ("game_over", "stale")
    # deleting on process B closes the game's pages on process A
    b.http("DELETE", f"/api/games/{gid}", headers={"Authorization": f"Bearer {made['creator']}"})
    for page in (ann, cy):
        told = page.next("error", timeout=2)
        assert told["code"] == "deleted"
        with pytest.raises(ConnectionClosed) as closed:
            page.next("anything", timeout=2)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4404, "deleted")
    for page in pages:
        page.ws.close()


def test_a_stale_copy_reloads_before_accepting_a_move(processes: tuple[Process, Process]) -> None:
    # both processes hold the game; a move stored through A reaches B's copy before B accepts one
    a, b = processes
    made = a.http("POST", "/api/games", {"seats": [{"kind": "human"}, {"kind": "human"}], "short": 10})
    gid = made["id"]
    secrets = [made["creator"], made["seats"]["0"], made["seats"]["1"]]
    on_a, on_b = a.page(gid, secrets), b.page(gid, secrets)
    for turn in range(8):   # alternate the process that plays; each is up to date before it moves
        mover, other = (on_a, on_b) if turn % 2 == 0 else (on_b, on_a)
        if mover.view["over"]:
            break
        ack, _ = play_turn(mover, turn)
        while other.view["version"] < ack["version"]:
            other.next("update", timeout=2)
    stored = a.http("GET", f"/api/games/{gid}")
    assert stored["version"] == on_a.view["version"] == on_b.view["version"]
    on_a.ws.close()
    on_b.ws.close()
