"""A tournament's log file: one JSON line per finished game, so a long run can be resumed.

The first line describes the run (``edition``, ``players``, ``seed``, ``bots``);
each further line is one game (``deal``, ``rotation``, ``bots`` by seat,
``scores``, and per seat the CPU ``seconds`` its bot spent choosing and its
number of ``decisions``, which older logs lack), written and flushed as soon
as the game ends.  Running the same tournament again with the same log skips the games it holds, so an
interrupted run of several hours loses at most the games in progress, and a
run can be extended later with a larger ``--games``.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "run.jsonl")
>>> log = TournamentLog.open(path, edition="2020", players=2, seed=3, bots=["greedy", "random"])
>>> log.games
[]
>>> log.add(GameResult(0, 0, ("greedy", "random"), (150, 20)))
>>> log.close()
>>> again = TournamentLog.open(path, edition="2020", players=2, seed=3, bots=["greedy", "random"])
>>> again.games
[GameResult(deal=0, rotation=0, bots=('greedy', 'random'), scores=(150, 20))]
>>> again.close()
>>> TournamentLog.open(path, edition="2020", players=2, seed=4, bots=["greedy"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: the log ... was written by a tournament with seed 3, not 4; use another log file
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import IO, Any

from huntgather.lab.tournament import GameResult

#: the header fields a resumed run must match
_HEADER_FIELDS = ("edition", "players", "seed", "bots")
FORMAT = "huntgather-tournament-log"
VERSION = 1


class TournamentLog:
    """An open log: the games it already holds, and :meth:`add` to append one."""

    def __init__(self, path: str, games: list[GameResult], handle: IO[str]) -> None:
        self.path = path
        #: the games read from the file when it was opened (in file order)
        self.games = games
        #: how many games :meth:`add` has appended since
        self.added = 0
        self._handle = handle

    @classmethod
    def open(cls, path: str, *, edition: str, players: int, seed: int,
             bots: Sequence[str]) -> TournamentLog:
        """Open (or create) the log of this tournament.

        Raises ``ValueError`` if the file is not a tournament log, is damaged
        (other than a last line cut short by an interruption, which is
        dropped), or belongs to a tournament with other settings.  ``OSError``
        comes through for a file that cannot be read or written.
        """
        header: dict[str, Any] = {"format": FORMAT, "version": VERSION, "edition": edition,
                                  "players": players, "seed": seed, "bots": list(bots)}
        games: list[GameResult] = []
        exists = os.path.exists(path) and os.path.getsize(path) > 0
        if exists:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            games, keep = _read(path, text, header)
            if keep < len(text):  # a line cut short by an interruption: drop it
                with open(path, "r+", encoding="utf-8") as f:
                    f.truncate(len(text[:keep].encode("utf-8")))
        handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the whole run
        if not exists:
            handle.write(json.dumps(header) + "\n")
            handle.flush()
        return cls(path, games, handle)

    def add(self, game: GameResult) -> None:
        """Append one finished game and flush it to disk."""
        line: dict[str, Any] = {"deal": game.deal, "rotation": game.rotation,
                                "bots": list(game.bots), "scores": list(game.scores)}
        if game.seconds:
            line["seconds"] = list(game.seconds)
            line["decisions"] = list(game.decisions)
        self._handle.write(json.dumps(line) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self.added += 1

    def close(self) -> None:
        self._handle.close()


def read_log(path: str) -> tuple[dict[str, Any], list[GameResult]]:
    """The header and the games of the log at ``path``, without opening it for writing.

    ``ValueError`` if it is not a tournament log or is damaged (a last line cut
    short is ignored); ``OSError`` if it cannot be read.
    """
    with open(path, encoding="utf-8") as f:
        text = f.read()
    header = _header(path, text.split("\n")[:-1])
    games, _ = _read(path, text, header)
    return header, games


def _header(path: str, complete: list[str]) -> dict[str, Any]:
    if not complete:
        raise ValueError(f"{path} is not a huntgather tournament log (no header line)")
    try:
        header = json.loads(complete[0])
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"{path} is not a huntgather tournament log (line 1 is not its header)")
    if header.get("version") != VERSION:
        raise ValueError(f"{path}: log version {header.get('version')!r} is not supported "
                         f"(this huntgather reads version {VERSION})")
    if not isinstance(header.get("players"), int) or not 2 <= header["players"] <= 5:
        raise ValueError(f"{path}: the header's number of players is not 2 to 5")
    return header


def _read(path: str, text: str, expected: dict[str, Any]) -> tuple[list[GameResult], int]:
    """The games of a log's text, and how many characters of it are whole lines."""
    lines = text.split("\n")
    complete = lines[:-1]  # the text after the last newline is an unfinished line
    header = _header(path, complete)
    for name in _HEADER_FIELDS:
        if header.get(name) != expected[name]:
            shown = ",".join(header.get(name) or []) if name == "bots" else header.get(name)
            wanted = ",".join(expected[name]) if name == "bots" else expected[name]
            raise ValueError(f"the log {path} was written by a tournament with {name} {shown}, "
                             f"not {wanted}; use another log file")
    games: list[GameResult] = []
    seen: set[tuple[int, int]] = set()
    players = expected["players"]
    for number, line in enumerate(complete[1:], start=2):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            game = GameResult(int(data["deal"]), int(data["rotation"]),
                              tuple(str(b) for b in data["bots"]), tuple(int(s) for s in data["scores"]),
                              tuple(float(s) for s in data.get("seconds", ())),
                              tuple(int(d) for d in data.get("decisions", ())))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{path}, line {number}: not a game result ({error})") from None
        if (len(game.bots) != players or len(game.scores) != players or not 0 <= game.rotation < players
                or len(game.seconds) not in (0, players) or len(game.decisions) != len(game.seconds)):
            raise ValueError(f"{path}, line {number}: a game of {players} players needs {players} bots, "
                             f"{players} scores and a rotation below {players} (and, if timed, {players} "
                             f"seconds and decisions)")
        if (game.deal, game.rotation) in seen:
            raise ValueError(f"{path}, line {number}: deal {game.deal} rotation {game.rotation} "
                             f"is logged twice")
        seen.add((game.deal, game.rotation))
        games.append(game)
    return games, len(text) - len(lines[-1])
