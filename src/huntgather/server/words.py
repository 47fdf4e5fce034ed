"""Words for players: where a zone lies on a placed tile, without the engine's ids.

The engine's own texts (``Zone.describe``, ``Event.describe``) name zones and
tiles by number — right for records and the command line, opaque at the table.
Pages get these phrases instead: a zone is named by its kind, by where it lies
on the tile as placed (compass points), and by what is printed on it, so that
two rivers of one tile never read alike.

A side of a tile has three parts — two corners and the middle: a forest or
meadow side fills all three; a river side holds the river in the middle and a
meadow on each corner.  Going clockwise from the north-west, the eight parts
are the eight compass points; a zone is named by the runs of points it covers.

>>> from huntgather.tiles import load_tileset
>>> tiles = load_tileset("2020")

The start tile: a meadow side to the north (zone 0), forest to the east and
south (zone 1), and to the west a river side — going clockwise along it, the
meadow 2 on the south-west corner, the river 3, the meadow 0 on the north-west
corner.  So zone 0 covers north-west, north and north-east; the forest the
five points from north-east to south-west; the lake touches no side.

>>> start = tiles[56]
>>> [zone_phrase(start, z, 0) for z in start.zones]    # doctest: +NORMALIZE_WHITESPACE
['the meadow to the north (an aurochs)', 'the forest from north-east to south-west (1 menhir)',
 'the meadow to the south-west', 'the river to the west', 'the lake (1 fish)']

Turned a quarter clockwise, the west side faces north:

>>> occupant_phrase(start, 3, 1, "fisher")
'a fisher on the river to the north'
"""

from __future__ import annotations

from collections import Counter

from huntgather.specials import special_named
from huntgather.tiles import LAKE, RIVER, Tile, Zone

#: the eight compass points, clockwise from the north-west
POINTS = ("north-west", "north", "north-east", "east", "south-east", "south", "south-west", "west")

#: the letter on a spot where a piece may go, by the role it would take (the Rules screen's key says so)
ROLE_LETTERS = {"fisher": "F", "gatherer": "G", "hunter": "H", "hut": "⌂"}


def _points(tile: Tile, zone: int, rotation: int) -> list[int]:
    """The compass points (indexes into :data:`POINTS`) that ``zone`` reaches once turned."""
    out: set[int] = set()
    for direction in range(4):
        side = tile.side_at(rotation, direction)
        middle = 1 + 2 * direction          # N=1, E=3, S=5, W=7
        corners = ((middle - 1) % 8, (middle + 1) % 8)   # clockwise: the first corner, then the second
        if side.kind == RIVER:
            first, river, second = side.zones
            if first == zone:
                out.add(corners[0])
            if river == zone:
                out.add(middle)
            if second == zone:
                out.add(corners[1])
        elif side.zones[0] == zone:
            out.update((corners[0], middle, corners[1]))
    return sorted(out)


def _runs(points: list[int]) -> list[list[int]]:
    """``points`` split into runs of neighbours on the circle of eight, each run in clockwise order."""
    if not points:
        return []
    if len(points) == 8:
        return [list(range(8))]
    present = set(points)
    start = next(p for p in points if (p - 1) % 8 not in present)   # a point that begins a run
    runs: list[list[int]] = []
    for step in range(8):
        p = (start + step) % 8
        if p not in present:
            continue
        if runs and runs[-1][-1] == (p - 1) % 8:
            runs[-1].append(p)
        else:
            runs.append([p])
    return runs


def where(tile: Tile, zone: int, rotation: int) -> str:
    """Where ``zone`` lies on the tile turned ``rotation`` times: ``'to the west'``, ``''`` for a lake.

    >>> from huntgather.tiles import load_tileset
    >>> where(load_tileset("2020")[56], 1, 0)   # east and south sides: NE, E, SE, S, SW
    'from north-east to south-west'
    """
    runs = _runs(_points(tile, zone, rotation))
    if not runs:
        return ""
    if len(runs) == 1 and len(runs[0]) == 8:
        return "all round"
    names: list[str] = []
    for run in runs:
        if len(run) <= 2:
            names.extend(POINTS[p] for p in run)
        elif len(run) == 3:
            names.append(POINTS[run[1]])
        else:
            names.append(f"from {POINTS[run[0]]} to {POINTS[run[-1]]}")
    if names[0].startswith("from"):
        return names[0] if len(names) == 1 else names[0] + " and to the " + " and ".join(names[1:])
    return "to the " + " and ".join(names)


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _facts(z: Zone) -> list[str]:
    facts: list[str] = []
    if z.fish:
        facts.append(f"{z.fish} fish")
    for name, count in (("menhir", z.menhirs), ("gold nugget", z.gold_nuggets), ("mushroom", z.mushrooms)):
        if count:
            facts.append(f"{count} {name}{'s' if count > 1 else ''}")
    for animal, count in Counter(z.animals).items():
        facts.append(f"{count} {animal}" if count > 1 else f"{_article(animal)} {animal}")
    if z.special:
        special = special_named(z.special)
        facts.append(special.words if special is not None and special.words else z.special.replace("_", " "))
    return facts


#: phrases made so far, by (tile, zone, rotation); tiles never change, and each entry keeps its
#: tile alive, so that no other tile can take its id
_PHRASES: dict[tuple[int, int, int], tuple[Tile, str]] = {}


def zone_phrase(tile: Tile, zone: int, rotation: int) -> str:
    """``'the river to the north (1 fish)'``: a zone of a placed tile, as a player would say it."""
    key = (id(tile), zone, rotation)
    known = _PHRASES.get(key)
    if known is None:
        known = _PHRASES[key] = (tile, _zone_phrase(tile, zone, rotation))
    return known[1]


def _zone_phrase(tile: Tile, zone: int, rotation: int) -> str:
    z = tile.zones[zone]
    place = where(tile, zone, rotation)
    if z.kind == LAKE:
        lakes = [y for y in tile.zones.values() if y.kind == LAKE]
        feeders = [y.id for y in tile.zones.values() if y.kind == RIVER and y.lake == zone]
        if len(lakes) > 1 and feeders:
            place = "fed from the " + " and the ".join(where(tile, f, rotation).removeprefix("to the ")
                                                      for f in feeders)
    facts = _facts(z)
    text = f"the {z.kind}" + (f" {place}" if place else "")
    return text + (f" ({', '.join(facts)})" if facts else "")


def occupant_phrase(tile: Tile, zone: int, rotation: int, role: str) -> str:
    """``'a hunter on the meadow to the east (2 deer)'``."""
    return f"{_article(role)} {role} on {zone_phrase(tile, zone, rotation)}"


def zone_summary(z: Zone) -> str:
    """A zone by its kind and what is printed on it: ``'meadow (an aurochs)'``."""
    facts = _facts(z)
    return z.kind + (f" ({', '.join(facts)})" if facts else "")


def tile_summary(tile: Tile) -> str:
    """What is on a tile, zone by zone, in a player's words.

    >>> from huntgather.tiles import load_tileset
    >>> tile_summary(load_tileset("2020")[56])   # the start tile (see above)
    'meadow (an aurochs) · forest (1 menhir) · meadow · river · lake (1 fish)'
    """
    return " · ".join(zone_summary(z) for z in tile.zones.values())
