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
>>> majority({0: 1, 2: 1, 1: 0})
(0, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from huntgather.editions import Edition
from huntgather.events import player_name

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
                 lakes: int) -> tuple[int, str]:
    """A completed river: per tile, plus the fish in it and in the lakes at its ends."""
    per = edition.river_tile_points
    points = tiles * per + river_fish + lake_fish
    parts = [f"{plural(tiles, 'tile')} ×{per}"]
    if river_fish:
        parts.append(f"{river_fish} fish in the river")
    if lakes:
        parts.append(f"{lake_fish} fish in {plural(lakes, 'lake')}")
    return points, f"{' + '.join(parts)} = {points}"


def forest_points(edition: Edition, tiles: int, mushrooms: int) -> tuple[int, str]:
    """A completed forest: per tile, plus per mushroom group."""
    per, mush = edition.forest_tile_points, edition.mushroom_points
    points = tiles * per + mushrooms * mush
    parts = [f"{plural(tiles, 'tile')} ×{per}"]
    if mushrooms:
        parts.append(f"{plural(mushrooms, 'mushroom group')} ×{mush}")
    return points, f"{' + '.join(parts)} = {points}"


def animal_points(edition: Edition, outside: Mapping[str, int],
                  inside: Mapping[str, int] | None = None, *, ignore_tigers: bool = False,
                  factor: int = 1) -> tuple[int, str]:
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
            name = _PLURAL[animal] if n != 1 else animal
            text = f"{n} {name}"
            if cancel:
                text += f" − {cancel} eaten by {'a tiger' if cancel == 1 else 'tigers'}"
            parts.append(f"{text}{area} ×{value}")
    fire_tigers = outside.get("tiger", 0) + inside.get("tiger", 0)
    if ignore_tigers and fire_tigers:
        parts.append(f"{plural(fire_tigers, 'tiger')} chased away by fire")
    if not parts:
        return 0, "no animals = 0"
    return points, f"{' + '.join(parts)} = {points}"


def hut_points(fish: int, lakes: int, raft: bool) -> tuple[int, str]:
    """A river system at final scoring: its fish, plus its lakes with the raft."""
    points = fish + (lakes if raft else 0)
    text = f"{fish} fish"
    if raft:
        text += f" + {plural(lakes, 'lake')} (raft)"
    return points, f"{text} = {points}"
