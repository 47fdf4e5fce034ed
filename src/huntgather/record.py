"""Game records and positions: a versioned, line-based text format.

A record has a header, an optional position (tiles, occupants, scores...),
then the moves, draws included, so that replaying needs no random generator.
The full grammar is in ``docs/records.md``.  A *position* is a record with no
moves; it builds any rulebook example in a few lines::

    huntgather record 1
    edition 2020
    players 2
    tile 56 0,0 r0
    tile 17 1,0 r1
    occupant 17.1 meeple 0
    moves
    d23 23@2,0r0 m23.1

>>> text = '''huntgather record 1
... edition 2020
... players 2
... moves
... '''
>>> rec = parse_record(text)
>>> rec.state.players, rec.moves
(2, [])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from huntgather.editions import DEFAULT_EDITION, get_edition
from huntgather.events import Event, player_name
from huntgather.game import Game
from huntgather.moves import HUT, MEEPLE, Draw, InvalidMoveError, Move, parse_move
from huntgather.state import DRAW, IllegalMoveError, State
from huntgather.tiles import DELTAS, DIRECTIONS, LAKE, RIVER

MAGIC = "huntgather record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read; the message names the line and what was expected."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass
class Record:
    """A parsed record: the start position, the moves and the header facts."""

    state: State
    moves: list[Move] = field(default_factory=list)
    seed: int | None = None
    result: tuple[int, ...] | None = None
    #: line number of each move, for error messages
    lines: list[int] = field(default_factory=list)

    def replay(self) -> Game:
        """Apply every move; raise :class:`RecordError` naming the line of an illegal one."""
        game = Game.replay(self.state, [])
        if self.seed is not None:
            game.seed = self.seed
        for move, line in zip(self.moves, self.lines, strict=True):
            try:
                game.events.extend(game.state.apply(move))
            except IllegalMoveError as err:
                raise RecordError(line, f"move {move} is illegal: {err}") from None
            game.history.append(move)
        if self.result is not None and game.state.is_over and tuple(game.state.scores) != self.result:
            raise RecordError(self.lines[-1] if self.lines else 0,
                              f"the record says the result is {' '.join(map(str, self.result))} but "
                              f"replaying gives {' '.join(map(str, game.state.scores))}")
        return game


_POS = re.compile(r"(-?\d+),(-?\d+)")


def _int(text: str, line: int, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RecordError(line, f"expected {what} (a whole number), got {text!r}") from None


def _zone_ref(text: str, line: int) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)\.(\d)", text)
    if not m:
        raise RecordError(line, f"expected a zone as TILE.ZONE (e.g. 17.1), got {text!r}")
    return int(m[1]), int(m[2])


def parse_record(text: str) -> Record:
    """Parse a record or a position; raise :class:`RecordError` on malformed input."""
    lines = text.splitlines()
    rows: list[tuple[int, list[str]]] = []
    for number, raw in enumerate(lines, start=1):
        content = raw.split("#", 1)[0].strip()
        if content:
            rows.append((number, content.split()))
    if not rows or " ".join(rows[0][1]).rsplit(" ", 1)[0] != MAGIC:
        first = rows[0][0] if rows else 1
        raise RecordError(first, f"expected the first line '{MAGIC} {VERSION}'")
    number, words = rows[0]
    version = _int(words[-1], number, "the format version")
    if version != VERSION:
        raise RecordError(number, f"record format version {version} is not supported "
                                  f"(this huntgather reads version {VERSION})")
    header: dict[str, tuple[int, list[str]]] = {}
    position: list[tuple[int, list[str]]] = []
    index = 1
    while index < len(rows):
        number, words = rows[index]
        key = words[0]
        if key == "moves":
            break
        if key in ("edition", "players", "seed", "start-player"):
            if key in header:
                raise RecordError(number, f"'{key}' is given twice")
            if len(words) != 2:
                raise RecordError(number, f"expected '{key} VALUE'")
            header[key] = (number, words[1:])
        elif key in ("tile", "occupant", "score", "supply", "normal", "bonus", "removed-animals", "player"):
            position.append((number, words))
        else:
            raise RecordError(number, f"unknown line {key!r}; expected edition, players, seed, "
                                      f"start-player, tile, occupant, score, supply, normal, bonus, "
                                      f"removed-animals, player or moves")
        index += 1
    else:
        last = rows[-1][0]
        raise RecordError(last, "expected a 'moves' line (it may be followed by no moves)")
    edition_name = header["edition"][1][0] if "edition" in header else DEFAULT_EDITION
    try:
        edition = get_edition(edition_name)
    except ValueError as err:
        raise RecordError(header["edition"][0], str(err)) from None
    if "players" not in header:
        raise RecordError(rows[0][0], "expected a 'players N' line in the header")
    line, (value,) = header["players"]
    players = _int(value, line, "the number of players")
    start_player = 0
    if "start-player" in header:
        line, (value,) = header["start-player"]
        start_player = _int(value, line, "the start player's seat")
    try:
        state = State.new(players, edition, start_player) if not any(
            w[0] == "tile" for _, w in position) else _empty_state(players, edition.name, start_player)
    except ValueError as err:
        raise RecordError(header.get("players", (rows[0][0], []))[0], str(err)) from None
    _apply_position(state, position)
    seed = None
    if "seed" in header:
        line, (value,) = header["seed"]
        seed = _int(value, line, "the seed")
    record = Record(state, seed=seed)
    for number, words in rows[index + 1:]:
        if words[0] == "result":
            if record.result is not None:
                raise RecordError(number, "'result' is given twice")
            scores = tuple(_int(w, number, "a score") for w in words[1:])
            if len(scores) != players:
                raise RecordError(number, f"expected {players} scores after 'result', got {len(scores)}")
            record.result = scores
            continue
        if record.result is not None:
            raise RecordError(number, "nothing may follow the 'result' line")
        for word in words:
            try:
                record.moves.append(parse_move(word))
            except InvalidMoveError as err:
                raise RecordError(number, str(err)) from None
            record.lines.append(number)
    return record


def _empty_state(players: int, edition: str, start_player: int) -> State:
    state = State.new(players, edition, start_player)
    state.board = type(state.board)(state.edition.tiles)
    return state


def _apply_position(state: State, position: list[tuple[int, list[str]]]) -> None:
    """Build a position from ``tile``, ``occupant``, ``score`` ... lines."""
    tiles = state.edition.tiles
    board = state.board
    stacks_given: dict[str, list[int]] = {}
    supply_given: set[int] = set()
    for number, words in position:
        key = words[0]
        if key == "tile":
            if len(words) != 4 or not _POS.fullmatch(words[2]) or not re.fullmatch(r"r[0-3]", words[3]):
                raise RecordError(number, "expected 'tile ID X,Y rR' (e.g. tile 17 1,0 r1)")
            tile_id = _int(words[1], number, "a tile id")
            if tile_id not in tiles:
                raise RecordError(number, f"edition {state.edition.name} has no tile {tile_id}")
            if tile_id in board.where:
                raise RecordError(number, f"tile {tile_id} is placed twice")
            m = _POS.fullmatch(words[2])
            assert m is not None
            x, y, rotation = int(m[1]), int(m[2]), int(words[3][1])
            if (x, y) in board.cells:
                raise RecordError(number, f"({x},{y}) already holds tile {board.cells[(x, y)][0]}")
            tile = tiles[tile_id]
            for d, (dx, dy) in enumerate(DELTAS):
                nb = board.cells.get((x + dx, y + dy))
                if nb is None:
                    continue
                have = tile.side_kinds[rotation][d]
                want = tiles[nb[0]].side_kinds[nb[1]][(d + 2) % 4]
                if have != want:
                    raise RecordError(number, f"side {DIRECTIONS[d]} of tile {tile_id} is {have} but the "
                                              f"neighbour's side {DIRECTIONS[(d + 2) % 4]} (tile {nb[0]} "
                                              f"at ({x + dx},{y + dy})) is {want}")
            board.put(tile_id, x, y, rotation)
        elif key == "occupant":
            if len(words) != 4 or words[2] not in (MEEPLE, HUT):
                raise RecordError(number, "expected 'occupant TILE.ZONE meeple|hut SEAT'")
            tile_id, zone_id = _zone_ref(words[1], number)
            seat = _int(words[3], number, "a seat")
            if not 0 <= seat < state.players:
                raise RecordError(number, f"seat {seat} does not exist in a {state.players}-player game")
            if tile_id not in board.where:
                raise RecordError(number, f"tile {tile_id} is not on the board")
            zone = tiles[tile_id].zones.get(zone_id)
            if zone is None:
                raise RecordError(number, f"tile {tile_id} has no zone {zone_id}")
            node = tile_id * 10 + zone_id
            if node in board.occupants:
                raise RecordError(number, f"zone {tile_id}.{zone_id} already holds a piece")
            if words[2] == MEEPLE and zone.kind == LAKE:
                raise RecordError(number, "meeples cannot go on a lake")
            if words[2] == HUT and zone.kind not in (RIVER, LAKE):
                raise RecordError(number, f"huts go on a river or a lake, not on a {zone.kind}")
            board.add_occupant(node, seat, words[2])
            supply = state.meeples if words[2] == MEEPLE else state.huts
            supply[seat] -= 1
            if supply[seat] < 0:
                raise RecordError(number, f"{player_name(seat)} has no {words[2]} left for this piece")
        elif key == "score":
            if len(words) != 3:
                raise RecordError(number, "expected 'score SEAT POINTS'")
            seat = _seat(state, words[1], number)
            state.scores[seat] = _int(words[2], number, "points")
        elif key == "supply":
            if len(words) != 6 or words[2] != "meeples" or words[4] != "huts":
                raise RecordError(number, "expected 'supply SEAT meeples N huts M'")
            seat = _seat(state, words[1], number)
            supply_given.add(seat)
            state.meeples[seat] = _int(words[3], number, "a number of meeples")
            state.huts[seat] = _int(words[5], number, "a number of huts")
        elif key in ("normal", "bonus"):
            if key in stacks_given:
                raise RecordError(number, f"the {key} stack is given twice")
            ids = [_int(w, number, "a tile id") for w in words[1:]]
            for tile_id in ids:
                if tile_id not in tiles or tiles[tile_id].kind != key:
                    raise RecordError(number, f"tile {tile_id} is not a {key} tile of edition "
                                              f"{state.edition.name}")
                if tile_id in board.where:
                    raise RecordError(number, f"tile {tile_id} is on the board and cannot be in a stack")
            stacks_given[key] = ids
        elif key == "removed-animals":
            nodes = []
            for word in words[1:]:
                t, z = _zone_ref(word, number)
                nodes.append(t * 10 + z)
            state.removed_animals = frozenset(nodes)
        elif key == "player":
            if len(words) != 2:
                raise RecordError(number, "expected 'player SEAT' (whose turn it is)")
            state.player = _seat(state, words[1], number)
    for seat in supply_given:
        if state.meeples[seat] < 0 or state.huts[seat] < 0:
            raise RecordError(position[-1][0], f"{player_name(seat)}'s supply cannot be negative")
    placed = set(board.where)
    state.normal = tuple(sorted(stacks_given.get("normal", [t for t in tiles.normal_ids if t not in placed])))
    state.bonus = tuple(sorted(stacks_given.get("bonus", [t for t in tiles.bonus_ids if t not in placed])))
    state.phase = DRAW
    if not state.normal:
        state.phase = DRAW  # the first draw will find the stack empty; replays end the game at once


def _seat(state: State, text: str, line: int) -> int:
    seat = _int(text, line, "a seat")
    if not 0 <= seat < state.players:
        raise RecordError(line, f"seat {seat} does not exist in a {state.players}-player game")
    return seat


def load_position(text: str) -> State:
    """The position described by ``text`` (a record whose moves are ignored)."""
    return parse_record(text).state


# --------------------------------------------------------------------------- writing


def position_lines(state: State) -> list[str]:
    """The position lines that rebuild ``state`` at the start of a turn."""
    lines = []
    board = state.board
    for (x, y), (tile_id, rotation) in board.cells.items():
        lines.append(f"tile {tile_id} {x},{y} r{rotation}")
    for node, (seat, piece) in board.occupants.items():
        lines.append(f"occupant {node // 10}.{node % 10} {piece} {seat}")
    for seat, score in enumerate(state.scores):
        if score:
            lines.append(f"score {seat} {score}")
    lines.append("normal " + " ".join(map(str, state.normal)))
    lines.append("bonus " + " ".join(map(str, state.bonus)))
    if state.removed_animals:
        lines.append("removed-animals " + " ".join(f"{n // 10}.{n % 10}" for n in sorted(state.removed_animals)))
    lines.append(f"player {state.player}")
    return lines


def write_record(game: Game, *, comments: bool = True, position: bool | None = None) -> str:
    """The record of ``game``: header, position (if not the standard start), moves.

    With ``comments`` each turn's events follow it as ``#`` lines.
    """
    initial = game.initial
    out = [f"{MAGIC} {VERSION}", f"edition {initial.edition.name}", f"players {initial.players}",
           f"seed {game.seed}"]
    standard = State.new(initial.players, initial.edition, initial.player)
    if position is None:
        position = (initial.board.cells != standard.board.cells or initial.scores != standard.scores
                    or initial.board.occupants != standard.board.occupants
                    or initial.normal != standard.normal or initial.bonus != standard.bonus
                    or initial.meeples != standard.meeples or initial.huts != standard.huts)
    if position:
        out.extend(position_lines(initial))
    else:
        out.append(f"start-player {initial.player}")
    out.append("moves")
    replay = Game.replay(initial, [])
    line: list[str] = []
    pending: list[Event] = []

    def flush() -> None:
        if line:
            out.append(" ".join(line))
            if comments:
                out.extend(f"# {text}" for e in pending for text in e.describe().splitlines())
        line.clear()
        pending.clear()

    previous: Move | None = None
    for move in game.history:
        if isinstance(move, Draw) and previous is not None and not isinstance(previous, Draw):
            flush()
        line.append(str(move))
        pending.extend(replay.state.apply(move))
        previous = move
    flush()
    if game.is_over:
        out.append("result " + " ".join(map(str, game.scores)))
    return "\n".join(out) + "\n"


def read_record(text: str) -> Game:
    """Parse and replay a record; raise :class:`RecordError` on any problem."""
    return parse_record(text).replay()
