"""The server's CPU a turn, in process: no sockets, no load client (docs/performance.md).

On a machine other work shares, a load test's wall figures say more about the other work, and
even its CPU a move moves with the clients' own errors and timeouts.  This measures what a
``huntgather play`` process does for each turn apart from the websocket frames and HTTP: the
rooms of ``GAMES`` two-player 20-tile games on a new SQLite file, each seat a page (a
:class:`~huntgather.server.connection.Connection` whose socket is a no-op), each turn a random
placement and no piece submitted as a page's ``turn`` is (checked, stored by the writer thread,
the update built and queued for both pages), the games replaced as they end (created and both
pages' ``hello`` answered, as the load test does).  It prints the process's CPU (every thread:
the writer's too) over the turns of ``ROUNDS`` rounds, one turn of every game a round::

    python tools/server_work.py 200 15
    python tools/server_work.py 100 10 --serial                   # each turn stored alone
    python tools/server_work.py 100 10 --tune-gc                  # the collector as a server's
    PYTHONPATH=/tmp/base/src python tools/server_work.py 200 15   # another tree, to compare

The same seed plays the same turns on any tree whose rules agree (the message count printed is
then the same too).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
from typing import Any, cast

from huntgather.server import connection, gc_tuning, protocol
from huntgather.server.messages import Hello, Turn
from huntgather.server.rooms import GameSetup, Room, Rooms
from huntgather.server.storage import Storage


class Table:
    """The games being played: each room and its two pages."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        self.sent = 0
        self.games: list[tuple[Room, list[connection.Connection]]] = []

    async def _send(self, text: str) -> None:
        self.sent += 1

    @staticmethod
    async def _close(code: int, reason: str) -> None:
        pass

    async def new_game(self) -> tuple[Room, list[connection.Connection]]:
        room, _creator, secrets = await self.rooms.create(GameSetup.from_json(
            {"seats": [{"kind": "human"}, {"kind": "human"}], "short": 20}))
        pages = []
        for seat in (0, 1):
            page = connection.Connection(self._send, self._close)
            asyncio.get_running_loop().create_task(page.run())
            hello = {"type": "hello", "secrets": [secrets[seat]], "version": None}
            await room.attach(page, cast(Hello, hello))
            pages.append(page)
        return room, pages

    async def turn(self, i: int, rng: random.Random) -> None:
        room, pages = self.games[i]
        if room.game.is_over:
            for page in pages:
                page.finish()
                room.detach(page)
            self.games[i] = room, pages = await self.new_game()
        seat = room.game.state.current_player
        places: list[dict[str, Any]] = [dict(m) for m in protocol.legal_json(room.game.state)
                                        if m.get("kind") == "place"]
        moves: list[Any] = [{"kind": "pass"}]
        if places:
            place = rng.choice(places)
            moves.insert(0, {k: place[k] for k in ("kind", "x", "y", "rotation") if k in place})
        await room.submit(pages[seat], cast(Turn, {"type": "turn", "request": 1, "seat": seat,
                                                   "version": room.version, "moves": moves}))


async def measure(games: int, rounds: int, seed: int, serial: bool = False) -> tuple[float, int, int]:
    """CPU seconds a turn, turns played and messages queued over ``rounds`` rounds (``serial``:
    each turn stored before the next is submitted, so the writer stores them one by one; else
    the turns of a round are submitted together, and the writer stores them in batches)."""
    with tempfile.TemporaryDirectory() as tmp:
        storage = Storage(os.path.join(tmp, "games.sqlite"))
        try:
            rng = random.Random(seed)
            draws = random.Random(seed + 1)   # the tiles drawn: the same on every run
            table = Table(Rooms(storage, draws=lambda: random.Random(draws.random())))
            table.games = [await table.new_game() for _ in range(games)]
            async def play_round() -> None:
                if serial:
                    for i in range(games):
                        await table.turn(i, rng)
                else:
                    await asyncio.gather(*(table.turn(i, rng) for i in range(games)))

            await play_round()   # warm-up
            sent, cpu = table.sent, time.process_time()
            for _ in range(rounds):
                await play_round()
            await asyncio.sleep(0)
            return (time.process_time() - cpu) / (games * rounds), games * rounds, table.sent - sent
        finally:
            storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", type=int, nargs="?", default=200)
    parser.add_argument("rounds", type=int, nargs="?", default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serial", action="store_true",
                        help="one turn at a time (each stored alone) instead of a round's turns together")
    parser.add_argument("--tune-gc", action="store_true",
                        help="tune the collector as `huntgather play` does (gc_tuning.tune_gc), without its "
                             "0.1 s timer, which would make an instruction count depend on time")
    args = parser.parse_args()
    if args.tune_gc:
        gc_tuning.tune_gc()
    per_turn, turns, sent = asyncio.run(measure(args.games, args.rounds, args.seed, args.serial))
    load = os.getloadavg()[0]
    print(f"{per_turn * 1e3:.3f} ms of CPU a turn ({turns} turns, {sent} messages queued; "
          f"load average {load:.2f})")


if __name__ == "__main__":
    main()
