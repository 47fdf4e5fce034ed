"""The live projection: what final scoring would give if the game ended now, in every view.

The numbers are the rulebook's (003, "Grassland Scoring example", derived by hand in
tests/test_rulebook_2020.py): the projection of the position before its last tile is what the
end of the game then gives.
"""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient
from test_rulebook_2020 import GRASSLANDS

from huntgather.server import create_app
from huntgather.server.protocol import projection_view


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
