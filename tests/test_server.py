"""The web server: HTTP API, websocket intents and their error paths, storage and resuming.

The server is driven through Starlette's test client (no real network); the
real-process restart is in ``test_web_ui.py``.  Expected values come from the
engine run independently (a :class:`Game` with the same seed), never from the
server's own answers.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

with warnings.catch_warnings():   # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from huntgather import Game, parse_move
from huntgather.cli import main as cli_main
from huntgather.server import create_app
from huntgather.server.rooms import GameSetup, build_game, restore_game
from huntgather.server.storage import Storage, StorageError

HUMANS = {"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 11, "short": 6}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://", bot_delay=0.0)) as c:
        yield c


def new_game(client: TestClient, setup: dict[str, Any] = HUMANS) -> str:
    r = client.post("/api/games", json=setup)
    assert r.status_code == 201, r.text
    game_id: str = r.json()["id"]
    return game_id


def first_turn(view: dict[str, Any]) -> list[str]:
    """A complete first turn for the player to move: the first legal placement, then no piece."""
    return [view["legal"][0], "-"]


# --------------------------------------------------------------------------- HTTP


def test_new_game_matches_the_engine_with_the_same_seed(client: TestClient) -> None:
    setup = {"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}], "seed": 42,
             "start_player": 2}
    gid = new_game(client, setup)
    view = client.get(f"/api/games/{gid}").json()
    reference = Game(3, seed=42, start_player=2)
    assert view["decision"]["player"] == 2
    assert view["decision"]["tile"] == reference.decision.tile
    assert sorted(view["legal"]) == sorted(str(m) for m in reference.legal_moves())
    assert view["history"] == [str(m) for m in reference.history]
    assert [p["meeples"] for p in view["players"]] == [5, 5, 5]   # 2020: 5 meeples each
    assert [p["huts"] for p in view["players"]] == [3, 3, 3]      # 2020: 3 huts each
    listed = client.get("/api/games").json()["games"]
    assert [(g["id"], g["status"]) for g in listed] == [(gid, "playing")]


def test_2002_edition_has_its_own_pieces(client: TestClient) -> None:
    gid = new_game(client, {"edition": "2002", "seats": [{"kind": "human"}] * 2, "seed": 1})
    view = client.get(f"/api/games/{gid}").json()
    assert view["edition"] == "2002"
    assert [p["huts"] for p in view["players"]] == [2, 2]   # 2002: 2 huts each
    assert view["board"] == [{"x": 0, "y": 0, "tile": 1, "rotation": 0}]   # 2002 start tile is 1


def test_short_game_has_a_stack_of_that_many_tiles(client: TestClient) -> None:
    gid = new_game(client, {**HUMANS, "short": 4})
    view = client.get(f"/api/games/{gid}").json()
    # 4 tiles in the stack, one of them already drawn for the first player
    assert len(view["remaining"]) == 3
    assert view["menhirs"] == 16   # the bonus stack is untouched (16 menhir tiles in 2020)


@pytest.mark.parametrize(("setup", "words"), [
    ({"edition": "1999"}, "edition"),
    ({"seats": [{"kind": "human"}]}, "seats"),
    ({"seats": [{"kind": "human"}] * 6}, "seats"),
    ({"seats": [{"kind": "alien"}, {"kind": "human"}]}, "seat 0"),
    ({"seats": [{"kind": "bot", "level": "godlike"}, {"kind": "human"}]}, "bot level"),
    ({"start_player": 2}, "start_player"),
    ({"seed": -1}, "seed"),
    ({"seed": "abc"}, "seed"),
    ({"short": 0}, "short"),
    ({"short": 79}, "short"),   # the 2020 normal stack has 78 tiles
    ({"colour": "pink"}, "unknown setup field"),
    ([1, 2], "JSON object"),
])
def test_bad_setups_are_refused_and_create_nothing(client: TestClient, setup: Any, words: str) -> None:
    r = client.post("/api/games", json=setup)
    assert r.status_code == 400
    assert r.json()["code"] == "bad_setup"
    assert words in r.json()["message"]
    assert client.get("/api/games").json()["games"] == []


def test_malformed_json_body(client: TestClient) -> None:
    r = client.post("/api/games", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "bad_json"
    assert client.get("/api/games").json()["games"] == []


def test_unknown_game_over_http_and_websocket(client: TestClient) -> None:
    r = client.get("/api/games/doesnotexist")
    assert r.status_code == 404 and r.json()["code"] == "unknown_game"
    assert client.get("/api/games/doesnotexist/at/0").status_code == 404
    with client.websocket_connect("/ws/doesnotexist") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "unknown_game"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_tile_pictures_cover_every_tile_in_four_rotations(client: TestClient) -> None:
    data = client.get("/api/tiles/2020").json()
    assert len(data["tiles"]) == 95   # 1 start + 78 normal + 16 menhir tiles
    for tile in data["tiles"].values():
        assert len(tile["svg"]) == 4 and len(tile["anchors"]) == 4
        assert set(tile["anchors"][0]) == set(tile["zones"])
    assert client.get("/api/tiles/1999").status_code == 404


# --------------------------------------------------------------------------- websocket errors


def test_every_bad_message_gets_an_error_and_changes_nothing(client: TestClient) -> None:
    gid = new_game(client)
    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = ws.receive_json()
        ply, history = view["ply"], view["history"]
        occupied = f"{view['decision']['tile']}@0,0r0"   # the start tile lies at (0,0)
        bad: list[tuple[Any, str]] = [
            ("{not json", "bad_json"),
            ("[1, 2]", "bad_request"),
            ({"type": "dance"}, "bad_request"),
            ({"type": "turn", "seat": 0, "ply": ply, "moves": "12@0,1r0"}, "bad_request"),
            ({"type": "turn", "seat": 0, "ply": ply, "moves": []}, "bad_request"),
            ({"type": "turn", "seat": 0, "ply": ply, "moves": ["place it somewhere"]}, "invalid_move"),
            ({"type": "turn", "seat": 0, "ply": ply, "moves": [occupied]}, "illegal_move"),
            ({"type": "turn", "seat": 0, "ply": ply, "moves": ["d3"]}, "illegal_move"),
            ({"type": "turn", "seat": 1, "ply": ply, "moves": first_turn(view)}, "not_your_turn"),
            ({"type": "turn", "seat": 0, "ply": ply - 1, "moves": first_turn(view)}, "stale"),
            ({"type": "turn", "seat": 0, "ply": ply, "moves": [*first_turn(view), view["legal"][1]]},
             "illegal_move"),   # a second placement after the turn is over
            ({"type": "preview", "seat": 0, "ply": ply, "moves": [occupied]}, "illegal_move"),
        ]
        for message, code in bad:
            if isinstance(message, str):
                ws.send_text(message)
            else:
                ws.send_json(message)
            answer = ws.receive_json()
            assert answer["type"] == "error", message
            assert answer["code"] == code, (message, answer)
            assert answer["message"]
        ws.send_json({"type": "sync"})
        after = ws.receive_json()
        assert after["ply"] == ply and after["history"] == history
    assert client.get(f"/api/games/{gid}").json()["history"] == history


def test_a_bot_seat_cannot_be_played_by_a_client() -> None:
    setup = {"seats": [{"kind": "bot", "level": "random"}, {"kind": "human"}], "seed": 3,
             "start_player": 0, "short": 6}
    app = create_app("sqlite://", bot_delay=30.0)   # the bot waits, so its turn stays open
    with TestClient(app) as slow:
        gid = new_game(slow, setup)
        with slow.websocket_connect(f"/ws/{gid}") as ws:
            view = ws.receive_json()
            assert view["decision"]["player"] == 0
            ws.send_json({"type": "turn", "ply": view["ply"], "moves": first_turn(view)})
            answer = ws.receive_json()
            assert answer["code"] == "not_your_turn" and "bot" in answer["message"]


def test_preview_shows_occupant_choices_and_stores_nothing(client: TestClient) -> None:
    gid = new_game(client)
    app = client.app
    storage: Storage = app.state.storage  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = ws.receive_json()
        place = view["legal"][0]
        ws.send_json({"type": "preview", "request": 7, "seat": 0, "ply": view["ply"], "moves": [place]})
        preview = ws.receive_json()
        assert preview["type"] == "preview" and preview["request"] == 7
        reference = Game(2, seed=11, state=build_game(GameSetup.from_json(HUMANS)).state)
        reference.play(place)
        assert sorted(preview["legal"]) == sorted(str(m) for m in reference.legal_moves())
        assert preview["turn_over"] is (reference.decision.phase not in ("shaman", "occupy"))
    assert storage.load(gid) == (HUMANS | {"edition": "2020", "start_player": 0},
                                 view["history"])
    assert client.get(f"/api/games/{gid}").json()["ply"] == view["ply"]


# --------------------------------------------------------------------------- playing and storing


def play_to_the_end(ws: Any, view: dict[str, Any]) -> dict[str, Any]:
    """Hotseat: every turn places the first legal tile position and takes the first piece offered."""
    while not view["over"]:
        seat = view["decision"]["player"]
        place = view["legal"][0]
        ws.send_json({"type": "preview", "seat": seat, "ply": view["ply"], "moves": [place]})
        preview = ws.receive_json()
        moves = [place]
        if not preview["turn_over"]:
            moves.append(preview["legal"][0])
            if preview["decision"]["phase"] == "shaman":
                moves.append("-")
        ws.send_json({"type": "turn", "seat": seat, "ply": view["ply"], "moves": moves})
        view = ws.receive_json()
        assert view["type"] == "state", view
    return view


def test_a_hotseat_game_is_stored_move_by_move_and_replays_exactly(client: TestClient) -> None:
    gid = new_game(client)
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        final = play_to_the_end(ws, ws.receive_json())
    setup, history = storage.load(gid)  # type: ignore[misc]
    assert history == final["history"]
    # the engine, replaying the stored moves from the stored setup, reaches the same scores
    again = restore_game(GameSetup.from_json(setup), history)
    assert list(again.scores) == [p["score"] for p in final["players"]] == final["final"]["scores"]
    assert again.is_over
    assert client.get("/api/games").json()["games"][0]["status"] == "over"
    # the final table's rows add up to the final scores minus what was scored during play
    during = [0, 0]
    for entry in final["log"]:
        if entry["kind"] == "FeatureScored":
            during = [a + b for a, b in zip(during, entry["points"], strict=True)]
    rows = final["final"]["rows"]
    totals = [during[i] + sum(r["points"][i] for r in rows) for i in range(2)]
    assert totals == final["final"]["scores"]
    # and the game is over for everyone
    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = ws.receive_json()
        ws.send_json({"type": "turn", "seat": 0, "ply": view["ply"], "moves": ["-"]})
        assert ws.receive_json()["code"] == "game_over"


def test_replay_positions(client: TestClient) -> None:
    gid = new_game(client)
    with client.websocket_connect(f"/ws/{gid}") as ws:
        final = play_to_the_end(ws, ws.receive_json())
    start = client.get(f"/api/games/{gid}/at/0").json()
    assert len(start["board"]) == 1 and start["total_ply"] == len(final["history"])
    end = client.get(f"/api/games/{gid}/at/{len(final['history'])}").json()
    assert sorted(map(str, end["board"])) == sorted(map(str, final["board"]))
    # after the first draw and the first placement, two tiles lie on the board
    assert len(client.get(f"/api/games/{gid}/at/2").json()["board"]) == 2
    for bad in ("-1", str(len(final["history"]) + 1)):
        assert client.get(f"/api/games/{gid}/at/{bad}").status_code == 400
    assert client.get(f"/api/games/{gid}/at/two").json()["code"] == "bad_request"


DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not os.environ.get("HUNTGATHER_TEST_POSTGRES"),
    reason="set HUNTGATHER_TEST_POSTGRES to a postgresql:// URL to test PostgreSQL"))]


@pytest.mark.parametrize("kind", DATABASES)
def test_resume_after_restart_continues_with_the_same_draws(tmp_path: Path, kind: str) -> None:
    db = str(tmp_path / "games.sqlite") if kind == "sqlite" else os.environ["HUNTGATHER_TEST_POSTGRES"]
    with TestClient(create_app(db, bot_delay=0.0)) as c1:
        gid = new_game(c1, {**HUMANS, "short": 10})
        with c1.websocket_connect(f"/ws/{gid}") as ws:
            view = ws.receive_json()
            for _ in range(3):
                seat = view["decision"]["player"]
                ws.send_json({"type": "turn", "seat": seat, "ply": view["ply"], "moves": first_turn(view)})
                view = ws.receive_json()
    before = view
    with TestClient(create_app(db, bot_delay=0.0)) as c2:
        resumed = c2.get(f"/api/games/{gid}").json()
        for key in ("history", "board", "occupants", "players", "decision", "legal", "remaining"):
            assert resumed[key] == before[key], key
        # the same moves on a game that never stopped bring the same next draws
        reference = build_game(GameSetup.from_json({**HUMANS, "short": 10}))
        for text in before["history"][len(reference.history):]:
            if not text.startswith("d"):
                reference.play(parse_move(text))
        with c2.websocket_connect(f"/ws/{gid}") as ws:
            view = ws.receive_json()
            ws.send_json({"type": "turn", "seat": view["decision"]["player"], "ply": view["ply"],
                          "moves": first_turn(view)})
            view = ws.receive_json()
        reference.play(parse_move(first_turn(before)[0]))
        reference.play(parse_move("-"))
        assert view["history"] == [str(m) for m in reference.history]


def test_storage_refuses_a_conflicting_append() -> None:
    st = Storage("sqlite://")
    st.create("g", {"edition": "2020"}, ["d1"])
    st.append("g", 1, ["1@0,1r0"], status="playing", scores=[0, 0])
    with pytest.raises(StorageError, match="2 stored moves, not 1"):
        st.append("g", 1, ["-"], status="playing", scores=[0, 0])
    with pytest.raises(StorageError, match="no stored game"):
        st.append("nope", 0, ["-"], status="playing", scores=[0, 0])
    assert st.load("g") == ({"edition": "2020"}, ["d1", "1@0,1r0"])


def test_restore_refuses_a_record_whose_draws_differ() -> None:
    setup = GameSetup.from_json(HUMANS)
    game = build_game(setup)
    wrong = next(t for t in (*game.state.normal, game.decision.tile) if t != game.decision.tile)
    with pytest.raises(ValueError, match="differs from the replay"):
        restore_game(setup, [f"d{wrong}"])


# --------------------------------------------------------------------------- bots


def wait_for(client: TestClient, gid: str, done: Any, limit: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while True:
        view: dict[str, Any] = client.get(f"/api/games/{gid}").json()
        if done(view) or time.monotonic() > deadline:
            return view
        time.sleep(0.02)


def test_bots_play_a_whole_game_by_themselves(client: TestClient) -> None:
    seats = [{"kind": "bot", "level": level} for level in ("random", "easy", "greedy")]
    gid = new_game(client, {"seats": seats, "seed": 5, "short": 8})
    view = wait_for(client, gid, lambda v: v["over"])
    assert view["over"], "the bots did not finish the game"
    again = restore_game(GameSetup.from_json(view["setup"]), view["history"])
    assert list(again.scores) == view["final"]["scores"]


def test_a_bot_answers_a_persons_turn(client: TestClient) -> None:
    setup = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}], "seed": 8, "short": 6}
    gid = new_game(client, setup)
    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = ws.receive_json()
        ws.send_json({"type": "turn", "seat": 0, "ply": view["ply"], "moves": first_turn(view)})
        # updates arrive until it is the person's turn again (or the game ends)
        while True:
            view = ws.receive_json()
            if view["over"] or view["decision"]["player"] == 0:
                break
    placed_by = [e["player"] for e in view["log"] if e["kind"] == "TilePlaced"]
    assert placed_by[:2] == [0, 1]


# --------------------------------------------------------------------------- command line


def test_play_command_reports_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["play", "--port", "70000", "--no-browser"]) == 2
    assert "--port" in capsys.readouterr().err


def test_play_command_reports_an_unusable_database(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["play", "--db", "nosuchdriver://x/y", "--no-browser"]) == 1
    assert "cannot open the database" in capsys.readouterr().err


def test_a_move_that_cannot_be_stored_does_not_count(client: TestClient,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    gid = new_game(client)
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]

    def broken(*args: Any, **kwargs: Any) -> None:
        raise StorageError("disk full")

    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = ws.receive_json()
        monkeypatch.setattr(storage, "append", broken)
        ws.send_json({"type": "turn", "seat": 0, "ply": view["ply"], "moves": first_turn(view)})
        answer = ws.receive_json()
        assert answer["code"] == "storage_failed" and "disk full" in answer["message"]
        monkeypatch.undo()
        ws.send_json({"type": "sync"})
        assert ws.receive_json()["history"] == view["history"]
        # once the database works again, the same turn is accepted
        ws.send_json({"type": "turn", "seat": 0, "ply": view["ply"], "moves": first_turn(view)})
        assert ws.receive_json()["ply"] > view["ply"]


# --------------------------------------------------------------------------- hints


def test_describe_turn_in_words() -> None:
    from huntgather import Occupy, Pass, Place
    from huntgather.server.rooms import describe_turn
    game = Game(2, seed=0, normal_order=[44])   # tile 44: forest (1 menhir) · forest · meadow (deer)
    state = game.state
    assert describe_turn(state, [Place(44, 1, 0, 2), Occupy(44, 0, "meeple")]) == \
        "tile 44 at (1, 0), turned 180°; gatherer on the forest (1 menhir)"
    assert describe_turn(state, [Place(44, 0, -1, 0), Occupy(44, 2, "meeple")]) == \
        "tile 44 at (0, -1); hunter on the meadow (deer)"
    assert describe_turn(state, [Place(44, 0, 1, 1), Pass()]) == "tile 44 at (0, 1), turned 90°; no piece"
    assert game.history == [parse_move("d44")]   # describing changed nothing


def complete_turn(reference: Game, moves: list[str]) -> None:
    """Play ``moves`` on the engine and check that they make exactly the rest of one turn."""
    player = reference.decision.player
    for i, text in enumerate(moves):
        assert not reference.is_over and reference.decision.player == player, (moves, i)
        reference.play(parse_move(text))   # raises if illegal
    assert reference.is_over or reference.decision.player != player or \
        reference.decision.stack == "bonus", moves


def test_hints_are_whole_legal_turns_and_store_nothing(client: TestClient) -> None:
    gid = new_game(client)
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = ws.receive_json()
        ws.send_json({"type": "hint", "request": 3, "seat": 0, "ply": view["ply"]})
        hint = ws.receive_json()
        assert hint["type"] == "hint" and hint["request"] == 3 and hint["ply"] == view["ply"]
        assert 1 <= len(hint["turns"]) <= 3
        firsts = [t["moves"][0] for t in hint["turns"]]
        assert len(set(firsts)) == len(firsts) and set(firsts) <= set(view["legal"])
        for turn in hint["turns"]:
            reference = Game(2, seed=11, state=build_game(GameSetup.from_json(HUMANS)).state)
            complete_turn(reference, turn["moves"])
            place = parse_move(turn["moves"][0])
            assert turn["text"].startswith(f"tile {place.tile} at ({place.x}, {place.y})")  # type: ignore[union-attr]
            assert 0 < turn["value"] < 1 and turn["visits"] >= 0
        # mid-turn: after a placement, the hint is the rest of the turn (an occupant or none)
        place = view["legal"][0]
        ws.send_json({"type": "preview", "seat": 0, "ply": view["ply"], "moves": [place]})
        preview = ws.receive_json()
        if not preview["turn_over"]:
            ws.send_json({"type": "hint", "seat": 0, "ply": view["ply"], "moves": [place]})
            rest = ws.receive_json()
            assert rest["type"] == "hint"
            for turn in rest["turns"]:
                assert turn["moves"][0] in preview["legal"]
                reference = Game(2, seed=11, state=build_game(GameSetup.from_json(HUMANS)).state)
                reference.play(parse_move(place))
                complete_turn(reference, turn["moves"])
    assert storage.load(gid)[1] == view["history"]  # type: ignore[index]


def test_hint_errors_change_nothing(client: TestClient) -> None:
    gid = new_game(client)
    with client.websocket_connect(f"/ws/{gid}") as ws:
        view = ws.receive_json()
        ply = view["ply"]
        whole = [view["legal"][0], "-"]
        for message, code in [
            ({"type": "hint", "seat": 0, "ply": ply - 1}, "stale"),
            ({"type": "hint", "seat": 1, "ply": ply}, "not_your_turn"),
            ({"type": "hint", "seat": 0, "ply": ply, "moves": "x"}, "bad_request"),
            ({"type": "hint", "seat": 0, "ply": ply, "moves": whole}, "bad_request"),  # nothing left
            ({"type": "hint", "seat": 0, "ply": ply, "moves": ["1@0,0r0"]}, "illegal_move"),
        ]:
            ws.send_json(message)
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["code"] == code, (message, answer)
        ws.send_json({"type": "sync"})
        assert ws.receive_json()["history"] == view["history"]


def test_no_hints_for_a_bots_turn() -> None:
    setup = {"seats": [{"kind": "bot", "level": "random"}, {"kind": "human"}], "seed": 3,
             "start_player": 0, "short": 6}
    with TestClient(create_app("sqlite://", bot_delay=30.0)) as slow:
        gid = new_game(slow, setup)
        with slow.websocket_connect(f"/ws/{gid}") as ws:
            view = ws.receive_json()
            ws.send_json({"type": "hint", "ply": view["ply"]})
            answer = ws.receive_json()
            assert answer["code"] == "not_your_turn" and "bot" in answer["message"]


# --------------------------------------------------------------------------- deleting and memory


def test_deleting_a_game(client: TestClient) -> None:
    keep, gone = new_game(client), new_game(client)
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{gone}") as ws:
        ws.receive_json()
        assert client.delete(f"/api/games/{gone}").status_code == 204
        told = ws.receive_json()
        assert told["type"] == "error" and told["code"] == "deleted"
    assert storage.load(gone) is None
    assert client.get(f"/api/games/{gone}").status_code == 404
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [keep]
    again = client.delete(f"/api/games/{gone}")
    assert again.status_code == 404 and again.json()["code"] == "unknown_game"
    assert client.delete("/api/games/no-such-game").status_code == 404
    assert storage.load(keep) is not None   # the other game is untouched


def test_idle_games_leave_memory_and_come_back_from_storage() -> None:
    with TestClient(create_app("sqlite://", bot_delay=0.0, max_rooms=2)) as c:
        rooms = c.app.state.rooms  # type: ignore[attr-defined]
        ids = [new_game(c) for _ in range(2)]
        with c.websocket_connect(f"/ws/{ids[0]}") as ws:
            view = ws.receive_json()
            ws.send_json({"type": "turn", "seat": 0, "ply": view["ply"], "moves": first_turn(view)})
            played = ws.receive_json()
            # a third and fourth game: only idle rooms are dropped, the watched one stays
            ids += [new_game(c), new_game(c)]
            assert ids[0] in rooms.live and ids[1] not in rooms.live and len(rooms.live) <= 3
        ids.append(new_game(c))
        assert len(rooms.live) == 2 and ids[0] not in rooms.live
        # the dropped game comes back from storage exactly as it was
        back = c.get(f"/api/games/{ids[0]}").json()
        assert back["history"] == played["history"] and back["ply"] == played["ply"]
