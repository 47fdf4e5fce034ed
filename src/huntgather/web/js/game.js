// The game as this page knows it: the reducer that applies the server's messages (snapshot,
// update, table, …) and the page's own steps of a turn (placing, choosing a piece, …), and the
// selectors that answer questions about it (whose turn, where the tile fits, …).
// Pure functions: nothing here touches the page or the network.

import { say, t } from "./i18n.js";
import { colourName, levelName } from "./terms.js";

// ------------------------------------------------------------------ moves (structured)

// the canonical form of a MOVE: only the fields that make the move, in a fixed order
export function canon(m) {
  if (!m || typeof m !== "object") return null;
  switch (m.kind) {
    case "place": return { kind: "place", x: m.x, y: m.y, rotation: m.rotation };
    case "occupy": return { kind: "occupy", zone: m.zone, piece: m.piece };
    case "takeback": return { kind: "takeback", tile: m.tile, zone: m.zone };
    case "choose": return { kind: "choose", option: m.option };
    case "pass": return { kind: "pass" };
    default: return null;
  }
}

export function sameMove(a, b) {
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

// ------------------------------------------------------------------ the state

function session(gameId = null, mode = null) {
  return {
    gameId,
    mode,            // "play" | "watch" | "replay" | null
    view: null,      // the game as last seen: a snapshot with the updates applied
    table: null,     // the latest `table` message (seats, names, who is online, watchers)
    me: { seats: [], creator: false },   // from `welcome`: the seats this page holds
    fatal: null,     // an error code that ended the connection (unknown_game, deleted, bad_secret)
    connection: null,   // "online" | "offline" | "reconnecting" (connection.js); null without a socket
    replay: null,    // {version, total} in a replay
    rotation: 0,     // how the tile to place is turned
    selected: null,  // [x, y]: the legal square chosen with the keyboard
    pending: null,   // {moves, x, y, rotation, request, preview, choice, suggest}: a turn not yet sent
    sentTurn: null,  // the request id of a turn sent and not yet answered
    hints: null,     // {key, request, turns} (turns null while the bot thinks)
    change: null,    // the last update, for what it shows once: {seq, arrived, landed, returned, scored}
  };
}

export function initialState() {
  // `changes` counts the updates applied, across games: a view shows each one's news once
  // `review`: the last post-game review loaded, {gameId, review} (review.js; kept across opens:
  // the replay of the reviewed game is another open of it)
  return { meta: null, tiles: {}, changes: 0, review: null, ...session() };
}

// ------------------------------------------------------------------ selectors

export const seatInfo = (s, i) =>
  (s.table && Array.isArray(s.table.seats) && s.table.seats.find((x) => x.seat === i)) || null;

export function seatName(s, i) {
  const info = seatInfo(s, i);
  return info && info.name ? info.name : null;
}

export function colourOf(s, i) {      // "yellow", in the page's language ("žlutý")
  const p = s.view && s.view.players && s.view.players[i];
  return colourName((p && p.colour) || s.meta.colours[i].name);
}

export function rgbOf(s, i) {
  const p = s.view && s.view.players && s.view.players[i];
  return (p && p.rgb) || s.meta.colours[i].rgb;
}

export function letterOf(s, i) {
  const p = s.view && s.view.players && s.view.players[i];
  return (p && p.letter) || s.meta.colours[i].letter;
}

export function who(s, i) {           // "Ann (yellow)" or "yellow"
  const n = seatName(s, i);
  return n ? `${n} (${colourOf(s, i)})` : colourOf(s, i);
}

// every seat's name as the page shows it, one string: what the page's words of a game depend on
// besides the game itself and the language (a page redraws them when it changes)
export const seatNames = (s) => s.view.players.map((_, i) => who(s, i)).join("\n");

export const seatLabel = (s, i) => `${letterOf(s, i)} ${who(s, i)}`;   // "Y Ann (yellow)"

// who plays a seat, in words ("person", "bot easy", "outside bot"), from a table's seat or a summary's player
export function kindWords(seat) {
  if (seat.kind === "bot") return t("seat.bot", { level: levelName(seat.level) });
  return seat.kind === "remote" ? t("seat.remote") : t("seat.person");
}

// the server's words (`say`: a key of the catalogues and its parameters) in the page's language,
// each player named as the page names the seat ("Ann (yellow)"); `text` (English) where a message
// has no `say` (a server older than this page)
export const sayWords = (s, phrase, text = "") => (phrase ? say(phrase, (i) => who(s, i)) : text);

// a log line in the page's language, with what the server says of it (where on the tile a piece
// went, a scoring's arithmetic)
export const logWords = (s, e) => sayWords(s, e.say, e.text || e.kind);

// a final-scoring row (a river system's huts, a meadow's hunters) in the page's language, with its arithmetic
export const rowWords = (s, row) => sayWords(s, row.say, row.explanation);

// whether this page plays seat i now
export function held(s, i) {
  if (s.mode !== "play" || s.fatal) return false;
  if (!s.me.seats.includes(i)) return false;
  const info = seatInfo(s, i);
  return !info || info.kind === "human";
}

// what the Table can say of a seat's presence: "online", "offline", "not-joined" (a person seat whose
// link nobody has opened yet), or "unknown" (this page is not connected, so it cannot know)
export function presence(s, info) {
  if (!info) return "unknown";
  if (info.kind === "bot") return "online";
  if (s.mode !== "replay" && s.connection !== "online") return "unknown";
  if (info.online) return "online";
  return info.joined ? "offline" : "not-joined";
}

export const heldSeats = (s) => s.me.seats.filter((i) => held(s, i));

export const isWatcher = (s) => !s.replay && !!s.view && heldSeats(s).length === 0;

export function myTurn(s) {
  const v = s.view;
  if (!v || v.over || v.replay || s.replay || !v.decision) return false;
  if (s.table && s.table.lobby) return false;   // a public game waiting for its players: no move yet
  const p = v.decision.player;
  return p !== null && p !== undefined && held(s, p);
}

// whether this page plays alone against bots: it holds one person seat and bots hold every other
// (an outside bot counts as a person)
export function againstBots(s) {
  const mine = heldSeats(s);
  if (mine.length !== 1 || !s.table || !Array.isArray(s.table.seats)) return false;
  return s.table.seats.every((x) => (x.seat === mine[0] ? x.kind === "human" : x.kind === "bot"));
}

// whether the game is rated (its snapshot and its table say so): no hints and no take-backs there
export function isRated(s) {
  return !!((s.view && s.view.rated) || (s.table && s.table.rated));
}

// whether this page may take its last whole turn back (the server's `undo`): against bots alone,
// once it has placed a tile, while the game is on and no turn of its is on the way
export function canUndoTurn(s) {
  const v = s.view;
  if (!v || v.over || v.replay || s.replay || s.sentTurn || !againstBots(s) || isRated(s)) return false;
  const me = heldSeats(s)[0];
  return Array.isArray(v.log) && v.log.some((e) => e && e.kind === "TilePlaced" && e.player === me);
}

export function legalPlacements(s) {
  const v = s.view;
  if (!v || !v.decision || v.decision.phase !== "place" || !Array.isArray(v.legal)) return [];
  return v.legal.filter((m) => m && m.kind === "place");
}

export const placementsForRotation = (s) => legalPlacements(s).filter((p) => p.rotation === s.rotation);

// the legal placement at (x, y) in the first rotation, from `from` on clockwise, that fits there
export function placementAt(s, x, y, from) {
  const here = legalPlacements(s).filter((q) => q.x === x && q.y === y);
  for (let k = 0; k < 4; k++) {
    const p = here.find((q) => q.rotation === (from + k) % 4);
    if (p) return p;
  }
  return null;
}

export function canConfirm(s) {
  const pend = s.pending;
  if (!pend || !pend.preview || s.sentTurn) return false;
  return !!pend.preview.turn_over || (pend.preview.decision && pend.preview.decision.phase === "occupy");
}

export const hintKey = (s) => `${s.view ? s.view.version : ""}|${JSON.stringify(s.pending ? s.pending.moves : [])}`;

export function currentHints(s) {
  return s.hints && s.view && s.hints.key === hintKey(s) ? s.hints : null;
}

// a choice of the turn in words (the server words every legal move but a placement)
export const choiceLabel = (s, m) => sayWords(s, m.say, m.text || m.kind);

// ------------------------------------------------------------------ the reducer

// a new view (snapshot, update or replay step): what belonged to the old position goes
function afterView(s, view) {
  const old = s.view;
  const out = { ...s, view };
  if (!old || old.version !== view.version) {
    out.pending = null;
    out.selected = null;
    out.sentTurn = null;
  }
  if (!old || !old.decision || !view.decision || old.decision.tile !== view.decision.tile) out.rotation = 0;
  return out;
}

// the pieces an update sends home (scored features, the shaman's take-back), as they stood:
// on the board before it, or put down in the same update
function leavingPieces(occupants, events) {
  const out = [];
  for (const e of events) {
    const gone = e.kind === "OccupantsReturned" ? e.returned || []
      : e.kind === "MeepleTakenBack" ? [e] : [];
    for (const r of gone) {
      const same = (q) => q.tile === r.tile && q.zone === r.zone;
      const o = occupants.find(same) || events.find((q) => q.kind === "OccupantPlaced" && same(q));
      if (o) out.push({ player: o.player, tile: o.tile, zone: o.zone, piece: o.piece, role: o.role });
    }
  }
  return out;
}

// the keys an `update` replaces whole in the view (the board and the log only grow): the server's
// messages.UPDATE_KEYS, which tests/test_protocol_declarations.py checks this list against
export const UPDATE_KEYS = ["players", "occupants", "remaining", "bonus_left", "decision", "legal", "last",
  "over", "final", "seed", "projection"];

// apply an `update` from the server to the view (the caller checked that it follows on)
function applyUpdate(s, u, animate) {
  const v = s.view;
  const events = u.events || [];
  // tiles placed by others (not the one this page just confirmed) are animated, unless off
  const own = s.sentTurn !== null && s.pending ? s.pending.moves[0] : null;
  const landed = (u.placed || []).filter((c) => !own || c.x !== own.x || c.y !== own.y);
  const arrived = animate ? new Set(landed.map((c) => c.tile)) : new Set();
  const returned = animate ? leavingPieces(v.occupants || [], events) : [];
  const next = { ...v, board: v.board.concat(u.placed || []), log: v.log.concat(events) };
  for (const k of UPDATE_KEYS) {
    if (k in u) next[k] = u[k];
  }
  next.version = u.version;
  const seq = s.changes + 1;
  return { ...afterView(s, next), changes: seq, change: { seq, arrived, landed, returned, scored: events } };
}

function errorState(s, a) {
  const out = { ...s };
  const req = a.request;
  const mine = req !== undefined && req !== null;
  if (mine && s.pending && req === s.pending.request) out.pending = null;
  if (mine && s.hints && req === s.hints.request) out.hints = null;
  if (mine && req === s.sentTurn) out.sentTurn = null;
  if (a.code === "stale") {
    out.pending = null;
    out.hints = null;
    out.sentTurn = null;
  }
  return out;
}

function withPending(s, fields) {
  return s.pending ? { ...s, pending: { ...s.pending, ...fields } } : s;
}

export function reduce(s, a) {
  switch (a.type) {
    // --- the page
    case "meta": return { ...s, meta: a.meta };
    case "tiles": return { ...s, tiles: { ...s.tiles, [a.edition]: a.tiles } };
    case "review": return { ...s, review: { gameId: a.gameId, review: a.review } };
    case "open": return { ...s, ...session(a.gameId, a.mode) };     // a game (or its replay) from scratch
    case "leave": return { ...s, mode: null, replay: null };
    // --- the server's messages
    case "welcome":
      return { ...s, me: { seats: Array.isArray(a.seats) ? a.seats : [], creator: !!a.creator }, fatal: null };
    case "table": return { ...s, table: a.table };
    case "connection": {
      if (a.state === "online") return { ...s, connection: a.state };
      // the answers to a turn or a hint sent on the lost socket will not come: the update (or not)
      // after reconnecting tells whether the turn counted; a hint can be asked again
      const lost = !!s.sentTurn;
      return { ...s, connection: a.state, sentTurn: null, pending: lost ? null : s.pending,
        hints: s.hints && !s.hints.turns ? null : s.hints };
    }
    case "snapshot": {
      const v = { ...a.view };
      if (!Array.isArray(v.board)) v.board = [];
      if (!Array.isArray(v.log)) v.log = [];
      return { ...afterView(s, v), change: null };
    }
    case "update": return applyUpdate(s, a.update, a.animate);
    case "ack": return a.request === s.sentTurn ? { ...s, sentTurn: null } : s;
    case "preview":
      return s.pending && a.preview.request === s.pending.request ? withPending(s, { preview: a.preview }) : s;
    case "hint":
      return s.hints && a.request === s.hints.request ? { ...s, hints: { ...s.hints, turns: a.turns } } : s;
    case "error": return errorState(s, a);
    case "fatal": return { ...s, fatal: a.code, pending: null };
    case "replay":   // a position of a replay
      return { ...afterView(s, a.view), mode: "replay", replay: { version: a.view.version, total: a.view.total },
        pending: null, hints: null, change: null };
    // --- the page's steps of a turn
    case "rotate": return { ...s, rotation: a.rotation, selected: a.selected };
    case "place":    // the tile put on a square (not yet sent): a preview is asked for
      return { ...s, rotation: a.placement.rotation, selected: [a.placement.x, a.placement.y],
        pending: { moves: [canon(a.placement)], x: a.placement.x, y: a.placement.y,
          rotation: a.placement.rotation, request: a.request, preview: null, choice: null, suggest: a.suggest || null } };
    case "moves":    // a shaman's take-back added: a new preview is asked for
      return withPending(s, { moves: a.moves, request: a.request, preview: null, choice: null });
    case "choose": return withPending(s, { choice: canon(a.move) });
    case "suggest": return withPending(s, { suggest: a.moves });
    case "undo": return { ...s, pending: null };
    case "sent": return { ...s, sentTurn: a.request };
    case "ask-hint": return { ...s, hints: { key: a.key, request: a.request, turns: null } };
    case "hand-out":  // this page stops playing a seat at once (a new socket tells the server)
      return { ...s, me: { ...s.me, seats: s.me.seats.filter((i) => i !== a.seat) },
        pending: s.pending && s.view && s.view.decision.player === a.seat ? null : s.pending };
    default: return s;
  }
}
