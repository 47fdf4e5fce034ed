"""Clocks on two server processes sharing one PostgreSQL: a clock that runs out while its game's
pages are on the other process is acted on exactly once.

Both processes hold the game (A created it, B has its pages), and both watch its stored
deadline; the one whose conditioned UPDATE changes the stored game records the timeout and tells
the other.  Were both to act, each page would hear of the timeout twice (from its own process,
and from the other's notice) and the log would say it twice.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import pytest
from play_server import PATIENCE, Page, Server

pytest.importorskip("websockets")
pytest.importorskip("httpx")
from huntgather.client import create_game, get_game

POSTGRES = os.environ.get("HUNTGATHER_TEST_POSTGRES")
pytestmark = pytest.mark.skipif(not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL "
                                                     "(scripts/test.sh starts one when run as root)")

SAID = "time ran out"


@pytest.fixture
def processes(postgres_processes: tuple[Server, Server]) -> tuple[Server, Server]:
    """The two processes on PostgreSQL that several test modules share (tests/conftest.py)."""
    return postgres_processes


def test_a_clock_running_out_on_the_other_process_is_handled_once(processes: tuple[Server, Server]) -> None:
    a, b = processes

    async def scenario() -> None:
        made = await create_game(a.http, {"seats": [{"kind": "human"}, {"kind": "human"}], "short": 10,
                                          "clock": {"base": 3, "increment": 1}, "on_timeout": "random"})
        gid = made["id"]
        ann = await Page.join(b, gid, [made["seats"]["0"]])
        bob = await Page.join(b, gid, [made["seats"]["1"]])
        heard: dict[str, list[dict[str, Any]]] = {"ann": [], "bob": []}
        for name, page in (("ann", ann), ("bob", bob)):
            def record(msg: dict[str, Any], page: Page = page, name: str = name) -> None:
                page._record(msg)
                if msg["type"] == "timeout":
                    heard[name].append(msg)
            page.on_message = record
        start = time.monotonic()
        await bob.wait_for_table(lambda t: t["seats"][0]["kind"] == "bot" and t["clock"]["out"] == [0],
                                 "the bot in seat 0", 20)
        assert 2.0 < time.monotonic() - start < 25
        await bob.until_to_move(1, 20)   # the bot has played seat 0's turn; bob's time runs
        await asyncio.sleep(1.5)          # time for a second timeout, were there one
        assert len(heard["bob"]) == 1 and heard["bob"][0]["seat"] == 0
        assert heard["bob"][0]["level"] == "random"
        await ann.wait_until(lambda: bool(heard["ann"]), 5)
        assert len(heard["ann"]) == 1
        assert bob.tables[-1]["clock"]["running"] == 1
        view = await get_game(a.http, gid)   # process A has the bot's moves too
        assert view["version"] >= bob.version
        await ann.close()
        await bob.close()

    before = [len(srv.output) for srv in processes]   # (the processes served other tests before)
    asyncio.run(scenario())

    def said() -> list[str]:
        return [line for srv, n in zip(processes, before, strict=True) for line in srv.output[n:]
                if SAID in line]

    # the processes' log lines reach this test through a pipe and a reading thread: wait for the line
    deadline = time.monotonic() + PATIENCE
    while not said() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(said()) == 1, said()
