"""`huntgather review RECORD`: the expert's post-game review of a game record.

Every turn of the record in which the player had a choice is searched by the expert; the
played turn and the best one are valued on the same draws; each turn gets the mover's win
chance after either, the loss and a label, each player an accuracy, and the game its turning
points (:mod:`huntgather.bots.review`, docs/review.md).  ``--json`` prints the same numbers as
one JSON object; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "review", help="the expert's review of every turn of a game record",
        description="Search every turn of RECORD with the expert and show, per turn, the played "
                    "and the best turn, the mover's win chance after each, the loss and a label "
                    "(inaccuracy, mistake, blunder); per player an accuracy; the turning points.")
    parser.add_argument("record", help="a record file (huntgather record format), or - for standard input")
    parser.add_argument("--level", choices=("expert",), default="expert",
                        help="whose search reviews the game (default: expert)")
    parser.add_argument("--simulations", type=int, default=None,
                        help="the search's budget per turn (default: 150, the expert's)")
    parser.add_argument("--samples", type=int, default=None,
                        help="paired samples that value the played and the best turn (default: 48)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from huntgather.bots.review import SAMPLES, SIMULATIONS, review_record
    from huntgather.cli import CommandError, read_text

    simulations = SIMULATIONS if args.simulations is None else args.simulations
    samples = SAMPLES if args.samples is None else args.samples
    if not 1 <= simulations <= 100_000:
        raise CommandError(f"--simulations must be from 1 to 100000, not {simulations}")
    if not 1 <= samples <= 10_000:
        raise CommandError(f"--samples must be from 1 to 10000, not {samples}")
    text = read_text(args.record)
    shown = not args.quiet and sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if shown:
            end = "\n" if done == total else ""
            print(f"\rreviewing: turn {done} of {total}", end=end, file=sys.stderr, flush=True)

    review = review_record(text, args.level, simulations=simulations, samples=samples,
                           progress=progress)
    if args.json:
        sys.stdout.write(json.dumps(review.as_dict()) + "\n")
    else:
        print(review.describe())
    return 0
