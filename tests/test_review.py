"""The post-game review (huntgather.bots.review, ``huntgather review``): its numbers on a
hand-made blunder, reproducibility, the CLI's table and JSON.  Tiny budgets throughout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from huntgather.bots.greedy import GreedyBot
from huntgather.bots.review import THRESHOLDS, label, review_record
from huntgather.cli import main
from huntgather.game import Game
from huntgather.record import RecordError, write_record
from huntgather.state import State

# Yellow has a gatherer in the forest of the start tile and tile 34; red, 4 points up, draws the
# last tile, 37, and closes that forest with it: 6 points to yellow, who wins 6-4.  Placed
# anywhere else the forest stays open (an open forest scores nothing at the end) and red wins.
# No tile is left after it, so the samples are exact: a blunder whatever the budget.
BLUNDER = """huntgather record 1
edition 2020
players 2
tile 56 0,0 r0
tile 34 1,0 r0
occupant 34.3 meeple 0
score 1 4
normal 37
bonus
player 1
moves
d37 37@0,1r0 -
"""


def short_game(tiles: int = 4, seed: int = 3, players: int = 2) -> str:
    """The record of a greedy game with ``tiles`` tiles in the normal stack."""
    start = State.new(players)
    start.normal = start.normal[:tiles]
    game = Game(state=start, seed=seed)
    while not game.is_over:
        game.play(GreedyBot().choose(game.state))
    return write_record(game)


def test_a_move_that_hands_a_completed_forest_to_the_opponent_is_a_blunder() -> None:
    review = review_record(BLUNDER, simulations=4, samples=1)
    (turn,) = review.turns
    assert (turn.player, turn.ply, turn.decision, turn.played) == (1, 1, 1, ("37@0,1r0", "-"))
    assert turn.label == "blunder" and not turn.forced
    assert not turn.best[0].startswith("37@0,1r")   # the best keeps the forest open
    assert turn.chance_played < 0.5 < turn.chance_best   # lost by it; won without it
    assert turn.loss == pytest.approx(turn.chance_best - turn.chance_played)
    assert turn.loss >= dict(THRESHOLDS)["blunder"]
    # the learned evaluation sees the 6 points go to yellow
    assert turn.predicted_played[0] - turn.predicted_best[0] >= 5
    yellow, red = review.summaries
    assert (yellow.accuracy, red.blunders) == (100.0, 1) and red.accuracy < 50
    assert review.scores == (6, 4)
    assert review.chances == ((1 - turn.chance_played, turn.chance_played),)


def test_the_same_record_gives_the_same_review_and_the_chances_add_up() -> None:
    text = short_game()
    first = review_record(text, simulations=6, samples=2)
    assert review_record(text, simulations=6, samples=2).as_dict() == first.as_dict()
    # comments and layout are not the game: the same review
    bare = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    assert review_record(bare, simulations=6, samples=2).as_dict() == first.as_dict()
    assert len(first.turns) >= 4 and first.scores is not None
    assert [t.turn for t in first.turns] == list(range(1, len(first.turns) + 1))
    for turn in first.turns:
        assert 0.0 <= turn.chance_played <= turn.chance_best <= 1.0
        assert turn.label == label(turn.loss)
        assert (turn.best == turn.played) == (turn.loss == 0.0) or turn.forced
    for row in first.chances:
        assert sum(row) == pytest.approx(1.0)
    assert set(first.turning_points) <= {t.turn for t in first.turns}


def test_three_players_each_seat_has_its_line_and_its_accuracy() -> None:
    review = review_record(short_game(tiles=5, seed=4, players=3), simulations=4, samples=1)
    assert review.players == 3 and len(review.summaries) == 3
    assert all(len(row) == 3 for row in review.chances)
    for turn, row in zip(review.turns, review.chances, strict=True):
        assert turn.forced or row[turn.player] == turn.chance_played   # the mover's latest figure
    assert all(0.0 <= s.accuracy <= 100.0 for s in review.summaries)


def test_labels_and_bad_requests() -> None:
    assert ([label(x) for x in (0.0, 0.05, 0.1, 0.2, 1.0)]
            == [None, "inaccuracy", "mistake", "blunder", "blunder"])
    with pytest.raises(ValueError, match="level"):
        review_record(BLUNDER, level="random")
    with pytest.raises(ValueError, match="simulation"):
        review_record(BLUNDER, simulations=0)
    with pytest.raises(RecordError):
        review_record(BLUNDER.replace("37@0,1r0", "37@5,5r0"), simulations=2, samples=1)


def test_cli_table_and_json_give_the_same_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.hgr"
    path.write_text(BLUNDER, encoding="utf-8")
    assert main(["review", str(path), "--simulations", "4", "--samples", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == review_record(BLUNDER, simulations=4, samples=1).as_dict()
    (turn,) = data["turns"]
    assert turn["label"] == "blunder" and turn["played"] == ["37@0,1r0", "-"]
    assert main(["review", str(path), "--simulations", "4", "--samples", "1"]) == 0
    out = capsys.readouterr().out
    assert "37@0,1r0 -" in out and "blunder" in out and f"{turn['loss']:.2f}" in out
    assert "red: accuracy" in out and "final scores: yellow 6, red 4" in out
    assert main(["review", str(path), "--simulations", "0"]) == 2
    assert "--simulations" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "missing.hgr")]) == 1
    path.write_text("huntgather record 1\nplayers 9\nmoves\n", encoding="utf-8")
    assert main(["review", str(path)]) == 2
