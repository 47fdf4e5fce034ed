"""`huntgather arena`: outside bots and huntgather's own play mirrored deals on a running server.

Example::

    huntgather play --no-browser --port 8765 &
    huntgather arena --server http://127.0.0.1:8765 \\
        --bot "mine=python examples/remote_bot.py --bot greedy" --bot easy --games 20 --log arena.jsonl

Each ``--bot`` is ``NAME=COMMAND`` (an outside bot: the arena runs
``COMMAND --server=URL --game=ID --token=TOKEN`` for every game it plays), ``server:LEVEL`` (a
bot seat of the server) or a bot spec of ``huntgather tournament`` (played in this process
through the client).  The tables are the
tournament's (:func:`huntgather.commands.tournament.show_result`), the log its log.  Needs the
``web`` extra.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "arena", help="let outside bots and huntgather's bots play mirrored deals on a running server",
        description="Bots play a tournament's mirrored deals (the same draw order from every seat, "
                    "seats rotated) as games on a running huntgather server; outside bots play "
                    "through the public protocol with a bot token. Prints the tournament's tables.")
    parser.add_argument("--server", required=True, help="the server's address, such as http://127.0.0.1:8765")
    parser.add_argument("--bot", action="append", required=True, metavar="SPEC", dest="bots",
                        help="a bot (give two or more): NAME=COMMAND for an outside bot (run as COMMAND "
                             "--server=URL --game=ID --token=TOKEN for each game), server:LEVEL for a "
                             "bot seat of the server, or a bot spec of `huntgather tournament` (played "
                             "in this process)")
    parser.add_argument("--games", type=int, default=20,
                        help="number of games, rounded up to whole deals (default: 20)")
    parser.add_argument("--players", type=int, default=2, help="players per game (default: 2)")
    parser.add_argument("--seed", type=int, default=0,
                        help="tournament seed (it picks the deals; default: 0)")
    parser.add_argument("--edition", default="2020", help="rules edition: 2020 or 2002 (default: 2020)")
    parser.add_argument("--short", type=int, metavar="N",
                        help="short games: the first N tiles of each deal's normal stack")
    parser.add_argument("--game-timeout", type=float, default=600.0, metavar="SECONDS",
                        help="give up when a game is not over after this long (default: 600)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    output.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    parser.add_argument("--log", metavar="FILE",
                        help="append each finished game to FILE (a tournament log) and skip the games "
                             "it already holds: an interrupted arena resumes")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from huntgather.cli import CommandError
    from huntgather.commands.tournament import show_result
    from huntgather.lab.tournament import GameResult
    try:
        from huntgather.client import ApiError
        from huntgather.client.arena import ArenaError, parse_entrant, run_arena
    except ImportError:
        raise CommandError("the arena needs the web extra: pip install 'huntgather[web]'") from None

    try:
        entrants = [parse_entrant(spec) for spec in args.bots]
    except ValueError as error:
        raise CommandError(str(error)) from None
    names = [e.name for e in entrants]
    log = None
    done: list[GameResult] = []
    if args.log:
        from huntgather.lab.tournament_log import TournamentLog
        try:
            log = TournamentLog.open(args.log, edition=args.edition, players=args.players, seed=args.seed,
                                     bots=names)
        except ValueError as error:
            raise CommandError(str(error)) from None
        except OSError as error:
            raise CommandError(f"cannot use the log {args.log}: {error.strerror}", 1) from None
        done = log.games

    def progress(game: GameResult, game_id: str) -> None:
        if log is not None:
            log.add(game)
        scores = ", ".join(f"{bot} {score}" for bot, score in zip(game.bots, game.scores, strict=True))
        print(f"deal {game.deal} rotation {game.rotation} (game {game_id}): {scores}", file=sys.stderr,
              flush=True)

    try:
        result = asyncio.run(run_arena(args.server, entrants, args.games, args.players, args.seed,
                                       args.edition, args.short, args.game_timeout, done, progress))
    except ValueError as error:
        raise CommandError(str(error)) from None
    except (ArenaError, ApiError, OSError) as error:
        held = "" if log is None else f" ({args.log} holds the games finished; run again to go on)"
        raise CommandError(f"{error}{held}", 1) from None
    except KeyboardInterrupt:
        if log is None:
            raise
        print(f"interrupted; {args.log} holds the games finished: run the same command again to go on",
              file=sys.stderr)
        return 130
    finally:
        if log is not None:
            log.close()
    return show_result(result, as_json=args.json, markdown=args.markdown)
