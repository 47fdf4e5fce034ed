"""The board planes' layout, and the loops that fill a tile's column of planes.

The pure-Python part of :class:`huntgather.rl.encoding.Encoder`'s incremental
planes: it makes lists of numbers (a tile's column of planes, the side slots of
a feature) and leaves writing them into the NumPy planes to the encoder.  It
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

#: the printed part of a tile's column of planes, by (edition, tile, rotation)
_PRINTED: dict[tuple[str, int, int], tuple[int, ...]] = {}


def _clip(value: int) -> int:
    return 255 if value > 255 else value


def printed_column(edition: str, facts: TileFacts, tile: int, rotation: int) -> tuple[int, ...]:
    """The planes of a placed tile that depend only on what is printed on it (and its turn):
    ``tile``, ``bonus_tile``, the side kinds, ``fish`` … ``marks``, the animals and the
    specials (the animals as printed: a hunting trap may have taken some since)."""
    key = (edition, tile, rotation)
    found = _PRINTED.get(key)
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
    found = _PRINTED[key] = tuple(column)
    return found


def tile_column(state: State, tile: int, rotation: int, last: bool,
                memo: dict[int, FeatureFacts], huts: dict[int, tuple[int, ...]]) -> list[int]:
    """The column of planes of a placed tile, turned ``rotation`` (``last``: the tile placed
    last); ``memo`` and ``huts`` are the caller's memos of features and river
    systems while the board does not change."""
    facts = reading.tile_facts(state.edition, tile)
    column = list(printed_column(state.edition.name, facts, tile, rotation))
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
               memo: dict[int, FeatureFacts] | None = None) -> tuple[list[int], list[int]]:
    """The columns of planes of these placed tiles in the window of side ``w`` at ``(ox, oy)``
    (those outside it left out): their cells (``row * w + col``), and their columns one after
    the other (:func:`tile_column`; ``last`` is the cell of the tile placed last).  ``memo``:
    the caller's memo of features while the board does not change (see
    :func:`reading.feature_facts`)."""
    if memo is None:
        memo = {}
    huts: dict[int, tuple[int, ...]] = {}
    where: list[int] = []
    values: list[int] = []
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
SLOT_PLANES: Final = (OPEN, SIZE, *(MEEPLES + 4 * p for p in range(SEATS)))


def slot_values(state: State, root: int, feature: FeatureFacts, tiles: frozenset[int], skip: int,
                ox: int, oy: int, w: int, sides: dict[int, tuple[tuple[int, int], ...]],
                where: list[int], values: list[int]) -> None:
    """Append to ``where`` and ``values`` the flat indices into the planes and the values of a
    feature's side slots (:func:`feature_slots`): its open ends, size and each seat's meeples."""
    slots = feature_slots(state, root, tiles, skip, ox, oy, w, sides)
    if not slots:
        return
    ww = w * w
    numbers = [_clip(feature.open), _clip(feature.size), *feature.meeples]
    for k, v in enumerate(numbers):
        base = SLOT_PLANES[k] * ww
        for at in slots:
            where.append(base + at)
            values.append(v)
