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

``--paired OTHER`` compares the log with another of the same deals, seats and seeds in which one
bot was changed (a trial's log beside its level's): over the games both hold (the same deal and
rotation), each pair's share in the two logs, and per game the difference in meetings won and in
the mean margin per meeting, with one standard error of the paired differences:

    python tools/meeting_interval.py docs/results/expert-hard-4p.v4.jsonl \
        --paired docs/results/expert-hard-4p.jsonl
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence

from huntgather.lab.tournament import GameResult, head_to_head
from huntgather.lab.tournament_log import read_log


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


def game_meetings(game: GameResult, specs: Sequence[str], bot: str,
                  opponent: str) -> tuple[float, float, int]:
    """``bot``'s meetings won against ``opponent`` in one game (a draw one half), its mean margin
    per meeting, and how many meetings there were.

    >>> game_meetings(GameResult(0, 0, ("a", "b", "a"), (10, 7, 5)), ["a", "b"], "a", "b")
    (1.0, 0.5, 2)
    """
    rows = [r for r in head_to_head(specs, [game]) if (r.bot, r.opponent) == (bot, opponent)]
    margins = [game.scores[i] - game.scores[j] for i, b in enumerate(game.bots) if b == bot
               for j, o in enumerate(game.bots) if o == opponent]
    if not rows or not margins:
        return 0.0, 0.0, 0
    return rows[0].wins + 0.5 * rows[0].draws, sum(margins) / len(margins), len(margins)


def mean_se(xs: Sequence[float]) -> tuple[float, float]:
    """The mean and its standard error (nan for a single value).

    >>> mean_se([0.0, 1.0, 1.0])
    (0.6666666666666666, 0.3333333333333333)
    """
    se = statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("nan")
    return statistics.fmean(xs), se


def paired(specs: Sequence[str], games: Sequence[GameResult], others: Sequence[GameResult]) -> list[str]:
    """Each pair of bots in ``games`` against the same pair in ``others``, over the games both
    hold (by deal and rotation): the shares, and per game the differences in meetings won and in
    the margin per meeting (mean ± one standard error).

    >>> new = [GameResult(d, 0, ("a", "b"), (9, 1)) for d in range(3)]
    >>> old = [GameResult(d, 0, ("a", "b"), (1, 9) if d else (9, 1)) for d in range(4)]
    >>> print(paired(["a", "b"], new, old)[1])  # doctest: +NORMALIZE_WHITESPACE
    a vs b: 3.0 of 3 meetings (100.0 %) against 1.0 (33.3 %); per game +0.67 ± 0.33 meetings,
      margin per meeting +10.7 ± 5.3

    (By hand: per game 0, +1 and +1 meetings, margins 0, +16 and +16.)
    """
    twins = {(g.deal, g.rotation): g for g in others}
    common = [(g, twins[(g.deal, g.rotation)]) for g in games if (g.deal, g.rotation) in twins]
    out = [f"{len(common)} games in both logs"]
    if not common:
        return out
    for row in head_to_head(specs, [g for g, _ in common]):
        new = [game_meetings(g, specs, row.bot, row.opponent) for g, _ in common]
        old = [game_meetings(t, specs, row.bot, row.opponent) for _, t in common]
        met = sum(n for _, _, n in new)
        won_new, won_old = sum(w for w, _, _ in new), sum(w for w, _, _ in old)
        d_won = [a[0] - b[0] for a, b in zip(new, old, strict=True)]
        d_margin = [a[1] - b[1] for a, b in zip(new, old, strict=True)]
        (w, w_se), (m, m_se) = mean_se(d_won), mean_se(d_margin)
        out.append(f"{row.bot} vs {row.opponent}: {won_new:.1f} of {met} meetings "
                   f"({100 * won_new / met:.1f} %) against {won_old:.1f} ({100 * won_old / met:.1f} %); "
                   f"per game {w:+.2f} ± {w_se:.2f} "
                   f"meetings, margin per meeting {m:+.1f} ± {m_se:.1f}")
    return out


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
    parser.add_argument("--paired", metavar="OTHER", default=None,
                        help="another log of the same deals, seats and seeds: compare game by game")
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
    if args.paired is not None:
        try:
            other_header, others = read_log(args.paired)
        except (OSError, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        if any(other_header[k] != header[k] for k in ("edition", "players", "seed")):
            print("error: the two logs are not of the same edition, players and seed", file=sys.stderr)
            return 2
        print("\n".join(paired(header["bots"], games, others)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
