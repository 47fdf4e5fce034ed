"""A learning environment for huntgather (extra ``huntgather[rl]``).

* :func:`env` — a PettingZoo AEC environment for 2-5 players of either edition;
* :class:`~huntgather.rl.gym_env.SingleAgentEnv` — a Gymnasium environment in which
  one seat plays against bots;
* :func:`vector_env` — a Gymnasium ``VectorEnv`` of N such games with batched
  observations and masks (:mod:`huntgather.rl.vector`);
* :mod:`huntgather.rl.chance` — the tiles a draw may bring, for planners that
  branch on chance (``explicit_chance=True`` on the environments);
* :mod:`huntgather.rl.encoding` — the fixed ``Discrete`` action space, the
  observation planes and their symmetries (data augmentation);
* :mod:`huntgather.rl.selfplay` — bot games written as training data, locally or on Ray.

See ``docs/rl.md``.  NumPy, Gymnasium and PettingZoo are imported only here.

>>> from huntgather.rl import env
>>> e = env(players=3)
>>> e.reset(seed=1)
>>> e.agent_selection, sorted(e.observe("player_0"))
('player_0', ['action_mask', 'observation'])
"""

from __future__ import annotations

from typing import Any

__all__ = ["SingleAgentEnv", "env", "raw_env", "vector_env"]


def env(edition: str = "2020", players: int = 2, render_mode: str | None = None, **options: Any) -> Any:
    """The PettingZoo AEC environment, wrapped as PettingZoo recommends (see :class:`raw_env`)."""
    from huntgather.rl.aec import env as make
    return make(edition=edition, players=players, render_mode=render_mode, **options)


def vector_env(num_envs: int = 8, edition: str = "2020", players: int = 2, **options: Any) -> Any:
    """The Gymnasium vector environment of ``num_envs`` games (see :mod:`huntgather.rl.vector`)."""
    from huntgather.rl.vector import vector_env as make
    return make(num_envs=num_envs, edition=edition, players=players, **options)


def __getattr__(name: str) -> Any:
    if name == "raw_env":
        from huntgather.rl.aec import raw_env
        return raw_env
    if name == "SingleAgentEnv":
        from huntgather.rl.gym_env import SingleAgentEnv
        return SingleAgentEnv
    raise AttributeError(f"module 'huntgather.rl' has no attribute {name!r}")
