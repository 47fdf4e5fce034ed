// The page's words and formats: the turn line of the panel, the bots' thinking times, a move's
// attributes, the JSON reader that keeps big seeds, a player's coloured letter.
import "./english.mjs";
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { initialState, myTurn, reduce } from "../../src/huntgather/web/js/game.js";
import { turnText } from "../../src/huntgather/web/js/panel.js";
import { moveAttrs } from "../../src/huntgather/web/js/board.js";
import { parseJSON, swatch } from "../../src/huntgather/web/js/dom.js";
import { clockWords } from "../../src/huntgather/web/js/findgame.js";

const META = { colours: [{ name: "yellow", rgb: "#fc0", ink: "#000", letter: "Y" }, { name: "red", rgb: "#c00", ink: "#fff", letter: "R" }] };

function state({ mode = "play", seats = [0], table = [], connection = "online", view = {} } = {}) {
  let s = reduce(initialState(), { type: "meta", meta: META });
  s = reduce(s, { type: "open", gameId: "g", mode });
  s = reduce(s, { type: "welcome", seats });
  s = reduce(s, { type: "connection", state: connection });
  s = reduce(s, { type: "table", table: { seats: table } });
  return reduce(s, { type: "snapshot", view: {
    version: 1, players: [], decision: { player: 0, phase: "place", tile: 3, text: "yellow places a tile" },
    bonus_name: "gold mine", ...view } });
}

test("the turn line: mine, a bot's, someone away, someone else's", () => {
  const ann = { seat: 0, kind: "human", name: "Ann", online: true, joined: true };
  assert.equal(turnText(state({ table: [ann] })), "Ann (yellow): your turn");
  assert.equal(turnText(state({ table: [{ seat: 0, kind: "bot", level: "expert" }] })), "yellow: bot expert is thinking…");
  assert.equal(turnText(state({ seats: [], table: [ann] })), "Ann (yellow) is to play");
  assert.equal(turnText(state({ seats: [], table: [{ ...ann, online: false }] })), "waiting for Ann (offline)");
  assert.equal(turnText(state({ seats: [], table: [{ seat: 0, kind: "human", online: false, joined: false }] })),
    "waiting for yellow (not joined yet)");
  // not connected: this page cannot know who is away
  assert.equal(turnText(state({ seats: [], connection: "offline", table: [{ ...ann, online: false }] })),
    "Ann (yellow) is to play");
});

test("the turn line: a public game waiting in the lobby is nobody's turn yet", () => {
  const ann = { seat: 0, kind: "human", name: "Ann", online: true, joined: true };
  const waiting = reduce(state({ table: [ann] }), { type: "table",
    table: { seats: [ann, { seat: 1, kind: "human", online: false, joined: false }], lobby: { open: [1], expires: 0 } } });
  assert.equal(turnText(waiting), "Waiting for players from the public lobby");
  assert.equal(myTurn(waiting), false);
  assert.equal(myTurn(state({ table: [ann] })), true);
});

test("a listed game's clock in words", () => {
  assert.equal(clockWords(null), "no clock");
  assert.equal(clockWords({ base: 600, increment: 10 }), "10 min + 10 s");
  assert.equal(clockWords({ base: 5, increment: 0 }), "5 s");
  assert.equal(clockWords({ base: 90, increment: 0 }), "1.5 min");
  assert.equal(clockWords({ days_per_move: 1 }), "1 day a move");
  assert.equal(clockWords({ days_per_move: 3 }), "3 days a move");
});

test("the turn line: the bonus tile, the game's end, a replay, a moment of nobody's", () => {
  const bonus = { decision: { player: 0, phase: "place", tile: 3, stack: "bonus" } };
  assert.equal(turnText(state({ view: bonus })), "yellow: your turn (gold mine)");
  assert.equal(turnText(state({ view: { over: true } })), "Game over");
  assert.equal(turnText(state({ view: { replay: true } })), "Replay — yellow places a tile");
  assert.equal(turnText(state({ view: { decision: { player: null, text: "final scoring" } } })), "final scoring");
});

test("a move's attributes name it in its canonical form", () => {
  assert.deepEqual(moveAttrs({ kind: "occupy", piece: "hut", zone: 4, text: "hut" }),
    { "data-move": '{"kind":"occupy","zone":4,"piece":"hut"}', "data-kind": "occupy", "data-zone": 4, "data-piece": "hut" });
  assert.deepEqual(moveAttrs({ kind: "takeback", zone: 1, tile: 9 }),
    { "data-move": '{"kind":"takeback","tile":9,"zone":1}', "data-kind": "takeback", "data-zone": 1, "data-tile": 9 });
  assert.deepEqual(moveAttrs({ kind: "pass" }), { "data-move": '{"kind":"pass"}', "data-kind": "pass" });
});

test("parseJSON keeps every digit of a seed beyond 2^53, as text", () => {
  assert.equal(parseJSON('{"seed": 18446744073709551557, "n": 1}').seed, "18446744073709551557");
  assert.equal(parseJSON('{"seed": 42}').seed, 42);
  assert.equal(parseJSON('{"seed": 9007199254740991}').seed, 9007199254740991);
  assert.deepEqual(parseJSON("[1]"), [1]);
  assert.throws(() => parseJSON("{"), SyntaxError);
});

test("a player's swatch: the colour's letter on its colours", () => {
  globalThis.document = {
    createElement: (tag) => ({ tag, attrs: {}, textContent: "", setAttribute(k, v) { this.attrs[k] = v; } }),
  };
  const e = swatch(META, 1);
  assert.equal(e.tag, "span");
  assert.deepEqual(e.attrs, { class: "swatch", style: "background:#c00;color:#fff" });
  assert.equal(e.textContent, "R");
});

after(() => { delete globalThis.document; });
