"""Fitting the expert's weights by play: greedy duels and rounds of coordinate search.

A regression of final scores on positions (:mod:`huntgather.bots.learned`)
predicts scores well and orders moves badly (docs/bots.md).  What a search
needs is that order, so the weights are fitted by what they win: a greedy
player that values its turns with candidate :class:`~huntgather.bots.heuristic.Weights`
plays greedy players with the heuristic's own numbers (:data:`~huntgather.bots.heuristic.DEFAULT`)
on the same deals, every deal once from each seat (:func:`duel`), and a
candidate is better if its mean margin over the best other seat is higher.
:func:`fit` makes rounds of such duels over one field at a time
(``huntgather tune-eval``).  The weights it finds are written to the weights file
that the expert reads (:mod:`huntgather.bots.tuned`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from huntgather.bots.greedy import GreedyBot
from huntgather.bots.heuristic import DEFAULT, Weights
from huntgather.bots.tuned import FIELDS
from huntgather.game import Game
from huntgather.lab.tournament import run_jobs

#: how far :func:`fit` moves each field in its first round (halved in each later round)
STEPS: Mapping[str, float] = {
    "meeple": 1.0, "hut": 1.0, "bonus_turn": 4.0, "horizon": 4.0, "completion": 3.0,
    "meadow_early": 0.2, "system_early": 0.3, "open_early": 0.3, "meeple_back": 0.5,
}


class Objective(enum.Enum):
    """What :func:`fit` maximises in its duels: the candidate's mean margin over the best other
    seat, or its share of meetings won (each other seat it outscores; what a tournament's head to
    head counts, and what the expert plays for with three or more players)."""

    MARGIN = "margin"
    MEETINGS = "meetings"


@dataclass(frozen=True)
class Duel:
    """What a candidate did in :func:`duel`: its mean margin over the best other seat (and the
    standard error of that mean), and its meetings with the other seats won, drawn and lost."""

    margin: float
    stderr: float
    won: int
    drawn: int
    lost: int
    games: int

    @property
    def share(self) -> float:
        """The share of its meetings the candidate won (a draw counts half)."""
        meetings = self.won + self.drawn + self.lost
        return (self.won + self.drawn / 2) / meetings if meetings else 0.0

    def score(self, objective: Objective) -> float:
        """The number :func:`fit` maximises under ``objective``.

        >>> d = Duel(margin=-2.0, stderr=1.0, won=6, drawn=2, lost=2, games=5)
        >>> d.score(Objective.MARGIN), d.score(Objective.MEETINGS)
        (-2.0, 0.7)
        """
        return self.margin if objective is Objective.MARGIN else self.share

    def __str__(self) -> str:
        return (f"margin {self.margin:+.2f} ± {self.stderr:.2f}, meetings "
                f"{self.won}-{self.drawn}-{self.lost} ({100 * self.share:.1f} %), {self.games} games")


_Job = tuple[Weights, Weights, int, str, int, int]


def _duel_game(job: _Job) -> tuple[int, int, int, int]:
    """One game of a duel: the candidate in seat ``rot``; its margin and meetings won, drawn, lost."""
    cand, base, players, edition, deal, rot = job
    game = Game(players=players, seed=deal, edition=edition)
    bots = [GreedyBot(seed=deal * 10 + seat, weights=cand if seat == rot else base)
            for seat in range(players)]
    while not game.is_over:
        state = game.state
        game.play(bots[state.player].choose(state), trusted=True)
    scores = game.scores
    mine = scores[rot]
    others = [s for seat, s in enumerate(scores) if seat != rot]
    return (mine - max(others), sum(mine > s for s in others), sum(mine == s for s in others),
            sum(mine < s for s in others))


def duel(cand: Weights, base: Weights = DEFAULT, players: int = 2, edition: str = "2020",
         deals: int = 200, seed: int = 0, workers: int = 1) -> Duel:
    """Greedy with ``cand`` against greedy with ``base`` in every other seat, on ``deals`` deals
    (game seeds ``seed`` … ``seed + deals - 1``), each played once with the candidate in each seat.

    >>> d = duel(DEFAULT, deals=1)     # the same numbers: the two games mirror each other
    >>> d.margin, d.games, d.won == d.lost
    (0.0, 2, True)
    """
    jobs: list[_Job] = [(cand, base, players, edition, seed + d, rot)
                        for d in range(deals) for rot in range(players)]
    rows = list(run_jobs(_duel_game, jobs, workers))
    margins = [r[0] for r in rows]
    n = len(margins)
    mean = sum(margins) / n
    var = sum((m - mean) ** 2 for m in margins) / (n - 1) if n > 1 else 0.0
    return Duel(mean, (var / n) ** 0.5, sum(r[1] for r in rows), sum(r[2] for r in rows),
                sum(r[3] for r in rows), n)


@dataclass(frozen=True)
class Trial:
    """One duel of :func:`fit`: the round, the field moved ('' for the start and a combination),
    the weights and how they did."""

    round: int
    field: str
    weights: Weights
    result: Duel


def fit(start: Weights = DEFAULT, players: int = 2, edition: str = "2020", deals: int = 200,
        seed: int = 0, rounds: int = 1, workers: int = 1, names: Sequence[str] = FIELDS,
        progress: Callable[[Trial], None] | None = None, objective: Objective = Objective.MARGIN) -> Trial:
    """Rounds of coordinate search from ``start``: the best weights found, with their duel (every
    duel on the same deals, against the heuristic's own numbers; ``progress`` sees each as it ends).

    In a round, each field of ``names`` is moved up and down by its step (:data:`STEPS`, halved
    each round) from the round's best weights, each move in a duel of its own; then every field
    whose better move beat the round's start is set to it, together, and that combination is
    played too.  The best of all of them starts the next round.  "Better" is by ``objective``: the
    mean margin over the best other seat, or the share of meetings won.  The same arguments give
    the same duels and the same weights.

    >>> fit(DEFAULT, deals=1, rounds=0).weights == DEFAULT
    True
    """
    def play(r: int, name: str, w: Weights) -> Trial:
        trial = Trial(r, name, w, duel(w, DEFAULT, players, edition, deals, seed, workers))
        if progress is not None:
            progress(trial)
        return trial

    best = play(0, "", start)
    for r in range(1, rounds + 1):
        base = best
        moves: dict[str, Trial] = {}
        for name in names:
            step = STEPS[name] / 2 ** (r - 1)
            for sign in (1.0, -1.0):
                value = getattr(base.weights, name) + sign * step
                if name == "horizon" and value <= 0:
                    continue
                trial = play(r, name, replace(base.weights, **{name: round(value, 6)}))
                gain = trial.result.score(objective)
                if gain > base.result.score(objective) and (
                        name not in moves or gain > moves[name].result.score(objective)):
                    moves[name] = trial
        candidates = list(moves.values())
        if len(moves) > 1:
            combined = replace(base.weights, **{name: getattr(t.weights, name) for name, t in moves.items()})
            candidates.append(play(r, "", combined))
        for trial in candidates:
            if trial.result.score(objective) > best.result.score(objective):
                best = trial
    return best
