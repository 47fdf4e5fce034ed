"""The expert's search: the root's best plans compared on the same draws, halving the field.

Measurements of ``mcts:hard`` (docs/bots.md) showed that its tree is, in
effect, one level deep: the k-th visit of a root plan follows the k-th
determinization, and the tiles drawn differ from one determinization to the
next, so the nodes below the root are almost never visited twice (in three
150-simulation searches of a 2-player game, 3 to 9 of 150 nodes were).  Its
strength comes from comparing the root's plans on the same draws, each
valued by a greedy continuation and the heuristic estimate; and UCB spread
its visits almost evenly over the 9 plans it admits.

:class:`ExpertBot` keeps that and spends the same budget differently, by
**sequential halving** over the root's plans:

* the root's plans are sorted by the heuristic (the prior, as in
  :class:`~huntgather.bots.mcts.MctsBot`) and the best ``width`` of them enter;
* in each round every plan still in the field gets the same number of new
  samples, and the worse half (by mean value) leaves; the budget is split
  evenly between the rounds;
* the j-th sample of every plan uses the j-th determinization, so at any time
  all plans in the field have been compared on exactly the same draws
  (common random numbers, paired exactly, which UCB's uneven counts do not);
* a sample plays the plan, then ``players`` greedy turns along the
  determinization (the same continuation as ``hard``'s expansion and
  roll-out; ``rounds``: that many greedy turns per player, the ``expert``
  level two with four or more players), and values the end by
  :func:`~huntgather.bots.search.rewards` of the heuristic estimate, or by
  ``evaluate`` (an :class:`~huntgather.bots.search.Evaluator`, such as the learned
  :class:`~huntgather.bots.learned.LinearEval`) if given;
* with three or more players and ``meetings`` (the ``expert`` level), the searching seat
  values a sample's end by :func:`meeting_share`, its expected share of the other seats it
  outscores (what a tournament's meetings count), rather than by a logistic of its margin
  over the best other seat alone; with two players the two are the same;
* in those greedy turns every seat plays for itself, for its own margin over
  the best other seat (max-n), or, with ``paranoid``, every other seat plays
  the turn that leaves the searching seat the worst margin (:func:`reply`);
  with two players the two are the same.

The move played is the first move of the best plan of the last round.  The determinizations,
the budget of an occupant decision, the values and the report are those of the tree search
(:mod:`huntgather.bots.search`).

>>> from huntgather import Game
>>> from huntgather.bots.base import Limits, check_decision
>>> g = Game(players=2, seed=2)
>>> bot = ExpertBot(Limits(simulations=8), seed=1)
>>> bot.choose(g.state) in g.legal_moves()
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from huntgather.bots.base import Limits, check_decision
from huntgather.bots.heuristic import DEFAULT, Kept, Weights, advantage
from huntgather.bots.plans import Plan, estimated_plans, reply
from huntgather.bots.search import (
    Deadline,
    Deal,
    Determinizations,
    Evaluator,
    Heuristic,
    RootTally,
    SearchBot,
    SearchResult,
    decision_budget,
    rewards,
    win_chance,
)
from huntgather.state import State


def meeting_share(values: list[float], player: int, scale: float) -> float:
    """``player``'s expected share of its meetings won, from estimated scores: the mean over the
    other seats of a logistic of its margin over each.

    >>> meeting_share([10.0, 10.0, 10.0], 0, 8.0)
    0.5
    >>> meeting_share([20.0, 0.0, 40.0], 0, 8.0) == 0.5 * (1 / (1 + math.exp(-2.5)) + 1 / (1 + math.exp(2.5)))
    True
    """
    mine = values[player]
    total = 0.0
    for j, v in enumerate(values):
        if j != player:
            total += win_chance(mine - v, scale)
    return total / (len(values) - 1)


def halving_schedule(width: int, budget: int) -> list[tuple[int, int]]:
    """Rounds of sequential halving: ``(plans in the field, new samples per plan)``.

    What is left of the budget is split evenly between the rounds still to
    come (each plan at least one sample a round), and the field halves
    (rounding up) after each round, down to the last two.

    >>> halving_schedule(8, 96)
    [(8, 4), (4, 8), (2, 16)]
    >>> halving_schedule(12, 150)
    [(12, 3), (6, 6), (3, 13), (2, 19)]
    >>> halving_schedule(1, 10)
    [(1, 10)]
    """
    if width <= 1:
        return [(1, budget)]
    rounds = max(1, math.ceil(math.log2(width)))
    out = []
    field = width
    left = budget
    for r in range(rounds):
        samples = max(1, left // ((rounds - r) * field))
        out.append((field, samples))
        left -= samples * field
        field = (field + 1) // 2
    return out


class ExpertBot(SearchBot):
    """Sequential halving over the root's best plans, on common draws (see the module text)."""

    def __init__(self, limits: Limits, seed: int | None = None, *, name: str = "expert",
                 width: int = 12, scale: float = 8.0, turns: int | None = None,
                 rounds: int | Callable[[State], int] = 1, evaluate: Evaluator | None = None,
                 paranoid: bool = False,
                 weights: Weights | Callable[[State], Weights] = DEFAULT, meetings: bool = False,
                 others: Weights | Callable[[State], Weights | None] | None = None) -> None:
        if limits.simulations is None:
            raise ValueError("the expert's budget is a number of simulations (a time may be added "
                             "as a safety net)")
        super().__init__(limits, seed, name=name, scale=scale, evaluate=evaluate)
        #: how many of the root's plans (best by the heuristic) enter the first round
        self.width = width
        #: greedy turns after the plan (None: :attr:`rounds` turns per player; one round is
        #: hard's expansion + roll-out)
        self.turns = turns
        #: with :attr:`turns` None, rounds of greedy turns (one per player) after the plan, or a
        #: function that gives them for the position searched (by its number of players)
        self.rounds = rounds
        self._turns = 0
        #: how the others play in a sample: False (max-n) each for itself, by its own margin over
        #: the best other seat; True (paranoid) all against the searching seat, to cut its margin
        self.paranoid = paranoid
        #: the heuristic's numbers in its samples and its ranking of the root's plans, or a
        #: function that gives them for the position searched (by edition and players)
        self.weights = weights
        #: how the searching seat values a sample's end with 3 or more players: False, by a
        #: logistic of its margin over the best other seat; True, by the mean over the other
        #: seats of a logistic of its margin over each (its expected share of meetings won)
        self.meetings = meetings
        #: the opponent model: the numbers with which the other seats choose their greedy turns
        #: in a sample, or a function that gives them for the position searched; None (or a
        #: function's None): the searching seat's own :attr:`weights`.  A sample's end is
        #: always valued with the searching seat's own weights.
        self.others = others
        self._weights: Weights = DEFAULT
        #: the evaluation of a sample's end after another seat's turn: the heuristic with :attr:`_weights`
        self._heuristic = Heuristic()
        self._others: Weights = DEFAULT
        #: during a search: what features bring, kept from one estimate to the next (the same
        #: values, sooner: :func:`~huntgather.bots.heuristic.brought`), by the searching seat's
        #: weights and by the others'; emptied when it ends
        self._kept: Kept = {}
        self._kept_others: Kept = {}

    def _value(self, values: list[float], player: int) -> float:
        """The searching seat's value in (0, 1) of a sample's end (see :attr:`meetings`)."""
        if self.meetings and len(values) > 2:
            return meeting_share(values, player, self.scale)
        return rewards(values, self.scale)[player]

    def _sample(self, root: State, plan: Plan, deal: Deal) -> float:
        state = root.copy()
        for move in plan:
            state.apply(move, trusted=True, quiet=True)
        turns = self._turns
        values: list[float] | None = None
        me = root.player
        modelled = self._others is not self._weights
        mine = True
        for _ in range(turns):
            deal.draw(state)
            if state.is_over:
                return self._value([float(s) for s in state.scores], me)
            mine = not modelled or state.player == me
            best_plan, best = reply(state, me if self.paranoid else None,
                                    kept=self._kept if mine else self._kept_others,
                                    weights=self._weights if mine else self._others)
            for move in best_plan:
                state.apply(move, trusted=True, quiet=True)
            values = best
        if self.evaluate is not None:
            deal.draw(state)
            values = [float(s) for s in state.scores] if state.is_over else self.evaluate(state)
        elif values is None or not mine:
            # no turn played (the state after the plan), or the last turn another seat's, valued
            # by its own numbers: the estimate with the searching seat's
            values = self._heuristic(state)
        return self._value(values, me)

    def compare(self, state: State, plans: list[Plan], samples: int) -> list[float]:
        """Each plan's mean value for the mover over the same first ``samples`` determinizations
        of ``state`` (unchanged): the plans paired on exactly the same draws, as in a search's
        rounds, valued by the same samples.  The post-game review
        (:mod:`huntgather.bots.review`) measures a played turn against the best one with it.

        >>> from huntgather import Game
        >>> from huntgather.bots.plans import turn_plans
        >>> g = Game(players=2, seed=2)
        >>> plans = [plan for plan, _ in turn_plans(g.state)][:2]
        >>> values = ExpertBot(Limits(simulations=8), seed=1).compare(g.state, plans, 3)
        >>> len(values), all(0.0 < v < 1.0 for v in values)
        (2, True)
        """
        return [sum(values) / samples for values in self.paired_samples(state, plans, samples)]

    def paired_samples(self, state: State, plans: list[Plan], samples: int) -> list[list[float]]:
        """Each plan's values for the mover on each of the same first ``samples`` determinizations
        of ``state`` (unchanged), one list a plan: what :meth:`compare` averages."""
        check_decision(state)
        if samples < 1:
            raise ValueError(f"compare needs at least one sample, not {samples}")
        work = state.copy()
        orders = Determinizations(work, self.rng(state))
        self._prepare(work)
        try:
            return [[self._sample(work, plan, orders.follow(k)) for k in range(samples)] for plan in plans]
        finally:
            self._kept, self._kept_others = {}, {}

    def _prepare(self, state: State) -> None:
        """Set the numbers of a search of ``state`` (its weights, turns and opponent model)."""
        self._kept, self._kept_others = {}, {}
        self._weights = self.weights if isinstance(self.weights, Weights) else self.weights(state)
        self._heuristic = Heuristic(self._weights)
        rounds = self.rounds if isinstance(self.rounds, int) else self.rounds(state)
        self._turns = self.turns if self.turns is not None else rounds * state.players
        others = self.others
        if others is not None and not isinstance(others, Weights):
            others = others(state)
        # (the same object when there is no model or it gives the same numbers: one kept, and
        # exactly the samples of a search without a model)
        self._others = self._weights if others is None or others == self._weights else others

    def _search(self, state: State, rng: random.Random) -> SearchResult:
        start = time.perf_counter()
        self._prepare(state)
        player = state.player
        # (ranked by the margin itself wherever the value is a logistic of it, with two players
        # too: a logistic can round two margins far from even to one value and reorder a tie)
        by_share = self.meetings and state.players > 2
        estimated = estimated_plans(state, kept=self._kept, weights=self._weights)
        plan_values = [self._value(v, player) for _, v in estimated]
        ranked = sorted(range(len(estimated)), key=lambda i: -(plan_values[i] if by_share
                                                               else advantage(estimated[i][1], player)))
        plans = [estimated[i][0] for i in ranked]
        priors = [plan_values[i] for i in ranked]
        budget = decision_budget(self.limits.simulations or 1, plans)
        orders = Determinizations(state, rng)
        tally = RootTally(plans, priors)
        totals, counts = tally.totals, tally.visits
        field = list(range(min(len(plans), self.width)))
        sims = 0
        deadline = Deadline(self.limits, start)
        if len({plan[0] for plan in plans}) > 1:
            for size, samples in halving_schedule(len(field), budget):
                field = sorted(field, key=lambda i: (-(totals[i] / counts[i]) if counts[i] else 0.0, i))
                field = field[:size]
                for i in field:
                    if deadline.passed(sims):
                        break   # the server's safety net: only then does the move depend on the machine
                    for k in range(counts[i], counts[i] + samples):
                        totals[i] += self._sample(state, plans[i], orders.follow(k))
                    counts[i] += samples
                    sims += samples
                else:
                    continue
                break
            field = [i for i in field if counts[i]]
            field.sort(key=lambda i: (-(totals[i] / counts[i]), i))
        # the last round's field, best first, then the others in the heuristic's order
        rows = tally.rows(field + [i for i in range(len(plans)) if i not in field])
        self._kept, self._kept_others = {}, {}
        return SearchResult(tally.led_moves(rows), sims, time.perf_counter() - start, rows)
