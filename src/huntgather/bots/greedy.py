"""The greedy bot: the best turn by the heuristic estimate of the final scores.

For a placement it tries every placement together with every way to follow it
(shaman take-back, occupant or none) and keeps the one that maximises its
estimated final score minus the best opponent's (see
:mod:`huntgather.bots.heuristic`).  Ties are broken with the bot's seeded
random generator.

>>> from huntgather import Game
>>> g = Game(players=2, seed=5)
>>> move = GreedyBot(seed=0).choose(g.state)
>>> move in g.legal_moves()
True
"""

from __future__ import annotations

import random

from huntgather.bots.base import SeededBot, estimated_plans
from huntgather.bots.heuristic import DEFAULT, Weights, advantage
from huntgather.moves import Move
from huntgather.state import State


class GreedyBot(SeededBot):
    """Best immediate value plus the estimated worth of open features and pieces."""

    name = "greedy"

    def __init__(self, seed: int | None = None, weights: Weights = DEFAULT) -> None:
        super().__init__(seed)
        #: the heuristic's numbers (:class:`~huntgather.bots.heuristic.Weights`)
        self.weights = weights

    def _choose(self, state: State, moves: list[Move], rng: random.Random) -> Move:
        player = state.player
        best: list[Move] = []
        best_value = -float("inf")
        for plan, values in estimated_plans(state, weights=self.weights):
            value = advantage(values, player)
            if value > best_value + 1e-9:
                best_value = value
                best = [plan[0]]
            elif value > best_value - 1e-9 and plan[0] not in best:
                best.append(plan[0])
        return best[rng.randrange(len(best))]
