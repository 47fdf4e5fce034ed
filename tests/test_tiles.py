"""The shipped tile sets: contents, rotations and validation errors."""

from __future__ import annotations

import copy
import importlib.util
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from huntgather.tiles import TileDataError, load_tileset, parse_tileset

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO.parent / "shared" / "reference"
DATA = REPO / "src" / "huntgather" / "data"


def _raw(edition: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"tiles-{edition}.json").read_text(encoding="utf-8"))
    return data


def test_2020_set_has_95_tiles_with_the_rulebook_counts() -> None:
    tiles = load_tileset("2020")
    # Rulebook 003 "Contents": 79 land tiles including the start tile, 16 menhir tiles.
    assert len(tiles) == 95
    assert tiles.start.id == 56
    assert len(tiles.normal_ids) == 78
    assert len(tiles.bonus_ids) == 16


def test_2002_set_has_91_tiles_with_the_volcano_start() -> None:
    tiles = load_tileset("2002")
    # RULINGS: volcano start tile 1, land tiles 2-79, bonus tiles 80-91.
    assert len(tiles) == 91
    assert tiles.start.id == 1
    assert tiles.normal_ids == tuple(range(2, 80))
    assert tiles.bonus_ids == tuple(range(80, 92))


@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_listed_holds_each_tile_at_its_id(edition: str) -> None:
    """``TileSet.listed`` (the hot paths' look-up) agrees with ``by_id``: the 2002 set has no tile 0."""
    ts = load_tileset(edition)
    assert len(ts.listed) == max(ts.by_id) + 1
    assert [i for i, t in enumerate(ts.listed) if t is None] == ([0] if edition == "2002" else [])
    assert all(ts.listed[i] is t for i, t in ts.by_id.items())


def test_each_2020_special_appears_exactly_once() -> None:
    specials = Counter(s for t in load_tileset("2020") for s in t.specials())
    assert specials == Counter({"logboat": 1, "hunting_trap": 1, "shaman": 1, "pit_trap": 1,
                                "wild_fire": 1, "raft": 1})


def test_2002_has_fire_and_shrine() -> None:
    specials = Counter(s for t in load_tileset("2002") for s in t.specials())
    assert specials == Counter({"wild_fire": 1, "shrine": 1})


def test_2002_medium_confidence_tiles_keep_their_notes() -> None:
    medium = [t for t in load_tileset("2002") if t.confidence == "medium"]
    # The data header says 11 tiles carry confidence: medium, each with an uncertainty note.
    assert len(medium) == 11
    assert all(t.uncertainty for t in medium)


def test_rotation_turns_sides_clockwise() -> None:
    tile = load_tileset("2020")[56]
    # Unrotated N, E, S, W = meadow, forest, forest, river (see the data file).
    assert tile.side_kinds[0] == ("meadow", "forest", "forest", "river")
    # One clockwise quarter turn brings the west side to the north.
    assert tile.side_kinds[1] == ("river", "meadow", "forest", "forest")
    assert tile.side_kinds[2] == ("forest", "river", "meadow", "forest")
    assert tile.side_at(1, 0).kind == "river"


def test_every_tile_describes_itself_on_one_line() -> None:
    for edition in ("2020", "2002"):
        for tile in load_tileset(edition):
            text = tile.describe()
            assert "\n" not in text and str(tile.id) in text


@pytest.mark.skipif(not REFERENCE.is_dir(), reason="../shared/reference is not beside this checkout")
@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_shipped_data_equals_a_fresh_conversion_of_the_reference(edition: str) -> None:
    spec = importlib.util.spec_from_file_location("convert_tiles", REPO / "tools" / "convert_tiles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    reference = json.loads((REFERENCE / f"tiles-{edition}.json").read_text(encoding="utf-8"))
    shipped = (DATA / f"tiles-{edition}.json").read_text(encoding="utf-8")
    assert module.dump(module.convert(reference)) == shipped


def _broken(edition: str, tile_id: int, **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(_raw(edition))
    for tile in data["tiles"]:
        if tile["id"] == tile_id:
            tile.update(changes)
    return data


@pytest.mark.parametrize(("changes", "message"), [
    ({"sides": ["meadow 0", "meadow 0", "meadow 0"]}, "tile 2: needs 4 sides"),
    ({"zones": ["0 meadow animals=unicorn"]}, "tile 2: zone 0 has unknown animal 'unicorn'"),
    ({"sides": ["forest 0", "meadow 0", "meadow 0", "meadow 0"]}, "needs zone 0 to be forest"),
    ({"sides": ["meadow 5", "meadow 0", "meadow 0", "meadow 0"]}, "side names zone 5"),
    ({"kind": "special"}, "tile 2: kind 'special' is not one of"),
    ({"zones": ["0 meadow fish=2"]}, "zone 0 (meadow) cannot have 'fish=2'"),
])
def test_malformed_tiles_name_the_tile_and_the_problem(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(TileDataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_tileset(_broken("2002", 2, **changes))


def test_river_into_a_missing_lake_is_rejected() -> None:
    data = _broken("2020", 0, zones=["0 meadow", "1 river lake=9", "2 meadow", "3 forest", "4 forest",
                                     "8 lake fish=2"])
    with pytest.raises(TileDataError, match="tile 0: river zone 1 runs into lake 9"):
        parse_tileset(data)


def test_duplicate_ids_and_wrong_format_are_rejected() -> None:
    data = copy.deepcopy(_raw("2020"))
    data["tiles"].append(copy.deepcopy(data["tiles"][0]))
    with pytest.raises(TileDataError, match=r"duplicate tile ids \[0\]"):
        parse_tileset(data)
    with pytest.raises(TileDataError, match="version 2 is not supported"):
        parse_tileset({**_raw("2020"), "version": 2})
    with pytest.raises(TileDataError, match="not a huntgather tile file"):
        parse_tileset({"format": "other"})


def test_unknown_edition_is_a_clear_error() -> None:
    with pytest.raises(TileDataError, match="no tile data for edition '1999'"):
        load_tileset("1999")
