"""The guided first game in the browser: a new player finds "Learn to play" (in the header, and
in the empty Saved games list), chooses an edition, follows the coach to the end of the game,
makes one wrong move that the coach explains and retries it, and ends on the closing card with
the final scores and a real game against a bot.  One edition on a phone (390×844, touch), the
other on a desktop; screenshots go to ``artifacts/`` (git-ignored).  Playwright drives Debian's
chromium on a real ``huntgather play`` server.  Skipped when Playwright or chromium is missing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from play_server import Server

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

from test_web_ui import ARTIFACTS, open_page  # noqa: E402  (after the skips: it needs Playwright)

from huntgather.moves import Occupy, Place, parse_move  # noqa: E402
from huntgather.tutorial import coach_texts, load_script  # noqa: E402

CATALOGUES = Path(__file__).parents[1] / "src/huntgather/web/i18n"
CZECH = json.loads((CATALOGUES / "cs.json").read_text(encoding="utf-8"))
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1400, "height": 900}}


def coach(page: Any) -> tuple[str, str]:
    """Wait until the coach says something to do (not red's turn); its (kind, step key)."""
    page.wait_for_function("() => { const c = document.querySelector('#coach');"
                           " return c && !c.hidden && c.dataset.kind && c.dataset.kind !== 'wait'; }")
    kind: str = page.get_attribute("#coach", "data-kind")
    step: str = page.get_attribute("#coach", "data-step")
    return kind, step


def press(target: Any) -> None:
    """A click (a tap on a touch screen) on a square of the board."""
    target.click()


@pytest.mark.parametrize(("edition", "size", "entry"),
                         [("2020", PHONE, "games"), ("2002", DESKTOP, "header")],
                         ids=["2020-390x844", "2002-1400x900"])
def test_a_new_player_completes_the_guided_game(server: Server, browser: Any, edition: str,
                                                size: dict[str, Any], entry: str) -> None:
    script = load_script(edition)
    steps = {s.key: s for s in script.steps}
    texts = coach_texts()
    name = f"tutorial-{edition}-{size['viewport']['width']}x{size['viewport']['height']}"
    errors: list[str] = []
    context = browser.new_context(**size)
    # the tiles come in at once (the coach's steps are what this test follows, not the animations)
    context.add_init_script("localStorage.setItem('hg-animation', 'off')")
    try:
        page = open_page(context, errors, "learner")
        page.goto(server.url + "#/games")
        page.wait_for_selector("body[data-ready='1']")
        if entry == "games":   # a browser without games: the empty list offers the guided game
            page.click("#games-learn")
        else:
            assert page.get_attribute("#nav-learn", "aria-label") == "Learn to play"
            page.click("#nav-learn")
        page.wait_for_selector("#screen-learn:not([hidden])")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["viewport"]["width"]
        page.click(f"#learn-editions button[data-edition='{edition}']")
        page.wait_for_selector("#screen-play:not([hidden])")
        wrong_shown = switched = False
        done: list[str] = []
        while True:
            kind, key = coach(page)
            if kind == "end":
                break
            assert page.inner_text("#coach-text") == texts[key]
            step = steps[key]
            if kind == "watch" and entry == "header" and not switched and any(steps[d].player for d in done):
                # the language switched mid-game (the settings reload the page), red's steps read
                # before: the same step (not those again), its words and the header link's name
                # in Czech; then back to English
                for lang, words, label in (("cs", coach_texts("cs"), CZECH["nav.learn"]),
                                           ("en", texts, "Learn to play")):
                    page.evaluate("(l) => { localStorage.setItem('huntgather.language', l);"
                                  " location.reload(); }", lang)
                    page.wait_for_function("([k, t]) => { const c = document.querySelector('#coach');"
                                           " return c && !c.hidden && c.dataset.step === k &&"
                                           " document.querySelector('#coach-text').textContent === t; }",
                                           arg=[key, words[key]])
                    assert page.get_attribute("#nav-learn", "aria-label") == label
                switched = True
            if kind == "watch":
                assert step.player == 1
                page.click("#coach-next")
                page.wait_for_function("(k) => document.querySelector('#coach').dataset.step !== k", arg=key)
                done.append(key)
                continue
            move = parse_move(step.moves[-1])
            if isinstance(move, Place):
                spot = page.locator(f"g.coach-spot[data-x='{move.x}'][data-y='{move.y}']")
                spot.wait_for(state="attached")
                if not wrong_shown:   # a square the coach did not ask for: explained, nothing played
                    other = page.locator(f"rect.target:not([data-x='{move.x}'][data-y='{move.y}'])").first
                    press(other)
                    page.wait_for_function("() => document.querySelector('#coach-retry').textContent")
                    assert page.inner_text("#coach-retry") == texts["retry.square"]
                    assert page.inner_text("#play-error") == ""
                    page.screenshot(path=str(ARTIFACTS / f"{name}-retry.png"))
                    wrong_shown = True
                    spot.wait_for(state="attached")   # the step again, its square marked again
                target = page.locator(f"rect.target[data-x='{move.x}'][data-y='{move.y}']")
                press(target)
                page.wait_for_selector("#pending-tile")
                # the coach's words for the wrong square go once the right one is taken
                page.wait_for_function("() => !document.querySelector('#coach-retry').textContent")
                if key == script.steps[0].key:
                    page.screenshot(path=str(ARTIFACTS / f"{name}-first-step.png"))
            else:
                assert isinstance(move, Occupy)
                chosen = page.locator("#choices button.coach-choice")
                assert chosen.get_attribute("data-zone") == str(move.zone)
                assert chosen.get_attribute("data-piece") == str(move.piece)
                chosen.click()
                page.wait_for_selector("#choices button.coach-choice.selected")
                page.click("#confirm")
                page.wait_for_function("(k) => document.querySelector('#coach').dataset.step !== k", arg=key)
            done.append(key)
        assert wrong_shown and switched == (entry == "header")
        assert done == [s.key for s in script.steps]
        final = script.steps[-1].scores
        page.wait_for_selector("#coach-end:not([hidden])")
        assert page.inner_text("#coach-final") == f"Final score: you {final[0]}, red {final[1]}."
        page.screenshot(path=str(ARTIFACTS / f"{name}-end.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= size["viewport"]["width"]
        tutorial_game = page.evaluate("location.hash")
        page.click("#coach-real")   # a real game against a bot: no coach there
        page.wait_for_function("(h) => location.hash !== h && /^#\\/play\\//.test(location.hash)",
                               arg=tutorial_game)
        page.wait_for_selector("body[data-version]")
        page.wait_for_function("() => document.querySelector('#coach').hidden && "
                               "document.querySelector('#players tbody tr')")
        assert not errors, errors
    finally:
        context.close()
