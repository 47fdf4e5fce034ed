"""What the searches share: determinizations, chance, budgets, values, and the report of a search.

The two searches, the tree of :class:`~huntgather.bots.mcts.MctsBot` and the sequential halving
of :class:`~huntgather.bots.expert.ExpertBot`, spend a budget of simulations on the plans of the
root (:func:`~huntgather.bots.plans.estimated_plans`) in different ways, on the same footing:

* :class:`Determinizations`: hidden information is only the *order* of the stacks (what is left
  in them is public), so a search makes determinizations on demand, the k-th a random order of
  each remaining stack shuffled from the search's seeded generator and ``k``; a simulation
  follows one (a :class:`Deal`), which resolves its chance nodes (:meth:`Deal.draw`);
* :func:`decision_budget`: an occupant or shaman decision gets a third of the budget;
* :class:`Deadline`: the server's safety net, a time after which a search stops;
* values: :func:`rewards`, a logistic of each seat's margin over the best other seat, in (0, 1);
  an :class:`Evaluator` gives each seat's expected final score, by the heuristic
  (:class:`Heuristic`, with fitted weights the expert's evaluation) or the learned linear model
  (:class:`~huntgather.bots.learned.LinearEval`);
* :class:`RootTally`: what the samples brought each root plan, folded into a
  :class:`SearchResult`, per plan and per first move.

>>> from huntgather import State
>>> d = Determinizations(State.new(2), random.Random(1))
>>> deal = d.follow(0)
>>> deal.tiles is d.tiles(0), sorted(d.tiles(0)[NORMAL]) == sorted(State.new(2).normal)
(True, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from huntgather.bots.base import Limits, SeededBot, check_decision
from huntgather.bots.heuristic import DEFAULT, Weights, estimate
from huntgather.bots.plans import Plan
from huntgather.moves import Draw, Move, Place
from huntgather.state import BONUS, NORMAL, State

# --------------------------------------------------------------------------- values


class Evaluator(Protocol):
    """A leaf evaluation: each seat's expected final score in ``state`` (a non-chance position)."""

    def __call__(self, state: State, /) -> list[float]: ...


@dataclass(frozen=True)
class Heuristic:
    """The heuristic estimate (:func:`~huntgather.bots.heuristic.estimate`) with ``weights`` as an
    :class:`Evaluator`; with the weights fitted by play
    (:func:`~huntgather.bots.tuned.weights_for`), the expert's evaluation.

    >>> from huntgather import State
    >>> Heuristic()(State.new(2)) == estimate(State.new(2))
    True
    """

    weights: Weights = DEFAULT

    def __call__(self, state: State, /) -> list[float]:
        return estimate(state, None, self.weights)


def win_chance(lead: float, scale: float) -> float:
    """A logistic of a lead in points, ``lead / scale`` clamped to ±50: the value in (0, 1) that
    :func:`rewards` and the expert's share of meetings give a lead over another seat.

    >>> win_chance(0.0, 8.0), round(win_chance(8.0, 8.0), 4), win_chance(-1e9, 8.0) > 0.0
    (0.5, 0.7311, True)
    """
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, lead / scale))))


def rewards(values: list[float], scale: float) -> list[float]:
    """Per-seat value in (0, 1) from estimated scores: a logistic of the margin over the best other.

    >>> [round(r, 2) for r in rewards([10.0, 10.0], 5.0)]
    [0.5, 0.5]
    >>> r = rewards([20.0, 10.0], 5.0); r[0] > 0.5 > r[1]
    True
    """
    if len(values) == 2:   # (the usual case: the other seat is the best other)
        a, b = values
        return [win_chance(a - b, scale), win_chance(b - a, scale)]
    return [win_chance(v - max(w for j, w in enumerate(values) if j != i), scale)
            for i, v in enumerate(values)]


# --------------------------------------------------------------------------- chance


class Determinizations:
    """The k-th determinization of a search: a random order of each stack, made on demand.

    The generator of the search is asked for one number, which seeds them all: the k-th is the
    same however many were made before it.

    >>> from huntgather import State
    >>> d = Determinizations(State.new(2), random.Random(1))
    >>> d.tiles(3) == d.tiles(3), d.tiles(3) == Determinizations(State.new(2), random.Random(1)).tiles(3)
    (True, True)
    """

    def __init__(self, state: State, rng: random.Random) -> None:
        self.stacks = {NORMAL: list(state.normal), BONUS: list(state.bonus)}
        self.seed = rng.randrange(2**62)
        self.made: dict[int, dict[str, list[int]]] = {}

    def tiles(self, k: int) -> dict[str, list[int]]:
        """The k-th order of each stack."""
        tiles = self.made.get(k)
        if tiles is None:
            rng = random.Random(f"{self.seed}|{k}")
            tiles = {}
            for stack, contents in self.stacks.items():
                shuffled = contents.copy()
                rng.shuffle(shuffled)
                tiles[stack] = shuffled
            self.made[k] = tiles
        return tiles

    def follow(self, k: int) -> Deal:
        """The k-th determinization, to be drawn from from its start."""
        return Deal(self.tiles(k), f"{self.seed}|{k}|spare")


class Deal:
    """One determinization followed by a simulation: an order of each stack, and how far each
    has been drawn; :attr:`rng`, a generator of its own for what else is random along it."""

    __slots__ = ("_rng", "_spare", "pos", "tiles")

    def __init__(self, tiles: dict[str, list[int]], spare: str) -> None:
        self.tiles = tiles
        self.pos = dict.fromkeys(tiles, 0)
        self._spare = spare
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """The determinization's own generator (made when first asked for)."""
        if self._rng is None:
            self._rng = random.Random(self._spare)
        return self._rng

    def draw(self, state: State) -> list[int]:
        """Resolve the chance nodes of ``state`` by this order; return the tiles drawn."""
        draws: list[int] = []
        while state.is_chance:
            stack = state.stack
            outcomes = state.chance_outcomes()
            tiles, pos = self.tiles[stack], self.pos[stack]
            while pos < len(tiles) and tiles[pos] not in outcomes:  # pragma: no cover - defensive
                pos += 1
            if pos < len(tiles):
                tile = tiles[pos]
                self.pos[stack] = pos + 1
            else:  # pragma: no cover - every draw follows the order
                tile = outcomes[self.rng.randrange(len(outcomes))]
            draws.append(tile)
            state.apply(Draw(tile), trusted=True, quiet=True)
        return draws


# --------------------------------------------------------------------------- budgets


def decision_budget(simulations: int, plans: Sequence[Plan]) -> int:
    """The simulations a search spends on a decision whose plans (best first) are ``plans``: all
    for a placement; for an occupant or shaman decision, which has few plans, a third is plenty
    (but four a plan, and at least one).

    >>> from huntgather.moves import Pass
    >>> decision_budget(150, [(Place(1, 0, 0, 0),)]), decision_budget(150, [(Pass(),)] * 3)
    (150, 50)
    >>> decision_budget(30, [(Pass(),)] * 3), decision_budget(1, [(Pass(),)] * 3)
    (12, 1)
    """
    if isinstance(plans[0][0], Place):
        return simulations
    return max(1, min(simulations, max(simulations // 3, 4 * len(plans))))


class Deadline:
    """When a search must stop whatever its budget: the server's safety net (a limit in seconds);
    only then does a move depend on the machine."""

    def __init__(self, limits: Limits, start: float) -> None:
        self.at = None if limits.seconds is None else start + limits.seconds

    def passed(self, simulations: int) -> bool:
        """Whether the time is up, once a search has made ``simulations`` (never before one)."""
        return self.at is not None and simulations > 0 and time.perf_counter() >= self.at


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class SearchResult:
    """What a search found: per first move, the mean value for the mover and the visits."""

    moves: list[tuple[Move, float, int]]
    simulations: int
    seconds: float
    #: per whole turn (placement, take-back, occupant): mean value for the mover and visits,
    #: most visited first; a plan never visited is valued by the heuristic
    plans: list[tuple[Plan, float, int]] = field(default_factory=list)


PlanRow = tuple[Plan, float, int]


class RootTally:
    """The root's plans, best by the heuristic first, each with its prior (the mover's value of the
    heuristic estimate after it) and what the simulations through it brought: their number and
    the sum of their values for the mover.

    Two plans begin with the same take-back; the other passes:

    >>> from huntgather.moves import Pass, TakeBack
    >>> back, stay = TakeBack(3, 1), Pass()
    >>> t = RootTally([(stay,), (back,), (back, stay)], [0.6, 0.5, 0.4])
    >>> t.visits, t.totals = [2, 1, 4], [1.0, 0.25, 3.0]
    >>> [(len(plan), value, n) for plan, value, n in t.rows()]
    [(2, 0.75, 4), (1, 0.5, 2), (1, 0.25, 1)]

    MCTS pools the plans of a move, (0.25 + 3.0) / (1 + 4); the expert takes its best placed
    plan's mean:

    >>> t.pooled_moves()
    [(TakeBack(tile=3, zone=1), 0.65, 5), (Pass(), 0.5, 2)]
    >>> t.led_moves(t.rows())
    [(TakeBack(tile=3, zone=1), 0.75, 5), (Pass(), 0.5, 2)]
    """

    def __init__(self, plans: list[Plan], priors: list[float], visits: list[int] | None = None,
                 totals: list[float] | None = None) -> None:
        self.plans = plans
        self.priors = priors
        self.visits = [0] * len(plans) if visits is None else visits
        self.totals = [0.0] * len(plans) if totals is None else totals

    def mean(self, i: int) -> float:
        """Plan ``i``'s mean value for the mover; its prior while it has no visit."""
        n = self.visits[i]
        return self.totals[i] / n if n else self.priors[i]

    def rows(self, order: Sequence[int] | None = None) -> list[PlanRow]:
        """Every plan with its mean value and visits, in ``order`` (plan numbers), or by default
        the most visited first (then the better mean, then the heuristic's order)."""
        if order is None:
            order = sorted(range(len(self.plans)), key=lambda i: (-self.visits[i], -self.mean(i), i))
        return [(self.plans[i], self.mean(i), self.visits[i]) for i in order]

    def pooled_moves(self) -> list[tuple[Move, float, int]]:
        """The first moves, each with the visits of all its plans and their pooled mean (never
        visited: its best plan's prior), the most visited first (then the better value, then the
        heuristic's order of their first plans)."""
        per_move: dict[Move, list[float]] = {}
        for i, plan in enumerate(self.plans):
            entry = per_move.setdefault(plan[0], [0.0, 0.0, self.priors[i], float(i)])
            entry[0] += self.visits[i]
            entry[1] += self.totals[i]
            entry[2] = max(entry[2], self.priors[i])
        ranked = [(move, w / n if n else prior, int(n), first)
                  for move, (n, w, prior, first) in per_move.items()]
        ranked.sort(key=lambda t: (-t[2], -t[1], t[3]))
        return [(m, v, n) for m, v, n, _ in ranked]

    @staticmethod
    def led_moves(rows: Sequence[PlanRow]) -> list[tuple[Move, float, int]]:
        """The first moves in the order of their first plans in ``rows``, each with the visits of
        all its plans and the mean value of its first (the best placed) plan."""
        moves: list[tuple[Move, float, int]] = []
        seen: dict[Move, int] = {}
        for plan, value, n in rows:
            if plan[0] in seen:
                j = seen[plan[0]]
                m, v, c = moves[j]
                moves[j] = (m, v, c + n)
            else:
                seen[plan[0]] = len(moves)
                moves.append((plan[0], value, n))
        return moves


# --------------------------------------------------------------------------- the bots


class SearchBot(SeededBot):
    """Base class of the bots that choose by a search (:class:`~huntgather.bots.mcts.MctsBot`,
    :class:`~huntgather.bots.expert.ExpertBot`): a decision is the first move of the best plan
    its ``_search`` reports."""

    def __init__(self, limits: Limits, seed: int | None, *, name: str, scale: float,
                 evaluate: Evaluator | None) -> None:
        super().__init__(seed)
        #: the search's budget (a time only as a safety net: :mod:`huntgather.server.workers`)
        self.limits = limits
        self.name = name
        #: points of margin that make a logistic's step (:func:`rewards`)
        self.scale = scale
        #: leaf evaluation (expected final score per seat); None: the heuristic estimate of the
        #: last plan played
        self.evaluate = evaluate

    def _choose(self, state: State, moves: list[Move], rng: random.Random) -> Move:
        return self._search(state, rng).moves[0][0]

    def search(self, state: State) -> SearchResult:
        """Search ``state`` (unchanged) and report every first move, best first (for MCTS: the
        most visited first)."""
        check_decision(state)
        return self._search(state.copy(), self.rng(state))

    def _search(self, state: State, rng: random.Random) -> SearchResult:
        raise NotImplementedError
