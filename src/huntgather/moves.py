"""Moves: small frozen values with a text form that parses back.

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
from dataclasses import dataclass
from typing import Literal

MEEPLE: Literal["meeple"] = "meeple"
HUT: Literal["hut"] = "hut"


class InvalidMoveError(ValueError):
    """The text is not a move at all (as opposed to an illegal move)."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: ``tile`` is drawn from the stack that is due."""

    tile: int

    def __str__(self) -> str:
        return f"d{self.tile}"


@dataclass(frozen=True, slots=True)
class Place:
    """Put ``tile`` at ``(x, y)`` turned ``rotation`` quarter turns clockwise."""

    tile: int
    x: int
    y: int
    rotation: int

    def __str__(self) -> str:
        return f"{self.tile}@{self.x},{self.y}r{self.rotation}"


@dataclass(frozen=True, slots=True)
class Occupy:
    """Put a piece (``"meeple"`` or ``"hut"``) on zone ``zone`` of ``tile``."""

    tile: int
    zone: int
    piece: Literal["meeple", "hut"] = MEEPLE

    @property
    def node(self) -> int:
        return self.tile * 10 + self.zone

    def __str__(self) -> str:
        return f"{'m' if self.piece == MEEPLE else 'h'}{self.tile}.{self.zone}"


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Shaman: take one's own meeple on zone ``zone`` of ``tile`` back to supply."""

    tile: int
    zone: int

    @property
    def node(self) -> int:
        return self.tile * 10 + self.zone

    def __str__(self) -> str:
        return f"x{self.tile}.{self.zone}"


@dataclass(frozen=True, slots=True)
class Pass:
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
