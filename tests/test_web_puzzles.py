"""The Puzzles screen in the browser: from the new-game page to the puzzle of the day; a puzzle
solved (the square, the rotation, the piece, Check: the explanation in scoring words) and one
failed (the runner-up: wrong, then the hints and the solution), at a phone's size and a
desktop's.  Screenshots go to ``artifacts/`` (git-ignored)."""

from __future__ import annotations

import json
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from play_server import Server

from huntgather.puzzles import shipped

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

from test_web_ui import ARTIFACTS, TIMEOUT  # noqa: E402  (after the skips: they need Playwright)

SIZES = (("phone", {"width": 390, "height": 844}), ("desktop", {"width": 1366, "height": 768}))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "games.sqlite").start()
    yield srv
    srv.stop()


def view(url: str, number: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/puzzles/2020/{number}", timeout=30) as answer:
        out: dict[str, Any] = json.load(answer)
    return out


def pick(number: int) -> int:
    """The first puzzle from ``number`` whose answer puts a piece and whose runner-up is
    another square (so that both tests click their own way)."""
    found = shipped("2020")
    for p in found[number - 1:]:
        if len(p.best) == 2 and p.best[1] != "-" and p.best[0].split("r")[0] != p.runner_up[0].split("r")[0]:
            return p.number
    raise AssertionError("no such puzzle")


def play(page: Any, puzzle: dict[str, Any], moves: list[str]) -> None:
    """Put the turn ``moves`` together on the page: the square (clicked again to turn the tile
    to the rotation wanted, in the order the page turns it) and the piece."""
    place = next(t for t in puzzle["turns"] if t["place"] == moves[0])
    rotations = [t["rotation"] for t in puzzle["turns"] if t["x"] == place["x"] and t["y"] == place["y"]]
    square = page.locator(f'#puzzle-board rect.puzzle-square[data-x="{place["x"]}"][data-y="{place["y"]}"]')
    square.dispatch_event("click")
    for _ in range(rotations.index(place["rotation"])):
        page.locator("#puzzle-turn").click()
    if len(moves) > 1:
        page.locator(f'#puzzle-pieces input[value="{moves[1]}"]').check()


def showing(page: Any, number: int) -> None:
    """Wait until the page shows puzzle ``number`` of 2020."""
    page.wait_for_function("(n) => document.querySelector('#screen-puzzles').dataset.puzzle === `2020/${n}`",
                           arg=number)


def test_a_puzzle_solved_and_one_failed(server: Server, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    solved, failed = pick(1), pick(pick(1) + 1)
    for name, size in SIZES:
        page = browser.new_page(viewport=size)
        page.set_default_timeout(TIMEOUT)
        page.on("pageerror", lambda e: errors.append(str(e)))
        # from the new-game page to the puzzle of the day
        page.goto(f"{server.http}/#/new")
        page.locator("#new-puzzles").click()
        page.wait_for_function("() => location.hash === '#/puzzles'")
        page.wait_for_selector("#puzzle-board rect.puzzle-square")
        assert page.locator("#puzzle-heading").text_content().startswith("Puzzle of the day")

        # solved: the best turn, checked: right, with the explanation in scoring words
        puzzle = view(server.http, solved)
        page.goto(f"{server.http}/#/puzzles/2020/{solved}")
        showing(page, solved)
        assert page.locator("#puzzle-check").is_disabled()
        play(page, puzzle, puzzle["best"])
        page.locator("#puzzle-check").click()
        page.wait_for_selector('#puzzle-result[data-verdict="right"]')
        items = page.locator("#puzzle-explanation li").all_text_contents()
        assert items and all(text.endswith(".") for text in items)
        assert "points better" in page.locator("#puzzle-explanation").text_content()
        assert page.locator("#puzzle-check").is_disabled()
        page.screenshot(path=str(ARTIFACTS / f"puzzle-solved-{name}.png"), full_page=True)

        # failed: the runner-up is not the answer; the hints, then the solution
        puzzle = view(server.http, failed)
        page.goto(f"{server.http}/#/puzzles/2020/{failed}")
        showing(page, failed)
        play(page, puzzle, puzzle["runner_up"])
        page.locator("#puzzle-check").click()
        page.wait_for_selector('#puzzle-result[data-verdict="wrong"]')
        assert page.locator("#puzzle-explanation li").count() == 0
        page.locator("#puzzle-hint").click()
        page.wait_for_selector("#puzzle-board .puzzle-area")
        page.locator("#puzzle-hint").click()
        assert page.locator("#puzzle-hints p").count() == 2 and page.locator("#puzzle-hint").is_disabled()
        page.screenshot(path=str(ARTIFACTS / f"puzzle-failed-{name}.png"), full_page=True)
        page.locator("#puzzle-solution").click()
        page.wait_for_selector('#puzzle-result[data-verdict="solution"]')
        assert page.locator("#puzzle-explanation li").count() >= 1
        best = puzzle["best"][0].split("@")[1].split("r")[0].split(",")
        assert page.locator(f'#puzzle-board rect.picked[data-x="{best[0]}"][data-y="{best[1]}"]').count() == 1
        page.screenshot(path=str(ARTIFACTS / f"puzzle-solution-{name}.png"), full_page=True)
        # the next puzzle
        page.locator("#puzzle-next").click()
        showing(page, failed + 1)
        page.close()
    assert not errors, f"JavaScript errors: {errors}"
