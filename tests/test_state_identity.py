"""State equality and its readable repr (issue 13: positions comparable without hand-made snapshots)."""

from __future__ import annotations

import pytest

from huntgather import State
from huntgather.game import Game, random_game


@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_the_same_moves_make_equal_states_and_any_other_move_does_not(edition: str) -> None:
    for seed in range(20):
        a = random_game(2 + seed % 4, seed=seed, edition=edition)
        b = State.new(2 + seed % 4, edition)
        for move in a.history:          # replaying the record, draws included, ends equal
            b.apply(move)
        assert b == a.state and b is not a.state
    game = Game(2, edition=edition, seed=3)
    for _ in range(10):
        state = game.state
        twin = state.copy()
        assert twin == state
        moves = list(state.legal_moves())
        if len(moves) > 1:
            one, other = twin.copy(), twin.copy()
            one.apply(moves[0])
            other.apply(moves[-1])
            assert one != other and one != state
        game.play(moves[0])


def test_states_are_not_hashable_and_compare_only_with_states() -> None:
    state = State.new(players=2)
    with pytest.raises(TypeError):
        hash(state)
    assert state != "a state" and state != None   # noqa: E711
    assert repr(state).startswith("<State 2020, 2 players, turn 0: ")
