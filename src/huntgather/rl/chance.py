"""Chance nodes for planners: the tiles a draw may bring, and their probabilities.

A draw takes a tile uniformly from one stack: the normal stack, or the bonus
(menhir / gold nugget) stack in a bonus turn (:attr:`State.stack
<huntgather.state.State.stack>` says which).  Every tile of a stack has its own
id (copies of one picture are different tiles), so each tile of the stack has
probability ``1 / len(stack)``.  A tile that cannot be placed anywhere is
discarded and the draw is made again: that is a new chance node, not part of
this one's outcomes.  The 2002 edition's specials change nothing here (they act
when placed).

>>> from huntgather.game import Game
>>> from huntgather.state import State
>>> g = Game.replay(State.new(2, "2020"), [])     # a game that has not drawn yet
>>> outcomes = chance_outcomes(g.state)
>>> len(outcomes) == len(g.state.normal), round(sum(p for _, p in outcomes), 12)
(True, 1.0)
>>> chance_outcomes(Game(2, seed=1).state)       # a decision, not a draw
()
"""

from __future__ import annotations

from huntgather.state import State


def chance_outcomes(state: State) -> tuple[tuple[int, float], ...]:
    """``(tile id, probability)`` for each tile the due draw may bring, in the stack's order;
    empty unless ``state`` is a chance node."""
    tiles = state.chance_outcomes()
    if not tiles:
        return ()
    p = 1.0 / len(tiles)
    return tuple((t, p) for t in tiles)
