"""The board: placed tiles, the frontier of empty cells, and the features.

Coordinates are ``(x, y)`` with ``x`` growing east and ``y`` growing south; the
start tile lies at ``(0, 0)``.  The frontier maps every empty cell next to a
tile to its *constraint*: for each direction N, E, S, W the kind of the
neighbouring side facing the cell, or ``None``.  Which rotations of a tile fit
a constraint is memoised on (tile sides, constraint), so listing the legal
placements costs one dictionary look-up per frontier cell.

>>> from huntgather.tiles import load_tileset
>>> b = Board(load_tileset("2020"))
>>> b.put(56, 0, 0, 0)
>>> sorted(b.frontier)
[(-1, 0), (0, -1), (0, 1), (1, 0)]
>>> b.frontier[(1, 0)]   # the start tile's east side is forest
(None, None, None, 'forest')
"""

from __future__ import annotations

from huntgather.features import SYSTEM, Feature
from huntgather.tiles import DELTAS, DIRECTIONS, FOREST, LAKE, MEADOW, RIVER, Tile, TileSet

Pos = tuple[int, int]
Constraint = tuple[str | None, str | None, str | None, str | None]
_EMPTY: Constraint = (None, None, None, None)

#: tile sides (unrotated) -> {constraint -> fitting rotations}; filled lazily
_FIT_MEMO: dict[tuple[str, ...], dict[Constraint, tuple[int, ...]]] = {}


def fit_table(tile: Tile) -> dict[Constraint, tuple[int, ...]]:
    """The memo of fitting rotations shared by every tile with ``tile``'s side kinds."""
    table = _FIT_MEMO.get(tile.side_kinds[0])
    if table is None:
        table = _FIT_MEMO[tile.side_kinds[0]] = {}
    return table


def fitting_rotations(tile: Tile, constraint: Constraint) -> tuple[int, ...]:
    """Rotations of ``tile`` whose sides match ``constraint`` (memoised).

    >>> from huntgather.tiles import load_tileset
    >>> start = load_tileset("2020").start          # sides N=meadow E=forest S=forest W=river
    >>> fitting_rotations(start, ("forest", None, None, None))
    (2, 3)
    """
    table = fit_table(tile)
    found = table.get(constraint)
    if found is None:
        found = table[constraint] = tuple(
            r for r in range(4)
            if all(c is None or c == k for c, k in zip(constraint, tile.side_kinds[r], strict=True))
        )
    return found


#: tile -> its zones as new features: (parent entries, feature entries)
_Template = tuple[dict[int, int], dict[int, Feature]]
_TEMPLATES: dict[int, tuple[Tile, _Template]] = {}


def _template(tile: Tile) -> _Template:
    """The parent links and features that placing ``tile`` adds before it meets a neighbour.

    They do not depend on where the tile goes, so they are built once per tile
    (features are immutable and may be shared by every board).
    """
    entry = _TEMPLATES.get(id(tile))
    if entry is not None and entry[0] is tile:
        return entry[1]
    scratch = Board.__new__(Board)
    scratch.parent, scratch.features = {}, {}
    base = tile.id * 10
    parent, features = scratch.parent, scratch.features
    tiles = frozenset((tile.id,))
    sides = tile.zone_sides
    for z in tile.zones.values():
        node = base + z.id
        kind = z.kind
        if kind == FOREST:
            parent[node] = node
            features[node] = Feature(FOREST, tiles, sides[z.id], menhirs=z.menhirs,
                                     gold_nuggets=z.gold_nuggets, mushrooms=z.mushrooms)
        elif kind == MEADOW:
            parent[node] = node
            specials = frozenset((z.special,)) if z.special else frozenset()
            features[node] = Feature(MEADOW, tiles, specials=specials)
        elif kind == RIVER:
            parent[node] = node
            lakes = frozenset((base + z.lake,)) if z.lake is not None else frozenset()
            features[node] = Feature(RIVER, tiles, sides[z.id], fish=z.fish, lakes=lakes)
            parent[SYSTEM + node] = SYSTEM + node
            features[SYSTEM + node] = Feature(RIVER, tiles, fish=z.fish)
        else:  # lake
            snode = SYSTEM + node
            parent[snode] = snode
            specials = frozenset((z.special,)) if z.special else frozenset()
            features[snode] = Feature(LAKE, tiles, fish=z.fish, lakes=frozenset((node,)),
                                      specials=specials)
    for z in tile.zones.values():
        if z.kind == RIVER and z.lake is not None:
            scratch._join(SYSTEM + base + z.id, SYSTEM + base + z.lake, 0)
    for node in parent:
        scratch.find(node)
    template = (parent, features)
    _TEMPLATES[id(tile)] = (tile, template)
    return template


class Board:
    """Placed tiles and their features.  ``copy()`` is a handful of dict copies."""

    __slots__ = ("cells", "features", "frontier", "occupants", "parent", "tiles", "where")

    def __init__(self, tiles: TileSet) -> None:
        self.tiles = tiles
        #: (x, y) -> (tile id, rotation)
        self.cells: dict[Pos, tuple[int, int]] = {}
        #: tile id -> (x, y)
        self.where: dict[int, Pos] = {}
        self.frontier: dict[Pos, Constraint] = {}
        self.parent: dict[int, int] = {}
        self.features: dict[int, Feature] = {}
        #: node -> (player, "meeple" | "hut")
        self.occupants: dict[int, tuple[int, str]] = {}

    def copy(self) -> Board:
        new = Board.__new__(Board)
        new.tiles = self.tiles
        new.cells = self.cells.copy()
        new.where = self.where.copy()
        new.frontier = self.frontier.copy()
        new.parent = self.parent.copy()
        new.features = self.features.copy()
        new.occupants = self.occupants.copy()
        return new

    # ------------------------------------------------------------------ features

    def find(self, node: int) -> int:
        """The root of ``node``'s feature (with path halving)."""
        parent = self.parent
        p = parent[node]
        while p != node:
            gp = parent[p]
            parent[node] = gp
            node, p = p, parent[gp]
        return node

    def feature(self, node: int) -> Feature:
        """The feature holding zone ``node`` (use ``SYSTEM + node`` for river systems)."""
        return self.features[self.find(node)]

    def _join(self, a: int, b: int, closed: int) -> None:
        ra, rb = self.find(a), self.find(b)
        features = self.features
        if ra == rb:
            if closed:
                f = features[ra]
                features[ra] = f._replace(open=f.open - closed)
            return
        fa, fb = features[ra], features[rb]
        if len(fa.tiles) < len(fb.tiles):
            ra, rb, fa, fb = rb, ra, fb, fa
        self.parent[rb] = ra
        del features[rb]
        features[ra] = fa.merged(fb, closed)

    # ------------------------------------------------------------------ placement

    def placements(self, tile: Tile) -> list[tuple[int, int, int]]:
        """Every legal ``(x, y, rotation)`` for ``tile``, in frontier order."""
        table = fit_table(tile)
        out: list[tuple[int, int, int]] = []
        for (x, y), constraint in self.frontier.items():
            rotations = table.get(constraint)
            if rotations is None:
                rotations = fitting_rotations(tile, constraint)
            for r in rotations:
                out.append((x, y, r))
        return out

    def can_place(self, tile: Tile) -> bool:
        """Whether ``tile`` fits anywhere on the board (stops at the first cell where it does)."""
        table = fit_table(tile)
        for constraint in self.frontier.values():
            rotations = table.get(constraint)
            if rotations is None:
                rotations = fitting_rotations(tile, constraint)
            if rotations:
                return True
        return False

    def mismatch(self, tile: Tile, x: int, y: int, rotation: int) -> str | None:
        """Why ``tile`` cannot go at ``(x, y)`` turned ``rotation`` times, or None if it can."""
        if rotation not in (0, 1, 2, 3):
            return f"rotation must be 0, 1, 2 or 3, not {rotation}"
        if (x, y) in self.cells:
            other = self.cells[(x, y)][0]
            return f"({x},{y}) already holds tile {other}"
        if (x, y) not in self.frontier:
            return f"({x},{y}) touches no placed tile"
        return self.side_conflict(tile, x, y, rotation)

    def side_conflict(self, tile: Tile, x: int, y: int, rotation: int) -> str | None:
        """The first side of ``tile`` at ``(x, y)`` that does not match its neighbour, or None.

        Only the sides that touch a placed tile are checked (a cell with no
        neighbour has no conflict); positions use this to lay tiles apart.
        """
        constraint = self.frontier.get((x, y))
        if constraint is None:
            return None
        for d in range(4):
            want = constraint[d]
            have = tile.side_kinds[rotation][d]
            if want is not None and want != have:
                dx, dy = DELTAS[d]
                nb = self.cells[(x + dx, y + dy)][0]
                back = DIRECTIONS[(d + 2) % 4]
                return (f"side {DIRECTIONS[d]} of tile {tile.id} is {have} but the neighbour's "
                        f"side {back} (tile {nb} at ({x + dx},{y + dy})) is {want}")
        return None

    def put(self, tile_id: int, x: int, y: int, rotation: int) -> None:
        """Place a tile (the caller has checked legality) and join its zones.

        The tile's own zones come from a per-tile template; then each side that
        touches a neighbour joins the zones on both sides, and each empty
        neighbour cell gets this side's kind in its frontier constraint.
        """
        tile = self.tiles[tile_id]
        pos = (x, y)
        cells = self.cells
        frontier = self.frontier
        cells[pos] = (tile_id, rotation)
        self.where[tile_id] = pos
        frontier.pop(pos, None)
        parent, features = _template(tile)
        self.parent.update(parent)
        self.features.update(features)
        base = tile_id * 10
        join = self._join
        for d in range(4):
            dx, dy = DELTAS[d]
            npos = (x + dx, y + dy)
            side = tile.sides[(d - rotation) % 4]
            neighbour = cells.get(npos)
            if neighbour is None:
                constraint = frontier.get(npos, _EMPTY)
                back = (d + 2) % 4
                frontier[npos] = (*constraint[:back], side.kind, *constraint[back + 1:])  # type: ignore[assignment]
                continue
            ntile_id, nrot = neighbour
            nside = self.tiles[ntile_id].sides[((d + 2) % 4 - nrot) % 4]
            nbase = ntile_id * 10
            if side.kind == RIVER:
                m1, rv, m2 = side.zones
                n1, nrv, n2 = nside.zones
                join(base + m1, nbase + n2, 0)
                join(base + m2, nbase + n1, 0)
                join(base + rv, nbase + nrv, 2)
                join(SYSTEM + base + rv, SYSTEM + nbase + nrv, 0)
            else:
                join(base + side.zones[0], nbase + nside.zones[0], 2 if side.kind == FOREST else 0)

    # ------------------------------------------------------------------ occupants

    def add_occupant(self, node: int, player: int, piece: str) -> None:
        """Record a meeple or hut on zone ``node`` and in its feature."""
        self.occupants[node] = (player, piece)
        if piece == "hut":
            root = self.find(SYSTEM + node)
            f = self.features[root]
            self.features[root] = f.with_pieces(f.meeples, (*f.huts, (player, node)))
        else:
            root = self.find(node)
            f = self.features[root]
            self.features[root] = f.with_pieces((*f.meeples, (player, node)), f.huts)

    def remove_meeple(self, node: int) -> int:
        """Take the meeple off zone ``node``; return its owner."""
        player, _ = self.occupants.pop(node)
        root = self.find(node)
        f = self.features[root]
        self.features[root] = f.with_pieces(tuple(m for m in f.meeples if m[1] != node), f.huts)
        return player

    def clear_meeples(self, root: int) -> tuple[tuple[int, int], ...]:
        """Remove every meeple of the feature at ``root``; return ``(player, node)`` pairs."""
        f = self.features[root]
        for _, node in f.meeples:
            del self.occupants[node]
        self.features[root] = f.with_pieces((), f.huts)
        return f.meeples

    # ------------------------------------------------------------------ queries

    def zone_kind(self, node: int) -> str:
        return self.tiles[node // 10].zones[node % 10].kind

    def nodes_of_kind(self, kind: str) -> list[int]:
        """Every placed zone node of ``kind``, in placement order."""
        out = []
        for tile_id in self.where:
            for z in self.tiles[tile_id].zones.values():
                if z.kind == kind:
                    out.append(tile_id * 10 + z.id)
        return out

    def area(self, x: int, y: int) -> list[int]:
        """Tile ids on ``(x, y)`` and the 8 cells around it."""
        cells = self.cells
        out = []
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                cell = cells.get((x + dx, y + dy))
                if cell is not None:
                    out.append(cell[0])
        return out

    def lake_fish(self, lakes: frozenset[int]) -> int:
        return sum(self.tiles[n // 10].zones[n % 10].fish for n in lakes)
