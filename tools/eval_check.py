"""How good is the shipped learned evaluation?  Errors on fresh games, beside the heuristic's, and its speed.

Plays ``--games`` new self-play games per number of players (the same bots as
``huntgather train-eval``, but seeds the training never used) and prints, per
edition and number of players, the root-mean-square error of each seat's
predicted final score and of its predicted margin (its score minus the best
other seat's, what the search's values are made of), for the learned model and
for the heuristic estimate, and the mean time of one evaluation.  Needs NumPy.

    python tools/eval_check.py --games 30 --players 2,3,4 --edition 2020

``--duel DEALS`` measures instead what matters for play: a greedy player that
values each of its turns by the model (its predicted score minus the best
other seat's) against the usual greedy player (the heuristic), on ``DEALS``
mirrored 2-player deals (each deal played from both seats), and prints the
model player's wins, draws and losses with a Wilson 95 % interval:

    python tools/eval_check.py --duel 30 --edition 2020 [--model FILE]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from huntgather.bots import make_bot
from huntgather.bots.base import SeededBot, turn_plans
from huntgather.bots.heuristic import advantage, estimate
from huntgather.bots.learned import LinearEval
from huntgather.deals import deal_orders
from huntgather.game import Game
from huntgather.moves import Move
from huntgather.rl.train_eval import play_games
from huntgather.state import PLACE, State


def margins(values: np.ndarray, players: int) -> np.ndarray:
    v = values.reshape(-1, players)
    out = np.empty_like(v)
    for p in range(players):
        others = np.delete(v, p, axis=1)
        out[:, p] = v[:, p] - others.max(axis=1)
    return out.reshape(-1)


class ModelGreedy(SeededBot):
    """Greedy by the model: the turn whose resulting state has the best predicted margin."""

    name = "model-greedy"

    def __init__(self, model: LinearEval, seed: int) -> None:
        super().__init__(seed)
        self.model = model

    def _choose(self, state: State, moves: list[Move], rng: random.Random) -> Move:
        player = state.player
        best: list[Move] = []
        best_value = -float("inf")
        for plan, after in turn_plans(state):
            value = advantage(self.model(after), player)
            if value > best_value + 1e-9:
                best_value, best = value, [plan[0]]
            elif value > best_value - 1e-9 and plan[0] not in best:
                best.append(plan[0])
        return best[rng.randrange(len(best))]


def duel_game(job: tuple[str | None, str, int, int, int]) -> int:
    """One game of the model's greedy player (seat ``seat``) against greedy: +1, 0 or -1 for the model."""
    path, edition, seed, deal, seat = job
    model = LinearEval.load(path) if path else LinearEval.shipped()
    normal, bonus = deal_orders(edition, seed, deal)
    game = Game(2, edition=edition, seed=seed * 1_000_003 + deal, normal_order=normal, bonus_order=bonus)
    bots = [ModelGreedy(model, seed + deal), make_bot("greedy", seed=seed + deal)]
    if seat == 1:
        bots.reverse()
    while not game.is_over:
        game.play(bots[game.state.player].choose(game.state))
    mine, other = game.scores[seat], game.scores[1 - seat]
    return (mine > other) - (mine < other)


def wilson(wins: float, n: int) -> tuple[float, float]:
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def duel(path: str | None, edition: str, deals: int, seed: int, workers: int) -> None:
    jobs = [(path, edition, seed, d, s) for d in range(deals) for s in (0, 1)]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(duel_game, jobs))
    won, drawn, lost = results.count(1), results.count(0), results.count(-1)
    low, high = wilson(won + drawn / 2, len(results))
    print(f"model-greedy vs greedy, {edition}, 2 players, {len(results)} games: won {won}, drawn {drawn}, "
          f"lost {lost}: {100 * (won + drawn / 2) / len(results):.1f} % (95 % interval "
          f"{100 * low:.1f}-{100 * high:.1f} %)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--edition", default="2020")
    parser.add_argument("--seed", type=int, default=777, help="not a seed train-eval used (default 777)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--duel", type=int, default=0, metavar="DEALS",
                        help="play the model's greedy player against greedy on DEALS mirrored deals")
    parser.add_argument("--model", default=None, help="a weights file (default: the shipped model)")
    args = parser.parse_args()
    if args.duel:
        for edition in args.edition.split(","):
            duel(args.model, edition, args.duel, args.seed, args.workers)
        return
    model = LinearEval.load(args.model) if args.model else LinearEval.shipped()
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
