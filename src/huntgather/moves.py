"""Moves: small immutable values with a text form that parses back.

Moves are small classes with slots (cheap to create: bots list thousands of them);
a move equals only a move of the same kind, never a plain tuple.

==========  ==================  =============================================
text        value               meaning
==========  ==================  =============================================
``d17``     ``Draw(17)``        chance: tile 17 comes off the stack
``17@2,-1r1`` ``Place(17,2,-1,1)`` tile 17 at x=2, y=-1, turned once clockwise
``m17.1``   ``Occupy(17,1)``    a meeple on zone 1 of tile 17
``h17.8``   ``Occupy(17,8,'hut')`` a hut on zone 8 (a lake) of tile 17
``x23.0``   ``TakeBack(23,0)``  shaman: take back your meeple from zone 0 of tile 23
``!now``    ``Choose('now')``   answer a special's question with its option ``now``
``-``       ``Pass()``          place nothing / take nothing back / answer nothing
==========  ==================  =============================================

>>> parse_move("17@2,-1r1")
Place(tile=17, x=2, y=-1, rotation=1)
>>> str(Occupy(17, 8, "hut"))
'h17.8'
>>> all(parse_move(str(m)) == m for m in [Draw(3), Pass(), TakeBack(23, 0), Occupy(5, 1),
...                                          Choose("now")])
True
"""

from __future__ import annotations

import re
from typing import Final

from huntgather.kinds import Piece

MEEPLE: Final = Piece.MEEPLE
HUT: Final = Piece.HUT


class InvalidMoveError(ValueError):
    """The text is not a move at all (as opposed to an illegal move)."""


# Each move is a small class with slots, written out by hand rather than a named tuple or a
# dataclass: creating one and reading its fields is faster in CPython that way, and the compiled
# build (mypyc, see docs/performance.md) makes such classes native structs.  A move is never
# changed after it is made (the fields are ``Final``); it equals only a move of the same kind,
# hashes as the tuple of its fields, and pickles by its constructor.


class Draw:
    """Chance: ``tile`` is drawn from the stack that is due.

    >>> Draw(3) == Draw(3), Draw(3) == (3,), Draw(3)
    (True, False, Draw(tile=3))
    """

    __slots__ = ("tile",)

    def __init__(self, tile: int) -> None:
        self.tile: Final = tile

    def __eq__(self, other: object) -> bool:
        return type(other) is Draw and other.tile == self.tile

    def __hash__(self) -> int:
        return hash((self.tile,))

    def __repr__(self) -> str:
        return f"Draw(tile={self.tile!r})"

    def __str__(self) -> str:
        return f"d{self.tile}"

    def __reduce__(self) -> tuple[type[Draw], tuple[int]]:
        return Draw, (self.tile,)


class Place:
    """Put ``tile`` at ``(x, y)`` turned ``rotation`` quarter turns clockwise.

    >>> m = Place(17, 2, -1, 1); m.x, m.rotation, m == Place(17, 2, -1, 1), hash(m) == hash((17, 2, -1, 1))
    (2, 1, True, True)
    """

    __slots__ = ("rotation", "tile", "x", "y")

    def __init__(self, tile: int, x: int, y: int, rotation: int) -> None:
        self.tile: Final = tile
        self.x: Final = x
        self.y: Final = y
        self.rotation: Final = rotation

    def __eq__(self, other: object) -> bool:
        return (type(other) is Place and other.tile == self.tile and other.x == self.x
                and other.y == self.y and other.rotation == self.rotation)

    def __hash__(self) -> int:
        return hash((self.tile, self.x, self.y, self.rotation))

    def __repr__(self) -> str:
        return f"Place(tile={self.tile!r}, x={self.x!r}, y={self.y!r}, rotation={self.rotation!r})"

    def __str__(self) -> str:
        return f"{self.tile}@{self.x},{self.y}r{self.rotation}"

    def __reduce__(self) -> tuple[type[Place], tuple[int, int, int, int]]:
        return Place, (self.tile, self.x, self.y, self.rotation)


class Occupy:
    """Put a piece (``"meeple"`` or ``"hut"``) on zone ``zone`` of ``tile``.

    >>> Occupy(17, 8, "hut"), Occupy(17, 1) == Occupy(17, 1, MEEPLE)
    (Occupy(tile=17, zone=8, piece='hut'), True)
    """

    __slots__ = ("piece", "tile", "zone")

    def __init__(self, tile: int, zone: int, piece: Piece = MEEPLE) -> None:
        self.tile: Final = tile
        self.zone: Final = zone
        self.piece: Final = piece

    def __eq__(self, other: object) -> bool:
        return (type(other) is Occupy and other.tile == self.tile and other.zone == self.zone
                and other.piece == self.piece)

    def __hash__(self) -> int:
        return hash((self.tile, self.zone, self.piece))

    def __repr__(self) -> str:
        return f"Occupy(tile={self.tile!r}, zone={self.zone!r}, piece={self.piece!r})"

    def __str__(self) -> str:
        return f"{'m' if self.piece == MEEPLE else 'h'}{self.tile}.{self.zone}"

    def __reduce__(self) -> tuple[type[Occupy], tuple[int, int, Piece]]:
        return Occupy, (self.tile, self.zone, self.piece)


class TakeBack:
    """Shaman: take one's own meeple on zone ``zone`` of ``tile`` back to supply.

    >>> TakeBack(23, 0), TakeBack(23, 0) == Occupy(23, 0)
    (TakeBack(tile=23, zone=0), False)
    """

    __slots__ = ("tile", "zone")

    def __init__(self, tile: int, zone: int) -> None:
        self.tile: Final = tile
        self.zone: Final = zone

    def __eq__(self, other: object) -> bool:
        return type(other) is TakeBack and other.tile == self.tile and other.zone == self.zone

    def __hash__(self) -> int:
        return hash((self.tile, self.zone))

    def __repr__(self) -> str:
        return f"TakeBack(tile={self.tile!r}, zone={self.zone!r})"

    def __str__(self) -> str:
        return f"x{self.tile}.{self.zone}"

    def __reduce__(self) -> tuple[type[TakeBack], tuple[int, int]]:
        return TakeBack, (self.tile, self.zone)


class Choose:
    """Answer a special tile's question with one of the options it offers, a word (see
    :meth:`huntgather.specials.Special.options`).

    >>> Choose("now"), str(Choose("now")), Choose("now") == Choose("later")
    (Choose(option='now'), '!now', False)
    """

    __slots__ = ("option",)

    def __init__(self, option: str) -> None:
        self.option: Final = option

    def __eq__(self, other: object) -> bool:
        return type(other) is Choose and other.option == self.option

    def __hash__(self) -> int:
        return hash(("!", self.option))

    def __repr__(self) -> str:
        return f"Choose(option={self.option!r})"

    def __str__(self) -> str:
        return f"!{self.option}"

    def __reduce__(self) -> tuple[type[Choose], tuple[str]]:
        return Choose, (self.option,)


class Pass:
    """Decline: no occupant, or no answer to a special's question (no shaman take-back).

    >>> Pass() == Pass(), Pass() == (), Pass()
    (True, False, Pass())
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is Pass

    def __hash__(self) -> int:
        return hash(())

    def __repr__(self) -> str:
        return "Pass()"

    def __str__(self) -> str:
        return "-"

    def __reduce__(self) -> tuple[type[Pass], tuple[()]]:
        return Pass, ()


Move = Draw | Place | Occupy | TakeBack | Choose | Pass

_PLACE = re.compile(r"(\d+)@(-?\d+),(-?\d+)r([0-3])")
_ZONE = re.compile(r"([mhx])(\d+)\.(\d)")
_DRAW = re.compile(r"d(\d+)")
_CHOOSE = re.compile(r"!([a-z][a-z0-9_]*)")


def parse_move(text: str) -> Move:
    """Parse the text form of a move; raise :class:`InvalidMoveError` if malformed."""
    text = text.strip()
    if text == "-":
        return Pass()
    if m := _PLACE.fullmatch(text):
        return Place(int(m[1]), int(m[2]), int(m[3]), int(m[4]))
    if m := _ZONE.fullmatch(text):
        tile, zone = int(m[2]), int(m[3])
        if m[1] == "x":
            return TakeBack(tile, zone)
        return Occupy(tile, zone, MEEPLE if m[1] == "m" else HUT)
    if m := _DRAW.fullmatch(text):
        return Draw(int(m[1]))
    if m := _CHOOSE.fullmatch(text):
        return Choose(m[1])
    raise InvalidMoveError(
        f"{text!r} is not a move; expected dT (draw), T@X,YrR (place), mT.Z or hT.Z "
        f"(meeple or hut), xT.Z (shaman take-back), !WORD (a special's option) or - (pass)")
