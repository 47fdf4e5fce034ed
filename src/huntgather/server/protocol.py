"""The wire format (see ``docs/protocol.md``): bounded JSON, structured moves, views.

Everything a client sends is read through :func:`read_json` (size, depth and
number limits) and every move through :func:`move_from_json`; everything the
server sends about a game is built here from the engine's state and events, so
that all pages of a game receive the same public facts.

>>> read_json('{"type": "hello", "secrets": []}')
{'type': 'hello', 'secrets': []}
>>> read_json('[' * 40 + ']' * 40)
Traceback (most recent call last):
...
huntgather.server.protocol.ProtocolError: the message is nested more than 32 deep
>>> from huntgather import Game
>>> g = Game(2, seed=3)
>>> move = move_from_json(g.state, {"kind": "place", "x": 1, "y": 0, "rotation": 0})
>>> type(move).__name__, move.tile == g.decision.tile
('Place', True)
>>> move_to_json(g.state, move)
{'kind': 'place', 'x': 1, 'y': 0, 'rotation': 0}
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

import orjson

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
from huntgather.moves import HUT, MEEPLE, Choose, Move, Occupy, Pass, Place, TakeBack
from huntgather.outlook import stuck_meeples
from huntgather.server.words import occupant_phrase, zone_phrase
from huntgather.state import OCCUPY, PLACE, SPECIAL, State
from huntgather.svg import PLAYER_COLOURS, PLAYER_LETTERS, PLAYER_NAMES

#: the largest websocket frame or HTTP body a client may send
MAX_MESSAGE = 64 * 1024
MAX_DEPTH = 32
MAX_DIGITS = 20
#: coordinates beyond this cannot be reached in any game (95 tiles in a row reach 95)
MAX_COORD = 1000


class ProtocolError(ValueError):
    """A message the server cannot read; ``code`` is the error code sent back."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ProtocolError("bad_json", f"numbers have at most {MAX_DIGITS} digits")
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > 40:
        raise ProtocolError("bad_json", "numbers have at most 40 characters")
    return float(text)


def _no_constant(text: str) -> Any:
    raise ProtocolError("bad_json", f"{text} is not a JSON number")


def _depth(text: str) -> int:
    """How deeply arrays and objects nest in JSON ``text`` (brackets inside strings do not count)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def read_json(text: str | bytes) -> Any:
    """Parse a client's JSON within the limits; raise :class:`ProtocolError` saying what is wrong."""
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("too_large", f"a message may be at most {MAX_MESSAGE // 1024} KiB")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_json", "the message is not UTF-8 text") from None
    if _depth(text) > MAX_DEPTH:
        raise ProtocolError("bad_json", f"the message is nested more than {MAX_DEPTH} deep")
    try:
        return json.loads(text, parse_int=_bounded_int, parse_float=_bounded_float,
                          parse_constant=_no_constant)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("bad_json", "the message is not valid JSON") from None


def error(code: str, message: str, request: Any, version: int | None) -> dict[str, Any]:
    """An ``error`` message: its code, the reason in words, the request it answers, the game's version."""
    return {"type": "error", "code": code, "message": message, "request": request, "version": version}


# --------------------------------------------------------------------------- the connection

#: seconds between two ``ping`` messages of the server to each page; a page answers each with a
#: ``pong``, and a page that hears nothing for about two of them knows its socket is dead
HEARTBEAT = 5.0
#: a page the server has heard nothing from for this many seconds (no ``pong``, nothing) is
#: closed with code 4009 (``silent``): its seats show offline to the others within
#: ``SILENT_AFTER + HEARTBEAT`` seconds of its last word
SILENT_AFTER = 20.0


def welcome(game_id: str, seats: Iterable[int], creator: bool, version: int, refused: Iterable[int],
            heartbeat: float | None) -> dict[str, Any]:
    """The answer to ``hello``: the seats this page holds, whether it holds the creator's secret,
    the game's version, the positions in ``hello``'s ``secrets`` of the secrets that hold nothing
    in this game (the page forgets them), and the seconds between the server's pings."""
    return {"type": "welcome", "game": game_id, "seats": sorted(seats), "creator": creator,
            "version": version, "refused": sorted(refused), "heartbeat": heartbeat}


def ping() -> dict[str, Any]:
    """The server's heartbeat, every :data:`HEARTBEAT` seconds; the page answers :func:`pong`
    (and a page may send one too: the server answers it with a ``pong``)."""
    return {"type": "ping"}


def pong() -> dict[str, Any]:
    """The answer to a ``ping``."""
    return {"type": "pong"}


def dumps(message: dict[str, Any]) -> str:
    """The text of a message sent to clients: compact JSON, by orjson (about 7 times faster than
    the standard library's encoder on a game update, which every page of a game receives).

    What orjson refuses — a lone surrogate or an integer beyond 64 bits, which only a client's own
    ``request`` label can bring — is written by the standard library instead.

    >>> dumps({"type": "ack", "request": 10**20, "version": 3})
    '{"type":"ack","request":100000000000000000000,"version":3}'
    >>> dumps({"request": "\\ud800", 1: ("é",)})
    '{"request":"\\\\ud800","1":["\\\\u00e9"]}'
    """
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(message, separators=(",", ":"))


# --------------------------------------------------------------------------- moves


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ProtocolError("invalid_move", f"a {data.get('kind')} move needs {key!r}: a whole number "
                                            f"from {low} to {high}")
    return value


_DISPLAY_KEYS = {"text", "role", "x", "y", "tile"}
_MOVE_KEYS = {"place": {"kind", "x", "y", "rotation"}, "occupy": {"kind", "zone", "piece"},
              "takeback": {"kind", "tile", "zone"}, "choose": {"kind", "option"}, "pass": {"kind"}}
_OPTION = re.compile(r"[a-z][a-z0-9_]{0,39}")


def move_from_json(state: State, data: Any) -> Move:
    """The engine move for a structured move at ``state``'s decision.

    The tile is implied: ``place`` places the tile to place, ``occupy`` puts a
    piece on the tile just placed.  Raises :class:`ProtocolError`
    (``invalid_move``) for a move of the wrong shape; whether it is *legal* is
    the engine's business.
    """
    if not isinstance(data, dict) or data.get("kind") not in _MOVE_KEYS:
        raise ProtocolError("invalid_move", "a move is an object whose 'kind' is 'place', 'occupy', "
                                            "'takeback', 'choose' or 'pass'")
    kind = data["kind"]
    extra = set(data) - _MOVE_KEYS[kind] - _DISPLAY_KEYS
    if extra:
        raise ProtocolError("invalid_move", f"unknown field(s) in a {kind} move: {', '.join(sorted(extra))}")
    if kind == "pass":
        return Pass()
    if kind == "takeback":
        return TakeBack(_int(data, "tile", 0, 999), _int(data, "zone", 0, 9))
    if kind == "choose":
        option = data.get("option")
        if not isinstance(option, str) or not _OPTION.fullmatch(option):
            raise ProtocolError("invalid_move", "a choose move needs 'option': one lower-case word")
        return Choose(option)
    tile = state.tile
    if tile is None or state.phase not in (PLACE, SPECIAL, OCCUPY):
        raise ProtocolError("invalid_move", f"a {kind} move does not answer this decision: "
                                            f"{state.describe_decision()}")
    if kind == "place":
        return Place(tile, _int(data, "x", -MAX_COORD, MAX_COORD), _int(data, "y", -MAX_COORD, MAX_COORD),
                     _int(data, "rotation", 0, 3))
    piece = data.get("piece")
    if piece not in (MEEPLE, HUT):
        raise ProtocolError("invalid_move", "an occupy move needs 'piece': 'meeple' or 'hut'")
    return Occupy(tile, _int(data, "zone", 0, 9), piece)


def _place_json(x: int, y: int, rotation: int) -> dict[str, Any]:
    """The structured form of a placement (one form for :func:`move_to_json` and :func:`legal_json`)."""
    return {"kind": "place", "x": x, "y": y, "rotation": rotation}


def move_to_json(state: State, move: Move) -> dict[str, Any]:
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


def legal_json(state: State) -> list[dict[str, Any]]:
    """The legal moves at ``state`` for the player to move, with words for the choices."""
    if state.is_over or state.is_chance:
        return []
    tiles = state.edition.tiles
    if state.phase == PLACE:   # the common case, sent in every update: no Place made for each
        assert state.tile is not None
        return [_place_json(x, y, r) for x, y, r in state.board.placements(tiles.by_id[state.tile])]
    out = []
    for move in state.legal_moves():
        item = move_to_json(state, move)
        if isinstance(move, Occupy):
            role = role_of(tiles[move.tile].zones[move.zone].kind, move.piece)
            item["role"] = role
            item["text"] = f"{role} on {_zone_words(state, move.tile, move.zone)}"
        elif isinstance(move, TakeBack):
            x, y = state.board.where[move.tile]
            words = f"take back your meeple from {_zone_words(state, move.tile, move.zone)}"
            item |= {"x": x, "y": y, "text": words}
        elif isinstance(move, Choose):
            item["text"] = state.asking_special().option_words(move.option)
        elif isinstance(move, Pass):
            item["text"] = state.asking_special().decline if state.phase == SPECIAL else "no piece"
        out.append(item)
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


def event_view(e: Event, state: State) -> dict[str, Any]:
    """One log entry: event kind, text (see :func:`event_text`), and the facts a page draws from it."""
    out: dict[str, Any] = {"kind": type(e).__name__, "text": event_text(e, state)}
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


def final_view(events: Sequence[Event]) -> dict[str, Any] | None:
    """The final-scoring table: one row per river system (huts) and meadow (hunters)."""
    final = next((e for e in reversed(events) if isinstance(e, FinalScoring)), None)
    over = next((e for e in reversed(events) if isinstance(e, GameOver)), None)
    if final is None or over is None:
        return None
    return {"rows": [{"kind": r.kind, "points": list(r.points), "explanation": r.explanation,
                      "tiles": list(r.tiles)} for r in final.rows],
            "scores": list(over.scores), "winners": list(over.winners), "text": over.describe()}


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


def decision_view(state: State) -> dict[str, Any]:
    d = state.decision
    out = {"phase": d.word, "player": d.player, "tile": d.tile, "stack": d.stack,
           "text": decision_text(state)}
    if d.special is not None:   # a special's question: "phase" is the special's name ("shaman")
        out |= {"special": d.special, "prompt": state.asking_special().prompt}
    return out


def players_view(state: State) -> list[dict[str, Any]]:
    return [{"seat": i, "colour": PLAYER_NAMES[i], "rgb": PLAYER_COLOURS[i], "letter": PLAYER_LETTERS[i],
             "score": state.scores[i], "meeples": state.meeples[i], "huts": state.huts[i]}
            for i in range(state.players)]


def occupants_view(state: State) -> list[dict[str, Any]]:
    """The pieces on the board; ``stuck`` marks a fisher or gatherer whose river or forest no
    tile left can complete (:func:`huntgather.outlook.stuck_meeples`)."""
    board = state.board
    stuck = {where for _player, where in stuck_meeples(state)}
    out = []
    for where, player, piece in sorted(board.pieces()):
        x, y = board.where[where.tile]
        role = role_of(board.zone(*where).kind, piece)
        out.append({"tile": where.tile, "zone": where.zone, "x": x, "y": y, "player": player,
                    "piece": piece, "role": role, "stuck": where in stuck})
    return out


def last_view(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The tiles placed in the last turn (a menhir turn's two tiles together)."""
    last: list[dict[str, Any]] = []
    for e in reversed(events):
        if isinstance(e, TilePlaced):
            if last and last[0]["player"] != e.player:
                break
            last.insert(0, {"tile": e.tile, "x": e.x, "y": e.y, "player": e.player})
            if not e.bonus:
                break
    return last


def _changing(game: Game, seed: int) -> dict[str, Any]:
    """The parts of a view that are sent whole in snapshots and updates alike."""
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
    }


def snapshot(game: Game, game_id: str, seed: int, deal: str, *, replay: bool = False) -> dict[str, Any]:
    """The whole public view of a game (what a watcher sees)."""
    state = game.state
    out = {"type": "snapshot", "game": game_id, "version": len(game.history), "edition": state.edition.name,
           "bonus_name": state.edition.bonus_name, "deal": deal,
           "board": [{"x": x, "y": y, "tile": t, "rotation": r}
                     for (x, y), (t, r) in state.board.cells.items()],
           "log": [event_view(e, state) for e in game.events], "replay": replay}
    out |= _changing(game, seed)
    if replay:
        out["legal"] = []
    return out


def update(game: Game, game_id: str, seed: int, start: int, new_events: Sequence[Event]) -> dict[str, Any]:
    """What changed since version ``start``: the new events and tiles, and the new decision."""
    out = {"type": "update", "game": game_id, "from": start, "version": len(game.history),
           "events": [event_view(e, game.state) for e in new_events],
           "placed": [{"x": e.x, "y": e.y, "tile": e.tile, "rotation": e.rotation}
                      for e in new_events if isinstance(e, TilePlaced)]}
    out |= _changing(game, seed)
    return out
