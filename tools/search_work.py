"""A fixed amount of tree search, for comparing two trees by instruction counts (issue 16).

    python tools/search_work.py one N       # one position 30 random moves into a 2020 game
                                            # (seed 3), MctsBot(Limits(simulations=N), seed=1)
    python tools/search_work.py game N      # the same bot at every 10th placement of one random
                                            # 2020 game (seed 3): 8 positions, early to late
    python tools/search_work.py game N rollout_placements=8   # with MctsBot options

Run it under ``valgrind --tool=callgrind`` with N and with a smaller N, in the old and the new
tree (``PYTHONPATH=<tree>/src``), and subtract: the difference is the cost of the extra
simulations, import and set-up excluded.  It prints each search's answer (the most visited
move, its value and visits), so two trees that search alike print the same lines.
"""

from __future__ import annotations

import random
import sys
import time

from huntgather import Game, State
from huntgather.bots import Limits, MctsBot


def one_position(moves: int = 30, seed: int = 3) -> list[State]:
    """The placement decision after ``moves`` random moves of a 2-player 2020 game."""
    game = Game(players=2, seed=seed)
    rng = random.Random(seed)
    played = 0
    while played < moves or game.state.is_chance or game.state.phase != "place":
        game.play(game.state.random_move(rng), trusted=True)
        played += 1
    return [game.state]


def game_positions(seed: int = 3, every: int = 10) -> list[State]:
    """Every ``every``-th placement decision of one random 2-player 2020 game."""
    game = Game(players=2, seed=seed)
    rng = random.Random(seed)
    out: list[State] = []
    placements = 0
    while not game.state.is_over:
        if game.state.phase == "place":
            placements += 1
            if placements % every == 0:
                out.append(game.state.copy())
        game.play(game.state.random_move(rng), trusted=True)
    return out


def main(argv: list[str]) -> None:
    where, n = argv[0], int(argv[1])
    options = {}
    for arg in argv[2:]:
        key, value = arg.split("=")
        options[key] = None if value == "None" else int(value)
    states = one_position() if where == "one" else game_positions()
    start = time.process_time()
    sims = 0
    for state in states:
        result = MctsBot(Limits(simulations=n), seed=1, **options).search(state)
        sims += result.simulations
        move, value, visits = result.moves[0]
        print(move, round(value, 9), visits)
    print(f"{sims} simulations, {time.process_time() - start:.2f} s CPU")


if __name__ == "__main__":
    main(sys.argv[1:])
