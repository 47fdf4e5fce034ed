"""Outside bots: a seat that a bot token holds, played by a program of someone else's through the
public client (examples/remote_bot.py), against a real ``huntgather play`` process; and mirrored
deals, the tournament's deals on the server.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from play_server import PATIENCE, Page, Server, hotseat_secrets

from huntgather.bots import make_bot
from huntgather.bots.tournament import deal_orders, play_deal
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
            sys.executable, str(EXAMPLE), server.http, made["id"], token, "--bot", "greedy",
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
