"""The page's language in a browser: chosen from the browser's languages (cs-CZ: Czech), a choice
kept in localStorage wins over it, <html lang> says which, and a page in a language it does not
speak falls back to English; and in Czech and in German no English word shows on the new-game
page, at the table, on the rules pages or in a finished game's review."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from play_server import Server

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

# (after the skips: they need Playwright)
from test_i18n import PARAM, WEB  # noqa: E402
from test_web_review import BUDGET, finished_game  # noqa: E402
from test_web_ui import ARTIFACTS, open_page, play_turn, start_game  # noqa: E402


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


WORD = re.compile(r"[A-Za-zÀ-žß]{3,}")


def catalogue_words(lang: str) -> set[str]:
    data = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    texts = [v for entry in data.values() for v in ([entry] if isinstance(entry, str) else entry.values())]
    return {w.lower() for text in texts for w in WORD.findall(PARAM.sub(" ", text))}


def english_words() -> set[str]:
    return catalogue_words("en") - catalogue_words("cs") - catalogue_words("de")


def english_left(page: Any, words: set[str]) -> list[str]:
    """The English words in the page's text (the visible text and what the live regions say to a
    screen reader), each with its line."""
    text = str(page.evaluate("() => document.body.innerText"))
    return sorted({f"{w}: {line.strip()[:80]}" for line in text.splitlines() for w in WORD.findall(line)
                   if w.lower() in words})


def english_in_tips(page: Any, words: set[str]) -> list[str]:
    """The English words in what the board, the log and the final table say on hovering (the
    scoring tooltips, the hints' squares) and in the board's words for screen readers."""
    tips = page.evaluate("""() => [...document.querySelectorAll('#board title, #log [title], #final [title]')]
        .map((n) => (n.tagName === 'title' ? n.textContent : n.getAttribute('title')) || '')
        .concat([document.querySelector('#board').getAttribute('aria-label') || ''])""")
    return sorted({f"{w}: {line.strip()[:80]}" for tip in tips for line in str(tip).splitlines()
                   for w in WORD.findall(line) if w.lower() in words})


def first_turn_with_hints_and_choices(page: Any, words: set[str], left: dict[str, list[str]]) -> None:
    """The first turn, stopping to read the hints (the list and the board's marks) and the choices
    of a piece (the server's words, each saying where on the tile the zone lies)."""
    page.click("#hint")
    page.wait_for_selector("#hints button.hint-turn")
    left["hints"] = english_left(page, words) + english_in_tips(page, words)
    assert page.locator("#board g.hint-spot title").count()
    page.click("#hints button.hint-turn >> nth=0")   # tried: placed, its piece chosen, to confirm
    page.wait_for_selector("#pending-tile")
    page.wait_for_function("() => document.querySelectorAll('#choices button').length > 0")
    left["choices"] = english_left(page, words)
    assert page.locator("#choices button[data-kind='pass']").count()
    page.wait_for_function("() => !document.querySelector('#confirm').disabled")
    page.click("#confirm")
    page.wait_for_function("() => !document.querySelector('#pending-tile')")


def english_left_on_every_screen(page: Any, url: str, gid: str, locale: str, words: set[str],
                                 new_game: tuple[str, str]) -> dict[str, list[str]]:
    """The English words (with their lines) on the new-game page (whose title and start button
    must read ``new_game``), at the table of a short game against a bot (each turn, with the hints
    and the choices of the first, and once it is over: the log's lines with their scoring
    arithmetic and the final table, their tooltips too), on both editions' rules pages and in the
    review of the finished game ``gid``; screenshots in artifacts/i18n-*-LOCALE.png."""
    left: dict[str, list[str]] = {}
    page.goto(url + "#/new")
    page.wait_for_selector("#screen-new:not([hidden])")
    title, start = new_game
    assert page.inner_text("#new-title") == title
    assert page.inner_text("#start-game") == start
    page.screenshot(path=str(ARTIFACTS / f"i18n-new-{locale}.png"))
    page.wait_for_selector("#seats li")
    left["new game"] = english_left(page, words)
    page.screenshot(path=str(ARTIFACTS / f"i18n-new-full-{locale}.png"), full_page=True)
    start_game(page, url, ["human", "bot:random"], short=3, seed=11)
    turns = 0
    while page.locator("#game-summary[hidden]").count() and turns < 6:
        page.wait_for_function("() => document.querySelector('#turn').dataset.mine === 'yes' || "
                               "!document.querySelector('#game-summary').hidden")
        if not page.locator("#game-summary[hidden]").count():
            break
        if turns == 0:
            first_turn_with_hints_and_choices(page, words, left)
        else:
            play_turn(page)
        turns += 1
        left[f"table, turn {turns}"] = english_left(page, words)
        if turns == 1:
            page.screenshot(path=str(ARTIFACTS / f"i18n-table-{locale}.png"), full_page=True)
    page.wait_for_selector("#game-summary:not([hidden])")
    page.wait_for_function("() => document.querySelector('#game-summary').dataset.scoring === 'done'")
    left["table, the end"] = english_left(page, words) + english_in_tips(page, words)
    # the scorings' arithmetic is in the log and the final table, in the page's language
    log = page.locator("#log").inner_text()
    final = page.locator("#final-table").inner_text()
    assert re.search(r"×\d+ .*= \d+ →", log) and re.search(r"= \d+ →", final), (log, final)
    page.screenshot(path=str(ARTIFACTS / f"i18n-final-{locale}.png"), full_page=True)
    page.goto(url + "#/help")
    page.wait_for_selector("#rules[data-edition='2020'] figure.diagram svg")
    left["rules 2020"] = english_left(page, words)
    page.screenshot(path=str(ARTIFACTS / f"i18n-rules-{locale}.png"), full_page=True)
    page.click("#rules-editions button[data-edition='2002']")
    page.wait_for_selector("#rules[data-edition='2002'] figure.diagram svg")
    left["rules 2002"] = english_left(page, words)
    page.goto(f"{url}#/replay/{gid}/0")
    page.wait_for_selector("#review-ask:not([hidden]), #review-chart .review-point")
    if page.locator("#review-chart .review-point").count() == 0:
        page.locator("#review-ask").click()
    # the review is the server's work in the background (a bot worker's searches), not a step of
    # the page: on a loaded machine it takes longer than one
    page.wait_for_selector("#review-chart .review-point", timeout=90_000)
    page.locator("#review-chart .review-point").nth(1).click()
    page.wait_for_function("() => /\\d/.test(document.querySelector('#review-here').textContent)")
    left["review"] = english_left(page, words)
    page.screenshot(path=str(ARTIFACTS / f"i18n-review-{locale}.png"), full_page=True)
    return left


@pytest.mark.parametrize(("locale", "title", "start"), [("cs-CZ", "Nová hra", "Začít hru"),
                                                        ("de-DE", "Neues Spiel", "Spiel starten")],
                         ids=["cs-CZ", "de-DE"])
def test_no_english_word_remains_in_czech_or_in_german(tmp_path: Path, browser: Any, locale: str, title: str,
                                                       start: str) -> None:
    """With the browser's language cs-CZ, or de-DE, the new-game page's title and start button are
    in that language (``title``, ``start``), and no word of the English catalogue (that is not
    also a Czech or German one) shows on the new-game page, at the table, on the rules pages or in
    a finished game's review (the words found, if any, in
    artifacts/i18n-english-left-LOCALE.json)."""
    words = english_words()
    assert {"the", "turn", "meadow", "hunter", "score"} <= words   # the list is the catalogue's
    ARTIFACTS.mkdir(exist_ok=True)
    srv = Server(tmp_path / "games.sqlite", args=BUDGET).start()
    errors: list[str] = []
    try:
        gid = finished_game(srv.http)
        context = browser.new_context(locale=locale, viewport={"width": 1200, "height": 900})
        try:
            page = open_page(context, errors, locale)
            found = english_left_on_every_screen(page, srv.url, gid, locale, words, (title, start))
        finally:
            context.close()
        (ARTIFACTS / f"i18n-english-left-{locale}.json").write_text(
            json.dumps(found, indent=1, ensure_ascii=False), encoding="utf-8")
    finally:
        srv.stop()
    assert all(not left for left in found.values()), found
    assert not errors, errors
