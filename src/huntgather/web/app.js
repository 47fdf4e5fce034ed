// huntgather browser client: plain ES module, no build step, nothing fetched from elsewhere.
// It speaks the online protocol of docs/protocol.md: the server owns the game; this page
// sends intents (preview / turn / hint / name / seat) for the seats whose secrets it holds,
// and draws the snapshots and updates it receives.  Moves are structured JSON objects,
// never strings: the page sends back the very objects the server offered.

const $ = (sel) => document.querySelector(sel);
const SVGNS = "http://www.w3.org/2000/svg";
// the players' colours, letters and names come from the server (GET /api/editions), the one
// place that defines them (huntgather.svg); filled in by main() before anything is drawn
const COLOURS = [];
const LETTERS = [];
const NAMES = [];
const ROLE_LETTER = { fisher: "F", gatherer: "G", hunter: "H", hut: "⌂" };
const TITLE = "Hunters & Gatherers";
const STORE_KEY = "hg-games";
const NAME_KEY = "hg-name";
const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const SECRET_RE = /^[A-Za-z0-9_-]{8,128}$/;
const MAX_NAME = 24;

const ui = {
  meta: null,          // /api/editions
  tiles: {},           // edition -> tile payload
  rulesEdition: null,  // the edition whose rules the Rules screen shows
  arrived: null,       // tiles of the update being rendered, to animate (a Set) or null
  wasMyTurn: false,    // whether the last render showed this page's turn (for the chime)
  audio: null,         // the AudioContext of the chime, made on first use
  view: null,          // the game as last seen: a snapshot with the updates applied
  table: null,         // the latest `table` message (seats, names, who is online, watchers)
  me: { seats: [], creator: false },   // from `welcome`: the seats this page holds
  gameId: null,
  mode: null,          // "play" | "watch" | "replay"
  ws: null,
  wsWanted: false,
  retries: 0,
  reconnectTimer: null,
  fatal: null,         // an error code that stopped the reconnecting (unknown_game, deleted, bad_secret)
  queue: Promise.resolve(),   // messages are handled one after the other
  requestSeq: 0,
  sentTurn: null,      // request id of a turn sent and not yet answered
  rotation: 0,
  selected: null,      // [x, y] selected legal position (keyboard)
  pending: null,       // {moves, x, y, rotation, request, preview, choice, suggest}
  cam: { x: 0, y: 0, k: 0.6 },
  userCam: false,      // true once the person pans or zooms: from then on the board keeps its view
  replay: null,        // {version, total}
  replayQueue: Promise.resolve(),
  hints: null,         // {key, request, turns} (turns null while waiting)
  nameKey: null,       // which held seats the name form is showing
  nameSkipped: null,   // "game|seats" for which the name form was closed with "not now"
  lobbyNote: null,     // {seat, text}: a note under a seat of the lobby (after copying a link)
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

// JSON.parse, but a seed beyond 2^53 (a seed the creator chose may go up to 2^63) keeps all its digits,
// as text
function parseJSON(text) {
  const data = JSON.parse(text);
  if (data && typeof data.seed === "number" && !Number.isSafeInteger(data.seed)) {
    const m = /"seed"\s*:\s*(\d+)/.exec(text);
    if (m) data.seed = m[1];
  }
  return data;
}

async function api(path, options = {}) {
  const r = await fetch(path, options);
  let data = null;
  try { data = parseJSON(await r.text()); } catch (e) { data = null; }
  if (!r.ok) {
    const err = new Error((data && data.message) || `${r.status} ${r.statusText}`);
    err.status = r.status;
    err.code = data && data.code;
    throw err;
  }
  return data;
}

async function tileset(edition) {
  if (!ui.tiles[edition]) ui.tiles[edition] = await api(`/api/tiles/${encodeURIComponent(edition)}`);
  return ui.tiles[edition];
}

function swatch(seat) {
  return el("span", { class: "swatch", style: `background:${COLOURS[seat]}` }, LETTERS[seat]);
}

// ------------------------------------------------------------------ local storage

function readJSON(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key));
    return v === null || v === undefined ? fallback : v;
  } catch (e) {
    return fallback;
  }
}

function loadStore() {
  const all = readJSON(STORE_KEY, {});
  return all && typeof all === "object" && !Array.isArray(all) ? all : {};
}

function saveStore(all) {
  try { localStorage.setItem(STORE_KEY, JSON.stringify(all)); } catch (e) { /* storage full or disabled */ }
}

function normalEntry(e) {
  const out = e && typeof e === "object" ? e : {};
  if (!out.seats || typeof out.seats !== "object" || Array.isArray(out.seats)) out.seats = {};
  if (!Array.isArray(out.handed)) out.handed = [];
  if (!Array.isArray(out.unplaced)) delete out.unplaced;
  if (typeof out.created !== "number") out.created = Date.now();
  return out;
}

function storeEntry(id) {
  const all = loadStore();
  return all[id] ? normalEntry(all[id]) : null;
}

function updateEntry(id, fn) {
  const all = loadStore();
  const e = normalEntry(all[id]);
  fn(e);
  all[id] = e;
  saveStore(all);
  return e;
}

function forgetEntry(id) {
  const all = loadStore();
  delete all[id];
  saveStore(all);
}

function myName() {
  const n = localStorage.getItem(NAME_KEY);
  return n ? n.slice(0, MAX_NAME) : "";
}

function setMyName(n) {
  try { localStorage.setItem(NAME_KEY, n); } catch (e) { /* ignore */ }
}

// the seat secrets this page plays with (handed-out seats excluded), in seat order
function playSecrets(entry) {
  if (!entry) return [];
  const out = [];
  for (const [seat, secret] of Object.entries(entry.seats).sort((a, b) => +a[0] - +b[0])) {
    if (!entry.handed.includes(+seat) && typeof secret === "string") out.push(secret);
  }
  for (const s of entry.unplaced || []) if (!out.includes(s)) out.push(s);
  return out;
}

// ------------------------------------------------------------------ names of the seats

function seatInfo(i) {
  const t = ui.table;
  if (!t || !Array.isArray(t.seats)) return null;
  return t.seats.find((s) => s.seat === i) || null;
}

function seatName(i) {
  const s = seatInfo(i);
  return s && s.name ? s.name : null;
}

function colourOf(i) {
  const p = ui.view && ui.view.players && ui.view.players[i];
  return (p && p.colour) || NAMES[i];
}

function who(i) {      // "Ann (yellow)" or "yellow"
  const n = seatName(i);
  return n ? `${n} (${colourOf(i)})` : colourOf(i);
}

function seatLabel(i) {   // "Y Ann (yellow)" or "Y yellow"
  return `${LETTERS[i]} ${who(i)}`;
}

function held(i) {
  if (ui.mode !== "play" || ui.fatal) return false;
  if (!ui.me.seats.includes(i)) return false;
  const s = seatInfo(i);
  return !s || s.kind === "human";
}

function heldSeats() {
  return ui.me.seats.filter(held);
}

function isWatcher() {
  return !ui.replay && !!ui.view && heldSeats().length === 0;
}

// ------------------------------------------------------------------ pieces

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
  const g = svgEl("g", { class: "piece", "data-role": role || piece });
  const t = svgEl("title");
  t.textContent = `${who(player)}: ${role || piece}`;
  g.append(t);
  const d = piece === "hut" ? hutPath(x, y, 1.15) : meeplePath(x, y, 1.15);
  // hunters lie down in their meadow, as on the table (fishers and gatherers stand)
  const shape = svgEl("g", role === "hunter" ? { transform: `rotate(90 ${x} ${y})` } : {});
  g.append(shape);
  // a white halo under a black outline: one of the two stands out on every terrain, whatever
  // the player's colour (blue or green on a forest was 1.2–1.9:1)
  shape.append(svgEl("path", { class: "halo", d, fill: "none", stroke: "#fff", "stroke-width": 3.4,
    "stroke-linejoin": "round" }));
  shape.append(svgEl("path", { d, fill: COLOURS[player], stroke: "#000", "stroke-width": 1.2 }));
  const txt = svgEl("text", { x, y: y + 4, "font-size": 7, "font-weight": "bold",
    "text-anchor": "middle", "font-family": "sans-serif", fill: "#000" });
  txt.textContent = LETTERS[player];
  g.append(txt);
  return g;
}

// ------------------------------------------------------------------ moves (structured)

// the canonical form of a MOVE: only the fields that make the move, in a fixed order
function canon(m) {
  if (!m || typeof m !== "object") return null;
  switch (m.kind) {
    case "place": return { kind: "place", x: m.x, y: m.y, rotation: m.rotation };
    case "occupy": return { kind: "occupy", zone: m.zone, piece: m.piece };
    case "takeback": return { kind: "takeback", tile: m.tile, zone: m.zone };
    case "pass": return { kind: "pass" };
    default: return null;
  }
}

function moveKey(m) {
  return JSON.stringify(canon(m));
}

function sameMove(a, b) {
  return moveKey(a) === moveKey(b);
}

function moveAttrs(m) {
  const c = canon(m);
  const a = { "data-move": JSON.stringify(c), "data-kind": c.kind };
  if ("zone" in c) a["data-zone"] = c.zone;
  if ("piece" in c) a["data-piece"] = c.piece;
  if ("tile" in c) a["data-tile"] = c.tile;
  return a;
}

// ------------------------------------------------------------------ routing

function show(screen) {
  for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== `screen-${screen}`;
}

async function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").map((p) => decodeURIComponent(p));
  closeSocket();
  ui.replay = null;
  ui.mode = null;
  document.title = TITLE;
  status("");
  const id = parts[1];
  const validId = id && ID_RE.test(id);
  if ((parts[0] === "play" || parts[0] === "game") && validId) {
    if (parts[0] === "play" && parts[2]) takeInvite(id, parts[2]);
    if (parts[0] === "game" || parts[2]) history.replaceState(null, "", `#/play/${id}`);
    show("play");
    openGame(id, "play");
  } else if (parts[0] === "watch" && validId) {
    show("play");
    openGame(id, "watch");
  } else if (parts[0] === "replay" && validId) {
    show("play");
    ui.userCam = false;
    await openReplay(id, parts[2] ? parseInt(parts[2], 10) || 0 : 0);
  } else if (parts[0] === "games") {
    show("games");
    await showGames();
  } else if (parts[0] === "tiles") {
    show("tiles");
    await showTileSheet();
  } else if (parts[0] === "help") {
    show("help");
    await showRules(ui.rulesEdition || "2020");
  } else {
    show("new");
  }
}

// an invite link: remember its secret(s) for the game; the seat is known after `welcome`
function takeInvite(id, text) {
  const secrets = text.split(".").filter((s) => SECRET_RE.test(s));
  if (!secrets.length) return;
  updateEntry(id, (e) => {
    for (const s of secrets) {
      const seat = Object.keys(e.seats).find((k) => e.seats[k] === s);
      if (seat !== undefined) {
        e.handed = e.handed.filter((h) => h !== +seat);   // opening a handed link here takes it back
      } else {
        e.unplaced = (e.unplaced || []).filter((u) => u !== s).concat([s]);
      }
    }
  });
}

// ------------------------------------------------------------------ new game

function seatRow(i, kind = "human") {
  const li = el("li");
  li.append(swatch(i), " ", NAMES[i], " ");
  const sel = el("select", { "aria-label": `${NAMES[i]} is played by`, class: "seat-kind" });
  sel.append(el("option", { value: "human" }, "a person"));
  const about = ui.meta.bot_level_text || {};
  for (const level of ui.meta.bot_levels) {
    sel.append(el("option", { value: `bot:${level}`, title: about[level] || "" }, `bot: ${level}`));
  }
  sel.value = kind;
  const note = el("span", { class: "muted level-text" });
  const explain = () => {
    note.textContent = sel.value.startsWith("bot:") ? ` — ${about[sel.value.slice(4)] || ""}` : "";
  };
  sel.addEventListener("change", explain);
  explain();
  li.append(sel, note);
  return li;
}

function refreshStartSelect() {
  const n = $("#seats").children.length;
  const sel = $("#start-player");
  const old = sel.value;
  sel.innerHTML = "";
  for (let i = 0; i < n; i++) sel.append(el("option", { value: i }, `${LETTERS[i]} ${NAMES[i]}`));
  if (old && parseInt(old, 10) < n) sel.value = old;
}

function setupNewForm() {
  const seats = $("#seats");
  seats.append(seatRow(0, "human"), seatRow(1, "bot:easy"));
  refreshStartSelect();
  $("#your-name").value = myName();
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
    const name = $("#your-name").value.trim().slice(0, MAX_NAME);
    if (name) setMyName(name);
    const setup = {
      edition: document.querySelector("input[name=edition]:checked").value,
      seats: [...seats.querySelectorAll("select")].map((s) =>
        s.value === "human" ? { kind: "human" } : { kind: "bot", level: s.value.slice(4) }),
      start_player: parseInt($("#start-player").value, 10),
    };
    if (name && setup.seats[0].kind === "human") setup.seats[0].name = name;
    // the browser takes "1e30" or "7.5" as numbers: only plain whole numbers are sent, exactly
    const seed = $("#seed").value.trim();
    if ($("#seed").validity.badInput || (seed !== "" && !(/^\d{1,19}$/.test(seed) && BigInt(seed) < 2n ** 63n))) {
      $("#new-error").textContent = "The seed must be a whole number from 0 to 9223372036854775807 " +
        "(digits only), or empty for a secret random deal.";
      $("#seed").focus();
      return;
    }
    const short = $("#short").value.trim();
    if ($("#short").validity.badInput || (short !== "" && !(/^\d{1,3}$/.test(short) && +short >= 1))) {
      $("#new-error").textContent = "A short game needs a whole number of tiles (digits only, at least 1), " +
        "or leave it empty for the whole stack.";
      $("#short").focus();
      return;
    }
    if (short !== "") setup.short = parseInt(short, 10);
    $("#start-game").disabled = true;
    try {
      // a seed may be larger than a JavaScript number holds exactly: its digits go into the JSON as they are
      let body = JSON.stringify(setup);
      if (seed !== "") body = body.replace(/}$/, `,"seed":${seed}}`);
      const res = await api("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
        body });
      if (!res || !ID_RE.test(res.id)) throw new Error("the server answered without a game id");
      const all = loadStore();
      all[res.id] = { creator: res.creator, seats: { ...(res.seats || {}) }, handed: [], created: Date.now() };
      saveStore(all);
      location.hash = `#/play/${res.id}`;
    } catch (e) {
      $("#new-error").textContent = e.message;
    } finally {
      $("#start-game").disabled = false;
    }
  };
}

// ------------------------------------------------------------------ rules

// the rules of an edition, in the server's words, with its diagrams of real positions
async function showRules(edition) {
  ui.rulesEdition = edition;
  for (const b of document.querySelectorAll("#rules-editions button")) {
    b.setAttribute("aria-pressed", String(b.dataset.edition === edition));
  }
  const box = $("#rules");
  let page;
  try {
    page = await api(`/api/rules/${encodeURIComponent(edition)}`);
  } catch (e) {
    box.textContent = `could not load the rules: ${e.message}`;
    return;
  }
  if (ui.rulesEdition !== edition) return;   // another edition was asked for meanwhile
  box.innerHTML = "";
  box.dataset.edition = edition;
  box.append(el("p", { class: "muted" }, page.title || ""));
  for (const s of page.sections || []) {
    const part = el("section", { class: "rule" });
    part.append(el("h3", {}, s.title));
    for (const text of s.paragraphs || []) part.append(el("p", {}, text));
    if (s.diagram) {
      const fig = el("figure", { class: "diagram" });
      const pic = el("div", { class: "picture" });
      pic.innerHTML = s.diagram;   // drawn by the server from a real position, no user text
      fig.append(pic, el("figcaption", {}, s.caption || ""));
      part.append(fig);
    }
    box.append(part);
  }
}

// ------------------------------------------------------------------ the tile sheet

// every tile of both editions as the board draws it, with its id and contents, for review
async function showTileSheet() {
  const box = $("#tile-sheet");
  if (box.dataset.done === "1") return;
  box.innerHTML = "";
  for (const edition of (ui.meta.editions || []).map((e) => e.name)) {
    let ts;
    try {
      ts = await tileset(edition);
    } catch (e) {
      box.append(el("p", { class: "error" }, `could not load the ${edition} tiles: ${e.message}`));
      return;
    }
    const part = el("section", { class: "sheet", "data-edition": edition });
    part.append(el("h3", {}, `${edition} edition: ${Object.keys(ts.tiles).length} tiles`));
    const grid = el("div", { class: "sheet-grid" });
    for (const [id, t] of Object.entries(ts.tiles)) {
      const fig = el("figure", { class: "sheet-tile", "data-tile": id });
      const pic = svgEl("svg", { viewBox: "0 0 100 100", role: "img", "aria-label": `tile ${id}: ${t.text}` });
      pic.innerHTML = ts.defs + t.svg[0];   // server-made SVG of the tile, no user text
      fig.append(pic, el("figcaption", {}, `${id} · ${t.kind} · ${t.text}`));
      grid.append(fig);
    }
    part.append(grid);
    box.append(part);
  }
  box.dataset.done = "1";
}

// ------------------------------------------------------------------ saved games

async function showGames() {
  const body = $("#games-table tbody");
  $("#games-error").textContent = "";
  const store = loadStore();
  const ids = Object.keys(store).filter((id) => ID_RE.test(id))
    .sort((a, b) => (normalEntry(store[b]).created || 0) - (normalEntry(store[a]).created || 0));
  const found = {};
  let fetched = true;
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    try {
      const data = await api(`/api/games?ids=${chunk.map(encodeURIComponent).join(",")}`);
      for (const g of data.games || []) found[g.id] = g;
    } catch (e) {
      fetched = false;
      $("#games-error").textContent = `could not ask the server about the games: ${e.message}`;
    }
  }
  if (location.hash.replace(/^#\/?/, "").split("/")[0] !== "games") return;   // left meanwhile
  body.innerHTML = "";
  for (const id of ids) {
    const entry = normalEntry(store[id]);
    const g = found[id];
    const tr = el("tr", { "data-game": id });
    if (!g) {
      tr.classList.add("gone");
      const when = new Date(entry.created).toLocaleString();
      const td = el("td", { colspan: 6 });
      td.append(el("span", { class: "game-id" }, `${id} (${when})`), " — ",
        el("span", { class: "muted" }, fetched ? "gone: the server no longer knows this game" : "unknown"));
      const actions = el("td");
      const forget = el("button", { type: "button", class: "forget", "aria-label": `forget game ${id}` }, "Forget");
      forget.onclick = () => { forgetEntry(id); showGames(); };
      actions.append(forget);
      tr.append(td, actions);
      body.append(tr);
      continue;
    }
    const when = new Date((g.updated || g.created) * 1000).toLocaleString();
    const players = (g.players || []).map((p) => {
      const kind = p.kind === "bot" ? `bot ${p.level}` : "person";
      return `${LETTERS[p.seat]} ${p.name ? `${p.name} (${kind})` : kind}`;
    }).join(" · ");
    tr.append(el("td", {}, `${id} (${when})`), el("td", {}, g.edition),
      el("td", { class: "players" }, players), el("td", {}, String(g.version)),
      el("td", {}, (g.players || []).map((p) => p.score).join(" – ")),
      el("td", {}, g.status === "over" ? "finished" : "in play"));
    const td = el("td", { class: "actions" });
    if (playSecrets(entry).length || entry.creator) {
      td.append(el("a", { href: `#/play/${id}`, class: "resume" }, g.status === "over" ? "View" : "Resume"), " ");
    }
    td.append(el("a", { href: `#/watch/${id}`, class: "watch" }, "Watch"), " ",
      el("a", { href: `#/replay/${id}/1`, class: "replay" }, "Replay"));
    if (entry.creator) {
      const del = el("button", { type: "button", class: "delete", "aria-label": `delete game ${id}` }, "Delete");
      del.onclick = async () => {
        if (!confirm(`Delete game ${id}? It cannot be resumed or replayed afterwards, by anyone.`)) return;
        let r;
        try {
          r = await fetch(`/api/games/${encodeURIComponent(id)}`, { method: "DELETE",
            headers: { Authorization: `Bearer ${entry.creator}` } });
        } catch (e) {
          $("#games-error").textContent = `could not delete game ${id}: ${e.message}`;
          return;
        }
        if (!r.ok && r.status !== 404) {
          $("#games-error").textContent = `could not delete game ${id} (HTTP ${r.status})`;
          return;
        }
        forgetEntry(id);
        await showGames();
      };
      td.append(" ", del);
    }
    tr.append(td);
    body.append(tr);
  }
  if (!ids.length) {
    const tr = el("tr");
    tr.append(el("td", { colspan: 7 }, "No saved games yet."));
    body.append(tr);
  }
}

// ------------------------------------------------------------------ live game: the socket

function closeSocket() {
  ui.wsWanted = false;
  clearTimeout(ui.reconnectTimer);
  const ws = ui.ws;
  ui.ws = null;
  if (ws) ws.close();
}

function status(text) {
  $("#connection").textContent = text;
}

function resetGameState() {
  ui.view = null;
  ui.table = null;
  ui.me = { seats: [], creator: false };
  ui.fatal = null;
  ui.pending = null;
  ui.selected = null;
  ui.sentTurn = null;
  ui.hints = null;
  ui.nameKey = null;
  ui.lobbyNote = null;
  ui.rotation = 0;
  ui.userCam = false;
}

function openGame(id, mode) {
  resetGameState();
  ui.gameId = id;
  ui.mode = mode;
  ui.retries = 0;
  $("#replay-controls").hidden = true;
  showError("");
  clearBoard();
  renderAll();
  ui.wsWanted = true;
  connect();
}

function helloMessage() {
  const entry = ui.mode === "play" ? storeEntry(ui.gameId) : null;
  const seats = playSecrets(entry);
  const secrets = seats.slice();
  if (entry && entry.creator) secrets.push(entry.creator);
  const msg = { type: "hello", secrets, version: ui.view ? ui.view.version : null };
  const name = myName();
  // a name only for a page with one seat: the hotseat creator must not name every seat alike
  if (name && seats.length === 1) msg.name = name;
  return msg;
}

function connect() {
  const id = ui.gameId;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(id)}`);
  ui.ws = ws;
  if (ui.retries === 0) status("connecting…");
  ws.onopen = () => {
    if (ui.ws === ws) ws.send(JSON.stringify(helloMessage()));
  };
  ws.onmessage = (ev) => {
    if (ui.ws !== ws) return;
    let msg;
    try { msg = parseJSON(ev.data); } catch (e) { return; }
    if (!msg || typeof msg !== "object") return;
    ui.queue = ui.queue.then(() => (ui.ws === ws ? onMessage(msg) : null))
      .catch((e) => showError(`could not show the game: ${e.message}`));
  };
  ws.onclose = () => {
    if (ui.ws !== ws) return;
    ui.ws = null;
    if (!ui.wsWanted) return;
    status("connection lost — reconnecting…");
    const delay = Math.min(1000 * 2 ** ui.retries, 4000);
    ui.retries += 1;
    clearTimeout(ui.reconnectTimer);
    ui.reconnectTimer = setTimeout(() => {
      if (ui.wsWanted && ui.gameId === id && !ui.ws) connect();
    }, delay);
  };
}

// start a fresh socket at once (the secrets held changed); the view is kept, so only news arrive
function reconnect() {
  if (ui.mode !== "play" && ui.mode !== "watch") return;
  clearTimeout(ui.reconnectTimer);
  const old = ui.ws;
  ui.ws = null;
  if (old) old.close();
  ui.wsWanted = true;
  ui.retries = 0;
  connect();
}

function send(msg) {
  if (ui.ws && ui.ws.readyState === WebSocket.OPEN) {
    ui.ws.send(JSON.stringify(msg));
    return true;
  }
  showError("not connected to the server; retrying");
  return false;
}

function showError(text, link) {
  const box = $("#play-error");
  box.textContent = text;
  if (link) box.append(" ", el("a", { href: link.href }, link.text));
}

const FATAL = {
  unknown_game: () => `There is no game ${ui.gameId} on this server: it may have been deleted.`,
  deleted: () => "This game was deleted by its creator.",
  bad_secret: () => "This link does not (or no longer) hold a seat in this game: it may be mistyped, " +
    "or the seat was handed to a bot.",
};

async function onMessage(msg) {
  switch (msg.type) {
    case "welcome": {
      ui.me = { seats: Array.isArray(msg.seats) ? msg.seats : [], creator: !!msg.creator };
      ui.retries = 0;
      ui.fatal = null;
      status("connected");
      rememberGame();
      renderAll();
      break;
    }
    case "table":
      ui.table = msg;
      pruneBotSecrets();
      renderAll();
      break;
    case "snapshot":
      await tileset(msg.edition);
      setView(msg);
      break;
    case "update":
      applyUpdate(msg);
      break;
    case "ack":
      if (msg.request === ui.sentTurn) ui.sentTurn = null;
      render();
      break;
    case "preview":
      if (ui.pending && msg.request === ui.pending.request) {
        ui.pending.preview = msg;
        followSuggestion();
        render();
      }
      break;
    case "hint":
      if (ui.hints && msg.request === ui.hints.request) {
        ui.hints.turns = Array.isArray(msg.turns) ? msg.turns : [];
        render();
      }
      break;
    case "seat_secret":
      if (typeof msg.secret === "string" && Number.isInteger(msg.seat)) {
        const seat = msg.seat;
        updateEntry(ui.gameId, (e) => {
          e.seats[String(seat)] = msg.secret;
          e.handed = e.handed.filter((h) => h !== seat);
        });
        reconnect();   // hold the new person seat (hotseat) until its link is handed out
      }
      break;
    case "error":
      onError(msg);
      break;
    default:
      break;
  }
}

function onError(msg) {
  const code = msg.code;
  if (FATAL[code]) {
    ui.wsWanted = false;
    ui.fatal = code;
    clearTimeout(ui.reconnectTimer);
    status("not connected");
    ui.pending = null;
    showError(FATAL[code](), code === "bad_secret" ? { href: `#/watch/${ui.gameId}`, text: "Watch the game" } : null);
    renderAll();
    return;
  }
  const req = msg.request;
  const mine = req !== undefined && req !== null;
  if (mine && ui.pending && req === ui.pending.request) ui.pending = null;
  if (mine && ui.hints && req === ui.hints.request) ui.hints = null;
  if (mine && req === ui.sentTurn) ui.sentTurn = null;
  if (code === "stale") {
    ui.pending = null;
    ui.hints = null;
    ui.sentTurn = null;
    if (ui.view) send({ type: "resync", version: ui.view.version });
    showError("the game moved on meanwhile; showing the latest position");
  } else {
    showError(msg.message || code || "error");
  }
  render();
}

// keep the game in this browser's list; place the secrets of an invite link on their seats
function rememberGame() {
  const id = ui.gameId;
  if (!id) return;
  updateEntry(id, (e) => {
    if (ui.mode !== "play" || !e.unplaced || !e.unplaced.length) return;
    const known = new Set(Object.keys(e.seats).map(Number));
    const fresh = ui.me.seats.filter((s) => !known.has(s)).sort((a, b) => a - b);
    if (fresh.length === e.unplaced.length) {
      fresh.forEach((seat, k) => { e.seats[String(seat)] = e.unplaced[k]; });
      delete e.unplaced;
    }
  });
}

// a seat handed to a bot: its secret no longer works, so it must not go into the next hello
function pruneBotSecrets() {
  const t = ui.table;
  if (!t || !Array.isArray(t.seats) || ui.mode !== "play") return;
  const bots = t.seats.filter((s) => s.kind === "bot").map((s) => String(s.seat));
  const entry = storeEntry(ui.gameId);
  if (!entry || !bots.some((s) => s in entry.seats)) return;
  updateEntry(ui.gameId, (e) => {
    for (const s of bots) {
      delete e.seats[s];
      e.handed = e.handed.filter((h) => String(h) !== s);
    }
  });
}

function setView(v) {
  const old = ui.view;
  if (!Array.isArray(v.board)) v.board = [];
  if (!Array.isArray(v.log)) v.log = [];
  ui.view = v;
  afterChange(old, v);
}

function applyUpdate(u) {
  const v = ui.view;
  if (!v) {
    reconnect();   // nothing to apply it to: start again with a full snapshot
    return;
  }
  if (u.version <= v.version) return;   // seen already
  if (u.from !== v.version) {
    send({ type: "resync", version: v.version });
    return;
  }
  const before = { version: v.version, decision: v.decision };
  for (const c of u.placed || []) v.board.push(c);
  // tiles placed by others (not the one this page just confirmed) are animated once, unless off
  const own = ui.sentTurn !== null && ui.pending ? ui.pending.moves[0] : null;
  ui.arrived = animation() === "off" ? null
    : new Set((u.placed || []).filter((c) => !own || c.x !== own.x || c.y !== own.y).map((c) => c.tile));
  for (const e of u.events || []) v.log.push(e);
  for (const k of ["players", "occupants", "remaining", "bonus_left", "decision", "legal", "last",
    "over", "final", "seed"]) {
    if (k in u) v[k] = u[k];
  }
  v.version = u.version;
  afterChange(before, v);
  ui.arrived = null;   // animated by that render only
  showScoring(u.events || []);
}

const ANIM_KEY = "hg-animation";

// "normal", "slow" or "off" (the default is off when the system asks for reduced motion)
function animation() {
  const chosen = localStorage.getItem(ANIM_KEY);
  if (chosen === "normal" || chosen === "slow" || chosen === "off") return chosen;
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "off" : "normal";
}

function applyAnimation() {
  const a = animation();
  document.body.dataset.animation = a;
  $("#animation").value = a;
}

// ------------------------------------------------------------------ scoring you can see

// light up the squares of a scored feature (a log line or a final-table row under the pointer)
function highlightTiles(tiles, cls = "scored-hl") {
  clearHighlight(cls);
  const v = ui.view;
  if (!v || !tiles || !tiles.length) return;
  const at = new Map(v.board.map((c) => [c.tile, c]));
  const vp = $("#overlay");
  for (const t of tiles) {
    const c = at.get(t);
    if (!c) continue;
    vp.append(svgEl("rect", { class: cls, x: c.x * 100 + 2, y: c.y * 100 + 2, width: 96, height: 96 }));
  }
}

// the tile to place, shown faintly on a legal square under the mouse (in the first rotation,
// from the current one, that fits there)
function previewAt(ts, x, y) {
  clearPreview();
  const d = ui.view && ui.view.decision;
  if (!d || !myTurn() || ui.pending || d.phase !== "place" || !ts.tiles[d.tile]) return;
  const p = placementAt(x, y, ui.rotation);
  if (!p) return;
  const rotation = p.rotation;
  const g = tileGroup(ts, d.tile, rotation, x, y);
  g.setAttribute("id", "hover-preview");
  g.dataset.x = String(x);
  g.dataset.y = String(y);
  g.dataset.rotation = String(rotation);
  $("#overlay").append(g);
}

function clearPreview() {
  const old = document.getElementById("hover-preview");
  if (old) old.remove();
}

function clearHighlight(cls = "scored-hl") {
  for (const r of document.querySelectorAll(`#overlay rect.${cls}`)) r.remove();
}

// points scored during play float up from their feature, in the scorer's colour
function showScoring(events) {
  const v = ui.view;
  for (const e of events) {
    if (e.kind !== "FeatureScored" || !Array.isArray(e.points) || !Array.isArray(e.tiles)) continue;
    const cells = v.board.filter((c) => e.tiles.includes(c.tile));
    if (!cells.length) continue;
    const cx = cells.reduce((a, c) => a + c.x, 0) / cells.length * 100 + 50;
    const cy = cells.reduce((a, c) => a + c.y, 0) / cells.length * 100 + 50;
    const scorers = e.points.map((p, seat) => [p, seat]).filter(([p]) => p > 0);
    if (!scorers.length) continue;
    highlightTiles(e.tiles, "scored-now");
    scorers.forEach(([p, seat], i) => {
      const t = svgEl("text", { class: "score-float", x: cx, y: cy - 16 * i,
        fill: (v.players[seat] && v.players[seat].rgb) || COLOURS[seat] });
      t.textContent = `+${p}`;
      $("#overlay").append(t);
      setTimeout(() => t.remove(), 2400);
    });
    document.body.dataset.scoreFloats = String(Number(document.body.dataset.scoreFloats || 0) + 1);
    setTimeout(() => clearHighlight("scored-now"), 2400);
  }
}

function hoverable(node, tiles) {
  if (!Array.isArray(tiles) || !tiles.length) return;
  node.dataset.tiles = tiles.join(",");
  node.tabIndex = 0;
  node.classList.add("has-feature");
  node.title = "shows this feature on the board";
  const on = () => highlightTiles(tiles);
  node.addEventListener("mouseenter", on);
  node.addEventListener("focus", on);
  node.addEventListener("click", on);
  node.addEventListener("mouseleave", () => clearHighlight());
  node.addEventListener("blur", () => clearHighlight());
}

function afterChange(old, v) {
  if (!old || old.version !== v.version) {
    ui.pending = null;
    ui.selected = null;
    ui.sentTurn = null;
  }
  if (!old || !old.decision || old.decision.tile !== v.decision.tile) ui.rotation = 0;
  if (!old || old.version !== v.version) showError("");
  if (old && old.version !== v.version && ui.lobbyNote) { ui.lobbyNote = null; renderLobby(); }
  else if (!old || old.over !== v.over) renderLobby();
  render();
}

// ------------------------------------------------------------------ turns

function myTurn() {
  const v = ui.view;
  if (!v || v.over || v.replay || ui.replay || !v.decision) return false;
  const p = v.decision.player;
  return p !== null && p !== undefined && held(p);
}

function legalPlacements() {
  const v = ui.view;
  if (!v || !v.decision || v.decision.phase !== "place" || !Array.isArray(v.legal)) return [];
  return v.legal.filter((m) => m && m.kind === "place");
}

function placementsForRotation() {
  return legalPlacements().filter((p) => p.rotation === ui.rotation);
}

// the legal placement at (x, y) in the first rotation, from `from` on clockwise, that fits there
function placementAt(x, y, from) {
  const here = legalPlacements().filter((q) => q.x === x && q.y === y);
  for (let k = 0; k < 4; k++) {
    const p = here.find((q) => q.rotation === (from + k) % 4);
    if (p) return p;
  }
  return null;
}

function intent(type, extra) {
  ui.requestSeq += 1;
  const ok = send({ type, seat: ui.view.decision.player, version: ui.view.version,
    request: ui.requestSeq, ...extra });
  return ok ? ui.requestSeq : null;
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

// tap the tile waiting for confirmation: turn it to the next rotation that fits on its square
function turnPending() {
  const pend = ui.pending;
  if (!pend || ui.sentTurn || !myTurn()) return;
  const next = placementAt(pend.x, pend.y, pend.rotation + 1);
  if (next && next.rotation !== pend.rotation) {
    ui.rotation = next.rotation;
    ui.pending = null;
    placeAt(pend.x, pend.y);
  }
}

function placeAt(x, y) {
  if (!myTurn() || ui.sentTurn) return;
  if (ui.pending) {
    if (ui.pending.x === x && ui.pending.y === y) return;
    ui.pending = null;   // another square: the tile moves there, no undo needed
  }
  // the tile as turned now, or else turned to the first rotation that fits there
  const p = placementAt(x, y, ui.rotation);
  if (!p) return;
  ui.rotation = p.rotation;
  ui.pending = { moves: [canon(p)], x, y, rotation: p.rotation, request: null, preview: null, choice: null };
  ui.selected = [x, y];
  requestPreview();
  zoomToPending();
  render();
}

function requestPreview() {
  const pend = ui.pending;
  pend.preview = null;
  pend.request = intent("preview", { moves: pend.moves });
  if (pend.request === null) ui.pending = null;
}

function choose(move) {
  const pend = ui.pending;
  if (!pend || !pend.preview) return;
  if (pend.preview.decision && pend.preview.decision.phase === "shaman") {
    pend.moves = pend.moves.concat([canon(move)]);
    pend.choice = null;
    requestPreview();
  } else {
    pend.choice = canon(move);
  }
  render();
}

function undo() {
  if (!ui.pending) return;
  ui.pending = null;
  render();
}

function canConfirm() {
  const pend = ui.pending;
  if (!pend || !pend.preview || ui.sentTurn) return false;
  return !!pend.preview.turn_over || (pend.preview.decision && pend.preview.decision.phase === "occupy");
}

function confirmTurn() {
  const pend = ui.pending;
  if (!canConfirm()) return;
  let moves = pend.moves;
  if (!pend.preview.turn_over) moves = moves.concat([pend.choice || { kind: "pass" }]);
  ui.sentTurn = intent("turn", { moves });
  render();
}

// ------------------------------------------------------------------ hints

function hintKey() {
  return `${ui.view ? ui.view.version : ""}|${JSON.stringify(ui.pending ? ui.pending.moves : [])}`;
}

function currentHints() {
  const h = ui.hints;
  return h && ui.view && h.key === hintKey() ? h : null;
}

function requestHint() {
  if (!myTurn() || (ui.pending && !ui.pending.preview)) return;
  if (ui.pending && ui.pending.preview.turn_over) return;
  if (currentHints()) return;   // already asked for this very moment of the turn
  const key = hintKey();
  const request = intent("hint", { moves: ui.pending ? ui.pending.moves : [] });
  if (request === null) return;
  ui.hints = { key, request, turns: null };
  render();
}

function tryHint(turn) {
  if (!myTurn() || !turn.moves || !turn.moves.length) return;
  const first = turn.moves[0];
  if (first.kind === "place" && !ui.pending) {
    ui.rotation = first.rotation;
    placeAt(first.x, first.y);
    if (ui.pending) ui.pending.suggest = turn.moves.slice(1);
  } else if (ui.pending && ui.pending.preview) {
    // a hint asked after the placement: its moves are the rest of the turn
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
  const legal = pend.preview.legal || [];
  if (!legal.some((l) => sameMove(l, m))) { pend.suggest = null; return; }
  pend.suggest = pend.suggest.slice(1);
  choose(m);
}

function renderHints() {
  const box = $("#hints");
  box.innerHTML = "";
  const h = currentHints();
  $("#hint").disabled = !myTurn() || !!h || !!(ui.pending && (!ui.pending.preview || ui.pending.preview.turn_over));
  if (!h || !myTurn()) return;
  if (!h.turns) {
    box.append(el("p", { class: "muted" }, "the bot is thinking about your turn…"));
    return;
  }
  if (!h.turns.length) {
    box.append(el("p", { class: "muted" }, "no hint for this moment of the turn"));
    return;
  }
  box.append(el("p", {}, "Hint — the hard bot's best turns (click one to try it):"));
  h.turns.forEach((t, i) => {
    const value = typeof t.value === "number" ? ` — ${t.value.toFixed(2)}` : "";
    const b = el("button", { type: "button", class: "hint-turn",
      "data-moves": JSON.stringify((t.moves || []).map(canon)),
      title: "the bot's estimate for you: 0.5 is even, higher is better" }, `${i + 1}. ${t.text}${value}`);
    b.onclick = () => tryHint(t);
    box.append(b);
  });
}

// ------------------------------------------------------------------ replay

async function fetchAt(id, n) {
  const v = await api(`/api/games/${encodeURIComponent(id)}/at/${n}`);
  await tileset(v.edition);
  return v;
}

async function openReplay(id, n, prefetched) {
  if (ui.gameId !== id || !ui.replay) {
    resetGameState();
    clearBoard();
  }
  ui.gameId = id;
  ui.mode = "replay";
  ui.pending = null;
  ui.hints = null;
  $("#replay-controls").hidden = false;
  try {
    const v = prefetched || await fetchAt(id, n);
    if (ui.mode !== "replay" || ui.gameId !== id) return;
    ui.view = v;
    ui.replay = { version: v.version, total: v.total };
    showError("");
    if (!ui.table) loadReplayNames(id);
    renderAll();
  } catch (e) {
    showError(e.message);
  }
}

// the names of the seats, for a replay (no socket, so no `table`)
async function loadReplayNames(id) {
  try {
    const data = await api(`/api/games?ids=${encodeURIComponent(id)}`);
    const g = (data.games || []).find((x) => x.id === id);
    if (!g || ui.gameId !== id || ui.mode !== "replay") return;
    ui.table = { seats: g.players.map((p) => ({ seat: p.seat, kind: p.kind, level: p.level, name: p.name,
      joined: null, online: null })), watchers: null };
    render();
  } catch (e) { /* names are a nicety */ }
}

function replayStep(step) {
  ui.replayQueue = ui.replayQueue.then(() => doReplayStep(step)).catch((e) => showError(e.message));
}

async function doReplayStep(step) {
  if (!ui.replay || !ui.view) return;
  const id = ui.gameId;
  const { version: cur, total } = ui.replay;
  let n;
  let v = null;
  if (step >= 1e9) n = total;
  else if (step <= -1e9) n = 0;
  else {
    // stop where a player is to move (or at either end), stepping over the draws
    const dir = step > 0 ? 1 : -1;
    n = cur + dir;
    while (n > 0 && n < total) {
      v = await fetchAt(id, n);
      if (!v.decision || v.decision.phase !== "draw") break;
      v = null;
      n += dir;
    }
    n = Math.max(0, Math.min(total, n));
  }
  // the page may have left the replay while the step was loading: then the address is not ours
  // to change (replacing it before the hashchange event fires would route back to the replay)
  if (n === cur || !ui.replay || ui.gameId !== id || !location.hash.startsWith(`#/replay/${id}/`)) return;
  history.replaceState(null, "", `#/replay/${id}/${n}`);
  await openReplay(id, n, v);
}

// ------------------------------------------------------------------ rendering: the board

function applyCamera() {
  const { x, y, k } = ui.cam;
  $("#viewport").setAttribute("transform", `translate(${x} ${y}) scale(${k})`);
  $("#overlay").setAttribute("transform", `translate(${x} ${y}) scale(${k})`);   // highlights, floating points
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
  if (TOUCH() && k < MIN_TOUCH_ZOOM) {
    // a whole board would make squares too small to tap: show what matters at a tappable size
    const focus = focusCell();
    ui.cam = { k: MIN_TOUCH_ZOOM, x: 0, y: 0 };
    ui.cam.x = box.width / 2 - (focus[0] * 100 + 50) * MIN_TOUCH_ZOOM;
    ui.cam.y = box.height / 2 - (focus[1] * 100 + 50) * MIN_TOUCH_ZOOM;
  } else {
    ui.cam = { k, x: (box.width - w * k) / 2 - b.x0 * 100 * k, y: (box.height - h * k) / 2 - b.y0 * 100 * k };
  }
  applyCamera();
}

// a square is 100 units: at this zoom a legal square (92 units) is a target of 44 px or more
const MIN_TOUCH_ZOOM = 0.5;
// when a tile waits to be confirmed on a touch screen, it is shown this large: its piece spots
// (16 units apart, tap circles of radius 8) become 45 px targets
const PENDING_TOUCH_ZOOM = 2.8;
const TOUCH = () => window.matchMedia("(pointer: coarse)").matches;

// the square a touch screen centres on: the middle of the legal squares, else the last move
function focusCell() {
  const cells = myTurn() ? legalPlacements() : [];
  if (cells.length) {
    const mx = cells.reduce((a, c) => a + c.x, 0) / cells.length, my = cells.reduce((a, c) => a + c.y, 0) / cells.length;
    const near = cells.reduce((best, c) => (Math.hypot(c.x - mx, c.y - my) < Math.hypot(best.x - mx, best.y - my) ? c : best));
    return [near.x, near.y];
  }
  const last = ui.view && ui.view.last && ui.view.last[0];
  return last ? [last.x, last.y] : [0, 0];
}

// on a touch screen, show the tile that waits for confirmation large enough to tap its spots
function zoomToPending() {
  if (!TOUCH() || !ui.pending) return;
  const box = $("#board").getBoundingClientRect();
  const k = Math.min(PENDING_TOUCH_ZOOM, box.width / 110, box.height / 110);
  ui.userCam = true;
  ui.cam = { k, x: box.width / 2 - (ui.pending.x * 100 + 50) * k, y: box.height / 2 - (ui.pending.y * 100 + 50) * k };
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
  g.innerHTML = ts.tiles[tile].svg[rotation];   // server-made SVG of the tile, no user text
  return g;
}

function clearBoard() {
  delete document.body.dataset.version;
  $("#viewport").innerHTML = "";
  $("#overlay").innerHTML = "";
  $("#choices").innerHTML = "";
  $("#hints").innerHTML = "";
  $("#log").innerHTML = "";
  $("#players tbody").innerHTML = "";
  $("#final").hidden = true;
  $("#turn").textContent = "";
  $("#tile-panel").hidden = true;
  $("#actions").hidden = true;
}

function renderAll() {
  renderLobby();
  render();
}

function render() {
  const v = ui.view;
  updateTitle();
  renderPresence();
  renderNameForm();
  if (!v) return;
  const ts = ui.tiles[v.edition];
  if (!ts) return;
  document.body.dataset.version = String(v.version);
  $("#defs").innerHTML = ts.defs;
  const vp = $("#viewport");
  vp.innerHTML = "";
  clearPreview();
  const where = {};
  for (const c of v.board) {
    where[c.tile] = c;
    const g = tileGroup(ts, c.tile, c.rotation, c.x, c.y);
    if (ui.arrived && ui.arrived.has(c.tile)) {
      // a tile another page placed just now slides in (the group's own transform places it, so
      // the animation moves an inner group)
      const inner = svgEl("g", { class: "arrive" });
      inner.append(...g.childNodes);
      g.append(inner);
      document.body.dataset.arrivals = String(Number(document.body.dataset.arrivals || 0) + 1);
    }
    vp.append(g);
  }
  // on my turn: the tiles the others placed since my last tile, framed in their colours
  if (myTurn()) {
    const mine = new Set(heldSeats());
    const since = [];
    for (let i = v.log.length - 1; i >= 0; i--) {
      const e = v.log[i];
      if (e.kind !== "TilePlaced") continue;
      if (mine.has(e.player)) break;
      since.push(e);
    }
    for (const e of since) {
      const r = svgEl("rect", { class: "since-mine", x: e.x * 100 + 6, y: e.y * 100 + 6, width: 88, height: 88,
        stroke: (v.players[e.player] && v.players[e.player].rgb) || COLOURS[e.player], "data-tile": e.tile });
      const t = svgEl("title"); t.textContent = `placed by ${who(e.player)} since your last turn`;
      r.append(t);
      vp.append(r);
    }
  }
  // last move
  for (const m of v.last || []) {
    const r = svgEl("rect", { class: "last-move", x: m.x * 100 + 3, y: m.y * 100 + 3, width: 94, height: 94 });
    const t = svgEl("title"); t.textContent = `last move: ${who(m.player)} placed tile ${m.tile}`;
    r.append(t);
    vp.append(r);
  }
  // pieces: those on one tile moved apart where their zones' anchors lie close (a hut on a lake
  // and a fisher on the river into it), so that every piece can be seen and counted
  const onTile = new Map();
  for (const o of v.occupants || []) {
    const c = where[o.tile];
    if (!c) continue;
    const a = ts.tiles[o.tile].anchors[c.rotation][o.zone];
    if (!a) continue;
    const role = o.role || (o.piece === "hut" ? "hut" : ts.tiles[o.tile].zones[o.zone].role);
    if (!onTile.has(o.tile)) onTile.set(o.tile, []);
    const placed = onTile.get(o.tile);
    const spot = { x: c.x * 100 + a[0], y: c.y * 100 + a[1] };
    clearOf(spot, placed);
    placed.push(spot);
    const piece = pieceSvg(o.player, o.piece, spot.x, spot.y, role);
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
      piece.querySelector("title").textContent +=
        ` — stuck: no tile left can complete this ${o.role === "fisher" ? "river" : "forest"}, so it will score nothing`;
    }
    vp.append(piece);
  }
  const mine = myTurn();
  const d = v.decision;
  // legal positions
  if (mine && d.phase === "place" && !ui.sentTurn && !(ui.pending && ui.pending.moves.length > 1)) {
    const now = new Set(placementsForRotation().map((p) => `${p.x},${p.y}`));
    const cells = new Set(legalPlacements().map((p) => `${p.x},${p.y}`));
    if (ui.pending) cells.delete(`${ui.pending.x},${ui.pending.y}`);
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
      // with a mouse, the tile shows where the pointer is, turned as it would be placed there
      r.addEventListener("pointerenter", (ev) => { if (ev.pointerType === "mouse") previewAt(ts, x, y); });
      r.addEventListener("pointerleave", () => clearPreview());
      vp.append(r);
    }
  }
  // hinted placements, numbered
  const hints = currentHints();
  if (mine && hints && hints.turns && !ui.pending) {
    // one mark per position: hints that put the tile on the same square share it ("1 · 3")
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
      title.textContent = items.map((h) => `hint ${h.n}: ${h.t.text}`).join("\n");
      g.append(title);
      g.append(svgEl("rect", { x: p.x * 100 + 8, y: p.y * 100 + 8, width: 84, height: 84 }));
      const tx = svgEl("text", { x: p.x * 100 + 50, y: p.y * 100 + 58,
        style: `font-size:${items.length > 2 ? 20 : items.length > 1 ? 24 : 30}px` });
      tx.textContent = items.map((h) => h.n).join(" · ");
      g.append(tx);
      g.addEventListener("click", (ev) => { ev.stopPropagation(); tryHint(best); });
      vp.append(g);
    }
  }
  // pending placement and occupant spots
  const choiceBox = $("#choices");
  choiceBox.innerHTML = "";
  if (ui.pending && mine) {
    const p = ui.pending;
    const g = tileGroup(ts, d.tile, p.rotation, p.x, p.y);
    g.setAttribute("id", "pending-tile");
    const turns = new Set(legalPlacements().filter((q) => q.x === p.x && q.y === p.y).map((q) => q.rotation));
    if (turns.size > 1 && p.moves.length === 1 && !ui.sentTurn) {
      g.classList.add("turnable");
      const t = svgEl("title"); t.textContent = "tap or click the tile to turn it"; g.append(t);
      g.addEventListener("click", (ev) => { ev.stopPropagation(); turnPending(); });
    }
    vp.append(g);
    vp.append(svgEl("rect", { class: "pending-frame", x: p.x * 100 + 1, y: p.y * 100 + 1, width: 98, height: 98 }));
    const pv = p.preview;
    if (!pv) {
      choiceBox.append(el("p", { class: "muted" }, "checking…"));
    } else {
      for (const e of pv.events || []) choiceBox.append(el("p", { class: "preview-event" }, e.text));
      if (pv.turn_over) {
        choiceBox.append(el("p", {}, "No piece can go on this tile. Confirm to end the turn, or undo."));
      } else {
        const shaman = pv.decision && pv.decision.phase === "shaman";
        choiceBox.append(el("p", {}, shaman ? "Shaman: you may take back one of your meeples." :
          "Put a piece on the tile? (choose, then confirm)"));
        const legal = (pv.legal || []).filter((m) => canon(m));
        let n = 0;
        const placed = [];   // spots drawn so far, so that no two overlap
        for (const m of legal) {
          const key = m.kind === "pass" ? "[0]" : (++n <= 9 ? `[${n}]` : "");
          const label = choiceLabel(ts, m, shaman);
          const chosen = !!p.choice && sameMove(m, p.choice);
          const b = el("button", { type: "button", ...moveAttrs(m), class: chosen ? "selected" : "",
            "aria-pressed": chosen ? "true" : "false" }, `${key} ${label}`.trim());
          b.onclick = () => choose(m);
          choiceBox.append(b);
          const spot = spotFor(ts, m, where, p, d.tile);
          if (spot) {
            clearOf(spot, placed);
            placed.push(spot);
            const sg = svgEl("g", { class: `spot${chosen ? " selected" : ""}`, ...moveAttrs(m) });
            const t = svgEl("title"); t.textContent = label; sg.append(t);
            sg.append(svgEl("circle", { class: "hit", cx: spot.x, cy: spot.y, r: SPOT_GAP / 2 }));
            sg.append(svgEl("circle", { cx: spot.x, cy: spot.y, r: 7 }));
            const tx = svgEl("text", { x: spot.x, y: spot.y + 3 });
            tx.textContent = spot.letter;
            sg.append(tx);
            sg.addEventListener("click", (ev) => { ev.stopPropagation(); choose(m); });
            vp.append(sg);
          }
        }
      }
    }
  }
  if (!ui.userCam && v.board.length) fit();
  else applyCamera();
  renderSide(ts);
  describeBoard(ts);
}

// the board in words, for screen readers: what lies there, the tile to place and where it fits
function describeBoard(ts) {
  const v = ui.view;
  const d = v.decision;
  const parts = [`Board of ${v.board.length} tile${v.board.length === 1 ? "" : "s"}.`];
  if (myTurn() && d.phase === "place" && ts.tiles[d.tile]) {
    const squares = new Set(legalPlacements().map((p) => `${p.x},${p.y}`)).size;
    const here = new Set(placementsForRotation().map((p) => `${p.x},${p.y}`)).size;
    parts.push(`Your tile: ${ts.tiles[d.tile].text}.`,
      `It fits on ${squares} square${squares === 1 ? "" : "s"}, ${here} of them as it is turned now.`,
      ui.pending ? "Placed: choose a piece or none, then confirm with Enter; U takes it back."
        : "N and P move between them, R turns the tile, Enter places it.");
  } else if (v.over) {
    parts.push("The game is over.");
  } else if (d.text) {
    parts.push(`${d.text}.`);
  }
  $("#board").setAttribute("aria-label", parts.join(" "));
}

function choiceLabel(ts, m, shaman) {
  if (m.kind === "pass") return m.text || (shaman ? "take nothing back" : "none: no piece");
  if (m.text) return m.text;
  // the server words every legal move; this is only a fallback, without ids
  if (m.kind === "takeback") return "take back this meeple";
  const zone = ui.view && ts.tiles[ui.view.decision.tile] && ts.tiles[ui.view.decision.tile].zones[m.zone];
  if (m.piece === "hut") return `hut on the ${zone ? zone.kind : "water"}`;
  return zone ? `${zone.role} on the ${zone.text}` : "meeple";
}

function spotFor(ts, m, where, p, placedTile) {
  let cell, tile;
  if (m.kind === "takeback") { tile = m.tile; cell = where[tile]; }
  else if (m.kind === "occupy") { tile = placedTile; cell = { x: p.x, y: p.y, rotation: p.rotation }; }
  else return null;
  if (!cell || !ts.tiles[tile]) return null;
  const a = ts.tiles[tile].anchors[cell.rotation][m.zone];
  if (!a) return null;
  const zone = ts.tiles[tile].zones[m.zone];
  let letter;
  if (m.kind === "takeback") letter = "✕";
  else if (m.piece === "hut") letter = ROLE_LETTER.hut;
  else letter = ROLE_LETTER[m.role || (zone && zone.role)] || "•";
  return { x: cell.x * 100 + a[0], y: cell.y * 100 + a[1], letter };
}

const SPOT_GAP = 16;   // two spots (radius 7) closer than this would overlap

// Move a spot off the spots already drawn: the nearest free place on widening rings around
// its anchor, kept inside its tile, so that every choice stays a target of its own.
export function clearOf(spot, placed) {
  const free = (x, y) => placed.every((q) => Math.hypot(q.x - x, q.y - y) >= SPOT_GAP);
  if (free(spot.x, spot.y)) return;
  const left = Math.floor(spot.x / 100) * 100, top = Math.floor(spot.y / 100) * 100;
  for (let r = SPOT_GAP; r <= 120; r += SPOT_GAP / 2) {
    const n = Math.max(8, Math.round(2 * Math.PI * r / 8));
    for (let k = 0; k < n; k++) {
      const x = spot.x + Math.round(r * Math.cos(2 * Math.PI * k / n));
      const y = spot.y + Math.round(r * Math.sin(2 * Math.PI * k / n));
      if (x < left + 8 || x > left + 92 || y < top + 8 || y > top + 92) continue;
      if (free(x, y)) { spot.x = x; spot.y = y; return; }
    }
  }
}

// ------------------------------------------------------------------ rendering: the side panel

function turnText(v) {
  const d = v.decision;
  if (v.over) return "Game over";
  if (v.replay || ui.replay) return `Replay — ${d.text}`;
  if (d.player === null || d.player === undefined) return d.text;
  const bonus = d.stack === "bonus" ? ` (${v.bonus_name})` : "";
  const s = seatInfo(d.player);
  if (s && s.kind === "bot") return `${who(d.player)}: bot ${s.level} is thinking…${bonus}`;
  if (held(d.player)) return `${who(d.player)}: your turn${bonus}`;
  if (s && s.online === false) return `waiting for ${seatName(d.player) || colourOf(d.player)} (offline)${bonus}`;
  return `${who(d.player)} is to play${bonus}`;
}

function updateTitle() {
  const mine = myTurn();
  document.title = mine ? `● Your turn — ${TITLE}` : TITLE;
  // a short chime when the turn comes to this page (if the player asked for it)
  if (mine && !ui.wasMyTurn && localStorage.getItem(SOUND_KEY) === "on") chime();
  ui.wasMyTurn = mine;
}

const SOUND_KEY = "hg-sound";

function chime() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    ui.audio = ui.audio || new Ctx();
    const ctx = ui.audio;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.35);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.35);
    document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
  } catch (e) {
    // no sound available: the tab title still says whose turn it is
  }
}

function renderPresence() {
  const w = $("#watching");
  w.hidden = !(ui.mode === "watch" || ui.mode === "play") || !isWatcher() || !!ui.fatal;
  w.textContent = ui.mode === "play" && !ui.fatal && storeEntry(ui.gameId) && storeEntry(ui.gameId).creator
    ? "watching — every seat has been handed out" : "watching — you hold no seat in this game";
}

function renderSide(ts) {
  const v = ui.view;
  const d = v.decision;
  const turn = $("#turn");
  turn.textContent = turnText(v);
  turn.dataset.player = d.player === null || d.player === undefined ? "" : String(d.player);
  turn.dataset.mine = myTurn() ? "yes" : "no";
  const mover = d.player === null || d.player === undefined || v.over ? null : v.players[d.player];
  const colour = mover ? mover.rgb || COLOURS[d.player] : "transparent";
  turn.style.borderLeft = `.5em solid ${colour}`;
  const body = $("#players tbody");
  body.innerHTML = "";
  for (const p of v.players) {
    const tr = el("tr", { class: p.seat === d.player && !v.over ? "current" : "", "data-seat": p.seat });
    const s = seatInfo(p.seat);
    const name = el("td", { class: held(p.seat) ? "me" : "" });
    name.append(el("span", { class: "swatch", style: `background:${p.rgb || COLOURS[p.seat]}` }, p.letter || LETTERS[p.seat]),
      " ", el("span", { class: "player-name" }, who(p.seat)));
    if (s && s.kind === "bot") name.append(el("span", { class: "muted" }, ` · bot ${s.level}`));
    if (held(p.seat)) name.append(" ", el("span", { class: "you" }, "you"));
    tr.append(name, el("td", { class: "score" }, String(p.score)), el("td", {}, String(p.meeples)),
      el("td", {}, String(p.huts)));
    body.append(tr);
  }
  // tile to place
  const cur = $("#current-tile");
  const mine = myTurn();
  const placing = d.phase === "place" && d.tile !== null && d.tile !== undefined && !v.over;
  $("#tile-panel").hidden = !placing && !ui.pending;
  if (placing) {
    const rot = ui.pending ? ui.pending.rotation : ui.rotation;
    cur.innerHTML = ts.defs + ts.tiles[d.tile].svg[mine ? rot : 0];
    $("#tile-text").textContent = `${d.stack === "bonus" ? `A ${v.bonus_name}` : "The tile"}: ${ts.tiles[d.tile].text}`;
  } else {
    cur.innerHTML = "";
    $("#tile-text").textContent = "";
  }
  const canRotate = mine && d.phase === "place" && !ui.pending;
  for (const id of ["#rotate-cw", "#rotate-ccw", "#next-spot"]) {
    $(id).disabled = !canRotate;
    $(id).hidden = !mine;
  }
  if (canRotate && !placementsForRotation().length) {
    $("#tile-text").textContent += " — no position for this rotation; turn the tile";
  }
  $("#actions").hidden = !mine;
  $("#confirm").disabled = !canConfirm();
  $("#undo").disabled = !ui.pending || !!ui.sentTurn;
  renderHints();
  const left = v.remaining ? v.remaining.length : 0;
  $("#remaining-count").textContent = `${left} tile${left === 1 ? "" : "s"} left`;
  $("#menhir-count").textContent = `${v.bonus_left ?? 0} ${v.bonus_name}s left`;
  const deal = [];
  if (v.deal === "seeded") deal.push("seeded deal");
  if (v.seed !== null && v.seed !== undefined) deal.push(`seed ${v.seed}`);
  $("#deal").textContent = deal.length ? ` · ${deal.join(", ")}` : "";
  const list = $("#remaining-list");
  list.hidden = !$("#show-remaining").checked;
  if (!list.hidden) {
    list.innerHTML = "";
    for (const t of v.remaining || []) {
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
  let n = 0;
  for (const e of v.log) {
    if (e.kind === "TileDrawn") continue;
    const li = el("li", { class: /^[A-Za-z]+$/.test(e.kind || "") ? e.kind : "" });
    li.append(el("span", { class: "n", "aria-hidden": "true" }, `${++n}.`), el("span", { class: "text" }, e.text));
    if (e.kind === "FeatureScored") hoverable(li, e.tiles);
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
    for (const p of v.players) {
      const th = el("th", { class: "num", title: who(p.seat) }, p.letter || LETTERS[p.seat]);
      head.append(th);
    }
    table.append(head);
    // what was scored during play, so that every column adds up to its total
    const during = v.final.scores.map((total, i) => total - v.final.rows.reduce((sum, r) => sum + (r.points[i] || 0), 0));
    const first = el("tr", { class: "row-play" });
    first.append(el("td", {}, "Points scored during play"));
    for (const pts of during) first.append(el("td", { class: "num" }, String(pts)));
    table.append(first);
    for (const row of v.final.rows) {
      const tr = el("tr", { class: `row-${row.kind}` });
      tr.append(el("td", {}, row.explanation));
      for (const pts of row.points) tr.append(el("td", { class: "num" }, String(pts)));
      hoverable(tr, row.tiles);
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
    $("#replay-pos").textContent = `move ${ui.replay.version} / ${ui.replay.total}`;
  }
}

// ------------------------------------------------------------------ the lobby (the table)

function inviteLink(seat) {
  const entry = storeEntry(ui.gameId);
  const secret = entry && entry.seats[String(seat)];
  return secret ? `${location.origin}${location.pathname}#/play/${ui.gameId}/${secret}` : null;
}

function watchLink() {
  return `${location.origin}${location.pathname}#/watch/${ui.gameId}`;
}

async function copyText(text, input) {
  if (input) { input.focus(); input.select(); }
  let ok = false;
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await Promise.race([navigator.clipboard.writeText(text),
        new Promise((resolve, reject) => setTimeout(() => reject(new Error("timeout")), 1500))]);
      ok = true;
    } catch (e) {
      ok = false;
    }
  }
  if (!ok && input) {
    // the fallback: the link is selected in its box, ready for Ctrl+C
    input.focus();
    input.select();
  }
  return ok;
}

function linkRow(cls, link, label) {
  const row = el("div", { class: cls });
  const input = el("input", { type: "text", readonly: "", value: link, "aria-label": label, spellcheck: "false" });
  input.addEventListener("focus", () => input.select());
  const copy = el("button", { type: "button", class: "copy-link" }, "Copy");
  copy.onclick = async () => {
    const ok = await copyText(link, input);
    copy.textContent = ok ? "Copied ✓" : "Press Ctrl+C";
    setTimeout(() => { copy.textContent = "Copy"; }, 2500);
  };
  row.append(input, copy);
  return row;
}

async function handOut(seat) {
  const link = inviteLink(seat);
  if (!link) return;
  updateEntry(ui.gameId, (e) => { if (!e.handed.includes(seat)) e.handed.push(seat); });
  // this page stops playing the seat at once; a new socket tells the server
  ui.me = { ...ui.me, seats: ui.me.seats.filter((s) => s !== seat) };
  if (ui.pending && ui.view && ui.view.decision.player === seat) ui.pending = null;
  ui.lobbyNote = { seat, text: "" };
  reconnect();
  renderAll();
  const input = document.querySelector(`#lobby li[data-seat='${seat}'] .invite-link input`);
  const ok = await copyText(link, input);
  ui.lobbyNote = { seat, text: ok ? "Link copied: send it to the player of this seat."
    : "Copy this link (selected) and send it to the player of this seat." };
  const note = document.querySelector(`#lobby li[data-seat='${seat}'] .lobby-note`);
  if (note) note.textContent = ui.lobbyNote.text;
}

function seatToBot(seat, level, select) {
  const s = seatInfo(seat);
  if (!held(seat) && s && s.joined) {
    const n = s.name || colourOf(seat);
    if (!confirm(`Give ${n}'s seat to a bot (${level})? ${n} will no longer be able to play it.`)) {
      select.value = "";
      return;
    }
  }
  send({ type: "seat", seat, kind: "bot", level });
  select.value = "";
}

function renderLobby() {
  const box = $("#lobby");
  const t = ui.table;
  box.hidden = !t || !!ui.replay || ui.mode === "replay" || !!ui.fatal;
  if (box.hidden) return;
  const list = $("#lobby-seats");
  // keep the focus of a link box or a select across the re-render
  const focused = document.activeElement && list.contains(document.activeElement) ? document.activeElement : null;
  const focusKey = focused ? `${focused.closest("li") && focused.closest("li").dataset.seat}|${focused.className}|${focused.tagName}` : null;
  list.innerHTML = "";
  const entry = storeEntry(ui.gameId) || normalEntry({});
  const creator = ui.me.creator && ui.mode === "play";
  for (const s of t.seats) {
    const i = s.seat;
    const li = el("li", { "data-seat": i, class: held(i) ? "mine" : "" });
    const line = el("div", { class: "seat-line" });
    line.append(swatch(i), " ", el("span", { class: "name" }, s.name || colourOf(i)));
    if (s.name) line.append(" ", el("span", { class: "muted colour" }, `(${colourOf(i)})`));
    line.append(" ", el("span", { class: "kind" }, s.kind === "bot" ? `bot ${s.level}` : "person"));
    const online = !!s.online;
    const word = s.kind === "bot" ? "online" : online ? "online" : s.joined ? "offline" : "not joined yet";
    const pres = el("span", { class: `presence ${online ? "online" : "offline"}` });
    pres.append(el("span", { class: "dot", "aria-hidden": "true" }), word);
    line.append(" ", pres);
    if (held(i)) line.append(" ", el("span", { class: "you" }, "you"));
    li.append(line);
    const secret = entry.seats[String(i)];
    if (s.kind === "human" && secret && !held(i) && ui.mode === "play") {
      li.append(linkRow("invite-link", inviteLink(i), `invitation link for ${NAMES[i]}`));
    }
    const tools = el("div", { class: "seat-tools" });
    const over = !!(ui.view && ui.view.over);
    if (creator && s.kind === "human" && secret && held(i) && !over) {
      const b = el("button", { type: "button", class: "hand-out",
        title: "copy this seat's invitation link and stop playing it on this page" }, "Hand out");
      b.onclick = () => handOut(i);
      tools.append(b);
    }
    if (creator && s.kind === "human" && !over) {
      const sel = el("select", { class: "seat-bot", "aria-label": `give ${NAMES[i]}'s seat to a bot` });
      sel.append(el("option", { value: "" }, "give to a bot…"));
      for (const level of (ui.meta && ui.meta.bot_levels) || []) sel.append(el("option", { value: level }, `bot: ${level}`));
      sel.onchange = () => { if (sel.value) seatToBot(i, sel.value, sel); };
      tools.append(sel);
    }
    if (creator && s.kind === "bot" && !over) {
      const b = el("button", { type: "button", class: "make-person" }, "Make it a person seat");
      b.onclick = () => send({ type: "seat", seat: i, kind: "human" });
      tools.append(b);
    }
    if (tools.childNodes.length) li.append(tools);
    const note = el("div", { class: "lobby-note muted", "aria-live": "polite" });
    if (ui.lobbyNote && ui.lobbyNote.seat === i) note.textContent = ui.lobbyNote.text;
    li.append(note);
    list.append(li);
  }
  const n = t.watchers || 0;
  $("#lobby-watchers").textContent = `${n} watcher${n === 1 ? "" : "s"}`;
  $("#lobby-watchers").dataset.count = String(n);
  const share = $("#watch-share");
  share.innerHTML = "";
  share.append(el("span", { class: "muted" }, "Link for watchers:"), linkRow("watch-link", watchLink(), "link for watchers"));
  if (focusKey) {
    for (const c of list.querySelectorAll("input, select, button")) {
      const k = `${c.closest("li") && c.closest("li").dataset.seat}|${c.className}|${c.tagName}`;
      if (k === focusKey) { c.focus(); break; }
    }
  }
}

// ------------------------------------------------------------------ names

function renderNameForm() {
  const form = $("#name-form");
  const unnamed = ui.view && !ui.view.over && ui.table ? heldSeats().filter((s) => !seatName(s)) : [];
  const key = unnamed.join(",");
  form.hidden = !unnamed.length || ui.nameSkipped === `${ui.gameId}|${key}`;
  if (key === ui.nameKey) return;
  ui.nameKey = key;
  const fields = $("#name-fields");
  fields.innerHTML = "";
  if (!unnamed.length) return;
  const taken = new Set(((ui.table && ui.table.seats) || []).map((s) => s.name).filter(Boolean));
  const mine = myName();
  $("#name-title").textContent = unnamed.length === 1 && heldSeats().length === 1 ? "Your name" : "Names of your seats";
  unnamed.forEach((seat, k) => {
    const label = el("label", { class: "name-field" });
    const input = el("input", { type: "text", maxlength: MAX_NAME, class: "name-input", "data-seat": seat,
      autocomplete: "nickname", spellcheck: "false", "aria-label": `name for ${NAMES[seat]}` });
    if (k === 0) input.id = "name-input";
    if (k === 0 && mine && !taken.has(mine)) input.value = mine;
    label.append(swatch(seat), " ", input);
    fields.append(label);
  });
}

function submitNames(ev) {
  ev.preventDefault();
  const inputs = [...document.querySelectorAll("#name-fields input.name-input")];
  let sent = 0;
  for (const input of inputs) {
    const name = input.value.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, MAX_NAME);
    const seat = parseInt(input.dataset.seat, 10);
    if (!name || !held(seat)) continue;
    if (send({ type: "name", seat, name })) sent += 1;
    if (inputs.length === 1 || input.id === "name-input") setMyName(name);
  }
  if (!sent) showError("type a name (1 to 24 characters) first");
}

// ------------------------------------------------------------------ input

function setupBoardInput() {
  const svg = $("#board");
  // pointers down on the board: one drags the view, two pinch it (zoom about their midpoint)
  const down = new Map();
  let drag = null, pinch = null;
  const local = (ev) => { const box = svg.getBoundingClientRect(); return [ev.clientX - box.left, ev.clientY - box.top]; };
  const startPinch = () => {
    const [a, b] = [...down.values()];
    pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, mx: (a[0] + b[0]) / 2, my: (a[1] + b[1]) / 2 };
    drag = null;
  };
  svg.addEventListener("pointerdown", (ev) => {
    if (ev.target.closest(".target, .spot, .hint-spot, #pending-tile") && !down.size) return;
    down.set(ev.pointerId, local(ev));
    svg.setPointerCapture(ev.pointerId);
    if (down.size === 2) startPinch();
    else if (down.size === 1) drag = { x: ev.clientX, y: ev.clientY, cx: ui.cam.x, cy: ui.cam.y };
    svg.classList.add("dragging");
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!down.has(ev.pointerId)) return;
    down.set(ev.pointerId, local(ev));
    if (pinch && down.size >= 2) {
      const [a, b] = [...down.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
      const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
      ui.cam.x += mx - pinch.mx;   // the fingers' midpoint carries the board along
      ui.cam.y += my - pinch.my;
      zoom(d / pinch.d, mx, my);
      pinch = { d, mx, my };
      return;
    }
    if (!drag) return;
    ui.cam.x = drag.cx + ev.clientX - drag.x;
    ui.cam.y = drag.cy + ev.clientY - drag.y;
    if (Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) > 3) ui.userCam = true;
    applyCamera();
  });
  const end = (ev) => {
    down.delete(ev.pointerId);
    if (down.size < 2) pinch = null;
    if (down.size === 1) {   // one finger stays: it drags on from here
      const [p] = [...down.values()];
      const box = svg.getBoundingClientRect();
      drag = { x: p[0] + box.left, y: p[1] + box.top, cx: ui.cam.x, cy: ui.cam.y };
    }
    if (!down.size) { drag = null; svg.classList.remove("dragging"); }
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
  $("#zoom-fit").onclick = () => { ui.userCam = false; if (ui.view) fit(); };
  $("#sheet-toggle").onclick = () => {
    const side = $("#side");
    const open = side.classList.toggle("expanded");
    $("#sheet-toggle").setAttribute("aria-expanded", String(open));
    $("#sheet-toggle").textContent = open ? "Back to the board ▼" : "Scores, log and tiles ▲";
  };
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
      const legal = (ui.pending.preview.legal || []).filter((m) => canon(m));
      const m = k === "0" ? legal.find((x) => x.kind === "pass")
        : legal.filter((x) => x.kind !== "pass")[parseInt(k, 10) - 1];
      if (m) choose(m);
    } else if (k === "+" || k === "=") zoom(1.25);
    else if (k === "-") zoom(0.8);
    else if (k === "f" || k === "F") { ui.userCam = false; if (ui.view) fit(); }
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
  for (const c of ui.meta.colours || []) {
    COLOURS.push(c.rgb);
    LETTERS.push(c.letter);
    NAMES.push(c.name);
  }
  setupNewForm();
  setupBoardInput();
  setupKeys();
  $("#rotate-cw").onclick = () => rotate(1);
  $("#rotate-ccw").onclick = () => rotate(-1);
  $("#next-spot").onclick = () => cycleSpot(1);
  $("#confirm").onclick = () => confirmTurn();
  $("#undo").onclick = () => undo();
  $("#hint").onclick = () => requestHint();
  for (const b of document.querySelectorAll("#rules-editions button")) b.onclick = () => showRules(b.dataset.edition);
  $("#sound").checked = localStorage.getItem(SOUND_KEY) === "on";
  applyAnimation();
  $("#animation").onchange = () => { localStorage.setItem(ANIM_KEY, $("#animation").value); applyAnimation(); };
  $("#sound").onchange = () => localStorage.setItem(SOUND_KEY, $("#sound").checked ? "on" : "off");
  $("#name-form").onsubmit = submitNames;
  $("#name-skip").onclick = () => {
    ui.nameSkipped = `${ui.gameId}|${ui.nameKey}`;
    $("#name-form").hidden = true;
  };
  $("#show-remaining").checked = localStorage.getItem("hg-show-remaining") === "1";
  $("#show-remaining").onchange = () => {
    try { localStorage.setItem("hg-show-remaining", $("#show-remaining").checked ? "1" : "0"); } catch (e) { /* ignore */ }
    render();
  };
  $("#replay-start").onclick = () => replayStep(-1e9);
  $("#replay-back").onclick = () => replayStep(-1);
  $("#replay-fwd").onclick = () => replayStep(1);
  $("#replay-end").onclick = () => replayStep(1e9);
  window.addEventListener("hashchange", () => { route(); });
  window.addEventListener("resize", () => { if (ui.view && !ui.userCam) fit(); });
  // another tab of this browser changed the saved games (a seat handed out there, a game deleted)
  window.addEventListener("storage", (ev) => {
    if (ev.key === STORE_KEY && !$("#screen-games").hidden) showGames();
  });
  document.body.dataset.ready = "1";
  await route();
}

main().catch((e) => {
  const p = document.createElement("p");
  p.className = "error";
  p.textContent = `The page could not start: ${e.message}`;
  document.body.prepend(p);
});
