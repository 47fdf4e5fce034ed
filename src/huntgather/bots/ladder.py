"""The ladder as a player reads it: the rows of a ladder file, and the ladder shipped with the package.

A ladder rates every bot level with one Elo per edition (played and written by
:mod:`huntgather.lab.ladder`, ``huntgather ladder``).  The package ships one,
``data/ladder.json``, which the browser's New game screen shows beside each level:
:func:`shipped_ladder` reads it: per edition, its rows (:class:`LadderRow`, strongest first).

>>> rows = shipped_ladder()["2020"]
>>> all(isinstance(row, LadderRow) for row in rows), rows == sorted(rows, key=lambda r: -r.elo)
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

#: the format of a ladder file (``huntgather ladder --out``); a reader refuses any other
LADDER_FORMAT = "huntgather-ladder"
LADDER_VERSION = 1
#: the ladder shipped with the package (the browser's level picker shows it)
SHIPPED = "ladder.json"


@dataclass(frozen=True)
class LadderRow:
    """One level's place on the ladder."""

    bot: str
    elo: float
    elo_low: float
    elo_high: float
    games: int
    wins: int
    #: mean CPU seconds per decision, None if no game of the level was timed
    seconds_per_move: float | None

    def as_dict(self) -> dict[str, Any]:
        return {"bot": self.bot, "elo": round(self.elo, 1), "elo_low": round(self.elo_low, 1),
                "elo_high": round(self.elo_high, 1), "games": self.games, "wins": self.wins,
                "seconds_per_move": None if self.seconds_per_move is None
                else round(self.seconds_per_move, 4)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LadderRow:
        spm = data.get("seconds_per_move")
        return cls(str(data["bot"]), float(data["elo"]), float(data["elo_low"]), float(data["elo_high"]),
                   int(data["games"]), int(data["wins"]), None if spm is None else float(spm))


def ladder_levels(data: Mapping[str, Any]) -> dict[str, list[LadderRow]]:
    """Per edition, the rows of a ladder file's content; ``ValueError`` for another format.

    >>> ladder_levels({"format": "huntgather-ladder", "version": 1, "editions": {"2020": {"levels": [
    ...     {"bot": "greedy", "elo": 1600, "elo_low": 1550, "elo_high": 1650, "games": 8, "wins": 6,
    ...      "seconds_per_move": 0.02}]}}})["2020"][0].elo
    1600.0
    >>> ladder_levels({"format": "other"})
    Traceback (most recent call last):
    ...
    ValueError: not a huntgather-ladder file (format 'other', version None)
    """
    if data.get("format") != LADDER_FORMAT or data.get("version") != LADDER_VERSION:
        raise ValueError(f"not a {LADDER_FORMAT} file (format {data.get('format')!r}, "
                         f"version {data.get('version')!r})")
    return {str(name): [LadderRow.from_dict(row) for row in entry.get("levels", [])]
            for name, entry in data.get("editions", {}).items()}


@cache
def shipped_ladder() -> dict[str, list[LadderRow]]:
    """The ladder shipped with the package, per edition (empty if the package has none)."""
    source = resources.files("huntgather.data").joinpath(SHIPPED)
    if not source.is_file():
        return {}
    return ladder_levels(json.loads(source.read_text(encoding="utf-8")))
