"""The 2002 (first) edition: gold nuggets earn bonus tiles; fire and shrine."""

from __future__ import annotations

from huntgather.editions import Edition, register

EDITION_2002 = register(Edition(
    name="2002",
    title="Carcassonne: Hunters and Gatherers (2002 edition)",
    meeples=5,
    huts=2,
    min_players=2,
    max_players=5,
    river_tile_points=1,
    forest_tile_points=2,
    mushroom_points=2,
    bonus_counter="gold_nuggets",
    bonus_name="bonus tile",
    animal_points={"mammoth": 2, "aurochs": 2, "deer": 2},
    # The fire tile is marked 'wild_fire' in the data: it removes the tigers of
    # its meadow at final scoring, exactly as the 2020 wild fire does.
    specials=frozenset({"wild_fire", "shrine"}),
))
