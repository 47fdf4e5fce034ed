"""What players read: zones named by where they lie, never by the engine's ids."""

from __future__ import annotations

import random
import re

import pytest

from huntgather.editions import edition_names
from huntgather.game import Game
from huntgather.server.protocol import event_view, legal_json, move_to_json
from huntgather.server.words import where, zone_phrase
from huntgather.tiles import load_tileset

#: what the engine's own texts look like: "zone 3", "tile 24", "lake 8", "(1, -2)", "37.0"
ENGINE_WORDS = re.compile(r"\bzone \d|\btile \d|\blake \d|\(-?\d+, ?-?\d+\)|\b\d+\.\d\b")


@pytest.mark.parametrize("edition", edition_names())
def test_no_two_zones_of_a_tile_read_alike(edition: str) -> None:
    """The bug: a tile with two rivers offered "fisher on the river" twice."""
    tiles = load_tileset(edition)
    for tile in tiles:
        for rotation in range(4):
            phrases = [zone_phrase(tile, z, rotation) for z in tile.zones]
            assert len(set(phrases)) == len(phrases), (tile.id, rotation, phrases)
            for p in phrases:
                assert not ENGINE_WORDS.search(p), p


def test_a_crossroads_of_four_rivers_into_two_lakes() -> None:
    # tile 83 (2020): a river on every side.  Going clockwise along each side: north (meadow 0,
    # river 1, meadow 2), east (2, river 3, 0), south (0, river 4, meadow 5), west (5, river 6, 0).
    # So meadow 0 holds the north-west and south-east corners, meadow 2 the north-east one;
    # rivers 1 and 3 run into lake 8, rivers 4 and 6 into lake 9 (the tile data says so).
    tile = load_tileset("2020")[83]
    assert zone_phrase(tile, 0, 0) == "the meadow to the north-west and south-east (2 deer)"
    assert zone_phrase(tile, 2, 0) == "the meadow to the north-east"
    assert zone_phrase(tile, 1, 0) == "the river to the north"
    assert zone_phrase(tile, 8, 0) == "the lake fed from the north and the east (2 fish)"
    assert zone_phrase(tile, 9, 0) == "the lake fed from the south and the west (2 fish)"
    # turned once clockwise, what faced north faces east
    assert zone_phrase(tile, 8, 1) == "the lake fed from the east and the south (2 fish)"
    assert where(tile, 8, 0) == ""   # a lake touches no side


@pytest.mark.parametrize("edition", edition_names())
def test_log_lines_and_choices_of_a_whole_game_use_no_engine_ids(edition: str) -> None:
    rng = random.Random(7)
    game = Game(3, edition=edition, seed=11)
    while not game.is_over:
        state = game.state
        offered, legal = legal_json(state), state.legal_moves()
        # the choices sent are the engine's legal moves, in its order, each as a page sends it back
        assert len(offered) == len(legal)
        for item, move in zip(offered, legal, strict=True):
            assert move_to_json(state, move).items() <= item.items(), (item, move)
        for item in offered:
            assert not ENGINE_WORDS.search(item.get("text", "")), item
        game.play(rng.choice(list(state.legal_moves())))
    kinds = set()
    for e in game.events:
        view = event_view(e, game.state)
        kinds.add(view["kind"])
        assert not ENGINE_WORDS.search(view["text"]), view["text"]
    assert {"TilePlaced", "OccupantPlaced", "OccupantsReturned"} <= kinds
    bonus = game.state.edition.bonus_name
    texts = [event_view(e, game.state)["text"] for e in game.events]
    assert any(t.endswith(f"places a {bonus}") for t in texts) or "BonusTurn" not in kinds


@pytest.mark.parametrize("edition", edition_names())
def test_hinted_squares_are_named_in_words_and_never_alike(edition: str) -> None:
    """The bug: hints read "the tile as drawn — 0.07" twice in one list; every hinted square now
    has words of its own (what lies beside it, where on the board), never coordinates."""
    from huntgather.moves import Place
    from huntgather.server.words import square_words
    lists = 0
    for seed in range(12):
        game = Game(players=3, seed=seed, edition=edition)
        rng = random.Random(seed)
        for ply in range(400):
            if game.is_over:
                break
            legal = game.legal_moves()
            if game.state.phase == "place" and ply % 7 == 3:
                squares = sorted({(m.x, m.y) for m in legal if isinstance(m, Place)})
                picked = rng.sample(squares, min(3, len(squares)))
                # hints may share a square (another rotation): it reads the same, once
                picked += picked[:1]
                words = square_words(game.state.board, picked, game.state.current_player)
                assert len(set(words)) == len(set(picked)), (picked, words)
                assert words[0] == words[-1]
                for w in words:
                    assert not ENGINE_WORDS.search(w), w
                    assert re.search(r"north|south|east|west|next to|top|bottom|left|right|middle", w), w
                lists += 1
            game.play(rng.choice(legal))
    assert lists > 50
