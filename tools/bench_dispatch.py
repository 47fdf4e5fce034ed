"""How many turns a second one server process reads, checks, dispatches, plays and stores.

    python tools/bench_dispatch.py [--turns N] [--db URL]

Drives :func:`huntgather.server.dispatch.handle` directly (no sockets, no HTTP): two-seat short
games in one :class:`~huntgather.server.rooms.Rooms`, each turn a ``turn`` intent as a page
sends it (the first legal placement, then ``pass``), answered with ``ack`` and an ``update``
pushed to the page.  Prints turns/s and stored moves/s (draws included) for the whole path,
and messages/s for reading, checking and dispatching alone (a ``ping``, whose handler does
nothing more).  The websocket and the network are what ``huntgather loadtest`` adds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

from huntgather.server.connection import Connection

try:
    from huntgather.server.dispatch import handle
except ImportError:   # a tree from before the dispatch table (to compare): its if-chain
    from huntgather.server.app import _handle as handle  # type: ignore[no-redef]
from huntgather.server.rooms import Room, Rooms
from huntgather.server.seats import GameSetup
from huntgather.server.storage import Storage


async def _page(room: Room, secrets: list[str]) -> tuple[Connection, list[str]]:
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    async def close(code: int, reason: str) -> None:
        pass

    conn = Connection(send, close, limit=10**9)
    await handle(room, conn, json.dumps({"type": "hello", "secrets": secrets, "version": None}), set())
    return conn, sent


def _placement(room: Room) -> tuple[int, int, int]:
    """The first legal placement of the tile to place (as a page takes it from ``legal``)."""
    state = room.game.state
    assert state.tile is not None
    return next(iter(state.board.placements(state.edition.tiles.by_id[state.tile])))


async def bench(turns: int, db: str) -> dict[str, float]:
    rooms = Rooms(Storage(db), bot_delay=0.0)
    setup = GameSetup.from_json({"seats": [{"kind": "human"}, {"kind": "human"}], "short": 20})
    played = stored = 0
    start = time.perf_counter()
    while played < turns:
        room, creator, secrets = await rooms.create(setup)
        conn, _sent = await _page(room, [creator, *secrets.values()])
        while not room.game.is_over and played < turns:
            x, y, rotation = _placement(room)
            place = {"kind": "place", "x": x, "y": y, "rotation": rotation}
            text = json.dumps({"type": "turn", "seat": room.game.state.current_player,
                               "version": room.version, "moves": [place, {"kind": "pass"}],
                               "request": played})
            before = room.version
            await handle(room, conn, text, set())
            assert room.version > before, "the turn was refused"
            played += 1
            stored += room.version - before
        conn.finish()
    whole = time.perf_counter() - start
    room, _creator, _secrets = await rooms.create(setup)
    conn, _sent = await _page(room, [])
    n = 20_000
    start = time.perf_counter()
    for _ in range(n):
        await handle(room, conn, '{"type":"ping","request":1}', set())
    alone = time.perf_counter() - start
    await rooms.close()
    return {"turns_per_s": played / whole, "stored_moves_per_s": stored / whole,
            "dispatch_only_per_s": n / alone}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--db", default="sqlite://")
    args = parser.parse_args()
    result = asyncio.run(bench(args.turns, args.db))
    print(f"{result['turns_per_s']:.0f} turns/s ({result['stored_moves_per_s']:.0f} stored moves/s, "
          f"draws included); reading, checking and dispatching alone: "
          f"{result['dispatch_only_per_s']:.0f} messages/s")


if __name__ == "__main__":
    main()
