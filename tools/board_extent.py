"""How far do games reach from the start tile?  (The measurement behind the RL action window.)

Plays complete games and writes one JSON line per game to ``--out``: the
edition, players, bot, seed, the bounding box of the placed tiles
(``min_x max_x min_y max_y``; the start tile is at (0, 0)) and the number of
tiles placed.  The legal placements of a game lie on the box grown by one cell
on every side, so a window of ``W`` cells centred on the start tile holds every
legal placement of a game whose Chebyshev radius ``max(|x|, |y|)`` is at most
``(W - 3) / 2``.

The plan of games is fixed: game ``k`` of the random part uses edition
``2020`` or ``2002`` (alternately), ``2 + (k // 2) % 4`` players and seed ``k``;
the bot part does the same with greedy bots.  The run resumes: games already in
``--out`` are skipped, so an interrupted run goes on where it stopped.

    python tools/board_extent.py --random 100000 --greedy 2000 --out extent.jsonl
    python tools/board_extent.py --summary extent.jsonl      # the distribution, as Markdown

Only the public API is used: the placements are read from the ``Place`` moves
of ``Game.history``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from huntgather.game import Game
from huntgather.moves import Place

EDITIONS = ("2020", "2002")


def plan(kind: str, count: int) -> list[tuple[str, int, str, int]]:
    """``(edition, players, bot, seed)`` for the games of one part of the run."""
    return [(EDITIONS[k % 2], 2 + (k // 2) % 4, kind, k) for k in range(count)]


def play(edition: str, players: int, bot: str, seed: int) -> dict[str, object]:
    """One game and its extent."""
    game = Game(players, edition=edition, seed=seed)
    state = game.state
    if bot == "random":
        rng = random.Random(f"extent-{seed}")
        while not state.is_over:
            moves = state.legal_moves()
            game.play(moves[rng.randrange(len(moves))], trusted=True)
    else:
        from huntgather.bots import make_bot
        bots = [make_bot(bot, seed=seed * 8 + k) for k in range(players)]
        while not state.is_over:
            game.play(bots[state.player].choose(state), trusted=True)
    xs = [0] + [m.x for m in game.history if isinstance(m, Place)]
    ys = [0] + [m.y for m in game.history if isinstance(m, Place)]
    return {"edition": edition, "players": players, "bot": bot, "seed": seed, "min_x": min(xs),
            "max_x": max(xs), "min_y": min(ys), "max_y": max(ys), "tiles": len(xs)}


def done_keys(path: Path) -> set[tuple[str, int, str, int]]:
    keys: set[tuple[str, int, str, int]] = set()
    if path.exists():
        with path.open(encoding="utf-8") as f:
            for line in f:
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:  # a line cut short by an interruption
                    continue
                keys.add((row["edition"], row["players"], row["bot"], row["seed"]))
    return keys


def run(out: Path, random_games: int, greedy_games: int) -> None:
    todo_all = plan("random", random_games) + plan("greedy", greedy_games)
    done = done_keys(out)
    todo = [g for g in todo_all if g not in done]
    with out.open("a", encoding="utf-8") as f, Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TimeRemainingColumn()) as bar:
        task = bar.add_task("games", total=len(todo_all), completed=len(todo_all) - len(todo))
        for game in todo:
            f.write(json.dumps(play(*game)) + "\n")
            f.flush()
            bar.advance(task)


def summary(path: Path) -> str:
    """The distribution of the Chebyshev radius and of the box size, as Markdown tables."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    radius = Counter(max(-r["min_x"], r["max_x"], -r["min_y"], r["max_y"]) for r in rows)
    side = Counter(max(r["max_x"] - r["min_x"], r["max_y"] - r["min_y"]) + 1 for r in rows)
    by_bot = Counter(r["bot"] for r in rows)
    lines = [f"{len(rows)} games ({', '.join(f'{n} {b}' for b, n in sorted(by_bot.items()))})", "",
             "| radius max(\\|x\\|, \\|y\\|) | games | share | cumulative |", "|---:|---:|---:|---:|"]
    total, acc = len(rows), 0
    for r in sorted(radius):
        acc += radius[r]
        lines.append(f"| {r} | {radius[r]} | {100 * radius[r] / total:.3f} % | {100 * acc / total:.3f} % |")
    lines += ["", "| box side max(width, height) | games | share | cumulative |", "|---:|---:|---:|---:|"]
    acc = 0
    for s in sorted(side):
        acc += side[s]
        lines.append(f"| {s} | {side[s]} | {100 * side[s] / total:.3f} % | {100 * acc / total:.3f} % |")
    for bot in sorted(by_bot):
        worst = max(max(-r["min_x"], r["max_x"], -r["min_y"], r["max_y"]) for r in rows if r["bot"] == bot)
        lines.append(f"\nlargest radius with {bot} bots: {worst}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("extent.jsonl"))
    parser.add_argument("--random", type=int, default=100_000, help="random games (default 100000)")
    parser.add_argument("--greedy", type=int, default=2_000, help="games of greedy bots (default 2000)")
    parser.add_argument("--summary", type=Path, help="print the distribution of a finished run")
    args = parser.parse_args(argv)
    if args.summary:
        print(summary(args.summary))
        return 0
    run(args.out, args.random, args.greedy)
    return 0


if __name__ == "__main__":
    sys.exit(main())
