"""The Puzzles screen in the browser: from the new-game page to the puzzle of the day; a puzzle
solved (the square, the rotation, the piece, Check: the server says right, the explanation in
scoring words, the solved count and streak) and one failed (the runner-up: wrong by how many
points, the streak ended, then the hints one by one and the solution from the server), the
difficulty filter and "a harder one", at a phone's size and a desktop's.  The page never
receives the answer before it is earned (the server's GET leaves it out: test_puzzles.py).
Screenshots go to ``artifacts/`` (git-ignored)."""

from __future__ import annotations

import json
import shutil
import urllib.request
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


def view(url: str, number: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/puzzles/2020/{number}", timeout=30) as answer:
        out: dict[str, Any] = json.load(answer)
    return out


def answer(number: int) -> dict[str, Any]:
    """The answer of 2020 puzzle ``number`` (the shipped data: the page's GET does not have it)."""
    p = shipped("2020")[number - 1]
    return {"best": list(p.best), "runner_up": list(p.runner_up), "difficulty": p.difficulty}


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
        assert "best" not in puzzle
        page.goto(f"{server.http}/#/puzzles/2020/{solved}")
        showing(page, solved)
        assert page.locator("#puzzle-check").is_disabled()
        assert page.locator("#puzzle-stats").text_content() == "Solved: 0 · streak: 0 · best streak: 0"
        play(page, puzzle, answer(solved)["best"])
        page.locator("#puzzle-check").click()
        page.wait_for_selector('#puzzle-result[data-verdict="right"]')
        items = page.locator("#puzzle-explanation li").all_text_contents()
        assert items and all(text.endswith(".") for text in items)
        assert "points better" in page.locator("#puzzle-explanation").text_content()
        assert page.locator("#puzzle-check").is_disabled()
        assert page.locator("#puzzle-stats").text_content() == "Solved: 1 · streak: 1 · best streak: 1"
        page.screenshot(path=str(ARTIFACTS / f"puzzle-solved-{name}.png"), full_page=True)

        # failed: the runner-up is not the answer; the hints, then the solution
        puzzle = view(server.http, failed)
        page.goto(f"{server.http}/#/puzzles/2020/{failed}")
        showing(page, failed)
        play(page, puzzle, answer(failed)["runner_up"])
        page.locator("#puzzle-check").click()
        page.wait_for_selector('#puzzle-result[data-verdict="wrong"]')
        assert "the next best turn, but the best is" in page.locator("#puzzle-result").text_content()
        assert page.locator("#puzzle-explanation li").count() == 0
        assert page.locator("#puzzle-stats").text_content() == "Solved: 1 · streak: 0 · best streak: 1"
        page.locator("#puzzle-hint").click()
        page.wait_for_selector("#puzzle-board .puzzle-area")
        page.locator("#puzzle-hint").click()   # the second hint comes from the server
        page.wait_for_function("() => document.querySelectorAll('#puzzle-hints p').length === 2")
        page.wait_for_function("() => document.querySelector('#puzzle-hint').disabled")
        page.screenshot(path=str(ARTIFACTS / f"puzzle-failed-{name}.png"), full_page=True)
        page.locator("#puzzle-solution").click()
        page.wait_for_selector('#puzzle-result[data-verdict="solution"]')
        assert page.locator("#puzzle-explanation li").count() >= 1
        best = answer(failed)["best"][0].split("@")[1].split("r")[0].split(",")
        assert page.locator(f'#puzzle-board rect.picked[data-x="{best[0]}"][data-y="{best[1]}"]').count() == 1
        page.screenshot(path=str(ARTIFACTS / f"puzzle-solution-{name}.png"), full_page=True)
        # the next puzzle; then only hard ones, and "a harder one" from an easy one
        page.locator("#puzzle-next").click()
        showing(page, failed + 1)
        found = shipped("2020")
        page.locator("#puzzle-filter").select_option("hard")
        hard = next(p.number for p in (*found[failed + 1:], *found) if p.difficulty == "hard")
        page.wait_for_function("(n) => document.querySelector('#puzzle-next').href.endsWith(`/2020/${n}`)",
                               arg=hard)
        page.locator("#puzzle-next").click()
        showing(page, hard)
        assert page.locator("#puzzle-harder").is_hidden()
        easy = next(p.number for p in found if p.difficulty == "easy")
        page.goto(f"{server.http}/#/puzzles/2020/{easy}")
        showing(page, easy)
        page.locator("#puzzle-harder:not([hidden])").click()
        showing(page, next(p.number for p in (*found[easy:], *found) if p.difficulty == "medium"))
        page.close()
    assert not errors, f"JavaScript errors: {errors}"
