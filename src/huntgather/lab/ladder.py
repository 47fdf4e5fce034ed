"""The ladder's runner: every bot level against every other, and one Elo rating per level and edition.

A ladder is a round-robin of two-player matches.  Each pair of levels plays
its own tournament (:func:`~huntgather.lab.tournament.run_tournament`'s
mirrored deals: the same tiles from both seats), logged to its own file
``<a>-vs-<b>.jsonl`` in the ladder's directory; every pair plays the same
deals (the same seed), round by round, so a ladder stopped at any moment has
about as many games for every pair, and a level added later only needs its
own pairs played.  Each pair's log is an ordinary tournament log: ``huntgather
tournament --bots a,b --seed S --log DIR/a-vs-b.jsonl`` extends it too.

The ratings are one Bradley–Terry fit over the games of all pairs
(:func:`~huntgather.lab.tournament.rank`), with bootstrap intervals that
resample each pair's deals.  Each level's time per move is the CPU time its bot spent choosing,
over all its decisions in the ladder.  :func:`ladder_file` writes the ladder file that
:mod:`huntgather.bots.ladder` reads (its rows, :class:`~huntgather.bots.ladder.LadderRow`, and the
shipped ladder the browser shows).

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> ladder = run_ladder(["greedy", "random"], rounds=1, directory=folder)
>>> [(row.bot, row.games) for row in ladder.rows]
[('greedy', 2), ('random', 2)]
>>> ladder.rows[0].elo > ladder.rows[1].elo
True
>>> read_ladder(folder).rows == ladder.rows
True
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from huntgather.bots.ladder import LADDER_FORMAT, LADDER_VERSION, LadderRow
from huntgather.bots.registry import ladder_specs
from huntgather.editions import DEFAULT_EDITION
from huntgather.lab.tournament import GameResult, check_settings, line_up, play_game, rank, run_jobs
from huntgather.lab.tournament_log import TournamentLog, read_log


@dataclass
class Ladder:
    """The games of a ladder by pair, and the rows (strongest first)."""

    edition: str
    seed: int
    pairs: dict[tuple[str, str], list[GameResult]] = field(default_factory=dict)
    rows: list[LadderRow] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(len(g) for g in self.pairs.values())

    def as_dict(self) -> dict[str, Any]:
        """The ladder of one edition as the ladder file holds it."""
        return {"players": 2, "seed": self.seed, "games": self.games,
                "pairs": {f"{a},{b}": len(g) for (a, b), g in sorted(self.pairs.items())},
                "levels": [row.as_dict() for row in self.rows]}


def pair_file(directory: str, a: str, b: str) -> str:
    """The log of the pair ``a``, ``b`` (a ``:`` in a spec becomes ``_``).

    >>> pair_file("ladder", "mcts:40", "greedy")
    'ladder/mcts_40-vs-greedy.jsonl'
    """
    return os.path.join(directory, f"{a.replace(':', '_')}-vs-{b.replace(':', '_')}.jsonl")


def ladder_pairs(specs: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of different specs, in ``specs`` order.

    >>> ladder_pairs(["a", "b", "c"])
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    unique = list(dict.fromkeys(specs))
    return list(itertools.combinations(unique, 2))


def run_ladder(specs: Sequence[str] | None = None, rounds: int = 1, directory: str = "ladder",
               edition: str = DEFAULT_EDITION, seed: int = 0, workers: int = 1,
               progress: Callable[[GameResult], None] | None = None, executor: Any = None) -> Ladder:
    """Play ``rounds`` deals (two games each, seats swapped) of every pair of ``specs`` (default:
    the levels registered for the ladder, :func:`~huntgather.bots.registry.ladder_specs`) that
    its log lacks.

    The games go round by round (all pairs' deal 0, then deal 1, …), each
    appended to its pair's log as it ends.  Raises ``ValueError`` for an
    unknown bot or edition, a bad number, or a log in ``directory`` written
    with other settings, before any game is played.
    """
    specs = list(dict.fromkeys(ladder_specs() if specs is None else specs))
    if len(specs) < 2:
        raise ValueError("a ladder needs at least two different bots")
    if rounds < 1:
        raise ValueError(f"the number of rounds must be at least 1, not {rounds}")
    ed = check_settings(specs, 2, 2, edition, workers)
    os.makedirs(directory, exist_ok=True)
    logs: dict[tuple[str, str], TournamentLog] = {}
    try:
        for a, b in ladder_pairs(specs):
            logs[(a, b)] = TournamentLog.open(pair_file(directory, a, b), edition=ed.name, players=2,
                                              seed=seed, bots=[a, b])
        jobs: list[tuple[tuple[str, ...], str, int, int, int]] = []
        for deal in range(rounds):
            for pair, log in logs.items():
                have = {(g.deal, g.rotation) for g in log.games}
                seats = tuple(line_up(pair, 2, deal))
                for rotation in range(2):
                    if (deal, rotation) not in have:
                        jobs.append((seats, ed.name, seed, deal, rotation))
        for game in run_jobs(_play_job, jobs, workers, executor):
            logs[sorted_pair(game.bots, specs)].add(game)
            if progress:
                progress(game)
    finally:
        for log in logs.values():
            log.close()
    return read_ladder(directory, ed.name, seed, specs)


def sorted_pair(bots: Sequence[str], specs: Sequence[str]) -> tuple[str, str]:
    """A game's two bots in ``specs`` order."""
    order = {s: i for i, s in enumerate(specs)}
    a, b = sorted(bots, key=lambda s: order[s])
    return a, b


def _play_job(job: tuple[tuple[str, ...], str, int, int, int]) -> GameResult:
    seats, edition, seed, deal, rotation = job
    return play_game(seats, edition, seed, deal, rotation)


def read_ladder(directory: str, edition: str | None = None, seed: int | None = None,
                specs: Sequence[str] | None = None) -> Ladder:
    """Rank the games of every pair log in ``directory`` (limited to ``specs`` if given).

    The logs must agree on the edition and seed (and match the ones given);
    ``ValueError`` says which does not.
    """
    pairs: dict[tuple[str, str], list[GameResult]] = {}
    found_edition, found_seed = edition, seed
    names = sorted(n for n in os.listdir(directory) if n.endswith(".jsonl")) \
        if os.path.isdir(directory) else []
    for name in names:
        path = os.path.join(directory, name)
        header, games = read_log(path)
        bots = tuple(str(b) for b in header.get("bots", ()))
        if header.get("players") != 2 or len(bots) != 2:
            raise ValueError(f"{path} is not a two-player pair log")
        if specs is not None and not set(bots) <= set(specs):
            continue
        for what, value, expected in (("edition", header.get("edition"), found_edition),
                                      ("seed", header.get("seed"), found_seed)):
            if expected is not None and value != expected:
                raise ValueError(f"{path} was played with {what} {value}, not {expected}: "
                                 f"one ladder directory holds one edition and seed")
        found_edition, found_seed = str(header["edition"]), int(header["seed"])
        pairs[(bots[0], bots[1])] = games
    if not pairs:
        raise ValueError(f"no ladder games in {directory}")
    order = list(specs) if specs is not None else _appearance(pairs)
    present = [s for s in order if any(s in p for p in pairs)]
    assert found_edition is not None and found_seed is not None
    ladder = Ladder(found_edition, found_seed, pairs)
    ladder.rows = ladder_rows(present, [g for games in pairs.values() for g in games], found_seed)
    return ladder


def _appearance(pairs: Mapping[tuple[str, str], list[GameResult]]) -> list[str]:
    known = [s for s in ladder_specs() if any(s in p for p in pairs)]
    others = sorted({s for p in pairs for s in p} - set(known))
    return known + others


def ladder_rows(specs: Sequence[str], games: Sequence[GameResult], seed: int = 0) -> list[LadderRow]:
    """Elo with intervals (one fit over all ``games``), games, wins and time per move of each spec.

    >>> g = [GameResult(0, 0, ("a", "b"), (9, 3), (1.0, 4.0), (10, 10)),
    ...      GameResult(0, 1, ("b", "a"), (2, 8), (2.0, 1.0), (10, 10))]
    >>> rows = ladder_rows(["a", "b"], g)
    >>> [(r.bot, r.games, r.wins, r.seconds_per_move) for r in rows]
    [('a', 2, 2, 0.1), ('b', 2, 0, 0.3)]
    """
    seconds: dict[str, float] = dict.fromkeys(specs, 0.0)
    decisions: dict[str, int] = dict.fromkeys(specs, 0)
    for g in games:
        for seat, bot in enumerate(g.bots):
            if g.seconds:
                seconds[bot] += g.seconds[seat]
                decisions[bot] += g.decisions[seat]
    # the bootstrap resamples deals of a pair: every pair plays the same deal 0, 1, …, but the
    # games of two pairs on one deal are no more alike than any two games
    units: dict[tuple[frozenset[str], int], int] = {}
    regrouped = [replace(g, deal=units.setdefault((frozenset(g.bots), g.deal), len(units))) for g in games]
    rows = []
    for row in rank(specs, regrouped, seed):
        n = decisions[row.bot]
        rows.append(LadderRow(row.bot, row.elo, row.elo_low, row.elo_high, row.games, row.wins,
                              seconds[row.bot] / n if n else None))
    return rows


# ---------------------------------------------------------------------- the ladder file

def ladder_file(ladders: Mapping[str, Ladder], meta: Mapping[str, Any] | None = None,
                base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The ladder file's content: the editions of ``base`` (an older file) with ``ladders`` replacing theirs.

    >>> data = ladder_file({})
    >>> data["format"], data["editions"]
    ('huntgather-ladder', {})
    """
    editions = dict(base.get("editions", {})) if base else {}
    for name, ladder in ladders.items():
        editions[name] = {**ladder.as_dict(), **dict(meta or {})}
    return {"format": LADDER_FORMAT, "version": LADDER_VERSION, "editions": editions}
