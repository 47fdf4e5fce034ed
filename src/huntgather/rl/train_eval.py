"""Fit the learned evaluation (:mod:`huntgather.bots.learned`) on self-play positions (needs NumPy).

Bots play whole games (by default greedy bots that play a uniformly random
move with probability ``explore``, so that the positions vary); every
placement decision is recorded with each seat's features and, when the game
ends, each seat's final score.  A linear model per (edition, players) is
fitted by ridge-regularised least squares on the games of a training split,
and judged on held-out games against the heuristic estimate
(:func:`huntgather.bots.heuristic.estimate`) on the same positions.

Everything is seeded: the same arguments give the same file.

>>> data = play_games("2020", players=2, games=1, seed=3)
>>> x, y, h, g = data
>>> x.shape[1] == len(FEATURES) and len(x) == len(y) == len(h) == len(g) > 0
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

from huntgather.bots import make_bot
from huntgather.bots.heuristic import estimate
from huntgather.bots.learned import FEATURES, LinearEval, seat_features
from huntgather.game import Game
from huntgather.state import PLACE

Array = npt.NDArray[np.float64]
Data = tuple[Array, Array, Array, Array]


def _one_game(edition: str, players: int, seed: int, bots: Sequence[str], explore: float
              ) -> tuple[list[list[float]], list[float], list[float]]:
    game = Game(players=players, edition=edition, seed=seed)
    seated = [make_bot(bots[i % len(bots)], seed=seed * 10 + i) for i in range(players)]
    rng = random.Random(f"explore|{seed}")
    rows: list[list[float]] = []
    heuristic: list[float] = []
    counts: list[int] = []
    while not game.is_over:
        state = game.state
        if state.phase == PLACE:
            feats = seat_features(state)
            rows.extend(feats)
            heuristic.extend(estimate(state))
            counts.append(players)
        moves = game.legal_moves()
        if len(moves) > 1 and rng.random() < explore:
            move = moves[rng.randrange(len(moves))]
        else:
            move = seated[state.current_player].choose(state)
        game.play(move, trusted=True)
    finals = [float(s) for s in game.scores]
    targets = [finals[i % players] for i in range(len(rows))]
    return rows, targets, heuristic


def play_games(edition: str, players: int, games: int, seed: int = 0, *,
               bots: Sequence[str] = ("greedy",), explore: float = 0.1, workers: int = 1) -> Data:
    """Self-play positions: features ``x``, final scores ``y``, heuristic estimates ``h``, game ``g``."""
    seeds = [seed * 1_000_003 + players * 10_007 + k for k in range(games)]
    args = [(edition, players, s, tuple(bots), explore) for s in seeds]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(_one_game, *zip(*args, strict=True), chunksize=4))
    else:
        results = [_one_game(*a) for a in args]
    xs: list[list[float]] = []
    ys: list[float] = []
    hs: list[float] = []
    gs: list[float] = []
    for k, (rows, targets, heuristic) in enumerate(results):
        xs.extend(rows)
        ys.extend(targets)
        hs.extend(heuristic)
        gs.extend([float(k)] * len(rows))
    x = np.array(xs, dtype=np.float64).reshape(-1, len(FEATURES))
    return x, np.array(ys), np.array(hs), np.array(gs)


def fit(x: Array, y: Array, ridge: float = 1e-3) -> Array:
    """Least squares with a small ridge (not on the bias), by the normal equations.

    >>> x = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]]); y = np.array([1.0, 3.0, 5.0])
    >>> [round(float(w), 3) for w in fit(x, y, ridge=0.0)]
    [1.0, 2.0]
    """
    scale = np.maximum(np.abs(x).max(axis=0), 1e-9)
    xs = x / scale
    penalty = ridge * len(x) * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    w = np.linalg.solve(xs.T @ xs + penalty, xs.T @ y)
    return np.asarray(w / scale, dtype=np.float64)


def rmse(pred: Array, y: Array) -> float:
    return float(np.sqrt(np.mean((pred - y) ** 2)))


def train(edition: str, player_counts: Sequence[int], games: int, seed: int = 0, *,
          holdout: float = 0.2, workers: int = 1, explore: float = 0.1,
          bots: Sequence[str] = ("greedy",), progress: Any = None) -> tuple[LinearEval, dict[str, Any]]:
    """Fit one weight vector per number of players; report held-out errors beside the heuristic's."""
    weights: dict[str, list[float]] = {}
    report: dict[str, Any] = {}
    for players in player_counts:
        x, y, h, g = play_games(edition, players, games, seed, bots=bots, explore=explore, workers=workers)
        cut = round(games * (1 - holdout))
        train_rows = g < cut
        test_rows = ~train_rows
        w = fit(x[train_rows], y[train_rows])
        key = f"{edition}/{players}"
        weights[key] = [float(v) for v in w]
        pred = x[test_rows] @ w
        report[key] = {
            "games": games, "train_games": cut, "positions": int(len(x) // players),
            "test_positions": int(test_rows.sum() // players),
            "rmse_learned": round(rmse(pred, y[test_rows]), 3),
            "rmse_heuristic": round(rmse(h[test_rows], y[test_rows]), 3),
        }
        if progress is not None:
            progress(key, report[key])
    return LinearEval(weights), report
