"""``huntgather train-eval``: fit the expert's learned evaluation on self-play games (needs huntgather[rl]).

Example (the shipped ``data/eval-linear.json`` was made so)::

    huntgather train-eval --games 300 --out src/huntgather/data/eval-linear.json --workers 2

Bots play ``--games`` games per edition and number of players; a linear model
of each seat's final score (:mod:`huntgather.bots.learned`) is fitted on the
first 80% of the games and its error on the other 20% printed beside the
heuristic estimate's error on the same positions.  The same arguments give
the same file.

>>> from huntgather.cli import build_parser
>>> args = build_parser().parse_args(["train-eval", "--games", "5", "--out", "m.json", "--players", "2,3"])
>>> args.games, args.players, args.edition
(5, '2,3', '2020')
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "train-eval", help="fit the expert bot's learned evaluation on self-play games (huntgather[rl])",
        description="Bots play games; a linear model of each seat's final score is fitted by least "
                    "squares and written as JSON, with its held-out error beside the heuristic's. "
                    "Needs the rl extra: pip install 'huntgather[rl]'.")
    parser.add_argument("--games", type=int, default=300,
                        help="games per edition and number of players (default: 300)")
    parser.add_argument("--out", required=True, metavar="FILE", help="the weights file to write")
    parser.add_argument("--players", default="2,3,4,5", help="numbers of players (default: 2,3,4,5)")
    parser.add_argument("--edition", default="2020", help="comma-separated editions (default: 2020)")
    parser.add_argument("--bots", default="greedy", help="comma-separated bot specs (default: greedy)")
    parser.add_argument("--explore", type=float, default=0.1,
                        help="chance of a random move instead of the bot's (default: 0.1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default: 0)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from huntgather.cli import CommandError
    from huntgather.editions import edition_names

    try:
        from huntgather.rl.train_eval import train
    except ImportError:
        raise CommandError("train-eval needs NumPy: install huntgather[rl] "
                           "(pip install 'huntgather[rl]')") from None
    if args.games < 2:
        raise CommandError(f"--games must be at least 2 (some are held out), not {args.games}")
    if args.workers < 1:
        raise CommandError(f"--workers must be at least 1, not {args.workers}")
    if not 0.0 <= args.explore <= 1.0:
        raise CommandError(f"--explore must be between 0 and 1, not {args.explore}")
    try:
        counts = [int(p) for p in args.players.split(",") if p.strip()]
    except ValueError:
        raise CommandError(f"--players must be numbers such as 2,3,4, not {args.players!r}") from None
    if not counts or any(not 2 <= p <= 5 for p in counts):
        raise CommandError(f"--players must be between 2 and 5, not {args.players!r}")
    editions = [e.strip() for e in args.edition.split(",") if e.strip()]
    for e in editions:
        if e not in edition_names():
            raise CommandError(f"unknown edition {e!r}; expected one of {', '.join(edition_names())}")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    from huntgather.bots import make_bot
    try:
        for b in bots:
            make_bot(b, seed=0)
    except ValueError as error:
        raise CommandError(str(error)) from None

    def note(key: str, row: dict[str, Any]) -> None:
        print(f"{key}: {row['positions']} positions; held-out RMSE of the final score: "
              f"learned {row['rmse_learned']:.2f}, heuristic {row['rmse_heuristic']:.2f} "
              f"({row['test_positions']} positions of {row['games'] - row['train_games']} games)",
              file=sys.stderr, flush=True)

    weights: dict[str, list[float]] = {}
    report: dict[str, Any] = {}
    for edition in editions:
        model, rows = train(edition, counts, args.games, args.seed, workers=args.workers,
                            explore=args.explore, bots=bots, progress=note)
        weights.update({k: list(v) for k, v in model.weights.items()})
        report.update(rows)
    from huntgather.bots.learned import LinearEval
    model = LinearEval(weights, f"linear-{args.seed}-{args.games}")
    meta = {"command": f"huntgather train-eval --games {args.games} --players {args.players} "
                       f"--edition {args.edition} --bots {args.bots} --explore {args.explore} "
                       f"--seed {args.seed}", "held_out": report}
    try:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(model.to_json(meta), fh, indent=1)
            fh.write("\n")
    except OSError as error:
        raise CommandError(f"cannot write {args.out}: {error.strerror or error}", 1) from None
    print(f"wrote {args.out}", file=sys.stderr)
    return 0
