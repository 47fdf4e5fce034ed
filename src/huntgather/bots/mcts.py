"""Monte Carlo tree search over whole turns, with determinizations and greedy roll-outs.

Hidden information in this game is only the *order* of the stacks; what is
left in them is public, and a drawn tile is seen by everyone.  A search makes
determinizations on demand: the k-th is a random order of each remaining
stack (shuffled from the search's seeded generator and ``k``), consistent with
everything a player may know.  A simulation follows one of them for all its
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
* Pluggable leaf evaluation: with ``evaluate`` (a function from a state to
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
from collections.abc import Callable
from dataclasses import dataclass, field

from huntgather.bots.base import Limits, SeededBot, check_decision
from huntgather.bots.heuristic import Kept
from huntgather.bots.plans import Plan, estimated_plans
from huntgather.bots.plans import reply as reply
from huntgather.moves import Draw, Move, Place
from huntgather.state import BONUS, NORMAL, PLACE, State

#: placements a greedy roll-out turn tries (see :attr:`MctsBot.rollout_placements`)
ROLLOUT_PLACEMENTS: int | None = None


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


class _Order:
    """One determinization: an order of each stack, and how far it has been drawn."""

    __slots__ = ("pos", "rng", "tiles")

    def __init__(self, tiles: dict[str, list[int]], rng: random.Random) -> None:
        self.tiles = tiles
        self.pos = dict.fromkeys(tiles, 0)
        self.rng = rng


class _Orders:
    """The k-th determinization of a search, made on demand from the search's generator."""

    def __init__(self, state: State, rng: random.Random) -> None:
        self.stacks = {NORMAL: list(state.normal), BONUS: list(state.bonus)}
        self.seed = rng.randrange(2**62)
        self.made: dict[int, dict[str, list[int]]] = {}

    def get(self, k: int) -> _Order:
        tiles = self.made.get(k)
        if tiles is None:
            rng = random.Random(f"{self.seed}|{k}")
            tiles = {}
            for stack, contents in self.stacks.items():
                shuffled = contents.copy()
                rng.shuffle(shuffled)
                tiles[stack] = shuffled
            self.made[k] = tiles
        return _Order(tiles, random.Random(f"{self.seed}|{k}|spare"))


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


@dataclass(frozen=True)
class SearchResult:
    """What a search found: per first move, the mean value for the mover and the visits."""

    moves: list[tuple[Move, float, int]]
    simulations: int
    seconds: float
    #: per whole turn (placement, take-back, occupant): mean value for the mover and visits,
    #: most visited first; a plan never visited is valued by the heuristic
    plans: list[tuple[Plan, float, int]] = field(default_factory=list)


class SearchBot(SeededBot):
    """Base class of the bots that choose by a search (:class:`MctsBot`, the expert): a decision
    is the first move of the best plan its ``_search`` reports."""

    #: the search's budget (a time only as a safety net: :mod:`huntgather.server.workers`)
    limits: Limits

    def _choose(self, state: State, moves: list[Move], rng: random.Random) -> Move:
        return self._search(state, rng).moves[0][0]

    def search(self, state: State) -> SearchResult:
        """Search ``state`` (unchanged) and report every first move, best first (for MCTS: the
        most visited first)."""
        check_decision(state)
        return self._search(state.copy(), self.rng(state))

    def _search(self, state: State, rng: random.Random) -> SearchResult:
        raise NotImplementedError


class MctsBot(SearchBot):
    """Turn-level Monte Carlo tree search: determinizations, greedy roll-outs, heuristic leaves."""

    def __init__(self, limits: Limits, seed: int | None = None, *, name: str = "mcts",
                 exploration: float = 0.35, widening: float = 1.5, prior_weight: float = 2.0,
                 scale: float = 8.0, rollout_turns: int | None = None, max_width: int = 9,
                 evaluate: Callable[[State], list[float]] | None = None,
                 rollout_placements: int | None = ROLLOUT_PLACEMENTS) -> None:
        super().__init__(seed)
        self.limits = limits
        self.name = name
        self.exploration = exploration
        self.widening = widening
        self.prior_weight = prior_weight
        self.scale = scale
        #: greedy turns played after a new leaf's own best plan (None: players − 1)
        self.rollout_turns = rollout_turns
        #: at most this many plans per node: a bigger budget samples them more, not more of them
        self.max_width = max_width
        #: leaf evaluation (expected final score per seat) after the roll-out; None: the heuristic
        #: estimate of the roll-out's last plan.  With one, the roll-out ends at the next decision.
        self.evaluate = evaluate
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

    def _draw(self, state: State, order: _Order) -> list[int]:
        """Resolve the chance nodes from a determinization; return the tiles drawn."""
        draws: list[int] = []
        while state.is_chance:
            stack = state.stack
            outcomes = state.chance_outcomes()
            tiles, pos = order.tiles[stack], order.pos[stack]
            while pos < len(tiles) and tiles[pos] not in outcomes:  # pragma: no cover - defensive
                pos += 1
            if pos < len(tiles):
                tile = tiles[pos]
                order.pos[stack] = pos + 1
            else:  # pragma: no cover - every draw follows the order
                tile = outcomes[order.rng.randrange(len(outcomes))]
            draws.append(tile)
            state.apply(Draw(tile), trusted=True, quiet=True)
        return draws

    def _simulate(self, root_state: State, root: _Node, orders: _Orders) -> None:
        state = root_state.copy()
        node = root
        path: list[tuple[_Node, int]] = []
        order: _Order | None = None
        while True:
            i = self._select(node)
            if order is None:
                # the k-th visit of every root plan follows the same k-th determinization
                order = orders.get(root.n[i])
            path.append((node, i))
            for move in node.plans[i]:
                state.apply(move, trusted=True, quiet=True)
            draws = self._draw(state, order)
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

    def _rollout(self, state: State, leaf: _Node, order: _Order) -> list[float]:
        """Play the leaf's best plan, then greedy turns along the determinization; value the end."""
        turns = self.rollout_turns if self.rollout_turns is not None else state.players - 1
        values = leaf.priors[0]
        if turns <= 0:
            return values if self.evaluate is None else self._evaluate(state)
        for move in leaf.plans[0]:
            state.apply(move, trusted=True, quiet=True)
        for _ in range(turns):
            self._draw(state, order)
            if state.is_over:
                return rewards([float(s) for s in state.scores], self.scale)
            best_plan, best = reply(state, first=self._sample(state, order), kept=self._kept)
            for move in best_plan:
                state.apply(move, trusted=True, quiet=True)
            values = rewards(best, self.scale)
        if self.evaluate is not None:
            self._draw(state, order)
            return self._evaluate(state)
        return values

    def _sample(self, state: State, order: _Order) -> list[Move] | None:
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
        limits = self.limits
        budget = limits.simulations
        if budget is not None and not isinstance(root.plans[0][0], Place):
            # an occupy or shaman decision has few plans: a third of the budget is plenty
            budget = max(1, min(budget, max(budget // 3, 4 * len(root.plans))))
        deadline = None if limits.seconds is None else start + limits.seconds
        sims = 0
        orders = _Orders(state, rng)
        if len(root.plans) > 1 or {p[0] for p in root.plans} != {root.plans[0][0]}:
            while budget is None or sims < budget:
                if deadline is not None and sims > 0 and time.perf_counter() >= deadline:
                    break
                self._simulate(state, root, orders)
                sims += 1
        self._kept = {}   # (the memory back)
        p = root.player
        per_move: dict[Move, list[float]] = {}
        for i, plan in enumerate(root.plans):
            entry = per_move.setdefault(plan[0], [0.0, 0.0, root.priors[i][p], float(i)])
            entry[0] += root.n[i]
            entry[1] += root.wins[i]
            # best prior among the plans that start with this move
            entry[2] = max(entry[2], root.priors[i][p])
        ranked = []
        for move, (n, w, prior, first) in per_move.items():
            value = w / n if n else prior
            ranked.append((move, value, int(n), first))
        ranked.sort(key=lambda t: (-t[2], -t[1], t[3]))
        plans = [(plan, root.wins[i] / root.n[i] if root.n[i] else root.priors[i][p], root.n[i], i)
                 for i, plan in enumerate(root.plans)]
        plans.sort(key=lambda t: (-t[2], -t[1], t[3]))
        return SearchResult([(m, v, n) for m, v, n, _ in ranked], sims, time.perf_counter() - start,
                            [(plan, v, n) for plan, v, n, _ in plans])
