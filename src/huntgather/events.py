"""Events: what applying a move did, each with a human-readable explanation.

The UI animates from them, records print them as comments and tests assert on
them.  Every event has ``describe()``.

The explanations of scorings (a :class:`FeatureScored`'s, a :class:`ScoreRow`'s, a
:class:`BonusTurn`'s reason) are :class:`~huntgather.phrases.Said` strings: English, and beside
it the same sentence as a key of the message catalogues with its parameters
(:class:`~huntgather.phrases.Say`), which the server sends so that a page words it in its own
language (``docs/protocol.md``, "Words in every language").
"""

from __future__ import annotations

from typing import ClassVar

from huntgather.kinds import Piece, Stack

COLOURS = ("yellow", "red", "green", "blue", "violet")


class _Record:
    """What every event class shares: it equals an event of its class with the same fields,
    hashes, shows (``TileDrawn(tile=3, stack='normal')``) and pickles by its fields, in the order
    ``_fields`` names them.

    The events are plain classes with slots rather than dataclasses: a turn makes several of
    them, and a frozen dataclass is slow to make (each field set through ``object.__setattr__``),
    in CPython and in the compiled build alike.  They are never changed once made.
    """

    __slots__ = ()
    #: the fields, in the order of the constructor's parameters
    _fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self._fields])

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, _Record) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        pairs = zip(self._fields, self._values(), strict=True)
        fields = ", ".join(f"{name}={value!r}" for name, value in pairs)
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[type[_Record], tuple[object, ...]]:
        return type(self), self._values()


def player_name(seat: int) -> str:
    """The default name of a seat: its colour."""
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"player {seat}"


class TileDrawn(_Record):
    __slots__ = ("stack", "tile")
    _fields = ("tile", "stack")

    def __init__(self, tile: int, stack: Stack) -> None:
        self.tile = tile
        self.stack = stack

    def describe(self) -> str:
        return f"tile {self.tile} drawn from the {self.stack} stack"


class TileDiscarded(_Record):
    __slots__ = ("stack", "tile")
    _fields = ("tile", "stack")

    def __init__(self, tile: int, stack: Stack) -> None:
        self.tile = tile
        self.stack = stack

    def describe(self) -> str:
        return f"tile {self.tile} fits nowhere and is put out of the game"


class TilePlaced(_Record):
    __slots__ = ("bonus", "player", "rotation", "tile", "x", "y")
    _fields = ("player", "tile", "x", "y", "rotation", "bonus")

    def __init__(self, player: int, tile: int, x: int, y: int, rotation: int, bonus: bool) -> None:
        self.player = player
        self.tile = tile
        self.x = x
        self.y = y
        self.rotation = rotation
        self.bonus = bonus

    def describe(self) -> str:
        what = "bonus tile" if self.bonus else "tile"
        return (f"{player_name(self.player)} places {what} {self.tile} at ({self.x},{self.y}) "
                f"rotated {self.rotation * 90}°")


class OccupantPlaced(_Record):
    __slots__ = ("piece", "player", "role", "tile", "zone")
    _fields = ("player", "tile", "zone", "piece", "role")

    def __init__(self, player: int, tile: int, zone: int, piece: Piece, role: str) -> None:
        self.player = player
        self.tile = tile
        self.zone = zone
        self.piece = piece
        self.role = role  # "fisher", "gatherer", "hunter" or "hut"

    def describe(self) -> str:
        return f"{player_name(self.player)} puts a {self.role} on zone {self.zone} of tile {self.tile}"


class MeepleTakenBack(_Record):
    __slots__ = ("player", "tile", "zone")
    _fields = ("player", "tile", "zone")

    def __init__(self, player: int, tile: int, zone: int) -> None:
        self.player = player
        self.tile = tile
        self.zone = zone

    def describe(self) -> str:
        return (f"shaman: {player_name(self.player)} takes back the meeple on zone {self.zone} "
                f"of tile {self.tile} without scoring")


class FeatureScored(_Record):
    """A feature (or an immediate action) scored: ``points[i]`` for seat ``i``."""

    __slots__ = ("explanation", "kind", "points", "tiles")
    _fields = ("kind", "points", "explanation", "tiles")

    def __init__(self, kind: str, points: tuple[int, ...], explanation: str,
                 tiles: tuple[int, ...] = ()) -> None:
        self.kind = kind  # "river", "forest", "logboat", "hunting_trap"
        self.points = points
        self.explanation = explanation
        self.tiles = tiles

    def describe(self) -> str:
        return self.explanation


class OccupantsReturned(_Record):
    """Meeples going back to their owners: ``(player, tile, zone)`` each."""

    __slots__ = ("reason", "returned")
    _fields = ("returned", "reason")

    def __init__(self, returned: tuple[tuple[int, int, int], ...], reason: str) -> None:
        self.returned = returned
        self.reason = reason

    def describe(self) -> str:
        who = ", ".join(f"{player_name(p)} from {t}.{z}" for p, t, z in self.returned)
        return f"meeples return ({self.reason}): {who}"


class BonusTurn(_Record):
    """A bonus (menhir) turn earned; ``granted`` is False when the stack is empty."""

    __slots__ = ("granted", "player", "reason")
    _fields = ("player", "granted", "reason")

    def __init__(self, player: int, granted: bool, reason: str) -> None:
        self.player = player
        self.granted = granted
        self.reason = reason

    def describe(self) -> str:
        return self.reason


class ScoreRow(_Record):
    """One row of the final scoring table."""

    __slots__ = ("explanation", "kind", "points", "tiles")
    _fields = ("kind", "points", "explanation", "tiles")

    def __init__(self, kind: str, points: tuple[int, ...], explanation: str,
                 tiles: tuple[int, ...] = ()) -> None:
        self.kind = kind  # "huts" or "hunters"
        self.points = points
        self.explanation = explanation
        self.tiles = tiles


class FinalScoring(_Record):
    __slots__ = ("rows",)
    _fields = ("rows",)

    def __init__(self, rows: tuple[ScoreRow, ...]) -> None:
        self.rows = rows

    def describe(self) -> str:
        if not self.rows:
            return "final scoring: nothing to score"
        return "final scoring:\n" + "\n".join(f"  {r.explanation}" for r in self.rows)


class GameOver(_Record):
    __slots__ = ("scores", "winners")
    _fields = ("scores", "winners")

    def __init__(self, scores: tuple[int, ...], winners: tuple[int, ...]) -> None:
        self.scores = scores
        self.winners = winners

    def describe(self) -> str:
        names = " and ".join(player_name(w) for w in self.winners)
        table = ", ".join(f"{player_name(i)} {s}" for i, s in enumerate(self.scores))
        verb = "share the win" if len(self.winners) > 1 else "wins"
        return f"game over: {table}; {names} {verb}"


Event = (TileDrawn | TileDiscarded | TilePlaced | OccupantPlaced | MeepleTakenBack | FeatureScored
         | OccupantsReturned | BonusTurn | FinalScoring | GameOver)
