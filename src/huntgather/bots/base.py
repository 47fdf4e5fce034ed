"""The bot protocol, search limits, and helpers shared by every bot.

A bot is an object with a ``name`` and a ``choose(state)`` method that returns
a legal move for the current player decision.  Bots see a
:class:`~huntgather.state.State`, which holds what is left in the stacks but
never their order: a bot cannot peek at the next tile.  A bot never changes
the state it is given; it works on copies.

Choices are reproducible: the random numbers a bot uses for one decision come
from ``random.Random`` seeded with the bot's seed and a fingerprint of the
state, so the same seed and the same state give the same move, whatever the
bot chose before.

>>> from huntgather import Game
>>> from huntgather.bots.base import RandomBot
>>> g = Game(players=2, seed=3)
>>> RandomBot(seed=1).choose(g.state) == RandomBot(seed=1).choose(g.state)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

# the plans of a turn live in their own module, compiled in the optional build (this one holds a
# runtime-checkable Protocol, which mypyc cannot compile); re-exported here, where they began
from huntgather.bots.plans import Plan as Plan
from huntgather.bots.plans import estimated_plans as estimated_plans
from huntgather.bots.plans import plan_tile as plan_tile
from huntgather.bots.plans import turn_plans as turn_plans
from huntgather.moves import Move
from huntgather.record import write_position
from huntgather.state import State, randbelow


@runtime_checkable
class Bot(Protocol):
    """What the UI, the tournament and the tests need from a bot."""

    name: str

    def choose(self, state: State) -> Move:
        """A legal move for ``state``'s current (non-chance) decision."""
        ...


@dataclass(frozen=True)
class Limits:
    """How much a search may do for one decision.

    ``simulations`` is the budget that makes a choice reproducible; ``seconds``
    is a safety cap on the wall-clock time (when it cuts a search short, the
    choice depends on the machine's speed).  At least one must be given.

    >>> Limits(simulations=100, seconds=2.0).simulations
    100
    """

    simulations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.simulations is None and self.seconds is None:
            raise ValueError("a search limit needs a number of simulations, a time in seconds, or both")
        if self.simulations is not None and self.simulations < 1:
            raise ValueError(f"the number of simulations must be at least 1, not {self.simulations}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"the time limit must be positive, not {self.seconds}")


def fingerprint(state: State) -> str:
    """The position's text (:func:`huntgather.record.write_position`), which tells every two
    different positions apart; it seeds a decision's random numbers."""
    return write_position(state)


def check_decision(state: State) -> None:
    """Raise ``ValueError`` unless a player has a decision to make in ``state``."""
    if state.is_over:
        raise ValueError("the game is over: there is no move to choose")
    if state.is_chance:
        raise ValueError("this is a chance node (a tile is to be drawn): the game driver draws, not a bot")


class SeededBot:
    """Base class: holds the seed and derives each decision's random generator."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        self.seed = seed

    def rng(self, state: State) -> random.Random:
        """The random generator for the decision in ``state`` (reproducible)."""
        return random.Random(f"{self.name}|{self.seed}|{fingerprint(state)}")

    def choose(self, state: State) -> Move:
        check_decision(state)
        work = state.copy()
        moves = work.legal_moves()
        if len(moves) == 1:
            return moves[0]
        return self._choose(work, moves, self.rng(state))

    def _choose(self, state: State, moves: list[Move], rng: random.Random) -> Move:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"


class RandomBot(SeededBot):
    """Plays a uniformly random legal move."""

    name = "random"

    def _choose(self, state: State, moves: list[Move], rng: random.Random) -> Move:
        return moves[randbelow(rng, len(moves))]   # (rng.randrange, drawn by compiled code)
