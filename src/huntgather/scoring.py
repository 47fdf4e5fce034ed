"""Pure scoring functions that explain themselves.

Each returns ``(points, text)``; the text shows the arithmetic.

>>> from huntgather.editions import get_edition
>>> e = get_edition("2020")
>>> river_points(e, tiles=3, river_fish=0, lake_fish=2, lakes=2)
(5, '3 tiles ×1 + 2 fish in 2 lakes = 5')
>>> forest_points(e, tiles=4, mushrooms=0)
(8, '4 tiles ×2 = 8')
>>> animal_points(e, {"mammoth": 2, "aurochs": 2, "deer": 2, "tiger": 1})
(11, '2 mammoths ×3 + 2 aurochs ×2 + 2 deer − 1 eaten by a tiger ×1 = 11')
>>> animal_points(e, {"tiger": 2})      # a hunting trap over tigers only: they are still taken
(0, '2 tigers and no deer = 0')
>>> majority({0: 1, 2: 1, 1: 0})
(0, 2)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import TYPE_CHECKING

from huntgather.editions import Edition
from huntgather.events import player_name
from huntgather.tiles import MEADOW

if TYPE_CHECKING:
    from huntgather.board import Board

_PLURAL = {"mammoth": "mammoths", "aurochs": "aurochs", "deer": "deer", "tiger": "tigers"}
SCORING_ANIMALS = ("mammoth", "aurochs", "deer")


def plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count} {word if count == 1 else (words or word + 's')}"


def majority(counts: Mapping[int, int]) -> tuple[int, ...]:
    """Seats holding the most pieces (at least one); ties all win."""
    best = max(counts.values(), default=0)
    if best <= 0:
        return ()
    return tuple(sorted(p for p, c in counts.items() if c == best))


def count_pieces(owners: Iterable[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for p in owners:
        counts[p] = counts.get(p, 0) + 1
    return counts


def award(points: int, winners: Iterable[int], players: int) -> tuple[int, ...]:
    """A per-seat tuple giving ``points`` to each winner."""
    won = set(winners)
    return tuple(points if i in won else 0 for i in range(players))


def who_scores(winners: tuple[int, ...], counts: Mapping[int, int], role: str) -> str:
    """``'→ red (2 hunters) vs blue (1)'``, or ``'→ no one'`` when unoccupied."""
    if not winners:
        return "→ no one scores"
    def piece(n: int) -> str:
        return plural(n, role)
    lead = " and ".join(f"{player_name(p)} ({piece(counts[p])})" for p in winners)
    others = [p for p in sorted(counts) if p not in winners and counts[p] > 0]
    tail = "".join(f" vs {player_name(p)} ({counts[p]})" for p in others)
    return f"→ {lead}{tail}"


def river_points(edition: Edition, tiles: int, river_fish: int, lake_fish: int,
                 lakes: int, *, explain: bool = True) -> tuple[int, str]:
    """A completed river: per tile, plus the fish in it and in the lakes at its ends
    (``explain=False``: the points only, with an empty text, for the bots' estimates)."""
    per = edition.river_tile_points
    points = tiles * per + river_fish + lake_fish
    if not explain:
        return points, ""
    parts = [f"{plural(tiles, 'tile')} ×{per}"]
    if river_fish:
        parts.append(f"{river_fish} fish in the river")
    if lakes:
        parts.append(f"{lake_fish} fish in {plural(lakes, 'lake')}")
    return points, f"{' + '.join(parts)} = {points}"


def forest_points(edition: Edition, tiles: int, mushrooms: int, *,
                  explain: bool = True) -> tuple[int, str]:
    """A completed forest: per tile, plus per mushroom group."""
    per, mush = edition.forest_tile_points, edition.mushroom_points
    points = tiles * per + mushrooms * mush
    if not explain:
        return points, ""
    parts = [f"{plural(tiles, 'tile')} ×{per}"]
    if mushrooms:
        parts.append(f"{plural(mushrooms, 'mushroom group')} ×{mush}")
    return points, f"{' + '.join(parts)} = {points}"


def animal_points(edition: Edition, outside: Mapping[str, int],
                  inside: Mapping[str, int] | None = None, *, ignore_tigers: bool = False,
                  factor: int = 1, explain: bool = True) -> tuple[int, str]:
    """Animals of a meadow (or of a hunting trap's area).

    ``inside`` holds the animals of a pit trap's area, worth ``factor`` times;
    tigers (counted in both) cancel deer outside that area first.  With
    ``ignore_tigers`` (wild fire) no deer is cancelled.
    """
    inside = inside or {}
    tigers = 0 if ignore_tigers else outside.get("tiger", 0) + inside.get("tiger", 0)
    deer_out, deer_in = outside.get("deer", 0), inside.get("deer", 0)
    eaten_out = min(tigers, deer_out)
    eaten_in = min(tigers - eaten_out, deer_in)
    values = edition.animal_points
    points = 0
    parts: list[str] = []
    for area, counts, eaten, mult in (("", outside, eaten_out, 1),
                                      (" in the pit trap's area", inside, eaten_in, factor)):
        for animal in SCORING_ANIMALS:
            n = counts.get(animal, 0)
            if not n:
                continue
            cancel = eaten if animal == "deer" else 0
            value = values[animal] * mult
            points += (n - cancel) * value
            if not explain:
                continue
            name = _PLURAL[animal] if n != 1 else animal
            text = f"{n} {name}"
            if cancel:
                text += f" − {cancel} eaten by {'a tiger' if cancel == 1 else 'tigers'}"
            parts.append(f"{text}{area} ×{value}")
    if not explain:
        return points, ""
    fire_tigers = outside.get("tiger", 0) + inside.get("tiger", 0)
    if ignore_tigers and fire_tigers:
        parts.append(f"{plural(fire_tigers, 'tiger')} chased away by fire")
    if not parts:
        tigers_only = outside.get("tiger", 0) + inside.get("tiger", 0)
        if tigers_only and not ignore_tigers:   # tigers are worth nothing, but they are there
            return 0, f"{plural(tigers_only, 'tiger', 'tigers')} and no deer = 0"
        return 0, "no animals = 0"
    return points, f"{' + '.join(parts)} = {points}"


def hut_points(fish: int, lakes: int, raft: bool, *, explain: bool = True) -> tuple[int, str]:
    """A river system at final scoring: its fish, plus its lakes with the raft."""
    points = fish + (lakes if raft else 0)
    if not explain:
        return points, ""
    text = f"{fish} fish"
    if raft:
        text += f" + {plural(lakes, 'lake')} (raft)"
    return points, f"{text} = {points}"


# --------------------------------------------------------------------------- meadows

#: (edition, tile) -> ``(node, animals, special)`` of the tile's meadow zones
_MEADOW_ZONES: dict[tuple[str, int], tuple[tuple[int, tuple[str, ...], str | None], ...]] = {}


def meadow_zones(edition: Edition, tile_id: int) -> tuple[tuple[int, tuple[str, ...], str | None], ...]:
    """``(node, animals, special)`` of each meadow zone of a tile (memoised)."""
    key = (edition.name, tile_id)
    found = _MEADOW_ZONES.get(key)
    if found is None:
        tile = edition.tiles[tile_id]
        found = _MEADOW_ZONES[key] = tuple((tile_id * 10 + z.id, z.animals, z.special)
                                           for z in tile.zones.values() if z.kind == MEADOW)
    return found


def _meadow_nodes(board: Board, edition: Edition,
                  root: int) -> list[tuple[int, tuple[str, ...], str | None]]:
    find = board.find
    return [z for tile_id in board.features[root].tiles for z in meadow_zones(edition, tile_id)
            if find(z[0]) == root]


def meadow_points(board: Board, edition: Edition, root: int, removed: Collection[int] = (), *,
                  explain: bool = True) -> tuple[int, str]:
    """The animals of the meadow ``root`` as final scoring counts them: pit trap, wild fire and
    the animals a hunting trap took (``removed`` zones) included.  The one place that says so:
    the engine's final scoring and the bots' estimates both call it."""
    f = board.features[root]
    find = board.find
    pit = "pit_trap" in f.specials and edition.honours("pit_trap")
    # only the zones that matter (animals, or the pit trap itself), and find() only for those
    zones = [z for tile_id in f.tiles for z in meadow_zones(edition, tile_id)
             if (z[1] or (pit and z[2] == "pit_trap")) and find(z[0]) == root]
    pit_area: set[int] = set()
    if pit:
        for node, _, special in zones:
            if special == "pit_trap":
                pit_area.update(board.area(*board.where[node // 10]))
    inside: dict[str, int] = {}
    outside: dict[str, int] = {}
    for node, animals, _ in zones:
        if not animals or node in removed:
            continue
        bucket = inside if pit_area and (node // 10) in pit_area else outside
        for animal in animals:
            bucket[animal] = bucket.get(animal, 0) + 1
    fire = "wild_fire" in f.specials and edition.honours("wild_fire")
    return animal_points(edition, outside, inside, ignore_tigers=fire, factor=edition.pit_trap_factor,
                         explain=explain)


def meadow_winners(board: Board, edition: Edition,
                   root: int) -> tuple[tuple[int, ...], dict[int, int], int | None]:
    """Who scores the meadow ``root``: ``(winners, hunters per seat, shrine holder or None)``.

    The hunters' majority, unless a hunter stands on a shrine zone of the meadow: its owner
    alone scores it (2002).
    """
    f = board.features[root]
    counts = count_pieces(p for p, _ in f.meeples)
    if "shrine" in f.specials and edition.honours("shrine"):
        for node, _, special in sorted(_meadow_nodes(board, edition, root)):
            occupant = board.occupants.get(node) if special == "shrine" else None
            if occupant is not None:
                return (occupant[0],), counts, occupant[0]
    return majority(counts), counts, None
