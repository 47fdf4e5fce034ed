"""``huntgather replay FILE``: check a game record and print its result.

The record is parsed and every move replayed under the rules; a malformed or
illegal record stops with exit code 2 and ``line N: ...`` on stderr.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from huntgather.cli import read_text
from huntgather.editions import edition_names
from huntgather.events import player_name
from huntgather.game import Game
from huntgather.record import parse_record


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "replay", help="check a game record and print its final scores",
        description="Parse a game record, replay every move under the rules and print the scores. "
                    "Exit code 2 (with 'line N: ...' on stderr) if the record is malformed or a "
                    "move is illegal.")
    parser.add_argument("file", metavar="FILE", help="the record (.hgr), or - for standard input")
    parser.add_argument("--edition", "-e", choices=edition_names(),
                        help="require the record to be of this edition")
    parser.add_argument("--json", action="store_true",
                        help='print {"scores": [...], "winners": [...], ...} as one JSON object')
    parser.set_defaults(run=run)


def result_of(game: Game) -> dict[str, Any]:
    """The facts ``replay --json`` prints (winners is empty while the game is not over).

    >>> from huntgather.game import random_game
    >>> sorted(result_of(random_game(2, seed=1)))
    ['edition', 'moves', 'over', 'players', 'scores', 'seed', 'turns', 'winners']
    """
    state = game.state
    return {
        "edition": state.edition.name,
        "players": state.players,
        "seed": game.seed,
        "moves": len(game.history),
        "turns": state.turn + 1,
        "over": state.is_over,
        "scores": list(state.scores),
        "winners": list(state.winners()) if state.is_over else [],
    }


def run(args: argparse.Namespace) -> int:
    text = read_text(args.file)
    record = parse_record(text, edition=args.edition)
    game = record.replay()
    facts = result_of(game)
    if args.json:
        print(json.dumps(facts))
        return 0
    name = "standard input" if args.file == "-" else args.file
    print(f"{name}: valid {facts['edition']} record, {facts['players']} players, "
          f"{facts['moves']} moves")
    scores = ", ".join(f"{player_name(i)} {s}" for i, s in enumerate(facts["scores"]))
    if game.is_over:
        winners = facts["winners"]
        names = " and ".join(player_name(w) for w in winners)
        verb = "share the win" if len(winners) > 1 else "wins"
        print(f"final scores: {scores}")
        print(f"{names} {verb}")
    else:
        print(f"scores so far: {scores}")
        print(f"game in progress: {game.state.describe_decision()}")
    return 0
