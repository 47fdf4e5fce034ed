"""The fixed action space, the observation planes and their symmetries.

An :class:`Encoder` follows one game's :class:`~huntgather.state.State` and
keeps its board planes up to date move by move, so that an observation costs
a copy rather than a walk over the board.

**Actions** (``Discrete(5 W² + 21 + OPTIONS)`` with a window of ``W × W`` cells):

=======================  ====================================================
index                    move
=======================  ====================================================
``4 * cell + r``         ``Place(tile, x, y, r)`` at window ``cell = row * W + col``
``4 W² + 2 z + p``       ``Occupy(tile, z, piece)``: zone ``z`` (0-9), ``p`` 0 meeple, 1 hut
``4 W² + 20``            ``Pass()``: no occupant, or no answer to a special's question
``4 W² + 21 + cell``     ``TakeBack``: the shaman takes back your meeple from the tile on ``cell``
``5 W² + 21 + i``        ``Choose``: the ``i``-th option word (as the special lists them) of a
                         special's question; ``i < OPTIONS``
=======================  ====================================================

Window row ``i`` and column ``j`` are the board cell ``(x, y) = (ox + j, oy + i)``;
the window starts centred on the start tile and is re-centred only when a legal
move would fall outside it (see :meth:`Encoder.legal`).  A tile holds at most
one piece, so a cell names the take-back.  Should the legal moves of a
decision ever spread wider than the window (no random or bot game of the
measurements did, but a policy that always plays the first legal move builds a
line), the cells of that decision are numbered modulo ``W`` (a torus), or, if
that makes two of them share a number, in reading order; the vector entries
``window_wrapped`` and ``window_listed`` say so.  No legal move is ever dropped.

>>> from huntgather.game import Game
>>> g = Game(2, seed=3)
>>> enc = Encoder(g.state, window=15)
>>> moves, mask = enc.legal()
>>> int(mask.sum()) == len(moves) and all(enc.decode(enc.encode(m)) == m for m in moves)
True
>>> obs = enc.observe(0)
>>> obs["board"].shape, obs["vector"].shape
((74, 15, 15), (154,))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from huntgather.events import Event, FeatureScored, GameOver, OccupantsReturned
from huntgather.moves import HUT, MEEPLE, Choose, Draw, Move, Occupy, Pass, Place, TakeBack
from huntgather.rl import cells, reading

# the board planes' layout lives with the loops that fill them (compiled in the optional build)
from huntgather.rl.cells import DIRS as DIRS
from huntgather.rl.cells import DX, DY
from huntgather.rl.cells import PLANES as PLANES
from huntgather.rl.cells import SEATS as SEATS
from huntgather.rl.reading import ANIMALS, SPECIALS, ZONE_IDS
from huntgather.state import OCCUPY, PLACE, SPECIAL, State


def _vector_names() -> tuple[str, ...]:
    names = [f"score_p{k}" for k in range(SEATS)]
    names += [f"meeples_left_p{k}" for k in range(SEATS)]
    names += [f"huts_left_p{k}" for k in range(SEATS)]
    names += [f"seated_p{k}" for k in range(SEATS)]
    names += [f"to_move_p{k}" for k in range(SEATS)]
    names += ["phase_place", "phase_special", "phase_occupy", "normal_left", "bonus_left", "turn",
              "bonus_turn", "edition_2020", "edition_2002", "window_wrapped", "window_listed"]
    for kind in ("forest", "river", "meadow"):
        names += [f"tile_{kind}_{d}" for d in DIRS]
    names += ["tile_fish", "tile_lakes", "tile_mushrooms", "tile_marks", *(f"tile_{a}" for a in ANIMALS),
              *(f"tile_{s}" for s in SPECIALS), "tile_bonus"]
    for z in range(ZONE_IDS):
        names += [f"zone{z}_present", f"zone{z}_forest", f"zone{z}_river", f"zone{z}_meadow",
                  f"zone{z}_lake", *(f"zone{z}_{d}" for d in DIRS)]
    return tuple(names)


#: the entries of the global vector, in order
VECTOR = _vector_names()
P: Final = {name: i for i, name in enumerate(PLANES)}
V = {name: i for i, name in enumerate(VECTOR)}
# (Final: the compiled build reads these as constants, not from the module's dict)
_SIDE: Final = P["forest_N"]          # 4 * kind + d
_OPEN: Final = P["open_N"]
_SIZE: Final = P["size_N"]
_MEEPLES: Final = P["meeples_p0_N"]
_FISH: Final = P["fish"]
_PIECE_M: Final = P["piece_meeple_p0"]
_PIECE_H: Final = P["piece_hut_p0"]
_SYS: Final = P["system_huts_p0"]
_FRONTIER: Final = P["frontier"]
_LAST_PLACED: Final = P["last_placed"]
#: planes whose value depends on the direction (rotated together with the board)
_DIRECTIONAL = [i for i, n in enumerate(PLANES) if n[-2:] in ("_N", "_E", "_S", "_W")]
_TILE0: Final = V["tile_forest_N"]
_VEC_DIRECTIONAL = [i for i, n in enumerate(VECTOR) if n[-2:] in ("_N", "_E", "_S", "_W")]


def _seat_permutation(players: int, me: int) -> list[int]:
    """Channel order that shows seat ``me + k`` as ``p{k}`` (absent seats stay in place)."""
    perm = list(range(len(PLANES)))
    for base, step in ((_MEEPLES, 4), (_PIECE_M, 1), (_PIECE_H, 1), (_SYS, 1)):
        for k in range(players):
            seat = (me + k) % players
            for d in range(step):
                perm[base + k * step + d] = base + seat * step + d
    return perm


def _clip(value: int) -> int:
    return 255 if value > 255 else value


def _indices(values: list[int]) -> np.ndarray[Any, np.dtype[np.int64]]:
    """A list of ints as an index array."""
    return np.array(values, dtype=np.int64)


#: up to this many values are written one by one through a memoryview (20–40 ns each), more at
#: once by NumPy's fancy indexing (about 1 µs to make the arrays, then 20–30 ns each)
_ONE_BY_ONE: Final = 160


def _write(flat: np.ndarray[Any, np.dtype[np.uint8]], view: memoryview, where: list[int],
           values: list[int]) -> None:
    """``flat[where] = values`` for plane values (0-255: the planes' ``uint8``; ``view`` is a
    memoryview of ``flat``): one by one when they are few, else through index arrays made
    quickly (:func:`_indices`)."""
    n = len(where)
    if n > _ONE_BY_ONE:
        flat[_indices(where)] = np.frombuffer(bytes(values), dtype=np.uint8)
        return
    for k in range(n):
        view[where[k]] = values[k]


#: the vector entries of a tile turned some times, by (edition, tile, rotation)
_TILE_PARTS: dict[tuple[str, int, int], np.ndarray[Any, np.dtype[np.float32]]] = {}


#: the kinds of scoring that change nothing on the board but the scored feature's meeples
_PLAIN_SCORING: Final = frozenset({"forest", "river"})

#: the most option words (:class:`~huntgather.moves.Choose`) of a special's question that have an
#: action each (a question listing more is answered among its first ``OPTIONS`` only)
OPTIONS: Final = 8

class Encoder:
    """Actions, masks and observations for the game in ``state`` (followed as it changes).

    Call :meth:`update` after every move applied to the state (draws included,
    or once after a move and the draws that follow it), then :meth:`legal`
    before asking for masks and observations of the new decision.
    """

    def __init__(self, state: State, window: int = 33,
                 planes: np.ndarray[Any, np.dtype[np.uint8]] | None = None) -> None:
        # the empty cells next to n tiles are at most 2 n + 2: a window with that many cells
        # can number the cells of any decision (see _overflow)
        least = math.isqrt(2 * len(state.edition.tiles) + 1) + 1
        if window < least:
            raise ValueError(f"the window must be at least {least} cells wide for this tile set, "
                             f"not {window}")
        self.state = state
        self.window = window
        self.place_actions = 4 * window * window
        self.occupy0 = self.place_actions
        self.pass_action = self.place_actions + 2 * ZONE_IDS
        self.takeback0 = self.pass_action + 1
        self.choose0 = self.takeback0 + window * window
        self.actions = self.choose0 + OPTIONS
        self.ox = self.oy = -(window // 2)
        shape = (len(PLANES), window, window)
        if planes is None:
            planes = np.zeros(shape, dtype=np.uint8)
        elif planes.shape != shape or planes.dtype != np.uint8 or not planes.flags.c_contiguous:
            raise ValueError(f"planes must be a C-contiguous uint8 array of shape {shape}")
        #: the board planes in seat 0's order (``planes``, if given: an array of the caller's, such
        #: as a row of a batch, that the encoder then writes in place; see :meth:`observe_into`)
        self.planes = planes
        self.last: tuple[int, int] | None = None
        self._perms = [np.array(_seat_permutation(state.players, me)) for me in range(state.players)]
        self._moves: list[Move] | None = None
        self._mask: np.ndarray[Any, np.dtype[np.int8]] | None = None
        #: the placements (x, y, rotation) of the current decision, when it is a placement
        self._spots: list[tuple[int, int, int]] | None = None
        #: each placed tile's sides and the zone nodes at their middle (reading.side_nodes)
        self._sides: dict[int, tuple[tuple[int, int], ...]] = {}
        #: the flat index of each plane's cell (0, 0) (cells are written a column at a time)
        self._columns = np.arange(len(PLANES), dtype=np.intp) * window * window
        self._flat = self.planes.reshape(-1)   # (a view: writing it writes the planes)
        self._view = self._flat.data   # (a memoryview of the same bytes, for writing a few of them)
        #: times the window moved, and decisions whose moves did not fit in it
        self.recentred = self.overflows = 0
        self.wrapped = False
        self._listed: dict[tuple[int, int], int] | None = None
        self._cells: dict[int, tuple[int, int]] | None = None
        #: each feature's side slots in the window, kept across placements (made when first needed)
        self._side_slots: cells.SideSlots | None = None
        #: the smallest box (x0, y0, x1, y1) that holds every placed tile (see keep_window)
        placed = list(reading.placed_cells(state))
        self._box = (min(x for x, _ in placed), min(y for _, y in placed),
                     max(x for x, _ in placed), max(y for _, y in placed))
        self.rebuild()

    # ------------------------------------------------------------------ actions

    def encode(self, move: Move) -> int:
        """The action index of a move of the current decision."""
        if isinstance(move, Place):
            return self.cell_index(move.x, move.y) * 4 + move.rotation
        if isinstance(move, Occupy):
            return self.occupy0 + 2 * move.zone + (move.piece == HUT)
        if isinstance(move, Pass):
            return self.pass_action
        if isinstance(move, TakeBack):
            x, y = reading.position(self.state, move.tile)
            return self.takeback0 + self.cell_index(x, y)
        if isinstance(move, Choose):
            options = self._options()
            if move not in options[:OPTIONS]:
                raise ValueError(f"{move!r} is not among the first {OPTIONS} options of this decision")
            return self.choose0 + options.index(move)
        raise ValueError(f"{move!r} is a chance move: it has no action")

    def cell_index(self, x: int, y: int) -> int:
        """The window cell (``row * W + col``) of board cell ``(x, y)`` in this decision."""
        w = self.window
        if self._listed is not None:
            return self._listed[(x, y)]
        if self.wrapped:
            return ((y - self.oy) % w) * w + (x - self.ox) % w
        return (y - self.oy) * w + x - self.ox

    def cell_at(self, index: int) -> tuple[int, int] | None:
        """The board cell of window cell ``index`` in this decision (None: in a decision whose
        moves overflowed the window, a cell number that no legal move uses)."""
        if self._cells is not None:
            return self._cells.get(index)
        i, j = divmod(index, self.window)
        return self.ox + j, self.oy + i

    def decode(self, action: int) -> Move:
        """The move of an action index for the current decision (legal or not; an action that
        names no tile decodes to a move of tile -1, which is never legal)."""
        action = int(action)
        if not 0 <= action < self.actions:
            raise ValueError(f"action {action} is outside 0..{self.actions - 1}")
        tile = self.state.tile
        if action < self.place_actions:
            cell, rotation = divmod(action, 4)
            at = self.cell_at(cell)
            if at is None or tile is None:   # tile -1: a move that is never legal
                return Place(-1, *(at or (0, 0)), rotation)
            return Place(tile, at[0], at[1], rotation)
        if action < self.pass_action:
            zone, piece = divmod(action - self.occupy0, 2)
            return Occupy(-1 if tile is None else tile, zone, HUT if piece else MEEPLE)
        if action == self.pass_action:
            return Pass()
        if action >= self.choose0:
            options = self._options()
            i = action - self.choose0
            return options[i] if i < len(options) else Choose("none")   # (never legal: not offered)
        at = self.cell_at(action - self.takeback0)
        found = None if at is None else reading.placed_at(self.state, *at)
        if found is None:
            return TakeBack(-1, 0)
        occupant = reading.occupants_by_tile(self.state).get(found[0])
        return TakeBack(found[0], 0 if occupant is None else occupant[2])

    def _options(self) -> list[Choose]:
        """The option words of the special's question now, in the order it lists them."""
        state = self.state
        if state.phase is not SPECIAL:
            return []
        return [m for m in state.legal_moves() if isinstance(m, Choose)]

    def legal(self) -> tuple[list[Move], np.ndarray[Any, np.dtype[np.int8]]]:
        """The legal moves of the current decision and the action mask (re-centring if needed).

        The window moves only when a legal move lies outside it.  It is then
        centred on the board (placed tiles and the empty cells around them)
        if that fits, else on the legal moves alone; if even they do not fit,
        their cells are numbered modulo the window or in reading order (see
        the module text): no legal move is ever dropped.
        """
        mask = self.legal_mask()
        moves = self._moves
        if moves is None:
            spots = self._spots
            if spots is None and self.state.phase is PLACE:   # (the mask was made without listing them)
                spots = reading.placements(self.state)
            if spots is not None:   # a placement: the moves of state.legal_moves(), in its order
                tile = self.state.tile
                assert tile is not None
                moves = [Place(tile, x, y, r) for x, y, r in spots]
            else:
                moves = []
            self._moves = moves
        return moves, mask

    def legal_mask(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The action mask of the current decision: what :meth:`legal` returns beside the moves,
        without making a :class:`~huntgather.moves.Place` of every placement (re-centring
        if needed)."""
        if self._mask is not None:
            return self._mask
        state = self.state
        phase = state.phase
        self.wrapped = False
        self._listed = self._cells = None
        marks = bytearray(self.actions)   # (the mask's bytes: set one by one, then seen as an array)
        mask = np.frombuffer(marks, dtype=np.int8)
        if phase is PLACE:
            if self._frontier_inside():
                # the placements' actions marked straight from the board's frontier (legal() lists
                # them if asked)
                self._spots = self._moves = None
                reading.mark_placements(state, self.ox, self.oy, self.window, marks)
                self._mask = mask
                return mask
            # the placements as the board lists them (x, y, rotation): state.legal_moves() makes
            # its Place moves from the same list, in the same order
            spots = reading.placements(state)
            self._spots, self._moves = spots, None
            if spots:
                w = self.window
                actions = cells.placement_actions(spots, self.ox, self.oy, w)
                if actions is None:   # a placement outside the window: move it (or number the cells)
                    needed = [(x, y) for x, y, _ in spots]
                    if not self._recentre(needed):
                        self._overflow(needed)
                    if self._fits():   # (it fits now)
                        actions = cells.placement_actions(spots, self.ox, self.oy, w)
                        assert actions is not None
                    else:
                        actions = [self.cell_index(x, y) * 4 + r for x, y, r in spots]
                for a in actions:
                    marks[a] = 1
            self._mask = mask
            return mask
        moves = state.legal_moves() if phase in (SPECIAL, OCCUPY) else []
        self._spots = None
        taken = [reading.position(state, m.tile) for m in moves if isinstance(m, TakeBack)]
        if taken and not self._inside(taken) and not self._recentre(taken):
            self._overflow(taken)
        if moves:
            mask[[self.encode(m) for m in moves]] = 1
        self._moves, self._mask = moves, mask
        return mask

    def _fits(self) -> bool:
        """Whether the window holds every cell of the decision without numbering them anew (read
        afresh after :meth:`_recentre` and :meth:`_overflow`, which may change it)."""
        return not self.wrapped and self._listed is None

    def keep_window(self) -> None:
        """Move the window as :meth:`legal_mask` would for the current decision, without making
        its mask where it would not move: when every empty cell next to a placed tile (where any
        placement lies) is inside the window.  A driver that needs no mask at a decision (a bot's)
        calls this instead, so that the window moves at the same decisions either way."""
        if not self._frontier_inside():
            self.legal_mask()

    def _frontier_inside(self) -> bool:
        """Whether every empty cell next to a placed tile lies inside the window (the box of the
        placed tiles, kept move by move, one cell in from each edge of the window)."""
        x0, y0, x1, y1 = self._box
        ox, oy, w = self.ox, self.oy, self.window
        return ox < x0 and oy < y0 and x1 < ox + w - 1 and y1 < oy + w - 1

    def _inside(self, cells: list[tuple[int, int]]) -> bool:
        ox, oy, w = self.ox, self.oy, self.window
        return all(ox <= x < ox + w and oy <= y < oy + w for x, y in cells)

    def _recentre(self, needed: list[tuple[int, int]]) -> bool:
        """Centre the window on the board if it fits, else on ``needed``; False if neither fits."""
        w = self.window
        board = list(reading.placed_cells(self.state)) + reading.frontier(self.state)
        for group in (board, needed):
            xs = [x for x, _ in group]
            ys = [y for _, y in group]
            width, height = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
            if width <= w and height <= w:
                self._move_to(min(xs) - (w - width) // 2, min(ys) - (w - height) // 2)
                return True
        return False

    def _overflow(self, needed: list[tuple[int, int]]) -> None:
        """Number the cells of this decision modulo the window, or in reading order."""
        w = self.window
        xs = [x for x, _ in needed]
        ys = [y for _, y in needed]
        self._move_to((min(xs) + max(xs)) // 2 - w // 2, (min(ys) + max(ys)) // 2 - w // 2)
        self.overflows += 1
        distinct = sorted(set(needed), key=lambda c: (c[1], c[0]))
        self.wrapped = True
        wrapped = {c: self.cell_index(*c) for c in distinct}
        if len(set(wrapped.values())) == len(distinct):
            self._cells = {i: c for c, i in wrapped.items()}
            return
        self.wrapped = False
        self._listed = {c: k for k, c in enumerate(distinct)}
        self._cells = dict(enumerate(distinct))

    def _move_to(self, ox: int, oy: int) -> None:
        if (ox, oy) != (self.ox, self.oy):
            self.ox, self.oy = ox, oy
            self.recentred += 1
            self._side_slots = None   # (their slots are for the old window)
            self._rebuild_quickly()

    # ------------------------------------------------------------------ planes

    def rebuild(self) -> None:
        """Recompute every plane from the state, one :meth:`_cell` per tile: the plain code, kept as
        the reference that the tests compare the incremental planes with."""
        self.planes[:] = 0
        occupants = reading.occupants_by_tile(self.state)
        memo: dict[int, reading.FeatureFacts] = {}
        for (x, y), (tile_id, rotation) in reading.placed_cells(self.state).items():
            self._cell(x, y, tile_id, rotation, occupants, memo)
        for x, y in reading.frontier(self.state):
            self._set(_FRONTIER, x, y, 1)
        if self.last is not None:
            self._set(_LAST_PLACED, self.last[0], self.last[1], 1)

    def _rebuild_quickly(self) -> None:
        """What :meth:`rebuild` makes (the plain code, kept as the reference), by the columns of
        :meth:`_refresh`."""
        self.planes[:] = 0
        self._refresh(set(reading.placed_tiles(self.state)))
        for x, y in reading.frontier(self.state):
            self._set(_FRONTIER, x, y, 1)

    def update(self, move: Move, tile: int | None, events: Sequence[Event] | None = None) -> None:
        """Bring the planes up to date after ``move`` (and the draws after it).

        ``tile`` is the tile of the decision the move answered (the tile to
        place, or the tile just placed).  ``events``, what the move caused
        (as :meth:`Game.play <huntgather.game.Game.play>` returns them), let a
        move do less: a pass that scored nothing nothing at all, a placement or
        an occupant only the cells it changed and the side slots of the features
        it joined, and a move that scored forests or rivers besides only the
        cells and features that the meeples it sent home left (the end of the
        game too: its events list the meeples that left).  Without ``events``
        every tile of the features the move touched is recomputed (at the end
        of the game, every tile).
        """
        self._moves = self._mask = None
        self._spots = None
        state = self.state
        if isinstance(move, Place):
            x0, y0, x1, y1 = self._box
            self._box = (min(x0, move.x), min(y0, move.y), max(x1, move.x), max(y1, move.y))
        if isinstance(move, Place) and self._side_slots is not None:
            self._side_slots.placed(state, move.tile)
        over = state.is_over
        if over and (events is None or not any(isinstance(e, GameOver) for e in events)):
            self._rebuild_over(move)   # (the end's events not given: recompute everything)
            return
        if isinstance(move, Draw) and not over:
            return   # a draw changes no plane (one that ends the game sends meeples home)
        returned: list[tuple[int, int, int]] | None = None
        if events is not None:
            returned = []
            for e in events:
                if isinstance(e, OccupantsReturned):
                    returned += e.returned
                elif isinstance(e, FeatureScored) and e.kind not in _PLAIN_SCORING:
                    returned = None   # a special scored: recompute what the move touched
                    break
        if over and (returned is None or isinstance(move, TakeBack)):
            self._rebuild_over(move)   # (the touched tiles would miss the meeples the end sent home)
            return
        if returned is not None and not isinstance(move, TakeBack):
            if isinstance(move, Place):
                self._place_update(move)
            elif isinstance(move, Occupy):
                self._occupy_update(move)
            for _, t, z in returned:   # meeples sent home: their tile, and their feature's slots
                self._refresh({t})
                self._feature_slots(t, z)
            return
        if isinstance(move, Place):
            if self.last is not None:
                self._set(_LAST_PLACED, self.last[0], self.last[1], 0)
            self.last = (move.x, move.y)
            self._set(_LAST_PLACED, move.x, move.y, 1)
            self._set(_FRONTIER, move.x, move.y, 0)
            self._frontier_around(move.x, move.y)
        touched = reading.touched_tiles(state, tile) if tile is not None and tile >= 0 else set()
        if isinstance(move, TakeBack):
            touched |= reading.touched_tiles(state, move.tile)
        if touched:
            self._refresh(touched)

    def _rebuild_over(self, move: Move) -> None:
        """Every plane again at the end of the game (the placement that ended it the last one)."""
        if isinstance(move, Place):
            self.last = (move.x, move.y)
        self._rebuild_quickly()

    def _occupy_update(self, move: Occupy) -> None:
        """After a piece was put on a zone: its tile's piece plane, and the meeples of the feature
        it joined (a hut: the huts of every tile of its river system), the only planes it changed
        (a piece that scored at once went home: :meth:`update` then recomputes its tile)."""
        state = self.state
        hut = move.piece == HUT
        occupant = reading.tile_occupant(state, move.tile)
        if occupant is not None:
            x, y = reading.position(state, move.tile)
            self._set((_PIECE_H if hut else _PIECE_M) + occupant[0], x, y, 1)
        if hut:
            self._refresh_huts(set(reading.piece_tiles(state, move.tile, move.zone, True)))
        else:   # (a zone that touches no side has no slot to write: no other tile can share it)
            self._feature_slots(move.tile, move.zone)

    def _table(self) -> cells.SideSlots:
        """The side slots of every feature in the window (made now if need be)."""
        table = self._side_slots
        if table is None:
            table = self._side_slots = cells.SideSlots(self.state, self.ox, self.oy, self.window)
        return table

    def _feature_slots(self, tile: int, zone: int, skip: int = -1) -> None:
        """Write the size, open ends and meeples of the feature of ``tile.zone`` into the side
        slots of its tiles (``skip``'s too, where they are kept: the same numbers as its column)."""
        state = self.state
        slots = self._table().of(tile, zone)
        if slots is not None:
            where: list[int] = []
            values: list[int] = []
            cells.write_slots(reading.feature_facts(state, tile, zone), slots, self.window, where, values)
            if where:
                _write(self._flat, self._view, where, values)
            return
        root = reading.root_of(state, tile, zone)
        self._slots(root, reading.feature_facts(state, tile, zone),
                    reading.piece_tiles(state, tile, zone, False), skip)

    def _place_update(self, move: Place) -> None:
        """After a placement: the new cell, the frontier, and only the side slots of the
        features it joined (their size, open ends and meeples changed)."""
        state = self.state
        last = self.last
        if last is not None:   # (its two numbers passed, not *last: a call with * is a generic call)
            self._set(_LAST_PLACED, last[0], last[1], 0)
        self.last = (move.x, move.y)
        self._frontier_around(move.x, move.y)
        facts = reading.tile_facts(state.edition, move.tile)
        if facts.acts:   # a hunting trap: its 3 × 3 area may have changed
            self._refresh(reading.touched_tiles(state, move.tile))
            return
        memo: dict[int, reading.FeatureFacts] = {}   # (the features of the new tile's column, listed again)
        self._refresh({move.tile}, memo)
        where: list[int] = []
        values: list[int] = []
        cells.placed_slot_values(state, self._table(), move.tile, memo, self.window, where, values)
        if where:
            _write(self._flat, self._view, where, values)
        huts = reading.hut_system_tiles(state, move.tile) - {move.tile}
        if huts:   # (only their huts' count can have changed: the systems may have merged)
            self._refresh_huts(huts)

    def _frontier_around(self, x: int, y: int) -> None:
        """Mark as frontier the empty cells next to the tile just placed on ``(x, y)``."""
        board = self.state.board
        for d in range(4):
            nx = x + DX[d]
            ny = y + DY[d]
            if board.tile_at(nx, ny) is None:
                self._set(_FRONTIER, nx, ny, 1)

    def _slots(self, root: int, feature: reading.FeatureFacts, tiles: frozenset[int], skip: int) -> None:
        """Write a feature's size, open ends and meeples into the side slots of its tiles."""
        where: list[int] = []
        values: list[int] = []
        cells.slot_values(self.state, root, feature, tiles, skip, self.ox, self.oy, self.window, self._sides,
                          where, values)
        if where:
            _write(self._flat, self._view, where, values)

    def _refresh(self, tiles: set[int] | frozenset[int],
                 memo: dict[int, reading.FeatureFacts] | None = None) -> None:
        """Recompute the cells of these placed tiles (what :meth:`_cell` writes, more quickly:
        the printed part of a column is kept by tile and rotation; ``memo``: the caller's memo of
        features, see :func:`reading.feature_facts`)."""
        where, values = cells.tile_cells(self.state, tiles, self.ox, self.oy, self.window, self.last, memo)
        if len(where) <= 2:   # (a column at a time: a strided slice, no index array)
            w = self.window
            planes = self.planes
            n = len(PLANES)
            for k, cell in enumerate(where):
                planes[:, cell // w, cell % w] = np.frombuffer(values, dtype=np.uint8, count=n, offset=k * n)
        else:
            index = self._columns[None, :] + _indices(where)[:, None]
            self._flat[index.ravel()] = np.frombuffer(values, dtype=np.uint8)

    def _refresh_huts(self, tiles: set[int]) -> None:
        """Recompute only the ``system_huts`` planes of these placed tiles."""
        where, values = cells.hut_slots(self.state, tiles, self.ox, self.oy, self.window)
        if where:
            _write(self._flat, self._view, where, values)

    def _set(self, plane: int, x: int, y: int, value: int) -> None:
        i = y - self.oy
        j = x - self.ox
        w = self.window
        if 0 <= i < w and 0 <= j < w:
            self._view[(plane * w + i) * w + j] = value

    def _cell(self, x: int, y: int, tile_id: int, rotation: int,
              occupants: dict[int, tuple[int, bool, int]],
              memo: dict[int, reading.FeatureFacts]) -> None:
        i, j = y - self.oy, x - self.ox
        w = self.window
        if not (0 <= i < w and 0 <= j < w):
            return
        state = self.state
        facts = reading.tile_facts(state.edition, tile_id)
        column = [0] * len(PLANES)
        column[0] = 1
        column[1] = 0
        column[2] = int(self.last == (x, y))
        column[3] = int(facts.bonus)
        for d in range(4):
            s = (d - rotation) % 4
            column[_SIDE + 4 * facts.side_kinds[s] + d] = 1
            feature = reading.feature_facts(state, tile_id, facts.side_zones[s], memo)
            column[_OPEN + d] = _clip(feature.open)
            column[_SIZE + d] = _clip(feature.size)
            for p, n in enumerate(feature.meeples):
                column[_MEEPLES + 4 * p + d] = n
        column[_FISH] = _clip(facts.fish)
        column[_FISH + 1] = facts.lakes
        column[_FISH + 2] = facts.mushrooms
        column[_FISH + 3] = facts.marks
        column[_FISH + 4:_FISH + 8] = reading.animals_left(state, tile_id)
        column[_FISH + 8:_FISH + 15] = facts.specials
        occupant = occupants.get(tile_id)
        if occupant is not None:
            seat, hut, _ = occupant
            column[(_PIECE_H if hut else _PIECE_M) + seat] = 1
        if facts.fish or facts.lakes or any(k == reading.RIVER for k in facts.side_kinds):
            for p, n in enumerate(reading.system_huts(state, tile_id)):
                column[_SYS + p] = n
        self.planes[:, i, j] = column

    # ------------------------------------------------------------------ observations

    def observe(self, seat: int) -> dict[str, np.ndarray[Any, Any]]:
        """The observation of ``seat``: ``{"board": uint8 planes, "vector": float32}``."""
        return {"board": self.planes[self._perms[seat]], "vector": self.vector(seat)}

    def observe_into(self, seat: int, board: np.ndarray[Any, Any], vector: np.ndarray[Any, Any]) -> None:
        """:meth:`observe` written into given arrays (``uint8 (74, W, W)``, ``float32 (154,)``)."""
        if seat == 0:   # seat 0's order is the planes' own
            if board is not self.planes:   # (planes given to the constructor are written in place)
                board[...] = self.planes
        else:
            np.take(self.planes, self._perms[seat], axis=0, out=board)
        self.vector(seat, vector)

    def vector(self, seat: int,
               out: np.ndarray[Any, Any] | None = None) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The global facts seen from ``seat`` (see :data:`VECTOR`), in ``out`` if given."""
        state = self.state
        n = state.players
        if out is None:
            out = np.zeros(len(VECTOR), dtype=np.float32)
        values = [0.0] * _TILE0
        for k in range(n):
            p = (seat + k) % n
            values[k] = state.scores[p]
            values[5 + k] = state.meeples[p]
            values[10 + k] = state.huts[p]
            values[15 + k] = 1
        phase = state.phase
        step = 0 if phase is PLACE else 1 if phase is SPECIAL else 2 if phase is OCCUPY else -1
        if step >= 0:
            values[20 + (state.player - seat) % n] = 1
            values[25 + step] = 1
        values[28] = len(state.normal)
        values[29] = len(state.bonus)
        values[30] = state.turn
        values[31] = float(state.bonus_turn)
        values[32 + (state.edition.tiles.edition == "2002")] = 1
        values[34] = float(self.wrapped)
        values[35] = float(self._listed is not None)
        out[:_TILE0] = values   # (NumPy's conversion of a short list of numbers: quicker than array's)
        tile = state.tile
        if tile is not None and phase != "over":
            rotation = 0
            if phase != PLACE:
                x, y = reading.position(state, tile)
                rotation = reading.placed_at(state, x, y)[1]  # type: ignore[index]
            out[_TILE0:] = self._tile_part(tile, rotation)
        else:
            out[_TILE0:] = 0
        return out

    def _tile_part(self, tile: int, rotation: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The vector entries of the tile to place (or just placed) turned ``rotation`` times."""
        key = (self.state.edition.name, tile, rotation)
        found = _TILE_PARTS.get(key)
        if found is not None:
            return found
        values = [0.0] * len(VECTOR)
        facts = reading.tile_facts(self.state.edition, tile)
        base = V["tile_forest_N"]
        for d in range(4):
            values[base + 4 * facts.side_kinds[(d - rotation) % 4] + d] = 1
        t = V["tile_fish"]
        values[t:t + 4] = [facts.fish, facts.lakes, facts.mushrooms, facts.marks]
        values[t + 4:t + 8] = facts.animals
        values[t + 8:t + 15] = facts.specials
        values[t + 15] = float(facts.bonus)
        for z in facts.zones:
            b = V["zone0_present"] + 9 * z.id
            values[b] = 1
            values[b + 1 + z.kind] = 1
            for d in range(4):
                values[b + 5 + d] = float(z.sides[(d - rotation) % 4])
        found = _TILE_PARTS[key] = np.array(values[_TILE0:], dtype=np.float32)
        return found



def transform(observation: dict[str, Any], action: int | None, turns: int, flip: bool,
              window: int) -> tuple[dict[str, Any], int | None]:
    """The same position seen turned ``turns`` quarter turns clockwise (then mirrored
    left-right if ``flip``), and the action that means the same move in it.

    Works on an observation dict (``board``, ``vector`` and optionally
    ``action_mask``); the game's rules are the same under these symmetries,
    so the pair is a valid training example.  A mirrored tile is not a tile
    of the set, but its picture (sides, zones) is consistent.

    >>> from huntgather.game import Game
    >>> enc = Encoder(Game(2, seed=3).state, window=15)
    >>> moves, mask = enc.legal()
    >>> obs = dict(enc.observe(0), action_mask=mask)
    >>> same, a = transform(obs, enc.encode(moves[0]), 4, False, 15)
    >>> bool((same["board"] == obs["board"]).all()) and a == enc.encode(moves[0])
    True
    """
    turns %= 4
    if observation["vector"][V["window_wrapped"]] or observation["vector"][V["window_listed"]]:
        raise ValueError("this decision's moves overflowed the window: its cells are not geometric")
    board = observation["board"]
    vector = observation["vector"].copy()
    place_n = 4 * window * window
    pass_action = place_n + 2 * ZONE_IDS
    take0 = pass_action + 1

    def cell_map(i: int, j: int) -> tuple[int, int]:
        c = window - 1
        for _ in range(turns):      # clockwise: (row, col) -> (col, c - row)
            i, j = j, c - i
        if flip:
            j = c - j
        return i, j

    def dir_map(d: int) -> int:
        d = (d + turns) % 4
        if flip and d in (1, 3):
            d = 4 - d
        return d

    # spatial part: rotate the arrays (np.rot90 with k=-1 turns clockwise), then mirror
    new_board = np.rot90(board, k=-turns, axes=(1, 2))
    if flip:
        new_board = new_board[:, :, ::-1]
    new_board = np.ascontiguousarray(new_board)
    # directional planes and entries: the plane of direction d moves to direction dir_map(d)
    for group in range(0, len(_DIRECTIONAL), 4):
        chans = _DIRECTIONAL[group:group + 4]
        src = new_board[chans].copy()
        for d in range(4):
            new_board[chans[dir_map(d)]] = src[d]
    for group in range(0, len(_VEC_DIRECTIONAL), 4):
        idx = _VEC_DIRECTIONAL[group:group + 4]
        src_v = observation["vector"][idx].copy()
        for d in range(4):
            vector[idx[dir_map(d)]] = src_v[d]
    out: dict[str, Any] = {"board": new_board, "vector": vector}

    def act(a: int) -> int:
        if a < place_n:
            cell, r = divmod(a, 4)
            i, j = cell_map(*divmod(cell, window))
            if flip:   # the tile's picture turns with the board; a mirror reverses its turns
                r = (-r) % 4
            return (i * window + j) * 4 + r
        if a >= take0:
            i, j = cell_map(*divmod(a - take0, window))
            return take0 + i * window + j
        return a

    if "action_mask" in observation:
        mask = observation["action_mask"]
        new_mask = np.zeros_like(mask)
        legal = np.flatnonzero(mask)
        if len(legal):
            new_mask[[act(int(a)) for a in legal]] = 1
        out["action_mask"] = new_mask
    return out, (None if action is None else act(int(action)))
