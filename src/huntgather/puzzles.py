"""The shipped puzzles: reading, checking, and the puzzle of the day (docs/learn.md, "Puzzles").

The puzzles of an edition are ``huntgather/data/puzzles/{edition}.jsonl``, one JSON object a
line, as ``huntgather puzzles mine`` (:mod:`huntgather.bots.puzzles`) writes them; a puzzle's
number is its line's, from 1.  The puzzle of the day is the same for everyone on a UTC date:
a hash of the date and the edition picks it.

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
            float(entry.get("predicted_runner_up", 0.0)), dict(entry.get("source") or {}))
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


def puzzle_view(puzzle: Puzzle, count: int) -> dict[str, Any]:
    """A puzzle as the page shows it (``GET /api/puzzles/…``, docs/protocol.md): the position
    (board, pieces, scores), the tile in hand, every way to play it, the answer and its scoring
    facts; ``count``: how many puzzles the edition has."""
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
        "best": list(puzzle.best), "accepted": [list(p) for p in puzzle.accepted],
        "runner_up": list(puzzle.runner_up),
        "chance_best": puzzle.chance_best, "chance_runner_up": puzzle.chance_runner_up,
        "margin_best": puzzle.margin_best, "margin_runner_up": puzzle.margin_runner_up,
        "facts_best": list(puzzle.facts_best), "facts_runner_up": list(puzzle.facts_runner_up),
    }
