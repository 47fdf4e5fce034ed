// The board view: the SVG board with its tiles and pieces, the legal squares, the tile waiting
// for confirmation with its piece spots, hints, and what a move shows once (tiles arriving,
// points floating up, pieces going home).  Pan by dragging, zoom with the wheel or two fingers.
//
// It owns the camera and what it has animated; it reads the game from the store and asks for
// the player's steps through `act` (see play.js).
//
// The camera follows the game ("auto": the whole board, or on a small touch screen what matters
// now) until the person pans or zooms ("user"); on a touch screen a tile put down is shown large
// ("pending").  Confirm hands the view back to the game; a new turn of mine starts with every
// legal square in view, and a tile another player puts down off screen is brought into view.
// Nothing moves the view while a finger or the mouse is down on the board, nor for a moment
// after the person last panned or zoomed.  <svg id="board" data-camera> says which mode holds.
//
// The tile in hand can be dragged with the mouse from the panel onto a legal square; on a touch
// screen, a finger held on a legal square shows the tile there until it lifts (nothing placed).

import { $, el, svgEl } from "./dom.js";
import * as i18n from "./i18n.js";   // i18n.t(): `t` names many things here
import {
  canon, choiceLabel, currentHints, heldSeats, legalPlacements, myTurn, placementAt,
  placementsForRotation, rgbOf, rowWords, sameMove, sayWords, who,
} from "./game.js";
import { pieceSvg } from "./pieces.js";
import { kindName, roleName } from "./terms.js";
import { createPictures, RUN } from "./pictures.js";
import { rowsAt } from "./projection.js";
import { parsePlace } from "./notation.js";
import { turnAt } from "./review.js";
import { animation, showProjection } from "./settings.js";
import { clearOf, SPOT_GAP } from "./spots.js";

// a square is 100 units: at this zoom a legal square (92 units) is a target of 44 px or more
const MIN_TOUCH_ZOOM = 0.5;
// when a tile waits to be confirmed on a touch screen, it is shown this large: its piece spots
// (16 units apart, tap circles of radius 8) become 45 px targets
const PENDING_TOUCH_ZOOM = 2.8;
const touchScreen = () => window.matchMedia("(pointer: coarse)").matches;
// after the person's last pan or zoom, the camera waits this long before it moves by itself
const QUIET_MS = 2500;
// the most the camera zooms in by itself to show the whole board
const MAX_FIT_ZOOM = 2.2;
// the final scoring lights one feature after the other, this long each (at most FINAL_MS in all)
const FINAL_STEP_MS = { normal: 1100, slow: 1800 };
const FINAL_MS = 12000;
// a finger held this long on a legal square shows the tile there
const LONG_PRESS_MS = 400;

// the attributes that name a move on its button or spot
export function moveAttrs(m) {
  const c = canon(m);
  const a = { "data-move": JSON.stringify(c), "data-kind": c.kind };
  if ("zone" in c) a["data-zone"] = c.zone;
  if ("piece" in c) a["data-piece"] = c.piece;
  if ("tile" in c) a["data-tile"] = c.tile;
  return a;
}

// how long an animation of a move takes (the stylesheet's --move-time, from the setting), in ms
function moveTime() {
  const t = getComputedStyle(document.body).getPropertyValue("--move-time").trim();
  const n = parseFloat(t);
  return Number.isFinite(n) ? (t.endsWith("ms") ? n : n * 1000) : 450;
}

function count(name) {
  document.body.dataset[name] = String(Number(document.body.dataset[name] || 0) + 1);
}

export function createBoard(store, act) {
  const svg = $("#board");
  let cam = { x: 0, y: 0, k: 0.6 };
  let camMode = "auto";    // "auto": follows the game; "pending": on the tile put down; "user": the person's
  let lastMoved = -Infinity;   // when the person last panned or zoomed (performance.now())
  let quietTimer = null;   // a camera move put off while the person was moving the view
  let framedTurn = null;   // the version of my turn whose legal squares were brought into view
  let sentSeen = null;     // the turn sent last (Confirm hands the view back to the game)
  let overSeen = false;    // whether the game was over at the last render
  let landing = null;      // a tile another player put down, to bring into view if off screen
  const down = new Map();  // the pointers down on the board, where they are
  let shownChange = 0;     // the last update whose arrivals, points and returns were shown
  let pendingKey = null;   // the waiting tile last zoomed to (touch screens)
  let selectedKey = null;  // the square last selected with the keyboard
  let drawn = new Map();   // "tile:zone" -> where each piece was drawn last, for its way home
  let finalKey = null;     // the finished game whose final scoring is lit on the board
  let finalTimers = [];    // the steps of the final scoring still to come
  let finalStep = () => {};   // told of each feature lit: (row index or -1 when all are lit, rows)
  let held = null;         // {x, y}: the square shown under a held finger or the dragged tile
  let placedKey = null;    // the tile put down last (x, y, rotation, version), animated once
  let placedAt = null;     // when it was put down (performance.now()); null: not animated
  let defsShown = null;    // the tile set whose defs are in <svg id="tile-defs">
  let waiting = new Map(); // runs of tiles drawn as elements until their picture is made: key -> groups
  const pictures = createPictures(pictureMade);

  function applyCamera() {
    const t = `translate(${cam.x} ${cam.y}) scale(${cam.k})`;
    $("#viewport").setAttribute("transform", t);
    $("#cells").setAttribute("transform", t);     // the squares read aloud (a11y.js)
    $("#overlay").setAttribute("transform", t);   // highlights, floating points, pieces going home
  }

  function setMode(mode) {
    camMode = mode;
    svg.dataset.camera = mode;
  }

  // the person moved the view: the camera is theirs until the game takes it back
  function moved() {
    lastMoved = performance.now();
    setMode("user");
  }

  // whether the person is moving the view (or just did): then the camera keeps still
  const busy = () => down.size > 0 || performance.now() - lastMoved < QUIET_MS;

  // the sizes of the board's area and of the zoom buttons, as last laid out: measured when
  // first asked, then kept until the ResizeObserver below says one changed (measuring while a
  // render changes the page would lay the page out in the middle of drawing it)
  let sizes = null;
  function size() {
    if (!sizes) {
      const box = svg.getBoundingClientRect(), buttons = $("#zoom-controls").getBoundingClientRect();
      sizes = { width: box.width, height: box.height, zoomHeight: buttons.height };
    }
    return sizes;
  }

  // the board's area on the screen, less a margin and the zoom buttons in its corner
  function frameBox() {
    const box = size();
    const pad = 6;
    return { w: box.width, h: box.height, x0: pad, y0: pad, x1: box.width - pad,
      y1: box.height - pad - (box.zoomHeight ? box.zoomHeight + 2 : 0) };
  }

  // the squares' bounds [x0, y0, x1, y1], in squares, of cells {x, y}
  function bounds(cells) {
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const c of cells) {
      x0 = Math.min(x0, c.x); x1 = Math.max(x1, c.x); y0 = Math.min(y0, c.y); y1 = Math.max(y1, c.y);
    }
    return [x0, y0, x1, y1];
  }

  // the zoom that shows squares [x0, y0, x1, y1] whole in the frame
  function zoomFor(b, f) {
    return Math.min((f.x1 - f.x0) / ((b[2] - b[0] + 1) * 100), (f.y1 - f.y0) / ((b[3] - b[1] + 1) * 100));
  }

  // the squares that matter now, for a touch screen too small to show the whole board at a
  // tappable size: on my turn the legal squares and the tiles the others placed since my last
  // one; else the last tiles placed
  function focusCells(s) {
    const v = s.view;
    if (myTurn(s) && v.decision.phase === "place") {
      const cells = legalPlacements(s).map((p) => ({ x: p.x, y: p.y }));
      const me = new Set(heldSeats(s));
      for (let i = v.log.length - 1; i >= 0; i--) {
        const e = v.log[i];
        if (e.kind !== "TilePlaced") continue;
        if (me.has(e.player)) break;
        cells.push({ x: e.x, y: e.y });
      }
      if (cells.length) return cells;
    }
    return v.last && v.last.length ? v.last : [{ x: 0, y: 0 }];
  }

  // the camera following the game: the whole board (with a square's margin around it); on a touch
  // screen where that would make squares smaller than a fingertip, what matters now, as large as
  // a fingertip where it fits so, smaller where it does not
  function frame(s) {
    const f = frameBox();
    if (f.x1 - f.x0 < 20 || f.y1 - f.y0 < 20) return;   // not laid out yet
    let b = bounds(s.view.board);
    b = [b[0] - 1, b[1] - 1, b[2] + 1, b[3] + 1];
    let k = Math.min(zoomFor(b, f), MAX_FIT_ZOOM);
    if (touchScreen() && !s.view.over && k < MIN_TOUCH_ZOOM) {
      b = bounds(focusCells(s));
      k = Math.min(zoomFor(b, f), MIN_TOUCH_ZOOM);
    }
    const cx = (b[0] + b[2] + 1) * 50, cy = (b[1] + b[3] + 1) * 50;
    cam = { k, x: (f.x0 + f.x1) / 2 - cx * k, y: (f.y0 + f.y1) / 2 - cy * k };
  }

  // whether square (x, y) lies wholly in the board's area
  function inView(x, y) {
    const box = size();
    const sx = x * 100 * cam.k + cam.x, sy = y * 100 * cam.k + cam.y, side = 100 * cam.k;
    return sx >= 0 && sy >= 0 && sx + side <= box.width && sy + side <= box.height;
  }

  // on a touch screen, show the tile that waits for confirmation large enough to tap its spots
  // (the camera's own move: the view is handed back to the game once the turn is over)
  function zoomToPending(p) {
    const box = size();
    const k = Math.min(PENDING_TOUCH_ZOOM, box.width / 110, box.height / 110);
    setMode("pending");
    cam = { k, x: box.width / 2 - (p.x * 100 + 50) * k, y: box.height / 2 - (p.y * 100 + 50) * k };
  }

  function centreOn(x, y) {
    const box = size();
    const sx = (x * 100 + 50) * cam.k + cam.x, sy = (y * 100 + 50) * cam.k + cam.y;
    if (sx < 40 || sy < 40 || sx > box.width - 40 || sy > box.height - 40) {
      cam.x += box.width / 2 - sx;
      cam.y += box.height / 2 - sy;
    }
  }

  // bring square (x, y) into view (the active cell of the board read aloud): the view is the person's
  function reveal(x, y) {
    if (inView(x, y)) return;
    setMode("user");
    centreOn(x, y);
    applyCamera();
  }

  function zoom(f, px, py) {
    moved();
    const box = svg.getBoundingClientRect();
    if (px === undefined) { px = box.width / 2; py = box.height / 2; }
    const k = Math.max(0.1, Math.min(4, cam.k * f));
    const real = k / cam.k;
    cam.x = px - (px - cam.x) * real;
    cam.y = py - (py - cam.y) * real;
    cam.k = k;
    applyCamera();
  }

  function pan(dx, dy) {
    moved();
    cam.x += dx;
    cam.y += dy;
    applyCamera();
  }

  // Fit (the button, F): the camera follows the game again, at once
  function refit() {
    lastMoved = -Infinity;
    setMode("auto");
    const s = store.get();
    if (s.view && s.view.board.length) frame(s);
    applyCamera();
  }

  // a camera move put off while the person moves the view: tried again once they stop
  function whenQuiet() {
    clearTimeout(quietTimer);
    const wait = down.size ? QUIET_MS : Math.max(0, lastMoved + QUIET_MS - performance.now());
    quietTimer = setTimeout(() => {
      const s = store.get();
      if (s.view && s.tiles[s.view.edition]) follow(s, null);
    }, wait + 20);
  }

  // where the camera goes after a change of the game (or of the page's state)
  function follow(s, fresh) {
    const v = s.view;
    const mine = myTurn(s);
    // Confirm: the turn is over, the camera follows the game again
    if (s.sentTurn && s.sentTurn !== sentSeen) {
      lastMoved = -Infinity;
      setMode("auto");
    }
    sentSeen = s.sentTurn;
    // a keyboard choice off screen is brought into view
    const sel = s.selected ? String(s.selected) : null;
    if (sel && sel !== selectedKey && camMode === "user") centreOn(s.selected[0], s.selected[1]);
    selectedKey = sel;
    // on a touch screen a tile put down is shown large; taken back, the game has the camera again
    const pend = s.pending && mine ? `${s.pending.x},${s.pending.y},${s.pending.rotation}` : null;
    if (pend && pend !== pendingKey && touchScreen()) zoomToPending(s.pending);
    if (!pend && camMode === "pending") setMode("auto");
    pendingKey = pend;
    // a tile another player put down off screen is brought into view (the view stays the person's)
    if (fresh && fresh.landed && fresh.landed.length) landing = fresh.landed[fresh.landed.length - 1];
    if (landing && camMode !== "user") landing = null;   // the game's view shows it already
    if (landing && busy()) whenQuiet();   // kept for when the person stops
    else if (landing) {
      if (!inView(landing.x, landing.y)) centreOn(landing.x, landing.y);
      landing = null;
    }
    // a new turn of mine starts with every legal square in view; the end shows the whole board
    const turn = mine && v.decision.phase === "place" && !s.pending ? v.version : null;
    if (turn !== null && turn !== framedTurn && camMode === "user") {
      if (busy()) whenQuiet();
      else {
        framedTurn = turn;
        if (!legalPlacements(s).every((p) => inView(p.x, p.y))) setMode("auto");
      }
    }
    if (v.over && !overSeen) {
      if (camMode !== "auto" && busy()) whenQuiet();
      else { setMode("auto"); overSeen = true; }
    }
    if (camMode === "auto" && v.board.length) {
      if (busy()) whenQuiet();
      else {
        frame(s);
        if (turn !== null) framedTurn = turn;
      }
    }
    applyCamera();
  }

  function tileGroup(ts, tile, rotation, x, y) {
    const g = svgEl("g", { transform: `translate(${x * 100} ${y * 100})` });
    g.innerHTML = ts.tiles[tile].svg[rotation];   // server-made SVG of the tile, no user text
    return g;
  }

  // The board's lasting contents (the placed tiles, the frames of the last moves, the pieces) are
  // kept from one render to the next by a key: a tile's place and picture, or an element's own
  // markup.  An element drawn as before stays in the page untouched, so the browser paints again
  // only what changed: a board put in anew at every update had every tile and piece painted and
  // rasterised again, most of the CPU of a page watching a game.
  let kept = new Map();    // key -> element, as the last render left them
  function keeper() {
    const next = new Map();
    const order = [];
    return {
      // the element of `key` from the last render, else make() (made once a render a key)
      keep(key, make) {
        const el = (!next.has(key) && kept.get(key)) || make();
        if (!next.has(key)) next.set(key, el);
        order.push(el);
        return el;
      },
      // `el`, or the element of the last render with the same markup
      same(el) { return this.keep(`m${el.outerHTML}`, () => el); },
      // the viewport holds exactly what was kept or made, in order (what stays is not touched)
      settle(vp) {
        kept = next;
        const want = new Set(order);
        for (const n of [...vp.childNodes]) if (!want.has(n)) n.remove();
        let at = vp.firstChild;
        for (const el of order) {
          if (el === at) at = at.nextSibling;
          else vp.insertBefore(el, at);
        }
      },
    };
  }
  const runKey = (ts, cells, p) => `r${pictures.keyOf(ts, cells)}|${p.url}`;

  // a run of placed tiles shown as one picture (pictures.js), with an empty mark per tile
  // (<g class="hg-tile" data-tile>, as the tile's own picture is classed) for what reads the board
  function runGroup(ts, cells, p) {
    const g = svgEl("g", { class: "hg-run" });
    const [x, y, width, height] = p.box;
    g.append(svgEl("image", { href: p.url, x, y, width, height }));
    for (const c of cells) {
      const cls = /^<g class="([^"]*)"/.exec(ts.tiles[c.tile].svg[c.rotation]);
      g.append(svgEl("g", { class: cls ? cls[1] : "hg-tile", "data-tile": c.tile }));
    }
    return g;
  }

  // a run's picture is made: it takes the place of the run's tiles drawn as elements (not made:
  // they stay)
  function pictureMade(key, made) {
    const groups = waiting.get(key);
    if (!groups) return;
    waiting.delete(key);
    const s = store.get();
    const ts = s.view && s.tiles[s.view.edition];
    const cells = groups.map((g) => g.cell);
    const p = made && ts && pictures.keyOf(ts, cells) === key ? pictures.picture(ts, cells) : null;
    if (p && groups.every((g) => g.el.isConnected)) {
      const run = runGroup(ts, cells, p);
      groups[0].el.before(run);
      for (const g of groups) g.el.remove();
      kept.set(runKey(ts, cells, p), run);   // the next render keeps it where it is
    }
    if (!waiting.size) svg.dataset.pictures = "ready";
  }

  function clear() {
    stopFinal();
    delete document.body.dataset.version;
    waiting = new Map();
    $("#viewport").innerHTML = "";
    $("#overlay").innerHTML = "";
    kept = new Map();
    drawn = new Map();
  }

  // light up the squares of a scored feature (a log line or a final-table row under the pointer)
  function highlight(tiles, cls = "scored-hl") {
    clearHighlight(cls);
    const v = store.get().view;
    if (!v || !tiles || !tiles.length) return;
    const at = new Map(v.board.map((c) => [c.tile, c]));
    for (const t of tiles) {
      const c = at.get(t);
      if (c) $("#overlay").append(svgEl("rect", { class: cls, x: c.x * 100 + 2, y: c.y * 100 + 2, width: 96, height: 96 }));
    }
  }

  function clearHighlight(cls = "scored-hl") {
    for (const r of document.querySelectorAll(`#overlay rect.${cls}`)) r.remove();
  }

  // ---------------------------------------------------------------- the end of the game

  function stopFinal() {
    finalTimers.forEach(clearTimeout);
    finalTimers = [];
    finalKey = null;
    for (const g of document.querySelectorAll("#overlay g.final-lit")) g.remove();
    delete document.body.dataset.finalLit;
  }

  // one row of the final scoring (a river system or a meadow) lit on the board, with its points
  // in the scorers' colours
  function lightRow(s, row, i, where) {
    for (const g of document.querySelectorAll("#overlay g.final-lit.current")) g.classList.remove("current");
    const g = svgEl("g", { class: `final-lit current kind-${/^[a-z]+$/.test(row.kind) ? row.kind : "other"}`,
      "data-final-row": i });
    const cells = (row.tiles || []).map((t) => where.get(t)).filter(Boolean);
    for (const c of cells) g.append(svgEl("rect", { x: c.x * 100 + 3, y: c.y * 100 + 3, width: 94, height: 94 }));
    const title = svgEl("title");
    title.textContent = rowWords(s, row);
    g.append(title);
    if (cells.length) {
      // the label on the feature's tile nearest its middle, so that it lies on the feature
      const mx = cells.reduce((a, c) => a + c.x, 0) / cells.length;
      const my = cells.reduce((a, c) => a + c.y, 0) / cells.length;
      const c = cells.reduce((b, q) => (Math.hypot(q.x - mx, q.y - my) < Math.hypot(b.x - mx, b.y - my) ? q : b));
      const scorers = (row.points || []).map((p, seat) => [p, seat]).filter(([p]) => p > 0);
      const label = svgEl("g", { class: "final-points" });
      const lines = scorers.length ? scorers : [[0, null]];
      lines.forEach(([p, seat], k) => {
        const t = svgEl("text", { x: c.x * 100 + 50, y: c.y * 100 + 62 - 16 * (lines.length - 1) + 32 * k,
          fill: seat === null ? "#fff" : rgbOf(s, seat) });
        t.textContent = seat === null ? "0" : `+${p}`;
        label.append(t);
      });
      g.append(label);
    }
    $("#overlay").append(g);
    document.body.dataset.finalLit = String(i + 1);
  }

  // the game is over: its final scoring lit on the board feature by feature, as the game scores
  // at the end, one after the other when the end came just now (at once where the person asks
  // for reduced motion or for moves shown at once, and for a game opened already finished)
  function showFinal(s, fresh) {
    const v = s.view;
    const key = `${s.gameId}|${v.version}`;
    if (key === finalKey) return;
    stopFinal();
    finalKey = key;
    const rows = v.final.rows || [];
    const where = new Map(v.board.map((c) => [c.tile, c]));
    const justEnded = !!fresh && (fresh.scored || []).some((e) => e.kind === "FinalScoring");
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches || animation() === "off";
    if (!justEnded || reduced || rows.length < 2) {
      rows.forEach((row, i) => lightRow(s, row, i, where));
      for (const g of document.querySelectorAll("#overlay g.final-lit.current")) g.classList.remove("current");
      finalStep(-1, rows);
      return;
    }
    const step = Math.min(FINAL_STEP_MS[animation()] || FINAL_STEP_MS.normal, FINAL_MS / rows.length);
    rows.forEach((row, i) => {
      finalTimers.push(setTimeout(() => {
        lightRow(s, row, i, where);
        finalStep(i, rows);
      }, step * i));
    });
    finalTimers.push(setTimeout(() => {
      for (const g of document.querySelectorAll("#overlay g.final-lit.current")) g.classList.remove("current");
      finalStep(-1, rows);
    }, step * rows.length));
  }

  // the tile to place, shown faintly on a legal square under the mouse (in the first rotation,
  // from the current one, that fits there)
  function previewAt(x, y) {
    clearPreview();
    const s = store.get();
    const d = s.view && s.view.decision;
    const ts = s.view && s.tiles[s.view.edition];
    if (!d || !ts || !myTurn(s) || s.pending || d.phase !== "place" || !ts.tiles[d.tile]) return;
    const p = placementAt(s, x, y, s.rotation);
    if (!p) return;
    const g = tileGroup(ts, d.tile, p.rotation, x, y);
    g.setAttribute("id", "hover-preview");
    g.dataset.x = String(x);
    g.dataset.y = String(y);
    g.dataset.rotation = String(p.rotation);
    $("#overlay").append(g);
  }

  function clearPreview() {
    const old = document.getElementById("hover-preview");
    if (old) old.remove();
  }

  // points scored during play float up from their feature, in the scorer's colour
  function showScoring(s, events) {
    const v = s.view;
    for (const e of events) {
      if (e.kind !== "FeatureScored" || !Array.isArray(e.points) || !Array.isArray(e.tiles)) continue;
      const cells = v.board.filter((c) => e.tiles.includes(c.tile));
      if (!cells.length) continue;
      const cx = cells.reduce((a, c) => a + c.x, 0) / cells.length * 100 + 50;
      const cy = cells.reduce((a, c) => a + c.y, 0) / cells.length * 100 + 50;
      const scorers = e.points.map((p, seat) => [p, seat]).filter(([p]) => p > 0);
      if (!scorers.length) continue;
      highlight(e.tiles, "scored-now");
      scorers.forEach(([p, seat], i) => {
        const t = svgEl("text", { class: "score-float", x: cx, y: cy - 16 * i, fill: rgbOf(s, seat) });
        t.textContent = `+${p}`;
        $("#overlay").append(t);
        setTimeout(() => t.remove(), 2400);
      });
      count("scoreFloats");
      setTimeout(() => clearHighlight("scored-now"), 2400);
    }
  }

  // pieces going home (a feature scored, the shaman's take-back): each fades away upwards from
  // where it stood, as fast as the tiles arrive (the stylesheet reads <body data-animation>)
  function showLeaving(s, pieces) {
    const ts = s.tiles[s.view.edition];
    const where = new Map(s.view.board.map((c) => [c.tile, c]));
    for (const o of pieces) {
      let spot = drawn.get(`${o.tile}:${o.zone}`);
      if (!spot) {
        const c = where.get(o.tile);
        const a = c && ts.tiles[o.tile].anchors[c.rotation][o.zone];
        if (!a) continue;
        spot = { x: c.x * 100 + a[0], y: c.y * 100 + a[1] };
      }
      const g = pieceSvg(s.meta, o.player, o.piece, spot.x, spot.y, o.role, i18n.t("board.piece_going_home", { who: who(s, o.player), role: roleName(o.role) }));
      g.classList.add("leaving");
      g.dataset.tile = String(o.tile);
      const done = () => g.remove();
      g.addEventListener("animationend", done);
      setTimeout(done, 4000);   // in case no animation runs
      $("#overlay").append(g);
      count("returns");
    }
  }

  function drawPieces(s, ts, where, board) {
    const onTile = new Map();
    const now = new Map();
    // pieces on one tile are moved apart where their zones' anchors lie close (a hut on a lake
    // and a fisher on the river into it), so that every piece can be seen and counted
    for (const o of s.view.occupants || []) {
      const c = where[o.tile];
      if (!c) continue;
      const a = ts.tiles[o.tile].anchors[c.rotation][o.zone];
      if (!a) continue;
      const zone = ts.tiles[o.tile].zones[o.zone];
      const role = o.role || (o.piece === "hut" ? "hut" : zone.role);
      if (!onTile.has(o.tile)) onTile.set(o.tile, []);
      const placed = onTile.get(o.tile);
      const spot = { x: c.x * 100 + a[0], y: c.y * 100 + a[1] };
      clearOf(spot, placed);
      placed.push(spot);
      now.set(`${o.tile}:${o.zone}`, spot);
      const named = { who: who(s, o.player), role: roleName(role), kind: kindName(zone.kind) };
      const label = o.stuck ? i18n.t("board.piece_stuck", named) : i18n.t("board.piece", named);
      const piece = pieceSvg(s.meta, o.player, o.piece, spot.x, spot.y, role, label);
      piece.dataset.tile = String(o.tile);
      if (o.stuck) {
        // its forest or river can no longer be completed: the meeple will score nothing
        piece.classList.add("stuck");
        const mark = svgEl("g", { class: "stuck-mark" });
        mark.append(svgEl("circle", { cx: spot.x + 7, cy: spot.y - 8, r: 4.5 }));
        const bang = svgEl("text", { x: spot.x + 7, y: spot.y - 5.6 });
        bang.textContent = "!";
        mark.append(bang);
        piece.append(mark);
      }
      board.same(piece);
    }
    drawn = now;
  }

  function drawTargets(s) {
    const vp = $("#viewport");
    const now = new Set(placementsForRotation(s).map((p) => `${p.x},${p.y}`));
    const cells = new Set(legalPlacements(s).map((p) => `${p.x},${p.y}`));
    if (s.pending) cells.delete(`${s.pending.x},${s.pending.y}`);
    for (const key of cells) {
      const [x, y] = key.split(",").map(Number);
      const sel = s.selected && s.selected[0] === x && s.selected[1] === y;
      const cls = `target${now.has(key) ? "" : " other"}${sel ? " selected" : ""}`;
      const r = svgEl("rect", { class: cls, x: x * 100 + 4, y: y * 100 + 4, width: 92, height: 92,
        "data-x": x, "data-y": y, "data-fits": now.has(key) ? "yes" : "other-rotation", "data-legal": "" });
      const t = svgEl("title");
      t.textContent = now.has(key) ? i18n.t("board.place_here", { x, y }) : i18n.t("board.fits_rotated", { x, y });
      r.append(t);
      r.addEventListener("click", (ev) => {
        ev.stopPropagation();
        if (!pressShown) act.placeAt(x, y);   // a long press only showed the tile
      });
      r.addEventListener("pointerdown", (ev) => { if (ev.pointerType !== "mouse") startPress(ev, x, y); });
      // with a mouse, the tile shows where the pointer is, turned as it would be placed there
      r.addEventListener("pointerenter", (ev) => { if (ev.pointerType === "mouse") previewAt(x, y); });
      r.addEventListener("pointerleave", () => clearPreview());
      vp.append(r);
    }
  }

  // hinted placements, numbered: one mark per square (hints on the same square share it, "1 · 3")
  function drawHints(s, hints) {
    const byCell = new Map();
    hints.turns.forEach((t, i) => {
      const p = t.moves && t.moves[0];
      if (!p || p.kind !== "place") return;
      const key = `${p.x},${p.y}`;
      if (!byCell.has(key)) byCell.set(key, { p, items: [] });
      byCell.get(key).items.push({ t, n: i + 1 });
    });
    for (const { p, items } of byCell.values()) {
      const best = items[0].t;
      const g = svgEl("g", { class: "hint-spot", "data-moves": JSON.stringify(best.moves.map(canon)),
        "data-hints": items.map((h) => h.n).join(",") });
      const title = svgEl("title");
      title.textContent = items.map((h) => i18n.t("hint.spot", { n: h.n,
        text: `${h.t.where ? `${sayWords(s, h.t.where_say, h.t.where)}: ` : ""}${sayWords(s, h.t.say, h.t.text)}` })).join("\n");
      g.append(title);
      g.append(svgEl("rect", { x: p.x * 100 + 8, y: p.y * 100 + 8, width: 84, height: 84 }));
      const tx = svgEl("text", { x: p.x * 100 + 50, y: p.y * 100 + 58,
        style: `font-size:${items.length > 2 ? 20 : items.length > 1 ? 24 : 30}px` });
      tx.textContent = items.map((h) => h.n).join(" · ");
      g.append(tx);
      g.addEventListener("click", (ev) => { ev.stopPropagation(); act.tryHint(best); });
      $("#viewport").append(g);
    }
  }

  // in a replay, at the position of a reviewed turn: the played placement framed, and the
  // expert's best (when it differs) as a ghost tile with a dashed frame (review.js says it in words)
  function drawReview(s, ts) {
    const t = turnAt(s.review.review, s.replay.version);
    if (!t) return;
    const vp = $("#viewport");
    const played = parsePlace(t.played.find((m) => parsePlace(m)));
    const best = parsePlace(t.best.find((m) => parsePlace(m)));
    const same = !best || (played && best.x === played.x && best.y === played.y && best.rotation === played.rotation);
    if (best && !same && ts.tiles[best.tile]) {
      const g = tileGroup(ts, best.tile, best.rotation, best.x, best.y);
      g.setAttribute("class", "review-best");
      g.dataset.x = String(best.x);
      g.dataset.y = String(best.y);
      const frame = svgEl("rect", { class: "review-best-frame", x: 4, y: 4, width: 92, height: 92 });
      const title = svgEl("title");
      title.textContent = t.label ? i18n.t("board.expert_best_played", { best: t.best.join(" "), played: t.label })
        : i18n.t("board.expert_best", { best: t.best.join(" ") });
      g.append(frame, title);
      vp.append(g);
    }
    if (played && ts.tiles[played.tile]) {   // (not on the board yet: this is the position before it)
      const g = tileGroup(ts, played.tile, played.rotation, played.x, played.y);
      g.setAttribute("class", "review-played-tile");
      vp.append(g);
    }
    if (played) {
      const r = svgEl("rect", { class: "review-played", x: played.x * 100 + 2, y: played.y * 100 + 2, width: 96, height: 96,
        "data-x": played.x, "data-y": played.y });
      const title = svgEl("title");
      title.textContent = i18n.t("board.played", { played: t.played.join(" ") });
      r.append(title);
      vp.append(r);
    }
  }

  // where a choice's spot goes: on the zone of the placed tile, or of the meeple to take back
  function spotFor(s, ts, m, where, p) {
    let cell, tile;
    if (m.kind === "takeback") { tile = m.tile; cell = where[tile]; }
    else if (m.kind === "occupy") { tile = s.view.decision.tile; cell = { x: p.x, y: p.y, rotation: p.rotation }; }
    else return null;
    if (!cell || !ts.tiles[tile]) return null;
    const a = ts.tiles[tile].anchors[cell.rotation][m.zone];
    if (!a) return null;
    const zone = ts.tiles[tile].zones[m.zone];
    let letter;
    if (m.kind === "takeback") letter = "✕";
    else letter = s.meta.roles[m.piece === "hut" ? "hut" : m.role || (zone && zone.role)] || "•";
    return { x: cell.x * 100 + a[0], y: cell.y * 100 + a[1], letter };
  }

  // the tile waiting for confirmation, with a spot on each zone a piece may go to
  function drawPending(s, ts, where) {
    const vp = $("#viewport");
    const p = s.pending;
    const g = tileGroup(ts, s.view.decision.tile, p.rotation, p.x, p.y);
    g.setAttribute("id", "pending-tile");
    g.dataset.rotation = String(p.rotation);
    // just put down (or turned): it drops into place, once; the board is redrawn meanwhile (the
    // preview comes), so the animation goes on from where it was on the new drawing
    const key = `${p.x},${p.y},${p.rotation},${s.view.version}`;
    if (key !== placedKey) {
      placedKey = key;
      placedAt = document.body.dataset.animation === "off" ? null : performance.now();
      if (placedAt !== null) count("placings");
    }
    const ms = moveTime();
    const inner = g.querySelector(":scope > g.hg-tile");   // the picture (its own transform, if any, kept)
    if (placedAt !== null && performance.now() - placedAt < ms && inner && !inner.hasAttribute("transform")) {
      inner.classList.add("placed-in");
      const a = inner.animate([{ opacity: 0.35, transform: "scale(1.3)" }, { opacity: 1, transform: "none" }],
        { duration: ms, easing: "ease-out" });
      a.currentTime = performance.now() - placedAt;
    }
    const turns = new Set(legalPlacements(s).filter((q) => q.x === p.x && q.y === p.y).map((q) => q.rotation));
    if (turns.size > 1 && p.moves.length === 1 && !s.sentTurn) {
      g.classList.add("turnable");
      const t = svgEl("title"); t.textContent = i18n.t("board.tap_to_turn"); g.append(t);
      g.addEventListener("click", (ev) => { ev.stopPropagation(); act.turnPending(); });
    }
    vp.append(g);
    vp.append(svgEl("rect", { class: "pending-frame", x: p.x * 100 + 1, y: p.y * 100 + 1, width: 98, height: 98 }));
    const pv = p.preview;
    if (!pv || pv.turn_over) return;
    const placed = [];   // spots drawn so far, so that no two overlap
    for (const m of (pv.legal || []).filter((x) => canon(x))) {
      const spot = spotFor(s, ts, m, where, p);
      if (!spot) continue;
      clearOf(spot, placed);
      placed.push(spot);
      const chosen = !!p.choice && sameMove(m, p.choice);
      const sg = svgEl("g", { class: `spot${chosen ? " selected" : ""}`, ...moveAttrs(m) });
      const t = svgEl("title"); t.textContent = choiceLabel(s, m); sg.append(t);
      sg.append(svgEl("circle", { class: "hit", cx: spot.x, cy: spot.y, r: SPOT_GAP / 2 }));
      sg.append(svgEl("circle", { cx: spot.x, cy: spot.y, r: 7 }));
      const tx = svgEl("text", { x: spot.x, y: spot.y + 3 });
      tx.textContent = spot.letter;
      sg.append(tx);
      sg.addEventListener("click", (ev) => { ev.stopPropagation(); act.choose(m); });
      vp.append(sg);
    }
  }

  // the board in words, for screen readers: what lies there, the tile to place and where it fits
  function describe(s, ts) {
    const v = s.view;
    const d = v.decision;
    const parts = [i18n.t("board.described", { n: v.board.length })];
    if (myTurn(s) && d.phase === "place" && ts.tiles[d.tile]) {
      const squares = new Set(legalPlacements(s).map((p) => `${p.x},${p.y}`)).size;
      const here = new Set(placementsForRotation(s).map((p) => `${p.x},${p.y}`)).size;
      const tile = ts.tiles[d.tile];
      parts.push(i18n.t("board.your_tile", { text: sayWords(s, tile.say, tile.text) }),
        i18n.t("board.fits_on", { n: squares, here }),
        s.pending ? i18n.t("board.keys_placed") : i18n.t("board.keys_place"));
    } else if (v.over) {
      parts.push(i18n.t("board.over"));
    } else if (d.say || d.text) {
      parts.push(`${sayWords(s, d.say, d.text)}.`);
    }
    svg.setAttribute("aria-label", parts.join(" "));
  }

  function render(s, action) {
    if (action && action.type === "open") {   // another game: its own view of the board
      setMode("auto");
      pendingKey = null;
      framedTurn = null;
      sentSeen = null;
      landing = null;
      overSeen = false;
      clear();
    }
    const v = s.view;
    if (!v) { clear(); return; }
    const ts = s.tiles[v.edition];
    if (!ts) return;
    const fresh = s.change && s.change.seq !== shownChange ? s.change : null;
    if (fresh) shownChange = fresh.seq;
    if (fresh && fresh.returned.length) showLeaving(s, fresh.returned);   // from where they were drawn
    document.body.dataset.version = String(v.version);
    // the defs of the tiles drawn as elements (the pictures hold their own), beside the board: put
    // in once a tile set, not drawn again with the board
    if (defsShown !== ts) { $("#tile-defs").innerHTML = ts.defs; defsShown = ts; }
    const vp = $("#viewport");
    const board = keeper();
    clearPreview();
    if (held) previewAt(held.x, held.y);   // a finger still held, a tile still dragged
    const where = {};
    waiting = new Map();
    const arrived = (c) => !!fresh && fresh.arrived.has(c.tile);
    // the tiles in the order placed, in runs: each run as its picture once made (pictures.js), else
    // (and a run with a tile arriving, which slides in on its own) as elements
    for (let i = 0; i < v.board.length; i += RUN) {
      const run = v.board.slice(i, i + RUN);
      for (const c of run) where[c.tile] = c;
      const p = pictures.picture(ts, run);
      if (p && !run.some(arrived)) {
        board.keep(runKey(ts, run, p), () => runGroup(ts, run, p));
        continue;
      }
      const groups = [];
      for (const c of run) {
        const coming = arrived(c);
        const g = board.keep(`t${pictures.keyOf(ts, [c])}${coming ? `|in${fresh.seq}` : ""}`, () => {
          const made = tileGroup(ts, c.tile, c.rotation, c.x, c.y);
          if (coming) {
            // a tile another page placed just now slides in (the group's own transform places it,
            // so the animation moves an inner group)
            const inner = svgEl("g", { class: "arrive" });
            inner.append(...made.childNodes);
            made.append(inner);
            count("arrivals");
          }
          return made;
        });
        groups.push({ el: g, cell: c });
      }
      if (!p && !run.some(arrived)) waiting.set(pictures.keyOf(ts, run), groups);
    }
    svg.dataset.pictures = waiting.size ? "making" : "ready";
    const mine = myTurn(s);
    $("#current-tile").classList.toggle("draggable", canDrag(s));
    // on my turn: the tiles the others placed since my last tile, framed in their colours
    if (mine) {
      const me = new Set(heldSeats(s));
      for (let i = v.log.length - 1; i >= 0; i--) {
        const e = v.log[i];
        if (e.kind !== "TilePlaced") continue;
        if (me.has(e.player)) break;
        const r = svgEl("rect", { class: "since-mine", x: e.x * 100 + 6, y: e.y * 100 + 6, width: 88, height: 88,
          stroke: rgbOf(s, e.player), "data-tile": e.tile });
        const t = svgEl("title"); t.textContent = i18n.t("board.placed_since", { who: who(s, e.player) });
        r.append(t);
        board.same(r);
      }
    }
    for (const m of v.last || []) {
      const r = svgEl("rect", { class: "last-move", x: m.x * 100 + 3, y: m.y * 100 + 3, width: 94, height: 94 });
      const t = svgEl("title"); t.textContent = i18n.t("board.last_move", { who: who(s, m.player), tile: m.tile });
      r.append(t);
      board.same(r);
    }
    drawPieces(s, ts, where, board);
    board.settle(vp);   // what follows is drawn anew at every render (hints, targets, the tile put down)
    if (s.replay && s.review && s.review.gameId === s.gameId) drawReview(s, ts);
    if (mine && v.decision.phase === "place" && !s.sentTurn && !(s.pending && s.pending.moves.length > 1)) drawTargets(s);
    const hints = currentHints(s);
    if (mine && hints && hints.turns && !s.pending) drawHints(s, hints);
    if (s.pending && mine) drawPending(s, ts, where);
    follow(s, fresh);
    if (fresh) showScoring(s, fresh.scored);
    if (v.over && v.final && s.mode !== "replay" && !s.replay) showFinal(s, fresh);
    else if (finalKey) stopFinal();
    describe(s, ts);
  }

  // ---- a finger held on a legal square (touch): the tile shows there until it lifts
  let press = null;          // {id, x, y, cx, cy, timer}: a finger down on a legal square
  let pressShown = false;    // the last press showed the tile: the click it ends in places nothing

  function startPress(ev, x, y) {
    endPress();
    pressShown = false;
    press = { id: ev.pointerId, x, y, cx: ev.clientX, cy: ev.clientY, timer: setTimeout(() => {
      pressShown = true;
      held = { x, y };
      previewAt(x, y);
      count("longPresses");
    }, LONG_PRESS_MS) };
  }

  function endPress() {
    if (!press) return;
    clearTimeout(press.timer);
    press = null;
    if (held) { held = null; clearPreview(); }
  }

  function setupPress() {
    window.addEventListener("pointermove", (ev) => {
      // a finger that slides off before the tile shows is not holding the square
      if (press && ev.pointerId === press.id && !pressShown && Math.hypot(ev.clientX - press.cx, ev.clientY - press.cy) > 12) endPress();
    });
    window.addEventListener("pointerup", (ev) => { if (press && ev.pointerId === press.id) endPress(); });
    window.addEventListener("pointercancel", (ev) => { if (press && ev.pointerId === press.id) endPress(); });
    svg.addEventListener("contextmenu", (ev) => { if (press || pressShown) ev.preventDefault(); });
    svg.addEventListener("pointerdown", () => { pressShown = false; }, true);   // before the square's own
  }

  // ---- the tile in hand dragged with the mouse from the panel onto a legal square
  const canDrag = (s) => !!s.view && myTurn(s) && s.view.decision.phase === "place" && !s.sentTurn &&
    !(s.pending && s.pending.moves.length > 1) && !!s.tiles[s.view.edition];

  // the legal square under a point of the window, or null
  // ------------------------------------------------------- the live projection under a finger or pointer

  // the placed tile under a point of the window (null: an empty square, or off the board)
  function tileAt(clientX, clientY) {
    const v = store.get().view;
    const box = svg.getBoundingClientRect();
    if (!v || clientX < box.left || clientX > box.right || clientY < box.top || clientY > box.bottom) return null;
    const x = Math.floor((clientX - box.left - cam.x) / cam.k / 100);
    const y = Math.floor((clientY - box.top - cam.y) / cam.k / 100);
    const c = v.board.find((b) => b.x === x && b.y === y);
    return c ? c.tile : null;
  }

  // what the features of the tile at a point would score if the game ended now: lit on the board
  // and said in a box beside the point (nothing: the box goes)
  let tipTile = null;
  function projectAt(clientX, clientY) {
    const s = store.get();
    const tile = showProjection() ? tileAt(clientX, clientY) : null;
    const rows = tile === null ? [] : rowsAt(s.view, tile);
    const tip = $("#projection-tip");
    if (!rows.length) { hideProjection(); return; }
    if (tile !== tipTile) {
      tipTile = tile;
      highlight(rows.flatMap((r) => r.tiles), "projected-hl");
      tip.innerHTML = "";
      tip.append(el("strong", {}, i18n.t("board.if_ended_now")));
      for (const r of rows) tip.append(el("p", { class: `kind-${r.kind}` }, rowWords(s, r)));
    }
    const wrap = $("#board-wrap").getBoundingClientRect();
    tip.hidden = false;
    const left = Math.min(clientX - wrap.left + 12, wrap.width - tip.offsetWidth - 4);
    const top = clientY - wrap.top + 12 + tip.offsetHeight > wrap.height ? clientY - wrap.top - tip.offsetHeight - 12
      : clientY - wrap.top + 12;
    tip.style.left = `${Math.max(4, left)}px`;
    tip.style.top = `${Math.max(4, top)}px`;
  }

  function hideProjection() {
    tipTile = null;
    $("#projection-tip").hidden = true;
    clearHighlight("projected-hl");
  }

  function setupProjection() {
    let tap = null;   // where a finger went down (a tap on a placed tile shows its projection)
    svg.addEventListener("pointermove", (ev) => {
      if (ev.pointerType === "mouse" && !down.size) projectAt(ev.clientX, ev.clientY);
    });
    svg.addEventListener("pointerleave", (ev) => { if (ev.pointerType === "mouse") hideProjection(); });
    svg.addEventListener("pointerdown", (ev) => {
      tap = ev.pointerType === "mouse" ? null : { x: ev.clientX, y: ev.clientY, id: ev.pointerId };
      if (tap) hideProjection();
    }, true);
    svg.addEventListener("pointerup", (ev) => {
      if (tap && tap.id === ev.pointerId && Math.abs(ev.clientX - tap.x) + Math.abs(ev.clientY - tap.y) < 8
          && !ev.target.closest(".target, .spot, .hint-spot, #pending-tile")) projectAt(ev.clientX, ev.clientY);
      tap = null;
    });
  }

  function legalSquareAt(clientX, clientY) {
    const box = svg.getBoundingClientRect();
    if (clientX < box.left || clientX > box.right || clientY < box.top || clientY > box.bottom) return null;
    const x = Math.floor((clientX - box.left - cam.x) / cam.k / 100);
    const y = Math.floor((clientY - box.top - cam.y) / cam.k / 100);
    return legalPlacements(store.get()).some((p) => p.x === x && p.y === y) ? { x, y } : null;
  }

  function setupDrag() {
    const hand = $("#current-tile");
    let drag = null;   // {id, sx, sy, ghost}
    hand.addEventListener("pointerdown", (ev) => {
      if (ev.pointerType !== "mouse" || ev.button !== 0 || !canDrag(store.get())) return;
      ev.preventDefault();
      hand.setPointerCapture(ev.pointerId);
      drag = { id: ev.pointerId, sx: ev.clientX, sy: ev.clientY, ghost: null };
    });
    hand.addEventListener("pointermove", (ev) => {
      if (!drag || ev.pointerId !== drag.id) return;
      if (!drag.ghost) {
        if (Math.hypot(ev.clientX - drag.sx, ev.clientY - drag.sy) < 4) return;
        drag.ghost = svgEl("svg", { id: "drag-ghost", viewBox: "0 0 100 100", "aria-hidden": "true" });
        drag.ghost.innerHTML = hand.querySelector(".hg-tile") ? hand.querySelector(".hg-tile").outerHTML : "";
        document.body.append(drag.ghost);
        document.body.classList.add("dragging-tile");
      }
      const side = Math.max(40, 100 * cam.k);
      Object.assign(drag.ghost.style, { width: `${side}px`, height: `${side}px`,
        left: `${ev.clientX - side / 2}px`, top: `${ev.clientY - side / 2}px` });
      const cell = legalSquareAt(ev.clientX, ev.clientY);
      drag.ghost.classList.toggle("over-square", !!cell);   // the board shows it in place instead
      if (cell && held && cell.x === held.x && cell.y === held.y) return;
      held = cell;
      if (cell) previewAt(cell.x, cell.y);
      else clearPreview();
    });
    const end = (ev) => {
      if (!drag || ev.pointerId !== drag.id) return;
      const cell = ev.type === "pointerup" && drag.ghost ? legalSquareAt(ev.clientX, ev.clientY) : null;
      if (drag.ghost) drag.ghost.remove();
      document.body.classList.remove("dragging-tile");
      drag = null;
      held = null;
      clearPreview();
      if (cell) act.placeAt(cell.x, cell.y);
    };
    hand.addEventListener("pointerup", end);
    hand.addEventListener("pointercancel", end);
  }

  // pointers down on the board: one drags the view, two pinch it (zoom about their midpoint)
  function setupInput() {
    let drag = null, pinch = null;
    const local = (ev) => { const box = svg.getBoundingClientRect(); return [ev.clientX - box.left, ev.clientY - box.top]; };
    svg.addEventListener("pointerdown", (ev) => {
      if (ev.target.closest(".target, .spot, .hint-spot, #pending-tile") && !down.size) return;
      down.set(ev.pointerId, local(ev));
      svg.setPointerCapture(ev.pointerId);
      if (down.size === 2) {
        const [a, b] = [...down.values()];
        pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, mx: (a[0] + b[0]) / 2, my: (a[1] + b[1]) / 2 };
        drag = null;
      } else if (down.size === 1) drag = { x: ev.clientX, y: ev.clientY, cx: cam.x, cy: cam.y };
      svg.classList.add("dragging");
    });
    svg.addEventListener("pointermove", (ev) => {
      if (!down.has(ev.pointerId)) return;
      down.set(ev.pointerId, local(ev));
      if (pinch && down.size >= 2) {
        const [a, b] = [...down.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
        const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
        cam.x += mx - pinch.mx;   // the fingers' midpoint carries the board along
        cam.y += my - pinch.my;
        zoom(d / pinch.d, mx, my);
        pinch = { d, mx, my };
        return;
      }
      if (!drag) return;
      cam.x = drag.cx + ev.clientX - drag.x;
      cam.y = drag.cy + ev.clientY - drag.y;
      if (Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) > 3) moved();
      applyCamera();
    });
    const end = (ev) => {
      down.delete(ev.pointerId);
      if (down.size < 2) pinch = null;
      if (down.size === 1) {   // one finger stays: it drags on from here
        const [p] = [...down.values()];
        const box = svg.getBoundingClientRect();
        drag = { x: p[0] + box.left, y: p[1] + box.top, cx: cam.x, cy: cam.y };
      }
      if (!down.size) {
        drag = null;
        svg.classList.remove("dragging");
        whenQuiet();   // what the camera put off while the finger was down
      }
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    svg.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const [px, py] = local(ev);
      zoom(ev.deltaY < 0 ? 1.15 : 1 / 1.15, px, py);
    }, { passive: false });
    $("#zoom-in").onclick = () => zoom(1.25);
    $("#zoom-out").onclick = () => zoom(0.8);
    $("#zoom-fit").onclick = refit;
    // the board's area changes with the window and with the panel beside or below it
    const resized = () => {
      sizes = null;
      const s = store.get();
      if (!s.view || !s.view.board.length || !s.tiles[s.view.edition] || busy()) return;
      if (camMode === "auto") frame(s);
      else if (camMode === "pending" && s.pending) zoomToPending(s.pending);
      else return;
      applyCamera();
    };
    const watch = new ResizeObserver(resized);
    watch.observe(svg);
    watch.observe($("#zoom-controls"));
  }

  setupInput();
  setupProjection();
  setupPress();
  setupDrag();
  return { render, highlight, clearHighlight, zoom, pan, refit, reveal,
    onFinalStep: (f) => { finalStep = f; } };
}
