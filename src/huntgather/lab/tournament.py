"""Tournaments between bots: mirrored deals, rotated seats, Elo ratings.

A tournament is a series of *deals*.  A deal fixes the draw order of both
stacks (shuffled from the tournament seed) and a line-up of bots; it is
played once per seat rotation, so that every bot of the line-up plays the
same tiles from every seat and the luck of the draw cancels out.  The number
of games is rounded up to a whole number of deals.

The line-up of deal ``d`` with ``P`` players takes the bots in turn starting
at bot ``d mod B`` (``B`` bots), so with more bots than seats every bot meets
every other one, and with fewer bots some play several seats.

Elo ratings come from all pairwise results between different bots in each
game (higher score wins, equal scores draw), fitted by maximum likelihood
(Bradley–Terry) with a weak prior of one draw between each pair, centred on
1500; the 95 % interval is a bootstrap over deals.

>>> result = run_tournament(["greedy", "random"], games=2, players=2, seed=1)
>>> [row.bot for row in result.rows], [row.games for row in result.rows]
(['greedy', 'random'], [2, 2])
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, TypeVar

from huntgather.bots.base import Bot
from huntgather.deals import deal_orders
from huntgather.editions import DEFAULT_EDITION, Edition, get_edition
from huntgather.game import Game


@dataclass(frozen=True)
class GameResult:
    """One finished game: the deal, the seat rotation, the bot spec and score of each seat."""

    deal: int
    rotation: int
    bots: tuple[str, ...]
    scores: tuple[int, ...]
    #: per seat: CPU seconds its bot spent choosing, and how many decisions it made (empty when
    #: not measured, as in logs written before they were kept); not part of a game's identity
    seconds: tuple[float, ...] = field(default=(), compare=False, repr=False)
    decisions: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def winners(self) -> tuple[int, ...]:
        best = max(self.scores)
        return tuple(i for i, s in enumerate(self.scores) if s == best)


@dataclass
class BotRow:
    """The results of one bot spec over a tournament."""

    bot: str
    games: int = 0
    wins: int = 0
    total_score: int = 0
    total_margin: int = 0
    elo: float = 1500.0
    elo_low: float = 1500.0
    elo_high: float = 1500.0

    @property
    def mean_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0

    @property
    def mean_margin(self) -> float:
        """Mean of (own score − best other seat's score)."""
        return self.total_margin / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"bot": self.bot, "games": self.games, "wins": self.wins,
                "win_rate": round(self.win_rate, 4), "mean_score": round(self.mean_score, 2),
                "mean_margin": round(self.mean_margin, 2), "elo": round(self.elo, 1),
                "elo_low": round(self.elo_low, 1), "elo_high": round(self.elo_high, 1)}


@dataclass(frozen=True)
class PairRow:
    """Head to head: how often ``bot`` outscored ``opponent`` when both sat in the same game.

    Every game counts once for each pair of seats the two bots held, so in a
    3-player game of ``(a, b, a)`` bot ``a`` meets ``b`` twice.
    """

    bot: str
    opponent: str
    wins: int
    draws: int
    losses: int

    @property
    def meetings(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        """Wins (a draw counts one half) per meeting."""
        return (self.wins + 0.5 * self.draws) / self.meetings if self.meetings else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The Wilson score interval of :attr:`win_rate` (95 % by default).

        It treats the meetings as independent, which they are with 2 players;
        with more seats the meetings of one game are not, and the interval is
        too narrow.

        >>> low, high = PairRow("a", "b", 56, 0, 12).interval()
        >>> round(low, 3), round(high, 3)
        (0.716, 0.896)
        """
        n = self.meetings
        if n == 0:
            return 0.0, 1.0
        p = self.win_rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def as_dict(self) -> dict[str, Any]:
        low, high = self.interval()
        return {"bot": self.bot, "opponent": self.opponent, "meetings": self.meetings,
                "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "win_rate": round(self.win_rate, 4), "win_rate_low": round(low, 4),
                "win_rate_high": round(high, 4)}


def head_to_head(specs: Sequence[str], games: Sequence[GameResult]) -> list[PairRow]:
    """One row per pair of different bots (in ``specs`` order) that met.

    >>> g = [GameResult(0, 0, ("a", "b", "a"), (10, 7, 5)), GameResult(0, 1, ("a", "a", "b"), (3, 4, 4))]
    >>> [(r.bot, r.opponent, r.wins, r.draws, r.losses) for r in head_to_head(["a", "b"], g)]
    [('a', 'b', 1, 1, 2)]
    """
    tally: dict[tuple[str, str], list[int]] = {}
    order = {s: i for i, s in enumerate(specs)}
    for g in games:
        for i, bi in enumerate(g.bots):
            for j, bj in enumerate(g.bots):
                if bi == bj or order[bi] > order[bj]:
                    continue
                counts = tally.setdefault((bi, bj), [0, 0, 0])
                diff = g.scores[i] - g.scores[j]
                counts[0 if diff > 0 else 1 if diff == 0 else 2] += 1
    return [PairRow(a, b, *tally[(a, b)]) for a in specs for b in specs if (a, b) in tally]


@dataclass
class TournamentResult:
    """Every game and the per-bot table."""

    edition: str
    players: int
    seed: int
    games: list[GameResult] = field(default_factory=list)
    rows: list[BotRow] = field(default_factory=list)
    pairs: list[PairRow] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The JSON object printed by ``huntgather tournament --json``."""
        return {"edition": self.edition, "players": self.players, "seed": self.seed,
                "games": len(self.games), "bots": [row.as_dict() for row in self.rows],
                "pairs": [pair.as_dict() for pair in self.pairs],
                "results": [{"deal": g.deal, "rotation": g.rotation, "bots": list(g.bots),
                             "scores": list(g.scores)} for g in self.games]}


def line_up(specs: Sequence[str], players: int, deal: int) -> list[str]:
    """The bots of a deal, seat by seat, before rotation.

    >>> line_up(["a", "b", "c"], 2, 0), line_up(["a", "b", "c"], 2, 1)
    (['a', 'b'], ['b', 'c'])
    """
    return [specs[(deal + k) % len(specs)] for k in range(players)]


_S = TypeVar("_S")


def seating(lineup: Sequence[_S], rotation: int) -> list[_S]:
    """The bots of a deal's game seat by seat: its line-up turned ``rotation`` seats.

    >>> seating(["a", "b", "c"], 0), seating(["a", "b", "c"], 1)
    (['a', 'b', 'c'], ['c', 'a', 'b'])
    """
    players = len(lineup)
    return [lineup[(k - rotation) % players] for k in range(players)]


def bot_seed(seed: int, deal: int, index: int) -> int:
    """The seed of bot ``index`` of a deal's line-up: it depends on the deal and on which bot of the
    line-up it is, not on its seat (so every rotation of a deal plays the same bots)."""
    return (seed * 7919 + deal * 104_729 + index) % 2**32


def play_deal(bots: Sequence[Bot], edition: str, seed: int,
              deal: int) -> tuple[list[int], list[float], list[int]]:
    """Play deal ``deal`` of ``seed`` with ``bots`` seat by seat: the final scores, and each seat's
    CPU seconds (``time.process_time``) and number of decisions."""
    players = len(bots)
    normal, bonus = deal_orders(edition, seed, deal)
    game = Game(players, edition=edition, seed=seed * 1_000_003 + deal, normal_order=normal,
                bonus_order=bonus)
    state = game.state
    seconds = [0.0] * players
    decisions = [0] * players
    clock = time.process_time
    while not state.is_over:
        player = state.player
        start = clock()
        move = bots[player].choose(state)
        seconds[player] += clock() - start
        decisions[player] += 1
        game.play(move)
    return list(game.scores), seconds, decisions


def play_game(specs: Sequence[str], edition: str, seed: int, deal: int, rotation: int) -> GameResult:
    """Play one game of a deal with the line-up turned ``rotation`` seats."""
    from huntgather.bots import make_bot
    players = len(specs)
    seats = seating(specs, rotation)
    bots = [make_bot(seats[k], seed=bot_seed(seed, deal, (k - rotation) % players)) for k in range(players)]
    scores, seconds, decisions = play_deal(bots, edition, seed, deal)
    return GameResult(deal, rotation, tuple(seats), tuple(scores),
                      tuple(round(s, 4) for s in seconds), tuple(decisions))


def _play_job(job: tuple[tuple[str, ...], str, int, int, int]) -> GameResult:
    specs, edition, seed, deal, rotation = job
    return play_game(specs, edition, seed, deal, rotation)


def check_settings(specs: Sequence[str], games: int, players: int, edition: str | Edition,
                   workers: int) -> Edition:
    """The edition of a tournament with these settings; ``ValueError`` saying what is wrong.

    >>> check_settings(["greedy"], games=2, players=7, edition="2020", workers=1)
    Traceback (most recent call last):
    ...
    ValueError: the 2020 edition is for 2-5 players, not 7
    """
    from huntgather.bots import make_bot
    if not specs:
        raise ValueError("a tournament needs at least one bot")
    for spec in specs:
        make_bot(spec, seed=0)
    ed = get_edition(edition)
    if not ed.min_players <= players <= ed.max_players:
        raise ValueError(f"the {ed.name} edition is for {ed.min_players}-{ed.max_players} players, "
                         f"not {players}")
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, not {games}")
    if workers < 1:
        raise ValueError(f"the number of workers must be at least 1, not {workers}")
    return ed


_J = TypeVar("_J")
_R = TypeVar("_R")


def run_jobs(fn: Callable[[_J], _R], jobs: Sequence[_J], workers: int,
             executor: Executor | Any = None) -> Iterator[_R]:
    """``fn(job)`` for every job, as each finishes: in this process when ``workers`` is 1 and no
    ``executor`` is given, else on ``executor`` (e.g. a Ray cluster's) or a pool of ``workers``
    processes.  If the caller stops early or a job fails, the jobs still waiting are not started.

    >>> list(run_jobs(abs, [-1, 2], workers=1))
    [1, 2]
    """
    if executor is None and workers == 1:
        for job in jobs:
            yield fn(job)
        return
    if not jobs:
        return
    pool = executor if executor is not None else ProcessPoolExecutor(max_workers=workers)
    try:
        for future in as_completed([pool.submit(fn, job) for job in jobs]):
            yield future.result()
    except BaseException:
        # interrupted (or a job failed): do not start the jobs still waiting
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    if executor is None:
        pool.shutdown()


def run_tournament(specs: Sequence[str], games: int, players: int = 2, seed: int = 0,
                   edition: str = DEFAULT_EDITION, workers: int = 1,
                   progress: Callable[[GameResult], None] | None = None,
                   done: Sequence[GameResult] = (), executor: Any = None) -> TournamentResult:
    """Play at least ``games`` games (whole deals) and rank the bots.

    ``progress`` is called with each game as it ends (in the order they end
    when ``workers > 1``); the result lists the games by deal and rotation.
    ``done`` holds games already played by this same tournament (read from a
    :class:`~huntgather.lab.tournament_log.TournamentLog`): they are not
    played again, and count in the result when they belong to its deals.

    ``executor`` runs the games instead of local processes: anything with
    the ``submit``/``shutdown`` of ``concurrent.futures`` executors, such as
    :class:`huntgather.rl.cluster.RayExecutor`; the result is the same.

    Raises ``ValueError`` for an unknown bot, edition or bad numbers, or a
    ``done`` game that this tournament would not have played, before any
    game is played.

    >>> first = run_tournament(["greedy", "random"], games=2, seed=4)
    >>> more = run_tournament(["greedy", "random"], games=4, seed=4, done=first.games)
    >>> more.games[:2] == first.games, len(more.games)
    (True, 4)
    """
    ed = check_settings(specs, games, players, edition, workers)
    deals = math.ceil(games / players)
    finished = games_done(specs, players, done)
    jobs = [(tuple(line_up(specs, players, d)), ed.name, seed, d, r)
            for d in range(deals) for r in range(players) if (d, r) not in finished]
    played: list[GameResult] = [g for (d, _), g in finished.items() if d < deals]
    for game in run_jobs(_play_job, jobs, workers, executor):
        played.append(game)
        if progress:
            progress(game)
    return tournament_result(specs, ed.name, players, seed, played)


def games_done(specs: Sequence[str], players: int,
               done: Sequence[GameResult]) -> dict[tuple[int, int], GameResult]:
    """The games ``done`` by deal and rotation; ``ValueError`` for one that a tournament of ``specs``
    would not have played (another line-up, seat or rotation)."""
    finished: dict[tuple[int, int], GameResult] = {}
    for game in done:
        expected = tuple(seating(line_up(specs, players, game.deal), game.rotation))
        if game.deal < 0 or not 0 <= game.rotation < players or game.bots != expected:
            raise ValueError(f"game {game.deal}.{game.rotation} with bots {','.join(game.bots)} "
                             f"is not a game of this tournament (it seats {','.join(expected)} there)")
        finished[(game.deal, game.rotation)] = game
    return finished


def tournament_result(specs: Sequence[str], edition: str, players: int, seed: int,
                      games: Sequence[GameResult]) -> TournamentResult:
    """The tables of a tournament of ``specs`` that played ``games``: its games by deal and
    rotation, the bots ranked, and head to head."""
    result = TournamentResult(edition, players, seed)
    result.games = sorted(games, key=lambda g: (g.deal, g.rotation))
    unique = list(dict.fromkeys(specs))
    result.rows = rank(unique, result.games, seed)
    # pairs in rating order, so each row reads "the stronger bot against the weaker"
    result.pairs = head_to_head([row.bot for row in result.rows], result.games)
    return result


def rank(specs: Sequence[str], games: Sequence[GameResult], seed: int = 0,
         resamples: int = 200) -> list[BotRow]:
    """Per-bot rows (wins count shared wins), with Elo ratings and bootstrap intervals."""
    rows = {s: BotRow(s) for s in specs}
    for g in games:
        winners = g.winners()
        for seat, bot in enumerate(g.bots):
            row = rows[bot]
            row.games += 1
            row.wins += seat in winners
            row.total_score += g.scores[seat]
            row.total_margin += g.scores[seat] - max(s for k, s in enumerate(g.scores) if k != seat)
    elo = elo_ratings(specs, games)
    by_deal: dict[int, list[GameResult]] = {}
    for g in games:
        by_deal.setdefault(g.deal, []).append(g)
    deal_ids = sorted(by_deal)
    rng = random.Random(f"bootstrap|{seed}")
    samples: dict[str, list[float]] = {s: [] for s in specs}
    if len(specs) > 1 and len(deal_ids) > 1:
        for _ in range(resamples):
            picked = [g for _ in deal_ids for g in by_deal[deal_ids[rng.randrange(len(deal_ids))]]]
            for s, v in elo_ratings(specs, picked).items():
                samples[s].append(v)
    for s, row in rows.items():
        row.elo = elo[s]
        values = sorted(samples[s])
        if values:
            row.elo_low = values[int(0.025 * (len(values) - 1))]
            row.elo_high = values[math.ceil(0.975 * (len(values) - 1))]
        else:
            row.elo_low = row.elo_high = row.elo
    return sorted(rows.values(), key=lambda r: -r.elo)


def elo_ratings(specs: Sequence[str], games: Sequence[GameResult], iterations: int = 200) -> dict[str, float]:
    """Bradley–Terry ratings on the Elo scale (mean 1500) from pairwise results in each game.

    >>> g = [GameResult(0, 0, ("a", "b"), (10, 5))] * 3 + [GameResult(0, 1, ("b", "a"), (9, 4))]
    >>> r = elo_ratings(["a", "b"], g)
    >>> r["a"] > 1500 > r["b"], round(r["a"] + r["b"])
    (True, 3000)
    """
    index = {s: i for i, s in enumerate(specs)}
    n = len(specs)
    wins = [[0.0] * n for _ in range(n)]
    for a in range(n):
        for b in range(n):
            if a != b:
                wins[a][b] = 0.5  # prior: one draw between every pair
    for g in games:
        for i, bi in enumerate(g.bots):
            for j, bj in enumerate(g.bots):
                if j <= i or bi == bj:
                    continue
                a, b = index[bi], index[bj]
                if g.scores[i] > g.scores[j]:
                    wins[a][b] += 1.0
                elif g.scores[i] < g.scores[j]:
                    wins[b][a] += 1.0
                else:
                    wins[a][b] += 0.5
                    wins[b][a] += 0.5
    # the MM iteration (Hunter 2004); what does not change from one iteration to the next (each
    # bot's wins, each pair's meetings) computed once.  It stops early at a fixed point: once an
    # iteration gives back exactly the ratings it started from, so would every later one.
    totals = [sum(row) for row in wins]
    met = [[(b, wins[a][b] + wins[b][a]) for b in range(n) if b != a] for a in range(n)]
    gamma = [1.0] * n
    for _ in range(iterations):
        new = []
        for a in range(n):
            denom = sum(m / (gamma[a] + gamma[b]) for b, m in met[a])
            new.append(totals[a] / denom if denom else gamma[a])
        mean_log = sum(math.log(x) for x in new) / n
        new = [x / math.exp(mean_log) for x in new]
        if new == gamma:
            break
        gamma = new
    return {s: 1500.0 + 400.0 * math.log10(gamma[index[s]]) for s in specs}
