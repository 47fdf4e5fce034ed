"""The board: placed tiles, the frontier of empty cells, and the features.

Coordinates are ``(x, y)`` with ``x`` growing east and ``y`` growing south; the
start tile lies at ``(0, 0)``.  Inside the board a cell is one integer, its *key*
(:func:`cell_key`: no tuple to make, hash and compare in the hot paths); the
public :attr:`Board.cells` and :attr:`Board.frontier` give positions as ``(x, y)``.
The frontier maps every empty cell next to a
tile to its *constraint*: for each direction N, E, S, W the kind of the
neighbouring side facing the cell, or ``None``, kept as a small integer (two
bits a direction, see :func:`constraint_code`).  Which rotations of a tile fit
each constraint is worked out once per tile sides, so listing the legal
placements costs one list look-up per frontier cell.

>>> from huntgather.tiles import load_tileset
>>> b = Board(load_tileset("2020"))
>>> b.put(56, 0, 0, 0)
>>> sorted(b.frontier)
[(-1, 0), (0, -1), (0, 1), (1, 0)]
>>> b.constraint(1, 0)   # the start tile's east side is forest
(None, None, None, 'forest')

Zones on the board are named by :class:`ZoneRef` (tile id and zone id, written
``56.1``).  Features are reached through the board's methods
(:meth:`Board.feature_at`, :meth:`Board.system_at`, :meth:`Board.zones_in` ...),
which hide how the board numbers zones and joins them: nothing outside this
module and :mod:`huntgather.features` needs to know.

>>> b.feature_at(56, 1).kind, len(b.system_at(56, 8).lakes), b.occupant(56, 1)
('forest', 1, None)
>>> _ = b.add_occupant(56, 1, 0, "meeple"); b.pieces()
[(ZoneRef(tile=56, zone=1), 0, 'meeple')]
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import islice
from threading import Lock
from typing import Any, Final, NamedTuple, TypeVar

from huntgather.features import SYSTEM, Feature
from huntgather.kinds import Piece
from huntgather.tiles import DELTAS, DIRECTIONS, FOREST, LAKE, MEADOW, RIVER, Tile, TileSet, Zone

Pos = tuple[int, int]

#: cells are keyed by ``(x + CELL_OFFSET) * CELL_STRIDE + y + CELL_OFFSET`` (see cell_key)
CELL_OFFSET: Final = 2048
CELL_STRIDE: Final = 4096
#: how a cell's key changes one step N, E, S, W (DELTAS as keys)
_KEY_DELTAS: Final = (-1, CELL_STRIDE, 1, -CELL_STRIDE)
#: the lowest coordinate a key holds (-CELL_OFFSET, named: not negated at each use)
_LOWEST: Final = -CELL_OFFSET
#: how far from the start (0, 0) a position may lay a tile: a game adds at most one tile set's tiles
#: beyond, and every neighbour of a tile still has a key
REACH: Final = 1024


def cell_key(x: int, y: int) -> int:
    """The integer the board keys cell ``(x, y)`` by (both coordinates in ``-2048 .. 2047``; a tile
    is put at most :data:`REACH` cells away from the start, so that its neighbours have keys too).

    >>> cell_key(0, 0) == 2048 * 4096 + 2048, cell_of(cell_key(-3, 5))
    (True, (-3, 5))
    """
    if not (_LOWEST <= x < CELL_OFFSET and _LOWEST <= y < CELL_OFFSET):
        raise ValueError(f"({x},{y}) is off the board (coordinates go from -2048 to 2047)")
    return (x + CELL_OFFSET) * CELL_STRIDE + y + CELL_OFFSET


def cell_of(key: int) -> Pos:
    """The cell ``(x, y)`` of key ``key`` (:func:`cell_key` undone)."""
    return (key >> 12) - CELL_OFFSET, (key & 4095) - CELL_OFFSET
# (one name a line, each Final: the compiled build reads a Final constant without a dict look-up)
HUT: Final = Piece.HUT
MEEPLE: Final = Piece.MEEPLE


class ZoneRef(NamedTuple):
    """A zone of a placed tile: the tile's id and the zone's id on it; prints as ``17.1``.

    >>> str(ZoneRef(17, 1)), ZoneRef.parse("17.1")
    ('17.1', ZoneRef(tile=17, zone=1))
    """

    tile: int
    zone: int

    def __str__(self) -> str:
        return f"{self.tile}.{self.zone}"

    @classmethod
    def parse(cls, text: str) -> ZoneRef:
        """``'17.1'`` → ``ZoneRef(17, 1)``; :class:`ValueError` for anything else."""
        tile, dot, zone = text.partition(".")
        if not (dot and tile.isdigit() and zone.isdigit() and len(zone) == 1):
            raise ValueError(f"expected a zone as TILE.ZONE (e.g. 17.1), got {text!r}")
        return cls(int(tile), int(zone))


def _without_node(pieces: tuple[tuple[int, int], ...], node: int) -> tuple[tuple[int, int], ...]:
    """``(seat, node)`` pieces less the one on ``node`` (most often the last, just added)."""
    if pieces and pieces[-1][1] == node:
        return pieces[:-1]
    return tuple(p for p in pieces if p[1] != node)


def _ref(node: int) -> ZoneRef:
    """The zone that board node ``node`` names (nodes are ``tile * 10 + zone``)."""
    # (tuple.__new__: the named tuple's own __new__ is Python code, slow to call compiled)
    return tuple.__new__(ZoneRef, divmod(node - SYSTEM if node >= SYSTEM else node, 10))
Constraint = tuple[str | None, str | None, str | None, str | None]
#: a side kind (or None: no neighbour) as the two bits of one direction in a constraint code
_KIND_CODE: Final[dict[str | None, int]] = {None: 0, FOREST: 1, MEADOW: 2, RIVER: 3}
_CODE_KIND: Final[tuple[str | None, ...]] = (None, FOREST, MEADOW, RIVER)


def constraint_code(constraint: Constraint) -> int:
    """A constraint as the frontier keeps it: direction ``d``'s kind in bits ``2d`` and ``2d + 1``.

    >>> constraint_code((None, None, None, "forest")), constraint_code((None,) * 4)
    (64, 0)
    """
    return sum(_KIND_CODE[kind] << 2 * d for d, kind in enumerate(constraint))


def constraint_of(code: int) -> Constraint:
    """The constraint that ``code`` stands for (:func:`constraint_code` undone).

    >>> constraint_of(64)
    (None, None, None, 'forest')
    """
    return (_CODE_KIND[code & 3], _CODE_KIND[code >> 2 & 3], _CODE_KIND[code >> 4 & 3],
            _CODE_KIND[code >> 6 & 3])


#: the code that Board.front_codes holds for a cell no longer on the frontier: no rotation fits it
GONE: Final = 256


class FitTable:
    """For every constraint code, the rotations of a tile that fit it, for every tile with the same
    side kinds: ``rotations[code]``, and ``counts[code]`` how many there are (none for
    :data:`GONE`)."""

    __slots__ = ("counts", "rotations")

    def __init__(self, side_kinds: tuple[tuple[str, ...], ...]) -> None:
        # a rotation fits a constraint where every side that has a neighbour is of the neighbour's
        # kind: the constraints it fits are its own code with any of the four directions left out
        fitting: list[list[int]] = [[] for _ in range(GONE + 1)]
        for r, kinds in enumerate(side_kinds):
            codes = [0]
            for d, kind in enumerate(kinds):
                side = _KIND_CODE[kind] << 2 * d
                codes += [code + side for code in codes]
            for code in codes:
                fitting[code].append(r)
        #: ``rotations[code]``: the rotations that fit the constraint of code ``code``
        self.rotations: Final = [tuple(found) for found in fitting]
        #: ``counts[code]``: ``len(rotations[code])``
        self.counts: Final = [len(found) for found in fitting]


#: tile ids run from 0 to TILE_IDS - 1 (a zone's node, ``tile * 10 + zone``, is below SYSTEM)
TILE_IDS: Final = SYSTEM // 10

# Each per-tile memo below is looked up first in a list by tile id, of ``(tile, value)`` pairs:
# quicker than its dict by ``id(tile)`` (which holds the tiles of every tile set, and refills the
# list when another set's tile with the same id took the place), much quicker in the compiled build.
# The quick look-up is written out in each memo (a call would cost what it saves); the rest is
# remember_for_tile (also the slow path of huntgather.state's memo of each tile's occupant moves).

_V = TypeVar("_V")


def remember_for_tile(by_id: list[tuple[Tile, _V] | None], by_object: dict[int, tuple[Tile, _V]],
              tile: Tile, make: Callable[[Tile], _V]) -> _V:
    """A per-tile memo's value for ``tile`` when its quick look-up (``by_id[tile.id]`` holding this
    very tile) missed: from ``by_object`` by ``id(tile)``, made by ``make(tile)`` the first time,
    and put back in ``by_id``."""
    entry = by_object.get(id(tile))
    if entry is None or entry[0] is not tile:
        entry = by_object[id(tile)] = (tile, make(tile))
    by_id[tile.id] = entry
    return entry[1]


#: tile sides (unrotated) -> its fit table
_FIT_MEMO: Final[dict[tuple[str, ...], FitTable]] = {}
#: id(tile) -> (tile, its fit table): the table found without hashing the sides
_FITS: Final[dict[int, tuple[Tile, FitTable]]] = {}
_FITS_BY_ID: Final[list[tuple[Tile, FitTable] | None]] = [None] * TILE_IDS


def fit_table(tile: Tile) -> FitTable:
    """The rotations of ``tile`` that fit each constraint, shared by every tile with its side kinds."""
    entry = _FITS_BY_ID[tile.id]
    if entry is not None and entry[0] is tile:
        return entry[1]
    return remember_for_tile(_FITS_BY_ID, _FITS, tile, _shared_fit_table)


def _shared_fit_table(tile: Tile) -> FitTable:
    """The fit table of the tiles with ``tile``'s side kinds (made once for them all)."""
    table = _FIT_MEMO.get(tile.side_kinds[0])
    if table is None:
        table = _FIT_MEMO[tile.side_kinds[0]] = FitTable(tile.side_kinds)
    return table


def fitting_rotations(tile: Tile, constraint: Constraint) -> tuple[int, ...]:
    """Rotations of ``tile`` whose sides match ``constraint``.

    >>> from huntgather.tiles import load_tileset
    >>> start = load_tileset("2020").start          # sides N=meadow E=forest S=forest W=river
    >>> fitting_rotations(start, ("forest", None, None, None))
    (2, 3)
    """
    return fit_table(tile).rotations[constraint_code(constraint)]


#: id(tile) -> (tile, per rotation: per direction ``(d, step, side, keep, bits)``), see _sides
_Sides = tuple[tuple[tuple[int, tuple[int, ...], int, int, int, int], ...], ...]
_SIDES: Final[dict[int, tuple[Tile, _Sides]]] = {}
_SIDES_BY_ID: Final[list[tuple[Tile, _Sides] | None]] = [None] * TILE_IDS


def _sides(tile: Tile) -> _Sides:
    """Per rotation of ``tile``, per direction ``d``: ``(step, slots, closed, back, keep, bits)``:
    how the cell key changes towards the neighbour; the side's slots (:func:`_facing`), which
    :meth:`Board.put` joins with those of the neighbour's side facing back (``back``, ``d + 2``);
    the open sides a join of a one-zone side closes (2 for a forest, else 0); and how the
    neighbour cell's constraint code changes if it is empty (``code & keep | bits``: its side
    facing back becomes this side's kind); memoised per tile."""
    entry = _SIDES_BY_ID[tile.id]
    if entry is not None and entry[0] is tile:
        return entry[1]
    return remember_for_tile(_SIDES_BY_ID, _SIDES, tile, _make_sides)


def _make_sides(tile: Tile) -> _Sides:
    """:func:`_sides` of ``tile``, made."""
    facing = _facing(tile)
    out = []
    for r in range(4):
        per = []
        for d, step in enumerate(_KEY_DELTAS):
            kind = tile.rotated_sides[r][d].kind
            back = (d + 2) % 4
            shift = 2 * back
            per.append((step, facing[r][d], 2 if kind is FOREST else 0, back,
                        255 ^ 3 << shift, _KIND_CODE[kind] << shift))
        out.append(tuple(per))
    return tuple(out)


_Facing = tuple[tuple[tuple[int, ...], ...], ...]
_FACING: Final[dict[int, tuple[Tile, _Facing]]] = {}
_FACING_BY_ID: Final[list[tuple[Tile, _Facing] | None]] = [None] * TILE_IDS


def _facing(tile: Tile) -> _Facing:
    """Per rotation of ``tile``, per direction: the slots (see :func:`_slot`) of the zones of the
    side facing it, what a join across that side joins: ``(zone,)`` for a forest or meadow side,
    ``(meadow1, river, meadow2, river system)`` for a river side (see
    :class:`~huntgather.tiles.Side`); memoised per tile.  (Apart from :func:`_sides`, whose
    entries mix types: the compiled build reads one item of this table without unboxing a whole
    entry.)"""
    entry = _FACING_BY_ID[tile.id]
    if entry is not None and entry[0] is tile:
        return entry[1]
    return remember_for_tile(_FACING_BY_ID, _FACING, tile, _make_facing)


def _make_facing(tile: Tile) -> _Facing:
    """:func:`_facing` of ``tile``, made."""
    base = tile.id * 10
    out = []
    for r in range(4):
        per = []
        for side in tile.rotated_sides[r]:
            slots = tuple(_slot(base + z) for z in side.zones)
            if side.kind is RIVER:
                slots += (_slot(SYSTEM + base + side.zones[1]),)
            per.append(slots)
        out.append(tuple(per))
    return tuple(out)


# The union-find of Board.parent works on *slots*, not on nodes: each node that some tile has gets
# the next free slot the first time a template of that tile is made, so a board's list is as long as
# the nodes of the tile sets used (about 500 for one edition, where nodes run to 2 * SYSTEM): a
# board copy copies that list, and a search copies some 50 boards a simulation.  The slots given
# out do not change what the union-find finds (which node is a root does not depend on them).

#: node -> its slot (-1: none yet)
_SLOT_OF: Final[list[int]] = [-1] * (2 * SYSTEM)
#: slot -> its node
_NODE_OF: Final[list[int]] = []


#: held while a slot is given out: a server makes games in worker threads too, and two threads
#: giving the same node a slot at once would leave it two
_SLOTS_LOCK: Final = Lock()


def _slot(node: int) -> int:
    """The slot of ``node``, given out now if it has none (once, whatever the threads)."""
    slot = _SLOT_OF[node]
    if slot < 0:
        with _SLOTS_LOCK:
            slot = _SLOT_OF[node]
            if slot < 0:
                slot = len(_NODE_OF)
                _NODE_OF.append(node)   # (the node first, then its slot: a reader that finds the
                _SLOT_OF[node] = slot   # slot finds the node)
    return slot


#: tile -> its zones as new features: (parent links as ``(slot, parent slot)``, the length
#: Board.parent needs for them, feature entries)
_Template = tuple[tuple[tuple[int, int], ...], int, dict[int, Feature]]
_TEMPLATES: Final[dict[int, tuple[Tile, _Template]]] = {}
_TEMPLATES_BY_ID: Final[list[tuple[Tile, _Template] | None]] = [None] * TILE_IDS


def _template(tile: Tile, tileset: TileSet) -> _Template:
    """The parent links and features that placing ``tile`` adds before it meets a neighbour.

    They do not depend on where the tile goes, so they are built once per tile
    (features are immutable and may be shared by every board).
    """
    entry = _TEMPLATES_BY_ID[tile.id]
    if entry is not None and entry[0] is tile:
        return entry[1]
    return remember_for_tile(_TEMPLATES_BY_ID, _TEMPLATES, tile, lambda t: _make_template(t, tileset))


def _make_template(tile: Tile, tileset: TileSet) -> _Template:
    """:func:`_template` of ``tile`` (of ``tileset``), made."""
    slots = [_slot(node) for node in _make_nodes(tile)]
    scratch = Board(tileset)
    base = tile.id * 10
    parent, features = scratch.parent, scratch.features
    tiles = frozenset((tile.id,))
    sides = tile.zone_sides
    for z in tile.zones.values():
        node = base + z.id
        kind = z.kind
        if kind is FOREST:
            parent[_SLOT_OF[node]] = _SLOT_OF[node]
            features[node] = Feature(FOREST, tiles, sides[z.id], menhirs=z.menhirs,
                                     gold_nuggets=z.gold_nuggets, mushrooms=z.mushrooms)
        elif kind is MEADOW:
            parent[_SLOT_OF[node]] = _SLOT_OF[node]
            specials = frozenset((z.special,)) if z.special else frozenset()
            features[node] = Feature(MEADOW, tiles, specials=specials)
        elif kind is RIVER:
            parent[_SLOT_OF[node]] = _SLOT_OF[node]
            lakes = frozenset((base + z.lake,)) if z.lake is not None else frozenset()
            features[node] = Feature(RIVER, tiles, sides[z.id], fish=z.fish, lakes=lakes)
            parent[_SLOT_OF[SYSTEM + node]] = _SLOT_OF[SYSTEM + node]
            features[SYSTEM + node] = Feature(RIVER, tiles, fish=z.fish)
        else:  # lake
            snode = SYSTEM + node
            parent[_SLOT_OF[snode]] = _SLOT_OF[snode]
            specials = frozenset((z.special,)) if z.special else frozenset()
            features[snode] = Feature(LAKE, tiles, fish=z.fish, lakes=frozenset((node,)),
                                      specials=specials)
    for z in tile.zones.values():
        if z.kind is RIVER and z.lake is not None:
            scratch._join(_SLOT_OF[SYSTEM + base + z.id], _SLOT_OF[SYSTEM + base + z.lake], 0)
    # (the features keyed by the very int objects that _NODE_OF holds: the boards' look-ups by a
    # root's node from there then find their key by identity, without comparing two ints; typed
    # Any, so that the compiled build takes those objects rather than boxing new ones)
    node_of: list[Any] = _NODE_OF
    return (tuple((slot, scratch._root(slot)) for slot in slots), max(slots) + 1,
            {node_of[_SLOT_OF[node]]: f for node, f in features.items()})


_MARKED: Final[dict[int, tuple[TileSet, dict[int, tuple[tuple[int, Zone], ...]]]]] = {}
_NODES: Final[dict[int, tuple[Tile, tuple[int, ...]]]] = {}
_NODES_BY_ID: Final[list[tuple[Tile, tuple[int, ...]] | None]] = [None] * TILE_IDS


def _nodes(tile: Tile) -> tuple[int, ...]:
    """The partition nodes of a tile's zones: each zone but a lake, and each water zone's river
    system node (memoised per tile)."""
    entry = _NODES_BY_ID[tile.id]
    if entry is not None and entry[0] is tile:
        return entry[1]
    return remember_for_tile(_NODES_BY_ID, _NODES, tile, _make_nodes)


def _make_nodes(tile: Tile) -> tuple[int, ...]:
    """:func:`_nodes` of ``tile``, made."""
    base = tile.id * 10
    nodes: list[int] = []
    for z in tile.zones.values():
        if z.kind is not LAKE:
            nodes.append(base + z.id)
        if z.kind is RIVER or z.kind is LAKE:
            nodes.append(SYSTEM + base + z.id)
    return tuple(nodes)


_CLOSABLE: Final[dict[int, tuple[Tile, tuple[int, ...]]]] = {}
_CLOSABLE_BY_ID: Final[list[tuple[Tile, tuple[int, ...]] | None]] = [None] * TILE_IDS


def _closable(tile: Tile) -> tuple[int, ...]:
    """The nodes of the forest and river zones of ``tile``, in zone order: what a placement may
    complete (memoised per tile)."""
    entry = _CLOSABLE_BY_ID[tile.id]
    if entry is not None and entry[0] is tile:
        return entry[1]
    return remember_for_tile(_CLOSABLE_BY_ID, _CLOSABLE, tile, _make_closable)


def _make_closable(tile: Tile) -> tuple[int, ...]:
    """:func:`_closable` of ``tile``, made."""
    return tuple(tile.id * 10 + z.id for z in tile.zones.values() if z.kind is FOREST or z.kind is RIVER)


def _marked(tiles: TileSet) -> dict[int, tuple[tuple[int, Zone], ...]]:
    """Per tile id of ``tiles``: ``(node, zone)`` of its meadow zones that show animals or a special
    (memoised per tile set)."""
    entry = _MARKED.get(id(tiles))
    if entry is not None and entry[0] is tiles:
        return entry[1]
    table = {tile.id: tuple((tile.id * 10 + z.id, z) for z in tile.zones.values()
                            if z.kind is MEADOW and (z.animals or z.special))
             for tile in tiles.by_id.values()}
    _MARKED[id(tiles)] = (tiles, table)
    return table


class Board:
    """Placed tiles and their features.  ``copy()`` is a handful of dict and list copies."""

    __slots__ = ("counted", "counted_for", "features", "front", "front_codes", "front_gone", "front_keys",
                 "grid", "occupants", "parent", "tiles", "where")

    #: cell key (:func:`cell_key`) -> (tile id, rotation); :attr:`cells` gives it by ``(x, y)``
    grid: dict[int, tuple[int, int]]
    #: tile id -> (x, y)
    where: dict[int, Pos]
    #: empty cell next to a tile, by key -> its index in front_keys and front_codes; :attr:`frontier`
    #: gives the cells by ``(x, y)`` with their codes, :meth:`constraint` decodes a code
    front: dict[int, int]
    #: the frontier's cell keys and their constraints' codes (:func:`constraint_code`), in the
    #: frontier's order, and :data:`GONE` for a cell since covered (``front_gone`` of them, dropped
    #: when they are more than a third of the frontier): lists, which the compiled build walks
    #: natively
    front_keys: list[int]
    front_codes: list[int]
    front_gone: int
    #: the union-find of the nodes, by slot (see _slot): ``parent[slot]`` is the slot of its parent (a
    #: root's is its own; -1: not on the board).  A list read by index: no boxed int hashed and
    #: compared as in a dict.  :meth:`find` takes and gives nodes; :meth:`links` gives it by node
    parent: list[int]
    features: dict[int, Feature]
    #: node -> (player, piece); read it through occupant() and pieces()
    occupants: dict[int, tuple[int, Piece]]
    #: the last :meth:`placement_count` made, ``counted``, and the fit table it was made for (None:
    #: none since the frontier last changed): a draw counts the placements of the tile drawn (is
    #: there any?), and a random move asks the same count again, on the same frontier
    counted: int
    counted_for: FitTable | None

    def __init__(self, tiles: TileSet, _copy_of: Board | None = None) -> None:
        self.tiles = tiles
        if _copy_of is not None:   # copy(): one constructor for both (the compiled build has no __new__)
            self.grid = _copy_of.grid.copy()
            self.where = _copy_of.where.copy()
            self.front = _copy_of.front.copy()
            self.front_keys = _copy_of.front_keys.copy()
            self.front_codes = _copy_of.front_codes.copy()
            self.front_gone = _copy_of.front_gone
            self.parent = _copy_of.parent.copy()
            self.features = _copy_of.features.copy()
            self.occupants = _copy_of.occupants.copy()
            self.counted = _copy_of.counted
            self.counted_for = _copy_of.counted_for
            return
        self.grid = {}
        self.where = {}
        self.front = {}
        self.front_keys = []
        self.front_codes = []
        self.front_gone = 0
        self.parent = [-1] * len(_NODE_OF)
        self.features = {}
        self.occupants = {}
        self.counted = 0
        self.counted_for = None

    def copy(self) -> Board:
        return Board(self.tiles, self)

    @property
    def cells(self) -> dict[Pos, tuple[int, int]]:
        """``(x, y)`` -> ``(tile id, rotation)`` of every placed tile, in the order they were placed
        (a new dict: :meth:`tile_at` looks one cell up)."""
        return {cell_of(key): placed for key, placed in self.grid.items()}

    @property
    def frontier(self) -> dict[Pos, int]:
        """Every empty cell next to a tile, ``(x, y)`` -> its constraint's code
        (:func:`constraint_code`), in the board's order (a new dict)."""
        codes = self.front_codes
        return {cell_of(key): codes[i] for key, i in self.front.items()}

    def tile_at(self, x: int, y: int) -> tuple[int, int] | None:
        """``(tile id, rotation)`` of the tile on ``(x, y)``, or None."""
        if not (_LOWEST <= x < CELL_OFFSET and _LOWEST <= y < CELL_OFFSET):
            return None
        return self.grid.get((x + CELL_OFFSET) * CELL_STRIDE + y + CELL_OFFSET)   # (cell_key)

    # pickling by the constructor and the tables (the compiled build cannot make a bare instance)
    def __reduce__(self) -> tuple[type[Board], tuple[TileSet], tuple[object, ...]]:
        # (the union-find by node: another process gives out other slots)
        return Board, (self.tiles,), (self.grid, self.where, self.front, self.front_keys, self.front_codes,
                                      self.front_gone, self.links(), self.features, self.occupants)

    def __setstate__(self, state: Any) -> None:
        (self.grid, self.where, self.front, self.front_keys, self.front_codes, self.front_gone, links,
         self.features, self.occupants) = state
        self.counted = 0
        self.counted_for = None
        slots = {_slot(node): _slot(up) for node, up in links.items()}
        self.parent = parent = [-1] * len(_NODE_OF)
        for slot, up in slots.items():
            parent[slot] = up

    def links(self) -> dict[int, int]:
        """The union-find by node: each node on the board -> the node it points to (a root: itself)."""
        return {_NODE_OF[slot]: _NODE_OF[up] for slot, up in enumerate(self.parent) if up >= 0}

    # ------------------------------------------------------------------ features

    def find(self, node: int) -> int:
        """The root of ``node``'s feature: its id (with path halving)."""
        slot = _SLOT_OF[node]
        parent = self.parent
        p = parent[slot]   # (a root or next to one, most often: found without a call, see _root)
        return _NODE_OF[p if parent[p] == p else self._root(slot)]

    def _root(self, slot: int) -> int:
        """The slot of the root of ``slot``'s feature (with path halving).

        Most slots are a root or next to one, where this changes nothing: the hot loops below
        look that up themselves (``p = parent[slot]``, a root if ``parent[p] == p``) and call
        it only for a longer path, which saves a call and leaves the same bookkeeping."""
        parent = self.parent
        p = parent[slot]
        if parent[p] == p:   # a root, or next to one: nothing to halve
            return p
        while p != slot:
            gp = parent[p]
            parent[slot] = gp
            slot, p = p, parent[gp]
        return slot

    def _join(self, a: int, b: int, closed: int) -> None:
        """Join the features of slots ``a`` and ``b``, with ``closed`` open sides now covered."""
        parent = self.parent
        # a root or next to one, most often: found without a call (see _root)
        p = parent[a]
        ra = p if parent[p] == p else self._root(a)
        p = parent[b]
        rb = p if parent[p] == p else self._root(b)
        features = self.features
        # (the roots' nodes as the objects the list holds, typed Any: the compiled build would
        # otherwise unbox each and box it again for each look-up)
        node_of: list[Any] = _NODE_OF
        ka: Any = node_of[ra]
        if ra == rb:
            if closed:
                f = features[ka]
                features[ka] = f.with_open(f.open - closed)
            return
        kb: Any = node_of[rb]
        fa, fb = features[ka], features[kb]
        if len(fa.tiles) < len(fb.tiles):
            ka, kb, fa, fb, ra, rb = kb, ka, fb, fa, rb, ra
        parent[rb] = ra
        del features[kb]
        features[ka] = fa.merged(fb, closed)

    # ------------------------------------------------------------------ placement

    def placements(self, tile: Tile) -> list[tuple[int, int, int]]:
        """Every legal ``(x, y, rotation)`` for ``tile``, in frontier order."""
        fits = fit_table(tile).rotations
        out: list[tuple[int, int, int]] = []
        codes = self.front_codes
        for key, i in self.front.items():
            code = codes[i]
            if fits[code]:
                x, y = (key >> 12) - CELL_OFFSET, (key & 4095) - CELL_OFFSET   # (cell_of, inline)
                out += [(x, y, r) for r in fits[code]]
        return out

    # (plain loops, not sum/accumulate over map(counts.__getitem__, ...): quicker in CPython, and
    # the compiled build makes them native loops, several times quicker still.  The two walks of
    # the whole frontier a random move makes, placement_count and placement, go through iter():
    # the compiled build's own walk over a dict costs it almost twice what CPython's iterator does,
    # more than the call to iter() costs in either build)

    def placement_count(self, tile: Tile) -> int:
        """``len(self.placements(tile))``, without listing them (the last count is kept until the
        frontier changes: the draw of a tile and the random move that places it ask the same).

        >>> from huntgather.tiles import load_tileset
        >>> tiles = load_tileset("2020"); b = Board(tiles); b.put(56, 0, 0, 0)
        >>> b.placement_count(tiles[3]), b.placement_count(tiles[3]) == len(b.placements(tiles[3]))
        (4, True)
        >>> b.put(3, *b.placements(tiles[3])[0]); b.placement_count(tiles[3]) == len(b.placements(tiles[3]))
        True
        """
        table = fit_table(tile)
        if table is self.counted_for:
            return self.counted
        counts = table.counts
        total = 0
        for code in self.front_codes:
            total += counts[code]
        self.counted = total
        self.counted_for = table
        return total

    def placement_ends(self, tile: Tile) -> list[int]:
        """For each frontier cell in order, how many placements of ``tile`` it and the cells before
        it offer (the last is :meth:`placement_count`): what :meth:`placement` looks an index up in."""
        counts = fit_table(tile).counts
        ends: list[int] = []
        total = 0
        for code in self.front_codes:
            if code != GONE:
                total += counts[code]
                ends.append(total)
        return ends

    def placement(self, tile: Tile, index: int, ends: list[int] | None = None,
                  count: int | None = None) -> tuple[int, int, int]:
        """``self.placements(tile)[index]`` (for ``0 <= index < placement_count(tile)``), without
        listing the others: a random player needs only the one it picks (and its count,
        :meth:`placement_count`).  ``ends`` may pass :meth:`placement_ends` when the caller has
        it, or ``count`` the :meth:`placement_count`, which lets the walk start from the nearer end.

        >>> from huntgather.tiles import load_tileset
        >>> tiles = load_tileset("2020"); b = Board(tiles); b.put(56, 0, 0, 0)
        >>> b.put(3, *b.placements(tiles[3])[0])
        >>> listed, count = b.placements(tiles[7]), b.placement_count(tiles[7])
        >>> all(b.placement(tiles[7], i) == b.placement(tiles[7], i, count=count) == p
        ...     for i, p in enumerate(listed))
        True
        """
        table = fit_table(tile)
        if ends is not None:
            if not 0 <= index < (ends[-1] if ends else 0):
                raise IndexError(f"placement {index} of {ends[-1] if ends else 0}")
            cell = bisect_right(ends, index)
            key, i = next(islice(self.front.items(), cell, None))
            code = self.front_codes[i]
            x, y = cell_of(key)
            return x, y, table.rotations[code][index - (ends[cell - 1] if cell else 0)]
        # without the running totals: walk the frontier to the cell that holds the index (a random
        # index stops half-way on average, a quarter of the way when the walk starts from the
        # nearer end; with placement_count, quicker than making the totals in the compiled build,
        # a little slower in CPython: see docs/performance.md)
        if index >= 0 and (count is None or index < count):
            counts = table.counts
            codes = self.front_codes
            if count is not None and 2 * index >= count:
                left = count - 1 - index   # the index counted from the last placement, backwards
                at = len(codes)
                for code in reversed(codes):
                    at -= 1
                    n = counts[code]
                    if left < n:
                        key = self.front_keys[at]
                        return ((key >> 12) - CELL_OFFSET, (key & 4095) - CELL_OFFSET,   # (cell_of)
                                table.rotations[code][n - 1 - left])
                    left -= n
            else:
                left = index
                for at, code in enumerate(codes):
                    n = counts[code]
                    if left < n:
                        key = self.front_keys[at]
                        return ((key >> 12) - CELL_OFFSET, (key & 4095) - CELL_OFFSET,   # (cell_of)
                                table.rotations[code][left])
                    left -= n
        raise IndexError(f"placement {index} of {self.placement_count(tile)}")

    def can_place(self, tile: Tile) -> bool:
        """Whether ``tile`` fits anywhere on the board (stops at the first cell where it does)."""
        counts = fit_table(tile).counts
        for code in self.front_codes:  # noqa: SIM110 - a loop: any() over a generator is slower
            if counts[code]:
                return True
        return False

    def front_code(self, x: int, y: int) -> int:
        """The constraint code (:func:`constraint_code`) of frontier cell ``(x, y)``: an index
        into a :class:`FitTable`'s lists."""
        return self.front_codes[self.front[cell_key(x, y)]]

    def fitting_at(self, tile: Tile, x: int, y: int) -> tuple[int, ...]:
        """The rotations of ``tile`` that fit frontier cell ``(x, y)``."""
        return fit_table(tile).rotations[self.front_code(x, y)]

    def constraint(self, x: int, y: int) -> Constraint | None:
        """The constraint of frontier cell ``(x, y)``: per direction the kind of the neighbour's
        side facing it, or None; None for a cell not on the frontier."""
        if not (_LOWEST <= x < CELL_OFFSET and _LOWEST <= y < CELL_OFFSET):
            return None
        i = self.front.get(cell_key(x, y))
        return None if i is None else constraint_of(self.front_codes[i])

    def mismatch(self, tile: Tile, x: int, y: int, rotation: int) -> str | None:
        """Why ``tile`` cannot go at ``(x, y)`` turned ``rotation`` times, or None if it can."""
        if rotation not in (0, 1, 2, 3):
            return f"rotation must be 0, 1, 2 or 3, not {rotation}"
        placed = self.tile_at(x, y)
        if placed is not None:
            return f"({x},{y}) already holds tile {placed[0]}"
        if self.constraint(x, y) is None:
            return f"({x},{y}) touches no placed tile"
        return self.side_conflict(tile, x, y, rotation)

    def side_conflict(self, tile: Tile, x: int, y: int, rotation: int) -> str | None:
        """The first side of ``tile`` at ``(x, y)`` that does not match its neighbour, or None.

        Only the sides that touch a placed tile are checked (a cell with no
        neighbour has no conflict); positions use this to lay tiles apart.
        """
        constraint = self.constraint(x, y)
        if constraint is None:
            return None
        for d in range(4):
            want = constraint[d]
            have = tile.side_kinds[rotation][d]
            if want is not None and want != have:
                dx, dy = DELTAS[d]
                nb = self.grid[cell_key(x + dx, y + dy)][0]
                back = DIRECTIONS[(d + 2) % 4]
                return (f"side {DIRECTIONS[d]} of tile {tile.id} is {have} but the neighbour's "
                        f"side {back} (tile {nb} at ({x + dx},{y + dy})) is {want}")
        return None

    def put(self, tile_id: int, x: int, y: int, rotation: int) -> None:
        """Place a tile (the caller has checked legality; ``(x, y)`` is at most :data:`REACH` plus a
        tile set's tiles from the start: see :func:`cell_key`) and join its zones.

        The tile's own zones come from a per-tile template; then each side that
        touches a neighbour joins the zones on both sides, and each empty
        neighbour cell gets this side's kind in its frontier constraint.
        """
        listed = self.tiles.listed
        tile = listed[tile_id]
        assert tile is not None
        key = (x + CELL_OFFSET) * CELL_STRIDE + y + CELL_OFFSET   # (cell_key, without its check)
        grid = self.grid
        frontier = self.front
        codes = self.front_codes
        # (keys and slots used more than once as objects, typed Any: the compiled build boxes each
        # once, not for every dict or list it goes into)
        kobj: Any = key
        grid[kobj] = (tile_id, rotation)
        self.counted_for = None   # (the frontier changes: see placement_count)
        self.where[tile_id] = (x, y)
        at = frontier.get(kobj)
        if at is not None:   # (not the start tile's cell; `get` and `del` beat dict.pop compiled)
            del frontier[kobj]
            codes[at] = GONE
            self.front_gone += 1
        links: tuple[tuple[int, Any], ...]
        links, need, features = _template(tile, self.tiles)
        parent = self.parent
        if len(parent) < need:   # (slots given out since this board was made)
            parent.extend([-1] * (need - len(parent)))
        for slot, up in links:
            parent[slot] = up
        self.features.update(features)
        for step, slots, closed, back, keep, bits in _sides(tile)[rotation]:
            nkey: Any = key + step
            neighbour = grid.get(nkey)
            if neighbour is None:
                # the empty cell's side facing back (d + 2) must now match this side's kind
                at = frontier.get(nkey)
                if at is None:
                    frontier[nkey] = len(codes)
                    self.front_keys.append(nkey)
                    codes.append(bits)
                else:
                    codes[at] = codes[at] & keep | bits
                continue
            ntile_id, nrot = neighbour
            ntile = listed[ntile_id]
            assert ntile is not None
            theirs = _facing(ntile)[nrot][back]
            if len(slots) == 1:
                self._join(slots[0], theirs[0], closed)
            else:   # a river side: meadow1 meets the other's meadow2, the rivers and systems join
                self._join(slots[0], theirs[2], 0)
                self._join(slots[2], theirs[0], 0)
                self._join(slots[1], theirs[1], 2)
                self._join(slots[3], theirs[3], 0)
        if 3 * self.front_gone > len(frontier):
            self._drop_gone()

    def _drop_gone(self) -> None:
        """Drop the covered cells from front_keys and front_codes (the frontier keeps its order).

        In place: the cells left move down over the covered ones, and only the cells that moved
        get their new index in the frontier's dict (those before the first covered cell keep it)."""
        frontier = self.front
        codes = self.front_codes
        # (the keys as the objects the list holds, typed Any: the compiled build would otherwise
        # unbox each and box it again for the dict)
        keys: list[Any] = self.front_keys
        to = codes.index(GONE)
        for at in range(to + 1, len(codes)):
            code = codes[at]
            if code != GONE:
                key = keys[at]
                codes[to] = code
                keys[to] = key
                frontier[key] = to
                to += 1
        del codes[to:]
        del keys[to:]
        self.front_gone = 0

    # ------------------------------------------------------------------ features by zone

    def feature_id(self, tile: int, zone: int) -> int:
        """An id of the forest, meadow or river that zone ``tile.zone`` belongs to.

        Ids are for comparing and for :meth:`feature_by_id`; they stay valid while
        the board grows (a merged feature answers to the ids of all its parts).
        """
        return self.find(tile * 10 + zone)

    def system_id(self, tile: int, zone: int) -> int:
        """An id of the river system (rivers joined through lakes) of a river or lake zone."""
        return self.find(SYSTEM + tile * 10 + zone)

    def current_id(self, fid: int) -> int:
        """The id that the feature with id ``fid`` goes by now (features merge as tiles join them)."""
        return fid if fid in self.features else self.find(fid)   # the features are kept by root

    def feature_by_id(self, fid: int) -> Feature:
        """The feature (or river system) with id ``fid``."""
        found = self.features.get(fid)   # the features are kept by root: an id that is one is quick
        return found if found is not None else self.features[self.find(fid)]

    def feature_at(self, tile: int, zone: int) -> Feature:
        """The forest, meadow or river that zone ``tile.zone`` belongs to."""
        slot = _SLOT_OF[tile * 10 + zone]
        parent = self.parent
        p = parent[slot]
        node_of: list[Any] = _NODE_OF   # (Any: see _join)
        return self.features[node_of[p if parent[p] == p else self._root(slot)]]

    def system_at(self, tile: int, zone: int) -> Feature:
        """The river system of river or lake zone ``tile.zone``."""
        slot = _SLOT_OF[SYSTEM + tile * 10 + zone]
        parent = self.parent
        p = parent[slot]
        node_of: list[Any] = _NODE_OF   # (Any: see _join)
        return self.features[node_of[p if parent[p] == p else self._root(slot)]]

    def is_system(self, fid: int) -> bool:
        """Whether ``fid`` is the id of a river system (rather than of a forest, meadow or river)."""
        return fid >= SYSTEM

    def feature_ids(self, kind: str | None = None) -> list[int]:
        """The ids of every forest, meadow and river (of ``kind`` only, if given), in id order."""
        return sorted(r for r, f in self.features.items()
                      if r < SYSTEM and (kind is None or f.kind == kind))

    def tile_feature_ids(self, tile: Tile) -> list[int]:
        """The ids of the features a placed tile's zones belong to, and of its river systems."""
        parent = self.parent   # (_root only for a longer path)
        node_of: list[Any] = _NODE_OF   # (Any: see _join)
        out: list[int] = []
        for node in _nodes(tile):
            slot = _SLOT_OF[node]
            p = parent[slot]
            root = node_of[p if parent[p] == p else self._root(slot)]
            if root not in out:
                out.append(root)
        return out

    def completed(self, tile: Tile) -> list[tuple[int, Feature]]:
        """The forests and rivers of the placed ``tile`` that are complete (no open side left),
        each once, as ``(id, feature)``: what placing it may have to score."""
        parent = self.parent   # (_root only for a longer path)
        node_of: list[Any] = _NODE_OF   # (Any: see _join)
        features = self.features
        out: list[tuple[int, Feature]] = []
        for node in _closable(tile):
            slot = _SLOT_OF[node]
            p = parent[slot]
            root = node_of[p if parent[p] == p else self._root(slot)]
            f = features[root]
            if not f.open and not any(r == root for r, _ in out):
                out.append((root, f))
        return out

    def zones_in(self, fid: int, kind: str | None = None) -> list[tuple[ZoneRef, Zone]]:
        """The zones (of ``kind``, if given) of feature or river system ``fid``."""
        root = self.find(fid)
        water = root >= SYSTEM
        find = self.find
        out = []
        for tile_id in self.features[root].tiles:
            for z in self.tiles.by_id[tile_id].zones.values():
                if kind is not None and z.kind != kind:
                    continue
                if water:
                    if (z.kind is RIVER or z.kind is LAKE) and find(SYSTEM + tile_id * 10 + z.id) == root:
                        out.append((ZoneRef(tile_id, z.id), z))
                elif z.kind is not LAKE and find(tile_id * 10 + z.id) == root:
                    out.append((ZoneRef(tile_id, z.id), z))
        return out

    def marked_zones(self, fid: int) -> list[tuple[int, Zone]]:
        """``(tile id, zone)`` of the zones of meadow ``fid`` that show animals or a special
        (what final scoring reads; faster than :meth:`zones_in` for the bots' estimates)."""
        parent = self.parent   # (_root only for a longer path)
        slot = _SLOT_OF[fid]
        p = parent[slot]
        root = p if parent[p] == p else self._root(slot)
        out = []
        marked = _marked(self.tiles)
        node_of: list[Any] = _NODE_OF   # (Any: see _join)
        for tile_id in self.features[node_of[root]].tiles:
            for node, z in marked[tile_id]:
                slot = _SLOT_OF[node]
                p = parent[slot]
                if (p if parent[p] == p else self._root(slot)) == root:
                    out.append((tile_id, z))
        return out

    def holders(self, fid: int) -> list[tuple[int, ZoneRef]]:
        """``(seat, zone)`` of each meeple (for a river system: each hut) on feature ``fid``."""
        root = self.find(fid)
        f = self.features[root]
        return [(p, _ref(n)) for p, n in (f.huts if root >= SYSTEM else f.meeples)]

    # ------------------------------------------------------------------ occupants

    def occupant(self, tile: int, zone: int) -> tuple[int, Piece] | None:
        """``(seat, piece)`` standing on zone ``tile.zone``, or None."""
        return self.occupants.get(tile * 10 + zone)

    def pieces(self) -> list[tuple[ZoneRef, int, Piece]]:
        """Every piece on the board as ``(zone, seat, piece)``, in the order they were put there."""
        return [(_ref(n), p, piece) for n, (p, piece) in self.occupants.items()]

    def leaving_meeples(self) -> list[tuple[int, int, int]]:
        """``(tile, zone, seat)`` of each meeple not on a meadow (the fishers and gatherers, who leave
        at the end of the game), in the order they were put there: :meth:`pieces` less the huts and
        hunters, without a :class:`ZoneRef` made for every piece.

        >>> from huntgather.tiles import load_tileset
        >>> b = Board(load_tileset("2020")); b.put(56, 0, 0, 0)
        >>> _ = b.add_occupant(56, 1, 0, "meeple"); _ = b.add_occupant(56, 0, 1, "meeple")
        >>> [b.zone(56, z).kind.value for z in (0, 1)], b.leaving_meeples()
        (['meadow', 'forest'], [(56, 1, 0)])
        """
        by_id = self.tiles.by_id
        out: list[tuple[int, int, int]] = []
        for node, (p, piece) in self.occupants.items():
            if piece == MEEPLE:   # (huts stay)
                t = node // 10
                z = node - t * 10
                if by_id[t].zones[z].kind is not MEADOW:
                    out.append((t, z, p))
        return out

    def occupied_ids(self) -> list[int]:
        """The ids of the features holding a meeple and of the river systems holding a hut, each
        once, in the order their first piece was put there."""
        parent = self.parent   # (_root only for a longer path)
        node_of: list[Any] = _NODE_OF   # (Any: see _join)
        seen: dict[int, None] = {}
        for node, (_, piece) in self.occupants.items():
            slot = _SLOT_OF[node + SYSTEM if piece == HUT else node]
            p = parent[slot]
            seen[node_of[p if parent[p] == p else self._root(slot)]] = None
        return list(seen)

    def add_occupant(self, tile: int, zone: int, player: int, piece: str) -> int:
        """Put a meeple or hut of ``player`` on zone ``tile.zone`` (the caller has checked the rules);
        return the id of the feature (for a hut: of the river system) it joined."""
        return self.try_occupant(tile, zone, player, piece)[0]

    def try_occupant(self, tile: int, zone: int, player: int, piece: str) -> tuple[int, Feature]:
        """:meth:`add_occupant`, also returning the feature (for a hut: the river system) as it was
        before, which :meth:`untry_occupant` puts back to take the piece off again.

        >>> from huntgather.tiles import load_tileset
        >>> b = Board(load_tileset("2020")); b.put(56, 0, 0, 0)
        >>> before = (dict(b.occupants), dict(b.features))
        >>> root, was = b.try_occupant(56, 1, 0, "meeple"); b.feature_by_id(root).meeples
        ((0, 561),)
        >>> b.untry_occupant(56, 1, root, was); (b.occupants, b.features) == before
        True
        """
        node = tile * 10 + zone
        hut = piece == HUT
        slot = _SLOT_OF[SYSTEM + node if hut else node]
        parent = self.parent
        node_of: list[Any] = _NODE_OF   # (Any: see _join)
        p = parent[slot]
        root = node_of[p if parent[p] == p else self._root(slot)]
        features = self.features
        f = features[root]
        if hut:
            self.occupants[node] = (player, HUT)
            features[root] = f.with_pieces(f.meeples, (*f.huts, (player, node)))
        else:
            self.occupants[node] = (player, MEEPLE)
            features[root] = f.with_pieces((*f.meeples, (player, node)), f.huts)
        return root, f

    def untry_occupant(self, tile: int, zone: int, root: int, before: Feature) -> None:
        """Take back the piece that :meth:`try_occupant` put on zone ``tile.zone`` (feature ``root``,
        which held ``before``): the board holds exactly what it held, the very same feature."""
        del self.occupants[tile * 10 + zone]
        self.features[root] = before

    def remove_meeple(self, tile: int, zone: int) -> int:
        """Take the meeple off zone ``tile.zone``; return its owner."""
        node = tile * 10 + zone
        player, _ = self.occupants.pop(node)
        root = self.find(node)
        f = self.features[root]
        self.features[root] = f.with_pieces(_without_node(f.meeples, node), f.huts)
        return player

    def clear_meeples(self, fid: int) -> list[tuple[int, ZoneRef]]:
        """Remove every meeple of feature ``fid``; return ``(seat, zone)`` of each."""
        root = self.find(fid)
        f = self.features[root]
        for _, node in f.meeples:
            del self.occupants[node]
        self.features[root] = f.with_pieces((), f.huts)
        return [(p, _ref(n)) for p, n in f.meeples]

    # ------------------------------------------------------------------ queries

    def zone(self, tile: int, zone: int) -> Zone:
        """The printed zone ``tile.zone``."""
        return self.tiles[tile].zones[zone]

    def area(self, x: int, y: int) -> list[int]:
        """Tile ids on ``(x, y)`` and the 8 cells around it."""
        out = []
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                cell = self.tile_at(x + dx, y + dy)
                if cell is not None:
                    out.append(cell[0])
        return out

    def lake_fish(self, feature: Feature) -> int:
        """The fish in the lakes at the ends of river ``feature`` (or in a river system's lakes)."""
        tiles = self.tiles.by_id
        return sum(tiles[n // 10].zones[n % 10].fish for n in feature.lakes)
