"""The worked examples of the 2002 rulebook (seed 000), built with real 2002 tiles.

Every position below uses tiles of ``tiles-2002.json`` by id; the comments give
each tile's relevant contents and the expected numbers are worked by hand from
the rulebook and RULINGS.md ("2002 edition"), never copied from the engine.

Seats and colours: 0 yellow, 1 red, 2 green, 3 blue (the rulebook's colours).

Rotations: ``rR`` turns a tile R quarter turns clockwise, so the side printed
north faces east after r1, south after r2 and west after r3.
"""

from __future__ import annotations

from textwrap import dedent
from typing import TypeVar

import pytest

from huntgather.events import (
    BonusTurn,
    FeatureScored,
    FinalScoring,
    GameOver,
    OccupantsReturned,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
)
from huntgather.game import Game, random_game
from huntgather.kinds import Stack
from huntgather.moves import Occupy, Pass, Place
from huntgather.record import RecordError, parse_record
from huntgather.state import IllegalMoveError

YELLOW, RED, GREEN, BLUE = 0, 1, 2, 3
T = TypeVar("T")


def position(lines: str, players: int = 4) -> str:
    return f"huntgather record 1\nedition 2002\nplayers {players}\n" + dedent(lines).strip() + "\n"


def play(lines: str, moves: str, players: int = 4) -> Game:
    """Build a 2002 position and replay ``moves`` (draws included) from it."""
    return parse_record(position(lines, players) + "moves\n" + moves + "\n").replay()


def of_type(game: Game, kind: type[T]) -> list[T]:
    return [e for e in game.events if isinstance(e, kind)]


def scored(game: Game, kind: str) -> list[FeatureScored]:
    return [e for e in of_type(game, FeatureScored) if e.kind == kind]


def final_rows(game: Game, kind: str) -> list[tuple[int, ...]]:
    (final,) = of_type(game, FinalScoring)
    return [row.points for row in final.rows if row.kind == kind]


# --------------------------------------------------------------------------- rivers


def test_river_of_three_segments_between_lakes_of_one_and_two_fish_scores_6() -> None:
    # Rulebook: "Red scores 6 points. The river has three segments (1, 2 and 3) ...
    # lake 1 has one fish, lake 3 has two fish."
    # 57: river from its E side into a lake with 1 fish; 28: straight E-W river;
    # 61: river from its W side into a lake with 2 fish.  Red's fisher is on 28.
    game = play("""
        tile 57 0,0 r0
        tile 28 1,0 r0
        occupant 28.1 meeple 1
        player 1
        """, "d61 61@2,0r0 -")
    # 3 segments x1 + (1 + 2) fish in the two closing lakes = 6
    (river,) = scored(game, "river")
    assert river.points == (0, 6, 0, 0)
    assert game.scores == (0, 6, 0, 0)
    # the fisher comes back after scoring
    assert game.state.meeples[RED] == 5


def test_river_closed_by_another_player_scores_for_the_fisher() -> None:
    # Rulebook: "Red scores 3 points (2 river segments and 1 fish). Even if blue had
    # placed the new tile to extend his forest, red would score: the river is
    # complete and the fisher is his."
    # 57: river from E into a lake with 1 fish, red fisher.  5 (north of the gap):
    # forest on its S side with blue's gatherer.  Blue places 53 turned once: its
    # spring river (printed S, no lake) now faces W, its forest (printed E+W) N+S.
    game = play("""
        tile 57 0,0 r0
        tile 5 1,-1 r0
        occupant 57.1 meeple 1
        occupant 5.1 meeple 3
        player 3
        """, "d53 53@1,0r1 -")
    # 2 segments x1 + 1 fish in the one lake = 3, to red although blue closed it
    (river,) = scored(game, "river")
    assert river.points == (0, 3, 0, 0)
    assert game.scores == (0, 3, 0, 0)
    # blue's forest (5 + 53) still has an open side: not scored
    assert scored(game, "forest") == []


def test_springs_close_a_river() -> None:
    # Rulebook: "A river is completed when it is bounded by lakes or springs."
    # 53 (river from its S side, no lake: a spring) and 51 (the same) turned twice.
    game = play("""
        tile 53 0,0 r0
        occupant 53.3 meeple 0
        player 0
        """, "d51 51@0,1r2 -")
    # 2 segments x1, no lake = 2
    (river,) = scored(game, "river")
    assert river.points == (2, 0, 0, 0)


def test_river_from_a_lake_back_into_it_counts_tile_and_lake_once() -> None:
    # Rulebook: a river closed "by 1 or 2 lakes" scores the fish "in these lakes";
    # RULINGS.md: a tile counts once per feature even if the feature covers two of
    # its zones.  66: rivers from its N and W sides into one lake with 1 fish; the
    # bends 33 r3 (now S-W), 34 r2 (now E-S) and 35 r1 (now N-E) lead its N river
    # round to its W side.
    game = play("""
        tile 66 0,0 r0
        tile 33 0,-1 r3
        tile 34 -1,-1 r2
        occupant 33.1 meeple 1
        player 1
        """, "d35 35@-1,0r1 -")
    # 4 tiles x1 (66 once) + 1 fish (the one lake, once) = 5
    (river,) = scored(game, "river")
    assert river.tiles == (33, 34, 35, 66)
    assert river.points == (0, 5, 0, 0)


def test_river_tie_between_fishers_scores_for_both() -> None:
    # Rulebook: with several fishers the most fishers score; on a tie all score in full.
    # 57 (1 fish) red fisher, 61 (2 fish) blue fisher; yellow joins them with 28.
    game = play("""
        tile 57 0,0 r0
        tile 61 2,0 r0
        occupant 57.1 meeple 1
        occupant 61.3 meeple 3
        player 0
        """, "d28 28@1,0r0 -")
    # 3 segments + 1 + 2 fish = 6 to red and to blue
    assert game.scores == (0, 6, 0, 6)


# --------------------------------------------------------------------------- forests and bonus tiles

# A straight forest of five tiles: 7 (forest on its E side only), 9, 10 and 11
# (E-W forest, one gold nugget each), 4 turned twice (its forest side faces W).
FIVE_TILE_FOREST = """
    tile 7 0,0 r0
    tile 9 1,0 r0
    tile 10 2,0 r0
    tile 11 3,0 r0
    occupant 10.1 meeple 1
    player {player}
    """


def test_forest_of_two_tiles_scores_4() -> None:
    # Rulebook: "Red scores 4 points" for a forest of two segments.
    # 5: forest on its S side only; 6 turned twice: forest on its N side only.
    game = play("""
        tile 5 0,0 r0
        occupant 5.1 meeple 1
        player 1
        """, "d6 6@0,1r2 -")
    # 2 segments x2 = 4; no gold nugget, so no bonus tile
    (forest,) = scored(game, "forest")
    assert forest.points == (0, 4, 0, 0)
    assert of_type(game, BonusTurn) == []
    assert game.state.decision.stack == "normal"


def test_forest_of_five_tiles_with_three_nuggets_scores_10_and_one_bonus_tile() -> None:
    # Rulebook: "2 points for each forest segment. Red scores 10 points. Although
    # this completed forest contains several gold nuggets, only 1 bonus tile is drawn."
    game = play(FIVE_TILE_FOREST.format(player=RED), "d4 4@4,0r2 -")
    # 5 segments x2 = 10 (nuggets are worth no points)
    (forest,) = scored(game, "forest")
    assert forest.points == (0, 10, 0, 0)
    # 3 nuggets, one bonus tile: red now draws from the bonus stack
    (bonus,) = of_type(game, BonusTurn)
    assert bonus.granted and bonus.player == RED
    decision = game.state.decision
    assert (decision.phase, decision.stack) == ("draw", "bonus")
    assert game.state.current_player == RED
    # the bonus tile goes anywhere legal, here away from the forest: 89 unturned
    # (meadow N, E, W; forest S) below tile 7, whose S side is meadow.
    game = play(FIVE_TILE_FOREST.format(player=RED), "d4 4@4,0r2 - d89 89@0,1r0 -")
    placed = of_type(game, TilePlaced)
    assert [(p.tile, p.bonus) for p in placed] == [(4, False), (89, True)]
    # one bonus tile only: after it the turn passes to green, from the normal stack
    decision = game.state.decision
    assert (decision.phase, decision.stack, game.state.current_player) == ("draw", "normal", GREEN)
    assert len(game.state.bonus) == 11


def test_the_closer_draws_the_bonus_tile_and_the_gatherer_scores() -> None:
    # Rulebook: "If blue completes the forest, red scores the points and blue draws
    # the bonus tile."
    game = play(FIVE_TILE_FOREST.format(player=BLUE), "d4 4@4,0r2 -")
    assert game.scores == (0, 10, 0, 0)
    (bonus,) = of_type(game, BonusTurn)
    assert bonus.granted and bonus.player == BLUE
    assert game.state.current_player == BLUE and game.state.decision.stack == "bonus"


def test_the_bonus_tile_can_be_occupied_and_scores_what_it_completes() -> None:
    # Rulebook: the bonus tile "may also deploy 1 tribe member or hut on this tile.
    # If the placement of the bonus tile causes a feature to be completed, it is
    # scored immediately."  89 turned twice has its forest on the N side; placed
    # below tile 5 (forest S only) it closes a 2-tile forest, with red's gatherer on it.
    game = play(FIVE_TILE_FOREST.format(player=RED) + "tile 5 9,0 r0\n",
                "d4 4@4,0r2 - d89 89@9,1r2 m89.1")
    forests = scored(game, "forest")
    # first the 5-tile forest (10), then 5 + 89: 2 segments x2 = 4, no mushrooms
    assert [f.points for f in forests] == [(0, 10, 0, 0), (0, 4, 0, 0)]
    assert game.scores == (0, 14, 0, 0)
    assert game.state.meeples[RED] == 5


def test_mushrooms_add_2_points_each() -> None:
    # Rulebook (bonus tiles): "Each mushroom tile adds 2 points to the score of a
    # completed forest."  81: forest on its E and S sides with one mushroom group.
    # 7 (forest E only) to its west, 5 turned twice (forest N only) below it.
    game = play("""
        tile 81 1,0 r1
        tile 7 0,0 r0
        occupant 81.1 meeple 2
        player 2
        """, "d5 5@1,1r2 -")
    # 81 r1: printed E and S forest sides face S and W.  3 segments x2 + 1 mushroom group x2 = 8
    (forest,) = scored(game, "forest")
    assert forest.points == (0, 0, 8, 0)


# Two forests with a gold nugget each, both completed by tile 8 (two separate
# forests on its E and W sides):
#   12 at (0,0): forest on E and S, 1 nugget; 5 turned twice at (0,1) closes its S;
#   13 turned once at (2,0): forest on W and S, 1 nugget; 6 turned twice at (2,1).
# Elsewhere, 16 at (10,0) (forest on S and W, 1 nugget) with 7 at (9,0) closing
# its W side: bonus tile 89 turned twice (forest N) at (10,1) completes it.
TWO_FORESTS = """
    tile 12 0,0 r0
    tile 5 0,1 r2
    tile 13 2,0 r1
    tile 6 2,1 r2
    tile 16 10,0 r0
    tile 7 9,0 r0
    player 0
    {stacks}
    """


def test_only_one_bonus_tile_per_turn_even_for_two_forests() -> None:
    # Official answer quoted in seed 000, note 2: "You can only ever get one bonus
    # tile per turn, regardless of how many forests you complete."
    game = play(TWO_FORESTS.format(stacks=""), "d8 8@1,0r0 -")
    # both forests are complete and scored (no gatherers: nobody scores)
    assert len(scored(game, "forest")) == 2
    assert len(of_type(game, BonusTurn)) == 1
    assert game.state.decision.stack == "bonus"


def test_no_bonus_tile_from_a_bonus_placement() -> None:
    # Rulebook: "the player may not draw another bonus tile if he or she completes
    # another forest with gold nugget (there is no chain reaction)."
    game = play(TWO_FORESTS.format(stacks=""), "d8 8@1,0r0 - d89 89@10,1r2 -")
    forests = scored(game, "forest")
    # the bonus tile completed the forest 16 + 7 + 89, which holds a nugget...
    assert len(forests) == 3 and forests[-1].tiles == (7, 16, 89)
    # ...but earns nothing: still one bonus turn, and the next player draws a land tile
    assert len(of_type(game, BonusTurn)) == 1
    assert (game.state.decision.stack, game.state.current_player) == ("normal", RED)
    assert len(game.state.bonus) == 11


def test_no_bonus_tile_when_the_bonus_stack_is_empty() -> None:
    # Rulebook: "When the bonus stack is used up, players no longer draw bonus tiles!"
    game = play(TWO_FORESTS.format(stacks="bonus"), "d8 8@1,0r0 -")
    (bonus,) = of_type(game, BonusTurn)
    assert not bonus.granted
    assert (game.state.decision.stack, game.state.current_player) == ("normal", RED)


def test_bonus_tile_is_played_after_the_last_land_tile() -> None:
    # RULINGS.md: the bonus tile is "played even after the last land tile"; the
    # game ends after that turn (rulebook: at the end of the turn in which the last
    # land tile is placed).
    game = play(TWO_FORESTS.format(stacks="normal 8"), "d8 8@1,0r0 -")
    assert not game.is_over
    assert game.state.decision.stack == "bonus"
    game = play(TWO_FORESTS.format(stacks="normal 8"), "d8 8@1,0r0 - d89 89@10,1r2 -")
    assert game.is_over
    assert [(p.tile, p.bonus) for p in of_type(game, TilePlaced)] == [(8, False), (89, True)]


def test_last_land_tile_with_empty_bonus_stack_ends_the_game() -> None:
    game = play(TWO_FORESTS.format(stacks="normal 8\nbonus"), "d8 8@1,0r0 -")
    assert game.is_over
    assert not of_type(game, BonusTurn)[0].granted


def test_a_bonus_tile_that_fits_nowhere_is_discarded_and_another_drawn() -> None:
    # RULINGS.md 2 (and the RGG note 3 in seed 000): a bonus tile that fits nowhere
    # leaves the game and the same player draws again.  86 has four river sides,
    # and no open side of this board is a river.
    game = play(TWO_FORESTS.format(stacks="bonus 86 89"), "d8 8@1,0r0 - d86 d89 89@10,1r2 -")
    (discard,) = of_type(game, TileDiscarded)
    assert (discard.tile, discard.stack) == (86, "bonus")
    assert game.state.bonus == ()
    assert game.state.discarded == (86,)


def test_the_bonus_stack_is_not_drawn_in_a_normal_turn() -> None:
    # Rulebook: a player draws a land tile "(not from the bonus stack)".
    with pytest.raises(RecordError, match="not in the normal stack"):
        play(TWO_FORESTS.format(stacks=""), "d89")


# --------------------------------------------------------------------------- huts


def test_hut_scores_the_five_fish_of_its_river_system() -> None:
    # Rulebook final scoring: "Blue scores 5 points (5 fish)."
    # 57 (lake, 1 fish) - 67 turned three times (two rivers into a lake of 2 fish,
    # now facing W and N) - 61 turned three times (river now from its S side into a
    # lake of 2 fish).  Blue's hut is on 67's lake.  The last land tile, 2, ends the game.
    game = play("""
        tile 57 0,0 r0
        tile 67 1,0 r3
        tile 61 1,-1 r3
        occupant 67.8 hut 3
        normal 2
        player 0
        """, "d2 2@0,1r0 -")
    assert game.is_over
    # 1 + 2 + 2 = 5 fish in the river system
    assert final_rows(game, "huts") == [(0, 0, 0, 5)]
    assert game.scores == (0, 0, 0, 5)


def test_huts_score_incomplete_river_systems_and_ties_share() -> None:
    # Rulebook: "it is irrelevant whether a river system is completed or not";
    # "If several players have an equal number of huts ... each receives the full score."
    # 57 (lake, 1 fish) with a red hut and 67 turned three times (rivers now W and N
    # into a lake of 2 fish) with a yellow hut, joined by the straight river 28 into
    # one system.  67's N river end stays open: the system is not complete.
    game = play("""
        tile 57 0,0 r0
        tile 67 2,0 r3
        occupant 57.8 hut 1
        occupant 67.3 hut 0
        normal 28
        player 2
        """, "d28 28@1,0r0 -")
    # 1 + 2 = 3 fish, one hut each: 3 to red and 3 to yellow
    assert final_rows(game, "huts") == [(3, 3, 0, 0)]


def test_a_hut_blocks_huts_but_not_fishers() -> None:
    # Rulebook: "There must be no other hut ... on the river system"; "huts and
    # fisherman do not prevent the placement of each other."
    state = position("""
        tile 57 0,0 r0
        occupant 57.8 hut 3
        player 1
        """)
    game = parse_record(state + "moves\nd28 28@1,0r0\n").replay()
    legal = game.state.legal_moves()
    assert Occupy(28, 1) in legal                      # red fisher: allowed
    assert Occupy(28, 1, "hut") not in legal           # red hut: the system has blue's hut
    with pytest.raises(IllegalMoveError, match="already holds a hut"):
        game.state.apply(Occupy(28, 1, "hut"))


# --------------------------------------------------------------------------- meadows


def test_the_four_meadows_of_the_rulebook_example() -> None:
    # Rulebook "Meadow example", 2 points per deer, mammoth and aurochs, each tiger
    # cancelling one deer:
    #  Meadow 1: 1 deer; green scores 2.        -> tile 3 (deer), green hunter.
    #  Meadow 2: 1 deer, 1 mammoth, 1 tiger; yellow and red each score 2.
    #     -> 5 (deer), 2 (mammoth), 19 turned once (tiger, meadow now S+W);
    #        yellow on 5, red on 2.
    #  Meadow 3: 2 deer, 2 mammoths, 1 aurochs, 1 tiger; red has the most hunters
    #     and alone scores 8 (2 mammoths = 4, 1 aurochs = 2, 1 deer = 2).
    #     -> 89 (2 mammoths), 18 r2 (deer) to its W, 84 r1 (aurochs) to its E,
    #        17 r2 (deer) to its N, 20 (tiger) NW; red on 18 and 89, yellow on 17.
    #  Meadow 4: 2 tigers, 1 deer; blue gets nothing, and no minus points.
    #     -> 8 (deer, meadow N and S), 25 r2 (tiger) below, 37 (tiger) above.
    # The last land tile, 6 turned twice, closes an empty forest under tile 5.
    game = play("""
        tile 3 0,0 r0
        occupant 3.0 meeple 2
        tile 5 10,0 r0
        tile 2 11,0 r0
        tile 19 12,0 r1
        occupant 5.0 meeple 0
        occupant 2.0 meeple 1
        tile 89 0,10 r0
        tile 18 -1,10 r2
        tile 84 1,10 r1
        tile 17 0,9 r2
        tile 20 -1,9 r0
        occupant 18.1 meeple 1
        occupant 89.0 meeple 1
        occupant 17.0 meeple 0
        tile 8 20,0 r0
        tile 25 20,1 r2
        tile 37 20,-1 r0
        occupant 8.0 meeple 3
        normal 6
        player 0
        """, "d6 6@10,1r2 -")
    assert game.is_over
    rows = sorted(final_rows(game, "hunters"))
    # meadow 1: 1 deer x2 = 2 -> green
    # meadow 2: (1 deer - 1 eaten) x2 + 1 mammoth x2 = 2 -> yellow and red
    # meadow 3: 2 mammoths x2 + 1 aurochs x2 + (2 deer - 1 eaten) x2 = 8 -> red (2 vs 1)
    # meadow 4: 1 deer - 2 tigers -> 0, never below zero -> blue 0
    assert rows == sorted([(0, 0, 2, 0), (2, 2, 0, 0), (0, 8, 0, 0), (0, 0, 0, 0)])
    assert game.scores == (2, 10, 2, 0)


def test_a_gatherer_in_the_forest_leaves_only_the_hunter() -> None:
    # Rulebook: "Blue may place his figure only as a hunter: the forest already has
    # a gatherer."  Yellow's gatherer is on 5 (forest S only); blue places 12 turned
    # three times below it: its forest (printed E+S) now faces N and E and joins
    # yellow's forest; its meadow (printed N+W) now faces S and W, a meadow of its own.
    game = play("""
        tile 5 0,0 r0
        occupant 5.1 meeple 0
        player 3
        """, "d12 12@0,1r3")
    assert game.state.legal_moves() == [Occupy(12, 0), Pass()]
    with pytest.raises(IllegalMoveError, match=r"already holds a meeple \(yellow\)"):
        game.state.apply(Occupy(12, 1))


def test_joined_meadow_takes_no_new_hunter() -> None:
    # Rulebook: "After the placement of the new tile, the meadows of the 3 hunters
    # are joined to form one.  The player who placed the tile may not deploy a hunter."
    # 3 (deer) and 2 (mammoth) carry hunters two cells apart; red joins their
    # meadows with 5 (meadow N, E, W; forest S).
    game = play("""
        tile 3 0,0 r0
        tile 2 2,0 r0
        occupant 3.0 meeple 0
        occupant 2.0 meeple 3
        player 1
        """, "d5 5@1,0r0")
    legal = game.state.legal_moves()
    assert Occupy(5, 0) not in legal        # the joined meadow already has hunters
    assert Occupy(5, 1) in legal            # the forest is free


def test_fire_chases_the_tigers_of_its_meadow() -> None:
    # Rulebook (bonus tile): "The fire chases all the tigers from the meadow - even
    # if no hunter is deployed.  On this meadow, all deer are scored."
    # Meadow A: 88 (fire, 1 tiger) + 3 (deer) + 19 r1 (tiger); blue hunter on 3 only.
    # Meadow B, no fire: 8 (deer) + 25 r2 (tiger); red hunter on 8.
    game = play("""
        tile 88 0,0 r0
        tile 3 1,0 r0
        tile 19 2,0 r1
        occupant 3.0 meeple 3
        tile 8 20,0 r0
        tile 25 20,1 r2
        occupant 8.0 meeple 1
        normal 7
        player 0
        """, "d7 7@-1,0r2 -")
    # 7 r2 at (-1,0) adds a mammoth to meadow A: its printed E forest faces W.
    # A: 1 deer x2 + 1 mammoth x2 = 4 (both tigers chased away) -> blue
    # B: 1 deer - 1 eaten by the tiger = 0 -> red
    assert sorted(final_rows(game, "hunters")) == sorted([(0, 0, 0, 4), (0, 0, 0, 0)])
    assert game.scores == (0, 0, 0, 4)


SHRINE_MEADOW = """
    tile 90 0,0 r0
    tile 2 -1,0 r0
    tile 3 0,-1 r0
    tile 7 -1,-1 r2
    occupant 2.0 meeple 1
    occupant 3.0 meeple 1
    {shrine}
    normal 6
    player 2
    """
# 90: the shrine, a meadow on its N and W sides with 1 tiger, and a forest with a
# nugget on E and S.  2 (mammoth) to its W, 3 (deer) to its N, 7 turned twice
# (mammoth; its forest side faces W) in the corner: one meadow.  Red has hunters on
# 2 and 3.  The last land tile, 6 (mammoth, forest S), goes under 2 at (-1,1).


def test_hunter_on_the_shrine_takes_the_meadow_alone() -> None:
    # Rulebook (bonus tile): "When a player deploys a hunter on the shrine, only he
    # will receive points.  Other hunters on the meadow will not receive any points,
    # regardless of majority."
    game = play(SHRINE_MEADOW.format(shrine="occupant 90.0 meeple 0"), "d6 6@-1,1r0 -")
    # 6 r0 at (-1,1): its N meadow joins the meadow and adds a mammoth.
    # 3 mammoths x2 + (1 deer - 1 eaten by the shrine's tiger) x2 = 6 -> yellow
    # alone, although red has 2 hunters against 1.
    assert final_rows(game, "hunters") == [(6, 0, 0, 0)]
    assert game.scores == (6, 0, 0, 0)


def test_without_a_hunter_on_the_shrine_the_majority_scores() -> None:
    game = play(SHRINE_MEADOW.format(shrine=""), "d6 6@-1,1r0 -")
    # the same 6 points, to red (2 hunters, nobody else)
    assert final_rows(game, "hunters") == [(0, 6, 0, 0)]


def test_the_shrine_needs_an_empty_meadow_like_any_hunter() -> None:
    # Rulebook: "When deploying the hunter - as usual - there must not be any other
    # hunters on the meadow!"  Red's hunters hold the meadow next to where the shrine
    # goes; the shrine tile comes as yellow's bonus tile after closing forest 12 + 5
    # (nugget) with tile 5 turned twice.
    game = play("""
        tile 2 -1,0 r0
        tile 3 0,-1 r0
        occupant 2.0 meeple 1
        tile 12 10,0 r0
        tile 4 11,0 r2
        player 0
        """, "d5 5@10,1r2 - d90")
    assert game.state.decision.tile == 90
    game.state.apply(Place(90, 0, 0, 0))
    with pytest.raises(IllegalMoveError, match="already holds a meeple"):
        game.state.apply(Occupy(90, 0))


# --------------------------------------------------------------------------- end of the game


def test_fishers_and_gatherers_leave_without_scoring_at_the_end() -> None:
    # Rulebook: "The players remove all tribe members from incomplete forests and
    # rivers ... Incomplete forests and rivers are not scored."
    game = play("""
        tile 57 0,0 r0
        tile 5 5,0 r0
        occupant 57.1 meeple 1
        occupant 5.1 meeple 3
        normal 2
        player 0
        """, "d2 2@0,1r0 -")
    assert game.is_over
    assert scored(game, "river") == [] and scored(game, "forest") == []
    returned = of_type(game, OccupantsReturned)[-1]
    assert sorted(returned.returned) == [(RED, 57, 1), (BLUE, 5, 1)]
    assert game.scores == (0, 0, 0, 0)
    assert game.state.meeples == [5, 5, 5, 5]


def test_a_full_2002_game_ends_when_the_land_tiles_run_out() -> None:
    # Rulebook (seed 000): 79 land tiles, the volcano start tile among them, the other 78
    # shuffled into the stack; 12 bonus tiles.  RULINGS.md 6: the game ends after the turn in
    # which the last land tile was placed, the bonus tile it earned included ("played even after
    # the last land tile"); then final scoring, which adds to the points scored during play.
    game = random_game(players=3, seed=2002, edition="2002")
    assert game.is_over and game.state.normal == ()
    events = game.events
    drawn = [e.stack for e in of_type(game, TileDrawn)]
    assert drawn.count(Stack.NORMAL) == 78
    assert drawn.count(Stack.BONUS) + len(game.state.bonus) == 12
    land = [e for e in events if (isinstance(e, TilePlaced) and not e.bonus)
            or (isinstance(e, TileDiscarded) and e.stack is Stack.NORMAL)]
    assert len(land) == 78
    # the last land tile's turn: in this game it completes a forest with a gold nugget, so its
    # bonus tile is still drawn and placed; then the end
    last = events.index(land[-1])
    after = [type(e) for e in events[last + 1:]]
    assert BonusTurn in after and after.index(BonusTurn) < after.index(FinalScoring)
    (bonus_turn,) = [e for e in events[last + 1:] if isinstance(e, BonusTurn)]
    assert bonus_turn.granted
    assert any(isinstance(e, TilePlaced) and e.bonus for e in events[last + 1:])
    assert after[-2:] == [FinalScoring, GameOver] and after.count(GameOver) == 1
    # each total is what was scored during play plus the final scoring's rows
    during = [sum(e.points[p] for e in of_type(game, FeatureScored)) for p in range(3)]
    final = [sum(row.points[p] for row in of_type(game, FinalScoring)[0].rows) for p in range(3)]
    totals = tuple(d + f for d, f in zip(during, final, strict=True))
    assert of_type(game, GameOver)[0].scores == totals == game.scores
    assert of_type(game, GameOver)[0].winners == tuple(p for p in range(3) if totals[p] == max(totals))
