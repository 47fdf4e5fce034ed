"""Features: zones joined across matching sides, as immutable group records.

A zone on the board is named by its *node*, ``tile_id * 10 + zone_id``.  The
board keeps two partitions of nodes with union-find:

* forests, meadows and rivers use the node itself;
* river systems (rivers and lakes joined through lakes) use ``SYSTEM + node``.

Each partition root maps to one :class:`Feature`.  Features are never mutated:
a merge or an occupant makes a new one, so a state copy shares them.
"""

from __future__ import annotations

from typing import NamedTuple

from huntgather.kinds import ForestCounter, Kind

#: offset of the river-system partition's nodes
SYSTEM = 1000

_new = tuple.__new__


class Feature(NamedTuple):
    """A forest, meadow, river or river system, with its running counters.

    ``open`` counts the sides of forest and river zones with no tile against
    them; a forest or river with ``open == 0`` is complete.  ``meeples`` and
    ``huts`` are ``(player, node)`` pairs.
    """

    kind: Kind
    tiles: frozenset[int]
    open: int = 0
    meeples: tuple[tuple[int, int], ...] = ()
    huts: tuple[tuple[int, int], ...] = ()
    fish: int = 0
    lakes: frozenset[int] = frozenset()
    menhirs: int = 0
    gold_nuggets: int = 0
    mushrooms: int = 0
    specials: frozenset[str] = frozenset()

    def merged(self, other: Feature, closed: int) -> Feature:
        """The union of two features, with ``closed`` open sides now covered."""
        return _new(Feature, (   # tuple.__new__: the fields in order, without NamedTuple's keyword wrapper
            self.kind,
            self.tiles | other.tiles,
            self.open + other.open - closed,
            self.meeples + other.meeples,
            self.huts + other.huts,
            self.fish + other.fish,
            self.lakes | other.lakes if other.lakes else self.lakes,   # (most have none: no new set)
            self.menhirs + other.menhirs,
            self.gold_nuggets + other.gold_nuggets,
            self.mushrooms + other.mushrooms,
            self.specials | other.specials if other.specials else self.specials,
        ))

    def with_pieces(self, meeples: tuple[tuple[int, int], ...],
                    huts: tuple[tuple[int, int], ...]) -> Feature:
        """The same feature holding other meeples and huts (faster than ``_replace``).

        >>> f = Feature("forest", frozenset({3}), open=2)
        >>> f.with_pieces(((0, 31),), ()) == f._replace(meeples=((0, 31),))
        True
        """
        return _new(Feature, (self.kind, self.tiles, self.open, meeples, huts, self.fish, self.lakes,
                              self.menhirs, self.gold_nuggets, self.mushrooms, self.specials))

    @property
    def complete(self) -> bool:
        return self.open == 0

    def counter(self, name: str) -> int:
        """A forest counter by name (``"menhirs"``, ``"gold_nuggets"``, ``"mushrooms"``).

        >>> Feature("forest", frozenset({3}), gold_nuggets=2).counter("gold_nuggets")
        2
        """
        return (name if isinstance(name, ForestCounter) else ForestCounter(name)).of(self)
