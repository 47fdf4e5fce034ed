"""``huntgather tune-eval``: fit the expert's weights by play (greedy duels).

Example (how the shipped ``data/eval-weights.json`` was made is recorded in
the file, for each edition and number of players)::

    huntgather tune-eval --players 2 --deals 200 --seed 1000 --rounds 1 --workers 2 \\
        --start '{"meadow_early": -0.7, "meeple_back": 1.0}' --out src/huntgather/data/eval-weights.json

Each duel is greedy with the candidate weights against greedy with the
heuristic's own numbers, on ``--deals`` deals played once from each seat
(:func:`huntgather.lab.tuning.duel`); rounds of coordinate search keep the
weights with the best mean margin, or with ``--objective meetings`` the best share of meetings
won (:func:`huntgather.lab.tuning.fit`).  The
result is added to ``--out`` (other editions and numbers of players already
in the file stay).  The same arguments give the same weights.

>>> from huntgather.cli import build_parser
>>> args = build_parser().parse_args(["tune-eval", "--out", "w.json", "--deals", "5"])
>>> args.deals, args.players, args.edition, args.rounds
(5, 2, '2020', 1)
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from huntgather.bots.heuristic import Weights


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "tune-eval", help="fit the expert bot's weights by play (duels of greedy bots)",
        description="Greedy bots with candidate heuristic weights play greedy bots with the "
                    "heuristic's own numbers on the same deals; rounds of coordinate search keep "
                    "the weights with the best mean margin (or share of meetings won), written to a "
                    "weights file.")
    parser.add_argument("--out", required=True, metavar="FILE",
                        help="the weights file to write (its other entries are kept)")
    parser.add_argument("--players", type=int, default=2, help="number of players (default: 2)")
    parser.add_argument("--edition", default="2020", help="edition (default: 2020)")
    parser.add_argument("--deals", type=int, default=200,
                        help="deals per duel, each played from every seat (default: 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal (default: 0)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of coordinate search (default: 1)")
    parser.add_argument("--start", default="{}", metavar="JSON",
                        help="weights to start from, as a JSON object of field names to numbers "
                             "(default: the heuristic's own numbers)")
    parser.add_argument("--fields", default="", metavar="NAMES",
                        help="comma-separated fields to move (default: all)")
    parser.add_argument("--objective", choices=["margin", "meetings"], default="margin",
                        help="what the search keeps: the best mean margin over the best other seat, "
                             "or the best share of meetings won (each other seat outscored); the "
                             "same with two players but for draws (default: margin)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from huntgather.bots.tuned import FIELDS, key, read_entries, weights_document, weights_from
    from huntgather.cli import CommandError, read_text
    from huntgather.editions import edition_names
    from huntgather.lab.tuning import Objective, Trial, fit

    if args.edition not in edition_names():
        raise CommandError(f"unknown edition {args.edition!r}; expected one of {', '.join(edition_names())}")
    if not 2 <= args.players <= 5:
        raise CommandError(f"--players must be between 2 and 5, not {args.players}")
    if not 1 <= args.deals <= 100_000:
        raise CommandError(f"--deals must be between 1 and 100000, not {args.deals}")
    if not 0 <= args.rounds <= 20:
        raise CommandError(f"--rounds must be between 0 and 20, not {args.rounds}")
    if not 1 <= args.workers <= 256:
        raise CommandError(f"--workers must be between 1 and 256, not {args.workers}")
    names = [n.strip() for n in args.fields.split(",") if n.strip()] or list(FIELDS)
    for name in names:
        if name not in FIELDS:
            raise CommandError(f"unknown field {name!r} in --fields; expected some of {', '.join(FIELDS)}")
    try:
        start_values = json.loads(args.start)
        if not isinstance(start_values, dict):
            raise ValueError("--start must be a JSON object, such as {\"meeple\": 3}")
        start = weights_from(start_values)
    except json.JSONDecodeError as error:
        raise CommandError(f"--start is not JSON: {error.msg}") from None
    except ValueError as error:
        raise CommandError(f"--start: {error}") from None
    table: dict[str, tuple[Weights, dict[str, Any]]] = {}
    if os.path.exists(args.out):   # (else a new file)
        try:
            table = read_entries(read_text(args.out))
        except ValueError as error:
            raise CommandError(f"{args.out}: {error}; not overwritten") from None

    err = Console(stderr=True, soft_wrap=True)
    trials = 1 + args.rounds * (2 * len(names) + 1)
    err.print(f"tune-eval: {args.edition}, {args.players} players, {args.deals} deals per duel, "
              f"at most {trials} duels")
    done: list[Trial] = []

    def show(trial: Trial) -> None:
        done.append(trial)
        moved = trial.field or ("start" if trial.round == 0 else "combined")
        value = f" = {getattr(trial.weights, trial.field):g}" if trial.field else ""
        err.print(f"[{len(done)}] round {trial.round}, {moved}{value}: {trial.result}")

    best = fit(start, args.players, args.edition, args.deals, args.seed, args.rounds, args.workers, names,
               progress=show, objective=Objective(args.objective))
    # (the command that gives these weights, whatever the file and the workers)
    command = (f"huntgather tune-eval --players {args.players} --edition {args.edition} --deals {args.deals} "
               f"--seed {args.seed} --rounds {args.rounds} --start {shlex.quote(json.dumps(start_values))}"
               + (f" --fields {','.join(names)}" if args.fields else "")
               + (f" --objective {args.objective}" if args.objective != "margin" else ""))
    meta = {"command": command, "against": "greedy with the heuristic's own numbers",
            "deals": args.deals, "seed": args.seed, "margin": round(best.result.margin, 3),
            "stderr": round(best.result.stderr, 3),
            "meetings": [best.result.won, best.result.drawn, best.result.lost], "duels": len(done),
            "objective": args.objective}
    table[key(args.edition, args.players)] = (best.weights, meta)
    doc = weights_document(table)
    try:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(doc, out, indent=1)
            out.write("\n")
    except OSError as error:
        raise CommandError(f"cannot write {args.out}: {error.strerror}", 1) from None
    print(f"best: {json.dumps(asdict(best.weights))}")
    print(f"      {best.result}")
    print(f"written to {args.out} as {key(args.edition, args.players)}")
    return 0
