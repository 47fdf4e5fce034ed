// projection.js: the live projection in words.
import "./english.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { breakdown, projectionWords, rowsAt, tileProjectionWords } from "../../src/huntgather/web/js/projection.js";

// red (seat 0) scored a river (6) and a forest (4); blue (seat 1) a forest (3); final scoring now
// would give red's hunters 7 in a meadow of tiles 5 and 9, and blue's hut 2 in a river system of 9
const VIEW = {
  players: [{ seat: 0, score: 10 }, { seat: 1, score: 3 }],
  log: [
    { kind: "TilePlaced", player: 0 },
    { kind: "FeatureScored", feature: "river", points: [6, 0] },
    { kind: "FeatureScored", feature: "forest", points: [4, 3] },
  ],
  projection: {
    rows: [
      { kind: "hunters", points: [7, 0], explanation: "Meadow of 2 tiles: … = 7 → red (1 hunter)", tiles: [5, 9] },
      { kind: "huts", points: [0, 2], explanation: "River system: 2 fish = 2 → blue (1 hut)", tiles: [9, 12] },
    ],
    scores: [17, 5],
  },
};

test("a seat's points by kind: scored so far, and what final scoring would add", () => {
  assert.deepEqual(breakdown(VIEW, 0), { now: 10, scored: { river: 6, forest: 4 }, final: { hunters: 7 }, total: 17 });
  assert.deepEqual(breakdown(VIEW, 1), { now: 3, scored: { forest: 3 }, final: { huts: 2 }, total: 5 });
  assert.equal(projectionWords(VIEW, 0),
    "17 if the game ended now: 10 scored (rivers 6, forests 4) + 7 from final scoring (hunters 7)");
});

test("points the log does not explain are 'other'; no projection: the score as it is", () => {
  const loaded = { ...VIEW, log: [], projection: null };
  assert.deepEqual(breakdown(loaded, 0), { now: 10, scored: { other: 10 }, final: {}, total: 10 });
  assert.equal(projectionWords(loaded, 1), "3 if the game ended now: 3 scored (other 3)");
});

test("a tile's features: every row it is part of, in the rules' words", () => {
  assert.deepEqual(rowsAt(VIEW, 9).map((r) => r.kind), ["hunters", "huts"]);
  assert.deepEqual(rowsAt(VIEW, 1), []);
  assert.equal(tileProjectionWords(VIEW, 12), "River system: 2 fish = 2 → blue (1 hut)");
  assert.equal(tileProjectionWords({ ...VIEW, projection: null }, 9), "");
});
