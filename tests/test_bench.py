"""``huntgather bench``: the rates in tiles placed and in decisions are those of the games played."""

from __future__ import annotations

import random

import pytest

from huntgather import bench
from huntgather.game import Game
from huntgather.moves import Draw, Place


def test_tiles_placed_and_decisions_are_counted_from_the_games_played(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "OPTIONAL_FIGURES", {})   # (the bots' and RL figures: not this test's)
    figures = bench.run_bench(seconds=0.05, seed=11)
    n = figures["random_games"]
    assert n >= 3 * bench.CHUNK
    # the same games again, counted here from their histories
    placed = decisions = 0
    for s in range(11, 11 + n):
        game = Game(2, seed=s)
        bench.play_random(game, random.Random(f"bench-{s}"))
        placed += sum(isinstance(m, Place) for m in game.history)
        decisions += sum(not isinstance(m, Draw) for m in game.history)
    assert figures["placements_per_game"] == round(placed / n, 1)
    assert figures["player_moves_per_game"] == round(decisions / n, 1)
    assert decisions > placed > 70 * n   # (a 2020 game places about 80 tiles)
    games_per_s = figures["random_games_per_s"]   # (rounded to 0.1)
    for key, count in (("tiles_placed_per_s", placed), ("decisions_per_s", decisions)):
        assert figures[key] == pytest.approx(games_per_s * count / n, abs=0.05 * count / n + 1)


def test_the_comparison_shows_tiles_placed_and_decisions_for_both_builds() -> None:
    pure = {"edition": "2020", "cpu": "X", "python": "CPython 3.11", "random_games_per_s": 500.0,
            "tiles_placed_per_s": 40000, "decisions_per_s": 52000}
    compiled = {**pure, "random_games_per_s": 1500.0, "tiles_placed_per_s": 120000, "decisions_per_s": 156000}
    lines = bench.format_comparison({"pure": pure, "compiled": compiled}).splitlines()
    assert [line.split() for line in lines[2:]] == [
        ["complete", "random", "games", "500.0", "/s", "1500.0", "/s", "3.00×"],
        ["tiles", "placed", "in", "them", "40000", "/s", "120000", "/s", "3.00×"],
        ["decisions", "in", "them", "52000", "/s", "156000", "/s", "3.00×"],
    ]
