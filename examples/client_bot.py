"""A bot of your own on a running server: it holds one seat and plays it to the end of the game.

    huntgather play --no-browser --port 8765 &
    python examples/client_bot.py http://127.0.0.1:8765                    # a new game against an easy bot
    python examples/client_bot.py http://127.0.0.1:8765 GAME SECRET        # a seat of a game made elsewhere

It speaks the online protocol through :mod:`huntgather.client`: it says hello with
the seat's secret, waits for its turn (the server's updates keep its view up to
date), rebuilds the engine's position from the view and lets one of huntgather's
own bots (``greedy``, or ``--bot``) choose the whole turn, then sends it.  It
prints each turn and the final scores.  See ``docs/client.md``.
"""

from __future__ import annotations

import argparse
import asyncio

from huntgather.bots import make_bot
from huntgather.client import GameConnection, ServerError, bot_turn, create_game, state_of, turn_json


async def play_seat(base: str, game: str, secret: str, bot_name: str = "greedy", *,
                    name: str = "client bot") -> dict[str, object]:
    """Play the seat that ``secret`` holds until the game is over; return the final table."""
    bot = make_bot(bot_name, seed=1)
    async with await GameConnection.open(base, game, [secret], name=name) as page:
        (seat,) = page.seats
        while True:
            # wait for a decision of ours (the bots and people at the other seats play meanwhile)
            await page.wait_until(lambda: page.view is not None and (page.view["over"] or page.my_turn),
                                  timeout=600)
            view = page.view
            assert view is not None
            if view["over"]:
                final: dict[str, object] = view["final"]
                return final
            moves = bot_turn(state_of(view), bot.choose)
            try:
                ack = await page.turn(turn_json(moves), seat=seat)
            except ServerError as refused:
                if refused.code == "stale":   # the game moved on meanwhile: look again
                    await page.resync()
                    continue
                raise
            print(f"seat {seat} played {' '.join(map(str, moves))} (version {ack['version']})")


async def main() -> None:
    parser = argparse.ArgumentParser(description="play one seat of a game on a running huntgather server")
    parser.add_argument("server", help="the server's address, such as http://127.0.0.1:8765")
    parser.add_argument("game", nargs="?", help="the game's id (default: a new game against an easy bot)")
    parser.add_argument("secret", nargs="?", help="the seat's secret (with a game id; put -- before the "
                                                  "game id, since an id or a secret may begin with '-')")
    parser.add_argument("--bot", default="greedy", help="which of huntgather's bots chooses (default greedy)")
    parser.add_argument("--short", type=int, default=10, help="tiles of a new game's stack (default 10)")
    args = parser.parse_args()
    if args.game is None:
        made = await create_game(args.server, {"seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
                                               "short": args.short})
        args.game, args.secret = made["id"], made["seats"]["0"]
        print(f"new game {args.game}: watch it at {args.server.rstrip('/')}{made['links']['watch']}")
    elif args.secret is None:
        parser.error("a game id needs the seat's secret")
    final = await play_seat(args.server, args.game, args.secret, args.bot)
    print(final["text"])


if __name__ == "__main__":
    asyncio.run(main())
