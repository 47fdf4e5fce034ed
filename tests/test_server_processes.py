"""Several server processes on one PostgreSQL: a game played across them, seen on both, deleted on both.

Two real ``huntgather play`` processes share the throw-away PostgreSQL that
``scripts/test.sh`` starts (``HUNTGATHER_TEST_POSTGRES``).  Ann and a watcher
are on one process, Bob and another watcher on the other: every move must
reach all four pages within a second, presence crosses processes, and a delete
on one process closes the game's pages on the other.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from typing import Any

import pytest
from play_server import Page, Server

pytest.importorskip("websockets")
pytest.importorskip("httpx")
from huntgather.client import Disconnected, ServerError, create_game, delete_game, get_game

POSTGRES = os.environ.get("HUNTGATHER_TEST_POSTGRES")
pytestmark = pytest.mark.skipif(not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL "
                                                     "(scripts/test.sh starts one when run as root)")


async def play_turn(mover: Page) -> tuple[dict[str, Any], float]:
    """The seat to move plays a whole turn from ``mover``'s page; return the ack and when it was sent."""
    moves = await mover.whole_turn()
    sent = time.monotonic()
    return await mover.turn(moves), sent


@pytest.fixture
def processes(postgres_processes: tuple[Server, Server]) -> tuple[Server, Server]:
    """The two processes on PostgreSQL that several test modules share (tests/conftest.py)."""
    return postgres_processes


def test_a_game_played_across_two_processes(processes: tuple[Server, Server]) -> None:
    a, b = processes

    async def scenario() -> None:
        made = await create_game(a.http, {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}],
                                          "short": 6})
        gid = made["id"]
        ann = await Page.join(a, gid, [made["creator"], made["seats"]["0"]])
        cy = await Page.join(a, gid, [])
        bob = await Page.join(b, gid, [made["seats"]["1"]])
        dee = await Page.join(b, gid, [])
        pages = [ann, cy, bob, dee]
        # presence crosses processes: Ann sees Bob online and two watchers, Bob sees Ann
        await ann.wait_for_table(lambda t: t["seats"][1]["online"] and t["watchers"] == 2, "presence on A", 5)
        await bob.wait_for_table(lambda t: t["seats"][0]["online"] and t["seats"][0]["name"] == "Ann",
                                 "presence on B", 5)
        seat_page = {0: ann, 1: bob}
        turns = 0
        while not ann.view["over"]:
            mover = seat_page[ann.view["decision"]["player"]]
            assert mover.version == ann.version
            ack, sent = await play_turn(mover)
            for page in pages:   # every page, on either process, sees the move within a second
                await page.wait_version(ack["version"], max(0.0, sent + 1.0 - time.monotonic()))
                assert page.version == ack["version"]
            assert time.monotonic() - sent < 1.0 + 0.5   # the waits above are bounded by one second each
            turns += 1
            assert turns < 100
        finals = [p.view["final"] for p in pages]
        assert all(f == finals[0] for f in finals) and finals[0] is not None
        assert [p["score"] for p in bob.view["players"]] == finals[0]["scores"]
        assert [p.gaps for p in pages] == [0, 0, 0, 0]   # every update followed on: no resync was needed
        # a stale move is refused on the other process too
        with pytest.raises(ServerError) as refused:
            await bob.turn([{"kind": "pass"}], seat=1, version=1)
        assert refused.value.code in ("game_over", "stale")
        # deleting on process B closes the game's pages on process A
        await delete_game(b.http, gid, made["creator"])
        for page in (ann, cy):
            told = await page.receive("error", timeout=2)
            assert told["code"] == "deleted"
            with pytest.raises(Disconnected) as closed:
                await page.receive("anything", timeout=2)
            assert (closed.value.code, closed.value.reason) == (4404, "deleted")
        for page in pages:
            await page.close()

    asyncio.run(scenario())


def test_a_stale_copy_reloads_before_accepting_a_move(processes: tuple[Server, Server]) -> None:
    # both processes hold the game; a move stored through A reaches B's copy before B accepts one
    a, b = processes

    async def scenario() -> None:
        made = await create_game(a.http, {"seats": [{"kind": "human"}, {"kind": "human"}], "short": 10})
        gid = made["id"]
        secrets = [made["creator"], made["seats"]["0"], made["seats"]["1"]]
        on_a, on_b = await Page.join(a, gid, secrets), await Page.join(b, gid, secrets)
        for turn in range(8):   # alternate the process that plays; each is up to date before it moves
            mover, other = (on_a, on_b) if turn % 2 == 0 else (on_b, on_a)
            if mover.view["over"]:
                break
            ack, _ = await play_turn(mover)
            assert await other.wait_version(ack["version"], 2)
        stored = await get_game(a.http, gid)
        assert stored["version"] == on_a.version == on_b.version
        await on_a.close()
        await on_b.close()

    asyncio.run(scenario())


def test_a_turn_taken_back_reaches_the_pages_of_the_other_process(processes: tuple[Server, Server]) -> None:
    a, b = processes

    async def scenario() -> None:
        made = await create_game(a.http, {"seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]})
        gid = made["id"]
        ann = await Page.join(a, gid, [made["seats"]["0"]])
        dee = await Page.join(b, gid, [])   # a watcher on the other process
        await ann.play()
        await ann.until_to_move(0)   # the bot has replied
        assert ann.view is not None
        before = ann.view
        await ann.play()
        await ann.until_to_move(0)
        assert await dee.wait_version(ann.version, 5)
        ack = await ann.request({"type": "undo", "seat": 0, "version": ann.version})
        assert ack["type"] == "ack" and ack["version"] == ann.version > before["version"]
        assert await dee.wait_version(ack["version"], 5)   # its process reloaded the game
        assert dee.view is not None and dee.version == ack["version"]
        for key in ("board", "decision", "legal", "players", "remaining"):
            assert dee.view[key] == before[key], key
        # and the game goes on from there on either process
        await ann.play()
        await ann.until_to_move(0)
        assert await dee.wait_version(ann.version, 5)
        assert dee.view["board"] == ann.view["board"]
        for page in (ann, dee):
            await page.close()

    asyncio.run(scenario())


def test_the_pages_of_a_crashed_process_go_offline_on_the_other() -> None:
    """Bob and a watcher are on process B; B is killed (kill -9: it says nothing as it goes).
    Ann, on A, sees Bob offline and no watcher within three repeats of the presence (the bug:
    "online" for ever, and watchers counted twice once they reconnected elsewhere)."""
    assert POSTGRES
    every = ("--presence-every", "0.4")
    a, b = Server(POSTGRES, args=every).start(), Server(POSTGRES, args=every).start()
    try:
        async def scenario() -> None:
            made = await create_game(a.http, {"seats": [{"kind": "human"}, {"kind": "human"}], "short": 6})
            gid = made["id"]
            ann = await Page.join(a, gid, [made["seats"]["0"]])
            await Page.join(b, gid, [made["seats"]["1"]])
            await Page.join(b, gid, [])
            await ann.wait_for_table(lambda t: t["seats"][1]["online"] and t["watchers"] == 1, "B's pages", 5)
            # still online after several repeats: a process that keeps telling is not forgotten
            await asyncio.sleep(2.0)
            assert ann.tables[-1]["seats"][1]["online"] and ann.tables[-1]["watchers"] == 1
            b.kill()
            await ann.wait_for_table(lambda t: not t["seats"][1]["online"] and t["watchers"] == 0,
                                     "B's pages gone", 5)
            await ann.close()

        asyncio.run(scenario())
    finally:
        a.stop()
        b.stop()


class RoundRobinProxy:
    """A TCP proxy standing in for the documented nginx: each new connection goes to the next
    process that takes it (a process that refuses, stopping or restarting, is passed over)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports, self.turn = ports, 0
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream = None
        for _ in range(len(self.ports) * 20):
            port = self.ports[self.turn % len(self.ports)]
            self.turn += 1
            try:
                upstream = await asyncio.open_connection("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.05)
        if upstream is None:
            writer.close()
            return
        up_reader, up_writer = upstream

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            with contextlib.suppress(OSError):
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()


def test_a_rolling_restart_of_two_processes_under_a_running_game_loses_nothing() -> None:
    """Ann and Bob play through a proxy in front of two processes; each process in turn is
    stopped (SIGTERM: it drains) and started again while they play.  Every acknowledged move is
    stored, a page notices no more than being told to reconnect (1012 ``service_restart``, then
    a new page through the proxy catches up), and the game goes on to its end."""
    assert POSTGRES
    a, b = Server(POSTGRES).start(), Server(POSTGRES).start()
    try:
        async def scenario() -> None:
            proxy = RoundRobinProxy([a.port, b.port])
            base = await proxy.start()
            made = await create_game(base, {"seats": [{"kind": "human"}, {"kind": "human"}], "short": 40})
            gid = made["id"]
            secrets = {0: [made["seats"]["0"]], 1: [made["seats"]["1"]]}
            pages = {seat: await Page.open(base, gid, secrets[seat], timeout=10) for seat in (0, 1)}
            closes: list[int | None] = []
            acked: list[int] = []

            async def reopen(seat: int) -> None:
                closes.append(pages[seat].close_code)
                pages[seat] = await Page.open(base, gid, secrets[seat], timeout=10)

            async def restart(srv: Server) -> None:   # as a deploy does: stop (it drains), start
                await asyncio.to_thread(srv.stop)
                await asyncio.to_thread(srv.start)

            restarting: asyncio.Task[None] | None = None
            restarted = 0
            while True:
                mover = pages[0]
                if mover.view is None or mover.view["over"]:
                    break
                if restarted < 2 and len(acked) >= 3 + 8 * restarted \
                        and (restarting is None or restarting.done()):   # one at a time, under play
                    restarting = asyncio.create_task(restart((a, b)[restarted]))
                    restarted += 1
                seat = mover.to_move
                page = pages[seat]
                try:
                    if page.closed:
                        raise Disconnected(page.close_code, page.close_reason)
                    version, _ = await page.play()
                    acked.append(version)
                except Disconnected:
                    await reopen(seat)
                    if seat != 0 and pages[0].closed:
                        await reopen(0)
                    continue
                except ServerError as exc:   # the move made on a copy a moment old: play it again
                    assert exc.code == "stale", exc
                    continue
                other = pages[1 - seat]
                if other.closed or not await other.wait_version(version, 5):
                    await reopen(1 - seat)
                if pages[0].closed:
                    await reopen(0)
                await asyncio.sleep(0.2)   # five turns a second: the game outlasts both restarts
            assert restarting is not None and restarted == 2, "the game ended before both restarts"
            await restarting
            assert acked == sorted(set(acked)), "an acknowledged version came twice"
            stored = await get_game(base, gid)
            assert stored["version"] >= acked[-1] and stored["over"], "acknowledged moves are missing"
            assert set(closes) <= {1012, 1001, 1006}, f"a page was closed otherwise: {closes}"
            assert closes.count(1012) >= 2, f"the pages were not told to reconnect: {closes}"
            for page in pages.values():
                await page.close()
            await proxy.close()

        asyncio.run(scenario())
    finally:
        a.stop()
        b.stop()


def test_chat_crosses_processes(processes: tuple[Server, Server]) -> None:
    # a line said on one process reaches the pages of the other (a `chat` notice), once; closing
    # the watchers' chat there too; and a page that joins on either process gets the history
    a, b = processes

    async def scenario() -> None:
        made = await create_game(a.http, {"seats": [{"kind": "human", "name": "Ann"},
                                                    {"kind": "human", "name": "Bob"}], "short": 6})
        gid = made["id"]
        ann = await Page.join(a, gid, [made["creator"], made["seats"]["0"]])
        bob = await Page.join(b, gid, [made["seats"]["1"]])
        dee = await Page.join(b, gid, [])
        await ann.request({"type": "chat", "seat": 0, "text": "hello from A"})
        for page in (ann, bob, dee):
            line = await page.receive("chat", timeout=2)
            assert (line["text"], line["seat"], line["name"], line["channel"]) == \
                ("hello from A", 0, "Ann", "players")
        await dee.request({"type": "chat", "text": "a watcher on B"})
        line = await ann.receive("chat", timeout=2)
        assert (line["text"], line["channel"]) == ("a watcher on B", "watchers")
        assert (await bob.receive("chat", timeout=2))["text"] == "a watcher on B"
        await ann.request({"type": "chat_watchers", "open": False})
        assert (await dee.receive("chat_watchers", timeout=2))["open"] is False
        with pytest.raises(ServerError) as refused:
            await dee.request({"type": "chat", "text": "still here?"})
        assert refused.value.code == "chat_closed"
        late = await Page.join(a, gid, [])
        log = await late.receive("chat_log", timeout=2)
        assert [x["text"] for x in log["lines"]] == ["hello from A", "a watcher on B"]
        assert log["watchers_open"] is False
        with pytest.raises(TimeoutError):   # each line came once
            await bob.receive("chat", timeout=0.5)
        for page in (ann, bob, dee, late):
            await page.close()

    asyncio.run(scenario())
