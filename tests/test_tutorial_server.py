"""The guided first game on the server: a setup that starts the script, the coach's opponent
playing the script's moves, the coach's check of each learner step (a wrong move refused with
``tutorial_move`` and the key of the coach's words), and the page's script and texts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import device, make_app, recv

from huntgather.moves import Occupy, Pass, Place, parse_move
from huntgather.server import create_app
from huntgather.tutorial import EDITIONS, Check, Step, coach_texts, load_script, step_at


def as_json(word: str) -> dict[str, Any]:
    """The structured move a page sends for a scripted move's text."""
    move = parse_move(word)
    if isinstance(move, Place):
        return {"kind": "place", "x": move.x, "y": move.y, "rotation": move.rotation}
    if isinstance(move, Occupy):
        return {"kind": "occupy", "zone": move.zone, "piece": str(move.piece)}
    assert isinstance(move, Pass), word
    return {"kind": "pass"}


def learn(ws: Any, view: dict[str, Any], choose: Any) -> dict[str, Any]:
    """Play the learner's seat to the end, ``choose(step, view)`` giving each of its moves (one
    move a ``turn``); the bot's updates followed.  The last view."""
    script = load_script(view["tutorial"])
    request, msg = 0, {"version": view["version"]}
    while not view["over"]:
        if view["decision"]["player"] == 0:
            at = step_at(script, view["version"])
            assert at is not None and script.steps[at].player == 0
            request += 1
            ws.send_json({"type": "turn", "request": request, "seat": 0, "version": view["version"],
                          "moves": [choose(script.steps[at], view)]})
            while (msg := recv(ws, "update", "ack", skip=("table",)))["type"] != "ack":
                view = {**view, **{k: msg[k] for k in ("version", "decision", "legal", "over", "players")}}
            assert msg["request"] == request
        while view["version"] < msg["version"] or (not view["over"] and view["decision"]["player"] != 0):
            msg = recv(ws, "update", skip=("table",))
            view = {**view, **{k: msg[k] for k in ("version", "decision", "legal", "over", "players")}}
    return view


def opened(ws: Any, secret: str) -> dict[str, Any]:
    ws.send_json({"type": "hello", "secrets": [secret], "version": None})
    recv(ws, "welcome", skip=("table",))
    view: dict[str, Any] = recv(ws, "snapshot", skip=("table",))
    return view


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_guided_game_follows_its_script_to_its_final_scores(edition: str) -> None:
    script = load_script(edition)
    with device(make_app()) as c:
        r = c.post("/api/games", json={"tutorial": edition})
        assert r.status_code == 201, r.text
        made = r.json()
        assert set(made["seats"]) == {"0"}   # the learner's seat; red is the coach's opponent
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            view = opened(ws, made["seats"]["0"])
            assert view["tutorial"] == edition and view["edition"] == edition and not view["rated"]
            view = learn(ws, view, lambda step, _: as_json(step.moves[-1]))
        assert [p["score"] for p in view["players"]] == list(script.steps[-1].scores)
        stored = c.get(f"/api/games/{made['id']}").json()
        assert stored["over"] and stored["version"] == sum(len(s.moves) for s in script.steps)


def test_a_wrong_move_is_refused_with_the_coachs_words_and_changes_nothing() -> None:
    script = load_script("2002")
    first, piece = script.steps[0], script.steps[1]   # 15@0,-1r3, then m15.2
    assert first.check is Check.EXACT and piece.check is Check.EXACT
    with device(make_app()) as c:
        made = c.post("/api/games", json={"tutorial": "2002"}).json()
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            view = opened(ws, made["seats"]["0"])
            right = as_json(first.moves[-1])
            legal = [m for m in view["legal"] if m["kind"] == "place"]
            turned = next(m for m in legal if (m["x"], m["y"]) == (right["x"], right["y"])
                          and m["rotation"] != right["rotation"])
            elsewhere = next(m for m in legal if (m["x"], m["y"]) != (right["x"], right["y"]))
            for wrong, key in [(turned, "retry.rotation"), (elsewhere, "retry.square")]:
                ws.send_json({"type": "preview", "request": 1, "seat": 0, "version": view["version"],
                              "moves": [wrong]})
                refused = recv(ws, "error")
                assert (refused["code"], refused["explain"], refused["request"]) == ("tutorial_move", key, 1)
                assert key in coach_texts()
            # the right tile, a wrong piece: the whole turn is refused, nothing is stored
            for wrong_piece, key in [({"kind": "pass"}, "retry.no_piece"),
                                     ({"kind": "occupy", "zone": 2, "piece": "hut"}, "retry.piece")]:
                ws.send_json({"type": "turn", "request": 2, "seat": 0, "version": view["version"],
                              "moves": [right, wrong_piece]})
                refused = recv(ws, "error")
                assert (refused["code"], refused["explain"]) == ("tutorial_move", key)
            assert c.get(f"/api/games/{made['id']}").json()["version"] == view["version"]
            ws.send_json({"type": "preview", "request": 3, "seat": 0, "version": view["version"],
                          "moves": [right]})
            assert recv(ws, "preview")["request"] == 3
            # no turn is taken back in a guided game (the coach lets you try again instead)
            ws.send_json({"type": "undo", "request": 4, "seat": 0, "version": view["version"]})
            assert recv(ws, "error")["code"] == "no_undo"


def test_a_free_step_takes_any_legal_move_and_the_script_goes_on() -> None:
    script = load_script("2002")
    free = next(s for s in script.steps if s.check is Check.FREE)
    assert free.moves[-1] != "-"

    def choose(step: Step, view: dict[str, Any]) -> dict[str, Any]:
        if step is free:   # no piece, where the script puts a fisher: fine at a free step
            return {"kind": "pass"}
        return as_json(step.moves[-1])

    with device(make_app()) as c:
        made = c.post("/api/games", json={"tutorial": "2002"}).json()
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            view = learn(ws, opened(ws, made["seats"]["0"]), choose)
        # the fisher would have scored nothing anyway: the script's final scores
        assert [p["score"] for p in view["players"]] == list(script.steps[-1].scores)


def test_a_guided_setup_is_checked_and_the_script_is_served() -> None:
    with device(make_app()) as c:
        for bad in [{"tutorial": "1999"}, {"tutorial": "2002", "edition": "2020"},
                    {"tutorial": "2020", "seed": 4},
                    {"tutorial": "2020", "seats": [{"kind": "human"}, {"kind": "human"}]},
                    {"tutorial": "2020", "clock": {"base": 60}}, {"tutorial": "2020", "start_player": 1}]:
            r = c.post("/api/games", json=bad)
            assert (r.status_code, r.json()["code"]) == (400, "bad_setup"), bad
        r = c.get("/api/tutorial/2002?lang=cs")
        assert r.status_code == 200
        data = r.json()
        script = load_script("2002")
        assert [s["key"] for s in data["steps"]] == [s.key for s in script.steps]
        assert data["steps"][0] == {"key": "2002.01", "player": 0, "check": "exact",
                                    "move": script.steps[0].moves[-1], "moves": 2, "scores": [0, 0]}
        assert data["lang"] == "cs"
        assert data["coach"]["2002.06"].startswith("Postavte na les sběrače.")
        assert "zlatý nuget" in data["coach"]["2002.06"] and "bonusovou kartičkou" in data["coach"]["2002.06"]
        retries = {k for k in coach_texts() if k.startswith("retry.")}
        assert set(data["coach"]) == {s.key for s in script.steps} | retries
        german = c.get("/api/tutorial/2020?lang=de").json()
        assert german["lang"] == "de"
        assert "Menhirplättchen" in german["coach"]["2020.06"] and "6 Punkte" in german["coach"]["2020.06"]
        square = german["coach"]["retry.square"]
        assert square == coach_texts("de")["retry.square"] != coach_texts()["retry.square"]
        for unknown in ("fr", "cs-CZ", "", "<x>"):   # a language the coach does not speak: English
            other = c.get("/api/tutorial/2020", params={"lang": unknown}).json()
            assert other["lang"] == "en" and other["coach"] == {
                k: v for k, v in coach_texts().items() if k.startswith(("2020.", "retry."))}
        assert c.get("/api/tutorial/1999").status_code == 404


def test_a_guided_game_goes_on_after_a_restart(tmp_path: Path) -> None:
    script = load_script("2020")
    db = str(tmp_path / "games.sqlite")
    with device(create_app(db, bot_delay=0.0, worker_processes=False)) as c:
        made = c.post("/api/games", json={"tutorial": "2020"}).json()
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            view = opened(ws, made["seats"]["0"])
            ws.send_json({"type": "turn", "request": 1, "seat": 0, "version": view["version"],
                          "moves": [as_json(script.steps[0].moves[-1]), as_json(script.steps[1].moves[-1])]})
            assert recv(ws, "ack", skip=("table", "update"))["request"] == 1
    # another process, from storage: the script and its check
    with device(create_app(db, bot_delay=0.0, worker_processes=False)) as c:
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            view = opened(ws, made["seats"]["0"])
            assert view["tutorial"] == "2020" and view["version"] >= 3
            view = learn(ws, view, lambda step, _: as_json(step.moves[-1]))
        assert [p["score"] for p in view["players"]] == list(script.steps[-1].scores)
