"""An outside bot: a program of your own that plays an outside bot's seat on a running server.

A game's creator makes the seat with ``{"kind": "remote", "name": "mybot"}`` and hands
the bot the game's id and the seat's *bot token* (``tokens`` in the answer to
``POST /api/games``); the bot says hello with its token, plays every turn of its seat
until the game is over, prints the final scores and exits::

    huntgather play --no-browser --port 8765 &
    python examples/remote_bot.py --server=http://127.0.0.1:8765 --game=GAME --token=TOKEN --bot greedy

``huntgather arena`` starts a command like this one for every game it plays, with
``--server=URL --game=ID --token=TOKEN`` added (and the same in the environment:
``HUNTGATHER_SERVER``, ``HUNTGATHER_GAME``, ``HUNTGATHER_TOKEN``, which this bot also
reads).  Give them with ``=``: an id or a token may begin with ``-``.  Here huntgather's own
bots (``--bot``, any spec of ``huntgather tournament``) choose the turns, from the
engine's position rebuilt from the view (:func:`huntgather.client.state_of`): replace
:func:`choose_turn` with your own.  A dropped connection is opened again, the bot
saying which version it has, so it misses nothing.  See ``docs/client.md``.

Exit codes: 0 the game is over, 1 the server could not be reached (or went away),
2 the token holds no seat of this game.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Any

from huntgather.bots import make_bot
from huntgather.client import Disconnected, GameConnection, ServerError, bot_turn, state_of, turn_json

#: how many times in a row a lost connection is opened again before the bot gives up
RECONNECTS = 5


def choose_turn(view: dict[str, Any], bot_spec: str, seed: int) -> list[dict[str, Any]]:
    """Your bot's whole turn for the view's decision, as MOVEs (``docs/protocol.md``)."""
    bot = make_bot(bot_spec, seed=seed)
    return turn_json(bot_turn(state_of(view), bot.choose))


async def play(server: str, game: str, token: str, bot_spec: str = "greedy", *,
               name: str | None = None, seed: int = 1) -> dict[str, Any]:
    """Hold the seat of ``token`` until the game is over; return the final table (``final``)."""
    view: dict[str, Any] | None = None
    lost = 0
    while True:
        try:
            async with await GameConnection.open(server, game, [token], name=name, view=view) as page:
                if not page.seats:
                    raise PermissionError("the token holds no seat of this game")
                (seat,) = page.seats
                lost = 0
                while True:
                    # the other seats play meanwhile; the server's updates keep the view up to date
                    await page.wait_until(lambda: page.closed or (page.view is not None
                                          and (page.view["over"] or page.my_turn)), timeout=3600)
                    view = page.view
                    if page.closed:
                        raise Disconnected(page.close_code, page.close_reason)
                    assert view is not None
                    if view["over"]:
                        final: dict[str, Any] = view["final"]
                        return final
                    if not page.my_turn:
                        continue
                    # in a thread, so that the connection answers the server's pings meanwhile
                    moves = await asyncio.to_thread(choose_turn, view, bot_spec,
                                                    seed * 100_003 + view["version"])
                    try:
                        ack = await page.turn(moves, seat=seat)
                    except ServerError as refused:
                        if refused.code == "stale":   # the game moved on meanwhile: look again
                            await page.resync()
                            continue
                        raise
                    print(f"seat {seat}: {' '.join(m['kind'] for m in moves)} (version {ack['version']})",
                          flush=True)
        except (Disconnected, OSError, TimeoutError) as gone:
            lost += 1
            if lost > RECONNECTS:
                raise
            print(f"connection lost ({gone}); opening it again", file=sys.stderr, flush=True)
            await asyncio.sleep(min(2.0**lost, 10.0))


def main() -> int:
    parser = argparse.ArgumentParser(description="play an outside bot's seat of a game on a running "
                                                 "huntgather server, to the end of the game")
    parser.add_argument("--server", default=os.environ.get("HUNTGATHER_SERVER"),
                        help="the server's address, such as http://127.0.0.1:8765 "
                             "(default: $HUNTGATHER_SERVER)")
    parser.add_argument("--game", default=os.environ.get("HUNTGATHER_GAME"),
                        help="the game's id (default: $HUNTGATHER_GAME)")
    parser.add_argument("--token", default=os.environ.get("HUNTGATHER_TOKEN"),
                        help="the seat's bot token (default: $HUNTGATHER_TOKEN)")
    parser.add_argument("--bot", default="greedy", help="which of huntgather's bots chooses (default greedy)")
    parser.add_argument("--name", help="the seat's name, if it has none yet")
    parser.add_argument("--seed", type=int, default=1, help="the bot's seed (default 1)")
    args = parser.parse_args()
    for needed in ("server", "game", "token"):
        if not getattr(args, needed):
            parser.error(f"--{needed} is needed (or ${f'HUNTGATHER_{needed.upper()}'})")
    try:
        make_bot(args.bot, seed=0)   # an unknown bot fails here, before the game is joined
    except ValueError as unknown:
        parser.error(str(unknown))
    try:
        final = asyncio.run(play(args.server, args.game, args.token, args.bot, name=args.name,
                                 seed=args.seed))
    except PermissionError as refused:
        print(f"remote_bot: {refused}", file=sys.stderr)
        return 2
    except ServerError as refused:
        print(f"remote_bot: the server refused: {refused}", file=sys.stderr)
        return 2 if refused.code in ("unknown_game", "deleted") else 1
    except (Disconnected, OSError, TimeoutError) as gone:
        print(f"remote_bot: {gone}", file=sys.stderr)
        return 1
    print(final["text"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
