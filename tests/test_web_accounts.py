"""Accounts in the browser (issue 38), as a person uses them: Playwright drives Debian's chromium
against a real ``huntgather play`` server process.

One test signs up with a password in the page, is told plainly about a wrong password, signs out
and in again; one plays a rated short game against a bot to its end and finds the new ratings on
the profile (an SVG chart) and the leaderboard, then opens the game from a second browser
context signed in to the same account, without any link; one shows that a name that is HTML
(``<img src=x onerror=…>``) stays text on the leaderboard and the profile. The screens' drawing
of the answers' shapes (docs: the accounts contract) is also checked with the answers given by
the test (``page.route``), so that every mark (provisional, bot, the chart's points and axes) is
seen whatever the server's numbers.  Screenshots go to ``artifacts/`` (git-ignored).
"""

from __future__ import annotations

import ast
import itertools
import json
import math
import shutil
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from play_server import Server

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "artifacts"
TIMEOUT = 20_000   # ms, for one step of the UI (never a measure of speed)
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
TABLET = {"viewport": {"width": 768, "height": 1024}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1920, "height": 1080}}
XSS = "<img src=x onerror=window.pwned=1>"
XSS_NAME = "<svg onload=pwned=1>"   # within a name's 24 characters: HTML that would run if parsed
PASSWORD = "correct horse battery staple"


class Pages:
    """Browser contexts (each its own cookies and storage) and their pages; JavaScript errors kept."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(self, who: str, options: dict[str, Any] | None = None) -> Any:
        ctx = self.browser.new_context(**(options or DESKTOP))
        self.contexts.append(ctx)
        pg = ctx.new_page()
        pg.set_default_timeout(TIMEOUT)
        pg.on("pageerror", lambda e: self.errors.append(f"{who}: {e}"))
        return pg

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    ARTIFACTS.mkdir(exist_ok=True)
    p = Pages(browser)
    yield p
    p.close()
    assert not p.errors, f"JavaScript errors: {p.errors}"


def goto(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")


def sign_up(page: Any, url: str, name: str, password: str) -> None:
    """Create an account in the page's dialog, from the header's Sign in button."""
    goto(page, url + "#/new")
    page.click("#sign-in")
    page.wait_for_selector("#account-dialog[open]")
    page.click("#mode-sign-up")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Password", exact=True).fill(password)
    page.click("#account-submit")
    page.wait_for_selector("#me-link:not([hidden])")


def sign_in(page: Any, url: str, name: str, password: str) -> None:
    goto(page, url + "#/new")
    page.click("#sign-in")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Password", exact=True).fill(password)
    page.click("#account-submit")
    page.wait_for_selector("#me-link:not([hidden])")


WAIT_LEGAL_OR_END = """() => document.querySelector('#board [data-legal]') ||
                             !document.querySelector('#game-summary').hidden"""


def play_to_the_end(page: Any) -> None:
    """Play every turn of the page's seat (the first legal square, no piece) until the game ends."""
    while True:
        page.wait_for_function(WAIT_LEGAL_OR_END)
        if not page.locator("#game-summary").is_hidden():
            return
        tiles = page.locator("#viewport > g > g.hg-tile").count()
        page.locator("#board [data-legal]").first.click()
        page.wait_for_selector("#pending-tile")
        page.wait_for_function("() => !document.querySelector('#confirm').disabled || "
                               "document.querySelector('#choices button[data-kind=\"pass\"]')")
        while page.locator("#confirm").is_disabled():   # a special's question: take nothing
            page.locator("#choices button[data-kind='pass']").first.click()
        page.click("#confirm")
        page.wait_for_function("() => document.querySelectorAll('#viewport > g > g.hg-tile').length > "
                               f"{tiles} && !document.querySelector('#pending-tile')")


def api_json(url: str) -> Any:
    with urllib.request.urlopen(url) as r:
        return json.load(r)


# ------------------------------------------------------------------ with the real server


def test_sign_up_with_a_password_then_sign_out_and_in_again(server: Server, pages: Pages) -> None:
    page = pages.new("ann")
    sign_up(page, server.url, "Ann", PASSWORD)
    assert page.inner_text("#me-link").strip() == "Ann"
    assert page.locator("#account-dialog[open]").count() == 0
    page.screenshot(path=str(ARTIFACTS / "accounts-signed-in-1920x1080.png"))
    # the account screen: the name, no rating yet, the tools
    page.click("#me-link")
    page.wait_for_selector("#me-body:not([hidden])")
    assert page.inner_text("#me-name") == "Ann"
    assert page.locator("#me-no-ratings").is_visible()
    page.click("#sign-out")
    page.wait_for_selector("#sign-in:not([hidden])")
    # the account screen says so once it has asked the server again (a moment after the header)
    page.wait_for_selector("#me-signed-out", state="visible")
    # a wrong password is said in plain words, and the dialog stays open with the name kept
    page.click("#sign-in")
    page.get_by_label("Name", exact=True).fill("Ann")
    page.get_by_label("Password", exact=True).fill("not the password")
    page.click("#account-submit")
    page.wait_for_function("() => document.querySelector('#account-error').textContent !== ''")
    assert "do not match an account" in page.inner_text("#account-error")
    assert page.locator("#account-dialog[open]").count() == 1
    # the same name again for a new account: taken
    page.click("#mode-sign-up")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.click("#account-submit")
    page.wait_for_function("() => /taken/.test(document.querySelector('#account-error').textContent)")
    page.click("#mode-sign-in")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.click("#account-submit")
    page.wait_for_selector("#me-link:not([hidden])")
    page.wait_for_selector("#me-body:not([hidden])")


def test_a_rated_game_moves_the_ratings_and_follows_the_account_to_another_browser(
        server: Server, pages: Pages) -> None:
    ann = pages.new("ann", PHONE)
    sign_up(ann, server.url, "Ann", PASSWORD)
    goto(ann, server.url + "#/new")
    assert ann.locator("#rated-box").is_visible() and ann.locator("#rated-guest").is_hidden()
    assert ann.locator("#your-name").is_hidden()   # the account's name is the seat's
    ann.locator("#seats select").nth(1).select_option("bot:easy")
    ann.check("#rated")
    assert ann.locator("#seed").is_disabled()   # a rated game is dealt in secret
    ann.fill("#short", "3")
    ann.click("#start-game")
    ann.wait_for_function("() => /^#\\/play\\/[A-Za-z0-9_-]+$/.test(location.hash)")
    gid = ann.evaluate("location.hash").split("/")[2]
    ann.wait_for_selector("#rated-mark:not([hidden])", state="attached")
    ann.wait_for_function(WAIT_LEGAL_OR_END)
    assert ann.locator("#hint").is_hidden()   # no hints in a rated game
    assert ann.locator("#undo-turn").is_hidden()   # and no take-backs
    # the header keeps to one line on a phone at the table: the board keeps its height
    tops = {round(ann.locator(sel).bounding_box()["y"]) for sel in ("#nav-new", "#nav-help", "#me-link")}
    assert max(tops) - min(tops) < 24, tops
    # and its words stand apart, evenly: each centred in its finger-sized link (left-aligned,
    # "Games" filled its link and touched "Top" while "New" sat on the screen's edge)
    words = ann.evaluate("""() => [...document.querySelectorAll('header nav a')].map(a => {
        const range = document.createRange(); range.selectNodeContents(a);
        const r = range.getBoundingClientRect(); return [r.left, r.right]; }).filter(r => r[1] > r[0])""")
    assert len(words) >= 5 and words[0][0] >= 6, words
    gaps = [b[0] - a[1] for a, b in itertools.pairwise(words)]
    assert min(gaps) >= 8, gaps
    ann.screenshot(path=str(ARTIFACTS / "accounts-rated-game-390x844.png"))

    # a second browser, signed in to the same account, lists the game and opens it without a link
    other = pages.new("ann elsewhere")
    sign_in(other, server.url, "Ann", PASSWORD)
    goto(other, server.url + "#/games")
    row = other.locator(f"#games-table tr[data-game='{gid}']")
    row.wait_for()
    assert "account-game" in (row.get_attribute("class") or "")
    assert "rated" in row.inner_text()
    row.locator("a.resume").click()
    other.wait_for_function(f"() => location.hash === '#/play/{gid}'")
    other.wait_for_selector("#players td.me")   # it holds Ann's seat, by the account alone
    assert other.locator("#watching").is_hidden()
    assert other.locator("#rated-mark").is_visible()
    assert other.locator("#play-error").inner_text() == ""
    other.screenshot(path=str(ARTIFACTS / "accounts-other-browser-1920x1080.png"))
    other.goto(server.url + "#/new")   # leaves the game (one page plays the turns)

    play_to_the_end(ann)
    view = api_json(f"{server.url}api/games/{gid}")
    assert view["over"] and view.get("rated") is True
    # the summary tells Ann's new rating, once the server has rated the game
    ann.wait_for_selector("#summary-rating:not([hidden])")
    after = api_json(f"{server.url}api/players/Ann")["ratings"]["2020"]
    assert ann.inner_text("#summary-rating").startswith(f"Your 2020 rating: {after['rating']} ± ")
    ann.screenshot(path=str(ARTIFACTS / "accounts-rated-end-390x844.png"))

    # the profile: the 2020 rating, one game in its chart, the game among the recent ones
    goto(ann, server.url + "#/player/Ann")
    card = ann.locator(".edition-card[data-edition='2020']")
    card.wait_for()
    profile = api_json(f"{server.url}api/players/Ann")
    r = profile["ratings"]["2020"]
    assert r["games"] == 1 and len(r["history"]) == 1
    assert card.locator(".rating").inner_text().startswith(f"{r['rating']} ± ")
    assert card.locator("svg.rating-chart circle").count() == 1
    dot = card.locator("svg.rating-chart circle")
    assert dot.get_attribute("data-rating") == str(r["history"][0]["rating"])
    replay = ann.locator(f"ol.recent-games li[data-game='{gid}'] a.replay")
    assert replay.get_attribute("href") == f"#/replay/{gid}/1"
    ann.screenshot(path=str(ARTIFACTS / "accounts-profile-390x844.png"), full_page=True)

    # the leaderboard: Ann and the easy bot, each with the numbers of the server
    goto(ann, server.url + "#/leaderboard/2020/all")
    ann.wait_for_selector("#leaderboard-table tbody tr[data-kind]")
    board = api_json(f"{server.url}api/leaderboard?edition=2020&who=all")
    rows = ann.locator("#leaderboard-table tbody tr[data-kind]")
    assert rows.count() == len(board["players"])
    names = rows.locator("td.name a").all_inner_texts()
    assert "Ann" in names and "easy" in names
    for i, p in enumerate(board["players"]):
        assert rows.nth(i).locator("td.rating").inner_text().startswith(str(p["rating"]))
        assert (rows.nth(i).locator(".bot-mark").count() == 1) == (p["kind"] == "bot")
    ann.screenshot(path=str(ARTIFACTS / "accounts-leaderboard-390x844.png"), full_page=True)
    # the people only: no bot
    ann.check("input[name=lb-who][value=people]")
    ann.wait_for_function("() => location.hash === '#/leaderboard/2020/people'")
    ann.wait_for_function("() => ![...document.querySelectorAll('#leaderboard-table tbody tr')]"
                          ".some((tr) => tr.dataset.kind === 'bot')")
    assert "Ann" in ann.locator("#leaderboard-table td.name a").all_inner_texts()


def test_a_name_that_is_html_stays_text_on_the_leaderboard_and_the_profile(server: Server,
                                                                            pages: Pages) -> None:
    page = pages.new("mallory")
    sign_up(page, server.url, XSS_NAME, PASSWORD)
    assert page.inner_text("#me-link").strip() == XSS_NAME
    goto(page, server.url + "#/new")
    page.locator("#seats select").nth(1).select_option("bot:random")
    page.check("#rated")
    page.fill("#short", "2")
    page.click("#start-game")
    page.wait_for_function("() => /^#\\/play\\/[A-Za-z0-9_-]+$/.test(location.hash)")
    play_to_the_end(page)
    page.wait_for_selector("#summary-rating:not([hidden])")   # the server has rated the game
    goto(page, server.url + "#/leaderboard/2020/people")
    link = page.locator("#leaderboard-table td.name a", has_text="onload")
    link.wait_for()
    assert link.inner_text() == XSS_NAME
    link.click()
    page.wait_for_selector(".edition-card")
    assert page.locator("#player-title").inner_text() == XSS_NAME
    recent = page.locator("ol.recent-games a.player-link", has_text="onload")
    assert recent.first.inner_text() == XSS_NAME
    page.screenshot(path=str(ARTIFACTS / "accounts-html-name-1920x1080.png"), full_page=True)
    assert page.locator("main svg[onload], header svg[onload]").count() == 0
    assert page.evaluate("window.pwned") is None


# ------------------------------------------------------------------ the screens, with given answers

NOW = time.time()
#: OpenSkill's mu per point of the Elo-like rating shown (docs/accounts.md, Ratings): the answers
#: carry a sigma of ``n * MU_PER_POINT`` and its ``uncertainty`` n, which the page shows as "± n"
MU_PER_POINT = math.sqrt(2) * 25 / 6 * math.log(10) / 400
HISTORY = [{"at": NOW - 3600 * (9 - i), "rating": r, "game": f"g{i}"}
           for i, r in enumerate([1500, 1517, 1496, 1532, 1548, 1529])]
PROFILE = {
    "name": XSS, "kind": "person",
    "ratings": {"2020": {"rating": 1529, "uncertainty": 81, "mu": 25.4, "sigma": 81 * MU_PER_POINT,
                         "provisional": True,
                         "games": 6, "wins": 4, "history": HISTORY}},
    "stats": {"2020": {"played": 6, "won": 4, "average_score": 41.25, "average_margin": -3.5}},
    "recent": [{"id": "g5", "edition": "2020", "at": NOW, "rank": 2, "score": 40,
                "players": [{"name": "hard", "kind": "bot", "score": 44},
                            {"name": XSS, "kind": "person", "score": 40}]}],
    "bots": {"2020": {"easy": {"played": 5, "won": 4}, "hard": {"played": 1, "won": 0}}},
}
LEADERBOARD = {"edition": "2020", "who": "all", "players": [
    {"rank": 1, "name": "hard", "kind": "bot", "rating": 1702, "uncertainty": 40.2, "mu": 30.1,
     "sigma": 40.2 * MU_PER_POINT,
     "provisional": False, "games": 41, "wins": 30},
    {"rank": 2, "name": XSS, "kind": "person", "rating": 1529, "uncertainty": 81, "mu": 25.4,
     "sigma": 81 * MU_PER_POINT,
     "provisional": True, "games": 6, "wins": 4},
    {"rank": 3, "name": "easy", "kind": "bot", "rating": 1310, "uncertainty": 35.9, "mu": 20.0,
     "sigma": 35.9 * MU_PER_POINT,
     "provisional": False, "games": 90, "wins": 20},
]}


def answer_with(page: Any, asked: list[str]) -> None:
    """The profile and leaderboard answers of this test, whatever the server holds."""
    def route(r: Any) -> None:
        asked.append(r.request.url)
        body = PROFILE if "/api/players/" in r.request.url else LEADERBOARD
        r.fulfill(status=200, content_type="application/json", body=json.dumps(body))
    page.route("**/api/players/**", route)
    page.route("**/api/leaderboard**", route)


@pytest.mark.parametrize("size", [PHONE, TABLET, DESKTOP], ids=["390x844", "768x1024", "1920x1080"])
def test_the_profile_and_leaderboard_draw_every_part_of_their_answers(shared_server: Server, pages: Pages,
                                                                       size: dict[str, Any]) -> None:
    w, h = size["viewport"]["width"], size["viewport"]["height"]
    page = pages.new(f"{w}x{h}", size)
    asked: list[str] = []
    answer_with(page, asked)
    goto(page, shared_server.url + "#/leaderboard")
    rows = page.locator("#leaderboard-table tbody tr[data-kind]")
    rows.first.wait_for()
    assert page.input_value("#lb-edition") == "2020"   # the newest edition first
    assert asked[-1].endswith("/api/leaderboard?edition=2020&who=all")
    assert rows.locator("td.rank").all_inner_texts() == ["1", "2", "3"]
    assert rows.locator("td.name a").all_inner_texts() == ["hard", XSS, "easy"]
    assert rows.locator("td.rating").all_inner_texts()[0].startswith("1702 ± 40")
    assert [rows.nth(i).locator(".provisional").count() for i in range(3)] == [0, 1, 0]
    assert [rows.nth(i).locator(".bot-mark").count() for i in range(3)] == [1, 0, 1]
    assert rows.locator("td.games").all_inner_texts() == ["41", "6", "90"]
    assert rows.locator("td.wins").all_inner_texts() == ["30", "4", "20"]
    assert page.locator("main img").count() == 0 and page.evaluate("window.pwned") is None
    assert page.evaluate("document.documentElement.scrollWidth") <= w   # nothing wider than the screen
    page.screenshot(path=str(ARTIFACTS / f"accounts-leaderboard-given-{w}x{h}.png"), full_page=True)
    # the filters go into the address and the request
    page.select_option("#lb-edition", "2002")
    page.wait_for_function("() => location.hash === '#/leaderboard/2002/all'")
    with page.expect_request(lambda r: r.url.endswith("/api/leaderboard?edition=2002&who=bots")):
        page.check("input[name=lb-who][value=bots]")   # (the rows of before stay until the answer)
    page.wait_for_function("() => location.hash === '#/leaderboard/2002/bots'")
    page.wait_for_function("() => document.querySelector('#leaderboard-table tbody tr')")
    assert any(u.endswith("/api/leaderboard?edition=2002&who=bots") for u in asked)

    # the profile, from the name's link
    page.goto(shared_server.url + "#/leaderboard/2020/all")
    page.locator("#leaderboard-table td.name a", has_text="onerror").click()
    page.wait_for_selector(".edition-card[data-edition='2020'] svg.rating-chart")
    assert asked[-1].endswith("/api/players/%3Cimg%20src%3Dx%20onerror%3Dwindow.pwned%3D1%3E")
    assert page.locator("#player-title").inner_text() == XSS
    card = page.locator(".edition-card[data-edition='2020']")
    assert card.locator(".rating").inner_text() == "1529 ± 81"
    assert card.locator(".provisional").count() == 1
    assert card.locator("dd.played").inner_text() == "6" and card.locator("dd.won").inner_text() == "4"
    assert card.locator("dd.average-score").inner_text() == "41.3"
    assert card.locator("dd.average-margin").inner_text() == "-3.5"
    chart = card.locator("svg.rating-chart")
    dots = chart.locator("circle")
    assert dots.count() == len(HISTORY)
    assert [dots.nth(i).get_attribute("data-rating") for i in range(dots.count())] == \
        [str(x["rating"]) for x in HISTORY]
    titles = chart.locator("circle title").all_text_contents()
    assert titles[0].startswith("game 1") and titles[0].endswith("rating 1500")
    assert chart.locator("a").first.get_attribute("href") == "#/replay/g0/1"
    # the line goes through the points; higher ratings are higher up; the axes are labelled
    ys = [float(dots.nth(i).get_attribute("cy") or "nan") for i in range(dots.count())]
    assert ys.index(min(ys)) == 4 and ys.index(max(ys)) == 2   # 1548 highest, 1496 lowest
    assert chart.locator("path.line").count() == 1
    assert {"rated games", "rating"} <= set(chart.locator("text.axis-title").all_text_contents())
    labels = [int(t) for t in chart.locator("text.tick.y").all_text_contents()]
    assert labels[0] <= 1496 and labels[-1] >= 1548
    box = chart.bounding_box()
    assert box is not None and box["width"] <= w
    assert card.locator("table.head-to-head tr[data-level='easy'] td").all_inner_texts() == ["easy", "5", "4"]
    recent = page.locator("ol.recent-games li[data-game='g5']")
    assert recent.locator("a.replay").get_attribute("href") == "#/replay/g5/1"
    assert "2nd of 2" in recent.inner_text()
    assert page.locator("main img").count() == 0 and page.evaluate("window.pwned") is None
    assert page.evaluate("document.documentElement.scrollWidth") <= w
    page.screenshot(path=str(ARTIFACTS / f"accounts-profile-given-{w}x{h}.png"), full_page=True)


def test_the_dialog_is_labelled_closes_with_escape_and_gives_the_focus_back(shared_server: Server,
                                                                            pages: Pages) -> None:
    page = pages.new("guest", PHONE)
    goto(page, shared_server.url + "#/new")
    assert page.locator("#rated-box").is_hidden()   # a guest is offered no rated game, but told how
    assert page.locator("#rated-guest").is_visible()
    assert page.get_by_role("button", name="Sign in").first.is_visible()
    page.click("#sign-in")
    page.wait_for_selector("#account-dialog[open]")
    assert page.evaluate("document.activeElement.id") == "account-name"
    assert page.get_by_role("dialog", name="Sign in").is_visible()
    page.click("#mode-sign-up")
    assert page.get_by_role("dialog", name="Create an account").is_visible()
    assert page.get_attribute("#account-password", "autocomplete") == "new-password"
    # nothing typed: said so, nothing sent
    page.click("#account-submit")
    assert page.inner_text("#account-error") == "Type your name."
    page.screenshot(path=str(ARTIFACTS / "accounts-dialog-390x844.png"))
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('#account-dialog').open")
    assert page.evaluate("document.activeElement.id") == "sign-in"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def create_game(url: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A game made through the API (as another device would), not known to the test's browser."""
    body = json.dumps({"edition": "2020", "seats": seats, "short": 4}).encode()
    req = urllib.request.Request(url + "api/games", data=body, method="POST",
                                 headers={"Content-Type": "application/json", "Origin": url.rstrip("/")})
    with urllib.request.urlopen(req) as r:
        answer: dict[str, Any] = json.load(r)
        return answer


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390x844", "1920x1080"])
def test_the_games_of_the_account_come_first_with_your_turn_at_the_top(shared_server: Server, pages: Pages,
                                                                       size: dict[str, Any]) -> None:
    """#/games signed in: the account's games (GET /api/me, given here) before this browser's own,
    "your turn" first and marked, each opened by a plain #/play/ID (no secret in the address)."""
    w, h = size["viewport"]["width"], size["viewport"]["height"]
    waiting = create_game(shared_server.url, [{"kind": "human"}, {"kind": "human"}])
    mine = create_game(shared_server.url, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    local = create_game(shared_server.url, [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    page = pages.new(f"{w}x{h}", size)
    players = [{"seat": 0, "name": "Ann", "kind": "human", "level": None, "score": 0},
               {"seat": 1, "name": None, "kind": "human", "level": None, "score": 0}]
    me = {"account": {"id": 7, "name": "Ann", "has_password": True, "passkeys": 0}, "ratings": {},
          "games": [{"id": mine["id"], "edition": "2020", "status": "playing", "rated": True,
                     "your_turn": True, "seats": [0], "updated": NOW, "players": players},
                    {"id": waiting["id"], "edition": "2020", "status": "playing", "rated": False,
                     "your_turn": False, "seats": [0], "updated": NOW - 60, "players": players}]}
    page.route("**/api/me", lambda r: r.fulfill(status=200, content_type="application/json",
                                                  body=json.dumps(me)))
    goto(page, shared_server.url + "#/new")
    # this browser knows one more game, by its secrets
    page.evaluate("""([id, creator, seats]) => localStorage.setItem('hg-games', JSON.stringify(
        {[id]: {creator, seats, handed: [], created: Date.now()}}))""",
                  [local["id"], local["creator"], local["seats"]])
    page.click("#nav-games")
    rows = page.locator("#games-table tbody tr[data-game]")
    page.wait_for_function("() => document.querySelectorAll('#games-table tbody tr[data-game]').length === 3")
    ids = [rows.nth(i).get_attribute("data-game") for i in range(3)]
    assert ids == [mine["id"], waiting["id"], local["id"]]
    first = rows.nth(0)
    assert "your-turn" in (first.get_attribute("class") or "")
    assert first.locator(".your-turn-mark").inner_text() == "your turn"
    assert first.locator(".rated-tag").count() == 1 and rows.nth(1).locator(".rated-tag").count() == 0
    assert rows.nth(1).locator(".your-turn-mark").count() == 0
    for i in range(2):
        assert rows.nth(i).locator("a.resume").get_attribute("href") == f"#/play/{ids[i]}"
    assert "account-game" not in (rows.nth(2).get_attribute("class") or "")
    assert "Ann's account" in page.inner_text("#games-about")
    assert page.evaluate("document.documentElement.scrollWidth") <= w
    assert page.evaluate("document.querySelector('main').scrollWidth") <= w   # Resume in reach
    page.screenshot(path=str(ARTIFACTS / f"accounts-games-{w}x{h}.png"), full_page=True)
    # a route with no secret is a game to open, not a bad link: nothing is refused, nothing forgotten
    first.locator("a.resume").click()
    page.wait_for_function(f"() => location.hash === '#/play/{mine['id']}'")
    page.wait_for_selector("#players tbody tr", state="attached")
    page.wait_for_function("() => document.querySelector('#connection').dataset.connection === 'online'")
    assert page.inner_text("#play-error") == ""
    assert page.evaluate("location.hash") == f"#/play/{mine['id']}"
    stored = page.evaluate("JSON.parse(localStorage.getItem('hg-games'))")
    assert stored[local["id"]]["creator"] == local["creator"]


AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True, "automaticPresenceSimulation": True}


def test_sign_up_with_a_passkey_set_a_password_and_sign_in_with_the_passkey(server: Server,
                                                                          pages: Pages) -> None:
    """The dialog's passkey button (passkeys.js) with Chromium's virtual authenticator (CDP)."""
    page = pages.new("ann", PHONE)
    page.goto(f"http://localhost:{server.port}/#/new")   # a host name: WebAuthn takes no IP address
    page.wait_for_selector("body[data-ready='1']")
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    page.click("#sign-in")
    page.click("#mode-sign-up")
    assert page.locator("#passkey-box").is_visible()
    page.get_by_label("Name", exact=True).fill("Bea")
    page.click("#account-passkey")   # no password: the passkey alone
    page.wait_for_selector("#me-link:not([hidden])")
    assert page.inner_text("#me-link").strip() == "Bea"
    # the focus is not lost: it reaches the account's link once the page has taken in who is
    # signed in (the link shows a moment before the focus moves, so the test waits for it)
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'me-link'",
                           timeout=5000)
    page.click("#me-link")
    page.wait_for_selector("#me-body:not([hidden])")
    assert page.inner_text("#passkey-count") == "This account has 1 passkey."
    # an account made with a passkey sets a password (nothing to give as the old one)
    assert page.inner_text("#password-title") == "Set a password"
    assert page.locator("#old-password-label").is_hidden()
    page.fill("#new-password", PASSWORD)
    page.click("#password-save")
    page.wait_for_function("() => document.querySelector('#password-note').textContent === "
                           "'The password is saved.'")
    assert page.inner_text("#password-title") == "Change the password"
    # this authenticator holds Bea's passkey already: a second one is refused, in words
    page.click("#add-passkey")
    page.wait_for_function("() => /already/.test(document.querySelector('#passkey-note').textContent)")
    page.screenshot(path=str(ARTIFACTS / "accounts-me-390x844.png"), full_page=True)
    page.click("#sign-out")
    page.wait_for_selector("#sign-in:not([hidden])")
    page.click("#sign-in")
    page.click("#account-passkey")   # "Sign in with a passkey": no name needed
    page.wait_for_selector("#me-link:not([hidden])")
    assert page.inner_text("#me-link").strip() == "Bea"


def test_sign_out_everywhere_then_delete_the_account_after_saying_what_goes(server: Server,
                                                                           pages: Pages) -> None:
    here = pages.new("cid")
    sign_up(here, server.url, "Cid", PASSWORD)
    there = pages.new("cid elsewhere", PHONE)
    sign_in(there, server.url, "Cid", PASSWORD)
    goto(here, server.url + "#/me")
    here.wait_for_selector("#me-body:not([hidden])")
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()
    here.on("dialog", answer)
    here.click("#sign-out-all")
    here.wait_for_selector("#sign-in:not([hidden])")
    assert "every device" in asked[-1]
    goto(there, server.url + "#/me")   # the other browser's session ended too
    there.wait_for_selector("#me-signed-out:not([hidden])")
    assert there.locator("#sign-in").is_visible()

    sign_in(here, server.url, "Cid", PASSWORD)
    goto(here, server.url + "#/me")
    here.wait_for_selector("#me-body:not([hidden])")
    here.fill("#delete-password", "not the password")
    here.click("#delete-account")
    here.wait_for_function("() => /not this account's password/"
                           ".test(document.querySelector('#delete-error').textContent)")
    assert here.locator("#me-link").is_visible()   # still there
    for words in ("Cid", "password", "passkeys", "session", "ratings", "leaderboard", "deleted player"):
        assert words in asked[-1], (words, asked[-1])
    here.fill("#delete-password", PASSWORD)
    here.click("#delete-account")
    here.wait_for_selector("#sign-in:not([hidden])")
    # the header shows Sign in as soon as the page knows; the account screen says so a moment
    # later, once it is drawn again (the race: read at once, the words were not there yet)
    here.wait_for_function("() => /is deleted/.test(document.querySelector('#me-error').textContent)")
    here.click("#sign-in")
    here.get_by_label("Name", exact=True).fill("Cid")
    here.get_by_label("Password", exact=True).fill(PASSWORD)
    here.click("#account-submit")
    here.wait_for_function("() => /do not match/.test(document.querySelector('#account-error').textContent)")


def test_a_guest_who_signs_up_keeps_the_seats_this_browser_holds(server: Server, pages: Pages) -> None:
    """Her game against a bot becomes the account's; a hotseat game (every seat at one page) does
    not: its seats are for several people."""
    guest = pages.new("dee")
    goto(guest, server.url + "#/new")
    guest.locator("#seats select").nth(1).select_option("human")
    guest.fill("#short", "4")
    guest.click("#start-game")
    guest.wait_for_function("() => /^#\\/play\\/[A-Za-z0-9_-]+$/.test(location.hash)")
    hotseat = guest.evaluate("location.hash").split("/")[2]
    guest.wait_for_function(WAIT_LEGAL_OR_END)
    goto(guest, server.url + "#/new")
    guest.locator("#seats select").nth(1).select_option("bot:easy")
    guest.fill("#short", "4")
    guest.click("#start-game")
    guest.wait_for_function("() => /^#\\/play\\/[A-Za-z0-9_-]+$/.test(location.hash)")
    gid = guest.evaluate("location.hash").split("/")[2]
    guest.wait_for_function(WAIT_LEGAL_OR_END)
    sign_up(guest, server.url, "Dee", PASSWORD)   # from the New game screen: the game is not open
    other = pages.new("dee elsewhere", PHONE)
    sign_in(other, server.url, "Dee", PASSWORD)
    goto(other, server.url + "#/games")
    row = other.locator(f"#games-table tr[data-game='{gid}']")
    row.wait_for()
    assert "account-game" in (row.get_attribute("class") or "")
    assert "Dee" in row.locator("td.players").inner_text()   # the seat took the account's name
    assert other.locator(f"#games-table tr[data-game='{hotseat}']").count() == 0


def names_check() -> str:
    """The axe-like check of tests/test_web_a11y.py (NAMES_JS), read from that file: one check."""
    tree = ast.parse((Path(__file__).parent / "test_web_a11y.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "NAMES_JS"
                                                 for t in node.targets):
            value = ast.literal_eval(node.value)
            assert isinstance(value, str)
            return value
    raise AssertionError("NAMES_JS is not in tests/test_web_a11y.py")


def test_every_account_screen_names_its_controls_and_pictures(shared_server: Server, pages: Pages) -> None:
    """The dialog, the account screen, the saved games, a profile with its chart and the
    leaderboard, walked as axe would (no control without a name, no picture without a role and
    a text alternative)."""
    check = names_check()
    page = pages.new("walker", PHONE)
    goto(page, shared_server.url + "#/new")
    page.click("#sign-in")
    page.wait_for_selector("#account-dialog[open]")
    found = {"dialog": page.evaluate(check)}
    page.keyboard.press("Escape")
    me = {"account": {"id": 1, "name": XSS, "has_password": True, "passkeys": 1}, "games": [],
          "ratings": {"2020": {k: v for k, v in PROFILE["ratings"]["2020"].items() if k != "history"}}}
    page.route("**/api/me", lambda r: r.fulfill(status=200, content_type="application/json",
                                                  body=json.dumps(me)))
    answer_with(page, [])
    page.reload()   # signed in from the start
    page.wait_for_selector("body[data-ready='1']")
    for screen, ready in (("new", "#rated-box:not([hidden])"), ("me", "#me-body:not([hidden])"),
                          ("games", "#games-table"), ("player/Ann", "svg.rating-chart circle"),
                          ("leaderboard", "#leaderboard-table tbody tr[data-kind]")):
        goto(page, f"{shared_server.url}#/{screen}")
        page.wait_for_selector(ready)
        found[screen] = page.evaluate(check)
    assert not any(found.values()), found
    assert page.locator("svg.rating-chart a[aria-label]").count() == len(HISTORY)   # each point named


def test_the_account_screen_shows_and_saves_the_turn_notifications(tmp_path: Path, pages: Pages) -> None:
    """The notification settings on #/me, with a server that mails (aiosmtpd): an address saved
    there is mailed its confirmation link (and nothing else), the screen says it waits for it;
    the page's service worker registers at the root scope."""
    pytest.importorskip("aiosmtpd")
    from aiosmtpd.controller import Controller
    from play_server import free_port
    from test_notify import Inbox

    box, smtp_port, port = Inbox(), free_port(), free_port()
    controller = Controller(box, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    srv = Server(tmp_path / "games.sqlite", port,
                 args=("--smtp", f"smtp://127.0.0.1:{smtp_port}", "--mail-from", "turns@example.org",
                       "--public-url", f"http://127.0.0.1:{port}/")).start()
    try:
        page = pages.new("ann")
        sign_up(page, srv.url, "Ann", PASSWORD)
        page.click("#me-link")
        page.wait_for_selector("#notify-form")
        page.wait_for_function("() => document.querySelector('#notify-email-state').textContent !== ''")
        assert page.locator("#notify-mail-off").is_hidden()
        assert "No address" in page.inner_text("#notify-email-state")
        page.get_by_label("Email address").fill("ann@example.org")
        page.get_by_label("Email me when it is my turn").check()
        page.click("#notify-save")
        page.wait_for_function("() => /link went to/.test("
                               "document.querySelector('#notify-note').textContent)")
        assert "Not confirmed yet" in page.inner_text("#notify-email-state")
        assert page.get_by_label("Email me when it is my turn").is_checked()
        mail = box.wait("ann@example.org", "Confirm")
        assert len(box.mails) == 1 and "/notifications/confirm?token=" in str(mail[0])
        page.screenshot(path=str(ARTIFACTS / "accounts-notifications-1920x1080.png"))
        scope = page.evaluate("navigator.serviceWorker.register('/sw.js').then((r) => r.scope)")
        assert scope == srv.url
    finally:
        srv.stop()
        controller.stop()
