"""huntgather.client against a real ``huntgather play`` process, and the example bot of docs/client.md.

The client keeps a page's view as the server's own snapshot has it (every update applied), rebuilds
the engine's position from that view (its legal placements are the server's), holds only the seats
of the secrets the server accepts, and the example bot plays a whole game to its end.
"""

from __future__ import annotations

import asyncio
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
