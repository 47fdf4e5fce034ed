"""How sure is an estimated margin?  The logistic scale that best predicts meetings from it.

The expert values a sample's end by a logistic of estimated margins (``ExpertBot.scale``,
docs/bots.md).  This tool plays games of greedy seats (``greedy:tuned`` in even seats,
``greedy`` in odd ones), takes every third placement decision, and estimates each seat's final
score there with the fitted heuristic (the expert's weights).  For every pair of seats and every
such position it keeps the estimated margin and who finished ahead (ties left out); then, per
share of the normal stack left, it prints the standard deviation of the final margin less the
estimated one, and the scale ``s`` (a grid of 0.5 points) that maximises the likelihood of the
outcomes under ``win_chance(margin, s)`` (the expert's logistic), beside that likelihood at scale 8.

    python tools/meeting_scale.py --players 4 --games 100

Chance is seeded (game ``i`` is ``Game(players, seed=1000 + i)``), so a run prints the same.
"""

from __future__ import annotations

import argparse
import math
import statistics

from huntgather import Game
from huntgather.bots import make_bot
from huntgather.bots.heuristic import estimate, share_left
from huntgather.bots.mcts import win_chance
from huntgather.bots.tuned import weights_for

#: the bins of the share of the normal stack left, latest last
BINS = ((0.8, 1.01), (0.6, 0.8), (0.4, 0.6), (0.2, 0.4), (0.0, 0.2))

Row = tuple[float, float, int, float]   # share left, estimated margin, 1 if ahead at the end, final margin


def collect(players: int, games: int) -> list[Row]:
    rows: list[Row] = []
    for i in range(games):
        game = Game(players, seed=1000 + i)
        bots = [make_bot("greedy:tuned" if seat % 2 == 0 else "greedy", seed=i * 10 + seat)
                for seat in range(players)]
        seen: list[tuple[float, list[float]]] = []
        placements = 0
        while not game.is_over:
            state = game.state
            if state.phase == "place":
                if placements % 3 == 0:
                    seen.append((share_left(state), estimate(state, None, weights_for(state))))
                placements += 1
            game.play(bots[state.player].choose(state))
        final = game.state.scores
        for share, values in seen:
            for a in range(players):
                for b in range(a + 1, players):
                    if final[a] != final[b]:
                        rows.append((share, values[a] - values[b], int(final[a] > final[b]),
                                     float(final[a] - final[b])))
    return rows


def log_likelihood(rows: list[Row], scale: float) -> float:
    """Mean log-likelihood of the outcomes under a logistic of the estimated margin."""
    total = 0.0
    for _, margin, ahead, _ in rows:
        p = win_chance(margin, scale)
        total += math.log(max(1e-12, p if ahead else 1.0 - p))
    return total / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=range(2, 6))
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    rows = collect(args.players, args.games)
    print(f"{args.games} games, {args.players} players: share left, pairs, sd of (final - estimated) "
          "margin, best scale, mean log-likelihood at it and at 8")
    for lo, hi in BINS:
        part = [r for r in rows if lo <= r[0] < hi]
        if len(part) < 2:
            continue
        sd = statistics.pstdev(r[3] - r[1] for r in part)
        best = max((log_likelihood(part, s / 2), s / 2) for s in range(2, 201))
        print(f"{lo:.1f}-{min(hi, 1.0):.1f}  {len(part):5d}  sd {sd:5.1f}  scale {best[1]:5.1f}  "
              f"{best[0]:.3f} vs {log_likelihood(part, 8.0):.3f}")


if __name__ == "__main__":
    main()
