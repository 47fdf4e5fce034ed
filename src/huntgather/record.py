"""Game records and positions: a versioned, line-based text format.

A record has a header, an optional position (tiles, occupants, scores...),
then the moves, draws included, so that replaying needs no random generator.
The full grammar is in ``docs/records.md``.  A *position* is a record with no
moves; it builds any rulebook example in a few lines.  Here yellow has a
gatherer on the forest of the start tile and tile 34; red closes it with tile 37:

>>> text = '''huntgather record 1
... edition 2020
... players 2
... tile 56 0,0 r0
... tile 34 1,0 r0
... occupant 34.3 meeple 0
... player 1
... moves
... d37 37@0,1r0 -
... '''
>>> rec = parse_record(text)
>>> rec.state.players, [str(m) for m in rec.moves]
(2, ['d37', '37@0,1r0', '-'])
>>> rec.replay().scores   # forest of 3 tiles: 3 x 2 = 6 for yellow
(6, 0)

Writing and reading back gives the same game and the same text:

>>> from huntgather.game import random_game
>>> game = random_game(players=2, seed=5)
>>> text = write_record(game)
>>> again = read_record(text)
>>> again.scores == game.scores, write_record(again) == text
(True, True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from huntgather.board import CELL_OFFSET, CELL_STRIDE, REACH, ZoneRef
from huntgather.editions import DEFAULT_EDITION, get_edition
from huntgather.events import Event, player_name
from huntgather.game import Game
from huntgather.kinds import Phase, Stack
from huntgather.moves import HUT, MEEPLE, Draw, InvalidMoveError, Move, Pass, parse_move
from huntgather.specials import known_specials
from huntgather.state import BONUS, DRAW, NORMAL, OCCUPY, OVER, PLACE, SPECIAL, IllegalMoveError, State
from huntgather.tiles import LAKE, RIVER

MAGIC = "huntgather record"
#: the newest format version; version 2 adds the ``decision`` line (a position in mid-turn)
VERSION = 2
#: the versions this huntgather reads
VERSIONS = (1, 2)

#: header keys: each at most once, before any position line
HEADER_KEYS = ("edition", "players", "seed", "start-player")
#: position keys (see ``docs/records.md``)
POSITION_KEYS = ("tile", "occupant", "score", "supply", "normal", "bonus", "discarded",
                 "memory", "player", "turn", "decision")


def _memory_lines() -> dict[str, str]:
    """The position keys of the specials that name their memory's line (``memory_line``), each
    with the special's name (the hunting trap's ``removed-animals``, of format 1)."""
    return {s.memory_line: s.name for s in known_specials() if s.memory_line}


class RecordError(ValueError):
    """A record that cannot be read; the message names the line and what was expected.

    >>> try:
    ...     parse_record("huntgather record 9\\nplayers 2\\nmoves\\n")
    ... except RecordError as err:
    ...     print(err)
    line 1: record format version 9 is not supported (this huntgather reads versions 1 and 2)
    """

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass
class Record:
    """A parsed record: the start position, the moves and the header facts."""

    state: State
    moves: list[Move] = field(default_factory=list)
    seed: int | None = None
    result: tuple[int, ...] | None = None
    #: line number of each move, for error messages
    lines: list[int] = field(default_factory=list)
    #: line number of the ``result`` line, if any
    result_line: int | None = None
    #: line number of the ``edition`` line (None when the record relies on the default)
    edition_line: int | None = None
    #: True when the record describes its start position with position lines
    has_position: bool = False

    @property
    def edition(self) -> str:
        """The name of the record's edition (``"2020"`` or ``"2002"``)."""
        return self.state.edition.name

    def replay(self) -> Game:
        """Apply every move; raise :class:`RecordError` naming the line of an illegal one.

        A ``result`` line must match the scores of the finished game.
        """
        game = Game.replay(self.state, [])
        if self.seed is not None:
            game.seed = self.seed
        state = game.state
        for move, line in zip(self.moves, self.lines, strict=True):
            try:
                game.events.extend(state.apply(move))
            except IllegalMoveError as err:
                raise RecordError(line, f"move {move} is illegal: {err}") from None
            game.history.append(move)
        if self.result is not None:
            assert self.result_line is not None
            if not state.is_over:
                raise RecordError(self.result_line,
                                  f"the record gives a result but the game is not over after its last "
                                  f"move ({state.describe_decision()})")
            if tuple(state.scores) != self.result:
                raise RecordError(self.result_line,
                                  f"the record says the result is {' '.join(map(str, self.result))} but "
                                  f"replaying gives {' '.join(map(str, state.scores))}")
        return game


_POS = re.compile(r"(-?\d+),(-?\d+)")
_ROT = re.compile(r"r([0-3])")


def _int(text: str, line: int, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RecordError(line, f"expected {what} (a whole number), got {text!r}") from None


def _zone_ref(text: str, line: int) -> ZoneRef:
    try:
        return ZoneRef.parse(text)
    except ValueError as err:
        raise RecordError(line, str(err)) from None


def _rows(text: str) -> list[tuple[int, list[str]]]:
    """Non-empty lines as (line number, words), comments removed."""
    if text.startswith("\ufeff"):
        text = text[1:]
    rows: list[tuple[int, list[str]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        content = raw.split("#", 1)[0].strip()
        if content:
            rows.append((number, content.split()))
    return rows


def _check_magic(rows: list[tuple[int, list[str]]]) -> int:
    """The record's format version, from its first line."""
    expected = f"expected the first line '{MAGIC} 1' (or 2)"
    if not rows:
        raise RecordError(1, f"{expected}, got an empty text")
    number, words = rows[0]
    if words[:2] != MAGIC.split() or len(words) != 3:
        raise RecordError(number, f"{expected}, got {' '.join(words)!r}")
    version = _int(words[2], number, "the format version")
    if version not in VERSIONS:
        raise RecordError(number, f"record format version {version} is not supported "
                                  f"(this huntgather reads versions {' and '.join(map(str, VERSIONS))})")
    return version


def parse_record(text: str, *, edition: str | None = None) -> Record:
    """Parse a record or a position; raise :class:`RecordError` on malformed input.

    With ``edition``, the record must be of that edition: a 2002 record cannot be
    replayed under the 2020 rules (the tiles and the scoring differ).

    >>> parse_record("huntgather record 1\\nplayers 2\\nmoves\\nd3 3@5,5r0\\n").replay()
    Traceback (most recent call last):
    ...
    huntgather.record.RecordError: line 4: move 3@5,5r0 is illegal: (5,5) touches no placed tile
    """
    rows = _rows(text)
    version = _check_magic(rows)
    header: dict[str, tuple[int, str]] = {}
    position: list[tuple[int, list[str]]] = []
    index = 1
    while index < len(rows):
        number, words = rows[index]
        key = words[0]
        if key == "moves":
            if len(words) != 1:
                raise RecordError(number, "the 'moves' line stands alone; put the moves on the lines "
                                          "after it")
            break
        if key in HEADER_KEYS:
            if key in header:
                raise RecordError(number, f"'{key}' is given twice")
            if position:
                raise RecordError(number, f"header line '{key}' must come before the position lines "
                                          f"(line {position[0][0]} starts the position)")
            if len(words) != 2:
                raise RecordError(number, f"expected '{key} VALUE', got {' '.join(words)!r}")
            header[key] = (number, words[1])
        elif key in POSITION_KEYS or key in _memory_lines():
            if key == "decision" and version < 2:
                raise RecordError(number, "the 'decision' line needs record format version 2 "
                                          f"(write '{MAGIC} 2' on the first line)")
            position.append((number, words))
        else:
            raise RecordError(number, f"unknown line {key!r}; expected one of {', '.join(HEADER_KEYS)}, "
                                      f"{', '.join(POSITION_KEYS)} or moves")
        index += 1
    else:
        last = rows[-1][0]
        raise RecordError(last, "expected a 'moves' line (it may be followed by no moves)")

    edition_line = header["edition"][0] if "edition" in header else None
    edition_name = header["edition"][1] if "edition" in header else DEFAULT_EDITION
    try:
        ed = get_edition(edition_name)
    except ValueError as err:
        raise RecordError(edition_line or rows[0][0], str(err)) from None
    if edition is not None and get_edition(edition).name != ed.name:
        where = f"line {edition_line} says" if edition_line else "it has no edition line, so it is"
        raise RecordError(edition_line or rows[0][0],
                          f"this is a {ed.name} record ({where} edition {ed.name}); it cannot be "
                          f"replayed under the {edition} rules, whose tiles and scoring differ")
    if "players" not in header:
        raise RecordError(rows[0][0], "expected a 'players N' line in the header")
    players_line, value = header["players"]
    players = _int(value, players_line, "the number of players")
    if not ed.min_players <= players <= ed.max_players:
        raise RecordError(players_line, f"the {ed.name} edition is for {ed.min_players}-{ed.max_players} "
                                        f"players, not {players}")
    start_player = 0
    if "start-player" in header:
        line, value = header["start-player"]
        start_player = _int(value, line, "the start player's seat")
        if not 0 <= start_player < players:
            raise RecordError(line, f"seat {start_player} does not exist in a {players}-player game "
                                    f"(seats are 0 to {players - 1})")
        player_lines = [n for n, w in position if w[0] == "player"]
        if player_lines:
            raise RecordError(player_lines[0], "give either 'start-player' in the header or 'player' in "
                                               "the position, not both")
    state = State.new(players, ed, start_player)
    if any(w[0] == "tile" for _, w in position):
        state.board = type(state.board)(ed.tiles)
    if position:
        _apply_position(state, position)
    seed = None
    if "seed" in header:
        line, value = header["seed"]
        seed = _int(value, line, "the seed")
    record = Record(state, seed=seed, edition_line=edition_line, has_position=bool(position))
    for number, words in rows[index + 1:]:
        if record.result_line is not None:
            raise RecordError(number, f"nothing may follow the 'result' line (line {record.result_line})")
        if words[0] == "result":
            scores = tuple(_int(w, number, "a score") for w in words[1:])
            if len(scores) != players:
                raise RecordError(number, f"expected {players} scores after 'result', got {len(scores)}")
            record.result = scores
            record.result_line = number
            continue
        for word in words:
            try:
                record.moves.append(parse_move(word))
            except InvalidMoveError as err:
                raise RecordError(number, str(err)) from None
            record.lines.append(number)
    return record


def _apply_position(state: State, position: list[tuple[int, list[str]]]) -> None:
    """Build a position from ``tile``, ``occupant``, ``score`` ... lines."""
    edition = state.edition
    tiles = edition.tiles
    board = state.board
    stacks_given: dict[str, tuple[int, list[int]]] = {}
    decision: tuple[Phase, str | None, int | None, Stack, int] | None = None
    supply_given: dict[int, tuple[int, int, int]] = {}   # seat -> (meeples, huts, line)
    used: dict[tuple[int, str], list[int]] = {}  # (seat, piece) -> lines of the pieces on the board
    seen: dict[str, int] = {}
    scores_given: set[int] = set()
    for number, words in position:
        key = words[0]
        memory_of = _memory_lines().get(key) or (words[1] if key == "memory" and len(words) > 1 else None)
        once = f"memory {memory_of}" if memory_of is not None else key
        if memory_of is not None or key in ("player", "turn", "discarded", "decision"):
            if once in seen:
                raise RecordError(number, f"'{key}' is given twice (first on line {seen[once]})")
            seen[once] = number
        if key == "tile":
            if len(words) != 4 or not _POS.fullmatch(words[2]) or not _ROT.fullmatch(words[3]):
                raise RecordError(number, f"expected 'tile ID X,Y rR' (e.g. tile 17 1,0 r1), "
                                          f"got {' '.join(words)!r}")
            tile_id = _int(words[1], number, "a tile id")
            if tile_id not in tiles:
                raise RecordError(number, f"edition {edition.name} has no tile {tile_id}")
            if tile_id in board.where:
                raise RecordError(number, f"tile {tile_id} is placed twice")
            m = _POS.fullmatch(words[2])
            assert m is not None
            x, y, rotation = int(m[1]), int(m[2]), int(words[3][1])
            if not (-REACH <= x < REACH and -REACH <= y < REACH):
                raise RecordError(number, f"({x},{y}) is too far from the start (at most {REACH} cells)")
            holding = board.tile_at(x, y)
            if holding is not None:
                raise RecordError(number, f"({x},{y}) already holds tile {holding[0]}")
            conflict = board.side_conflict(tiles[tile_id], x, y, rotation)
            if conflict:
                raise RecordError(number, conflict)
            board.put(tile_id, x, y, rotation)
        elif key == "occupant":
            if len(words) != 4 or words[2] not in (MEEPLE, HUT):
                raise RecordError(number, f"expected 'occupant TILE.ZONE meeple|hut SEAT' "
                                          f"(e.g. occupant 17.1 meeple 0), got {' '.join(words)!r}")
            tile_id, zone_id = _zone_ref(words[1], number)
            seat = _seat(state, words[3], number)
            if tile_id not in board.where:
                raise RecordError(number, f"tile {tile_id} is not on the board (place it with a 'tile' "
                                          f"line before this one)")
            zone = tiles[tile_id].zones.get(zone_id)
            if zone is None:
                raise RecordError(number, f"tile {tile_id} has no zone {zone_id} (it has zones "
                                          f"{', '.join(map(str, tiles[tile_id].zones))})")
            if board.occupant(tile_id, zone_id) is not None:
                raise RecordError(number, f"zone {tile_id}.{zone_id} already holds a piece")
            if words[2] == MEEPLE and zone.kind == LAKE:
                raise RecordError(number, "meeples cannot go on a lake (only huts can)")
            if words[2] == HUT and zone.kind not in (RIVER, LAKE):
                raise RecordError(number, f"huts go on a river or a lake, not on a {zone.kind}")
            board.add_occupant(tile_id, zone_id, seat, words[2])
            used.setdefault((seat, words[2]), []).append(number)
        elif key == "score":
            if len(words) != 3:
                raise RecordError(number, f"expected 'score SEAT POINTS', got {' '.join(words)!r}")
            seat = _seat(state, words[1], number)
            if seat in scores_given:
                raise RecordError(number, f"the score of seat {seat} is given twice")
            scores_given.add(seat)
            points = _int(words[2], number, "points")
            if points < 0:
                raise RecordError(number, "a score cannot be negative")
            state.scores[seat] = points
        elif key == "supply":
            if len(words) != 6 or words[2] != "meeples" or words[4] != "huts":
                raise RecordError(number, f"expected 'supply SEAT meeples N huts M', got {' '.join(words)!r}")
            seat = _seat(state, words[1], number)
            if seat in supply_given:
                raise RecordError(number, f"the supply of seat {seat} is given twice")
            meeples = _int(words[3], number, "a number of meeples")
            huts = _int(words[5], number, "a number of huts")
            if meeples < 0 or huts < 0:
                raise RecordError(number, "a supply cannot be negative")
            supply_given[seat] = (meeples, huts, number)
        elif key in ("normal", "bonus", "discarded"):
            if key in stacks_given:
                raise RecordError(number, f"the {key} line is given twice")
            ids = [_int(w, number, "a tile id") for w in words[1:]]
            for tile_id in ids:
                if tile_id not in tiles:
                    raise RecordError(number, f"edition {edition.name} has no tile {tile_id}")
                if key != "discarded" and tiles[tile_id].kind != key:
                    raise RecordError(number, f"tile {tile_id} is a {tiles[tile_id].kind} tile, so it "
                                              f"cannot be in the {key} stack")
                if ids.count(tile_id) > 1:
                    raise RecordError(number, f"tile {tile_id} is listed twice")
            stacks_given[key] = (number, ids)
        elif memory_of is not None:
            special = edition.special(memory_of)
            if special is None:
                raise RecordError(number, f"the {edition.name} edition has no special {memory_of!r} to "
                                          f"remember anything")
            try:
                state.special_memory[memory_of] = special.read_memory(
                    words[1 if key != "memory" else 2:], board)
            except ValueError as err:
                raise RecordError(number, str(err)) from None
        elif key == "memory":
            raise RecordError(number, f"expected 'memory SPECIAL ...', got {' '.join(words)!r}")
        elif key == "player":
            if len(words) != 2:
                raise RecordError(number, f"expected 'player SEAT' (whose turn it is), "
                                          f"got {' '.join(words)!r}")
            state.player = _seat(state, words[1], number)
        elif key == "decision":
            decision = _decision(words, number)
        elif key == "turn":
            if len(words) != 2:
                raise RecordError(number, f"expected 'turn N', got {' '.join(words)!r}")
            turn = _int(words[1], number, "a turn number")
            if turn < 0:
                raise RecordError(number, "the turn number cannot be negative")
            state.turn = turn
    # Supplies: what the edition gives minus the pieces on the board, unless given.
    for seat in range(state.players):
        if seat in supply_given:
            meeples, huts, line = supply_given[seat]
            for piece, kept, total in ((MEEPLE, meeples, edition.meeples), (HUT, huts, edition.huts)):
                placed_here = len(used.get((seat, piece), []))
                if kept + placed_here > total:
                    raise RecordError(line, f"{player_name(seat)} (seat {seat}) would have "
                                            f"{kept + placed_here} {piece}s ({kept} in supply + "
                                            f"{placed_here} on the board), but the {edition.name} "
                                            f"edition gives {total}")
            state.meeples[seat], state.huts[seat] = meeples, huts
            continue
        for piece, total in ((MEEPLE, edition.meeples), (HUT, edition.huts)):
            lines = used.get((seat, piece), [])
            if len(lines) > total:
                raise RecordError(lines[total], f"{player_name(seat)} (seat {seat}) has only {total} "
                                                f"{piece}s in the {edition.name} edition; this is one more")
            (state.meeples if piece == MEEPLE else state.huts)[seat] = total - len(lines)
    # Stacks: every tile not on the board nor put out of the game (nor in hand), unless given.
    placed = set(board.where)
    out_line, out = stacks_given.get("discarded", (0, []))
    for tile_id in out:
        if tile_id in placed:
            raise RecordError(out_line, f"tile {tile_id} is on the board and cannot be discarded")
    gone = placed | set(out)
    phase, asking, hand, from_stack, decision_line = decision or (DRAW, None, None, NORMAL, 0)
    if phase == PLACE and hand is not None:
        if hand not in tiles:
            raise RecordError(decision_line, f"edition {edition.name} has no tile {hand}")
        if hand in gone:
            where = "on the board" if hand in placed else "discarded"
            raise RecordError(decision_line, f"tile {hand} is {where}, so it cannot be the tile to place")
        gone.add(hand)
    for key, ids_all in ((NORMAL, tiles.normal_ids), (BONUS, tiles.bonus_ids)):
        if key in stacks_given:
            line, ids = stacks_given[key]
            for tile_id in ids:
                if tile_id in gone:
                    where = ("on the board" if tile_id in placed else
                             "the tile to place" if tile_id == hand else "discarded")
                    raise RecordError(line, f"tile {tile_id} is {where} and cannot be in the {key} stack")
            stack = tuple(sorted(ids))
        else:
            stack = tuple(t for t in ids_all if t not in gone)
        if key == NORMAL:
            state.normal = stack
        else:
            state.bonus = stack
    state.discarded = tuple(out)
    _set_decision(state, phase, asking, hand, from_stack, decision_line, position)


_DECISION = ("'decision draw|place|occupy|over|SPECIAL [TILE] [bonus]', SPECIAL the name of a special "
             "that asks a question, such as shaman (e.g. decision place 17)")


def _decision(words: list[str], line: int) -> tuple[Phase, str | None, int | None, Stack, int]:
    """``decision PHASE [TILE] [bonus]`` → (phase, the special that asks, tile, stack, line); the
    word of a special's question is the special's name (``decision shaman 88``)."""
    rest = words[1:]
    stack = NORMAL
    if rest and rest[-1] == "bonus":
        stack = BONUS
        rest = rest[:-1]
    asking = None
    try:
        phase = Phase(rest[0]) if rest and rest[0] != SPECIAL else None
    except ValueError:
        asks = {s.name for s in known_specials() if s.question}
        phase, asking = (SPECIAL, rest[0]) if rest[0] in asks else (None, None)
    if phase is None:
        raise RecordError(line, f"expected {_DECISION}, got {' '.join(words)!r}")
    wants_tile = phase in (PLACE, SPECIAL, OCCUPY)
    if len(rest) != 1 + wants_tile or (phase == OVER and stack == BONUS):
        raise RecordError(line, f"expected {_DECISION}, got {' '.join(words)!r}"
                                + (f": '{phase}' names the tile" if wants_tile else ""))
    tile = _int(rest[1], line, "a tile id") if wants_tile else None
    return phase, asking, tile, stack, line


def _set_decision(state: State, phase: Phase, asking: str | None, tile: int | None, stack: Stack,
                  line: int, position: list[tuple[int, list[str]]]) -> None:
    """Put ``state`` at the decision a ``decision`` line gives (at line ``line``; 0: none given,
    the start of a turn), after checking that the game can be there."""
    board = state.board
    tiles = state.edition.tiles
    line = line or position[-1][0]
    if phase == DRAW and stack == NORMAL and not state.normal:
        raise RecordError(line, "the normal stack is empty, so the game would already be over; "
                                "a position must leave at least one normal tile to draw (or say "
                                "'decision over')")
    if phase == DRAW and stack == BONUS and not state.bonus:
        raise RecordError(line, f"the {state.edition.bonus_name} stack is empty, so there is no "
                                f"{state.edition.bonus_name} to draw")
    if phase == OVER and state.normal:
        raise RecordError(line, f"the game is over only once the normal stack is empty; it holds "
                                f"{len(state.normal)} tiles")
    if tile is not None:
        kind = tiles[tile].kind if tile in tiles else None
        if phase == PLACE:
            if kind != stack:
                raise RecordError(line, f"tile {tile} is a {kind} tile, so it cannot come from the "
                                        f"{stack} stack")
            if not board.can_place(tiles[tile]):
                raise RecordError(line, f"tile {tile} fits nowhere on this board, so it cannot be the "
                                        f"tile to place (it would be put out of the game)")
        elif tile not in board.where:
            raise RecordError(line, f"'decision {asking or phase}' is about the tile just placed, but "
                                    f"tile {tile} is not on the board")
    if asking is not None and state.edition.special(asking) is None:
        raise RecordError(line, f"the {state.edition.name} edition has no special {asking!r} to ask")
    state.phase, state.asking, state.tile, state.stack = phase, asking, tile, stack
    state.bonus_turn = stack == BONUS
    if phase == OCCUPY and state.legal_moves() == [Pass()]:
        raise RecordError(line, f"{player_name(state.player)} has no piece to put on it, so the game "
                                f"would not ask this")
    if phase == SPECIAL and state.legal_moves() == [Pass()]:
        raise RecordError(line, f"the {asking} offers {player_name(state.player)} nothing, so the game "
                                f"would not ask this")


def _seat(state: State, text: str, line: int) -> int:
    seat = _int(text, line, "a seat")
    if not 0 <= seat < state.players:
        raise RecordError(line, f"seat {seat} does not exist in a {state.players}-player game "
                                f"(seats are 0 to {state.players - 1})")
    return seat


def load_position(text: str, *, edition: str | None = None) -> State:
    """The position described by ``text`` (a record whose moves are ignored).

    >>> s = load_position('''huntgather record 1
    ... players 3
    ... tile 56 0,0 r0
    ... occupant 56.1 meeple 2
    ... score 1 12
    ... player 1
    ... moves''')
    >>> s.scores, s.meeples, s.player, s.decision.phase
    ([0, 12, 0], [5, 5, 4], 1, 'draw')
    """
    return parse_record(text, edition=edition).state


# --------------------------------------------------------------------------- writing


def position_lines(state: State) -> list[str]:
    """The position lines that rebuild ``state``, at any decision.

    Supplies are written only where they differ from the edition's pieces
    minus those on the board; the stacks are always written; a ``decision``
    line (format version 2) only when the state is not at the start of a turn.

    >>> s = State.new(2)
    >>> position_lines(s)[0], position_lines(s)[-1]
    ('tile 56 0,0 r0', 'player 0')
    >>> load_position("huntgather record 1\\nplayers 2\\n" + "\\n".join(position_lines(s))
    ...               + "\\nmoves\\n").normal == s.normal
    True
    >>> _ = s.apply(Draw(17)); position_lines(s)[-1]
    'decision place 17'
    """
    edition = state.edition
    lines = []
    board = state.board
    for key, (tile_id, rotation) in board.grid.items():   # (board.cells, without making the dict)
        x, y = divmod(key, CELL_STRIDE)   # (board.cell_of)
        lines.append(f"tile {tile_id} {x - CELL_OFFSET},{y - CELL_OFFSET} r{rotation}")
    meeples_on = [0] * state.players   # each seat's meeples and huts on the board
    huts_on = [0] * state.players
    for where, seat, piece in board.pieces():
        lines.append(f"occupant {where} {piece} {seat}")
        if piece == HUT:
            huts_on[seat] += 1
        elif piece == MEEPLE:
            meeples_on[seat] += 1
    for seat, score in enumerate(state.scores):
        if score:
            lines.append(f"score {seat} {score}")
    for seat in range(state.players):
        if (state.meeples[seat] != edition.meeples - meeples_on[seat]
                or state.huts[seat] != edition.huts - huts_on[seat]):
            lines.append(f"supply {seat} meeples {state.meeples[seat]} huts {state.huts[seat]}")
    lines.append(" ".join(["normal", *map(str, state.normal)]))
    lines.append(" ".join(["bonus", *map(str, state.bonus)]))
    if state.discarded:
        lines.append(" ".join(["discarded", *map(str, state.discarded)]))
    for name in sorted(state.special_memory):
        special = edition.special(name)
        remembered = special.write_memory(state.special_memory[name]) if special is not None else ""
        if special is not None and remembered:
            lines.append(f"{special.memory_line or 'memory ' + name} {remembered}")
    lines.append(f"player {state.player}")
    if state.turn:
        lines.append(f"turn {state.turn}")
    if state.phase != DRAW or state.stack != NORMAL:
        words = ["decision", state.decision.word]
        if state.tile is not None:
            words.append(str(state.tile))
        if state.stack == BONUS:
            words.append("bonus")
        lines.append(" ".join(words))
    return lines


def version_for(lines: list[str]) -> int:
    """The oldest format version that can hold these position lines, as :func:`position_lines`
    makes them (1 unless they end with a ``decision``)."""
    return 2 if lines and lines[-1].startswith("decision ") else 1


def write_position(state: State) -> str:
    """``state`` as text, at any decision: a record with no moves, which
    :func:`load_position` reads back to an equal state.

    >>> from huntgather.game import Game
    >>> g = Game(players=3, seed=4)                 # yellow is about to place a tile
    >>> text = write_position(g.state)
    >>> text.splitlines()[0], text.splitlines()[-2]
    ('huntgather record 2', 'decision place 30')
    >>> load_position(text) == g.state
    True
    """
    lines = position_lines(state)
    return "\n".join([f"{MAGIC} {version_for(lines)}", f"edition {state.edition.name}",
                      f"players {state.players}", *lines, "moves"]) + "\n"


def turns(initial: State, moves: Iterable[Move]) -> list[tuple[int, list[Move], list[Event]]]:
    """Replay ``moves`` from ``initial`` grouped by turn: ``(player, moves, events)`` each.

    A turn starts with a draw from the normal stack; the draws of discarded
    tiles and a bonus (menhir) turn belong to the turn that earned them.

    >>> from huntgather.game import random_game
    >>> g = random_game(players=2, seed=1)
    >>> groups = turns(g.initial, g.history)
    >>> groups[0][0], str(groups[0][1][0])[0]
    (0, 'd')
    """
    state = initial.copy()
    out: list[tuple[int, list[Move], list[Event]]] = []
    for move in moves:
        if not out or (isinstance(move, Draw) and state.stack == NORMAL
                       and not isinstance(out[-1][1][-1], Draw)):
            out.append((state.player, [], []))
        out[-1][1].append(move)
        out[-1][2].extend(state.apply(move))
    return out


def write_record(game: Game, *, comments: bool = True, position: bool | None = None) -> str:
    """The record of ``game``: header, position (if not the standard start), moves, result.

    Each turn's moves go on one line; with ``comments`` the turn's events
    follow it as ``#`` lines.  ``position`` forces (True) or suppresses
    (False) the position lines; by default they are written only when the
    game did not start from the standard set-up.

    >>> from huntgather.game import random_game
    >>> write_record(random_game(players=2, seed=3), comments=False).splitlines()[:6]
    ['huntgather record 1', 'edition 2020', 'players 2', 'seed 3', 'start-player 0', 'moves']
    """
    initial = game.initial
    lines = position_lines(initial)
    out = [f"{MAGIC} {version_for(lines)}", f"edition {initial.edition.name}",
           f"players {initial.players}", f"seed {game.seed}"]
    if position is None:
        standard = State.new(initial.players, initial.edition, initial.player)
        position = lines != position_lines(standard)
    if position:
        out.extend(lines)
    else:
        out.append(f"start-player {initial.player}")
    out.append("moves")
    for _, moves, events in turns(initial, game.history):
        out.append(" ".join(map(str, moves)))
        if comments:
            out.extend(f"# {text}" for e in events for text in e.describe().splitlines())
    if game.is_over:
        out.append("result " + " ".join(map(str, game.scores)))
    return "\n".join(out) + "\n"


def read_record(text: str, *, edition: str | None = None) -> Game:
    """Parse and replay a record; raise :class:`RecordError` on any problem.

    With ``edition``, the record must be of that edition.
    """
    return parse_record(text, edition=edition).replay()
