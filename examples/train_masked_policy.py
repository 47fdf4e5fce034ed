"""Train a small masked policy with NumPy alone, and show it beating the random bot.

    python examples/train_masked_policy.py               # under a minute on one core
    python examples/train_masked_policy.py --games 60 --eval 30   # the short run CI does

The learner plays seat 0 or 1 (drawn each game) of ``SingleAgentEnv`` against
the random bot.  Its policy is a softmax over the *legal* actions only (the
action mask) of a linear score ``theta · features(observation, action)``; the
features are read from the observation planes and vector alone:

* a placement: a bias, how many placed tiles the cell touches, how many of
  those touching sides close a forest or river (open ends of 1), and how many
  extend or close a feature that holds one of the learner's meeples;
* an occupant: the kind of the zone (forest, river, meadow, lake) × the piece
  (meeple, hut), the size of its feature, how near a forest or river is to
  completion (from the planes at the tile just placed), the pieces left;
* passing and the shaman's take-back: a bias each.

Training is REINFORCE: each decision is credited with the score margin (own
score minus the best other seat's, divided by 20) gained from it to the end of
the game, less a running-mean baseline.  The script prints the learner's win rate against the random bot
before and after training (the untrained policy *is* a random player).
"""

from __future__ import annotations

import argparse

import numpy as np

from huntgather.rl.encoding import PLANES, VECTOR
from huntgather.rl.gym_env import SingleAgentEnv

P = {name: i for i, name in enumerate(PLANES)}
V = {name: i for i, name in enumerate(VECTOR)}
FEATURES = 16


def features(obs: dict[str, np.ndarray], legal: np.ndarray, window: int) -> np.ndarray:
    """One row of features per legal action."""
    board, vector = obs["board"], obs["vector"]
    place_n = 4 * window * window
    pass_action = place_n + 20
    out = np.zeros((len(legal), FEATURES), dtype=np.float32)
    tiles = np.pad(board[P["tile"]], 1)
    opens = [np.pad(board[P[f"open_{d}"]], 1) for d in "NESW"]
    mine = [np.pad(board[P[f"meeples_p0_{d}"]], 1) for d in "NESW"]
    last = np.argwhere(board[P["last_placed"]])
    for k, a in enumerate(legal):
        if a < place_n:
            i, j = divmod(a // 4, window)
            i, j = i + 1, j + 1
            out[k, 0] = 1
            neighbours = [(i - 1, j, 2), (i, j + 1, 3), (i + 1, j, 0), (i, j - 1, 1)]  # facing side
            out[k, 1] = sum(tiles[y, x] for y, x, _ in neighbours) / 4
            out[k, 2] = sum(opens[d][y, x] == 1 and tiles[y, x] for y, x, d in neighbours) / 4
            # it extends, or closes, a forest or river holding one of my meeples
            out[k, 6] = sum(mine[d][y, x] > 0 for y, x, d in neighbours) / 4
            out[k, 7] = sum(mine[d][y, x] > 0 and opens[d][y, x] == 1 for y, x, d in neighbours) / 4
        elif a < pass_action:
            zone, piece = divmod(a - place_n, 2)
            first = V[f"zone{zone}_forest"]
            kind = int(np.argmax(vector[first:first + 4]))
            out[k, 3 + 4 * piece + kind] = 1
            sides = [d for d in range(4) if vector[V[f"zone{zone}_{'NESW'[d]}"]]]
            if sides and len(last):
                i, j = last[0]
                size = max(board[P[f"size_{'NESW'[d]}"], i, j] for d in sides)
                open_ends = min(board[P[f"open_{'NESW'[d]}"], i, j] for d in sides)
                out[k, 11] = size / 10                         # how big the feature is
                out[k, 14] = 1 / (1 + open_ends) if kind < 2 else 0   # how near completion
            out[k, 15] = vector[V["meeples_left_p0"] if piece == 0 else V["huts_left_p0"]] / 5
        elif a == pass_action:
            out[k, 12] = 1
        else:
            out[k, 13] = 1
    return out


def choose(theta: np.ndarray, phi: np.ndarray, rng: np.random.Generator) -> tuple[int, np.ndarray]:
    logits = phi @ theta
    p = np.exp(logits - logits.max())
    p /= p.sum()
    k = int(rng.choice(len(p), p=p))
    return k, phi[k] - p @ phi          # the index, and the gradient of log p[k]


def play(env: SingleAgentEnv, theta: np.ndarray, seed: int, rng: np.random.Generator,
         learn: bool) -> tuple[float, list[tuple[np.ndarray, float]]]:
    """One game; the final reward, and for each decision the gradient of log π and the
    score margin (own score minus the best other) before it."""
    obs, _ = env.reset(seed=seed)
    steps = []
    done = False
    reward = 0.0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        k, grad = choose(theta, features(obs, legal, env.aec.window), rng)
        if learn:
            scores = obs["vector"][V["score_p0"]:V["score_p0"] + env.aec.players]
            steps.append((grad, float(scores[0] - scores[1:].max())))
        obs, reward, terminated, truncated, _ = env.step(int(legal[k]))
        done = terminated or truncated
    return reward, steps


def win_rate(theta: np.ndarray, games: int, seed: int) -> float:
    env = SingleAgentEnv(opponents=["random"], seat=None, reward="win")
    rng = np.random.default_rng(seed)
    return float(np.mean([play(env, theta, seed + g, rng, False)[0] > 0 for g in range(games)]))


def train(games: int, seed: int = 0, rate: float = 2.0) -> np.ndarray:
    """REINFORCE: each decision is credited with the margin gained from it to the end."""
    env = SingleAgentEnv(opponents=["random"], seat=None, reward="margin")
    rng = np.random.default_rng(seed)
    theta = np.zeros(FEATURES, dtype=np.float64)
    baseline = 0.0
    for g in range(games):
        final, steps = play(env, theta, 10_000 + seed * 100_000 + g, rng, True)
        step = np.zeros(FEATURES)
        for grad, before in steps:
            gain = (final - before) / 20          # margins are tens of points
            step += (gain - baseline) * grad
            baseline += 0.01 * (gain - baseline)
        theta += rate * step / max(len(steps), 1) * 10
    return theta


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400, help="training games (default 400)")
    parser.add_argument("--eval", type=int, default=100, help="evaluation games (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    untrained = np.zeros(FEATURES)
    before = win_rate(untrained, args.eval, 1_000_000)
    theta = train(args.games, args.seed)
    after = win_rate(theta, args.eval, 1_000_000)
    print(f"win rate against the random bot over {args.eval} games: "
          f"untrained {before:.0%}, after {args.games} training games {after:.0%}")
    print("weights:", np.round(theta, 2).tolist())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
