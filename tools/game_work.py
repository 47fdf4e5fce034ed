"""A fixed number of random games, for comparing two trees by instruction counts (issue 41).

    python tools/game_work.py N             # 2-player 2020 games with seeds 0 .. N-1, played as
                                            # `huntgather bench` plays them (bench.play_random,
                                            # in a Game(quiet=True): no events made)
    python tools/game_work.py N --events    # the same games in a Game that makes its events
    python tools/game_work.py N 2002 3      # another edition and number of players
    python tools/game_work.py N --digest    # and a digest of the games, to compare two trees

Run it under ``valgrind --tool=callgrind`` with N = 40 and N = 10, in the old and the new tree
(``PYTHONPATH=<tree>/src``), and divide the difference by 30: the instructions of one random game,
import, set-up and the first games' filling of the per-tile tables excluded (docs/performance.md).
With ``--digest`` it prints a digest of the games' histories and scores (made outside what is
counted only if both runs print it: leave it out under callgrind), so two trees that play alike
print the same line.
"""

from __future__ import annotations

import hashlib
import random
import sys

from huntgather.bench import play_random
from huntgather.game import Game


def main(argv: list[str]) -> None:
    show = "--digest" in argv
    quiet = "--events" not in argv
    argv = [a for a in argv if a not in ("--digest", "--events")]
    n = int(argv[0]) if argv else 40
    edition = argv[1] if len(argv) > 1 else "2020"
    players = int(argv[2]) if len(argv) > 2 else 2
    digest = hashlib.sha256()
    for s in range(n):
        game = Game(players, edition=edition, seed=s, quiet=quiet)
        play_random(game, random.Random(f"bench-{s}"))
        if show:
            digest.update(repr((game.history, game.scores)).encode())
    print(n, "games", digest.hexdigest()[:16] if show else "")


if __name__ == "__main__":
    main(sys.argv[1:])
