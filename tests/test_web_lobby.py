"""The public lobby in the browser: Ann lists a short game with a 5-second clock, Bob finds it
on the Find a game screen and takes the seat, they chat, Ann's time runs out and a bot takes her
seat, Bob plays to the end and rematches.  Each person in a browser context of their own, on a
real ``huntgather play`` server (Playwright, Debian's chromium), as tests/test_web_chat.py.

Screenshots of the lobby at a phone's size and a desktop's go to artifacts/.
"""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from play_server import Server

pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

from test_web_ui import (  # noqa: E402  (after the skips: it needs Playwright)
    ARTIFACTS,
    WAIT_TURN_OR_END,
    game_id_of,
    open_page,
    play_turn,
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 900}


def wait_said(page: Any, text: str) -> None:
    page.wait_for_function("(t) => [...document.querySelectorAll('#chat-lines li')]"
                           ".some((li) => li.textContent.endsWith(t))", arg=text)


def test_a_public_game_found_in_the_lobby_is_played_to_the_end_and_rematched(server: Server,
                                                                             browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    contexts = [browser.new_context(viewport=DESKTOP), browser.new_context(viewport=DESKTOP),
                browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)]
    try:
        ann = open_page(contexts[0], errors, "Ann")
        bob = open_page(contexts[1], errors, "Bob")
        phone = open_page(contexts[2], errors, "phone")
        bob.goto(server.url + "#/find")   # nothing listed yet: said plainly
        bob.wait_for_selector("#lobby-empty:not([hidden])")

        # Ann lists a short two-person game, 5 seconds a side and 60 more a turn
        ann.goto(server.url + "#/new")
        ann.wait_for_selector("body[data-ready='1']")
        ann.locator("#seats select").nth(1).select_option("human")
        ann.fill("#your-name", "Ann")
        ann.fill("#short", "3")
        ann.check("#public")
        assert ann.locator("#seed").is_disabled()   # a public game is dealt in secret
        ann.check("#clock-choice input[value='live']")
        ann.fill("#clock-minutes", str(5 / 60))
        ann.fill("#clock-increment", "60")
        ann.select_option("#clock-on-timeout", "random")
        ann.click("#start-game")
        ann.wait_for_selector("#lobby-wait:not([hidden])")
        game_id = game_id_of(ann)
        assert "Waiting for a player" in ann.inner_text("#lobby-wait-text")
        ann.wait_for_selector("#wait-bot")   # the creator may fill the seat with a bot at once
        assert ann.locator("#players span.clock.running").count() == 0   # no time runs yet

        # Bob's lobby shows it within a poll; the phone's too (screenshots of both)
        row = f".lobby-game[data-game='{game_id}']"
        bob.wait_for_selector(f"{row} button.join")
        assert "Ann" in bob.inner_text(row) and "3 players" not in bob.inner_text(row)
        assert bob.locator("#lobby-empty").is_hidden()
        bob.screenshot(path=str(ARTIFACTS / "lobby-desktop.png"))
        phone.goto(server.url + "#/find")
        phone.wait_for_selector(f"{row} button.join")
        phone.screenshot(path=str(ARTIFACTS / "lobby-phone.png"), full_page=True)
        ann.screenshot(path=str(ARTIFACTS / "lobby-waiting.png"))

        bob.click(f"{row} button.join")
        bob.wait_for_function("(id) => location.hash === `#/play/${id}`", arg=game_id)
        bob.wait_for_selector("#name-form:not([hidden])")
        bob.fill("#name-input", "Bob")
        bob.click("#name-save")
        ann.wait_for_selector("#lobby-wait", state="hidden")   # full: the game starts
        phone.wait_for_selector(f"{row}", state="detached")    # and leaves the lobby

        # they chat while Ann's 5 seconds run
        ann.fill("#chat-text", "hello Bob")
        ann.click("#chat-send")
        wait_said(bob, ": hello Bob")   # said as yellow, or as a watcher once her time ran out
        bob.fill("#chat-text", "hi Ann")
        bob.click("#chat-send")
        wait_said(ann, "Bob (red): hi Ann")

        # on the phone, a quick match nobody else asks for: its game waits, then offers a bot
        phone.select_option("#quick-edition", "2002")
        phone.select_option("#quick-clock", "none")
        phone.click("#quick-go")
        phone.wait_for_selector("#lobby-wait:not([hidden])")
        assert "A bot will be offered" in phone.inner_text("#lobby-wait-tools")
        phone.screenshot(path=str(ARTIFACTS / "lobby-phone-waiting.png"))
        phone.evaluate("() => { const w = JSON.parse(sessionStorage.getItem('hg-quick-wait'));"
                       " for (const k in w) w[k].at = 0; sessionStorage.setItem('hg-quick-wait',"
                       " JSON.stringify(w)); }")   # the 30 seconds chosen have passed
        phone.click("#wait-bot")
        phone.wait_for_selector("#lobby-wait", state="hidden")
        phone.wait_for_function("() => /bot/.test(document.querySelector(\"#lobby li[data-seat='1']\")"
                                "?.textContent)")

        # Ann does nothing: her time runs out and a bot plays yellow
        for page in (ann, bob):
            page.wait_for_function("() => /time ran out/.test(document.querySelector('#clock-news')"
                                   "?.textContent)")
        bob.wait_for_selector("#players tr[data-seat='0'] span.clock.out")

        # Bob plays to the end against the bot
        while True:
            bob.wait_for_function(WAIT_TURN_OR_END)
            if not bob.locator("#final").is_hidden():
                break
            play_turn(bob)
        bob.wait_for_selector("#rematch:not([hidden])")
        bob.click("#rematch")   # the other seat is a bot's: the rematch is made at once
        bob.wait_for_function("(old) => /^#\\/play\\/[A-Za-z0-9_-]+$/.test(location.hash)"
                              " && !location.hash.includes(old)", arg=game_id)
        bob.wait_for_selector("#board")
        assert bob.locator("#lobby-wait").is_hidden()   # a rematch is not listed
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, f"JavaScript errors or frames off the protocol: {errors}"
