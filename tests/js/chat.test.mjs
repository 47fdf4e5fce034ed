// chat.js: which lines are shown (mutes per game, the watchers' channel hidden), who said them,
// and the mutes remembered in localStorage (a Map stands in for it here).
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import "./english.mjs";
import { mutedSeats, setMuted, shownLine, speaker } from "../../src/huntgather/web/js/chat.js";

class FakeStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
}

beforeEach(() => { globalThis.localStorage = new FakeStorage(); });

const COLOURS = [{ name: "yellow" }, { name: "red" }];
const line = (channel, seat, name) => ({ number: 1, channel, seat, name, text: "hi", at: 0 });

test("mutes are kept per game, and a broken store reads as none", () => {
  assert.deepEqual(mutedSeats("g1"), []);
  setMuted("g1", 1, true);
  setMuted("g1", 0, true);
  setMuted("g2", 3, true);
  assert.deepEqual(mutedSeats("g1"), [0, 1]);
  setMuted("g1", 0, false);
  assert.deepEqual(mutedSeats("g1"), [1]);
  setMuted("g2", 3, false);
  assert.deepEqual(JSON.parse(localStorage.getItem("hg-chat-muted")), { g1: [1] });
  localStorage.setItem("hg-chat-muted", "{not json");
  assert.deepEqual(mutedSeats("g1"), []);
  localStorage.setItem("hg-chat-muted", JSON.stringify({ g1: ["1", 2] }));
  assert.deepEqual(mutedSeats("g1"), [2]);
});

test("a muted seat's lines and a hidden watchers' channel are not shown", () => {
  assert.equal(shownLine(line("players", 1, "Bob"), [1], false), false);
  assert.equal(shownLine(line("players", 0, "Ann"), [1], false), true);
  assert.equal(shownLine(line("watchers", null, null), [1], false), true);
  assert.equal(shownLine(line("watchers", null, null), [], true), false);
});

test("the speaker is named by name and colour, or as a watcher", () => {
  assert.equal(speaker(line("players", 1, "Bob"), COLOURS), "Bob (red)");
  assert.equal(speaker(line("players", 0, null), COLOURS), "yellow");
  assert.equal(speaker(line("players", 4, null), COLOURS), "seat 5");
  assert.equal(speaker(line("watchers", null, "Eve"), COLOURS), "watcher Eve");
  assert.equal(speaker(line("watchers", null, null), COLOURS), "a watcher");
});
