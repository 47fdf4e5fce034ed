"""The board planes' layout, and the loops that fill a tile's column of planes.

The pure-Python part of :class:`huntgather.rl.encoding.Encoder`'s incremental
planes: it makes a tile's column of planes (bytes) and lists of numbers (the
side slots of a feature) and leaves writing them into the NumPy planes to the
encoder.  It
imports no NumPy, so the optional compiled build compiles it (and
:mod:`huntgather.rl.reading`) with mypyc, like the rules core.

>>> from huntgather.game import Game
>>> g = Game(2, seed=1)
>>> column = tile_column(g.state, 56, 0, False, {}, {})
>>> len(column) == len(PLANES), column[PLANES.index("tile")]
(True, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from huntgather.rl import reading
from huntgather.rl.reading import ANIMALS, SPECIALS, FeatureFacts, TileFacts
from huntgather.state import State

#: most seats of any edition; seat-indexed planes and entries always have this many
SEATS: Final = 5
DIRS: Final = "NESW"


def _plane_names() -> tuple[str, ...]:
    names = ["tile", "frontier", "last_placed", "bonus_tile"]
    for kind in ("forest", "river", "meadow"):
        names += [f"{kind}_{d}" for d in DIRS]
    names += [f"open_{d}" for d in DIRS]
    names += [f"size_{d}" for d in DIRS]
    for k in range(SEATS):
        names += [f"meeples_p{k}_{d}" for d in DIRS]
    names += ["fish", "lakes", "mushrooms", "marks", *ANIMALS, *SPECIALS]
    names += [f"piece_meeple_p{k}" for k in range(SEATS)]
    names += [f"piece_hut_p{k}" for k in range(SEATS)]
    names += [f"system_huts_p{k}" for k in range(SEATS)]
    return tuple(names)


#: the board planes, in order (``p0`` is the observing seat, ``p1`` the next one, ...)
PLANES: Final = _plane_names()
SIDE: Final = PLANES.index("forest_N")          # 4 * kind + d
OPEN: Final = PLANES.index("open_N")
SIZE: Final = PLANES.index("size_N")
MEEPLES: Final = PLANES.index("meeples_p0_N")   # 4 * seat + d
FISH: Final = PLANES.index("fish")              # fish, lakes, mushrooms, marks, animals, specials
PIECE_M: Final = PLANES.index("piece_meeple_p0")
PIECE_H: Final = PLANES.index("piece_hut_p0")
SYS: Final = PLANES.index("system_huts_p0")

#: the printed part of a tile's column of planes: by edition name, a list by tile * 4 + rotation
_PRINTED: dict[str, list[bytes | None]] = {}


def _clip(value: int) -> int:
    return 255 if value > 255 else value


def printed_column(edition: str, facts: TileFacts, tile: int, rotation: int) -> bytes:
    """The planes of a placed tile that depend only on what is printed on it (and its turn):
    ``tile``, ``bonus_tile``, the side kinds, ``fish`` … ``marks``, the animals and the
    specials (the animals as printed: a hunting trap may have taken some since)."""
    table = _PRINTED.get(edition)
    if table is None:
        table = _PRINTED[edition] = []
    key = tile * 4 + rotation
    if key >= len(table):
        table.extend([None] * (key + 1 - len(table)))
    found = table[key]
    if found is not None:
        return found
    column = [0] * len(PLANES)
    column[0] = 1
    column[3] = int(facts.bonus)
    for d in range(4):
        column[SIDE + 4 * facts.side_kinds[(d - rotation) % 4] + d] = 1
    column[FISH] = _clip(facts.fish)
    column[FISH + 1] = facts.lakes
    column[FISH + 2] = facts.mushrooms
    column[FISH + 3] = facts.marks
    for k in range(4):
        column[FISH + 4 + k] = facts.animals[k]
    for k, v in enumerate(facts.specials):
        column[FISH + 8 + k] = v
    found = table[key] = bytes(column)
    return found


def tile_column(state: State, tile: int, rotation: int, last: bool,
                memo: dict[int, FeatureFacts], huts: dict[int, tuple[int, ...]]) -> bytearray:
    """The column of planes of a placed tile, turned ``rotation`` (``last``: the tile placed
    last), one byte a plane (every value is at most 255: the counts are clipped); ``memo`` and
    ``huts`` are the caller's memos of features and river systems while the board does not
    change.  (Bytes, not a list of ints: NumPy takes them as they are, where it converts a list
    item by item, and the printed part is copied in one go.)"""
    facts = reading.tile_facts(state.edition, tile)
    column = bytearray(printed_column(state.edition.name, facts, tile, rotation))
    if last:
        column[2] = 1
    zones = facts.side_zones
    for d in range(4):
        feature = reading.feature_facts(state, tile, zones[(d - rotation) % 4], memo)
        column[OPEN + d] = _clip(feature.open)
        column[SIZE + d] = _clip(feature.size)
        for p, n in enumerate(feature.meeples):
            if n:
                column[MEEPLES + 4 * p + d] = n
    if state.removed_animals:
        left = reading.animals_left(state, tile)
        for k in range(4):
            column[FISH + 4 + k] = left[k]
    occupant = reading.tile_occupant(state, tile)
    if occupant is not None:
        column[(PIECE_H if occupant[1] else PIECE_M) + occupant[0]] = 1
    if facts.fish or facts.lakes or reading.RIVER in facts.side_kinds:
        for p, n in enumerate(reading.system_huts(state, tile, huts)):
            if n:
                column[SYS + p] = n
    return column


def feature_slots(state: State, root: int, tiles: frozenset[int], skip: int, ox: int, oy: int, w: int,
                  sides: dict[int, tuple[tuple[int, int], ...]]) -> list[int]:
    """The side slots (``d * W² + row * W + col``) of the feature ``root`` on its tiles in the
    window at ``(ox, oy)`` (``skip`` aside); ``sides`` keeps :func:`reading.side_nodes` by tile."""
    ww = w * w
    out: list[int] = []
    for t in tiles:
        if t == skip:
            continue
        x, y = reading.position(state, t)
        i = y - oy
        j = x - ox
        if not (0 <= i < w and 0 <= j < w):
            continue
        at = i * w + j
        nodes = sides.get(t)
        if nodes is None:
            nodes = sides[t] = reading.side_nodes(state, t)
        for d, node in nodes:
            if reading.node_root(state, node) == root:
                out.append(d * ww + at)
    return out


def placement_actions(spots: list[tuple[int, int, int]], ox: int, oy: int, w: int) -> list[int] | None:
    """The action of each placement ``(x, y, rotation)`` in the window of side ``w`` at
    ``(ox, oy)`` (``4 * (row * w + col) + rotation``), or None if one lies outside it."""
    out: list[int] = []
    for x, y, r in spots:
        i = y - oy
        j = x - ox
        if not (0 <= i < w and 0 <= j < w):
            return None
        out.append((i * w + j) * 4 + r)
    return out


def _in_window(state: State, tiles: Iterable[int], ox: int, oy: int,
               w: int) -> Iterator[tuple[int, int, int, int, int]]:
    """Those of the placed ``tiles`` in the window of side ``w`` at ``(ox, oy)``: each with its board
    position ``x, y`` and its row and column ``i, j`` in the window."""
    for t in tiles:
        x, y = reading.position(state, t)
        i = y - oy
        j = x - ox
        if 0 <= i < w and 0 <= j < w:
            yield t, x, y, i, j


def tile_cells(state: State, tiles: set[int] | frozenset[int], ox: int, oy: int, w: int,
               last: tuple[int, int] | None,
               memo: dict[int, FeatureFacts] | None = None) -> tuple[list[int], bytearray]:
    """The columns of planes of these placed tiles in the window of side ``w`` at ``(ox, oy)``
    (those outside it left out): their cells (``row * w + col``), and their columns one after
    the other (:func:`tile_column`; ``last`` is the cell of the tile placed last).  ``memo``:
    the caller's memo of features while the board does not change (see
    :func:`reading.feature_facts`)."""
    if memo is None:
        memo = {}
    huts: dict[int, tuple[int, ...]] = {}
    where: list[int] = []
    values = bytearray()
    for t, x, y, i, j in _in_window(state, tiles, ox, oy, w):
        placed = reading.placed_at(state, x, y)
        assert placed is not None
        here = last is not None and last[0] == x and last[1] == y
        where.append(i * w + j)
        values += tile_column(state, t, placed[1], here, memo, huts)
    return where, values


def hut_slots(state: State, tiles: set[int], ox: int, oy: int, w: int) -> tuple[list[int], list[int]]:
    """The ``system_huts`` planes of these placed tiles in the window: flat indices into the
    planes and their values (each seat's huts on the tile's river systems)."""
    ww = w * w
    huts: dict[int, tuple[int, ...]] = {}
    where: list[int] = []
    values: list[int] = []
    for t, _x, _y, i, j in _in_window(state, tiles, ox, oy, w):
        at = SYS * ww + i * w + j
        for p, n in enumerate(reading.system_huts(state, t, huts)):
            where.append(at + p * ww)
            values.append(n)
    return where, values


#: the first plane of each value of a feature's side slots: open ends, size, then each seat's meeples
SLOT_PLANES: Final[tuple[int, ...]] = (OPEN, SIZE, *(MEEPLES + 4 * p for p in range(SEATS)))


def slot_values(state: State, root: int, feature: FeatureFacts, tiles: frozenset[int], skip: int,
                ox: int, oy: int, w: int, sides: dict[int, tuple[tuple[int, int], ...]],
                where: list[int], values: list[int]) -> None:
    """Append to ``where`` and ``values`` the flat indices into the planes and the values of a
    feature's side slots (:func:`feature_slots`): its open ends, size and each seat's meeples."""
    write_slots(feature, feature_slots(state, root, tiles, skip, ox, oy, w, sides), w, where, values)


#: the neighbour's cell offset in each direction (N, E, S, W)
#: (tuples of any length: the compiled build keeps a fixed-length one unboxed and boxes it again,
#: nested tuples and all, whenever a variable indexes it)
DX: Final[tuple[int, ...]] = (0, 1, 0, -1)
DY: Final[tuple[int, ...]] = (-1, 0, 1, 0)


class SideSlots:
    """Each forest's, river's and meadow's side slots (``d * W² + row * W + col``, as
    :func:`feature_slots` lists them), kept across placements instead of walking the feature's
    tiles at each: a placement adds the new tile's slots and joins the lists of the features it
    merged.

    A list is kept under a *label*: the board's id of the feature when the list was made.  Every
    zone of a placed tile that touches a side (only those can join other tiles' zones) is filed
    under its feature's label; when a placement merges features, the lists of all but the longest
    go into the longest, and their labels name it from then on (``alias``).  The board's union-find
    is read only after the placement: the labels say which features the new tile joined (the
    zones of its neighbours on their sides that face it).  Slots are for the window at
    ``(ox, oy)`` only; another window needs new ones.
    """

    def __init__(self, state: State, ox: int, oy: int, w: int) -> None:
        self.ox = ox
        self.oy = oy
        self.w = w
        # (lists by zone node, not dicts: a list's item costs the compiled build a fraction of a
        # dict's look-up, whose int key it boxes; labels are zone nodes too)
        nodes = len(state.board.tiles.listed) * 10
        #: by label: the side slots of its feature in the window (None: no list under it)
        self.slots: list[list[int] | None] = [None] * nodes
        #: by zone node (tile * 10 + zone) of a zone that touches a side: its label when filed (-1: none)
        self.label: list[int] = [-1] * nodes
        #: by label merged into another feature's list: that list's label (-1: not merged)
        self.alias: list[int] = [-1] * nodes
        #: by label: how many slots the last placed tile added at the end of its list
        self.fresh: list[int] = [0] * nodes
        self._fresh_labels: list[int] = []   # (the labels whose count is set, cleared at the next tile)
        for t in reading.placed_tiles(state):
            self._file(state, t, [], [])

    def _resolve(self, label: int) -> int:
        alias = self.alias
        found = alias[label]
        if found < 0:
            return label
        top = found
        nxt = alias[top]
        while nxt >= 0:
            top = nxt
            nxt = alias[top]
        if top != found:
            alias[label] = top
        return top

    def _file(self, state: State, tile: int, roots: list[int], labels: list[int]) -> None:
        """File the side-touching zones and the side slots of placed ``tile``: each under the label
        that ``labels`` gives beside its feature's board id in ``roots``, or under that id (which
        then joins the two lists).

        (The few features of a tile are looked up in short lists, not dicts: a dict keyed by an
        int boxes the key at each look-up in the compiled build, which cost more than the walk.)"""
        board = state.board   # (its find called directly: a bound method object would be called generically)
        facts = reading.tile_facts(state.edition, tile)
        base = tile * 10
        label = self.label
        for z in facts.zones:
            if z.kind == reading.LAKE or not (z.sides[0] or z.sides[1] or z.sides[2] or z.sides[3]):
                continue
            node = base + z.id
            root = board.find(node)
            if root in roots:
                found = labels[roots.index(root)]
            else:
                found = root
                roots.append(root)
                labels.append(root)
            label[node] = found
        x, y = reading.position(state, tile)
        i = y - self.oy
        j = x - self.ox
        w = self.w
        fresh = self.fresh
        for lab in self._fresh_labels:
            fresh[lab] = 0
        touched: list[int] = []
        self._fresh_labels = touched
        if 0 <= i < w and 0 <= j < w:
            at = i * w + j
            ww = w * w
            rotation = state.board.tile_at(x, y)[1]  # type: ignore[index]
            zones = facts.side_zones
            slots = self.slots
            for d in range(4):
                lab = label[base + zones[(d - rotation) % 4]]
                if not fresh[lab]:
                    touched.append(lab)
                fresh[lab] += 1
                found_slots = slots[lab]
                if found_slots is None:
                    slots[lab] = [d * ww + at]
                else:
                    found_slots.append(d * ww + at)

    def placed(self, state: State, tile: int) -> None:
        """Bring the lists up to date after ``tile`` was placed (and nothing else since the last
        call: the lists were made or brought up to date after every earlier placement)."""
        board = state.board
        x, y = board.where[tile]
        # the features the new tile joined, by their board id now (roots), with the labels they had
        # (groups, beside them)
        roots: list[int] = []
        groups: list[list[int]] = []
        for d in range(4):
            found = board.tile_at(x + DX[d], y + DY[d])
            if found is None:
                continue
            n, rotation = found
            s = (d + 2 - rotation) % 4   # the neighbour's side that faces the new tile, unturned
            base = n * 10
            for z in reading.tile_facts(state.edition, n).zones:
                if z.sides[s] and z.kind != reading.LAKE:
                    node = base + z.id
                    filed = self.label[node]
                    assert filed >= 0, "every side-touching zone of a placed tile is filed"
                    lab = self._resolve(filed)
                    root = board.find(node)
                    if root not in roots:
                        roots.append(root)
                        groups.append([lab])
                    else:
                        group = groups[roots.index(root)]
                        if lab not in group:
                            group.append(lab)
        keeps: list[int] = []
        slots = self.slots
        for group in groups:
            keep = group[0]
            kept = slots[keep]
            for lab in group[1:]:
                other = slots[lab]
                if other is not None and (kept is None or len(other) > len(kept)):
                    keep, kept = lab, other
            if kept is None:
                kept = slots[keep] = []
            for lab in group:
                if lab != keep:
                    other = slots[lab]
                    slots[lab] = None
                    if other is not None:
                        kept += other
                    self.alias[lab] = keep
            keeps.append(keep)
        self._file(state, tile, roots, keeps)

    def label_of(self, tile: int, zone: int) -> int | None:
        """The label of the feature of ``tile.zone`` now (None: a zone that touches no side)."""
        lab = self.label[tile * 10 + zone]
        return None if lab < 0 else self._resolve(lab)

    def of(self, tile: int, zone: int) -> list[int] | None:
        """The side slots of the feature of ``tile.zone`` (None: a zone that touches no side)."""
        lab = self.label_of(tile, zone)
        if lab is None:
            return None
        found = self.slots[lab]
        return [] if found is None else found


def write_slots(feature: FeatureFacts, slots: list[int], w: int, where: list[int], values: list[int],
                end: int = -1, joined: bool = False, meadow: bool = False) -> None:
    """Append to ``where`` and ``values`` a feature's open ends, size and each seat's meeples in
    its side slots (those of :class:`SideSlots`; the first ``end`` of them if ``end >= 0``).

    ``joined``: only what a join of parts already written changed: a seat with no meeple in the
    joined feature had none in any part, and a ``meadow``'s open ends are 0 on every slot, so
    those planes hold 0 already."""
    n = len(slots) if end < 0 else end
    if not n:
        return
    ww = w * w
    numbers = [_clip(feature.open), _clip(feature.size), *feature.meeples]
    for k in range(len(numbers)):
        v = numbers[k]
        if joined and ((k == 0 and meadow) or (k >= 2 and v == 0)):
            continue
        base = SLOT_PLANES[k] * ww
        for i in range(n):
            where.append(base + slots[i])
            values.append(v)


def placed_slot_values(state: State, table: SideSlots, tile: int, memo: dict[int, FeatureFacts], w: int,
                       where: list[int], values: list[int]) -> None:
    """Append to ``where`` and ``values`` what the placement of ``tile`` changed in the side slots
    of the forests, rivers and meadows it joined (not in its own slots: its column has them);
    ``memo``: as for :func:`reading.feature_facts`."""
    done: list[int] = []
    for z in reading.tile_facts(state.edition, tile).zones:
        if z.kind == reading.LAKE:
            continue
        lab = table.label_of(tile, z.id)
        if lab is None or lab in done:   # (a zone that touches no side has no slot)
            continue
        done.append(lab)
        slots = table.slots[lab]
        # (the new tile's own slots come last in the list, table.fresh of them)
        end = 0 if slots is None else len(slots) - table.fresh[lab]
        if slots is None or end <= 0:
            continue
        # only the planes the join changed: each part's slots hold that part's numbers (a feature
        # whose meeples the move's scoring sent home has every slot written again afterwards:
        # Encoder.update, from the move's OccupantsReturned)
        write_slots(reading.feature_facts(state, tile, z.id, memo), slots, w, where, values, end,
                    joined=True, meadow=z.kind == reading.MEADOW)
