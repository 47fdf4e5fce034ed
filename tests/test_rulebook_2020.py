"""The worked examples of the 2020 rulebooks, rebuilt with real tiles of the 2020 set.

Sources: seed 001 (Z-Man English rules), 003 (Wikicarpedia English, with the
Hans im Glück corrections in its footnotes) and 004 (Czech rules).  Every
expected number is worked out by hand from the rulebook's own statement and
RULINGS.md; the arithmetic is in the comment next to it.  The rulebooks show
only a part of a landscape: the positions below hold just the tiles an example
needs (placed with matching sides), and the rest of the landscape is left out.

Seats: the rulebooks speak of "you" and "Blue"; unless a test says otherwise,
seat 0 is "you" and seat 1 is "Blue" (the engine names seats by colour: 0 yellow,
1 red, 2 green, 3 blue, 4 violet).

Tile notation: ``tile 48 -1,0 r0`` puts tile 48 at x=-1, y=0 (x grows east, y
south) turned 0 quarter turns clockwise; after ``rR`` the side printed north
faces east (r1), south (r2) or west (r3).  Tile contents quoted in the comments
come from ``src/huntgather/data/tiles-2020.json``.
"""

from __future__ import annotations

import pytest

from huntgather.board import ZoneRef
from huntgather.events import FinalScoring, GameOver, OccupantPlaced, TilePlaced
from huntgather.moves import parse_move
from huntgather.record import RecordError, parse_record
from huntgather.state import IllegalMoveError

YOU, BLUE = 0, 1


# --------------------------------------------------------------------------- rivers
#
# Ex01-Ex08 (003 "Rivers and Lakes"): a river runs west from the lake of the start tile.
#   56 start at (0,0): river (west side) into a lake with 1 fish.
#   48 at (-1,0): straight river west-east, no fish.
#   24 at (-2,0) r1: a lake with 1 fish and two rivers into it; after r1 one river
#      faces east (towards 48) and the other faces north.

RIVER_START = """
tile 56 0,0 r0
tile 48 -1,0 r0
occupant 48.1 meeple 0
player 1
"""


def test_ex05_blue_completes_your_river_of_3_tiles_and_2_fish_you_score_5(rules):
    state = rules.position(RIVER_START)
    events = rules.run(state, "d24 24@-2,0r1 m24.5")
    (river,) = rules.scored(events, "river")
    # 003: "3 points for the 3 tiles forming the river, and 2 for the 2 fish in the lakes":
    # tiles 56, 48, 24 = 3 x 1 + lake of 56 (1 fish) + lake of 24 (1 fish) = 5, to you only,
    # although Blue placed the tile.
    assert river.points == (5, 0)
    assert river.tiles == (24, 48, 56)
    assert state.scores == [5, 0]
    # Ex08: "You return your fisher to your supply.  Blue's meeple stays on the other river."
    (back,) = rules.returned(events)
    assert back.returned == ((YOU, 48, 1),)
    assert state.meeples == [5, 4]
    assert state.board.occupants == {245: (BLUE, "meeple")}


def test_ex03_the_lake_divides_two_rivers_so_blue_fishes_on_the_second(rules):
    state = rules.position(RIVER_START)
    rules.run(state, "d24 24@-2,0r1")
    before = rules.snapshot(state)
    # "They cannot place a meeple on the river on the left side of the lake, because your
    # meeple is already on that river." (here the river east of the lake of 24)
    with pytest.raises(IllegalMoveError, match=r"that river already holds a meeple \(yellow\)"):
        state.apply(parse_move("m24.1"))
    assert rules.snapshot(state) == before
    # "The 2 rivers are divided by the lake, so Blue places a meeple on the other river."
    assert parse_move("m24.5") in state.legal_moves()


def test_ex02_a_fisher_goes_on_a_river_with_no_meeple(rules):
    state = rules.position("tile 56 0,0 r0\n")
    rules.run(state, "d48 48@-1,0r0")
    # "This is legal because there are no other meeples on that river."
    events = rules.run(state, "m48.1")
    assert [e for e in events if isinstance(e, OccupantPlaced)] == [
        OccupantPlaced(YOU, 48, 1, "meeple", "fisher")]
    assert rules.scored(events) == []  # the river is still open at its west end


# Ex04: "You place a tile that continues 2 separate river systems.  The left system has one of
# Blue's huts on it, so you place your hut on the right river system.  Blue's fisher does not
# prevent placing this hut."
#   48 at (-1,0): straight river, Blue's hut on it (the left system).
#   51 at (1,0): straight river, Blue's fisher on it (the right system).
#   17 at (0,0): four river sides, two separate rivers: river 1 joins N and E, river 3 joins
#   S and W, so it continues both systems without joining them.

def test_ex04_hut_on_the_system_without_a_hut_blues_fisher_does_not_block(rules):
    state = rules.position("""
        tile 48 -1,0 r0
        tile 51 1,0 r0
        occupant 48.1 hut 1
        occupant 51.1 meeple 1
    """)
    rules.run(state, "d17 17@0,0r0")
    before = rules.snapshot(state)
    with pytest.raises(IllegalMoveError, match=r"that river system already holds a hut \(red\)"):
        state.apply(parse_move("h17.3"))  # river 3 continues the left system
    assert rules.snapshot(state) == before
    legal = state.legal_moves()
    assert parse_move("h17.1") in legal  # the right system: only Blue's fisher
    assert parse_move("m17.3") in legal  # a hut does not block a fisher either
    assert parse_move("m17.1") not in legal  # Blue's fisher is on that river
    rules.run(state, "h17.1")
    assert state.huts == [2, 2]


# Ex15/Ex16 (003 "Multiple meeples on the same feature"): two rivers, each with one fisher,
# joined into one complete river of 4 tiles and 5 fish.
#   0 at (0,0) r1: lake with 2 fish, its river faces east.  Blue's fisher.
#   47 at (1,0): straight river with 1 fish (placed in Ex16).
#   48 at (2,0): straight river, no fish.  Your fisher ("you place your fisher on the empty river").
#   57 at (3,0) r3: lake with 2 fish, its river faces west.

def test_ex16_one_river_two_fishers_both_score_the_full_9(rules):
    state = rules.position("""
        tile 0 0,0 r1
        tile 48 2,0 r0
        tile 57 3,0 r3
        occupant 0.1 meeple 1
        occupant 48.1 meeple 0
    """)
    events = rules.run(state, "d47 47@1,0r0 -")
    (river,) = rules.scored(events, "river")
    # "The river scores for 9 points (4 tiles and 5 fish), and you and Blue both score the
    # full 9 points": tiles 0, 47, 48, 57 = 4; fish 2 (lake of 0) + 1 (river of 47)
    # + 2 (lake of 57) = 5; 4 + 5 = 9; one fisher each: a tie, both score in full.
    assert river.points == (9, 9)
    assert state.scores == [9, 9]
    (back,) = rules.returned(events)
    assert sorted(back.returned) == [(YOU, 48, 1), (BLUE, 0, 1)]
    assert state.meeples == [5, 5]


# --------------------------------------------------------------------------- forests
#
# Ex11 (003 "Normal Forest Scoring"): "You complete a forest containing a menhir.  You score
# 8 points because the forest comprises 4 tiles [footnote 2: ZMG says 8 tiles; HiG says 4].
# Because you completed a forest with a menhir, you begin an extra turn."
#   35 at (0,0): forest ending on its east side.   39 at (1,0), 40 at (2,0): straight
#   forests, each with a menhir; your gatherer on 39.   36 at (3,0) r1: forest ending on
#   its west side (placed now).
# Ex12: "You place the [menhir] tile and place a gatherer on the forest.  The forest is now
# complete, and you score 6 points for the 3 tiles ... The completed forest also contains a
# menhir, but you cannot begin an extra turn during an extra turn."
#   37 at (5,2): forest ending on its north side.  60 at (5,1) r1: straight forest with a
#   menhir, north-south.  90 (a menhir tile) at (5,0): forest ending on its south side.

FOREST_EXAMPLE = """
tile 35 0,0 r0
tile 39 1,0 r0
tile 40 2,0 r0
tile 37 5,2 r0
tile 60 5,1 r1
occupant 39.1 meeple 0
"""


def test_ex11_forest_of_4_tiles_scores_8_and_earns_a_menhir_turn(rules):
    state = rules.position(FOREST_EXAMPLE)
    events = rules.run(state, "d36 36@3,0r1 -")
    (forest,) = rules.scored(events, "forest")
    # 4 tiles (35, 39, 40, 36) x 2 = 8, no mushrooms; your gatherer alone.
    assert forest.points == (8, 0)
    assert forest.tiles == (35, 36, 39, 40)
    assert state.scores == [8, 0]
    # Two menhirs (39 and 40) still give only one extra turn.
    (turn,) = rules.bonus_turns(events)
    assert (turn.player, turn.granted) == (YOU, True)
    assert state.decision.phase == "draw" and state.decision.stack == "bonus"
    assert state.current_player == YOU


def test_ex12_menhir_turn_gatherer_on_the_menhir_tile_scores_6_no_second_turn(rules):
    state = rules.position(FOREST_EXAMPLE)
    rules.run(state, "d36 36@3,0r1 -")
    events = rules.run(state, "d90 90@5,0r0 m90.1")
    (placed,) = [e for e in events if isinstance(e, TilePlaced)]
    assert placed.bonus
    (forest,) = rules.scored(events, "forest")
    # 3 tiles (90, 60, 37) x 2 = 6 for the gatherer just placed on the menhir tile.
    assert forest.points == (6, 0)
    assert state.scores == [8 + 6, 0]
    (back,) = rules.returned(events)
    assert back.returned == ((YOU, 90, 1),)
    # The forest holds the menhir of 60, but a menhir turn never earns another.
    assert rules.bonus_turns(events) == []
    assert state.decision.phase == "draw" and state.decision.stack == "normal"
    assert state.current_player == BLUE


# Ex17/Ex18 (003 "Multiple meeples on the same feature"): three separate forests joined by
# one tile into a forest of 5 tiles; you have 2 gatherers on it, Blue 1.
#   63 at (0,0): one forest zone with a menhir on its N, E and W sides (placed in Ex18).
#   35 at (-1,0): forest ending east (Blue's gatherer).  36 at (0,-1): forest ending south
#   (your gatherer).  39 at (1,0) + 37 at (2,0) r3: straight forest with a menhir and a
#   forest ending west (Ex17: you place 39 and a gatherer on it).

def test_ex17_ex18_two_gatherers_beat_one_you_alone_score_10_and_take_a_menhir_turn(rules):
    state = rules.position("""
        tile 35 -1,0 r0
        tile 36 0,-1 r0
        tile 37 2,0 r3
        occupant 35.1 meeple 1
        occupant 36.1 meeple 0
    """)
    # Ex17: "The other gatherers on tiles nearby do not affect this placement, because they
    # are all on separate forests."
    rules.run(state, "d39 39@1,0r0")
    assert parse_move("m39.1") in state.legal_moves()
    rules.run(state, "m39.1")
    rules.run(state, "d62 62@-1,1r0 -")  # Blue's turn elsewhere
    events = rules.run(state, "d63 63@0,0r0 -")
    (forest,) = rules.scored(events, "forest")
    # Forest of 5 tiles (63, 35, 36, 39, 37) x 2 = 10; you have 2 gatherers, Blue 1:
    # "you score 10 points ... and Blue does not score any points."
    assert forest.points == (10, 0)
    assert state.scores == [10, 0]
    # "All 3 meeples are returned to their owners' supplies"
    (back,) = rules.returned(events)
    assert sorted(back.returned) == [(YOU, 36, 1), (YOU, 39, 1), (BLUE, 35, 1)]
    assert state.meeples == [5, 5]
    # "and you take an extra turn because you completed a forest with a menhir."
    (turn,) = rules.bonus_turns(events)
    assert turn.player == YOU and turn.granted


# --------------------------------------------------------------------------- grasslands
#
# Ex13: "This tile has 3 separate grasslands, divided by a river." Tile 17 (two rivers,
# meadows 0, 2 and 4).

def test_ex13_tile_17_has_three_separate_grasslands(rules):
    state = rules.position("tile 17 0,0 r0\n")
    roots = {state.board.find(170 + z) for z in (0, 2, 4)}
    assert len(roots) == 3


# Ex14: "You lay a hunter down on the grassland on the tile you just placed.  The river
# separates this grassland from the other grassland with Blue's hunter."
#   53 at (0,0): river west-east; meadow 0 north of it, meadow 2 (a mammoth) south.
#   Blue's hunter on the south meadow.  You place 51 (also a west-east river) east of it.

def test_ex14_the_river_separates_your_hunter_from_blues(rules):
    state = rules.position("tile 53 0,0 r0\noccupant 53.2 meeple 1\n")
    rules.run(state, "d51 51@1,0r0")
    with pytest.raises(IllegalMoveError, match="that meadow already holds a meeple"):
        state.apply(parse_move("m51.2"))  # south of the river: Blue's grassland
    rules.run(state, "m51.0")  # north of the river: a grassland of its own
    assert state.board.holders(state.board.feature_id(51, 0)) == [(YOU, ZoneRef(51, 0))]


# Ex21 (003 "Grassland Scoring example"): four grasslands, five players (the seats' colours
# are the rulebook's colours: 0 yellow, 1 red, 2 green, 3 blue, 4 violet).  The grasslands
# are built apart from each other:
#   G1 at x=0:  36 (1 aurochs).  Green's hunter.
#   G2 at x=10: 61 (1 mammoth), 62 (1 deer), 31 r2 (1 tiger).  Red's and Violet's hunters.
#   G3 at x=20: 65 (1 tiger), 37 r2 (1 deer), 32 r2 (1 tiger).  Blue's hunter.
#   G4 at x=30: 90 (mammoth, aurochs), 81 (mammoth, tiger), 76 (aurochs), 30 r2 (deer),
#               78 r3 (deer).  Two of Red's hunters, one of Yellow's.
# The last normal tile (33, no animals) goes under the forest of G1 and ends the game.

YELLOW, RED, GREEN, BLUE5, VIOLET = range(5)
GRASSLANDS = """
tile 36 0,0 r0
occupant 36.0 meeple 2
tile 61 10,0 r0
tile 62 11,0 r0
tile 31 10,1 r2
occupant 61.0 meeple 1
occupant 62.0 meeple 4
tile 65 20,0 r0
tile 37 20,1 r2
tile 32 21,1 r2
occupant 37.1 meeple 3
tile 90 30,0 r0
tile 81 31,0 r0
tile 76 29,0 r0
tile 30 30,-1 r2
tile 78 29,-1 r3
occupant 90.0 meeple 1
occupant 81.0 meeple 1
occupant 30.0 meeple 0
normal 33
"""


def test_ex21_the_four_grasslands_score_2_3_0_and_11(rules):
    state = rules.position(GRASSLANDS, players=5)
    events = rules.run(state, "d33 33@0,1r0 -")
    assert state.is_over
    rows = rules.final_rows(events)
    assert len(rows) == 4
    # G1: 1 aurochs x 2 = 2 for Green.
    assert rules.row_with(rows, 36).points == (0, 0, 2, 0, 0)
    # G2: 1 mammoth x 3 + (1 deer - 1 eaten by the tiger) x 1 = 3; Red and Violet have one
    # hunter each and both score the full 3.
    assert rules.row_with(rows, 61).points == (0, 3, 0, 0, 3)
    # G3: 1 deer, 2 tigers: the deer is eaten, the spare tiger costs nothing = 0 for Blue.
    assert rules.row_with(rows, 37).points == (0, 0, 0, 0, 0)
    # G4: 2 mammoths x 3 + 2 aurochs x 2 + (2 deer - 1 eaten) x 1 = 6 + 4 + 1 = 11; Red has
    # 2 hunters against Yellow's 1, so Red alone scores.
    assert rules.row_with(rows, 90).points == (0, 11, 0, 0, 0)
    # Totals: Red 3 + 11 = 14, Green 2, Violet 3, Yellow and Blue 0.
    assert state.scores == [0, 14, 2, 0, 3]
    (over,) = [e for e in events if isinstance(e, GameOver)]
    assert over.winners == (RED,)


def test_ex21_as_a_record_with_its_result_line():
    # The same example as a complete record: replaying checks the hand-computed result
    # (yellow 0, red 14, green 2, blue 0, violet 3) against the engine's scores.
    text = ("huntgather record 1\nedition 2020\nplayers 5\n" + GRASSLANDS
            + "moves\nd33 33@0,1r0 -\nresult 0 14 2 0 3\n")
    game = parse_record(text).replay()
    assert game.is_over and game.scores == (0, 14, 2, 0, 3)
    wrong = text.replace("result 0 14 2 0 3", "result 0 11 2 0 3")
    with pytest.raises(RecordError, match="the record says the result is 0 11 2 0 3"):
        parse_record(wrong).replay()


# --------------------------------------------------------------------------- huts
#
# Ex19 (003 "Hut Scoring example"), three players: seat 0 is "you", seat 1 "Blue",
# seat 2 "Yellow".
#   Left system (8 fish): 1 at (0,0) (lake, 3 fish, rivers east and west); 13 at (1,0) (lake,
#   2 fish, four rivers); 0 at (1,-1) r2 (lake, 2 fish, river south); 19 at (2,0) r1
#   (river with 1 fish).  Your huts on the lake of 1 and on 19; Blue's hut on the lake of 13.
#   Right system (10 fish): 89 at (10,0) (lake, 3 fish, rivers north and west); 9 at (10,-1)
#   (lake, 2 fish); 57 at (10,-2) r2 (lake, 2 fish); 20 at (9,0) (river with 2 fish);
#   28 at (11,-1) (river with 1 fish).  Yellow's hut on the lake of 89, Blue's on 28.
# The last normal tile (62, a grassland) goes north of tile 1 and ends the game.

HUTS = """
tile 1 0,0 r0
tile 13 1,0 r0
tile 0 1,-1 r2
tile 19 2,0 r1
occupant 1.8 hut 0
occupant 19.1 hut 0
occupant 13.8 hut 1
tile 89 10,0 r0
tile 9 10,-1 r0
tile 57 10,-2 r2
tile 20 9,0 r0
tile 28 11,-1 r0
occupant 89.8 hut 2
occupant 28.1 hut 1
normal 62
"""


def test_ex19_huts_score_8_for_the_majority_and_10_for_both_tied(rules):
    state = rules.position(HUTS, players=3)
    events = rules.run(state, "d62 62@0,-1r0 -")
    rows = rules.final_rows(events)
    assert [r.kind for r in rows] == ["huts", "huts"]
    # Left: fish 3 (lake of 1) + 2 (lake of 13) + 2 (lake of 0) + 1 (river of 19) = 8;
    # you have 2 huts, Blue 1: "you score the 8 points for the 8 fish".
    assert rules.row_with(rows, 1).points == (8, 0, 0)
    # Right: fish 3 (89) + 2 (9) + 2 (57) + 2 (river of 20) + 1 (river of 28) = 10;
    # Yellow and Blue 1 hut each: "They each score 10 points" (incomplete systems score too).
    assert rules.row_with(rows, 89).points == (0, 10, 10)
    assert state.scores == [8, 10, 10]


# --------------------------------------------------------------------------- menhir tiles
#
# Ex22 logboat (003: "You place the logboat and score 8 points for the 4 lakes [footnote 4:
# ZMG says 3] in the river system.  Then you place a fisher, and score 5 points from the
# completed river." 004 adds: "3 for the tiles the river runs over, 2 for the fish in the
# lakes next to it".  Footnote 5: "Or you could score 7 points by placing your fisher on the
# river occupied by Blue's hut!  There's an extra fish on the river, hidden by the hut.")
#   93 logboat at (0,0): lake (1 fish) with rivers north (1), east (3) and west (5).
#   West: 48 at (-1,0), straight river; 24 at (-2,0) r1, lake (1 fish) whose second river
#   faces north into 59 at (-2,-1) r2, a lake with 1 fish.
#   East: 47 at (1,0), straight river with 1 fish and Blue's hut; 57 at (2,0) r3, lake
#   (2 fish).
# The logboat is a menhir tile: the trigger forest (see conftest) earns the menhir turn.

LOGBOAT = """
tile 48 -1,0 r0
tile 24 -2,0 r1
tile 59 -2,-1 r2
tile 47 1,0 r0
tile 57 2,0 r3
occupant 47.1 hut 1
"""


def test_ex22_logboat_scores_8_for_4_lakes_then_the_fisher_scores_5(rules):
    state = rules.position(LOGBOAT + rules.TRIGGER)
    rules.run(state, rules.TRIGGER_MOVES)
    assert state.scores == [0, 0]
    events = rules.run(state, "d93 93@0,0r0")
    assert [type(e).__name__ for e in events] == ["TileDrawn", "TilePlaced", "FeatureScored"]
    (boat,) = rules.scored(events, "logboat")
    # Lakes in the system of the logboat's lake: 93, 24, 59, 57 = 4; 4 x 2 = 8, to the placer
    # alone; Blue's hut on the system changes nothing.
    assert boat.points == (8, 0)
    assert state.decision.phase == "occupy"  # the immediate action came before occupying
    events = rules.run(state, "m93.5")
    assert type(events[0]).__name__ == "OccupantPlaced"  # occupy, then score
    rivers = {e.tiles: e.points for e in rules.scored(events, "river")}
    # West river: tiles 93, 48, 24 = 3 x 1 + lake of 93 (1 fish) + lake of 24 (1 fish) = 5.
    assert rivers[(24, 48, 93)] == (5, 0)
    # East river (also completed, nobody on it): no one scores.
    assert rivers[(47, 57, 93)] == (0, 0)
    assert state.scores == [8 + 5, 0]
    assert state.meeples[YOU] == 5  # the fisher came straight back


def test_ex22_footnote5_fisher_on_the_river_with_blues_hut_scores_7(rules):
    state = rules.position(LOGBOAT + rules.TRIGGER)
    rules.run(state, rules.TRIGGER_MOVES)
    events = rules.run(state, "d93 93@0,0r0 m93.3")
    rivers = {e.tiles: e.points for e in rules.scored(events, "river")}
    # East river: tiles 93, 47, 57 = 3 + 1 fish in the river of 47 (under the hut) + 1 (lake
    # of 93) + 2 (lake of 57) = 7.
    assert rivers[(47, 57, 93)] == (7, 0)
    assert state.scores == [8 + 7, 0]
    assert state.board.occupants[471] == (BLUE, "hut")  # the hut stays


# Ex23 hunting trap (003: "First, cover the tiger and 1 deer.  You score 4 points (3 for the
# mammoth and 1 for the remaining deer).  The mammoth on the far right does not score,
# because it is on a separate grassland.  Cover all scored animals.")
#   94 hunting trap at (0,0): forest north, the trap's meadow on E, S and W.
#   61 at (-1,0): mammoth.  62 at (1,0): deer.  37 at (0,1) r2: deer.  31 at (-1,1) r3: tiger.
#   53 at (1,-1) r2: a river; its south meadow joins the trap's meadow, its north meadow
#   (a mammoth) is a separate grassland.
#   36 at (2,0): an aurochs in the trap's meadow but outside the 3x3 area.
# The trap is the menhir tile drawn after the last normal tile (34, the trigger), so the
# game ends after it: the trapped animals must not score again.

HUNTING_TRAP = """
tile 61 -1,0 r0
tile 62 1,0 r0
tile 37 0,1 r2
tile 31 -1,1 r3
tile 53 1,-1 r2
tile 36 2,0 r0
normal 34
"""


def hunting_trap_events(rules, extra: str = ""):
    state = rules.position(HUNTING_TRAP + extra + rules.TRIGGER)
    rules.run(state, rules.TRIGGER_MOVES)
    return state, rules.run(state, "d94 94@0,0r0 m94.1")


def test_ex23_hunting_trap_scores_4_and_its_animals_leave_final_scoring(rules):
    state, events = hunting_trap_events(rules)
    (trap,) = rules.scored(events, "hunting_trap")
    # In the area, the trap's meadow holds 1 mammoth (61), 2 deer (62, 37), 1 tiger (31):
    # 3 + (2 - 1) x 1 = 4.  The mammoth of 53 is on another meadow and does not count.
    assert trap.points == (4, 0)
    assert trap.tiles == (31, 37, 61, 62)
    assert state.removed_animals == {ZoneRef(31, 1), ZoneRef(37, 1), ZoneRef(61, 0), ZoneRef(62, 0)}
    # Final scoring of the trap's meadow (your hunter on 94): only the aurochs of 36 is
    # left: 2.  (Without the removal it would be 3 + 1 + 2 = 6.)
    rows = rules.final_rows(events)
    assert rules.row_with(rows, 94).points == (2, 0)
    assert state.scores == [4 + 2, 0]


# Ex24 pit trap (003: "First, the tiger eats the deer, then you score 20 points (12 for the
# 2 mammoths and 8 for the 2 aurochs).  The deer on the right does not score with this
# grassland, because it is on a separate grassland.")
#   92 pit trap at (0,0): forest north and east, the trap's meadow south and west.
#   In the area and the trap's meadow: 61 at (-1,0) (mammoth), 90 at (0,1) (mammoth and
#   aurochs), 76 at (-1,1) (aurochs).
#   Outside the area, same meadow: 62 at (-2,0) (deer), 32 at (-3,0) (tiger).
#   78 at (1,0) r2: a deer in the area but on a separate meadow (its forest continues the
#   forest of the trap, which keeps the meadows apart).

PIT_TRAP = """
tile 61 -1,0 r0
tile 90 0,1 r0
tile 76 -1,1 r0
tile 62 -2,0 r0
tile 32 -3,0 r0
tile 78 1,0 r2
normal 34
"""


def test_ex24_pit_trap_doubles_the_area_and_scores_20(rules):
    state = rules.position(PIT_TRAP + rules.TRIGGER)
    rules.run(state, rules.TRIGGER_MOVES)
    events = rules.run(state, "d92 92@0,0r0 m92.1")
    assert state.is_over
    rows = rules.final_rows(events)
    # Area: 2 mammoths x 3 x 2 = 12, 2 aurochs x 2 x 2 = 8; outside: 1 deer eaten by the
    # tiger = 0.  12 + 8 = 20.  The deer of 78 is on another meadow.
    assert rules.row_with(rows, 92).points == (20, 0)
    assert state.scores == [20, 0]


def test_pit_trap_tiger_eats_the_deer_outside_the_area_first(rules):
    # As Ex24 plus 37 at (-1,-1): a deer inside the area, same meadow.  The tiger eats the
    # deer outside the area (62) first, so the inside deer scores double:
    # 12 + 8 + 1 x 1 x 2 = 22.  (Eating the inside deer instead would give 12 + 8 + 1 = 21.)
    state = rules.position(PIT_TRAP + "tile 37 -1,-1 r0\n" + rules.TRIGGER)
    rules.run(state, rules.TRIGGER_MOVES)
    events = rules.run(state, "d92 92@0,0r0 m92.1")
    assert rules.row_with(rules.final_rows(events), 92).points == (22, 0)


# --------------------------------------------------------------------------- the end

def test_the_menhir_turn_of_the_last_normal_tile_is_played_then_the_game_ends(rules):
    # "When the last land tile (not menhir tile) is placed, the game ends at the end of that
    # turn": the hunting-trap example draws the trap after the last normal tile.
    state, events = hunting_trap_events(rules)
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("TilePlaced") < kinds.index("FinalScoring") < kinds.index("GameOver")
    assert isinstance(events[-1], GameOver)
    assert sum(isinstance(e, FinalScoring) for e in events) == 1
    assert state.is_over and state.legal_moves() == []


def test_a_hunting_trap_over_tigers_only_says_it_takes_them(rules):
    # Ex23's position, its mammoth and deer already taken by an earlier trap (removed-animals):
    # in the area only the tiger of 31 is left.  Tigers are worth nothing: 0 points, but the
    # trap still removes it, and the explanation says so instead of "no animals".
    state, events = hunting_trap_events(rules, "removed-animals 61.0 62.0 37.1\n")
    (trap,) = rules.scored(events, "hunting_trap")
    assert trap.points == (0, 0)
    assert trap.explanation == "Hunting trap: 1 tiger and no deer = 0 → yellow; these animals are removed"
    assert ZoneRef(31, 1) in state.removed_animals
