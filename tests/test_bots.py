"""Bots: legal, reproducible, blind to the hidden draw order, never mutating; tournament and analyse."""

from __future__ import annotations

import json
import math
import random
import zlib
from typing import Any

import pytest

from huntgather import Game, State, TileDrawn
from huntgather.bots import LEVELS, Limits, MctsBot, analyse, make_bot, spec_names
from huntgather.bots.analysis import analyse_record, position_before
from huntgather.bots.base import estimated_plans, plan_tile, turn_plans
from huntgather.bots.heuristic import Estimator, estimate
from huntgather.cli import main
from huntgather.deals import deal_orders
from huntgather.game import random_game
from huntgather.lab.tournament import GameResult, elo_ratings, line_up, run_tournament
from huntgather.moves import Draw, Pass, Place, TakeBack
from huntgather.record import write_record
from huntgather.state import OCCUPY

EDITIONS = ("2020", "2002")
PLAYERS = (2, 3, 4, 5)


# --------------------------------------------------------------------------- legality


@pytest.mark.engine
@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", PLAYERS)
def test_random_and_greedy_play_whole_games_legally(edition: str, players: int) -> None:
    seats = [make_bot(spec, seed=players * 10 + k)
             for k, spec in enumerate(["greedy", "random", "greedy", "random", "greedy"][:players])]
    game = Game(players, edition=edition, seed=players)
    while not game.is_over:
        move = seats[game.decision.player].choose(game.state)
        assert move in game.legal_moves()
        game.play(move)
    assert game.is_over


@pytest.mark.engine
@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", PLAYERS)
def test_every_bot_answers_every_kind_of_decision_legally(edition: str, players: int) -> None:
    # Along a random game, ask every bot (the search with a tiny budget) at the shaman
    # decisions and at every 9th decision; they must answer with one of the legal moves.
    bots = [make_bot("random", seed=1), make_bot("greedy", seed=1), make_bot("mcts:3", seed=1)]
    game = Game(players, edition=edition, seed=100 + players)
    rng = random.Random(players)
    asked = 0
    phases = set()
    while not game.is_over:
        legal = game.legal_moves()
        if game.decision.special == "shaman" or asked % 9 == 0:
            phases.add(game.decision.phase)
            for bot in bots:
                assert bot.choose(game.state) in legal
        asked += 1
        game.play(legal[rng.randrange(len(legal))])
    assert {"place", "occupy"} <= phases


def test_bots_refuse_chance_nodes_and_finished_games() -> None:
    state = State.new(players=2)
    assert state.is_chance
    for spec in ("random", "greedy", "mcts:5"):
        with pytest.raises(ValueError, match="chance node"):
            make_bot(spec, seed=0).choose(state)
    over = random_game(2, seed=1).state
    with pytest.raises(ValueError, match="game is over"):
        make_bot("greedy", seed=0).choose(over)


# --------------------------------------------------------------------------- reproducibility


def positions(count: int, seed: int = 7, edition: str = "2020", players: int = 2) -> list[State]:
    """States at several points of one random game."""
    game = Game(players, edition=edition, seed=seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while not game.is_over and len(out) < count:
        if step % 11 == 3:
            out.append(game.state.copy())
        legal = game.legal_moves()
        game.play(legal[rng.randrange(len(legal))])
        step += 1
    return out


@pytest.mark.engine
@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:12", "mcts:12:3"])
def test_same_seed_and_state_give_the_same_move(spec: str) -> None:
    states = positions(4)
    first = [make_bot(spec, seed=42).choose(s) for s in states]
    # a fresh bot, and the same bot asked in another order, agree
    assert [make_bot(spec, seed=42).choose(s) for s in states] == first
    bot = make_bot(spec, seed=42)
    assert [bot.choose(s) for s in reversed(states)] == list(reversed(first))


def test_the_random_bot_plays_the_move_its_decision_key_names() -> None:
    """The random bot's move: ``legal_moves()[randrange(n)]`` from a KeyedStream started at
    ``decision_key(seed, state)``; the same whatever the hidden order of the stacks."""
    from huntgather.bots.base import KeyedStream, RandomBot, decision_key
    game = Game(3, edition="2002", seed=5)
    bot = RandomBot(seed=11)
    rng = random.Random(2)
    while not game.is_over:
        state = game.state
        moves = state.legal_moves()
        expected = moves[KeyedStream(decision_key(11, state)).randrange(len(moves))]
        assert bot.choose(state) == expected
        shuffled = state.copy()
        shuffled.normal = tuple(reversed(shuffled.normal))
        assert decision_key(11, shuffled) == decision_key(11, state)
        game.play(moves[rng.randrange(len(moves))])


def _plain_decision_key(seed: int, state: State) -> int:
    """decision_key's definition as a plain loop: h = h * FNV + (v mod 2**64) + 1, modulo 2**64,
    over the counters its docstring lists, from the seed; then SplitMix64's finaliser."""
    from huntgather.bots.base import _mix64
    names = {"place": 1, "special": 2, "occupy": 3}
    counters = [zlib.crc32(state.edition.name.encode()), state.players, state.turn,
                names.get(str(state.phase), 0), state.player, -1 if state.tile is None else state.tile,
                0 if state.asking is None else zlib.crc32(state.asking.encode()), len(state.normal),
                len(state.bonus), len(state.discarded), len(state.board.where),
                *state.scores, *state.meeples, *state.huts]
    h = seed % 2**64
    for v in counters:
        h = (h * 0x100000001B3 + v % 2**64 + 1) % 2**64
    return _mix64(h)


def test_decision_key_and_keyed_stream_are_their_plain_definitions() -> None:
    """The random bot's arithmetic (decision_key as one sum, KeyedStream.randrange without
    Random's layers) gives what the plain definitions give: the fold over the counters, and
    Random.randrange drawing KeyedStream.getrandbits' bits."""
    from huntgather.bots.base import KeyedStream, decision_key

    class PlainStream(random.Random):
        def __init__(self, key: int) -> None:
            super().__init__(0)
            self._at = key % 2**64

        getrandbits = KeyedStream.getrandbits   # (so Random.randrange's own _randbelow draws them)

    rng = random.Random(4)
    for edition, players in (("2020", 2), ("2002", 3), ("2020", 5)):
        game = Game(players, edition=edition, seed=players)
        while not game.is_over:
            state = game.state
            seed = rng.choice((0, 11, 2**64 - 1, -3, rng.getrandbits(70)))
            key = decision_key(seed, state)
            assert key == _plain_decision_key(seed, state)
            n = rng.choice((1, 2, 3, 7, 100, 2**63 + 5, 2**64 - 1, 2**64, 2**70))
            fast, plain = KeyedStream(key), PlainStream(key)
            assert [fast.randrange(n) for _ in range(3)] == [plain.randrange(n) for _ in range(3)]
            assert fast.randrange(-2, 9) == plain.randrange(-2, 9)   # (not the quick case)
            assert fast.getrandbits(64) == plain.getrandbits(64)     # left at the same point
            moves = state.legal_moves()
            game.play(moves[rng.randrange(len(moves))])


@pytest.mark.engine
def test_a_roll_out_sample_of_every_placement_is_the_full_roll_out() -> None:
    """rollout_placements at least the number of placements changes nothing; fewer still give
    legal, reproducible answers."""
    for state in positions(3, seed=21)[1:]:
        if state.is_chance:
            continue
        full = MctsBot(Limits(simulations=20), seed=5, rollout_placements=None).search(state)
        wide = MctsBot(Limits(simulations=20), seed=5, rollout_placements=10_000).search(state)
        assert (wide.moves, wide.plans) == (full.moves, full.plans)
        few = [MctsBot(Limits(simulations=20), seed=5, rollout_placements=2).search(state) for _ in range(2)]
        assert few[0].moves == few[1].moves and few[0].simulations == 20
        assert all(move in state.legal_moves() for move, _, _ in few[0].moves)


def test_the_search_reproduces_its_whole_view() -> None:
    state = positions(2)[1]
    a = analyse(state, top=10, limit=15, seed=3)
    b = analyse(state, top=10, limit=15, seed=3)
    assert a == b


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:12"])
def test_choice_ignores_the_hidden_draw_order(spec: str, rules: Any) -> None:
    # Two games reach the same position through the same history, but their stacks are
    # in different orders (their futures differ).  A bot sees only the state, which holds
    # the contents of the stacks and not their order, so it must choose the same move.
    first = Game(2, seed=1)
    rng = random.Random(5)
    for _ in range(12):
        legal = first.legal_moves()
        first.play(legal[rng.randrange(len(legal))])
    normal = [e.tile for e in first.events if isinstance(e, TileDrawn) and e.stack == "normal"]
    bonus = [e.tile for e in first.events if isinstance(e, TileDrawn) and e.stack == "bonus"]
    rest = list(first.state.normal)
    second = Game(2, seed=2, normal_order=normal + list(reversed(rest)), bonus_order=bonus)
    for move in first.history:
        if not isinstance(move, Draw):
            second.play(move)
    assert second.history == first.history
    assert rules.snapshot(second.state) == rules.snapshot(first.state)
    assert make_bot(spec, seed=9).choose(first.state) == make_bot(spec, seed=9).choose(second.state)
    # ... although the two futures differ: the same moves lead to different draws
    start = len(first.history)
    for game in (first, second):
        while not any(isinstance(m, Draw) for m in game.history[start:]):
            game.play(game.legal_moves()[0])
    draws = [[m for m in game.history[start:] if isinstance(m, Draw)] for game in (first, second)]
    assert draws[0] != draws[1]


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:12"])
def test_bots_do_not_change_the_state(spec: str, rules: Any) -> None:
    for state in positions(5, seed=11):
        before = rules.snapshot(state)
        make_bot(spec, seed=1).choose(state)
        assert rules.snapshot(state) == before


# --------------------------------------------------------------------------- heuristic


@pytest.mark.parametrize("edition", EDITIONS)
def test_incremental_estimate_equals_full_estimate(edition: str) -> None:
    for state in positions(6, seed=13, edition=edition, players=3):
        est = Estimator(state)
        for plan, after in turn_plans(state):
            tile = plan[0].tile if isinstance(plan[0], Place) else state.tile
            shaman = any(isinstance(m, TakeBack) for m in plan)
            quick = est(after, tile, full=shaman)
            assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(quick, estimate(after), strict=True))


@pytest.mark.engine
@pytest.mark.parametrize(("edition", "players"), [("2020", 2), ("2002", 3), ("2020", 4)])
def test_estimated_plans_are_each_plan_played_out_and_estimated(edition: str, players: int) -> None:
    """The search's plan values (occupants valued without a copy) are those of each plan played on
    a copy and estimated there, bit for bit; the state asked about is left as it was."""
    game = Game(players, edition=edition, seed=players)
    rng = random.Random(players)
    checked = 0
    while not game.is_over:
        state = game.state
        if not state.is_chance:
            before = state.copy()
            est = Estimator(state)
            # a take-back is estimated in full: estimate() itself, bit for bit
            played = [(plan, estimate(after) if any(isinstance(m, TakeBack) for m in plan)
                       else est(after, plan_tile(state, plan))) for plan, after in turn_plans(state)]
            assert estimated_plans(state) == played
            assert state == before
            checked += 1
        game.play(state.random_move(rng), trusted=True)
    assert checked > 100


def test_estimated_plans_for_some_first_moves() -> None:
    state = positions(3, seed=5)[2]
    while state.is_chance or len(state.legal_moves()) < 3:
        state.apply(state.random_move(random.Random(1)))
    moves = state.legal_moves()
    picked = [moves[0], moves[-1]]
    assert estimated_plans(state, picked) == [(plan, v) for plan, v in estimated_plans(state)
                                              if plan[0] in picked]


def test_estimate_by_hand(rules: Any) -> None:
    # Start tile 56 (2020): zone 0 meadow with an aurochs, 1 forest (sides E and S, so 2
    # open sides), 3 river into lake 8 (1 fish).  Red (seat 1) has a hunter on 56.0 and a
    # gatherer on 56.1; yellow (seat 0) a hut on the lake.  78 normal tiles are left, so
    # pieces in supply keep their full value (78 / 2 players / 8 turns >= 1).
    state = rules.position("tile 56 0,0 r0\noccupant 56.0 meeple 1\noccupant 56.1 meeple 1\n"
                           "occupant 56.8 hut 0", players=2)
    assert len(state.normal) == 78
    # yellow: 1 fish in the hut's river system + 5 meeples × 2.5 + 2 huts × 1 = 15.5
    # red: aurochs 2 + forest 1 tile × 2 × exp(−2·6/(78+2)) + 3 meeples × 2.5 + 3 huts × 1
    forest = 2 * math.exp(-12 / 80)
    assert estimate(state) == pytest.approx([15.5, 2 + forest + 7.5 + 3])


# --------------------------------------------------------------------------- specs


def test_every_spec_makes_a_named_bot() -> None:
    for spec in spec_names():
        bot = make_bot(spec, seed=0)
        # a level plays as the search it names: medium as mcts:medium, master as expert:deep
        named = (spec, f"mcts:{spec}", "mcts:medium")
        assert bot.name in named or (spec, bot.name) == ("master", "expert:deep")
    assert make_bot("mcts:37").name == "mcts:37"
    sampled = make_bot("mcts:40:8")
    assert isinstance(sampled, MctsBot) and sampled.name == "mcts:40:8"
    assert (sampled.limits.simulations, sampled.rollout_placements) == (40, 8)
    every = make_bot("mcts:40:all")
    assert isinstance(every, MctsBot) and every.rollout_placements is None


@pytest.mark.parametrize("spec", ["", "mcts:0", "mcts:-3", "mcts:fast", "alphazero", "mcts:40:0",
                                  "mcts:40:some", "mcts:0:8", "mcts::8"])
def test_unknown_specs_are_refused_clearly(spec: str) -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot(spec)


def test_levels_are_budgets_without_time_caps() -> None:
    sims = [LEVELS[name].simulations or 0 for name in ("easy", "medium", "hard")]
    assert sims == sorted(sims) and sims[0] > 0
    assert all(LEVELS[name].seconds is None for name in LEVELS)
    with pytest.raises(ValueError, match="needs a number of simulations"):
        Limits()
    with pytest.raises(ValueError, match="at least 1"):
        Limits(simulations=0)


# --------------------------------------------------------------------------- tournament


def test_elo_of_two_bots_by_hand() -> None:
    # a beats b 3 times, b beats a once; the prior adds one draw (0.5 each way):
    # Bradley–Terry gives gamma_a / gamma_b = 3.5 / 1.5, so the Elo gap is
    # 400·log10(7/3) = 147.2 and, centred on 1500, a = 1573.6 and b = 1426.4.
    games = [GameResult(0, 0, ("a", "b"), (10, 2))] * 3 + [GameResult(1, 0, ("a", "b"), (1, 2))]
    elo = elo_ratings(["a", "b"], games)
    assert elo["a"] == pytest.approx(1500 + 200 * math.log10(7 / 3), abs=0.05)
    assert elo["b"] == pytest.approx(1500 - 200 * math.log10(7 / 3), abs=0.05)


def test_deals_are_mirrored_with_seats_rotated() -> None:
    assert deal_orders("2020", 3, 1) == deal_orders("2020", 3, 1)
    normal, bonus = deal_orders("2020", 3, 1)
    tiles = Game(2, seed=0).state.edition.tiles
    assert sorted(normal) == list(tiles.normal_ids) and sorted(bonus) == list(tiles.bonus_ids)
    assert line_up(["a", "b", "c"], 2, 2) == ["c", "a"]
    result = run_tournament(["greedy", "random"], games=4, players=2, seed=5)
    seatings = {(g.deal, g.rotation): g.bots for g in result.games}
    # deal 1's line-up starts with the second bot; each deal is played from both seatings
    assert seatings == {(0, 0): ("greedy", "random"), (0, 1): ("random", "greedy"),
                        (1, 0): ("random", "greedy"), (1, 1): ("greedy", "random")}


@pytest.mark.engine
def test_greedy_beats_random() -> None:
    result = run_tournament(["greedy", "random"], games=4, players=2, seed=2)
    rows = {row.bot: row for row in result.rows}
    assert rows["greedy"].wins >= 3 and rows["greedy"].mean_score > rows["random"].mean_score


def test_tournament_json(capsys: pytest.CaptureFixture[str]) -> None:
    # 3 games of 3 players make one deal; its line-up (random, greedy, random) is played
    # from the 3 seat rotations: random fills 2 seats × 3 games = 6, greedy 3.
    code = main(["tournament", "--bots", "random,greedy", "--games", "3", "--players", "3",
                 "--seed", "4", "--edition", "2002", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == 3 and data["edition"] == "2002" and data["games"] == 3
    rows = {row["bot"]: row for row in data["bots"]}
    assert set(rows) == {"greedy", "random"}
    for row in rows.values():
        assert {"bot", "games", "wins", "mean_score", "elo", "elo_low", "elo_high"} <= set(row)
        assert 0 <= row["wins"] <= row["games"]
    assert rows["random"]["games"] == 6 and rows["greedy"]["games"] == 3
    # every game has at least one winner, and shared wins count for each
    assert sum(row["wins"] for row in rows.values()) >= data["games"]
    # random meets greedy twice per game (two random seats)
    assert [(p["bot"], p["opponent"], p["meetings"]) for p in data["pairs"]] == [("greedy", "random", 6)]
    assert [r["bots"] for r in data["results"]] == [["random", "greedy", "random"],
                                                    ["random", "random", "greedy"],
                                                    ["greedy", "random", "random"]]


def test_head_to_head_by_hand() -> None:
    from huntgather.lab.tournament import head_to_head
    games = [GameResult(0, 0, ("a", "b", "c"), (50, 40, 40)),   # a>b, a>c, b=c
             GameResult(0, 1, ("c", "a", "b"), (60, 10, 20)),   # c>a, b>a, c>b
             GameResult(1, 0, ("b", "b", "a"), (5, 30, 20))]    # b>a once, a>b once
    rows = {(r.bot, r.opponent): (r.wins, r.draws, r.losses) for r in head_to_head(["a", "b", "c"], games)}
    # a–b: won in game 1, lost in game 2, then one of each in game 3: 2 won, 0 drawn, 2 lost
    # a–c: won in game 1, lost in game 2; b–c: drawn in game 1, lost in game 2
    assert rows == {("a", "b"): (2, 0, 2), ("a", "c"): (1, 0, 1), ("b", "c"): (0, 1, 1)}


def test_wilson_interval_by_hand() -> None:
    from huntgather.lab.tournament import PairRow
    # 56 wins in 68: p = 0.82353, z = 1.96, z² = 3.8416, z²/n = 0.056494
    # centre = (p + z²/2n) / (1 + z²/n) = (0.82353 + 0.028247) / 1.056494 = 0.80621
    # half = z·sqrt(p(1−p)/n + z²/4n²) / (1 + z²/n) = 1.96·sqrt(0.0021375 + 0.0002077) / 1.056494
    #      = 1.96 · 0.048427 / 1.056494 = 0.089840  →  0.7164 … 0.8961
    low, high = PairRow("a", "b", 56, 0, 12).interval()
    assert low == pytest.approx(0.7164, abs=2e-4) and high == pytest.approx(0.8961, abs=2e-4)
    # draws count one half: 1 win + 2 draws + 1 loss in 4 is 50 %, an interval symmetric about it
    low, high = PairRow("a", "b", 1, 2, 1).interval()
    assert low + high == pytest.approx(1.0) and low < 0.5 < high


def test_tournament_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "greedy,random", "--games", "2", "--seed", "3", "--markdown"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "**2 games, 2 players, edition 2020, seed 3**"
    assert out[2] == "| bot | games | wins | win % | mean score | mean margin | Elo | 95% interval |"
    assert out[3] == "|---|---:|---:|---:|---:|---:|---:|---:|"
    rows = [line for line in out if line.startswith("| greedy |")]
    assert len(rows) == 2 and rows[0].split(" | ")[1:3] == ["2", "2"]  # two games, won both
    assert rows[1].split(" | ")[1:7] == ["random", "2", "2", "0", "0", "100.0"]
    assert main(["tournament", "--games", "2", "--json", "--markdown"]) == 2  # one output format


def test_tournament_table_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "random,random", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "Elo" in out and "random" in out and "head to head" not in out  # one bot: no pairs
    assert main(["tournament", "--bots", "greedy,random", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "head to head" in out and "opponent" in out
    assert main(["tournament", "--bots", "greedy,wizard", "--games", "2"]) == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err
    assert main(["tournament", "--players", "7"]) == 2
    assert "2-5 players" in capsys.readouterr().err


def test_tournament_log_resumes_and_extends(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "run.jsonl"
    args = ["tournament", "--bots", "greedy,random", "--players", "2", "--seed", "6", "--json",
            "--log", str(log)]
    assert main([*args, "--games", "4"]) == 0
    first = json.loads(capsys.readouterr().out)
    lines = log.read_text().splitlines()
    assert len(lines) == 1 + 4 and json.loads(lines[0])["bots"] == ["greedy", "random"]
    # extending to 6 games plays only deal 2 (two games) and keeps the four logged ones
    assert main([*args, "--games", "6"]) == 0
    extended = json.loads(capsys.readouterr().out)
    assert len(log.read_text().splitlines()) == 1 + 6
    assert extended["results"][:4] == first["results"] and extended["games"] == 6
    # the same as one uninterrupted run of 6 games (greedy and random have no time limit)
    assert main(["tournament", "--bots", "greedy,random", "--games", "6", "--seed", "6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == extended
    # a run with everything logged plays nothing and asks for fewer games: only deals 0-1 count
    assert main([*args, "--games", "3"]) == 0
    assert json.loads(capsys.readouterr().out)["results"] == first["results"]


def test_tournament_log_drops_a_line_cut_short(tmp_path: Any) -> None:
    log = tmp_path / "run.jsonl"
    games: list[GameResult] = []
    run_tournament(["greedy", "random"], games=2, seed=8, progress=games.append)
    header = {"format": "huntgather-tournament-log", "version": 1, "edition": "2020", "players": 2,
              "seed": 8, "bots": ["greedy", "random"]}
    g = games[0]
    whole = json.dumps({"deal": g.deal, "rotation": g.rotation, "bots": list(g.bots),
                        "scores": list(g.scores)})
    log.write_text(json.dumps(header) + "\n" + whole + "\n" + '{"deal": 0, "rot')
    played: list[GameResult] = []
    from huntgather.lab.tournament_log import TournamentLog
    opened = TournamentLog.open(str(log), edition="2020", players=2, seed=8, bots=["greedy", "random"])
    assert opened.games == [g]
    assert log.read_text() == json.dumps(header) + "\n" + whole + "\n"  # the cut line is gone
    result = run_tournament(["greedy", "random"], games=2, seed=8, progress=played.append,
                            done=opened.games)
    opened.close()
    assert len(played) == 1 and result.games == sorted(games, key=lambda x: x.rotation)


@pytest.mark.parametrize(("text", "message"), [
    ("hello\n", "is not a huntgather tournament log"),
    ('{"format": "huntgather-tournament-log", "version": 9}\n', "log version 9 is not supported"),
    ('{"format": "huntgather-tournament-log", "version": 1, "edition": "2020", "players": 2, '
     '"seed": 1, "bots": ["greedy", "random"]}\n', "with seed 1, not 6"),
    ('{"format": "huntgather-tournament-log", "version": 1, "edition": "2020", "players": 2, '
     '"seed": 6, "bots": ["random", "greedy"]}\n', "with bots random,greedy, not greedy,random"),
    ('{"format": "huntgather-tournament-log", "version": 1, "edition": "2020", "players": 2, '
     '"seed": 6, "bots": ["greedy", "random"]}\n{"deal": 0}\n', "line 2: not a game result"),
    ('{"format": "huntgather-tournament-log", "version": 1, "edition": "2020", "players": 2, '
     '"seed": 6, "bots": ["greedy", "random"]}\n{"deal": 0, "rotation": 0, "bots": ["greedy"], '
     '"scores": [1]}\n', "line 2: a game of 2 players needs 2 bots"),
    ('{"format": "huntgather-tournament-log", "version": 1, "edition": "2020", "players": 2, '
     '"seed": 6, "bots": ["greedy", "random"]}\n{"deal": 0, "rotation": 0, "bots": ["random", '
     '"greedy"], "scores": [1, 2]}\n', "game 0.0 with bots random,greedy is not a game of this"),
])
def test_tournament_log_errors(tmp_path: Any, capsys: pytest.CaptureFixture[str], text: str,
                               message: str) -> None:
    log = tmp_path / "run.jsonl"
    log.write_text(text)
    code = main(["tournament", "--bots", "greedy,random", "--games", "2", "--seed", "6",
                 "--log", str(log)])
    assert code == 2
    assert message in capsys.readouterr().err.replace("\n", " ")
    assert log.read_text() == text  # nothing appended to a log that is refused


def test_tournament_interrupted_keeps_the_logged_games(tmp_path: Any, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    import huntgather.lab.tournament as tournament

    def interrupted(*args: Any, progress: Any = None, **kwargs: Any) -> None:
        progress(GameResult(0, 0, ("greedy", "random"), (100, 20)))
        raise KeyboardInterrupt

    monkeypatch.setattr(tournament, "run_tournament", interrupted)
    log = tmp_path / "run.jsonl"
    assert main(["tournament", "--games", "4", "--log", str(log)]) == 130
    assert f"interrupted; {log} holds 1 finished game: run the same command" in capsys.readouterr().err
    assert json.loads(log.read_text().splitlines()[1])["scores"] == [100, 20]


def test_tournament_log_unwritable(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--games", "2", "--log", str(tmp_path)]) == 1
    assert "cannot use the log" in capsys.readouterr().err


@pytest.mark.engine
@pytest.mark.parametrize("bot", ["hard", "expert"])
def test_suggested_turns_are_whole_legal_turns(bot: str) -> None:
    from huntgather.bots import expert_bot, suggest_turns
    for edition in EDITIONS:
        for state in positions(4, seed=12, edition=edition, players=3):
            turns = suggest_turns(state, top=3, limit=15, seed=2, bot=bot)
            assert turns == suggest_turns(state, top=3, limit=15, seed=2, bot=bot)   # reproducible
            firsts = [moves[0] for moves, _, _ in turns]
            assert len(set(firsts)) == len(firsts) >= 1
            # the first moves of the turns are the search's best moves, in its order
            if bot == "hard":
                searched = analyse(state, top=3, limit=15, seed=2)
            else:
                searched = expert_bot(2, Limits(simulations=15)).search(state).moves[:3]
            assert firsts == [m for m, _, _ in searched]
            for (moves, value, visits), (_, _, first_visits) in zip(turns, searched, strict=True):
                # a turn is one line below its first move in the search: never visited more often
                assert 0 < value < 1 and 0 <= visits <= first_visits
                work = state.copy()
                for move in moves:
                    assert work.player == state.player and not work.is_chance
                    work.apply(move)   # raises if illegal
                # the turn is complete: a draw (next player or bonus turn) or the end follows
                assert work.is_chance or work.is_over


def test_master_is_the_deep_expert_under_another_name_offered_above_the_expert() -> None:
    # the master level plays expert:deep's games exactly (its tournament log is master's record):
    # the same name, hence the same random numbers, and the same move; with two players it looks
    # two rounds ahead where the expert looks one, so the two differ there
    from huntgather.bots import ExpertBot
    from huntgather.bots.registry import get_spec, offered_levels

    game = Game(players=2, seed=12)
    master, deep, expert = (make_bot(spec, seed=4) for spec in ("master", "expert:deep", "expert"))
    assert isinstance(master, ExpertBot) and isinstance(deep, ExpertBot) and isinstance(expert, ExpertBot)
    assert master.name == deep.name == "expert:deep"
    assert (master.rounds, deep.rounds) == (2, 2) and not isinstance(expert.rounds, int)
    assert expert.rounds(game.state) == 1
    assert master.choose(game.state) == deep.choose(game.state)
    spec = get_spec("master")
    # offered in the browser (the heavy lane, with twice the expert's safety net, as it thinks twice
    # as long) and on the ladder; test_ladder checks that the shipped ladder rates it
    expert_spec = get_spec("expert")
    assert spec is not None and expert_spec is not None and spec.ladder
    assert spec.lane == expert_spec.lane == "heavy"
    assert spec.safety_seconds == 2 * (expert_spec.safety_seconds or 0)
    assert offered_levels()[-2:] == ("expert", "master")   # the strongest last


def test_hints_come_from_the_hard_or_the_expert_search_only() -> None:
    from huntgather.bots import suggest_turns
    with pytest.raises(ValueError, match="not 'greedy'"):
        suggest_turns(positions(1, seed=1)[0], bot="greedy")


# --------------------------------------------------------------------------- analyse


def test_analyse_api() -> None:
    state = positions(3)[2]
    rows = analyse(state, top=4, limit=20, seed=1)
    legal = state.legal_moves()
    assert 1 <= len(rows) <= 4
    assert all(move in legal and 0.0 <= value <= 1.0 for move, value, _ in rows)
    # 20 simulations over this position's four moves try every one of them
    assert len(legal) == len(rows) == 4 and all(visits >= 1 for _, _, visits in rows)
    visits = [v for _, _, v in rows]
    assert visits == sorted(visits, reverse=True) and sum(visits) <= 20
    with pytest.raises(ValueError, match="top must be at least 1"):
        analyse(state, top=0)


def test_analyse_record_counts_player_decisions(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    game = random_game(2, seed=8)
    text = write_record(game)
    player_moves = [m for m in game.history if not isinstance(m, Draw)]
    state, played, k = position_before(text, 5)
    assert k == 5 and played == player_moves[4]
    assert played in state.legal_moves()
    report = analyse_record(text, 5, top=3, limits=Limits(simulations=10))
    assert report.played == player_moves[4] and len(report.moves) <= 3
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["analyse", str(path), "--move", "5", "--simulations", "10", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("decision 5:") and "visits" in out
    assert main(["analyse", str(path), "--move", "6", "--simulations", "10", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decision"] == 6 and data["played"] == str(player_moves[5])
    assert all({"move", "value", "visits"} <= set(row) for row in data["moves"])
    assert main(["analyse", str(path), "--move", str(len(player_moves) + 5)]) == 2
    assert f"has {len(player_moves)} player decisions" in capsys.readouterr().err
    assert main(["analyse", str(path), "--move", "0"]) == 2
    assert main(["analyse", str(tmp_path / "missing.txt")]) == 2


def test_pass_is_a_possible_answer_to_occupy() -> None:
    # Sanity for the search's plans: each occupy decision offers "-" as well.  Every prefix of a
    # plan that leaves the player to occupy must also be finished by a plain Pass.
    occupy_decisions = 0
    for state in positions(3):
        plans = {plan for plan, _ in turn_plans(state)}
        for plan in plans:
            s = state.copy()
            for k, move in enumerate(plan):
                if s.phase == OCCUPY:
                    occupy_decisions += 1
                    assert (*plan[:k], Pass()) in plans, plan
                s.apply(move)
    assert occupy_decisions > 0


@pytest.mark.engine
def test_bots_answer_the_shaman_decision() -> None:
    # This seeded random 3-player game reaches a shaman decision (found by playing it).
    game = Game(3, seed=103)
    rng = random.Random(3)
    while not game.is_over and game.decision.special != "shaman":
        legal = game.legal_moves()
        game.play(legal[rng.randrange(len(legal))])
    assert game.decision.special == "shaman"
    legal = game.legal_moves()
    assert any(isinstance(m, TakeBack) for m in legal) and Pass() in legal
    for spec in ("random", "greedy", "mcts:6"):
        assert make_bot(spec, seed=2).choose(game.state) in legal
    # at the shaman decision every plan starts with a take-back or a pass (then the occupant)
    assert all(isinstance(plan[0], (TakeBack, Pass)) for plan, _ in turn_plans(game.state))


def _documented_runs(doc: str) -> list[str]:
    """The tournament commands of a doc that read a committed log (an indented line each)."""
    return [line.strip() for line in doc.splitlines()
            if line.startswith("    huntgather tournament") and "--log docs/results/" in line]


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def test_documented_strength_tables_come_from_the_committed_logs(capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Each logged run of docs/bots.md and docs/results/NOTES.md (the history), rerun from its log
    (no game is played), prints its tables in the file that documents it; and every row of
    bots.md's status table, which names its log, says what that run's head-to-head row says."""
    import re
    import shlex
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    docs = {name: (root / "docs" / name).read_text() for name in ("bots.md", "results/NOTES.md")}
    runs = {name: _documented_runs(doc) for name, doc in docs.items()}
    assert sum(len(commands) for commands in runs.values()) == 32
    every = [command for commands in runs.values() for command in commands]
    # the status table: one row per run, its last cell the log's name
    status = {m.group(1): _cells(line) for line in docs["bots.md"].splitlines()
              if line.startswith("| ") and (m := re.search(r"`([\w.-]+\.jsonl)` \|$", line))}
    assert len(status) == 8
    # the commands bots.md lists beside it are documented runs, one for each row
    listed = [line for line in docs["bots.md"].splitlines() if line.startswith("huntgather tournament")]
    logs = [Path(shlex.split(c)[shlex.split(c).index("--log") + 1]).name for c in listed]
    assert sorted(logs) == sorted(status)
    assert all(command in every for command in listed)
    monkeypatch.chdir(root)
    import huntgather.lab.tournament as tournament

    def no_games(*args: Any) -> GameResult:
        raise AssertionError("a documented run was played again instead of read from its log")

    monkeypatch.setattr(tournament, "_play_job", no_games)
    checked: set[str] = set()
    for name, commands in runs.items():
        for command in commands:
            args = shlex.split(command)
            log = root / args[args.index("--log") + 1]
            before = log.read_bytes()
            assert main(args[1:]) == 0, command
            printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
            assert printed and all(line in docs[name] for line in printed), command
            assert log.read_bytes() == before
            row = status.get(log.name)
            if row is None:
                continue
            head = next(k for k, line in enumerate(printed) if line.startswith("| bot | opponent |"))
            pair = _cells(next(line for line in printed[head + 1:] if line.startswith("| expert | ")))
            _, opponent, meetings, won, drawn, lost, rate, interval = pair
            edition = args[args.index("--edition") + 1] if "--edition" in args else "2020"
            assert row[0] == f"{args[args.index('--players') + 1]}, {edition}", command
            assert row[1] == f"`{opponent.removeprefix('mcts:')}`", command
            assert row[3] == args[args.index("--games") + 1], command
            assert row[4:7] == [f"{won}–{drawn}–{lost}", f"{rate} %", f"{interval} %"], command
            assert int(meetings) == int(won) + int(drawn) + int(lost), command
            checked.add(log.name)
    assert checked == set(status)


def test_documented_search_speed_runs_come_from_the_committed_logs(capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The tournaments that docs/performance.md reports, rerun from their logs, print its tables."""
    import shlex
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    doc = (root / "docs" / "performance.md").read_text()
    commands = [line.strip() for line in doc.splitlines()
                if line.startswith("    huntgather tournament") and "--log docs/results/" in line]
    assert commands
    monkeypatch.chdir(root)
    import huntgather.lab.tournament as tournament

    def no_games(*args: Any) -> GameResult:
        raise AssertionError("a documented run was played again instead of read from its log")

    monkeypatch.setattr(tournament, "_play_job", no_games)
    for command in commands:
        assert main(shlex.split(command)[1:]) == 0, command
        printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
        assert printed and all(line in doc for line in printed), command


@pytest.mark.xdist_group("corpus")
@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_the_heuristic_and_the_engine_score_every_meadow_alike(edition: str, corpus: Any) -> None:
    """The bots' estimate of a meadow and the engine's final scoring share huntgather.scoring;
    on the final positions of 500 random games (125 each of 2–5 players, the shared corpus)
    they agree on every meadow."""
    from huntgather.bots.heuristic import contribution
    from huntgather.events import FinalScoring
    from huntgather.tiles import MEADOW

    meadows = 0
    for seed, game in ((s, g) for p in range(2, 6) for s, g in enumerate(corpus.games(edition, p))):
        final = next(e for e in game.events if isinstance(e, FinalScoring))
        board = game.state.board
        # one row per meadow with hunters, in the order of the meadows' ids (two meadows may
        # cover the very same tiles, so the tiles alone do not say which is which)
        ids = [fid for fid in board.feature_ids(MEADOW) if board.feature_by_id(fid).meeples]
        rows = [r for r in final.rows if r.kind == "hunters"]
        assert len(rows) == len(ids)
        for fid, row in zip(ids, rows, strict=True):
            assert tuple(sorted(board.feature_by_id(fid).tiles)) == row.tiles
            estimated = [0.0] * game.state.players
            for seat, points in contribution(game.state, fid):
                estimated[seat] += points
            assert estimated == [float(p) for p in row.points], (seed, row.explanation)
            meadows += 1
    assert meadows > 4500
