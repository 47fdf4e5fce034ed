"""Chat, resign and rematch in the browser: two people and a watcher, each in a browser context of
their own (own storage), on a real ``huntgather play`` server (Playwright, Debian's chromium).

Skipped when Playwright or chromium is missing (``scripts/test.sh`` installs both).
"""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest
from play_server import Server

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

from test_web_ui import (  # noqa: E402  (after the skips: it needs Playwright)
    ARTIFACTS,
    game_id_of,
    hand_out,
    open_page,
    play_turn,
    same_version,
    start_game,
)

#: what would run if a page ever read a name or a line as HTML
PAYLOAD = "<img src=x onerror=window.pwned=1>"
NAME = "<img src=x onerror=f()>"


def lines(page: Any) -> list[str]:
    texts: list[str] = page.locator("#chat-lines li").all_inner_texts()
    return texts


def wait_line(page: Any, text: str) -> None:
    page.wait_for_function("(t) => [...document.querySelectorAll('#chat-lines li')]"
                           ".some((li) => li.textContent === t)", arg=text)


def say(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-send")


class LaggingSocket:
    """A page's game sockets through Playwright's websocket routing: while ``hold`` is set, the
    server's ``update`` frames wait; a refusal of the page's Leave (its resign's ``request``
    ``leave-N``) is noted in ``refused`` and lets the held frames go, after it."""

    def __init__(self, page: Any) -> None:
        self.hold = False
        self.held: list[Any] = []
        self.refused: list[str] = []
        page.route_web_socket("**/ws/**", self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(server.send)

        def from_server(frame: Any) -> None:
            msg = json.loads(frame) if isinstance(frame, str) else {}
            if self.hold and msg.get("type") == "update":
                self.held.append(frame)
                return
            ws.send(frame)
            if msg.get("type") == "error" and str(msg.get("request", "")).startswith("leave-"):
                self.refused.append(msg["code"])
                self.hold = False
                for held in self.held:
                    ws.send(held)
                self.held.clear()

        server.on_message(from_server)


def test_two_people_and_a_watcher_chat_play_and_rematch(server: Server, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    contexts = [browser.new_context(viewport={"width": 1400, "height": 900}) for _ in range(3)]
    try:
        ann = open_page(contexts[0], errors, "Ann")
        start_game(ann, server.url, ["human", "human"], short=3, name="Ann")
        game_id = game_id_of(ann)
        link = hand_out(ann, 1)
        bob = open_page(contexts[1], errors, "Bob")
        bob.goto(link)
        bob.wait_for_selector("#name-form:not([hidden])")
        bob.fill("#name-input", NAME)
        bob.click("#name-save")
        bob.wait_for_selector("#name-form", state="hidden")
        cy = open_page(contexts[2], errors, "Cy")
        cy.goto(server.url + f"#/watch/{game_id}")
        cy.wait_for_selector("#watching:not([hidden])")
        everyone = (ann, bob, cy)
        for page in everyone:
            page.wait_for_selector("#chat:not([hidden]) #chat-text")
        assert cy.locator("#seat-actions button:visible").count() == 0   # no seat to leave

        say(ann, "hello Bob")
        for page in everyone:
            wait_line(page, "Ann (yellow): hello Bob")
        say(bob, PAYLOAD)
        bob_says = f"{NAME} (red): {PAYLOAD}"
        for page in everyone:
            wait_line(page, bob_says)
        bob.click("#chat-quick button:has-text('good luck')")
        for page in everyone:
            wait_line(page, f"{NAME} (red): good luck")
        say(cy, "go Ann!")
        for page in everyone:
            wait_line(page, "a watcher: go Ann!")
        for page in everyone:   # nothing said ran: no image, no script, the words shown as they are
            assert page.evaluate("window.pwned") is None
            assert page.locator("#chat img, #lobby img, #players img").count() == 0
        # Bob hides the watchers' chat; Ann mutes Bob (remembered in her browser)
        bob.check("#chat-hide-watchers")
        bob.wait_for_function("() => ![...document.querySelectorAll('#chat-lines li')]"
                              ".some((li) => li.textContent.startsWith('a watcher'))")
        ann.check(".chat-mute[data-seat='1']")
        ann.wait_for_function("() => document.querySelectorAll('#chat-lines li').length === 2")
        assert lines(ann) == ["Ann (yellow): hello Bob", "a watcher: go Ann!"]
        assert ann.evaluate("JSON.parse(localStorage.getItem('hg-chat-muted'))") == {game_id: [1]}
        ann.screenshot(path=str(ARTIFACTS / "chat-ann.png"))
        # the creator closes the watchers' chat: Cy can no longer write; then opens it again
        assert bob.locator("#chat-close-watchers").is_hidden()   # not the creator
        ann.click("#chat-close-watchers")
        cy.wait_for_selector("#chat-text", state="hidden")
        ann.wait_for_function("() => document.querySelector('#chat-close-watchers').textContent"
                              " === \"open the watchers' chat\"")
        ann.click("#chat-close-watchers")
        cy.wait_for_selector("#chat-text")

        # the short game is played to its end
        pages = {0: ann, 1: bob}
        while True:
            same_version(list(everyone))
            if not ann.locator("#final").is_hidden():
                break
            mover = int(ann.get_attribute("#turn", "data-player") or "-1")
            pages[mover].wait_for_selector("rect.target")
            play_turn(pages[mover])
        for page in (ann, bob):
            page.wait_for_selector("#rematch:not([hidden])")
        assert cy.locator("#rematch").is_hidden()
        # from the rematch on, Ann's page can be made to lag: the server's updates held back
        lag = LaggingSocket(ann)
        ann.click("#rematch")
        bob.wait_for_function("() => document.querySelector('#rematch-status').textContent"
                              " === 'rematch wanted by Ann (yellow)'")
        bob.click("#rematch")
        for page in (ann, bob):
            page.wait_for_function("(old) => /^#\\/play\\/[A-Za-z0-9_-]+$/.test(location.hash)"
                                   " && !location.hash.includes(old)", arg=game_id)
        cy.wait_for_function("(old) => location.hash.startsWith('#/watch/') && !location.hash.includes(old)",
                             arg=game_id)
        new_id = game_id_of(ann)
        assert game_id_of(bob) == new_id and cy.evaluate("location.hash") == f"#/watch/{new_id}"
        assert ann.evaluate(f"JSON.parse(localStorage.getItem('hg-games'))['{new_id}']")["creator"]
        assert list(bob.evaluate(f"JSON.parse(localStorage.getItem('hg-games'))['{new_id}']")["seats"]) \
            == ["1"]
        # the same seats, Bob starts this time: his page is the one with a turn to play
        bob.wait_for_selector("rect.target")
        ann.wait_for_selector("#lobby li[data-seat='0'] .you")   # (Ann's page may show the game later)
        assert ann.locator("#lobby li[data-seat='0'] .you").count() == 1
        ann.wait_for_function("(n) => document.querySelector(\"#lobby li[data-seat='1'] .name\")"
                              "?.textContent === n", arg=NAME)
        assert lines(bob) == []   # a new game, a new chat

        # Bob resigns: asked first; "No" keeps the seat, "Yes" hands it to a bot
        bob.click("#resign")
        bob.wait_for_selector("#resign-confirm:not([hidden])")
        bob.click("#resign-no")
        bob.wait_for_selector("#resign:not([hidden])")
        bob.click("#resign")
        lag.hold = True   # Ann's page will not see the bot's move for Bob
        bob.click("#resign-yes")
        ann.wait_for_function("() => /bot/i.test(document.querySelector(\"#lobby li[data-seat='1']\")"
                              ".textContent)")
        bob.wait_for_selector("#watching:not([hidden])")   # Bob holds no seat any more: nothing to resign
        assert bob.locator("#seat-actions button:visible").count() == 0
        bob.screenshot(path=str(ARTIFACTS / "chat-bob-resigned.png"))
        # Ann leaves (an unrated game): her seat goes to a bot as well, her page to the saved games.
        # Her page has not seen the bot's move for Bob, so its resign is `stale`: sent again once
        # the page has caught up (the held updates go out after that refusal), never dropped
        bob.wait_for_function("() => document.querySelector('#turn')?.dataset.player === '0'")
        ann.click("#leave")
        ann.wait_for_function("() => location.hash === '#/games'")
        assert lag.refused and set(lag.refused) == {"stale"}   # once per update it had not seen
        bob.wait_for_function("() => /bot/i.test(document.querySelector(\"#lobby li[data-seat='0']\")"
                              ".textContent)")
        # Ann opens the first game again: the rematch made is offered, not forced on her
        ann.evaluate("(old) => { location.hash = `#/play/${old}`; }", game_id)
        ann.wait_for_selector("#rematch-open:not([hidden])")
        assert ann.get_attribute("#rematch-open", "href") == f"#/play/{new_id}"
        assert game_id_of(ann) == game_id and ann.locator("#rematch").is_hidden()

        # the replay of the first game shows what was said, and takes no new lines
        cy.goto(server.url + f"#/replay/{game_id}/0")
        wait_line(cy, "Ann (yellow): hello Bob")
        assert len(lines(cy)) == 4 and cy.locator("#chat-text").is_hidden()
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, f"JavaScript errors or frames off the protocol: {errors}"
