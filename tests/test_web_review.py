"""The post-game review in the browser: ask for it in a finished game's replay, watch it come,
click a point of the win-chance graph and land on that turn's position, with the played and
the best placement on the board and the verdict in words.  Screenshots at a phone's size and a
desktop's go to ``artifacts/`` (git-ignored).  A tiny review budget: 4 simulations, 1 sample,
at the bots' own priority (``--review-nice 0``): at the default, the lowest, a review on a test
machine whose cores are all busy (CI: two test workers and the compiled suite) gets almost no
CPU and can take minutes."""

from __future__ import annotations

import json
import shutil
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from play_server import Server

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

from test_web_a11y import NAMES_JS  # noqa: E402  (after the skips: they need Playwright)
from test_web_ui import ARTIFACTS, TIMEOUT  # noqa: E402

BOTS = {"seats": [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "easy"}], "short": 6,
        "seed": 5, "unwatched": True}   # played to its end before a page opens it
#: a tiny review budget, at the bots' own priority
BUDGET = ("--review-simulations", "4", "--review-samples", "1", "--review-nice", "0")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "games.sqlite", args=BUDGET).start()
    yield srv
    srv.stop()


def finished_game(url: str) -> str:
    """A game of two bots, finished."""
    request = urllib.request.Request(f"{url}/api/games", data=json.dumps(BOTS).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        gid: str = json.load(answer)["id"]
    deadline = time.monotonic() + 60
    while True:
        with urllib.request.urlopen(f"{url}/api/games/{gid}", timeout=30) as answer:
            if json.load(answer)["over"]:
                return gid
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.05)


def test_the_review_graph_takes_the_replay_to_a_turn(server: Server, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    gid = finished_game(server.http)
    errors: list[str] = []
    for name, size in (("phone", {"width": 390, "height": 844}), ("desktop", {"width": 1366, "height": 768})):
        page = browser.new_page(viewport=size)
        page.set_default_timeout(TIMEOUT)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.http}/#/replay/{gid}/0")
        if name == "phone":
            page.locator("#review-ask").click()   # asked once; the desktop page finds it done
        # the review is the server's work in the background, not a step of the page: on a
        # loaded machine it takes longer than one
        page.wait_for_selector("#review-chart .review-point", timeout=60_000)
        points = page.locator("#review-chart .review-point")
        assert points.count() >= 4
        second = points.nth(1)
        ply = int(second.get_attribute("data-ply") or "")
        second.click()
        page.wait_for_function(f"() => location.hash === '#/replay/{gid}/{ply}'")
        page.wait_for_function(   # (a function, not an expression: the page's CSP forbids eval)
            f"() => document.querySelector('#replay-pos').textContent.startsWith('move {ply} /')")
        assert page.locator("#review-here").text_content().startswith("Turn 2: ")
        assert "current" in (second.get_attribute("class") or "")
        assert page.locator("#viewport .review-played").count() == 1
        # the best placement as a ghost tile, where it is not the played one
        with urllib.request.urlopen(f"{server.http}/api/games/{gid}/review", timeout=30) as answer:
            review = json.load(answer)["review"]
        turn = next(t for t in review["turns"] if t["ply"] == ply)
        assert page.locator("#viewport .review-best").count() == (turn["best"][0] != turn["played"][0])
        assert not page.evaluate(NAMES_JS)   # every point a named control, the graph an image with a name
        page.locator("#review").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"review-{name}.png"))
        elsewhere = [t for t in review["turns"] if t["best"][0] != t["played"][0]]
        if name == "desktop" and elsewhere:   # a turn the expert would have placed elsewhere
            page.locator(f"#review-chart .review-point[data-ply='{elsewhere[0]['ply']}']").click()
            page.wait_for_selector("#viewport .review-best")
            page.screenshot(path=str(ARTIFACTS / "review-desktop-best.png"))
        page.close()
    assert not errors, f"JavaScript errors: {errors}"
