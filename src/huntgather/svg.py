"""Tile and board pictures drawn from the tile data (no copied artwork).

Every tile is drawn in a 100 × 100 box from its sides and zones alone:

* each side is a wedge from the tile's centre to that side, split in two at
  a river side, coloured as its zone (dark green forest, light green meadow);
* forests and meadows that reach non-adjacent sides are joined through the
  centre; a dark line separates two different zones of the same kind;
* rivers are blue bands from the side to the lake, to the other river side
  or to a spring; lakes are blue discs with their fish;
* animals are lettered badges (M mammoth, A aurochs, D deer, T tiger),
  with menhirs, mushrooms, gold nuggets and the specials (shaman, traps, wild
  fire, shrine, logboat, raft) as small symbols; bonus tiles have a gold frame.

Rotations are applied to the coordinates, not with an SVG transform, so the
letters stay upright.  Every symbol carries a ``<title>`` (a text alternative).

>>> from huntgather.tiles import load_tileset
>>> tiles = load_tileset("2020")
>>> picture = tile_svg(tiles[56])
>>> picture.startswith("<svg") and "aurochs" in picture and "menhir" in picture
True
>>> sorted(zone_anchors(tiles[56]))
[0, 1, 2, 3, 8]
>>> zone_anchors(tiles[56], 1)[3] != zone_anchors(tiles[56], 0)[3]
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from html import escape
from typing import TYPE_CHECKING

from huntgather.board import ZoneRef
from huntgather.events import COLOURS
from huntgather.kinds import Piece
from huntgather.specials import known_specials, special_named
from huntgather.tiles import FOREST, LAKE, MEADOW, RIVER, Tile, Zone

if TYPE_CHECKING:
    from huntgather.state import State

Point = tuple[float, float]

#: colour-blind-safe player colours (Okabe–Ito), one letter each, in seat order
PLAYER_COLOURS = ("#F0E442", "#D55E00", "#009E73", "#0072B2", "#CC79A7")
PLAYER_LETTERS = ("Y", "R", "G", "B", "V")
#: the seats' names, in seat order (the engine's: :data:`huntgather.events.COLOURS`)
PLAYER_NAMES = COLOURS

FOREST_FILL = "#2f6b2a"
FOREST_DARK = "#1d4a1a"
MEADOW_FILL = "#b5d67a"
#: the line between two separate meadows of one tile
MEADOW_HEDGE = "#4e6b22"
WATER = "#3b8fd9"
WATER_LIGHT = "#8cc4f0"
WATER_DARK = "#1f5f9a"

_O: Point = (50.0, 50.0)
_CORNERS: tuple[Point, ...] = ((0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0))

#: symbols used by the tiles, each drawn around (0, 0) in about a 10 × 10 box
_SYMBOLS = (
    '<symbol id="hg-fish" viewBox="-6 -4 12 8" overflow="visible">'
    '<ellipse cx="-0.5" cy="0" rx="3.6" ry="2" fill="#e8f3fc" stroke="#123d66" stroke-width="0.6"/>'
    '<path d="M2.6 0 L5 -2 L5 2 Z" fill="#e8f3fc" stroke="#123d66" stroke-width="0.6"/>'
    '<circle cx="-2.6" cy="-0.4" r="0.45" fill="#123d66"/></symbol>'
    '<symbol id="hg-menhir" viewBox="-5 -5 10 10" overflow="visible">'
    '<path d="M-2.4 4.6 L-2.2 -2.5 Q0 -5.5 2.2 -2.5 L2.6 4.6 Z" fill="#9aa0a6" stroke="#3c4043" '
    'stroke-width="0.7"/></symbol>'
    '<symbol id="hg-mushroom" viewBox="-5 -5 10 10" overflow="visible">'
    '<rect x="-1" y="-0.5" width="2" height="4" fill="#fff8e7" stroke="#5d4037" stroke-width="0.4"/>'
    '<path d="M-4 0 Q0 -6 4 0 Z" fill="#d32f2f" stroke="#5d4037" stroke-width="0.5"/>'
    '<circle cx="-1.5" cy="-1.6" r="0.6" fill="#fff"/><circle cx="1.4" cy="-2" r="0.6" fill="#fff"/>'
    "</symbol>"
    '<symbol id="hg-gold" viewBox="-5 -5 10 10" overflow="visible">'
    '<path d="M-3.5 1.5 L-2 -2.5 L1.5 -3 L3.8 0 L2 3 L-2 3.2 Z" fill="#f2c12e" stroke="#8a6d00" '
    'stroke-width="0.6"/></symbol>'
    '<symbol id="hg-tree" viewBox="-4 -4 8 8" overflow="visible">'
    '<path d="M0 -3.8 L3 2 L-3 2 Z" fill="#1d4a1a"/><rect x="-0.5" y="2" width="1" height="1.6" '
    'fill="#4e342e"/></symbol>'
    # the animals, facing west, on a pale disc so that they read on meadow and forest alike
    '<symbol id="hg-mammoth" viewBox="-7 -7 14 14" overflow="visible">'
    '<circle r="6.6" fill="#fffdf5" fill-opacity="0.85" stroke="#6d4c41" stroke-width="0.5"/>'
    '<path d="M-2.6 -3.6 C0 -5.6 4.6 -4.8 5.2 -1.2 L5.2 3.6 L3.8 3.6 L3.6 1.2 L1 1.3 L0.9 3.6 '
    'L-0.5 3.6 L-0.6 1.2 L-2.2 1.4 L-3.4 3.9 Q-4.6 4.5 -4.9 3.3 L-4.3 0.6 Q-5.2 -2.6 -2.6 -3.6 Z" '
    'fill="#6d4c41"/><path d="M-3.9 0.9 Q-5.8 1.6 -6 -0.4" fill="none" stroke="#fff" '
    'stroke-width="0.7" stroke-linecap="round"/><circle cx="-3" cy="-1.6" r="0.4" fill="#fff"/></symbol>'
    '<symbol id="hg-aurochs" viewBox="-7 -7 14 14" overflow="visible">'
    '<circle r="6.6" fill="#fffdf5" fill-opacity="0.85" stroke="#212121" stroke-width="0.5"/>'
    '<path d="M-3.6 -1.2 L-2.4 -2.6 L3.4 -2.8 Q5.3 -2.6 5.3 -0.6 L5.3 3.6 L4.3 3.6 L4.1 0.9 '
    'L-0.4 0.9 L-0.7 3.6 L-1.7 3.6 L-1.9 0.8 L-3 1.7 L-4.6 1.4 L-5 0 Z" fill="#212121"/>'
    '<path d="M-3.2 -1.8 Q-3.6 -4.4 -1.8 -4.6 M-3.6 -1.6 Q-5.8 -2.6 -5.6 -4.3" fill="none" '
    'stroke="#e0d6c2" stroke-width="0.7" stroke-linecap="round"/></symbol>'
    '<symbol id="hg-deer" viewBox="-7 -7 14 14" overflow="visible">'
    '<circle r="6.6" fill="#fffdf5" fill-opacity="0.85" stroke="#8d6e63" stroke-width="0.5"/>'
    '<path d="M-3.4 -1.6 L-2.4 -0.4 L3.2 -0.6 Q4.5 -0.6 4.5 0.6 L4.3 4 L3.6 4 L3.4 1.4 L-1.1 1.4 '
    'L-1.4 4 L-2.1 4 L-2.3 0.8 L-3.1 -0.2 L-4.6 -0.9 L-5.3 -1.6 L-4.2 -2.3 Z" fill="#b07a45" '
    'stroke="#5d4037" stroke-width="0.3"/><path d="M-3.7 -2.2 L-3.1 -4.4 M-3.4 -3.3 L-2.2 -4.1 '
    'M-4.1 -2.3 L-5 -4.3 M-4.6 -3.5 L-5.8 -3.8" fill="none" stroke="#5d4037" stroke-width="0.5" '
    'stroke-linecap="round"/></symbol>'
    '<symbol id="hg-tiger" viewBox="-7 -7 14 14" overflow="visible">'
    '<circle r="6.6" fill="#fffdf5" fill-opacity="0.85" stroke="#e65100" stroke-width="0.5"/>'
    '<path d="M-5.2 -0.6 L-4.2 -2.2 L-3 -1.6 L3.4 -1.6 Q4.8 -1.6 4.9 -0.2 L4.8 3.2 L3.9 3.2 '
    'L3.7 1.2 L-1.3 1.2 L-1.5 3.2 L-2.4 3.2 L-2.6 0.9 L-3.6 0.6 L-5 0.4 Z" fill="#f57c00" '
    'stroke="#3e2723" stroke-width="0.3"/><path d="M4.7 -0.8 Q6.4 -1.6 6 -3.6" fill="none" '
    'stroke="#f57c00" stroke-width="0.8" stroke-linecap="round"/><path d="M-1.6 -1.5 L-1.2 0.4 '
    'M0.3 -1.5 L0.6 0.6 M2.1 -1.5 L2.4 0.6 M-3.2 -1.4 L-3 0" fill="none" stroke="#1b1b1b" '
    'stroke-width="0.5"/></symbol>'
)


#: the two styles of the tile pictures: painted (:mod:`huntgather.painted`) and clean (flat
#: vector wedges, this module's own)
TILE_STYLES = ("painted", "clean")


def defs(style: str = "clean") -> str:
    """The ``<defs>`` of every picture: the symbols above and one per known special
    (:mod:`huntgather.specials`: a special draws itself); the painted ``style`` adds its own
    patterns and symbols (ids ``hgp-…``) to the clean ones, which it shares."""
    specials = "".join(f'<symbol id="hg-{s.name}" viewBox="-8 -8 16 16" overflow="visible">'
                       f'{s.symbol}</symbol>' for s in known_specials() if s.symbol)
    if style == "painted":
        from huntgather.painted import painted_defs

        return f"<defs>{_SYMBOLS}{specials}{painted_defs()}</defs>"
    _check_style(style)
    return f"<defs>{_SYMBOLS}{specials}</defs>"


def _check_style(style: str) -> None:
    if style not in TILE_STYLES:
        raise ValueError(f"unknown tile style {style!r}: one of {', '.join(TILE_STYLES)}")


def special_title(name: str) -> str:
    """What the special ``name`` does, in a sentence (its tooltip), or its name if unknown."""
    special = special_named(name)
    return special.rule() if special is not None else name.replace("_", " ")


def _rot(p: Point, r: int) -> Point:
    """``p`` turned ``r`` quarter turns clockwise about the tile's centre."""
    x, y = p
    for _ in range(r % 4):
        x, y = 100.0 - y, x
    return (x, y)


def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _mean(points: Sequence[Point]) -> Point:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _f(v: float) -> str:
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _pt(p: Point) -> str:
    return f"{_f(p[0])} {_f(p[1])}"


class _Layout:
    """Where every part of one (unrotated) tile goes."""

    def __init__(self, tile: Tile) -> None:
        self.tile = tile
        #: perimeter segments in clockwise order: (zone id, start, end, side, river side?)
        self.segments: list[tuple[int, Point, Point]] = []
        self.river_ends: dict[int, list[Point]] = {}
        for d, side in enumerate(tile.sides):
            a, b = _CORNERS[d], _CORNERS[(d + 1) % 4]
            if side.kind == RIVER:
                m = _lerp(a, b, 0.5)
                self.segments.append((side.zones[0], a, m))
                self.segments.append((side.zones[2], m, b))
                self.river_ends.setdefault(side.zones[1], []).append(m)
            else:
                self.segments.append((side.zones[0], a, b))
        on_side = {s[0] for s in self.segments} | set(self.river_ends)
        lakes = [z for z in tile.zones.values() if z.kind == LAKE]
        self.lakes: dict[int, Point] = {}
        self.lake_radius = 19.0 if len(lakes) <= 1 else 13.0
        for lake in lakes:
            if len(lakes) == 1:
                self.lakes[lake.id] = _O
            else:
                ends = [m for z in tile.zones.values() if z.kind == RIVER and z.lake == lake.id
                        for m in self.river_ends.get(z.id, [])]
                self.lakes[lake.id] = _lerp(_O, _mean(ends), 0.5) if ends else _O
        #: zones touching no side (clearings): drawn as a disc
        self.clearings: dict[int, Point] = {}
        for z in tile.zones.values():
            if z.kind == LAKE or z.id in on_side:
                continue
            if self.lakes:
                # opposite the rivers, away from the lake
                ends = [m for ms in self.river_ends.values() for m in ms] or [(50.0, 0.0)]
                away = _mean(ends)
                self.clearings[z.id] = _lerp(_O, (100 - away[0], 100 - away[1]), 0.55)
            else:
                self.clearings[z.id] = _O

    def anchor(self, zone: Zone) -> Point:
        """Where an occupant of ``zone`` stands (unrotated)."""
        if zone.kind == LAKE:
            c = self.lakes[zone.id]
            return (c[0], c[1] - self.lake_radius * 0.35)
        if zone.id in self.clearings:
            return self.clearings[zone.id]
        if zone.kind == RIVER:
            ends = self.river_ends[zone.id]
            if zone.lake is not None:
                return _lerp(ends[0], self.lakes[zone.lake], 0.4)
            if len(ends) >= 2:
                return _lerp(ends[0], _O, 0.6)
            return _lerp(ends[0], _O, 0.3)
        return _lerp(self._centre(zone), _O, 0.3)

    def deco(self, zone: Zone) -> Point:
        """Where the symbols of ``zone`` go (unrotated), apart from where its occupant stands."""
        if zone.id in self.clearings:
            c = self.clearings[zone.id]
            return (c[0], c[1] + 4.0)
        if zone.kind == LAKE:
            c = self.lakes[zone.id]
            return (c[0], c[1] + self.lake_radius * 0.35)
        if zone.kind == RIVER:
            ends = self.river_ends[zone.id]
            target = self.lakes[zone.lake] if zone.lake is not None else _O
            return _lerp(ends[0], target, 0.14)
        c = self._centre(zone)
        return (c[0] + (c[0] - 50.0) * 0.2, c[1] + (c[1] - 50.0) * 0.2)

    def _centre(self, zone: Zone) -> Point:
        """The middle of a forest's or meadow's largest wedge, kept out of any clearing."""
        mine = [(a, b) for z, a, b in self.segments if z == zone.id]
        if len(mine) == len(self.segments):
            return (50.0, 25.0)

        def area(seg: tuple[Point, Point]) -> float:
            (ax, ay), (bx, by) = seg
            return abs(ax - bx) + abs(ay - by)

        a, b = max(mine, key=area)
        point = _mean([_O, a, b])
        for c in self.clearings.values():
            if abs(c[0] - point[0]) + abs(c[1] - point[1]) < 24:
                # keep a zone's symbols and pieces out of a clearing drawn over its wedge
                side = (b[0] - a[0], b[1] - a[1])
                length = (side[0] ** 2 + side[1] ** 2) ** 0.5
                point = (point[0] + side[0] / length * 24, point[1] + side[1] / length * 24)
        return point


def _badge(p: Point, letter: str, fill: str, ink: str, title: str, r: float = 6.6) -> str:
    size = 8.0 if len(letter) == 1 else 6.4
    return (f'<g class="hg-sym"><title>{escape(title)}</title>'
            f'<circle cx="{_f(p[0])}" cy="{_f(p[1])}" r="{r}" fill="{fill}" stroke="#000" '
            f'stroke-width="0.5"/><text x="{_f(p[0])}" y="{_f(p[1] + size * 0.36)}" '
            f'font-size="{size}" font-family="sans-serif" font-weight="bold" text-anchor="middle" '
            f'fill="{ink}">{letter}</text></g>')


def _use(symbol: str, p: Point, title: str, size: float = 9.0) -> str:
    return (f'<use href="#hg-{symbol}" x="{_f(p[0] - size / 2)}" y="{_f(p[1] - size / 2)}" '
            f'width="{_f(size)}" height="{_f(size)}"><title>{escape(title)}</title></use>')


def _spread(centre: Point, n: int, step: float = 9.5) -> list[Point]:
    """``n`` points in rows of at most three around ``centre``."""
    out: list[Point] = []
    rows = (n + 2) // 3
    for i in range(n):
        row, col = divmod(i, 3)
        in_row = min(3, n - row * 3)
        out.append((centre[0] + (col - (in_row - 1) / 2) * step,
                    centre[1] + (row - (rows - 1) / 2) * step))
    return out


def _symbols(zone: Zone) -> list[tuple[str, str]]:
    """The symbols of a zone as (kind, name) pairs, in drawing order."""
    out: list[tuple[str, str]] = []
    out += [("animal", a) for a in zone.animals]
    out += [("use", "menhir")] * zone.menhirs
    out += [("use", "mushroom")] * zone.mushrooms
    out += [("use", "gold")] * zone.gold_nuggets
    if zone.special:
        out.append(("special", zone.special))
    return out


_SYMBOL_TITLES = {"menhir": "menhir", "mushroom": "mushrooms", "gold": "gold nugget"}


def river_path(lay: _Layout, zone: Zone, P: Callable[[Point], str]) -> str:
    """The path of a river zone (``P`` writes a point of the tile as turned): from each of its
    sides to its lake, or from one side to the other through the middle, or from its one side
    into the tile to its spring.  One shape for every style of drawing."""
    ends = lay.river_ends[zone.id]
    if zone.lake is not None:
        return "".join(f"M{P(m)} L{P(lay.lakes[zone.lake])}" for m in ends)
    if len(ends) >= 2:
        return f"M{P(ends[0])} Q{P(_O)} {P(ends[1])}"
    return f"M{P(ends[0])} L{P(_lerp(ends[0], _O, 0.45))}"


def tile_fragment(tile: Tile, rotation: int = 0, bonus_name: str = "bonus tile",
                  style: str = "clean") -> str:
    """The SVG elements of ``tile`` turned ``rotation`` times, in a 0–100 box; a bonus tile's
    frame is titled ``bonus_name`` (the edition's word: "menhir tile" in 2020).  ``style`` is
    "clean" (flat wedges, drawn here) or "painted" (:mod:`huntgather.painted`).

    The fragment refers to the symbols of :func:`defs` (of the same style), which must be in the
    same document.

    >>> from huntgather.tiles import load_tileset
    >>> frag = tile_fragment(load_tileset("2020")[83], 2)
    >>> frag.count('class="hg-lake"')
    2
    """
    if style == "painted":
        from huntgather.painted import painted_fragment

        return painted_fragment(tile, rotation, bonus_name)
    _check_style(style)
    lay = _Layout(tile)

    def P(p: Point) -> str:
        return _pt(_rot(p, rotation))

    kinds = {z.id: z.kind for z in tile.zones.values()}
    out: list[str] = [f'<g class="hg-tile" data-tile="{tile.id}">']
    # wedges
    for zid, a, b in lay.segments:
        fill = FOREST_FILL if kinds[zid] == FOREST else MEADOW_FILL
        out.append(f'<path d="M{P(_O)} L{P(a)} L{P(b)} Z" fill="{fill}" stroke="{fill}" '
                   f'stroke-width="0.6"/>')
    # separators between different zones
    segs = lay.segments
    river_mids = {m for ms in lay.river_ends.values() for m in ms}
    for i, (zid, _a, b) in enumerate(segs):
        nxt = segs[(i + 1) % len(segs)][0]
        if nxt != zid and b not in river_mids:
            if FOREST in (kinds[zid], kinds[nxt]):
                out.append(f'<path d="M{P(_O)} L{P(b)}" stroke="{FOREST_DARK}" stroke-width="1.4"/>')
            else:   # two meadows that do not join: a hedge, clearer than a hairline
                out.append(f'<path class="hg-hedge" d="M{P(_O)} L{P(b)}" stroke="{MEADOW_HEDGE}" '
                           f'stroke-width="2.6" stroke-dasharray="5 2.5"/>')
    # joins through the centre for zones on non-adjacent sides
    for kind in (MEADOW, FOREST):
        for zid in sorted({z for z, _, _ in segs if kinds[z] == kind}):
            idx = [i for i, s in enumerate(segs) if s[0] == zid]
            runs = sum(1 for i in idx if segs[(i - 1) % len(segs)][0] != zid)
            if runs >= 2:
                fill = FOREST_FILL if kind == FOREST else MEADOW_FILL
                for i in idx:
                    m = _lerp(segs[i][1], segs[i][2], 0.5)
                    out.append(f'<path d="M{P(_lerp(m, _O, 0.35))} L{P(_O)}" stroke="{fill}" '
                               f'stroke-width="22" stroke-linecap="round"/>')
    # trees along forest edges
    for zid, a, b in segs:
        if kinds[zid] == FOREST:
            n = 3 if abs(a[0] - b[0]) + abs(a[1] - b[1]) > 60 else 1
            for k in range(n):
                edge = _lerp(a, b, (k + 0.5) / n)
                out.append(_use("tree", _rot(_lerp(_O, edge, 0.84), rotation), "forest", 7.0))
    # clearings
    for zid, c in lay.clearings.items():
        fill = FOREST_FILL if kinds[zid] == FOREST else MEADOW_FILL
        x, y = _rot(c, rotation)
        out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="15" fill="{fill}" stroke="{FOREST_DARK}" '
                   f'stroke-width="1.2"/>')
    # rivers
    for zone in tile.zones.values():
        if zone.kind != RIVER:
            continue
        ends = lay.river_ends[zone.id]
        d = river_path(lay, zone, P)
        out.append(f'<g class="hg-river"><title>river</title>'
                   f'<path d="{d}" stroke="{WATER_DARK}" stroke-width="11" fill="none"/>'
                   f'<path d="{d}" stroke="{WATER}" stroke-width="8.5" fill="none"/>'
                   f'<path d="{d}" stroke="{WATER_LIGHT}" stroke-width="2" fill="none" '
                   f'stroke-dasharray="4 5"/></g>')
        if zone.lake is None and len(ends) == 1:
            sx, sy = _rot(_lerp(ends[0], _O, 0.47), rotation)
            out.append(f'<circle cx="{_f(sx)}" cy="{_f(sy)}" r="5" fill="#8d8d8d" stroke="#424242" '
                       f'stroke-width="0.8"><title>spring among rocks</title></circle>')
    # lakes
    for lid, c in lay.lakes.items():
        x, y = _rot(c, rotation)
        out.append(f'<circle class="hg-lake" cx="{_f(x)}" cy="{_f(y)}" r="{_f(lay.lake_radius)}" '
                   f'fill="{WATER}" stroke="{WATER_DARK}" stroke-width="1.5">'
                   f"<title>lake {lid}</title></circle>")
    # symbols
    for zone in tile.zones.values():
        items: list[str] = []
        fish = zone.fish
        syms = _symbols(zone)
        count = fish + len(syms)
        if not count:
            continue
        where = lay.deco(zone)
        step = 10.5 if zone.kind in (LAKE, RIVER) else 15.5
        spots = [_rot(p, rotation) for p in _spread(where, count, step)]
        for k in range(fish):
            items.append(_use("fish", spots[k], "fish", 12.0))
        for (what, name), p in zip(syms, spots[fish:], strict=True):
            if what == "animal":   # a silhouette (symbols hg-mammoth, hg-aurochs, …)
                items.append(_use(name, p, name, 15.0))
            elif what == "special":
                special = special_named(name)
                title = special_title(name)
                if special is not None and special.symbol:   # a picture of what it does (hg-<name>)
                    items.append(_use(name, p, title, 15.0))
                else:   # a special with no picture of its own
                    items.append(_badge(p, "?", "#9e9e9e", "#000", title, 7.4))
            else:
                items.append(_use(name, p, _SYMBOL_TITLES[name], 13.0))
        out.extend(items)
    if tile.is_bonus:
        out.append('<rect x="1.5" y="1.5" width="97" height="97" fill="none" stroke="#d4a017" '
                   f'stroke-width="3"><title>{escape(bonus_name)}</title></rect>')
    out.append('<rect x="0" y="0" width="100" height="100" fill="none" stroke="#4a3b28" '
               'stroke-width="0.8"/>')
    out.append("</g>")
    return "".join(out)


def zone_anchors(tile: Tile, rotation: int = 0) -> dict[int, Point]:
    """Where an occupant of each zone stands, in the tile's 0–100 box after ``rotation``."""
    lay = _Layout(tile)
    return {z.id: tuple(round(v, 1) for v in _rot(lay.anchor(z), rotation))  # type: ignore[misc]
            for z in tile.zones.values()}


def tile_svg(tile: Tile, rotation: int = 0, size: int = 100, style: str = "clean") -> str:
    """A standalone SVG picture of ``tile`` (``size`` pixels square) in ``style``."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
            f'viewBox="0 0 100 100" role="img" aria-label="tile {tile.id}: '
            f'{escape(tile.describe())}">{defs(style)}{tile_fragment(tile, rotation, style=style)}</svg>')


def meeple_path(x: float, y: float, scale: float = 1.0) -> str:
    """The outline of a meeple standing at ``(x, y)`` (its centre)."""
    s = scale

    def q(dx: float, dy: float) -> str:
        return f"{_f(x + dx * s)} {_f(y + dy * s)}"

    return (f"M{q(-1.8, -6)} A{_f(2.6 * s)} {_f(2.6 * s)} 0 1 1 {q(1.8, -6)} "
            f"L{q(6.5, -3)} L{q(6, -0.5)} L{q(3, -1.2)} L{q(5.5, 6.5)} L{q(1, 6.5)} "
            f"L{q(0, 3)} L{q(-1, 6.5)} L{q(-5.5, 6.5)} L{q(-3, -1.2)} L{q(-6, -0.5)} "
            f"L{q(-6.5, -3)} Z")


def hut_path(x: float, y: float, scale: float = 1.0) -> str:
    """The outline of a hut standing at ``(x, y)`` (its centre)."""
    s = scale

    def q(dx: float, dy: float) -> str:
        return f"{_f(x + dx * s)} {_f(y + dy * s)}"

    return f"M{q(-6, 5)} L{q(-6, -1)} L{q(0, -7)} L{q(6, -1)} L{q(6, 5)} Z"


def _luminance(colour: str) -> float:
    """The WCAG relative luminance of ``#rrggbb``."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(colour: str) -> str:
    """Black or white, whichever contrasts more with ``colour``: the letter on a player's colour.

    >>> ink_on("#F0E442"), ink_on("#0072B2")
    ('#000000', '#ffffff')
    """
    lum = _luminance(colour)
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


def piece_svg(player: int, piece: str, p: Point) -> str:
    """A meeple or hut of seat ``player`` at ``p``, with its colour letter."""
    colour = PLAYER_COLOURS[player % len(PLAYER_COLOURS)]
    letter = PLAYER_LETTERS[player % len(PLAYER_LETTERS)]
    path = hut_path(*p) if piece == "hut" else meeple_path(*p)
    name = PLAYER_NAMES[player % len(PLAYER_NAMES)]
    return (f'<g class="hg-piece"><title>{name} {piece}</title><path d="{path}" fill="{colour}" '
            f'stroke="#000" stroke-width="1"/><text x="{_f(p[0])}" y="{_f(p[1] + 3.5)}" font-size="6" '
            f'font-family="sans-serif" font-weight="bold" text-anchor="middle" '
            f'fill="{ink_on(colour)}">{letter}'
            '</text></g>')


def board_svg(state: State, highlight: Iterable[int] = (), cell: int = 100) -> str:
    """A picture of the whole board of ``state`` with its pieces.

    ``highlight`` names tiles to outline (e.g. the last move).

    >>> from huntgather import random_game
    >>> pic = board_svg(random_game(2, seed=3).state)
    >>> pic.count('class="hg-tile"') > 40
    True
    """
    board = state.board
    tiles = state.edition.tiles
    xs = [x for x, _ in board.cells]
    ys = [y for _, y in board.cells]
    x0, y0 = min(xs), min(ys)
    w, h = (max(xs) - x0 + 1) * 100, (max(ys) - y0 + 1) * 100
    marked = set(highlight)
    pieces: dict[int, list[tuple[ZoneRef, int, Piece]]] = {}
    for where, player, piece in board.pieces():
        pieces.setdefault(where.tile, []).append((where, player, piece))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0 * 100} {y0 * 100} {w} {h}" '
             f'width="{w * cell // 100}" height="{h * cell // 100}" role="img" '
             f'aria-label="board of {len(board.cells)} tiles">', defs()]
    for (x, y), (tid, rot) in sorted(board.cells.items()):
        parts.append(f'<g transform="translate({x * 100} {y * 100})">{tile_fragment(tiles[tid], rot)}')
        if tid in marked:
            parts.append('<rect x="2" y="2" width="96" height="96" fill="none" stroke="#ff1744" '
                         'stroke-width="4"/>')
        anchors = zone_anchors(tiles[tid], rot)
        for where, player, piece in sorted(pieces.get(tid, ())):
            parts.append(piece_svg(player, piece, anchors[where.zone]))
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
