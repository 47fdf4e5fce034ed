"""`huntgather tournament`: bots play mirrored deals; a results table with Elo ratings.

Example::

    huntgather tournament --bots mcts:hard,greedy,random --games 60 --players 2 --seed 1 --workers 2

With ``--json`` the result is one JSON object on standard output (the progress
bar goes to standard error).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from huntgather.lab.tournament import TournamentResult


def register(sub: Any) -> None:
    from huntgather.bots.registry import spec_names
    parser: argparse.ArgumentParser = sub.add_parser(
        "tournament", help="let bots play each other over mirrored deals and rank them",
        description="Bots play deals with the same draw order from every seat (seats rotated), "
                    "so that luck cancels; prints wins, mean score and margin, and Elo ratings.")
    parser.add_argument("--bots", default="greedy,random",
                        help=f"comma-separated bot specs: {', '.join(spec_names())}, mcts:N "
                             "(default: greedy,random)")
    parser.add_argument("--games", type=int, default=20,
                        help="number of games, rounded up to whole deals (default: 20)")
    parser.add_argument("--players", type=int, default=2, help="players per game (default: 2)")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default: 0)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    parser.add_argument("--edition", default="2020", help="rules edition: 2020 or 2002 (default: 2020)")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="play the games on a Ray cluster instead of local processes: 'auto' (the "
                             "cluster of this machine), HOST:PORT, ray://HOST:10001, or 'local' (a private "
                             "instance); needs huntgather[rl]. The results are the same as locally")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    output.add_argument("--markdown", action="store_true",
                        help="print the tables as Markdown (for docs) instead of drawing them")
    parser.add_argument("--log", metavar="FILE",
                        help="append each finished game to FILE (JSON lines) and skip the games it "
                             "already holds: an interrupted run resumes, a finished one can be extended")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from huntgather.cli import CommandError
    from huntgather.lab.tournament import GameResult, check_settings, run_tournament

    err = Console(stderr=True)
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    players = args.players
    try:   # before a log is opened for a tournament that cannot be played
        edition = check_settings(specs, args.games, players, args.edition, args.workers)
    except ValueError as error:
        raise CommandError(str(error)) from None
    deals = -(-args.games // players) if players > 0 else 0
    total = deals * players
    log = None
    done: list[GameResult] = []
    if args.log:
        from huntgather.lab.tournament_log import TournamentLog
        try:
            log = TournamentLog.open(args.log, edition=edition.name, players=players,
                                     seed=args.seed, bots=specs)
        except ValueError as error:
            raise CommandError(str(error)) from None
        except OSError as error:
            raise CommandError(f"cannot use the log {args.log}: {error.strerror}", 1) from None
        done = log.games
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=err, transient=args.json or args.markdown) as bar:
            already = sum(1 for g in done if g.deal < deals)
            task = bar.add_task("games", total=total, completed=already)

            def advance(game: GameResult) -> None:
                if log is not None:
                    log.add(game)
                bar.advance(task)

            executor = ray_executor(args.ray)
            try:
                result = run_tournament(specs, args.games, players, args.seed, args.edition, args.workers,
                                        progress=advance, done=done, executor=executor)
            except ValueError as error:
                raise CommandError(str(error)) from None
            finally:
                if executor is not None:
                    executor.shutdown()
    except KeyboardInterrupt:
        if log is None:
            raise
        held = len(log.games) + log.added
        print(f"interrupted; {args.log} holds {held} finished game{'' if held == 1 else 's'}: "
              "run the same command again to go on", file=sys.stderr)
        return 130
    finally:
        if log is not None:
            log.close()
    return show_result(result, as_json=args.json, markdown=args.markdown)


def show_result(result: TournamentResult, *, as_json: bool = False, markdown: bool = False) -> int:
    """Print a tournament's tables (the bots with their Elo, head to head) on standard output: drawn,
    as Markdown, or as one JSON object; return 0.  ``huntgather arena`` prints its own with it."""
    from rich.console import Console
    from rich.table import Table

    if as_json:
        sys.stdout.write(json.dumps(result.as_dict()) + "\n")
        return 0
    players = result.players
    title = f"{len(result.games)} games, {players} players, edition {result.edition}, seed {result.seed}"
    bot_header = ["bot", "games", "wins", "win %", "mean score", "mean margin", "Elo", "95% interval"]
    bot_rows = [[row.bot, str(row.games), str(row.wins), f"{100 * row.win_rate:.1f}",
                 f"{row.mean_score:.1f}", signed(row.mean_margin), f"{row.elo:.0f}",
                 f"{row.elo_low:.0f}–{row.elo_high:.0f}"] for row in result.rows]
    pair_title = "head to head (the bot outscored the opponent in the same game)"
    pair_header = ["bot", "opponent", "meetings", "won", "drawn", "lost", "win %", "95% interval"]
    pair_rows = []
    for pair in result.pairs:
        low, high = pair.interval()
        pair_rows.append([pair.bot, pair.opponent, str(pair.meetings), str(pair.wins), str(pair.draws),
                          str(pair.losses), f"{100 * pair.win_rate:.1f}",
                          f"{100 * low:.1f}–{100 * high:.1f}"])
    if markdown:
        lines = [f"**{title}**", "", *markdown_table(bot_header, bot_rows, left=1)]
        if pair_rows:
            lines += ["", f"**{pair_title}**", "", *markdown_table(pair_header, pair_rows, left=2)]
        sys.stdout.write("\n".join(lines) + "\n")
        return 0
    out = Console()
    for name, header, rows, left in ((title, bot_header, bot_rows, 1),
                                     (pair_title, pair_header, pair_rows, 2)):
        if not rows:
            continue
        table = Table(title=name)
        for k, column in enumerate(header):
            table.add_column(column, justify="left" if k < left else "right")
        for cells in rows:
            table.add_row(*cells)
        out.print(table)
    return 0


def ray_executor(address: str | None) -> Any:
    """A :class:`~huntgather.rl.cluster.RayExecutor` for ``--ray ADDRESS`` (None without it)."""
    from huntgather.cli import CommandError
    if not address:
        return None
    try:
        from huntgather.rl.cluster import RayExecutor
        return RayExecutor(address)
    except ImportError:
        raise CommandError("--ray needs Ray: install huntgather[rl] (pip install 'huntgather[rl]')") from None
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise CommandError(f"cannot connect to the Ray cluster at {address}: {error}") from None


def markdown_table(header: list[str], rows: list[list[str]], left: int = 1) -> list[str]:
    """A GitHub Markdown table; the first ``left`` columns are left-aligned, the rest right.

    >>> print("\\n".join(markdown_table(["bot", "wins"], [["greedy", "3"]])))
    | bot | wins |
    |---|---:|
    | greedy | 3 |
    """
    align = ["---" if k < left else "---:" for k in range(len(header))]
    return [f"| {' | '.join(header)} |", f"|{'|'.join(align)}|",
            *(f"| {' | '.join(cells)} |" for cells in rows)]


def signed(value: float) -> str:
    """A number with its sign and one decimal, never "-0.0".

    >>> signed(12.34), signed(-0.04), signed(-3.0)
    ('+12.3', '+0.0', '-3.0')
    """
    rounded = round(value, 1) + 0.0   # adding 0.0 turns -0.0 into 0.0
    return f"{rounded:+.1f}"
