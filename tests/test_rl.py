"""The learning environment (issue 14): ecosystem checks, the exact mask, observations."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from huntgather.game import Game  # noqa: E402
from huntgather.moves import Occupy, Pass, Place, TakeBack  # noqa: E402
from huntgather.rl import env  # noqa: E402
from huntgather.rl.encoding import PLANES, VECTOR, Encoder, transform  # noqa: E402
from huntgather.rl.gym_env import SingleAgentEnv  # noqa: E402
from huntgather.state import IllegalMoveError  # noqa: E402

P = {name: i for i, name in enumerate(PLANES)}
V = {name: i for i, name in enumerate(VECTOR)}


# ---------------------------------------------------------------------- the ecosystem's own checks


@pytest.mark.parametrize(("edition", "players"), [("2020", 2), ("2002", 5)])
def test_pettingzoo_api_test(edition: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # "observation is not a NumPy array": it is a dict of them
        api_test(env(edition=edition, players=players), num_cycles=150)


@pytest.mark.parametrize(("edition", "players"), [("2002", 2), ("2020", 4)])
def test_pettingzoo_seed_test(edition: str, players: int) -> None:
    seed_test(lambda: env(edition=edition, players=players), num_cycles=150)


def test_gymnasium_check_env() -> None:
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(SingleAgentEnv(opponents=["random"]), skip_render_check=True)
        check_env(SingleAgentEnv(opponents=["greedy", "random"], players=3, seat=None, edition="2002"),
                  skip_render_check=True)


# ---------------------------------------------------------------------- the mask is exact


def _check_mask(enc: Encoder, rng: random.Random) -> list:
    """Every legal move is unmasked and maps back to itself; every unmasked action is legal;
    a sample of masked actions is illegal."""
    state = enc.state
    moves, mask = enc.legal()
    assert mask.shape == (enc.actions,)
    unmasked = np.flatnonzero(mask)
    assert len(unmasked) == len(moves) == len(set(moves))
    assert {enc.encode(m) for m in moves} == {int(a) for a in unmasked}
    for a in unmasked:
        move = enc.decode(int(a))
        assert move in moves
        state.check(move)      # raises if illegal
    for a in rng.sample(range(enc.actions), 40):
        if not mask[a]:
            # refused as illegal (a KeyError or any other error would be a crash, not a refusal;
            # the reasons are as many as the rules, so the message is not matched)
            with pytest.raises(IllegalMoveError):
                state.check(enc.decode(a))
    return moves


@pytest.mark.engine
@pytest.mark.parametrize("edition", ["2020", "2002"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mask_is_exact_over_many_games(edition: str, players: int) -> None:
    # random moves, and two degenerate policies that build long lines (the first and the last
    # legal move): these leave the window and exercise re-centring and the overflow numbering
    overflows = 0
    for seed, policy, window in [(1, "random", 33), (2, "random", 33), (3, "first", 33), (4, "last", 33),
                                 (5, "random", 15), (6, "last", 15)]:
        game = Game(players, edition=edition, seed=seed * 10 + players)
        enc = Encoder(game.state, window=window)
        rng = random.Random(seed)
        while not game.is_over:
            moves = _check_mask(enc, rng)
            move = (moves[0] if policy == "first" else moves[-1] if policy == "last"
                    else moves[rng.randrange(len(moves))])
            tile = game.state.tile
            game.play(move)
            enc.update(move, tile)
        overflows += enc.overflows
        assert not enc.legal()[1].any()
    assert overflows > 0   # the small windows did overflow


def test_mask_covers_every_kind_of_move() -> None:
    kinds: set[type] = set()
    for seed in range(80):   # the shaman is one bonus tile: a take-back is rare
        if len(kinds) == 4:
            break
        game = Game(2, seed=seed)
        enc = Encoder(game.state)
        rng = random.Random(seed)
        while not game.is_over:
            moves, mask = enc.legal()
            kinds |= {type(m) for m in moves}
            assert all(mask[enc.encode(m)] and enc.decode(enc.encode(m)) == m for m in moves)
            move = moves[rng.randrange(len(moves))]
            tile = game.state.tile
            game.play(move)
            enc.update(move, tile)
    assert kinds == {Place, Occupy, Pass, TakeBack}


def test_overflow_numbering_in_reading_order_when_the_torus_collides() -> None:
    listed = 0
    for seed in range(10):
        game = Game(2, seed=seed)
        enc = Encoder(game.state, window=15)
        while not game.is_over:
            moves, mask = enc.legal()
            if enc.vector(0)[V["window_listed"]]:
                listed += 1
                cells = sorted({(m.x, m.y) for m in moves if isinstance(m, Place)},
                               key=lambda c: (c[1], c[0]))
                assert [enc.cell_index(*c) for c in cells] == list(range(len(cells)))
                assert int(mask.sum()) == len(moves)
            move = moves[-1]
            tile = game.state.tile
            game.play(move)
            enc.update(move, tile)
    assert listed > 0


def test_window_too_small_to_number_every_cell_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 14 cells"):
        Encoder(Game(2, seed=1).state, window=13)


# ---------------------------------------------------------------------- observations


def _play_with_encoder(game: Game, enc: Encoder, moves_rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        moves, _ = enc.legal()
        move = moves[moves_rng.randrange(len(moves))]
        tile = game.state.tile
        events = game.play(move)
        enc.update(move, tile, events)


@pytest.mark.engine
@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_incremental_planes_equal_planes_rebuilt_from_scratch(edition: str) -> None:
    for seed in range(4):
        game = Game(2 + seed, edition=edition, seed=seed)
        enc = Encoder(game.state)
        rng = random.Random(seed)
        while not game.is_over:
            _play_with_encoder(game, enc, rng, 1)
            incremental = enc.planes.copy()
            enc.rebuild()
            assert (incremental == enc.planes).all()


def _plain(enc) -> tuple:
    """An encoder whose planes the plain code made from scratch (``Encoder.rebuild``, one
    ``_cell`` per tile) in the same window, the legal moves, and the mask made from
    ``state.legal_moves()`` through ``encode``."""
    plain = Encoder(enc.state.copy(), enc.window)
    plain.last = enc.last
    plain.ox, plain.oy = enc.ox, enc.oy
    plain.rebuild()
    plain.wrapped, plain._listed, plain._cells = enc.wrapped, enc._listed, enc._cells
    mask = np.zeros(enc.actions, dtype=np.int8)
    moves = enc.state.legal_moves()
    if moves:
        mask[[enc.encode(m) for m in moves]] = 1
    return plain, moves, mask


@pytest.mark.engine
@pytest.mark.parametrize(("edition", "players"), [("2020", 2), ("2002", 4)])
def test_incremental_observations_and_masks_equal_the_plain_ones(edition: str, players: int) -> None:
    """Over a few hundred positions of random games (the moves' events given, as the envs do),
    the incremental planes, the mask made from the board's placements and the legal moves equal
    what the plain code makes from scratch, for every seat."""
    from huntgather.events import OccupantsReturned
    positions = returned = 0
    recentred = 0
    for seed, window in ((0, 33), (1, 15)):   # the small window moves (its planes are rebuilt)
        game = Game(players, edition=edition, seed=seed)
        enc = Encoder(game.state, window)
        rng = random.Random(seed)
        while not game.is_over:
            mask = enc.legal_mask()
            moves, same_mask = enc.legal()
            assert same_mask is mask
            plain_enc, plain_moves, plain_mask = _plain(enc)
            for seat in range(players):
                obs, plain = enc.observe(seat), plain_enc.observe(seat)
                assert (obs["board"] == plain["board"]).all() and (obs["vector"] == plain["vector"]).all()
            assert moves == plain_moves and (mask == plain_mask).all()
            positions += 1
            move = moves[rng.randrange(len(moves))]
            tile = game.state.tile
            events = game.play(move, trusted=True)
            returned += any(isinstance(e, OccupantsReturned) for e in events)
            enc.update(move, tile, events)
        plain_enc, _, _ = _plain(enc)   # the end: the final scoring sent every piece home
        assert (enc.observe(0)["board"] == plain_enc.observe(0)["board"]).all()
        last = [m for m in game.history if isinstance(m, Place)][-1]   # (even the one that ended it)
        assert enc.last == (last.x, last.y)
        recentred += enc.recentred
    assert positions > 200 and returned > 5   # the path after meeples go home was taken
    assert recentred > 0


def test_observation_does_not_depend_on_the_hidden_order_of_the_stacks() -> None:
    tiles = Game(3, seed=0).state.edition.tiles
    first = list(tiles.normal_ids)
    random.Random(5).shuffle(first)
    second = first[:12] + list(reversed(first[12:]))      # the same first 12 draws, then not
    a = Game(3, seed=1, normal_order=first)
    b = Game(3, seed=2, normal_order=second)
    ea, eb = Encoder(a.state), Encoder(b.state)
    rng = random.Random(3)
    differed = False
    while not a.is_over:
        drawn = sum(1 for m in a.history if type(m).__name__ == "Draw")
        ma, mask_a = ea.legal()
        mb, mask_b = eb.legal()
        same = a.state.tile == b.state.tile and drawn <= 12
        if same:
            assert ma == mb and (mask_a == mask_b).all()
            for seat in range(3):
                oa, ob = ea.observe(seat), eb.observe(seat)
                assert (oa["board"] == ob["board"]).all() and (oa["vector"] == ob["vector"]).all()
        else:
            differed = differed or not (ea.observe(0)["vector"] == eb.observe(0)["vector"]).all()
            break
        move = ma[rng.randrange(len(ma))]
        ta, tb = a.state.tile, b.state.tile
        a.play(move)
        b.play(move)
        ea.update(move, ta)
        eb.update(move, tb)
    assert differed   # the check above can see a difference when there is one


def test_observation_ignores_the_order_in_which_the_state_lists_the_stacks() -> None:
    game = Game(2, seed=9)
    _play_with_encoder(game, Encoder(game.state), random.Random(1), 30)
    shuffled = game.state.copy()
    order = list(shuffled.normal)
    random.Random(2).shuffle(order)
    shuffled.normal = tuple(order)
    for seat in range(2):
        oa, ob = Encoder(game.state).observe(seat), Encoder(shuffled).observe(seat)
        assert (oa["board"] == ob["board"]).all() and (oa["vector"] == ob["vector"]).all()


def test_observation_is_relative_to_the_observer() -> None:
    game = Game(3, seed=4)
    enc = Encoder(game.state)
    _play_with_encoder(game, enc, random.Random(4), 60)
    scores = game.state.scores
    for seat in range(3):
        v = enc.observe(seat)["vector"]
        assert list(v[V["score_p0"]:V["score_p0"] + 3]) == [scores[(seat + k) % 3] for k in range(3)]
        assert v[V["seated_p3"]] == 0 and v[V["seated_p2"]] == 1
    # a piece of seat 1 is "p0" for seat 1 and "p2" for seat 2
    b1, b2 = enc.observe(1)["board"], enc.observe(2)["board"]
    assert (b1[P["piece_meeple_p0"]] == b2[P["piece_meeple_p2"]]).all()
    assert b1[P["piece_meeple_p0"]].sum() + b1[P["piece_hut_p0"]].sum() == \
        5 + 3 - game.state.meeples[1] - game.state.huts[1]


def _placement_fits(obs: dict, action: int, window: int) -> bool:
    """Whether the tile pictured in the vector, turned as the action says, matches the
    neighbours' sides drawn in the planes, on a frontier cell."""
    board, vector = obs["board"], obs["vector"]
    cell, r = divmod(action, 4)
    i, j = divmod(cell, window)
    if not board[P["frontier"], i, j]:
        return False
    picture = [next(k for k, kind in enumerate(("forest", "river", "meadow"))
                    if vector[V[f"tile_{kind}_{'NESW'[d]}"]]) for d in range(4)]
    for d, (di, dj) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
        ni, nj = i + di, j + dj
        if not (0 <= ni < window and 0 <= nj < window) or not board[P["tile"], ni, nj]:
            continue
        back = "NESW"[(d + 2) % 4]
        theirs = next(k for k, kind in enumerate(("forest", "river", "meadow"))
                      if board[P[f"{kind}_{back}"], ni, nj])
        if picture[(d - r) % 4] != theirs:
            return False
    return True


def test_symmetries_map_moves_to_matching_moves() -> None:
    w = 15
    game = Game(2, seed=8)
    enc = Encoder(game.state, window=w)
    rng = random.Random(8)
    checked = 0
    while checked < 6:
        _play_with_encoder(game, enc, rng, 1)
        moves, mask = enc.legal()
        if not moves or not isinstance(moves[0], Place) or enc.vector(0)[V["window_wrapped"]]:
            continue
        obs = dict(enc.observe(0), action_mask=mask)
        fits = [enc.encode(m) for m in moves]
        assert all(_placement_fits(obs, a, w) for a in fits)
        for turns in range(4):
            for flip in (False, True):
                new, _ = transform(obs, None, turns, flip, w)
                mapped = [transform(obs, a, turns, flip, w)[1] for a in fits]
                assert all(_placement_fits(new, a, w) for a in mapped)
                assert set(np.flatnonzero(new["action_mask"])) == set(mapped)
                # and a placement that does not fit still does not fit
                others = [a for a in range(4 * w * w) if not mask[a]][:200]
                assert not any(_placement_fits(new, transform(obs, a, turns, flip, w)[1], w)
                               for a in others if _placement_fits(obs, a, w) is False and
                               obs["board"][P["frontier"]].flat[a // 4])
        back, _ = transform(transform(obs, None, 1, True, w)[0], None, 0, True, w)
        turned, _ = transform(back, None, 3, False, w)
        assert (turned["board"] == obs["board"]).all() and (turned["vector"] == obs["vector"]).all()
        checked += 1


# ---------------------------------------------------------------------- rewards and the wrapper


def _play_out(e, rng: random.Random) -> None:
    while e.agents:
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("reward", ["margin", "win"])
def test_rewards_come_at_the_end(reward: str) -> None:
    e = env(players=3, reward=reward)
    e.reset(seed=11)
    rng = random.Random(0)
    seen = {a: 0.0 for a in e.possible_agents}
    while e.agents:
        agent = e.agent_selection
        obs, r, terminated, truncated, _ = e.last()
        seen[agent] += r
        assert not truncated
        if not terminated:
            assert r == 0
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    scores = e.unwrapped.game.scores
    for seat, agent in enumerate(e.possible_agents):
        best_other = max(s for k, s in enumerate(scores) if k != seat)
        if reward == "margin":
            assert seen[agent] == scores[seat] - best_other
        else:
            mine = scores[seat]
            assert seen[agent] == (1 if mine > best_other else 0 if mine == best_other else -1)


def test_reset_with_a_seed_replays_the_same_game() -> None:
    runs = []
    for _ in range(2):
        e = env(edition="2002", players=2)
        e.reset(seed=21)
        _play_out(e, random.Random(4))
        runs.append(e.unwrapped.game.history)
    assert runs[0] == runs[1]
    e.reset(seed=22)
    _play_out(e, random.Random(4))
    assert e.unwrapped.game.history != runs[0]


def test_an_illegal_action_is_refused() -> None:
    e = env()
    e.reset(seed=1)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    g = SingleAgentEnv(opponents=["random"])
    g.reset(seed=1)
    _, reward, terminated, _, info = g.step(illegal)
    assert terminated and reward == -100 and info["illegal_action"] == illegal


def test_single_agent_env_plays_its_seat_against_bots() -> None:
    e = SingleAgentEnv(opponents=["greedy"], players=2, seat=None)
    rng = np.random.default_rng(0)
    seats = set()
    for seed in range(3):
        obs, info = e.reset(seed=seed)
        seats.add(info["seat"])
        done = False
        while not done:
            assert e.aec.game.state.player == e.seat   # the bots have moved
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, terminated, truncated, info = e.step(action)
            done = terminated or truncated
        scores = info["scores"]
        assert reward == scores[e.seat] - scores[1 - e.seat]
    assert seats == {0, 1}


# ---------------------------------------------------------------------- self-play data and Ray


def _load(path: str) -> dict:
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def test_selfplay_files_hold_consistent_decisions(tmp_path) -> None:
    from huntgather.rl.selfplay import run_selfplay
    paths = run_selfplay(["greedy", "random"], games=3, out=tmp_path, chunk=2, seed=5)
    assert [p.rsplit("/", 1)[1] for p in paths] == ["chunk-000000.npz", "chunk-000001.npz"]
    games = 0
    for path in paths:
        d = _load(path)
        n = len(d["action"])
        assert d["board"].shape[0] == d["vector"].shape[0] == d["mask"].shape[0] == n
        masks = np.unpackbits(d["mask"], axis=1)[:, :5 * 33 * 33 + 21]
        assert masks[np.arange(n), d["action"]].all()          # every recorded action was legal
        for g, scores in zip(sorted(set(d["game"])), d["scores"], strict=True):
            rows = d["game"] == g
            seats = d["seat"][rows]
            best = [s - max(o for k, o in enumerate(scores) if k != p) for p, s in enumerate(scores)]
            assert list(d["margin"][rows]) == [best[p] for p in seats]
            # the observation's "to move" entry is the mover itself
            assert (d["vector"][rows][:, V["to_move_p0"]] == 1).all()
            games += 1
    assert games == 3


def test_local_and_ray_runs_give_the_same_games(tmp_path) -> None:
    pytest.importorskip("ray")
    from huntgather.lab.tournament import run_tournament
    from huntgather.rl.cluster import RayExecutor
    from huntgather.rl.selfplay import run_selfplay

    local = run_tournament(["greedy", "random"], games=4, seed=3)
    local_paths = run_selfplay(["random"], games=4, out=tmp_path / "local", chunk=2, seed=3, players=3)
    executor = RayExecutor("local", num_cpus=2)
    try:
        on_ray = run_tournament(["greedy", "random"], games=4, seed=3, executor=executor)
        ray_paths = run_selfplay(["random"], games=4, out=tmp_path / "ray", chunk=2, seed=3, players=3,
                                 executor=executor)
    finally:
        executor.shutdown()
    assert on_ray.as_dict() == local.as_dict()
    assert len(local_paths) == len(ray_paths) == 2
    for a, b in zip(local_paths, ray_paths, strict=True):
        da, db = _load(a), _load(b)
        assert sorted(da) == sorted(db)
        for key in da:
            assert np.array_equal(da[key], db[key]), key


# ---------------------------------------------------------------------- the example that learns


@pytest.mark.lab
def test_the_example_policy_learns_to_beat_the_random_bot() -> None:
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "examples" / "train_masked_policy.py"
    spec = importlib.util.spec_from_file_location("train_masked_policy", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    untrained = example.win_rate(np.zeros(example.FEATURES), 30, 1_000_000)
    theta = example.train(60, seed=0)
    trained = example.win_rate(theta, 30, 1_000_000)
    assert trained > untrained and trained >= 0.6
    # it learned to put pieces down rather than pass
    assert theta[12] < 0


# ---------------------------------------------------------------------- the command line


def test_selfplay_command_writes_chunks_and_resumes(tmp_path, capsys) -> None:
    from huntgather.cli import main
    out = tmp_path / "data"
    args = ["selfplay", "--bots", "random", "--games", "3", "--chunk", "2", "--out", str(out),
            "--edition", "2002", "--players", "3"]
    assert main(args) == 0
    first = sorted(p.name for p in out.iterdir())
    assert first == ["chunk-000000.npz", "chunk-000001.npz"]
    stamp = (out / "chunk-000000.npz").stat().st_mtime_ns
    assert main(args) == 0      # finished chunks are kept, not played again
    assert (out / "chunk-000000.npz").stat().st_mtime_ns == stamp
    assert main(["selfplay", "--bots", "clever", "--out", str(out)]) == 2
    assert "unknown bot" in capsys.readouterr().err


def test_commands_without_the_rl_extra_say_what_to_install(tmp_path) -> None:
    import subprocess
    import sys
    code = ("import sys; sys.modules['numpy'] = None; sys.modules['ray'] = None\n"
            "from huntgather.cli import main\n"
            f"a = main(['selfplay', '--games', '1', '--out', {str(tmp_path)!r}])\n"
            "b = main(['tournament', '--bots', 'random', '--games', '2', '--ray', 'auto'])\n"
            "c = main(['tiles', '--edition', '2002'])\n"
            "print(a, b, c)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip().splitlines()[-1] == "2 2 0"
    assert done.stderr.count("install huntgather[rl]") == 2
