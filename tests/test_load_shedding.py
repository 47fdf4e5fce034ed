"""Past its capacity a process refuses new games and connections (503 ``busy``) and the games in
progress play on: :mod:`huntgather.server.load`."""

from __future__ import annotations

import asyncio
import time

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse

from huntgather.server import create_app
from huntgather.server.load import LoopLag


def test_a_blocked_event_loop_is_seen_overloaded_and_then_not() -> None:
    async def run() -> tuple[bool, float, bool]:
        lag = LoopLag(shed_after=0.1)
        watching = asyncio.create_task(lag.watch())
        await asyncio.sleep(0.2)
        for _ in range(4):   # work that holds the loop: each look wakes 0.4 s late
            time.sleep(0.4)
            await asyncio.sleep(0)
        busy, worst = lag.overloaded, lag.smoothed
        for _ in range(100):   # then the loop is free again, and catches up
            if not lag.overloaded:
                break
            await asyncio.sleep(0.1)
        watching.cancel()
        return busy, worst, lag.overloaded

    busy, worst, still = asyncio.run(run())
    assert busy and worst > 0.1
    assert not still


def test_while_overloaded_new_games_and_sockets_are_refused_and_a_game_in_progress_plays_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the lag is the test's to say (LoopLag.observe below): the server's own watcher, which the test
    # above checks, is kept from looking, since a loop starved of CPU by other tests would be late
    # by itself and shed the first socket
    async def idle(self: LoopLag) -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(LoopLag, "watch", idle)
    app = create_app("sqlite://", bot_delay=0.0, shed_after=0.1)
    with TestClient(app) as client:
        made = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}],
                                               "seed": 3, "short": 6}).json()
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "hello", "secrets": [made["seats"]["0"]], "version": None})
            assert ws.receive_json()["type"] == "welcome"
            lag: LoopLag = app.state.lag
            for _ in range(10):   # as the watcher sees a loop running 0.5 s late
                lag.observe(0.5)
            assert lag.overloaded
            refused = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
            assert refused.status_code == 503 and refused.json()["code"] == "busy"
            assert refused.headers["retry-after"] == "5"
            assert "traceback" not in refused.text.lower()
            with pytest.raises(WebSocketDenialResponse) as denied, \
                    client.websocket_connect(f"/ws/{made['id']}"):
                pass
            assert denied.value.status_code == 503
            assert client.get(f"/api/games/{made['id']}").status_code == 200   # reads are served
            ws.send_json({"type": "ping"})   # the page already in plays on
            while ws.receive_json()["type"] != "pong":
                pass
            assert app.state.context.tally.shed == 2
            for _ in range(30):   # the loop has caught up
                lag.observe(0.0)
            assert not lag.overloaded
            again = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
            assert again.status_code == 201
