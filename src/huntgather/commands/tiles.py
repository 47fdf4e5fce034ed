"""``huntgather tiles``: list an edition's tile set, one tile a line."""

from __future__ import annotations

import argparse
import json
from typing import Any

from huntgather.cli import CommandError
from huntgather.editions import DEFAULT_EDITION, edition_names, get_edition
from huntgather.tiles import DIRECTIONS, Tile, Zone

#: what marks a tile whose transcription is not certain
FLAG = "[medium confidence]"


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "tiles", help="list the tiles of an edition",
        description="List the tile set of an edition, one tile a line: id, kind, the four sides "
                    "(N E S W, unrotated: F forest, M meadow, R river) and the zones. Tiles whose "
                    f"transcription is uncertain (2002 edition) are flagged {FLAG}.")
    parser.add_argument("ids", metavar="ID", type=int, nargs="*", help="only these tiles")
    parser.add_argument("--edition", "-e", default=DEFAULT_EDITION, choices=edition_names(),
                        help=f"rules edition (default {DEFAULT_EDITION})")
    parser.add_argument("--kind", choices=("start", "normal", "bonus"), help="only tiles of this kind")
    parser.add_argument("--uncertain", action="store_true",
                        help="only the tiles of medium confidence, each with its uncertainty note")
    parser.add_argument("--json", action="store_true", help="print the tiles as one JSON document")
    parser.set_defaults(run=run)


def zone_json(zone: Zone) -> dict[str, Any]:
    """A zone as JSON, leaving out zero and empty facts.

    >>> from huntgather.tiles import load_tileset
    >>> zone_json(load_tileset("2020")[56].zones[0])
    {'id': 0, 'kind': 'meadow', 'animals': ['aurochs']}
    """
    out: dict[str, Any] = {"id": zone.id, "kind": zone.kind}
    for key in ("fish", "lake", "menhirs", "gold_nuggets", "mushrooms", "special"):
        value = getattr(zone, key)
        if value:
            out[key] = value
    if zone.animals:
        out["animals"] = list(zone.animals)
    return out


def tile_json(tile: Tile) -> dict[str, Any]:
    """A tile as JSON: sides N, E, S, W unrotated, each with the zones it touches."""
    out: dict[str, Any] = {
        "id": tile.id,
        "kind": tile.kind,
        "sides": {DIRECTIONS[d]: {"kind": s.kind, "zones": list(s.zones)} for d, s in enumerate(tile.sides)},
        "zones": [zone_json(z) for z in tile.zones.values()],
    }
    if tile.confidence:
        out["confidence"] = tile.confidence
    if tile.uncertainty:
        out["uncertainty"] = tile.uncertainty
    if tile.decoration:
        out["decoration"] = list(tile.decoration)
    return out


def run(args: argparse.Namespace) -> int:
    edition = get_edition(args.edition)
    tileset = edition.tiles
    chosen = list(tileset)
    if args.ids:
        missing = [i for i in args.ids if i not in tileset]
        if missing:
            low, high = min(t.id for t in chosen), max(t.id for t in chosen)
            raise CommandError(f"edition {edition.name} has no tile {', '.join(map(str, missing))} "
                               f"(its ids run from {low} to {high})")
        wanted = set(args.ids)
        chosen = [t for t in chosen if t.id in wanted]
    if args.kind:
        chosen = [t for t in chosen if t.kind == args.kind]
    if args.uncertain:
        chosen = [t for t in chosen if t.confidence == "medium"]
    if args.json:
        print(json.dumps({"edition": edition.name, "tiles": [tile_json(t) for t in chosen]}, indent=1))
        return 0
    counts = {k: sum(1 for t in tileset if t.kind == k) for k in ("start", "normal", "bonus")}
    flagged = sum(1 for t in tileset if t.confidence == "medium")
    print(f"# {edition.title}: {len(tileset)} tiles ({counts['start']} start, {counts['normal']} normal, "
          f"{counts['bonus']} {edition.bonus_name}s)"
          + (f"; {flagged} flagged {FLAG}" if flagged else ""))
    print("# id kind   sides (N E S W: F forest, M meadow, R river)  zones")
    for tile in chosen:
        line = tile.describe()
        if tile.confidence == "medium":
            line += f"  {FLAG}"
        print(line)
        if args.uncertain and tile.uncertainty:
            print(f"      {tile.uncertainty}")
    return 0
