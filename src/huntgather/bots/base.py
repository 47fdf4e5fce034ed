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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from huntgather.moves import Move, Occupy, Place, TakeBack
from huntgather.record import write_position
from huntgather.scoring import completed_points
from huntgather.state import HUT, OCCUPY, SHAMAN, State, randbelow

if TYPE_CHECKING:
    from huntgather.bots.heuristic import Kept, Weights


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


Plan = tuple[Move, ...]


def turn_plans(state: State) -> list[tuple[Plan, State]]:
    """Every way for the player to move to finish their current decisions.

    A plan is the moves the player makes before the next draw (or the end of
    the game): place, then possibly the shaman take-back and the occupant.
    Each comes with the state it leads to.  ``state`` is not changed.

    >>> from huntgather import Game
    >>> g = Game(players=2, seed=3)
    >>> plans = turn_plans(g.state)
    >>> len(plans) >= len(g.legal_moves())
    True
    """
    player = state.player
    out: list[tuple[Plan, State]] = []

    def extend(s: State, prefix: Plan, own: bool) -> None:
        moves = s.legal_moves()
        last = len(moves) - 1
        for i, move in enumerate(moves):
            # a state of our own (not the caller's) takes its last move itself: one copy fewer
            child = s if own and i == last else s.copy()
            child.apply(move, trusted=True, quiet=True)
            plan = (*prefix, move)
            if child.phase in (SHAMAN, OCCUPY) and child.player == player:
                extend(child, plan, True)
            else:
                out.append((plan, child))

    extend(state, (), False)
    return out


def plan_tile(state: State, plan: Plan) -> int | None:
    """The tile a plan places (or, mid-turn, the tile just placed)."""
    first = plan[0]
    return first.tile if isinstance(first, Place) else state.tile


def estimated_plans(state: State, first: Sequence[Move] | None = None, kept: Kept | None = None,
                    weights: Weights | None = None) -> list[tuple[Plan, list[float]]]:
    """Every plan of :func:`turn_plans` with the heuristic estimate of the state it leads to
    (only the plans that begin with one of ``first``, if given: legal moves of ``state``).

    The same plans in the same order as :func:`turn_plans`, and the same values as
    :class:`~huntgather.bots.heuristic.Estimator` on each state it lists, to the last bit;
    but the occupants of one placement are not each played on a copy: the placement is
    scored once without an occupant, each occupant that would not change the turn's
    scoring is valued by :meth:`~huntgather.bots.heuristic.Estimator.with_occupants`, and a
    meeple on a feature that the placement completes (scored with it, and back at once) is
    valued on that same state with its owner's points added.

    ``kept``: what features bring, kept across the calls of one search (the same values; see
    :func:`~huntgather.bots.heuristic.brought`).
    ``weights``: the estimate's numbers (:class:`~huntgather.bots.heuristic.Weights`; None: its own).

    >>> from huntgather import Game
    >>> from huntgather.bots.heuristic import Estimator
    >>> g = Game(players=2, seed=3)
    >>> est = Estimator(g.state)
    >>> estimated_plans(g.state) == [(plan, est(after, plan_tile(g.state, plan)))
    ...                              for plan, after in turn_plans(g.state)]
    True
    """
    from huntgather.bots.heuristic import DEFAULT, Estimator
    est = Estimator(state, kept, DEFAULT if weights is None else weights)
    player = state.player
    out: list[tuple[Plan, list[float]]] = []

    def extend(s: State, prefix: Plan, own: bool, full: bool, given: Sequence[Move] | None = None) -> None:
        moves = s.legal_moves() if given is None else list(given)
        if own and s.phase == OCCUPY and s.normal:
            occupants(s, prefix, moves, full)
            return
        last = len(moves) - 1
        for i, move in enumerate(moves):
            # a state of our own (not the caller's) takes its last move itself: one copy fewer
            child = s if own and i == last else s.copy()
            child.apply(move, trusted=True, quiet=True)
            plan = (*prefix, move)
            took = full or isinstance(move, TakeBack)
            if child.phase in (SHAMAN, OCCUPY) and child.player == player:
                extend(child, plan, True, took)
            else:
                out.append((plan, est(child, plan_tile(state, plan), took)))

    def occupants(s: State, prefix: Plan, moves: list[Move], full: bool) -> None:
        """The occupy decision of our own state ``s`` (moves: each occupant, then Pass)."""
        tile = s.tile
        assert tile is not None
        board = s.board
        # a meeple on a feature that this turn completes is scored with it, and comes back
        scored = {root for root, _ in board.completed(s.edition.tiles.by_id[tile])}
        values: list[list[float] | None] = [None] * len(moves)
        quick: list[tuple[int, Occupy]] = []
        completing: list[tuple[int, int]] = []
        for i, move in enumerate(moves[:-1]):
            assert isinstance(move, Occupy)
            root = -1 if not scored or move.piece == HUT else board.feature_id(tile, move.zone)
            if root in scored:
                completing.append((i, root))
            else:
                quick.append((i, move))
        s.apply(moves[-1], trusted=True, quiet=True)   # Pass: the turn is scored without an occupant
        if s.is_over:   # pragma: no cover - the stack was not empty, so the game goes on
            raise AssertionError("the game ended after a placement with tiles left")
        # such a meeple (on a feature without meeples: the only one) leaves the state as Pass does,
        # but for its owner's points: value ``s`` with them added (exactly what the occupant gives)
        scores = s.scores
        for i, root in completing:
            points = completed_points(board, s.edition, board.feature_by_id(root), explain=False)[0]
            scores[player] += points
            try:
                values[i] = est(s, tile, full)
            finally:
                scores[player] -= points
        passed, found = est.with_occupants(s, tile, player, [(m.zone, m.piece) for _, m in quick], full)
        values[-1] = passed
        for (i, _), v in zip(quick, found, strict=True):
            values[i] = v
        for move, value in zip(moves, values, strict=True):
            assert value is not None
            out.append(((*prefix, move), value))

    extend(state, (), False, False, first)
    return out
