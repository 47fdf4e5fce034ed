"""The 2020 (second) edition: menhir turns and six special menhir tiles."""

from __future__ import annotations

from huntgather.editions.base import Edition, register
from huntgather.kinds import ForestCounter
from huntgather.specials import HuntingTrap, Logboat, PitTrap, Raft, Shaman, WildFire

EDITION_2020 = register(Edition(
    name="2020",
    title="Carcassonne: Hunters and Gatherers (2020 edition)",
    meeples=5,
    huts=3,
    min_players=2,
    max_players=5,
    river_tile_points=1,
    forest_tile_points=2,
    mushroom_points=3,
    bonus_counter=ForestCounter.MENHIRS,
    bonus_name="menhir tile",
    animal_points={"mammoth": 3, "aurochs": 2, "deer": 1},
    specials=(Logboat(points_per_lake=2), HuntingTrap(), Shaman(), PitTrap(factor=2), WildFire(), Raft()),
))
