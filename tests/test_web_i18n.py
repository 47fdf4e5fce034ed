"""The page's language in a browser: chosen from the browser's languages (cs-CZ: Czech), a choice
kept in localStorage wins over it, <html lang> says which, and a page in a language it does not
speak falls back to English."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from play_server import Server

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

from test_web_ui import ARTIFACTS, open_page  # noqa: E402  (after the skips: it needs Playwright)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "games.sqlite").start()
    yield srv
    srv.stop()


def lang_of(browser: Any, url: str, locale: str, saved: str | None, errors: list[str]) -> str:
    context = browser.new_context(locale=locale)
    try:
        if saved:
            context.add_init_script(f"localStorage.setItem('huntgather.language', '{saved}')")
        page = open_page(context, errors, locale)
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        return str(page.evaluate("() => document.documentElement.lang"))
    finally:
        context.close()


def test_the_language_follows_the_browser_and_the_saved_choice(server: Server, browser: Any) -> None:
    errors: list[str] = []
    assert lang_of(browser, server.url, "cs-CZ", None, errors) == "cs"
    assert lang_of(browser, server.url, "de-DE", None, errors) == "de"
    assert lang_of(browser, server.url, "fr-FR", None, errors) == "en"
    assert lang_of(browser, server.url, "cs-CZ", "de", errors) == "de"
    assert not errors, errors


@pytest.mark.parametrize(("locale", "title", "start"), [("cs-CZ", "Nová hra", "Začít hru"),
                                                        ("de-DE", "Neues Spiel", "Spiel starten")])
def test_the_new_game_page_in_czech_and_german(server: Server, browser: Any, locale: str, title: str,
                                               start: str) -> None:
    errors: list[str] = []
    context = browser.new_context(locale=locale, viewport={"width": 1200, "height": 900})
    try:
        page = open_page(context, errors, locale)
        page.goto(server.url + "#/new")
        page.wait_for_selector("#screen-new:not([hidden])")
        assert page.inner_text("#new-title") == title
        assert page.inner_text("#start-game") == start
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"i18n-new-{locale}.png"))
    finally:
        context.close()
    assert not errors, errors
