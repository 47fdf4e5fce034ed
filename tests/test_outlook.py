"""Meeples stuck on forests and rivers that no tile left can complete (huntgather.outlook)."""

from __future__ import annotations

from huntgather.board import ZoneRef
from huntgather.outlook import open_squares, stuck_meeples
from huntgather.record import load_position
from huntgather.server.protocol import occupants_view
from huntgather.state import State


def position(body: str) -> State:
    return load_position(f"huntgather record 1\nedition 2020\nplayers 2\n{body}\nmoves\n")


# A forest of two tiles: 35 (forest only on its east side) at (0,0) and 40 (forest west and east,
# with a menhir) at (1,0), red's gatherer on it.  Its one open end faces (2,0), which needs a tile
# with a forest side to its west.
FOREST = "tile 35 0,0 r0\ntile 40 1,0 r0\noccupant 40.1 meeple 1\n"


def test_a_forest_whose_open_end_no_tile_left_fits_is_stuck() -> None:
    # tile 48 has meadow and river sides only, and the menhir stack is empty
    state = position(FOREST + "normal 48\nbonus")
    assert open_squares(state, state.board.feature_id(40, 1)) == {(2, 0)}
    assert stuck_meeples(state) == [(1, ZoneRef(40, 1))]
    assert [o["stuck"] for o in occupants_view(state)] == [True]


def test_one_tile_left_that_fits_is_enough() -> None:
    # tile 34: meadow north, east and south, forest west: it closes the forest unturned
    assert stuck_meeples(position(FOREST + "normal 34\nbonus")) == []
    # a menhir tile with a forest side could still come in a menhir turn (tile 79 has one)
    assert stuck_meeples(position(FOREST + "normal 48\nbonus 79")) == []


def test_a_river_and_its_fisher() -> None:
    # rulebook example 5: the start tile's river runs west into 48's straight river, whose west
    # end at (-2,0) is open and needs a river side facing east.  Tile 35 has none; tile 24 (a
    # lake tile) closes it.
    river = "tile 56 0,0 r0\ntile 48 -1,0 r0\noccupant 48.1 meeple 0\n"
    assert stuck_meeples(position(river + "normal 35\nbonus")) == [(0, ZoneRef(48, 1))]
    assert stuck_meeples(position(river + "normal 24\nbonus")) == []


def test_hunters_and_huts_are_never_stuck() -> None:
    # they score at the end whether or not their meadow or river system is complete
    state = position("tile 35 0,0 r0\ntile 40 1,0 r0\noccupant 40.0 meeple 1\nnormal 48\nbonus")
    assert stuck_meeples(state) == []
    assert [o["stuck"] for o in occupants_view(state)] == [False]
