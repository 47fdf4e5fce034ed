"""Issue 15: reproducible levels, the learned evaluation, the expert level, train-eval."""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from huntgather import Game, State
from huntgather.bots import EXPERT, LEVELS, Limits, MctsBot, expert_bot, make_bot, spec_names
from huntgather.bots.expert import ExpertBot, halving_schedule
from huntgather.bots.heuristic import BONUS_TURN_VALUE, HUT_VALUE, MEEPLE_VALUE, SUPPLY_HORIZON, estimate
from huntgather.bots.learned import FEATURES, LinearEval, seat_features
from huntgather.bots.registry import get_spec, offered_levels, registered
from huntgather.cli import main
from huntgather.server import workers

F = {name: i for i, name in enumerate(FEATURES)}


def positions(players: int, edition: str = "2020", seed: int = 0, every: int = 7) -> list[State]:
    """Placement decisions of a greedy game, every ``every``-th one, and the final state."""
    game = Game(players, edition=edition, seed=seed)
    bot = make_bot("greedy", seed=seed)
    out = []
    k = 0
    while not game.is_over:
        if game.state.phase == "place":
            if k % every == 0:
                out.append(game.state.copy())
            k += 1
        game.play(bot.choose(game.state))
    out.append(game.state.copy())
    return out


def safety(level: str) -> float | None:
    """The server's safety net of a level, as registered."""
    spec = get_spec(level)
    assert spec is not None
    return spec.safety_seconds


class SlowClock:
    """A ``time.perf_counter`` on a machine so loaded that every call is 10 s later than the last."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 10.0
        return self.now


# --------------------------------------------------------------------------- reproducible levels


def test_levels_are_simulation_budgets_without_time_caps() -> None:
    assert all(limits.seconds is None and (limits.simulations or 0) > 0 for limits in LEVELS.values())
    assert EXPERT.seconds is None and (EXPERT.simulations or 0) > 0
    assert expert_bot().limits.seconds is None
    # selectable by name and offered to players; the paranoid variant is for measurements only
    assert {"expert", "expert:paranoid"} <= set(spec_names())
    assert "expert" in offered_levels() and "expert:paranoid" not in offered_levels()


def test_a_level_plays_the_same_move_on_a_slow_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the expert's search: test_the_expert_search_is_reproducible_and_ignores_the_clock)
    state = positions(2, seed=5)[2]
    bot = make_bot("easy", seed=11)
    assert isinstance(bot, MctsBot)
    quick = bot.search(state)
    monkeypatch.setattr("huntgather.bots.mcts.time.perf_counter", SlowClock())
    slow = bot.search(state)
    assert slow.simulations == quick.simulations > 1
    assert slow.moves == quick.moves and slow.plans == quick.plans


@pytest.mark.engine
def test_the_same_seed_and_position_give_the_same_move_from_a_fresh_bot() -> None:
    for state in positions(3, seed=2, every=11)[:3]:
        before = state.copy()
        moves = {make_bot("easy", seed=4).choose(state) for _ in range(2)}
        assert len(moves) == 1 and moves <= set(state.legal_moves())
        assert state == before


def test_the_server_keeps_a_time_limit_as_a_safety_net(monkeypatch: pytest.MonkeyPatch) -> None:
    state = positions(2, seed=5)[2]
    bot = workers.server_bot("easy", 3)
    assert isinstance(bot, MctsBot) and bot.limits.seconds == safety("easy") == 3.0
    assert bot.limits.simulations == LEVELS["easy"].simulations
    assert {s.name for s in registered() if s.safety_seconds is not None} <= set(offered_levels())
    monkeypatch.setattr("huntgather.bots.mcts.time.perf_counter", SlowClock())
    cut = bot.search(state)
    assert cut.simulations < (LEVELS["easy"].simulations or 0)
    assert workers.choose_move("easy", 3, state) in state.legal_moves()
    # the expert, offered in the browser, has one too
    expert = workers.server_bot("expert", 3)
    assert isinstance(expert, ExpertBot) and expert.limits.seconds == safety("expert") == 12.0
    assert expert.limits.simulations == EXPERT.simulations
    assert expert.search(state).simulations < (EXPERT.simulations or 0)


# --------------------------------------------------------------------------- features and the model


@pytest.mark.engine
@pytest.mark.parametrize(("players", "edition"), [(2, "2020"), (4, "2020"), (3, "2002")])
def test_the_features_add_up_to_the_heuristic_estimate(players: int, edition: str) -> None:
    # an independent check of the split by kind: the heuristic's own formula, rebuilt from the parts
    for state in positions(players, edition, seed=players)[:-1]:
        fade = min(1.0, len(state.normal) / state.players / SUPPLY_HORIZON)
        for p, row in enumerate(seat_features(state)):
            assert row[F["score"]] == state.scores[p]
            assert row[F["meeples"]] == state.meeples[p] and row[F["huts"]] == state.huts[p]
            rebuilt = (row[F["score"]] + row[F["forest_expected"]] + row[F["river_expected"]]
                       + row[F["meadow"]] + row[F["system"]]
                       + fade * (MEEPLE_VALUE * row[F["meeples"]] + HUT_VALUE * row[F["huts"]])
                       + BONUS_TURN_VALUE * row[F["bonus_turn"]])
            assert rebuilt == pytest.approx(estimate(state)[p], abs=1e-6)
            assert row[F["forest_expected"]] <= row[F["forest_now"]] + 1e-9
            assert 0.0 <= row[F["left"]] <= 1.0 and 0.0 <= row[F["turns_until"]] < 1.0


def test_the_turn_order_feature_counts_the_turns_until_each_seat_moves() -> None:
    state = positions(4, seed=1)[3]
    until = [row[F["turns_until"]] * 4 for row in seat_features(state)]
    assert until[state.player] == 0 and sorted(until) == [0, 1, 2, 3]
    assert until[(state.player + 1) % 4] == 1


def test_a_model_file_round_trips_and_refuses_other_formats(tmp_path: Path) -> None:
    weights = {"2020/2": [float(i) for i in range(len(FEATURES))]}
    model = LinearEval(weights, "t")
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model.to_json({"note": "x"})))
    again = LinearEval.load(str(path))
    assert again.version == "t" and list(again.weights["2020/2"]) == weights["2020/2"]
    data = model.to_json()
    with pytest.raises(ValueError, match="not a huntgather-eval-linear file"):
        LinearEval.from_json({**data, "version": 99})
    with pytest.raises(ValueError, match="features"):
        LinearEval.from_json({**data, "features": list(reversed(FEATURES))})
    with pytest.raises(ValueError, match="entries"):
        LinearEval({"2020/2": [1.0]})


@pytest.mark.engine
def test_the_model_is_a_dot_product_and_falls_back_where_it_has_no_weights() -> None:
    state = positions(2, seed=3)[5]
    only_meeples = [0.0] * len(FEATURES)
    only_meeples[F["meeples"]] = 2.0
    model = LinearEval({"2020/2": only_meeples})
    assert model(state) == [2.0 * m for m in state.meeples]
    three = positions(3, seed=3)[5]
    assert not model.covers(three) and model(three) == estimate(three)
    final = positions(2, seed=3)[-1]
    assert final.is_over and model(final) == [float(s) for s in final.scores]


@pytest.mark.lab
def test_the_shipped_model_covers_every_edition_and_count() -> None:
    # (its speed is measured in docs/bots.md, not asserted here)
    model = LinearEval.shipped()
    for edition, players in itertools.product(("2020", "2002"), (2, 3, 4, 5)):
        assert model.covers(State.new(players, edition))
        assert len(model(positions(players, edition, seed=8, every=40)[1])) == players


# --------------------------------------------------------------------------- the expert level


@pytest.mark.engine
def test_the_tree_search_can_use_the_learned_evaluation_at_its_leaves() -> None:
    state = positions(2, seed=6)[3]
    calls: list[State] = []

    def counting(s: State) -> list[float]:
        calls.append(s.copy())
        return LinearEval.shipped()(s)

    bot = MctsBot(Limits(simulations=10), seed=2, evaluate=counting)
    result = bot.search(state)
    assert result.moves[0][0] in state.legal_moves()
    assert 0 < len(calls) <= result.simulations
    # the roll-out ends at a player's decision, as the positions the model was fitted on
    assert all(not s.is_chance for s in calls)
    # the expert level itself values its leaves by the heuristic (the linear model played worse)
    default = expert_bot(seed=2, limits=Limits(simulations=10))
    assert isinstance(default, ExpertBot) and default.evaluate is None and default.name == "expert"


def test_expert_plays_without_numpy() -> None:
    code = ("import sys; sys.modules['numpy'] = None\n"
            "from huntgather import Game\nfrom huntgather.bots import make_bot, Limits\n"
            "g = Game(3, seed=1); b = make_bot('expert', seed=1); b.limits = Limits(simulations=6)\n"
            "print(b.choose(g.state) in g.legal_moves())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


# --------------------------------------------------------------------------- train-eval


def test_train_eval_without_numpy_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)
    monkeypatch.delitem(sys.modules, "huntgather.rl.train_eval", raising=False)
    assert main(["train-eval", "--games", "3", "--out", "x.json"]) == 2
    assert "install huntgather[rl]" in capsys.readouterr().err


@pytest.mark.parametrize("args", [["--games", "1"], ["--players", "6"], ["--players", "two"],
                                  ["--edition", "1999"], ["--bots", "nobody"], ["--explore", "2"]])
def test_train_eval_refuses_bad_arguments(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("numpy")
    assert main(["train-eval", "--out", "x.json", *args]) == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.lab
def test_train_eval_writes_a_model_that_learns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("numpy")
    out = tmp_path / "m.json"
    assert main(["train-eval", "--games", "6", "--players", "2", "--out", str(out), "--seed", "3"]) == 0
    model = LinearEval.load(str(out))
    assert set(model.weights) == {"2020/2"}
    meta = json.loads(out.read_text())["meta"]
    row = meta["held_out"]["2020/2"]
    assert row["train_games"] == 5 and row["test_positions"] > 0
    assert "held-out RMSE" in capsys.readouterr().err
    # the same arguments give the same file
    again = tmp_path / "again.json"
    assert main(["train-eval", "--games", "6", "--players", "2", "--out", str(again), "--seed", "3"]) == 0
    assert again.read_text() == out.read_text()


def test_the_fit_recovers_known_weights_from_noisy_data() -> None:
    np = pytest.importorskip("numpy")
    from huntgather.rl.train_eval import fit
    rng = np.random.default_rng(5)
    x = np.column_stack([np.ones(4000), rng.normal(size=(4000, 4)) * [1.0, 10.0, 0.1, 3.0]])
    truth = np.array([7.0, -2.0, 0.5, 30.0, 1.5])
    y = x @ truth + rng.normal(scale=0.1, size=4000)
    assert np.allclose(fit(x, y, ridge=0.0), truth, atol=0.05)
    # the ridge shrinks the weights but never the bias
    shrunk = fit(x, y, ridge=1.0)
    assert np.all(np.abs(shrunk[1:]) < np.abs(truth[1:])) and abs(shrunk[0] - 7.0) < 0.5


# ----------------------------------------------------------------- the expert search (bots/expert.py)


def test_halving_schedules_halve_the_field_and_keep_to_the_budget() -> None:
    for width, budget in itertools.product((2, 3, 5, 9, 12, 16), (24, 60, 150, 400)):
        rounds = halving_schedule(width, budget)
        fields = [size for size, _ in rounds]
        assert fields[0] == width and len(rounds) == math.ceil(math.log2(width))
        assert all(b == (a + 1) // 2 for a, b in itertools.pairwise(fields)) and fields[-1] == 2
        # every plan gets at least one sample a round, even if that overruns a tiny budget
        assert sum(size * samples for size, samples in rounds) <= max(budget, sum(fields))
        assert all(samples >= 1 for _, samples in rounds)


@pytest.mark.engine
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_the_expert_search_returns_legal_moves_and_leaves_the_state_alone(players: int, seed: int) -> None:
    for state in positions(players, seed=seed, every=13)[:-1][:3]:
        before = state.copy()
        bot = ExpertBot(Limits(simulations=12), seed=seed, width=4)
        result = bot.search(state)
        assert state == before
        assert result.moves[0][0] in state.legal_moves()
        assert 0 < result.simulations <= 12
        assert bot.choose(state) == result.moves[0][0]
        # and the occupy decision that follows its placement
        after = state.copy()
        after.apply(result.moves[0][0])
        if not after.is_chance and not after.is_over:
            assert bot.choose(after) in after.legal_moves()


@pytest.mark.engine
def test_the_expert_search_compares_the_surviving_plans_on_the_same_draws() -> None:
    state = positions(2, seed=4)[4]
    result = ExpertBot(Limits(simulations=60), seed=3, width=6).search(state)
    visits = [n for _, _, n in result.plans]
    # the two finalists got the same (largest) number of samples; a plan that left earlier fewer
    assert visits[0] == visits[1] == max(visits) > 0
    assert sorted(visits, reverse=True) == visits[:2] + sorted(visits[2:], reverse=True)
    assert sum(visits) == result.simulations <= 60
    assert len([n for n in visits if n]) == 6
    # the finalist played has the better mean
    assert result.plans[0][1] >= result.plans[1][1]


@pytest.mark.engine
def test_a_paranoid_reply_cuts_the_searchers_margin_and_a_max_n_one_raises_the_movers() -> None:
    from huntgather.bots.base import estimated_plans
    from huntgather.bots.expert import reply
    from huntgather.bots.heuristic import advantage
    for state in positions(3, seed=5, every=9)[1:5]:
        mover = state.player
        plans = list(estimated_plans(state))
        searcher = (mover + 1) % 3
        paranoid_plan, paranoid_values = reply(state, against=searcher)
        own_plan, own_values = reply(state)
        assert (paranoid_plan, paranoid_values) in plans and (own_plan, own_values) in plans
        assert advantage(paranoid_values, searcher) == min(advantage(v, searcher) for _, v in plans)
        assert advantage(own_values, mover) == max(advantage(v, mover) for _, v in plans)
        assert reply(state, against=mover) == (own_plan, own_values)   # the searcher's own turn


@pytest.mark.engine
def test_paranoid_and_max_n_are_one_search_in_two_players() -> None:
    """With one opponent, its best margin is the searcher's worst: the same samples, the same answer."""
    for state in positions(2, seed=8, every=15)[1:3]:
        # (one name: a bot's random draws depend on its name)
        maxn = ExpertBot(Limits(simulations=40), seed=2, name="x").search(state)
        paranoid = ExpertBot(Limits(simulations=40), seed=2, name="x", paranoid=True).search(state)
        assert paranoid.plans == maxn.plans and paranoid.moves == maxn.moves


@pytest.mark.engine
def test_with_two_players_the_meetings_objective_is_the_margin() -> None:
    """One opponent: the share of meetings won is the logistic of the margin over it, so the
    expert searches exactly as before the objective was added."""
    for state in positions(2, seed=8, every=15)[1:3]:
        margin = ExpertBot(Limits(simulations=40), seed=2, name="x").search(state)
        meetings = ExpertBot(Limits(simulations=40), seed=2, name="x", meetings=True).search(state)
        assert meetings.plans == margin.plans and meetings.moves == margin.moves


@pytest.mark.engine
def test_with_three_players_the_expert_plays_for_its_share_of_meetings() -> None:
    """The level's objective, checked by hand: estimates 30, 20 and 50 for seats 0-2 and the
    expert's scale 8. Meetings: seat 0 beats seat 1 by 10 and trails seat 2 by 20, so
    (1/(1+e^-1.25) + 1/(1+e^2.5)) / 2 = (0.7773 + 0.0759) / 2 = 0.4266; by the margin over the
    best other seat alone it would be 1/(1+e^2.5) = 0.0759."""
    expert, margin = make_bot("expert"), make_bot("expert:margin")
    assert isinstance(expert, ExpertBot) and isinstance(margin, ExpertBot)
    assert expert.meetings and not margin.meetings and margin.weights is expert.weights
    values = [30.0, 20.0, 50.0]
    assert expert._value(values, 0) == pytest.approx(0.4266, abs=1e-4)
    assert margin._value(values, 0) == pytest.approx(0.0759, abs=1e-4)
    # both objectives play legal moves
    state = positions(3, seed=5, every=17)[2]
    for bot in (ExpertBot(Limits(simulations=12), seed=1, width=4, meetings=True),
                ExpertBot(Limits(simulations=12), seed=1, width=4)):
        assert bot.choose(state) in state.legal_moves()


@pytest.mark.engine
def test_the_paranoid_expert_plays_legal_moves_with_three_and_four_players() -> None:
    assert make_bot("expert:paranoid").paranoid and not make_bot("expert").paranoid   # type: ignore[attr-defined]
    for players in (3, 4):
        for state in positions(players, seed=players, every=17)[1:3]:
            bot = ExpertBot(Limits(simulations=12), seed=1, width=4, paranoid=True)
            assert bot.choose(state) in state.legal_moves()


@pytest.mark.engine
def test_the_expert_search_is_reproducible_and_ignores_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    state = positions(3, seed=6)[3]
    quick = ExpertBot(Limits(simulations=16), seed=9, width=4).search(state)
    monkeypatch.setattr("huntgather.bots.expert.time.perf_counter", SlowClock())
    slow = ExpertBot(Limits(simulations=16), seed=9, width=4).search(state)
    assert slow.moves == quick.moves and slow.plans == quick.plans
    assert slow.simulations == quick.simulations
    # with a time limit (the server's safety net) a slow machine cuts the search short
    cut = ExpertBot(Limits(simulations=16, seconds=1.0), seed=9, width=4).search(state)
    assert 0 < cut.simulations < quick.simulations and cut.moves[0][0] in state.legal_moves()


@pytest.mark.engine
def test_the_expert_search_values_its_leaves_by_a_pluggable_evaluation() -> None:
    state = positions(2, seed=7)[3]
    calls: list[State] = []

    def counting(s: State) -> list[float]:
        calls.append(s.copy())
        return LinearEval.shipped()(s)

    result = ExpertBot(Limits(simulations=10), seed=2, width=3, evaluate=counting).search(state)
    assert result.moves[0][0] in state.legal_moves()
    assert 0 < len(calls) <= result.simulations
    assert all(not s.is_chance for s in calls)


@pytest.mark.lab
def test_an_opponent_model_of_the_expert_own_numbers_is_no_model() -> None:
    """``others`` equal to the bot's own weights (or a function that gives None) leaves the
    samples exactly those of a search without a model."""
    from huntgather.bots.tuned import weights_for
    for state in positions(4, seed=3, every=19)[1:3]:
        plain = ExpertBot(Limits(simulations=24), seed=2, name="x", width=4,
                          weights=weights_for).search(state)
        same = ExpertBot(Limits(simulations=24), seed=2, name="x", width=4, weights=weights_for,
                         others=weights_for(state)).search(state)
        none = ExpertBot(Limits(simulations=24), seed=2, name="x", width=4, weights=weights_for,
                         others=lambda s: None).search(state)
        assert plain.plans == same.plans == none.plans and plain.moves == same.moves == none.moves


@pytest.mark.engine
def test_with_an_opponent_model_the_other_seats_play_by_its_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a sample the searching seat's turns are chosen with its own weights, every other
    seat's with the model's, and the sample's end is valued with the searcher's own weights
    even where another seat moved last."""
    from huntgather.bots.heuristic import DEFAULT, Weights
    from huntgather.bots.heuristic import estimate as real_estimate
    from huntgather.bots.plans import reply as real_reply
    own = Weights(meadow_early=-0.9, meeple_back=1.0)
    turns: list[tuple[bool, Weights | None]] = []
    ends: list[Weights] = []

    def spy_reply(state: State, *args: object, **kw: object) -> object:
        turns.append((state.player == searcher, kw.get("weights")))   # type: ignore[arg-type]
        return real_reply(state, *args, **kw)   # type: ignore[arg-type]

    def spy_estimate(state: State, memo: object = None, weights: Weights = DEFAULT) -> list[float]:
        ends.append(weights)
        return real_estimate(state, None, weights)

    monkeypatch.setattr("huntgather.bots.expert.reply", spy_reply)
    monkeypatch.setattr("huntgather.bots.search.estimate", spy_estimate)   # (the Heuristic evaluator)
    state = positions(4, seed=6, every=19)[2]
    searcher = state.player
    # a greedy turn for every seat after the plan (the last the searcher's)
    ExpertBot(Limits(simulations=16), seed=1, width=4, weights=own, others=DEFAULT).search(state)
    assert {w for mine, w in turns if mine} == {own} and {w for mine, w in turns if not mine} == {DEFAULT}
    assert sum(1 for mine, _ in turns if not mine) >= 3 * sum(1 for mine, _ in turns if mine) > 0
    # mostly the searcher's own last turn valued the end; where a menhir's extra turn made another
    # seat's the last, the end was valued again, with the searcher's weights
    assert set(ends) <= {own} and len(ends) < len(turns) // 8
    # one turn after the plan: the next seat's, by the model; the end valued by the searcher's numbers
    turns.clear()
    ends.clear()
    ExpertBot(Limits(simulations=16), seed=1, width=4, weights=own, others=DEFAULT, turns=1).search(state)
    assert turns and {mine for mine, _ in turns} == {False} and {w for _, w in turns} == {DEFAULT}
    assert len(ends) == len(turns) and set(ends) == {own}


@pytest.mark.engine
def test_rounds_of_greedy_turns_are_turns_per_player(monkeypatch: pytest.MonkeyPatch) -> None:
    """``rounds=2`` samples exactly what ``turns=2 * players`` does, a function of the position
    gives the rounds per search, and each sample then plays that many greedy turns."""
    from huntgather.bots import expert_rounds
    from huntgather.bots.plans import reply as real_reply
    state = positions(2, seed=8, every=15)[2]
    by_rounds = ExpertBot(Limits(simulations=16), seed=2, name="x", width=4, rounds=2).search(state)
    by_turns = ExpertBot(Limits(simulations=16), seed=2, name="x", width=4, turns=4).search(state)
    one = ExpertBot(Limits(simulations=16), seed=2, name="x", width=4).search(state)
    assert by_rounds.plans == by_turns.plans and by_rounds.moves == by_turns.moves
    assert one.plans != by_rounds.plans     # the longer samples value the plans differently
    assert expert_bot().rounds is expert_rounds
    replies: list[int] = []

    def spy_reply(s: State, *args: object, **kw: object) -> object:
        replies.append(1)
        return real_reply(s, *args, **kw)   # type: ignore[arg-type]

    monkeypatch.setattr("huntgather.bots.expert.reply", spy_reply)
    for players, rounds in ((4, 2), (3, 1)):
        position = positions(players, seed=4, every=19)[1]
        replies.clear()
        result = ExpertBot(Limits(simulations=8), seed=1, width=2, rounds=expert_rounds).search(position)
        # every sample of a position early in the game plays all its turns (no end of the game)
        assert len(replies) == result.simulations * rounds * players


@pytest.mark.lab
def test_the_variants_tool_plays_the_same_games_for_each_variant_and_resumes(tmp_path: Path) -> None:
    """tools/expert_variants.py (docs/results/NOTES.md, "Four players: trials that did not
    help"): one log line a (deal, seat) game for
    every variant, nothing played twice when run again, a report over the games all logs hold."""
    tool = Path(__file__).resolve().parents[1] / "tools" / "expert_variants.py"
    play = [sys.executable, str(tool), "play", "--players", "2", "--seed", "3", "--deals", "1",
            "--dir", str(tmp_path), "a=sims:4,width:2", "b=sims:6,width:3,others:plain"]
    for _ in range(2):
        subprocess.run(play, check=True, capture_output=True, text=True)
    for name in ("a", "b"):
        rows = [json.loads(line) for line in (tmp_path / f"{name}.jsonl").read_text().splitlines()]
        assert sorted((r["deal"], r["seat"]) for r in rows) == [(0, 0), (0, 1)]
        assert all(len(r["scores"]) == 2 and r["dec"] > 0 for r in rows)
    out = subprocess.run([sys.executable, str(tool), "report", "--dir", str(tmp_path), "a", "b"],
                         check=True, capture_output=True, text=True).stdout
    assert out.startswith("2 games that every log holds") and "vs a: margin +0.00" in out
    bad = subprocess.run([sys.executable, str(tool), "play", "--dir", str(tmp_path), "c=depth:3"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "bad setting 'depth:3'" in bad.stderr
    bad = subprocess.run([sys.executable, str(tool), "play", "--dir", str(tmp_path), "c=others:3"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "bad setting 'others:3'" in bad.stderr


def test_the_scale_tool_fits_a_scale_per_share_of_the_stack_left() -> None:
    """tools/meeting_scale.py (docs/results/NOTES.md, "Four players: a calibrated scale"): one row per
    share of the stack left, its scale from the grid, the fit at least as likely as scale 8."""
    tool = Path(__file__).resolve().parents[1] / "tools" / "meeting_scale.py"
    out = subprocess.run([sys.executable, str(tool), "--players", "3", "--games", "2"],
                         check=True, capture_output=True, text=True).stdout.splitlines()
    assert out[0].startswith("2 games, 3 players")
    rows = [line.split() for line in out[1:]]
    assert [r[0] for r in rows] == ["0.8-1.0", "0.6-0.8", "0.4-0.6", "0.2-0.4", "0.0-0.2"]
    for r in rows:
        scale, best, at8 = float(r[5]), float(r[6]), float(r[8])
        assert 1.0 <= scale <= 100.0 and best >= at8
    bad = subprocess.run([sys.executable, str(tool), "--games", "0"], capture_output=True, text=True)
    assert bad.returncode != 0 and "--games must be at least 1" in bad.stderr


def test_the_interval_tool_resamples_whole_deals(tmp_path: Path) -> None:
    """tools/meeting_interval.py (docs/bots.md, "tournament"): the tournament's own tally and Wilson
    interval, and a deal-resampled interval around the same share."""
    tool = Path(__file__).resolve().parents[1] / "tools" / "meeting_interval.py"
    log = Path(__file__).resolve().parents[1] / "docs" / "results" / "expert-hard-4p.jsonl"
    out = subprocess.run([sys.executable, str(tool), str(log), "--games", "12"],
                         check=True, capture_output=True, text=True).stdout.splitlines()
    assert out[0] == "12 games, 3 deals"
    from huntgather.lab.tournament import head_to_head
    from huntgather.lab.tournament_log import read_log
    header, games = read_log(str(log))
    first = [g for g in games if g.deal < 3]
    assert len(first) == 12
    (row,) = head_to_head(header["bots"], first)
    low, high = row.interval()
    line = out[1]
    assert line.startswith(f"expert vs mcts:hard: {row.wins}-{row.draws}-{row.losses} of 48 meetings, "
                           f"{100 * row.win_rate:.1f} %; Wilson {100 * low:.1f}-{100 * high:.1f} %")
    c_low, c_high = (float(x) for x in line.split("deals resampled ")[1].rstrip(" %").split("-"))
    assert c_low <= 100 * row.win_rate <= c_high
    # two deals, one all won and one all lost: resampling deals can give 0 % or 100 %
    two = tmp_path / "two.jsonl"
    two.write_text('{"format": "huntgather-tournament-log", "version": 1, "edition": "2020", "players": 2, '
                   '"seed": 0, "bots": ["a", "b"]}\n'
                   '{"deal": 0, "rotation": 0, "bots": ["a", "b"], "scores": [9, 1]}\n'
                   '{"deal": 0, "rotation": 1, "bots": ["b", "a"], "scores": [1, 9]}\n'
                   '{"deal": 1, "rotation": 0, "bots": ["a", "b"], "scores": [1, 9]}\n'
                   '{"deal": 1, "rotation": 1, "bots": ["b", "a"], "scores": [9, 1]}\n')
    out = subprocess.run([sys.executable, str(tool), str(two)], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    assert out[1] == "a vs b: 2-0-2 of 4 meetings, 50.0 %; Wilson 15.0-85.0 %; deals resampled 0.0-100.0 %"
    for args, message in ((["--games", "0"], "--games must be at least 1"),
                          (["--resamples", "5"], "--resamples must be at least 100")):
        bad = subprocess.run([sys.executable, str(tool), str(two), *args], capture_output=True, text=True)
        assert bad.returncode != 0 and message in bad.stderr
    bad = subprocess.run([sys.executable, str(tool), str(tmp_path / "none.jsonl")], capture_output=True,
                         text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error: ")
    # --paired: the same deals in two logs, one bot changed; by hand: in deal 0 both logs have a
    # win for a; in deal 1 the new log a win (9-1), the old a loss (1-9): per game 0 and +1
    # meetings (mean 0.50, standard deviation 0.71, error 0.50), margins 0 and +16 (8.0 ± 8.0)
    head = two.read_text().splitlines()[0]
    old = tmp_path / "old.jsonl"
    old.write_text(f"{head}\n"
                   '{"deal": 0, "rotation": 0, "bots": ["a", "b"], "scores": [9, 1]}\n'
                   '{"deal": 1, "rotation": 0, "bots": ["a", "b"], "scores": [1, 9]}\n')
    new = tmp_path / "new.jsonl"   # (its games at rotation 1 have no twin in the old log)
    new.write_text(f"{head}\n"
                   '{"deal": 0, "rotation": 0, "bots": ["a", "b"], "scores": [9, 1]}\n'
                   '{"deal": 0, "rotation": 1, "bots": ["b", "a"], "scores": [1, 9]}\n'
                   '{"deal": 1, "rotation": 0, "bots": ["a", "b"], "scores": [9, 1]}\n'
                   '{"deal": 1, "rotation": 1, "bots": ["b", "a"], "scores": [9, 1]}\n')
    out = subprocess.run([sys.executable, str(tool), str(new), "--paired", str(old)], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    assert out[2:] == ["2 games in both logs",
                       "a vs b: 2.0 of 2 meetings (100.0 %) against 1.0 (50.0 %); per game +0.50 ± 0.50 "
                       "meetings, margin per meeting +8.0 ± 8.0"]
    # on the committed four-player logs, each share is the tournament's own tally of those games
    v6 = log.with_name("expert-greedy-4p.v6.jsonl")
    level = log.with_name("expert-greedy-4p.jsonl")
    out = subprocess.run([sys.executable, str(tool), str(v6), "--paired", str(level)], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    header, new_games = read_log(str(v6))
    _, old_games = read_log(str(level))
    keys = {(g.deal, g.rotation) for g in old_games}
    both = [g for g in new_games if (g.deal, g.rotation) in keys]
    twins = [g for g in old_games if (g.deal, g.rotation) in {(x.deal, x.rotation) for x in both}]
    (a,), (b,) = head_to_head(header["bots"], both), head_to_head(header["bots"], twins)
    assert out[2] == f"{len(both)} games in both logs" and len(both) == len(twins) > 100
    assert out[3].startswith(f"expert vs greedy: {a.wins + 0.5 * a.draws:.1f} of {a.meetings} meetings "
                             f"({100 * a.win_rate:.1f} %) against {b.wins + 0.5 * b.draws:.1f} "
                             f"({100 * b.win_rate:.1f} %); per game ")
    bad = subprocess.run([sys.executable, str(tool), str(v6), "--paired", str(two)], capture_output=True,
                         text=True)
    assert bad.returncode == 2 and "not of the same edition, players and seed" in bad.stderr
    # the tool's own examples
    import doctest
    import importlib.util
    spec = importlib.util.spec_from_file_location("meeting_interval", tool)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    failed, tried = doctest.testmod(module)
    assert tried >= 3 and failed == 0
