"""Records and positions written before the generic special decision (Phase.SHAMAN) and memory
(State.removed_animals) still load, replay and write back byte for byte.

The files in tests/data/legacy were written by huntgather at commit e4ca293, before the change.
"""

from __future__ import annotations

from pathlib import Path

from huntgather.board import ZoneRef
from huntgather.game import Game
from huntgather.kinds import Phase
from huntgather.moves import TakeBack
from huntgather.record import load_position, read_record, write_position, write_record

LEGACY = Path(__file__).parent / "data" / "legacy"


def _text(name: str) -> str:
    return (LEGACY / name).read_text(encoding="utf-8")


def test_an_old_record_with_a_shaman_take_back_and_hunting_trap_removals_replays_and_writes_back() -> None:
    text = _text("game-shaman-trap.hgr")
    game = read_record(text)
    assert game.is_over
    assert any(isinstance(m, TakeBack) for m in game.history)
    assert game.state.removed_animals == game.state.special_memory["hunting_trap"] != frozenset()
    assert write_record(game) == text


def test_an_old_position_at_the_shaman_decision_loads_as_the_shamans_question() -> None:
    text = _text("position-shaman.hgp")
    assert "decision shaman 88 bonus" in text and "removed-animals 41.0 76.0" in text
    state = load_position(text)
    assert state.phase is Phase.SPECIAL and state.asking == "shaman"
    assert state.decision.special == "shaman" and state.decision.word == "shaman"
    assert state.removed_animals == {ZoneRef(41, 0), ZoneRef(76, 0)}
    assert all(isinstance(m, TakeBack) for m in state.legal_moves()[:-1])
    assert write_position(state) == text


def test_an_old_position_with_removed_animals_writes_back_unchanged() -> None:
    text = _text("position-trap.hgp")
    assert write_position(load_position(text)) == text


def test_an_old_record_from_a_shaman_position_replays_to_its_scores() -> None:
    text = _text("game-from-shaman-position.hgr")
    game = read_record(text)
    assert game.is_over and game.scores == (21, 23, 16)
    assert write_record(game) == text
    # and the same game played again from the old position by the moves gives the same end
    again = Game(state=load_position(_text("position-shaman.hgp")))
    again.follow(game.history)
    assert again.state == game.state
