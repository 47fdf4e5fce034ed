"""What can still happen: forests and rivers that no tile left can complete.

A fisher or gatherer scores only when its river or forest is completed; a meeple
on one that can no longer be completed is stuck until the end of the game, and
then scores nothing.  A feature is certainly stuck when one of its open sides
faces a square where no tile left in the stacks fits in any rotation (given every
neighbour of that square).  The stacks' contents are public (never their order),
so this tells a player nothing they could not work out at the table.

The test is one-sided: a feature it calls stuck can never be completed, but one
it does not call stuck may still be impossible (two open squares wanting the
same last tile, say).

>>> from huntgather.record import load_position
>>> forest = "tile 35 0,0 r0\\ntile 40 1,0 r0\\noccupant 40.1 meeple 1"   # red's gatherer
>>> left = "normal 48\\nbonus"      # tile 48 has no forest side; the menhir stack is empty
>>> state = load_position(f"huntgather record 1\\nedition 2020\\nplayers 2\\n{forest}\\n{left}\\nmoves\\n")
>>> stuck_meeples(state)            # the forest's open end faces a square no tile left fits
[(1, ZoneRef(tile=40, zone=1))]
"""

from __future__ import annotations

from huntgather.board import FitTable, ZoneRef, fit_table
from huntgather.kinds import Piece
from huntgather.state import State
from huntgather.tiles import DELTAS, FOREST, RIVER

#: the zone a side holds, by side kind: a river side's middle part is the river
_SIDE_ZONE = {FOREST: 0, RIVER: 1}


def open_squares(state: State, fid: int) -> set[tuple[int, int]]:
    """The empty squares that the open sides of the forest or river ``fid`` face."""
    board = state.board
    feature = board.feature_by_id(fid)
    root = board.current_id(fid)
    tiles = state.edition.tiles
    out: set[tuple[int, int]] = set()
    for tile_id in feature.tiles:
        x, y = board.where[tile_id]
        placed = board.tile_at(x, y)
        assert placed is not None
        rotation = placed[1]
        tile = tiles[tile_id]
        for direction, (dx, dy) in enumerate(DELTAS):
            side = tile.side_at(rotation, direction)
            part = _SIDE_ZONE.get(side.kind)
            if part is None or side.kind != feature.kind:
                continue
            square = (x + dx, y + dy)
            if board.tile_at(*square) is None and board.feature_id(tile_id, side.zones[part]) == root:
                out.add(square)
    return out


def stuck_meeples(state: State) -> list[tuple[int, ZoneRef]]:
    """``(seat, zone)`` of every fisher and gatherer on a feature no tile left can complete."""
    board = state.board
    #: the fit tables of the tiles left (tiles with the same side kinds share one: whether any
    #: tile left fits a square is whether one of these has a rotation for its constraint), made
    #: once a feature is to be looked at
    tables: list[FitTable] | None = None
    verdict: dict[int, bool] = {}
    out: list[tuple[int, ZoneRef]] = []
    for where, player, piece in sorted(board.pieces()):
        if piece != Piece.MEEPLE:
            continue
        fid = board.feature_id(*where)
        feature = board.feature_by_id(fid)
        if feature.kind not in (FOREST, RIVER) or feature.open == 0:
            continue
        if fid not in verdict:
            if tables is None:
                by_id = state.edition.tiles.by_id
                tables = list({id(table): table for table in (
                    fit_table(by_id[t]) for t in set(state.normal) | set(state.bonus))}.values())
            stuck = False
            for square in open_squares(state, fid):
                code = board.front_code(*square)
                if not any(table.counts[code] for table in tables):
                    stuck = True
                    break
            verdict[fid] = stuck
        if verdict[fid]:
            out.append((player, where))
    return out
