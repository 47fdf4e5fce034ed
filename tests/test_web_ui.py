"""Playing in the browser as a person would: Playwright drives Debian's chromium.

A real ``huntgather play`` server runs as a subprocess.  One test plays a whole
short game against a bot with the mouse and the keyboard (rotating, placing,
putting pieces, reading the final table); the other plays a hotseat game across
a real server restart.  Screenshots go to ``artifacts/`` (git-ignored).

Skipped when Playwright or chromium is missing (``scripts/test.sh`` installs both).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "artifacts"
TIMEOUT = 20_000   # ms, for one step of the UI (never a measure of speed)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """A ``huntgather play`` subprocess."""

    def __init__(self, db: Path, port: int) -> None:
        self.db, self.port = db, port
        self.proc: subprocess.Popen[str] | None = None
        self.output: list[str] = []

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "huntgather", "play", "--no-browser", "--host", "127.0.0.1",
             "--port", str(self.port), "--db", str(self.db), "--bot-delay", "0.05"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        ready = threading.Event()

        def read() -> None:
            assert self.proc is not None and self.proc.stdout is not None
            for line in self.proc.stdout:
                self.output.append(line)
                if "playing at" in line:
                    ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(60):
            self.stop()
            raise RuntimeError("the server did not start:\n" + "".join(self.output))

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
            self.proc = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "games.sqlite", free_port())
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM,
                              args=["--no-sandbox", "--disable-gpu", "--headless=new",
                                    "--disable-dev-shm-usage"])
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    ARTIFACTS.mkdir(exist_ok=True)
    pg = browser.new_page(viewport={"width": 1400, "height": 900})
    pg.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    pg.close()
    assert not errors, f"JavaScript errors: {errors}"


def start_game(page: Any, url: str, seats: list[str], short: int, seed: int) -> None:
    """Fill in the new-game screen: ``seats`` are option values ('human', 'bot:easy' ...)."""
    page.goto(url + "#/new")
    page.wait_for_selector("body[data-ready='1']")
    while page.locator("#seats li").count() < len(seats):
        page.click("#add-seat")
    for i, kind in enumerate(seats):
        page.locator("#seats select").nth(i).select_option(kind)
    page.fill("#seed", str(seed))
    page.fill("#short", str(short))
    page.click("#start-game")
    page.wait_for_selector("#screen-play:not([hidden])")


WAIT_TURN_OR_END = """() => document.querySelector('rect.target') ||
                           !document.querySelector('#final').hidden"""


def board_tiles(page: Any) -> int:
    count: int = page.locator("#viewport > g > g.hg-tile").count()
    return count


def play_turn(page: Any, *, keyboard: bool = False, occupy: bool = True) -> None:
    """Play one turn of the person to move: rotate, place, choose a piece, confirm."""
    tiles = board_tiles(page)
    if keyboard:
        page.focus("#board")
        page.keyboard.press("r")            # turn the tile
        page.keyboard.press("n")            # select a legal position (turning further if needed)
        page.wait_for_selector("rect.target.selected")
        page.keyboard.press("Enter")        # place it
    else:
        page.click("#rotate-cw")
        spots = page.locator("rect.target[data-fits='yes']")
        target = spots.first if spots.count() else page.locator("rect.target").first
        target.click()
    page.wait_for_selector("#pending-tile")
    page.wait_for_function("() => !document.querySelector('#confirm').disabled || "
                           "document.querySelector('#choices button[data-move^=\"x\"]')")
    shaman = page.locator("#choices button[data-move='-']")
    if page.locator("#choices button[data-move^='x']").count():
        shaman.click()                      # shaman: take nothing back
        page.wait_for_function("() => !document.querySelector('#confirm').disabled")
    pieces = page.locator("#choices button[data-move^='m'], #choices button[data-move^='h']")
    if occupy and pieces.count():
        if keyboard:
            page.keyboard.press("1")
        else:
            # choose on the board itself: the spot drawn on the tile's zone
            move = pieces.first.get_attribute("data-move")
            page.locator(f"g.spot[data-move='{move}']").click()
        page.wait_for_selector("#choices button.selected")
    if keyboard:
        page.keyboard.press("Enter")
    else:
        page.click("#confirm")
    page.wait_for_function(f"() => document.querySelectorAll('#viewport > g > g.hg-tile').length > {tiles}"
                           " && !document.querySelector('#pending-tile')")


def check_final_table(page: Any) -> None:
    page.wait_for_selector("#final:not([hidden])")
    players = [int(t) for t in page.locator("#players td.score").all_inner_texts()]
    total = page.locator("#final-table tr.total td.num").all_inner_texts()
    assert [int(t) for t in total] == players
    winners = page.inner_text("#winners")
    best = max(players)
    letters = "YRGBV"
    for seat, score in enumerate(players):
        assert (f"{letters[seat]} " in winners) == (score == best), winners


def test_a_short_game_against_a_bot(server: Server, page: Any) -> None:
    start_game(page, server.url, ["human", "bot:easy"], short=5, seed=21)
    page.wait_for_function(WAIT_TURN_OR_END)
    page.screenshot(path=str(ARTIFACTS / "ui-start.png"))
    # the remaining tiles can be shown (and hidden again): 5 in the stack, 1 drawn
    assert page.inner_text("#remaining-count") == "4 tiles left"
    page.check("#show-remaining")
    assert page.locator("#remaining-list svg").count() == 4
    page.uncheck("#show-remaining")
    assert page.locator("#remaining-list").is_hidden()
    # the undo button takes a placement back before it counts
    before = board_tiles(page)
    page.click("rect.target >> nth=0")
    page.wait_for_selector("#pending-tile")
    assert board_tiles(page) == before + 1   # the tile shows where it would go
    page.click("#undo")
    page.wait_for_selector("#pending-tile", state="detached")
    assert board_tiles(page) == before
    turns = 0
    while page.locator("#final").is_hidden():
        page.wait_for_function(WAIT_TURN_OR_END)
        if not page.locator("#final").is_hidden():
            break
        play_turn(page, keyboard=turns % 2 == 1)
        if turns == 0:
            page.screenshot(path=str(ARTIFACTS / "ui-after-first-turn.png"))
        turns += 1
    assert turns >= 2
    check_final_table(page)
    log = page.locator("#log li").all_inner_texts()
    assert any("places" in line and line.startswith("red") for line in log), "the bot never played"
    assert any(line.startswith("final scoring") for line in log)
    page.screenshot(path=str(ARTIFACTS / "ui-final.png"), full_page=True)
    # the finished game is in the saved list and replays move by move
    page.goto(server.url + "#/games")
    page.wait_for_selector("#games-table a.replay")
    page.click("#games-table a.replay")
    page.wait_for_selector("#replay-controls:not([hidden])")
    page.wait_for_function("() => document.querySelectorAll('#viewport > g > g.hg-tile').length === 1")
    page.click("#replay-fwd")
    page.wait_for_function("() => document.querySelectorAll('#viewport > g > g.hg-tile').length === 2")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => /move [1-9]/.test(document.querySelector('#replay-pos').textContent)")
    # and it can be deleted from the list, after a confirmation
    page.goto(server.url + "#/games")
    page.wait_for_selector("#games-table button.delete")
    page.once("dialog", lambda dialog: dialog.dismiss())   # "cancel" keeps it
    page.click("#games-table button.delete")
    assert page.locator("#games-table button.delete").count() == 1
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#games-table button.delete")
    page.wait_for_function(
        "() => /No saved games/.test(document.querySelector('#games-table tbody').textContent)")


def test_hotseat_game_survives_a_server_restart(server: Server, page: Any) -> None:
    start_game(page, server.url, ["human", "human"], short=6, seed=33)
    for _ in range(2):
        page.wait_for_function(WAIT_TURN_OR_END)
        play_turn(page)
    page.wait_for_function(WAIT_TURN_OR_END)
    tiles = board_tiles(page)
    turn = page.inner_text("#turn")
    scores = page.locator("#players td.score").all_inner_texts()
    server.stop()
    page.wait_for_function("() => /lost|connecting/.test(document.querySelector('#connection').textContent)")
    time.sleep(0.3)
    server.start()   # same port, same database
    page.wait_for_function("() => document.querySelector('#connection').textContent === 'connected'",
                           timeout=30_000)
    page.wait_for_function(WAIT_TURN_OR_END)
    assert board_tiles(page) == tiles
    assert page.inner_text("#turn") == turn
    assert page.locator("#players td.score").all_inner_texts() == scores
    page.screenshot(path=str(ARTIFACTS / "ui-after-restart.png"))
    # a fresh page (a reload) shows the same game too
    page.reload()
    page.wait_for_function(WAIT_TURN_OR_END)
    assert board_tiles(page) == tiles
    while page.locator("#final").is_hidden():
        page.wait_for_function(WAIT_TURN_OR_END)
        if page.locator("#final").is_hidden():
            play_turn(page, occupy=False)
    check_final_table(page)


def test_a_hint_shows_the_bots_best_turns_and_plays_one(server: Server, page: Any) -> None:
    import json
    import urllib.request
    start_game(page, server.url, ["human", "bot:easy"], short=5, seed=21)
    page.wait_for_function(WAIT_TURN_OR_END)
    game_id = page.evaluate("location.hash").split("/")[-1]
    page.focus("#board")
    page.keyboard.press("h")
    page.wait_for_selector("#hints button.hint-turn")
    buttons = page.locator("#hints button.hint-turn")
    assert 1 <= buttons.count() <= 3
    assert page.locator("#hint").is_disabled()   # asked already for this moment of the turn
    # each hinted placement is marked on the board with its number
    assert page.locator("g.hint-spot").count() == buttons.count()
    page.screenshot(path=str(ARTIFACTS / "ui-hint.png"))
    moves = (buttons.first.get_attribute("data-moves") or "").split()
    tile, rest = moves[0].split("@")
    x, y = (int(v) for v in rest.split("r")[0].split(","))
    assert buttons.first.inner_text().startswith(f"1. tile {tile} at ({x}, {y})")
    # trying the hint places the tile there and picks the suggested piece; confirming plays it
    tiles = board_tiles(page)
    buttons.first.click()
    page.wait_for_selector("#pending-tile")
    frame = page.locator("rect.pending-frame")
    assert (frame.get_attribute("x"), frame.get_attribute("y")) == (str(x * 100 + 1), str(y * 100 + 1))
    if len(moves) > 1 and moves[1] != "-":
        page.wait_for_selector(f"#choices button.selected[data-move='{moves[1]}']")
    page.wait_for_function("() => !document.querySelector('#confirm').disabled")
    page.click("#confirm")
    page.wait_for_function(f"() => document.querySelectorAll('#viewport > g > g.hg-tile').length > {tiles}"
                           " && !document.querySelector('#pending-tile')")
    with urllib.request.urlopen(f"{server.url}api/games/{game_id}") as response:
        history = json.load(response)["history"]
    played = [m for m in history if not m.startswith("d")]
    assert played[:len(moves)] == moves, (played, moves)
