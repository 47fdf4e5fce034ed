"""The 2002 (first) edition: gold nuggets earn bonus tiles; fire and shrine.

Rules as data (rulebook seed 000 and RULINGS.md, "2002 edition"): 5 meeples and
2 huts each; the volcano start tile (1), 78 land tiles (2-79) and 12 bonus tiles
(80-91); rivers score 1 per tile plus the fish of the lakes that close them
(rivers hold no fish in this set); forests 2 per tile plus 2 per mushroom group;
completing a forest with a gold nugget earns the closer one bonus tile; hunters
score 2 per deer, mammoth and aurochs, each tiger cancelling one deer.  Two
special tiles act: the fire (88, marked ``wild_fire``: its meadow's tigers are
ignored) and the shrine (90: a hunter on it takes that meadow alone).

>>> from huntgather.editions import get_edition
>>> e = get_edition("2002")
>>> e.meeples, e.huts, e.mushroom_points, e.bonus_counter, sorted(e.animal_points.values())
(5, 2, 2, 'gold_nuggets', [2, 2, 2])
>>> e.honours("shrine"), e.honours("wild_fire"), e.honours("logboat")
(True, True, False)
"""

from __future__ import annotations

from huntgather.editions.base import Edition, register
from huntgather.kinds import ForestCounter
from huntgather.specials import Shrine, WildFire

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
    bonus_counter=ForestCounter.GOLD_NUGGETS,
    bonus_name="bonus tile",
    animal_points={"mammoth": 2, "aurochs": 2, "deer": 2},
    # The fire tile is marked 'wild_fire' in the data: it removes the tigers of
    # its meadow at final scoring, exactly as the 2020 wild fire does.
    specials=(WildFire(), Shrine()),
))
