"""Editions: what differs between the 2020 and the 2002 game, as data.

Each edition is one small module that builds an :class:`Edition`.  The board,
features, moves and records are shared; the engine asks the edition for its
numbers (pieces, points), for the forest counter that earns a bonus turn and
for the special tiles it honours (objects of :mod:`huntgather.specials`, each
with the hooks it needs).  There is no ``if edition == ...`` anywhere in the
engine.  A house-rule variant is :meth:`Edition.variant` plus :func:`register`
(see ``docs/editions.md``).  Editions are immutable and hashable.

>>> from huntgather.editions import get_edition
>>> e = get_edition("2020")
>>> e.meeples, e.huts, e.mushroom_points, e.bonus_counter
(5, 3, 3, 'menhirs')
>>> old = get_edition("2002")
>>> old.huts, old.bonus_counter_label, old.tiles.start.id
(2, 'gold nugget', 1)
>>> big = old.variant("2002-big-mammoths", animal_points={"mammoth": 4, "aurochs": 2, "deer": 2})
>>> big.tiles is old.tiles, big.animal_points["mammoth"], big.huts
(True, 4, 2)
>>> hash(big) != hash(old), e.special("logboat")
(True, Logboat(points_per_lake=2))
"""

from __future__ import annotations

from huntgather.editions.base import (
    DEFAULT_EDITION,
    Edition,
    edition_names,
    get_edition,
    register,
    unregister,
)

# the shipped editions register themselves on import
from huntgather.editions.e2002 import EDITION_2002
from huntgather.editions.e2020 import EDITION_2020

__all__ = ["DEFAULT_EDITION", "EDITION_2002", "EDITION_2020", "Edition", "edition_names", "get_edition",
           "register", "unregister"]
