"""The game's vocabulary as enums: kinds of zone, pieces, animals, phases and stacks.

Each member is a :class:`~enum.StrEnum`, so it *is* its word: it compares equal to
the plain string, prints and shows (``repr``) as it, and goes into JSON and records
unchanged.  The engine uses the members; text read from a record or a request is
turned into them where it is parsed; type checkers see the enum.

>>> Kind.FOREST == "forest", f"{Piece.HUT}", Kind("lake") is Kind.LAKE, Phase.DRAW
(True, 'hut', True, 'draw')
>>> Kind.MEADOW.role, Kind.LAKE.role
('hunter', None)
>>> [str(p) for p in Phase]
['draw', 'place', 'special', 'occupy', 'over']
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol


class Word(StrEnum):
    """A StrEnum that shows as its word (``'forest'``), as the strings it stands for did."""

    def __repr__(self) -> str:
        return repr(self.value)


class Kind(Word):
    """The kind of a zone printed on a tile (and of the feature it belongs to)."""

    FOREST = "forest"
    MEADOW = "meadow"
    RIVER = "river"
    LAKE = "lake"

    @property
    def role(self) -> str | None:
        """What a meeple on such a zone is called (``None`` on a lake: only huts go there)."""
        return _ROLES.get(self)


_ROLES = {Kind.FOREST: "gatherer", Kind.RIVER: "fisher", Kind.MEADOW: "hunter"}


class Piece(Word):
    """A piece a player puts on the board."""

    MEEPLE = "meeple"
    HUT = "hut"


class Animal(Word):
    """An animal printed on a meadow (tigers score nothing; each eats a deer)."""

    MAMMOTH = "mammoth"
    AUROCHS = "aurochs"
    DEER = "deer"
    TIGER = "tiger"


class Phase(Word):
    """The kind of decision the game waits for."""

    DRAW = "draw"
    PLACE = "place"
    #: a special tile's question to its placer (:class:`huntgather.specials.Special`): the decision
    #: says which special asks; records and the protocol name the decision by the special's name
    SPECIAL = "special"
    OCCUPY = "occupy"
    OVER = "over"


class Stack(Word):
    """The stack a tile is drawn from."""

    NORMAL = "normal"
    BONUS = "bonus"


class Counted(Protocol):
    """Anything that counts what a forest holds: a zone, a feature."""

    @property
    def menhirs(self) -> int: ...
    @property
    def gold_nuggets(self) -> int: ...
    @property
    def mushrooms(self) -> int: ...


class ForestCounter(Word):
    """What a forest counts: an edition's bonus counter is one of these.

    >>> from huntgather.tiles import load_tileset
    >>> ForestCounter("menhirs").of(load_tileset("2020")[56].zones[1])
    1
    """

    MENHIRS = "menhirs"
    GOLD_NUGGETS = "gold_nuggets"
    MUSHROOMS = "mushrooms"

    def of(self, thing: Counted) -> int:
        """How many of these ``thing`` (a forest zone or feature) holds."""
        if self is ForestCounter.MENHIRS:
            return thing.menhirs
        if self is ForestCounter.GOLD_NUGGETS:
            return thing.gold_nuggets
        return thing.mushrooms


def role_of(kind: str, piece: str) -> str:
    """What a piece is called on a zone of ``kind``: ``'hut'``, or the meeple's role.

    >>> role_of("river", "meeple"), role_of("lake", "hut")
    ('fisher', 'hut')
    """
    if piece == Piece.HUT:
        return "hut"
    return _ROLES[kind]   # type: ignore[index]   # a member hashes and compares as its word
