"""A Gymnasium environment: one seat learns, bots play the others.

>>> from huntgather.rl.gym_env import SingleAgentEnv
>>> e = SingleAgentEnv(opponents=["random"], seat=1)
>>> obs, info = e.reset(seed=2)
>>> sorted(obs), int(obs["action_mask"].sum()) == len(info["legal_moves"])
(['action_mask', 'board', 'vector'], True)
>>> done = False
>>> while not done:
...     action = int(obs["action_mask"].nonzero()[0][0])
...     obs, reward, terminated, truncated, info = e.step(action)
...     done = terminated or truncated
>>> sorted(info["scores"]) == sorted(e.aec.game.scores)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from huntgather.bots import Bot, make_bot
from huntgather.rl.aec import DEFAULT_WINDOW, raw_env


class SingleAgentEnv(gymnasium.Env[dict[str, Any], int]):
    """Carcassonne: Hunters and Gatherers from one seat, against bots.

    * ``opponents``: bot specs for the other seats, in seat order after the
      learner's (``random``, ``greedy``, ``mcts:N`` …; see
      :func:`huntgather.bots.make_bot`); a single spec plays every other seat.
    * ``seat``: the learner's seat, or ``None`` for a seat drawn from the
      reset seed (so that the learner meets every position in the turn order).
    * ``edition``, ``players``, ``reward``, ``window``: as in
      :class:`huntgather.rl.aec.raw_env`.

    The observation is ``{"board", "vector", "action_mask"}``; the mask is
    also in ``info["action_mask"]`` and returned by :meth:`action_masks` (the
    name MaskablePPO of sb3-contrib looks for).  The reward is 0 until the
    game ends.  An action outside the mask ends the episode at once
    (``terminated``, ``info["illegal_action"]``) with reward ``illegal_reward``
    (default -1 with ``reward="win"``, -100 with ``"margin"``); with
    ``illegal_reward=None`` it raises ``ValueError`` instead.

    With ``explicit_chance=True`` the environment stops at every draw, the
    learner's and the bots' alike (:meth:`is_chance`, ``info["chance"]``, the
    mask all zeros): :meth:`chance_outcomes` lists the tiles with their
    probabilities and :meth:`step_chance` draws the one a planner chose; it
    returns what :meth:`step` returns.  Bots never draw: they move only at
    their decisions.

    :func:`huntgather.rl.vector_env` runs many of these in one
    ``gymnasium.vector.VectorEnv`` through :meth:`act` and :meth:`observe_into`.
    """

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012  (Gymnasium's convention)

    def __init__(self, opponents: Sequence[str] = ("random",), seat: int | None = 0, edition: str = "2020",
                 players: int = 2, reward: str = "margin", window: int = DEFAULT_WINDOW,
                 render_mode: str | None = None, illegal_reward: float | str | None = "default",
                 explicit_chance: bool = False) -> None:
        self.aec = raw_env(edition=edition, players=players, reward=reward, window=window,
                           render_mode=render_mode, explicit_chance=explicit_chance)
        specs = list(opponents)
        if len(specs) == 1:
            specs = specs * (players - 1)
        if len(specs) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponents (or one for all), "
                             f"not {len(specs)}")
        for spec in specs:
            make_bot(spec, seed=0)   # an unknown spec fails here, not at the first reset
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be from 0 to {players - 1}, not {seat}")
        self.opponents = specs
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.render_mode = render_mode
        inner = self.aec.spaces_dict
        planes: spaces.Dict = inner["observation"]  # type: ignore[assignment]
        self.observation_space = spaces.Dict({
            "board": planes["board"], "vector": planes["vector"], "action_mask": inner["action_mask"]})
        self.action_space: spaces.Discrete = spaces.Discrete(self.aec.actions)  # type: ignore[assignment]
        self.bots: dict[int, Bot] = {}
        if illegal_reward == "default":
            illegal_reward = -1.0 if reward == "win" else -100.0
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self._ended = False
        #: where the observation's board goes (:meth:`observe_into`): a seat-0 learner's encoder
        #: keeps its planes there, so that observing it copies nothing (the vector env sets this)
        self.board_into: np.ndarray[Any, np.dtype[np.uint8]] | None = None

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63))
        rng = random.Random(game_seed)
        self.seat = rng.randrange(self.aec.players) if self.fixed_seat is None else self.fixed_seat
        others = [s for s in range(self.aec.players) if s != self.seat]
        self.bots = {s: make_bot(spec, seed=rng.randrange(2**32)) for s, spec in zip(others, self.opponents,
                                                                                    strict=True)}
        self.aec.planes_into = self.board_into if self.seat == 0 else None   # (seat 0: the planes' order)
        self.aec.reset(seed=game_seed)
        self._ended = False
        self._play_bots()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        reward, terminated, illegal = self.act(action)
        if illegal:
            info = self._info()
            info["illegal_action"] = int(action)
            obs = {k: v.copy() for k, v in self._obs().items()}   # new arrays, as for every step
            return obs, reward, True, False, info
        truncated = False   # a game always ends: it has a fixed number of tiles
        return self._obs(), reward, terminated, truncated, self._info()

    def act(self, action: int) -> tuple[float, bool, bool]:
        """:meth:`step` without the observation and the info: play ``action`` and the bots'
        moves up to the learner's next decision (or draw); return ``(reward, terminated,
        illegal)``."""
        me = self.aec.possible_agents[self.seat]
        if self._ended or self.aec.terminations[me]:
            raise RuntimeError("the game is over: call reset()")
        if self.aec.is_chance():
            raise RuntimeError("a tile is to be drawn: see chance_outcomes() and step_chance()")
        a = int(action)
        mask = self.aec._mask
        if not (0 <= a < len(mask) and mask[a]):
            if self.illegal_reward is None:
                raise ValueError(f"action {a} is not legal now: see the action mask")
            self._ended = True
            return self.illegal_reward, True, True
        if self.aec.render_mode == "human":   # (the AEC env's step renders the learner's move)
            self.aec.step(a)
            return self._after_learner(me)
        # the learner's move, then the bots' up to the learner's next decision: the mask and
        # agent are made once, after the last (not for a bot's decision, which needs no mask)
        self.aec.act(a, settle=False)
        if not self._play_bots():
            self.aec.settle(accumulate=True)   # (only the learner moved: as the AEC env's step)
        return self._outcome(me)

    def _after_learner(self, me: str) -> tuple[float, bool, bool]:
        self._play_bots()
        return self._outcome(me)

    def _outcome(self, me: str) -> tuple[float, bool, bool]:
        terminated = self.aec.terminations[me]
        reward = self.aec.final_rewards.get(me, 0.0) if terminated else 0.0
        return float(reward), bool(terminated), False

    def _play_bots(self) -> bool:
        """The bots' moves up to the learner's decision (or a draw, or the end), then (if a bot
        moved) the AEC env's settling; whether a bot moved."""
        aec = self.aec
        assert aec.game is not None and aec.encoder is not None
        state = aec.game.state
        moved = False
        while not state.is_over and not state.is_chance and state.player != self.seat:
            aec.play(self.bots[state.player].choose(state), settle=False)
            moved = True
        if moved:
            aec.settle()
        return moved

    # ------------------------------------------------------------------ chance

    def is_chance(self) -> bool:
        """Whether a tile is to be drawn now (only with ``explicit_chance=True``)."""
        return self.aec.is_chance()

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        """``(tile id, probability)`` of each tile the due draw may bring (empty unless
        :meth:`is_chance`; see :mod:`huntgather.rl.chance`)."""
        return self.aec.chance_outcomes()

    def step_chance(self, tile: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Draw ``tile``, one of :meth:`chance_outcomes`, then let the bots move up to the
        learner's next decision or the next draw; returns what :meth:`step` returns."""
        me = self.aec.possible_agents[self.seat]
        if self._ended or self.aec.terminations[me]:
            raise RuntimeError("the game is over: call reset()")
        self.aec.step_chance(tile)
        reward, terminated, _ = self._after_learner(me)
        return self._obs(), reward, terminated, False, self._info()

    def observe_into(self, board: np.ndarray[Any, Any], vector: np.ndarray[Any, Any],
                     mask: np.ndarray[Any, Any]) -> None:
        """Write the learner's observation into given arrays (of the spaces' shapes and
        dtypes), without making new ones: what :meth:`step` returns as ``obs``."""
        aec = self.aec
        assert aec.encoder is not None, "reset() first"
        aec.encoder.observe_into(self.seat, board, vector)
        if aec.agent_selection == aec.possible_agents[self.seat]:   # as observe() of the AEC env
            mask[:] = aec._mask
        else:
            mask[:] = 0

    def _obs(self) -> dict[str, Any]:
        me = self.aec.possible_agents[self.seat]
        inner = self.aec.observe(me)
        return {"board": inner["observation"]["board"], "vector": inner["observation"]["vector"],
                "action_mask": inner["action_mask"]}

    def _info(self) -> dict[str, Any]:
        me = self.aec.possible_agents[self.seat]
        infos = self.aec.full_infos().get(me, {})
        info = {k: (list(v) if isinstance(v, list) else v) for k, v in infos.items()}
        info["action_mask"] = self.action_masks()
        info["seat"] = self.seat
        if self.aec.is_chance():
            info["chance"] = True   # whoever's draw it is (a bot's too)
        return info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal actions now, as booleans."""
        me = self.aec.possible_agents[self.seat]
        return np.asarray(self.aec.observe(me)["action_mask"], dtype=bool)

    def render(self) -> str | None:
        return self.aec.render()
