"""``huntgather show FILE``: a game record turn by turn, explained, then the final table."""

from __future__ import annotations

import argparse
from typing import Any

from huntgather.cli import read_text
from huntgather.editions import edition_names
from huntgather.events import FeatureScored, FinalScoring, player_name
from huntgather.game import Game
from huntgather.record import parse_record, turns
from huntgather.scoring import plural

#: columns of the score table: (title, event kinds that feed it); every other kind of
#: scoring (a special's at once: logboat, hunting trap ...) goes in "actions"
COLUMNS = (("rivers", ("river",)), ("forests", ("forest",)), ("actions", ()),
           ("huts", ("huts",)), ("hunters", ("hunters",)))


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "show", help="print a game record turn by turn with explanations",
        description="Replay a game record and print every turn's moves and what they did, "
                    "with the scoring explained, then the score table.")
    parser.add_argument("file", metavar="FILE", help="the record (.hgr), or - for standard input")
    parser.add_argument("--edition", "-e", choices=edition_names(),
                        help="require the record to be of this edition")
    parser.set_defaults(run=run)


def score_table(game: Game) -> list[str]:
    """Lines of a table: each seat's points by source, total, and the winners.

    >>> from huntgather.game import random_game
    >>> lines = score_table(random_game(2, seed=2))
    >>> lines[0].split()
    ['seat', 'colour', 'rivers', 'forests', 'actions', 'huts', 'hunters', 'total']
    """
    players = game.players
    start = list(game.initial.scores)
    sums = {title: [0] * players for title, _ in COLUMNS}
    kinds = {kind: title for title, ks in COLUMNS for kind in ks}
    for event in game.events:
        if isinstance(event, FeatureScored):
            parts = [(event.kind, event.points)]
        elif isinstance(event, FinalScoring):
            parts = [(row.kind, row.points) for row in event.rows]
        else:
            continue
        for kind, points in parts:
            column = sums[kinds.get(kind, "actions")]
            for i, p in enumerate(points):
                column[i] += p
    titles = ["seat", "colour"] + (["start"] if any(start) else []) + [t for t, _ in COLUMNS] + ["total"]
    widths = [max(4, len(t)) for t in titles]
    lines = ["  ".join(t.rjust(w) if i != 1 else t.ljust(w) for i, (t, w) in enumerate(
        zip(titles, widths, strict=True)))]
    winners = set(game.winners()) if game.is_over else set()
    for seat in range(players):
        cells = [str(seat), player_name(seat)] + ([str(start[seat])] if any(start) else [])
        cells += [str(sums[t][seat]) for t, _ in COLUMNS] + [str(game.scores[seat])]
        row = "  ".join(c.rjust(w) if i != 1 else c.ljust(w) for i, (c, w) in enumerate(
            zip(cells, widths, strict=True)))
        lines.append(row + ("  winner" if seat in winners else ""))
    return lines


def run(args: argparse.Namespace) -> int:
    text = read_text(args.file)
    record = parse_record(text, edition=args.edition)
    game = record.replay()
    initial = game.initial
    name = "standard input" if args.file == "-" else args.file
    print(f"{name}: {initial.edition.title}, {initial.players} players"
          + (f", seed {record.seed}" if record.seed is not None else ""))
    if record.has_position:
        print(f"start position: {plural(len(initial.board.cells), 'tile')} on the board, "
              f"{plural(len(initial.board.pieces()), 'piece')}, "
              f"{plural(len(initial.normal), 'normal tile')} left, "
              f"{player_name(initial.player)} to play")
    number = initial.turn
    for player, moves, events in turns(initial, game.history):
        number += 1
        print()
        print(f"turn {number} ({player_name(player)}): {' '.join(map(str, moves))}")
        for event in events:
            for line in event.describe().splitlines():
                print(f"  {line}")
    print()
    if game.is_over:
        print("final table:")
    else:
        print(f"table so far (game in progress: {game.state.describe_decision()}):")
    for line in score_table(game):
        print(f"  {line}")
    return 0
