"""The painted style of the tile pictures: the same tile data as :mod:`huntgather.svg`'s clean
style, drawn to read like a painted tile (no copied artwork: everything here is drawn by code).

* meadows and forests are filled with patterns defined once in the ``<defs>`` (a grain made by
  ``feTurbulence`` inside the pattern's cell, so the filter runs once per page and not once per
  tile, with grass tufts and leaf flecks from a fixed seed);
* forests carry tree crowns scattered over their wedges from a layout seeded by the tile's id
  and the wedge, so a tile looks the same every time it is drawn;
* rivers and lakes have depth: deep blue in the middle, lighter toward a sandy bank;
* animals, fish, gold nuggets and menhirs are bigger, simpler silhouettes with an outline, so
  that they read at the board's overview zoom on a phone (a tile of 46 px there).

The layout (where each zone, symbol and piece goes) is the clean style's: the occupants'
anchors (:func:`huntgather.svg.zone_anchors`) are the same in both styles.  The painted
symbols have ids of their own (``hgp-…``), so both styles can share one document (the tile
sheet shows them side by side).

>>> from huntgather.tiles import load_tileset
>>> tile = load_tileset("2020")[56]
>>> painted_fragment(tile) == painted_fragment(tile)   # the seeded layout is stable
True
>>> 'href="#hgp-aurochs"' in painted_fragment(tile) and "hgp-meadow" in painted_defs()
True
"""

from __future__ import annotations

import random
from html import escape

from huntgather.specials import special_named
from huntgather.svg import (
    _O,
    _SYMBOL_TITLES,
    FOREST_DARK,
    MEADOW_HEDGE,
    WATER,
    WATER_DARK,
    WATER_LIGHT,
    Point,
    _badge,
    _f,
    _Layout,
    _lerp,
    _pt,
    _rot,
    _spread,
    _symbols,
    river_path,
    special_title,
)
from huntgather.tiles import FOREST, LAKE, MEADOW, RIVER, Tile

#: the painted style's sizes of its symbols, in the tile's 0–100 box (the clean style's: animals
#: 15 on a disc of 13, fish 12, menhir and gold 13); tests/test_svg.py holds them to a minimum
SYMBOL_SIZES = {"animal": 24.0, "fish": 17.0, "menhir": 19.0, "gold": 18.0, "mushroom": 15.0,
                "special": 18.0}
#: how much bigger the page draws the players' pieces in the painted style (web/js/pieces.js)
PIECE_SCALE = 1.25

SAND = "#d8c48e"
SAND_DARK = "#a8915a"


def _grass_tufts(seed: str, n: int, size: float, colours: tuple[str, ...]) -> str:
    """``n`` little strokes scattered over a ``size`` cell (a pattern's texture), from ``seed``."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        x, y = rng.uniform(0, size), rng.uniform(0, size)
        dx, dy = rng.uniform(-0.8, 0.8), -rng.uniform(1.0, 2.2)
        colour = rng.choice(colours)
        out.append(f'<path d="M{_f(x)} {_f(y)} l{_f(dx)} {_f(dy)}" stroke="{colour}"/>')
    return "".join(out)


def _flecks(seed: str, n: int, size: float, colours: tuple[str, ...], r: tuple[float, float]) -> str:
    rng = random.Random(seed)
    return "".join(f'<circle cx="{_f(rng.uniform(0, size))}" cy="{_f(rng.uniform(0, size))}" '
                   f'r="{rng.uniform(*r):.2f}" fill="{rng.choice(colours)}"/>' for _ in range(n))


# The grain: fractal noise turned into a translucent dark/light speckle.  It sits inside the
# patterns' cells (25 × 25, four to a tile, seamless: stitchTiles), so Chrome rasterises it once.
_GRAIN = ('<filter id="hgp-grain" x="0" y="0" width="1" height="1" filterUnits="objectBoundingBox">'
          '<feTurbulence type="fractalNoise" baseFrequency="0.45" numOctaves="2" seed="7" '
          'stitchTiles="stitch"/>'
          '<feColorMatrix type="matrix" values="0 0 0 0 0  0 0 0 0 0  0 0 0 0 0  1.1 0 0 0 -0.45"/>'
          "</filter>")

_PAINTED = (
    _GRAIN
    + '<pattern id="hgp-meadow" patternUnits="userSpaceOnUse" width="25" height="25">'
    '<rect width="25" height="25" fill="#b2d374"/>'
    '<rect width="25" height="25" filter="url(#hgp-grain)" opacity="0.35"/>'
    '<g stroke-width="0.55" stroke-linecap="round" fill="none">'
    + _grass_tufts("meadow", 34, 25.0, ("#8fb552", "#7ea447", "#cfe59a"))
    + "</g>"
    + _flecks("meadow-flowers", 5, 25.0, ("#fff7d6", "#f6e27a"), (0.35, 0.55))
    + "</pattern>"
    '<pattern id="hgp-forest" patternUnits="userSpaceOnUse" width="25" height="25">'
    '<rect width="25" height="25" fill="#2d6628"/>'
    '<rect width="25" height="25" filter="url(#hgp-grain)" opacity="0.55"/>'
    + _flecks("forest-leaves", 26, 25.0, ("#21501d", "#3d7a31", "#1a4217"), (0.5, 1.1))
    + "</pattern>"
    # deep in the middle, shallow toward the bank
    '<radialGradient id="hgp-deep"><stop offset="0" stop-color="#164f86"/>'
    f'<stop offset="0.55" stop-color="{WATER}"/><stop offset="1" stop-color="#9fd0f2"/></radialGradient>'
    '<linearGradient id="hgp-stone" x1="0" x2="1"><stop offset="0" stop-color="#d5d8dc"/>'
    '<stop offset="0.55" stop-color="#a3a9b0"/><stop offset="1" stop-color="#6f767e"/></linearGradient>'
    # fish: a pale body with a dark outline, reads on deep and shallow water alike
    '<symbol id="hgp-fish" viewBox="-8 -5 16 10" overflow="visible">'
    '<path d="M-7 0 Q-3.6 -4.4 1.6 -2 L6.6 -4.2 L5.4 0 L6.6 4.2 L1.6 2 Q-3.6 4.4 -7 0 Z" '
    'fill="#fff1d6" stroke="#0b2744" stroke-width="1" stroke-linejoin="round"/>'
    '<path d="M-1.6 -2.6 Q0 -4.2 1.4 -2.4" fill="#f2a65a" stroke="#0b2744" stroke-width="0.6"/>'
    '<circle cx="-4.4" cy="-0.6" r="0.8" fill="#0b2744"/></symbol>'
    # a standing stone with its shadow
    '<symbol id="hgp-menhir" viewBox="-5 -6 10 12" overflow="visible">'
    '<ellipse cx="0.6" cy="5" rx="4.4" ry="1.1" fill="#000" fill-opacity="0.35"/>'
    '<path d="M-2.9 5.2 L-2.6 -3 Q-1.4 -6 0.6 -5.8 Q2.6 -5.2 2.9 -2.4 L3.2 5.2 Z" '
    'fill="url(#hgp-stone)" stroke="#fff" stroke-width="1.6" stroke-linejoin="round" '
    'paint-order="stroke"/>'
    '<path d="M-2.9 5.2 L-2.6 -3 Q-1.4 -6 0.6 -5.8 Q2.6 -5.2 2.9 -2.4 L3.2 5.2 Z" fill="none" '
    'stroke="#2e3236" stroke-width="0.6" stroke-linejoin="round"/>'
    '<path d="M-1.2 -2.6 L-0.6 0.6 M1 1.4 L1.6 3.6" stroke="#5b6168" stroke-width="0.45" fill="none"/>'
    "</symbol>"
    # gold: three bright nuggets on a dark outline, with a glint
    '<symbol id="hgp-gold" viewBox="-5 -5 10 10" overflow="visible">'
    '<g stroke="#4a3500" stroke-width="0.6" stroke-linejoin="round">'
    '<path d="M-4.4 2.6 L-3.8 -0.6 L-1.4 -1.6 L0.4 0.6 L-0.6 3.4 L-3.4 3.8 Z" fill="#e0a800"/>'
    '<path d="M0.2 3.6 L0.8 0.4 L3 -0.4 L4.6 1.6 L3.8 4 L1.4 4.4 Z" fill="#f2c12e"/>'
    '<path d="M-2.2 -1.4 L-1.4 -4.2 L1.4 -4.6 L3 -2.2 L1.8 0.2 L-0.8 0.4 Z" fill="#ffd84a"/></g>'
    '<path d="M-0.6 -3.4 L0.8 -3.6 M-3.2 0.2 L-2.2 -0.2 M1.6 0.8 L2.8 0.6" stroke="#fffbe0" '
    'stroke-width="0.6" stroke-linecap="round"/></symbol>'
)


def _animal(name: str, body: str, fill: str, extra: str = "", lines: str = "",
            line_colour: str = "#2b1d14") -> str:
    """An animal facing west: a white outline pass under the coloured body, a shadow below."""
    outline = (f'<g fill="#fffdf5" stroke="#fffdf5" stroke-width="2.2" stroke-linejoin="round" '
               f'stroke-linecap="round"><path d="{body}"/>'
               + (f'<path d="{lines}" fill="none"/>' if lines else "") + "</g>")
    drawn = (f'<path d="{body}" fill="{fill}" stroke="#1b1208" stroke-width="0.5" '
             'stroke-linejoin="round"/>')
    if lines:
        drawn += (f'<path d="{lines}" fill="none" stroke="{line_colour}" stroke-width="1.1" '
                  'stroke-linecap="round"/>')
    return (f'<symbol id="hgp-{name}" viewBox="-10 -10 20 20" overflow="visible">'
            '<ellipse cx="0" cy="6.6" rx="8.6" ry="1.6" fill="#000" fill-opacity="0.3"/>'
            f"{outline}{drawn}{extra}</symbol>")


_ANIMALS = (
    _animal("mammoth",
            "M-8.6 5.4 Q-9.6 0.6 -7.4 -2.6 Q-6 -6.6 -1 -6.4 Q3.2 -7 6.6 -4.2 Q8.9 -2 8.6 2 L8.4 6 "
            "L6 6 L5.8 3 L3.6 3 L3.4 6 L1.2 6 L1 3.2 L-1.8 3.2 L-2 6 L-4.4 6 L-4.6 2.4 "
            "Q-5.8 1.6 -6.4 2.8 L-6.8 5.6 Z",
            "#7b4a2a",
            '<circle cx="-5.4" cy="-2.6" r="0.6" fill="#fffdf5"/>',
            "M-6 1 Q-8.8 2.8 -10 -0.2", "#f3ead7")
    + _animal("aurochs",
              "M-9 -0.6 L-8.7 -3 L-6.4 -4.2 L-4.6 -3.6 Q0 -4.8 6 -4.2 Q8.7 -3.8 8.7 -0.6 L8.5 5.8 "
              "L6.4 5.8 L6.1 1.8 L4.4 1.8 L4.2 5.8 L2.3 5.8 L2.1 1.8 L-2.4 2 L-2.6 5.8 L-4.5 5.8 "
              "L-4.7 2 Q-5.6 1.8 -5.9 0.8 L-7.8 1 Z",
              "#2b1d14",
              "",
              "M-6.8 -4 Q-8 -7.2 -5.4 -8 M-5.2 -3.8 Q-3.8 -7 -1.8 -6.8", "#efe3c6")
    + _animal("deer",
              "M-8.8 -2.4 L-6.8 -4.2 L-5.2 -3.8 L-3.8 -0.8 Q0 -1.6 5.8 -1.4 Q7.9 -1.2 7.9 1 L7.6 6 "
              "L6.2 6 L5.9 2.6 L4.9 2.6 L4.7 6 L3.4 6 L3.2 2.8 L-1.6 2.8 L-1.8 6 L-3.2 6 L-3.6 1.6 "
              "L-5 -1.4 L-6.6 -1.6 Z",
              "#c98a3f",
              '<circle cx="7.4" cy="-0.4" r="0.9" fill="#fffdf5"/>',
              "M-5.4 -4 L-4.6 -8.2 M-5 -6.4 L-2.8 -7.6 M-6.4 -4.2 L-8 -8 M-7.3 -6.2 L-9.4 -6.8",
              "#4a2c14")
    + _animal("tiger",
              "M-9.2 -0.4 Q-9.4 -3.6 -6.8 -4.2 L-6 -5.4 L-5 -4 Q-4.4 -3.1 -3.6 -3 L5 -3 "
              "Q7.7 -2.8 7.7 0 L7.5 5.8 L5.6 5.8 L5.3 2.3 L3.4 2.3 L3.2 5.8 L1.4 5.8 L1.3 2.3 "
              "L-2.6 2.3 L-2.8 5.8 L-4.7 5.8 L-4.9 1.6 Q-6 1.5 -6.7 1.5 Q-9.2 1.6 -9.2 -0.4 Z",
              "#f07c12",
              '<path d="M-2 -3 L-1.5 0.6 M0.6 -3 L1 1 M3.2 -3 L3.5 0.8 M5.8 -2.8 L6.2 0.4 '
              'M-7.6 -2.6 L-7 -1.4" stroke="#1b1208" stroke-width="0.9" stroke-linecap="round"/>'
              '<circle cx="-7.4" cy="-2.4" r="0.5" fill="#1b1208"/>',
              "M7.4 -1.4 Q9.8 -2.6 9.2 -6.4", "#f07c12")
)


def painted_defs() -> str:
    """What the painted style adds to the ``<defs>``: patterns, gradients and symbols."""
    return _PAINTED + _ANIMALS


def _crowns(tile: Tile, key: str, corners: tuple[Point, Point, Point], n: int, rotation: int,
            out: list[tuple[Point, float]]) -> None:
    """``n`` tree crowns at seeded places inside the triangle ``corners`` (unrotated), kept
    off its last side (the tile's edge, for a wedge) so that no crown hangs over a neighbour."""
    rng = random.Random(f"{tile.id}:{key}")
    a, b, c = corners
    for _ in range(n):
        while True:
            u, v = rng.random(), rng.random()
            w = 1.0 - u - v
            if min(v, w) >= 0.1 and u >= 0.17:
                break
        p = (a[0] * u + b[0] * v + c[0] * w, a[1] * u + b[1] * v + c[1] * w)
        out.append((_rot(p, rotation), rng.uniform(10.0, 13.5)))


def _use(symbol: str, p: Point, title: str, size: float) -> str:
    return (f'<use href="#hgp-{symbol}" x="{_f(p[0] - size / 2)}" y="{_f(p[1] - size / 2)}" '
            f'width="{_f(size)}" height="{_f(size)}"><title>{escape(title)}</title></use>')


def _use_plain(symbol: str, p: Point, title: str, size: float) -> str:
    """A symbol shared with the clean style (``hg-…``: mushrooms, the specials)."""
    return (f'<use href="#hg-{symbol}" x="{_f(p[0] - size / 2)}" y="{_f(p[1] - size / 2)}" '
            f'width="{_f(size)}" height="{_f(size)}"><title>{escape(title)}</title></use>')


def _inside(p: Point, size: float) -> Point:
    """``p`` moved so that a symbol of ``size`` around it stays on the tile."""
    lo, hi = size / 2 + 1.0, 100.0 - size / 2 - 1.0
    return (min(hi, max(lo, p[0])), min(hi, max(lo, p[1])))


def painted_fragment(tile: Tile, rotation: int = 0, bonus_name: str = "bonus tile") -> str:
    """The painted picture of ``tile`` turned ``rotation`` times, in a 0–100 box (the painted
    counterpart of :func:`huntgather.svg.tile_fragment`; it needs :func:`painted_defs` and the
    clean ``defs`` in the same document)."""
    lay = _Layout(tile)

    def P(p: Point) -> str:
        return _pt(_rot(p, rotation))

    kinds = {z.id: z.kind for z in tile.zones.values()}

    def paint(zid: int) -> str:
        return "url(#hgp-forest)" if kinds[zid] == FOREST else "url(#hgp-meadow)"

    out: list[str] = [f'<g class="hg-tile hg-painted" data-tile="{tile.id}">']
    # the ground: one path per kind, filled with its pattern (fewer elements than a wedge each)
    segs = lay.segments
    for kind in (MEADOW, FOREST):
        d = "".join(f"M{P(_O)} L{P(a)} L{P(b)} Z" for zid, a, b in segs if kinds[zid] == kind)
        if d:
            fill = "url(#hgp-forest)" if kind == FOREST else "url(#hgp-meadow)"
            out.append(f'<path d="{d}" fill="{fill}" stroke="{fill}" stroke-width="0.6"/>')
    # edges between different zones: a soft forest edge, a hedge between two meadows
    river_mids = {m for ms in lay.river_ends.values() for m in ms}
    for i, (zid, _a, b) in enumerate(segs):
        nxt = segs[(i + 1) % len(segs)][0]
        if nxt != zid and b not in river_mids:
            if FOREST in (kinds[zid], kinds[nxt]):
                out.append(f'<path d="M{P(_O)} L{P(b)}" stroke="{FOREST_DARK}" stroke-width="1.2" '
                           'stroke-opacity="0.7"/>')
            else:
                out.append(f'<path class="hg-hedge" d="M{P(_O)} L{P(b)}" stroke="{MEADOW_HEDGE}" '
                           'stroke-width="3.2" stroke-dasharray="0.1 3.6" stroke-linecap="round"/>')
    # joins through the centre for zones on non-adjacent sides
    for kind in (MEADOW, FOREST):
        for zid in sorted({z for z, _, _ in segs if kinds[z] == kind}):
            idx = [i for i, s in enumerate(segs) if s[0] == zid]
            runs = sum(1 for i in idx if segs[(i - 1) % len(segs)][0] != zid)
            if runs >= 2:
                for i in idx:
                    m = _lerp(segs[i][1], segs[i][2], 0.5)
                    out.append(f'<path d="M{P(_lerp(m, _O, 0.35))} L{P(_O)}" stroke="{paint(zid)}" '
                               f'stroke-width="22" stroke-linecap="round"/>')
    # clearings
    for zid, c in lay.clearings.items():
        x, y = _rot(c, rotation)
        out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="15" fill="{paint(zid)}" stroke="{FOREST_DARK}" '
                   'stroke-width="1.2"/>')
    # tree crowns over the forests, from a layout seeded by the tile and the wedge; the lower
    # ones are drawn last, over the ones behind them
    crowns: list[tuple[Point, float]] = []
    for i, (zid, a, b) in enumerate(segs):
        if kinds[zid] == FOREST:
            n = 8 if abs(a[0] - b[0]) + abs(a[1] - b[1]) > 60 else 4
            _crowns(tile, f"w{i}", (_O, a, b), n, rotation, crowns)
    for zid, c in lay.clearings.items():
        if kinds[zid] == FOREST:
            _crowns(tile, f"c{zid}", ((c[0], c[1] - 13), (c[0] - 11, c[1] + 8), (c[0] + 11, c[1] + 8)),
                    3, rotation, crowns)
    # three paths for all the crowns of the tile (a path per crown, or a <use>, costs the page
    # an element each: a forest tile has 20 to 30 crowns): shadows, canopies, sunlit tops
    if crowns:
        def discs(dx: float, dy: float, scale: float) -> str:
            """A circle per crown (two arcs), moved by (dx, dy) crown sizes, its radius scaled."""
            parts = []
            for (x, y), size in crowns:
                r = size / 2.4 * scale
                parts.append(f"M{_f(x + dx * size - r)} {_f(y + dy * size)}"
                             f"a{_f(r)} {_f(r)} 0 1 0 {_f(2 * r)} 0a{_f(r)} {_f(r)} 0 1 0 {_f(-2 * r)} 0")
            return "".join(parts)

        out.append(f'<path d="{discs(0.12, 0.14, 1.0)}" fill="#0f2a0d" fill-opacity="0.6"/>'
                   f'<path d="{discs(0, 0, 1.0)}" fill="#3a7a2f" stroke="#1c4a19" stroke-width="0.4"/>'
                   f'<path d="{discs(-0.08, -0.09, 0.5)}" fill="#6fae4e"/>')
    # rivers: a sandy bank, shallow water, deep water in the middle, glints
    for zone in tile.zones.values():
        if zone.kind != RIVER:
            continue
        ends = lay.river_ends[zone.id]
        d = river_path(lay, zone, P)
        out.append(f'<g class="hg-river" fill="none"><title>river</title>'
                   f'<path d="{d}" stroke="{SAND}" stroke-width="13"/>'
                   f'<path d="{d}" stroke="{WATER_LIGHT}" stroke-width="10"/>'
                   f'<path d="{d}" stroke="{WATER}" stroke-width="7"/>'
                   f'<path d="{d}" stroke="{WATER_DARK}" stroke-width="3.4"/>'
                   f'<path d="{d}" stroke="#e8f5ff" stroke-width="0.9" stroke-dasharray="3 7" '
                   'stroke-opacity="0.8"/></g>')
        if zone.lake is None and len(ends) == 1:
            sx, sy = _rot(_lerp(ends[0], _O, 0.47), rotation)
            out.append(f'<g><title>spring among rocks</title>'
                       f'<circle cx="{_f(sx - 2.4)}" cy="{_f(sy + 1)}" r="3.6" fill="#8d8d8d" '
                       'stroke="#3a3a3a" stroke-width="0.7"/>'
                       f'<circle cx="{_f(sx + 2.6)}" cy="{_f(sy - 0.4)}" r="3" fill="#a5a5a5" '
                       'stroke="#3a3a3a" stroke-width="0.7"/>'
                       f'<circle cx="{_f(sx)}" cy="{_f(sy - 2.6)}" r="2.4" fill="#bdbdbd" '
                       'stroke="#3a3a3a" stroke-width="0.7"/></g>')
    # lakes: a bank, then water shading from deep in the middle to shallow at the edge
    for lid, c in lay.lakes.items():
        x, y = _rot(c, rotation)
        r = lay.lake_radius
        out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r + 2.2)}" fill="{SAND}" '
                   f'stroke="{SAND_DARK}" stroke-width="0.8"/>')
        out.append(f'<circle class="hg-lake" cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="url(#hgp-deep)" '
                   f'stroke="{WATER_DARK}" stroke-width="0.8"><title>lake {lid}</title></circle>')
        out.append(f'<path d="M{_f(x - r * 0.55)} {_f(y - r * 0.5)} q{_f(r * 0.3)} {_f(-r * 0.16)} '
                   f'{_f(r * 0.6)} 0" fill="none" stroke="#e8f5ff" stroke-width="0.9" '
                   'stroke-opacity="0.7" stroke-linecap="round"/>')
    # symbols, bigger than the clean style's, kept on the tile
    for zone in tile.zones.values():
        fish = zone.fish
        syms = _symbols(zone)
        count = fish + len(syms)
        if not count:
            continue
        where = lay.deco(zone)
        step = 14.0 if zone.kind in (LAKE, RIVER) else 23.0
        spots = [_rot(p, rotation) for p in _spread(where, count, step)]
        for k in range(fish):
            out.append(_use("fish", _inside(spots[k], SYMBOL_SIZES["fish"]), "fish", SYMBOL_SIZES["fish"]))
        for (what, name), p in zip(syms, spots[fish:], strict=True):
            if what == "animal":
                size = SYMBOL_SIZES["animal"]
                out.append(_use(name, _inside(p, size), name, size))
            elif what == "special":
                size = SYMBOL_SIZES["special"]
                special = special_named(name)
                title = special_title(name)
                if special is not None and special.symbol:
                    out.append(_use_plain(name, _inside(p, size), title, size))
                else:
                    out.append(_badge(_inside(p, size), "?", "#9e9e9e", "#000", title, 7.4))
            elif name == "mushroom":
                size = SYMBOL_SIZES["mushroom"]
                out.append(_use_plain(name, _inside(p, size), _SYMBOL_TITLES[name], size))
            else:
                size = SYMBOL_SIZES[name]
                out.append(_use(name, _inside(p, size), _SYMBOL_TITLES[name], size))
    if tile.is_bonus:
        out.append('<rect x="1.5" y="1.5" width="97" height="97" fill="none" stroke="#d4a017" '
                   f'stroke-width="3"><title>{escape(bonus_name)}</title></rect>')
    out.append('<rect x="0" y="0" width="100" height="100" fill="none" stroke="#4a3b28" '
               'stroke-width="0.8"/>')
    out.append("</g>")
    return "".join(out)

