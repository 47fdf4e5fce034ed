"""Playing in the browser as a person would: Playwright drives Debian's chromium.

Real ``huntgather play`` servers run as subprocesses: one that most tests share (each plays games
of its own on it), and one of its own for a test that stops it or leaves it a whole game to review
(``own_server``), or starts it with a game stored.  One test plays a whole
short game against a bot with the mouse and the keyboard (rotating, placing,
putting pieces, reading the final table); one plays a hotseat game across a
real server restart; one asks for a hint and plays it; one plays online: two
people and a watcher in three separate browser contexts (own storage each),
with an invitation link, a page closed and reopened mid-game, and the same
final table everywhere.  Screenshots go to ``artifacts/`` (git-ignored).

Skipped when Playwright or chromium is missing (``scripts/test.sh`` installs both).
"""

from __future__ import annotations

import json
import math
import random
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from play_server import Server

from huntgather.game import Game
from huntgather.server.client_bundle import esbuild_program
from huntgather.server.protocol import occupants_view
from huntgather.server.rooms import build_game
from huntgather.server.seats import GameSetup
from huntgather.server.storage import SeatRow, Storage

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "artifacts"
TIMEOUT = 20_000   # ms, for one step of the UI (never a measure of speed)


@pytest.fixture
def server(shared_server: Server) -> Server:
    """The module's server (conftest's ``shared_server``), which these tests share: each plays
    games of its own on it and reads nothing but those.  The tests that stop the server, or leave
    it a whole game's review to make, take ``own_server`` (one of their own)."""
    return shared_server


@pytest.fixture
def own_server(spare_servers: Any) -> Iterator[Server]:
    """A server for this test alone (conftest's ``server`` fixture, which this module's shadows)."""
    srv = spare_servers.take()
    yield srv
    srv.kill(grace=0)


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


def start_game(page: Any, url: str, seats: list[str], short: int | None, seed: int | None = None,
               name: str | None = None) -> None:
    """Fill in the new-game screen: ``seats`` are option values ('human', 'bot:easy' ...)."""
    page.goto(url + "#/new")
    page.wait_for_selector("body[data-ready='1']")
    while page.locator("#seats li").count() < len(seats):
        page.click("#add-seat")
    for i, kind in enumerate(seats):
        page.locator("#seats select").nth(i).select_option(kind)
    page.fill("#seed", "" if seed is None else str(seed))
    page.fill("#short", "" if short is None else str(short))
    if name is not None:
        page.fill("#your-name", name)
    page.click("#start-game")
    page.wait_for_selector("#screen-play:not([hidden])")
    page.wait_for_function("() => /^#\\/play\\/[A-Za-z0-9_-]+$/.test(location.hash)")


def game_id_of(page: Any) -> str:
    gid: str = page.evaluate("location.hash").split("/")[2]
    return gid


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
                           "document.querySelector('#choices button[data-kind=\"takeback\"]')")
    if page.locator("#choices button[data-kind='takeback']").count():
        page.click("#choices button[data-kind='pass']")   # shaman: take nothing back
        page.wait_for_function("() => !document.querySelector('#confirm').disabled")
    pieces = page.locator("#choices button[data-kind='occupy']")
    if occupy and pieces.count():
        if keyboard:
            page.keyboard.press("1")
        else:
            # choose on the board itself: the spot drawn on the tile's zone
            zone = pieces.first.get_attribute("data-zone")
            piece = pieces.first.get_attribute("data-piece")
            page.locator(f"g.spot[data-kind='occupy'][data-zone='{zone}'][data-piece='{piece}']").click()
        page.wait_for_selector("#choices button.selected")
    if keyboard:
        page.keyboard.press("Enter")
    else:
        page.click("#confirm")
    page.wait_for_function(f"() => document.querySelectorAll('#viewport > g > g.hg-tile').length > {tiles}"
                           " && !document.querySelector('#pending-tile')")


def scores(page: Any) -> list[int]:
    return [int(t) for t in page.locator("#players td.score").all_inner_texts()]


def check_final_table(page: Any) -> None:
    """The final table: its totals are the scores, every column adds up to its total, and its
    first row is what the game's own events scored during play (read from the server)."""
    page.wait_for_selector("#final:not([hidden])")
    players = scores(page)
    total = page.locator("#final-table tr.total td.num").all_inner_texts()
    assert [int(t) for t in total] == players
    rows = page.locator("#final-table tr:not(.total)").all()[1:]   # after the heading
    cells = [[int(t) for t in r.locator("td.num").all_inner_texts()] for r in rows]
    assert all(len(c) == len(players) for c in cells)
    assert [sum(c[i] for c in cells) for i in range(len(players))] == players
    with urllib.request.urlopen(page.url.split("#")[0] + "api/games/" + game_id_of(page)) as r:
        view = json.load(r)
    during = [0] * len(players)
    for e in view["log"]:
        if e["kind"] == "FeatureScored":
            during = [a + b for a, b in zip(during, e["points"], strict=True)]
    assert rows[0].locator("td").first.inner_text() == "Points scored during play"
    assert cells[0] == during
    winners = page.inner_text("#winners")
    best = max(players)
    letters = "YRGBV"
    for seat, score in enumerate(players):
        assert (f"{letters[seat]} " in winners) == (score == best), winners


def test_a_short_game_against_a_bot(server: Server, page: Any) -> None:
    start_game(page, server.url, ["human", "bot:easy"], short=5, seed=21)
    page.wait_for_function(WAIT_TURN_OR_END)
    page.screenshot(path=str(ARTIFACTS / "ui-start.png"))
    # the board in words for screen readers: the tile to place and how many squares it fits
    with urllib.request.urlopen(f"{server.url}api/games/{game_id_of(page)}") as r:
        view = json.load(r)
    squares = {(m["x"], m["y"]) for m in view["legal"] if m["kind"] == "place"}
    label = page.get_attribute("#board", "aria-label") or ""
    assert label.startswith(f"Board of {len(view['board'])} tile")
    assert f"It fits on {len(squares)} square" in label and "Your tile: " in label
    assert page.title() == "● Your turn — Hunters & Gatherers"
    assert page.locator("#watching").is_hidden()
    # the remaining tiles can be shown (and hidden again): 5 in the stack, 1 drawn
    assert page.inner_text("#remaining-count") == "4 tiles left"
    page.check("#show-remaining")
    assert page.locator("#remaining-list svg").count() == 4
    page.uncheck("#show-remaining")
    assert page.locator("#remaining-list").is_hidden()
    assert page.is_checked("#sound")   # sounds are on by default: a chime when the turn comes back
    page.uncheck("#sound")
    page.check("#sound")   # (the choice is kept in this browser)
    page.select_option("#animation", "slow")   # the bot's tiles slide in, slowly
    # with a mouse, the tile shows faintly on the legal square under the pointer
    target = page.locator("rect.target[data-fits='yes']").first
    target.hover()
    page.wait_for_selector("#hover-preview")
    preview = page.locator("#hover-preview")
    assert (preview.get_attribute("data-x"), preview.get_attribute("data-y")) == (
        target.get_attribute("data-x"), target.get_attribute("data-y"))
    page.mouse.move(1, 1)
    page.wait_for_selector("#hover-preview", state="detached")
    # the undo button takes a placement back before it counts
    before = board_tiles(page)
    page.click("rect.target >> nth=0")
    page.wait_for_selector("#pending-tile")
    assert board_tiles(page) == before + 1   # the tile shows where it would go
    page.click("#undo")
    page.wait_for_selector("#pending-tile", state="detached")
    assert board_tiles(page) == before
    turns = 0
    arrivals_before_off, checked_off = -1, False
    while page.locator("#final").is_hidden():
        page.wait_for_function(WAIT_TURN_OR_END)
        if not page.locator("#final").is_hidden():
            break
        if turns == 1:
            # my turn again: the tiles the bot placed since my last one are framed in its colour
            with urllib.request.urlopen(f"{server.url}api/games/{game_id_of(page)}") as r:
                log = json.load(r)["log"]
            placed = [e for e in log if e["kind"] == "TilePlaced"]
            since = []
            for e in reversed(placed):
                if e["player"] == 0:
                    break
                since.append(str(e["tile"]))
            assert since, "the bot placed a tile"
            frames = page.locator("rect.since-mine")
            assert sorted(f.get_attribute("data-tile") or "" for f in frames.all()) == sorted(since)
            assert all(f.get_attribute("stroke") == "#D55E00" for f in frames.all())   # red's colour
            # the turn came back after the bot's move: the page chimed again (sounds are on by
            # default: it chimed when the game began with my turn)
            assert page.evaluate("Number(document.body.dataset.chimes || 0)") == 2
            # every tile the bot placed came in animated, and none of mine
            bot_tiles = sum(1 for e in placed if e["player"] == 1)
            assert page.evaluate("Number(document.body.dataset.arrivals || 0)") == bot_tiles
            page.select_option("#animation", "off")
            arrivals_before_off = bot_tiles
        if turns == 2:   # animations off: the bot's next tiles came in at once
            assert page.evaluate("Number(document.body.dataset.arrivals || 0)") == arrivals_before_off
            checked_off = True
        play_turn(page, keyboard=turns % 2 == 1)
        if turns == 0:
            page.screenshot(path=str(ARTIFACTS / "ui-after-first-turn.png"))
        turns += 1
    assert turns >= 3 and checked_off
    check_final_table(page)
    assert page.title() == "Hunters & Gatherers"
    log = page.locator("#log li .text").all_inner_texts()
    assert any("places" in line and line.startswith("red") for line in log), "the bot never played"
    assert any(line.startswith("final scoring") for line in log)
    page.screenshot(path=str(ARTIFACTS / "ui-final.png"), full_page=True)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.is_checked("#sound")   # the choice is remembered
    # the finished game is in the saved list and replays move by move
    page.goto(server.url + "#/games")
    page.wait_for_selector("#games-table a.replay")
    assert page.locator("#games-table a.watch").count() == 1
    page.click("#games-table a.replay")
    page.wait_for_selector("#replay-controls:not([hidden])")
    page.wait_for_function("() => document.querySelectorAll('#viewport > g > g.hg-tile').length === 1")
    page.click("#replay-fwd")
    page.wait_for_function("() => document.querySelectorAll('#viewport > g > g.hg-tile').length === 2")
    before = page.inner_text("#replay-pos")
    page.keyboard.press("ArrowRight")   # a step by key: the position moves on
    page.wait_for_function("(b) => /move [1-9]/.test(document.querySelector('#replay-pos').textContent)"
                           " && document.querySelector('#replay-pos').textContent !== b", arg=before)
    assert page.locator("rect.target").count() == 0
    # and it can be deleted from the list (this browser created it), after a confirmation
    page.goto(server.url + "#/games")
    page.wait_for_selector("#games-table button.delete")
    page.once("dialog", lambda dialog: dialog.dismiss())   # "cancel" keeps it
    page.click("#games-table button.delete")
    assert page.locator("#games-table button.delete").count() == 1
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#games-table button.delete")
    page.wait_for_function(
        "() => /No saved games/.test(document.querySelector('#games-table tbody').textContent)")


def api_view(server: Server, page: Any) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}api/games/{game_id_of(page)}") as r:
        view: dict[str, Any] = json.load(r)
    return view


def test_undo_turn_against_a_bot_brings_back_the_board_before_it_and_the_same_tile(server: Server,
                                                                                      page: Any) -> None:
    start_game(page, server.url, ["human", "bot:greedy"], short=None, seed=5)
    page.wait_for_function(WAIT_TURN_OR_END)
    undo_turn = page.locator("#undo-turn")
    assert undo_turn.is_visible() and undo_turn.is_disabled()   # no turn of Ann's yet
    play_turn(page)
    page.wait_for_function(WAIT_TURN_OR_END)   # the bot's reply, and Ann's turn again
    before = api_view(server, page)
    tiles, tile_text = board_tiles(page), page.inner_text("#tile-text")
    version = int(page.get_attribute("body", "data-version") or 0)
    replied = (f"() => document.querySelectorAll('#viewport > g > g.hg-tile').length >= {tiles + 2} && "
               "document.querySelector('rect.target')")
    play_turn(page)
    page.wait_for_function(replied)   # the bot has replied
    assert api_view(server, page)["version"] > version
    page.click("#undo-turn")
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {version} && "
                           f"document.querySelectorAll('#viewport > g > g.hg-tile').length === {tiles} && "
                           "document.querySelector('rect.target')")
    after = api_view(server, page)
    assert (after["board"], after["decision"], after["legal"]) == (before["board"], before["decision"],
                                                                   before["legal"])
    assert page.inner_text("#tile-text") == tile_text   # the same tile in hand
    assert page.inner_text("#play-error") == ""
    assert not undo_turn.is_disabled()   # the first turn can go back too
    play_turn(page)   # and the game goes on: the bot replies again
    page.wait_for_function(replied)


def test_hotseat_game_survives_a_server_restart(own_server: Server, page: Any) -> None:
    start_game(page, own_server.url, ["human", "human"], short=6, seed=33)
    for _ in range(2):
        page.wait_for_function(WAIT_TURN_OR_END)
        play_turn(page)
    page.wait_for_function(WAIT_TURN_OR_END)
    tiles = board_tiles(page)
    turn = page.inner_text("#turn")
    before = page.locator("#players td.score").all_inner_texts()
    assert page.locator("#lobby .presence[data-presence='online']").count() == 2   # the page holds both
    own_server.stop()
    page.wait_for_function("() => /lost|connecting/.test(document.querySelector('#connection').textContent)")
    assert page.get_attribute("#connection", "data-connection") in ("reconnecting", "offline")
    # while the server is away the Table claims nobody online, and a move says it cannot be sent
    assert page.locator("#lobby .presence[data-presence='online']").count() == 0
    assert page.locator("#lobby .presence[data-presence='unknown']").count() == 2
    page.click("rect.target >> nth=0")
    page.wait_for_function("() => /not connected/.test(document.querySelector('#play-error').textContent)")
    assert page.locator("#pending-tile").count() == 0
    own_server.start()   # same port, same database
    page.wait_for_selector("#connection[data-connection='online']", timeout=30_000)
    assert page.inner_text("#connection") == "connected"
    assert page.inner_text("#play-error") == ""   # the error went with its cause
    assert page.locator("#lobby .presence[data-presence='online']").count() == 2
    page.wait_for_function(WAIT_TURN_OR_END)
    assert board_tiles(page) == tiles
    assert page.inner_text("#turn") == turn
    assert page.locator("#players td.score").all_inner_texts() == before
    page.screenshot(path=str(ARTIFACTS / "ui-after-restart.png"))
    # a fresh page (a reload) shows the same game too, from the secrets kept in this browser
    page.reload()
    page.wait_for_function(WAIT_TURN_OR_END)
    assert board_tiles(page) == tiles
    assert page.inner_text("#turn") == turn
    while page.locator("#final").is_hidden():
        page.wait_for_function(WAIT_TURN_OR_END)
        if page.locator("#final").is_hidden():
            play_turn(page, occupy=False)
    check_final_table(page)


def test_a_hint_shows_the_bots_best_turns_and_plays_one(server: Server, page: Any) -> None:
    start_game(page, server.url, ["human", "bot:easy"], short=5, seed=21)
    page.wait_for_function(WAIT_TURN_OR_END)
    game_id = game_id_of(page)
    with urllib.request.urlopen(f"{server.url}api/games/{game_id}") as response:
        tile = json.load(response)["decision"]["tile"]
    page.focus("#board")
    page.keyboard.press("h")
    page.wait_for_selector("#hints button.hint-turn")
    buttons = page.locator("#hints button.hint-turn")
    assert 1 <= buttons.count() <= 3
    assert page.locator("#hint").is_disabled()   # asked already for this moment of the turn
    # best first: the win chances shown (in %, never a bare 0.07) never rise down the list
    texts = buttons.all_inner_texts()
    assert not any(re.search(r"\b0\.\d", t) for t in texts), texts
    values = [int(re.search(r" · win chance (?:about|under|over) (\d+)%$", t).group(1))  # type: ignore[union-attr]
              for t in texts]
    assert values == sorted(values, reverse=True)
    # every hint names its square in words, and no two read alike
    assert len(set(texts)) == len(texts), texts
    words = r"(north|south|east|west|next to|top|bottom|left|right|middle)"
    assert all(re.match(rf"\d\. [A-Z][^:]*{words}[^:]*: ", t)
               for t in texts), texts
    # a short game: no predicted final scores (the evaluation learned whole games)
    assert not any("predicted" in t for t in texts), texts
    # each hinted placement is marked on the board with its number, one mark per square: hints
    # on the same square share a mark ("1 · 3") instead of printing over each other
    marks = page.locator("g.hint-spot")
    squares = [(m.locator("rect").get_attribute("x"), m.locator("rect").get_attribute("y"))
               for m in marks.all()]
    assert len(set(squares)) == len(squares)
    numbers = sorted(int(n) for m in marks.all() for n in (m.get_attribute("data-hints") or "").split(","))
    placing = [json.loads(b.get_attribute("data-moves") or "[]")[0]["kind"] == "place" for b in buttons.all()]
    assert numbers == [i + 1 for i, p in enumerate(placing) if p]
    for m in marks.all():
        label = " · ".join((m.get_attribute("data-hints") or "").split(","))
        assert m.locator("text").text_content() == label
    page.screenshot(path=str(ARTIFACTS / "ui-hint.png"))
    moves = json.loads(buttons.first.get_attribute("data-moves") or "[]")
    place = moves[0]
    assert place["kind"] == "place"
    x, y = place["x"], place["y"]
    turned = f"the tile turned {90 * place['rotation']}°" if place["rotation"] else "the tile as drawn"
    assert re.match(rf"1\. [^;]+: {turned}; ", buttons.first.inner_text()), buttons.first.inner_text()
    # trying the hint places the tile there and picks the suggested piece; confirming plays it
    tiles = board_tiles(page)
    buttons.first.click()
    page.wait_for_selector("#pending-tile")
    frame = page.locator("rect.pending-frame")
    assert (frame.get_attribute("x"), frame.get_attribute("y")) == (str(x * 100 + 1), str(y * 100 + 1))
    occupy = next((m for m in moves[1:] if m["kind"] == "occupy"), None)
    if occupy is not None:
        page.wait_for_selector(f"#choices button.selected[data-kind='occupy'][data-zone='{occupy['zone']}']"
                               f"[data-piece='{occupy['piece']}']")
    page.wait_for_function("() => !document.querySelector('#confirm').disabled")
    page.click("#confirm")
    page.wait_for_function(f"() => document.querySelectorAll('#viewport > g > g.hg-tile').length > {tiles}"
                           " && !document.querySelector('#pending-tile')")
    with urllib.request.urlopen(f"{server.url}api/games/{game_id}") as response:
        view = json.load(response)
    assert {"x": x, "y": y, "tile": tile, "rotation": place["rotation"]} in [
        {k: c[k] for k in ("x", "y", "tile", "rotation")} for c in view["board"]]
    placed = [e for e in view["log"] if e["kind"] == "OccupantPlaced" and e.get("tile") == tile]
    assert bool(placed) == (occupy is not None), (placed, moves)


# ---------------------------------------------------------------------------- online


def protocol_validators() -> dict[str, dict[str | None, Any]]:
    """Validators of the published schema (docs/protocol.schema.json), made once: ``sent`` for
    what a page sends (an intent), ``received`` for what the server sends (a message), each by
    the frame's ``type``.  The family is a ``oneOf`` of variants whose ``type`` constants differ,
    so a frame fits it exactly when it fits the variant of its own type; checking that one
    variant, not all sixteen, keeps a page's whole game from costing seconds of schema checks.
    A frame of no known type is checked against the whole family (key None), to say why."""
    if not _VALIDATORS:
        jsonschema = pytest.importorskip("jsonschema")
        published = json.loads((REPO / "docs" / "protocol.schema.json").read_text(encoding="utf-8"))
        defs = {key: value for key, value in published.items() if key != "anyOf"}
        for way, family in (("sent", "intent"), ("received", "message")):
            by_type: dict[str | None, Any] = {None: jsonschema.Draft202012Validator(
                {**defs, "$ref": f"#/$defs/{family}"})}
            for ref in published["$defs"][family]["oneOf"]:
                name = ref["$ref"].rsplit("/", 1)[1]
                kind = published["$defs"][name]["properties"]["type"]["const"]
                assert kind not in by_type, f"two {family}s of type {kind!r}"
                by_type[kind] = jsonschema.Draft202012Validator({**defs, "$ref": ref["$ref"]})
            _VALIDATORS[way] = by_type
    return _VALIDATORS


_VALIDATORS: dict[str, dict[str | None, Any]] = {}


def test_the_frame_checks_catch_a_wrong_field_and_an_unknown_type() -> None:
    """The pages' frames are checked by their type's variant: a wrong field is caught there, a type
    the protocol does not have by the whole family."""
    received = protocol_validators()["received"]
    welcome = {"type": "welcome", "game": "g", "seats": [0], "creator": True, "version": 1, "refused": [],
               "heartbeat": None, "rated": False}
    assert [e.message for e in received["welcome"].iter_errors(welcome)] == []
    assert list(received["welcome"].iter_errors({**welcome, "seats": "0"}))
    assert "welcomed" not in received and list(received[None].iter_errors({**welcome, "type": "welcomed"}))


def test_the_stylesheet_closes_every_block_it_opens() -> None:
    """A block left open (a merge can drop its closing brace) silently swallows every rule after it
    into a media query: the Puzzles screen lost its layout that way."""
    sheet = (REPO / "src" / "huntgather" / "web" / "style.css").read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", "", sheet, flags=re.S)
    depth = 0
    for number, line in enumerate(text.splitlines(), 1):
        depth += line.count("{") - line.count("}")
        assert depth >= 0, f"style.css line {number}: a brace closes no block"
    assert depth == 0, f"style.css leaves {depth} block(s) open"


def watch_protocol(pg: Any, errors: list[str], who: str) -> None:
    """Check every frame the page sends and receives on its game sockets against the published
    schema: a frame that does not fit is recorded in ``errors`` (which every test checks), so
    the browser's own traffic keeps to docs/protocol.md, in both directions."""
    validators = protocol_validators()

    def check(payload: Any, way: str) -> None:
        try:
            message = json.loads(payload)
        except (TypeError, ValueError):
            errors.append(f"{who}: a {way} frame is not JSON: {str(payload)[:120]}")
            return
        kind = message.get("type") if isinstance(message, dict) else None
        validator = validators[way].get(kind if isinstance(kind, str) else None) or validators[way][None]
        problem = next(iter(validator.iter_errors(message)), None)
        if problem is not None:
            errors.append(f"{who}: a {way} {kind!r} does not fit the schema: "
                          f"{problem.message[:200]}")

    def on_socket(ws: Any) -> None:
        ws.on("framesent", lambda payload: check(payload, "sent"))
        ws.on("framereceived", lambda payload: check(payload, "received"))

    pg.on("websocket", on_socket)


def open_page(context: Any, errors: list[str], who: str) -> Any:
    """A new page whose script errors, and game frames that do not fit the protocol's schema,
    are recorded in ``errors``."""
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT)
    pg.on("pageerror", lambda e: errors.append(f"{who}: {e}"))
    watch_protocol(pg, errors, who)
    return pg


def same_version(pages: list[Any]) -> int:
    """Wait until every page shows the same version of the game; return it."""
    deadline = time.monotonic() + TIMEOUT / 1000
    while True:
        versions = [p.evaluate("document.body.dataset.version || ''") for p in pages]
        if versions[0] and len(set(versions)) == 1:
            return int(versions[0])
        if time.monotonic() > deadline:
            raise AssertionError(f"the pages do not agree on the version: {versions}")
        time.sleep(0.05)


def test_two_people_and_a_watcher_play_a_whole_game_online(server: Server, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    contexts = [browser.new_context(viewport={"width": 1400, "height": 900}) for _ in range(3)]
    try:
        ctx_ann, ctx_bob, ctx_cy = contexts
        ann = open_page(ctx_ann, errors, "Ann")
        start_game(ann, server.url, ["human", "human"], short=6, name="Ann")
        game_id = game_id_of(ann)
        # the page that created the game holds both seats until it hands one out
        ann.wait_for_selector("#lobby li[data-seat='1'] button.hand-out")
        assert ann.locator("#lobby li[data-seat='0'] .you").count() == 1
        assert ann.locator("#lobby li[data-seat='1'] .you").count() == 1
        assert ann.inner_text("#lobby li[data-seat='0'] .name") == "Ann"
        ann.click("#lobby li[data-seat='1'] button.hand-out")
        invite = ann.locator("#lobby li[data-seat='1'] .invite-link input")
        invite.wait_for()
        link = invite.input_value()
        assert link.startswith(server.url + "#/play/" + game_id + "/"), link
        ann.wait_for_function("() => !document.querySelector(\"#lobby li[data-seat='1'] .you\")")
        assert ann.locator("#name-form").is_hidden()   # seat 0 has its name from the new-game form
        watch = ann.locator("#lobby .watch-link input").input_value()
        assert watch == server.url + "#/watch/" + game_id

        # Bob opens the invitation: the secret goes to his storage, the address bar loses it
        bob = open_page(ctx_bob, errors, "Bob")
        bob.goto(link)
        bob.wait_for_selector("#name-form:not([hidden])")
        assert bob.evaluate("location.hash") == f"#/play/{game_id}"
        stored = bob.evaluate("JSON.parse(localStorage.getItem('hg-games'))")
        assert stored[game_id]["seats"] == {"1": link.rsplit("/", 1)[1]}, stored
        assert "creator" not in stored[game_id]
        bob.fill("#name-input", "Bob")
        bob.click("#name-save")
        bob.wait_for_selector("#name-form", state="hidden")
        assert bob.evaluate("localStorage.getItem('hg-name')") == "Bob"
        assert bob.locator("#lobby li[data-seat='1'] .you").count() == 1
        assert bob.locator("#lobby .invite-link, #lobby select.seat-bot").count() == 0   # not the creator

        # Cy watches
        cy = open_page(ctx_cy, errors, "Cy")
        cy.goto(watch)
        cy.wait_for_selector("#watching:not([hidden])")
        assert cy.locator("#lobby .you, #lobby .invite-link, #lobby button.hand-out, #name-form:not([hidden])"
                          ).count() == 0

        # Ann's table: Bob online, one watcher
        ann.wait_for_function("""() => {
            const li = document.querySelector("#lobby li[data-seat='1']");
            return li && li.querySelector('.name').textContent === 'Bob'
                && li.querySelector('.presence.online')
                && document.querySelector('#lobby-watchers').dataset.count === '1'; }""")
        assert "Bob" in ann.inner_text("#players")
        ann.screenshot(path=str(ARTIFACTS / "online-lobby.png"))

        pages = {0: ann, 1: bob}
        names = {0: "Ann (yellow)", 1: "Bob (red)"}
        turns = 0
        reopened = False
        while True:
            same_version([ann, pages[1], cy])
            if not ann.locator("#final").is_hidden():
                break
            mover = int(ann.get_attribute("#turn", "data-player") or "-1")
            assert mover in (0, 1)
            if turns >= 2 and mover == 1 and not reopened:
                # Bob's page goes away: Ann sees him offline; a new page of his browser takes the seat again
                pages[1].close()
                # startsWith: the seed is random, so Bob may be on a bonus turn ("... (menhir turn)")
                ann.wait_for_function("() => document.querySelector('#turn').textContent"
                                      ".startsWith('waiting for Bob (offline)')")
                assert ann.locator("#lobby li[data-seat='1'] .presence.offline").count() == 1
                pages[1] = open_page(ctx_bob, errors, "Bob again")
                pages[1].goto(server.url + f"#/play/{game_id}")
                pages[1].wait_for_selector("rect.target")
                ann.wait_for_function("() => document.querySelector('#turn').textContent"
                                      ".startsWith('Bob (red) is to play')")
                reopened = True
                continue
            me, other = pages[mover], pages[1 - mover]
            me.wait_for_selector("rect.target")
            assert me.inner_text("#turn").startswith(f"{names[mover]}: your turn")
            assert me.title() == "● Your turn — Hunters & Gatherers"
            for page in (other, cy):
                assert page.locator("rect.target").count() == 0
                assert page.locator("#actions").is_hidden()
                assert page.inner_text("#turn").startswith(f"{names[mover]} is to play")
                assert page.title() == "Hunters & Gatherers"
            if turns == 1:
                for who, page in (("ann", ann), ("bob", pages[1]), ("watch", cy)):
                    page.screenshot(path=str(ARTIFACTS / f"online-{who}-mid.png"))
            play_turn(me, keyboard=turns % 3 == 1)
            turns += 1
        assert reopened and turns >= 4
        finals = []
        for page in (ann, pages[1], cy):
            check_final_table(page)
            finals.append((scores(page), page.inner_text("#final-table"), page.inner_text("#winners")))
        assert finals[0] == finals[1] == finals[2], finals
        ann.screenshot(path=str(ARTIFACTS / "online-ann.png"))
        pages[1].screenshot(path=str(ARTIFACTS / "online-bob.png"))
        cy.screenshot(path=str(ARTIFACTS / "online-watch.png"))

        # each browser lists the game; only its creator may delete it
        for page, resume, delete in ((ann, 1, 1), (pages[1], 1, 0), (cy, 0, 0)):
            page.goto(server.url + "#/games")
            page.wait_for_selector(f"#games-table tr[data-game='{game_id}'] a.watch")
            assert page.locator("#games-table a.resume").count() == resume
            assert page.locator("#games-table button.delete").count() == delete
        assert "Bob" in pages[1].inner_text("#games-table")
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def hand_out(page: Any, seat: int) -> str:
    """The creator's page hands ``seat`` out: return its invitation link."""
    page.click(f"#lobby li[data-seat='{seat}'] button.hand-out")
    invite = page.locator(f"#lobby li[data-seat='{seat}'] .invite-link input")
    invite.wait_for()
    link: str = invite.input_value()
    page.wait_for_function(f"() => !document.querySelector(\"#lobby li[data-seat='{seat}'] .you\")")
    return link


def stored_games(page: Any) -> Any:
    return page.evaluate("JSON.parse(localStorage.getItem('hg-games'))")


def test_a_seat_handed_out_and_never_opened_is_not_joined_yet(server: Server, browser: Any) -> None:
    errors: list[str] = []
    contexts = [browser.new_context(viewport={"width": 1400, "height": 900}) for _ in range(2)]
    try:
        ann = open_page(contexts[0], errors, "Ann")
        start_game(ann, server.url, ["human", "human", "human"], short=6, name="Ann")
        links = {seat: hand_out(ann, seat) for seat in (1, 2)}
        for seat in (1, 2):
            ann.wait_for_selector(f"#lobby li[data-seat='{seat}'] .presence[data-presence='not-joined']")
            assert ann.inner_text(f"#lobby li[data-seat='{seat}'] .presence") == "not joined yet"
        assert ann.get_attribute("#lobby li[data-seat='0'] .presence", "data-presence") == "online"
        # Bob opens his link, then closes the page: his seat is offline, the unopened one still not joined
        bob = open_page(contexts[1], errors, "Bob")
        bob.goto(links[1])
        bob.wait_for_selector("#lobby li[data-seat='1'] .you")
        ann.wait_for_selector("#lobby li[data-seat='1'] .presence[data-presence='online']")
        bob.close()
        ann.wait_for_selector("#lobby li[data-seat='1'] .presence[data-presence='offline']")
        assert ann.get_attribute("#lobby li[data-seat='2'] .presence", "data-presence") == "not-joined"
        # the turn line says why the game waits
        play_turn(ann)
        ann.wait_for_function("() => document.querySelector('#turn').textContent.startsWith("
                              "'waiting for red (offline)')")
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_a_cut_invitation_link_costs_nothing_but_itself(server: Server, browser: Any) -> None:
    errors: list[str] = []
    contexts = [browser.new_context(viewport={"width": 1400, "height": 900}) for _ in range(2)]
    try:
        ann = open_page(contexts[0], errors, "Ann")
        start_game(ann, server.url, ["human", "human"], short=6, name="Ann")
        game_id = game_id_of(ann)
        link = hand_out(ann, 1)
        secret = link.rsplit("/", 1)[1]
        cut = link[:-4]   # a chat app cut its end off

        # Bob opens the cut link: it holds no seat, and says so; then the right one gets the seat
        bob = open_page(contexts[1], errors, "Bob")
        bob.goto(cut)
        bob.wait_for_function("() => /does not/.test(document.querySelector('#play-error').textContent)")
        assert bob.get_attribute("#connection", "data-connection") == "offline"
        assert stored_games(bob)[game_id].get("unplaced", []) == []   # the bad secret is forgotten
        bob.goto(link)
        bob.wait_for_selector("#lobby li[data-seat='1'] .you")
        assert bob.inner_text("#play-error") == ""
        assert stored_games(bob)[game_id]["seats"] == {"1": secret}
        bob.reload()
        bob.wait_for_selector("#lobby li[data-seat='1'] .you")
        ann.wait_for_selector("#lobby li[data-seat='1'] .presence[data-presence='online']")

        # the creator opens a cut link of her own game: she keeps her seat and the creator's rights
        before = stored_games(ann)[game_id]
        ann.goto(cut)
        ann.wait_for_function("() => /cut short/.test(document.querySelector('#play-error').textContent)")
        ann.wait_for_selector("#lobby li[data-seat='0'] .you")
        assert ann.locator("#lobby select.seat-bot").count() == 2   # the creator's tools
        assert ann.get_attribute("#connection", "data-connection") == "online"
        after = stored_games(ann)[game_id]
        assert (after["seats"], after.get("creator"), after.get("unplaced", [])) == (
            before["seats"], before["creator"], [])
        ann.reload()
        ann.wait_for_selector("#lobby li[data-seat='0'] .you")
        assert ann.inner_text("#play-error") == ""
        assert ann.locator("#lobby select.seat-bot").count() == 2
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_a_page_taken_offline_says_so_and_catches_up(server: Server, browser: Any) -> None:
    errors: list[str] = []
    contexts = [browser.new_context(viewport={"width": 1400, "height": 900}) for _ in range(2)]
    try:
        ann = open_page(contexts[0], errors, "Ann")
        start_game(ann, server.url, ["human", "human"], short=8, name="Ann")
        link = hand_out(ann, 1)
        bob = open_page(contexts[1], errors, "Bob")
        bob.goto(link)
        bob.wait_for_selector("#lobby li[data-seat='1'] .you")
        bob.select_option("#animation", "off")   # the tiles he missed come at once
        bob.wait_for_selector("#connection[data-connection='online']")
        ann.wait_for_selector("#lobby li[data-seat='1'] .presence[data-presence='online']")
        # Bob's network goes: his page says so within 15 s, and claims nobody online
        contexts[1].set_offline(True)
        bob.wait_for_selector("#connection[data-connection='offline']", timeout=15_000)
        assert bob.locator("#lobby .presence[data-presence='online']").count() == 0
        # the server notices the silence within 30 s: Ann sees Bob offline
        ann.wait_for_selector("#lobby li[data-seat='1'] .presence[data-presence='offline']", timeout=30_000)
        # Ann plays meanwhile (a menhir turn may give her two)
        while ann.get_attribute("#turn", "data-player") == "0":
            play_turn(ann)
            ann.wait_for_function("() => document.querySelector('#turn').dataset.player !== '0' || "
                                  "document.querySelector('rect.target')")
        tiles = board_tiles(ann)
        assert bob.locator("rect.target").count() == 0 and board_tiles(bob) < tiles
        # back online: Bob's page reconnects and shows the moves he missed; his turn
        contexts[1].set_offline(False)
        bob.wait_for_selector("#connection[data-connection='online']", timeout=15_000)
        same_version([ann, bob])
        assert board_tiles(bob) == tiles
        bob.wait_for_selector("rect.target")
        ann.wait_for_selector("#lobby li[data-seat='1'] .presence[data-presence='online']")
        play_turn(bob)
        same_version([ann, bob])
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_a_page_whose_socket_goes_silent_notices_and_reconnects(tmp_path: Path, servers: list[Server],
                                                                page: Any) -> None:
    """The server stops answering (its process paused) without closing anything: the page hears no
    ping, calls the socket dead (after two heartbeats and 2 s: 4 s with the 1 s heartbeat here, 12 s
    with the default 5 s), and is back once the server answers again."""
    server = Server(tmp_path / "games.sqlite", args=("--heartbeat", "1")).start()
    servers.append(server)
    start_game(page, server.url, ["human", "bot:easy"], short=5)
    page.wait_for_selector("#connection[data-connection='online']")
    page.wait_for_selector("#lobby .presence[data-presence='online']")   # the table has come
    assert server.proc is not None
    server.proc.send_signal(signal.SIGSTOP)
    try:
        page.wait_for_selector("#connection:not([data-connection='online'])", timeout=15_000)
        assert page.locator("#lobby .presence[data-presence='online']").count() == 1   # only the bot
    finally:
        server.proc.send_signal(signal.SIGCONT)
    page.wait_for_selector("#connection[data-connection='online']", timeout=30_000)
    assert page.inner_text("#connection") == "connected"
    page.wait_for_function(WAIT_TURN_OR_END)


def test_the_page_comes_as_one_script_and_module_by_module_with_no_bundle(
        tmp_path: Path, servers: list[Server], server: Server, browser: Any) -> None:
    """Where esbuild is installed the server sends the page's entry module with every module it
    imports (huntgather.server.client_bundle): the page asks for one script.  A server started with
    --no-bundle sends them one by one, and the page plays the same (a turn against a bot each)."""
    if esbuild_program() is None:
        pytest.skip("esbuild is not installed (Debian's package esbuild; scripts/test.sh installs it)")
    unbundled = Server(tmp_path / "games.sqlite", args=("--no-bundle",)).start()
    servers.append(unbundled)
    modules = len(list((REPO / "src" / "huntgather" / "web" / "js").glob("*.js")))
    for srv, expected in ((server, 1), (unbundled, 1 + modules)):
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        pg = open_page(context, errors, " ".join(srv.args) or "bundled")
        scripts: list[str] = []
        pg.on("request", lambda r, seen=scripts: seen.append(r.url)
              if "/static/" in r.url and r.url.endswith(".js") else None)
        start_game(pg, srv.url, ["human", "bot:greedy"], short=5)
        pg.wait_for_function(WAIT_TURN_OR_END)
        play_turn(pg)
        pg.wait_for_function(WAIT_TURN_OR_END)
        assert board_tiles(pg) >= 3, srv.args   # the start, mine and the bot's
        assert not errors, errors
        assert len(set(scripts)) == expected, (srv.args, sorted(set(scripts)))
        assert f"{srv.url}static/app.js" in scripts
        context.close()


def test_wrong_links_and_a_deleted_game_say_so(server: Server, browser: Any) -> None:
    errors: list[str] = []
    contexts = [browser.new_context(viewport={"width": 1400, "height": 900}) for _ in range(2)]
    try:
        ann = open_page(contexts[0], errors, "Ann")
        start_game(ann, server.url, ["human", "bot:easy"], short=5, name="Ann")
        game_id = game_id_of(ann)
        ann.wait_for_selector("rect.target")
        # the old address of a game still opens it
        ann.goto(server.url + f"#/game/{game_id}")
        ann.wait_for_function(f"() => location.hash === '#/play/{game_id}'")
        ann.wait_for_selector("rect.target")
        assert ann.inner_text("#connection") == "connected"
        # the game shows its remaining tiles, a hint tried (a tile waiting) and the hints after it
        ann.check("#show-remaining")
        ann.click("#hint")
        ann.click("#hints button.hint-turn >> nth=0")
        ann.wait_for_selector("#pending-tile")
        ann.wait_for_function("() => !document.querySelector('#hint').disabled")
        ann.click("#hint")
        ann.wait_for_selector("#hints button.hint-turn")
        assert ann.locator("#remaining-list svg").count() > 0
        # a wrong game link after a game shows nothing of the previous game
        ann.goto(server.url + "#/play/nosuchgame000")
        ann.wait_for_function("() => /no game/.test(document.querySelector('#play-error').textContent)")
        assert ann.locator("#viewport > *, #overlay > *").count() == 0
        assert ann.locator("#players tbody tr").count() == 0
        assert ann.locator("#log li").count() == 0
        assert ann.inner_text("#turn") == ""
        assert ann.locator("#tile-panel").is_hidden() and ann.locator("#actions").is_hidden()
        assert ann.locator("#hints > *, #choices > *, #final-table *").count() == 0
        assert ann.locator("#final").is_hidden()
        assert ann.locator("#current-tile > *, #bar-tile > *, #remaining-list > *").count() == 0
        assert ann.locator("#counts").is_hidden() and ann.locator("#remaining-list").is_hidden()
        assert ann.locator("#name-form").is_hidden() and ann.locator("#lobby").is_hidden()
        assert ann.locator("#players").is_hidden()   # not even the scores' heading
        assert ann.evaluate("document.querySelector('#turn').style.borderLeft") == ""   # nor a mover's colour
        ann.screenshot(path=str(ARTIFACTS / "ui-wrong-link.png"))
        # pages without a game say nothing about a connection
        for screen in ("#/games", "#/new", "#/help"):
            ann.goto(server.url + screen)
            ann.wait_for_selector(f"#screen-{screen[2:]}:not([hidden])")
            assert ann.inner_text("#connection") == ""
        ann.goto(server.url + f"#/play/{game_id}")
        ann.wait_for_selector("rect.target")

        other = open_page(contexts[1], errors, "other")
        other.clock.install()   # the page's timers, to run them ahead below
        other.goto(server.url + f"#/play/{game_id}/AAAAAAAAAAAAAAAAAAAAAA")   # a secret of no seat
        other.wait_for_function("() => /does not/.test(document.querySelector('#play-error').textContent)")
        assert other.inner_text("#connection") == "not connected"
        assert other.locator(f"#play-error a[href='#/watch/{game_id}']").count() == 1
        assert other.locator("rect.target").count() == 0
        other.goto(server.url + "#/play/nosuchgame000")
        other.wait_for_function("() => /no game/.test(document.querySelector('#play-error').textContent)")
        # no reconnecting after a final answer: thirty seconds of the page's timers open no socket
        sockets: list[Any] = []
        other.on("websocket", lambda ws: sockets.append(ws))
        other.clock.run_for(30_000)
        assert other.evaluate("1") == 1 and sockets == []
        assert other.inner_text("#connection") == "not connected"
        other.goto(server.url + f"#/watch/{game_id}")
        other.wait_for_selector("#watching:not([hidden])")
        ann.goto(server.url + f"#/play/{game_id}")
        ann.wait_for_function("() => document.querySelector('#lobby-watchers').dataset.count === '1'")

        # the creator deletes the game: the watcher is told, and its list says the game is gone
        ann.goto(server.url + "#/games")
        ann.wait_for_selector("#games-table button.delete")
        ann.once("dialog", lambda dialog: dialog.accept())
        ann.click("#games-table button.delete")
        ann.wait_for_function(
            "() => /No saved games/.test(document.querySelector('#games-table tbody').textContent)")
        other.wait_for_function("() => /deleted/.test(document.querySelector('#play-error').textContent)")
        assert other.inner_text("#connection") == "not connected"
        other.goto(server.url + "#/games")
        other.wait_for_selector(f"#games-table tr.gone[data-game='{game_id}'] button.forget")
        other.click("#games-table button.forget")
        other.wait_for_function(
            "() => /No saved games/.test(document.querySelector('#games-table tbody').textContent)")
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_no_two_occupant_spots_on_a_tile_overlap(server: Server, page: Any) -> None:
    """Every spot a player may tap stays a target of its own, on every tile of both editions.

    The worst case of one turn: a meeple on every zone of the placed tile and a hut on every
    water zone, in all four rotations.  Spots are circles of radius 7, so centres at least
    16 px apart never touch, and each stays inside its 100 px tile (8 px from the edge).
    """
    page.goto(server.url)
    page.wait_for_selector("body[data-ready='1']")
    found = page.evaluate("""async () => {
      const { clearOf } = await import('/static/js/spots.js');
      const bad = [];
      let tiles = 0;
      for (const edition of ['2020', '2002']) {
        const ts = await (await fetch('/api/tiles/' + edition)).json();
        for (const [id, t] of Object.entries(ts.tiles)) {
          for (let r = 0; r < 4; r++) {
            const placed = [];
            for (const [zone, a] of Object.entries(t.anchors[r])) {
              const pieces = t.zones[zone].water ? ['meeple', 'hut'] : ['meeple'];
              for (const piece of pieces) {
                const spot = { x: 300 + a[0], y: 500 + a[1], zone, piece };
                clearOf(spot, placed);
                placed.push(spot);
              }
            }
            tiles++;
            for (const s of placed) {
              if (s.x < 308 || s.x > 392 || s.y < 508 || s.y > 592) bad.push([edition, id, r, 'outside', s]);
              for (const q of placed) {
                if (q !== s && Math.hypot(q.x - s.x, q.y - s.y) < 16) bad.push([edition, id, r, s, q]);
              }
            }
          }
        }
      }
      return { bad: bad.slice(0, 5), tiles };
    }""")
    assert found["tiles"] == 4 * (95 + 91)   # every tile of both editions, in 4 rotations
    assert found["bad"] == []


# ---------------------------------------------------------------------------- phones and layout

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
TOUCH_TARGET = 44   # px: the smallest target a finger hits reliably


def on_screen(page: Any, box: dict[str, float] | None) -> bool:
    """Whether ``box`` lies wholly inside the board's visible area."""
    board = page.locator("#board").bounding_box()
    return bool(box and board and box["x"] >= board["x"] and box["y"] >= board["y"]
                and box["x"] + box["width"] <= board["x"] + board["width"]
                and box["y"] + box["height"] <= board["y"] + board["height"])


def camera_scale(page: Any) -> float:
    transform = page.get_attribute("#viewport", "transform") or ""
    return float(transform.split("scale(")[1].rstrip(")"))


def pinch(page: Any, centre: tuple[float, float], start: float, end: float) -> None:
    """Two fingers on the screen ``start`` px apart, moved to ``end`` px apart (Chrome's touch input)."""
    cdp = page.context.new_cdp_session(page)
    cx, cy = centre

    def touch(kind: str, gap: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": cx - gap / 2, "y": cy, "id": 1},
                                                {"x": cx + gap / 2, "y": cy, "id": 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", start)
    for i in range(1, 6):
        touch("touchMove", start + (end - start) * i / 5)
    touch("touchEnd", end)
    cdp.detach()


def test_a_turn_on_a_phone_held_upright_by_touch(server: Server, browser: Any) -> None:
    """390×844, touch only: the board fills the screen, squares and spots are finger-sized, a tap
    places the tile, a tap on it turns it, a tap elsewhere moves it (no undo), two fingers zoom."""
    errors: list[str] = []
    context = browser.new_context(**PHONE)
    try:
        page = open_page(context, errors, "phone")
        start_game(page, server.url, ["human", "bot:easy"], short=6, seed=4)
        page.wait_for_selector("rect.target")
        page.screenshot(path=str(ARTIFACTS / "phone-start.png"))
        # the page fits the phone: nothing to scroll, and the board has most of the screen
        assert page.evaluate("document.documentElement.scrollHeight") <= 844
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        board = page.locator("#board").bounding_box()
        assert board is not None and board["width"] >= 380 and board["height"] >= 0.5 * 844
        assert on_screen(page, page.locator("#turn").bounding_box()) is False   # the banner is below
        assert page.locator("#turn").is_visible() and page.locator("#confirm").is_visible()
        # every legal square in view is a finger-sized target, and at least one is in view
        targets = [t for t in page.locator("rect.target").all() if on_screen(page, t.bounding_box())]
        assert targets
        for t in targets:
            box = t.bounding_box()
            assert box is not None and min(box["width"], box["height"]) >= TOUCH_TARGET, box
        for button in ("#confirm", "#undo", "#hint", "#sheet-toggle"):
            box = page.locator(button).bounding_box()
            assert box is not None and box["height"] >= TOUCH_TARGET, (button, box)
        # tap a square: the tile goes there and is shown large, its spots finger-sized
        tiles = board_tiles(page)
        targets[0].tap()
        page.wait_for_selector("#pending-tile")
        page.wait_for_function("() => !document.querySelector('#confirm').disabled")
        frame = page.locator("rect.pending-frame")
        first = (frame.get_attribute("x"), frame.get_attribute("y"))
        spots = page.locator("g.spot").all()
        for spot in spots:
            box = spot.bounding_box()
            assert box is not None and min(box["width"], box["height"]) >= TOUCH_TARGET, box
        page.screenshot(path=str(ARTIFACTS / "phone-pending.png"))
        # tap the tile: it turns to its next rotation that fits there (if it has another)
        if page.locator("#pending-tile.turnable").count():
            before = page.inner_html("#pending-tile")
            page.locator("#pending-tile").tap()
            page.wait_for_function("(b) => document.querySelector('#pending-tile') && "
                                   "document.querySelector('#pending-tile').innerHTML !== b", arg=before)
            assert (frame.get_attribute("x"), frame.get_attribute("y")) == first
        # tap another square: the tile moves there, without undo
        page.locator("#zoom-fit").tap()
        others = [t for t in page.locator("rect.target").all() if on_screen(page, t.bounding_box())]
        if others:
            others[0].tap()
            page.wait_for_function("(f) => { const r = document.querySelector('rect.pending-frame'); "
                                   "return r && (r.getAttribute('x') + ',' + r.getAttribute('y')) !== f }",
                                   arg=",".join(str(v) for v in first))
        page.wait_for_function("() => !document.querySelector('#confirm').disabled")
        # a spot, by touch, then confirm
        spot = page.locator("g.spot").first
        if spot.count():
            spot.tap()
            page.wait_for_selector("#choices button.selected")
        page.locator("#confirm").tap()
        page.wait_for_function("(n) => document.querySelectorAll('#viewport > g > g.hg-tile').length > n"
                               " && !document.querySelector('#pending-tile')", arg=tiles)
        # two fingers spread apart zoom in
        page.locator("#zoom-fit").tap()
        before_k = camera_scale(page)
        pinch(page, (board["x"] + board["width"] / 2, board["y"] + board["height"] / 2), 60, 180)
        assert camera_scale(page) > before_k * 1.5
        # the panel slides up for the scores and the log, and down again
        assert page.locator("#log").is_hidden()
        page.locator("#sheet-toggle").tap()
        page.wait_for_selector("#log", state="visible")
        page.wait_for_timeout(300)   # the slide
        page.screenshot(path=str(ARTIFACTS / "phone-panel.png"))
        assert page.locator("#players").is_visible()
        page.locator("#sheet-toggle").tap()
        page.wait_for_selector("#log", state="hidden")
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_every_character_the_page_shows_has_a_glyph_in_debians_fonts() -> None:
    """⏮ and ⏭ showed as empty boxes: every non-ASCII character of the page must be in an
    installed font (fontconfig comes with Debian's chromium)."""
    fc_list = shutil.which("fc-list")
    assert fc_list is not None, "fontconfig's fc-list is missing"
    web = REPO / "src" / "huntgather" / "web"
    sources = [web / "index.html", *sorted(web.rglob("*.js"))]   # the page and every module of the client
    chars = {c for path in sources for c in path.read_text(encoding="utf-8") if ord(c) > 127}
    assert chars   # the page does use some (· — ▲ …)
    missing = [c for c in sorted(chars)
               if not subprocess.run([fc_list, f":charset={ord(c):x}", "family"], capture_output=True,
                                     text=True, check=True).stdout.strip()]
    assert missing == [], f"no installed font draws {missing}"


def test_a_whole_game_numbers_its_log_past_99_and_keeps_pieces_apart(own_server: Server, page: Any) -> None:
    """Two bots play a whole game while the page watches: log numbers of three digits show whole
    (the bug: "00."), and no two pieces on one tile overlap."""
    start_game(page, own_server.url, ["bot:random", "bot:random"], short=None, seed=5)
    # what did not change stays in the page from one update to the next (put in anew, the whole
    # board was painted and rasterised again at every move): the first run of tiles drawn as a
    # picture (once whole: 8 tiles) is the same element at the end of the game
    page.wait_for_function("() => { const run = document.querySelector('#viewport g.hg-run');"
                           " return run && run.querySelectorAll('g.hg-tile').length === 8"
                           " && (window.firstRun = run); }")
    page.wait_for_selector("#final:not([hidden])", timeout=120_000)
    assert page.evaluate("window.firstRun.isConnected"
                         " && document.querySelector('#viewport g.hg-run') === window.firstRun")
    numbers = page.locator("#log li .n")
    count = numbers.count()
    assert count >= 100, count
    page.locator("#log li").nth(99).scroll_into_view_if_needed()
    log_box = page.locator("#log").bounding_box()
    hundredth = page.locator("#log li").nth(99)
    assert hundredth.locator(".n").inner_text() == "100."
    box = hundredth.locator(".n").bounding_box()
    assert log_box is not None and box is not None and box["x"] >= log_box["x"]
    width = hundredth.locator(".n").evaluate("n => n.scrollWidth <= n.clientWidth + 1")
    assert width, "the number is cut off"
    centres = page.evaluate("""() => [...document.querySelectorAll('#viewport g.piece')].map(g => {
        const b = g.getBBox(); return [g.dataset.tile, b.x + b.width / 2, b.y + b.height / 2]; })""")
    assert len(centres) > 0
    halos = page.locator("#viewport g.piece path.halo[stroke='#fff']")   # see test_svg: contrast
    assert halos.count() == len(centres)
    # hunters lie down (turned a quarter), the other pieces stand
    for piece in page.locator("#viewport g.piece").all():
        lying = piece.locator("g[transform^='rotate(90']").count() == 1
        assert lying == (piece.get_attribute("data-role") == "hunter")
    for i, (tile, x, y) in enumerate(centres):
        for other, x2, y2 in centres[i + 1:]:
            if other == tile:
                assert ((x - x2) ** 2 + (y - y2) ** 2) ** 0.5 >= 15.9, (tile, x, y, x2, y2)
    check_final_table(page)
    # scoring you can see: every feature scored with points floated "+N" as it happened (the
    # page watched from the first move), and a log line or final row lights up its squares
    with urllib.request.urlopen(f"{own_server.url}api/games/{game_id_of(page)}") as r:
        log = json.load(r)["log"]
    scored = [e for e in log if e["kind"] == "FeatureScored" and any(p > 0 for p in e["points"])]
    assert page.evaluate("Number(document.body.dataset.scoreFloats || 0)") == len(scored)
    # and every piece that went home (a feature scored, a shaman's take-back) was shown going
    returned = sum(len(e["returned"]) for e in log if e["kind"] == "OccupantsReturned")
    returned += sum(1 for e in log if e["kind"] == "MeepleTakenBack")
    assert returned > 0
    assert page.evaluate("Number(document.body.dataset.returns || 0)") == returned
    lines = page.locator("#log li.has-feature")
    assert lines.count() == sum(1 for e in log if e["kind"] == "FeatureScored" and e["tiles"])
    if lines.count():
        line = lines.first
        line.hover()
        tiles = set((line.get_attribute("data-tiles") or "").split(","))
        assert page.locator("#overlay rect.scored-hl").count() == len(tiles)
        page.mouse.move(1, 1)
        page.locator("#log").hover(position={"x": 1, "y": 1})
    rows = page.locator("#final-table tr.has-feature")
    if rows.count():
        rows.first.hover()
        tiles = set((rows.first.get_attribute("data-tiles") or "").split(","))
        assert page.locator("#overlay rect.scored-hl").count() == len(tiles)
    page.screenshot(path=str(ARTIFACTS / "ui-scoring-highlight.png"))


def test_a_seed_that_is_not_a_plain_whole_number_is_refused(server: Server, page: Any) -> None:
    """The bug: "1e30" silently became seed 1."""
    page.goto(server.url + "#/new")
    page.wait_for_selector("body[data-ready='1']")
    # (the seats' colours and letters are the server's, not a copy in the page)
    from huntgather.svg import PLAYER_COLOURS, PLAYER_LETTERS
    swatches = page.locator("#seats .swatch")
    for i in range(swatches.count()):
        r, g, b = (int(PLAYER_COLOURS[i][k:k + 2], 16) for k in (1, 3, 5))
        assert swatches.nth(i).evaluate("e => getComputedStyle(e).backgroundColor") == f"rgb({r}, {g}, {b})"
        assert swatches.nth(i).inner_text() == PLAYER_LETTERS[i]
    for bad in ("1e30", "7.5", "-3", "99999999999999999999"):
        page.fill("#seed", bad)
        page.click("#start-game")
        page.wait_for_function("() => /seed must be/.test(document.querySelector('#new-error').textContent)")
        assert page.evaluate("location.hash") == "#/new", bad
        page.evaluate("document.querySelector('#new-error').textContent = ''")
    assert page.evaluate("Object.keys(JSON.parse(localStorage.getItem('hg-games') || '{}')).length") == 0
    # the largest seed is sent exactly (a JavaScript number would round it): the game deals as
    # the engine does from that very seed
    largest = 2 ** 63 - 1
    page.fill("#seed", str(largest))
    page.click("#start-game")
    page.wait_for_selector("#screen-play:not([hidden])")
    page.wait_for_function("() => /^#\\/play\\/[A-Za-z0-9_-]+$/.test(location.hash)")
    with urllib.request.urlopen(f"{server.url}api/games/{game_id_of(page)}") as r:
        view = json.load(r)
    assert view["deal"] == "seeded"
    assert view["decision"]["tile"] == Game(2, seed=largest).decision.tile


def test_the_rules_screen_has_the_rules_the_letters_and_every_tile(server: Server, page: Any) -> None:
    """One page's Rules screen, from the app's start page: the rules with diagrams of real
    positions in both editions, the key to the letters from the server, and the sheet of every
    tile of both editions (three checks of one screen, each its own function)."""
    page.goto(server.url)
    page.wait_for_selector("body[data-ready='1']")
    check_the_rules_are_in_the_app_with_diagrams_of_real_positions(page)
    check_the_key_to_the_letters_comes_from_the_server(page)
    check_the_tile_sheet_shows_every_tile_of_both_editions(server, page)


def check_the_rules_are_in_the_app_with_diagrams_of_real_positions(page: Any) -> None:
    page.click("#nav-help")
    page.wait_for_selector("#rules[data-edition='2020'] figure.diagram svg")
    text = page.inner_text("#rules")
    # 2020 rulebook: forests 2 per tile and 3 per mushroom group; mammoth 3, aurochs 2, deer 1
    assert "2 points per tile and 3 per group of mushrooms" in text
    assert "mammoth 3, aurochs 2, deer 1" in text
    # rulebook example 5: a river of 3 tiles with 2 fish scores 3 + 2 = 5 for the fisher
    captions = page.locator("#rules figcaption").all_inner_texts()
    assert any("scores 5 points for the river of 3 tiles (3 tiles + 2 fish)" in c for c in captions)
    # the forest of 3 tiles with a menhir: 3 × 2 = 6, and the closer plays a menhir tile
    assert any("scores 6 points (3 tiles × 2)" in c and "plays a menhir tile" in c for c in captions)
    # a river closed by a lake at each end: 4 tiles + 5 fish, the two fishers tie and both score 9
    assert any("4 tiles + 5 fish" in c and "both score the 9 points" in c for c in captions)
    # the end of a game: a hut scores its river system's fish, a hunter its meadow's animals
    assert any("2 fish = 2 → yellow (1 hut)" in c and "= 3 → red (1 hunter)" in c for c in captions)
    # the pit trap doubles the animals of its area: 2 mammoths ×6 + 2 aurochs ×4 = 20
    assert any("pit trap" in c and "= 20 → yellow (1 hunter)" in c for c in captions)
    # the diagrams are whole positions: 3 + 4 + 3 + 4 + 10 tiles
    assert page.locator("#rules figure.diagram svg g.hg-tile").count() == 24
    for special in ("Shaman:", "Pit trap:", "Logboat:"):
        assert special in text
    page.screenshot(path=str(ARTIFACTS / "rules-2020.png"), full_page=True)
    page.click("#rules-editions button[data-edition='2002']")
    page.wait_for_selector("#rules[data-edition='2002']")
    text = page.inner_text("#rules")
    # 2002 rulebook: mushrooms 2 per group, every animal 2, gold nuggets earn a bonus tile
    assert "2 points per tile and 2 per group of mushrooms" in text
    assert "mammoth 2, aurochs 2, deer 2" in text and "gold nugget" in text and "bonus tile" in text
    assert "Logboat:" not in text and "Shrine:" in text
    # its diagram: a forest of 3 tiles with a gold nugget, 3 × 2 = 6, and a bonus tile for the closer
    page.wait_for_selector("#rules[data-edition='2002'] figure.diagram svg")
    captions = page.locator("#rules figcaption").all_inner_texts()
    assert any("6 points (3 tiles × 2)" in c and "plays a bonus tile" in c for c in captions)


def check_the_key_to_the_letters_comes_from_the_server(page: Any) -> None:
    """The Rules screen's key names every seat's letter and every piece's, as /api/editions gives
    them (nothing copied into the page)."""
    page.wait_for_function("() => document.querySelector('#help-letters').textContent.includes(':')")
    key = page.inner_text("#help-letters")
    meta = page.evaluate("fetch('/api/editions').then((r) => r.json())")
    for colour in meta["colours"]:
        assert f"{colour['letter']} {colour['name']}" in key
    for role, letter in meta["roles"].items():
        assert f"{letter} {role}" in key
    assert "Y yellow" in key and "F fisher" in key   # what a player reads


def check_the_tile_sheet_shows_every_tile_of_both_editions(server: Server, page: Any) -> None:
    page.goto(server.url + "#/help")
    page.wait_for_selector("#rules figure")
    page.click("#to-tiles")
    page.wait_for_selector("#tile-sheet[data-done='1']")
    for edition, count in (("2020", 95), ("2002", 91)):   # the rulebooks' tile counts
        for style in ("painted", "clean"):   # both styles of the tiles setting
            tiles = page.locator(f"#tile-sheet section[data-edition='{edition}'][data-style='{style}'] "
                                 "figure.sheet-tile")
            assert tiles.count() == count
            assert tiles.locator("svg g.hg-tile").count() == count
            assert tiles.locator("svg g.hg-painted").count() == (count if style == "painted" else 0)
    # the 2020 start tile, with its contents in words
    caption = page.inner_text("#tile-sheet section[data-edition='2020'][data-style='clean'] "
                              "figure[data-tile='56'] figcaption")
    assert caption == "56 · start · meadow (an aurochs) · forest (1 menhir) · meadow · river · lake (1 fish)"
    page.screenshot(path=str(ARTIFACTS / "tile-sheet.png"))
    for style in ("painted", "clean"):   # for the eye: the 2002 tiles in each style
        heading = page.locator(f"#tile-sheet section[data-edition='2002'][data-style='{style}'] h3")
        heading.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"tile-sheet-{style}.png"))


def finished_game(seed: int) -> tuple[GameSetup, Game]:
    """A seeded 2-player game played at random to its end."""
    setup = GameSetup(seed=seed)
    game = build_game(setup)
    moves = random.Random(seed)
    while not game.state.is_over:
        legal = game.state.legal_moves()
        game.play(legal[moves.randrange(len(legal))])
    return setup, game


#: the board's placed tiles as drawn: its runs (web/js/pictures.js: an <image> and an empty mark per
#: tile), the tiles drawn as elements, and the ids of the clean defs as pictures.js indexes them
BOARD_RUNS_JS = """async () => {
  const { defsIndex } = await import('/static/js/pictures.js');
  const ts = await (await fetch('/api/tiles/2020?style=clean')).json();
  const attr = (e, ...names) => names.map((n) => e.getAttribute(n));
  return {
    runs: [...document.querySelectorAll('#viewport > g.hg-run')].map((r) => ({
      image: attr(r.querySelector(':scope > image'), 'href', 'x', 'y', 'width', 'height'),
      marks: [...r.querySelectorAll(':scope > g.hg-tile')].map((g) => g.outerHTML) })),
    rest: [...document.querySelectorAll('#viewport > g:not(.hg-run) > g.hg-tile')].map((g) => g.outerHTML),
    defs: [...defsIndex(ts.defs).keys()],
    ids: [...ts.defs.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]),
  };
}"""

#: the SVG documents pictures.js makes of runs of cells, from the served clean tiles
RUN_DOCUMENTS_JS = """async (runs) => {
  const { defsIndex, runDocument } = await import('/static/js/pictures.js');
  const ts = await (await fetch('/api/tiles/2020?style=clean')).json();
  return runs.map((cells) => runDocument(ts, cells, defsIndex(ts.defs)));
}"""


def test_the_tile_style_switches_the_board_and_persists(tmp_path: Path, browser: Any) -> None:
    """The tiles setting: painted by default, with bigger pieces; "clean" redraws the board at once
    with the clean pictures the server draws (the very fragments of /api/tiles?style=clean) and
    the pieces at their old size, and a reload keeps it."""
    setup, game = finished_game(7)
    db = tmp_path / "games.sqlite"
    storage = Storage(str(db))
    storage.create("painted00001", setup.to_json(), [str(m) for m in game.history],
                   [SeatRow(i, "human", None, None, None, False) for i in range(2)])
    storage.close()
    ARTIFACTS.mkdir(exist_ok=True)
    srv = Server(db)
    srv.start()
    errors: list[str] = []
    version = f"body[data-version='{len(game.history)}']"
    cells = len(game.state.board.cells)
    try:
        phone = browser.new_context(**PHONE)
        try:   # the board at Fit zoom on a phone, painted (the default), for the eye
            small = open_page(phone, errors, "phone watcher")
            small.goto(srv.url + "#/watch/painted00001")
            small.wait_for_selector(version)
            assert small.locator("body[data-tile-style='painted']").count() == 1
            assert small.locator("#viewport > g > g.hg-tile.hg-painted").count() == cells
            small.screenshot(path=str(ARTIFACTS / "phone-board-painted.png"))
            box = small.locator("#board").bounding_box()
            assert box is not None
            small.screenshot(path=str(ARTIFACTS / "phone-board-painted-close.png"),
                             clip={"x": box["x"] + box["width"] / 2 - 95, "width": 190,
                                   "y": box["y"] + box["height"] / 2 - 75, "height": 150})
        finally:
            phone.close()
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        try:
            page = open_page(context, errors, "watcher")
            page.goto(srv.url + "#/watch/painted00001")
            page.wait_for_selector(version)
            assert page.locator("#viewport > g > g.hg-tile.hg-painted").count() == cells
            pieces = page.locator("#viewport g.piece path.body")
            assert pieces.count() > 0
            assert all("scale(1.25)" in (p.get_attribute("transform") or "") for p in pieces.all())
            page.select_option("#tile-style", "clean")
            page.wait_for_selector("body[data-tile-style='clean']")
            page.wait_for_function("() => !document.querySelector('#viewport g.hg-painted')")
            assert page.locator("#viewport > g > g.hg-tile").count() == cells

            def clean_as_served() -> None:
                with urllib.request.urlopen(f"{srv.url}api/tiles/2020?style=clean") as r:
                    served = json.load(r)["tiles"]
                placed = list(game.state.board.cells.items())   # in the order placed
                page.wait_for_selector("#board[data-pictures='ready']")
                drawn = page.evaluate(BOARD_RUNS_JS)
                run = 8   # pictures.js RUN: the tiles in runs, each run one picture
                runs = [placed[i:i + run] for i in range(0, len(placed), run)]
                assert len(drawn["runs"]) == len(runs) and drawn["rest"] == []
                for r, cells in zip(drawn["runs"], runs, strict=True):
                    marks = [f'<g class="hg-tile" data-tile="{tid}"></g>' for _, (tid, _) in cells]
                    assert r["marks"] == marks
                    href, *box = r["image"]
                    assert href.startswith("blob:")
                    xs, ys = [x for (x, _), _ in cells], [y for (_, y), _ in cells]
                    x0, y0 = min(xs) * 100 - 4, min(ys) * 100 - 4
                    assert [float(b) for b in box] == [x0, y0, max(xs) * 100 + 104 - x0,
                                                       max(ys) * 100 + 104 - y0]
                # every def is found by its id, and each run's picture is made of its tiles' served
                # clean pictures, untouched (tests/js/pictures.test.mjs has the rest of it)
                assert drawn["defs"] == drawn["ids"] and len(drawn["ids"]) > 10
                docs = page.evaluate(RUN_DOCUMENTS_JS, [
                    [{"x": x, "y": y, "tile": tid, "rotation": rot} for (x, y), (tid, rot) in cells]
                    for cells in runs])
                for doc, cells in zip(docs, runs, strict=True):
                    for (x, y), (tid, rot) in cells:
                        picture = served[str(tid)]["svg"][rot]
                        assert f'<g transform="translate({x * 100} {y * 100})">{picture}</g>' in doc
                    assert "hg-painted" not in doc
                bodies = page.locator("#viewport g.piece path.body")
                assert bodies.count() == pieces.count()
                assert all("scale(" not in (p.get_attribute("transform") or "") for p in bodies.all())

            clean_as_served()
            page.screenshot(path=str(ARTIFACTS / "board-clean.png"))
            page.reload()
            page.wait_for_selector(version)
            assert page.input_value("#tile-style") == "clean"
            clean_as_served()
            page.select_option("#tile-style", "painted")   # and back
            page.wait_for_function("() => document.querySelectorAll('#viewport g.hg-painted').length > 0")
            page.screenshot(path=str(ARTIFACTS / "board-painted.png"))
        finally:
            context.close()
    finally:
        srv.stop()
    assert not errors, f"JavaScript errors: {errors}"


# ---------------------------------------------------------------------------- the board's warnings


def stuck_position(seed: int) -> tuple[GameSetup, Game]:
    """A seeded game played at random until a fisher or gatherer is stuck: no tile left in the
    stacks can complete its river or forest (``huntgather.outlook``)."""
    setup = GameSetup(seed=seed)
    game = build_game(setup)
    moves = random.Random(seed)
    while not any(o["stuck"] for o in occupants_view(game.state)):
        assert not game.state.is_over, "no meeple got stuck in this game"
        legal = game.state.legal_moves()
        game.play(legal[moves.randrange(len(legal))])
    return setup, game


def test_a_stuck_meeple_is_marked_with_a_red_exclamation_mark(tmp_path: Path, browser: Any) -> None:
    """A meeple whose river or forest can no longer be completed shows a red "!"; the others none."""
    setup, game = stuck_position(3)
    db = tmp_path / "games.sqlite"
    storage = Storage(str(db))   # the game is stored as the server stores games, then served
    storage.create("stuck0000001", setup.to_json(), [str(m) for m in game.history],
                   [SeatRow(i, "human", None, None, None, False) for i in range(2)])
    storage.close()
    ARTIFACTS.mkdir(exist_ok=True)
    srv = Server(db)
    srv.start()
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = open_page(context, errors, "watcher")
        page.goto(srv.url + "#/watch/stuck0000001")
        page.wait_for_selector(f"body[data-version='{len(game.history)}']")
        with urllib.request.urlopen(f"{srv.url}api/games/stuck0000001") as r:
            occupants = json.load(r)["occupants"]
        stuck = sorted(str(o["tile"]) for o in occupants if o["stuck"])
        assert stuck and len(stuck) < len(occupants)   # some pieces are stuck, not all
        marked = page.locator("#viewport g.piece.stuck")
        assert sorted(m.get_attribute("data-tile") or "" for m in marked.all()) == stuck
        assert page.locator("#viewport g.piece .stuck-mark").count() == len(stuck)   # none on the others
        mark = marked.first.locator(".stuck-mark")
        assert mark.locator("text").text_content() == "!"
        assert mark.locator("circle").evaluate("c => getComputedStyle(c).fill") == "rgb(176, 0, 32)"
        title = marked.first.locator("title").text_content() or ""
        kind = next(o for o in occupants if o["stuck"] and str(o["tile"]) == stuck[0])["role"]
        feature = {"fisher": "river", "gatherer": "forest"}[kind]
        assert f"stuck: no tile left can complete this {feature}" in title
        page.screenshot(path=str(ARTIFACTS / "stuck-meeple.png"))
        # a closer look, saved for the eye: the wheel zooms in about the mark
        box = mark.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        for _ in range(16):
            page.mouse.wheel(0, -100)
        page.wait_for_function("() => document.querySelector('#viewport').getAttribute('transform')"
                               ".includes('scale(')")
        box = mark.bounding_box()
        assert box is not None and box["width"] >= 12   # the mark is big enough to see now
        page.screenshot(path=str(ARTIFACTS / "stuck-meeple-close.png"),
                        clip={"x": max(0, box["x"] - 120), "y": max(0, box["y"] - 90),
                              "width": 260, "height": 200})
        # the same table on a phone held upright, for the eye
        phone = browser.new_context(**PHONE)
        try:
            small = open_page(phone, errors, "phone watcher")
            small.goto(srv.url + "#/watch/stuck0000001")
            small.wait_for_selector(f"body[data-version='{len(game.history)}']")
            assert small.locator("#viewport g.piece.stuck").count() == len(stuck)
            small.screenshot(path=str(ARTIFACTS / "stuck-meeple-phone.png"))
        finally:
            phone.close()
    finally:
        context.close()
        srv.stop()
    assert not errors, f"JavaScript errors: {errors}"


# ---------------------------------------------------------------------------- contrast

CONTRAST_JS = """() => {
  // WCAG 2 contrast of the colours the page really uses (getComputedStyle), text against the
  // background it sits on (the nearest painted ancestors, blended)
  const rgba = (c) => { const m = c.match(/[\\d.]+/g) || ['0', '0', '0', '0'];
    return [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1]; };
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const over = (top, under) =>
    top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3])).concat([1]);
  const background = (el) => {
    const layers = [];
    for (let a = el; a; a = a.parentElement) {
      const c = rgba(getComputedStyle(a).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let bg = [255, 255, 255, 1];
    for (const c of layers.reverse()) bg = over(c, bg);
    return bg;
  };
  const bad = [];
  let checked = 0;
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg') || !el.getClientRects().length) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (el.closest(':disabled, [hidden]')) continue;   // inactive controls are exempt (WCAG 1.4.3)
    const text = over(rgba(getComputedStyle(el).color), background(el));
    const r = ratio(text, background(el));
    checked++;
    if (r < 4.5) bad.push([el.tagName + (el.id ? '#' + el.id : '') + '.' + el.className,
      el.textContent.trim().slice(0, 30), Math.round(r * 100) / 100]);
  }
  return { bad, checked };
}"""

PIECES_JS = """async () => {
  // every player's piece as the board draws it, on every terrain colour the tiles use
  const { pieceSvg } = await import('/static/js/pieces.js');
  const meta = await (await fetch('/api/editions')).json();
  const ts = await (await fetch('/api/tiles/2020')).json();
  const probe = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  document.body.append(probe);
  probe.innerHTML = ts.defs + Object.values(ts.tiles).map((t) => t.svg[0]).join('');
  const shapes = probe.querySelectorAll('g.hg-tile > path, g.hg-tile > polygon, g.hg-tile > rect');
  const terrains = new Set([...shapes]
    .map((p) => getComputedStyle(p).fill).filter((f) => f.startsWith('rgb')));
  probe.innerHTML = '';
  const out = [];
  meta.colours.forEach((c, seat) => {
    const g = pieceSvg(meta, seat, 'meeple', 50, 50, 'fisher', 'probe');
    probe.append(g);
    out.push({ seat, body: getComputedStyle(g.querySelector('path.body')).fill,
      outline: getComputedStyle(g.querySelector('path.body')).stroke,
      halo: getComputedStyle(g.querySelector('path.halo')).stroke,
      letter: getComputedStyle(g.querySelector('text')).fill });
  });
  probe.remove();
  return { pieces: out, terrains: [...terrains] };
}"""


def _rgb(css: str) -> tuple[int, int, int]:
    r, g, b = (int(float(v)) for v in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    return r, g, b


def _contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    def lum(c: tuple[int, int, int]) -> float:
        f = [v / 255 for v in c]
        g = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in f]
        return 0.2126 * g[0] + 0.7152 * g[1] + 0.0722 * g[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_text_and_pieces_have_enough_contrast(server: Server, page: Any) -> None:
    """WCAG 2 AA: text at least 4.5:1 against its background, on every screen; pieces at least
    3:1 against every terrain (by their white halo or their black outline), and their letters
    4.5:1 on the player's colour."""
    failures = {}
    page.goto(server.url + "#/new")
    page.wait_for_selector("body[data-ready='1']")
    for _ in range(3):
        page.click("#add-seat")   # all five colours
    for _ in range(2):
        page.locator("#seats select").nth(1).select_option("bot:random")
    found = page.evaluate(CONTRAST_JS)
    failures["new"] = found["bad"]
    assert found["checked"] > 20
    start_game(page, server.url, ["human", "bot:random", "bot:random", "bot:random", "bot:random"], short=8,
               seed=3, name="Ann")
    page.wait_for_function(WAIT_TURN_OR_END)
    page.check("#show-remaining")
    found = page.evaluate(CONTRAST_JS)   # the table during play: the turn, the tile, the buttons
    failures["playing"] = found["bad"]
    while page.locator("#final").is_hidden():
        page.wait_for_function(WAIT_TURN_OR_END, timeout=60_000)
        if page.locator("#final").is_hidden():
            play_turn(page)
    for name, url in (("table", None), ("rules", "#/help"), ("games", "#/games")):
        if url:
            page.goto(server.url + url)
            page.wait_for_selector(f"#screen-{url[2:]}:not([hidden])")
            page.wait_for_timeout(500)
        found = page.evaluate(CONTRAST_JS)
        assert found["checked"] > 10, name
        failures[name] = found["bad"]
    assert all(not bad for bad in failures.values()), failures
    drawn = page.evaluate(PIECES_JS)
    terrains = {_rgb(t) for t in drawn["terrains"]}
    assert len(terrains) >= 3   # forest, meadow, water at least
    for p in drawn["pieces"]:
        halo, outline, body, letter = (_rgb(p[k]) for k in ("halo", "outline", "body", "letter"))
        for t in terrains:
            assert max(_contrast(halo, t), _contrast(outline, t)) >= 3, (p, t)
        assert _contrast(letter, body) >= 4.5, p


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_new_game_screen_shows_each_levels_place_on_the_ladder(server: Server, browser: Any,
                                                                   size: str) -> None:
    """Beside the chosen level: what it does in plain words, and its strength on the shipped ladder
    of the chosen edition, said to be from two-player games; choosing the other edition shows that
    edition's figures."""
    from huntgather.bots.ladder import shipped_ladder
    ladder = {edition: {row.bot: row for row in rows} for edition, rows in shipped_ladder().items()}
    ARTIFACTS.mkdir(exist_ok=True)
    desktop = {"viewport": {"width": 1400, "height": 900}}
    context = browser.new_context(**(PHONE if size == "phone" else desktop))
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "#/new")
    page.wait_for_selector("body[data-ready='1']")
    row = page.locator("#seats li").nth(1)
    for edition in ("2020", "2002"):
        page.check(f"input[name=edition][value='{edition}']")
        for level in ("greedy", "hard", "expert", "master"):
            row.locator("select").select_option(f"bot:{level}")
            rung = ladder[edition][level]
            note = row.locator(".level-text").inner_text()
            def js_round(x: float) -> int:   # Math.round: halves go up
                return math.floor(x + 0.5)
            assert f" · strength {js_round(rung.elo)} (higher is stronger; measured in two-player games)" \
                in note, (edition, level, note)
            # in a player's words: how it plays and how long it thinks, without the search's jargon
            # nor the ladder's seconds (the search's own time, not the wait at the table: the bug
            # said "about 0.2 s a move" of a level that took 1.1 s)
            assert re.search(r"plays at once|thinks", note), note
            assert not re.search(r"simulation|evaluation|Elo| s a move", note), note
        page.screenshot(path=str(ARTIFACTS / f"new-game-ladder-{edition}-{size}.png"))
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_a_hint_in_a_whole_game_shows_the_win_chance_and_the_predicted_final_scores(server: Server,
                                                                                    page: Any) -> None:
    start_game(page, server.url, ["human", "bot:random"], short=None, seed=23)
    page.wait_for_function(WAIT_TURN_OR_END)
    page.focus("#board")
    page.keyboard.press("h")
    page.wait_for_selector("#hints button.hint-turn")
    texts = page.locator("#hints button.hint-turn").all_inner_texts()
    assert "the expert bot's best turns" in page.locator("#hints").inner_text()   # whose search it is
    # the search's win chance in %, then each player's final score as the learned evaluation
    # predicts it after that turn, yours first
    chance = r"win chance (about \d+%|under 1%|over 99%)"
    lead = r"\((\d+ ahead|\d+ behind|level)\)"
    assert texts and all(re.search(rf" · {chance} · predicted final: you \d+, red \d+ {lead}$", t)
                         for t in texts), texts
    assert len(set(texts)) == len(texts), texts
    page.screenshot(path=str(ARTIFACTS / "ui-hint-predicted.png"))


# ---------------------------------------------------------------------------- the camera

# the legal squares (and the tiles others placed since my last one) that lie not wholly inside
# the board's visible rectangle (the board's box cut to the window)
OUT_OF_VIEW = """(sel) => {
    const b = document.querySelector('#board').getBoundingClientRect();
    const left = Math.max(b.left, 0), top = Math.max(b.top, 0);
    const right = Math.min(b.right, innerWidth), bottom = Math.min(b.bottom, innerHeight);
    return [...document.querySelectorAll(sel)].filter((r) => {
        const q = r.getBoundingClientRect();
        return q.left < left - .5 || q.top < top - .5 || q.right > right + .5 || q.bottom > bottom + .5;
    }).map((r) => `${r.tagName}.${r.getAttribute('class')} ${r.dataset.x ?? ''},${r.dataset.y ?? ''}`);
}"""

WAIT_LEGAL_OR_END = """() => document.querySelector('#board [data-legal]') ||
                             !document.querySelector('#final').hidden"""


def check_turn_in_view(page: Any, what: str) -> None:
    """At the start of a turn of mine: every legal square, and every tile the others placed since
    my last one, lies inside the board's visible rectangle."""
    assert page.locator("#board [data-legal]").count() > 0, what
    out = page.evaluate(OUT_OF_VIEW, "#board [data-legal], #board rect.since-mine")
    assert out == [], f"{what}: out of view at k={camera_scale(page):.2f}: {out}"


def in_window(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return bool(box and box["width"] > 0 and box["x"] >= 0 and box["y"] >= 0
                and box["x"] + box["width"] <= size["width"] + 0.5
                and box["y"] + box["height"] <= size["height"] + 0.5)


def touch_turn(page: Any, *, bar: tuple[str, ...] = (), shot: Path | None = None, touch: bool = True) -> None:
    """One turn by touch: tap a legal square (one whose middle no control covers), a piece's spot
    on the tile (or, for a shaman, "take nothing back" in the list), then Confirm.  ``bar``: what
    must be in the window, without scrolling anything, before Confirm is tapped; ``shot``: a
    screenshot while the tile waits; ``touch`` False: clicks instead of taps."""
    tiles = board_tiles(page)
    free = page.evaluate("""() => [...document.querySelectorAll('#board [data-legal]')].findIndex((r) => {
        const q = r.getBoundingClientRect();
        const e = document.elementFromPoint(q.x + q.width / 2, q.y + q.height / 2);
        return e === r || r.contains(e); })""")
    assert free >= 0, "every legal square is covered"

    def tap(loc: Any) -> None:
        if touch:
            loc.tap()
        else:
            loc.click()

    tap(page.locator("#board [data-legal]").nth(free))
    page.wait_for_selector("#pending-tile")
    page.wait_for_function("() => !document.querySelector('#confirm').disabled || "
                           "document.querySelector('#choices button[data-kind=\"takeback\"]')")
    if page.locator("#choices button[data-kind='takeback']").count():
        tap(page.locator("#choices button[data-kind='pass']"))
        page.wait_for_function("() => !document.querySelector('#confirm').disabled")
    spots = page.locator("g.spot[data-kind='occupy']")
    if spots.count():
        tap(spots.first)
        page.wait_for_selector("#choices button.selected")
    if shot is not None:
        page.screenshot(path=str(shot))
    for what in bar:
        if page.locator(what).count():
            assert in_window(page, what), (what, page.locator(what).bounding_box())
    tap(page.locator("#confirm"))
    page.wait_for_function("(n) => document.querySelectorAll('#viewport > g > g.hg-tile').length > n"
                           " && !document.querySelector('#pending-tile')", arg=tiles)


def test_on_a_phone_every_turn_starts_with_every_legal_square_in_view(server: Server, browser: Any) -> None:
    """390×844, touch only, a whole game against a bot: a tile put down is shown large, and after
    Confirm the camera follows the game again, so that every turn of mine starts with all the legal
    squares (and the tiles the bot placed meanwhile) in view, and the final board is seen whole
    (the bug: the zoom to the tile put down stayed for the rest of the game)."""
    errors: list[str] = []
    context = browser.new_context(**PHONE)
    try:
        page = open_page(context, errors, "phone")
        # 36 tiles: a long enough game to sprawl past the first screen, at half a full game's cost
        start_game(page, server.url, ["human", "bot:random"], short=36, seed=31)
        turns = 0
        while True:
            page.wait_for_function(WAIT_LEGAL_OR_END)
            if page.locator("#final").is_visible():
                break
            check_turn_in_view(page, f"turn {turns + 1}")
            if turns == 3:
                page.screenshot(path=str(ARTIFACTS / "camera-phone-turn.png"))
            touch_turn(page)
            turns += 1
        assert turns >= 18, turns   # at least half the stack's tiles are mine
        # the tiles as drawn: a run's picture (its tiles' marks are empty), or a tile's own elements
        drawn = "#viewport > g.hg-run > image, #viewport > g:not(.hg-run) > g.hg-tile"
        out = page.evaluate(OUT_OF_VIEW, drawn)
        assert out == [], f"the final board is not seen whole: {len(out)} tiles or runs out of view"
        page.screenshot(path=str(ARTIFACTS / "camera-phone-final.png"))
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


# width, height: phones upright and on their side, tablets both ways (touch screens); laptop and
# desktop (a mouse)
TOUCH_SIZES = [(390, 844), (360, 740), (844, 390), (768, 1024), (1024, 768)]
MOUSE_SIZES = [(1366, 768), (1920, 1080)]


@pytest.mark.parametrize("touch", [True, False], ids=["touch", "mouse"])
def test_a_few_turns_at_every_size_keep_the_board_and_the_turn_in_view(server: Server, browser: Any,
                                                                       touch: bool) -> None:
    """One game, opened at each size in turn (the window resized, then the page loaded again, as
    a phone turned on its side and the game's link opened on it), two turns at each: every turn
    starts with all the legal squares in view; while a tile waits, the tile in hand and Confirm
    (and beside the board, the piece chosen in the list) are in the window without scrolling (the
    bug at 844×390: below the fold); on a tablet the board has most of the screen (the bug at
    768×1024: 388 px wide beside the panel).  Then the table fits the window: no page scroll bar,
    and the turn banner (and on a phone or tablet on its side, the action bar) in view however far
    the panel is scrolled (the bug: it scrolled away).
    Screenshots: layout-game-WxH-{turn,pending}.png, layout-WxH.png."""
    sizes = TOUCH_SIZES if touch else MOUSE_SIZES
    errors: list[str] = []
    width, height = sizes[0]
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=touch,
                                  has_touch=touch)
    try:
        page = open_page(context, errors, "touch" if touch else "mouse")
        start_game(page, server.url, ["human", "bot:random"], short=None, seed=17)
        for width, height in sizes:
            page.set_viewport_size({"width": width, "height": height})
            page.reload()
            check_layout_at(page, width, height, touch)
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def check_layout_at(page: Any, width: int, height: int, touch: bool) -> None:
    """Two turns and the table's layout at one size (see the test above)."""
    page.wait_for_selector("#board [data-legal]")
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    board = page.locator("#board").bounding_box()
    assert board is not None
    if (width, height) == (768, 1024):
        assert board["width"] >= width - 1 and board["height"] >= 0.55 * height, board
    if (width, height) == (1024, 768):
        assert board["width"] >= 0.68 * width and board["height"] >= 0.9 * height, board
    # while a tile waits: Confirm and the tile in hand in the window everywhere, and beside the
    # board (a phone or tablet on its side, a laptop) the piece chosen in the list too
    bar = ("#confirm", "#current-tile") + (("#choices button.selected",) if width > height else ())
    for turn in range(1, 3):
        page.wait_for_selector("#board [data-legal]")
        check_turn_in_view(page, f"{width}x{height}, turn {turn}")
        last = turn == 2
        if last:
            page.screenshot(path=str(ARTIFACTS / f"layout-game-{width}x{height}-turn.png"))
        touch_turn(page, bar=bar, touch=touch,
                   shot=ARTIFACTS / f"layout-game-{width}x{height}-pending.png" if last else None)
    page.wait_for_selector("#board [data-legal]")
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    board = page.locator("#board").bounding_box()
    assert board is not None and board["width"] >= 0.5 * width and board["height"] >= 0.4 * height
    if page.locator("#sheet-toggle").is_visible():
        page.locator("#sheet-toggle").click()
    page.check("#show-remaining")   # a long panel
    page.locator("#side").evaluate("s => { s.scrollTop = s.scrollHeight; }")
    page.wait_for_timeout(300)
    turn_box = page.locator("#turn").bounding_box()
    assert turn_box is not None and turn_box["y"] >= 0 and turn_box["y"] + turn_box["height"] <= height
    hit = page.evaluate("([x, y]) => !!document.elementFromPoint(x, y).closest('#turn')",
                        [turn_box["x"] + 5, turn_box["y"] + turn_box["height"] / 2])
    assert hit, "something covers the turn banner"
    if height < width < 1200:
        # a phone or tablet on its side: the action bar (the tile in hand, Confirm) stays at the
        # panel's foot however far it is scrolled (the bug at 844×390: below the fold)
        for what in ("#confirm", "#bar-tile"):
            assert in_window(page, what), (what, page.locator(what).bounding_box())
            box = page.locator(what).bounding_box()
            assert box is not None
            hit = page.evaluate("([x, y, w]) => !!document.elementFromPoint(x, y).closest(w)",
                                [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, what])
            assert hit, f"something covers {what}"
    page.screenshot(path=str(ARTIFACTS / f"layout-{width}x{height}.png"))
    page.uncheck("#show-remaining")   # (a setting: the next size starts with the short panel)


def test_the_camera_keeps_still_under_a_finger_and_follows_once_it_lifts(server: Server,
                                                                         browser: Any) -> None:
    """A finger rests on the board while the turn is confirmed and the next turn starts (a hotseat
    game: both seats are this page's; the turn is played with the keyboard): the view does not
    move under the finger; once it lifts, the new turn's legal squares are brought into view."""
    errors: list[str] = []
    context = browser.new_context(**PHONE)
    try:
        page = open_page(context, errors, "phone")
        start_game(page, server.url, ["human", "human"], short=None, seed=12)
        page.wait_for_selector("#board [data-legal]")
        check_turn_in_view(page, "turn 1")
        page.focus("#board")
        page.keyboard.press("n")
        page.wait_for_selector("rect.target.selected")
        page.keyboard.press("Enter")                 # placed: shown large (a touch screen)
        page.wait_for_function("() => !document.querySelector('#confirm').disabled || "
                               "document.querySelector('#choices button[data-kind=\"takeback\"]')")
        page.keyboard.press("0")                     # no piece (or, for a shaman, take nothing back)
        page.wait_for_function("() => !document.querySelector('#confirm').disabled")
        assert page.get_attribute("#board", "data-camera") == "pending"
        board = page.locator("#board").bounding_box()
        assert board is not None
        cdp = page.context.new_cdp_session(page)
        finger = {"x": board["x"] + 8, "y": board["y"] + 8, "id": 1}   # a corner, off the tile
        assert page.evaluate("([x, y]) => !document.elementFromPoint(x, y).closest('#pending-tile, .spot')",
                             [finger["x"], finger["y"]])
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [finger]})
        held = page.get_attribute("#viewport", "transform")
        version = int(page.evaluate("document.body.dataset.version"))
        page.keyboard.press("Enter")                 # confirm: the other seat's turn, also this page's
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v && "
                               "document.querySelector('#board [data-legal]')", arg=version)
        assert page.get_attribute("#viewport", "transform") == held, "the view moved under the finger"
        out = page.evaluate(OUT_OF_VIEW, "#board [data-legal]")
        assert out, "the test shows nothing: the legal squares were in view at the held zoom already"
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
        page.wait_for_function(f"() => ({OUT_OF_VIEW})('#board [data-legal]').length === 0")
        assert page.get_attribute("#board", "data-camera") == "auto"
        check_turn_in_view(page, "turn 2")
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


# ---------------------------------------------------------------------------- the end of the game

# every change of the number of final-scoring features lit on the board, as it happens
WATCH_LIT = """() => {
    window.__lit = [];
    new MutationObserver(() => {
        const n = document.querySelectorAll('#overlay [data-final-row]').length;
        if (n !== window.__lit[window.__lit.length - 1]) window.__lit.push(n);
    }).observe(document.querySelector('#overlay'), { childList: true });
}"""


def check_projection(page: Any, url: str, gid: str) -> bool:
    """If the game now has a feature that final scoring would score: each player's line under the
    table gives the server's projected score, and pointing at a tile of the feature lights it and
    says what it would score (True: checked)."""
    with urllib.request.urlopen(f"{url}api/games/{gid}") as r:
        view = json.load(r)
    projection = view["projection"]
    if not projection or not projection["rows"]:
        return False
    lines = page.locator("#projection li").all_inner_texts()
    assert [int(line.split(": ", 1)[1].split()[0]) for line in lines] == projection["scores"], lines
    assert all("if the game ended now" in line for line in lines), lines
    row = projection["rows"][0]
    cell = next(c for c in view["board"] if c["tile"] == row["tiles"][0])
    box = page.locator(f"#cell-{cell['x']}_{cell['y']}").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tip = page.locator("#projection-tip")
    tip.wait_for(state="visible")
    assert row["explanation"] in tip.inner_text()
    assert page.locator("#overlay rect.projected-hl").count() >= 1
    page.screenshot(path=str(ARTIFACTS / "projection-tip.png"))
    page.mouse.move(1, 1)   # off the board: the tip goes
    tip.wait_for(state="hidden")
    return True


@pytest.mark.parametrize("size", [(390, 844, "no-preference"), (360, 740, "no-preference"),
                                  (1366, 768, "reduce")],
                         ids=["390x844", "360x740", "1366x768-reduced-motion"])
def test_a_game_ends_with_a_summary_and_its_final_scoring_lit_on_the_board(
        server: Server, browser: Any, size: tuple[int, int, str]) -> None:
    """A short game against a bot to its end: the summary (winner, final scores, replay and share
    links) and every row of the final scoring lit on the board, with its points — one after the
    other, or all at once where the person asks for reduced motion.  On a phone the scores stay in
    view over the board the whole game."""
    width, height, motion = size
    phone = width < 700
    errors: list[str] = []
    options = PHONE | {"viewport": {"width": width, "height": height}} if phone else \
        {"viewport": {"width": width, "height": height}}
    context = browser.new_context(**options, reduced_motion=motion)
    try:
        page = open_page(context, errors, f"{width}x{height}")
        start_game(page, server.url, ["human", "bot:easy"], short=6, seed=21)
        gid = game_id_of(page)
        page.evaluate(WATCH_LIT)
        projected = False   # the live projection checked (on the desktop: a pointer to hover with)
        while True:
            page.wait_for_function(WAIT_LEGAL_OR_END)
            if not page.locator("#game-summary").is_hidden():
                break
            if phone:   # the scores, always in view over the board (the players' table is in the sheet)
                assert in_window(page, "#score-strip")
                strip = page.locator("#score-strip li .score").all_inner_texts()
                assert strip == page.locator("#players td.score").all_text_contents()
            elif not projected:
                projected = check_projection(page, server.url, gid)
            touch_turn(page, touch=phone)
        assert phone or projected, "no position of the game had a meadow or river system to project"
        with urllib.request.urlopen(f"{server.url}api/games/{gid}") as r:
            view = json.load(r)
        final, on_board = view["final"], {c["tile"] for c in view["board"]}
        rows = final["rows"]
        assert rows, "a game whose end scores something"
        page.wait_for_selector("#game-summary[data-scoring='done']")
        lit = page.locator("#overlay g.final-lit[data-final-row]")
        assert lit.count() == len(rows)
        for i, row in enumerate(rows):
            g = page.locator(f"#overlay g.final-lit[data-final-row='{i}']")
            assert g.locator("rect").count() == len([t for t in row["tiles"] if t in on_board])
            shown = sorted(g.locator("text").all_text_contents())
            assert shown == (sorted(f"+{p}" for p in row["points"] if p > 0) or ["0"]), (row, shown)
        seen = [n for n in page.evaluate("window.__lit") if n]
        if motion == "reduce" or len(rows) < 2:
            assert seen == [len(rows)], seen   # all at once
        else:
            assert seen == list(range(1, len(rows) + 1)), seen   # one after the other
        # the summary: the winner (or the winners), every final score, best first
        summary = page.locator("#game-summary")
        page.screenshot(path=str(ARTIFACTS / f"end-of-game-{width}x{height}.png"))
        assert summary.is_visible() and in_window(page, "#summary-winner"), \
            page.locator("#summary-winner").bounding_box()
        names = ["yellow", "red"]
        best = max(final["scores"])
        winner = page.inner_text("#summary-winner")
        if len(final["winners"]) > 1:
            assert "share the win" in winner
        else:
            assert winner.startswith(f"{names[final['winners'][0]]} wins with {best} point"), winner
        listed = [int(t.split()[0]) for t in page.locator("#summary-scores .score").all_inner_texts()]
        assert listed == sorted(final["scores"], reverse=True)
        assert page.input_value("#summary-share input").endswith(f"#/watch/{gid}")
        if phone:
            assert in_window(page, "#score-strip")
        page.screenshot(path=str(ARTIFACTS / f"end-of-game-{width}x{height}.png"))
        # the replay link opens the game's replay
        page.click("#summary-replay")
        page.wait_for_selector("#replay-controls:not([hidden])")
        assert page.evaluate("location.hash") == f"#/replay/{gid}/1"
        page.wait_for_function("() => /^move 1 \\/ /.test(document.querySelector('#replay-pos').textContent)")
        assert board_tiles(page) == 1   # the start tile
        assert page.locator("#game-summary").is_hidden()
        assert page.locator("#overlay [data-final-row]").count() == 0
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_a_short_game_longer_than_the_stack_is_explained_in_the_form(server: Server, page: Any) -> None:
    """The bug: "short must be a number of tiles from 1 to 78, or null" (the server's words) reached
    the form; the form says in plain words what it takes, and sends nothing."""
    page.goto(server.url + "#/new")
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("#short-range") == "(1 to 78; empty: all of them)"
    for bad in ("100", "0", "79"):
        page.fill("#short", bad)
        page.click("#start-game")
        page.wait_for_function("() => /from 1 to 78 tiles/.test("
                               "document.querySelector('#new-error').textContent)")
        text = page.inner_text("#new-error")
        assert "short must" not in text and "null" not in text, text
        assert "leave the box empty to play with every tile" in text, text
        assert page.evaluate("location.hash") == "#/new", bad
        page.evaluate("document.querySelector('#new-error').textContent = ''")
    assert page.evaluate("Object.keys(JSON.parse(localStorage.getItem('hg-games') || '{}')).length") == 0
    page.fill("#short", "78")   # the whole stack, said as a number, is a game
    page.click("#start-game")
    page.wait_for_selector("#screen-play:not([hidden])")


def test_the_saved_games_list_counts_turns_and_says_whose_turn_it_is(server: Server, page: Any) -> None:
    """A hotseat game of two people, three turns played: Undo turn is not offered (only against
    bots alone), and the saved games list counts turns and says whose turn it is (the bug: it
    counted the engine's moves, "Moves 67" after 21 turns: draws and pieces count there too)."""
    start_game(page, server.url, ["human", "human"], short=10, seed=5)
    gid = game_id_of(page)
    for turn in range(3):
        page.wait_for_function(WAIT_TURN_OR_END)
        play_turn(page)
        if turn == 0:
            assert page.locator("#undo-turn").is_hidden(), "Undo turn offered in a game of two people"
    page.wait_for_function(WAIT_TURN_OR_END)
    with urllib.request.urlopen(f"{server.url}api/games/{gid}") as r:
        view = json.load(r)
    turns = sum(1 for e in view["log"] if e["kind"] == "TilePlaced")
    # three turns (the start tile is no turn); the engine counts more moves (draws, pieces)
    assert turns == 3 and view["version"] > turns
    page.goto(server.url + "#/games")
    cell = page.locator(f"#games-table tr[data-game='{gid}'] td.turns[data-turns]")
    cell.wait_for()
    assert cell.inner_text() == str(turns)
    assert page.locator("#games-table thead th").nth(3).inner_text() == "Turns"
    status = page.locator(f"#games-table tr[data-game='{gid}'] td.status")
    page.wait_for_function("(id) => /your turn/.test(document.querySelector("
                           "`#games-table tr[data-game='${id}'] td.status`).textContent)", arg=gid)
    assert status.get_attribute("data-seat") == str(view["decision"]["player"])
    assert status.inner_text() == "in play — your turn"   # this page holds both seats (hotseat)
    page.screenshot(path=str(ARTIFACTS / "saved-games-turns.png"))


# ---------------------------------------------------------------------------- placement, sound, motion


def legal_rotations(server: Server, page: Any) -> dict[tuple[int, int], list[int]]:
    """The legal placements of the tile in hand, read from the server: square -> rotations."""
    with urllib.request.urlopen(f"{server.url}api/games/{game_id_of(page)}") as r:
        view = json.load(r)
    out: dict[tuple[int, int], list[int]] = {}
    for m in view["legal"]:
        if m["kind"] == "place":
            out.setdefault((m["x"], m["y"]), []).append(m["rotation"])
    return out


def pending_at(page: Any, x: int, y: int) -> None:
    page.wait_for_function("([x, y]) => { const r = document.querySelector('rect.pending-frame'); "
                           "return r && r.getAttribute('x') === String(x * 100 + 1) && "
                           "r.getAttribute('y') === String(y * 100 + 1); }", arg=[x, y])


def test_a_square_picked_turns_the_tile_to_its_first_rotation_that_fits_there(server: Server,
                                                                                page: Any) -> None:
    """Clicking a legal square puts the tile there turned as shown if it fits so, else turned on
    clockwise to the first rotation that fits there; the tile in the panel turns with it."""
    start_game(page, server.url, ["human", "bot:easy"], short=5, seed=21)
    page.wait_for_selector("rect.target")
    legal = legal_rotations(server, page)
    assert any(len(r) > 1 for r in legal.values())   # a square that fits in several rotations
    page.click("#rotate-cw")   # the tile turned once: rotation 1
    shown = 1
    for (x, y), rotations in sorted(legal.items()):
        fits = page.get_attribute(f"rect.target[data-x='{x}'][data-y='{y}']", "data-fits")
        assert fits == ("yes" if shown in rotations else "other-rotation")
        page.click(f"rect.target[data-x='{x}'][data-y='{y}']")
        pending_at(page, x, y)
        expected = next((shown + k) % 4 for k in range(4) if (shown + k) % 4 in rotations)
        assert page.get_attribute("#pending-tile", "data-rotation") == str(expected), (x, y, shown, rotations)
        # the tile in hand shows the same rotation as the one on the board
        assert page.evaluate("document.querySelector('#current-tile .hg-tile').innerHTML === "
                             "document.querySelector('#pending-tile .hg-tile').innerHTML")
        page.click("#undo")
        page.wait_for_selector("#pending-tile", state="detached")
        shown = expected   # the tile stays turned as it was placed


def test_the_tile_in_hand_dragged_onto_a_legal_square_is_placed_there(server: Server, page: Any) -> None:
    start_game(page, server.url, ["human", "bot:easy"], short=5, seed=21)
    page.wait_for_selector("rect.target")
    page.wait_for_selector("#current-tile.draggable")
    hand = page.locator("#current-tile").bounding_box()
    assert hand is not None
    # dropped beside the board (on the panel): nothing is placed
    page.mouse.move(hand["x"] + hand["width"] / 2, hand["y"] + hand["height"] / 2)
    page.mouse.down()
    page.mouse.move(hand["x"] + hand["width"] / 2, hand["y"] + hand["height"] + 80, steps=5)
    page.wait_for_selector("#drag-ghost")
    page.mouse.up()
    page.wait_for_selector("#drag-ghost", state="detached")
    assert page.locator("#pending-tile").count() == 0
    # dragged onto a square where it fits only turned: the board shows it there, turned, before the drop
    target = page.locator("rect.target").last
    x, y = int(target.get_attribute("data-x") or 0), int(target.get_attribute("data-y") or 0)
    box = target.bounding_box()
    assert box is not None
    page.mouse.move(hand["x"] + hand["width"] / 2, hand["y"] + hand["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=12)
    page.wait_for_selector(f"#hover-preview[data-x='{x}'][data-y='{y}']")
    page.screenshot(path=str(ARTIFACTS / "ui-drag.png"))
    assert page.locator("#pending-tile").count() == 0   # nothing placed while the button is down
    page.mouse.up()
    pending_at(page, x, y)
    page.wait_for_selector("#drag-ghost", state="detached")
    page.wait_for_selector("#hover-preview", state="detached")
    page.wait_for_function("() => !document.querySelector('#confirm').disabled")
    # clicking still places: another square moves the tile there
    other = page.locator("rect.target").first
    ox, oy = int(other.get_attribute("data-x") or 0), int(other.get_attribute("data-y") or 0)
    other.click()
    pending_at(page, ox, oy)


def touch(cdp: Any, kind: str, at: tuple[float, float] | None = None) -> None:
    """One finger on the screen (Chrome's touch input): touchStart, touchMove or touchEnd."""
    points = [] if at is None else [{"x": at[0], "y": at[1], "id": 1}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def test_a_finger_held_on_a_legal_square_shows_the_tile_there_until_it_lifts(server: Server,
                                                                             browser: Any) -> None:
    errors: list[str] = []
    context = browser.new_context(**PHONE)
    try:
        page = open_page(context, errors, "phone")
        start_game(page, server.url, ["human", "bot:easy"], short=5, seed=21)
        page.wait_for_selector("rect.target")
        target = next(t for t in page.locator("rect.target").all() if on_screen(page, t.bounding_box()))
        x, y = target.get_attribute("data-x"), target.get_attribute("data-y")
        box = target.bounding_box()
        assert box is not None
        centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        cdp = page.context.new_cdp_session(page)
        touch(cdp, "touchStart", centre)
        page.wait_for_selector(f"#hover-preview[data-x='{x}'][data-y='{y}']")
        page.screenshot(path=str(ARTIFACTS / "phone-long-press.png"))
        assert page.locator("#pending-tile").count() == 0   # shown, not placed
        touch(cdp, "touchEnd")
        cdp.detach()
        page.wait_for_selector("#hover-preview", state="detached")
        # the lifted finger placed nothing (the page has drawn a frame since)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        assert page.locator("#pending-tile").count() == 0
        # a short tap still places the tile
        page.locator(f"rect.target[data-x='{x}'][data-y='{y}']").tap()
        page.wait_for_selector("#pending-tile")
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_confirm_at_once_when_no_piece_is_chosen_is_a_setting(server: Server, page: Any) -> None:
    start_game(page, server.url, ["human", "bot:easy"], short=5, seed=21)
    page.wait_for_selector("rect.target")
    assert not page.is_checked("#auto-confirm")   # off by default
    tiles = board_tiles(page)
    page.click("rect.target[data-fits='yes'] >> nth=0")
    page.wait_for_selector("#choices button[data-kind='pass']")
    page.click("#choices button[data-kind='pass']")
    page.wait_for_selector("#choices button.selected[data-kind='pass']")
    assert page.locator("#pending-tile").count() == 1 and page.is_enabled("#confirm")   # waits for Confirm
    page.check("#auto-confirm")
    page.click("#choices button[data-kind='occupy'] >> nth=0")   # a piece: still waits for Confirm
    page.wait_for_selector("#choices button.selected[data-kind='occupy']")
    assert page.locator("#pending-tile").count() == 1
    page.click("#choices button[data-kind='pass']")   # no piece: the turn counts at once
    page.wait_for_function(f"() => document.querySelectorAll('#viewport > g > g.hg-tile').length > {tiles}"
                           " && !document.querySelector('#pending-tile')")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.is_checked("#auto-confirm")   # remembered


SOUND_SPY = """
window.__tones = [];
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...a) {
  window.__tones.push(this.frequency.value);
  return start.apply(this, a);
};
window.__gains = [];
const set = AudioParam.prototype.setValueAtTime;
AudioParam.prototype.setValueAtTime = function (v, t) {
  if (v > 0.002) window.__gains.push(v);
  return set.call(this, v, t);
};
window.__audio = [];
for (const name of ["suspend", "resume"]) {
  const real = AudioContext.prototype[name];
  AudioContext.prototype[name] = function () { window.__audio.push(name); return real.call(this); };
}
"""


def test_sounds_are_on_by_default_and_their_volume_is_remembered(server: Server, page: Any) -> None:
    page.add_init_script(SOUND_SPY)
    start_game(page, server.url, ["human", "bot:easy"], short=5, seed=21)
    page.wait_for_selector("rect.target")
    assert page.is_checked("#sound") and page.input_value("#volume") == "60"
    page.wait_for_function("() => window.__tones.includes(660)")   # the chime: my turn
    page.click("rect.target[data-fits='yes'] >> nth=0")
    page.wait_for_function("() => window.__tones.includes(180)")   # the knock: my tile put down
    assert page.evaluate("window.__gains")[-1] == pytest.approx(0.3 * 0.6)
    # once the sounds have ended the audio is suspended (silence rendered costs CPU and battery)
    page.wait_for_function("() => window.__audio.at(-1) === 'suspend'")
    # quieter: the bot's tile knocks at the volume chosen
    page.evaluate("() => { const v = document.querySelector('#volume'); v.value = '20';"
                  " v.dispatchEvent(new Event('input')); }")
    page.evaluate("() => { window.__tones = []; window.__gains = []; }")
    page.wait_for_function("() => !document.querySelector('#confirm').disabled")
    page.click("#confirm")
    page.wait_for_function("() => window.__tones.includes(180) && window.__tones.includes(660)")
    assert "resume" in page.evaluate("window.__audio.slice(window.__audio.indexOf('suspend'))")
    gains = page.evaluate("window.__gains")
    assert pytest.approx(0.3 * 0.2) in gains and pytest.approx(0.12 * 0.2) in gains, gains
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.input_value("#volume") == "20" and page.is_checked("#sound")
    # sounds off: nothing more is heard
    page.uncheck("#sound")
    page.wait_for_selector("rect.target")
    page.evaluate("() => { window.__tones = []; }")
    page.click("rect.target[data-fits='yes'] >> nth=0")
    page.wait_for_selector("#pending-tile")
    assert page.evaluate("window.__tones") == []


RUNNING = "() => document.getAnimations().filter((a) => a.playState === 'running').length"


@pytest.mark.parametrize("motion", ["normal", "system", "setting"])
def test_my_placement_and_the_end_are_animated_unless_motion_is_reduced(server: Server, page: Any,
                                                                         motion: str) -> None:
    """Animations on: my tile drops into place, the final scoring comes in.  Reduced motion (the
    system's wish, or the setting): nothing on the page runs an animation."""
    if motion == "system":
        page.emulate_media(reduced_motion="reduce")
    start_game(page, server.url, ["human", "bot:easy"], short=2, seed=21)
    page.wait_for_selector("rect.target")
    if motion == "setting":
        page.select_option("#animation", "off")
    assert page.input_value("#animation") == ("normal" if motion == "normal" else "off")
    page.click("rect.target[data-fits='yes'] >> nth=0")
    page.wait_for_selector("#pending-tile")
    placings = page.evaluate("Number(document.body.dataset.placings || 0)")   # my tiles animated
    if motion == "normal":
        assert placings == 1
    else:
        assert placings == 0 and page.evaluate(RUNNING) == 0
    page.wait_for_function("() => !document.querySelector('#confirm').disabled")
    page.click("#confirm")
    page.wait_for_selector("#final:not([hidden])")
    name = page.evaluate("getComputedStyle(document.querySelector('#final')).animationName")
    if motion == "normal":
        assert name == "final-in"
        page.screenshot(path=str(ARTIFACTS / "ui-final-animated.png"))
    else:
        assert name == "none" and page.evaluate(RUNNING) == 0


def test_the_name_is_asked_once_then_a_small_link_changes_it(server: Server, page: Any) -> None:
    start_game(page, server.url, ["human", "bot:easy"], short=5)
    page.wait_for_selector("#name-form:not([hidden])")   # the first game asks
    assert page.locator("#name-change").is_hidden()
    page.screenshot(path=str(ARTIFACTS / "ui-name-asked.png"))
    page.click("#name-skip")
    page.wait_for_selector("#name-form", state="hidden")
    assert page.inner_text("#name-change") == "set a name"
    # the next game does not ask again: a small link instead
    start_game(page, server.url, ["human", "bot:easy"], short=5)
    page.wait_for_selector("rect.target")
    page.wait_for_selector("#name-change:not([hidden])")
    assert page.locator("#name-form").is_hidden()
    box = page.locator("#name-change").bounding_box()
    assert box is not None and box["height"] < 40
    page.screenshot(path=str(ARTIFACTS / "ui-name-link.png"))
    page.click("#name-change")
    page.fill("#name-input", "Dana")
    page.click("#name-save")
    page.wait_for_selector("#name-form", state="hidden")
    page.wait_for_function("() => /Dana/.test(document.querySelector('#players tbody').textContent)")
    page.wait_for_function("() => document.querySelector('#name-change').textContent === 'change name'")
    # the link changes a name given
    page.click("#name-change")
    assert page.input_value("#name-input") == "Dana"
    page.fill("#name-input", "Dee")
    page.click("#name-save")
    page.wait_for_function("() => /Dee \\(yellow\\)/.test("
                           "document.querySelector('#players tbody').textContent)")


def test_the_features_turned_off_in_chromium_keep_playwrights_own() -> None:
    """conftest's DISABLED_FEATURES repeats the ``--disable-features`` list of the installed
    Playwright (a second switch would replace Playwright's, not add to it) and adds the spare
    renderer: a Playwright whose list changed must be copied again (this test says what differs)."""
    import re

    import playwright
    from conftest import DISABLED_FEATURES

    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    found = re.search(r"disabledFeatures = \[(.*?)\]\.filter", bundle.read_text(encoding="utf-8"), re.S)
    assert found is not None, f"no disabledFeatures list in {bundle}"
    theirs = re.findall(r'^\s*"([^"]+)",?\s*$', found.group(1), re.M)
    ours = DISABLED_FEATURES.split(",")
    assert ours[-1] == "SpareRendererForSitePerProcess"
    assert ours[:-1] == theirs, f"Playwright turns off {theirs}"
