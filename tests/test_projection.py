"""The live projection: what final scoring would give if the game ended now, in every view.

The numbers are the rulebook's (003, "Grassland Scoring example", derived by hand in
tests/test_rulebook_2020.py): the projection of the position before its last tile is what the
end of the game then gives.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_rulebook_2020 import GRASSLANDS

from huntgather.board import ZoneRef
from huntgather.game import Game
from huntgather.server import create_app
from huntgather.server.protocol import Projected, projection_view


def test_the_projection_is_the_final_scoring_of_the_rulebooks_grasslands(rules: Any) -> None:
    state = rules.position(GRASSLANDS, players=5)
    seen = projection_view(state)
    # G1: 1 aurochs x 2 = 2 for Green; G2: 1 mammoth x 3 + (1 deer - 1 eaten) = 3 for Red and
    # Violet; G3: the deer eaten, 0 for Blue; G4: 2 x 3 + 2 x 2 + (2 - 1) = 11 for Red (2 hunters
    # against Yellow's 1)
    def row_with(tile: int) -> list[int]:
        (row,) = [r for r in seen["rows"] if tile in r["tiles"]]
        return row["points"]

    assert len(seen["rows"]) == 4
    assert row_with(36) == [0, 0, 2, 0, 0]
    assert row_with(61) == [0, 3, 0, 0, 3]
    assert row_with(37) == [0, 0, 0, 0, 0]
    assert row_with(90) == [0, 11, 0, 0, 0]
    assert all(row["kind"] == "hunters" and row["explanation"] for row in seen["rows"])
    assert seen["scores"] == [0, 14, 2, 0, 3]   # nothing scored yet: the rows are the whole score
    assert state.scores == [0, 0, 0, 0, 0], "projecting changed the game"
    # and the end of the game then gives exactly that
    rules.run(state, "d33 33@0,1r0 -")
    assert state.is_over and state.scores == seen["scores"]


def create(c: TestClient, setup: dict[str, Any]) -> Any:
    r = c.post("/api/games", json=setup)
    assert r.status_code == 201, r.text
    return r.json()


def test_views_carry_the_projection_unless_the_rules_of_the_game_leave_it_out() -> None:
    """Unrated games project by default (a creator may leave it out for everyone); a game over
    projects nothing (its final scoring is in ``final``); a malformed setting is refused."""
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as c:
        made = create(c, {"seats": [{"kind": "human"}] * 2})
        view = c.get(f"/api/games/{made['id']}").json()
        assert view["projection"] == {"rows": [], "scores": [0, 0]}   # nothing on the board yet
        hidden = create(c, {"seats": [{"kind": "human"}] * 2, "projections": False})
        assert c.get(f"/api/games/{hidden['id']}").json()["projection"] is None
        r = c.post("/api/games", json={"seats": [{"kind": "human"}] * 2, "projections": "yes"})
        assert r.status_code == 400 and r.json()["code"] == "bad_setup"


@pytest.mark.parametrize(("edition", "players", "seed"),
                         [("2020", 2, 1), ("2020", 3, 0), ("2020", 5, 0), ("2002", 2, 2)])
def test_a_projection_made_from_the_last_ones_rows_is_the_whole_one_at_every_move(
        edition: str, players: int, seed: int) -> None:
    """What a room does (:class:`Projected`: each projection made from the rows of the one
    before, only the changed features' rows made again) gives at every move of a random game
    exactly the projection made whole, and the one the engine's final scoring gives: a row kept
    after the feature it scores changed (a tile joined, a piece put on or taken off, animals
    taken by a hunting trap) would differ.  The games hold a pit trap (2020, 2 players), animals
    a hunting trap took (3 players) and a wild fire (2002) in projected meadows."""
    game = Game(players, edition=edition, seed=seed)
    moves = random.Random(f"moves-{seed}")
    state, memory = game.state, Projected()
    kept = shown = 0   # rows taken again from the memory, rows shown
    seen: set[str] = set()
    while True:
        game.play(state.random_move(moves), trusted=True)
        if state.is_over:
            break
        before = {id(entry[2]) for entry in memory.rows.values()}
        view = projection_view(state, memory)
        assert view == projection_view(state), len(game.history)
        rows = state.final_rows()
        assert [(r["kind"], r["points"], r["explanation"], r["tiles"]) for r in view["rows"]] == \
            [(r.kind, list(r.points), str(r.explanation), list(r.tiles)) for r in rows]
        assert view["scores"] == [s + sum(r.points[i] for r in rows) for i, s in enumerate(state.scores)]
        assert set(memory.rows) == set(state.final_ids())   # only this version's rows are kept
        kept += sum(id(row) in before for row in view["rows"])
        shown += len(view["rows"])
        seen |= {"removed"} if state.removed_animals else set()
        seen |= {s for fid in state.final_ids() for s in state.board.feature_by_id(fid).specials}
    assert kept > 0.8 * shown, (kept, shown)   # the memory is used: most rows are kept
    assert seen == {(2, "2020"): {"pit_trap"}, (3, "2020"): {"removed"}, (5, "2020"): set(),
                    (2, "2002"): {"wild_fire"}}[players, edition]


def test_a_kept_row_is_made_again_when_a_hunting_trap_took_animals_of_its_meadow(rules: Any) -> None:
    """The same meadow (the very feature object: a state's copy shares them) with animals taken
    away since the last projection: its row is made again, not kept (the rulebook's grasslands,
    whose largest meadow, G4, loses one animal zone)."""
    state = rules.position(GRASSLANDS, players=5)
    memory = Projected()
    first = projection_view(state, memory)
    later = state.copy()
    meadow = later.board.feature_id(90, 0)   # G4 (Red's hunter stands on 90.0)
    tile, zone = next((t, z) for t, z in later.board.marked_zones(meadow) if z.animals)
    later.special_memory["hunting_trap"] = frozenset({ZoneRef(tile, zone.id)})
    assert later.board.feature_by_id(meadow) is state.board.feature_by_id(meadow)
    seen = projection_view(later, memory)
    assert seen == projection_view(later) != first
    assert seen["scores"][1] < first["scores"][1]   # Red's G4 is worth less
