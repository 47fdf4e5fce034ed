"""The metrics a server keeps (:mod:`huntgather.server.metrics`) and the Grafana dashboard of them
in ``docs/grafana-dashboard.json``: the histogram's buckets, the exposition, and a dashboard that
asks only for metrics the server has (the real process is tested in ``tests/test_server_ops.py``)."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

from huntgather.server.metrics import ACK_BUCKETS, Tally, _Collector

pytest.importorskip("prometheus_client")

DASHBOARD = Path(__file__).resolve().parent.parent / "docs" / "grafana-dashboard.json"


def exposition(tally: Tally) -> str:
    from prometheus_client import CollectorRegistry, generate_latest

    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Collector(tally, lambda: 3, lambda: {"light": 0, "heavy": 2, "hints": 1}, lambda: 5))
    return generate_latest(registry).decode()


def test_the_exposition_holds_every_metric_with_cumulative_buckets() -> None:
    tally = Tally(moves_stored=7, hint_refusals=1, sockets_open=2)
    for seconds in (0.001, 0.004, 0.004, 0.3, 99.0):
        tally.observe_ack(seconds)
    text = exposition(tally)
    expected = [
        "huntgather_games_live 3.0", "huntgather_sockets_open 2.0", "huntgather_moves_stored_total 7.0",
        "huntgather_storage_errors_total 5.0", "huntgather_hint_refusals_total 1.0",
        "huntgather_draining 0.0", 'huntgather_bot_queue_depth{lane="heavy"} 2.0',
        'huntgather_ack_seconds_bucket{le="0.002"} 1.0', 'huntgather_ack_seconds_bucket{le="0.005"} 3.0',
        'huntgather_ack_seconds_bucket{le="0.5"} 4.0', 'huntgather_ack_seconds_bucket{le="10.0"} 4.0',
        'huntgather_ack_seconds_bucket{le="+Inf"} 5.0', "huntgather_ack_seconds_count 5.0",
    ]
    for line in expected:
        assert line in text.splitlines(), (line, text)
    assert len(tally.ack_buckets) == len(ACK_BUCKETS) + 1


def test_the_grafana_dashboard_asks_only_for_metrics_the_server_has() -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    assert dashboard["title"] and dashboard["panels"]
    served = set(re.findall(r"^(huntgather_\w+?)(?:\{| )", exposition(Tally()), re.MULTILINE))
    asked = set()
    for panel in dashboard["panels"]:
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            asked |= set(re.findall(r"huntgather_\w+", target["expr"]))
    assert asked and asked <= served, asked - served
    assert {name.removesuffix("_bucket") for name in asked} >= {
        "huntgather_games_live", "huntgather_sockets_open", "huntgather_moves_stored_total",
        "huntgather_ack_seconds", "huntgather_bot_queue_depth", "huntgather_storage_errors_total",
        "huntgather_hint_refusals_total"}


def test_a_draining_app_closes_its_pages_with_1012_and_takes_no_change() -> None:
    """:func:`huntgather.server.app.drain` in the application itself (the process and its signal
    are tested in tests/test_server_faults.py): a page is closed with 1012 ``service_restart``, a new
    socket too, an HTTP change is answered 503 ``draining``, ``/readyz`` says so, reading still works."""
    with warnings.catch_warnings():   # starlette's notice about httpx versions
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from huntgather.server import create_app
    from huntgather.server.app import drain

    app = create_app("sqlite://", bot_delay=0.0, worker_processes=False)
    with TestClient(app) as client:
        made = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "hello", "secrets": [made["creator"]], "version": None})
            assert ws.receive_json()["type"] == "welcome"
            assert client.app.state.context.tally.sockets_open == 1  # type: ignore[attr-defined]
            assert client.portal is not None
            client.portal.call(drain, app, 5.0)
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(100):
                    ws.receive_json()
            assert (closed.value.code, closed.value.reason) == (1012, "service_restart")
        late = f"/ws/{made['id']}"
        with client.websocket_connect(late) as ws, pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1012
        refused = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
        assert (refused.status_code, refused.json()["code"]) == (503, "draining")
        creator = {"Authorization": f"Bearer {made['creator']}"}
        gone = client.delete(f"/api/games/{made['id']}", headers=creator)
        assert gone.status_code == 503
        ready = client.get("/readyz")
        assert (ready.status_code, ready.json()["code"]) == (503, "draining")
        assert client.get(f"/api/games/{made['id']}").status_code == 200
        assert client.app.state.context.tally.sockets_open == 0  # type: ignore[attr-defined]
