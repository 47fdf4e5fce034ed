"""A Gymnasium ``VectorEnv``: N games of :class:`~huntgather.rl.gym_env.SingleAgentEnv` in one process.

>>> import numpy as np
>>> from huntgather.rl import vector_env
>>> envs = vector_env(num_envs=4, opponents=["random"])
>>> obs, infos = envs.reset(seed=7)
>>> obs["board"].shape, obs["vector"].shape, obs["action_mask"].shape
((4, 74, 33, 33), (4, 154), (4, 5474))
>>> rng = np.random.default_rng(0)
>>> actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
>>> obs, rewards, terminations, truncations, infos = envs.step(actions)
>>> rewards.shape, terminations.dtype.name
((4,), 'bool')

The sub-environments run one after the other in this process (like
``gymnasium.vector.SyncVectorEnv``), but observations and masks are written
straight into preallocated batch arrays, with no per-environment dicts and no
``concatenate``; bots' moves skip the action mask.

**Autoreset.**  ``autoreset_mode`` is Gymnasium's
:class:`~gymnasium.vector.AutoresetMode`; the default, as in Gymnasium, is
``NEXT_STEP``: the step that ends a game returns that game's last observation
(``terminated`` True, the final reward); the next call to :meth:`step` ignores
that environment's action, starts its next game and returns its first
observation with reward 0 and ``terminated`` False.  ``SAME_STEP`` starts the
next game at once and puts the last observation in ``infos["final_obs"]`` (and
the last info in ``infos["final_info"]``); ``DISABLED`` leaves resetting to the
caller (``reset(options={"reset_mask": ...})``).

**Seeds.**  ``reset(seed=s)`` seeds environment ``i`` with ``s + i`` (Gymnasium's
convention, so environment ``i`` plays the very game a ``SingleAgentEnv`` reset
with ``seed=s + i`` plays); a list gives one seed each.  Later games (autoreset,
or ``reset()`` without a seed) take their seeds from each environment's own
generator, so one seed fixes every game of the run.

**Infos.**  ``infos["scores"]`` (``int64 (N, players)``) with its mask
``infos["_scores"]`` holds the final scores of the games that ended in this step,
``infos["illegal_action"]`` the action of an environment that played one
(``illegal_reward``, see ``SingleAgentEnv``); ``infos["seat"]`` (each reset) the
learner's seat.  :meth:`VectorEnv.action_masks` returns the masks as booleans.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from huntgather.rl.gym_env import SingleAgentEnv

Obs = dict[str, np.ndarray[Any, Any]]


class HuntGatherVectorEnv(VectorEnv[Obs, np.ndarray[Any, Any], np.ndarray[Any, Any]]):
    """``num_envs`` games, one seat each learning against bots (see the module text).

    ``copy=True`` (the default, as in Gymnasium) returns new observation arrays
    from each call; ``copy=False`` returns the batch buffers themselves, which
    the next call overwrites (faster: a training loop that copies them into its
    own rollout buffer anyway can use it); its ``board`` is read-only, since a
    learner in seat 0 has its encoder keep the planes in its row of the batch
    (so that observing copies nothing).  Other keywords go to every
    :class:`~huntgather.rl.gym_env.SingleAgentEnv`.
    """

    metadata: dict[str, Any] = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(self, num_envs: int, *, autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 copy: bool = True, **options: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if options.get("explicit_chance"):
            raise ValueError("the vector environment draws its own tiles: explicit_chance is for one env")
        self.envs = [SingleAgentEnv(**options) for _ in range(num_envs)]
        for env in self.envs:
            env.aec.lean = True   # the masks without listing the legal moves (no info shows them)
        self.num_envs = num_envs
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {"render_modes": [], "autoreset_mode": self.autoreset_mode}
        self.copy = copy
        first = self.envs[0]
        self.players = first.aec.players
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        space = first.observation_space
        assert isinstance(space, spaces.Dict)
        self._obs: Obs = {}
        for key, box in space.spaces.items():
            assert isinstance(box, spaces.Box)
            self._obs[key] = np.zeros((num_envs, *box.shape), dtype=box.dtype)
        # each learner's board row of the batch, where a seat-0 learner's encoder keeps its planes
        # (Encoder(planes=...)): observing it then copies nothing.  The rows are the encoders' own,
        # so copy=False returns the board read-only.
        self._rows = [self._obs["board"][i] for i in range(num_envs)]
        # (and each environment's rows of the vector and the mask: views made once, not at every step)
        self._vectors = [self._obs["vector"][i] for i in range(num_envs)]
        self._masks = [self._obs["action_mask"][i] for i in range(num_envs)]
        for env, row in zip(self.envs, self._rows, strict=True):
            env.board_into = row
        shown = self._obs["board"].view()
        shown.flags.writeable = False
        self._shown: Obs = dict(self._obs, board=shown)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)

    # ------------------------------------------------------------------ lifecycle

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"{len(seeds)} seeds for {n} environments")
        which = np.ones(n, dtype=np.bool_)
        if options is not None and "reset_mask" in options:
            options = dict(options)
            which = np.asarray(options.pop("reset_mask"), dtype=np.bool_)
            if which.shape != (n,) or not which.any():
                raise ValueError(f"reset_mask must be {n} booleans, at least one True")
        seats = np.full(n, -1, dtype=np.int64)
        rows, vectors, masks = self._rows, self._vectors, self._masks
        for i in np.flatnonzero(which):
            env = self.envs[i]
            env.reset(seed=seeds[i], options=options)
            env.observe_into(rows[i], vectors[i], masks[i])
            seats[i] = env.seat
        self._terminations[which] = False
        self._truncations[which] = False
        self._autoreset[which] = False
        return self._out(), {"seat": seats, "_seat": which}

    def step(self, actions: np.ndarray[Any, Any]) -> tuple[Obs, np.ndarray[Any, Any], np.ndarray[Any, Any],
                                                           np.ndarray[Any, Any], dict[str, Any]]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {actions.shape}")
        mode = self.autoreset_mode
        rows, vectors, masks = self._rows, self._vectors, self._masks
        # (the step's rewards and terminations gathered in lists and written into the arrays once)
        rewards = [0.0] * self.num_envs
        terminations = [False] * self.num_envs
        ended: dict[int, tuple[int, ...]] = {}   # environment -> final scores
        illegal: list[tuple[int, int]] = []
        restarted: list[int] = []
        final: dict[int, tuple[Obs, dict[str, Any]]] = {}
        for i, (env, action, due) in enumerate(zip(self.envs, actions.tolist(), self._autoreset.tolist(),
                                                    strict=True)):
            if due:
                if mode is AutoresetMode.DISABLED:
                    raise RuntimeError(f"environment {i}'s game is over: reset it "
                                       "(autoreset_mode is DISABLED)")
                env.reset()
                restarted.append(i)
            else:
                reward, done, wrong = env.act(action)
                rewards[i] = reward
                terminations[i] = done
                if wrong:
                    illegal.append((i, action))
                if done:
                    assert env.aec.game is not None
                    ended[i] = env.aec.game.scores
                    if mode is AutoresetMode.SAME_STEP:
                        last: Obs = {k: np.empty_like(v[i]) for k, v in self._obs.items()}
                        env.observe_into(last["board"], last["vector"], last["action_mask"])
                        final[i] = last, {"scores": np.array(ended[i]), "seat": env.seat}
                        env.reset()
                        restarted.append(i)
            env.observe_into(rows[i], vectors[i], masks[i])
        self._rewards[:] = rewards
        self._terminations[:] = terminations
        infos: dict[str, Any] = {}
        if ended:
            scores = np.zeros((self.num_envs, self.players), dtype=np.int64)
            for i, final_scores in ended.items():
                scores[i] = final_scores
            infos["scores"] = scores
            infos["_scores"] = np.isin(np.arange(self.num_envs), list(ended))
        if illegal:
            infos["illegal_action"] = np.full(self.num_envs, -1, dtype=np.int64)
            for i, a in illegal:
                infos["illegal_action"][i] = a
            infos["_illegal_action"] = infos["illegal_action"] >= 0
        if restarted:
            infos["seat"] = np.array([env.seat for env in self.envs], dtype=np.int64)
            infos["_seat"] = np.isin(np.arange(self.num_envs), restarted)
        if final:
            infos["final_obs"] = np.array([final[i][0] if i in final else None for i in range(self.num_envs)],
                                          dtype=object)
            infos["final_info"] = np.array([final[i][1] if i in final else None
                                            for i in range(self.num_envs)], dtype=object)
            infos["_final_obs"] = infos["_final_info"] = np.isin(np.arange(self.num_envs), list(final))
        self._autoreset = self._terminations.copy() if mode is not AutoresetMode.SAME_STEP else \
            np.zeros(self.num_envs, dtype=np.bool_)
        return self._out(), self._rewards.copy(), self._terminations.copy(), self._truncations.copy(), infos

    def _out(self) -> Obs:
        if self.copy:
            return {k: v.copy() for k, v in self._obs.items()}
        return self._shown

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal actions of every environment now, ``bool (N, actions)``."""
        return self._obs["action_mask"].astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()


def vector_env(num_envs: int = 8, edition: str = "2020", players: int = 2,
               **options: Any) -> HuntGatherVectorEnv:
    """A :class:`HuntGatherVectorEnv` of ``num_envs`` games (options as for
    :class:`~huntgather.rl.gym_env.SingleAgentEnv`, plus ``autoreset_mode`` and ``copy``)."""
    return HuntGatherVectorEnv(num_envs, edition=edition, players=players, **options)
