"""The shipped puzzles: reading, checking, and the puzzle of the day (docs/learn.md, "Puzzles").

The puzzles of an edition are ``huntgather/data/puzzles/{edition}.jsonl``, one JSON object a
line, as ``huntgather puzzles mine`` (:mod:`huntgather.bots.puzzles`) writes them; a puzzle's
number is its line's, from 1.  The puzzle of the day is the same for everyone on a UTC date:
a hash of the date and the edition picks it.  What a page is sent is :func:`puzzle_view` (no
answer), :func:`hint_view` one hint at a time and :func:`solution_view` once it is earned
(:mod:`huntgather.server.routes_puzzles`).

>>> found = shipped("2020")
>>> len(found) >= 100, found[0].number
(True, 1)
>>> of_the_day("2020", date(2026, 11, 28)) == of_the_day("2020", date(2026, 11, 28))
True
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from importlib import resources
from typing import Any

from huntgather.kinds import role_of
from huntgather.moves import InvalidMoveError, Move, Occupy, Pass, Place, parse_move
from huntgather.record import RecordError, load_position
from huntgather.state import PLACE, IllegalMoveError, State

#: the editions with shipped puzzles
EDITIONS = ("2020", "2002")
DIFFICULTIES = ("easy", "medium", "hard")
FACTS = ("scores", "occupies", "bonus")


class PuzzleError(ValueError):
    """A puzzle that cannot be read or is not legal."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (see the module text and docs/learn.md for the fields)."""

    number: int
    edition: str
    position: str
    player: int
    tile: int
    best: tuple[str, ...]
    accepted: tuple[tuple[str, ...], ...]
    runner_up: tuple[str, ...]
    chance_best: float
    chance_runner_up: float
    margin_best: float
    margin_runner_up: float
    facts_best: tuple[dict[str, Any], ...]
    facts_runner_up: tuple[dict[str, Any], ...]
    difficulty: str
    #: the mover's final margin as the learned evaluation predicts it after either turn
    predicted_best: float = 0.0
    predicted_runner_up: float = 0.0
    source: dict[str, Any] = field(default_factory=dict)
    #: the miner's numbers the difficulty is graded from (:func:`huntgather.bots.puzzles.grade`)
    grading: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        """How many seats the puzzle's game has (its position's ``players`` line)."""
        for line in self.position.splitlines():
            if line.startswith("players "):
                return int(line.split()[1])
        return 2

    def state(self) -> State:
        """The position (a placement decision of :attr:`player` with :attr:`tile` in hand)."""
        return load_position(self.position, edition=self.edition)


def _plan(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(m, str) for m in value):
        raise PuzzleError(f"{what} is a list of moves")
    return tuple(value)


def _facts(value: Any, what: str) -> tuple[dict[str, Any], ...]:
    if not isinstance(value, list) or not all(isinstance(f, dict) and f.get("fact") in FACTS
                                              for f in value):
        raise PuzzleError(f"{what} is a list of facts, each one of {', '.join(FACTS)}")
    return tuple(value)


def parse_puzzle(entry: Any, number: int) -> Puzzle:
    """The puzzle of one line's JSON value (:class:`PuzzleError` if a field is missing or wrong)."""
    if not isinstance(entry, dict):
        raise PuzzleError(f"puzzle {number} is not a JSON object")
    try:
        accepted = entry["accepted"]
        if not isinstance(accepted, list):
            raise PuzzleError("accepted is a list of turns")
        puzzle = Puzzle(
            number, str(entry["edition"]), str(entry["position"]), int(entry["player"]),
            int(entry["tile"]), _plan(entry["best"], "best"),
            tuple(_plan(p, "an accepted turn") for p in accepted), _plan(entry["runner_up"], "runner_up"),
            float(entry["chance_best"]), float(entry["chance_runner_up"]),
            float(entry["margin_best"]), float(entry["margin_runner_up"]),
            _facts(entry["facts_best"], "facts_best"), _facts(entry["facts_runner_up"], "facts_runner_up"),
            str(entry["difficulty"]), float(entry.get("predicted_best", 0.0)),
            float(entry.get("predicted_runner_up", 0.0)), dict(entry.get("source") or {}),
            dict(entry.get("grading") or {}))
    except KeyError as err:
        raise PuzzleError(f"puzzle {number} has no {err.args[0]}") from None
    except (TypeError, ValueError) as err:
        raise PuzzleError(f"puzzle {number}: {err}") from None
    if puzzle.edition not in EDITIONS or puzzle.difficulty not in DIFFICULTIES:
        raise PuzzleError(f"puzzle {number}: edition {puzzle.edition!r} or difficulty "
                          f"{puzzle.difficulty!r} unknown")
    if puzzle.best not in puzzle.accepted:
        raise PuzzleError(f"puzzle {number}: the best turn is not among the accepted ones")
    return puzzle


def read_puzzles(text: str) -> list[Puzzle]:
    """The puzzles of a JSON-lines text, numbered from 1 (blank lines skipped)."""
    out: list[Puzzle] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as err:
            raise PuzzleError(f"line {len(out) + 1}: not JSON ({err.msg})") from None
        out.append(parse_puzzle(entry, len(out) + 1))
    return out


def moves_of(plan: tuple[str, ...]) -> list[Move]:
    """The moves of a turn's text form (:class:`PuzzleError` if one is malformed)."""
    try:
        return [parse_move(m) for m in plan]
    except InvalidMoveError as err:
        raise PuzzleError(str(err)) from None


def play_turn(state: State, plan: tuple[str, ...]) -> State:
    """The position after the whole turn ``plan`` from ``state`` (unchanged); :class:`PuzzleError`
    unless it is a legal placement, then at most a piece, that ends the player's turn."""
    after = state.copy()
    player = state.player
    moves = moves_of(plan)
    if not isinstance(moves[0], Place) or not all(isinstance(m, Occupy | Pass) for m in moves[1:]):
        raise PuzzleError(f"{' '.join(plan)} is not a placement and a piece")
    for move in moves:
        try:
            after.apply(move)
        except IllegalMoveError as err:
            raise PuzzleError(f"{' '.join(plan)} is illegal: {err}") from None
    if not after.is_over and not after.is_chance and after.player == player and after.phase != PLACE:
        raise PuzzleError(f"{' '.join(plan)} leaves a decision of the player's turn open")
    return after


def check_puzzle(puzzle: Puzzle) -> State:
    """Check that the puzzle's position is a placement of its player with its tile in hand, and
    that its best, accepted and runner-up turns are legal whole turns there; the position."""
    try:
        state = puzzle.state()
    except RecordError as err:
        raise PuzzleError(f"puzzle {puzzle.number}: its position is not legal: {err}") from None
    if state.phase != PLACE or state.player != puzzle.player or state.tile != puzzle.tile:
        raise PuzzleError(f"puzzle {puzzle.number}: the position is not player {puzzle.player}'s "
                          f"placement of tile {puzzle.tile}")
    for plan in (puzzle.best, *puzzle.accepted, puzzle.runner_up):
        try:
            play_turn(state, plan)
        except PuzzleError as err:
            raise PuzzleError(f"puzzle {puzzle.number}: {err}") from None
    if puzzle.runner_up in puzzle.accepted:
        raise PuzzleError(f"puzzle {puzzle.number}: the runner-up is an accepted turn")
    return state


@cache
def shipped(edition: str) -> tuple[Puzzle, ...]:
    """The puzzles shipped for ``edition`` (:data:`EDITIONS`), read once."""
    if edition not in EDITIONS:
        raise KeyError(edition)
    text = resources.files("huntgather.data").joinpath("puzzles", f"{edition}.jsonl").read_text("utf-8")
    return tuple(read_puzzles(text))


def of_the_day(edition: str, day: date) -> Puzzle:
    """The puzzle of the day ``day`` (a UTC date) for ``edition``: the same for everyone."""
    found = shipped(edition)
    digest = hashlib.sha256(f"puzzle of the day|{edition}|{day.isoformat()}".encode()).digest()
    return found[int.from_bytes(digest[:8], "big") % len(found)]


def turns_view(state: State) -> list[dict[str, Any]]:
    """Every way to play the placement ``state`` asks for: each placement (``place``, its square
    and rotation) with the pieces that may follow it (``pieces``: each ``move`` with its
    ``piece``, ``zone``, ``role`` and ``kind``; ``-`` for none), as the puzzle page offers them."""
    out: list[dict[str, Any]] = []
    player = state.player
    for move in state.legal_moves():
        assert isinstance(move, Place)
        after = state.copy()
        after.apply(move, quiet=True)
        pieces: list[dict[str, Any]] = []
        if not after.is_over and not after.is_chance and after.player == player and after.phase != PLACE:
            for follow in after.legal_moves():
                if isinstance(follow, Occupy):
                    kind = after.board.zone(follow.tile, follow.zone).kind
                    pieces.append({"move": str(follow), "piece": str(follow.piece), "zone": follow.zone,
                                   "role": role_of(kind, follow.piece), "kind": str(kind)})
                elif isinstance(follow, Pass):
                    pieces.append({"move": str(follow)})
        out.append({"place": str(move), "x": move.x, "y": move.y, "rotation": move.rotation,
                    "pieces": pieces})
    return out


#: the first hint: a square area of this many squares a side that holds the answer's square
AREA = 3
#: how many hints a puzzle has (:func:`hint_view`): the area, then the feature
HINTS = 2


def area_of(puzzle: Puzzle, state: State) -> dict[str, int]:
    """The first hint: an :data:`AREA` x :data:`AREA` square of the board (``x0``, ``y0``,
    ``x1``, ``y1``, inclusive) that holds the answer's square, but not at a place that gives it
    away: of the squares that hold it, the one with the most squares where the tile may go
    (the first by its corner, left to right then top to bottom, on a tie)."""
    first = moves_of(puzzle.best)[0]
    assert isinstance(first, Place)
    open_squares = {(m.x, m.y) for m in state.legal_moves() if isinstance(m, Place)}
    best: tuple[int, int, int] | None = None
    for dy in range(AREA):
        for dx in range(AREA):
            x0, y0 = first.x - dx, first.y - dy
            inside = sum(1 for x, y in open_squares if x0 <= x < x0 + AREA and y0 <= y < y0 + AREA)
            key = (-inside, y0, x0)
            if best is None or key < best:
                best = key
    assert best is not None
    _, y0, x0 = best
    return {"x0": x0, "y0": y0, "x1": x0 + AREA - 1, "y1": y0 + AREA - 1}


def hint_view(puzzle: Puzzle, k: int) -> dict[str, Any]:
    """Hint ``k`` (1 to :data:`HINTS`) of a puzzle: 1, the area (:func:`area_of`); 2, the feature
    that matters: ``{"fact": "scores", "kind"}`` (the answer scores it for the player),
    ``{"fact": "occupies", "kind", "role"}`` (its piece takes it) or ``{"fact": "place"}``
    (neither: where the tile helps later).  :class:`KeyError` for another ``k``."""
    if k == 1:
        return {"hint": 1, "area": area_of(puzzle, puzzle.state())}
    if k != 2:
        raise KeyError(k)
    for fact in puzzle.facts_best:
        if fact["fact"] == "scores" and fact["points"][puzzle.player] > 0:
            return {"hint": 2, "fact": "scores", "kind": str(fact["kind"])}
    for fact in puzzle.facts_best:
        if fact["fact"] == "occupies":
            after = play_turn(puzzle.state(), puzzle.best)
            kind = after.board.zone(int(fact["tile"]), int(fact["zone"])).kind
            return {"hint": 2, "fact": "occupies", "kind": str(kind), "role": str(fact["role"])}
    return {"hint": 2, "fact": "place"}


def puzzle_view(puzzle: Puzzle, count: int) -> dict[str, Any]:
    """A puzzle as the page shows it (``GET /api/puzzles/…``, docs/protocol.md): the position
    (board, pieces, scores), the tile in hand, every way to play it, its difficulty and the first
    hint (the area, :func:`area_of`), but not the answer (:func:`solution_view`); ``count``: how
    many puzzles the edition has."""
    state = puzzle.state()
    board = state.board
    occupants = []
    for where, player, piece in sorted(board.pieces()):
        x, y = board.where[where.tile]
        occupants.append({"tile": where.tile, "zone": where.zone, "x": x, "y": y, "player": player,
                          "piece": str(piece), "role": role_of(board.zone(*where).kind, piece)})
    return {
        "edition": puzzle.edition, "number": puzzle.number, "count": count,
        "players": state.players, "player": puzzle.player, "tile": puzzle.tile,
        "difficulty": puzzle.difficulty, "scores": list(state.scores),
        "board": [{"x": x, "y": y, "tile": t, "rotation": r} for (x, y), (t, r) in board.cells.items()],
        "occupants": occupants,
        "turns": turns_view(state),
        "hints": HINTS, "area": area_of(puzzle, state),
    }


def solution_view(puzzle: Puzzle) -> dict[str, Any]:
    """The answer of a puzzle and its explanation (``GET …/{n}/solution``, and a right answer's):
    the best turn, the runner-up, the expected margins and win chances after each, their scoring
    facts."""
    return {
        "edition": puzzle.edition, "number": puzzle.number,
        "best": list(puzzle.best), "runner_up": list(puzzle.runner_up),
        "chance_best": puzzle.chance_best, "chance_runner_up": puzzle.chance_runner_up,
        "margin_best": puzzle.margin_best, "margin_runner_up": puzzle.margin_runner_up,
        "facts_best": list(puzzle.facts_best), "facts_runner_up": list(puzzle.facts_runner_up),
    }


def index_view(edition: str) -> dict[str, Any]:
    """Every puzzle of ``edition`` in a word: its difficulty and its number of players, in order
    (``GET /api/puzzles/{edition}``: the page's filter and "next harder")."""
    found = shipped(edition)
    return {"edition": edition, "count": len(found),
            "difficulty": [p.difficulty for p in found], "players": [p.players for p in found]}
