"""Editions: what differs between the 2020 and the 2002 game, as data.

Each edition is one small module that builds an :class:`Edition`.  The board,
features, moves and records are shared; the engine asks the edition for its
numbers (pieces, points) and for which special tiles it honours.  A house-rule
variant is a new module that calls :func:`register`.

>>> from huntgather.editions import get_edition
>>> e = get_edition("2020")
>>> e.meeples, e.huts, e.mushroom_points, e.bonus_counter
(5, 3, 3, 'menhirs')
>>> get_edition("2002").huts
2
"""

from __future__ import annotations

from dataclasses import dataclass, field

from huntgather.tiles import TileSet, load_tileset


@dataclass(frozen=True)
class Edition:
    """The rules parameters of one edition."""

    name: str
    title: str
    meeples: int
    huts: int
    min_players: int
    max_players: int
    #: points per tile of a completed river
    river_tile_points: int
    #: points per tile of a completed forest
    forest_tile_points: int
    #: points per mushroom group in a completed forest
    mushroom_points: int
    #: forest counter that earns a bonus tile when such a forest is completed
    bonus_counter: str
    #: what the bonus tiles are called in this edition ("menhir tile", "bonus tile")
    bonus_name: str
    #: final-scoring points per animal kind (tigers are never worth points)
    animal_points: dict[str, int]
    #: special markers this edition honours; any other printed special is decoration
    specials: frozenset[str] = field(default_factory=frozenset)
    #: points per lake for the logboat's immediate scoring
    logboat_points_per_lake: int = 2
    #: multiplier for animals in the pit trap's area
    pit_trap_factor: int = 2

    @property
    def tiles(self) -> TileSet:
        return load_tileset(self.name)

    def honours(self, special: str | None) -> bool:
        return special is not None and special in self.specials


_REGISTRY: dict[str, Edition] = {}


def register(edition: Edition) -> Edition:
    """Make an edition selectable by name."""
    _REGISTRY[edition.name] = edition
    return edition


def get_edition(name: str | Edition) -> Edition:
    """The edition called ``name`` (``"2020"`` or ``"2002"``)."""
    if isinstance(name, Edition):
        return name
    try:
        return _REGISTRY[str(name)]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown edition {name!r}; known editions: {known}") from None


def edition_names() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY))


# The editions register themselves on import.
from huntgather.editions import e2002, e2020  # noqa: E402,F401

DEFAULT_EDITION = "2020"
