"""The :class:`Edition` and the register of editions by name.

The shipped editions (:mod:`huntgather.editions.e2020`, :mod:`huntgather.editions.e2002`) build
theirs from this module; :mod:`huntgather.editions` imports them all and is what other modules
import (``from huntgather.editions import get_edition``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from huntgather.kinds import ForestCounter
from huntgather.specials import Special
from huntgather.specials import special_named as _known_special
from huntgather.tiles import FrozenDict, TileSet, load_tileset


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
    bonus_counter: ForestCounter
    #: what the bonus tiles are called in this edition ("menhir tile", "bonus tile")
    bonus_name: str
    #: final-scoring points per animal kind (tigers are never worth points); a dict is frozen
    animal_points: Mapping[str, int]
    #: the specials this edition honours (:mod:`huntgather.specials`); any other printed
    #: special is decoration
    specials: tuple[Special, ...] = ()
    #: the shipped tile set (``data/tiles-<tileset>.json``); empty means the same as ``name``
    tileset: str = ""
    _by_name: Mapping[str, Special] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "animal_points", FrozenDict(self.animal_points))
        object.__setattr__(self, "bonus_counter", ForestCounter(self.bonus_counter))
        object.__setattr__(self, "specials", tuple(self.specials))
        by_name = FrozenDict((s.name, s) for s in self.specials)
        if len(by_name) != len(self.specials):
            raise ValueError(f"edition {self.name}: a special is listed twice")
        object.__setattr__(self, "_by_name", by_name)

    @cached_property
    def tiles(self) -> TileSet:
        """The edition's tile set (loaded once and shared)."""
        return load_tileset(self.tileset or self.name)

    @property
    def bonus_counter_label(self) -> str:
        """The bonus counter in words, singular: ``'menhir'``, ``'gold nugget'``."""
        return self.bonus_counter.removesuffix("s").replace("_", " ")

    def variant(self, name: str, title: str | None = None, **changes: Any) -> Edition:
        """A house-rule variant of this edition: the same tiles, some fields changed.

        The variant is not selectable by name until passed to :func:`register`.

        >>> v = get_edition("2020").variant("2020-four-huts", huts=4)
        >>> v.name, v.huts, v.meeples, v.tiles.start.id
        ('2020-four-huts', 4, 5, 56)
        >>> get_edition("2020").variant("x", pieces=3)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        TypeError: Edition has no field 'pieces'; fields: name, title, meeples, huts, ...
        """
        names = [f.name for f in dataclasses.fields(self)]
        for key in changes:
            if key not in names:
                raise TypeError(f"Edition has no field {key!r}; fields: {', '.join(names)}")
        changes.setdefault("tileset", self.tileset or self.name)
        return dataclasses.replace(self, name=name, title=title or f"{self.title}, variant {name}",
                                   **changes)

    def honours(self, special: str | None) -> bool:
        """Whether a printed ``special`` acts in this edition (else it is decoration).

        >>> get_edition("2002").honours("shrine"), get_edition("2020").honours("shrine")
        (True, False)
        """
        return special is not None and special in self._by_name

    def special(self, name: str | None) -> Special | None:
        """The special called ``name`` as this edition plays it, or None if it is decoration.

        >>> get_edition("2020").special("pit_trap"), get_edition("2002").special("pit_trap")
        (PitTrap(factor=2), None)
        """
        return self._by_name.get(name) if name is not None else None

    def with_special(self, special: Special) -> tuple[Special, ...]:
        """This edition's specials with ``special`` added, or put in place of the one of its name
        (for :meth:`variant`: ``e.variant("x", specials=e.with_special(Logboat(3)))``).

        >>> from huntgather.specials import Logboat
        >>> [s.name for s in get_edition("2002").with_special(Logboat(points_per_lake=3))]
        ['wild_fire', 'shrine', 'logboat']
        """
        kept = tuple(s for s in self.specials if s.name != special.name)
        return (*kept, special)


_REGISTRY: dict[str, Edition] = {}


def register(edition: Edition) -> Edition:
    """Make an edition selectable by name (in records, ``State.new``, the CLI).

    Registering the same edition twice is harmless; registering a different
    edition under a name already taken raises :class:`ValueError`.
    """
    if not edition.name or any(c.isspace() for c in edition.name):
        raise ValueError(f"an edition name must be one word, not {edition.name!r}")
    for special in edition.specials:
        registered = _known_special(special.name)
        if registered is None or type(registered) is not type(special):
            raise ValueError(f"edition {edition.name} honours the special {special.name!r}, which is "
                             f"not registered (see huntgather.specials.register_special)")
    known = _REGISTRY.get(edition.name)
    if known is not None and known != edition:
        raise ValueError(f"another edition is already registered as {edition.name!r}; "
                         f"unregister it first")
    _REGISTRY[edition.name] = edition
    return edition


def unregister(name: str) -> None:
    """Forget the edition called ``name`` (for tests and house-rule experiments)."""
    if name == DEFAULT_EDITION:
        raise ValueError(f"the default edition {name!r} cannot be unregistered")
    if _REGISTRY.pop(name, None) is None:
        raise ValueError(f"no edition is registered as {name!r}")


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
    """The names of the registered editions, sorted."""
    return tuple(sorted(_REGISTRY))


DEFAULT_EDITION = "2020"
