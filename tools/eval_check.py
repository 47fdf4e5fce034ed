"""How good is the shipped learned evaluation?  Errors on fresh games, beside the heuristic's, and its speed.

Plays ``--games`` new self-play games per number of players (the same bots as
``huntgather train-eval``, but seeds the training never used) and prints, per
edition and number of players, the root-mean-square error of each seat's
predicted final score and of its predicted margin (its score minus the best
other seat's, what the search's values are made of), for the learned model and
for the heuristic estimate, and the mean time of one evaluation.  Needs NumPy.

    python tools/eval_check.py --games 30 --players 2,3,4 --edition 2020
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from huntgather.bots import make_bot
from huntgather.bots.heuristic import estimate
from huntgather.bots.learned import LinearEval
from huntgather.game import Game
from huntgather.rl.train_eval import play_games
from huntgather.state import PLACE


def margins(values: np.ndarray, players: int) -> np.ndarray:
    v = values.reshape(-1, players)
    out = np.empty_like(v)
    for p in range(players):
        others = np.delete(v, p, axis=1)
        out[:, p] = v[:, p] - others.max(axis=1)
    return out.reshape(-1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--edition", default="2020")
    parser.add_argument("--seed", type=int, default=777, help="not a seed train-eval used (default 777)")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    model = LinearEval.shipped()
    print(f"model {model.version}")
    print("| edition/players | positions | score RMSE learned | heuristic | margin RMSE learned | heuristic |"
          " µs per evaluation (learned, heuristic) |")
    print("|---|---|---|---|---|---|---|")
    for edition in args.edition.split(","):
        for players in (int(p) for p in args.players.split(",")):
            x, y, h, _ = play_games(edition, players, args.games, args.seed, workers=args.workers)
            w = np.array(model.weights[f"{edition}/{players}"])
            pred = x @ w
            ym = margins(y, players)
            row = [np.sqrt(np.mean((pred - y) ** 2)), np.sqrt(np.mean((h - y) ** 2)),
                   np.sqrt(np.mean((margins(pred, players) - ym) ** 2)),
                   np.sqrt(np.mean((margins(h, players) - ym) ** 2))]
            game = Game(players, edition=edition, seed=args.seed)
            bot = make_bot("greedy", seed=args.seed)
            states = []
            while not game.is_over:
                if game.state.phase == PLACE:
                    states.append(game.state.copy())
                game.play(bot.choose(game.state))
            times = []
            for f in (model, estimate):
                start = time.perf_counter()
                for s in states:
                    f(s)
                times.append((time.perf_counter() - start) / len(states) * 1e6)
            print(f"| {edition}/{players} | {len(x) // players} | "
                  + " | ".join(f"{v:.1f}" for v in row) + f" | {times[0]:.0f}, {times[1]:.0f} |")


if __name__ == "__main__":
    main()
