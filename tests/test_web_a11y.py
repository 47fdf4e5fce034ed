"""The board for screen readers, in the browser (Playwright driving Debian's chromium).

The board is a named grid whose cells are the placed tiles and the empty squares where the tile
in hand fits; the arrow keys move the active cell, whose name says what lies there; the game's
news reaches a polite live region.  Checked through the accessibility tree Chromium builds
(``aria_snapshot``), and by an axe-like walk over the page: no control without a name, no
image without a text alternative.

A game is stored at a chosen position (as the server stores games) and served: a person (this
page) against a bot, the person to move, with a placement that scores.
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from play_server import Server
from test_web_ui import ARTIFACTS, CHROMIUM, open_page, start_game

from huntgather.events import FeatureScored
from huntgather.game import Game
from huntgather.moves import Pass, Place
from huntgather.server.protocol import occupants_view
from huntgather.server.rooms import build_game
from huntgather.server.seats import GameSetup, hash_secret
from huntgather.server.storage import SeatRow, Storage
from huntgather.server.words import zone_phrase

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

ROTATIONS = ["not turned", "turned a quarter clockwise", "turned half round",
             "turned a quarter anticlockwise"]
SECRET = "a11y-seat-secret-0000001"


def scoring_position(seed: int) -> tuple[GameSetup, Game, Place]:
    """A seeded game played at random until seat 0 is to place a tile, the tile placed last (by
    seat 1) has a piece on it, and one of seat 0's placements completes a feature that scores."""
    setup = GameSetup(seed=seed)
    game = build_game(setup)
    moves = random.Random(seed)
    while not game.state.is_over:
        legal = game.state.legal_moves()
        last = next((e for e in reversed(game.events) if type(e).__name__ == "TilePlaced"), None)
        if (game.state.current_player == 0 and all(isinstance(m, Place) for m in legal) and last is not None
                and any(o["tile"] == last.tile for o in occupants_view(game.state))):
            for m in legal:
                trial = game.copy()
                events = trial.play(m)
                if not trial.state.is_over and trial.state.current_player == 0:
                    events += trial.play(next(x for x in trial.state.legal_moves() if isinstance(x, Pass)))
                if any(isinstance(e, FeatureScored) and sum(e.points) > 0 for e in events):
                    assert isinstance(m, Place)
                    return setup, game, m
        game.play(legal[moves.randrange(len(legal))])
    raise AssertionError("no scoring placement in this game")


def serve_position(tmp_path: Path, game_id: str) -> tuple[Server, Game, Place]:
    setup, game, scoring = scoring_position(1)
    db = tmp_path / "games.sqlite"
    storage = Storage(str(db))
    storage.create(game_id, setup.to_json(), [str(m) for m in game.history],
                   [SeatRow(0, "human", None, "Ann", hash_secret(SECRET), True),
                    SeatRow(1, "bot", "easy", None, None, True)])
    storage.close()
    return Server(db).start(), game, scoring


def active_cell(pg: Any) -> dict[str, Any]:
    """The board's active cell: where it is, its kind and its name."""
    cell: dict[str, Any] = pg.evaluate("""() => {
      const id = document.querySelector('#board').getAttribute('aria-activedescendant');
      const c = id && document.getElementById(id);
      return c ? { x: +c.dataset.x, y: +c.dataset.y, kind: c.dataset.kind,
                   label: c.getAttribute('aria-label'), role: c.getAttribute('role') } : null;
    }""")
    return cell


def test_the_board_is_a_grid_the_arrows_explore_cell_by_cell(tmp_path: Path, browser: Any) -> None:
    """The board is a named grid; focused from the keyboard, its active cell is the tile placed
    last, named with its tile, rotation, zones, the piece on it and who placed it, and framed; the
    arrows move the active cell, N selects an empty square (named with the rotations that fit)."""
    srv, game, _ = serve_position(tmp_path, "a11ygrid0001")
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        pg = open_page(context, errors, "Ann")
        pg.goto(f"{srv.url}#/play/a11ygrid0001/{SECRET}")
        pg.wait_for_selector("#board [data-legal]")
        with urllib.request.urlopen(f"{srv.url}api/games/a11ygrid0001") as r:
            view = json.load(r)
        # the accessibility tree: a grid named by the board in words, rows of named cells
        tree = pg.locator("#board").aria_snapshot()
        assert re.match(r'- \'?grid "Board of \d+ tiles\. Your tile: ', tree), tree
        assert re.search(r'^  - \'?row "(the start.s row|\d (north|south) of the start)"', tree, re.M), tree
        assert re.search(r'^    - \'?gridcell "Tile \d+, ', tree, re.M), tree
        assert re.search(r'gridcell "Empty square, [^"]*your tile fits here in \d rotations?', tree), tree
        legal = {(m["x"], m["y"]) for m in view["legal"] if m["kind"] == "place"}
        assert pg.locator("#board [role=gridcell]").count() == len(view["board"]) + len(legal)
        # keyboard focus on the board: the active cell is the tile placed last, framed
        pg.focus("#zoom-in")
        pg.keyboard.press("Shift+Tab")
        assert pg.evaluate("document.activeElement.id") == "board"
        last = view["last"][-1]
        cell = active_cell(pg)
        assert (cell["x"], cell["y"], cell["role"]) == (last["x"], last["y"], "gridcell")
        tile_id, rotation = next((c["tile"], c["rotation"]) for c in view["board"]
                                 if (c["x"], c["y"]) == (last["x"], last["y"]))
        tile = game.state.edition.tiles[tile_id]
        label = cell["label"]
        assert label.startswith(f"Tile {tile_id}, ") and ROTATIONS[rotation] in label, label
        for z in tile.zones:
            assert zone_phrase(tile, z, rotation) in label, label
        piece = next(o for o in view["occupants"] if o["tile"] == tile_id)
        assert f"red: {piece['role']} on {zone_phrase(tile, piece['zone'], rotation)}" in label, label
        assert "Placed by red." in label and "Last move." in label
        ring = pg.locator("#cells .cursor-ring")
        assert ring.is_visible()
        box = ring.bounding_box()
        assert box is not None and box["width"] > 20
        # the arrows: the nearest cell that way (on the same row or column first)
        cells = {(c["x"], c["y"]) for c in view["board"]} | legal
        moves = 0
        for key, (dx, dy) in (("ArrowLeft", (-1, 0)), ("ArrowUp", (0, -1)), ("ArrowRight", (1, 0)),
                              ("ArrowDown", (0, 1))):
            here = active_cell(pg)
            x, y = here["x"], here["y"]
            ahead = [c for c in cells if (c[0] - x) * dx + (c[1] - y) * dy > 0]
            same = [c for c in ahead if (c[1] == y if dx else c[0] == x)]
            pool = same or ahead
            pg.keyboard.press(key)
            if not pool:
                continue
            near = min((c[0] - x) * dx + (c[1] - y) * dy for c in pool)
            pool = [c for c in pool if (c[0] - x) * dx + (c[1] - y) * dy == near]
            far = min(abs(c[1] - y) if dx else abs(c[0] - x) for c in pool)
            want = sorted(c for c in pool if (abs(c[1] - y) if dx else abs(c[0] - x)) == far)[0]
            pg.wait_for_function("([x, y]) => document.querySelector('#board').getAttribute("
                                 "'aria-activedescendant') === `cell-${x}_${y}`", arg=list(want))
            moves += 1
            moved = active_cell(pg)
            kind = "legal" if want in legal else "tile"
            assert moved["kind"] == kind and re.match(r"Empty square, " if kind == "legal" else
                                                      r"(Start tile|Tile) \d+, ", moved["label"]), moved
        assert moves >= 3
        # N selects an empty square where the tile fits: the active cell goes with it
        pg.keyboard.press("n")
        pg.wait_for_selector("rect.target.selected")
        sel = pg.locator("rect.target.selected")
        x, y = int(sel.get_attribute("data-x") or 0), int(sel.get_attribute("data-y") or 0)
        pg.wait_for_function("([x, y]) => document.querySelector('#board').getAttribute("
                             "'aria-activedescendant') === `cell-${x}_${y}`", arg=[x, y])
        turns = sorted(m["rotation"] for m in view["legal"]
                       if m["kind"] == "place" and (m["x"], m["y"]) == (x, y))
        label = active_cell(pg)["label"]
        n = len(turns)
        assert f"your tile fits here in {n} rotation{'s' if n > 1 else ''} " \
               f"({', '.join(ROTATIONS[r] for r in turns)})" in label, label
        # the tile turned: said, with whether it fits on the active square; the active cell stays
        # the same node (a screen reader is not told of it again for nothing)
        pg.evaluate("(id) => { document.getElementById(id).dataset.mark = 'kept'; }", f"cell-{x}_{y}")
        pg.keyboard.press("r")
        pg.wait_for_function("() => /Tile turned [^:]*: it fits on \\d+ squares?, "
                             "(this one too|not this one)\\./"
                             ".test(document.querySelector('#announcer').textContent)")
        assert pg.evaluate("(id) => document.getElementById(id).dataset.mark", f"cell-{x}_{y}") == "kept"
        assert active_cell(pg)["x"] == x and active_cell(pg)["y"] == y
        pg.screenshot(path=str(ARTIFACTS / "a11y-board-cursor.png"))
    finally:
        context.close()
        srv.stop()
    assert not errors, f"JavaScript errors: {errors}"


def test_the_live_region_tells_a_scoring_and_the_bots_placement(tmp_path: Path, browser: Any) -> None:
    """A turn played with the keyboard only (arrows to the square, Enter, 0, Enter) that scores:
    the live region says the placement and the points; then the bot's placement, once."""
    srv, _, scoring = serve_position(tmp_path, "a11ylive0001")
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        pg = open_page(context, errors, "Ann")
        pg.goto(f"{srv.url}#/play/a11ylive0001/{SECRET}")
        pg.wait_for_selector("#board [data-legal]")
        assert pg.get_attribute("#announcer", "aria-live") == "polite"
        assert pg.locator("#announcer p").count() == 0   # nothing said on opening
        pg.focus("#board")
        # turn the tile to the scoring rotation, then walk the active cell to the scoring square
        for _ in range(scoring.rotation):
            pg.keyboard.press("r")
        if scoring.rotation:   # each turn of the tile is said, with the squares it fits then
            pg.wait_for_function("(r) => document.querySelector('#announcer').textContent"
                                 ".includes(`Tile ${r}: `)", arg=ROTATIONS[scoring.rotation])
        for _ in range(60):
            cell = active_cell(pg)
            if (cell["x"], cell["y"]) == (scoring.x, scoring.y):
                break
            if cell["y"] != scoring.y:
                pg.keyboard.press("ArrowDown" if scoring.y > cell["y"] else "ArrowUp")
            else:
                pg.keyboard.press("ArrowRight" if scoring.x > cell["x"] else "ArrowLeft")
            pg.wait_for_function("(id) => document.querySelector('#board').getAttribute("
                                 "'aria-activedescendant') !== id", arg=f"cell-{cell['x']}_{cell['y']}")
        cell = active_cell(pg)
        assert (cell["x"], cell["y"], cell["kind"]) == (scoring.x, scoring.y, "legal"), cell
        assert "it fits as turned now" in cell["label"]
        before = int(pg.evaluate("document.body.dataset.announcements || 0"))
        pg.keyboard.press("Enter")                    # placed here
        pg.wait_for_selector("#pending-tile")
        pg.wait_for_function("() => !document.querySelector('#confirm').disabled")
        assert active_cell(pg)["kind"] == "pending"
        pg.keyboard.press("0")                        # no piece
        pg.keyboard.press("Enter")                    # confirm
        pg.wait_for_function("() => /Red placed tile \\d+/"
                             ".test(document.querySelector('#announcer').textContent)")
        said = [p.text_content() or "" for p in pg.locator("#announcer p").all()]
        mine = next((t for t in said if "Ann (yellow) placed tile" in t), said)
        assert f"{'east' if scoring.x > 0 else 'west'} " in mine or scoring.x == 0
        assert re.search(r"Scored: .* Ann \(yellow\) scores \d+ points?", mine), said
        # one announcement per batch of news, not one per event
        count = int(pg.evaluate("document.body.dataset.announcements"))
        assert 1 <= count - before <= 2, said
        assert len(said) == count - before or len(said) == 4
    finally:
        context.close()
        srv.stop()
    assert not errors, f"JavaScript errors: {errors}"


NAMES_JS = """() => {
  // an axe-like check by hand: every control has a name, every image a text alternative
  const hidden = (el) => !!el.closest('[aria-hidden="true"], [hidden]');
  const text = (el) => (el.textContent || '').replace(/\\s+/g, ' ').trim();
  const labelled = (el) => {
    if ((el.getAttribute('aria-label') || '').trim()) return true;
    const by = el.getAttribute('aria-labelledby');
    const named = (id) => document.getElementById(id) && text(document.getElementById(id));
    if (by && by.split(/\\s+/).some(named)) return true;
    if (el.labels && [...el.labels].some((l) => text(l))) return true;
    return !!(el.getAttribute('title') || '').trim();
  };
  const bad = [];
  const what = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : '');
  const controls = 'button, a[href], input:not([type=hidden]), select, textarea, [role=button], ' +
    '[role=gridcell], [role=grid], [role=application], [tabindex]:not([tabindex="-1"])';
  for (const el of document.querySelectorAll(controls)) {
    if (hidden(el)) continue;
    const own = el.matches('button, a, [role=button], [role=gridcell], li, tr') && text(el);
    if (!own && !labelled(el)) bad.push('control without a name: ' + what(el));
  }
  for (const el of document.querySelectorAll('img')) {
    if (hidden(el) || el.getAttribute('alt') !== null || labelled(el)) continue;
    bad.push('img without alt: ' + what(el));
  }
  for (const el of document.querySelectorAll('svg')) {
    if (hidden(el) || el.closest('button, a')) continue;
    const inner = el.parentElement && el.parentElement.closest('svg');
    if (inner) continue;   // a picture inside a picture: its outer svg names it
    const role = el.getAttribute('role');
    if (!role || !labelled(el)) bad.push('svg without a role and a name: ' + what(el));
  }
  return bad;
}"""


def test_no_control_without_a_name_no_image_without_a_text_alternative(tmp_path: Path, browser: Any) -> None:
    """Every screen, walked as axe would: the new-game form, the table on my turn (with the
    remaining tiles shown, a tile put down and its choices), the rules, the tile sheet."""
    server = Server(tmp_path / "games.sqlite").start()
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        check_names(server, open_page(context, errors, "page"))
    finally:
        context.close()
        server.stop()
    assert not errors, f"JavaScript errors: {errors}"


def check_names(server: Server, page: Any) -> None:
    page.goto(server.url + "#/new")
    page.wait_for_selector("body[data-ready='1']")
    found = {"new": page.evaluate(NAMES_JS)}
    start_game(page, server.url, ["human", "bot:easy"], short=6, seed=5)
    page.wait_for_selector("#board [data-legal]")
    page.check("#show-remaining")
    page.wait_for_selector("#remaining-list svg")
    found["my turn"] = page.evaluate(NAMES_JS)
    page.locator("rect.target").first.click()
    page.wait_for_function("() => document.querySelector('#choices button')")
    found["tile put down"] = page.evaluate(NAMES_JS)
    cells = page.locator("#board [role=gridcell]").count()
    page.goto(server.url + "#/help")
    page.wait_for_selector("#rules figure")
    found["rules"] = page.evaluate(NAMES_JS)
    page.goto(server.url + "#/tiles")
    page.wait_for_selector("#tile-sheet[data-done='1']")
    found["tiles"] = page.evaluate(NAMES_JS)
    assert not any(found.values()), found
    assert cells > 1   # the board's cells were walked too
