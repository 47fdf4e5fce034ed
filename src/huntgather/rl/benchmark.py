"""Speed of the learning environment (a figure of ``huntgather bench``).

>>> env_steps_per_s("2020", 0.2, 0) > 0
True
"""

from __future__ import annotations

import time

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
