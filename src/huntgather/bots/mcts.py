"""Monte Carlo tree search over whole turns, with determinizations and greedy roll-outs.

Hidden information in this game is only the *order* of the stacks; what is
left in them is public, and a drawn tile is seen by everyone.  A search makes
determinizations on demand: the k-th is a random order of each remaining
stack (shuffled from the search's seeded generator and ``k``), consistent with
everything a player may know (:class:`~huntgather.bots.search.Determinizations`,
shared with the expert's search, as are the budget of an occupant decision,
the values and the report: :mod:`huntgather.bots.search`).  A simulation follows one of them for all its
draws; the k-th visit of every root plan uses the k-th determinization, so
the plans are compared on the same tiles (common random numbers).  All
determinizations share one tree, which aggregates their results.  The real
order, which only the :class:`~huntgather.game.Game` driver holds, is never seen.

The tree's nodes are player decisions; an edge is a *plan*: the placement
together with the shaman take-back and the occupant that follow it (see
:func:`~huntgather.bots.base.turn_plans`), so that place and occupy are
judged jointly.  After the plan the draws follow the determinization, and the
child node is keyed by the plan and the tiles drawn.

* Expansion evaluates every plan of the new node with the heuristic estimate
  (:mod:`huntgather.bots.heuristic`) and sorts them.
* Leaf value: the new node's best plan (a greedy reply), then greedy turns
  along the determinization (``rollout_turns``, by default ``players − 1``,
  i.e. until the searching player has moved again), then the estimate.  With
  ``rollout_placements=K`` a roll-out turn tries only a sample of K placements
  (drawn along the determinization), a cheaper roll-out whose strength is not
  yet measured; by default it tries every one.
* Progressive widening: a node visited ``n`` times considers its best
  ``min(max_width, 1 + widening·√n)`` plans only (``max_width`` 9); each
  plan's heuristic value counts as ``prior_weight`` virtual visits.
* Pluggable leaf evaluation: with ``evaluate`` (an
  :class:`~huntgather.bots.search.Evaluator`, a function from a state to
  each seat's expected final score, such as the learned
  :class:`~huntgather.bots.learned.LinearEval`), the roll-out goes on to the
  next player decision and that position is valued by ``evaluate`` instead.
* Values are per seat, ``1 / (1 + exp(-margin / scale))`` where the margin is
  the seat's estimate minus the best other seat's (a win-probability proxy),
  and each node maximises the value of the seat that decides there (max-n).

The move returned is the first move of the plan with the most visits (summed
over plans that begin with the same move).

>>> from huntgather import Game
>>> from huntgather.bots.base import Limits
>>> g = Game(players=2, seed=2)
>>> bot = MctsBot(Limits(simulations=8), seed=1)
>>> bot.choose(g.state) in g.legal_moves()
True
"""

from __future__ import annotations

import math
import random
import time

from huntgather.bots.base import Limits
from huntgather.bots.heuristic import Kept
from huntgather.bots.plans import Plan, estimated_plans
from huntgather.bots.plans import reply as reply
from huntgather.bots.search import Deadline, Deal, Determinizations, Evaluator, RootTally, decision_budget

# (re-exported: they began here)
from huntgather.bots.search import SearchBot as SearchBot
from huntgather.bots.search import SearchResult as SearchResult
from huntgather.bots.search import rewards as rewards
from huntgather.bots.search import win_chance as win_chance
from huntgather.moves import Move
from huntgather.state import PLACE, State

#: placements a greedy roll-out turn tries (see :attr:`MctsBot.rollout_placements`)
ROLLOUT_PLACEMENTS: int | None = None


class _Node:
    __slots__ = ("children", "n", "plans", "player", "priors", "visits", "wins")

    def __init__(self, player: int, plans: list[Plan], priors: list[list[float]]) -> None:
        self.player = player
        self.plans = plans
        #: per plan: heuristic rewards of the state after the plan
        self.priors = priors
        self.n = [0] * len(plans)
        self.wins = [0.0] * len(plans)
        self.children: dict[tuple[int, tuple[int, ...]], _Node | list[float]] = {}
        self.visits = 0


class MctsBot(SearchBot):
    """Turn-level Monte Carlo tree search: determinizations, greedy roll-outs, heuristic leaves."""

    def __init__(self, limits: Limits, seed: int | None = None, *, name: str = "mcts",
                 exploration: float = 0.35, widening: float = 1.5, prior_weight: float = 2.0,
                 scale: float = 8.0, rollout_turns: int | None = None, max_width: int = 9,
                 evaluate: Evaluator | None = None,
                 rollout_placements: int | None = ROLLOUT_PLACEMENTS) -> None:
        # evaluate: with one, the roll-out goes on to the next decision, valued by it
        super().__init__(limits, seed, name=name, scale=scale, evaluate=evaluate)
        self.exploration = exploration
        self.widening = widening
        self.prior_weight = prior_weight
        #: greedy turns played after a new leaf's own best plan (None: players − 1)
        self.rollout_turns = rollout_turns
        #: at most this many plans per node: a bigger budget samples them more, not more of them
        self.max_width = max_width
        #: a greedy roll-out turn tries this many placements (a sample drawn along the
        #: determinization) with every take-back and occupant that may follow; None: all
        self.rollout_placements = rollout_placements
        #: during a search: what features bring, kept from one estimate to the next (the same
        #: values, sooner: :func:`~huntgather.bots.heuristic.brought`)
        self._kept: Kept = {}

    # ------------------------------------------------------------------ search

    def _expand(self, state: State) -> _Node:
        plans: list[Plan] = []
        priors: list[list[float]] = []
        for plan, values in estimated_plans(state, kept=self._kept):
            plans.append(plan)
            priors.append(rewards(values, self.scale))
        player = state.player
        order = sorted(range(len(plans)), key=lambda i: -priors[i][player])
        return _Node(player, [plans[i] for i in order], [priors[i] for i in order])

    def _select(self, node: _Node) -> int:
        width = min(len(node.plans), self.max_width, 1 + int(self.widening * math.sqrt(node.visits)))
        p = node.player
        log_total = math.log(node.visits + 1)
        best, best_score = 0, -float("inf")
        c, w0 = self.exploration, self.prior_weight
        for i in range(width):
            n = node.n[i]
            q = (node.wins[i] + w0 * node.priors[i][p]) / (n + w0)
            score = q + c * math.sqrt(log_total / (n + 1))
            if score > best_score:
                best, best_score = i, score
        return best

    def _simulate(self, root_state: State, root: _Node, orders: Determinizations) -> None:
        state = root_state.copy()
        node = root
        path: list[tuple[_Node, int]] = []
        order: Deal | None = None
        while True:
            i = self._select(node)
            if order is None:
                # the k-th visit of every root plan follows the same k-th determinization
                order = orders.follow(root.n[i])
            path.append((node, i))
            for move in node.plans[i]:
                state.apply(move, trusted=True, quiet=True)
            draws = order.draw(state)
            key = (i, tuple(draws))
            child = node.children.get(key)
            if state.is_over:   # (the same plan and draws always end the game again)
                value = rewards([float(s) for s in state.scores], self.scale)
                node.children[key] = value
                break
            if child is None:
                new = self._expand(state)
                node.children[key] = new
                value = self._rollout(state, new, order)
                break
            assert isinstance(child, _Node)   # a stored value is a finished game, handled above
            node = child
        for n, i in path:
            n.n[i] += 1
            n.wins[i] += value[n.player]
            n.visits += 1

    def _rollout(self, state: State, leaf: _Node, order: Deal) -> list[float]:
        """Play the leaf's best plan, then greedy turns along the determinization; value the end."""
        turns = self.rollout_turns if self.rollout_turns is not None else state.players - 1
        values = leaf.priors[0]
        if turns <= 0:
            return values if self.evaluate is None else self._evaluate(state)
        for move in leaf.plans[0]:
            state.apply(move, trusted=True, quiet=True)
        for _ in range(turns):
            order.draw(state)
            if state.is_over:
                return rewards([float(s) for s in state.scores], self.scale)
            best_plan, best = reply(state, first=self._sample(state, order), kept=self._kept)
            for move in best_plan:
                state.apply(move, trusted=True, quiet=True)
            values = rewards(best, self.scale)
        if self.evaluate is not None:
            order.draw(state)
            return self._evaluate(state)
        return values

    def _sample(self, state: State, order: Deal) -> list[Move] | None:
        """The placements a roll-out turn tries: a sample of ``rollout_placements`` of them, in
        the order :meth:`State.legal_moves` lists them; None for all."""
        k = self.rollout_placements
        if k is None or state.phase != PLACE:
            return None
        moves = state.legal_moves()
        if len(moves) <= k:
            return moves
        return [moves[i] for i in sorted(order.rng.sample(range(len(moves)), k))]

    def _evaluate(self, state: State) -> list[float]:
        """The pluggable leaf evaluation of ``state``, as per-seat rewards."""
        assert self.evaluate is not None
        if state.is_over:
            return rewards([float(s) for s in state.scores], self.scale)
        return rewards(self.evaluate(state), self.scale)

    def _search(self, state: State, rng: random.Random) -> SearchResult:
        start = time.perf_counter()
        self._kept = {}
        root = self._expand(state)
        budget = self.limits.simulations
        if budget is not None:
            budget = decision_budget(budget, root.plans)
        deadline = Deadline(self.limits, start)
        sims = 0
        orders = Determinizations(state, rng)
        if len(root.plans) > 1:
            while budget is None or sims < budget:
                if deadline.passed(sims):
                    break
                self._simulate(state, root, orders)
                sims += 1
        self._kept = {}   # (the memory back)
        tally = RootTally(root.plans, [prior[root.player] for prior in root.priors], root.n, root.wins)
        return SearchResult(tally.pooled_moves(), sims, time.perf_counter() - start, tally.rows())
