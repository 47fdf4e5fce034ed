"""The puzzles: every shipped puzzle is a legal position with legal answers, the scoring facts of a
few agree with the rules' arithmetic worked by hand, the miner is deterministic and resumable,
and the server answers the puzzle of the day and a puzzle by number (docs/learn.md, "Puzzles")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from app_helpers import TestClient, make_app

from huntgather.bots import puzzles as mining
from huntgather.cli import main
from huntgather.moves import Occupy, Pass, Place
from huntgather.puzzles import (
    EDITIONS,
    PuzzleError,
    check_puzzle,
    moves_of,
    of_the_day,
    parse_puzzle,
    play_turn,
    puzzle_view,
    read_puzzles,
    shipped,
)
from huntgather.record import load_position

#: a 2020 position (yellow to place tile 90, a forest's end, drawn from the bonus stack): tile 26
#: at 1,0 holds an open forest of two tiles' halves; tile 90 at 1,1 turned twice closes it
FOREST = """huntgather record 2
edition 2020
players 2
tile 56 0,0 r0
tile 16 -1,0 r0
tile 39 0,1 r1
tile 8 -1,1 r3
tile 47 0,2 r2
tile 26 1,0 r0
occupant 8.1 hut 0
occupant 47.1 hut 1
occupant 26.1 hut 0
score 0 5
score 1 8
normal {normal}
bonus {bonus}
player 0
turn 4
decision place 90 bonus
moves
""".format(normal=" ".join(str(t) for t in range(79) if t not in (8, 16, 26, 39, 47, 56)),
           bonus=" ".join(str(t) for t in range(79, 95) if t != 90))


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_shipped_puzzle_is_legal_with_legal_answers(edition: str) -> None:
    found = shipped(edition)
    assert len(found) >= 100
    positions = set()
    for puzzle in found:
        state = check_puzzle(puzzle)   # the position, the best, accepted and runner-up turns
        assert puzzle.edition == edition and state.edition.name == edition
        assert puzzle.margin_best - puzzle.margin_runner_up >= mining.THRESHOLD - 0.02
        assert puzzle.chance_best >= puzzle.chance_runner_up
        positions.add(puzzle.position)
    assert len(positions) == len(found), "a position is shipped twice"


def test_the_scoring_facts_of_a_forest_closed_by_a_gatherer() -> None:
    """Tile 90 at 1,1 turned twice closes tile 26's forest: 2 tiles x 2 points = 4 for yellow
    (the 2020 forest: 2 a tile, no mushroom on either), whose gatherer (zone 1) is its only
    meeple; without it the forest is closed by nobody and scores for no one."""
    state = load_position(FOREST)
    best = (Place(90, 1, 1, 2), Occupy(90, 1))
    facts = mining.facts(state, best)
    assert {"fact": "occupies", "piece": "meeple", "role": "gatherer", "tile": 90, "zone": 1} in facts
    scored = [f for f in facts if f["fact"] == "scores"]
    assert scored == [{"fact": "scores", "kind": "forest", "points": [2 * 2, 0], "tiles": [26, 90]}]
    # without the gatherer the forest is closed by nobody: it scores for no one
    assert [f for f in mining.facts(state, (Place(90, 1, 1, 2), Pass())) if f["fact"] == "scores"] == []


#: scoring facts of shipped puzzles, worked by hand from the tiles (docs/rules.md; tiles.md):
#: (edition, puzzle, kind, points for the mover, tiles)
BY_HAND = [
    # forest of 27, 43, 64 and 74, no mushroom: 4 tiles x 2 = 8
    ("2020", 1, "forest", 8, [27, 43, 64, 74]),
    # river from the lake of 10 (1 fish) to the lake of 13 (2 fish): 2 tiles x 1 + 3 fish = 5
    ("2020", 2, "river", 5, [10, 13]),
    # forest of 8, 9 and 69, no mushroom: 3 tiles x 2 = 6
    ("2002", 1, "forest", 6, [8, 9, 69]),
    # river of 29 and 42 into the lake of 60 (1 fish): 3 tiles x 1 + 1 fish = 4
    ("2002", 3, "river", 4, [29, 42, 60]),
]


@pytest.mark.parametrize(("edition", "number", "kind", "points", "tiles"), BY_HAND)
def test_shipped_scoring_facts_worked_by_hand(edition: str, number: int, kind: str, points: int,
                                              tiles: list[int]) -> None:
    puzzle = shipped(edition)[number - 1]
    scored = [f for f in puzzle.facts_best if f["fact"] == "scores" and sorted(f["tiles"]) == tiles]
    assert len(scored) == 1 and scored[0]["kind"] == kind
    expected = [0] * 2
    expected[puzzle.player] = points
    assert scored[0]["points"] == expected
    # and the engine agrees once the best turn is played: the mover's score grows by the facts'
    after = play_turn(puzzle.state(), puzzle.best)
    gained = sum(f["points"][puzzle.player] for f in puzzle.facts_best if f["fact"] == "scores")
    assert after.scores[puzzle.player] - puzzle.state().scores[puzzle.player] == gained


def test_shipped_forest_facts_score_as_the_rules_count() -> None:
    """The "scores" facts of the plain forests (no mushroom) among the first shipped puzzles
    agree with the rules' arithmetic from the tiles they list: 2 points a tile, in both
    editions (docs/rules.md), for the seats with the most gatherers on it."""
    from huntgather.editions import get_edition
    checked = 0
    for edition in EDITIONS:
        tiles = get_edition(edition).tiles.by_id
        for puzzle in shipped(edition)[:20]:
            for fact in puzzle.facts_best:
                if fact["fact"] != "scores" or fact["kind"] not in ("forest",):
                    continue
                mushrooms = sum(sum(1 for z in tiles[t].zones.values() if z.kind == "forest" and
                                    getattr(z, "mushrooms", 0)) for t in fact["tiles"])
                if mushrooms:
                    continue   # (only plain forests here: 2 a tile)
                assert max(fact["points"]) == 2 * len(fact["tiles"]), (puzzle.number, fact)
                checked += 1
    assert checked >= 3


def test_a_turn_that_is_not_whole_or_not_legal_is_refused() -> None:
    state = load_position(FOREST)
    assert play_turn(state, ("90@1,1r2", "m90.1")).scores == [9, 8]   # 5 + the forest's 4
    with pytest.raises(PuzzleError, match="illegal"):
        play_turn(state, ("90@5,5r0",))
    with pytest.raises(PuzzleError, match="open"):
        play_turn(state, ("90@1,1r2",))   # the piece (or none) is still to be decided
    with pytest.raises(PuzzleError):
        moves_of(("90@1,1",))


def test_a_bad_puzzle_line_is_a_clear_error() -> None:
    line = json.loads(Path(mining.__file__).parent.parent.joinpath("data", "puzzles", "2020.jsonl")
                      .read_text("utf-8").splitlines()[0])
    assert parse_puzzle(line, 1).number == 1
    for field in ("position", "best"):
        broken = {k: v for k, v in line.items() if k != field}
        with pytest.raises(PuzzleError, match=field):
            parse_puzzle(broken, 1)
    with pytest.raises(PuzzleError, match="accepted"):
        parse_puzzle({**line, "accepted": [line["runner_up"]]}, 1)
    with pytest.raises(PuzzleError, match="line 2"):
        read_puzzles(json.dumps(line) + "\n{not json\n")


def test_the_puzzle_of_the_day_is_one_for_everyone_on_a_date() -> None:
    days = [date(2026, 11, d) for d in range(1, 29)]
    picked = [of_the_day("2020", d).number for d in days]
    assert picked == [of_the_day("2020", d).number for d in days]
    assert len(set(picked)) > 10   # not stuck on one


def test_the_page_view_offers_every_placement_and_its_pieces() -> None:
    puzzle = shipped("2020")[0]
    view = puzzle_view(puzzle, 100)
    state = puzzle.state()
    assert len(view["turns"]) == len(state.legal_moves())
    answer = [t for t in view["turns"] if t["place"] == puzzle.best[0]]
    assert len(answer) == 1
    if len(puzzle.best) > 1:
        assert puzzle.best[1] in [p["move"] for p in answer[0]["pieces"]]
    assert view["board"] and view["player"] == puzzle.player and view["tile"] == puzzle.tile


# --------------------------------------------------------------------------- the miner


def candidates(edition: str, count: int) -> list[mining.Candidate]:
    """Shipped puzzles' positions as a game's candidates (the games are not played: fast)."""
    return [mining.Candidate(0, i + 1, p.state(), 0.1) for i, p in enumerate(shipped(edition)[:count])]


def test_mining_is_deterministic_and_resumes_where_it_stopped(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    found = candidates("2020", 2)
    monkeypatch.setattr(mining, "play_game", lambda edition, seed, game, simulations: iter(found))
    out = tmp_path / "p.jsonl"
    args = ["puzzles", "mine", str(out), "--edition", "2020", "--count", "1", "--verify-simulations", "6",
            "--samples", "4", "--quiet"]
    assert main(args) == 0
    first = out.read_text()
    progress = (tmp_path / "p.jsonl.progress").read_text()
    # again with the file there: nothing is verified twice, nothing added
    assert main(args) == 0
    assert out.read_text() == first and (tmp_path / "p.jsonl.progress").read_text() == progress
    # another seed's run counts the puzzles already there
    assert main([*args[:-1], "--seed", "2", "--quiet"]) == 0
    assert out.read_text() == first or not first
    # from scratch: the same lines
    again = tmp_path / "q.jsonl"
    assert main([*args[:2], str(again), *args[3:]]) == 0
    assert again.read_text() == first
    assert main(["puzzles", "check", str(out)]) == 0
    kept = read_puzzles(first)
    assert all(p.margin_best - p.margin_runner_up >= mining.THRESHOLD - 0.02 for p in kept)


def test_mining_refuses_another_editions_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.jsonl"
    out.write_text(Path(mining.__file__).parent.parent.joinpath("data", "puzzles", "2002.jsonl")
                   .read_text("utf-8").splitlines()[0] + "\n")
    assert main(["puzzles", "mine", str(out), "--edition", "2020", "--quiet"]) == 2
    assert "2002 puzzles" in capsys.readouterr().err
    assert main(["puzzles", "mine", str(out), "--samples", "0"]) == 2


# --------------------------------------------------------------------------- the server


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(make_app()) as c:
        yield c


def test_the_server_answers_the_puzzle_of_the_day_and_by_number(client: TestClient) -> None:
    today = client.get("/api/puzzles/2002/today")
    assert today.status_code == 200 and "max-age" in today.headers["cache-control"]
    body: dict[str, Any] = today.json()
    assert body["edition"] == "2002" and body["count"] == len(shipped("2002"))
    same = client.get(f"/api/puzzles/2002/{body['number']}").json()
    assert same == body
    first = client.get("/api/puzzles/2020/1").json()
    assert first["number"] == 1 and first["best"] == list(shipped("2020")[0].best)
    missing = {"2020/0": "unknown_puzzle", "2020/99999": "unknown_puzzle", "2020/x1": "unknown_puzzle",
               "1999/1": "unknown_edition", "1999/today": "unknown_edition"}
    for path, code in ((f"/api/puzzles/{where}", code) for where, code in missing.items()):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.json()["code"] == code, path
    assert client.post("/api/puzzles/2020/1").status_code in (403, 405)
