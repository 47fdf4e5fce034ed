"""Special tiles are objects: a made-up one works end to end without touching any other module.

The "flood" below is not a rule of either edition: at the end of the game, the fish of its
river system count twice for the huts.  It is one class plus data (a tile set in which the start
tile's lake shows it, and an edition that honours it).  The engine, the records, the bots'
heuristic, the renderer, the words and the rules screen pick it up unchanged.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources

import pytest

from huntgather.board import ZoneRef
from huntgather.bots.heuristic import contribution, estimate
from huntgather.editions import Edition, get_edition, register, unregister
from huntgather.events import FinalScoring
from huntgather.game import Game
from huntgather.record import load_position, read_record, write_record
from huntgather.scoring import Term, system_points
from huntgather.specials import Special, known_specials, register_special, special_named, unregister_special
from huntgather.svg import defs, tile_svg
from huntgather.tiles import TileDataError, parse_tileset, register_tileset, unregister_tileset


@dataclass(frozen=True)
class Flood(Special):
    """At the end, the fish of this river system count ``factor`` times for the huts."""

    name = "flood"
    zone_kinds = ("lake",)
    words = "a flood"
    symbol = '<circle r="7" fill="#0d47a1"/><path d="M-5 0 Q-2.5 -3 0 0 T5 0" stroke="#fff" fill="none"/>'
    factor: int = 2

    def rule(self) -> str:
        return f"Flood: at the end, the fish of this river system count {self.factor} times"

    def adjust_system(self, terms: list[Term], fish: int, lakes: int) -> None:
        terms[0] = Term(self.factor * fish, f"{fish} fish ×{self.factor} (flood)")


POSITION = """huntgather record 1
edition 2020-flood
players 2
tile 56 0,0 r0
occupant 56.8 hut 0
normal 44
bonus
moves
"""


@pytest.fixture
def flood() -> Iterator[Edition]:
    register_special(Flood)
    data = json.loads(resources.files("huntgather.data").joinpath("tiles-2020.json").read_text())
    for tile in data["tiles"]:
        if tile["id"] == 56:   # the start tile's lake (1 fish, the river 3 runs into it) floods
            tile["zones"] = [z.replace("8 lake fish=1", "8 lake fish=1 special=flood") for z in tile["zones"]]
    register_tileset(parse_tileset(data | {"edition": "2020-flood"}))
    base = get_edition("2020")
    edition = register(base.variant("2020-flood", specials=base.with_special(Flood()), tileset="2020-flood"))
    try:
        yield edition
    finally:
        unregister("2020-flood")
        unregister_tileset("2020-flood")
        unregister_special("flood")


def test_the_flood_doubles_the_huts_fish_in_the_engine_and_its_words(flood: Edition) -> None:
    state = load_position(POSITION)
    assert state.edition is flood
    game = Game(state=state, seed=1)
    while not game.is_over:      # tile 44 goes anywhere; it cannot reach the river system
        game.play(game.legal_moves()[0])
    final = next(e for e in game.events if isinstance(e, FinalScoring))
    # the start tile's river system: river 3 (no fish) into lake 8 (1 fish) = 1 fish, ×2 = 2
    assert [row.explanation for row in final.rows] == [
        "River system of 1 tile: 1 fish ×2 (flood) = 2 → yellow (1 hut)"]
    assert game.scores == (2, 0)


def test_a_record_of_the_flood_game_round_trips(flood: Edition) -> None:
    game = Game(state=load_position(POSITION), seed=1)
    while not game.is_over:
        game.play(game.legal_moves()[-1])
    text = write_record(game)
    assert "edition 2020-flood" in text and "1 fish ×2 (flood) = 2" in text
    again = read_record(text)
    assert again.scores == game.scores == (2, 0)
    assert write_record(again) == text


def test_the_bots_estimate_counts_the_flood(flood: Edition) -> None:
    state = load_position(POSITION)
    system = state.board.system_id(56, 8)
    assert system_points(state.board, flood, system, explain=False) == (2, "")
    assert contribution(state, system) == [(0, 2.0)]
    plain = load_position(POSITION.replace("2020-flood", "2020"))
    # the same board without the flood: 1 fish; the rest of the estimate (supplies) is the same
    assert estimate(state)[0] - estimate(plain)[0] == pytest.approx(1.0)


def test_the_renderer_and_the_words_show_the_flood(flood: Edition) -> None:
    from huntgather.server.words import zone_phrase

    tile = flood.tiles[56]
    picture = tile_svg(tile)
    assert 'href="#hg-flood"' in picture
    assert "Flood: at the end, the fish of this river system count 2 times" in picture
    assert '<symbol id="hg-flood"' in defs()
    assert "a flood" in zone_phrase(tile, 8, 0)
    assert special_named("flood") == Flood()


def test_the_rules_screen_lists_the_editions_specials(flood: Edition) -> None:
    from huntgather.server.rules_page import rules_payload

    def paragraphs(edition: str) -> list[str]:
        page = json.loads(rules_payload(edition))
        return [p for section in page["sections"] for p in section.get("paragraphs", [])]

    assert "Flood: at the end, the fish of this river system count 2 times." in paragraphs("2020-flood")
    assert not any("Flood" in p for p in paragraphs("2020"))


def test_a_special_without_a_picture_gets_a_plain_badge_named_by_its_rule(flood: Edition) -> None:
    @register_special
    @dataclass(frozen=True)
    class Drought(Special):
        name = "drought"
        zone_kinds = ("meadow",)

    try:
        data = json.loads(resources.files("huntgather.data").joinpath("tiles-2020.json").read_text())
        tiles = parse_tileset(data | {"edition": "x"})
        tile = next(t for t in tiles if t.zones[0].kind == "meadow" and not t.zones[0].special)
        raw = next(t for t in data["tiles"] if t["id"] == tile.id)
        raw["zones"] = [z + " special=drought" if z.startswith("0 meadow") else z for z in raw["zones"]]
        drawn = tile_svg(parse_tileset(data | {"edition": "x"})[tile.id])
        assert "Drought: a special tile" in drawn and 'href="#hg-drought"' not in drawn
    finally:
        unregister_special("drought")


def test_tile_data_may_print_only_known_specials_on_zones_they_fit() -> None:
    data = json.loads(resources.files("huntgather.data").joinpath("tiles-2020.json").read_text())
    start = next(t for t in data["tiles"] if t["id"] == 56)
    start["zones"] = [z.replace("8 lake fish=1", "8 lake fish=1 special=flod") for z in start["zones"]]
    with pytest.raises(TileDataError, match=r"tile 56: zone 8 has unknown special 'flod' \(known: "):
        parse_tileset(data)
    start["zones"] = [z.replace("special=flod", "special=shaman") for z in start["zones"]]
    with pytest.raises(TileDataError, match="the special 'shaman' goes on a meadow, not on a lake"):
        parse_tileset(data)


def test_every_shipped_special_is_registered_with_a_picture_words_and_a_rule() -> None:
    names = {s.name for s in known_specials()}
    assert {"shaman", "hunting_trap", "pit_trap", "wild_fire", "shrine", "logboat", "raft"} <= names
    for edition in ("2020", "2002"):
        for special in get_edition(edition).specials:
            assert special.symbol and special.words and special.rule().startswith(
                special.name.replace("_", " ").capitalize().split()[0])


def test_an_edition_may_honour_only_registered_specials() -> None:
    with pytest.raises(ValueError, match="honours the special 'flood', which is not registered"):
        register(get_edition("2020").variant("2020-unknown", specials=(Flood(),)))


def test_editions_and_tiles_are_hashable_and_immutable() -> None:
    e = get_edition("2020")
    assert hash(e) == hash(dataclasses.replace(e)) and e == dataclasses.replace(e)
    assert hash(e.tiles[56]) == hash(e.tiles[56])
    with pytest.raises(TypeError, match=r"^a FrozenDict cannot change$"):
        e.animal_points["mammoth"] = 5   # type: ignore[index]
    with pytest.raises(TypeError, match=r"^a FrozenDict cannot change$"):
        e.tiles[56].zones[8] = e.tiles[56].zones[3]   # type: ignore[index]
    assert ZoneRef(56, 8) == (56, 8)
