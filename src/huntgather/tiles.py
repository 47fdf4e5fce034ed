"""Tiles: frozen value types loaded once from the package data.

A :class:`Tile` has four :class:`Side` objects (N, E, S, W, unrotated) and a
set of :class:`Zone` objects.  Rotations are precomputed: ``tile.side_kinds[r]``
is the tuple of side kinds after ``r`` clockwise quarter turns, and
``tile.sides_at(r)`` the rotated sides themselves.

>>> from huntgather.tiles import load_tileset
>>> tiles = load_tileset("2020")
>>> len(tiles)
95
>>> tiles[56].kind, tiles[56].side_kinds[0]
('start', ('meadow', 'forest', 'forest', 'river'))
>>> tiles[56].side_kinds[1]
('river', 'meadow', 'forest', 'forest')

Tiles, zones and tile sets are immutable and hashable (their tables are
:class:`FrozenDict`).  Kinds of zone and animals are :mod:`huntgather.kinds` enums.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Final, NoReturn, TypeVar

from huntgather.kinds import Animal, ForestCounter, Kind
from huntgather.registry import printable, printable_names

NORTH: Final = 0
EAST: Final = 1
SOUTH: Final = 2
WEST: Final = 3
DIRECTIONS: Final = "NESW"
#: (dx, dy) of the neighbour on each side; y grows towards the south.
DELTAS: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))

# (one name a line, each Final: the compiled build reads a Final constant without a dict look-up)
FOREST: Final = Kind.FOREST
MEADOW: Final = Kind.MEADOW
RIVER: Final = Kind.RIVER
LAKE: Final = Kind.LAKE
SIDE_KINDS = (FOREST, MEADOW, RIVER)
TILE_KINDS = ("start", "normal", "bonus")
TILE_FORMAT = "huntgather-tiles"
TILE_FORMAT_VERSION = 1


class TileDataError(ValueError):
    """The tile data is malformed; the message names the tile and the problem."""


_K = TypeVar("_K")
_V = TypeVar("_V")


class FrozenDict(dict[_K, _V]):
    """A dict that cannot change, and so can be hashed (tables inside frozen values).

    >>> d = FrozenDict({"a": 1}); hash(d) == hash(FrozenDict({"a": 1})), d["a"]
    (True, 1)
    >>> d["b"] = 2
    Traceback (most recent call last):
    ...
    TypeError: a FrozenDict cannot change
    """

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    # equality written out too: the compiled class does not inherit dict's comparison
    def __eq__(self, other: object) -> bool:
        return isinstance(other, dict) and dict(self) == dict(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def _frozen(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a FrozenDict cannot change")

    # each written out as a method (not ``__setitem__ = _frozen``): the compiled build keeps only
    # methods defined with ``def`` as overrides of dict's
    def __setitem__(self, key: _K, value: _V) -> NoReturn:
        self._frozen()

    def __delitem__(self, key: _K) -> NoReturn:
        self._frozen()

    def clear(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._frozen()

    def pop(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._frozen()

    def popitem(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._frozen()

    def setdefault(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._frozen()

    def update(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._frozen()

    def __ior__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        self._frozen()

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))


@dataclass(frozen=True, slots=True)
class Zone:
    """One area printed on a tile.

    ``id`` is local to the tile (0-7 land and river zones, 8-9 lakes); on the board a zone
    is named by its tile and its id (:class:`huntgather.board.ZoneRef`, written ``17.1``).
    """

    id: int
    kind: Kind
    fish: int = 0
    lake: int | None = None
    menhirs: int = 0
    gold_nuggets: int = 0
    mushrooms: int = 0
    animals: tuple[Animal, ...] = ()
    special: str | None = None

    def counter(self, name: str) -> int:
        """A forest counter by name (``"menhirs"``, ``"gold_nuggets"``, ``"mushrooms"``), as an
        edition's ``bonus_counter`` names it."""
        return (name if isinstance(name, ForestCounter) else ForestCounter(name)).of(self)

    def describe(self) -> str:
        """A short text such as ``'river (1 fish, into lake 8)'``."""
        facts: list[str] = []
        if self.fish:
            facts.append(f"{self.fish} fish")
        if self.kind == RIVER and self.lake is not None:
            facts.append(f"into lake {self.lake}")
        for name, count in (("menhir", self.menhirs), ("gold nugget", self.gold_nuggets),
                            ("mushroom group", self.mushrooms)):
            if count:
                facts.append(f"{count} {name}{'s' if count > 1 else ''}")
        if self.animals:
            facts.append(", ".join(self.animals))
        if self.special:
            facts.append(self.special.replace("_", " "))
        return self.kind + (f" ({'; '.join(facts)})" if facts else "")


@dataclass(frozen=True, slots=True)
class Side:
    """One side of an unrotated tile.

    ``zones`` is ``(zone,)`` for a forest or meadow side and
    ``(meadow1, river, meadow2)`` for a river side, the meadows in clockwise
    order, so that where two tiles touch meadow1 of one meets meadow2 of the other.
    """

    kind: Kind
    zones: tuple[int, ...]


@dataclass(frozen=True)
class Tile:
    """A tile of the set, with its four rotations precomputed."""

    id: int
    kind: str
    sides: tuple[Side, Side, Side, Side]
    zones: FrozenDict[int, Zone]
    confidence: str | None = None
    uncertainty: str | None = None
    decoration: tuple[str, ...] = ()
    #: ``side_kinds[r][d]``: kind of the side facing direction ``d`` after ``r`` turns.
    side_kinds: tuple[tuple[Kind, ...], ...] = field(init=False, repr=False, compare=False)
    #: ``rotated_sides[r][d]``: the side facing direction ``d`` after ``r`` turns (:meth:`side_at`).
    rotated_sides: tuple[tuple[Side, ...], ...] = field(init=False, repr=False, compare=False)
    #: the zones that show a special marker, in zone order
    special_zones: tuple[Zone, ...] = field(init=False, repr=False, compare=False)
    #: ``zone_sides[z]``: how many side slots zone ``z`` fills (forest/river: open ends).
    zone_sides: FrozenDict[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "zones", FrozenDict(self.zones))
        kinds = tuple(s.kind for s in self.sides)
        rotated = tuple(tuple(kinds[(d - r) % 4] for d in range(4)) for r in range(4))
        object.__setattr__(self, "side_kinds", rotated)
        object.__setattr__(self, "rotated_sides",
                           tuple(tuple(self.sides[(d - r) % 4] for d in range(4)) for r in range(4)))
        object.__setattr__(self, "special_zones", tuple(z for z in self.zones.values() if z.special))
        counts: dict[int, int] = {z: 0 for z in self.zones}
        for side in self.sides:
            if side.kind == RIVER:
                counts[side.zones[1]] += 1
            else:
                counts[side.zones[0]] += 1
        object.__setattr__(self, "zone_sides", FrozenDict(counts))

    def side_at(self, rotation: int, direction: int) -> Side:
        """The side facing ``direction`` when the tile is turned ``rotation`` times."""
        return self.rotated_sides[rotation][direction]

    @property
    def is_bonus(self) -> bool:
        return self.kind == "bonus"

    def specials(self) -> tuple[str, ...]:
        """Special markers printed on the tile (``'shaman'``, ``'raft'`` ...)."""
        return tuple(z.special for z in self.zones.values() if z.special)

    def summary(self) -> str:
        """What a player sees on the tile, zone by zone, for people rather than records.

        >>> load_tileset("2020")[44].summary()
        'forest (1 menhir) · forest · meadow (deer)'
        """
        return " · ".join(z.describe() for z in self.zones.values())

    def describe(self) -> str:
        """One line: id, kind, sides and zones (used by ``huntgather tiles``)."""
        sides = " ".join(f"{DIRECTIONS[d]}={s.kind[0].upper()}" for d, s in enumerate(self.sides))
        zones = "; ".join(f"{z.id}: {z.describe()}" for z in self.zones.values())
        return f"{self.id:>3} {self.kind:<6} {sides}  {zones}"


class TileSet:
    """All tiles of one edition, indexed by id.

    >>> ts = load_tileset("2020")
    >>> ts.start.id, len(ts.normal_ids), len(ts.bonus_ids)
    (56, 78, 16)
    """

    def __init__(self, edition: str, tiles: list[Tile], source: str = "",
                 notes: tuple[str, ...] = ()) -> None:
        self.edition = edition
        self.source = source
        self.notes = notes
        self._tiles = {t.id: t for t in tiles}
        #: ``tile id -> Tile`` as a plain dict, for the engine's inner loops on ids known to be valid
        #: (``tiles[id]`` is the same look-up with a message naming the edition for a wrong id)
        self.by_id: dict[int, Tile] = self._tiles
        #: ``tile id -> Tile`` as a list (None where no tile has the id): the same look-up as
        #: :attr:`by_id`, for the hottest loops (a list item is read several times quicker than a
        #: dict's, in the compiled build)
        self.listed: list[Tile | None] = [None] * (max((t.id for t in tiles), default=-1) + 1)
        for t in tiles:
            self.listed[t.id] = t
        starts = [t for t in tiles if t.kind == "start"]
        if len(starts) != 1:
            raise TileDataError(f"edition {edition}: expected exactly one start tile, found {len(starts)}")
        self.start = starts[0]
        self.normal_ids = tuple(sorted(t.id for t in tiles if t.kind == "normal"))
        self.bonus_ids = tuple(sorted(t.id for t in tiles if t.kind == "bonus"))

    def __reduce_ex__(self, protocol: Any) -> Any:
        """A shipped tile set pickles as its name (a worker process loads its own copy once).

        >>> import pickle
        >>> pickle.loads(pickle.dumps(load_tileset("2002"))) is load_tileset("2002")
        True
        """
        try:
            if load_tileset(self.edition) is self:
                return (load_tileset, (self.edition,))
        except TileDataError:
            pass
        return object.__reduce_ex__(self, protocol)

    def __getitem__(self, tile_id: int) -> Tile:
        try:
            return self._tiles[tile_id]
        except KeyError:
            raise KeyError(f"edition {self.edition} has no tile {tile_id}") from None

    def __contains__(self, tile_id: object) -> bool:
        return tile_id in self._tiles

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(sorted(self._tiles.values(), key=lambda t: t.id))

    def __len__(self) -> int:
        return len(self._tiles)


# --------------------------------------------------------------------------- parsing


def _parse_int(text: str, where: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TileDataError(f"{where}: {text!r} is not a whole number") from None


def parse_zone(text: str, where: str) -> Zone:
    """Parse ``"3 forest menhirs=1"`` into a :class:`Zone`."""
    words = text.split()
    if len(words) < 2:
        raise TileDataError(f"{where}: zone {text!r} needs an id and a kind")
    zid = _parse_int(words[0], where)
    try:
        kind = Kind(words[1])
    except ValueError:
        raise TileDataError(f"{where}: zone {zid} has unknown kind {words[1]!r}") from None
    if kind == LAKE and zid not in (8, 9):
        raise TileDataError(f"{where}: lake zone id {zid} must be 8 or 9")
    if kind != LAKE and not 0 <= zid <= 7:
        raise TileDataError(f"{where}: {kind} zone id {zid} must be 0..7")
    allowed = {
        FOREST: {"menhirs", "gold_nuggets", "mushrooms"},
        MEADOW: {"animals", "special"},
        RIVER: {"fish", "lake"},
        LAKE: {"fish", "special"},
    }[kind]
    values: dict[str, Any] = {}
    for word in words[2:]:
        key, eq, value = word.partition("=")
        if not eq or key not in allowed:
            raise TileDataError(f"{where}: zone {zid} ({kind}) cannot have {word!r}")
        if key == "animals":
            try:
                values[key] = tuple(Animal(a) for a in value.split(","))
            except ValueError:
                bad = next(a for a in value.split(",") if a not in tuple(Animal))
                raise TileDataError(f"{where}: zone {zid} has unknown animal {bad!r}") from None
        elif key == "special":
            values[key] = _special(value, kind, f"{where}: zone {zid}")
        else:
            number = _parse_int(value, f"{where} zone {zid} {key}")
            if number < 0:
                raise TileDataError(f"{where}: zone {zid} {key} is negative")
            values[key] = number
    return Zone(id=zid, kind=kind, **values)


def _special(name: str, kind: Kind, where: str) -> str:
    """Check a printed special: a registered one (:mod:`huntgather.registry`, where
    :func:`huntgather.specials.register_special` keeps them), on a zone it fits."""
    special = printable(name)
    if special is None:
        known = ", ".join(printable_names())
        raise TileDataError(f"{where} has unknown special {name!r} (known: {known})")
    if kind not in special.zone_kinds:
        raise TileDataError(f"{where}: the special {name!r} goes on a "
                            f"{' or a '.join(special.zone_kinds)}, not on a {kind}")
    return name


def parse_side(text: str, zones: dict[int, Zone], where: str) -> Side:
    words = text.split()
    if not words or words[0] not in SIDE_KINDS:
        raise TileDataError(f"{where}: side {text!r} must start with forest, meadow or river")
    kind = Kind(words[0])
    ids = tuple(_parse_int(w, where) for w in words[1:])
    expected = (MEADOW, RIVER, MEADOW) if kind == RIVER else (kind,)
    if len(ids) != len(expected):
        raise TileDataError(f"{where}: a {kind} side lists {len(expected)} zone(s), got {len(ids)}")
    for zid, want in zip(ids, expected, strict=True):
        if zid not in zones:
            raise TileDataError(f"{where}: side names zone {zid}, which the tile does not have")
        if zones[zid].kind != want:
            raise TileDataError(f"{where}: side {text!r} needs zone {zid} to be {want}, "
                                f"but it is {zones[zid].kind}")
    return Side(kind=kind, zones=ids)


def parse_tile(obj: dict[str, Any], edition: str) -> Tile:
    """Build and validate one tile from its JSON object."""
    where = f"edition {edition} tile {obj.get('id', '?')}"
    if not isinstance(obj.get("id"), int):
        raise TileDataError(f"{where}: 'id' must be a whole number")
    if obj.get("kind") not in TILE_KINDS:
        raise TileDataError(f"{where}: kind {obj.get('kind')!r} is not one of {TILE_KINDS}")
    zone_list = [parse_zone(str(z), where) for z in obj.get("zones", [])]
    zones = {z.id: z for z in zone_list}
    if len(zones) != len(zone_list):
        raise TileDataError(f"{where}: duplicate zone ids")
    sides_raw = obj.get("sides", [])
    if len(sides_raw) != 4:
        raise TileDataError(f"{where}: needs 4 sides (N, E, S, W), got {len(sides_raw)}")
    sides = tuple(parse_side(str(s), zones, f"{where} side {DIRECTIONS[i]}")
                  for i, s in enumerate(sides_raw))
    for zone in zones.values():
        if zone.kind == RIVER and zone.lake is not None:
            lake = zones.get(zone.lake)
            if lake is None or lake.kind != LAKE:
                raise TileDataError(f"{where}: river zone {zone.id} runs into lake {zone.lake}, "
                                    f"which is not a lake of this tile")
    for zone in zones.values():
        if zone.kind == LAKE and not any(z.lake == zone.id for z in zones.values()):
            raise TileDataError(f"{where}: lake {zone.id} has no river running into it")
    tile = Tile(
        id=obj["id"], kind=obj["kind"], sides=sides,  # type: ignore[arg-type]
        zones=FrozenDict(sorted(zones.items())),
        confidence=obj.get("confidence"), uncertainty=obj.get("uncertainty"),
        decoration=tuple(obj.get("decoration", ())),
    )
    for zone in zones.values():
        if zone.kind == RIVER and tile.zone_sides[zone.id] + (zone.lake is not None) > 2:
            raise TileDataError(f"{where}: river zone {zone.id} has more than two ends")
        if zone.kind == RIVER and tile.zone_sides[zone.id] == 0:
            raise TileDataError(f"{where}: river zone {zone.id} touches no side")
    return tile


def parse_tileset(data: dict[str, Any]) -> TileSet:
    """Validate a whole tile file (already decoded from JSON)."""
    if data.get("format") != TILE_FORMAT:
        raise TileDataError(f"not a huntgather tile file (format {data.get('format')!r})")
    if data.get("version") != TILE_FORMAT_VERSION:
        raise TileDataError(f"tile file version {data.get('version')!r} is not supported "
                            f"(this huntgather reads version {TILE_FORMAT_VERSION})")
    edition = str(data.get("edition"))
    tiles = [parse_tile(t, edition) for t in data.get("tiles", [])]
    ids = [t.id for t in tiles]
    if len(set(ids)) != len(ids):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise TileDataError(f"edition {edition}: duplicate tile ids {dup}")
    return TileSet(edition, tiles, str(data.get("source", "")), tuple(data.get("notes", ())))


_REGISTERED: dict[str, TileSet] = {}


def register_tileset(tileset: TileSet) -> TileSet:
    """Make a tile set of one's own (from :func:`parse_tileset`) loadable by its edition name, for
    an edition of one's own (``Edition(..., tileset=NAME)``); the shipped sets cannot be replaced.

    >>> import json
    >>> from importlib import resources
    >>> data = json.loads(resources.files("huntgather.data").joinpath("tiles-2002.json").read_text())
    >>> mine = register_tileset(parse_tileset(data | {"edition": "2002-mine"}))
    >>> load_tileset("2002-mine") is mine, len(mine)
    (True, 91)
    >>> unregister_tileset("2002-mine")
    """
    name = tileset.edition
    if name in _REGISTERED and _REGISTERED[name] is not tileset:
        raise ValueError(f"another tile set is already registered as {name!r}")
    try:
        _load_shipped(name)
    except TileDataError:
        pass
    else:
        raise ValueError(f"{name!r} is a shipped tile set and cannot be replaced")
    _REGISTERED[name] = tileset
    return tileset


def unregister_tileset(name: str) -> None:
    """Forget a tile set registered with :func:`register_tileset`."""
    if _REGISTERED.pop(name, None) is None:
        raise ValueError(f"no tile set is registered as {name!r}")


def load_tileset(edition: str) -> TileSet:
    """The tile set of ``edition``: a registered one, or the shipped one (loaded and checked once)."""
    registered = _REGISTERED.get(edition)
    return registered if registered is not None else _load_shipped(edition)


@cache
def _load_shipped(edition: str) -> TileSet:
    name = f"tiles-{edition}.json"
    try:
        text = resources.files("huntgather.data").joinpath(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TileDataError(f"no tile data for edition {edition!r}") from None
    return parse_tileset(json.loads(text))
