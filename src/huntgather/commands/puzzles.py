"""`huntgather puzzles mine`: mine puzzles from expert self-play (docs/learn.md, "Puzzles").

Plays games of the expert against itself at a small budget, screens each placement
by the playing search's own comparison of its finalists, verifies each candidate with a deeper
search and appends every puzzle kept to OUTPUT, one JSON object a line
(:mod:`huntgather.bots.puzzles`).  Resumable: what was verified and which games are finished is
appended to ``OUTPUT.progress``; run the same command again and it goes on where it stopped.
A run of another ``--seed`` may append to the same file (the shipped files hold two runs:
docs/learn.md); ``--count`` counts every puzzle of the file.
With ``--players 3`` or ``4`` the games have that many seats (a run of its own: ``--seed``
and ``--players`` name it).  Progress goes to stderr.  ``huntgather puzzles grade FILE`` works
out every puzzle's difficulty again and rewrites FILE; ``huntgather puzzles check FILE``
checks that every puzzle's position and turns are legal.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "puzzles", help="mine and check the puzzles (positions whose best turn stands out)",
        description="Puzzles: positions of expert games whose best turn is clearly better than "
                    "every other, verified by a deeper search (docs/learn.md).")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    mine = actions.add_parser(
        "mine", help="play expert games and keep the positions whose best turn stands out",
        description="Play expert self-play games (of --players seats), screen each placement cheaply, "
                    "verify the candidates with a deeper search and append the puzzles kept to "
                    "OUTPUT (JSON lines).  Resumable: OUTPUT.progress records what is done.")
    mine.add_argument("output", help="the puzzles file (JSON lines), appended to")
    mine.add_argument("--edition", choices=("2020", "2002"), default="2020",
                      help="the edition of the games (default: 2020)")
    mine.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                      help="the seats of the self-play games (default: 2); a run of each number of "
                           "players is its own run: --seed and --players name it")
    mine.add_argument("--count", type=int, default=100,
                      help="stop once the file holds this many puzzles (default: 100)")
    mine.add_argument("--seed", type=int, default=1,
                      help="the run's seed (default: 1); runs of other seeds may append to the same "
                           "file: --count counts all its puzzles")
    mine.add_argument("--play-simulations", type=int, default=None,
                      help="the self-play expert's budget per decision (default: 12)")
    mine.add_argument("--verify-simulations", type=int, default=None,
                      help="the verifying search's budget (default: 100)")
    mine.add_argument("--samples", type=int, default=None,
                      help="paired samples that value the verified candidates (default: 48)")
    mine.add_argument("--quiet", action="store_true", help="no progress on stderr")
    mine.set_defaults(run=run_mine)
    grade = actions.add_parser(
        "grade", help="grade every puzzle of a file again (easy, medium, hard)",
        description="Work out again the numbers each puzzle of FILE is graded from (the turn that "
                    "scores the most at once, the greedy turn, shallow searches, the gap) and its "
                    "difficulty, and rewrite FILE with them (docs/learn.md, \"Difficulty\").")
    grade.add_argument("file", help="a puzzles file (JSON lines), rewritten in place")
    grade.add_argument("--quiet", action="store_true", help="no progress on stderr")
    grade.set_defaults(run=run_grade)
    check = actions.add_parser("check", help="check that every puzzle of a file is legal",
                               description="Load every puzzle of FILE and check its position, "
                                           "its best, accepted and runner-up turns.")
    check.add_argument("file", help="a puzzles file (JSON lines)")
    check.set_defaults(run=run_check)


def _budget(value: int | None, default: int, name: str, most: int) -> int:
    from huntgather.cli import CommandError
    value = default if value is None else value
    if not 1 <= value <= most:
        raise CommandError(f"{name} must be from 1 to {most}, not {value}")
    return value


def _append(f: TextIO, entry: dict[str, Any]) -> None:
    f.write(json.dumps(entry, separators=(",", ":"), sort_keys=True) + "\n")
    f.flush()
    os.fsync(f.fileno())


def run_mine(args: argparse.Namespace) -> int:
    from huntgather.bots import puzzles
    from huntgather.cli import CommandError
    from huntgather.puzzles import PuzzleError, read_puzzles

    play = _budget(args.play_simulations, puzzles.PLAY_SIMULATIONS, "--play-simulations", 10_000)
    deep = _budget(args.verify_simulations, puzzles.VERIFY_SIMULATIONS, "--verify-simulations", 100_000)
    samples = _budget(args.samples, puzzles.VERIFY_SAMPLES, "--samples", 10_000)
    count = _budget(args.count, 100, "--count", 100_000)
    if not 0 <= args.seed < 2**31:
        raise CommandError(f"--seed must be from 0 to {2**31 - 1}, not {args.seed}")
    per_game: dict[int, int] = {}
    try:
        with open(args.output, encoding="utf-8") as f:
            for puzzle in read_puzzles(f.read()):
                if puzzle.edition != args.edition:
                    raise CommandError(f"{args.output} holds {puzzle.edition} puzzles, not "
                                       f"{args.edition}")
                # (the puzzles of other runs, under one key below 0: only their sum is read)
                ours = (puzzle.source.get("seed") == args.seed
                        and puzzle.source.get("players", 2) == args.players)
                game = int(puzzle.source.get("game", -1)) if ours else -1
                per_game[game] = per_game.get(game, 0) + 1
    except FileNotFoundError:
        pass
    except PuzzleError as err:
        raise CommandError(f"{args.output}: {err}") from None
    progress = args.output + ".progress"
    done, finished = puzzles.read_progress(progress, args.seed, args.players)

    def note(line: str) -> None:
        if not args.quiet:
            print(line, file=sys.stderr, flush=True)

    note(f"{args.edition}: {sum(per_game.values())} puzzles, {len(finished)} games finished, "
         f"{len(done)} candidates verified before")
    with open(args.output, "a", encoding="utf-8") as out, open(progress, "a", encoding="utf-8") as log:
        have = puzzles.mine(args.edition, args.seed, count, done, finished, per_game,
                            lambda entry: _append(log, entry), lambda entry: _append(out, entry),
                            note, play, deep, samples, players=args.players)
    note(f"{args.edition}: {have} puzzles in {args.output}")
    return 0


def run_grade(args: argparse.Namespace) -> int:
    from huntgather.bots import puzzles
    from huntgather.cli import CommandError, read_text
    from huntgather.puzzles import PuzzleError, check_puzzle, moves_of, read_puzzles

    text = read_text(args.file)
    try:
        found = read_puzzles(text)
    except PuzzleError as err:
        raise CommandError(f"{args.file}: {err}") from None
    entries = [json.loads(line) for line in text.splitlines() if line.strip()]
    counts = dict.fromkeys(puzzles.DIFFICULTIES, 0)
    for puzzle, entry in zip(found, entries, strict=True):
        try:
            state = check_puzzle(puzzle)
        except PuzzleError as err:
            raise CommandError(f"{args.file}: {err}") from None
        accepted = tuple(tuple(moves_of(plan)) for plan in puzzle.accepted)
        numbers = puzzles.grading(state, accepted, puzzle.margin_best - puzzle.margin_runner_up)
        entry["grading"], entry["difficulty"] = numbers, puzzles.grade(numbers)
        counts[entry["difficulty"]] += 1
        if not args.quiet:
            print(f"{puzzle.number}: {entry['difficulty']} {numbers}", file=sys.stderr, flush=True)
    work = args.file + ".grading"
    with open(work, "w", encoding="utf-8") as f:
        for entry in entries:
            f.write(json.dumps(entry, separators=(",", ":"), sort_keys=True) + "\n")
    os.replace(work, args.file)
    print(f"{len(found)} puzzles graded: " + ", ".join(f"{n} {d}" for d, n in counts.items()))
    return 0


def run_check(args: argparse.Namespace) -> int:
    from huntgather.cli import CommandError, read_text
    from huntgather.puzzles import PuzzleError, check_puzzle, read_puzzles

    try:
        found = read_puzzles(read_text(args.file))
        for puzzle in found:
            check_puzzle(puzzle)
    except PuzzleError as err:
        raise CommandError(f"{args.file}: {err}") from None
    print(f"{len(found)} puzzles, all legal")
    return 0
