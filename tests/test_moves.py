"""Move notation: every move prints to text that parses back to itself."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from huntgather.moves import Draw, InvalidMoveError, Move, Occupy, Pass, Place, TakeBack, parse_move

tiles = st.integers(min_value=0, max_value=94)
zones = st.integers(min_value=0, max_value=9)
coords = st.integers(min_value=-100, max_value=100)
moves: st.SearchStrategy[Move] = st.one_of(
    st.builds(Draw, tiles),
    st.builds(Place, tiles, coords, coords, st.integers(min_value=0, max_value=3)),
    st.builds(Occupy, tiles, zones, st.sampled_from(["meeple", "hut"])),
    st.builds(TakeBack, tiles, zones),
    st.just(Pass()),
)


@given(moves)
def test_text_round_trips(move: Move) -> None:
    assert parse_move(str(move)) == move


def test_examples() -> None:
    assert str(Place(17, 2, -1, 1)) == "17@2,-1r1"
    assert parse_move("m17.1") == Occupy(17, 1, "meeple")
    assert parse_move("h17.8") == Occupy(17, 8, "hut")
    assert parse_move(" x23.0 ") == TakeBack(23, 0)
    assert parse_move("d5") == Draw(5)


@pytest.mark.parametrize("text", ["", "17@2,-1", "17@2,-1r4", "m17", "q17.1", "17@a,br0", "d", "--"])
def test_malformed_text_says_what_was_expected(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="is not a move; expected"):
        parse_move(text)
