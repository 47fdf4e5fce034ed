"""The plans of a turn and their estimates: the search's hot loop (compiled in the optional
build, ``setup.py``'s ``COMPILED_MODULES``).

A *plan* is the moves a player makes before the next draw (or the end of the game): place,
then possibly the shaman take-back and the occupant.  :func:`turn_plans` lists every plan with
the state it leads to, :func:`estimated_plans` every plan with the heuristic estimate of that
state (without playing each occupant on a copy), and :func:`reply` the greedy turn that the
searches play in their roll-outs and samples.  :mod:`huntgather.bots.base` and
:mod:`huntgather.bots.mcts` re-export them, where they lived before.

>>> from huntgather import Game
>>> g = Game(players=2, seed=3)
>>> plan, values = reply(g.state)
>>> (plan, values) in estimated_plans(g.state)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from huntgather.bots.heuristic import DEFAULT, Estimator, Kept, Weights, advantage
from huntgather.moves import Choose, Move, Occupy, Place, TakeBack
from huntgather.scoring import completed_points
from huntgather.state import HUT, OCCUPY, SPECIAL, State

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
            if child.phase in (SPECIAL, OCCUPY) and child.player == player:
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
            took = full or isinstance(move, (TakeBack, Choose))   # (a tuple: see State.apply)
            if child.phase in (SPECIAL, OCCUPY) and child.player == player:
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


def reply(state: State, against: int | None = None, first: list[Move] | None = None,
          kept: Kept | None = None, weights: Weights | None = None) -> tuple[Plan, list[float]]:
    """The greedy turn of the player to move in a roll-out or a sample, with its estimated values:
    the plan with the best margin for that player over the best other (max-n), or, with
    ``against`` a seat other than the mover, the plan that leaves ``against`` the worst margin
    (paranoid).  ``first``: only the plans that begin with one of these moves
    (:func:`estimated_plans`).  The first such plan in :func:`estimated_plans` order wins a tie.
    ``kept``: what features bring, kept across a search, and ``weights``: the estimate's numbers
    (:func:`estimated_plans`).

    >>> from huntgather import Game
    >>> g = Game(players=2, seed=2)
    >>> reply(g.state) == reply(g.state, against=1)   # in two players the two are one
    True
    """
    player = state.player
    # paranoid: the lowest margin of `against`, as the highest of its negation (exact in floats)
    seat, sign = (against, -1.0) if against is not None and against != player else (player, 1.0)
    best: list[float] | None = None
    best_plan: Plan = ()
    best_gain = 0.0
    for plan, values in estimated_plans(state, first, kept, weights):
        gain = sign * advantage(values, seat)
        if best is None or gain > best_gain:
            best, best_plan, best_gain = values, plan, gain
    assert best is not None
    return best_plan, best
