"""The server's CPU for a whole game of random bots that no page has open, in one process.

    python tools/unwatched_work.py 6      # CPU ms a game, over 6 games after a warm-up one

Each game is created ``unwatched`` (its bots play at once) and followed by asking for its state
every 10 ms until it is over, as a page that is not open would not; the bots search on threads
(``worker_processes=False``), so all of it is this process's CPU.  With no page open a room makes
no update (no words of events, no live projection): ``Room._adopt``.
"""

from __future__ import annotations

import sys
import time

from starlette.testclient import TestClient

from huntgather.server.app import create_app


def game(client: TestClient) -> None:
    """One whole unwatched game of two random bots."""
    made = client.post("/api/games", json={"seats": [{"kind": "bot", "level": "random"}] * 2,
                                           "unwatched": True})
    gid = made.json()["id"]
    while not client.get(f"/api/games/{gid}").json()["over"]:
        time.sleep(0.01)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    app = create_app("sqlite://", bot_delay=0.0, worker_processes=False)
    with TestClient(app) as client:
        game(client)
        start = time.process_time()
        for _ in range(n):
            game(client)
        print(f"{(time.process_time() - start) / n * 1000:.1f} ms CPU a game")


if __name__ == "__main__":
    main()
