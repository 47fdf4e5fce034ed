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
from collections.abc import Sequence
from typing import TYPE_CHECKING

from huntgather.phrases import Said, Say, say_of
from huntgather.server.sayings import said
from huntgather.specials import SHIPPED_SPECIALS, special_named
from huntgather.tiles import DELTAS, LAKE, RIVER, Tile, Zone

if TYPE_CHECKING:
    from huntgather.board import Board

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


def _point(p: int) -> Say:
    return Say("say.point." + POINTS[p].replace("-", "_"))


def where(tile: Tile, zone: int, rotation: int) -> str:
    """Where ``zone`` lies on the tile turned ``rotation`` times: ``'to the west'``, ``''`` for a lake
    (a :class:`Said` but for a lake).

    >>> from huntgather.tiles import load_tileset
    >>> where(load_tileset("2020")[56], 1, 0)   # east and south sides: NE, E, SE, S, SW
    'from north-east to south-west'
    """
    runs = _runs(_points(tile, zone, rotation))
    if not runs:
        return ""
    if len(runs) == 1 and len(runs[0]) == 8:
        return said(Say("say.where.all_round"))
    says: list[Say] = []
    for run in runs:
        if len(run) <= 2:
            says.extend(_point(p) for p in run)
        elif len(run) == 3:
            says.append(_point(run[1]))
        else:
            says.append(Say("say.compass.span", start=_point(run[0]), end=_point(run[-1])))
    if says[0].key == "say.compass.span":
        if len(says) == 1:
            return said(says[0])
        return said(Say("say.where.span_and", span=says[0], rest=tuple(says[1:])))
    return said(Say("say.where.to", points=tuple(says)))


def _bare(place: str) -> Say:
    """A feeder's where-words without their "to the" (``'west'``), for a lake fed from there."""
    say = say_of(place)
    if say.key == "say.where.to":
        return Say("say.compass.points", points=say.params["points"])
    return say


def _facts(z: Zone) -> list[Said]:
    """What is printed on a zone, each with its :class:`Say` (``'1 fish'``, ``'an aurochs'``)."""
    facts: list[Say] = []
    if z.fish:
        facts.append(Say("say.fact.fish", n=z.fish))
    for name, count in (("menhir", z.menhirs), ("gold_nugget", z.gold_nuggets), ("mushroom", z.mushrooms)):
        if count:
            facts.append(Say(f"say.fact.{name}", n=count))
    for animal, count in Counter(z.animals).items():
        facts.append(Say(f"say.fact.{animal}", n=count))
    if z.special:
        special = special_named(z.special)
        words = special.words if special is not None and special.words else z.special.replace("_", " ")
        shipped = special is not None and type(special) in SHIPPED_SPECIALS
        facts.append(Say(f"say.special.{z.special}") if shipped else Say.words(words))
    return [said(f) for f in facts]


def _fact_list(facts: list[Said]) -> Say:
    return Say("say.facts", facts=tuple(f.say for f in facts))


#: phrases made so far, by (tile, zone, rotation); tiles never change, and each entry keeps its
#: tile alive, so that no other tile can take its id
_PHRASES: dict[tuple[int, int, int], tuple[Tile, Said]] = {}


def zone_phrase(tile: Tile, zone: int, rotation: int) -> Said:
    """``'the river to the north (1 fish)'``: a zone of a placed tile, as a player would say it."""
    key = (id(tile), zone, rotation)
    known = _PHRASES.get(key)
    if known is None:
        known = _PHRASES[key] = (tile, _zone_phrase(tile, zone, rotation))
    return known[1]


def _zone_phrase(tile: Tile, zone: int, rotation: int) -> Said:
    z = tile.zones[zone]
    place = where(tile, zone, rotation)
    if z.kind == LAKE:
        lakes = [y for y in tile.zones.values() if y.kind == LAKE]
        feeders = [_bare(where(tile, y.id, rotation)) for y in tile.zones.values()
                   if y.kind == RIVER and y.lake == zone]
        if len(lakes) > 1 and feeders:
            place = said(Say("say.where.fed", feeders=tuple(feeders)))
    facts = _facts(z)
    kind = Say(f"say.zone.{z.kind}")
    if facts and place:
        return said(Say("say.zone_where_facts", kind=kind, where=say_of(place), facts=_fact_list(facts)))
    if facts:
        return said(Say("say.zone_facts", kind=kind, facts=_fact_list(facts)))
    if place:
        return said(Say("say.zone_where", kind=kind, where=say_of(place)))
    return said(Say("say.zone", kind=kind))


def in_case(zone: Say, case: str) -> Say:
    """A zone's phrase as its container needs it: ``case`` ``"on"`` (a piece put on it: English
    "on the river", Czech "na řeku", German "auf den Fluss") or ``"from"`` (a piece taken from it)."""
    kind = zone.params["kind"]
    assert isinstance(kind, Say)
    prefix = {"on": "say.on.", "from": "say.from."}[case]
    return Say(zone.key, **{**zone.params, "kind": Say(kind.key.replace("say.zone.", prefix, 1))})


def occupant_phrase(tile: Tile, zone: int, rotation: int, role: str) -> Said:
    """``'a hunter on the meadow to the east (2 deer)'``."""
    return said(Say(f"say.a_role_on.{role}", zone=in_case(zone_phrase(tile, zone, rotation).say, "on")))


def zone_summary(z: Zone) -> Said:
    """A zone by its kind and what is printed on it: ``'meadow (an aurochs)'``."""
    facts = _facts(z)
    kind = Say(f"say.kind.{z.kind}")
    return said(Say("say.summary_facts", kind=kind, facts=_fact_list(facts)) if facts
                else Say("say.summary", kind=kind))


def tile_summary(tile: Tile) -> Said:
    """What is on a tile, zone by zone, in a player's words.

    >>> from huntgather.tiles import load_tileset
    >>> tile_summary(load_tileset("2020")[56])   # the start tile (see above)
    'meadow (an aurochs) · forest (1 menhir) · meadow · river · lake (1 fish)'
    """
    return said(Say("say.tile", zones=tuple(zone_summary(z).say for z in tile.zones.values())))


# --------------------------------------------------------------------------- squares

#: a side's direction (N, E, S, W) as the compass word for the square beyond it
_SIDE_WORDS = ("north", "east", "south", "west")


def _owner(board: Board, tile: int, zone: int, seat: int) -> int | None:
    """The seat whose pieces hold the feature (``seat`` itself if it has one there), or None."""
    feature = board.feature_at(tile, zone)
    holders = [p for p, _ in feature.meeples]
    if feature.kind == RIVER:
        holders += [p for p, _ in board.system_at(tile, zone).huts]
    if not holders:
        return None
    if seat in holders:
        return seat
    return Counter(holders).most_common(1)[0][0]


def _neighbour_phrases(board: Board, x: int, y: int, seat: int) -> list[Said]:
    """What lies around the square (x, y), each a phrase that places the square: pieces' features
    first (``'next to your forest'``), then what is printed there (``'east of the lake with 2 fish'``)."""
    owned: list[Say] = []
    marked: list[Say] = []
    plain: list[Say] = []
    for d, (dx, dy) in enumerate(DELTAS):
        found = board.tile_at(x + dx, y + dy)
        if found is None:
            continue
        tile_id, rotation = found
        tile = board.tiles[tile_id]
        side = tile.side_at(rotation, (d + 2) % 4)   # the neighbour's side facing the square
        zone = side.zones[1] if side.kind == RIVER else side.zones[0]
        kind = tile.zones[zone].kind
        beyond = Say(f"say.beyond.{_SIDE_WORDS[(d + 2) % 4]}")   # the square lies this way from it
        owner = _owner(board, tile_id, zone, seat)
        if owner == seat:
            owned.append(Say(f"say.square.yours.{kind}", beyond=beyond))
        elif owner is not None:
            owned.append(Say(f"say.square.theirs.{kind}", seat=Say.seat(owner), beyond=beyond))
        lakes = [z for z in tile.zones.values() if z.kind == LAKE]
        facts = _facts(tile.zones[zone])
        if kind == RIVER and lakes:
            lake = next((z for z in lakes if z.id == tile.zones[zone].lake), lakes[0])
            things = tuple(f.say for f in _facts(lake))
            marked.append(Say("say.square.of_with.lake", beyond=beyond, things=things) if things
                          else Say("say.square.of.lake", beyond=beyond))
        elif facts:
            things = tuple(f.say for f in facts)
            marked.append(Say(f"say.square.of_with.{kind}", beyond=beyond, things=things))
        plain.append(Say(f"say.square.of.{kind}", beyond=beyond))
    return [said(p) for p in owned + marked + plain]


def _region(board: Board, x: int, y: int) -> Said:
    """Where the square lies on the board as a whole: ``'at the top'``, ``'on the left'``…"""
    cells = [*board.cells, (x, y)]
    x0, x1 = min(c[0] for c in cells), max(c[0] for c in cells)
    y0, y1 = min(c[1] for c in cells), max(c[1] for c in cells)
    vertical = "top" if y == y0 and y1 > y0 else "bottom" if y == y1 and y1 > y0 else ""
    horizontal = "left" if x == x0 and x1 > x0 else "right" if x == x1 and x1 > x0 else ""
    return said(Say("say.region." + ("_".join(w for w in (vertical, horizontal) if w) or "middle")))


def _from_start(x: int, y: int) -> Said:
    """The square counted from the start tile: ``'2 squares east and 1 north of the start tile'``."""
    steps: list[Say] = []
    if x:
        steps.append(Say(f"say.square.steps.{'east' if x > 0 else 'west'}", n=abs(x)))
    if y:
        way = "south" if y > 0 else "north"
        key = f"say.square.more.{way}" if steps else f"say.square.steps.{way}"
        steps.append(Say(key, n=abs(y)))
    return said(Say("say.square.from_start", steps=tuple(steps)) if steps else Say("say.square.on_start"))


def _at(place: Said, region: Said) -> Said:
    return said(Say("say.square.at", place=place.say, region=region.say))


def square_candidates(board: Board, x: int, y: int, seat: int) -> list[Said]:
    """Ways to name the empty square (x, y) for the player in ``seat``, the most telling first;
    the last, counted from the start tile, is one no other square shares."""
    region = _region(board, x, y)
    around = _neighbour_phrases(board, x, y, seat)
    out = [_at(p, region) for p in around[:1]] + around + [_at(p, region) for p in around[1:]]
    out.append(_from_start(x, y))
    return list(dict.fromkeys(out))


def square_words(board: Board, squares: Sequence[tuple[int, int]], seat: int) -> list[Said]:
    """Words for each of ``squares`` (hints' placements) so that no two different squares read
    alike: each takes its most telling phrase that no other square of the list could also be
    named by; failing that, one no other square took; at worst the count from the start tile.

    >>> from huntgather import Game
    >>> g = Game(players=2, seed=4)
    >>> squares = sorted({(m.x, m.y) for m in g.legal_moves()})[:3]
    >>> words = square_words(g.state.board, squares, 0)
    >>> len(set(words)) == len(set(squares))
    True
    """
    options = {sq: square_candidates(board, *sq, seat) for sq in dict.fromkeys(squares)}
    chosen: dict[tuple[int, int], Said] = {}
    for sq, mine in options.items():
        others = {p for other, ps in options.items() if other != sq for p in ps}
        taken = {w for other, w in chosen.items() if other != sq}
        pick = next((p for p in mine if p not in others), None)
        if pick is None:
            pick = next((p for p in mine if p not in taken and p not in others), mine[-1])
        chosen[sq] = pick
    return [chosen[sq] for sq in squares]
