"""huntgather.client against a real ``huntgather play`` process, and the example bot of docs/client.md.

The client keeps a page's view as the server's own snapshot has it (every update applied), rebuilds
the engine's position from that view (its legal placements are the server's), holds only the seats
of the secrets the server accepts, and the example bot plays a whole game to its end.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from play_server import PATIENCE, Page, Server, hotseat_secrets

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytest.importorskip("httpx")
from huntgather.bots import make_bot
from huntgather.client import ApiError, bot_turn, create_game, get_game, state_of, turn_json

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "client_bot.py"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "games.sqlite", bot_delay=0.0).start()
    yield srv
    srv.stop()


def comparable(view: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in view.items() if k != "type"}


def test_the_example_bot_plays_a_whole_game_to_the_end(server: Server) -> None:
    done = subprocess.run([sys.executable, str(EXAMPLE), server.http, "--short", "8"],
                          capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr + server.log()
    lines = done.stdout.splitlines()
    game_id = lines[0].split()[2].rstrip(":")
    assert any(line.startswith("seat 0 played ") for line in lines)
    view = asyncio.run(get_game(server.http, game_id))
    assert view["over"] is True and lines[-1] == view["final"]["text"]
    # every turn of seat 0 was the client's: the easy bot holds only seat 1
    assert sum(1 for e in view["log"] if e["kind"] == "TilePlaced" and e["player"] == 0) >= 1


def test_a_hotseat_game_played_by_greedy_bots_through_the_client(server: Server) -> None:
    """Both seats on one page, each turn chosen by the greedy bot from the position rebuilt from the
    view; at every turn that position offers exactly the server's legal placements, and a watcher's
    view, kept by updates alone, is the server's snapshot at the end."""

    async def scenario() -> None:
        made = await create_game(server.http, {"seats": [{"kind": "human"}, {"kind": "human"}], "short": 30})
        page = await Page.join(server, made["id"], hotseat_secrets(made))
        watcher = await Page.join(server, made["id"], [])
        assert page.seats == [0, 1] and watcher.seats == [] and page.refused == []
        bot = make_bot("greedy", seed=3)
        turns = 0
        while not page.view["over"]:
            state = state_of(page.view)
            legal = {(m.x, m.y, m.rotation) for m in state.legal_moves()}   # type: ignore[union-attr]
            assert legal == {(m["x"], m["y"], m["rotation"]) for m in page.view["legal"]}
            assert state.scores == [p["score"] for p in page.view["players"]]
            ack = await page.turn(turn_json(bot_turn(state, bot.choose)))
            assert page.version == ack["version"]
            turns += 1
            assert turns < 200
        assert await watcher.wait_version(page.version, PATIENCE)
        snapshot = await get_game(server.http, made["id"])
        assert comparable(watcher.view) == comparable(page.view) == comparable(snapshot)
        assert state_of(page.view).is_over
        await page.close()
        await watcher.close()

    asyncio.run(scenario())


def test_refused_secrets_cost_only_themselves_and_names_reach_the_table(server: Server) -> None:
    async def scenario() -> None:
        made = await create_game(server.http, {"seats": [{"kind": "human"}, {"kind": "human"}]})
        page = await Page.join(server, made["id"], ["A" * 22, made["seats"]["1"]], name="Bob")
        assert page.refused == [0] and page.seats == [1] and not page.my_turn
        await page.rename("Robert")
        await page.wait_for_table(lambda t: t["seats"][1]["name"] == "Robert", "the new name")
        gone = await Page.join(server, made["id"], ["B" * 22])
        assert gone.refused == [0] and gone.seats == [] and gone.view["version"] == page.version
        await page.close()
        await gone.close()
        with pytest.raises(ApiError) as unknown:
            await get_game(server.http, "nosuchgame000")
        assert unknown.value.status == 404 and unknown.value.code == "unknown_game"

    asyncio.run(scenario())


class FakeSocket:
    """A socket that delivers ``incoming`` (then stays open) and records what the page sends."""

    close_code: int | None = None
    close_reason = ""

    def __init__(self, incoming: list[str]) -> None:
        self.incoming = incoming
        self.sent: list[str] = []
        self.done = asyncio.Event()

    def __aiter__(self) -> FakeSocket:
        return self

    async def __anext__(self) -> str:
        if self.incoming:
            return self.incoming.pop(0)
        self.done.set()
        await asyncio.Event().wait()   # open, and silent, until closed
        raise StopAsyncIteration

    async def send(self, text: str) -> None:
        self.sent.append(text)

    async def close(self) -> None:
        pass


def test_pings_are_answered_and_a_gap_in_the_updates_asks_for_a_resync() -> None:
    snapshot = {"type": "snapshot", "version": 1, "board": [], "log": [], "over": False}
    tile = {"x": 1, "y": 0, "tile": 5, "rotation": 0}
    follows_on = {"type": "update", "from": 1, "version": 3, "placed": [tile],
                  "events": [{"kind": "TilePlaced"}], "over": False}
    after_a_gap = {"type": "update", "from": 5, "version": 7, "placed": [], "events": [], "over": True}
    seen_already = {**follows_on, "from": 0}

    async def scenario() -> None:
        from huntgather.client import GameConnection

        ws = FakeSocket([json.dumps(m) for m in (snapshot, {"type": "ping"}, follows_on, seen_already,
                                                 after_a_gap)])
        page = GameConnection(ws)   # type: ignore[arg-type]
        await asyncio.wait_for(ws.done.wait(), PATIENCE)
        assert [json.loads(m) for m in ws.sent] == [{"type": "pong"}, {"type": "resync", "version": 3}]
        assert page.version == 3 and page.gaps == 1 and len(page.view["board"]) == 1
        assert [m["type"] for m in [await page.receive("update") for _ in range(3)]] == ["update"] * 3
        await page.close()

    asyncio.run(scenario())
