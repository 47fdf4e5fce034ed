// The board for screen readers: the board is a grid (<svg id="board" role="grid">) whose cells are
// the placed tiles and, on my turn, the empty squares where the tile in hand fits; the arrow keys
// move the active cell (aria-activedescendant) while the board has the focus, and each cell's name
// says what lies there (the tile, how it is turned, its zones with what is printed on them, the
// pieces on it, who placed it) or, on an empty square, in how many rotations the tile fits.
// What happens in the game (tiles placed, features scored, bonus turns, the end) is said through
// a polite live region (#announcer): one announcement per update, the updates that come close
// together (bot turns) in one.
//
// The cells are drawn on their squares in a layer of their own (<g id="cells">, moved by the
// board's camera), transparent; the active one is framed while the board has the keyboard focus.
// The drawn board (#viewport) is hidden from screen readers: the cells say what it shows.

import { $, svgEl } from "./dom.js";
import { legalPlacements, logWords, myTurn, seatNames, who } from "./game.js";
import { language, say, t } from "./i18n.js";
import { tileProjectionWords } from "./projection.js";
import { showProjection } from "./settings.js";
import { bonusName, kindName, roleName } from "./terms.js";

// how a tile is turned, by its rotation (0–3), in the page's language
const ROTATIONS = [() => t("a11y.rot_0"), () => t("a11y.rot_1"), () => t("a11y.rot_2"), () => t("a11y.rot_3")];
export const rotationWords = (r) => (ROTATIONS[r] ? ROTATIONS[r]() : "");

// wait this long for more news before speaking (bot turns come one after the other), but never
// keep news back longer than BATCH_MAX_MS
const BATCH_MS = 600;
const BATCH_MAX_MS = 2500;
const KEEP = 4;   // announcements kept in the live region (older ones are removed, not spoken)

const cap = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);

// where square (x, y) lies, from the start tile (x grows to the east, y to the south)
export function placeWords(x, y) {
  if (!x && !y) return t("a11y.start_square");
  const parts = [];
  if (x) parts.push(x > 0 ? t("a11y.east", { n: Math.abs(x) }) : t("a11y.west", { n: Math.abs(x) }));
  if (y) parts.push(y > 0 ? t("a11y.south", { n: Math.abs(y) }) : t("a11y.north", { n: Math.abs(y) }));
  return t("a11y.of_start", { parts: parts.join(t("final.and")) });
}

function tileName(s, ts, id) {
  const tile = ts.tiles[id];
  if (tile && tile.kind === "start") return t("a11y.start_tile", { id });
  if (tile && tile.kind === "bonus") return `${bonusName(s.view.edition)} ${id}`;   // "menhir tile 83"
  return t("a11y.tile", { id });
}

// a zone in words: where it lies on the tile as turned and what is printed on it ("the river to
// the north (1 fish)"), as the server says it (`phrases_say`)
function zoneText(z, rotation) {
  if (z.phrases_say) return say(z.phrases_say[rotation]);
  return language() === "en" && z.phrases ? z.phrases[rotation] : kindName(z.kind);
}

// the zones of tile `id` turned `rotation` times, in words
function zoneWords(ts, id, rotation) {
  const tile = ts.tiles[id];
  if (!tile) return [];
  return Object.values(tile.zones).map((z) => zoneText(z, rotation));
}

function zonePhrase(ts, id, zone, rotation) {
  const z = ts.tiles[id] && ts.tiles[id].zones[zone];
  if (!z) return t("a11y.zone", { zone });
  return zoneText(z, rotation);
}

const cellId = (x, y) => `cell-${x}_${y}`;

// the board's cells: every placed tile, the tile waiting for confirmation and, on my turn before
// the tile is placed, every empty square where it fits (with the rotations that fit there)
export function boardCells(s) {
  const v = s.view;
  const cells = new Map();
  for (const c of v.board) cells.set(`${c.x},${c.y}`, { x: c.x, y: c.y, kind: "tile", tile: c.tile, rotation: c.rotation });
  if (myTurn(s) && v.decision.phase === "place") {
    for (const p of legalPlacements(s)) {
      const key = `${p.x},${p.y}`;
      if (!cells.has(key)) cells.set(key, { x: p.x, y: p.y, kind: "legal", rotations: [] });
      const c = cells.get(key);
      if (c.kind === "legal" && !c.rotations.includes(p.rotation)) c.rotations.push(p.rotation);
    }
    for (const c of cells.values()) if (c.rotations) c.rotations.sort();
  }
  if (s.pending && myTurn(s)) {
    const p = s.pending;
    cells.set(`${p.x},${p.y}`, { x: p.x, y: p.y, kind: "pending", tile: v.decision.tile, rotation: p.rotation });
  }
  return [...cells.values()].sort((a, b) => a.y - b.y || a.x - b.x);
}

// a cell in words (its accessible name)
export function cellLabel(s, ts, c) {
  const v = s.view;
  const where = placeWords(c.x, c.y);
  if (c.kind === "legal") {
    const now = c.rotations.includes(s.rotation);
    const turns = c.rotations.map(rotationWords).join(", ");
    return `${t("a11y.legal", { where, n: c.rotations.length, turns })} `
      + (now ? t("a11y.fits_now") : t("a11y.fits_other"));
  }
  const zones = zoneWords(ts, c.tile, c.rotation).join("; ");
  if (c.kind === "pending") {
    const ready = s.pending.preview && !s.pending.preview.turn_over;
    return `${t("a11y.pending", { tile: tileName(s, ts, c.tile).toLowerCase(), where,
      rotation: rotationWords(c.rotation), zones })} ` + (ready ? t("a11y.pending_ready") : t("a11y.pending_confirm"));
  }
  const name = tileName(s, ts, c.tile);
  const parts = [`${cap(name)}, ${where}, ${rotationWords(c.rotation)}: ${zones}.`];
  const pieces = (v.occupants || []).filter((o) => o.tile === c.tile).map((o) => {
    const role = o.role ? roleName(o.role) : o.piece === "hut" ? roleName("hut") : t("a11y.meeple");
    let text = t("a11y.piece", { who: who(s, o.player), role, zone: zonePhrase(ts, c.tile, o.zone, c.rotation) });
    if (o.stuck) text += ` ${t("a11y.stuck")}`;
    return text;
  });
  parts.push(pieces.length ? `${pieces.join("; ")}.` : t("a11y.no_pieces"));
  const placed = v.log.find((e) => e.kind === "TilePlaced" && e.tile === c.tile);
  if (placed && placed.player !== undefined && placed.player !== null) parts.push(t("a11y.placed_by", { who: who(s, placed.player) }));
  if ((v.last || []).some((m) => m.tile === c.tile)) parts.push(t("a11y.last_move"));
  const projected = showProjection() ? tileProjectionWords(v, c.tile) : "";
  if (projected) parts.push(t("a11y.if_ended", { text: projected }));
  return parts.join(" ");
}

// the events of one update in words, for the live region ("" when nothing worth saying)
export function eventWords(s, ts, events) {
  const out = [];
  for (const e of events || []) {
    switch (e.kind) {
      case "TilePlaced": {
        const what = e.bonus ? t("a11y.news_bonus", { tile: bonusName(s.view.edition), id: e.tile })
          : t("a11y.news_tile", { id: e.tile });
        const tile = ts.tiles[e.tile];
        // each zone with what is printed on it ("meadow (an aurochs), forest (1 menhir)")
        const text = !tile ? "" : `: ${Object.values(tile.zones || {}).map((z) => (z.say ? say(z.say) : kindName(z.kind))).join(", ")}`;
        out.push(t("a11y.news_placed", { who: who(s, e.player), what, where: placeWords(e.x, e.y),
          rotation: rotationWords(e.rotation), text }));
        break;
      }
      case "OccupantPlaced": {
        const cell = s.view.board.find((c) => c.tile === e.tile);
        const on = cell ? zonePhrase(ts, e.tile, e.zone, cell.rotation) : t("a11y.zone", { zone: e.zone });
        out.push(t("a11y.news_put", { who: who(s, e.player), role: roleName(e.role), zone: on }));
        break;
      }
      case "FeatureScored": {
        const points = (e.points || []).map((p, seat) => [p, seat]).filter(([p]) => p > 0)
          .map(([p, seat]) => t("a11y.scores", { who: who(s, seat), points: t("count.points", { n: p }) }));
        const what = logWords(s, e);
        out.push(t("a11y.news_scored", { text: `${what}${points.length ? `. ${points.join(", ")}` : ""}` }));
        break;
      }
      case "GameOver": {
        const scores = (s.view.players || []).map((p) => `${who(s, p.seat)} ${p.score}`).join(", ");
        const winners = s.view.final ? s.view.final.winners.map((i) => who(s, i)).join(t("final.and")) : "";
        const said = !winners ? "" : s.view.final.winners.length > 1 ? `${t("a11y.winners", { names: winners })} `
          : `${t("a11y.winner", { names: winners })} `;
        out.push(`${t("a11y.game_over")} ${said}${t("a11y.scores_all", { scores })}`);
        break;
      }
      case "BonusTurn": case "MeepleTakenBack": case "TileDiscarded":
        if (e.text) out.push(`${logWords(s, e)}.`);
        break;
      default: break;   // draws, pieces going home (said by the scoring), the final table's rows
    }
  }
  return out.map(cap).join(" ");
}

export function createA11y(store, board) {
  const svg = $("#board");
  const layer = $("#cells");
  const region = $("#announcer");
  let cursor = null;      // [x, y]: the active cell
  let cells = [];         // the cells drawn last
  let selectedSeen = null;
  let pendingSeen = null;
  let rotationSeen = null;
  let heard = null;       // the last update whose events were said
  let queued = [];        // news waiting to be said together
  let queuedSince = 0;
  let timer = null;

  // ---------------------------------------------------------------- the live region

  function say(text) {
    if (!text) return;
    const p = document.createElement("p");
    p.textContent = text;
    region.append(p);
    while (region.children.length > KEEP) region.firstElementChild.remove();
    document.body.dataset.announcements = String(Number(document.body.dataset.announcements || 0) + 1);
  }

  function flush() {
    clearTimeout(timer);
    timer = null;
    const text = queued.join(" ");
    queued = [];
    say(text);
  }

  // news of the game: said once no more comes for a moment (or once it has waited long enough)
  function tell(text) {
    if (!text) return;
    const now = performance.now();
    if (!queued.length) queuedSince = now;
    queued.push(text);
    clearTimeout(timer);
    timer = setTimeout(flush, Math.max(0, Math.min(BATCH_MS, queuedSince + BATCH_MAX_MS - now)));
  }

  // ---------------------------------------------------------------- the cells

  const at = (x, y) => cells.find((c) => c.x === x && c.y === y);

  // where the active cell goes when it has none (or its square is gone): the square selected with
  // the keyboard, the tile put down, the last tile placed, the start
  function home(s) {
    const v = s.view;
    if (s.pending && at(s.pending.x, s.pending.y)) return [s.pending.x, s.pending.y];
    if (s.selected && at(s.selected[0], s.selected[1])) return s.selected;
    const last = v.last && v.last.length ? v.last[v.last.length - 1] : null;
    if (last && at(last.x, last.y)) return [last.x, last.y];
    return cells.length ? [cells[0].x, cells[0].y] : null;
  }

  // the cells' names for one view of the game (its tiles' set, language, players' names and
  // whether projections are shown): a placed tile's name is made once per view, a legal square's
  // once per rotation of the tile in hand; the tile put down is named again at each render
  let named = { view: null, ts: null, base: "", labels: new Map() };
  function label(s, ts, c) {
    const base = `${language()}|${showProjection()}|${seatNames(s)}`;
    if (named.view !== s.view || named.ts !== ts || named.base !== base) {
      named = { view: s.view, ts, base, labels: new Map() };
    }
    if (c.kind === "pending") return cellLabel(s, ts, c);
    const key = c.kind === "legal" ? `${c.x},${c.y},legal,${c.rotations},${s.rotation}`
      : `${c.x},${c.y},${c.kind},${c.tile},${c.rotation}`;
    let text = named.labels.get(key);
    if (text === undefined) named.labels.set(key, text = cellLabel(s, ts, c));
    return text;
  }

  // set attributes that changed only: a cell whose name is the same is left alone (a screen reader
  // hears of a change to the active cell, so nothing is said again for nothing)
  function setAttrs(node, attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (node.getAttribute(k) !== String(v)) node.setAttribute(k, v);
    }
  }

  // put `node` at `index` among `parent`'s children, moving it only if it is elsewhere
  function place(parent, node, index) {
    const there = parent.children[index];
    if (there !== node) parent.insertBefore(node, there || null);
  }

  // the cells' layer brought up to date: rows by y, cells by square, kept (not redrawn) where
  // they stay, so that the active cell stays the same node
  function draw(s, ts) {
    if (!cells.length) {
      layer.innerHTML = "";
      svg.removeAttribute("aria-activedescendant");
      return;
    }
    const x0 = Math.min(...cells.map((c) => c.x)), y0 = Math.min(...cells.map((c) => c.y));
    setAttrs(svg, { "aria-colcount": Math.max(...cells.map((c) => c.x)) - x0 + 1,
      "aria-rowcount": Math.max(...cells.map((c) => c.y)) - y0 + 1 });
    const rows = new Map([...layer.querySelectorAll(":scope > g[role=row]")].map((r) => [Number(r.dataset.y), r]));
    const old = new Map([...layer.querySelectorAll("[role=gridcell]")].map((r) => [r.id, r]));
    const keep = new Set();
    const ys = [...new Set(cells.map((c) => c.y))];
    ys.forEach((y, i) => {
      let row = rows.get(y);
      if (!row) row = svgEl("g", { role: "row", "data-y": y });
      const name = !y ? t("a11y.start_row") : t("a11y.of_start", { parts: y < 0 ? t("a11y.north", { n: -y })
        : t("a11y.south", { n: y }) });
      setAttrs(row, { "aria-rowindex": y - y0 + 1, "aria-label": name });
      place(layer, row, i);
      keep.add(row);
      cells.filter((c) => c.y === y).forEach((c, j) => {
        const id = cellId(c.x, c.y);
        const r = old.get(id) || svgEl("rect", { id, role: "gridcell", x: c.x * 100 + 3, y: c.y * 100 + 3,
          width: 94, height: 94, "data-x": c.x, "data-y": c.y });
        const active = cursor && cursor[0] === c.x && cursor[1] === c.y;
        setAttrs(r, { class: `cell ${c.kind}${active ? " active" : ""}`, "aria-colindex": c.x - x0 + 1,
          "aria-label": label(s, ts, c), "data-kind": c.kind });
        place(row, r, j);
        keep.add(r);
      });
    });
    for (const r of old.values()) if (!keep.has(r)) r.remove();
    for (const r of rows.values()) if (!keep.has(r)) r.remove();
    // the frame of the active cell (white under black, seen on every terrain), after the rows
    let ring = layer.querySelector(":scope > g.cursor-ring");
    if (!ring) {
      ring = svgEl("g", { class: "cursor-ring", "aria-hidden": "true" });
      ring.append(svgEl("rect", { class: "halo", width: 94, height: 94 }), svgEl("rect", { class: "line", width: 94, height: 94 }));
    }
    layer.append(ring);
    ring.toggleAttribute("hidden", !cursor);   // an SVG element has no .hidden
    if (cursor) {
      for (const r of ring.children) setAttrs(r, { x: cursor[0] * 100 + 3, y: cursor[1] * 100 + 3 });
      setAttrs(svg, { "aria-activedescendant": cellId(cursor[0], cursor[1]) });
    }
  }

  function render(s) {
    const v = s.view;
    if (!v || !s.tiles[v.edition]) {
      layer.innerHTML = "";
      cells = [];
      cursor = null;
      svg.removeAttribute("aria-activedescendant");
      return;
    }
    const ts = s.tiles[v.edition];
    cells = boardCells(s);
    // the keyboard's choices move the active cell with them: N / P, the tile put down
    const sel = s.selected ? String(s.selected) : null;
    if (sel && sel !== selectedSeen && at(s.selected[0], s.selected[1])) cursor = s.selected.slice();
    selectedSeen = sel;
    const pend = s.pending && myTurn(s) ? `${s.pending.x},${s.pending.y}` : null;
    if (pend && pend !== pendingSeen) cursor = [s.pending.x, s.pending.y];
    pendingSeen = pend;
    if (!cursor || !at(cursor[0], cursor[1])) cursor = home(s);
    draw(s, ts);
    // the tile in hand turned: whether it fits on the active square now
    const turning = myTurn(s) && v.decision.phase === "place" && !s.pending ? `${v.version}:${v.decision.tile}` : null;
    if (turning && rotationSeen && rotationSeen.turn === turning && rotationSeen.rotation !== s.rotation) {
      const c = cursor && at(cursor[0], cursor[1]);
      const fits = legalPlacements(s).filter((p) => p.rotation === s.rotation);
      let text = t("a11y.turned", { rotation: rotationWords(s.rotation), n: new Set(fits.map((p) => `${p.x},${p.y}`)).size });
      if (c && c.kind === "legal") text += c.rotations.includes(s.rotation) ? t("a11y.this_one_too") : t("a11y.not_this_one");
      say(`${text}.`);
    }
    rotationSeen = turning ? { turn: turning, rotation: s.rotation } : null;
    // what happened: once per update (a snapshot, a replay step say nothing)
    if (s.change && s.change.seq !== heard) {
      heard = s.change.seq;
      tell(eventWords(s, ts, s.change.scored));
    }
  }

  // ---------------------------------------------------------------- the keys

  // the nearest cell from the active one in direction (dx, dy): on the same row (column) if there
  // is one, else on the nearest column (row) that way, the closest to the active cell's row (column)
  function next(dx, dy) {
    const [cx, cy] = cursor;
    const along = (c) => (dx ? (c.x - cx) * dx : (c.y - cy) * dy);
    const across = (c) => (dx ? Math.abs(c.y - cy) : Math.abs(c.x - cx));
    const ahead = cells.filter((c) => along(c) > 0);
    const same = ahead.filter((c) => across(c) === 0);
    const pool = same.length ? same : ahead;
    pool.sort((a, b) => along(a) - along(b) || across(a) - across(b) || a.x - b.x || a.y - b.y);
    return pool[0] || null;
  }

  function moveTo(c) {
    const s = store.get();
    cursor = [c.x, c.y];
    board.reveal(c.x, c.y);
    // an empty square where the tile fits is selected, as N / P select it: Enter places the tile there
    if (c.kind === "legal" && myTurn(s) && !s.pending && !s.sentTurn) {
      store.dispatch({ type: "rotate", rotation: s.rotation, selected: [c.x, c.y] });
    } else if (s.selected) {
      store.dispatch({ type: "rotate", rotation: s.rotation, selected: null });
    } else {
      draw(s, s.tiles[s.view.edition]);
    }
  }

  const DIRS = { ArrowLeft: [-1, 0, "west"], ArrowRight: [1, 0, "east"], ArrowUp: [0, -1, "north"],
    ArrowDown: [0, 1, "south"] };

  // a key pressed at the table: the arrows (and Home / End) move over the cells while the board
  // has the focus; true when the key was used here
  function key(ev) {
    if (ev.target !== svg || !cursor || !cells.length) return false;
    const k = ev.key;
    let c = null;
    if (DIRS[k] && !ev.shiftKey) {
      c = next(DIRS[k][0], DIRS[k][1]);
      if (!c) { say(`No square further ${DIRS[k][2]}.`); return true; }
    } else if (k === "Home" || k === "End") {
      const row = cells.filter((q) => q.y === cursor[1]);
      c = k === "Home" ? row[0] : row[row.length - 1];
    } else {
      return false;
    }
    svg.dataset.cursor = "shown";
    moveTo(c);
    return true;
  }

  // the empty square under the active cell, where Enter puts the tile
  function legalCursor() {
    const c = cursor && at(cursor[0], cursor[1]);
    return c && c.kind === "legal" ? [c.x, c.y] : null;
  }

  // the frame shows where the keyboard is: with the focus from the keyboard, not from a click
  svg.addEventListener("focus", () => { if (svg.matches(":focus-visible")) svg.dataset.cursor = "shown"; });
  svg.addEventListener("pointerdown", () => { delete svg.dataset.cursor; });

  return { render, key, legalCursor, say, flush };
}
