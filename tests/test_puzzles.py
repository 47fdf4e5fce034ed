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
from huntgather.bots.plans import turn_plans
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
def test_every_shipped_puzzle_is_legal_with_legal_answers_and_graded(edition: str) -> None:
    found = shipped(edition)
    players = [p.players for p in found]
    assert players.count(2) >= 100 and players.count(3) + players.count(4) >= 30
    assert players.count(3) and players.count(4)
    positions = set()
    for puzzle in found:
        state = check_puzzle(puzzle)   # the position, the best, accepted and runner-up turns
        assert puzzle.edition == edition and state.edition.name == edition
        assert state.players == puzzle.players == puzzle.source.get("players", 2)
        assert puzzle.margin_best - puzzle.margin_runner_up >= mining.THRESHOLD - 0.02
        assert puzzle.chance_best >= puzzle.chance_runner_up
        # graded from the miner's numbers, as the module says
        assert puzzle.difficulty == mining.grade(puzzle.grading), puzzle.number
        assert puzzle.grading["gap"] == round(puzzle.margin_best - puzzle.margin_runner_up, 2)
        positions.add(puzzle.position)
    assert len(positions) == len(found), "a position is shipped twice"
    assert {p.difficulty for p in found} == set(mining.DIFFICULTIES)


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
    monkeypatch.setattr(mining, "SHALLOW_SEARCHES", 1)   # (the grade's searches: one is enough here)
    monkeypatch.setattr(mining, "play_game", lambda edition, seed, game, simulations, players: iter(found))
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
    assert all(p.difficulty == mining.grade(p.grading) for p in kept)
    # a run of three-player games is a run of its own, named in its lines
    three = [mining.Candidate(0, p.source["turn"], p.state(), 0.1)
             for p in shipped("2020") if p.players == 3][:1]
    monkeypatch.setattr(mining, "play_game", lambda edition, seed, game, simulations, players: iter(three))
    assert main([*args[:5], "--count", str(len(kept) + 1), "--players", "3", *args[7:]]) == 0
    added = read_puzzles(out.read_text())[len(kept):]
    assert all(p.players == 3 and p.source["players"] == 3 for p in added)
    logged = [json.loads(line) for line in (tmp_path / "p.jsonl.progress").read_text().splitlines()]
    assert [e.get("players", 2) for e in logged][-len(three):] == [3] * len(three)


def test_grading_again_gives_the_shipped_difficulties(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``puzzles grade`` works the shipped grades out again from the positions: the same numbers,
    the same difficulty, the rest of each line untouched."""
    lines = Path(mining.__file__).parent.parent.joinpath("data", "puzzles", "2002.jsonl") \
        .read_text("utf-8").splitlines()
    # (the smallest boards: the fewest turns to search) of each difficulty
    small = sorted(lines, key=lambda line: json.loads(line)["position"].count("\ntile "))
    some = [next(line for line in small if json.loads(line)["difficulty"] == d) for d in mining.DIFFICULTIES]
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps({k: v for k, v in json.loads(line).items()
                                        if k not in ("grading", "difficulty")} | {"difficulty": "hard"},
                                       separators=(",", ":"), sort_keys=True) + "\n" for line in some))
    assert main(["puzzles", "grade", "--quiet", str(path)]) == 0
    assert path.read_text().splitlines() == some
    assert "3 puzzles graded" in capsys.readouterr().out


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


def test_the_puzzle_of_the_day_and_by_number_come_without_the_answer(client: TestClient) -> None:
    today = client.get("/api/puzzles/2002/today")
    assert today.status_code == 200 and "max-age" in today.headers["cache-control"]
    body: dict[str, Any] = today.json()
    assert body["edition"] == "2002" and body["count"] == len(shipped("2002"))
    same = client.get(f"/api/puzzles/2002/{body['number']}").json()
    assert same == body
    for edition in EDITIONS:
        for puzzle in (shipped(edition)[0], shipped(edition)[-1]):
            text = client.get(f"/api/puzzles/{edition}/{puzzle.number}").text
            view = json.loads(text)
            assert view["number"] == puzzle.number and view["difficulty"] == puzzle.difficulty
            assert view["players"] == puzzle.players and view["hints"] == 2
            # the answer is nowhere in it: no field of the answer, and the best turn's placement
            # only among every placement offered (as many times as any other)
            assert not {"best", "accepted", "runner_up", "facts_best", "margin_best"} & set(view)
            assert text.count(f'"{puzzle.best[0]}"') == 1
            area = view["area"]   # the first hint: a 3 x 3 area that holds the answer's square
            x, y = (int(v) for v in puzzle.best[0].split("@")[1].split("r")[0].split(","))
            assert area["x1"] - area["x0"] == area["y1"] - area["y0"] == 2
            assert area["x0"] <= x <= area["x1"] and area["y0"] <= y <= area["y1"]
    index = client.get("/api/puzzles/2020").json()
    assert index["count"] == len(index["difficulty"]) == len(index["players"]) == len(shipped("2020"))
    assert set(index["difficulty"]) == {"easy", "medium", "hard"} and {2, 3, 4} <= set(index["players"])
    missing = {"2020/0": "unknown_puzzle", "2020/99999": "unknown_puzzle", "2020/x1": "unknown_puzzle",
               "1999/1": "unknown_edition", "1999/today": "unknown_edition", "1999": "unknown_edition",
               "2020/1/hint/3": "unknown_puzzle", "2020/1/hint/0": "unknown_puzzle",
               "2020/0/solution": "unknown_puzzle"}
    for path, code in ((f"/api/puzzles/{where}", code) for where, code in missing.items()):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.json()["code"] == code, path
    assert client.post("/api/puzzles/2020/1").status_code in (403, 405)


def test_hints_one_by_one_and_the_solution(client: TestClient) -> None:
    puzzle = next(p for p in shipped("2020") if any(f["fact"] == "occupies" for f in p.facts_best)
                  and not any(f["fact"] == "scores" and f["points"][p.player] for f in p.facts_best))
    view = client.get(f"/api/puzzles/2020/{puzzle.number}").json()
    first = client.get(f"/api/puzzles/2020/{puzzle.number}/hint/1").json()
    assert first == {"hint": 1, "area": view["area"]}
    second = client.get(f"/api/puzzles/2020/{puzzle.number}/hint/2").json()
    occupies = next(f for f in puzzle.facts_best if f["fact"] == "occupies")
    assert second["fact"] == "occupies" and second["role"] == occupies["role"] and second["kind"]
    solution = client.get(f"/api/puzzles/2020/{puzzle.number}/solution").json()
    assert solution["best"] == list(puzzle.best) and solution["runner_up"] == list(puzzle.runner_up)
    assert solution["facts_best"] == list(puzzle.facts_best)
    assert solution["margin_best"] - solution["margin_runner_up"] >= mining.THRESHOLD - 0.02


def test_an_answer_right_wrong_or_refused(client: TestClient) -> None:
    # (the smallest board of the two-player puzzles: the cheapest to value a turn in)
    puzzle = min((p for p in shipped("2020") if p.players == 2), key=lambda p: p.position.count("\ntile "))
    url = f"/api/puzzles/2020/{puzzle.number}/answer"
    right = client.post(url, json={"turn": list(puzzle.best)})
    assert right.status_code == 200 and right.headers["cache-control"] == "no-store"
    assert right.json()["right"] is True and right.json()["solution"]["best"] == list(puzzle.best)
    # every accepted turn is right (the same turn for the game)
    for plan in puzzle.accepted:
        assert client.post(url, json={"turn": list(plan)}).json()["right"] is True
    # the runner-up: wrong, by the verification's gap, and no solution in the answer
    wrong = client.post(url, json={"turn": list(puzzle.runner_up)}).json()
    assert wrong == {"right": False, "loss": round(puzzle.margin_best - puzzle.margin_runner_up, 1),
                     "runner_up": True}
    # another turn: valued on the verification's own draws (in a worker), as the miner values it
    state = puzzle.state()
    other = next(plan for plan, _ in turn_plans(state) if len(plan) == 2 and isinstance(plan[1], Pass)
                 and tuple(map(str, plan)) not in (*puzzle.accepted, puzzle.runner_up))
    expected = mining.turn_loss(state, tuple(moves_of(puzzle.best)), other,
                                mining.verify_seed("2020", puzzle.source))
    assert expected > puzzle.margin_best - puzzle.margin_runner_up - 0.02   # the runner-up is the next best
    wrong = client.post(url, json={"turn": [str(m) for m in other]}).json()
    assert wrong == {"right": False, "loss": round(expected, 1), "runner_up": False}
    # refused: malformed, illegal, not a whole turn, the wrong shape, too big, not JSON
    refused = [({"turn": ["90@1,1"]}, 400, "invalid_move"),
               ({"turn": ["1@99,99r0", "-"]}, 400, "illegal_move"),
               ({"turn": [puzzle.best[0]]}, 400, "illegal_move"),
               ({"turn": []}, 400, "bad_request"),
               ({"turn": "x"}, 400, "bad_request"),
               ({"turn": list(puzzle.best), "more": 1}, 400, "bad_request"),
               ({"turn": ["x" * 33]}, 400, "bad_request"),
               ({"turn": ["-"] * 200}, 413, "too_large")]
    for body, status, code in refused:
        answer = client.post(url, json=body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), body
    answer = client.post(url, content=b"turn", headers={"content-type": "text/plain"})
    assert answer.status_code == 415 and answer.json()["code"] == "bad_content_type"
    answer = client.post(url, content=b"{turn", headers={"content-type": "application/json"})
    assert answer.status_code == 400 and answer.json()["code"] == "bad_json"
    # another site's page may not send an answer (csrf.py), nor to an unknown puzzle
    answer = client.post(url, json={"turn": list(puzzle.best)}, headers={"origin": "https://evil.example"})
    assert answer.status_code == 403 and answer.json()["code"] == "cross_site"
    assert client.post("/api/puzzles/2020/0/answer", json={"turn": list(puzzle.best)}).status_code == 404


def test_answers_are_rate_limited() -> None:
    from huntgather.server import routes_puzzles
    with TestClient(make_app()) as c:
        puzzle = shipped("2002")[0]
        codes = [c.post("/api/puzzles/2002/1/answer", json={"turn": list(puzzle.runner_up)}).status_code
                 for _ in range(routes_puzzles.ANSWERS_PER_MINUTE + 1)]
    assert codes[:-1] == [200] * routes_puzzles.ANSWERS_PER_MINUTE
    assert codes[-1] == 429
