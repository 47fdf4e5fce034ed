"""The engine's position behind a public view, so that a bot of this package can choose a move.

A view holds no engine state, but its log holds every move that counts (the
draws, placements, pieces and shaman take-backs; a ``pass`` leaves no entry)
and ``remaining`` what is left of the normal stack.  :func:`state_of` plays the
log again from a new game whose normal stack is ``remaining`` plus the normal
tiles drawn, so the position it gives is the one the server holds, minus the
order of the stacks (which no bot may see anyway).  :func:`move_json` and
:func:`turn_json` give moves back in the form the server reads.

>>> from huntgather.moves import Occupy, Pass, Place
>>> turn_json([Place(30, 1, 0, 2), Occupy(30, 1), Pass()])
[{'kind': 'place', 'x': 1, 'y': 0, 'rotation': 2}, {'kind': 'occupy', 'zone': 1, 'piece': 'meeple'}, \
{'kind': 'pass'}]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from huntgather.editions import get_edition
from huntgather.kinds import Phase
from huntgather.moves import Draw, Move, Occupy, Pass, Place, TakeBack
from huntgather.state import State

__all__ = ["bot_turn", "move_json", "state_of", "turn_json"]

#: the decision each kind of move answers
_ANSWERS: dict[type, Phase] = {Draw: Phase.DRAW, Place: Phase.PLACE, TakeBack: Phase.SPECIAL,
                               Occupy: Phase.OCCUPY}
#: the decisions a ``pass`` answers (so a log without an entry for them skips them)
_SKIPPABLE = (Phase.OCCUPY, Phase.SPECIAL)


def _move_of(entry: dict[str, Any]) -> Move | None:
    """The move behind a log entry, or None for an entry that follows from moves (scoring...)."""
    kind = entry.get("kind")
    if kind == "TileDrawn":
        return Draw(entry["tile"])
    if kind == "TilePlaced":
        return Place(entry["tile"], entry["x"], entry["y"], entry["rotation"])
    if kind == "OccupantPlaced":
        return Occupy(entry["tile"], entry["zone"], entry["piece"])
    if kind == "MeepleTakenBack":
        return TakeBack(entry["tile"], entry["zone"])
    return None


def state_of(view: dict[str, Any]) -> State:
    """The engine position of a view (a ``snapshot``, kept up to date with updates).

    Raises :class:`ValueError` (an :class:`~huntgather.state.IllegalMoveError`
    among them) when the log does not play again to the view's decision and
    scores, which happens only with a view of another huntgather's rules.
    """
    edition = get_edition(view["edition"])
    log = view["log"]
    placed = [e for e in log if e.get("kind") == "TilePlaced"]
    start = placed[0]["player"] if placed else (view["decision"].get("player") or 0)
    state = State.new(len(view["players"]), edition, start)
    normal = set(edition.tiles.normal_ids)
    drawn = [e["tile"] for e in log if e.get("kind") == "TileDrawn" and e["tile"] in normal]
    state.normal = tuple(sorted([*view["remaining"], *drawn]))
    for entry in log:
        move = _move_of(entry)
        if move is None:
            continue
        while state.phase is not _ANSWERS[type(move)] and state.phase in _SKIPPABLE:
            state.apply(Pass())
        state.apply(move)
    decision = view["decision"]
    def behind() -> bool:
        return bool(state.phase != decision["phase"] or state.player != decision["player"])

    while state.phase in _SKIPPABLE and behind():
        state.apply(Pass())
    scores = [p["score"] for p in view["players"]]
    if state.phase != decision["phase"] or state.scores != scores:
        raise ValueError(f"the log of version {view['version']} plays again to {state.describe_decision()} "
                         f"with scores {state.scores}, not to {decision.get('text')} with scores {scores}")
    return state


def move_json(move: Move) -> dict[str, Any]:
    """An engine move in the form the server reads (``docs/protocol.md``, MOVE)."""
    match move:
        case Place():
            return {"kind": "place", "x": move.x, "y": move.y, "rotation": move.rotation}
        case Occupy():
            return {"kind": "occupy", "zone": move.zone, "piece": str(move.piece)}
        case TakeBack():
            return {"kind": "takeback", "tile": move.tile, "zone": move.zone}
        case Pass():
            return {"kind": "pass"}
    raise ValueError(f"{move!r} is not a player's move")


def turn_json(moves: Sequence[Move]) -> list[dict[str, Any]]:
    """The moves of a turn in the form the server reads."""
    return [move_json(m) for m in moves]


def bot_turn(state: State, choose: Callable[[State], Move]) -> list[Move]:
    """A whole turn of the player to place a tile in ``state``: ``choose`` (a bot's ``choose``)
    answers each decision of the turn, on a copy, until the turn is over (a draw or another
    player's decision)."""
    if state.phase is not Phase.PLACE:
        raise ValueError(f"a turn starts with a tile to place, not with {state.describe_decision()}")
    trial = state.copy()
    player = trial.player
    moves: list[Move] = []
    while True:
        move = choose(trial)
        moves.append(move)
        trial.apply(move)
        if trial.phase not in _SKIPPABLE or trial.player != player:
            return moves
