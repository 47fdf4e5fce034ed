"""``huntgather simulate``: play random games and summarise them.

Every decision is a uniformly random legal move (:func:`huntgather.game.random_game`);
game ``i`` uses seed ``SEED + i``, so a run is reproducible and does not depend
on ``--workers``.

>>> result = play_one(("2020", 2, 4, False))
>>> sorted(result), result["seed"], len(result["scores"])
(['edition', 'moves', 'players', 'scores', 'seed', 'turns', 'winners'], 4, 2)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from huntgather.cli import CommandError
from huntgather.editions import DEFAULT_EDITION, edition_names, get_edition
from huntgather.events import player_name
from huntgather.game import random_game
from huntgather.record import write_record

#: (edition, players, seed, with record text)
Task = tuple[str, int, int, bool]


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "simulate", help="play random games and summarise the scores",
        description="Play games in which every decision is a uniformly random legal move. "
                    "Game i uses seed SEED+i, so runs are reproducible whatever --workers is.")
    parser.add_argument("--games", "-n", type=int, default=10, metavar="N",
                        help="number of games (default 10)")
    parser.add_argument("--players", "-p", type=int, default=2, metavar="P",
                        help="players per game (default 2)")
    parser.add_argument("--seed", "-s", type=int, default=0, metavar="S",
                        help="seed of the first game; game i uses S+i (default 0)")
    parser.add_argument("--edition", "-e", default=DEFAULT_EDITION, choices=edition_names(),
                        help=f"rules edition (default {DEFAULT_EDITION})")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per game per line instead of a summary")
    parser.add_argument("--records", metavar="DIR",
                        help="write each game's record to DIR/game-SEED.hgr (DIR is created)")
    parser.add_argument("--workers", "-w", type=int, default=1, metavar="N",
                        help="spread the games over N processes (default 1)")
    parser.set_defaults(run=run)


def play_one(task: Task) -> dict[str, Any]:
    """Play one random game; its summary (and ``record`` text when asked for)."""
    edition, players, seed, with_record = task
    game = random_game(players, seed, edition)
    out: dict[str, Any] = {
        "seed": seed,
        "edition": edition,
        "players": players,
        "scores": list(game.scores),
        "winners": list(game.winners()),
        "turns": game.state.turn + 1,
        "moves": len(game.history),
    }
    if with_record:
        out["record"] = write_record(game)
    return out


def _results(tasks: list[Task], workers: int) -> Iterator[dict[str, Any]]:
    """Results in the order of ``tasks``, from this process or from ``workers`` processes."""
    if workers == 1:
        yield from map(play_one, tasks)
        return
    chunk = max(1, min(16, len(tasks) // (workers * 8)))
    # "spawn" so that the workers start clean whatever threads (e.g. a progress bar) run here.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield from pool.map(play_one, tasks, chunksize=chunk)


def _check(args: argparse.Namespace) -> None:
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, not {args.games}")
    if args.workers < 1:
        raise CommandError(f"--workers must be at least 1, not {args.workers}")
    edition = get_edition(args.edition)
    if not edition.min_players <= args.players <= edition.max_players:
        raise CommandError(f"--players: the {edition.name} edition is for {edition.min_players}-"
                           f"{edition.max_players} players, not {args.players}")


def run(args: argparse.Namespace) -> int:
    _check(args)
    records: Path | None = None
    if args.records:
        records = Path(args.records)
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise CommandError(f"--records {args.records}: cannot create the folder "
                               f"({err.strerror or err})", 1) from None
    tasks = [(args.edition, args.players, args.seed + i, records is not None) for i in range(args.games)]
    workers = min(args.workers, args.games)
    start = time.perf_counter()
    results: list[dict[str, Any]] = []
    progress = None
    if not args.json and sys.stdout.isatty():
        from rich.progress import Progress
        progress = Progress(transient=True)
    if progress is not None:
        with progress:
            bar = progress.add_task("simulating", total=len(tasks))
            for result in _results(tasks, workers):
                _keep(result, records, results, args.json)
                progress.advance(bar)
    else:
        for result in _results(tasks, workers):
            _keep(result, records, results, args.json)
    elapsed = time.perf_counter() - start
    rate = len(results) / elapsed if elapsed > 0 else float("inf")
    if args.json:
        print(f"{len(results)} games in {elapsed:.2f} s ({rate:.1f} games/s, {workers} "
              f"worker{'s' if workers > 1 else ''})", file=sys.stderr)
    else:
        print(summary(results, workers, elapsed))
    return 0


def _keep(result: dict[str, Any], records: Path | None, results: list[dict[str, Any]], as_json: bool) -> None:
    text = result.pop("record", None)
    if records is not None and text is not None:
        path = records / f"game-{result['seed']}.hgr"
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as err:
            raise CommandError(f"{path}: cannot write the record ({err.strerror or err})", 1) from None
    results.append(result)
    if as_json:
        print(json.dumps(result), flush=True)


def summary(results: list[dict[str, Any]], workers: int, elapsed: float) -> str:
    """A readable table: mean score and win share per seat, then the speed.

    A shared win counts as a fraction: two tied winners get half a win each.

    >>> rs = [{"seed": 0, "edition": "2020", "players": 2, "scores": [10, 4], "winners": [0], "turns": 9},
    ...       {"seed": 1, "edition": "2020", "players": 2, "scores": [6, 6], "winners": [0, 1], "turns": 7}]
    >>> print(summary(rs, 1, 0.5).split("\\n", 1)[1])
    seat  colour  mean score  win share
       0  yellow        8.00      75.0%
       1  red           5.00      25.0%
    mean turns 8.0; 1 of 2 games ended in a tie
    0.50 s, 4.0 games/s with 1 worker
    """
    games = len(results)
    first = results[0]
    players = first["players"]
    seeds = f"seed {first['seed']}" if games == 1 else f"seeds {first['seed']}-{results[-1]['seed']}"
    lines = [f"{games} random game{'s' if games > 1 else ''}: {first['edition']} edition, "
             f"{players} players, {seeds}",
             "seat  colour  mean score  win share"]
    for seat in range(players):
        mean = sum(r["scores"][seat] for r in results) / games
        share = sum(1 / len(r["winners"]) for r in results if seat in r["winners"]) / games
        lines.append(f"{seat:>4}  {player_name(seat):<6}  {mean:>10.2f}  {share:>8.1%}")
    ties = sum(1 for r in results if len(r["winners"]) > 1)
    turns = sum(r["turns"] for r in results) / games
    lines.append(f"mean turns {turns:.1f}; {ties} of {games} games ended in a tie")
    rate = f"{games / elapsed:.1f}" if elapsed > 0 else "inf"
    lines.append(f"{elapsed:.2f} s, {rate} games/s with {workers} worker{'s' if workers > 1 else ''}")
    return "\n".join(lines)
