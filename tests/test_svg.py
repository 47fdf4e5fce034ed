"""Tile and board pictures: well-formed, faithful to the tile data, rotations consistent."""

from __future__ import annotations

import gzip
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from huntgather import random_game
from huntgather.svg import board_svg, tile_svg, zone_anchors
from huntgather.tiles import LAKE, RIVER, Tile, load_tileset

NS = "{http://www.w3.org/2000/svg}"
TILES = [(ed, t) for ed in ("2020", "2002") for t in load_tileset(ed)]


def titles(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}title")]


@pytest.mark.parametrize(("edition", "tile"), TILES, ids=lambda v: v if isinstance(v, str) else str(v.id))
def test_every_tile_shows_what_its_data_says(edition: str, tile: Tile) -> None:
    for rotation in range(4):
        root = ET.fromstring(tile_svg(tile, rotation))   # well-formed XML
        names = titles(root)
        zones = tile.zones.values()
        for animal in ("mammoth", "aurochs", "deer", "tiger"):
            assert names.count(animal) == sum(z.animals.count(animal) for z in zones), animal
        assert names.count("fish") == sum(z.fish for z in zones)
        assert names.count("menhir") == sum(z.menhirs for z in zones)
        assert names.count("mushrooms") == sum(z.mushrooms for z in zones)
        assert names.count("gold nugget") == sum(z.gold_nuggets for z in zones)
        assert names.count("river") == sum(z.kind == RIVER for z in zones)
        assert sum(n.startswith("lake ") for n in names) == sum(z.kind == LAKE for z in zones)
        for special in tile.specials():   # named, and said what it does ("Pit trap: at the end, …")
            word = special.replace("_", " ")
            assert any(n.lower().startswith(word + ": ") and len(n) > len(word) + 20 for n in names), word
        assert ("bonus tile" in names) == tile.is_bonus


@pytest.mark.parametrize(("edition", "tile"), TILES, ids=lambda v: v if isinstance(v, str) else str(v.id))
def test_anchors_lie_on_the_tile_and_turn_with_it(edition: str, tile: Tile) -> None:
    base = zone_anchors(tile, 0)
    assert set(base) == set(tile.zones)
    for x, y in base.values():
        assert 0 < x < 100 and 0 < y < 100
    # zones of one tile never share an anchor (a piece must show which zone it is on)
    assert len(set(base.values())) == len(base)
    for rotation in range(1, 4):
        turned = zone_anchors(tile, rotation)
        for zone, (x, y) in base.items():
            # one clockwise quarter turn about the centre maps (x, y) to (100 - y, x)
            for _ in range(rotation):
                x, y = 100 - y, x
            assert turned[zone] == pytest.approx((x, y), abs=0.11)


def test_tile_sides_are_drawn_in_their_colours() -> None:
    # 2020 start tile 56: N meadow, E forest, S forest, W river (ChaCuN data)
    tile = load_tileset("2020")[56]
    svg = tile_svg(tile, 0)
    # the wedge towards the east side (centre, NE corner, SE corner) is forest green
    assert '<path d="M50 50 L100 0 L100 100 Z" fill="#2f6b2a"' in svg
    # the north wedge is meadow
    assert '<path d="M50 50 L0 0 L100 0 Z" fill="#b5d67a"' in svg
    # after one clockwise turn the north meadow faces east
    assert '<path d="M50 50 L100 0 L100 100 Z" fill="#b5d67a"' in tile_svg(tile, 1)


def test_board_picture_shows_every_tile_and_piece() -> None:
    game = random_game(3, seed=12)
    state = game.state
    root = ET.fromstring(board_svg(state, highlight=[56]))
    tiles = [g for g in root.iter(f"{NS}g") if g.get("class") == "hg-tile"]
    assert len(tiles) == len(state.board.cells)
    pieces = [g for g in root.iter(f"{NS}g") if g.get("class") == "hg-piece"]
    assert len(pieces) == len(state.board.occupants)


def test_no_letter_on_a_tile_means_two_things() -> None:
    """The bug: "F" marked both a fisher (a piece) and the wild fire (a special).  Animals and
    specials are now pictures, each its own symbol, so a tile carries no letters at all (the
    page's F, G and H mark only pieces)."""
    from huntgather.svg import defs

    for edition in ("2020", "2002"):
        for tile in load_tileset(edition):
            svg = tile_svg(tile, 0)
            assert "<text" not in svg, tile.id
            for special in tile.specials():
                assert svg.count(f'href="#hg-{special}"') == tile.specials().count(special)
    symbols = re.findall(r'<symbol id="([^"]+)"', defs())
    assert len(set(symbols)) == len(symbols)


def test_a_bonus_tile_is_titled_with_the_editions_word() -> None:
    from huntgather.editions import get_edition
    from huntgather.svg import tile_fragment

    for name, word in (("2020", "menhir tile"), ("2002", "bonus tile")):
        edition = get_edition(name)
        assert edition.bonus_name == word
        bonus = next(t for t in edition.tiles if t.is_bonus)
        assert f"<title>{word}</title>" in tile_fragment(bonus, 0, edition.bonus_name)


def _luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_a_piece_stands_out_on_every_terrain() -> None:
    """Pieces are drawn with a white halo under a black outline (web/app.js, pieceSvg; the page
    is checked in test_web_ui): on each terrain colour one of the two has a contrast of at least
    3:1, which the player colours alone do not (blue on a forest: 1.9:1)."""
    from huntgather.svg import (
        FOREST_DARK,
        FOREST_FILL,
        MEADOW_FILL,
        MEADOW_HEDGE,
        PLAYER_COLOURS,
        WATER,
        WATER_DARK,
        WATER_LIGHT,
    )

    terrains = [FOREST_FILL, FOREST_DARK, MEADOW_FILL, MEADOW_HEDGE, WATER, WATER_LIGHT, WATER_DARK]
    assert min(_contrast(c, FOREST_FILL) for c in PLAYER_COLOURS) < 3   # why the outline is needed
    for terrain in terrains:
        assert max(_contrast("#ffffff", terrain), _contrast("#000000", terrain)) >= 3, terrain


def test_a_special_the_renderer_does_not_know_still_draws() -> None:
    """A new special (a house rule's tile) must not take down the tile pictures: it gets a plain
    "?" badge titled with its name."""
    import dataclasses

    tile = load_tileset("2020")[79]   # a menhir tile
    meadow = next(z for z in tile.zones.values() if z.kind == "meadow")
    zones = dict(tile.zones)
    zones[meadow.id] = dataclasses.replace(meadow, special="flood")
    flooded = Tile(tile.id, tile.kind, tile.sides, zones)
    names = titles(ET.fromstring(tile_svg(flooded, 0)))
    assert "flood" in names


@pytest.mark.parametrize("edition", ["2020", "2002"])
def test_animals_are_drawn_as_their_silhouettes(edition: str) -> None:
    """Each animal of the tile data is a silhouette symbol of its own kind, not a letter."""
    for tile in load_tileset(edition):
        svg = tile_svg(tile, 0)
        for animal in ("mammoth", "aurochs", "deer", "tiger"):
            expected = sum(z.animals.count(animal) for z in tile.zones.values())
            assert svg.count(f'href="#hg-{animal}"') == expected, (tile.id, animal)
            assert f'<symbol id="hg-{animal}"' in svg


def test_separate_meadows_on_one_tile_are_parted_by_a_hedge() -> None:
    """The bug: separate meadows of a tile were split by hairlines.  Tile 4 (2002) has three
    meadows, north (zone 0), south (2) and west (3), and a forest east: the west meadow meets the
    north one at the north-west corner and the south one at the south-west corner, so two hedges;
    the start tile of 2020 has its two meadows apart (the river runs between them): none."""
    from huntgather.svg import tile_fragment

    assert tile_fragment(load_tileset("2002")[4]).count('class="hg-hedge"') == 2
    assert tile_fragment(load_tileset("2020")[56]).count('class="hg-hedge"') == 0


def test_the_letter_on_a_drawn_piece_reads_on_its_colour() -> None:
    """The pictures the server draws (rules diagrams, tile sheet) put each piece's letter in black
    or white, whichever reads on the seat's colour: at least 4.5:1 (black on blue was 4.05:1)."""
    import re

    from huntgather.svg import PLAYER_COLOURS, piece_svg

    for seat, colour in enumerate(PLAYER_COLOURS):
        for piece in ("meeple", "hut"):
            drawn = piece_svg(seat, piece, (50.0, 50.0))
            ink = re.search(r'<text [^>]*fill="(#[0-9a-fA-F]{6})"', drawn)
            assert ink is not None and _contrast(ink[1], colour) >= 4.5, (seat, piece)


# ---------------------------------------------------------------------------- the two tile styles

#: the clean style's output for every tile of both editions in 4 rotations, captured before the
#: painted style was added (commit "svg: capture the clean tile pictures as a fixture"); the
#: clean style must stay exactly this
CLEAN_FIXTURE = Path(__file__).parent / "data" / "clean_tiles.json.gz"


def test_the_clean_style_is_byte_identical_to_the_captured_pictures() -> None:
    from huntgather.editions import get_edition
    from huntgather.svg import defs, tile_fragment

    captured = json.loads(gzip.decompress(CLEAN_FIXTURE.read_bytes()))
    assert defs() == captured["defs"]
    seen = 0
    for name in ("2020", "2002"):
        edition = get_edition(name)
        for tile in edition.tiles:
            want = captured["tiles"][f"{name}/{tile.id}"]
            assert [tile_fragment(tile, r, edition.bonus_name) for r in range(4)] == want["fragment"], tile.id
            assert tile_svg(tile, 0) == want["svg"], tile.id
            seen += 1
    assert seen == len(captured["tiles"]) == 95 + 91


@pytest.mark.parametrize(("edition", "tile"), TILES, ids=lambda v: v if isinstance(v, str) else str(v.id))
def test_every_painted_tile_is_valid_svg_that_shows_its_data(edition: str, tile: Tile) -> None:
    """The painted style draws every tile of both editions in 4 rotations as well-formed SVG with
    the same titled contents as the clean style (the same names, the same counts), refers only
    to symbols its defs hold, and is the same every time (the crowns' layout is seeded)."""
    from huntgather.svg import defs

    ids = set(re.findall(r'id="([^"]+)"', defs("painted")))
    for rotation in range(4):
        painted = tile_svg(tile, rotation, style="painted")
        root = ET.fromstring(painted)
        assert root.find(f".//{NS}g[@class='hg-tile hg-painted']") is not None
        clean = [t for t in titles(ET.fromstring(tile_svg(tile, rotation))) if t != "forest"]   # its trees
        assert sorted(titles(root)) == sorted(clean)
        refs = set(re.findall(r'(?:href="#|url\(#)([^")]+)', painted))
        assert refs <= ids, refs - ids
        assert "<text" not in painted
        assert painted == tile_svg(tile, rotation, style="painted")


def test_painted_symbols_are_big_enough_to_read_on_a_phone() -> None:
    """At the board's overview zoom on a phone a tile is about 46 px: the clean style's animals
    are 15 units of the tile's 100 (a disc of 13, the silhouette about 10: 5 px); the painted
    style's silhouettes fill boxes of at least 24 (11 px), fish 17, menhirs 19, gold 18."""
    least = {"mammoth": 24, "aurochs": 24, "deer": 24, "tiger": 24, "fish": 17, "menhir": 19, "gold": 18}
    seen: set[str] = set()
    for edition in ("2020", "2002"):
        for tile in load_tileset(edition):
            for rotation in range(4):
                root = ET.fromstring(tile_svg(tile, rotation, style="painted"))
                for use in root.iter(f"{NS}use"):
                    name = (use.get("href") or "").removeprefix("#hgp-")
                    if name in least:
                        seen.add(name)
                        size = min(float(use.get("width", 0)), float(use.get("height", 0)))
                        assert size >= least[name], (tile.id, name, size)
                        # and wholly on the tile
                        x, y = float(use.get("x", 0)), float(use.get("y", 0))
                        assert min(x, y) >= 0 and max(x, y) + size <= 100, (tile.id, name)
    assert seen == set(least)


def test_the_two_styles_share_a_document_without_a_clash() -> None:
    """The tile sheet shows both styles in one page: the painted defs hold the clean ones
    unchanged (a clean picture draws with them) and add their own ids only (``hgp-…``)."""
    from huntgather.svg import defs

    clean, painted = defs(), defs("painted")
    assert painted.startswith(clean[:-len("</defs>")])
    added = re.findall(r'id="([^"]+)"', painted[len(clean) - len("</defs>"):])
    assert added and all(i.startswith("hgp-") for i in added)
    assert len(set(added)) == len(added)
    with pytest.raises(ValueError, match="unknown tile style"):
        defs("oils")
