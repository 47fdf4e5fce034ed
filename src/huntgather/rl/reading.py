"""The one place where :mod:`huntgather.rl` reads the engine's internals.

Everything else in the package uses the public API (``State``,
``legal_moves``, ``apply``, the moves, ``Tile``/``Zone`` and ``Game``).  This
module knows the board's tables (``cells``, ``where``, ``frontier``), how to
ask the board about features and pieces, the feature records, the zone kinds
and the special tiles; when the core changes those, this is the file to adapt.

It returns plain Python values (ints, tuples), never engine objects.

>>> from huntgather.game import Game
>>> g = Game(2, seed=1)
>>> placed_cells(g.state)
{(0, 0): (56, 0)}
>>> facts = tile_facts(g.state.edition, 56)
>>> facts.side_kinds   # N=meadow, E=forest, S=forest, W=river (0 forest, 1 river, 2 meadow)
(2, 0, 0, 1)
"""

from __future__ import annotations

from typing import Final

from huntgather.board import CELL_OFFSET, fit_table
from huntgather.editions import Edition
from huntgather.kinds import Kind, Piece
from huntgather.specials import SHIPPED_SPECIALS, acts_when_placed
from huntgather.state import State

#: side and zone kinds by index (the observation planes use this order)
FOREST: Final = 0
RIVER: Final = 1
MEADOW: Final = 2
LAKE: Final = 3
_KIND_INDEX = {Kind.FOREST: FOREST, Kind.RIVER: RIVER, Kind.MEADOW: MEADOW, Kind.LAKE: LAKE}
#: enum members read once (a member read off its class is a slow attribute look-up in Python 3.11)
_FOREST_KIND: Final = Kind.FOREST   # (with rivers: the features whose open ends the planes show)
_RIVER_KIND: Final = Kind.RIVER
_LAKE_KIND: Final = Kind.LAKE
_WATER_KINDS = (Kind.RIVER, Kind.LAKE)
_HUT: Final = Piece.HUT
#: animals by index
ANIMALS = ("mammoth", "aurochs", "deer", "tiger")
#: every special of the shipped editions, by index
SPECIALS = tuple(cls.name for cls in SHIPPED_SPECIALS)
#: zone ids run from 0 to 9 (8 and 9 are lakes)
ZONE_IDS: Final = 10

Pos = tuple[int, int]


class ZoneFacts:
    """A zone of a tile: its id, kind index and the unrotated sides (N, E, S, W) it touches.

    (The facts classes are plain classes with slots, not named tuples: the compiled build makes
    them native structs, whose fields it reads directly and which it makes without calling
    Python code; their tuples are typed ``tuple[int, ...]``, since a tuple of fixed length is kept
    unboxed and made again as a Python tuple whenever it is indexed by a variable.)
    """

    __slots__ = ("animals", "id", "kind", "sides")

    def __init__(self, id: int, kind: int, sides: tuple[bool, ...], animals: tuple[int, ...]) -> None:
        self.id = id
        self.kind = kind
        self.sides = sides
        self.animals = animals


class TileFacts:
    """What is printed on a tile, as numbers (sides unrotated, in N, E, S, W order)."""

    __slots__ = (
        "acts",
        "animals",
        "bonus",
        "fish",
        "lakes",
        "marks",
        "mushrooms",
        "side_kinds",
        "side_zones",
        "specials",
        "zones",
    )

    def __init__(self, side_kinds: tuple[int, ...], side_zones: tuple[int, ...],
                 fish: int, lakes: int, mushrooms: int, marks: int, animals: tuple[int, ...],
                 specials: tuple[int, ...], bonus: bool, zones: tuple[ZoneFacts, ...], acts: bool) -> None:
        self.side_kinds = side_kinds
        #: zone at the middle of each side (the river of a river side)
        self.side_zones = side_zones
        self.fish = fish
        self.lakes = lakes
        self.mushrooms = mushrooms
        #: the edition's bonus counter: menhirs (2020) or gold nuggets (2002)
        self.marks = marks
        self.animals = animals
        #: 1 for each special of :data:`SPECIALS` printed here *and* honoured by the edition
        self.specials = specials
        self.bonus = bonus
        self.zones = zones
        #: whether a special on it acts the moment it is placed (the hunting trap: on its 3 × 3 area)
        self.acts = acts


#: by edition name, a list by tile id (a look-up by a tuple key hashes the tuple every time)
_FACTS: dict[str, list[TileFacts | None]] = {}


def tile_facts(edition: Edition, tile_id: int) -> TileFacts:
    """The printed contents of a tile in an edition (cached by edition name)."""
    table = _FACTS.get(edition.name)
    if table is None:
        table = _FACTS[edition.name] = [None] * len(edition.tiles.listed)
    found = table[tile_id]
    if found is None:
        found = table[tile_id] = _tile_facts(edition, tile_id)
    return found


def _tile_facts(edition: Edition, tile_id: int) -> TileFacts:
    tile = edition.tiles[tile_id]
    zones = tile.zones
    side_kinds = tuple(_KIND_INDEX[s.kind] for s in tile.sides)
    side_zones = tuple(s.zones[1] if len(s.zones) == 3 else s.zones[0] for s in tile.sides)
    animals = [0, 0, 0, 0]
    facts = []
    for z in zones.values():
        touches = tuple(z.id in tile.sides[d].zones for d in range(4))
        counts = tuple(z.animals.count(a) for a in ANIMALS)
        for k in range(4):
            animals[k] += counts[k]
        facts.append(ZoneFacts(z.id, _KIND_INDEX[z.kind], touches, counts))
    specials = tuple(int(any(z.special == name for z in zones.values()) and edition.honours(name))
                     for name in SPECIALS)
    honoured = [edition.special(z.special) for z in zones.values()]
    acts = any(s is not None and acts_when_placed(s) for s in honoured)
    return TileFacts(
        side_kinds=side_kinds, side_zones=side_zones,
        fish=sum(z.fish for z in zones.values()),
        lakes=sum(1 for z in zones.values() if z.kind == Kind.LAKE),
        mushrooms=sum(z.mushrooms for z in zones.values()),
        marks=sum(z.counter(edition.bonus_counter) for z in zones.values()),
        animals=tuple(animals),
        specials=specials, bonus=tile.is_bonus, zones=tuple(facts), acts=acts)


def placed_cells(state: State) -> dict[Pos, tuple[int, int]]:
    """``(x, y) -> (tile id, rotation)`` of every placed tile (a new dict, built from the whole
    board: for one cell, :func:`placed_at` is much cheaper)."""
    return state.board.cells


def placed_tiles(state: State) -> list[int]:
    """The ids of the placed tiles, in the order they were placed."""
    return list(state.board.where)


def placed_at(state: State, x: int, y: int) -> tuple[int, int] | None:
    """``(tile id, rotation)`` of the tile on ``(x, y)``, or None."""
    return state.board.tile_at(x, y)


def placements(state: State) -> list[tuple[int, int, int]]:
    """``(x, y, rotation)`` of every legal placement of the tile to place, in the order of
    ``state.legal_moves()`` (which makes its moves from this very list)."""
    tile = state.tile
    if tile is None:
        return []
    board = state.board
    return board.placements(board.tiles.by_id[tile])


def mark_placements(state: State, ox: int, oy: int, w: int, marks: bytearray) -> None:
    """Set ``marks[4 * (row * w + col) + rotation]`` for each of :func:`placements` (the window of
    side ``w`` at ``(ox, oy)``: row ``y - oy``, column ``x - ox``), without listing them: for a
    caller that knows every empty cell next to a tile to lie inside the window."""
    tile = state.tile
    if tile is None:
        return
    board = state.board
    fits = fit_table(board.tiles.by_id[tile]).rotations
    codes = board.front_codes
    for key, i in board.front.items():
        found = fits[codes[i]]
        if found:   # (the cell's key: (x + CELL_OFFSET) * 4096 + y + CELL_OFFSET, see board.cell_key)
            base = 4 * (((key & 4095) - CELL_OFFSET - oy) * w + (key >> 12) - CELL_OFFSET - ox)
            for r in found:
                marks[base + r] = 1


def position(state: State, tile_id: int) -> Pos:
    """Where a placed tile lies."""
    return state.board.where[tile_id]


def frontier(state: State) -> list[Pos]:
    """The empty cells next to a placed tile."""
    return list(state.board.frontier)


class FeatureFacts:
    """The feature that holds a zone: open ends, tiles, and meeples per seat."""

    __slots__ = ("meeples", "open", "size")

    def __init__(self, open: int, size: int, meeples: tuple[int, ...]) -> None:
        self.open = open
        self.size = size
        self.meeples = meeples


#: no meeple of any seat, by the number of seats
_NOBODY: Final = tuple(tuple(0 for _ in range(n)) for n in range(6))


def feature_facts(state: State, tile_id: int, zone: int,
                  memo: dict[int, FeatureFacts] | None = None) -> FeatureFacts:
    """The forest, river or meadow that zone ``zone`` of a placed tile belongs to.

    ``memo`` (a dict the caller keeps while the board does not change) saves
    computing the facts of one feature again for each of its zones.
    """
    board = state.board
    root = board.find(tile_id * 10 + zone)   # (Board.feature_id, without its call)
    if memo is not None:
        found = memo.get(root)
        if found is not None:
            return found
    f = board.features.get(root)   # (the board keeps features by root: Board.feature_by_id)
    if f is None:
        f = board.feature_by_id(root)
    meeples = f.meeples
    if meeples:
        counts = [0] * state.players
        for p, _ in meeples:
            counts[p] += 1
        held = tuple(counts)
    else:
        held = _NOBODY[state.players]
    kind = f.kind
    facts = FeatureFacts(f.open if kind is _FOREST_KIND or kind is _RIVER_KIND else 0, len(f.tiles), held)
    if memo is not None:
        memo[root] = facts
    return facts


def system_huts(state: State, tile_id: int,
                memo: dict[int, tuple[int, ...]] | None = None) -> tuple[int, ...]:
    """Huts per seat on the river systems of a placed tile's rivers and lakes (the most of any one).

    ``memo`` (a dict the caller keeps while the board does not change) saves counting the huts
    of one river system again for each of its tiles.
    """
    board = state.board
    players = state.players
    best = [0] * players
    for z in tile_facts(state.edition, tile_id).zones:
        if z.kind != RIVER and z.kind != LAKE:
            continue
        root = board.system_id(tile_id, z.id)
        counts = None if memo is None else memo.get(root)
        if counts is None:
            counted = [0] * players
            for p, _ in board.feature_by_id(root).huts:
                counted[p] += 1
            counts = tuple(counted)
            if memo is not None:
                memo[root] = counts
        for p in range(players):   # (the most of any one system, seat by seat)
            if counts[p] > best[p]:
                best[p] = counts[p]
    return tuple(best)


def occupants_by_tile(state: State) -> dict[int, tuple[int, bool, int]]:
    """``tile id -> (seat, is_hut, zone)`` for every piece on the board (a tile holds at most one)."""
    hut = Piece.HUT   # the board keys a zone by tile * 10 + zone (Board.occupant)
    return {node // 10: (p, piece == hut, node % 10) for node, (p, piece) in state.board.occupants.items()}


def tile_occupant(state: State, tile_id: int) -> tuple[int, bool] | None:
    """``(seat, is_hut)`` of the piece on a placed tile (a tile holds at most one), or None."""
    occupants = state.board.occupants
    if not occupants:
        return None
    base = tile_id * 10   # the board keys a zone by tile * 10 + zone (Board.occupant)
    for z in tile_facts(state.edition, tile_id).zones:
        found = occupants.get(base + z.id)
        if found is not None:
            return found[0], found[1] == _HUT
    return None


def animals_left(state: State, tile_id: int) -> tuple[int, ...]:
    """The animals of a placed tile's meadows that no hunting trap has taken."""
    facts = tile_facts(state.edition, tile_id)
    if not state.removed_animals:
        return facts.animals
    counts = [0, 0, 0, 0]
    for z in facts.zones:
        if z.kind == MEADOW and (tile_id, z.id) not in state.removed_animals:
            for k in range(4):
                counts[k] += z.animals[k]
    return tuple(counts)


def features_of(state: State, tile_id: int, memo: dict[int, FeatureFacts] | None = None,
                ) -> list[tuple[int, FeatureFacts, frozenset[int]]]:
    """The distinct forests, rivers and meadows of a placed tile: (root, facts, their tiles)
    (``memo``: as for :func:`feature_facts`)."""
    board = state.board
    out = []
    seen: set[int] = set()
    if memo is None:
        memo = {}
    for z in tile_facts(state.edition, tile_id).zones:
        if z.kind == LAKE:
            continue
        root = board.feature_id(tile_id, z.id)
        if root not in seen:
            seen.add(root)
            out.append((root, feature_facts(state, tile_id, z.id, memo), board.feature_by_id(root).tiles))
    return out


def side_nodes(state: State, tile_id: int) -> tuple[tuple[int, int], ...]:
    """``(d, node)`` for each side ``d`` (N, E, S, W as placed) of a placed tile: ``node`` names
    the zone at the middle of that side for :func:`node_root` (which a placed tile keeps)."""
    x, y = state.board.where[tile_id]
    rotation = placed_at(state, x, y)[1]  # type: ignore[index]
    zones = tile_facts(state.edition, tile_id).side_zones
    return tuple((d, tile_id * 10 + zones[(d - rotation) % 4]) for d in range(4))


def node_root(state: State, node: int) -> int:
    """:func:`root_of` a node of :func:`side_nodes`."""
    return state.board.find(node)


def root_of(state: State, tile_id: int, zone: int) -> int:
    """An identifier of the feature holding a zone (equal for the zones of one feature)."""
    return state.board.feature_id(tile_id, zone)


def hut_system_tiles(state: State, tile_id: int) -> set[int]:
    """The tiles of the river systems of a placed tile that hold at least one hut."""
    board = state.board
    out: set[int] = set()
    for z in tile_facts(state.edition, tile_id).zones:
        if z.kind in (RIVER, LAKE):
            f = board.system_at(tile_id, z.id)
            if f.huts:
                out |= f.tiles
    return out


def piece_tiles(state: State, tile_id: int, zone: int, hut: bool) -> frozenset[int]:
    """The tiles of the feature (a hut: the river system) that a new piece on a zone joins."""
    board = state.board
    return (board.system_at(tile_id, zone) if hut else board.feature_at(tile_id, zone)).tiles


def touched_tiles(state: State, tile_id: int) -> set[int]:
    """The placed tiles whose observation may change when ``tile_id`` is placed, occupied,
    scored or emptied: the tiles of every feature and river system of its zones, and the
    3 × 3 cells around it if it shows a special that acts when placed (the hunting trap, whose
    reach that is)."""
    board = state.board
    out: set[int] = {tile_id}
    for z in state.edition.tiles[tile_id].zones.values():
        if z.kind != _LAKE_KIND:
            out |= board.feature_at(tile_id, z.id).tiles
        if z.kind in _WATER_KINDS:
            out |= board.system_at(tile_id, z.id).tiles
    if tile_facts(state.edition, tile_id).acts:
        x, y = board.where[tile_id]
        out.update(board.area(x, y))
    return out
