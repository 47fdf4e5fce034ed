"""Convert the shared reference tile tables into huntgather's own tile format.

The reference files (``../shared/reference/tiles-*.json``) describe every tile
as nested JSON objects.  huntgather ships the same facts in a compact format of
its own (see ``docs/tiles.md``): one JSON object per tile whose sides and zones
are short strings, so that a tile reads on one screen line.

Usage::

    python tools/convert_tiles.py ../shared/reference src/huntgather/data

The conversion is deterministic; ``tests/test_tiles.py`` checks that the
shipped files equal a fresh conversion whenever the reference is present.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

FORMAT = "huntgather-tiles"
VERSION = 1


def zone_text(zone: dict[str, Any]) -> str:
    """One zone as ``"<id> <kind> key=value ..."`` with only non-default facts."""
    parts = [str(zone["id"]), zone["kind"]]
    kind = zone["kind"]
    if kind == "forest":
        for key in ("menhirs", "gold_nuggets", "mushrooms"):
            if zone.get(key):
                parts.append(f"{key}={zone[key]}")
    elif kind == "meadow":
        if zone.get("animals"):
            parts.append("animals=" + ",".join(zone["animals"]))
        if zone.get("special"):
            parts.append(f"special={zone['special']}")
    elif kind == "river":
        if zone.get("fish"):
            parts.append(f"fish={zone['fish']}")
        if zone.get("lake") is not None:
            parts.append(f"lake={zone['lake']}")
    elif kind == "lake":
        if zone.get("fish"):
            parts.append(f"fish={zone['fish']}")
        if zone.get("special"):
            parts.append(f"special={zone['special']}")
    return " ".join(parts)


def side_text(side: dict[str, Any]) -> str:
    return " ".join([side["kind"], *(str(z) for z in side["zones"])])


def convert(reference: dict[str, Any]) -> dict[str, Any]:
    tiles = []
    for tile in reference["tiles"]:
        out: dict[str, Any] = {
            "id": tile["id"],
            "kind": tile["kind"],
            "sides": [side_text(s) for s in tile["sides"]],
            "zones": [zone_text(z) for z in tile["zones"]],
        }
        if "confidence" in tile:
            out["confidence"] = tile["confidence"]
        if tile.get("uncertainty"):
            out["uncertainty"] = tile["uncertainty"]
        if tile.get("decoration"):
            out["decoration"] = list(tile["decoration"])
        tiles.append(out)
    return {
        "format": FORMAT,
        "version": VERSION,
        "edition": reference["edition"],
        "source": reference.get("source", ""),
        "notes": list(reference.get("notes", [])),
        "tiles": tiles,
    }


def dump(data: dict[str, Any]) -> str:
    """Serialise with one tile per line, so that diffs stay readable."""
    head = {k: v for k, v in data.items() if k != "tiles"}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
    lines.append('  "tiles": [')
    rows = [f"    {json.dumps(t, ensure_ascii=False)}" for t in data["tiles"]]
    lines.append(",\n".join(rows))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__)
        return 2
    src, dst = Path(argv[1]), Path(argv[2])
    for edition in ("2020", "2002"):
        reference = json.loads((src / f"tiles-{edition}.json").read_text(encoding="utf-8"))
        (dst / f"tiles-{edition}.json").write_text(dump(convert(reference)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
