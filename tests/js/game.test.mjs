// game.js: the reducer that applies the server's messages and the page's steps of a turn to the
// view, and the selectors (whose turn, where the tile fits, a seat in words).
import { read } from "./english.mjs";
import { useCatalogue } from "../../src/huntgather/web/js/i18n.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  canConfirm, canon, choiceLabel, currentHints, hintKey, held, initialState, isWatcher, kindWords, myTurn,
  placementAt, presence, reduce, sameMove, seatLabel, who,
} from "../../src/huntgather/web/js/game.js";

const META = {
  colours: [
    { name: "yellow", rgb: "#fc0", letter: "Y" },
    { name: "red", rgb: "#c00", letter: "R" },
  ],
};

// what the server's snapshot says of a position: player 0 to place tile 7
function snapshotView(over = {}) {
  return {
    edition: "2002", version: 3, players: [{ seat: 0, score: 0 }, { seat: 1, score: 4 }],
    board: [{ tile: 1, x: 0, y: 0, rotation: 0 }], log: [{ kind: "TileDrawn", text: "drawn" }],
    occupants: [{ player: 1, tile: 1, zone: 2, piece: "meeple", role: "hunter" }],
    decision: { player: 0, phase: "place", tile: 7 },
    legal: [
      { kind: "place", x: 1, y: 0, rotation: 0 }, { kind: "place", x: 1, y: 0, rotation: 2 },
      { kind: "place", x: 0, y: 1, rotation: 1 }, { kind: "pass" },
    ],
    ...over,
  };
}

// a page that plays seat 0, online, with the snapshot above
function playing() {
  let s = reduce(initialState(), { type: "meta", meta: META });
  s = reduce(s, { type: "open", gameId: "g1", mode: "play" });
  s = reduce(s, { type: "welcome", seats: [0], creator: true });
  s = reduce(s, { type: "connection", state: "online" });
  s = reduce(s, { type: "table", table: { seats: [
    { seat: 0, kind: "human", name: "Ann", online: true, joined: true },
    { seat: 1, kind: "human", name: null, online: false, joined: false },
  ] } });
  return reduce(s, { type: "snapshot", view: snapshotView() });
}

// the reducer never changes the state it is given: everything reachable from it is frozen
function deepFreeze(x) {
  if (x && typeof x === "object" && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

test("canon keeps only the fields that make a move, in a fixed order", () => {
  // the order matters: moves are compared by their JSON (sameMove, the hints' key)
  assert.equal(JSON.stringify(canon({ y: 2, rotation: 1, text: "x", kind: "place", x: 1 })), '{"kind":"place","x":1,"y":2,"rotation":1}');
  assert.equal(JSON.stringify(canon({ piece: "hut", zone: 3, kind: "occupy" })), '{"kind":"occupy","zone":3,"piece":"hut"}');
  assert.equal(JSON.stringify(canon({ kind: "takeback", zone: 1, tile: 9, player: 0 })), '{"kind":"takeback","tile":9,"zone":1}');
  assert.equal(canon({ kind: "shout" }), null);
  assert.equal(canon(null), null);
  assert.ok(sameMove({ kind: "place", x: 1, y: 0, rotation: 2, text: "a" }, { rotation: 2, y: 0, x: 1, kind: "place" }));
  assert.ok(!sameMove({ kind: "place", x: 1, y: 0, rotation: 2 }, { kind: "place", x: 1, y: 0, rotation: 3 }));
});

test("open starts a game afresh but keeps what the page knows (editions, tiles, updates counted)", () => {
  let s = reduce(initialState(), { type: "meta", meta: META });
  s = reduce(s, { type: "tiles", edition: "2002", tiles: { defs: "d" } });
  s = { ...s, changes: 4, pending: { moves: [] }, rotation: 3, fatal: "deleted" };
  const o = reduce(s, { type: "open", gameId: "g2", mode: "watch" });
  assert.equal(o.gameId, "g2");
  assert.equal(o.mode, "watch");
  assert.deepEqual([o.pending, o.rotation, o.fatal, o.view], [null, 0, null, null]);
  assert.equal(o.meta, META);
  assert.deepEqual(o.tiles, { "2002": { defs: "d" } });
  assert.equal(o.changes, 4);
});

test("a snapshot gives the view empty lists where the server sent none, and no news", () => {
  const s = reduce(playing(), { type: "snapshot", view: { version: 1, decision: null } });
  assert.deepEqual(s.view.board, []);
  assert.deepEqual(s.view.log, []);
  assert.equal(s.change, null);
});

test("an update appends its tiles and events, takes the fields it sends and counts the change", () => {
  const s = deepFreeze(playing());
  const u = {
    version: 4, placed: [{ tile: 7, x: 1, y: 0, rotation: 2 }],
    events: [{ kind: "TilePlaced", text: "placed" }],
    players: [{ seat: 0, score: 2 }, { seat: 1, score: 4 }], decision: { player: 1, phase: "place", tile: 8 },
    legal: [], remaining: [9],
  };
  const n = reduce(s, { type: "update", update: u, animate: true });
  assert.equal(n.view.version, 4);
  assert.deepEqual(n.view.board.map((c) => c.tile), [1, 7]);
  assert.deepEqual(n.view.log.map((e) => e.kind), ["TileDrawn", "TilePlaced"]);
  assert.equal(n.view.players[0].score, 2);
  assert.deepEqual(n.view.remaining, [9]);
  assert.deepEqual(n.view.occupants, s.view.occupants);   // not in the update: kept
  assert.equal(n.changes, s.changes + 1);
  assert.equal(n.change.seq, n.changes);
  assert.deepEqual([...n.change.arrived], [7]);
  assert.deepEqual(n.change.landed, u.placed);
  assert.equal(n.change.scored, u.events);
  // the old state is as it was
  assert.equal(s.view.version, 3);
  assert.equal(s.view.board.length, 1);
});

test("an update does not animate the tile this page just confirmed, nor anything when animation is off", () => {
  let s = reduce(playing(), { type: "place", placement: { kind: "place", x: 1, y: 0, rotation: 2 }, request: 5 });
  s = reduce(s, { type: "sent", request: 6 });
  const u = { version: 4, placed: [{ tile: 7, x: 1, y: 0, rotation: 2 }], events: [] };
  const mine = reduce(s, { type: "update", update: u, animate: true });
  assert.deepEqual([...mine.change.arrived], []);
  assert.deepEqual(mine.change.landed, []);
  // the position moved on: the turn in progress is gone
  assert.deepEqual([mine.pending, mine.sentTurn, mine.selected], [null, null, null]);
  const other = reduce(playing(), { type: "update", update: u, animate: false });
  assert.deepEqual([...other.change.arrived], []);
  assert.deepEqual(other.change.landed, u.placed);
});

test("the pieces an update sends home are those on the board or put down in the same update", () => {
  const u = {
    version: 4, placed: [],
    events: [
      { kind: "OccupantPlaced", player: 0, tile: 7, zone: 5, piece: "meeple", role: "fisher" },
      { kind: "OccupantsReturned", returned: [{ tile: 1, zone: 2 }, { tile: 7, zone: 5 }, { tile: 99, zone: 1 }] },
      { kind: "MeepleTakenBack", tile: 1, zone: 2 },
    ],
  };
  const n = reduce(playing(), { type: "update", update: u, animate: true });
  assert.deepEqual(n.change.returned, [
    { player: 1, tile: 1, zone: 2, piece: "meeple", role: "hunter" },
    { player: 0, tile: 7, zone: 5, piece: "meeple", role: "fisher" },
    { player: 1, tile: 1, zone: 2, piece: "meeple", role: "hunter" },
  ]);
});

test("the tile is turned back to its first rotation when the tile to place changes", () => {
  let s = reduce(playing(), { type: "rotate", rotation: 3, selected: [1, 0] });
  assert.equal(s.rotation, 3);
  const same = reduce(s, { type: "snapshot", view: snapshotView() });
  assert.equal(same.rotation, 3);
  assert.deepEqual(same.selected, [1, 0]);
  s = reduce(s, { type: "snapshot", view: snapshotView({ version: 4, decision: { player: 0, phase: "place", tile: 8 } }) });
  assert.equal(s.rotation, 0);
  assert.equal(s.selected, null);
});

test("placing asks for a preview; only the answer to the latest request is kept", () => {
  let s = reduce(playing(), { type: "place", placement: { kind: "place", x: 1, y: 0, rotation: 2, text: "t" }, request: 5 });
  assert.deepEqual(s.pending.moves, [{ kind: "place", x: 1, y: 0, rotation: 2 }]);
  assert.deepEqual([s.rotation, s.selected], [2, [1, 0]]);
  assert.equal(canConfirm(s), false);
  const stale = reduce(s, { type: "preview", preview: { request: 4, turn_over: true } });
  assert.equal(stale.pending.preview, null);
  s = reduce(s, { type: "preview", preview: { request: 5, decision: { phase: "occupy" } } });
  assert.equal(s.pending.preview.request, 5);
  assert.equal(canConfirm(s), true);
  s = reduce(s, { type: "choose", move: { kind: "occupy", zone: 2, piece: "hut", text: "hut" } });
  assert.deepEqual(s.pending.choice, { kind: "occupy", zone: 2, piece: "hut" });
  s = reduce(s, { type: "sent", request: 6 });
  assert.equal(canConfirm(s), false);   // not twice
  assert.equal(reduce(s, { type: "ack", request: 5 }).sentTurn, 6);
  assert.equal(reduce(s, { type: "ack", request: 6 }).sentTurn, null);
  assert.equal(reduce(s, { type: "undo" }).pending, null);
});

test("an error drops what its request asked for; a stale one drops the whole turn", () => {
  let s = reduce(playing(), { type: "place", placement: { kind: "place", x: 1, y: 0, rotation: 2 }, request: 5 });
  s = reduce(s, { type: "ask-hint", key: "k", request: 6 });
  const e5 = reduce(s, { type: "error", request: 5, code: "illegal" });
  assert.equal(e5.pending, null);
  assert.equal(e5.hints.request, 6);
  const e6 = reduce(s, { type: "error", request: 6, code: "busy" });
  assert.equal(e6.pending.request, 5);
  assert.equal(e6.hints, null);
  const none = reduce(s, { type: "error", code: "busy" });
  assert.equal(none.pending.request, 5);
  assert.equal(none.hints.request, 6);
  const stale = reduce(s, { type: "error", code: "stale" });
  assert.deepEqual([stale.pending, stale.hints, stale.sentTurn], [null, null, null]);
});

test("losing the connection forgets a turn sent on it and a hint not yet answered", () => {
  let s = reduce(playing(), { type: "place", placement: { kind: "place", x: 1, y: 0, rotation: 2 }, request: 5 });
  s = reduce(s, { type: "ask-hint", key: "k", request: 6 });
  const kept = reduce(s, { type: "connection", state: "offline" });
  assert.equal(kept.pending.request, 5);   // not sent: still on the board
  assert.equal(kept.hints, null);
  s = reduce(s, { type: "hint", request: 6, turns: [{ text: "a" }] });
  s = reduce(s, { type: "sent", request: 7 });
  const lost = reduce(s, { type: "connection", state: "reconnecting" });
  assert.deepEqual([lost.pending, lost.sentTurn, lost.connection], [null, null, "reconnecting"]);
  assert.deepEqual(lost.hints.turns, [{ text: "a" }]);   // an answered hint stays
});

test("a hint is kept only for the request it answers and the position it was asked in", () => {
  let s = playing();
  s = reduce(s, { type: "ask-hint", key: hintKey(s), request: 6 });
  assert.equal(reduce(s, { type: "hint", request: 5, turns: [] }).hints.turns, null);
  s = reduce(s, { type: "hint", request: 6, turns: [{ text: "a" }] });
  assert.deepEqual(currentHints(s).turns, [{ text: "a" }]);
  const placed = reduce(s, { type: "place", placement: { kind: "place", x: 1, y: 0, rotation: 0 }, request: 7 });
  assert.equal(currentHints(placed), null);   // the turn moved on: another key
});

test("handing out the seat to move stops this page playing it at once", () => {
  let s = reduce(playing(), { type: "place", placement: { kind: "place", x: 1, y: 0, rotation: 2 }, request: 5 });
  s = reduce(s, { type: "hand-out", seat: 0 });
  assert.deepEqual(s.me.seats, []);
  assert.equal(s.pending, null);
  assert.equal(myTurn(s), false);
  assert.equal(isWatcher(s), true);
});

test("a replay step, a fatal error and leaving", () => {
  let s = reduce(playing(), { type: "replay", view: snapshotView({ version: 2, total: 9 }) });
  assert.equal(s.mode, "replay");
  assert.deepEqual(s.replay, { version: 2, total: 9 });
  assert.equal(myTurn(s), false);
  s = reduce(playing(), { type: "fatal", code: "deleted" });
  assert.equal(s.fatal, "deleted");
  assert.equal(held(s, 0), false);
  s = reduce(s, { type: "leave" });
  assert.equal(s.mode, null);
  assert.equal(reduce(s, { type: "no such action" }), s);
});

test("a seat in words: the name the table gives and the colour, or the colour alone", () => {
  const s = playing();
  assert.equal(who(s, 0), "Ann (yellow)");
  assert.equal(who(s, 1), "red");
  assert.equal(seatLabel(s, 0), "Y Ann (yellow)");
  // the view's own colours win over the editions' list
  const v = reduce(s, { type: "snapshot", view: snapshotView({ players: [{ seat: 0, colour: "blue", letter: "B" }] }) });
  assert.equal(seatLabel(v, 0), "B Ann (blue)");
});

test("presence: a bot is always there, a person only as the table says while connected", () => {
  const s = playing();
  assert.equal(presence(s, null), "unknown");
  assert.equal(presence(s, { kind: "bot" }), "online");
  assert.equal(presence(s, { kind: "human", online: true }), "online");
  assert.equal(presence(s, { kind: "human", online: false, joined: true }), "offline");
  assert.equal(presence(s, { kind: "human", online: false, joined: false }), "not-joined");
  const away = reduce(s, { type: "connection", state: "offline" });
  assert.equal(presence(away, { kind: "human", online: true }), "unknown");
});

test("whose turn: a seat this page holds and a person plays", () => {
  const s = playing();
  assert.equal(myTurn(s), true);
  assert.equal(held(s, 1), false);
  const bot = reduce(s, { type: "table", table: { seats: [{ seat: 0, kind: "bot", level: "easy" }] } });
  assert.equal(myTurn(bot), false);
  const watch = reduce(reduce(s, { type: "open", gameId: "g1", mode: "watch" }), { type: "snapshot", view: snapshotView() });
  assert.equal(myTurn(watch), false);
  const over = reduce(s, { type: "snapshot", view: snapshotView({ over: true }) });
  assert.equal(myTurn(over), false);
});

test("placementAt finds the first rotation from the one asked, clockwise, that fits the square", () => {
  const s = playing();
  assert.deepEqual(placementAt(s, 1, 0, 0), { kind: "place", x: 1, y: 0, rotation: 0 });
  assert.equal(placementAt(s, 1, 0, 1).rotation, 2);
  assert.equal(placementAt(s, 1, 0, 3).rotation, 0);
  assert.equal(placementAt(s, 5, 5, 0), null);
});

test("choiceLabel: the server's words (`say`) in the page's language, its English `text` without one", () => {
  const s = playing();
  const forest = { key: "say.zone_where", params: { kind: { key: "say.on.forest", params: {} },
    where: { key: "say.where.to", params: { points: [{ key: "say.point.east", params: {} }] } } } };
  const occupy = { kind: "occupy", zone: 2, piece: "meeple", text: "gatherer on the forest to the east",
    say: { key: "say.choice.occupy.gatherer", params: { zone: forest } } };
  assert.equal(choiceLabel(s, occupy), "gatherer on the forest to the east");
  assert.equal(choiceLabel(s, { kind: "pass", text: "no piece" }), "no piece");   // an older server: its text
  useCatalogue("cs", read("cs"), read("en"));
  try {
    assert.equal(choiceLabel(s, occupy), "sběrač do lesa na východě");
    assert.equal(choiceLabel(s, { kind: "pass", text: "no piece", say: { key: "say.choice.no_piece", params: {} } }),
      "bez figurky");
    assert.equal(kindWords({ kind: "bot", level: "easy" }), "robot lehký");
    assert.equal(who(s, 1), "červený");
  } finally {
    useCatalogue("en", read("en"));
  }
});

test("a seat's kind in words: a person, a bot of its level, an outside bot; an outside bot is present as a person", () => {
  assert.equal(kindWords({ kind: "human", level: null }), "person");
  assert.equal(kindWords({ kind: "bot", level: "easy" }), "bot easy");
  assert.equal(kindWords({ kind: "remote", level: null, name: "mybot" }), "outside bot");
  const s = { mode: "play", connection: "online" };
  assert.equal(presence(s, { kind: "remote", joined: true, online: false }), "offline");
  assert.equal(presence(s, { kind: "remote", joined: false, online: false }), "not-joined");
  assert.equal(presence(s, { kind: "remote", joined: true, online: true }), "online");
});
