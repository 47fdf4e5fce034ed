"""A special that asks a question and remembers something, defined only here, works end to end.

The "oracle" is not a rule of any edition: whoever places it either takes 1 point now or banks it;
whoever places an oracle later cashes their banked points at 2 each.  It is one class (its
question, options and answer, and its memory in ``state.special_memory["oracle"]``) plus data: a
tile set in which the tiles that print a shaman, a pit trap or a wild fire print it instead (and a
meadow of every fifth tile), and an
edition that honours it.  The engine, records (write, load, replay), positions at its question,
the learning environment's actions and the server's words pick it up with no module changed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from random import Random

import pytest

from huntgather.board import Board, ZoneRef
from huntgather.editions import Edition, get_edition, register, unregister
from huntgather.events import Event, FeatureScored, player_name
from huntgather.game import Game
from huntgather.kinds import Phase
from huntgather.moves import Choose, Move, Pass, TakeBack, parse_move
from huntgather.record import load_position, read_record, write_position, write_record
from huntgather.scoring import award
from huntgather.specials import Special, Table, register_special, unregister_special
from huntgather.state import IllegalMoveError
from huntgather.tiles import parse_tileset, register_tileset, unregister_tileset


@dataclass(frozen=True)
class Oracle(Special):
    """Take 1 point now, or bank it: a later oracle of yours pays 2 for each point banked."""

    name = "oracle"
    words = "an oracle"
    question = "may take 1 point now or bank it (oracle)"
    prompt = "Oracle: take 1 point now, or bank it for 2 at your next oracle?"
    decline = "neither"

    def rule(self) -> str:
        return "Oracle: whoever places this tile takes 1 point now, or banks it for 2 at their next oracle"

    def _banked(self, state: Table) -> tuple[int, ...]:
        memory = state.special_memory.get(self.name)
        return memory if isinstance(memory, tuple) else (0,) * state.players

    def on_placed(self, state: Table, where: ZoneRef, x: int, y: int) -> list[Event]:
        banked = self._banked(state)
        p = state.player
        if not banked[p]:
            return []
        points = 2 * banked[p]
        state.scores[p] += points
        left = tuple(0 if i == p else b for i, b in enumerate(banked))
        if any(left):
            state.special_memory[self.name] = left
        else:   # nothing banked is no memory (a position read back has none)
            del state.special_memory[self.name]
        return [FeatureScored(self.name, award(points, (p,), state.players),
                              f"Oracle: {banked[p]} banked ×2 = {points} → {player_name(p)}", ())]

    def options(self, state: Table) -> list[Move]:
        return [Choose("now"), Choose("bank")]

    def option_words(self, option: str) -> str:
        return {"now": "1 point now", "bank": "bank it for 2 later"}[option]

    def answer(self, state: Table, move: TakeBack | Choose) -> list[Event]:
        assert isinstance(move, Choose)
        p = state.player
        if move.option == "now":
            state.scores[p] += 1
            return [FeatureScored(self.name, award(1, (p,), state.players),
                                  f"Oracle: 1 point now → {player_name(p)}", ())]
        banked = self._banked(state)
        state.special_memory[self.name] = tuple(b + (i == p) for i, b in enumerate(banked))
        return []

    def write_memory(self, memory: object) -> str:
        return " ".join(map(str, memory)) if isinstance(memory, tuple) else ""

    def read_memory(self, words: Sequence[str], board: Board) -> object:
        if not all(w.isdigit() for w in words):
            raise ValueError(f"the oracle remembers a number of banked points per seat, "
                             f"not {' '.join(words)!r}")
        return tuple(int(w) for w in words)


@pytest.fixture
def oracle() -> Iterator[Edition]:
    register_special(Oracle)
    data = json.loads(resources.files("huntgather.data").joinpath("tiles-2020.json").read_text())
    for tile in data["tiles"]:
        for printed in ("shaman", "pit_trap", "wild_fire"):
            tile["zones"] = [z.replace(f"special={printed}", "special=oracle") for z in tile["zones"]]
        # and the first plain meadow of every fifth tile: the oracle comes up in most games
        meadows = [i for i, z in enumerate(tile["zones"]) if " meadow" in z and "special=" not in z]
        if tile["id"] % 5 == 0 and meadows:
            tile["zones"][meadows[0]] += " special=oracle"
    register_tileset(parse_tileset(data | {"edition": "2020-oracle"}))
    base = get_edition("2020")
    edition = register(base.variant("2020-oracle", specials=base.with_special(Oracle()),
                                    tileset="2020-oracle"))
    try:
        yield edition
    finally:
        unregister("2020-oracle")
        unregister_tileset("2020-oracle")
        unregister_special("oracle")


def _play(seed: int, choose: str | None = None) -> Game:
    """A random 2-player game of the oracle edition; at the oracle's question ``choose`` that
    option (None: a random answer)."""
    game = Game(2, edition="2020-oracle", seed=seed)
    rng = Random(seed)
    while not game.is_over:
        moves = game.legal_moves()
        if game.decision.special == "oracle" and choose is not None:
            game.play(Choose(choose))
        else:
            game.play(moves[rng.randrange(len(moves))])
    return game


def _at_question() -> Game:
    """A random game of the oracle edition stopped at the first oracle question it reaches."""
    for seed in range(50):
        game = Game(2, edition="2020-oracle", seed=seed)
        rng = Random(seed)
        while not game.is_over and game.decision.special != "oracle":
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
        if not game.is_over:
            return game
    raise AssertionError("no game reached the oracle's question")


def _asked(game: Game) -> list[int]:
    """The plies (indexes into the history) that answer the oracle's question."""
    state = game.initial.copy()
    out = []
    for i, move in enumerate(game.history):
        if state.decision.special == "oracle":
            out.append(i)
        state.apply(move)
    return out


def test_the_oracle_asks_its_question_and_the_engine_applies_the_answers(oracle: Edition) -> None:
    game = _at_question()
    state = game.state
    assert state.phase is Phase.SPECIAL and state.decision.word == "oracle"
    assert state.legal_moves() == [Choose("now"), Choose("bank"), Pass()]
    assert state.describe_decision().endswith("may take 1 point now or bank it (oracle)")
    with pytest.raises(IllegalMoveError, match="does not answer the oracle's question"):
        state.check(Choose("later"))
    with pytest.raises(IllegalMoveError):
        state.check(TakeBack(56, 0))
    p, before = state.player, list(state.scores)
    bank = state.copy()
    events = game.play(parse_move("!now"))
    assert game.state.scores[p] == before[p] + 1
    assert any(getattr(e, "explanation", "").startswith("Oracle: 1 point now") for e in events)
    bank.apply(Choose("bank"))
    assert bank.scores == before and bank.special_memory["oracle"][p] == 1


def test_banked_points_are_remembered_and_paid_at_the_next_oracle(oracle: Edition) -> None:
    game = _play(3, choose="bank")
    asked = _asked(game)
    assert len(asked) >= 2
    cashed = [e for e in game.events if isinstance(e, FeatureScored) and "banked ×2" in e.explanation]
    assert cashed and all(e.points != (0, 0) for e in cashed)


@pytest.mark.parametrize("seed", range(4))
def test_records_and_positions_of_oracle_games_write_load_and_replay(oracle: Edition, seed: int) -> None:
    game = _play(seed)
    text = write_record(game)
    assert "!now" in text or "!bank" in text or " - " in text
    again = read_record(text)
    assert again.scores == game.scores and again.state == game.state
    assert write_record(again) == text
    # every position along the game, the oracle's question and its memory included, round-trips
    state = game.initial.copy()
    seen = set()
    for move in game.history:
        if state.decision.special == "oracle" or state.special_memory:
            position = write_position(state)
            loaded = load_position(position)
            assert loaded == state and write_position(loaded) == position
            assert loaded.legal_moves() == state.legal_moves()
            seen |= {line.split()[0] for line in position.splitlines()
                     if line.startswith(("decision oracle", "memory oracle"))}
        state.apply(move)
    assert "decision" in seen


def test_a_position_with_the_oracles_memory_reads_it_by_name(oracle: Edition) -> None:
    game = _play(3, choose="bank")
    state = game.initial.copy()
    for move in game.history:
        state.apply(move)
        if any(state.special_memory.get("oracle", ())):
            break
    text = write_position(state)
    line = next(line for line in text.splitlines() if line.startswith("memory oracle "))
    assert load_position(text).special_memory["oracle"] == state.special_memory["oracle"]
    with pytest.raises(ValueError, match="banked points per seat"):
        load_position(text.replace(line, "memory oracle x y"))


def test_the_learning_environment_has_actions_for_the_oracles_options(oracle: Edition) -> None:
    np = pytest.importorskip("numpy")
    from huntgather.rl.encoding import OPTIONS, Encoder

    game = _at_question()
    enc = Encoder(game.state, window=33)
    moves, mask = enc.legal()
    assert moves == [Choose("now"), Choose("bank"), Pass()]
    actions = [enc.encode(m) for m in moves]
    assert actions == [enc.choose0, enc.choose0 + 1, enc.pass_action]
    assert enc.actions == enc.choose0 + OPTIONS
    assert np.flatnonzero(mask).tolist() == sorted(actions)
    assert [enc.decode(a) for a in actions] == moves
    assert enc.decode(enc.choose0 + 5) not in moves   # an option not offered: never legal


def test_the_server_words_the_oracles_question_generically(oracle: Edition) -> None:
    pytest.importorskip("starlette")
    from huntgather.server.protocol import decision_view, describe_turn, legal_json, move_from_json

    game = _at_question()
    state = game.state
    view = decision_view(state)
    assert view["phase"] == view["special"] == "oracle"
    assert view["prompt"] == Oracle.prompt
    def raw(text: str) -> dict[str, object]:   # a third party's words have no key: said as they are
        return {"key": "say.raw", "params": {"text": text}}

    assert legal_json(state) == [
        {"kind": "choose", "option": "now", "text": "1 point now", "say": raw("1 point now")},
        {"kind": "choose", "option": "bank", "text": "bank it for 2 later",
         "say": raw("bank it for 2 later")},
        {"kind": "pass", "text": "neither", "say": raw("neither")}]
    assert move_from_json(state, {"kind": "choose", "option": "bank"}) == Choose("bank")
    assert describe_turn(state, [Choose("bank")]) == "oracle: bank it for 2 later"
