"""Outside bots: a seat that a bot token holds, played by a program of someone else's through the
public client (examples/remote_bot.py), against a real ``huntgather play`` process; and mirrored
deals, the tournament's deals on the server.
"""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from play_server import PATIENCE, Page, Server, hotseat_secrets

from huntgather.bots import make_bot
from huntgather.deals import deal_orders
from huntgather.editions import get_edition
from huntgather.lab.tournament import play_deal
from huntgather.lab.tournament_log import read_log
from huntgather.moves import Draw
from huntgather.server.rooms import build_game
from huntgather.server.seats import GameSetup, RequestError, hash_secret

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "remote_bot.py"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    pytest.importorskip("uvicorn")
    pytest.importorskip("websockets")
    pytest.importorskip("httpx")
    srv = Server(tmp_path / "games.sqlite", bot_delay=0.0).start()
    yield srv
    srv.stop()


def test_a_person_and_an_outside_bot_play_a_game_to_its_end(server: Server) -> None:
    """The test plays the person seat through the client; examples/remote_bot.py, a process of its
    own, plays the outside bot's seat with its token; the server never moves for it."""
    from huntgather.client import ServerError, bot_turn, create_game, get_game, state_of, turn_json

    async def scenario() -> None:
        made = await create_game(server.http, {"seats": [{"kind": "human", "name": "Ann"},
                                                         {"kind": "remote", "name": "mybot"}], "short": 8})
        assert set(made["seats"]) == {"0"} and set(made["tokens"]) == {"1"}
        assert set(made["links"]["play"]) == {"0"}
        token = made["tokens"]["1"]
        page = await Page.join(server, made["id"], [made["seats"]["0"]])
        assert page.seats == [0]
        seat1 = page.table["seats"][1]
        assert (seat1["kind"], seat1["name"], seat1["level"], seat1["online"], seat1["joined"]) == \
            ("remote", "mybot", None, False, False)
        # the token holds the bot's seat and nothing else; a person's secret does not hold it
        other = await Page.join(server, made["id"], [token, made["seats"]["0"] + "x"])
        assert other.seats == [1] and other.refused == [1]
        await other.close()

        bot = await asyncio.create_subprocess_exec(
            sys.executable, str(EXAMPLE), f"--server={server.http}", f"--game={made['id']}",
            f"--token={token}", "--bot", "greedy",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            await page.wait_for_table(lambda t: t["seats"][1]["online"] and t["seats"][1]["joined"],
                                      "the outside bot is there")
            greedy = make_bot("greedy", seed=2)
            refused_once = False
            while True:
                assert await page.wait_until(lambda: page.view["over"] or page.to_move is not None, PATIENCE)
                if page.view["over"]:
                    break
                if page.to_move == 1:
                    if not refused_once:   # the person's page may not move for the bot
                        with pytest.raises(ServerError) as refused:
                            await page.turn([{"kind": "pass"}], seat=1)
                        assert refused.value.code == "not_your_seat"
                        refused_once = True
                    assert await page.wait_until(lambda: page.view["over"] or page.to_move == 0, PATIENCE), \
                        "the outside bot did not play"
                    continue
                await page.turn(turn_json(bot_turn(state_of(page.view), greedy.choose)))
            out, err = await asyncio.wait_for(bot.communicate(), PATIENCE)
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
        text = out.decode()
        assert bot.returncode == 0, text + err.decode() + server.log()
        view = await get_game(server.http, made["id"])
        assert view["over"] and text.splitlines()[-1] == view["final"]["text"]
        # every turn of seat 1 was the outside bot's: one line of its output per tile it placed
        bot_turns = sum(1 for line in text.splitlines() if line.startswith("seat 1: place"))
        placed = sum(1 for e in view["log"] if e["kind"] == "TilePlaced" and e["player"] == 1)
        assert refused_once and bot_turns == placed >= 1
        await page.wait_for_table(lambda t: not t["seats"][1]["online"], "the bot has left")
        await page.close()

    asyncio.run(scenario())


def test_the_token_is_stored_hashed_and_a_creator_hands_a_seat_to_an_outside_bot(server: Server) -> None:
    from huntgather.client import GameConnection, create_game

    async def scenario() -> tuple[str, str]:
        made = await create_game(server.http, {"seats": [{"kind": "human"}, {"kind": "remote"}]})
        creator = await Page.join(server, made["id"], hotseat_secrets(made))
        assert creator.seats == [0]
        await creator.send({"type": "seat", "seat": 0, "kind": "remote", "name": "late bot"})
        secret = await creator.receive("seat_secret")
        assert secret["seat"] == 0 and secret["kind"] == "remote"
        await creator.wait_for_table(lambda t: t["seats"][0]["kind"] == "remote", "seat 0 an outside bot's")
        assert creator.table["seats"][0]["name"] == "late bot" and creator.welcome is not None
        # the creator's page no longer holds the seat; the new token does, the old secret does not
        async with await GameConnection.open(server.http, made["id"],
                                             [secret["secret"], made["seats"]["0"]]) as bot:
            assert bot.seats == [0] and bot.refused == [1]
            await creator.wait_for_table(lambda t: t["seats"][0]["online"], "the late bot is online")
        await creator.close()
        return made["tokens"]["1"], secret["secret"]

    first, second = asyncio.run(scenario())
    db = sqlite3.connect(server.db)
    dump = "\n".join(db.iterdump())
    db.close()
    for token in (first, second):
        assert token not in dump and hash_secret(token) in dump


def test_a_mirrored_deal_on_the_server_is_the_tournaments_deal() -> None:
    """The same bots score the same on the server's game of deal 3 as in the tournament's."""
    setup = GameSetup.from_json({"seats": [{"kind": "bot", "level": "greedy"},
                                           {"kind": "bot", "level": "random"}], "seed": 11, "mirror": 3})
    game = build_game(setup)
    bots = [make_bot("greedy", seed=5), make_bot("random", seed=6)]
    while not game.is_over:
        game.play(bots[game.state.current_player].choose(game.state))
    scores, _, _ = play_deal([make_bot("greedy", seed=5), make_bot("random", seed=6)], "2020", 11, 3)
    assert list(game.scores) == scores
    # a short mirrored deal: the first tiles of the deal's order, drawn in that order
    short = build_game(GameSetup.from_json({"seed": 11, "mirror": 3, "short": 5}))
    normal, _ = deal_orders("2020", 11, 3)
    drawn = [m.tile for m in short.history if isinstance(m, Draw)]
    assert drawn[0] == normal[0] and sorted((*short.state.normal, normal[0])) == sorted(normal[:5])
    with pytest.raises(RequestError, match="needs a seed"):
        GameSetup.from_json({"mirror": 3})


def _arena_game_ids(stderr: str) -> dict[tuple[int, int], str]:
    """The game of each deal and rotation, from the arena's progress lines."""
    found = re.findall(r"^deal (\d+) rotation (\d+) \(game ([\w-]+)\)", stderr, re.MULTILINE)
    return {(int(d), int(r)): game for d, r, game in found}


def test_the_arena_plays_two_outside_bots_over_mirrored_deals(server: Server, tmp_path: Path) -> None:
    """`huntgather arena` with two outside bots (the example at two levels) over 2 short deals: each
    deal's games seat the bots both ways and draw the deal's tiles in the deal's order; the log is a
    tournament log that the tournament's tools read, and a second run plays nothing again."""
    from huntgather.client import get_game

    log = tmp_path / "arena.jsonl"
    command = [sys.executable, "-m", "huntgather", "arena", "--server", server.http,
               "--bot", f"sharp={shlex.join([sys.executable, str(EXAMPLE), '--bot', 'greedy'])}",
               "--bot", f"blunt={shlex.join([sys.executable, str(EXAMPLE), '--bot', 'random'])}",
               "--games", "4", "--short", "6", "--seed", "3", "--log", str(log), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr + server.log()
    result = json.loads(done.stdout)
    assert result["games"] == 4 and {row["bot"] for row in result["bots"]} == {"sharp", "blunt"}
    assert [(p["meetings"], p["wins"] + p["draws"] + p["losses"]) for p in result["pairs"]] == [(4, 4)]
    header, games = read_log(str(log))
    assert header["bots"] == ["sharp", "blunt"] and header["seed"] == 3
    assert [(g.deal, g.rotation, g.bots) for g in games] == [
        (0, 0, ("sharp", "blunt")), (0, 1, ("blunt", "sharp")),
        (1, 0, ("blunt", "sharp")), (1, 1, ("sharp", "blunt"))]
    assert [list(g.scores) for g in games] == [r["scores"] for r in result["results"]]
    ids = _arena_game_ids(done.stderr)
    assert set(ids) == {(g.deal, g.rotation) for g in games}

    async def views() -> dict[tuple[int, int], dict[str, Any]]:
        return {key: await get_game(server.http, game) for key, game in ids.items()}

    bonus = set(get_edition("2020").tiles.bonus_ids)
    for (deal, rotation), view in asyncio.run(views()).items():
        assert view["over"] and view["deal"] == "seeded"
        scores = tuple(p["score"] for p in view["players"])
        assert scores == next(g.scores for g in games if (g.deal, g.rotation) == (deal, rotation))
        drawn = [e["tile"] for e in view["log"] if e["kind"] == "TileDrawn" and e["tile"] not in bonus]
        assert drawn == deal_orders("2020", 3, deal)[0][:6]
    # the tournament's interval tool reads the log
    tool = Path(__file__).resolve().parents[1] / "tools" / "meeting_interval.py"
    interval = subprocess.run([sys.executable, str(tool), str(log)], capture_output=True, text=True,
                              timeout=120, check=False)
    assert interval.returncode == 0 and "sharp" in interval.stdout, interval.stdout + interval.stderr
    # again with the same log: every game is there, none is played again
    again = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert again.returncode == 0 and not _arena_game_ids(again.stderr), again.stderr
    assert json.loads(again.stdout)["results"] == result["results"]


def test_the_arena_plays_built_in_and_server_bots_and_stops_on_a_failing_outside_bot(server: Server) -> None:
    from huntgather.client.arena import ArenaError, parse_entrant, run_arena

    played: list[str] = []
    result = asyncio.run(run_arena(server.http, [parse_entrant("greedy"), parse_entrant("server:random")],
                                   games=2, seed=5, short=4, progress=lambda g, game: played.append(game)))
    assert [g.bots for g in result.games] == [("greedy", "server:random"), ("server:random", "greedy")]
    assert len(played) == 2 and all(sum(g.scores) >= 0 for g in result.games)
    quitter = parse_entrant(f"quitter={shlex.join([sys.executable, '-c', 'import sys; sys.exit(3)'])}")
    with pytest.raises(ArenaError, match=r"quitter \(seat \d\) exited \(code 3\)"):
        asyncio.run(run_arena(server.http, [quitter, parse_entrant("greedy")], games=2, short=4,
                              timeout=PATIENCE))
    with pytest.raises(ValueError, match="one name"):
        asyncio.run(run_arena(server.http, [quitter, quitter], games=2))
