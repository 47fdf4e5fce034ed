"""The rules as the page shows them: short sections per edition, with live diagrams.

Every number in the text is read from the :class:`~huntgather.editions.Edition`
(points per tile, per animal, the supplies), never written twice; every diagram
is a real position played by the engine and drawn by :func:`huntgather.svg.board_svg`,
and its caption states what the engine scored, so that the page cannot drift
from the rules the server applies.  ``docs/rules.md`` has the full detail.

>>> import json
>>> page = json.loads(rules_payload("2020"))
>>> [s["title"] for s in page["sections"]][:3]
['A turn', 'Rivers and fishers', 'Forests and gatherers']
>>> page["sections"][1]["diagrams"][0]["caption"]
'Yellow’s fisher scores 5 points for the river of 3 tiles (3 tiles + 2 fish); the meeple goes back.'
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from huntgather.editions import Edition, get_edition
from huntgather.events import BonusTurn, Event, FeatureScored, FinalScoring
from huntgather.moves import Place, parse_move
from huntgather.record import load_position
from huntgather.svg import PLAYER_NAMES, board_svg


@dataclass(frozen=True)
class Example:
    """A position (record lines) and the moves of one turn played on it: the picture shows
    the board once the tile is placed (pieces still on it, the new tile outlined), the caption
    what the whole turn scored."""

    position: str
    moves: str
    #: the picture shows the board at the end of the game instead (the pieces scored at the end
    #: stay on the board)
    at_end: bool = False
    cell: int = 120


def _play(edition: str, ex: Example) -> tuple[str, list[Event]]:
    text = f"huntgather record 1\nedition {edition}\nplayers 2\n{ex.position}\nmoves\n"
    state = load_position(text)
    events: list[Event] = []
    picture = ""
    last: tuple[int, ...] = ()
    for word in ex.moves.split():
        move = parse_move(word)
        events.extend(state.apply(move))
        if isinstance(move, Place):
            last = (move.tile,)
            picture = board_svg(state, last, cell=ex.cell)
    if ex.at_end:
        assert state.is_over, "an end-of-game example must end the game"
        picture = board_svg(state, last, cell=ex.cell)
    return picture, events


#: rulebook example 5 (2020): yellow's fisher on the river west of the start tile; red closes
#: it with a lake tile.  3 tiles and 2 fish: 5 points.
RIVER_2020 = Example("tile 56 0,0 r0\ntile 48 -1,0 r0\noccupant 48.1 meeple 0\nplayer 1", "d24 24@-2,0r1 -")
#: red's gatherer in a forest of two tiles, one with a menhir; yellow closes it with a third
FOREST_2020 = Example("tile 35 0,0 r0\ntile 40 1,0 r0\noccupant 40.1 meeple 1", "d34 34@2,0r0 -")
#: rulebook examples 15 and 16 (2020): a river between two lakes, red's fisher at the western
#: lake, yellow's on the river; yellow closes the gap with tile 47: 4 tiles and 5 fish, a tie
RIVER_LAKES_2020 = Example("tile 0 0,0 r1\ntile 48 2,0 r0\ntile 57 3,0 r3\noccupant 0.1 meeple 1\n"
                           "occupant 48.1 meeple 0", "d47 47@1,0r0 -")
#: the last tile of the game: yellow's hut on the lake of the start tile, red's hunter on the
#: meadow north of the river; the stack holds one more tile, a meadow with a deer
END_2020 = Example("tile 56 0,0 r0\ntile 48 -1,0 r0\ntile 24 -2,0 r1\noccupant 56.8 hut 0\n"
                   "occupant 48.0 meeple 1\nnormal 62", "d62 62@0,-1r0", at_end=True)
#: rulebook example 24 (2020): the pit trap comes as the menhir tile of the last turn (yellow
#: closes a forest with a menhir, north of the meadow, with the last tile of the stack) and gets
#: yellow's hunter; in its area 2 mammoths and 2 aurochs score double, and outside it a tiger
#: eats the deer
PIT_TRAP_2020 = Example("tile 61 -1,0 r0\ntile 90 0,1 r0\ntile 76 -1,1 r0\ntile 62 -2,0 r0\n"
                        "tile 32 -3,0 r0\ntile 78 1,0 r2\ntile 35 -1,-2 r0\ntile 40 0,-2 r0\nnormal 34",
                        "d34 34@1,-2r0 - d92 92@0,0r0 m92.1", at_end=True, cell=90)
#: the same in 2002: tile 4 (forest to the east), tile 9 (forest west and east, a gold nugget) with
#: red's gatherer; yellow closes it with tile 5 turned once (its southern forest side faces west)
FOREST_2002 = Example("tile 4 0,0 r0\ntile 9 1,0 r0\noccupant 9.1 meeple 1", "d5 5@2,0r1 -")


#: a caption: its English words, and the catalogue key and parameters the page words it by in
#: any language (web/i18n; a parameter named ``who``, ``closer`` or ``names`` is a seat or seats,
#: ``counter`` the bonus counter's kind, ``bonus`` the bonus stack's tile; ``rows`` the final
#: scoring's rows the caption lists)
Caption = dict[str, Any]


def _river_caption(events: list[Event], e: Edition) -> Caption:
    scored = next(x for x in events if isinstance(x, FeatureScored) and x.kind == "river")
    winner = max(range(len(scored.points)), key=lambda i: scored.points[i])
    tiles = len(scored.tiles)
    fish = scored.points[winner] - tiles * e.river_tile_points
    return {"caption": f"{PLAYER_NAMES[winner].capitalize()}’s fisher scores {scored.points[winner]} points "
                       f"for the river of {tiles} tiles ({tiles} tiles + {fish} fish); the meeple goes back.",
            "key": "rules.caption_river",
            "params": {"who": winner, "points": scored.points[winner], "tiles": tiles, "fish": fish}}


def _lakes_caption(events: list[Event], e: Edition) -> Caption:
    scored = next(x for x in events if isinstance(x, FeatureScored) and x.kind == "river")
    tiles = len(scored.tiles)
    fish = max(scored.points) - tiles * e.river_tile_points
    seats = [i for i, p in enumerate(scored.points) if p]
    names = " and ".join(PLAYER_NAMES[i] for i in seats)
    return {"caption": f"Closed by a lake at each end, the river is complete: {tiles} tiles + {fish} fish in "
                       f"it and its lakes = {max(scored.points)} points; {names} have one fisher "
                       f"each, a tie: both score the {max(scored.points)} points in full.",
            "key": "rules.caption_lakes",
            "params": {"tiles": tiles, "fish": fish, "points": max(scored.points), "names": seats}}


def _final_caption(events: list[Event], kinds: tuple[str, ...], lead: str, key: str) -> Caption:
    final = next(x for x in events if isinstance(x, FinalScoring))
    rows = [r for r in final.rows if r.kind in kinds]
    return {"caption": lead + " " + "; ".join(r.explanation for r in rows) + ".", "key": key, "params": {},
            "rows": [{"kind": r.kind, "points": list(r.points), "tiles": list(r.tiles)} for r in rows]}


def _forest_caption(events: list[Event], e: Edition) -> Caption:
    scored = next(x for x in events if isinstance(x, FeatureScored) and x.kind == "forest")
    winner = max(range(len(scored.points)), key=lambda i: scored.points[i])
    bonus = next(x for x in events if isinstance(x, BonusTurn))
    tiles = len(scored.tiles)
    closer = PLAYER_NAMES[bonus.player]
    return {"caption": f"{closer.capitalize()} closes the forest: {PLAYER_NAMES[winner]}’s gatherer scores "
                       f"{scored.points[winner]} points ({tiles} tiles × {e.forest_tile_points}), and "
                       f"{closer}, who closed a forest with a {e.bonus_counter_label}, "
                       f"plays a {e.bonus_name} at once.",
            "key": "rules.caption_forest",
            "params": {"closer": bonus.player, "who": winner, "points": scored.points[winner], "tiles": tiles,
                       "per": e.forest_tile_points, "counter": e.bonus_counter.value, "bonus": e.name}}


def _animals(e: Edition) -> str:
    return ", ".join(f"{animal} {points}" for animal, points in e.animal_points.items())


def _text(key: str, **params: Any) -> dict[str, Any]:
    """A paragraph as the page words it in any language: a catalogue key and its parameters."""
    return {"key": key, "params": params}


def _special_text(special: Any) -> dict[str, Any]:
    """A special tile's rule: ``rules.special_<name>``, its numbers (the dataclass's fields) as
    parameters."""
    numbers = {f.name: getattr(special, f.name) for f in fields(special)}
    return _text(f"rules.special_{special.name}", **numbers)


def _sections(name: str) -> list[dict[str, Any]]:
    """The sections: each an ``id``, a ``title`` and ``paragraphs`` in English, and ``texts``,
    the same paragraphs as catalogue keys and parameters (the page's words in any language:
    ``rules.<id>`` is a section's title, ``rules.<id>_<n>`` its n-th paragraph)."""
    e = get_edition(name)
    counter = e.bonus_counter_label
    animals = {"mammoth": 0, "aurochs": 0, "deer": 0} | dict(e.animal_points)
    sections: list[dict[str, Any]] = [
        {"id": "turn", "title": "A turn", "paragraphs": [
            "Draw a tile and put it next to the tiles on the table so that every side it shares "
            "matches: forest to forest, meadow to meadow, river to river. A tile that fits nowhere "
            "is put out of the game and you draw another.",
            f"Then you may put one piece on the tile you just placed: a meeple as a gatherer "
            f"(forest), a fisher (river) or a hunter (meadow), or a hut on a river or a lake. "
            f"A meeple may not join a forest, river or meadow that already holds a meeple, and a "
            f"hut may not join a river system (rivers joined through lakes) that holds a hut; "
            f"meeples and huts do not block each other. Each player has {e.meeples} meeples and "
            f"{e.huts} huts.",
        ], "texts": [_text("rules.turn_1"), _text("rules.turn_2", meeples=e.meeples, huts=e.huts)]},
        {"id": "rivers", "title": "Rivers and fishers", "paragraphs": [
            "A river is complete when both its ends are closed, by a lake or a spring. It scores "
            f"{e.river_tile_points} point per tile, plus every fish in it and in the lakes at its "
            "ends, for the player with the most fishers on it (tied players all score in full). "
            "The fishers then go back to their owners.",
        ], "texts": [_text("rules.rivers_1", per=e.river_tile_points)]},
        {"id": "forests", "title": "Forests and gatherers", "paragraphs": [
            f"A forest is complete when it has no open side. It scores {e.forest_tile_points} "
            f"points per tile and {e.mushroom_points} per group of mushrooms, for the player with "
            f"the most gatherers on it; the gatherers go back. Whoever completes a forest with a "
            f"{counter} in it — gatherer there or not — plays a {e.bonus_name} straight away "
            f"(one at most per turn, never from a {e.bonus_name}).",
        ], "texts": [_text("rules.forests_1", per=e.forest_tile_points, mushrooms=e.mushroom_points,
                           counter=e.bonus_counter.value, bonus=e.name)]},
        {"id": "end_scoring", "title": "Huts and hunters: scored at the end", "paragraphs": [
            "Huts and hunters stay until the end of the game. Then, in each river system, the "
            "player(s) with the most huts score 1 point per fish in all its rivers and lakes, "
            "complete or not.",
            f"In each meadow, the player(s) with the most hunters score its animals: {_animals(e)}; "
            f"each sabre-toothed tiger cancels one deer. Fishers and gatherers still on the board "
            f"score nothing, and neither do unfinished rivers and forests.",
        ], "texts": [_text("rules.end_scoring_1"), _text("rules.end_scoring_2", **animals)]},
    ]
    specials = sorted(e.specials, key=lambda s: s.name)
    if specials:
        sections.append({"id": "specials", "title": "Special tiles",
                         "paragraphs": [s.rule() + "." for s in specials],
                         "texts": [_special_text(s) for s in specials]})
    sections.append({"id": "end", "title": "The end", "paragraphs": [
        f"The game ends after the turn in which the last tile of the normal stack was placed "
        f"(a {e.bonus_name} earned in that turn is still played). After the final scoring, the "
        f"most points wins; tied players share the win.",
    ], "texts": [_text("rules.end_1", bonus=e.name)]})

    def diagram(section: str, example: Example, caption: Callable[[list[Event]], Caption]) -> None:
        svg, events = _play(name, example)
        part = next(s for s in sections if s["id"] == section)
        part.setdefault("diagrams", []).append({"svg": svg, **caption(events)})

    if name == "2020":
        diagram("rivers", RIVER_2020, lambda ev: _river_caption(ev, e))
        diagram("rivers", RIVER_LAKES_2020, lambda ev: _lakes_caption(ev, e))
        diagram("forests", FOREST_2020, lambda ev: _forest_caption(ev, e))
        diagram("end_scoring", END_2020, lambda ev: _final_caption(
            ev, ("huts", "hunters"), "The last tile is placed and the game ends; the hut and the hunter "
                                     "score:", "rules.caption_end"))
        diagram("specials", PIT_TRAP_2020, lambda ev: _final_caption(
            ev, ("hunters",), "The pit trap comes as the menhir tile of the last turn, with yellow’s "
                              "hunter; at the end:", "rules.caption_pit_trap"))
    elif name == "2002":
        diagram("forests", FOREST_2002, lambda ev: _forest_caption(ev, e))
    return sections


@cache
def rules_payload(edition: str) -> bytes:
    """The rules page of ``edition`` as JSON: ``{"edition", "title", "sections": [{"title",
    "paragraphs", "diagrams"?: [{"svg", "caption"}]}]}`` (cached: it never changes in a process)."""
    e = get_edition(edition)
    return json.dumps({"edition": e.name, "title": e.title, "sections": _sections(edition)}).encode()
