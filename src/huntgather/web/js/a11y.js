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
import { legalPlacements, myTurn, who } from "./game.js";
import { tileProjectionWords } from "./projection.js";
import { showProjection } from "./settings.js";

export const ROTATION_WORDS = ["not turned", "turned a quarter clockwise", "turned half round",
  "turned a quarter anticlockwise"];

// wait this long for more news before speaking (bot turns come one after the other), but never
// keep news back longer than BATCH_MAX_MS
const BATCH_MS = 600;
const BATCH_MAX_MS = 2500;
const KEEP = 4;   // announcements kept in the live region (older ones are removed, not spoken)

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// where square (x, y) lies, from the start tile (x grows to the east, y to the south)
export function placeWords(x, y) {
  if (!x && !y) return "the start square";
  const parts = [];
  if (x) parts.push(`${Math.abs(x)} ${x > 0 ? "east" : "west"}`);
  if (y) parts.push(`${Math.abs(y)} ${y > 0 ? "south" : "north"}`);
  return `${parts.join(" and ")} of the start`;
}

function tileName(s, ts, id) {
  const t = ts.tiles[id];
  if (t && t.kind === "start") return `Start tile ${id}`;
  if (t && t.kind === "bonus") return `${s.view.bonus_name || "bonus tile"} ${id}`;   // "menhir tile 83"
  return `Tile ${id}`;
}

// the zones of tile `id` turned `rotation` times, in words: "the river to the north (1 fish)"
function zoneWords(ts, id, rotation) {
  const t = ts.tiles[id];
  if (!t) return [];
  return Object.values(t.zones).map((z) => (z.phrases ? z.phrases[rotation] : `the ${z.text}`));
}

function zonePhrase(ts, id, zone, rotation) {
  const z = ts.tiles[id] && ts.tiles[id].zones[zone];
  if (!z) return `zone ${zone}`;
  return z.phrases ? z.phrases[rotation] : `the ${z.text}`;
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
    const turns = c.rotations.map((r) => ROTATION_WORDS[r]).join(", ");
    return `Empty square, ${where}: your tile fits here in ${plural(c.rotations.length, "rotation")} (${turns}); `
      + (now ? "it fits as turned now, Enter places it." : "not as turned now, Enter places it turned to fit.");
  }
  const zones = zoneWords(ts, c.tile, c.rotation).join("; ");
  if (c.kind === "pending") {
    const ready = s.pending.preview && !s.pending.preview.turn_over;
    return `Your ${tileName(s, ts, c.tile).toLowerCase()}, put down here, ${where}, ${ROTATION_WORDS[c.rotation]}, `
      + `not confirmed yet: ${zones}. `
      + (ready ? "Choose a piece with 1 to 9 or none with 0, then confirm with Enter; U takes the tile back."
        : "Confirm with Enter; U takes the tile back.");
  }
  const name = tileName(s, ts, c.tile);
  const parts = [`${name[0].toUpperCase()}${name.slice(1)}, ${where}, ${ROTATION_WORDS[c.rotation]}: ${zones}.`];
  const pieces = (v.occupants || []).filter((o) => o.tile === c.tile).map((o) => {
    const role = o.role || (o.piece === "hut" ? "hut" : "meeple");
    let text = `${who(s, o.player)}: ${role} on ${zonePhrase(ts, c.tile, o.zone, c.rotation)}`;
    if (o.stuck) text += " (stuck: it can score nothing)";
    return text;
  });
  parts.push(pieces.length ? `${pieces.join("; ")}.` : "No pieces.");
  const placed = v.log.find((e) => e.kind === "TilePlaced" && e.tile === c.tile);
  if (placed && placed.player !== undefined && placed.player !== null) parts.push(`Placed by ${who(s, placed.player)}.`);
  if ((v.last || []).some((m) => m.tile === c.tile)) parts.push("Last move.");
  const projected = showProjection() ? tileProjectionWords(v, c.tile) : "";
  if (projected) parts.push(`If the game ended now: ${projected}.`);
  return parts.join(" ");
}

// the events of one update in words, for the live region ("" when nothing worth saying)
export function eventWords(s, ts, events) {
  const out = [];
  for (const e of events || []) {
    switch (e.kind) {
      case "TilePlaced": {
        const what = e.bonus ? `a ${s.view.bonus_name || "bonus tile"}, tile ${e.tile}` : `tile ${e.tile}`;
        const text = ts.tiles[e.tile] ? `: ${ts.tiles[e.tile].text.split(" · ").join(", ")}` : "";
        out.push(`${who(s, e.player)} placed ${what}, ${placeWords(e.x, e.y)}, ${ROTATION_WORDS[e.rotation] || ""}${text}.`);
        break;
      }
      case "OccupantPlaced": {
        const cell = s.view.board.find((c) => c.tile === e.tile);
        const on = cell ? zonePhrase(ts, e.tile, e.zone, cell.rotation) : `zone ${e.zone}`;
        out.push(`${who(s, e.player)} put a ${e.role} on ${on}.`);
        break;
      }
      case "FeatureScored": {
        const points = (e.points || []).map((p, seat) => [p, seat]).filter(([p]) => p > 0)
          .map(([p, seat]) => `${who(s, seat)} scores ${plural(p, "point")}`);
        out.push(`Scored: ${e.text}${points.length ? `. ${points.join(", ")}` : ""}.`);
        break;
      }
      case "GameOver": {
        const scores = (s.view.players || []).map((p) => `${who(s, p.seat)} ${p.score}`).join(", ");
        const winners = s.view.final ? s.view.final.winners.map((i) => who(s, i)).join(" and ") : "";
        out.push(`Game over. ${winners ? `${s.view.final.winners.length > 1 ? "Winners" : "Winner"}: ${winners}. ` : ""}`
          + `Scores: ${scores}.`);
        break;
      }
      case "BonusTurn": case "MeepleTakenBack": case "TileDiscarded":
        if (e.text) out.push(`${e.text}.`);
        break;
      default: break;   // draws, pieces going home (said by the scoring), the final table's rows
    }
  }
  return out.map((t) => t[0].toUpperCase() + t.slice(1)).join(" ");
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
      const name = y ? `${Math.abs(y)} ${y < 0 ? "north" : "south"} of the start` : "the start's row";
      setAttrs(row, { "aria-rowindex": y - y0 + 1, "aria-label": name });
      place(layer, row, i);
      keep.add(row);
      cells.filter((c) => c.y === y).forEach((c, j) => {
        const id = cellId(c.x, c.y);
        const r = old.get(id) || svgEl("rect", { id, role: "gridcell", x: c.x * 100 + 3, y: c.y * 100 + 3,
          width: 94, height: 94, "data-x": c.x, "data-y": c.y });
        const active = cursor && cursor[0] === c.x && cursor[1] === c.y;
        setAttrs(r, { class: `cell ${c.kind}${active ? " active" : ""}`, "aria-colindex": c.x - x0 + 1,
          "aria-label": cellLabel(s, ts, c), "data-kind": c.kind });
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
      let text = `Tile ${ROTATION_WORDS[s.rotation]}: it fits on ${plural(new Set(fits.map((p) => `${p.x},${p.y}`)).size, "square")}`;
      if (c && c.kind === "legal") text += c.rotations.includes(s.rotation) ? ", this one too" : ", not this one";
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
