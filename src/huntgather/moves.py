"""Moves: small immutable values with a text form that parses back.

Moves are named tuples (cheap to create: bots list thousands of them); a move
equals only a move of the same kind, never a plain tuple.

==========  ==================  =============================================
text        value               meaning
==========  ==================  =============================================
``d17``     ``Draw(17)``        chance: tile 17 comes off the stack
``17@2,-1r1`` ``Place(17,2,-1,1)`` tile 17 at x=2, y=-1, turned once clockwise
``m17.1``   ``Occupy(17,1)``    a meeple on zone 1 of tile 17
``h17.8``   ``Occupy(17,8,'hut')`` a hut on zone 8 (a lake) of tile 17
``x23.0``   ``TakeBack(23,0)``  shaman: take back your meeple from zone 0 of tile 23
``-``       ``Pass()``          place nothing / take nothing back
==========  ==================  =============================================

>>> parse_move("17@2,-1r1")
Place(tile=17, x=2, y=-1, rotation=1)
>>> str(Occupy(17, 8, "hut"))
'h17.8'
>>> all(parse_move(str(m)) == m for m in [Draw(3), Pass(), TakeBack(23, 0), Occupy(5, 1)])
True
"""

from __future__ import annotations

import re
from typing import NamedTuple, TypeVar

from huntgather.kinds import Piece

MEEPLE, HUT = Piece.MEEPLE, Piece.HUT
_T = TypeVar("_T")


def _same_kind_only(cls: type[_T]) -> type[_T]:
    """Make a named-tuple move equal only to moves of its own kind (never to a plain tuple)."""

    def __eq__(self: tuple[object, ...], other: object) -> bool:
        return type(other) is type(self) and tuple.__eq__(self, other)

    def __ne__(self: tuple[object, ...], other: object) -> bool:
        return not __eq__(self, other)

    setattr(cls, "__eq__", __eq__)  # noqa: B010
    setattr(cls, "__ne__", __ne__)  # noqa: B010
    setattr(cls, "__hash__", tuple.__hash__)  # noqa: B010
    return cls


class InvalidMoveError(ValueError):
    """The text is not a move at all (as opposed to an illegal move)."""


@_same_kind_only
class Draw(NamedTuple):
    """Chance: ``tile`` is drawn from the stack that is due."""

    tile: int

    def __str__(self) -> str:
        return f"d{self.tile}"


@_same_kind_only
class Place(NamedTuple):
    """Put ``tile`` at ``(x, y)`` turned ``rotation`` quarter turns clockwise."""

    tile: int
    x: int
    y: int
    rotation: int

    def __str__(self) -> str:
        return f"{self.tile}@{self.x},{self.y}r{self.rotation}"


@_same_kind_only
class Occupy(NamedTuple):
    """Put a piece (``"meeple"`` or ``"hut"``) on zone ``zone`` of ``tile``."""

    tile: int
    zone: int
    piece: Piece = MEEPLE

    def __str__(self) -> str:
        return f"{'m' if self.piece == MEEPLE else 'h'}{self.tile}.{self.zone}"


@_same_kind_only
class TakeBack(NamedTuple):
    """Shaman: take one's own meeple on zone ``zone`` of ``tile`` back to supply."""

    tile: int
    zone: int

    def __str__(self) -> str:
        return f"x{self.tile}.{self.zone}"


@_same_kind_only
class Pass(NamedTuple):
    """Decline: no occupant, or no shaman take-back."""

    def __str__(self) -> str:
        return "-"


Move = Draw | Place | Occupy | TakeBack | Pass

_PLACE = re.compile(r"(\d+)@(-?\d+),(-?\d+)r([0-3])")
_ZONE = re.compile(r"([mhx])(\d+)\.(\d)")
_DRAW = re.compile(r"d(\d+)")


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
    raise InvalidMoveError(
        f"{text!r} is not a move; expected dT (draw), T@X,YrR (place), mT.Z or hT.Z "
        f"(meeple or hut), xT.Z (shaman take-back) or - (pass)")
