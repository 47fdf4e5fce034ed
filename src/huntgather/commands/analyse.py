"""`huntgather analyse RECORD --move K`: the search's view of one decision of a record.

``K`` counts *player decisions* (every move of the record that is not a draw:
placements, shaman take-backs, occupants and passes), from 1.  The record is
replayed up to just before the K-th of them, with the draws that come before
it; the bot then searches that position and shows its top moves with their
estimated values and visit counts, the final score of every seat that the
learned evaluation predicts after each (the move's most visited whole turn
played), and the move the record actually played.
Without ``--move`` the position after the last move is analysed.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "analyse", help="show the bot's view of a decision in a game record",
        description="Replay RECORD up to the K-th player decision (moves that are not draws, "
                    "counted from 1) and show the search's top moves with values and visits.")
    parser.add_argument("record", help="a record file (huntgather record format), or - for standard input")
    parser.add_argument("--move", type=int, default=None, metavar="K",
                        help="analyse the K-th player decision (default: the position after the last move)")
    parser.add_argument("--top", type=int, default=5, help="how many moves to show (default: 5)")
    parser.add_argument("--simulations", type=int, default=None,
                        help="search budget (default: the chosen bot's, 150 for both)")
    parser.add_argument("--seconds", type=float, default=None, help="time cap for the search")
    parser.add_argument("--bot", choices=("hard", "expert"), default="expert",
                        help="whose search: the expert's (sequential halving over its best turns) "
                             "or the hard level's tree search (default: expert)")
    parser.add_argument("--seed", type=int, default=0, help="the search's seed (default: 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from huntgather.bots import Limits
    from huntgather.bots.analysis import analyse_record
    from huntgather.record import RecordError

    try:
        if args.record == "-":
            text = sys.stdin.read()
        else:
            with open(args.record, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        print(f"huntgather analyse: cannot read {args.record}: {error.strerror}", file=sys.stderr)
        return 2
    try:
        if args.simulations is None and args.seconds is None:
            limits = None   # the bot's own budget
        else:
            limits = Limits(simulations=args.simulations, seconds=args.seconds)
        report = analyse_record(text, args.move, top=args.top, limits=limits, seed=args.seed, bot=args.bot)
    except (RecordError, ValueError) as error:
        print(f"huntgather analyse: {error}", file=sys.stderr)
        return 2
    if args.json:
        sys.stdout.write(json.dumps(report.as_dict()) + "\n")
        return 0
    print(report.describe())
    return 0
