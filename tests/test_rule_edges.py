"""Rule edges of the 2020 edition, as settled by RULINGS.md and docs/rules.md.

Positions use real tiles of the 2020 set (contents quoted from
``src/huntgather/data/tiles-2020.json`` in the comments); expected numbers are
worked out by hand in the comments.  Seats: 0 yellow, 1 red, 2 green, 3 blue,
4 violet.  ``rR`` turns a tile R quarter turns clockwise.
"""

from __future__ import annotations

import pytest

from huntgather.events import (
    BonusTurn,
    FeatureScored,
    FinalScoring,
    GameOver,
    MeepleTakenBack,
    OccupantPlaced,
    OccupantsReturned,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
)
from huntgather.game import Game, random_game
from huntgather.moves import Draw, Occupy, Pass, Place, TakeBack, parse_move
from huntgather.state import IllegalMoveError, State
from huntgather.tiles import DELTAS, RIVER, load_tileset

YELLOW, RED = 0, 1


# --------------------------------------------------------------------------- occupying


def test_a_meeple_on_a_river_its_own_tile_completes_scores_and_returns_at_once(rules):
    # 56 start (river into a lake, 1 fish) and 48 (straight river) to its west; yellow places
    # 59 r1 (lake with 1 fish, river facing east) and a fisher on that river.
    state = rules.position("tile 56 0,0 r0\ntile 48 -1,0 r0\n")
    events = rules.run(state, "d59 59@-2,0r1 m59.1")
    kinds = [type(e) for e in events]
    assert kinds == [TileDrawn, TilePlaced, OccupantPlaced, FeatureScored, OccupantsReturned]
    (river,) = rules.scored(events, "river")
    # tiles 59, 48, 56 = 3 + lake of 56 (1 fish) + lake of 59 (1 fish) = 5
    assert river.points == (5, 0)
    assert state.meeples == [5, 5]
    assert state.board.occupants == {}


@pytest.mark.parametrize("first, second", [("hut", "meeple"), ("meeple", "hut")])
def test_huts_and_meeples_do_not_block_each_other(rules, first, second):
    # 48 at (0,0) holds red's piece on its river; yellow continues the river with 51.
    state = rules.position(f"tile 48 0,0 r0\noccupant 48.1 {first} 1\n")
    rules.run(state, "d51 51@1,0r0")
    same = Occupy(51, 1, first)  # type: ignore[arg-type]
    other = Occupy(51, 1, second)  # type: ignore[arg-type]
    legal = state.legal_moves()
    assert other in legal
    assert same not in legal
    before = rules.snapshot(state)
    with pytest.raises(IllegalMoveError, match=r"already holds a (meeple|hut) \(red\)"):
        state.apply(same)
    assert rules.snapshot(state) == before
    state.apply(other)
    assert state.board.occupants[511] == (YELLOW, second)


def test_a_hut_blocks_another_hut_across_a_lake_but_not_a_fisher(rules):
    # Tile 1: a lake (3 fish) with rivers east (zone 1) and west (zone 5).  Red has a hut on
    # the lake and a fisher on the east river.  Yellow continues the west river with 48.
    state = rules.position("tile 1 0,0 r0\noccupant 1.8 hut 1\noccupant 1.1 meeple 1\n")
    rules.run(state, "d48 48@-1,0r0")
    before = rules.snapshot(state)
    with pytest.raises(IllegalMoveError, match=r"that river system already holds a hut \(red\)"):
        state.apply(parse_move("h48.1"))
    assert rules.snapshot(state) == before
    # The lake ends both rivers: the west river is a river of its own, with no fisher.
    rules.run(state, "m48.1")
    assert state.board.find(481) != state.board.find(11)
    assert state.board.find(1000 + 481) == state.board.find(1000 + 11)


def test_two_rivers_into_the_same_lake_are_two_rivers_and_score_apart(rules):
    # Tile 1 (lake, 3 fish, rivers east and west); 48 west of it with yellow's fisher, 51
    # east of it with red's.  Yellow closes the west river with 59 r1 (lake, 1 fish).
    state = rules.position("""
        tile 1 0,0 r0
        tile 48 -1,0 r0
        tile 51 1,0 r0
        occupant 48.1 meeple 0
        occupant 51.1 meeple 1
    """)
    events = rules.run(state, "d59 59@-2,0r1 -")
    (river,) = rules.scored(events, "river")
    # tiles 59, 48, 1 = 3 + lake of 59 (1) + lake of 1 (3) = 7, to yellow only
    assert river.points == (7, 0)
    assert river.tiles == (1, 48, 59)
    assert state.board.occupants == {511: (RED, "meeple")}  # the east river is still open


def test_a_river_that_loops_back_onto_itself_is_complete(rules):
    # Four river curves (15, 16, 18, 19; each river joins its E and S sides) turned into a
    # ring around (0.5, 0.5); yellow's fisher on 15.  19 (1 fish in its river) closes it:
    # 4 tiles x 1 + 1 fish = 5.
    state = rules.position("tile 15 0,0 r0\ntile 16 1,0 r1\ntile 18 1,1 r2\noccupant 15.1 meeple 0\n")
    events = rules.run(state, "d19 19@0,1r3 -")
    (river,) = rules.scored(events, "river")
    assert river.points == (5, 0)
    # The river halves of the sides join the meadows pairwise: one meadow inside the ring
    # (zone 2 of each tile), one outside (zone 0 of each tile).
    find = state.board.find
    assert len({find(152), find(162), find(182), find(192)}) == 1
    assert len({find(150), find(160), find(180), find(190)}) == 1
    assert find(150) != find(152)


def _dead_ends() -> list[tuple[int, int]]:
    """(tile, river zone) for every river that touches one side and runs into no lake."""
    out = []
    for tile in load_tileset("2020"):
        for z in tile.zones.values():
            if z.kind == RIVER and z.lake is None and tile.zone_sides[z.id] == 1:
                out.append((tile.id, z.id))
    return out


def test_the_dead_ends_are_the_ones_the_tile_notes_list():
    # Notes of tiles-2020.json: "tiles 14, 55, 66, 68, 70 (two), 71 (river 1), 79".
    assert _dead_ends() == [(14, 1), (55, 3), (66, 2), (68, 2), (70, 1), (70, 3), (71, 1), (79, 3)]


@pytest.mark.parametrize("tile_id, zone", _dead_ends())
def test_a_river_ending_at_a_spring_is_closed_there(rules, tile_id, zone):
    tiles = load_tileset("2020")
    tile = tiles[tile_id]
    (side,) = [d for d in range(4) if tile.sides[d].kind == RIVER and tile.sides[d].zones[1] == zone]
    dx, dy = DELTAS[side]
    # Tile 0 has its river (into a lake with 2 fish) on its north side; turn it to face back.
    rotation = (side + 2) % 4
    state = rules.position(f"tile {tile_id} 0,0 r0\noccupant {tile_id}.{zone} meeple 0\n")
    events = rules.run(state, f"d0 0@{dx},{dy}r{rotation} -")
    (river,) = rules.scored(events, "river")
    # 2 tiles + 2 fish in the lake of tile 0 (the dead-end rivers hold no fish) = 4
    assert river.points == (4, 0)
    assert river.tiles == tuple(sorted((0, tile_id)))


# --------------------------------------------------------------------------- majorities


def test_tied_gatherers_both_score_the_full_forest(rules):
    # The forest of rulebook Ex17/Ex18 (see test_rulebook_2020.py), with one gatherer each:
    # 63 joins 35, 36 and 39+37 into a forest of 5 tiles: 5 x 2 = 10 to both.
    state = rules.position("""
        tile 35 -1,0 r0
        tile 36 0,-1 r0
        tile 39 1,0 r0
        tile 37 2,0 r3
        occupant 35.1 meeple 1
        occupant 36.1 meeple 0
    """)
    events = rules.run(state, "d63 63@0,0r0 -")
    (forest,) = rules.scored(events, "forest")
    assert forest.points == (10, 10)
    assert state.scores == [10, 10]


def test_five_players_have_five_meeples_and_three_huts_each():
    state = State.new(players=5)
    assert state.meeples == [5] * 5 and state.huts == [3] * 5
    with pytest.raises(ValueError, match="2-5 players, not 6"):
        State.new(players=6)
    with pytest.raises(ValueError, match="2-5 players, not 1"):
        State.new(players=1)


def test_a_five_player_game_runs_to_the_end():
    game = random_game(players=5, seed=11)
    assert game.is_over and len(game.scores) == 5
    assert game.state.normal == ()
    placed = sum(isinstance(e, TilePlaced) and not e.bonus for e in game.events)
    discarded = sum(isinstance(e, TileDiscarded) and e.stack == "normal" for e in game.events)
    assert placed + discarded == 78  # every normal tile was placed or put out of the game
    assert sorted({e.player for e in game.events if isinstance(e, TilePlaced)}) == [0, 1, 2, 3, 4]


# --------------------------------------------------------------------------- discards and the end


def test_a_tile_that_fits_nowhere_is_discarded_and_the_same_player_draws_again(rules):
    # Only 61 (all meadow) is on the board; 13 has four river sides and fits nowhere.
    state = rules.position("tile 61 0,0 r0\nnormal 13 62\nplayer 1\n")
    events = rules.run(state, "d13")
    assert events == [TileDrawn(13, "normal"), TileDiscarded(13, "normal")]
    assert state.decision.phase == "draw" and state.decision.stack == "normal"
    assert state.current_player == RED
    assert state.discarded == (13,) and state.normal == (62,)
    rules.run(state, "d62")
    assert state.decision.phase == "place" and state.decision.player == RED


def test_the_game_driver_redraws_after_a_discard_by_itself(rules):
    state = rules.position("tile 61 0,0 r0\nnormal 13 62\n")
    game = Game(2, state=state, normal_order=[13, 62])
    assert [str(m) for m in game.history] == ["d13", "d62"]
    assert game.decision.phase == "place" and game.decision.tile == 62


def test_a_discard_that_empties_the_normal_stack_ends_the_game(rules):
    # A hunter on 61 (a mammoth) shows that final scoring still runs: 1 mammoth x 3 = 3.
    state = rules.position("tile 61 0,0 r0\noccupant 61.0 meeple 0\nnormal 13\n")
    events = rules.run(state, "d13")
    assert state.is_over
    assert rules.discarded(events) == [TileDiscarded(13, "normal")]
    assert rules.row_with(rules.final_rows(events), 61).points == (3, 0)
    assert isinstance(events[-1], GameOver) and events[-1].winners == (YELLOW,)


def test_tied_players_share_the_win(rules):
    state = rules.position("tile 61 0,0 r0\nscore 0 7\nscore 1 7\nnormal 13\n")
    events = rules.run(state, "d13")
    assert isinstance(events[-1], GameOver)
    assert events[-1].scores == (7, 7) and events[-1].winners == (YELLOW, RED)


def test_a_bonus_tile_that_fits_nowhere_is_discarded_and_another_is_drawn(rules):
    # The trigger board has no river side, so 83 (four river sides) fits nowhere.
    state = rules.position(rules.TRIGGER + "bonus 83 85\n")
    rules.run(state, rules.TRIGGER_MOVES)
    events = rules.run(state, "d83")
    assert rules.discarded(events) == [TileDiscarded(83, "bonus")]
    assert state.decision.phase == "draw" and state.decision.stack == "bonus"
    assert state.current_player == YELLOW
    rules.run(state, "d85 85@0,19r0 -")
    assert state.decision.stack == "normal" and state.current_player == RED


def test_when_the_bonus_stack_runs_out_through_discards_the_turn_ends(rules):
    state = rules.position(rules.TRIGGER + "bonus 83\n")
    rules.run(state, rules.TRIGGER_MOVES)
    rules.run(state, "d83")
    assert state.decision.phase == "draw" and state.decision.stack == "normal"
    assert state.current_player == RED


def test_the_game_ends_after_the_last_normal_tile_fishers_and_gatherers_leave_unscored(rules):
    # 48 at (0,0): yellow's fisher on its river, red's hunter on its north meadow.
    # 51 at (1,0) continues the river; yellow's hut on it.  39 far away: red's gatherer.
    # The last normal tile 62 (1 deer) joins the north meadows of 48 and 51 (1 aurochs).
    state = rules.position("""
        tile 48 0,0 r0
        tile 51 1,0 r0
        tile 39 5,5 r0
        occupant 48.1 meeple 0
        occupant 48.0 meeple 1
        occupant 51.1 hut 0
        occupant 39.1 meeple 1
        normal 62
    """)
    events = rules.run(state, "d62 62@0,-1r0")  # its only zone joins red's meadow: no decision
    assert state.is_over
    (leave,) = rules.returned(events)
    assert sorted(leave.returned) == [(YELLOW, 48, 1), (RED, 39, 1)]
    assert "without scoring" in leave.reason
    assert state.board.occupants == {480: (RED, "meeple"), 511: (YELLOW, "hut")}
    rows = rules.final_rows(events)
    # Huts: the system of 48 and 51 holds no fish: 0.  Hunters: 1 aurochs (51) x 2 + 1 deer
    # (62) x 1 = 3 for red.  The fisher and the gatherer scored nothing.
    assert rules.row_with(rows, 51, "huts").points == (0, 0)
    assert rules.row_with(rows, 62, "hunters").points == (0, 3)
    assert state.scores == [0, 3]
    assert state.meeples == [5, 4]


def test_a_decision_with_only_pass_is_skipped(rules):
    # Yellow has nothing left to place: no occupy decision, the turn ends at once.
    state = rules.position("tile 61 0,0 r0\nsupply 0 meeples 0 huts 0\n")
    rules.run(state, "d62 62@1,0r0")
    assert state.decision.phase == "draw" and state.current_player == RED


# --------------------------------------------------------------------------- menhir turns


def test_the_closer_takes_the_menhir_turn_while_the_gatherer_scores(rules):
    # Red's gatherer on the trigger forest; yellow closes it: 3 tiles x 2 = 6 for red,
    # the menhir turn for yellow.
    state = rules.position(rules.TRIGGER + "occupant 40.1 meeple 1\n")
    events = rules.run(state, rules.TRIGGER_MOVES)
    (forest,) = rules.scored(events, "forest")
    assert forest.points == (0, 6)
    (turn,) = rules.bonus_turns(events)
    assert (turn.player, turn.granted) == (YELLOW, True)
    assert state.decision.stack == "bonus" and state.current_player == YELLOW


def test_scoring_comes_before_the_menhir_turn(rules):
    # Yellow closes the trigger forest with a gatherer on the closing tile 34.
    state = rules.position(rules.TRIGGER)
    events = rules.run(state, "d34 34@2,20r0 m34.3")
    assert [type(e) for e in events] == [TileDrawn, TilePlaced, OccupantPlaced, FeatureScored,
                                         OccupantsReturned, BonusTurn]
    assert state.scores == [6, 0]  # 3 tiles x 2


def test_an_empty_menhir_stack_gives_no_extra_turn(rules):
    state = rules.position(rules.TRIGGER + "bonus\n")
    events = rules.run(state, rules.TRIGGER_MOVES)
    (turn,) = rules.bonus_turns(events)
    assert (turn.player, turn.granted) == (YELLOW, False)
    assert state.decision.phase == "draw" and state.decision.stack == "normal"
    assert state.current_player == RED


def test_an_empty_menhir_stack_on_the_last_normal_tile_ends_the_game(rules):
    state = rules.position(rules.TRIGGER + "bonus\nnormal 34\n")
    events = rules.run(state, rules.TRIGGER_MOVES)
    assert [t.granted for t in rules.bonus_turns(events)] == [False]
    assert state.is_over


def test_a_menhir_turn_after_the_last_normal_tile_is_played(rules):
    state = rules.position(rules.TRIGGER + "normal 34\n")
    rules.run(state, rules.TRIGGER_MOVES)
    assert not state.is_over
    assert state.decision.phase == "draw" and state.decision.stack == "bonus"
    events = rules.run(state, "d85 85@0,19r0 -")
    assert any(isinstance(e, FinalScoring) for e in events)
    assert state.is_over


def test_two_menhir_forests_closed_at_once_give_one_extra_turn(rules):
    # 41 has two separate forest zones, a dead end east and one west.  West: 39 (menhir)
    # and 35 (forest ending east); east: 40 (menhir) and 36 r1 (forest ending west).
    state = rules.position("""
        tile 35 -2,0 r0
        tile 39 -1,0 r0
        tile 40 1,0 r0
        tile 36 2,0 r1
    """)
    events = rules.run(state, "d41 41@0,0r0 -")
    forests = rules.scored(events, "forest")
    # each forest: 3 tiles x 2 = 6, no gatherer
    assert sorted(f.tiles for f in forests) == [(35, 39, 41), (36, 40, 41)]
    assert all(f.points == (0, 0) and "3 tiles ×2 = 6" in f.explanation for f in forests)
    (turn,) = rules.bonus_turns(events)
    assert turn.granted


def test_a_menhir_turn_never_earns_another(rules):
    # In the menhir turn, the menhir tile 90 (forest ending south) closes a second forest with
    # a menhir: 60 r1 at (5,1) (straight north-south, menhir) and 37 at (5,2) (ending north).
    state = rules.position(rules.TRIGGER + "tile 60 5,1 r1\ntile 37 5,2 r0\n")
    rules.run(state, rules.TRIGGER_MOVES)
    events = rules.run(state, "d90 90@5,0r0 -")
    (forest,) = rules.scored(events, "forest")
    assert forest.tiles == (37, 60, 90)
    assert rules.bonus_turns(events) == []
    assert state.decision.stack == "normal" and state.current_player == RED


# --------------------------------------------------------------------------- shaman
#
# 61 (mammoth meadow) at (0,0) with yellow's hunter; 62 at (5,0) with red's hunter; 48 at
# (5,5) with yellow's hut.  The shaman 88 goes at (0,-1) r3: its shaman meadow then faces
# south and joins the meadow of 61.

SHAMAN = """
tile 61 0,0 r0
tile 62 5,0 r0
tile 48 5,5 r0
occupant 61.0 meeple 0
occupant 62.0 meeple 1
occupant 48.1 hut 0
"""


def test_the_shaman_takes_back_a_hunter_which_can_go_on_the_shaman_tile(rules):
    state = rules.position(SHAMAN + rules.TRIGGER + "supply 0 meeples 0 huts 0\n")
    rules.run(state, "d34 34@2,20r0")  # the trigger, with no piece to place
    rules.run(state, "d88 88@0,-1r3")
    assert state.decision.special == "shaman" and state.decision.player == YELLOW
    # Only yellow's own meeples: not red's hunter, not yellow's hut.
    assert state.legal_moves() == [TakeBack(61, 0), Pass()]
    events = rules.run(state, "x61.0")
    assert events == [MeepleTakenBack(YELLOW, 61, 0)]
    assert state.scores == [0, 0] and state.meeples[YELLOW] == 1
    assert state.decision.phase == "occupy"
    rules.run(state, "m88.0")  # the meadow is empty again, so the hunter may go on the shaman
    assert state.board.occupants[880] == (YELLOW, "meeple")
    assert 610 not in state.board.occupants


def test_the_shaman_is_optional(rules):
    state = rules.position(SHAMAN + rules.TRIGGER)
    rules.run(state, rules.TRIGGER_MOVES)
    rules.run(state, "d88 88@0,-1r3 -")
    assert state.decision.phase == "occupy"
    assert state.board.occupants[610] == (YELLOW, "meeple")


def test_the_shaman_cannot_take_a_hut_or_another_players_meeple(rules):
    state = rules.position(SHAMAN + rules.TRIGGER)
    rules.run(state, rules.TRIGGER_MOVES + " d88 88@0,-1r3")
    before = rules.snapshot(state)
    with pytest.raises(IllegalMoveError, match=r"the shaman cannot take back a hut"):
        state.apply(TakeBack(48, 1))
    with pytest.raises(IllegalMoveError, match=r"the meeple on 62\.0 belongs to red, not to yellow"):
        state.apply(TakeBack(62, 0))
    with pytest.raises(IllegalMoveError, match=r"there is no piece on zone 1 of tile 62"):
        state.apply(TakeBack(62, 1))
    assert rules.snapshot(state) == before


def test_no_shaman_decision_without_a_meeple_on_the_board(rules):
    state = rules.position(SHAMAN.replace("occupant 61.0 meeple 0\n", "") + rules.TRIGGER)
    rules.run(state, rules.TRIGGER_MOVES + " d88 88@0,-1r3")
    assert state.decision.phase == "occupy"


# --------------------------------------------------------------------------- wild fire, raft

# The hunting-trap position of rulebook Ex23 (see test_rulebook_2020.py), grown east in the
# trap's meadow beyond the 3x3 area: 32 r2 at (3,0) (a tiger) and 38 r2 at (3,-1) (a deer).
# With the wild fire, 85 goes at (-2,0), in the same meadow.
TRAP_AND_FIRE = """
tile 61 -1,0 r0
tile 62 1,0 r0
tile 37 0,1 r2
tile 31 -1,1 r3
tile 53 1,-1 r2
tile 36 2,0 r0
tile 32 3,0 r2
tile 38 3,-1 r2
normal 34
"""


@pytest.mark.parametrize("fire, final", [(False, 2), (True, 3)])
def test_wild_fire_ignores_tigers_at_final_scoring_but_not_on_a_hunting_trap(rules, fire, final):
    extra = "tile 85 -2,0 r0\n" if fire else ""
    state = rules.position(TRAP_AND_FIRE + extra + rules.TRIGGER)
    rules.run(state, rules.TRIGGER_MOVES)
    events = rules.run(state, "d94 94@0,0r0 m94.1")
    (trap,) = rules.scored(events, "hunting_trap")
    # The trap: 1 mammoth x 3 + (2 deer - 1 eaten by the tiger of 31) = 4, fire or not
    # (with the fire acting it would be 3 + 2 = 5).
    assert trap.points == (4, 0)
    # Final scoring, the rest of the meadow: 1 aurochs (36) x 2 + 1 deer (38) - the tiger of
    # 32: without fire 2 + 0 = 2; the fire chases the tiger away: 2 + 1 = 3.
    assert rules.row_with(rules.final_rows(events), 94).points == (final, 0)
    assert state.scores == [4 + final, 0]


@pytest.mark.parametrize("lake_tile, expected", [(91, 5), (93, 3)])
def test_the_raft_adds_one_point_per_lake_to_hut_scoring(rules, lake_tile, expected):
    # 91 (raft) and 93 (logboat) have the same shape: a lake with 1 fish and rivers N, E, W.
    # Tile 0 r1 (lake with 2 fish, river east) joins the west river.  Yellow's hut on the
    # lake.  Fish: 1 + 2 = 3; with the raft + 2 lakes = 5; without it 3.
    state = rules.position(f"""
        tile {lake_tile} 0,0 r0
        tile 0 -1,0 r1
        occupant {lake_tile}.8 hut 0
        normal 62
    """)
    events = rules.run(state, "d62 62@0,1r0 -")
    assert rules.row_with(rules.final_rows(events), lake_tile).points == (expected, 0)


# --------------------------------------------------------------------------- illegal moves


def test_illegal_placements_say_why_and_change_nothing(rules):
    state = rules.position("tile 61 0,0 r0\n")
    rules.run(state, "d35")
    before = rules.snapshot(state)
    cases = [
        (Place(35, -1, 0, 0), r"side E of tile 35 is forest but the neighbour's side W "
                              r"\(tile 61 at \(0,0\)\) is meadow"),
        (Place(35, 0, 0, 0), r"\(0,0\) already holds tile 61"),
        (Place(35, 5, 5, 0), r"\(5,5\) touches no placed tile"),
        (Place(35, 0, 1, 4), r"rotation must be 0, 1, 2 or 3, not 4"),
        (Place(36, 0, 1, 0), r"the tile to place is 35, not 36"),
        (Occupy(35, 0), r"m35\.0 does not answer this decision: yellow to place tile 35"),
        (Pass(), r"does not answer this decision"),
        (Draw(36), r"does not answer this decision"),
    ]
    for move, message in cases:
        with pytest.raises(IllegalMoveError, match=message):
            state.apply(move)
        assert rules.snapshot(state) == before, move


def test_illegal_occupants_say_why_and_change_nothing(rules):
    # Yellow places 59 r1 (lake 8, river 1, forest 3, meadows) north of 61, with no meeple and
    # 1 hut left.
    state = rules.position("tile 61 0,0 r0\noccupant 61.0 meeple 1\nsupply 0 meeples 0 huts 1\n")
    rules.run(state, "d59 59@0,-1r1")
    before = rules.snapshot(state)
    cases = [
        (Occupy(61, 0), r"pieces go on the tile just placed \(59\), not on tile 61"),
        (Occupy(59, 7), r"tile 59 has no zone 7"),
        (Occupy(59, 8), r"meeples cannot go on a lake \(only huts can\)"),
        (Occupy(59, 1), r"yellow has no meeple left in supply"),
        (Occupy(59, 3, "hut"), r"huts go on a river or a lake, not on a forest"),
        (TakeBack(61, 0), r"x61\.0 does not answer this decision"),
        (Occupy(59, 1, "boat"), r"a piece is a 'meeple' or a 'hut', not 'boat'"),  # type: ignore[arg-type]
    ]
    for move, message in cases:
        with pytest.raises(IllegalMoveError, match=message):
            state.apply(move)
        assert rules.snapshot(state) == before, move
    state.apply(Occupy(59, 8, "hut"))
    assert state.huts[YELLOW] == 0


def test_no_hut_left_and_occupied_meadow(rules):
    # 36 (meadow 0, forest 1) east of 61: its meadow joins the meadow of red's hunter.
    state = rules.position("tile 61 0,0 r0\noccupant 61.0 meeple 1\nsupply 0 meeples 5 huts 0\n")
    rules.run(state, "d36 36@1,0r0")
    before = rules.snapshot(state)
    with pytest.raises(IllegalMoveError, match=r"that meadow already holds a meeple \(red\)"):
        state.apply(Occupy(36, 0))
    assert rules.snapshot(state) == before
    state = rules.position("tile 61 0,0 r0\nsupply 0 meeples 5 huts 0\n")
    rules.run(state, "d59 59@0,-1r1")
    with pytest.raises(IllegalMoveError, match=r"yellow has no hut left in supply"):
        state.apply(Occupy(59, 8, "hut"))


def test_an_occupant_after_the_game_skipped_that_decision_names_the_empty_supply(rules):
    # yellow has no piece left: after placing tile 36 the game does not ask for one and goes on
    # to red's draw; an occupant sent for tile 36 then says why there was no such decision
    state = rules.position("tile 61 0,0 r0\nsupply 0 meeples 0 huts 0\nnormal 36 13\n")
    rules.run(state, "d36 36@1,0r0")
    assert state.decision.phase == "draw" and state.player == 1
    before = rules.snapshot(state)
    with pytest.raises(IllegalMoveError, match=r"^yellow has no meeple left, so nothing could go on "
                                               r"tile 36; the turn went on without it$"):
        state.apply(Occupy(36, 0))
    with pytest.raises(IllegalMoveError, match=r"^yellow has no hut left, so nothing could go on tile 36"):
        state.apply(Occupy(36, 0, "hut"))
    # an occupant for another tile, or with pieces in supply, gets the general answer
    with pytest.raises(IllegalMoveError, match=r"does not answer this decision"):
        state.apply(Occupy(61, 0))
    assert rules.snapshot(state) == before


def test_draws_outside_the_stack_and_moves_after_the_end_are_refused(rules):
    state = rules.position("tile 61 0,0 r0\nnormal 13\n")
    before = rules.snapshot(state)
    with pytest.raises(IllegalMoveError, match=r"tile 61 is not in the normal stack"):
        state.apply(Draw(61))
    with pytest.raises(IllegalMoveError, match=r"tile 85 is not in the normal stack"):
        state.apply(Draw(85))
    assert rules.snapshot(state) == before
    rules.run(state, "d13")
    assert state.is_over
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.apply(Pass())


def test_the_game_driver_refuses_draws_and_illegal_moves_without_change(rules):
    game = Game(2, seed=3)
    history = list(game.history)
    before = rules.snapshot(game.state)
    with pytest.raises(IllegalMoveError, match="draws are made by the game itself"):
        game.play("d17")
    assert game.decision.phase == "place" and game.decision.tile is not None
    with pytest.raises(IllegalMoveError, match=r"\(40,40\) touches no placed tile"):
        game.play(Place(game.decision.tile, 40, 40, 0))
    assert game.history == history
    assert rules.snapshot(game.state) == before
