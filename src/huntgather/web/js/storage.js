// What this browser remembers of its games (localStorage): the seat secrets it holds, the
// creator's secret, the seats handed out, and the player's name.  Every function reads and
// writes the browser's storage afresh: this module keeps nothing in memory.

export const STORE_KEY = "hg-games";
const NAME_KEY = "hg-name";
const NAME_ASKED_KEY = "hg-name-asked";
export const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const SECRET_RE = /^[A-Za-z0-9_-]{8,128}$/;
export const MAX_NAME = 24;

function readJSON(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key));
    return v === null || v === undefined ? fallback : v;
  } catch (e) {
    return fallback;
  }
}

export function loadStore() {
  const all = readJSON(STORE_KEY, {});
  return all && typeof all === "object" && !Array.isArray(all) ? all : {};
}

export function saveStore(all) {
  try { localStorage.setItem(STORE_KEY, JSON.stringify(all)); } catch (e) { /* storage full or disabled */ }
}

// a game this page just created (the answer of POST /api/games): keep its secrets, then open it
export function openCreatedGame(res) {
  if (!res || !ID_RE.test(res.id)) throw new Error("the server answered without a game id");
  const all = loadStore();
  all[res.id] = { creator: res.creator, seats: { ...(res.seats || {}) }, handed: [], created: Date.now() };
  saveStore(all);
  location.hash = `#/play/${res.id}`;
}

export function normalEntry(e) {
  const out = e && typeof e === "object" ? e : {};
  if (!out.seats || typeof out.seats !== "object" || Array.isArray(out.seats)) out.seats = {};
  if (!Array.isArray(out.handed)) out.handed = [];
  if (!Array.isArray(out.unplaced)) delete out.unplaced;
  if (typeof out.created !== "number") out.created = Date.now();
  return out;
}

export function storeEntry(id) {
  const all = loadStore();
  return all[id] ? normalEntry(all[id]) : null;
}

export function updateEntry(id, fn) {
  const all = loadStore();
  const e = normalEntry(all[id]);
  fn(e);
  all[id] = e;
  saveStore(all);
  return e;
}

export function forgetEntry(id) {
  const all = loadStore();
  delete all[id];
  saveStore(all);
}

export function myName() {
  const n = localStorage.getItem(NAME_KEY);
  return n ? n.slice(0, MAX_NAME) : "";
}

export function setMyName(n) {
  try { localStorage.setItem(NAME_KEY, n); } catch (e) { /* ignore */ }
}

// whether this browser has asked the player's name once (the name form opens by itself only then)
export const nameAsked = () => localStorage.getItem(NAME_ASKED_KEY) === "1";

export function setNameAsked() {
  try { localStorage.setItem(NAME_ASKED_KEY, "1"); } catch (e) { /* ignore */ }
}

// the seat secrets this page plays with (handed-out seats excluded), in seat order
export function playSecrets(entry) {
  if (!entry) return [];
  const out = [];
  for (const [seat, secret] of Object.entries(entry.seats).sort((a, b) => +a[0] - +b[0])) {
    if (!entry.handed.includes(+seat) && typeof secret === "string") out.push(secret);
  }
  for (const s of entry.unplaced || []) if (!out.includes(s)) out.push(s);
  return out;
}

// an invite link: remember its secret(s) for the game; the seat is known after `welcome`
export function takeInvite(id, text) {
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

// keep the game in this browser's list; place the secrets of an invite link on their seats
// (`seats`: the seats the server says this page holds)
export function rememberGame(id, mode, seats) {
  updateEntry(id, (e) => {
    if (mode !== "play" || !e.unplaced || !e.unplaced.length) return;
    const known = new Set(Object.keys(e.seats).map(Number));
    const fresh = seats.filter((s) => !known.has(s)).sort((a, b) => a - b);
    if (fresh.length === e.unplaced.length) {
      fresh.forEach((seat, k) => { e.seats[String(seat)] = e.unplaced[k]; });
      delete e.unplaced;
    }
  });
}

// secrets the server refused (`welcome`'s `refused`): they hold nothing in this game, so they go
// (from the seats, the links not yet placed, the creator's), and every other secret stays
export function forgetSecrets(id, secrets) {
  const gone = new Set(secrets);
  const entry = storeEntry(id);
  if (!entry) return;
  updateEntry(id, (e) => {
    for (const [seat, secret] of Object.entries(e.seats)) {
      if (gone.has(secret)) {
        delete e.seats[seat];
        e.handed = e.handed.filter((h) => String(h) !== seat);
      }
    }
    if (e.unplaced) e.unplaced = e.unplaced.filter((u) => !gone.has(u));
    if (e.creator && gone.has(e.creator)) delete e.creator;
  });
}

// seats handed to a bot: their secrets no longer work, so they must not go into the next hello
export function pruneBotSecrets(id, table) {
  if (!table || !Array.isArray(table.seats)) return;
  const bots = table.seats.filter((s) => s.kind !== "human").map((s) => String(s.seat));
  const entry = storeEntry(id);
  if (!entry || !bots.some((s) => s in entry.seats)) return;
  updateEntry(id, (e) => {
    for (const s of bots) {
      delete e.seats[s];
      e.handed = e.handed.filter((h) => String(h) !== s);
    }
  });
}
