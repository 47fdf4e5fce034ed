"""A server that holds up (issue 11): the real ``huntgather play`` process under faults.

Each test starts the server as a subprocess (SQLite in WAL mode, as a person
runs it) and talks to it over real sockets: HTTP with ``httpx``, websockets
with the ``websockets`` library.  The faults: a page that never reads, hostile
frames (oversized, deeply nested, huge numbers, binary, 20 parallel 15 MB
frames), ``kill -9`` in the middle of a burst of moves and while a bot thinks
(and the bots' worker processes, which must not outlive the server), and a
database that stops taking writes (read-only, then a full disk, both on a small
tmpfs of their own, so these need root; the read-only file system is made by a
small preloaded C library, see :data:`READ_ONLY_SHIM`).

No test measures speed except where the issue names a bound (an acknowledgement
within a second, memory within 200 MB); every wait has a generous deadline and
every loop a bound.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import errno
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from play_server import PATIENCE, Page, Server, descendants, hotseat_secrets

pytest.importorskip("uvicorn")
pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from huntgather.client import Disconnected, ServerError, websocket_url  # noqa: E402

CLOSE_TOO_SLOW = 4008
CLOSE_TOO_BIG = 1009

#: one HTTP client for these tests' requests: ``httpx.get`` and the like make a client each, and
#: with it an SSL context (30 ms of CPU a request, 2 ms through one client).  It keeps no
#: connection open between requests: the servers here are killed and started again.
HTTP = httpx.Client(timeout=PATIENCE, limits=httpx.Limits(max_keepalive_connections=0))


# --------------------------------------------------------------------------- HTTP


def create_game(srv: Server, setup: dict[str, Any]) -> dict[str, Any]:
    r = HTTP.post(f"{srv.http}/api/games", json=setup)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def game_view(srv: Server, game_id: str) -> dict[str, Any]:
    r = HTTP.get(f"{srv.http}/api/games/{game_id}")
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view


def stored_version(db: Path, game_id: str) -> int:
    """The number of moves stored for a game, read from the database file itself."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as conn:
        (count,) = conn.execute("SELECT count(*) FROM hg_moves WHERE game_id = ?", (game_id,)).fetchone()
        (ply,) = conn.execute("SELECT ply FROM hg_games WHERE id = ?", (game_id,)).fetchone()
    assert count == ply, (count, ply)
    return int(count)


def assert_plain_words(message: str) -> None:
    """An error message a person reads: words, no code, SQL or traceback."""
    assert message and message[0].isalpha(), message
    for word in ("INSERT", "SELECT", "UPDATE hg_", "sqlite", "Traceback", "Error", "errno", "File \""):
        assert word.lower() not in message.lower(), f"{word!r} in an error a person reads: {message!r}"


# --------------------------------------------------------------------------- a page


# --------------------------------------------------------------------------- 1. a page that never reads


def server_send_queue(server_port: int, client_port: int) -> int | None:
    """Bytes the server's socket holds for a client that has not taken them (from /proc/net/tcp)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = fields[1].split(":"), fields[2].split(":")
        if int(local[1], 16) == server_port and int(remote[1], 16) == client_port:
            return int(fields[4].split(":")[0], 16)
    return None


async def raw_websocket(srv: Server, game_id: str, rcvbuf: int | None = None
                        ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A websocket opened by hand, to send frames as no client library would (``rcvbuf``: a small
    receive buffer for the socket)."""
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect(("127.0.0.1", srv.port))
    reader, writer = await asyncio.open_connection(sock=sock)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(f"GET /ws/{game_id} HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                 f"Sec-WebSocket-Version: 13\r\n\r\n".encode())
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), PATIENCE)
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


def frame_head(length: int, opcode: int = 0x1) -> bytes:
    """The head of a client's frame (final, masked with a zero key, so the payload goes as it is)."""
    if length < 126:
        size = bytes([0x80 | length])
    elif length < 65536:
        size = bytes([0x80 | 126]) + length.to_bytes(2, "big")
    else:
        size = bytes([0x80 | 127]) + length.to_bytes(8, "big")
    return bytes([0x80 | opcode]) + size + b"\0\0\0\0"


def text_frame(msg: dict[str, Any]) -> bytes:
    payload = json.dumps(msg).encode()
    return frame_head(len(payload)) + payload


async def raw_close_code(reader: asyncio.StreamReader) -> int | None:
    """Read the server's frames until its close frame (return its code) or the end of the connection
    (return None: dropped without a close frame)."""
    deadline = time.monotonic() + PATIENCE

    async def take(n: int) -> bytes:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        return await asyncio.wait_for(reader.readexactly(n), left)

    try:
        for _ in range(1_000_000):
            head = await take(2)
            length = head[1] & 0x7F
            if length >= 126:
                length = int.from_bytes(await take(2 if length == 126 else 8), "big")
            payload = await take(length)
            if head[0] & 0x0F == 0x8:
                return int.from_bytes(payload[:2], "big") if length >= 2 else None
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    except TimeoutError:
        pass
    raise AssertionError("the server never closed the connection of a page that did not read")


async def never_reading_page(srv: Server, game_id: str) -> tuple[ClientConnection, int]:
    """A watcher whose page reads nothing: a tiny receive buffer, a queue of one message."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", srv.port))
    port: int = sock.getsockname()[1]
    ws = await connect(websocket_url(srv.http, game_id), sock=sock, max_queue=1, max_size=2**20,
                       compression=None, open_timeout=PATIENCE, ping_interval=None)
    await ws.send(json.dumps({"type": "hello", "secrets": [], "version": None}))
    return ws, port


#: the server's options for a test whose page floods it with resyncs to fill its socket (the
#: budget of costly intents would answer most of them ``too_fast``, and the socket would fill slowly)
UNBUDGETED = ("--costly-per-second", "0")


async def fill_until_stuck(srv: Server, ws: ClientConnection, port: int) -> int:
    """Ask for snapshots in small batches until the server's socket to this page is full; return
    how many were asked for.  Each batch stays well under the outbox's limit, so the page is not
    dropped for asking: it is dropped later, while it says nothing, for not reading."""
    resync = json.dumps({"type": "resync", "version": None})
    asked, last, still = 0, -1, 0
    for _ in range(2000):
        for _ in range(10):
            await ws.send(resync)
        asked += 10
        await asyncio.sleep(0.05)
        queued = server_send_queue(srv.port, port) or 0
        still = still + 1 if queued == last and queued > 0 else 0
        last = queued
        if still >= 2:   # it looks full; it is if 10 more snapshots do not move it in half a second
            for _ in range(10):
                await ws.send(resync)
            asked += 10
            await asyncio.sleep(0.5)
            if server_send_queue(srv.port, port) == queued:
                return asked
            still, last = 0, -1
    raise AssertionError("the server's socket to a page that never reads never filled up")


async def closed_on_reading(ws: ClientConnection) -> int | None:
    """Read everything a never-reading page was sent; the connection must end (return its close code,
    or None when it was dropped without a close frame)."""
    deadline = time.monotonic() + PATIENCE
    for _ in range(200_000):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            await asyncio.wait_for(ws.recv(), left)
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd is not None else None
        except TimeoutError:
            break
    raise AssertionError("the server never closed the connection of a page that did not read")


async def wait_for_watchers(page: Page, count: int, what: str, patience: float = PATIENCE) -> None:
    """Wait until ``page``'s latest ``table`` says ``count`` watchers (within ``patience`` s)."""
    await page.wait_for_table(lambda table: table["watchers"] == count, what, patience)


#: the longest a turn's acknowledgement may take while a page that never reads floods the server
#: with resyncs.  A server whose sends waited on that page would hold every acknowledgement for as
#: long as the page's socket stays full (it never empties: the page does not read), so any bound
#: tells the two apart; on a quiet machine acknowledgements take milliseconds, and the suite's own
#: load (browsers, the compiled build compiling beside) has stretched one to 1.65 s.
ACK_BOUND = 5.0


def test_a_page_that_never_reads_does_not_delay_another_players_acknowledgement(
        tmp_path: Path, servers: list[Server]) -> None:
    """A page says hello and never reads again, but keeps asking for snapshots: 100 at once, then 10
    every 50 ms.  Another player's turns are acknowledged all along, each within ACK_BOUND, and the
    page is let go (the table stops counting it) and disconnected (too_slow, or simply dropped)."""
    srv = Server(tmp_path / "games.sqlite", args=UNBUDGETED).start()
    servers.append(srv)
    made = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "human"}]})   # the whole stack
    gid = made["id"]
    resync = text_frame({"type": "resync", "version": None})

    async def scenario() -> None:
        hotseat = await Page.join(srv, gid, hotseat_secrets(made))
        reader, slow = await raw_websocket(srv, gid, rcvbuf=4096)
        slow.write(text_frame({"type": "hello", "secrets": [], "version": None}) + resync * 100)
        await slow.drain()
        asking = True

        async def keep_asking() -> None:   # until told to stop, or the server no longer takes them
            with contextlib.suppress(OSError, TimeoutError):
                for _ in range(5000):
                    if not asking:
                        return
                    slow.write(resync * 10)
                    await asyncio.wait_for(slow.drain(), 5)
                    await asyncio.sleep(0.05)

        asker = asyncio.create_task(keep_asking())
        acks: list[float] = []
        deadline = time.monotonic() + 2 * PATIENCE
        for _ in range(1000):
            version, took = await hotseat.play()
            acks.append(took)
            assert took < ACK_BOUND, f"version {version} acknowledged {took:.2f} s after its turn was sent"
            watchers = [t["watchers"] for t in hotseat.tables]
            let_go = 1 in watchers and watchers[-1] == 0   # the page joined, then was let go
            if (len(acks) >= 40 and let_go) or hotseat.view["over"]:
                break
            assert time.monotonic() < deadline, "the page that never reads is still counted as watching"
            await asyncio.sleep(0.05)
        assert len(acks) >= 40 and let_go, f"{len(acks)} turns; the page that never reads was not let go"
        asking = False
        await asyncio.wait_for(asker, PATIENCE)
        code = await raw_close_code(reader)
        assert code in (CLOSE_TOO_SLOW, None), f"the page that never reads was closed with code {code}"
        slow.transport.abort()
        assert game_view(srv, gid)["version"] == hotseat.view["version"]
        await hotseat.close()

    asyncio.run(scenario())


def test_a_page_that_stops_reading_and_sending_is_disconnected(tmp_path: Path, servers: list[Server]) -> None:
    """A page whose socket is full and that sends nothing more must still be let go: the table stops
    counting it and its connection ends."""
    srv = Server(tmp_path / "games.sqlite", args=UNBUDGETED).start()
    servers.append(srv)
    made = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "human"}]})
    gid = made["id"]

    async def scenario() -> None:
        hotseat = await Page.join(srv, gid, hotseat_secrets(made))
        for _ in range(30):   # a longer log: bigger snapshots, so the socket fills sooner
            await hotseat.play()
        stuck, stuck_port = await never_reading_page(srv, gid)
        try:
            await wait_for_watchers(hotseat, 1, "the page that never reads did not join")
            await fill_until_stuck(srv, stuck, stuck_port)
            for _ in range(5):   # the game goes on; the stuck page says nothing more
                _, took = await hotseat.play()
                assert took < 1.0
            # the server gives a page 5 s to take a message (connection.py): 20 s is plenty
            await wait_for_watchers(hotseat, 0, "a page that stopped reading (its socket full) and sends "
                                                "nothing is never let go", patience=20)
            code = await closed_on_reading(stuck)
            assert code in (CLOSE_TOO_SLOW, None), f"the stuck page was closed with code {code}"
        finally:
            stuck.transport.abort()   # so that the server can stop (see the next test)
        await hotseat.close()

    asyncio.run(scenario())


def test_the_server_stops_on_sigterm_while_a_page_never_reads(tmp_path: Path, servers: list[Server]) -> None:
    """Stopping the server (Ctrl+C, SIGTERM) must not wait for a page that does not read."""
    srv = Server(tmp_path / "games.sqlite", args=UNBUDGETED).start()
    servers.append(srv)
    made = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "human"}]})

    async def scenario() -> None:
        hotseat = await Page.join(srv, made["id"], hotseat_secrets(made))
        for _ in range(30):
            await hotseat.play()
        stuck, stuck_port = await never_reading_page(srv, made["id"])
        await wait_for_watchers(hotseat, 1, "the page that never reads did not join")
        await fill_until_stuck(srv, stuck, stuck_port)
        await hotseat.close()
        assert srv.proc is not None
        srv.proc.send_signal(signal.SIGTERM)
        try:
            code = await asyncio.to_thread(srv.proc.wait, 10)
        except subprocess.TimeoutExpired:
            raise AssertionError("10 s after SIGTERM the server still runs: its shutdown waits for a page "
                                 "that does not read") from None
        finally:
            stuck.transport.abort()
        assert code == 0, srv.log()   # drained (huntgather.server.serving), not killed by the signal

    asyncio.run(scenario())


CLOSE_RESTART = 1012
#: huntgather play's default --drain-seconds, and the bound within which it exits after SIGTERM
DRAIN_SECONDS, EXIT_WITHIN = 6.0, 10.0


def test_sigterm_drains_the_pages_and_a_second_server_goes_on(tmp_path: Path, servers: list[Server]) -> None:
    """SIGTERM while a hotseat page's turn is in flight and a hard bot searches in another game: both
    pages are closed with 1012 (``service_restart``), a turn acknowledged before it is stored, the
    bot's move is stored unless the drain waited its whole bound for it, nothing new is taken
    meanwhile (a new game is refused), and the process exits 0 within 10 s.  A second server on the
    same database and port lets both pages go on from where they were."""
    db = tmp_path / "games.sqlite"
    srv = Server(db).start()
    servers.append(srv)
    hotseat = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "human"}]})
    versus = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "bot", "level": "hard"}]})
    person = [versus["creator"], versus["seats"]["0"]]

    async def scenario() -> None:
        page = await Page.join(srv, hotseat["id"], hotseat_secrets(hotseat))
        acked = [(await page.play())[0] for _ in range(3)]
        bot_page = await Page.join(srv, versus["id"], person)
        for _ in range(5):   # a turn after which the bot is to move (a menhir turn: the person again)
            await bot_page.until_to_move(0)
            mine, _ = await bot_page.play()
            if bot_page.view["decision"]["player"] == 1:
                break
        else:
            raise AssertionError("the bot was never to move after the person's turn")
        # past its delay (0.05 s) the bot searches: a drain lets that search store its move (a bot
        # still in its delay starts no search: the next server makes its move)
        await asyncio.sleep(0.3)
        in_flight = asyncio.create_task(page.play())
        await asyncio.sleep(0)   # the turn is on its way
        assert srv.proc is not None
        proc = srv.proc
        signalled = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        with contextlib.suppress(Disconnected):
            acked.append((await asyncio.wait_for(in_flight, PATIENCE))[0])
        for p in (page, bot_page):
            assert await p.wait_until(lambda p=p: p.closed, EXIT_WITHIN), "a page was not closed"
            assert (p.close_code, p.close_reason) == (CLOSE_RESTART, "service_restart")
        with contextlib.suppress(httpx.HTTPError):   # refused: nothing listens, or 503 while draining
            r = HTTP.post(f"{srv.http}/api/games", json={"seats": [{"kind": "human"}] * 2})
            assert (r.status_code, r.json()["code"]) == (503, "draining"), r.text
        try:
            code = await asyncio.to_thread(proc.wait, EXIT_WITHIN)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{EXIT_WITHIN:.0f} s after SIGTERM the server still runs") from None
        took = time.monotonic() - signalled
        srv.proc = None
        assert code == 0, srv.log()
        assert stored_version(db, hotseat["id"]) == acked[-1]
        bot_moved = stored_version(db, versus["id"]) > mine
        assert bot_moved or took >= DRAIN_SECONDS, \
            f"the bot's move was dropped after a drain of {took:.1f} s (it may wait {DRAIN_SECONDS:.0f} s)"
        srv.start()   # the same database and port: the pages reconnect where they were
        again = await Page.join(srv, hotseat["id"], hotseat_secrets(hotseat), view=page.view)
        assert again.version == acked[-1]
        version, _ = await again.play()
        assert version > acked[-1] and stored_version(db, hotseat["id"]) == version
        bot_again = await Page.join(srv, versus["id"], person, view=bot_page.view)
        await bot_again.until_to_move(0)   # the bot's move, stored before, or made by this server
        version, _ = await bot_again.play()
        assert version > mine
        for p in (page, bot_page, again, bot_again):
            await p.close()

    asyncio.run(scenario())


# --------------------------------------------------------------------------- 2. hostile frames


async def answer_to(page: Page, frame: str | bytes) -> tuple[str, Any]:
    """Send one frame; return ``("error", code)`` for an error, ``("closed", code)`` when the server
    closed the connection instead, or ``("answer", type)`` for anything else it answered."""
    page.clear()   # what came before the frame is no answer to it
    try:
        await page.send(frame)
        msg = await page.receive("preview", "ack", "snapshot", "update")
    except ServerError as exc:
        return "error", exc.code
    except Disconnected as exc:
        return "closed", exc.code
    return "answer", msg["type"]


async def send_huge_frame(srv: Server, game_id: str, size: int) -> tuple[int | None, int]:
    """Open a websocket and send one text frame of ``size`` bytes (as fast as the server takes it);
    return the close code the server answered with (None: the connection was simply dropped) and
    how many bytes of the frame the server took before it hung up."""
    reader, writer = await raw_websocket(srv, game_id)
    writer.write(frame_head(size))
    chunk = b"x" * 65536
    sent = 0
    with contextlib.suppress(OSError):   # the server may hang up long before the end
        while sent < size:
            writer.write(chunk[:size - sent])
            sent += min(len(chunk), size - sent)
            await asyncio.wait_for(writer.drain(), PATIENCE)
    code: int | None = None
    with contextlib.suppress(OSError, asyncio.IncompleteReadError):
        head = await asyncio.wait_for(reader.readexactly(2), PATIENCE)
        if head[0] & 0x0F == 0x8 and head[1] & 0x7F >= 2:   # a close frame with a code
            code = int.from_bytes(await asyncio.wait_for(reader.readexactly(2), PATIENCE), "big")
    writer.transport.abort()
    return code, sent


def memory(pid: int, key: str) -> int:
    """VmRSS or VmHWM (the peak) of a process, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no {key} in /proc/{pid}/status")


def test_hostile_frames_get_their_error_change_nothing_and_memory_stays_bounded(
        tmp_path: Path, servers: list[Server]) -> None:
    """Frames over 64 KiB (uvicorn closes with 1009), JSON nested too deep, numbers of 5,000 digits and
    binary frames each get their own answer and change nothing (the same connection goes on where it
    may); the same for HTTP bodies; 20 connections sending a 15 MB frame each at once leave the
    server's memory within 200 MB of where it was, and the server answering."""
    srv = Server(tmp_path / "games.sqlite").start()
    servers.append(srv)
    made = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "human"}]})
    gid = made["id"]
    secrets = hotseat_secrets(made)

    async def scenario() -> None:
        hotseat = await Page.join(srv, gid, secrets)
        await hotseat.play()
        version = game_view(srv, gid)["version"]
        seat = hotseat.view["decision"]["player"]
        place = hotseat.view["legal"][0]
        turn = {"type": "turn", "seat": seat, "version": version, "moves": [place, {"kind": "pass"}]}

        def text(value: Any) -> str:
            return json.dumps(value)

        huge_number = "9" * 5000
        bad_json, too_big = {("error", "bad_json")}, {("closed", CLOSE_TOO_BIG), ("error", "too_large")}
        deep = text(turn)[:-1] + ', "deep": '
        cases: list[tuple[str, str | bytes, set[tuple[str, Any]]]] = [
            ("a 100 KB text frame", text(turn | {"padding": "x" * 100_000}), too_big),
            ("JSON nested 100,000 deep", deep + "[" * 100_000 + "]" * 100_000 + "}", too_big),
            ("JSON nested 30,000 deep (within 64 KiB)", deep + "[" * 30_000 + "]" * 30_000 + "}", bad_json),
            ("a number of 5,000 digits as a coordinate",
             text(turn).replace(f'"x": {place["x"]}', f'"x": {huge_number}'), bad_json),
            ("a number of 5,000 digits as the version",
             text(turn).replace(f'"version": {version}', f'"version": {huge_number}'), bad_json),
            ("a binary frame (holding a valid turn)", text(turn).encode(),
             {("error", "binary_not_accepted")}),
        ]
        for what, frame, expected in cases:
            page = await Page.join(srv, gid, secrets)
            got = await answer_to(page, frame)
            assert got in expected, f"{what}: expected one of {sorted(expected)}, got {got}"
            if got[0] == "error":   # the page may go on: the same connection still answers
                preview = await page.preview([place], seat=seat, version=version)
                assert preview["version"] == version
            await page.close()
            view = game_view(srv, gid)
            assert view["version"] == version, f"{what} changed the game"
            assert view["decision"]["player"] == seat

        # the same through HTTP: each body refused with its own error, and no game made of it
        bodies: list[tuple[str, bytes, str, int, str]] = [
            ("a 100 KB body", text({"seats": [{"kind": "human"}] * 2, "padding": "x" * 100_000}).encode(),
             "application/json", 413, "too_large"),
            ("a body nested 30,000 deep", ("[" * 30_000 + "]" * 30_000).encode(), "application/json", 400,
             "bad_json"),
            ("a number of 5,000 digits", f'{{"seed": {huge_number}}}'.encode(), "application/json", 400,
             "bad_json"),
            ("a binary body", os.urandom(1000), "application/octet-stream", 415, "bad_content_type"),
        ]
        for what, body, ctype, status, code in bodies:
            r = HTTP.post(f"{srv.http}/api/games", content=body, headers={"content-type": ctype})
            assert (r.status_code, r.json().get("code")) == (status, code), f"{what}: {r.text[:300]}"
            assert_plain_words(r.json()["message"])
        assert game_view(srv, gid)["version"] == version

        # 20 connections at once, each sending a 15 MB frame
        before = memory(srv.pid, "VmRSS")
        ends = await asyncio.gather(*(send_huge_frame(srv, gid, 15_000_000) for _ in range(20)))
        after, peak = memory(srv.pid, "VmRSS"), memory(srv.pid, "VmHWM")
        assert {code for code, _ in ends} <= {CLOSE_TOO_BIG, None}, ends
        assert all(taken < 15_000_000 for _, taken in ends), f"the server took a whole 15 MB frame: {ends}"
        limit = 200 * 2**20
        assert after - before < limit, f"resident memory grew by {(after - before) / 2**20:.0f} MB"
        assert peak - before < limit, f"resident memory peaked {(peak - before) / 2**20:.0f} MB above start"
        # the server still answers, and the game is as it was, and goes on
        assert game_view(srv, gid)["version"] == version
        acked, took = await hotseat.play()
        assert acked > version and took < 1.0
        await hotseat.close()

    asyncio.run(scenario())


# --------------------------------------------------------------------------- 3. kill -9


async def burst(page: Page, acked: list[int], placed: dict[int, list[dict[str, Any]]]) -> None:
    """Play turns as fast as the server takes them until the connection breaks; record every
    acknowledged version and the tiles each acknowledged turn placed."""
    with contextlib.suppress(OSError):   # the server was killed (Disconnected is one)
        for _ in range(1000):
            if page.view.get("over"):
                return
            before = page.view["version"]
            version, _ = await page.play()
            acked.append(version)
            placed[version] = page.updates[before]


def test_kill_9_loses_no_acknowledged_move(tmp_path: Path, servers: list[Server]) -> None:
    """``kill -9`` at four moments (0.05 s, 0.3 s and 1 s into a burst of moves in three games at
    once; while a hard bot thinks), then a restart on the same port and database: every acknowledged
    move is there (its tile on the board), and each game goes on (one more turn is acknowledged)."""
    db = tmp_path / "games.sqlite"
    srv = Server(db).start()
    servers.append(srv)
    versus = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "bot", "level": "hard"}]})
    person = [versus["creator"], versus["seats"]["0"]]

    async def check_after_restart(game_id: str, secrets: list[str], acked: list[int],
                                  placed: dict[int, list[dict[str, Any]]], what: str) -> None:
        last = max(acked, default=0)
        view = game_view(srv, game_id)
        assert view["version"] >= last, f"{what}: acknowledged version {last}, stored {view['version']}"
        board = {(t["x"], t["y"], t["tile"], t["rotation"]) for t in view["board"]}
        for version, tiles in placed.items():
            for t in tiles:
                assert (t["x"], t["y"], t["tile"], t["rotation"]) in board, \
                    f"{what}: tile {t} of acknowledged version {version} is gone"
        page = await Page.join(srv, game_id, secrets)
        if game_id == versus["id"]:   # a bot to move plays first (it resumes on its own)
            await page.until_to_move(0)
        version, _ = await page.play()
        assert version > view["version"], f"{what}: the game does not go on after the restart"
        await page.close()

    async def kill_during_burst(after: float) -> None:
        """Three new hotseat games played as fast as possible at once; ``kill -9`` after ``after`` s."""
        games = [create_game(srv, {"seats": [{"kind": "human"}, {"kind": "human"}]}) for _ in range(3)]
        pages = [await Page.join(srv, g["id"], hotseat_secrets(g)) for g in games]
        acked: list[list[int]] = [[] for _ in games]
        placed: list[dict[int, list[dict[str, Any]]]] = [{} for _ in games]
        tasks = [asyncio.create_task(burst(p, a, t)) for p, a, t in zip(pages, acked, placed, strict=True)]
        start = time.monotonic()
        # until the moment (and a first turn acknowledged: on a loaded machine the first may take
        # longer than the moment), or earlier if a game nears its end (~190 moves)
        for _ in range(10_000):
            if (time.monotonic() - start >= after and any(acked)) \
                    or max(p.view.get("version", 0) for p in pages) >= 140:
                break
            await asyncio.sleep(0.005)
        srv.kill()
        await asyncio.wait_for(asyncio.gather(*tasks), PATIENCE)
        for page in pages:
            await page.close()
        assert any(acked), f"no turn was acknowledged in the {after} s before the kill"
        assert not all(p.view.get("over") for p in pages), f"every game was over within {after} s"
        for g, a in zip(games, acked, strict=True):
            assert stored_version(db, g["id"]) >= max(a, default=0)
        srv.start()
        for g, a, t, page in zip(games, acked, placed, pages, strict=True):
            if not page.view.get("over"):
                await check_after_restart(g["id"], hotseat_secrets(g), a, t, f"killed {after} s into a burst")

    async def kill_while_the_bot_thinks() -> None:
        # the hard bot thinks for a fraction of a second to a second or two, by the machine and its
        # load: each try that finds its move already made kills sooner after the person's turn
        waits = (0.4, 0.2, 0.1, 0.03)
        for wait in waits:
            page = await Page.join(srv, versus["id"], person)
            await page.until_to_move(0)
            before = page.view["version"]
            version, _ = await page.play()
            placed = {version: page.updates[before]}
            if page.view["decision"]["player"] != 1:   # a menhir turn: the person plays again
                await page.close()
                continue
            await asyncio.sleep(wait)
            srv.kill()
            await page.close()
            thinking = stored_version(db, versus["id"]) == version   # it had not moved yet
            srv.start()
            await check_after_restart(versus["id"], person, [version], placed, "killed while a bot thought")
            if thinking:
                return
        raise AssertionError(f"the bot never was caught thinking in {len(waits)} tries")

    async def scenario() -> None:
        for after in (0.05, 0.3, 1.0):
            await kill_during_burst(after)
        await kill_while_the_bot_thinks()

    asyncio.run(scenario())


def test_no_worker_process_outlives_the_server(tmp_path: Path, servers: list[Server]) -> None:
    """The bots search in worker processes: whether the server is stopped (SIGTERM) or killed
    (``kill -9``), none of them may go on running without it (each restart would leave more)."""
    srv = Server(tmp_path / "games.sqlite")
    servers.append(srv)

    async def make_the_bots_think() -> None:
        made = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "bot", "level": "hard"}]})
        create_game(srv, {"seats": [{"kind": "bot", "level": "random"}] * 2, "short": 10, "unwatched": True})
        page = await Page.join(srv, made["id"], [made["creator"], made["seats"]["0"]])
        await page.play()
        # the hard bot's reply (searched in a worker)
        await page.until_to_move(0)
        await page.close()

    left: dict[str, list[int]] = {}
    for how in ("stopped", "killed"):
        srv.start()
        asyncio.run(make_the_bots_think())
        left[how] = srv.stop(grace=5) if how == "stopped" else srv.kill(grace=5)
    assert not any(left.values()), (f"worker processes still ran 5 s after the server was stopped or killed "
                                    f"(they are ended now): {left}")


def _spawned_workers(srv: Server) -> list[int]:
    """The server's worker processes (spawned interpreters), not multiprocessing's own helpers."""
    return [pid for pid in descendants(srv.pid)
            if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")]


def test_the_quick_bots_worker_starts_with_the_server_unless_told_not_to(tmp_path: Path,
                                                                         servers: list[Server]) -> None:
    """A worker takes a second or two to start: by default it starts with the server, so the
    first quick bot move does not wait for it; ``--no-warm-workers`` starts none before a search."""
    warm = Server(tmp_path / "warm.sqlite", args=("--warm-workers",))
    cold = Server(tmp_path / "cold.sqlite")   # the tests' servers say --no-warm-workers
    servers.extend((warm, cold))
    warm.start()
    cold.start()
    deadline = time.monotonic() + PATIENCE
    while not _spawned_workers(warm):
        assert time.monotonic() < deadline, "no worker started with the server"
        time.sleep(0.1)
    assert len(_spawned_workers(warm)) == 1   # the light lane's one worker; the others wait
    assert _spawned_workers(cold) == []
    made = create_game(cold, {"seats": [{"kind": "bot", "level": "random"}] * 2, "short": 2,
                              "unwatched": True})
    while not _spawned_workers(cold):   # its first search starts it
        assert time.monotonic() < deadline, f"no worker for the bots of {made['id']}"
        time.sleep(0.1)


# --------------------------------------------------------------------------- 4. storage that fails

#: A read-only file system for one process.  ``mount -o remount,ro`` cannot be used: Linux refuses it
#: ("mount point is busy") while the server holds its SQLite files open for writing, which it always
#: does.  So the server runs with this library preloaded: while the file $HG_FAULT_FLAG exists, every
#: write, sync, truncation, allocation, unlink and opening-for-writing of a file under $HG_FAULT_DIR
#: fails with EROFS, exactly as on a file system remounted read-only; reading goes on.
READ_ONLY_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int refused(const char *path, int fd) {
    const char *flag = getenv("HG_FAULT_FLAG"), *dir = getenv("HG_FAULT_DIR");
    char link[64], target[4096];
    if (!flag || !dir || access(flag, F_OK) != 0) return 0;
    if (!path) {
        ssize_t n;
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        n = readlink(link, target, sizeof target - 1);
        if (n <= 0) return 0;
        target[n] = 0;
        path = target;
    }
    return strncmp(path, dir, strlen(dir)) == 0;
}

#define REAL(name) static __typeof__(&name) real; if (!real) real = (__typeof__(&name))dlsym(RTLD_NEXT, #name)
#define REFUSE(path, fd) if (refused(path, fd)) { errno = EROFS; return -1; }

ssize_t write(int fd, const void *b, size_t n) { REAL(write); REFUSE(NULL, fd); return real(fd, b, n); }
ssize_t pwrite(int fd, const void *b, size_t n, off_t at) {
    REAL(pwrite); REFUSE(NULL, fd); return real(fd, b, n, at);
}
ssize_t pwrite64(int fd, const void *b, size_t n, off_t at) {
    REAL(pwrite64); REFUSE(NULL, fd); return real(fd, b, n, at);
}
int fsync(int fd) { REAL(fsync); REFUSE(NULL, fd); return real(fd); }
int fdatasync(int fd) { REAL(fdatasync); REFUSE(NULL, fd); return real(fd); }
int ftruncate(int fd, off_t size) { REAL(ftruncate); REFUSE(NULL, fd); return real(fd, size); }
int ftruncate64(int fd, off_t size) { REAL(ftruncate64); REFUSE(NULL, fd); return real(fd, size); }
int fallocate(int fd, int mode, off_t at, off_t n) {
    REAL(fallocate); REFUSE(NULL, fd); return real(fd, mode, at, n);
}
int posix_fallocate(int fd, off_t at, off_t n) {
    REAL(posix_fallocate); if (refused(NULL, fd)) return EROFS; return real(fd, at, n);
}
int unlink(const char *path) { REAL(unlink); REFUSE(path, -1); return real(path); }

#define OPEN(call) \
    mode_t mode = 0; \
    if (flags & (O_CREAT | O_TMPFILE)) { \
        va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); \
    } \
    if (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) REFUSE(path, -1); \
    return call;
int open(const char *path, int flags, ...) { REAL(open); OPEN(real(path, flags, mode)) }
int open64(const char *path, int flags, ...) { REAL(open64); OPEN(real(path, flags, mode)) }
int openat(int dir, const char *path, int flags, ...) { REAL(openat); OPEN(real(dir, path, flags, mode)) }
int openat64(int dir, const char *path, int flags, ...) { REAL(openat64); OPEN(real(dir, path, flags, mode)) }
"""


class Disk:
    """A small tmpfs of its own (8 MB) and the servers whose database is on it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.path = root / "disk"
        self.servers: list[Server] = []

    @property
    def db(self) -> Path:
        return self.path / "games.sqlite"

    def server(self, env: dict[str, str] | None = None) -> Server:
        srv = Server(self.db, env=env).start()
        self.servers.append(srv)
        return srv


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Disk]:
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small tmpfs")
    d = Disk(tmp_path)
    d.path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(d.path)],
                             capture_output=True, text=True, check=False)
    if mounted.returncode != 0:   # root without the right to mount (a restricted container)
        pytest.skip(f"needs root to mount a small tmpfs ({mounted.stderr.strip()})")
    try:
        yield d
    finally:
        for srv in d.servers:
            srv.stop()
        if subprocess.run(["umount", str(d.path)], check=False).returncode != 0:
            subprocess.run(["umount", "-l", str(d.path)], check=False)


async def refused_turn(page: Page, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """Send a turn that the server must refuse; return its error."""
    with pytest.raises(ServerError) as refused:
        await page.turn(moves)
    return refused.value.msg


def creation_refused(srv: Server) -> dict[str, Any]:
    r = HTTP.post(f"{srv.http}/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 503, (r.status_code, r.text)
    body: dict[str, Any] = r.json()
    assert body["code"] == "storage_failed"
    assert "Traceback" not in r.text and "sqlalchemy" not in r.text.lower()
    assert_plain_words(body["message"])
    return body


async def wait_for_view(srv: Server, game_id: str, done: Any, what: str,
                        patience: float = 60) -> dict[str, Any]:
    """Poll the public view until ``done(view)``."""
    deadline = time.monotonic() + patience
    for _ in range(100_000):
        view = game_view(srv, game_id)
        if done(view):
            return view
        assert time.monotonic() < deadline, f"{what} (in {patience:.0f} s; the game is at {view['version']})"
        await asyncio.sleep(0.05)
    raise AssertionError(what)


def test_a_read_only_database_refuses_clearly_loses_nothing_and_bots_resume(disk: Disk,
                                                                             tmp_path: Path) -> None:
    """While the database is read-only: a person's turn is refused with storage_failed in plain words,
    creating a game answers 503, and a running game of two bots stops.  Once it is writable again the
    same turn is acknowledged and the bots finish their game.  Nothing acknowledged is lost."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("needs a C compiler to build the read-only shim")
    shim = tmp_path / "read_only.so"
    source = tmp_path / "read_only.c"
    source.write_text(READ_ONLY_SHIM)
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(shim), str(source), "-ldl"], check=True)
    flag = tmp_path / "read-only"
    srv = disk.server({"LD_PRELOAD": str(shim), "HG_FAULT_FLAG": str(flag), "HG_FAULT_DIR": str(disk.path)})

    async def scenario() -> None:
        made = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "human"}]})
        person = await Page.join(srv, made["id"], hotseat_secrets(made))
        acked = [(await person.play())[0] for _ in range(5)]
        bots = create_game(srv, {"seats": [{"kind": "bot", "level": "random"}] * 2, "short": 30,
                                 "unwatched": True})
        running = await wait_for_view(srv, bots["id"], lambda v: v["version"] >= 6, "the bots do not play")
        assert not running["over"]

        flag.touch()   # the database is read-only from now on
        moves = await person.whole_turn()
        error = await refused_turn(person, moves)
        assert error["code"] == "storage_failed", error
        assert_plain_words(error["message"])
        assert error["version"] == acked[-1]
        creation_refused(srv)
        await asyncio.sleep(0.5)   # a bot move stored just before the fault may still be arriving
        stalled = game_view(srv, bots["id"])["version"]
        await asyncio.sleep(1.5)
        assert game_view(srv, bots["id"])["version"] == stalled, "the bots went on without storage"
        assert game_view(srv, made["id"])["version"] == acked[-1]
        assert stored_version(disk.db, made["id"]) == acked[-1]
        assert stored_version(disk.db, bots["id"]) == stalled

        flag.unlink()   # writable again
        version, _ = await person.play(moves)   # the same turn, now taken
        assert version > acked[-1]
        assert stored_version(disk.db, made["id"]) == version
        view = await wait_for_view(srv, bots["id"], lambda v: v["over"], "the bots did not finish", 90)
        assert view["version"] > stalled
        assert stored_version(disk.db, bots["id"]) == view["version"]
        await person.close()

    asyncio.run(scenario())


def test_a_full_disk_refuses_clearly_and_the_turn_counts_once_there_is_room(disk: Disk) -> None:
    """The database's disk filled up (a file written until ENOSPC): a turn is refused with
    storage_failed in plain words; once the file is deleted the same turn is acknowledged."""
    srv = disk.server()

    async def scenario() -> None:
        made = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "human"}]})
        person = await Page.join(srv, made["id"], hotseat_secrets(made))
        acked = [(await person.play())[0] for _ in range(3)]

        filler = disk.path / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
        try:   # fill the disk
            for _ in range(1000):
                try:
                    os.write(fd, b"\0" * 65536)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC, exc
                    break
            else:
                raise AssertionError("the 8 MB disk never filled up")
        finally:
            os.close(fd)
        moves = await person.whole_turn()
        error = await refused_turn(person, moves)
        assert error["code"] == "storage_failed", error
        assert_plain_words(error["message"])
        creation_refused(srv)
        assert game_view(srv, made["id"])["version"] == acked[-1]
        assert stored_version(disk.db, made["id"]) == acked[-1]

        filler.unlink()   # room again
        version, _ = await person.play(moves)
        assert version > acked[-1]
        assert stored_version(disk.db, made["id"]) == version
        version, _ = await person.play()
        assert stored_version(disk.db, made["id"]) == version
        await person.close()

    asyncio.run(scenario())


# --------------------------------------------------------------------------- 5. many sockets (issue 37)


def test_a_storm_of_watchers_leaves_the_players_connected(tmp_path: Path, servers: list[Server]) -> None:
    """70 watchers say hello at the same moment to a game two players are playing: each of them
    changes the table every page is sent, but a table superseded before it went out is never
    sent, so the players' outboxes do not overflow; they stay connected and play on."""
    srv = Server(tmp_path / "games.sqlite", args=("--max-sockets-per-address", "100")).start()
    servers.append(srv)
    made = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "human"}]})
    gid = made["id"]

    async def scenario() -> None:
        players = [await Page.join(srv, gid, [made["seats"][str(seat)]]) for seat in (0, 1)]
        for _ in range(10):   # a longer log: each watcher's snapshot takes the server a little longer
            mover = next(p for p in players if p.my_turn)
            await mover.play()
            await players[1 - players.index(mover)].wait_version(mover.version, PATIENCE)
        watchers = [await raw_websocket(srv, gid) for _ in range(70)]
        hello = text_frame({"type": "hello", "secrets": [], "version": None})
        for _, writer in watchers:   # all at once: the server reads the 70 hellos in one go
            writer.write(hello)
        for player in players:
            counted = await player.wait_until(
                lambda p=player: bool(p.tables) and p.tables[-1]["watchers"] == 70)
            assert not player.closed, f"a player was closed: {player.close_code} {player.close_reason!r}"
            assert counted, f"the watchers are not all counted: {player.tables[-1]}"
        mover = next(p for p in players if p.my_turn)
        version, _ = await mover.play()
        for player in players:
            assert await player.wait_version(version, PATIENCE) and not player.closed
        for _, writer in watchers:
            writer.transport.abort()
        await wait_for_watchers(players[0], 0, "the watchers that left are still counted")
        for player in players:
            await player.close()

    asyncio.run(scenario())


async def upgrade_refused(srv: Server, game_id: str) -> tuple[bytes, dict[str, Any]]:
    """Ask for a websocket that the server refuses: its status line and the JSON it answers."""
    reader, writer = await asyncio.open_connection("127.0.0.1", srv.port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(f"GET /ws/{game_id} HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                 f"Sec-WebSocket-Version: 13\r\n\r\n".encode())
    try:
        answer = await asyncio.wait_for(reader.read(), PATIENCE)   # the server closes after it
    finally:
        writer.transport.abort()
    head, _, body = answer.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0], json.loads(body)


def test_one_address_cannot_take_the_servers_sockets(tmp_path: Path, servers: list[Server]) -> None:
    """One address holds 32 websockets open (the default); the 33rd is answered 429
    ``too_many_sockets`` before the upgrade, HTTP is still served, and once one of the 32 is
    closed a new one opens."""
    srv = Server(tmp_path / "games.sqlite").start()
    servers.append(srv)
    gid = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "human"}]})["id"]

    async def scenario() -> None:
        held = [await raw_websocket(srv, gid) for _ in range(32)]
        for _, writer in held:
            writer.write(text_frame({"type": "hello", "secrets": [], "version": None}))
        status, error = await upgrade_refused(srv, gid)
        assert status.startswith(b"HTTP/1.1 429"), status
        assert error["code"] == "too_many_sockets", error
        assert_plain_words(error["message"])
        assert game_view(srv, gid)["game"] == gid   # HTTP is not counted
        _, writer = held.pop()
        writer.transport.abort()
        for _ in range(int(PATIENCE / 0.05)):   # the server notices the socket is gone
            with contextlib.suppress(AssertionError):
                held.append(await raw_websocket(srv, gid))
                break
            await asyncio.sleep(0.05)
        assert len(held) == 32, "a socket closed still counts against its address"
        for _, writer in held:
            writer.transport.abort()

    asyncio.run(scenario())


def server_holds_connection(srv: Server, client_port: int) -> bool:
    """Whether the server process still has a descriptor for its end of the TCP connection from
    ``client_port`` (its inode in /proc/net/tcp, among the links of /proc/PID/fd)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = fields[1].split(":"), fields[2].split(":")
        if int(local[1], 16) == srv.port and int(remote[1], 16) == client_port and fields[9] != "0":
            inodes.add(f"socket:[{fields[9]}]")
    if not inodes:
        return False
    for fd in Path(f"/proc/{srv.pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            if os.readlink(fd) in inodes:
                return True
    return False


def test_a_dropped_page_that_never_reads_holds_no_descriptor_of_the_server(
        tmp_path: Path, servers: list[Server]) -> None:
    """A page that stopped reading (its window shut) is dropped as too slow; the server cannot even
    send it the close frame, and cuts the connection anyway a moment later: its descriptor is
    freed although the page still holds its end open and reads nothing."""
    srv = Server(tmp_path / "games.sqlite", args=UNBUDGETED).start()
    servers.append(srv)
    made = create_game(srv, {"seats": [{"kind": "human"}, {"kind": "human"}]})
    gid = made["id"]

    async def scenario() -> None:
        hotseat = await Page.join(srv, gid, hotseat_secrets(made))
        for _ in range(30):   # a longer log: bigger snapshots, so the socket fills sooner
            await hotseat.play()
        stuck, stuck_port = await never_reading_page(srv, gid)
        try:
            await wait_for_watchers(hotseat, 1, "the page that never reads did not join")
            assert server_holds_connection(srv, stuck_port)
            await fill_until_stuck(srv, stuck, stuck_port)
            for _ in range(5):   # the game goes on; the stuck page says nothing more
                await hotseat.play()
            await wait_for_watchers(hotseat, 0, "a page that stopped reading is never let go", patience=20)
            for _ in range(int(PATIENCE / 0.1)):
                if not server_holds_connection(srv, stuck_port):
                    break
                await asyncio.sleep(0.1)
            assert not server_holds_connection(srv, stuck_port), \
                f"{PATIENCE:.0f} s after dropping the page the server still holds its connection"
        finally:
            stuck.transport.abort()
        await hotseat.close()

    asyncio.run(scenario())
