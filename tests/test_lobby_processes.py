"""The public lobby on two server processes sharing one PostgreSQL: both list the same game, two
people taking one seat through the two processes at once get it once, and the page of the
game on the other process sees each seat taken and the game start.
"""

from __future__ import annotations

import asyncio
import os

import pytest
from play_server import Page, Server

pytest.importorskip("websockets")
pytest.importorskip("httpx")
import httpx

from huntgather.client import create_game

POSTGRES = os.environ.get("HUNTGATHER_TEST_POSTGRES")
pytestmark = pytest.mark.skipif(not POSTGRES, reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL "
                                                     "(scripts/test.sh starts one when run as root)")


@pytest.fixture
def processes(postgres_processes: tuple[Server, Server]) -> tuple[Server, Server]:
    """The two processes on PostgreSQL that several test modules share (tests/conftest.py)."""
    return postgres_processes


def test_a_seat_race_through_two_processes_has_one_winner(processes: tuple[Server, Server]) -> None:
    a, b = processes

    async def scenario() -> None:
        made = await create_game(a.http, {"seats": [{"kind": "human"}] * 3, "public": True,
                                          "clock": {"base": 60, "increment": 0}})
        gid = made["id"]
        ann = await Page.join(b, gid, [made["seats"]["0"]])   # the creator's page, on the other process
        await ann.wait_for_table(lambda t: t.get("lobby", {}).get("open") == [1, 2], "seats 1 and 2 open")
        async with httpx.AsyncClient(timeout=20) as http:
            listed = [(await http.get(f"{srv.http}/api/lobby")).json()["games"] for srv in (a, b)]
            assert [[g["id"] for g in games if g["id"] == gid] for games in listed] == [[gid], [gid]]
            answers = await asyncio.gather(*(http.post(f"{srv.http}/api/lobby/{gid}/seats/1",
                                                       json={"name": name})
                                             for srv, name in ((a, "Bea"), (b, "Cy"))))
            assert sorted(r.status_code for r in answers) == [200, 409], [r.text for r in answers]
            [lost] = [r for r in answers if r.status_code == 409]
            assert lost.json()["code"] == "seat_taken"
            [won] = [r for r in answers if r.status_code == 200]
            winner = "Bea" if won is answers[0] else "Cy"
            await ann.wait_for_table(lambda t: t["seats"][1]["name"] == winner and t["lobby"]["open"] == [2],
                                     "seat 1 taken")
            r = await http.post(f"{a.http}/api/lobby/{gid}/seats/2", json={})
            assert r.status_code == 200, r.text
            await ann.wait_for_table(lambda t: "lobby" not in t and t["clock"]["running"] == 0,
                                     "the game started, seat 0's time running")
            assert all(g["id"] != gid for g in (await http.get(f"{b.http}/api/lobby")).json()["games"])
            bea = await Page.join(b, gid, [won.json()["secret"]])   # the secret answered holds the seat
            assert bea.seats == [1]
            await bea.close()
        await ann.close()

    asyncio.run(scenario())
