// store.js: the state changes only through the reducer, and every listener hears of each change.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createStore } from "../../src/huntgather/web/js/store.js";

const add = (s, a) => (a.type === "add" ? s + a.n : s);

test("dispatch runs the reducer and returns the new state", () => {
  const store = createStore(add, 1);
  assert.equal(store.get(), 1);
  assert.equal(store.dispatch({ type: "add", n: 2 }), 3);
  assert.equal(store.get(), 3);
  assert.equal(store.dispatch({ type: "other" }), 3);
});

test("listeners hear the new state and the action, until they unsubscribe", () => {
  const store = createStore(add, 0);
  const heard = [];
  const stop = store.subscribe((s, a) => heard.push([s, a.n]));
  store.dispatch({ type: "add", n: 5 });
  stop();
  store.dispatch({ type: "add", n: 1 });
  assert.deepEqual(heard, [[5, 5]]);
  assert.equal(store.get(), 6);
});

test("a listener subscribed during a dispatch hears only the next one", () => {
  const store = createStore(add, 0);
  const late = [];
  let added = false;
  store.subscribe(() => {
    if (!added) { added = true; store.subscribe((s) => late.push(s)); }
  });
  store.dispatch({ type: "add", n: 1 });
  assert.deepEqual(late, []);
  store.dispatch({ type: "add", n: 1 });
  assert.deepEqual(late, [2]);
});
