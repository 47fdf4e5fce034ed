"""Speed of the learning environments (figures of ``huntgather bench``; ``tools/rl_env_speed.py``).

>>> env_steps_per_s("2020", 0.2, 0) > 0
True
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from huntgather.rl.aec import raw_env


def env_steps_per_s(edition: str = "2020", seconds: float = 2.0, seed: int = 0, players: int = 2) -> float:
    """Steps per CPU second of the AEC environment (no wrapper), each with ``last()``: the
    mover's observation and mask, then a uniformly random legal action."""
    env = raw_env(edition=edition, players=players)
    rng = np.random.default_rng(seed)
    steps = 0
    game = 0
    start = time.process_time()
    while True:
        env.reset(seed=seed * 100_003 + game)
        game += 1
        while env.agents:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return round(steps / spent, 1)


def random_legal_actions(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A uniformly random legal action for each row of a batch of masks (0 for an empty row),
    with one ``nonzero`` over the whole batch rather than one per row (over the flat batch made
    booleans: NumPy's quick case, which a 2-D ``nonzero`` is not; the same order).

    >>> random_legal_actions(np.array([[0, 1, 1], [0, 0, 0], [1, 0, 0]]), np.random.default_rng(0)).tolist()
    [2, 0, 0]
    """
    n, width = masks.shape
    flat = np.flatnonzero(masks.reshape(-1) != 0)
    rows = flat // width
    cols = flat - rows * width
    if not len(cols):
        return np.zeros(n, dtype=np.int64)
    counts = np.bincount(rows, minlength=n)
    starts = np.cumsum(counts) - counts
    pick = np.minimum(starts + (rng.random(n) * counts).astype(np.int64), len(cols) - 1)
    return np.where(counts > 0, cols[pick], 0).astype(np.int64)


def single_env_steps_per_s(edition: str = "2020", seconds: float = 2.0, seed: int = 0, players: int = 2,
                           opponents: str = "random") -> float:
    """Learner steps per CPU second of one :class:`~huntgather.rl.gym_env.SingleAgentEnv`
    against ``opponents`` (each step: a random legal action, the bots' replies, the
    observation dict and the info), resets included."""
    from huntgather.rl.gym_env import SingleAgentEnv
    env = SingleAgentEnv(opponents=[opponents], edition=edition, players=players)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps = 0
    start = time.process_time()
    while True:
        action = int(random_legal_actions(obs["action_mask"][None], rng)[0])
        obs, _, terminated, _, _ = env.step(action)
        steps += 1
        if terminated:
            obs, _ = env.reset()
        spent = time.process_time() - start
        if spent >= seconds:
            return round(steps / spent, 1)


def vector_env_steps_per_s(num_envs: int, edition: str = "2020", seconds: float = 2.0, seed: int = 0,
                           players: int = 2, opponents: str = "random", copy: bool = True) -> float:
    """Learner steps per CPU second (``num_envs`` per call of ``step``) of
    :func:`huntgather.rl.vector_env` against ``opponents``, each with the batched
    observations and masks and a random legal action per environment; autoresets included.

    >>> vector_env_steps_per_s(2, seconds=0.05) > 0
    True
    """
    from huntgather.rl.vector import vector_env
    envs = vector_env(num_envs=num_envs, edition=edition, players=players, opponents=[opponents], copy=copy)
    rng = np.random.default_rng(seed)
    obs, _ = envs.reset(seed=seed)
    steps = 0
    start = time.process_time()
    while True:
        obs, *_ = envs.step(random_legal_actions(obs["action_mask"], rng))
        steps += num_envs
        spent = time.process_time() - start
        if spent >= seconds:
            return round(steps / spent, 1)
