"""One update's cost at a ply of a whole game, to count in instructions (docs/performance.md).

``tools/server_work.py`` plays 20-tile games, whose boards stay small; an update of a whole game
(what every page gets after each turn: ``protocol.update``, encoded) costs more as the board
grows, the live projection most.  This plays a seeded random two-player game to ``PLY`` moves,
then builds and encodes its update ``N`` times (after one that fills the word memories), each
from the rows of the projection before the last move, as a server's room keeps them
(:class:`~huntgather.server.protocol.Projected`; ``--no-memory``: without them)::

    valgrind --tool=callgrind python tools/update_work.py 60 10   # minus the same with N = 0, over 10
    python tools/update_work.py 60 10 --no-projection
"""

from __future__ import annotations

import argparse
import random

from huntgather.game import Game
from huntgather.server import protocol
from huntgather.server.codec import dumps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ply", type=int)
    parser.add_argument("n", type=int)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--no-projection", action="store_true", help="updates without the live projection")
    parser.add_argument("--no-memory", action="store_true",
                        help="each projection made whole, without the rows of the one before")
    args = parser.parse_args()
    game = Game(2, seed=args.seed, rng=random.Random(args.seed + 2))
    moves = random.Random(args.seed - 2)
    last = game.state   # the position before the last move played (a copy shares its features)
    while len(game.history) < args.ply and not game.is_over:
        last = game.state.copy()
        game.play(moves.choice(game.legal_moves()))   # (a draw that follows it played too)
    before = protocol.Projected()
    protocol.projection_view(last, before)
    projections = not args.no_projection
    for _ in range(args.n + 1):
        projected = None
        if not args.no_memory:
            projected = protocol.Projected()
            projected.rows = dict(before.rows)
        dumps(protocol.update(game, "work", 1, 0, game.events[-3:], len(game.history),
                              projections=projections, projected=projected))
    print(f"{args.n} updates at ply {len(game.history)} ({len(game.state.board.grid)} tiles)")


if __name__ == "__main__":
    main()
