"""The PettingZoo AEC environment.

>>> from huntgather.rl.aec import env
>>> e = env(edition="2002", players=2)
>>> e.reset(seed=5)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"]["board"].shape, int(obs["action_mask"].sum()) == len(info["legal_moves"])
((74, 33, 33), True)
>>> while e.agents:
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
...     e.step(action)
>>> sorted(e.unwrapped.final_rewards) == ["player_0", "player_1"]
True
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from huntgather.editions import get_edition
from huntgather.game import Game
from huntgather.moves import Draw, Move
from huntgather.rl import chance
from huntgather.rl.encoding import OPTIONS, PLANES, VECTOR, Encoder
from huntgather.state import State

#: with re-centring, this window held every legal placement of 100,000 measured random games (docs/rl.md)
DEFAULT_WINDOW = 33
REWARDS = ("margin", "win")


class raw_env(AECEnv[str, dict[str, Any], int | None]):
    """Carcassonne: Hunters and Gatherers for 2-5 agents ``player_0 …``, seat order.

    * ``edition``: ``"2020"`` or ``"2002"``; ``players``: 2-5.
    * ``reward``: ``"margin"`` (at the end, own score minus the best other
      seat's score) or ``"win"`` (+1 sole best, 0 a shared best, -1 otherwise).
      Every other step rewards 0.
    * ``window``: the side of the square board window of the action space and
      the observation planes (default 33; see :mod:`huntgather.rl.encoding`).
    * ``explicit_chance``: see below.

    The tile draws are chance moves made inside the environment from
    ``random.Random(seed)`` of :meth:`reset`; the agents only ever see
    decisions (placing, the shaman's take-back, an occupant).  With
    ``explicit_chance=True`` the environment makes no draw itself: it stops at
    every draw (:meth:`is_chance`; the seat whose draw it is is selected, its
    mask all zeros, ``infos[agent]["chance"]`` True), :meth:`chance_outcomes`
    lists the tiles it may bring with their probabilities, and
    :meth:`step_chance` draws the tile a planner chose (PettingZoo's API test
    does not apply to that mode: an agent is selected that has no action).  ``infos`` of
    the agent to move hold ``legal_moves`` (the engine's moves, in action
    order of the engine's list) and ``action_mask``.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "huntgather_v0",
                                          "is_parallelizable": False}

    def __init__(self, edition: str = "2020", players: int = 2, render_mode: str | None = None,
                 reward: str = "margin", window: int = DEFAULT_WINDOW, explicit_chance: bool = False) -> None:
        super().__init__()
        ed = get_edition(edition)
        if not ed.min_players <= players <= ed.max_players:
            raise ValueError(f"the {ed.name} edition is for {ed.min_players}-{ed.max_players} players, "
                             f"not {players}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.edition = ed.name
        self.players = players
        self.render_mode = render_mode
        self.reward_kind = reward
        self.window = window
        self.explicit_chance = explicit_chance
        self.possible_agents = [f"player_{i}" for i in range(players)]
        actions = 5 * window * window + 21 + OPTIONS
        board = spaces.Box(0, 255, (len(PLANES), window, window), dtype=np.uint8)
        vector = spaces.Box(0.0, 10_000.0, (len(VECTOR),), dtype=np.float32)
        self.actions = actions
        self.spaces_dict = self._observation_space = spaces.Dict({
            "observation": spaces.Dict({"board": board, "vector": vector}),
            "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8)})
        self._action_space = spaces.Discrete(actions)
        self._seed_source = random.Random()
        self.game: Game | None = None
        self.encoder: Encoder | None = None
        self.final_rewards: dict[str, float] = {}
        #: leave the legal moves out of ``infos`` until :meth:`full_infos` asks (the mask is made
        #: without them; the vector environment, which never shows them, sets this)
        self.lean = False
        self._lean_infos = False
        self._moves: list[Move] | None = []
        self._mask: np.ndarray[Any, np.dtype[np.int8]] = np.zeros(actions, dtype=np.int8)
        #: an array the next games' encoders keep their planes in (``Encoder(planes=...)``), or None
        self.planes_into: np.ndarray[Any, np.dtype[np.uint8]] | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    # ------------------------------------------------------------------ lifecycle

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; the same ``seed`` gives the same draws (and, with the same
        actions, the same game).  Without a seed, the next seed of the generator seeded by
        the last seed given (or by the operating system)."""
        if seed is not None:
            self._seed_source = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seed_source.randrange(2**63)
        if self.explicit_chance:   # no draw made: the game waits at its first draw
            self.game = Game.replay(State.new(self.players, self.edition), [])
            self.game.seed = game_seed
            self.game.keep_events = self.game.explain = False
        else:
            # (the encoder reads what each move's events say happened, as they come: the game keeps
            # no log of them, and makes them without the words that explain them)
            self.game = Game(self.players, edition=self.edition, seed=game_seed, keep_events=False,
                             explain=False)
        self.encoder = Encoder(self.game.state, self.window, self.planes_into)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.final_rewards = {}
        self._observed: dict[str, dict[str, Any]] = {}
        self._after_move()

    def close(self) -> None:
        self.game = None
        self.encoder = None

    # ------------------------------------------------------------------ observing

    def observe(self, agent: str) -> dict[str, Any]:
        """``{"observation": {"board", "vector"}, "action_mask"}`` for ``agent``; the mask is
        all zeros unless it is ``agent``'s decision."""
        found = self._observed.get(agent)
        if found is not None:
            return found
        assert self.encoder is not None, "reset() first"
        seat = self.possible_agents.index(agent)
        if agent == self.agent_selection:
            mask = self._mask.copy()
        else:
            mask = np.zeros(self._action_space.n, dtype=np.int8)
        obs = {"observation": self.encoder.observe(seat), "action_mask": mask}
        self._observed[agent] = obs
        return obs

    # ------------------------------------------------------------------ acting

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to move.  An action outside the mask raises
        ``ValueError`` (the game is unchanged)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None and self.encoder is not None, "reset() first"
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents whose game has ended")
        if self.game.state.is_chance:
            raise ValueError("a tile is to be drawn: see chance_outcomes() and step_chance()")
        a = int(action)
        if not (0 <= a < self._action_space.n and self._mask[a]):
            what = self.encoder.decode(a) if 0 <= a < self._action_space.n else "outside the space"
            raise ValueError(f"action {a} ({what}) is not legal for {agent} now: see the action mask")
        self.act(a)
        if self.render_mode == "human":
            self.render()

    def act(self, action: int, settle: bool = True) -> None:
        """:meth:`step` for a driver that has checked ``action`` against the mask of the agent to
        move (not checked again).  ``settle=False`` as for :meth:`play`, for a driver that plays
        bots' moves next and needs the mask only after them: the window moves as :meth:`step`'s
        mask would have moved it (:meth:`Encoder.keep_window`), so that the planes are the same;
        :meth:`settle` then adds the move's rewards (:meth:`step`'s cumulative rewards) if no
        other move came between."""
        assert self.game is not None and self.encoder is not None, "reset() first"
        self._cumulative_rewards[self.agent_selection] = 0.0
        self.play(self.encoder.decode(action), settle)
        if settle:
            self._accumulate_rewards()
        elif not self.game.state.is_over:
            self.encoder.keep_window()

    def play(self, move: Move, settle: bool = True) -> None:
        """Apply ``move``, a legal move of the current decision (not checked: a bot's or a
        decoded action's), and bring the planes up to date.  ``settle=False`` leaves the mask,
        the agent selection and the infos for a later :meth:`settle` (a driver that plays
        several bot moves in a row needs them only after the last)."""
        assert self.game is not None and self.encoder is not None, "reset() first"
        tile = self.game.state.tile
        # with explicit chance, follow() plays the move without the draws that follow it
        events = self.game.follow([move]) if self.explicit_chance else self.game.play(move, trusted=True)
        self.encoder.update(move, tile, events)
        if settle:
            self._after_move()

    def settle(self, accumulate: bool = False) -> None:
        """The agent to move, its mask and infos, after moves played with ``settle=False``
        (``accumulate``: and the rewards into the cumulative rewards, as :meth:`step` does)."""
        self._after_move()
        if accumulate:
            self._accumulate_rewards()

    # ------------------------------------------------------------------ chance

    def is_chance(self) -> bool:
        """Whether a tile is to be drawn now (only ever with ``explicit_chance=True``)."""
        return self.game is not None and self.game.state.is_chance

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        """``(tile id, probability)`` of each tile the due draw may bring (see
        :func:`huntgather.rl.chance.chance_outcomes`); empty unless :meth:`is_chance`."""
        assert self.game is not None, "reset() first"
        return chance.chance_outcomes(self.game.state)

    def step_chance(self, tile: int) -> None:
        """Draw ``tile`` (one of :meth:`chance_outcomes`), as the stack would have."""
        assert self.game is not None and self.encoder is not None, "reset() first"
        if not self.game.state.is_chance:
            raise ValueError("no tile is to be drawn now")
        outcomes = self.game.state.chance_outcomes()
        if tile not in outcomes:
            raise ValueError(f"tile {tile} is not in the stack the draw comes from")
        self.play(Draw(tile))

    def _after_move(self) -> None:
        """Set the agent to move, its mask, and the end of the game."""
        assert self.game is not None and self.encoder is not None
        self._observed = {}
        self._clear_rewards()
        state = self.game.state
        if state.is_over:
            self._mask = np.zeros(self._action_space.n, dtype=np.int8)
            self._moves = []
            self._finish()
            return
        self._mask = self.encoder.legal_mask()
        self._moves = None
        self.agent_selection = self.possible_agents[state.player]
        for a in self.agents:
            self.infos[a] = {}
        if self.lean:
            self._lean_infos = True
            return
        self._fill_infos()

    def _fill_infos(self) -> None:
        """The infos of the agent to move: its legal moves and mask (and the chance flag)."""
        assert self.game is not None and self.encoder is not None
        self._lean_infos = False
        if self.game.state.is_over:
            return
        self._moves = self.encoder.legal()[0]
        self.infos[self.agent_selection] = {"legal_moves": self._moves, "action_mask": self._mask}
        if self.game.state.is_chance:
            self.infos[self.agent_selection]["chance"] = True

    def full_infos(self) -> dict[str, dict[str, Any]]:
        """:attr:`infos`, with the legal moves that a :attr:`lean` environment leaves out
        until asked."""
        if self._lean_infos:
            self._fill_infos()
        return self.infos

    def _finish(self) -> None:
        assert self.game is not None
        scores = self.game.scores
        for seat, a in enumerate(self.possible_agents):
            others = max(s for k, s in enumerate(scores) if k != seat)
            if self.reward_kind == "margin":
                value = float(scores[seat] - others)
            else:
                value = 1.0 if scores[seat] > others else 0.0 if scores[seat] == others else -1.0
            self.rewards[a] = value
            self.final_rewards[a] = value
            self.terminations[a] = True
            self.infos[a] = {"scores": scores}

    # ------------------------------------------------------------------ rendering

    def render(self) -> str | None:
        """A text picture of the window: one character per cell (``F`` forest, ``R`` river,
        ``M`` meadow: the most frequent side of the tile; ``.`` an empty cell next to a tile),
        and the state's one-line summary."""
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        assert self.game is not None and self.encoder is not None
        planes = self.encoder.planes
        rows = []
        p = {name: i for i, name in enumerate(PLANES)}
        for i in range(self.window):
            line = []
            for j in range(self.window):
                if planes[p["tile"], i, j]:
                    counts = [int(planes[p[f"{k}_N"]:p[f"{k}_N"] + 4, i, j].sum())
                              for k in ("forest", "river", "meadow")]
                    line.append("FRM"[counts.index(max(counts))])
                else:
                    line.append("." if planes[p["frontier"], i, j] else " ")
            rows.append("".join(line).rstrip())
        while rows and not rows[-1]:
            rows.pop()
        while rows and not rows[0]:
            rows.pop(0)
        text = "\n".join(rows) + "\n" + repr(self.game.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def env(**kwargs: Any) -> Any:
    """:class:`raw_env` wrapped in PettingZoo's order-enforcing wrapper (as PettingZoo advises)."""
    e = raw_env(**kwargs)
    return wrappers.OrderEnforcingWrapper(e)
