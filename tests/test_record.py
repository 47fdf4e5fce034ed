"""Game records and positions: round trips, a hand-checked example, and malformed input."""

from __future__ import annotations

from pathlib import Path

import pytest

from huntgather.game import Game, random_game
from huntgather.moves import Draw
from huntgather.record import (
    RecordError,
    load_position,
    parse_record,
    position_lines,
    read_record,
    turns,
    write_position,
    write_record,
)
from huntgather.state import State

# ---------------------------------------------------------------- round trips

GAMES = [("2020", 2, 0), ("2020", 3, 1), ("2020", 5, 2), ("2002", 2, 3), ("2002", 4, 4), ("2020", 4, 5)]


@pytest.mark.parametrize(("edition", "players", "seed"), GAMES)
def test_write_parse_replay_write_is_exact(edition: str, players: int, seed: int) -> None:
    game = random_game(players, seed, edition)
    text = write_record(game)
    again = read_record(text)
    assert again.history == game.history
    assert again.events == game.events
    assert again.scores == game.scores
    assert again.seed == seed
    assert again.is_over
    assert write_record(again) == text
    # without comments the record still replays to the same game
    bare = write_record(game, comments=False)
    assert "#" not in bare
    assert read_record(bare).events == game.events


def test_record_lines_are_one_turn_each_with_result() -> None:
    game = random_game(2, 11)
    lines = write_record(game, comments=False).splitlines()
    moves = lines[lines.index("moves") + 1:-1]
    assert lines[-1] == "result " + " ".join(map(str, game.scores))
    # every turn line starts with a draw, and there are as many as turns begun
    assert all(line.startswith("d") for line in moves)
    assert len(moves) == game.state.turn + 1
    assert sum(len(line.split()) for line in moves) == len(game.history)


def test_start_player_round_trips() -> None:
    game = Game(3, seed=9, start_player=2)
    for _ in range(10):
        game.play(game.legal_moves()[0])
    text = write_record(game)
    assert "start-player 2" in text.splitlines()
    assert "result" not in text  # the game is not over
    again = read_record(text)
    assert again.initial.player == 2
    assert again.state.scores == game.state.scores
    assert write_record(again) == text


def _turn_starts(game: Game) -> list[tuple[int, State]]:
    state = game.initial.copy()
    out = []
    for i, move in enumerate(game.history):
        if isinstance(move, Draw) and state.stack == "normal" and (i == 0 or not isinstance(
                game.history[i - 1], Draw)):
            out.append((i, state.copy()))
        state.apply(move)
    return out


@pytest.mark.parametrize(("edition", "players", "seed"), GAMES[:4])
def test_positions_round_trip(edition: str, players: int, seed: int) -> None:
    game = random_game(players, seed, edition)
    starts = _turn_starts(game)
    for index, mid in (starts[len(starts) // 3], starts[-1]):
        lines = position_lines(mid)
        text = f"huntgather record 1\nedition {edition}\nplayers {players}\n" + "\n".join(lines) + "\nmoves\n"
        state = load_position(text)
        assert position_lines(state) == lines
        assert (state.scores, state.meeples, state.huts) == (mid.scores, mid.meeples, mid.huts)
        assert (state.normal, state.bonus, state.discarded) == (mid.normal, mid.bonus, mid.discarded)
        assert (state.player, state.turn) == (mid.player, mid.turn)
        assert state.removed_animals == mid.removed_animals
        assert state.board.cells == mid.board.cells
        assert state.board.occupants == mid.board.occupants
        # the rest of the game replays from the loaded position to the same end
        rest = Game.replay(state, game.history[index:])
        assert rest.scores == game.scores
        # a game that starts from a position writes it, and reads back exactly
        record = write_record(rest)
        assert "\ntile " in record and "start-player" not in record
        assert write_record(read_record(record)) == record


def test_supply_is_written_when_not_derivable() -> None:
    state = State.new(2)
    state.meeples[1] = 3  # two meeples out of the game, none on the board
    lines = position_lines(state)
    assert "supply 1 meeples 3 huts 3" in lines
    text = "huntgather record 1\nplayers 2\n" + "\n".join(lines) + "\nmoves\n"
    assert load_position(text).meeples == [5, 3]


def test_a_position_in_mid_turn_needs_version_2_and_says_so_on_its_first_line() -> None:
    game = Game(2, seed=1)  # the first tile has been drawn: it is a placement decision
    text = write_position(game.state)
    assert text.startswith("huntgather record 2\n")
    assert f"decision place {game.state.tile}" in text.splitlines()
    assert load_position(text) == game.state
    # at the start of a turn nothing needs version 2: older huntgathers read it too
    assert write_position(State.new(3)).startswith("huntgather record 1\n")


V2 = "huntgather record 2\nedition 2020\nplayers 2\ntile 56 0,0 r0\n"


@pytest.mark.parametrize(("lines", "message"), [
    ("decision fly", "expected 'decision draw|place|occupy|over|SPECIAL [TILE] [bonus]'"),
    ("decision place", "'place' names the tile"),
    ("decision draw 17", "expected 'decision draw|place"),
    ("decision over bonus", "expected 'decision draw|place"),
    ("decision place 999", "edition 2020 has no tile 999"),
    ("decision place 56", "tile 56 is on the board, so it cannot be the tile to place"),
    ("discarded 17\ndecision place 17", "tile 17 is discarded, so it cannot be the tile to place"),
    ("decision place 80", "tile 80 is a bonus tile, so it cannot come from the normal stack"),
    ("decision place 17 bonus", "tile 17 is a normal tile, so it cannot come from the bonus stack"),
    ("normal 17 18\ndecision place 17", "tile 17 is the tile to place and cannot be in the normal stack"),
    ("decision occupy 17",
     "'decision occupy' is about the tile just placed, but tile 17 is not on the board"),
    ("decision shaman 56", "the shaman offers yellow nothing, so the game would not ask this"),
    ("decision special 56", "expected 'decision draw|place|occupy|over|SPECIAL"),
    ("decision logboat 56", "expected 'decision draw|place|occupy|over|SPECIAL"),
    ("bonus\ndecision draw bonus", "the menhir tile stack is empty, so there is no menhir tile to draw"),
    ("decision over", "the game is over only once the normal stack is empty; it holds 78 tiles"),
    ("normal", "the normal stack is empty, so the game would already be over"),
    ("decision draw\ndecision draw", "'decision' is given twice"),
])
def test_a_decision_the_game_cannot_be_at_is_refused_naming_the_line(lines: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        load_position(V2 + lines + "\nmoves\n")
    assert message in str(info.value)
    assert info.value.line >= 5


def test_a_tile_to_place_that_fits_nowhere_is_refused() -> None:
    # in the random 2-player game of seed 28, tile 17 was drawn and fitted nowhere (it was put out
    # of the game): the position just before that draw cannot have 17 as the tile to place
    game = random_game(2, 28)
    at = next(i for i, m in enumerate(game.history) if m == Draw(17))
    before = Game.replay(game.initial, game.history[:at]).state
    assert not before.board.can_place(before.edition.tiles[17])
    lines = [line for line in write_position(before).splitlines()
             if not line.startswith(("normal", "decision"))][:-1]
    with pytest.raises(RecordError, match="tile 17 fits nowhere on this board"):
        load_position("\n".join(lines).replace("record 1", "record 2") + "\ndecision place 17\nmoves\n")


def test_turns_group_draws_with_their_turn() -> None:
    game = random_game(2, 3)
    groups = turns(game.initial, game.history)
    assert [m for _, moves, _ in groups for m in moves] == game.history
    assert [e for _, _, events in groups for e in events] == game.events[len(game.events) - sum(
        len(ev) for _, _, ev in groups):]
    assert [p for p, _, _ in groups[:4]] == [0, 1, 0, 1]


def test_comments_blank_lines_crlf_and_bom_are_accepted() -> None:
    text = "\ufeffhuntgather record 1   # magic\r\n\r\n# a comment\r\nedition 2020\r\nplayers 2\r\nmoves\r\n"
    record = parse_record(text)
    assert record.state.players == 2 and record.moves == []


# ---------------------------------------------------------------- a hand-checked record

# The hand-checked record (its arithmetic is in the file): yellow 6 (forest) + 5 (meadow) = 11.
EXAMPLE = (Path(__file__).parent / "data" / "hand-checked.hgr").read_text(encoding="utf-8")


def test_hand_checked_record() -> None:
    game = read_record(EXAMPLE)
    # turn 2: 37 closes the forest 56+34+37 (3 tiles): 3 × 2 = 6 points to yellow's gatherer;
    #         the menhir would earn red a menhir turn, but the menhir stack is empty.
    # turn 3: 35 is the last normal tile; its meadow joins the start tile's: yellow's hunter
    #         scores 1 mammoth × 3 + 1 aurochs × 2 = 5 at the end.
    # yellow 6 + 5 = 11, red 0.
    assert game.is_over
    assert game.scores == (11, 0)
    assert game.winners() == (0,)
    assert game.state.meeples == [4, 5]  # the gatherer came back; the hunter stays on its meadow
    text = write_record(game)
    assert "normal 34 35 37" in text and "\nbonus\n" in text
    assert write_record(read_record(text)) == text


def test_wrong_result_is_reported_on_its_line() -> None:
    with pytest.raises(RecordError,
                       match=r"^line 10: the record says the result is 11 1 but replaying gives 11 0"):
        read_record(EXAMPLE.replace("result 11 0", "result 11 1"))


def test_result_before_the_end_is_an_error() -> None:
    text = EXAMPLE.replace("d35 35@0,-1r0 m35.0\n", "")
    with pytest.raises(RecordError, match=r"^line 9: the record gives a result but the game is not over"):
        read_record(text)


def test_illegal_move_names_its_line() -> None:
    # zone 1 of tile 35 is a forest: a gatherer may go there, a hut may not
    assert read_record(EXAMPLE.replace("m35.0\nresult 11 0", "m35.1")).state.is_over
    with pytest.raises(RecordError, match=r"^line 9: move h35\.1 is illegal: huts go on a river or a lake"):
        read_record(EXAMPLE.replace("m35.0", "h35.1"))
    with pytest.raises(RecordError, match=r"^line 7: move d56 is illegal: tile 56 is not in the normal"):
        read_record(EXAMPLE.replace("d34 ", "d56 "))
    with pytest.raises(RecordError, match=r"^line 8: move 37@0,1r2 is illegal: side N of tile 37 is meadow"):
        read_record(EXAMPLE.replace("37@0,1r0", "37@0,1r2"))
    with pytest.raises(RecordError, match=r"^line 10: move d1 is illegal: the game is over"):
        read_record(EXAMPLE.replace("result 11 0", "d1"))


# ---------------------------------------------------------------- edition check


def test_edition_check() -> None:
    text2002 = write_record(random_game(2, 1, "2002"))
    assert read_record(text2002, edition="2002").is_over
    with pytest.raises(RecordError, match=r"^line 2: this is a 2002 record .* cannot be replayed under the "
                                          r"2020 rules"):
        read_record(text2002, edition="2020")
    # no edition line: the record is a 2020 record
    with pytest.raises(RecordError, match=r"^line 1: this is a 2020 record \(it has no edition line"):
        parse_record("huntgather record 1\nplayers 2\nmoves\n", edition="2002")


# ---------------------------------------------------------------- malformed input

HEAD = "huntgather record 1\nedition 2020\nplayers 2\n"

MALFORMED = [
    ("", 1, "expected the first line 'huntgather record 1' (or 2), got an empty text"),
    ("huntgather game 1\nplayers 2\nmoves\n", 1, "expected the first line"),
    ("players 2\nmoves\n", 1, "got 'players 2'"),
    ("huntgather record\nplayers 2\nmoves\n", 1, "expected the first line"),
    ("huntgather record one\nplayers 2\nmoves\n", 1,
     "expected the format version (a whole number), got 'one'"),
    ("huntgather record 3\nplayers 2\nmoves\n", 1, "record format version 3 is not supported"),
    ("huntgather record 1\nplayers 2\ndecision place 17\nmoves\n", 3,
     "the 'decision' line needs record format version 2"),
    ("huntgather record 1\nplayers 2\n", 2, "expected a 'moves' line"),
    ("huntgather record 1\nedition 2020\nmoves\n", 1, "expected a 'players N' line"),
    ("huntgather record 1\nplayers 2\ncolour red\nmoves\n", 3, "unknown line 'colour'"),
    ("huntgather record 1\nplayers 2\nplayers 3\nmoves\n", 3, "'players' is given twice"),
    ("huntgather record 1\nplayers\nmoves\n", 2, "expected 'players VALUE'"),
    ("huntgather record 1\nplayers two\nmoves\n", 2, "expected the number of players (a whole number)"),
    ("huntgather record 1\nplayers 6\nmoves\n", 2, "the 2020 edition is for 2-5 players, not 6"),
    ("huntgather record 1\nedition 1999\nplayers 2\nmoves\n", 2, "unknown edition '1999'"),
    ("huntgather record 1\nplayers 2\nseed x\nmoves\n", 3, "expected the seed"),
    ("huntgather record 1\nplayers 2\nstart-player 2\nmoves\n", 3,
     "seat 2 does not exist in a 2-player game"),
    ("huntgather record 1\nplayers 2\nmoves 17\n", 3, "the 'moves' line stands alone"),
    (HEAD + "tile 56 0,0 r0\nseed 4\nmoves\n", 5, "header line 'seed' must come before the position lines"),
    (HEAD + "start-player 1\nplayer 0\nmoves\n", 5, "either 'start-player' in the header or 'player'"),
    # tile lines
    (HEAD + "tile 56 0,0\nmoves\n", 4, "expected 'tile ID X,Y rR'"),
    (HEAD + "tile 56 0;0 r0\nmoves\n", 4, "expected 'tile ID X,Y rR'"),
    (HEAD + "tile 56 0,0 r4\nmoves\n", 4, "expected 'tile ID X,Y rR'"),
    (HEAD + "tile x 0,0 r0\nmoves\n", 4, "expected a tile id (a whole number), got 'x'"),
    (HEAD + "tile 95 0,0 r0\nmoves\n", 4, "edition 2020 has no tile 95"),
    (HEAD + "tile 56 0,0 r0\ntile 56 1,0 r0\nmoves\n", 5, "tile 56 is placed twice"),
    (HEAD + "tile 56 0,0 r0\ntile 34 0,0 r0\nmoves\n", 5, "(0,0) already holds tile 56"),
    # 34 unturned at (1,0): its W side is forest, the start tile's E side is forest: fine; turned
    # once, its W side is the S side's meadow
    (HEAD + "tile 56 0,0 r0\ntile 34 1,0 r1\nmoves\n", 5,
     "side W of tile 34 is meadow but the neighbour's side E (tile 56 at (0,0)) is forest"),
    # occupant lines
    (HEAD + "occupant 34.3 meeple 0\nmoves\n", 4, "tile 34 is not on the board"),
    (HEAD + "occupant 56.5 meeple 0\nmoves\n", 4, "tile 56 has no zone 5 (it has zones 0, 1, 2, 3, 8)"),
    (HEAD + "occupant 56.1 gatherer 0\nmoves\n", 4, "expected 'occupant TILE.ZONE meeple|hut SEAT'"),
    (HEAD + "occupant 56-1 meeple 0\nmoves\n", 4, "expected a zone as TILE.ZONE"),
    (HEAD + "occupant 56.1 meeple 2\nmoves\n", 4, "seat 2 does not exist in a 2-player game"),
    (HEAD + "occupant 56.8 meeple 0\nmoves\n", 4, "meeples cannot go on a lake"),
    (HEAD + "occupant 56.1 hut 0\nmoves\n", 4, "huts go on a river or a lake, not on a forest"),
    (HEAD + "occupant 56.1 meeple 0\noccupant 56.1 meeple 1\nmoves\n", 5, "zone 56.1 already holds a piece"),
    # other position lines
    (HEAD + "score 0\nmoves\n", 4, "expected 'score SEAT POINTS'"),
    (HEAD + "score 0 5\nscore 0 6\nmoves\n", 5, "the score of seat 0 is given twice"),
    (HEAD + "supply 0 meeples 4\nmoves\n", 4, "expected 'supply SEAT meeples N huts M'"),
    (HEAD + "supply 0 meeples -1 huts 2\nmoves\n", 4, "a supply cannot be negative"),
    # 2020 gives 5 meeples and 3 huts: 6 in supply, or 4 on the board + 2 in supply, is one too many
    (HEAD + "supply 0 meeples 6 huts 3\nmoves\n", 4,
     "yellow (seat 0) would have 6 meeples (6 in supply + 0 on the board), but the 2020 edition gives 5"),
    (HEAD + "tile 56 0,0 r0\ntile 34 1,0 r0\noccupant 56.0 meeple 0\noccupant 56.1 meeple 0\n"
            "occupant 34.0 meeple 0\noccupant 34.1 meeple 0\nsupply 0 meeples 2 huts 3\nmoves\n", 10,
     "would have 6 meeples (2 in supply + 4 on the board)"),
    (HEAD + "supply 1 meeples 5 huts 4\nmoves\n", 4, "red (seat 1) would have 4 huts"),
    (HEAD + "score 1 -2\nmoves\n", 4, "a score cannot be negative"),
    (HEAD + "normal 0 1 x\nmoves\n", 4, "expected a tile id (a whole number), got 'x'"),
    (HEAD + "normal 0 80\nmoves\n", 4, "tile 80 is a bonus tile, so it cannot be in the normal stack"),
    (HEAD + "normal 0 0\nmoves\n", 4, "tile 0 is listed twice"),
    (HEAD + "normal 0\nnormal 1\nmoves\n", 5, "the normal line is given twice"),
    (HEAD + "normal 56\nmoves\n", 4, "tile 56 is a start tile"),
    (HEAD + "normal\nmoves\n", 4, "the normal stack is empty"),
    (HEAD + "discarded 3\nnormal 3 4\nmoves\n", 5, "tile 3 is discarded and cannot be in the normal stack"),
    (HEAD + "discarded 56\nmoves\n", 4, "tile 56 is on the board and cannot be discarded"),
    (HEAD + "removed-animals 56.1\nmoves\n", 4, "56.1 is not a meadow zone"),
    (HEAD + "player 0 1\nmoves\n", 4, "expected 'player SEAT'"),
    (HEAD + "player 0\nplayer 1\nmoves\n", 5, "'player' is given twice"),
    (HEAD + "turn -3\nmoves\n", 4, "the turn number cannot be negative"),
    # moves and result
    (HEAD + "moves\nd34 34@1,0 m34.3\n", 5, "'34@1,0' is not a move"),
    (HEAD + "moves\nresult 1\n", 5, "expected 2 scores after 'result', got 1"),
    (HEAD + "moves\nresult 1 x\n", 5, "expected a score (a whole number), got 'x'"),
    (HEAD + "moves\nresult 0 0\nd3\n", 6, "nothing may follow the 'result' line (line 5)"),
]


@pytest.mark.parametrize(("text", "line", "message"), MALFORMED)
def test_malformed_records_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(text).replay()
    assert info.value.line == line
    assert str(info.value).startswith(f"line {line}: ")
    assert message in str(info.value)


def test_more_pieces_than_the_edition_has() -> None:
    # the 2020 edition gives 5 meeples each; the start tile 56 has land zones 0-3 and tile 34
    # (at (1,0), forest side W against the start's forest side E) has zones 0-3
    tiles = "tile 56 0,0 r0\ntile 34 1,0 r0\n"
    zones = ["56.0", "56.1", "56.2", "56.3", "34.0", "34.1"]
    five = "".join(f"occupant {z} meeple 0\n" for z in zones[:5])
    assert load_position(HEAD + tiles + five + "moves\n").meeples == [0, 5]
    six = "".join(f"occupant {z} meeple 0\n" for z in zones)
    # header 3 lines + 2 tile lines + 6 occupants: the sixth occupant is line 11
    with pytest.raises(RecordError, match=r"^line 11: yellow \(seat 0\) has only 5 meeples in the 2020"):
        load_position(HEAD + tiles + six + "moves\n")
    # with a supply line the pieces in hand are as given, as long as supply and board together
    # hold no more than the edition's pieces (5 on the board + 0 in hand = 5)
    state = load_position(HEAD + tiles + "supply 0 meeples 0 huts 1\n" + five + "moves\n")
    assert (state.meeples, state.huts) == ([0, 5], [1, 3])
    with pytest.raises(RecordError, match=r"^line 6: yellow \(seat 0\) would have 6 meeples"):
        load_position(HEAD + tiles + "supply 0 meeples 0 huts 1\n" + six + "moves\n")
