// huntgather browser client: plain ES module, no build step, nothing fetched from elsewhere.
// The server owns the game; this page sends intents (preview / turn) and draws the views it gets.

const $ = (sel) => document.querySelector(sel);
const SVGNS = "http://www.w3.org/2000/svg";
const COLOURS = ["#F0E442", "#D55E00", "#009E73", "#0072B2", "#CC79A7"];
const LETTERS = ["Y", "R", "G", "B", "V"];
const NAMES = ["yellow", "red", "green", "blue", "violet"];
const ROLE_LETTER = { fisher: "F", gatherer: "G", hunter: "H", hut: "⌂" };

const ui = {
  meta: null,          // /api/editions
  tiles: {},           // edition -> tile payload
  view: null,          // latest game view from the server
  gameId: null,
  ws: null,
  wsWanted: false,
  rotation: 0,
  selected: null,      // [x, y] selected legal position (keyboard)
  pending: null,       // {moves: [...], x, y, rotation, preview, choice}
  previewSeq: 0,
  cam: { x: 0, y: 0, k: 0.6 },
  userCam: false,      // true once the person pans or zooms: from then on the board keeps its view
  replay: null,        // {ply, total}
  hints: null,         // {key, ply, turns} or {key, ply, waiting: true}
  hintSeq: 0,
};

// ------------------------------------------------------------------ helpers

function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

function svgEl(tag, attrs = {}) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

async function api(path, options = {}) {
  const r = await fetch(path, options);
  const data = await r.json();
  if (!r.ok) throw new Error(data.message || r.statusText);
  return data;
}

async function tileset(edition) {
  if (!ui.tiles[edition]) ui.tiles[edition] = await api(`/api/tiles/${edition}`);
  return ui.tiles[edition];
}

function seatLabel(seat) {
  return `${LETTERS[seat]} ${NAMES[seat]}`;
}

function meeplePath(x, y, s = 1) {
  const q = (dx, dy) => `${x + dx * s} ${y + dy * s}`;
  return `M${q(-1.8, -6)} A${2.6 * s} ${2.6 * s} 0 1 1 ${q(1.8, -6)} L${q(6.5, -3)} L${q(6, -0.5)} ` +
    `L${q(3, -1.2)} L${q(5.5, 6.5)} L${q(1, 6.5)} L${q(0, 3)} L${q(-1, 6.5)} L${q(-5.5, 6.5)} ` +
    `L${q(-3, -1.2)} L${q(-6, -0.5)} L${q(-6.5, -3)} Z`;
}

function hutPath(x, y, s = 1) {
  const q = (dx, dy) => `${x + dx * s} ${y + dy * s}`;
  return `M${q(-6, 5)} L${q(-6, -1)} L${q(0, -7)} L${q(6, -1)} L${q(6, 5)} Z`;
}

function pieceSvg(player, piece, x, y, role) {
  const g = svgEl("g", { class: "piece" });
  const t = svgEl("title");
  t.textContent = `${NAMES[player]} ${role || piece}`;
  g.append(t);
  g.append(svgEl("path", { d: piece === "hut" ? hutPath(x, y, 1.15) : meeplePath(x, y, 1.15),
    fill: COLOURS[player], stroke: "#000", "stroke-width": 1.2 }));
  const txt = svgEl("text", { x, y: y + 4, "font-size": 7, "font-weight": "bold",
    "text-anchor": "middle", "font-family": "sans-serif", fill: "#000" });
  txt.textContent = LETTERS[player];
  g.append(txt);
  return g;
}

// ------------------------------------------------------------------ routing

function show(screen) {
  for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== `screen-${screen}`;
}

async function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  closeSocket();
  ui.replay = null;
  if (parts[0] === "game" && parts[1]) {
    show("play");
    await openGame(parts[1]);
  } else if (parts[0] === "replay" && parts[1]) {
    show("play");
    ui.userCam = false;
    await openReplay(parts[1], parts[2] ? parseInt(parts[2], 10) : 0);
  } else if (parts[0] === "games") {
    show("games");
    await loadGames();
  } else if (parts[0] === "help") {
    show("help");
  } else {
    show("new");
  }
}

// ------------------------------------------------------------------ new game

function seatRow(i, kind = "human") {
  const li = el("li");
  const sw = el("span", { class: "swatch", style: `background:${COLOURS[i]}` }, LETTERS[i]);
  li.append(sw, " ", NAMES[i], " ");
  const sel = el("select", { "aria-label": `${NAMES[i]} is played by`, class: "seat-kind" });
  sel.append(el("option", { value: "human" }, "a person (hotseat)"));
  for (const level of ui.meta.bot_levels) sel.append(el("option", { value: `bot:${level}` }, `bot: ${level}`));
  sel.value = kind;
  li.append(sel);
  return li;
}

function refreshStartSelect() {
  const n = $("#seats").children.length;
  const sel = $("#start-player");
  const old = sel.value;
  sel.innerHTML = "";
  for (let i = 0; i < n; i++) sel.append(el("option", { value: i }, seatLabel(i)));
  if (old && parseInt(old, 10) < n) sel.value = old;
}

function setupNewForm() {
  const seats = $("#seats");
  seats.append(seatRow(0, "human"), seatRow(1, "bot:easy"));
  refreshStartSelect();
  $("#add-seat").onclick = () => {
    if (seats.children.length < 5) seats.append(seatRow(seats.children.length, "bot:easy"));
    refreshStartSelect();
  };
  $("#remove-seat").onclick = () => {
    if (seats.children.length > 2) seats.lastChild.remove();
    refreshStartSelect();
  };
  $("#new-form").onsubmit = async (ev) => {
    ev.preventDefault();
    $("#new-error").textContent = "";
    const setup = {
      edition: document.querySelector("input[name=edition]:checked").value,
      seats: [...seats.querySelectorAll("select")].map((s) =>
        s.value === "human" ? { kind: "human" } : { kind: "bot", level: s.value.slice(4) }),
      start_player: parseInt($("#start-player").value, 10),
    };
    const seed = $("#seed").value.trim();
    if (seed !== "") setup.seed = parseInt(seed, 10);
    const short = $("#short").value.trim();
    if (short !== "") setup.short = parseInt(short, 10);
    try {
      const res = await api("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(setup) });
      location.hash = `#/game/${res.id}`;
    } catch (e) {
      $("#new-error").textContent = e.message;
    }
  };
}

// ------------------------------------------------------------------ saved games

async function loadGames() {
  const data = await api("/api/games");
  $("#db-path").textContent = `Stored in ${data.database}`;
  const body = $("#games-table tbody");
  body.innerHTML = "";
  for (const g of data.games) {
    const tr = el("tr");
    const when = new Date(g.updated * 1000).toLocaleString();
    tr.append(el("td", {}, `${g.id} (${when})`), el("td", {}, g.setup.edition),
      el("td", {}, g.setup.seats.map((s, i) => `${LETTERS[i]}:${s.kind === "bot" ? s.level : "person"}`).join(" ")),
      el("td", {}, String(g.ply)), el("td", {}, g.scores.join(" – ")),
      el("td", {}, g.status === "over" ? "finished" : "in play"));
    const td = el("td");
    const open = el("a", { href: `#/game/${g.id}`, class: "resume" }, g.status === "over" ? "View" : "Resume");
    const rep = el("a", { href: `#/replay/${g.id}/1`, class: "replay" }, "Replay");
    const del = el("button", { type: "button", class: "delete", "aria-label": `delete game ${g.id}` }, "Delete");
    del.onclick = async () => {
      if (!confirm(`Delete game ${g.id}? It cannot be resumed or replayed afterwards.`)) return;
      const r = await fetch(`/api/games/${g.id}`, { method: "DELETE" });
      if (!r.ok && r.status !== 404) {
        $("#games-error").textContent = `could not delete game ${g.id} (HTTP ${r.status})`;
        return;
      }
      await loadGames();
    };
    td.append(open, " ", rep, " ", del);
    tr.append(td);
    body.append(tr);
  }
  if (!data.games.length) body.append(el("tr", {}, "No saved games yet."));
}

// ------------------------------------------------------------------ live game

function closeSocket() {
  ui.wsWanted = false;
  if (ui.ws) ui.ws.close();
  ui.ws = null;
}

function status(text) {
  $("#connection").textContent = text;
}

async function openGame(id) {
  ui.gameId = id;
  ui.pending = null;
  ui.userCam = false;
  ui.view = null;
  $("#replay-controls").hidden = true;
  ui.wsWanted = true;
  connect(id);
}

function connect(id) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${id}`);
  ui.ws = ws;
  status("connecting…");
  ws.onopen = () => status("connected");
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    if (ui.ws !== ws) return;
    status("connection lost — reconnecting…");
    if (ui.wsWanted) setTimeout(() => { if (ui.wsWanted && ui.gameId === id) connect(id); }, 1000);
  };
}

function send(msg) {
  if (ui.ws && ui.ws.readyState === WebSocket.OPEN) ui.ws.send(JSON.stringify(msg));
  else showError("not connected to the server; retrying");
}

function showError(text) {
  $("#play-error").textContent = text;
}

async function onMessage(msg) {
  if (msg.type === "state") {
    await tileset(msg.edition);
    const samePly = ui.view && ui.view.ply === msg.ply;
    const newTile = !ui.view || ui.view.decision.tile !== msg.decision.tile;
    ui.view = msg;
    if (!samePly) { ui.pending = null; ui.selected = null; }
    if (newTile) ui.rotation = 0;
    showError("");
    render();
  } else if (msg.type === "preview") {
    if (ui.pending && msg.request === ui.previewSeq) {
      ui.pending.preview = msg;
      followSuggestion();
      render();
    }
  } else if (msg.type === "hint") {
    if (ui.hints && msg.request === ui.hintSeq) {
      ui.hints = { key: ui.hints.key, ply: msg.ply, turns: msg.turns };
      render();
    }
  } else if (msg.type === "error") {
    if (ui.hints && msg.request === ui.hintSeq && ui.hints.waiting) ui.hints = null;
    showError(msg.message);
    if (msg.code === "unknown_game" || msg.code === "deleted") { ui.wsWanted = false; }
    if (msg.code === "stale") send({ type: "sync" });
    if (msg.request !== undefined && msg.request !== null && ui.pending && msg.request === ui.previewSeq) {
      ui.pending = null;
    }
    render();
  }
}

function myTurn() {
  const v = ui.view;
  if (!v || v.over || v.replay) return false;
  const p = v.decision.player;
  return p !== null && v.players[p].kind === "human";
}

function legalPlacements() {
  const v = ui.view;
  if (!v || v.decision.phase !== "place") return [];
  return v.legal.map((m) => {
    const r = /^(\d+)@(-?\d+),(-?\d+)r([0-3])$/.exec(m);
    return r ? { move: m, x: +r[2], y: +r[3], rotation: +r[4] } : null;
  }).filter(Boolean);
}

function placementsForRotation() {
  return legalPlacements().filter((p) => p.rotation === ui.rotation);
}

function rotate(step) {
  if (!myTurn() || ui.pending || ui.view.decision.phase !== "place") return;
  ui.rotation = (ui.rotation + step + 4) % 4;
  const here = placementsForRotation();
  if (ui.selected && !here.some((p) => p.x === ui.selected[0] && p.y === ui.selected[1])) ui.selected = null;
  render();
}

function cycleSpot(step) {
  if (!myTurn() || ui.pending) return;
  let spots = placementsForRotation();
  if (!spots.length) {
    // no position for this rotation: turn to the next rotation that has one
    for (let k = 1; k < 4 && !spots.length; k++) { ui.rotation = (ui.rotation + 1) % 4; spots = placementsForRotation(); }
  }
  if (!spots.length) return;
  spots.sort((a, b) => a.y - b.y || a.x - b.x);
  let i = ui.selected ? spots.findIndex((p) => p.x === ui.selected[0] && p.y === ui.selected[1]) : -1;
  i = (i + step + spots.length) % spots.length;
  ui.selected = [spots[i].x, spots[i].y];
  if (ui.userCam) centreOn(spots[i].x, spots[i].y);
  render();
}

function placeAt(x, y) {
  if (!myTurn() || ui.pending) return;
  let p = placementsForRotation().find((q) => q.x === x && q.y === y);
  if (!p) {
    // a spot legal only in another rotation: turn the tile to the first one that fits there
    for (let k = 1; k < 4 && !p; k++) {
      const r = (ui.rotation + k) % 4;
      p = legalPlacements().find((q) => q.x === x && q.y === y && q.rotation === r);
    }
    if (!p) return;
    ui.rotation = p.rotation;
  }
  ui.pending = { moves: [p.move], x, y, rotation: p.rotation, preview: null, choice: null };
  ui.selected = [x, y];
  requestPreview();
  render();
}

function requestPreview() {
  ui.previewSeq += 1;
  ui.pending.preview = null;
  send({ type: "preview", request: ui.previewSeq, seat: ui.view.decision.player, ply: ui.view.ply,
    moves: ui.pending.moves });
}

function choose(move) {
  const pend = ui.pending;
  if (!pend || !pend.preview) return;
  if (pend.preview.decision.phase === "shaman") {
    pend.moves = pend.moves.concat([move]);
    pend.choice = null;
    requestPreview();
  } else {
    pend.choice = move;
  }
  render();
}

function undo() {
  if (!ui.pending) return;
  ui.pending = null;
  render();
}

function confirmTurn() {
  const pend = ui.pending;
  if (!pend || !pend.preview) return;
  let moves = pend.moves;
  if (!pend.preview.turn_over) {
    if (pend.preview.decision.phase === "shaman") return;
    moves = moves.concat([pend.choice || "-"]);
  }
  send({ type: "turn", seat: ui.view.decision.player, ply: ui.view.ply, moves });
  $("#confirm").disabled = true;
}

// ------------------------------------------------------------------ hints

function hintKey() {
  return JSON.stringify(ui.pending ? ui.pending.moves : []);
}

function currentHints() {
  const h = ui.hints;
  return h && ui.view && h.ply === ui.view.ply && h.key === hintKey() ? h : null;
}

function requestHint() {
  if (!myTurn() || (ui.pending && !ui.pending.preview)) return;
  if (ui.pending && ui.pending.preview.turn_over) return;
  const h = currentHints();
  if (h) return;   // already asked for this very moment of the turn
  ui.hintSeq += 1;
  ui.hints = { key: hintKey(), ply: ui.view.ply, waiting: true };
  send({ type: "hint", request: ui.hintSeq, seat: ui.view.decision.player, ply: ui.view.ply,
    moves: ui.pending ? ui.pending.moves : [] });
  render();
}

function placementOf(m) {
  const r = /^(\d+)@(-?\d+),(-?\d+)r([0-3])$/.exec(m);
  return r ? { x: +r[2], y: +r[3], rotation: +r[4] } : null;
}

function tryHint(turn) {
  if (!myTurn()) return;
  const first = placementOf(turn.moves[0]);
  if (first && !ui.pending) {
    ui.rotation = first.rotation;
    placeAt(first.x, first.y);
    if (ui.pending) ui.pending.suggest = turn.moves.slice(1);
  } else if (ui.pending && ui.pending.preview) {
    ui.pending.suggest = turn.moves.slice();
    followSuggestion();
    render();
  }
}

function followSuggestion() {
  // after a hint was tried: take its next step (shaman take-back, then the occupant) when offered
  const pend = ui.pending;
  if (!pend || !pend.preview || !pend.suggest || !pend.suggest.length) return;
  const m = pend.suggest[0];
  if (!pend.preview.legal.includes(m)) { pend.suggest = null; return; }
  pend.suggest = pend.suggest.slice(1);
  choose(m);
}

function renderHints() {
  const box = $("#hints");
  box.innerHTML = "";
  const h = currentHints();
  $("#hint").disabled = !myTurn() || !!h || (ui.pending && (!ui.pending.preview || ui.pending.preview.turn_over));
  if (!h) return;
  if (h.waiting) {
    box.append(el("p", { class: "muted" }, "the bot is thinking about your turn…"));
    return;
  }
  box.append(el("p", {}, "Hint — the hard bot's best turns (click one to try it):"));
  h.turns.forEach((t, i) => {
    const b = el("button", { type: "button", class: "hint-turn", "data-moves": t.moves.join(" "),
      title: "the bot's estimate for you: 0.5 is even, higher is better" },
      `${i + 1}. ${t.text} — ${t.value.toFixed(2)}`);
    b.onclick = () => tryHint(t);
    box.append(b);
  });
}

// ------------------------------------------------------------------ replay

async function openReplay(id, ply) {
  ui.gameId = id;
  ui.pending = null;
  $("#replay-controls").hidden = false;
  try {
    const v = await api(`/api/games/${id}/at/${ply}`);
    await tileset(v.edition);
    ui.view = v;
    ui.replay = { ply: v.ply, total: v.total_ply };
    render();
  } catch (e) {
    showError(e.message);
  }
}

function replayStops() {
  // positions worth showing: the start, and every position where a player is to move
  const full = ui.view.full_history || [];
  const stops = [0];
  for (let j = 1; j <= full.length; j++) if (j === full.length || !full[j].startsWith("d")) stops.push(j);
  return stops;
}

function replayStep(step) {
  if (!ui.replay || !ui.view) return;
  const stops = replayStops();
  const cur = ui.replay.ply;
  let ply;
  if (step >= 1e9) ply = ui.replay.total;
  else if (step <= -1e9) ply = 0;
  else if (step > 0) ply = stops.find((j) => j > cur) ?? ui.replay.total;
  else ply = [...stops].reverse().find((j) => j < cur) ?? 0;
  history.replaceState(null, "", `#/replay/${ui.gameId}/${ply}`);
  openReplay(ui.gameId, ply);
}

// ------------------------------------------------------------------ rendering

function applyCamera() {
  const { x, y, k } = ui.cam;
  $("#viewport").setAttribute("transform", `translate(${x} ${y}) scale(${k})`);
}

function boardBounds() {
  const cells = ui.view.board;
  let x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  for (const c of cells) { x0 = Math.min(x0, c.x); x1 = Math.max(x1, c.x); y0 = Math.min(y0, c.y); y1 = Math.max(y1, c.y); }
  return { x0: x0 - 1, x1: x1 + 1, y0: y0 - 1, y1: y1 + 1 };
}

function fit() {
  const b = boardBounds();
  const box = $("#board").getBoundingClientRect();
  if (box.width < 20 || box.height < 20) return;   // not laid out yet
  const w = (b.x1 - b.x0 + 1) * 100, h = (b.y1 - b.y0 + 1) * 100;
  const k = Math.min(box.width / w, box.height / h, 2.2);
  ui.cam = { k, x: (box.width - w * k) / 2 - b.x0 * 100 * k, y: (box.height - h * k) / 2 - b.y0 * 100 * k };
  applyCamera();
}

function centreOn(x, y) {
  const box = $("#board").getBoundingClientRect();
  const sx = (x * 100 + 50) * ui.cam.k + ui.cam.x, sy = (y * 100 + 50) * ui.cam.k + ui.cam.y;
  if (sx < 40 || sy < 40 || sx > box.width - 40 || sy > box.height - 40) {
    ui.cam.x += box.width / 2 - sx;
    ui.cam.y += box.height / 2 - sy;
    applyCamera();
  }
}

function tileGroup(ts, tile, rotation, x, y) {
  const g = svgEl("g", { transform: `translate(${x * 100} ${y * 100})` });
  g.innerHTML = ts.tiles[tile].svg[rotation];
  return g;
}

function render() {
  const v = ui.view;
  if (!v) return;
  const ts = ui.tiles[v.edition];
  $("#defs").innerHTML = ts.defs;
  const vp = $("#viewport");
  vp.innerHTML = "";
  const where = {};
  for (const c of v.board) {
    where[c.tile] = c;
    vp.append(tileGroup(ts, c.tile, c.rotation, c.x, c.y));
  }
  // last move
  for (const m of v.last) {
    const r = svgEl("rect", { class: "last-move", x: m.x * 100 + 3, y: m.y * 100 + 3, width: 94, height: 94 });
    const t = svgEl("title"); t.textContent = `last move: ${NAMES[m.player]} placed tile ${m.tile}`;
    r.append(t);
    vp.append(r);
  }
  // pieces
  for (const o of v.occupants) {
    const c = where[o.tile];
    if (!c) continue;
    const a = ts.tiles[o.tile].anchors[c.rotation][o.zone];
    const role = o.piece === "hut" ? "hut" : ts.tiles[o.tile].zones[o.zone].role;
    vp.append(pieceSvg(o.player, o.piece, c.x * 100 + a[0], c.y * 100 + a[1], role));
  }
  const mine = myTurn();
  const d = v.decision;
  // legal positions
  if (mine && d.phase === "place" && !ui.pending) {
    const all = legalPlacements();
    const now = new Set(placementsForRotation().map((p) => `${p.x},${p.y}`));
    const cells = new Set(all.map((p) => `${p.x},${p.y}`));
    for (const key of cells) {
      const [x, y] = key.split(",").map(Number);
      const sel = ui.selected && ui.selected[0] === x && ui.selected[1] === y;
      const cls = `target${now.has(key) ? "" : " other"}${sel ? " selected" : ""}`;
      const r = svgEl("rect", { class: cls, x: x * 100 + 4, y: y * 100 + 4, width: 92, height: 92,
        "data-x": x, "data-y": y, "data-fits": now.has(key) ? "yes" : "other-rotation" });
      const t = svgEl("title");
      t.textContent = now.has(key) ? `place here (${x}, ${y})` : `fits here in another rotation (${x}, ${y})`;
      r.append(t);
      r.addEventListener("click", (ev) => { ev.stopPropagation(); placeAt(x, y); });
      vp.append(r);
    }
  }
  // hinted placements, numbered
  const hints = currentHints();
  if (mine && hints && hints.turns && !ui.pending) {
    hints.turns.forEach((t, i) => {
      const p = placementOf(t.moves[0]);
      if (!p) return;
      const g = svgEl("g", { class: "hint-spot", "data-moves": t.moves.join(" ") });
      const title = svgEl("title"); title.textContent = `hint ${i + 1}: ${t.text}`; g.append(title);
      g.append(svgEl("rect", { x: p.x * 100 + 8, y: p.y * 100 + 8, width: 84, height: 84 }));
      const tx = svgEl("text", { x: p.x * 100 + 50, y: p.y * 100 + 58 });
      tx.textContent = String(i + 1);
      g.append(tx);
      g.addEventListener("click", (ev) => { ev.stopPropagation(); tryHint(t); });
      vp.append(g);
    });
  }
  // pending placement and occupant spots
  const choiceBox = $("#choices");
  choiceBox.innerHTML = "";
  if (ui.pending) {
    const p = ui.pending;
    const g = tileGroup(ts, d.tile, p.rotation, p.x, p.y);
    g.setAttribute("id", "pending-tile");
    vp.append(g);
    vp.append(svgEl("rect", { class: "pending-frame", x: p.x * 100 + 1, y: p.y * 100 + 1, width: 98, height: 98 }));
    const pv = p.preview;
    if (!pv) {
      choiceBox.append(el("p", { class: "muted" }, "checking…"));
    } else {
      for (const e of pv.events) choiceBox.append(el("p", { class: "preview-event" }, e.text));
      if (pv.turn_over) {
        choiceBox.append(el("p", {}, "No piece can go on this tile. Confirm to end the turn, or undo."));
      } else {
        const shaman = pv.decision.phase === "shaman";
        choiceBox.append(el("p", {}, shaman ? "Shaman: you may take back one of your meeples." :
          "Put a piece on the tile? (choose, then confirm)"));
        pv.legal.forEach((m, i) => {
          const label = choiceLabel(ts, m, shaman);
          const b = el("button", { type: "button", "data-move": m, class: m === p.choice ? "selected" : "",
            "aria-pressed": m === p.choice ? "true" : "false" }, `${keyFor(i, m)} ${label}`);
          b.onclick = () => choose(m);
          choiceBox.append(b);
          const spot = spotFor(ts, m, where, p);
          if (spot) {
            const sg = svgEl("g", { class: `spot${m === p.choice ? " selected" : ""}`, "data-move": m });
            const t = svgEl("title"); t.textContent = label; sg.append(t);
            sg.append(svgEl("circle", { cx: spot.x, cy: spot.y, r: 7 }));
            const tx = svgEl("text", { x: spot.x, y: spot.y + 3 });
            tx.textContent = spot.letter;
            sg.append(tx);
            sg.addEventListener("click", (ev) => { ev.stopPropagation(); choose(m); });
            vp.append(sg);
          }
        });
      }
    }
  }
  if (!ui.userCam && v.board.length) fit();
  else applyCamera();
  renderSide(ts);
}

function keyFor(i, m) {
  if (m === "-") return "[0]";
  return i < 9 ? `[${i + 1}]` : "";
}

function choiceLabel(ts, m, shaman) {
  if (m === "-") return shaman ? "take nothing back" : "none: no piece";
  const r = /^([mhx])(\d+)\.(\d)$/.exec(m);
  if (!r) return m;
  const zone = ts.tiles[r[2]].zones[r[3]];
  if (r[1] === "x") return `take back the meeple from tile ${r[2]} (${zone.kind})`;
  if (r[1] === "h") return `hut on the ${zone.kind} (zone ${r[3]})`;
  return `${zone.role} on the ${zone.text} (zone ${r[3]})`;
}

function spotFor(ts, m, where, p) {
  const r = /^([mhx])(\d+)\.(\d)$/.exec(m);
  if (!r) return null;
  const tile = +r[2], zone = r[3];
  const cell = r[1] === "x" ? where[tile] : { x: p.x, y: p.y, rotation: p.rotation };
  if (!cell) return null;
  const a = ts.tiles[tile].anchors[cell.rotation][zone];
  const role = r[1] === "h" ? "hut" : r[1] === "x" ? "x" : ts.tiles[tile].zones[zone].role;
  const letter = role === "x" ? "✕" : ROLE_LETTER[role];
  // a hut and a fisher on the same river would overlap: nudge the hut
  const dx = r[1] === "h" && ts.tiles[tile].zones[zone].kind === "river" ? 13 : 0;
  return { x: cell.x * 100 + a[0] + dx, y: cell.y * 100 + a[1], letter };
}

function renderSide(ts) {
  const v = ui.view;
  const d = v.decision;
  let turn;
  if (v.over) turn = "Game over";
  else if (v.replay) turn = `Replay — ${d.text}`;
  else if (d.player !== null) {
    const p = v.players[d.player];
    const who = p.kind === "bot" ? `bot ${p.level} is thinking…` : "your turn";
    turn = `${seatLabel(d.player)}: ${who}${d.stack === "bonus" ? ` (${v.bonus_name})` : ""}`;
  } else turn = d.text;
  $("#turn").textContent = turn;
  const body = $("#players tbody");
  body.innerHTML = "";
  for (const p of v.players) {
    const tr = el("tr", { class: p.seat === d.player && !v.over ? "current" : "" });
    const name = el("td");
    name.append(el("span", { class: "swatch", style: `background:${p.rgb}` }, p.letter), ` ${p.colour}`,
      p.kind === "bot" ? ` (bot ${p.level})` : " (person)");
    tr.append(name, el("td", { class: "score" }, String(p.score)), el("td", {}, String(p.meeples)),
      el("td", {}, String(p.huts)));
    body.append(tr);
  }
  // tile to place
  const cur = $("#current-tile");
  const placing = d.phase === "place" && d.tile !== null && !v.over;
  $("#tile-panel").hidden = !placing && !ui.pending;
  if (placing) {
    const rot = ui.pending ? ui.pending.rotation : ui.rotation;
    cur.innerHTML = ts.defs + ts.tiles[d.tile].svg[myTurn() ? rot : 0];
    $("#tile-text").textContent = `tile ${d.tile}${d.stack === "bonus" ? " (bonus)" : ""}: ${ts.tiles[d.tile].text}`;
  } else {
    cur.innerHTML = "";
    $("#tile-text").textContent = "";
  }
  const canRotate = myTurn() && d.phase === "place" && !ui.pending;
  $("#rotate-cw").disabled = !canRotate;
  $("#rotate-ccw").disabled = !canRotate;
  $("#next-spot").disabled = !canRotate;
  if (canRotate && !placementsForRotation().length) {
    $("#tile-text").textContent += " — no position for this rotation; turn the tile";
  }
  const pend = ui.pending;
  $("#actions").hidden = !myTurn();
  $("#confirm").disabled = !(pend && pend.preview && (pend.preview.turn_over || pend.preview.decision.phase === "occupy"));
  $("#undo").disabled = !pend;
  renderHints();
  $("#remaining-count").textContent = `${v.remaining.length} tiles left`;
  $("#menhir-count").textContent = `${v.menhirs} ${v.bonus_name}s left`;
  const list = $("#remaining-list");
  list.hidden = !$("#show-remaining").checked;
  if (!list.hidden) {
    list.innerHTML = "";
    for (const t of v.remaining) {
      const s = svgEl("svg", { viewBox: "0 0 100 100", role: "img", "aria-label": `tile ${t}` });
      s.innerHTML = ts.tiles[t].svg[0];
      list.append(s);
    }
    if (!document.getElementById("remaining-defs")) {
      const holder = svgEl("svg", { id: "remaining-defs", width: 0, height: 0 });
      holder.innerHTML = ts.defs;
      document.body.append(holder);
    }
  }
  // log
  const logEl = $("#log");
  logEl.innerHTML = "";
  for (const e of v.log) {
    if (e.kind === "TileDrawn") continue;
    const li = el("li", { class: e.kind });
    li.textContent = e.text;
    logEl.append(li);
  }
  logEl.scrollTop = logEl.scrollHeight;
  // final table
  const fin = $("#final");
  fin.hidden = !v.final;
  if (v.final) {
    const table = $("#final-table");
    table.innerHTML = "";
    const head = el("tr");
    head.append(el("th", {}, "River system / meadow"));
    for (const p of v.players) head.append(el("th", { class: "num" }, p.letter));
    table.append(head);
    for (const row of v.final.rows) {
      const tr = el("tr", { class: `row-${row.kind}` });
      tr.append(el("td", {}, row.explanation));
      for (const pts of row.points) tr.append(el("td", { class: "num" }, String(pts)));
      table.append(tr);
    }
    const tot = el("tr", { class: "total" });
    tot.append(el("td", {}, "Total score"));
    for (const s of v.final.scores) tot.append(el("td", { class: "num" }, String(s)));
    table.append(tot);
    const names = v.final.winners.map(seatLabel).join(" and ");
    $("#winners").textContent = v.final.winners.length > 1 ? `Winners: ${names} (shared)` : `Winner: ${names}`;
  }
  if (ui.replay) {
    $("#replay-pos").textContent = `move ${ui.replay.ply} / ${ui.replay.total}`;
  }
}

// ------------------------------------------------------------------ input

function setupBoardInput() {
  const svg = $("#board");
  let drag = null;
  svg.addEventListener("pointerdown", (ev) => {
    if (ev.target.closest(".target, .spot, .hint-spot")) return;
    drag = { x: ev.clientX, y: ev.clientY, cx: ui.cam.x, cy: ui.cam.y, moved: false };
    svg.setPointerCapture(ev.pointerId);
    svg.classList.add("dragging");
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    ui.cam.x = drag.cx + ev.clientX - drag.x;
    ui.cam.y = drag.cy + ev.clientY - drag.y;
    if (Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) > 3) ui.userCam = true;
    applyCamera();
  });
  const end = () => { drag = null; svg.classList.remove("dragging"); };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  svg.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const box = svg.getBoundingClientRect();
    zoom(ev.deltaY < 0 ? 1.15 : 1 / 1.15, ev.clientX - box.left, ev.clientY - box.top);
  }, { passive: false });
  $("#zoom-in").onclick = () => zoom(1.25);
  $("#zoom-out").onclick = () => zoom(0.8);
  $("#zoom-fit").onclick = () => { ui.userCam = false; fit(); };
}

function zoom(f, px, py) {
  ui.userCam = true;
  const box = $("#board").getBoundingClientRect();
  if (px === undefined) { px = box.width / 2; py = box.height / 2; }
  const k = Math.max(0.1, Math.min(4, ui.cam.k * f));
  const real = k / ui.cam.k;
  ui.cam.x = px - (px - ui.cam.x) * real;
  ui.cam.y = py - (py - ui.cam.y) * real;
  ui.cam.k = k;
  applyCamera();
}

function setupKeys() {
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input, select, textarea") || $("#screen-play").hidden) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    if (ui.replay) {
      if (k === "ArrowRight") { replayStep(1); ev.preventDefault(); }
      else if (k === "ArrowLeft") { replayStep(-1); ev.preventDefault(); }
      return;
    }
    if (k === "r") rotate(1);
    else if (k === "R") rotate(-1);
    else if (k === "n" || k === "N") cycleSpot(1);
    else if (k === "p" || k === "P") cycleSpot(-1);
    else if (k === "u" || k === "U" || k === "Backspace") undo();
    else if (k === "h" || k === "H") requestHint();
    else if (k === "Enter" && !ev.target.closest("button, a")) {
      if (ui.pending) confirmTurn();
      else if (ui.selected) placeAt(ui.selected[0], ui.selected[1]);
    } else if (/^[0-9]$/.test(k) && ui.pending && ui.pending.preview) {
      const legal = ui.pending.preview.legal;
      const m = k === "0" ? "-" : legal[parseInt(k, 10) - 1];
      if (m && legal.includes(m)) choose(m);
    } else if (k === "+" || k === "=") zoom(1.25);
    else if (k === "-") zoom(0.8);
    else if (k === "f" || k === "F") { ui.userCam = false; fit(); }
    else if (k.startsWith("Arrow")) {
      ui.userCam = true;
      const step = 60;
      if (k === "ArrowLeft") ui.cam.x += step;
      if (k === "ArrowRight") ui.cam.x -= step;
      if (k === "ArrowUp") ui.cam.y += step;
      if (k === "ArrowDown") ui.cam.y -= step;
      applyCamera();
    } else return;
    ev.preventDefault();
  });
}

async function main() {
  ui.meta = await api("/api/editions");
  setupNewForm();
  setupBoardInput();
  setupKeys();
  $("#rotate-cw").onclick = () => rotate(1);
  $("#rotate-ccw").onclick = () => rotate(-1);
  $("#next-spot").onclick = () => cycleSpot(1);
  $("#confirm").onclick = () => confirmTurn();
  $("#undo").onclick = () => undo();
  $("#hint").onclick = () => requestHint();
  $("#show-remaining").checked = localStorage.getItem("hg-show-remaining") === "1";
  $("#show-remaining").onchange = () => {
    localStorage.setItem("hg-show-remaining", $("#show-remaining").checked ? "1" : "0");
    render();
  };
  $("#replay-start").onclick = () => replayStep(-1e9);
  $("#replay-back").onclick = () => replayStep(-1);
  $("#replay-fwd").onclick = () => replayStep(1);
  $("#replay-end").onclick = () => replayStep(1e9);
  window.addEventListener("hashchange", route);
  window.addEventListener("resize", () => { if (ui.view && !ui.userCam) fit(); });
  document.body.dataset.ready = "1";
  await route();
}

main();
