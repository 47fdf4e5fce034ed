"""Events: what applying a move did, each with a human-readable explanation.

The UI animates from them, records print them as comments and tests assert on
them.  Every event has ``describe()``.
"""

from __future__ import annotations

from dataclasses import dataclass

from huntgather.kinds import Piece, Stack

COLOURS = ("yellow", "red", "green", "blue", "violet")


def player_name(seat: int) -> str:
    """The default name of a seat: its colour."""
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"player {seat}"


@dataclass(frozen=True, slots=True)
class TileDrawn:
    tile: int
    stack: Stack

    def describe(self) -> str:
        return f"tile {self.tile} drawn from the {self.stack} stack"


@dataclass(frozen=True, slots=True)
class TileDiscarded:
    tile: int
    stack: Stack

    def describe(self) -> str:
        return f"tile {self.tile} fits nowhere and is put out of the game"


@dataclass(frozen=True, slots=True)
class TilePlaced:
    player: int
    tile: int
    x: int
    y: int
    rotation: int
    bonus: bool

    def describe(self) -> str:
        what = "bonus tile" if self.bonus else "tile"
        return (f"{player_name(self.player)} places {what} {self.tile} at ({self.x},{self.y}) "
                f"rotated {self.rotation * 90}°")


@dataclass(frozen=True, slots=True)
class OccupantPlaced:
    player: int
    tile: int
    zone: int
    piece: Piece
    role: str  # "fisher", "gatherer", "hunter" or "hut"

    def describe(self) -> str:
        return f"{player_name(self.player)} puts a {self.role} on zone {self.zone} of tile {self.tile}"


@dataclass(frozen=True, slots=True)
class MeepleTakenBack:
    player: int
    tile: int
    zone: int

    def describe(self) -> str:
        return (f"shaman: {player_name(self.player)} takes back the meeple on zone {self.zone} "
                f"of tile {self.tile} without scoring")


@dataclass(frozen=True, slots=True)
class FeatureScored:
    """A feature (or an immediate action) scored: ``points[i]`` for seat ``i``."""

    kind: str  # "river", "forest", "logboat", "hunting_trap"
    points: tuple[int, ...]
    explanation: str
    tiles: tuple[int, ...] = ()

    def describe(self) -> str:
        return self.explanation


@dataclass(frozen=True, slots=True)
class OccupantsReturned:
    """Meeples going back to their owners: ``(player, tile, zone)`` each."""

    returned: tuple[tuple[int, int, int], ...]
    reason: str

    def describe(self) -> str:
        who = ", ".join(f"{player_name(p)} from {t}.{z}" for p, t, z in self.returned)
        return f"meeples return ({self.reason}): {who}"


@dataclass(frozen=True, slots=True)
class BonusTurn:
    """A bonus (menhir) turn earned; ``granted`` is False when the stack is empty."""

    player: int
    granted: bool
    reason: str

    def describe(self) -> str:
        return self.reason


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One row of the final scoring table."""

    kind: str  # "huts" or "hunters"
    points: tuple[int, ...]
    explanation: str
    tiles: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class FinalScoring:
    rows: tuple[ScoreRow, ...]

    def describe(self) -> str:
        if not self.rows:
            return "final scoring: nothing to score"
        return "final scoring:\n" + "\n".join(f"  {r.explanation}" for r in self.rows)


@dataclass(frozen=True, slots=True)
class GameOver:
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def describe(self) -> str:
        names = " and ".join(player_name(w) for w in self.winners)
        table = ", ".join(f"{player_name(i)} {s}" for i, s in enumerate(self.scores))
        verb = "share the win" if len(self.winners) > 1 else "wins"
        return f"game over: {table}; {names} {verb}"


Event = (TileDrawn | TileDiscarded | TilePlaced | OccupantPlaced | MeepleTakenBack | FeatureScored
         | OccupantsReturned | BonusTurn | FinalScoring | GameOver)
