"""The vector environment (huntgather.rl.vector) and chance outcomes for planners (huntgather.rl.chance)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

from huntgather.moves import Draw  # noqa: E402
from huntgather.rl import vector_env  # noqa: E402
from huntgather.rl.aec import raw_env  # noqa: E402
from huntgather.rl.chance import chance_outcomes  # noqa: E402
from huntgather.rl.encoding import V  # noqa: E402
from huntgather.rl.gym_env import SingleAgentEnv  # noqa: E402
from huntgather.state import BONUS  # noqa: E402


def _random_actions(obs: dict, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per environment (0 where the mask is empty)."""
    return np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]])


# ---------------------------------------------------------------------- the vector environment


def test_spaces_and_shapes() -> None:
    envs = vector_env(num_envs=3, edition="2002", players=3, opponents=["random"])
    single = SingleAgentEnv(opponents=["random"], edition="2002", players=3)
    assert isinstance(envs, VectorEnv) and envs.num_envs == 3
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs, infos = envs.reset(seed=1)
    assert obs in envs.observation_space
    assert obs["board"].shape == (3, *single.observation_space["board"].shape)
    assert obs["board"].dtype == np.uint8 and obs["vector"].dtype == np.float32
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (3, single.action_space.n)
    assert infos["seat"].tolist() == [0, 0, 0] and infos["_seat"].all()
    masks = envs.action_masks()
    assert masks.dtype == bool and (masks == obs["action_mask"].astype(bool)).all()
    rng = np.random.default_rng(0)
    obs, rewards, terminations, truncations, _ = envs.step(_random_actions(obs, rng))
    assert obs in envs.observation_space
    assert rewards.shape == terminations.shape == truncations.shape == (3,)
    assert rewards.dtype == np.float64 and terminations.dtype == truncations.dtype == np.bool_
    with pytest.raises(ValueError, match="shape"):
        envs.step(np.zeros(2, dtype=np.int64))


def test_each_environment_plays_the_game_of_a_single_env_seeded_seed_plus_i() -> None:
    envs = vector_env(num_envs=2, opponents=["random"], seat=None)
    singles = [SingleAgentEnv(opponents=["random"], seat=None) for _ in range(2)]
    obs, _ = envs.reset(seed=10)
    single_obs = [s.reset(seed=10 + i)[0] for i, s in enumerate(singles)]
    rng = np.random.default_rng(3)
    for _ in range(30):
        for i in range(2):
            for key in ("board", "vector", "action_mask"):
                assert (obs[key][i] == single_obs[i][key]).all(), key
        actions = _random_actions(obs, rng)
        obs, rewards, *_ = envs.step(actions)
        for i, s in enumerate(singles):
            single_obs[i], reward, *_ = s.step(int(actions[i]))
            assert reward == rewards[i]


def _plain_step(env: SingleAgentEnv, action: int) -> tuple[float, bool]:
    """A learner step the plain way: the AEC env's step (which makes the mask of the decision
    after the learner's move, a bot's too), then the bots' moves."""
    me = env.aec.possible_agents[env.seat]
    env.aec.step(action)
    reward, done, _ = env._after_learner(me)
    return reward, done


@pytest.mark.parametrize("window", [15, 33])
def test_a_learner_step_moves_the_window_as_the_aec_step_does(window: int) -> None:
    """SingleAgentEnv.step makes no mask for a bot's decision (Encoder.keep_window instead): the
    window moves at the same decisions, so the observations, masks and rewards are the same as
    with the AEC env's step, which made that mask."""
    recentred = 0
    for seed in range(6):
        fast = SingleAgentEnv(opponents=["random"], window=window, seat=None)
        plain = SingleAgentEnv(opponents=["random"], window=window, seat=None)
        obs, _ = fast.reset(seed=seed)
        plain.reset(seed=seed)
        rng = random.Random(seed)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            # the first legal action builds lines that leave the window
            action = int(legal[0]) if seed % 2 else int(rng.choice(legal))
            obs, reward, done, _, _ = fast.step(action)
            assert (reward, done) == _plain_step(plain, action)
            expected = plain._obs()
            for key in ("board", "vector", "action_mask"):
                assert (obs[key] == expected[key]).all(), key
            a, b = fast.aec.encoder, plain.aec.encoder
            assert (a.ox, a.oy, a.recentred, a.overflows) == (b.ox, b.oy, b.recentred, b.overflows)
            assert fast.aec._cumulative_rewards == plain.aec._cumulative_rewards
        recentred += fast.aec.encoder.recentred
    assert recentred > 0 if window == 15 else True   # the small window moved


def _run(envs, seed: int, steps: int) -> list:
    rng = np.random.default_rng(seed)
    obs, _ = envs.reset(seed=seed)
    trace = []
    for _ in range(steps):
        obs, rewards, terminations, _, _ = envs.step(_random_actions(obs, rng))
        trace.append((obs["board"].sum(axis=(1, 2, 3)).tolist(), obs["vector"].tolist(), rewards.tolist(),
                      terminations.tolist()))
    return trace


def test_one_seed_fixes_every_game_of_the_run_autoresets_included() -> None:
    a = _run(vector_env(num_envs=2, opponents=["random"], seat=None), 4, 120)
    b = _run(vector_env(num_envs=2, opponents=["random"], seat=None), 4, 120)
    assert any(t for step in a for t in step[3])   # games ended and restarted in the run
    assert a == b
    c = _run(vector_env(num_envs=2, opponents=["random"], seat=None), 5, 120)
    assert a != c


def _until_a_game_ends(envs, rng):
    obs, _ = envs.reset(seed=0)
    for _ in range(500):
        before = obs
        obs, rewards, terminations, _, infos = envs.step(_random_actions(obs, rng))
        if terminations.any():
            return before, obs, rewards, terminations, infos
    raise AssertionError("no game ended")


def test_next_step_autoreset() -> None:
    envs = vector_env(num_envs=2, opponents=["random"])
    rng = np.random.default_rng(1)
    _, obs, rewards, terminations, infos = _until_a_game_ends(envs, rng)
    i = int(np.flatnonzero(terminations)[0])
    scores = infos["scores"][i]
    assert infos["_scores"][i] and rewards[i] == scores[0] - scores[1]
    assert not obs["action_mask"][i].any()               # the game's last observation: nothing to do
    assert obs["vector"][i][V["normal_left"]] == 0
    actions = _random_actions(obs, rng)
    actions[i] = 123_456                                 # ignored: this step starts the next game
    obs, rewards, terminations, _, infos = envs.step(actions)
    assert rewards[i] == 0 and not terminations[i] and infos["_seat"][i]
    assert obs["action_mask"][i].any() and obs["vector"][i][V["turn"]] <= 1
    assert obs["vector"][i][V["normal_left"]] > 60


def test_same_step_autoreset() -> None:
    envs = vector_env(num_envs=2, opponents=["random"], autoreset_mode="SameStep")
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    _, obs, _, terminations, infos = _until_a_game_ends(envs, np.random.default_rng(1))
    i = int(np.flatnonzero(terminations)[0])
    assert infos["_final_obs"].tolist() == terminations.tolist()
    final = infos["final_obs"][i]
    assert final["vector"][V["normal_left"]] == 0 and not final["action_mask"].any()
    assert (infos["final_info"][i]["scores"] == infos["scores"][i]).all()
    assert obs["vector"][i][V["normal_left"]] > 60 and obs["action_mask"][i].any()   # the next game


def test_disabled_autoreset_leaves_the_reset_to_the_caller() -> None:
    envs = vector_env(num_envs=2, opponents=["random"], autoreset_mode=AutoresetMode.DISABLED)
    rng = np.random.default_rng(1)
    _, obs, _, terminations, _ = _until_a_game_ends(envs, rng)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(_random_actions(obs, rng))
    envs2 = vector_env(num_envs=2, opponents=["random"], autoreset_mode=AutoresetMode.DISABLED)
    _, obs, _, terminations, _ = _until_a_game_ends(envs2, rng)
    obs, infos = envs2.reset(options={"reset_mask": terminations.copy()})
    assert infos["_seat"].tolist() == terminations.tolist()
    envs2.step(_random_actions(obs, rng))


def test_an_illegal_action_ends_that_game_only() -> None:
    envs = vector_env(num_envs=2, opponents=["random"])
    obs, _ = envs.reset(seed=3)
    actions = _random_actions(obs, np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    _, rewards, terminations, _, infos = envs.step(actions)
    assert terminations.tolist() == [False, True] and rewards[1] == -100
    assert infos["illegal_action"][1] == actions[1] and infos["_illegal_action"].tolist() == [False, True]


def test_copy_false_returns_the_batch_buffers() -> None:
    envs = vector_env(num_envs=2, opponents=["random"], copy=False)
    obs, _ = envs.reset(seed=0)
    again, *_ = envs.step(_random_actions(obs, np.random.default_rng(0)))
    assert again["board"] is obs["board"]
    # the boards are the encoders' own planes: a learner cannot scribble on the next observation
    assert not again["board"].flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        again["board"][0, 0, 0, 0] = 1
    copied = vector_env(num_envs=2, opponents=["random"])
    obs, _ = copied.reset(seed=0)
    again, *_ = copied.step(_random_actions(obs, np.random.default_rng(0)))
    assert again["board"] is not obs["board"]


# ---------------------------------------------------------------------- chance outcomes


@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_a_game_played_by_choosing_the_draws_reaches_the_end(edition: str) -> None:
    stacks: set = set()
    for seed in (2, 3, 4):   # games until both stacks were drawn from
        e = SingleAgentEnv(opponents=["random"], players=3, edition=edition, explicit_chance=True, seat=None)
        rng = random.Random(seed)
        obs, info = e.reset(seed=seed)
        draws = 0
        done = False
        while not done:
            state = e.aec.game.state
            if e.is_chance():
                assert info.get("chance") and not obs["action_mask"].any()
                outcomes = e.chance_outcomes()
                tiles = [t for t, _ in outcomes]
                stack = state.normal if state.stack != BONUS else state.bonus
                stacks.add(state.stack)
                assert sorted(tiles) == sorted(stack) and len(set(tiles)) == len(tiles)
                assert all(p == pytest.approx(1 / len(stack)) for _, p in outcomes)
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                with pytest.raises(RuntimeError, match="drawn"):
                    e.step(0)
                tile = rng.choice(tiles)
                before = len(e.aec.game.history)
                obs, _, done, _, info = e.step_chance(tile)   # the draw, then the bots' moves
                draws += 1
                state = e.aec.game.state
                assert e.aec.game.history[before] == Draw(tile)
                assert tile not in state.normal and tile not in state.bonus
                assert state.tile == tile or tile in state.board.where or tile in state.discarded
            else:
                assert e.chance_outcomes() == ()
                obs, _, done, _, info = e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        assert e.aec.game.state.is_over and "scores" in info
        assert draws == sum(isinstance(m, Draw) for m in e.aec.game.history)
        if stacks == {"normal", BONUS}:
            break
    assert stacks == {"normal", BONUS}


def test_drawn_tiles_replay_as_the_same_game() -> None:
    """The AEC env with explicit chance, a driver drawing from its own generator: the game
    is the one a Game with that draw order plays."""
    from huntgather.game import Game
    e = raw_env(players=2, explicit_chance=True)
    e.reset(seed=0)
    rng = random.Random(9)
    while e.agents:
        if e.is_chance():
            tiles = [t for t, _ in e.chance_outcomes()]
            e.step_chance(rng.choice(tiles))
            continue
        agent = e.agent_selection
        if e.terminations[agent]:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"]).tolist())))
    history = e.game.history
    again = Game.replay(e.game.initial, history)
    assert again.state.is_over and again.scores == e.game.scores
    with pytest.raises(ValueError, match="no tile"):
        e.step_chance(0)


def test_step_chance_refuses_a_tile_not_in_the_stack() -> None:
    e = raw_env(players=2, explicit_chance=True)
    e.reset(seed=0)
    assert e.is_chance() and e.infos[e.agent_selection]["chance"]
    with pytest.raises(ValueError, match="drawn"):
        e.step(0)
    start = e.game.state.board.grid  # the start tile is on the board, not in the stack
    assert start
    with pytest.raises(ValueError, match="not in the stack"):
        e.step_chance(10_000)
    assert chance_outcomes(e.game.state) == e.chance_outcomes()


def test_vector_env_refuses_explicit_chance() -> None:
    with pytest.raises(ValueError, match="explicit_chance"):
        vector_env(num_envs=2, explicit_chance=True)



def test_random_legal_actions_picks_as_a_per_row_choice_does() -> None:
    """The benchmark's picker (one flat nonzero over the batch) chooses, from the same random
    numbers, the action a plain per-row choice chooses; an empty row gives 0."""
    from huntgather.rl.benchmark import random_legal_actions

    data = np.random.default_rng(1)
    for _ in range(50):
        masks = (data.random((5, 37)) < data.random()).astype(np.int8)
        masks[data.integers(5)] = 0
        picked = random_legal_actions(masks, np.random.default_rng(2))
        draws = np.random.default_rng(2).random(5)
        for row, draw, action in zip(masks, draws, picked.tolist(), strict=True):
            legal = np.flatnonzero(row)
            assert action == (int(legal[int(draw * len(legal))]) if len(legal) else 0)


# ---------------------------------------------------------------------- regression pin


def _stepped_digest(mode: str, players: int, edition: str, num_envs: int, steps: int) -> tuple[str, int]:
    """A sha256 of every batched observation (board, vector, mask), reward, termination and
    final observation of a seeded vector env stepped with seeded random legal actions."""
    import hashlib

    from huntgather.rl.benchmark import random_legal_actions

    envs = vector_env(num_envs=num_envs, edition=edition, players=players, opponents=["random"], seat=None,
                      autoreset_mode=mode)
    rng = np.random.default_rng(5)
    digest = hashlib.sha256()
    obs, _ = envs.reset(seed=11)
    ended = 0
    for _ in range(steps):
        for key in ("board", "vector", "action_mask"):
            digest.update(obs[key].tobytes())
        obs, rewards, terminations, _, infos = envs.step(random_legal_actions(obs["action_mask"], rng))
        digest.update(rewards.tobytes())
        digest.update(terminations.tobytes())
        ended += int(terminations.sum())
        for i in np.flatnonzero(infos.get("_final_obs", [])):
            for key in ("board", "vector", "action_mask"):
                digest.update(infos["final_obs"][i][key].tobytes())
    for key in ("board", "vector", "action_mask"):
        digest.update(obs[key].tobytes())
    return digest.hexdigest(), ended


@pytest.mark.parametrize(("mode", "players", "edition", "num_envs", "steps", "expected"), [
    ("NextStep", 2, "2020", 3, 70, ("de4a6fa6f111ddde7ae1fbc02b77001aa1646ce12e611d0b3b250b4ae7ad7810", 3)),
    ("SameStep", 3, "2002", 2, 50, ("dd4a8727c9a36770e4c048744a39ac565476b55848696ea4e6f6c9b9b30b080e", 2)),
])
def test_observations_masks_and_rewards_are_those_of_the_pinned_run(
        mode: str, players: int, edition: str, num_envs: int, steps: int, expected: tuple[str, int]) -> None:
    """A regression pin, not a specification: the digests were recorded by running this very
    function on the tree before the speed work of issue 36 (commit a02daef, pure and compiled
    alike), so that a faster encoder or vector env must return byte for byte the same
    observations, masks, rewards and final observations (autoresets, game ends, seats drawn
    from the seed, both editions).  A change that alters the observations on purpose records
    new digests, and says so.  Recorded again once, for a fix: the last observation of a game
    that a placement ended now marks that placement in ``last_placed`` (the tree before marked
    the placement before it); nothing else differed, step by step."""
    assert _stepped_digest(mode, players, edition, num_envs, steps) == expected
