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

_FIT_MEMO: dict[tuple[tuple[str, ...], Constraint], tuple[int, ...]] = {}


def fitting_rotations(tile: Tile, constraint: Constraint) -> tuple[int, ...]:
    """Rotations of ``tile`` whose sides match ``constraint`` (memoised)."""
    key = (tile.side_kinds[0], constraint)
    found = _FIT_MEMO.get(key)
    if found is None:
        found = tuple(
            r for r in range(4)
            if all(c is None or c == k for c, k in zip(constraint, tile.side_kinds[r], strict=True))
        )
        _FIT_MEMO[key] = found
    return found


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
        """Every legal ``(x, y, rotation)`` for ``tile``."""
        out: list[tuple[int, int, int]] = []
        for (x, y), constraint in self.frontier.items():
            for r in fitting_rotations(tile, constraint):
                out.append((x, y, r))
        return out

    def can_place(self, tile: Tile) -> bool:
        return any(fitting_rotations(tile, c) for c in self.frontier.values())

    def mismatch(self, tile: Tile, x: int, y: int, rotation: int) -> str | None:
        """Why ``tile`` cannot go at ``(x, y)`` turned ``rotation`` times, or None if it can."""
        if rotation not in (0, 1, 2, 3):
            return f"rotation must be 0, 1, 2 or 3, not {rotation}"
        if (x, y) in self.cells:
            other = self.cells[(x, y)][0]
            return f"({x},{y}) already holds tile {other}"
        constraint = self.frontier.get((x, y))
        if constraint is None:
            return f"({x},{y}) touches no placed tile"
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
        """Place a tile (the caller has checked legality) and join its zones."""
        tile = self.tiles[tile_id]
        pos = (x, y)
        self.cells[pos] = (tile_id, rotation)
        self.where[tile_id] = pos
        self.frontier.pop(pos, None)
        base = tile_id * 10
        parent, features = self.parent, self.features
        tiles = frozenset((tile_id,))
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
                self._join(SYSTEM + base + z.id, SYSTEM + base + z.lake, 0)
        cells = self.cells
        for d in range(4):
            dx, dy = DELTAS[d]
            npos = (x + dx, y + dy)
            side = tile.sides[(d - rotation) % 4]
            neighbour = cells.get(npos)
            if neighbour is None:
                constraint = list(self.frontier.get(npos, _EMPTY))
                constraint[(d + 2) % 4] = side.kind
                self.frontier[npos] = tuple(constraint)  # type: ignore[assignment]
                continue
            ntile_id, nrot = neighbour
            nside = self.tiles[ntile_id].sides[((d + 2) % 4 - nrot) % 4]
            nbase = ntile_id * 10
            if side.kind == RIVER:
                m1, rv, m2 = side.zones
                n1, nrv, n2 = nside.zones
                self._join(base + m1, nbase + n2, 0)
                self._join(base + m2, nbase + n1, 0)
                self._join(base + rv, nbase + nrv, 2)
                self._join(SYSTEM + base + rv, SYSTEM + nbase + nrv, 0)
            else:
                self._join(base + side.zones[0], nbase + nside.zones[0], 2 if side.kind == FOREST else 0)

    # ------------------------------------------------------------------ occupants

    def add_occupant(self, node: int, player: int, piece: str) -> None:
        """Record a meeple or hut on zone ``node`` and in its feature."""
        self.occupants[node] = (player, piece)
        if piece == "hut":
            root = self.find(SYSTEM + node)
            f = self.features[root]
            self.features[root] = f._replace(huts=(*f.huts, (player, node)))
        else:
            root = self.find(node)
            f = self.features[root]
            self.features[root] = f._replace(meeples=(*f.meeples, (player, node)))

    def remove_meeple(self, node: int) -> int:
        """Take the meeple off zone ``node``; return its owner."""
        player, _ = self.occupants.pop(node)
        root = self.find(node)
        f = self.features[root]
        self.features[root] = f._replace(meeples=tuple(m for m in f.meeples if m[1] != node))
        return player

    def clear_meeples(self, root: int) -> tuple[tuple[int, int], ...]:
        """Remove every meeple of the feature at ``root``; return ``(player, node)`` pairs."""
        f = self.features[root]
        for _, node in f.meeples:
            del self.occupants[node]
        self.features[root] = f._replace(meeples=())
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
