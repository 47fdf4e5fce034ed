"""`huntgather ladder`: every bot level against every other; Elo ratings with intervals.

Example::

    huntgather ladder --edition 2020 --rounds 20 --dir docs/results/ladder-2020 --workers 2
    huntgather ladder --edition 2020 --dir docs/results/ladder-2020 --report --markdown
    huntgather ladder --edition 2020 --dir docs/results/ladder-2020 --report \\
        --out src/huntgather/data/ladder.json

The games are logged in ``--dir``, one file per pair of levels; running the
command again plays only the games the logs lack, so an interrupted ladder
resumes and a finished one can be extended with a larger ``--rounds``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from typing import Any


def register(sub: Any) -> None:
    from huntgather.bots.registry import ladder_specs
    parser: argparse.ArgumentParser = sub.add_parser(
        "ladder", help="a round-robin of the bot levels and their Elo ratings",
        description="Every bot level plays every other over mirrored two-player deals (a log file "
                    "per pair, resumable); prints each level's Elo rating with its 95% interval, "
                    "games, wins and CPU time per move.")
    parser.add_argument("--bots", default=",".join(ladder_specs()),
                        help=f"comma-separated bot specs (default: {','.join(ladder_specs())})")
    parser.add_argument("--rounds", type=int, default=5,
                        help="deals per pair; each deal is two games, seats swapped (default: 5)")
    parser.add_argument("--dir", default=None, metavar="DIR",
                        help="folder of the pair logs (default: ladder-EDITION in the current folder)")
    parser.add_argument("--edition", default="2020", help="rules edition: 2020 or 2002 (default: 2020)")
    parser.add_argument("--seed", type=int, default=0, help="ladder seed (default: 0)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    parser.add_argument("--report", action="store_true",
                        help="play nothing: rank the games the logs already hold")
    parser.add_argument("--out", metavar="FILE",
                        help="also write the ladder to FILE (JSON; other editions already in it are kept)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    output.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    from huntgather.cli import CommandError
    from huntgather.commands.tournament import markdown_table
    from huntgather.lab.ladder import Ladder, ladder_pairs, read_ladder, run_ladder
    from huntgather.lab.tournament import GameResult

    specs = list(dict.fromkeys(s.strip() for s in args.bots.split(",") if s.strip()))
    directory = args.dir or f"ladder-{args.edition}"
    ladder: Ladder
    try:
        if args.report:
            ladder = read_ladder(directory, args.edition, args.seed, specs)
        else:
            total = len(ladder_pairs(specs)) * 2 * max(0, args.rounds)
            done = _games_held(directory, specs, args.rounds)
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeRemainingColumn(), console=Console(stderr=True),
                          transient=args.json or args.markdown) as bar:
                task = bar.add_task("ladder games", total=total, completed=done)

                def advance(game: GameResult) -> None:
                    bar.advance(task)
                    bar.update(task, description=f"ladder games ({' v '.join(game.bots)} done)")

                ladder = run_ladder(specs, args.rounds, directory, args.edition, args.seed, args.workers,
                                    progress=advance)
    except KeyboardInterrupt:
        print(f"interrupted; the logs in {directory} keep every finished game: run the same command "
              "again to go on", file=sys.stderr)
        return 130
    except ValueError as error:
        raise CommandError(str(error)) from None
    except OSError as error:
        raise CommandError(f"cannot use the ladder folder {directory}: {error.strerror or error}",
                           1) from None
    if args.out:
        _write(args.out, ladder)
    if args.json:
        sys.stdout.write(json.dumps({"edition": ladder.edition, **ladder.as_dict()}) + "\n")
        return 0
    title = (f"ladder, edition {ladder.edition}: {ladder.games} two-player games, seed {ladder.seed}, "
             f"{len(ladder.pairs)} pairs")
    header = ["bot", "Elo", "95% interval", "games", "wins", "CPU s / move"]
    rows = [[r.bot, f"{r.elo:.0f}", f"{r.elo_low:.0f}–{r.elo_high:.0f}", str(r.games), str(r.wins),
             "—" if r.seconds_per_move is None else f"{r.seconds_per_move:.3f}"] for r in ladder.rows]
    if args.markdown:
        sys.stdout.write("\n".join([f"**{title}**", "", *markdown_table(header, rows, left=1)]) + "\n")
        return 0
    table = Table(title=title)
    for k, column in enumerate(header):
        table.add_column(column, justify="left" if k == 0 else "right")
    for cells in rows:
        table.add_row(*cells)
    Console().print(table)
    return 0


def _games_held(directory: str, specs: list[str], rounds: int) -> int:
    """How many of the games a run of ``rounds`` would play the logs hold already (for the bar)."""
    from huntgather.lab.ladder import ladder_pairs, pair_file
    from huntgather.lab.tournament_log import read_log
    held = 0
    for a, b in ladder_pairs(specs):
        path = pair_file(directory, a, b)
        if os.path.exists(path) and os.path.getsize(path) > 0:
            with contextlib.suppress(ValueError, OSError):   # run_ladder reports it
                held += sum(1 for g in read_log(path)[1] if g.deal < rounds)
    return held


def _write(path: str, ladder: Any) -> None:
    from huntgather.bots.ladder import ladder_levels
    from huntgather.cli import CommandError
    from huntgather.lab.ladder import ladder_file
    base: dict[str, Any] | None = None
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as f:
                base = json.load(f)
            assert base is not None
            ladder_levels(base)
        except (ValueError, OSError) as error:
            raise CommandError(f"{path} exists and is not a ladder file ({error}); "
                               "choose another --out") from None
    content = ladder_file({ladder.edition: ladder}, base=base)
    tmp = f"{path}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(content, f, indent=1)
            f.write("\n")
        os.replace(tmp, path)
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error.strerror or error}", 1) from None
