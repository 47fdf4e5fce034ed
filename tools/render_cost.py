"""How long the page takes to draw a whole board, painted and clean, on a phone profile.

A finished 2-player game (seeded, played at random by the engine) is stored as the server stores
games and served by a real ``huntgather play``; Debian's chromium opens it as a watcher at
390 × 844 with the CPU slowed down four times (CDP ``Emulation.setCPUThrottlingRate``, rate 4).
Two figures, each timed in the page up to the frame that shows the result painted (the next
animation frame's style, layout and paint, then a task):

* the board drawn: the page's board markup (every tile, piece and mark, as board.js drew it in
  that style) put into the emptied ``<svg id="board">``: parse, style, layout and paint.  The
  placed tiles are drawn in runs of 8, each run one picture (web/js/pictures.js) that the page
  makes once, from a ``blob:`` URL, and keeps; the samples are taken once every run's picture
  is made (``<svg id="board" data-pictures="ready">``), so the markup holds an ``<image>`` per
  run where the page drew each tile's elements before;
* the whole page redrawn after a style switch in the settings (both styles' tiles already
  fetched, and their pictures made): the board's render in JavaScript and the panel's (log,
  final table) on top.

Chromium rasterises on other threads, which the throttling does not slow down and these times
leave out.

    python tools/render_cost.py [--samples 9] [--seed 7] [--shot artifacts/board-phone-painted.png]

Prints one line per style: the median and the range over the samples, in milliseconds.  The
figure is recorded in docs/play.md ("Tile styles"); nothing asserts on it.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from play_process import play_process

from huntgather.server.rooms import build_game
from huntgather.server.seats import GameSetup
from huntgather.server.storage import SeatRow, Storage

GAME_ID = "rendercost01"

#: one sample: switch the style, wait for the frame that shows it; answers the milliseconds
SAMPLE_JS = """async (style) => {
  const sel = document.querySelector('#tile-style');
  const t0 = performance.now();
  sel.value = style;
  sel.dispatchEvent(new Event('change'));
  const painted = () => !!document.querySelector('#viewport g.hg-tile.hg-painted');
  while (painted() !== (style === 'painted')) await new Promise((r) => setTimeout(r, 0));
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  return performance.now() - t0;
}"""


#: the board's runs of tiles shown as pictures (web/js/pictures.js), none left to make
READY = "#board[data-pictures='ready']"

#: the board as the page drew it, in the style shown now (markup of the <svg id="board">)
GRAB_JS = "() => document.querySelector('#board').innerHTML"

#: one sample of the board alone: emptied, a frame, then its markup put back; answers the
#: milliseconds from putting it back to the frame that shows it painted
BOARD_JS = """async (markup) => {
  const board = document.querySelector('#board');
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  board.innerHTML = '';
  await frame();
  const t0 = performance.now();
  board.innerHTML = markup;
  await frame();
  return performance.now() - t0;
}"""


def finished_game(seed: int) -> tuple[GameSetup, list[str]]:
    setup = GameSetup(seed=seed)
    game = build_game(setup)
    rng = random.Random(seed)
    while not game.state.is_over:
        legal = game.state.legal_moves()
        game.play(legal[rng.randrange(len(legal))])
    return setup, [str(m) for m in game.history]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--samples", type=int, default=9)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rate", type=float, default=4, help="CPU throttling rate (1: none)")
    ap.add_argument("--shot", help="save a screenshot of the painted board here (and a close-up)")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("chromium is not installed")
    setup, history = finished_game(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "games.sqlite")
        storage = Storage(db)
        storage.create(GAME_ID, setup.to_json(), history,
                       [SeatRow(i, "human", None, None, None, False) for i in range(2)])
        storage.close()
        with play_process(db) as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium,
                                        args=["--no-sandbox", "--disable-gpu", "--headless=new"])
            context = browser.new_context(viewport={"width": 390, "height": 844},
                                          device_scale_factor=3, is_mobile=True, has_touch=True)
            page = context.new_page()
            page.set_default_timeout(60_000)
            page.goto(url + f"#/watch/{GAME_ID}")
            page.wait_for_selector(f"body[data-version='{len(history)}']")
            tiles = page.locator("#viewport > g > g.hg-tile").count()
            # both styles fetched, and their pictures made, once, outside the samples
            for style in ("clean", "painted"):
                page.evaluate(SAMPLE_JS, style)
                page.wait_for_selector(READY)
            markup = {}
            for style in ("clean", "painted"):
                page.evaluate(SAMPLE_JS, style)
                page.wait_for_selector(READY)
                markup[style] = page.evaluate(GRAB_JS)
            if args.shot:
                page.wait_for_timeout(300)
                page.screenshot(path=args.shot)
                box = page.locator("#board").bounding_box()
                assert box is not None
                page.screenshot(path=args.shot.replace(".png", "-close.png"),
                                clip={"x": box["x"] + box["width"] / 2 - 90, "width": 180,
                                      "y": box["y"] + box["height"] / 2 - 70, "height": 140})
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.rate})
            times: dict[str, list[float]] = {"painted": [], "clean": []}
            whole: dict[str, list[float]] = {"painted": [], "clean": []}
            for _ in range(args.samples):
                for style in ("clean", "painted"):
                    whole[style].append(page.evaluate(SAMPLE_JS, style))
            for _ in range(args.samples):
                for style in ("clean", "painted"):
                    times[style].append(page.evaluate(BOARD_JS, markup[style]))
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            browser.close()
    print(f"board of {tiles} tiles, 390x844, CPU throttled {args.rate:g}x, {args.samples} samples each")
    for what, table in (("the board drawn (markup to painted frame)", times),
                        ("the whole page redrawn after a style switch", whole)):
        print(what + ":")
        for style, ms in table.items():
            print(f"  {style:8s} median {statistics.median(ms):6.1f} ms  "
                  f"(min {min(ms):.1f}, max {max(ms):.1f})")


if __name__ == "__main__":
    main()
