"""The load benchmark (``tools/loadtest.py``): a short run against a real server process, its
argument checks, and its doctests.

No timing thresholds here: how fast the server is belongs in docs/performance.md, not in tests.
"""

from __future__ import annotations

import asyncio
import doctest
import gc
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("websockets")
pytest.importorskip("uvicorn")

TOOL = Path(__file__).resolve().parents[1] / "tools" / "loadtest.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("loadtest", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


loadtest = _tool()


def test_doctests() -> None:
    failed, tried = doctest.testmod(loadtest)
    assert tried > 0 and failed == 0


def test_the_clients_do_not_collect_between_the_window_and_the_pages_closing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # closing every page at once at the end made a collection of the whole run's pages (1.4-1.8 s
    # at 1,000 games) that held up the acks of the window's last turns
    seen: list[bool] = []

    async def slot(client: object, _slot: int) -> None:   # a game that goes on past the window
        seen.append(gc.isenabled())
        await asyncio.sleep(max(client.end - client.now(), 0.0) + 0.05)   # type: ignore[attr-defined]
        seen.append(gc.isenabled())

    monkeypatch.setattr(loadtest.Client, "run_slot", slot)
    plan = loadtest.Plan(urls=("http://127.0.0.1:9",), games=1, rate=1.0, seconds=0.1, warmup=0.0,
                         short=None, edition="2020", timeout=1.0, seed=0, spread=False, start=time.time())
    assert gc.isenabled()
    asyncio.run(loadtest.run_clients(plan, 0, [0], lambda: False))
    assert seen == [True, False]   # collecting in the window, not after it
    assert gc.isenabled()          # and again once the slots are done


def test_short_run_reports_clean_figures() -> None:
    done = subprocess.run([sys.executable, str(TOOL), "--games", "4", "--seconds", "3",
                           "--warmup", "1", "--short", "3", "--rate", "2", "--json"],
                          capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 4 and report["processes"] == 1 and report["clean"] is True
    assert report["turns_acknowledged"] > 0 and report["moves_per_s"] > 0
    assert report["errors"] == {} and report["error_count"] == 0
    assert report["updates_missed"] == 0 and report["updates_expected"] >= report["turns_acknowledged"]
    # three tiles a game: games end and are replaced by new ones during the run
    assert report["games_finished"] > 0 and report["games_started"] > report["games"]
    ack = report["ack_latency_ms"]
    assert 0 <= ack["p50"] <= ack["p95"] <= ack["p99"] <= ack["max"]
    upd = report["update_latency_ms"]
    assert 0 <= upd["p50"] <= upd["p95"] <= upd["p99"] <= upd["max"]
    (server,) = report["server_processes"]
    assert server["exit_code"] is None and server["url"].startswith("http://127.0.0.1:")
    assert report["server_cpu_percent"] is not None and report["server_peak_rss_mb"] > 0


@pytest.mark.parametrize("argv", [
    ["--games", "0"],
    ["--rate", "0"],
    ["--seconds", "-1"],
    ["--short", "-2"],
    ["--processes", "0"],
    ["--client-workers", "5", "--games", "4"],
    ["--url", "http://127.0.0.1:1", "--processes", "2"],
    ["--url", "ftp://127.0.0.1:1"],
])
def test_bad_arguments_exit_2_before_starting_anything(argv: list[str],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert loadtest.main(argv) == 2
    assert "loadtest: error:" in capsys.readouterr().err


def test_unreachable_url_is_reported_as_errors(capsys: pytest.CaptureFixture[str]) -> None:
    # nothing listens on port 1 of loopback: every game fails to start, and the run still ends by itself
    code = loadtest.main(["--url", "http://127.0.0.1:1", "--games", "2", "--seconds", "1", "--warmup", "0",
                 "--timeout", "2", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["clean"] is False
    assert report["errors"].get("connect_failed", 0) > 0 and report["turns_acknowledged"] == 0
