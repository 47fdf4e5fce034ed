"""Editions as data: the registry, starting a game of each edition, records, variants.

Expected numbers come from the rulebooks (seed 000 for 2002, 003 for 2020) and
RULINGS.md, worked by hand in the comments.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from huntgather.editions import (
    DEFAULT_EDITION,
    Edition,
    edition_names,
    get_edition,
    register,
    unregister,
)
from huntgather.events import BonusTurn, FinalScoring, TileDiscarded, TileDrawn, TilePlaced
from huntgather.game import Game, random_game
from huntgather.record import RecordError, parse_record, read_record, write_record
from huntgather.state import State

ENGINE = Path(__file__).resolve().parents[1] / "src" / "huntgather"
#: the rules core, which must treat every edition alike
CORE = ("tiles", "board", "features", "moves", "events", "scoring", "state", "game", "record")


# --------------------------------------------------------------------------- starting a game


def test_both_editions_are_registered_and_2020_is_the_default() -> None:
    assert {"2002", "2020"} <= set(edition_names())
    assert DEFAULT_EDITION == "2020"
    assert State.new(2).edition.name == "2020"


def test_a_2002_game_starts_with_the_volcano_and_the_2002_stacks() -> None:
    # Seed 000 "Game material" and set-up: the volcano start tile in the middle,
    # the other 78 land tiles shuffled, 12 bonus tiles; each player keeps 5 tribe
    # members (the 6th is the score marker) and 2 huts.
    state = State.new(3, "2002")
    assert state.board.cells == {(0, 0): (1, 0)}
    assert "volcano (decoration)" in state.edition.tiles[1].decoration
    assert state.normal == tuple(range(2, 80)) and len(state.normal) == 78
    assert state.bonus == tuple(range(80, 92)) and len(state.bonus) == 12
    assert state.meeples == [5, 5, 5] and state.huts == [2, 2, 2]
    # the first draw comes from the land tiles only
    assert set(state.chance_outcomes()) == set(range(2, 80))
    game = Game(players=2, edition="2002", seed=5)
    assert game.decision.tile in range(2, 80)


def test_a_2020_game_has_three_huts_and_its_own_start_tile() -> None:
    # Seed 003: start tile (56 in the data), 78 land tiles, 16 menhir tiles; 5 meeples, 3 huts.
    state = State.new(2, "2020")
    assert state.board.cells == {(0, 0): (56, 0)}
    assert len(state.normal) == 78 and len(state.bonus) == 16
    assert state.meeples == [5, 5] and state.huts == [3, 3]


@pytest.mark.parametrize("players", [1, 6])
def test_2002_is_for_two_to_five_players(players: int) -> None:
    with pytest.raises(ValueError, match="2002 edition is for 2-5 players"):
        State.new(players, "2002")


def test_unknown_edition_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"unknown edition '1999'; known editions: .*2002.*2020"):
        State.new(2, "1999")
    text = "huntgather record 1\nedition 1999\nplayers 2\nmoves\n"
    with pytest.raises(RecordError, match=r"line 2: unknown edition '1999'"):
        parse_record(text)


# --------------------------------------------------------------------------- records


@pytest.mark.parametrize("edition", ["2002", "2020"])
def test_records_name_their_edition_and_replay_under_it(edition: str) -> None:
    game = random_game(players=3, seed=11, edition=edition)
    text = write_record(game)
    assert f"\nedition {edition}\n" in text
    again = read_record(text)
    assert again.state.edition.name == edition
    assert again.history == game.history
    assert again.scores == game.scores and again.is_over


def test_a_2002_record_read_as_2020_does_not_replay() -> None:
    # Tile ids mean different tiles in the two sets; the 2020 start tile is 56, so
    # the 2002 record's moves cannot all be legal under 2020.
    game = random_game(players=2, seed=3, edition="2002")
    text = write_record(game, comments=False).replace("edition 2002", "edition 2020")
    with pytest.raises(RecordError, match=r"^line 7: move 32@-1,0r2 is illegal: side E of tile 32 is forest "
                                          r"but the neighbour's side W \(tile 56 at \(0,0\)\) is river$"):
        read_record(text)


# --------------------------------------------------------------------------- variants and the registry

MAMMOTH_MEADOW = """huntgather record 1
edition {edition}
players 2
tile 2 0,0 r0
tile 5 5,0 r0
occupant 2.0 meeple 1
normal 6
player 0
moves
d6 6@5,1r2 -
"""
# Tile 2: an all-meadow tile with one mammoth, red's hunter on it.  The last
# land tile 6, turned twice, closes the empty forest of tile 5 far away; the game
# ends and the mammoth meadow is scored.


@pytest.fixture
def big_mammoths() -> Iterator[Edition]:
    variant = get_edition("2002").variant(
        "2002-big-mammoths", animal_points={"mammoth": 4, "aurochs": 2, "deer": 2})
    register(variant)
    yield variant
    unregister(variant.name)


def test_a_house_rule_variant_changes_final_scoring(big_mammoths: Edition) -> None:
    plain = read_record(MAMMOTH_MEADOW.format(edition="2002"))
    # 2002: 1 mammoth x2 = 2
    assert plain.is_over and plain.scores == (0, 2)
    house = read_record(MAMMOTH_MEADOW.format(edition="2002-big-mammoths"))
    # variant: 1 mammoth x4 = 4; everything else as in 2002
    assert house.is_over and house.scores == (0, 4)
    (final,) = [e for e in house.events if isinstance(e, FinalScoring)]
    assert "×4" in final.rows[0].explanation
    assert house.state.edition.tiles is get_edition("2002").tiles
    assert house.state.huts == [2, 2]


def test_a_variant_game_records_its_name_and_needs_it_registered(big_mammoths: Edition) -> None:
    game = random_game(players=2, seed=4, edition=big_mammoths)
    text = write_record(game)
    assert "\nedition 2002-big-mammoths\n" in text
    assert read_record(text).scores == game.scores
    unregister(big_mammoths.name)
    try:
        with pytest.raises(RecordError, match="unknown edition '2002-big-mammoths'"):
            read_record(text)
    finally:
        register(big_mammoths)


def test_registry_refuses_a_second_edition_under_a_taken_name() -> None:
    old = get_edition("2002")
    assert register(old) is old                      # the same edition again: harmless
    impostor = old.variant("2002", huts=3)
    with pytest.raises(ValueError, match="already registered as '2002'"):
        register(impostor)
    assert get_edition("2002").huts == 2
    with pytest.raises(ValueError, match="cannot be unregistered"):
        unregister(DEFAULT_EDITION)
    with pytest.raises(ValueError, match="no edition is registered as 'nope'"):
        unregister("nope")
    with pytest.raises(ValueError, match="one word"):
        register(old.variant("two words"))
    with pytest.raises(TypeError, match="Edition has no field 'hut'"):
        old.variant("typo", hut=3)


# --------------------------------------------------------------------------- no edition branches


def test_the_engine_never_compares_edition_names() -> None:
    # Editions differ only through Edition fields and special-tile hooks: no module
    # of the rules core compares anything with "2002"/"2020" or with an edition's name.
    offenders = []
    for path in (ENGINE / f"{name}.py" for name in CORE):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            for operand in (node.left, *node.comparators):
                if isinstance(operand, ast.Constant) and operand.value in ("2002", "2020", 2002, 2020):
                    offenders.append(f"{path.name}:{node.lineno}")
                if (isinstance(operand, ast.Attribute) and operand.attr == "name"
                        and isinstance(operand.value, ast.Attribute) and operand.value.attr == "edition"):
                    offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


def test_no_module_outside_the_specials_names_a_special() -> None:
    """What a special does lives in its class (huntgather/specials.py): no other module of the
    package holds a special's name as a string, so adding one touches no other module.  (A special's
    question is the decision Phase.SPECIAL, named by the special that asks: no phase names one.)"""
    from huntgather.specials import known_specials

    names = {s.name for s in known_specials()}
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name == "specials.py" or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in names:
                offenders.append(f"{path.relative_to(ENGINE)}:{node.lineno} {node.value!r}")
    assert offenders == []


#: a string literal of the page's scripts: "...", '...' or `...` (without escapes across the quote)
_JS_STRING = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`")


def _js_strings(text: str) -> Iterator[tuple[int, str]]:
    """The string literals of a script (and the words of each template), with their line numbers."""
    for m in _JS_STRING.finditer(text):
        value = next(g for g in m.groups() if g is not None)
        line = text.count("\n", 0, m.start()) + 1
        yield line, value
        if m.group(3) is not None:   # a template: its words too (`${x} shaman`)
            yield from ((line, word) for word in re.findall(r"[a-z_]+", value))


def test_no_script_of_the_page_names_a_special() -> None:
    """The page shows a special's question as the server words it (decision.special and
    decision.prompt, the options' texts): no script of web/js names a special, so a special of
    one's own needs no change to the page.  (Comments may mention one.)"""
    from huntgather.specials import known_specials

    names = {s.name for s in known_specials()}
    scripts = sorted((ENGINE / "web" / "js").rglob("*.js"))
    assert scripts
    offenders = [f"{path.relative_to(ENGINE)}:{line} {value!r}" for path in scripts
                 for line, value in _js_strings(_without_comments(path.read_text(encoding="utf-8")))
                 if value in names]
    assert offenders == []


def _without_comments(text: str) -> str:
    """A script with its // line comments blanked (a naive cut that keeps strings holding //)."""
    return "\n".join(line.split(" // ")[0] if not line.lstrip().startswith("//") else ""
                      for line in text.split("\n"))


def test_the_script_check_would_see_a_special_named_in_a_string() -> None:
    text = 'if (d.phase === "shaman") show(`the ${x} raft`); // a "logboat" in a comment\n'
    found = {v for _, v in _js_strings(_without_comments(text))}
    assert {"shaman", "raft"} <= found and "logboat" not in found


# --------------------------------------------------------------------------- whole 2002 games


@pytest.mark.parametrize("seed", range(6))
def test_random_2002_games_keep_the_bonus_and_piece_rules(seed: int) -> None:
    game = random_game(players=2 + seed % 4, seed=seed, edition="2002")
    state = game.state
    assert game.is_over and state.normal == ()
    # pieces: every meeple is in supply or a hunter, every hut in supply or on the board
    for seat in range(state.players):
        on_board = [piece for owner, piece in state.board.occupants.values() if owner == seat]
        assert state.meeples[seat] + on_board.count("meeple") == 5
        assert state.huts[seat] + on_board.count("hut") == 2
    # each granted bonus turn brings exactly one bonus placement (unless the bonus
    # stack runs out through discards), before the next land tile is drawn;
    # bonus placements never happen otherwise
    pending = False
    for event in game.events:
        if isinstance(event, BonusTurn) and event.granted:
            assert not pending
            pending = True
        elif isinstance(event, TilePlaced) and event.bonus:
            assert pending
            pending = False
        elif isinstance(event, TileDiscarded) and event.stack == "bonus" and not state.bonus:
            pending = False
        elif isinstance(event, TileDrawn) and event.stack == "normal":
            assert not pending
    assert not pending
