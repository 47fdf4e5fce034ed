// tutorial.js: where the guided game's script is at a version, and what the coach shows then
// (the same counting as huntgather.tutorial.step_at), and the scripted moves' text read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { coachAt, parseScripted, stepAt } from "../../src/huntgather/web/js/tutorial.js";

// the learner's turn (draw + place, then the piece), red's turn (draw + place, then the piece)
const SCRIPT = { steps: [
  { key: "x.01", player: 0, check: "exact", move: "46@1,0r1", moves: 2 },
  { key: "x.02", player: 0, check: "exact", move: "m46.3", moves: 1 },
  { key: "x.03", player: 1, check: "watch", move: "37@0,-1r1", moves: 2 },
  { key: "x.04", player: 1, check: "watch", move: "m37.1", moves: 1 },
  { key: "x.05", player: 0, check: "free", move: "h35.8", moves: 1 },
] };

test("the step at a version is the one whose moves are not all played", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map((v) => stepAt(SCRIPT, v)), [0, 0, 1, 2, 2, 3, 4, null]);
});

test("red's steps wait for Next, one by one, before the learner's next step", () => {
  assert.deepEqual(coachAt(SCRIPT, 1, -1), { kind: "do", index: 0 });
  assert.deepEqual(coachAt(SCRIPT, 3, -1), { kind: "wait", index: 2 });   // red to play
  assert.deepEqual(coachAt(SCRIPT, 6, -1), { kind: "watch", index: 2 });  // red played both
  assert.deepEqual(coachAt(SCRIPT, 6, 2), { kind: "watch", index: 3 });
  assert.deepEqual(coachAt(SCRIPT, 6, 3), { kind: "do", index: 4 });
  assert.deepEqual(coachAt(SCRIPT, 7, 3), { kind: "end" });
  assert.deepEqual(coachAt(SCRIPT, 7, 1), { kind: "watch", index: 2 });   // the end waits for them too
});

test("a scripted move's text read as the page's move", () => {
  assert.deepEqual(parseScripted("46@1,-2r3"), { kind: "place", tile: 46, x: 1, y: -2, rotation: 3 });
  assert.deepEqual(parseScripted("h80.8"), { kind: "occupy", tile: 80, zone: 8, piece: "hut" });
  assert.deepEqual(parseScripted("m5.0"), { kind: "occupy", tile: 5, zone: 0, piece: "meeple" });
  assert.deepEqual(parseScripted("-"), { kind: "pass" });
  assert.equal(parseScripted("d46"), null);
});
