"""``huntgather bench``: how fast the engine runs on this machine.

Prints complete random games per second, tile placements per second, the
median time to list a drawn tile's legal placements and to copy a mid-game
state, with the CPU model and Python version (see :mod:`huntgather.bench`).

>>> import contextlib, io, json
>>> from huntgather.cli import main
>>> out = io.StringIO()
>>> with contextlib.redirect_stdout(out):
...     code = main(["bench", "--json", "--seconds", "0.1", "--edition", "2002"])
>>> figures = json.loads(out.getvalue())
>>> code, figures["edition"], {"random_games_per_s", "placements_per_s", "legal_placements_us",
...                            "copy_us", "cpu", "python"} <= set(figures)
(0, '2002', True)
>>> main(["bench", "--seconds", "0"])
2

``--compare`` runs the bench twice, in fresh processes: on the pure-Python modules and on the
compiled ones (see ``docs/performance.md``), and prints both with the speed-up.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from huntgather.bench import compare, format_comparison, format_figures, run_bench
from huntgather.cli import CommandError
from huntgather.editions import DEFAULT_EDITION, edition_names


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "bench", help="measure the engine's speed on this machine",
        description="Play complete random 2-player games and time the engine's hot paths "
                    "(listing legal placements, copying a state) on one core. Rates are per "
                    "CPU second; other programs running at the same time still slow them down.")
    parser.add_argument("--edition", "-e", choices=edition_names(), default=DEFAULT_EDITION,
                        help=f"the edition to measure (default {DEFAULT_EDITION})")
    parser.add_argument("--seconds", "-s", type=float, default=5.0,
                        help="about how long to measure, in seconds (default 5)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the games played, so that two runs do the same work (default 0)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--compare", action="store_true",
                        help="run the bench on the pure-Python build and on the compiled one (if "
                             "installed), each in a fresh process, and print them side by side")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not args.seconds > 0:
        raise CommandError(f"--seconds must be positive, not {args.seconds}")
    if args.compare:
        result = compare(args.edition, args.seconds, args.seed)
        print(json.dumps(result) if args.json else format_comparison(result))
        return 0
    if args.json or not sys.stderr.isatty():
        figures = run_bench(args.edition, args.seconds, args.seed)
    else:
        figures = _with_progress(args)
    if args.json:
        print(json.dumps(figures))
    else:
        print(format_figures(figures))
    return 0


def _with_progress(args: argparse.Namespace) -> dict[str, Any]:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description:<22}"), BarColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("starting", total=1.0)

        def note(done: float, what: str) -> None:
            bar.update(task, completed=done, description=what)

        return run_bench(args.edition, args.seconds, args.seed, progress=note)
