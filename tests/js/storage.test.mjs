// storage.js: the seat secrets this browser holds, read and written afresh in localStorage (a
// Map stands in for it here, as the module reads it only when called).
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import {
  STORE_KEY, forgetEntry, forgetSecrets, loadStore, myName, normalEntry, playSecrets, pruneBotSecrets,
  rememberGame, saveStore, setMyName, storeEntry, takeInvite, updateEntry,
} from "../../src/huntgather/web/js/storage.js";

class FakeStorage {
  constructor() { this.items = new Map(); this.full = false; }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) {
    if (this.full) throw new Error("QuotaExceededError");
    this.items.set(k, String(v));
  }
}

const A = "secretAAAA";
const B = "secretBBBB";
const C = "secretCCCC";
const stored = () => JSON.parse(globalThis.localStorage.getItem(STORE_KEY));

beforeEach(() => { globalThis.localStorage = new FakeStorage(); });

test("a store that is missing, broken or not an object reads as empty", () => {
  assert.deepEqual(loadStore(), {});
  for (const junk of ["{not json", "[1,2]", "7", "null"]) {
    localStorage.setItem(STORE_KEY, junk);
    assert.deepEqual(loadStore(), {}, junk);
  }
  saveStore({ g: { seats: { 0: A } } });
  assert.deepEqual(loadStore(), { g: { seats: { 0: A } } });
});

test("a full or disabled storage loses the write, not the page", () => {
  localStorage.full = true;
  assert.doesNotThrow(() => saveStore({ g: {} }));
  assert.doesNotThrow(() => setMyName("Ann"));
  assert.deepEqual(loadStore(), {});
});

test("an entry is made whole: seats, handed seats, the time it was made", () => {
  const e = normalEntry({ seats: [A], handed: "no", unplaced: "x", created: 5 });
  assert.deepEqual(e, { seats: {}, handed: [], created: 5 });
  const made = normalEntry(null);
  assert.deepEqual(made.seats, {});
  assert.equal(typeof made.created, "number");
  assert.equal(storeEntry("nope"), null);
  updateEntry("g", (x) => { x.seats["1"] = A; });
  assert.deepEqual(storeEntry("g").seats, { 1: A });
  forgetEntry("g");
  assert.equal(storeEntry("g"), null);
});

test("the secrets to play with: the seats in order (not those handed out), then links not yet placed", () => {
  assert.deepEqual(playSecrets(null), []);
  const entry = { seats: { 10: C, 2: A, 3: B, 4: 17 }, handed: [3], unplaced: [B, "linkLINK", C] };
  assert.deepEqual(playSecrets(entry), [A, C, B, "linkLINK"]);
});

test("an invite link: its well-formed secrets are kept to be placed, or a handed seat taken back", () => {
  takeInvite("g", "bad!.short");
  assert.equal(storeEntry("g"), null);
  takeInvite("g", `${A}.${B}`);
  assert.deepEqual(storeEntry("g").unplaced, [A, B]);
  takeInvite("g", A);
  assert.deepEqual(storeEntry("g").unplaced, [B, A]);   // once, and last
  updateEntry("g", (e) => { e.seats = { 2: C }; e.handed = [2]; });
  takeInvite("g", C);
  assert.deepEqual(storeEntry("g").handed, []);
  assert.deepEqual(storeEntry("g").seats, { 2: C });
});

test("the seats the server names are given the links' secrets, in order, when they match in number", () => {
  updateEntry("g", (e) => { e.seats = { 0: C }; e.unplaced = [A, B]; });
  rememberGame("g", "watch", [0, 3, 1]);
  assert.deepEqual(storeEntry("g").unplaced, [A, B]);   // only a page that plays places them
  rememberGame("g", "play", [0, 3]);
  assert.deepEqual(storeEntry("g").unplaced, [A, B]);   // one fresh seat for two secrets: unknown which
  rememberGame("g", "play", [0, 3, 1]);
  assert.deepEqual(stored().g.seats, { 0: C, 1: A, 3: B });
  assert.equal(stored().g.unplaced, undefined);
});

test("refused secrets go from the seats, the links and the creator; the others stay", () => {
  updateEntry("g", (e) => { e.seats = { 0: A, 1: B }; e.handed = [1]; e.unplaced = [C, "linkLINK"]; e.creator = C; });
  forgetSecrets("g", [B, C]);
  const e = storeEntry("g");
  assert.deepEqual(e.seats, { 0: A });
  assert.deepEqual(e.handed, []);
  assert.deepEqual(e.unplaced, ["linkLINK"]);
  assert.equal(e.creator, undefined);
  forgetSecrets("other", [A]);
  assert.equal(storeEntry("other"), null);   // nothing made for a game not held
});

test("seats handed to a bot lose their secrets", () => {
  updateEntry("g", (e) => { e.seats = { 0: A, 1: B, 2: C }; e.handed = [1, 2]; });
  pruneBotSecrets("g", { seats: [{ seat: 1, kind: "bot" }, { seat: 2, kind: "human" }, { seat: 0, kind: "human" }] });
  const e = storeEntry("g");
  assert.deepEqual(e.seats, { 0: A, 2: C });
  assert.deepEqual(e.handed, [2]);
  pruneBotSecrets("g", null);
  assert.deepEqual(storeEntry("g").seats, { 0: A, 2: C });
});

test("the player's name is kept, and read back at most 24 characters long", () => {
  assert.equal(myName(), "");
  setMyName("Ann");
  assert.equal(myName(), "Ann");
  setMyName("x".repeat(30));
  assert.equal(myName(), "x".repeat(24));
});
