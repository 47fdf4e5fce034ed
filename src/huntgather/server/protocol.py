"""The wire format (see ``docs/protocol.md``): bounded JSON, structured moves, views.

Everything a client sends is read through :func:`~huntgather.server.codec.read_json` (size,
depth and number limits), checked against its declaration (:mod:`huntgather.server.messages`),
and every move read through :func:`move_from_json`; everything the
server sends about a game is built here from the engine's state and events, so
that all pages of a game receive the same public facts.

>>> from huntgather import Game
>>> g = Game(2, seed=3)
>>> move = move_from_json(g.state, {"kind": "place", "x": 1, "y": 0, "rotation": 0})
>>> type(move).__name__, move.tile == g.decision.tile
('Place', True)
>>> move_to_json(g.state, move)
{'kind': 'place', 'x': 1, 'y': 0, 'rotation': 0}
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from huntgather.events import (
    Event,
    FeatureScored,
    FinalScoring,
    GameOver,
    MeepleTakenBack,
    OccupantPlaced,
    OccupantsReturned,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
)
from huntgather.game import Game
from huntgather.kinds import role_of
from huntgather.moves import Choose, Move, Occupy, Pass, Place, TakeBack
from huntgather.outlook import stuck_meeples
from huntgather.server import messages as wire
from huntgather.server.codec import ProtocolError
from huntgather.server.fields import checker
from huntgather.server.messages import MOVES
from huntgather.server.seats import Deal
from huntgather.server.words import occupant_phrase, zone_phrase
from huntgather.state import OCCUPY, PLACE, SPECIAL, State
from huntgather.svg import PLAYER_COLOURS, PLAYER_LETTERS, PLAYER_NAMES


def error(code: str, message: str, request: Any, version: int | None,
          explain: str | None = None) -> wire.Error:
    """An ``error`` message: its code, the reason in words, the request it answers, the game's
    version, and the key of the words that explain it (where it has one)."""
    out: wire.Error = {"type": wire.MessageType.ERROR, "code": wire.ErrorCode(code), "message": message,
                       "request": request, "version": version}
    if explain is not None:
        out["explain"] = explain
    return out


# --------------------------------------------------------------------------- the connection

#: seconds between two ``ping`` messages of the server to each page; a page answers each with a
#: ``pong``, and a page that hears nothing for about two of them knows its socket is dead
HEARTBEAT = 5.0
#: a page the server has heard nothing from for this many seconds (no ``pong``, nothing) is
#: closed with code 4009 (``silent``): its seats show offline to the others within
#: ``SILENT_AFTER + HEARTBEAT`` seconds of its last word
SILENT_AFTER = 20.0
#: a socket that has not said ``hello`` this many seconds after it opened is closed with code 4408
#: (``no_hello``): a socket holds its game in memory, so none may stay without a page behind it
HELLO_TIMEOUT = 10.0


def welcome(game_id: str, seats: Iterable[int], creator: bool, version: int, refused: Iterable[int],
            heartbeat: float | None) -> wire.Welcome:
    """The answer to ``hello``: the seats this page holds, whether it holds the creator's secret,
    the game's version, the positions in ``hello``'s ``secrets`` of the secrets that hold nothing
    in this game (the page forgets them), and the seconds between the server's pings."""
    return {"type": wire.MessageType.WELCOME, "game": game_id, "seats": sorted(seats), "creator": creator,
            "version": version, "refused": sorted(refused), "heartbeat": heartbeat}


def ping() -> wire.Ping:
    """The server's heartbeat, every :data:`HEARTBEAT` seconds; the page answers :func:`pong`
    (and a page may send one too: the server answers it with a ``pong``)."""
    return {"type": wire.MessageType.PING}


def pong() -> wire.Pong:
    """The answer to a ``ping``."""
    return {"type": wire.MessageType.PONG}


# --------------------------------------------------------------------------- moves


def move_from_json(state: State, data: Any) -> Move:
    """The engine move for a structured move at ``state``'s decision.

    The tile is implied: ``place`` places the tile to place, ``occupy`` puts a
    piece on the tile just placed.  Raises :class:`ProtocolError`
    (``invalid_move``) for a move of the wrong shape (its declaration:
    :data:`huntgather.server.messages.MOVES`); whether it is *legal* is the
    engine's business.
    """
    shape = MOVES.get(data.get("kind")) if isinstance(data, dict) else None   # type: ignore[arg-type]
    if shape is None:
        raise ProtocolError("invalid_move", "a move is an object whose 'kind' is 'place', 'occupy', "
                                            "'takeback', 'choose' or 'pass'")
    kind = data["kind"]
    move = checker(shape, "invalid_move", f"{kind} move")(data)
    if kind == "pass":
        return Pass()
    if kind == "takeback":
        return TakeBack(move["tile"], move["zone"])
    if kind == "choose":
        return Choose(move["option"])
    tile = state.tile
    if tile is None or state.phase not in (PLACE, SPECIAL, OCCUPY):
        raise ProtocolError("invalid_move", f"a {kind} move does not answer this decision: "
                                            f"{state.describe_decision()}")
    if kind == "place":
        return Place(tile, move["x"], move["y"], move["rotation"])
    return Occupy(tile, move["zone"], move["piece"])


def _place_json(x: int, y: int, rotation: int) -> wire.PlaceMove:
    """The structured form of a placement (one form for :func:`move_to_json` and :func:`legal_json`)."""
    return {"kind": "place", "x": x, "y": y, "rotation": rotation}


def move_to_json(state: State, move: Move) -> wire.Move:
    """The structured form of an engine move (as :func:`move_from_json` reads it)."""
    if isinstance(move, Place):
        return _place_json(move.x, move.y, move.rotation)
    if isinstance(move, Occupy):
        return {"kind": "occupy", "zone": move.zone, "piece": move.piece}
    if isinstance(move, TakeBack):
        return {"kind": "takeback", "tile": move.tile, "zone": move.zone}
    if isinstance(move, Choose):
        return {"kind": "choose", "option": move.option}
    return {"kind": "pass"}


def legal_json(state: State) -> list[wire.Move]:
    """The legal moves at ``state`` for the player to move, with words for the choices."""
    if state.is_over or state.is_chance:
        return []
    tiles = state.edition.tiles
    if state.phase == PLACE:   # the common case, sent in every update: no Place made for each
        assert state.tile is not None
        return [_place_json(x, y, r) for x, y, r in state.board.placements(tiles.by_id[state.tile])]
    out: list[wire.Move] = []
    for move in state.legal_moves():
        if isinstance(move, Occupy):
            role = role_of(tiles[move.tile].zones[move.zone].kind, move.piece)
            out.append({"kind": "occupy", "zone": move.zone, "piece": move.piece, "role": role,
                        "text": f"{role} on {_zone_words(state, move.tile, move.zone)}"})
        elif isinstance(move, TakeBack):
            x, y = state.board.where[move.tile]
            words = f"take back your meeple from {_zone_words(state, move.tile, move.zone)}"
            out.append({"kind": "takeback", "tile": move.tile, "zone": move.zone, "x": x, "y": y,
                        "text": words})
        elif isinstance(move, Choose):
            out.append({"kind": "choose", "option": move.option,
                        "text": state.asking_special().option_words(move.option)})
        elif isinstance(move, Pass):
            out.append({"kind": "pass",
                        "text": state.asking_special().decline if state.phase == SPECIAL else "no piece"})
        else:
            out.append(move_to_json(state, move))
    return out


def _rotation(state: State, tile: int) -> int:
    """How far the tile ``tile`` on the board is turned."""
    return state.board.cells[state.board.where[tile]][1]


def _zone_words(state: State, tile: int, zone: int) -> str:
    """A zone of a tile on the board, in words (``'the river to the north (1 fish)'``)."""
    return zone_phrase(state.edition.tiles[tile], zone, _rotation(state, tile))


def describe_turn(state: State, moves: Sequence[Move]) -> str:
    """Words for a turn, e.g. ``'the tile turned 90°; gatherer on the forest to the east (1 menhir)'``.

    No ids or coordinates: the page marks the square on the board.
    """
    tiles = state.edition.tiles
    parts = []
    walk = state.copy()
    for move in moves:
        phase = walk.phase
        special = walk.asking_special() if phase == SPECIAL else None
        walk.apply(move)
        if isinstance(move, Place):
            parts.append(f"the tile turned {90 * move.rotation}°" if move.rotation else "the tile as drawn")
        elif isinstance(move, TakeBack):
            parts.append(f"shaman: take back the meeple from {_zone_words(walk, move.tile, move.zone)}")
        elif isinstance(move, Occupy):
            who = role_of(tiles[move.tile].zones[move.zone].kind, move.piece)
            parts.append(f"{who} on {_zone_words(walk, move.tile, move.zone)}")
        elif isinstance(move, Choose) and special is not None:
            parts.append(f"{special.title}: {special.option_words(move.option)}")
        elif special is not None:
            parts.append(f"{special.title}: {special.decline}")
        else:
            parts.append("no piece")
    return "; ".join(parts)


# --------------------------------------------------------------------------- views


def event_text(e: Event, state: State) -> str:
    """A log line in a player's words (no tile or zone ids, no coordinates); ``state`` is any
    state of the game from the event on (it only looks up where tiles lie and the edition)."""
    bonus = state.edition.bonus_name
    if isinstance(e, TileDrawn):
        return f"a {bonus} is drawn" if e.stack == "bonus" else "a tile is drawn"
    if isinstance(e, TileDiscarded):
        return "the tile drawn fits nowhere: it is put out of the game and another one is drawn"
    if isinstance(e, TilePlaced):
        return f"{PLAYER_NAMES[e.player]} places a {bonus if e.bonus else 'tile'}"
    if isinstance(e, OccupantPlaced):
        phrase = occupant_phrase(state.edition.tiles[e.tile], e.zone, _rotation(state, e.tile), e.role)
        return f"{PLAYER_NAMES[e.player]} puts {phrase}"
    if isinstance(e, MeepleTakenBack):
        return (f"shaman: {PLAYER_NAMES[e.player]} takes back the meeple from "
                f"{_zone_words(state, e.tile, e.zone)}, without scoring")
    if isinstance(e, OccupantsReturned):
        back = "; ".join(f"{PLAYER_NAMES[p]} from {_zone_words(state, t, z)}" for p, t, z in e.returned)
        return f"meeples go back to their owners ({e.reason}): {back}"
    return e.describe()


def event_view(e: Event, state: State) -> wire.EventView:
    """One log entry: event kind, text (see :func:`event_text`), and the facts a page draws from it."""
    out: wire.EventView = {"kind": type(e).__name__, "text": event_text(e, state)}
    if isinstance(e, TilePlaced):
        out |= {"player": e.player, "tile": e.tile, "x": e.x, "y": e.y, "rotation": e.rotation,
                "bonus": e.bonus}
    elif isinstance(e, OccupantPlaced):
        out |= {"player": e.player, "tile": e.tile, "zone": e.zone, "piece": e.piece, "role": e.role}
    elif isinstance(e, MeepleTakenBack):
        out |= {"player": e.player, "tile": e.tile, "zone": e.zone}
    elif isinstance(e, OccupantsReturned):
        out["returned"] = [{"player": p, "tile": t, "zone": z} for p, t, z in e.returned]
    elif isinstance(e, FeatureScored):
        out |= {"points": list(e.points), "tiles": list(e.tiles), "feature": e.kind}
    elif isinstance(e, TileDrawn | TileDiscarded):
        out["tile"] = e.tile
    return out


def final_view(events: Sequence[Event]) -> wire.FinalView | None:
    """The final-scoring table: one row per river system (huts) and meadow (hunters)."""
    final = next((e for e in reversed(events) if isinstance(e, FinalScoring)), None)
    over = next((e for e in reversed(events) if isinstance(e, GameOver)), None)
    if final is None or over is None:
        return None
    return {"rows": [{"kind": r.kind, "points": list(r.points), "explanation": r.explanation,
                      "tiles": list(r.tiles)} for r in final.rows],
            "scores": list(over.scores), "winners": list(over.winners), "text": over.describe()}


def projection_view(state: State) -> wire.ProjectionView:
    """What final scoring would give now, and each seat's score with it (the live projection)."""
    rows = state.final_rows()
    scores = list(state.scores)
    for row in rows:
        for i, points in enumerate(row.points):
            scores[i] += points
    return {"rows": [{"kind": r.kind, "points": list(r.points), "explanation": r.explanation,
                      "tiles": list(r.tiles)} for r in rows],
            "scores": scores}


def decision_text(state: State) -> str:
    """The decision in a player's words: ``'red to place a menhir tile'`` (no tile ids)."""
    d = state.decision
    name = PLAYER_NAMES[d.player] if d.player is not None else ""
    if d.phase == PLACE:
        what = f"a {state.edition.bonus_name}" if d.stack == "bonus" else "the tile drawn"
        return f"{name} to place {what}"
    if d.phase == OCCUPY:
        return f"{name} may put a meeple or a hut on the tile just placed"
    return state.describe_decision()


def decision_view(state: State) -> wire.DecisionView:
    d = state.decision
    out: wire.DecisionView = {"phase": d.word, "player": d.player, "tile": d.tile, "stack": d.stack,
                              "text": decision_text(state)}
    if d.special is not None:   # a special's question: "phase" is the special's name ("shaman")
        out |= {"special": d.special, "prompt": state.asking_special().prompt}
    return out


def players_view(state: State) -> list[wire.PlayerView]:
    return [{"seat": i, "colour": PLAYER_NAMES[i], "rgb": PLAYER_COLOURS[i], "letter": PLAYER_LETTERS[i],
             "score": state.scores[i], "meeples": state.meeples[i], "huts": state.huts[i]}
            for i in range(state.players)]


def occupants_view(state: State) -> list[wire.OccupantView]:
    """The pieces on the board; ``stuck`` marks a fisher or gatherer whose river or forest no
    tile left can complete (:func:`huntgather.outlook.stuck_meeples`)."""
    board = state.board
    stuck = {where for _player, where in stuck_meeples(state)}
    out: list[wire.OccupantView] = []
    for where, player, piece in sorted(board.pieces()):
        x, y = board.where[where.tile]
        role = role_of(board.zone(*where).kind, piece)
        out.append({"tile": where.tile, "zone": where.zone, "x": x, "y": y, "player": player,
                    "piece": piece, "role": role, "stuck": where in stuck})
    return out


def last_view(events: Sequence[Event]) -> list[wire.LastTile]:
    """The tiles placed in the last turn (a menhir turn's two tiles together)."""
    last: list[wire.LastTile] = []
    for e in reversed(events):
        if isinstance(e, TilePlaced):
            if last and last[0]["player"] != e.player:
                break
            last.insert(0, {"tile": e.tile, "x": e.x, "y": e.y, "player": e.player})
            if not e.bonus:
                break
    return last


def _changing(game: Game, seed: int, projections: bool) -> wire.Changing:
    """The parts of a view that are sent whole in snapshots and updates alike (``projections``:
    with the live projection while the game is on)."""
    state = game.state
    return {
        "players": players_view(state),
        "occupants": occupants_view(state),
        "remaining": sorted(state.normal),
        "bonus_left": len(state.bonus),
        "decision": decision_view(state),
        "legal": legal_json(state),
        "last": last_view(game.events),
        "over": state.is_over,
        "final": final_view(game.events) if state.is_over else None,
        "seed": seed if state.is_over else None,   # the seed only once nothing is left to hide
        "projection": projection_view(state) if projections and not state.is_over else None,
    }


def snapshot(game: Game, game_id: str, seed: int, deal: str, *, replay: bool = False,
             version: int | None = None, rated: bool = False, projections: bool = True,
             tutorial: str | None = None) -> wire.Snapshot:
    """The whole public view of a game (what a watcher sees), at ``version`` (by default the
    number of moves in its history; a game with turns taken back is further on); ``projections``:
    with the live projection (:func:`projection_view`)."""
    state = game.state
    out: wire.Snapshot = {
           "type": wire.MessageType.SNAPSHOT, "game": game_id,
           "version": len(game.history) if version is None else version,
           "edition": state.edition.name,
           "bonus_name": state.edition.bonus_name, "deal": Deal(deal),
           "board": [{"x": x, "y": y, "tile": t, "rotation": r}
                     for (x, y), (t, r) in state.board.cells.items()],
           "log": [event_view(e, state) for e in game.events], "replay": replay, "rated": rated,
           "tutorial": tutorial, **_changing(game, seed, projections)}
    if replay:
        out["legal"] = []
    return out


def update(game: Game, game_id: str, seed: int, start: int, new_events: Sequence[Event],
           version: int | None = None, *, projections: bool = True) -> wire.Update:
    """What changed since version ``start``: the new events and tiles, and the new decision
    (``version``: the new version, by default the number of moves in the game's history)."""
    return {"type": wire.MessageType.UPDATE, "game": game_id, "from": start,
            "version": len(game.history) if version is None else version,
           "events": [event_view(e, game.state) for e in new_events],
           "placed": [{"x": e.x, "y": e.y, "tile": e.tile, "rotation": e.rotation}
                      for e in new_events if isinstance(e, TilePlaced)],
            **_changing(game, seed, projections)}
