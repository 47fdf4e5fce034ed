"""Variants of the expert's search compared on the same deals (docs/results/NOTES.md, "Four
players: more samples on fewer plans").

``play``: each variant sits in one seat against ``--opponent`` in all the others, on deals
0, 1, 2, ... of ``--seed``, from every seat in turn; for each (deal, seat) every variant plays
its game before the next, so at any time all variants have played the same games.  One log per
variant, ``DIR/NAME.jsonl``, one line a game; a run stopped and started again goes on from the
logs (one run per directory at a time).  A variant is ``NAME`` or ``NAME=KEY:VALUE,...`` with
keys ``sims`` (simulations, 150), ``width`` (12), ``turns`` (greedy turns after the plan, one per
player), and ``others:plain`` (the other seats' turns in a sample chosen by the heuristic's own
numbers, ``ExpertBot(others=DEFAULT)``); every variant is the expert level's search otherwise
(fitted weights, meetings).

``report``: per variant, over the (deal, seat) games all logs hold, the variant's share of its
meetings won, its mean margin over the mean of the other seats, the mean difference of that
margin from the first variant's on the same games with its standard error, and CPU seconds per
decision.

    python tools/expert_variants.py play --players 4 --seed 700 --deals 40 --dir DIR \\
        base w8=width:8 t3s200=turns:3,sims:200 s180=sims:180
    python tools/expert_variants.py report --dir DIR base w8 t3s200 s180
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path

from huntgather.bots import Limits, make_bot
from huntgather.bots.expert import ExpertBot
from huntgather.bots.heuristic import DEFAULT
from huntgather.bots.tuned import weights_for
from huntgather.lab.tournament import play_deal

KEYS = ("sims", "width", "turns", "others")


def parse_variant(text: str) -> tuple[str, dict[str, int]]:
    """``"w8=width:8,sims:180"`` -> ``("w8", {"width": 8, "sims": 180})``."""
    name, _, rest = text.partition("=")
    settings: dict[str, int] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition(":")
        if key == "others" and value == "plain":
            settings[key] = 1   # (the only model offered: the heuristic's own numbers)
            continue
        if key not in KEYS or key == "others" or not value.isdigit() or int(value) < 1:
            raise SystemExit(f"bad setting {item!r} in {text!r}: expected sims, width or turns "
                             "with a positive whole number, as width:8, or others:plain")
        settings[key] = int(value)
    if not name.isidentifier():
        raise SystemExit(f"bad variant name {name!r}: letters, digits and _")
    return name, settings


def variant_bot(name: str, settings: dict[str, int], seed: int) -> ExpertBot:
    """The expert level's search with some settings changed (the name seeds its draws)."""
    return ExpertBot(Limits(simulations=settings.get("sims", 150)), seed, name=name,
                     width=settings.get("width", 12), turns=settings.get("turns"),
                     weights=weights_for, meetings=True,
                     others=DEFAULT if settings.get("others") else None)


def play(variants: list[tuple[str, dict[str, int]]], opponent: str, players: int, seed: int,
         deals: int, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    done: dict[str, set[tuple[int, int]]] = {}
    for name, _ in variants:
        log = folder / f"{name}.jsonl"
        done[name] = set()
        if log.exists():
            for line in log.read_text().splitlines():
                row = json.loads(line)
                done[name].add((row["deal"], row["seat"]))
    total = deals * players * len(variants)
    count = sum(1 for d in done.values() for deal, _ in d if deal < deals)
    for deal in range(deals):
        for seat in range(players):
            for name, settings in variants:
                if (deal, seat) in done[name]:
                    continue
                base = seed * 7919 + deal * 104_729
                bots = [variant_bot(name, settings, base) if k == seat
                        else make_bot(opponent, seed=(base + k) % 2**32) for k in range(players)]
                scores, seconds, decisions = play_deal(bots, "2020", seed, deal)
                row = {"deal": deal, "seat": seat, "scores": scores, "cpu": round(seconds[seat], 3),
                       "dec": decisions[seat]}
                with (folder / f"{name}.jsonl").open("a") as f:
                    f.write(json.dumps(row) + "\n")
                count += 1
                print(f"[{count}/{total}] deal {deal} seat {seat} {name}: {row['scores']}", flush=True)


def report(names: list[str], folder: Path) -> None:
    games: dict[str, dict[tuple[int, int], tuple[float, int, float, float]]] = {}
    for name in names:
        rows: dict[tuple[int, int], tuple[float, int, float, float]] = {}
        for line in (folder / f"{name}.jsonl").read_text().splitlines():
            row = json.loads(line)
            seat, scores = row["seat"], row["scores"]
            others = [s for j, s in enumerate(scores) if j != seat]
            won = sum(scores[seat] > s for s in others) + sum(scores[seat] == s for s in others) / 2
            margin = scores[seat] - sum(others) / len(others)
            rows[(row["deal"], seat)] = (won, len(others), margin, row["cpu"] / max(1, row["dec"]))
        games[name] = rows
    common = sorted(set.intersection(*(set(g) for g in games.values())))
    if not common:
        raise SystemExit("no game that every log holds")
    first = games[names[0]]
    print(f"{len(common)} games that every log holds")
    for name in names:
        g = games[name]
        share = sum(g[k][0] for k in common) / sum(g[k][1] for k in common)
        margin = sum(g[k][2] for k in common) / len(common)
        cpu = sum(g[k][3] for k in common) / len(common)
        diffs = [g[k][2] - first[k][2] for k in common]
        mean = statistics.fmean(diffs)
        sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
        wins = sum(g[k][0] - first[k][0] for k in common)
        print(f"{name:10s} meetings won {share:6.1%}  margin {margin:+6.2f}  vs {names[0]}: margin "
              f"{mean:+5.2f} ± {sd / math.sqrt(len(diffs)):.2f}, meetings {wins:+.1f}  "
              f"CPU s/decision {cpu:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("play", "report"))
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=700)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--opponent", default="greedy")
    args = parser.parse_args()
    variants = [parse_variant(v) for v in args.variants]
    if args.what == "play":
        play(variants, args.opponent, args.players, args.seed, args.deals, args.dir)
    else:
        report([name for name, _ in variants], args.dir)


if __name__ == "__main__":
    main()
