"""Features: zones joined across matching sides, as immutable group records.

A zone on the board is named by its *node*, ``tile_id * 10 + zone_id``.  The
board keeps two partitions of nodes with union-find:

* forests, meadows and rivers use the node itself;
* river systems (rivers and lakes joined through lakes) use ``SYSTEM + node``.

Each partition root maps to one :class:`Feature`.  Features are never mutated:
a merge or an occupant makes a new one, so a state copy shares them.
"""

from __future__ import annotations

from typing import Final

from huntgather.kinds import ForestCounter, Kind

#: offset of the river-system partition's nodes
SYSTEM: Final = 1000


class Feature:
    """A forest, meadow, river or river system, with its running counters.

    ``open`` counts the sides of forest and river zones with no tile against
    them; a forest or river with ``open == 0`` is complete.  ``meeples`` and
    ``huts`` are ``(player, node)`` pairs.

    A plain class with slots (not a named tuple): reading a field is what the engine does most,
    and that is quicker on such a class, in CPython and much more in the compiled build.  Like
    moves it is never changed once made: a merge or an occupant makes a new one.

    >>> f = Feature(Kind.FOREST, frozenset({3}), open=2, menhirs=1)
    >>> f
    Feature(kind='forest', tiles=frozenset({3}), open=2, meeples=(), huts=(), fish=0, lakes=frozenset(), \
menhirs=1, gold_nuggets=0, mushrooms=0, specials=frozenset())
    >>> f.with_open(0).complete, f == Feature(Kind.FOREST, frozenset({3}), 2, menhirs=1)
    (True, True)
    """

    __slots__ = ("fish", "gold_nuggets", "huts", "kind", "lakes", "meeples", "menhirs", "mushrooms",
                 "open", "specials", "tiles")

    def __init__(self, kind: Kind, tiles: frozenset[int], open: int = 0,
                 meeples: tuple[tuple[int, int], ...] = (), huts: tuple[tuple[int, int], ...] = (),
                 fish: int = 0, lakes: frozenset[int] = frozenset(), menhirs: int = 0,
                 gold_nuggets: int = 0, mushrooms: int = 0,
                 specials: frozenset[str] = frozenset()) -> None:
        self.kind = kind
        self.tiles = tiles
        self.open = open
        self.meeples = meeples
        self.huts = huts
        self.fish = fish
        self.lakes = lakes
        self.menhirs = menhirs
        self.gold_nuggets = gold_nuggets
        self.mushrooms = mushrooms
        self.specials = specials

    def fields(self) -> tuple[object, ...]:
        """Every field, in the order of the constructor's parameters."""
        return (self.kind, self.tiles, self.open, self.meeples, self.huts, self.fish, self.lakes,
                self.menhirs, self.gold_nuggets, self.mushrooms, self.specials)

    def __eq__(self, other: object) -> bool:
        return type(other) is Feature and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return ("Feature(" + ", ".join(f"{name}={value!r}" for name, value in zip(
            ("kind", "tiles", "open", "meeples", "huts", "fish", "lakes", "menhirs", "gold_nuggets",
             "mushrooms", "specials"), self.fields(), strict=True)) + ")")

    def __reduce__(self) -> tuple[type[Feature], tuple[object, ...]]:
        return Feature, self.fields()

    def merged(self, other: Feature, closed: int) -> Feature:
        """The union of two features, with ``closed`` open sides now covered."""
        return Feature(
            self.kind,
            self.tiles | other.tiles,
            self.open + other.open - closed,
            self.meeples + other.meeples if other.meeples else self.meeples,   # (most hold none:
            self.huts + other.huts if other.huts else self.huts,              # no concatenation)
            self.fish + other.fish,
            self.lakes | other.lakes if other.lakes else self.lakes,   # (most have none: no new set)
            self.menhirs + other.menhirs,
            self.gold_nuggets + other.gold_nuggets,
            self.mushrooms + other.mushrooms,
            self.specials | other.specials if other.specials else self.specials,
        )

    def with_pieces(self, meeples: tuple[tuple[int, int], ...],
                    huts: tuple[tuple[int, int], ...]) -> Feature:
        """The same feature holding other meeples and huts.

        >>> f = Feature(Kind.FOREST, frozenset({3}), open=2)
        >>> f.with_pieces(((0, 31),), ()).meeples, f.meeples
        (((0, 31),), ())
        """
        return Feature(self.kind, self.tiles, self.open, meeples, huts, self.fish, self.lakes,
                       self.menhirs, self.gold_nuggets, self.mushrooms, self.specials)

    def with_open(self, open: int) -> Feature:
        """The same feature with ``open`` open sides."""
        return Feature(self.kind, self.tiles, open, self.meeples, self.huts, self.fish, self.lakes,
                       self.menhirs, self.gold_nuggets, self.mushrooms, self.specials)

    @property
    def complete(self) -> bool:
        return self.open == 0

    def counter(self, name: str) -> int:
        """A forest counter by name (``"menhirs"``, ``"gold_nuggets"``, ``"mushrooms"``).

        >>> Feature(Kind.FOREST, frozenset({3}), gold_nuggets=2).counter("gold_nuggets")
        2
        """
        # (by comparing the name, a counter or its string, not by ForestCounter(name).of(self):
        # kinds is interpreted in the compiled build too, where a call of an enum's method costs
        # some 1,900 instructions, and the turn's scoring asks each completed forest)
        if name == "menhirs":
            return self.menhirs
        if name == "gold_nuggets":
            return self.gold_nuggets
        if name == "mushrooms":
            return self.mushrooms
        return ForestCounter(name).of(self)   # (no such counter: ValueError)
