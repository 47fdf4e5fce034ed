"""Head to head with the deal as the unit: an interval that does not count meetings as independent.

A tournament's head-to-head table gives a Wilson interval that treats every meeting as
independent.  With 3 or more players they are not: one strong game of a seat wins all its
meetings, and a deal is played from every rotation of the seats, so the games of one deal share
their tiles.  This tool reads a tournament log (it plays nothing) and prints, for each pair of
bots, the share of meetings won (a draw one half), the Wilson interval, and a bootstrap interval
that resamples whole deals (percentile, 95 %), so that everything one deal's games hold moves
together.

    python tools/meeting_interval.py docs/results/expert-hard-4p.jsonl

``--games N`` reads the whole deals of the first N games of the log, as the tournament does with
``--games``.  The resampling is seeded, so a run prints the same.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from huntgather.bots.tournament import GameResult, head_to_head
from huntgather.bots.tournament_log import read_log


def clustered_interval(games: Sequence[GameResult], specs: Sequence[str], bot: str, opponent: str,
                       resamples: int = 4000, seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """A percentile bootstrap interval of ``bot``'s share of meetings won against ``opponent``
    (a draw one half; ``specs``: the tournament's bots, in the order :func:`head_to_head` pairs
    them), resampling whole deals.

    >>> g = [GameResult(d, 0, ("a", "b"), (2, 1) if d % 2 else (1, 2)) for d in range(40)]
    >>> low, high = clustered_interval(g, ["a", "b"], "a", "b")
    >>> low < 0.5 < high
    True
    """
    by_deal: dict[int, list[GameResult]] = {}
    for g in games:
        by_deal.setdefault(g.deal, []).append(g)
    deals = [(r.wins + 0.5 * r.draws, float(r.meetings))
             for deal in by_deal.values() for r in head_to_head(specs, deal)
             if (r.bot, r.opponent) == (bot, opponent)]
    if not deals:
        return 0.0, 1.0
    rng = random.Random(seed)
    shares = []
    for _ in range(resamples):
        won = met = 0.0
        for _ in range(len(deals)):
            w, m = deals[rng.randrange(len(deals))]
            won += w
            met += m
        shares.append(won / met)
    shares.sort()
    tail = (1.0 - level) / 2.0
    return shares[int(tail * resamples)], shares[min(resamples - 1, int((1.0 - tail) * resamples))]


def first_games(games: Sequence[GameResult], players: int, count: int) -> list[GameResult]:
    """The games of the first ``count`` games' deals, as the tournament reads ``--games``: whole
    deals (each from all its rotations), in deal order.

    >>> g = [GameResult(1, 0, ("a", "b"), (1, 2)), GameResult(0, 1, ("b", "a"), (1, 2)),
    ...      GameResult(0, 0, ("a", "b"), (1, 2))]
    >>> [(x.deal, x.rotation) for x in first_games(g, 2, 2)]
    [(0, 0), (0, 1)]
    """
    deals = -(-count // players)   # (whole deals, rounding up, as run_tournament plays them)
    return sorted((g for g in games if g.deal < deals), key=lambda g: (g.deal, g.rotation))


def report(specs: Sequence[str], games: Sequence[GameResult], resamples: int) -> list[str]:
    deals = len({g.deal for g in games})
    out = [f"{len(games)} games, {deals} deals"]
    for r in head_to_head(specs, games):
        low, high = r.interval()
        c_low, c_high = clustered_interval(games, specs, r.bot, r.opponent, resamples)
        out.append(f"{r.bot} vs {r.opponent}: {r.wins}-{r.draws}-{r.losses} of {r.meetings} meetings, "
                   f"{100 * r.win_rate:.1f} %; Wilson {100 * low:.1f}-{100 * high:.1f} %; "
                   f"deals resampled {100 * c_low:.1f}-{100 * c_high:.1f} %")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", help="a tournament log (huntgather tournament --log)")
    parser.add_argument("--games", type=int, default=None, help="read only the first N games")
    parser.add_argument("--resamples", type=int, default=4000, help="bootstrap resamples (default 4000)")
    args = parser.parse_args(argv)
    if args.resamples < 100:
        parser.error("--resamples must be at least 100")
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    try:
        header, games = read_log(args.log)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.games is not None:
        games = first_games(games, int(header["players"]), args.games)
    if not games:
        print("error: the log holds no games", file=sys.stderr)
        return 2
    print("\n".join(report(header["bots"], games, args.resamples)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
