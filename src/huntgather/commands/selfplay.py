"""``huntgather selfplay``: bot games written as training data (needs huntgather[rl]).

Example::

    huntgather selfplay --bots greedy,random --games 1000 --out data/ --workers 2
    huntgather selfplay --bots greedy --games 100000 --out data/ --ray auto

Each chunk of games is one compressed NumPy file (see :mod:`huntgather.rl.selfplay`);
an interrupted run keeps its finished chunks and resumes.
"""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "selfplay", help="let bots play and write observations, actions and outcomes (huntgather[rl])",
        description="Bots play games; every decision is written with the mover's observation, the "
                    "action mask, the action and the game's outcome, one compressed NumPy file per "
                    "chunk of games. Needs the rl extra: pip install 'huntgather[rl]'.")
    parser.add_argument("--bots", default="greedy,random",
                        help="comma-separated bot specs, seated in turn (default: greedy,random)")
    parser.add_argument("--games", type=int, default=100, help="number of games (default: 100)")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for the chunk files")
    parser.add_argument("--players", type=int, default=2, help="players per game (default: 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default: 0)")
    parser.add_argument("--edition", default="2020", help="rules edition: 2020 or 2002 (default: 2020)")
    parser.add_argument("--chunk", type=int, default=50, help="games per file (default: 50)")
    parser.add_argument("--window", type=int, default=33, help="board window in cells (default: 33)")
    parser.add_argument("--workers", type=int, default=1, help="local worker processes (default: 1)")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="run the chunks on a Ray cluster: 'auto', HOST:PORT, ray://HOST:10001 or "
                             "'local'; the files are the same as locally")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from huntgather.cli import CommandError
    from huntgather.commands.tournament import ray_executor

    try:
        from huntgather.rl.selfplay import run_selfplay
    except ImportError:
        raise CommandError("selfplay needs NumPy: install huntgather[rl] "
                           "(pip install 'huntgather[rl]')") from None
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    if not specs:
        raise CommandError("--bots names no bot")
    if args.chunk < 1 or args.games < 1:
        raise CommandError("--games and --chunk must be at least 1")
    if args.workers < 1:
        raise CommandError(f"--workers must be at least 1, not {args.workers}")
    chunks = -(-args.games // args.chunk)
    executor = ray_executor(args.ray)
    err = Console(stderr=True)
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=err) as bar:
            task = bar.add_task("chunks", total=chunks)
            paths = run_selfplay(specs, args.games, args.out, players=args.players, seed=args.seed,
                                 edition=args.edition, chunk=args.chunk, window=args.window,
                                 workers=args.workers, executor=executor,
                                 progress=lambda _: bar.advance(task))
    except ValueError as error:
        raise CommandError(str(error)) from None
    except OSError as error:
        raise CommandError(f"cannot write to {args.out}: {error.strerror or error}", 1) from None
    finally:
        if executor is not None:
            executor.shutdown()
    err.print(f"{args.games} games in {len(paths)} files under {args.out}")
    return 0
