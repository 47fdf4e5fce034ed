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
>>> page["sections"][1]["caption"]
'Yellow’s fisher scores 5 points for the river of 3 tiles (3 tiles + 2 fish); the meeple goes back.'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from huntgather.editions import Edition, get_edition
from huntgather.events import BonusTurn, Event, FeatureScored
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


def _play(edition: str, ex: Example) -> tuple[str, list[Event]]:
    text = f"huntgather record 1\nedition {edition}\nplayers 2\n{ex.position}\nmoves\n"
    state = load_position(text)
    events: list[Event] = []
    picture = ""
    for word in ex.moves.split():
        move = parse_move(word)
        events.extend(state.apply(move))
        if isinstance(move, Place):
            picture = board_svg(state, (move.tile,), cell=120)
    return picture, events


#: rulebook example 5 (2020): yellow's fisher on the river west of the start tile; red closes
#: it with a lake tile.  3 tiles and 2 fish: 5 points.
RIVER_2020 = Example("tile 56 0,0 r0\ntile 48 -1,0 r0\noccupant 48.1 meeple 0\nplayer 1", "d24 24@-2,0r1 -")
#: red's gatherer in a forest of two tiles, one with a menhir; yellow closes it with a third
FOREST_2020 = Example("tile 35 0,0 r0\ntile 40 1,0 r0\noccupant 40.1 meeple 1", "d34 34@2,0r0 -")
#: the same in 2002: tile 4 (forest to the east), tile 9 (forest west and east, a gold nugget) with
#: red's gatherer; yellow closes it with tile 5 turned once (its southern forest side faces west)
FOREST_2002 = Example("tile 4 0,0 r0\ntile 9 1,0 r0\noccupant 9.1 meeple 1", "d5 5@2,0r1 -")


def _river_caption(events: list[Event], e: Edition) -> str:
    scored = next(x for x in events if isinstance(x, FeatureScored) and x.kind == "river")
    winner = max(range(len(scored.points)), key=lambda i: scored.points[i])
    tiles = len(scored.tiles)
    fish = scored.points[winner] - tiles * e.river_tile_points
    return (f"{PLAYER_NAMES[winner].capitalize()}’s fisher scores {scored.points[winner]} points for "
            f"the river of {tiles} tiles ({tiles} tiles + {fish} fish); the meeple goes back.")


def _forest_caption(events: list[Event], e: Edition) -> str:
    scored = next(x for x in events if isinstance(x, FeatureScored) and x.kind == "forest")
    winner = max(range(len(scored.points)), key=lambda i: scored.points[i])
    bonus = next(x for x in events if isinstance(x, BonusTurn))
    tiles = len(scored.tiles)
    closer = PLAYER_NAMES[bonus.player]
    return (f"{closer.capitalize()} closes the forest: {PLAYER_NAMES[winner]}’s gatherer scores "
            f"{scored.points[winner]} points ({tiles} tiles × {e.forest_tile_points}), and "
            f"{closer}, who closed a forest with a {e.bonus_counter_label}, "
            f"plays a {e.bonus_name} at once.")


def _animals(e: Edition) -> str:
    return ", ".join(f"{animal} {points}" for animal, points in e.animal_points.items())


def _sections(name: str) -> list[dict[str, Any]]:
    e = get_edition(name)
    counter = e.bonus_counter_label
    sections: list[dict[str, Any]] = [
        {"title": "A turn", "paragraphs": [
            "Draw a tile and put it next to the tiles on the table so that every side it shares "
            "matches: forest to forest, meadow to meadow, river to river. A tile that fits nowhere "
            "is put out of the game and you draw another.",
            f"Then you may put one piece on the tile you just placed: a meeple as a gatherer "
            f"(forest), a fisher (river) or a hunter (meadow), or a hut on a river or a lake. "
            f"A meeple may not join a forest, river or meadow that already holds a meeple, and a "
            f"hut may not join a river system (rivers joined through lakes) that holds a hut; "
            f"meeples and huts do not block each other. Each player has {e.meeples} meeples and "
            f"{e.huts} huts.",
        ]},
        {"title": "Rivers and fishers", "paragraphs": [
            "A river is complete when both its ends are closed, by a lake or a spring. It scores "
            f"{e.river_tile_points} point per tile, plus every fish in it and in the lakes at its "
            "ends, for the player with the most fishers on it (tied players all score in full). "
            "The fishers then go back to their owners.",
        ]},
        {"title": "Forests and gatherers", "paragraphs": [
            f"A forest is complete when it has no open side. It scores {e.forest_tile_points} "
            f"points per tile and {e.mushroom_points} per group of mushrooms, for the player with "
            f"the most gatherers on it; the gatherers go back. Whoever completes a forest with a "
            f"{counter} in it — gatherer there or not — plays a {e.bonus_name} straight away "
            f"(one at most per turn, never from a {e.bonus_name}).",
        ]},
        {"title": "Huts and hunters: scored at the end", "paragraphs": [
            "Huts and hunters stay until the end of the game. Then, in each river system, the "
            "player(s) with the most huts score 1 point per fish in all its rivers and lakes, "
            "complete or not.",
            f"In each meadow, the player(s) with the most hunters score its animals: {_animals(e)}; "
            f"each sabre-toothed tiger cancels one deer. Fishers and gatherers still on the board "
            f"score nothing, and neither do unfinished rivers and forests.",
        ]},
    ]
    specials = sorted(e.specials, key=lambda s: s.name)
    if specials:
        sections.append({"title": "Special tiles", "paragraphs": [s.rule() + "." for s in specials]})
    sections.append({"title": "The end", "paragraphs": [
        f"The game ends after the turn in which the last tile of the normal stack was placed "
        f"(a {e.bonus_name} earned in that turn is still played). After the final scoring, the "
        f"most points wins; tied players share the win.",
    ]})
    if name == "2020":
        svg, events = _play(name, RIVER_2020)
        sections[1] |= {"diagram": svg, "caption": _river_caption(events, e)}
        svg, events = _play(name, FOREST_2020)
        sections[2] |= {"diagram": svg, "caption": _forest_caption(events, e)}
    elif name == "2002":
        svg, events = _play(name, FOREST_2002)
        sections[2] |= {"diagram": svg, "caption": _forest_caption(events, e)}
    return sections


@cache
def rules_payload(edition: str) -> bytes:
    """The rules page of ``edition`` as JSON: ``{"edition", "title", "sections": [{"title",
    "paragraphs", "diagram"?, "caption"?}]}`` (cached: it never changes in a process)."""
    e = get_edition(edition)
    return json.dumps({"edition": e.name, "title": e.title, "sections": _sections(edition)}).encode()
