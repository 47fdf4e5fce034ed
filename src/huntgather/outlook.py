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
[(1, 401)]
"""

from __future__ import annotations

from huntgather.board import fitting_rotations
from huntgather.state import State
from huntgather.tiles import DELTAS, FOREST, RIVER

#: the zone a side holds, by side kind: a river side's middle part is the river
_SIDE_ZONE = {FOREST: 0, RIVER: 1}


def open_squares(state: State, root: int) -> set[tuple[int, int]]:
    """The empty squares that the open sides of the forest or river ``root`` face."""
    board = state.board
    feature = board.features[root]
    tiles = state.edition.tiles
    out: set[tuple[int, int]] = set()
    for tile_id in feature.tiles:
        x, y = board.where[tile_id]
        rotation = board.cells[(x, y)][1]
        tile = tiles[tile_id]
        for direction, (dx, dy) in enumerate(DELTAS):
            side = tile.side_at(rotation, direction)
            part = _SIDE_ZONE.get(side.kind)
            if part is None or side.kind != feature.kind:
                continue
            square = (x + dx, y + dy)
            if square not in board.cells and board.find(tile_id * 10 + side.zones[part]) == root:
                out.add(square)
    return out


def stuck_meeples(state: State) -> list[tuple[int, int]]:
    """``(player, node)`` of every fisher and gatherer on a feature no tile left can complete."""
    board = state.board
    tiles = state.edition.tiles
    left = [tiles[t] for t in set(state.normal) | set(state.bonus)]
    verdict: dict[int, bool] = {}
    out: list[tuple[int, int]] = []
    for node, (player, piece) in sorted(board.occupants.items()):
        if piece != "meeple":
            continue
        root = board.find(node)
        feature = board.features[root]
        if feature.kind not in (FOREST, RIVER) or feature.open == 0:
            continue
        if root not in verdict:
            verdict[root] = any(
                not any(fitting_rotations(tile, board.frontier[square]) for tile in left)
                for square in open_squares(state, root))
        if verdict[root]:
            out.append((player, node))
    return out
