"""A fast estimate of what each player will score by the end of the game.

The estimate is the score so far plus, for every feature that holds a piece:

* an open forest or river: its points now, times a guess of the chance that it
  will be completed (fewer open sides and more tiles left make it likelier);
  a complete one has been scored already;
* a meadow with hunters: its animals as final scoring would count them now
  (tigers, wild fire, pit trap, shrine and hunting traps included), to the
  player(s) with the most hunters;
* a river system with huts: its fish (and lakes with the raft), to the
  player(s) with the most huts;

plus a small value for each meeple and hut still in supply, which shrinks as
the normal stack runs out, and a value for a pending bonus (menhir) turn.

It reads the state and never changes it (apart from the board's internal
path halving, which does not change any answer).

>>> from huntgather import State
>>> s = State.new(players=2)
>>> v = estimate(s)
>>> v[0] == v[1] > 0        # supplies only, equal for both players
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from huntgather.features import SYSTEM
from huntgather.moves import HUT
from huntgather.scoring import (
    forest_points,
    hut_points,
    majority,
    meadow_points,
    meadow_winners,
    river_points,
)
from huntgather.state import BONUS, DRAW, State
from huntgather.tiles import FOREST, LAKE, MEADOW, RIVER

#: value of a meeple in supply while many tiles remain
MEEPLE_VALUE = 2.5
#: value of a hut in supply while many tiles remain
HUT_VALUE = 1.0
#: value of a bonus (menhir) turn that is about to be drawn
BONUS_TURN_VALUE = 4.0
#: how many of one's own turns it takes before a piece in supply loses value
SUPPLY_HORIZON = 8.0


def completion_chance(open_sides: int, remaining: int) -> float:
    """A rough chance that a forest or river with ``open_sides`` open sides gets completed.

    >>> completion_chance(0, 10)
    1.0
    >>> completion_chance(2, 60) > completion_chance(2, 6) > completion_chance(4, 6)
    True
    """
    if open_sides <= 0:
        return 1.0
    return math.exp(-open_sides * 6.0 / (remaining + 2.0))


Memo = dict[tuple[int, frozenset[int]], int]


def estimate(state: State, memo: Memo | None = None) -> list[float]:
    """Expected final score of each seat (see the module text).

    ``memo`` may be shared between calls on states whose boards hold the same
    tiles at the same places (they may differ in occupants and scores): it
    keeps the meadows' animal points.
    """
    if state.is_over:
        return [float(s) for s in state.scores]
    values = [float(s) for s in state.scores]
    for root in occupied_roots(state):
        for player, points in contribution(state, root, memo):
            values[player] += points
    _add_supply(state, values)
    return values


def occupied_roots(state: State) -> list[int]:
    """Roots of every feature (river systems as ``SYSTEM + node``) that holds a piece."""
    board = state.board
    seen: dict[int, None] = {}
    for node, (_, piece) in board.occupants.items():
        seen[board.find(SYSTEM + node if piece == HUT else node)] = None
    return list(seen)


def contribution(state: State, root: int, memo: Memo | None = None) -> list[tuple[int, float]]:
    """What the feature at ``root`` is expected to bring, as ``(seat, points)`` pairs."""
    board = state.board
    edition = state.edition
    f = board.features[root]
    # the points come from huntgather.scoring, as the engine's own scoring does
    if root >= SYSTEM:
        if not f.huts:
            return []
        raft = "raft" in f.specials and edition.honours("raft")
        points = float(hut_points(f.fish, len(f.lakes), raft, explain=False)[0])
        winners = majority(_counts(f.huts))
    elif not f.meeples:
        return []
    elif f.kind == MEADOW:
        winners = meadow_winners(board, edition, root)[0]
        if memo is None:
            points = float(meadow_points(board, edition, root, state.removed_animals, explain=False)[0])
        else:
            key = (root, f.tiles)
            cached = memo.get(key)
            if cached is None:
                cached = memo[key] = meadow_points(board, edition, root, state.removed_animals,
                                                   explain=False)[0]
            points = float(cached)
    else:
        winners = majority(_counts(f.meeples))
        if f.kind == FOREST:
            points = float(forest_points(edition, len(f.tiles), f.mushrooms, explain=False)[0])
        else:
            lake_fish = board.lake_fish(f.lakes)
            points = float(river_points(edition, len(f.tiles), f.fish, lake_fish, len(f.lakes),
                                        explain=False)[0])
        points *= completion_chance(f.open, len(state.normal))
    return [(w, points) for w in winners]


def _add_supply(state: State, values: list[float]) -> None:
    fade = min(1.0, len(state.normal) / state.players / SUPPLY_HORIZON)
    for p in range(state.players):
        values[p] += fade * (MEEPLE_VALUE * state.meeples[p] + HUT_VALUE * state.huts[p])
    if state.phase == DRAW and state.stack == BONUS and state.bonus:
        values[state.player] += BONUS_TURN_VALUE


class Estimator:
    """:func:`estimate` for many states that follow one position by one placement.

    Built on a position, it remembers what each occupied feature brings; for
    a state reached by placing (and occupying) tile ``tile`` it recomputes
    only the features of that tile, and reuses the rest.  A state reached
    with a shaman take-back is estimated in full.

    >>> from huntgather import Game
    >>> from huntgather.bots.base import turn_plans
    >>> g = Game(players=2, seed=9)
    >>> est = Estimator(g.state)
    >>> all(max(abs(a - b) for a, b in zip(est(after, g.state.tile), estimate(after))) < 1e-9
    ...     for _, after in turn_plans(g.state))
    True
    """

    def __init__(self, state: State) -> None:
        self.base: list[tuple[int, list[tuple[int, float]]]] = [
            (root, contribution(state, root)) for root in occupied_roots(state)]
        self.memos: dict[tuple[int, int, int, int], Memo] = {}

    def __call__(self, after: State, tile: int | None, full: bool = False) -> list[float]:
        if after.is_over:
            return [float(s) for s in after.scores]
        board = after.board
        if tile is None or tile not in board.where:
            return estimate(after)
        x, y = board.where[tile]
        # meadows depend on where the tile lies and how it is turned
        memo = self.memos.setdefault((tile, x, y, board.cells[(x, y)][1]), {})
        if full:
            return estimate(after, memo)
        values = [float(s) for s in after.scores]
        find = board.find
        touched = {find(node): None for node in _tile_nodes(after, tile)}
        for root, pairs in self.base:
            if find(root) in touched:
                continue
            for player, points in pairs:
                values[player] += points
        for root in touched:
            for player, points in contribution(after, root, memo):
                values[player] += points
        _add_supply(after, values)
        return values


def _counts(pieces: Sequence[tuple[int, int]]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for p, _ in pieces:
        counts[p] = counts.get(p, 0) + 1
    return counts


_NODES: dict[tuple[str, int], tuple[int, ...]] = {}


def _tile_nodes(state: State, tile_id: int) -> tuple[int, ...]:
    """The partition nodes of a tile's zones: each non-lake zone, and ``SYSTEM +`` each water zone."""
    key = (state.edition.name, tile_id)
    found = _NODES.get(key)
    if found is None:
        nodes = []
        for z in state.edition.tiles[tile_id].zones.values():
            node = tile_id * 10 + z.id
            if z.kind != LAKE:
                nodes.append(node)
            if z.kind == RIVER or z.kind == LAKE:
                nodes.append(SYSTEM + node)
        found = _NODES[key] = tuple(nodes)
    return found


def advantage(values: Sequence[float], player: int) -> float:
    """``player``'s estimate minus the best other player's.

    >>> advantage([10.0, 4.0, 7.0], 0), advantage([10.0, 4.0, 7.0], 1)
    (3.0, -6.0)
    """
    best_other = max(v for i, v in enumerate(values) if i != player)
    return values[player] - best_other
