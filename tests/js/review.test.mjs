// review.js and chart.js's plotChances: the review's graph, the board's marks and the words.
import "./english.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { plotChances } from "../../src/huntgather/web/js/chart.js";
import { parsePlace } from "../../src/huntgather/web/js/notation.js";
import { turnAt, verdict } from "../../src/huntgather/web/js/review.js";

const turn = (n, ply, player, extra = {}) => ({ turn: n, ply, decision: n, player, played: [`${n}@0,${n}r0`, "-"],
  best: [`${n}@0,${n}r0`, "-"], chance_played: 0.5, chance_best: 0.5, loss: 0, label: null, forced: false, ...extra });

const REVIEW = {
  players: 2,
  turns: [turn(1, 1, 0), turn(2, 4, 1, { best: ["2@1,0r3", "m2.1"], chance_played: 0.3, chance_best: 0.62,
    loss: 0.32, label: "blunder" }), turn(3, 7, 0)],
  chances: [[0.55, 0.45], [0.7, 0.3], [0.8, 0.2]],
};

test("one line for two players: yellow's chance, from left to right, 100 % at the top", () => {
  const plot = plotChances(REVIEW, { width: 300, height: 100, pad: { left: 0, right: 0, top: 0, bottom: 0 } });
  assert.equal(plot.series.length, 1);
  const pts = plot.series[0].points;
  assert.deepEqual(pts.map((p) => p.ply), [1, 4, 7]);
  assert.ok(pts[0].x < pts[1].x && pts[1].x < pts[2].x);
  assert.equal(pts[2].y, 20);   // 80 % of a 100-high box from the top: 20
  assert.deepEqual(pts.map((p) => p.label), [null, "blunder", null]);
  assert.deepEqual(plot.yTicks.map((t) => t.value), [0, 0.25, 0.5, 0.75, 1]);
});

test("a line per seat with three players; nothing to draw without turns", () => {
  const three = { players: 3, turns: [turn(1, 1, 0), turn(2, 4, 1)], chances: [[0.4, 0.33, 0.33], [0.4, 0.5, 0.33]] };
  const plot = plotChances(three);
  assert.deepEqual(plot.series.map((s) => s.seat), [0, 1, 2]);
  assert.deepEqual(plot.series[1].points.map((p) => p.mine), [false, true]);
  assert.deepEqual(plotChances({ players: 2, turns: [], chances: [] }).series, []);
  assert.deepEqual(plotChances(null).series, []);
});

test("the turn at a replay position, its placement, and its verdict in words", () => {
  assert.equal(turnAt(REVIEW, 4).turn, 2);
  assert.equal(turnAt(REVIEW, 5), null);
  assert.deepEqual(parsePlace("37@-2,5r3"), { tile: 37, x: -2, y: 5, rotation: 3 });
  assert.equal(parsePlace("m37.1"), null);
  assert.equal(parsePlace("-"), null);
  const words = verdict(turnAt(REVIEW, 4));
  assert.match(words, /^Turn 2: red played 2@0,2r0 - \(win chance 30 %\); the expert prefers 2@1,0r3 m2\.1 \(62 %\) — blunder: 32 % lost\.$/);
  assert.match(verdict(turnAt(REVIEW, 1)), /the expert's choice too/);
  assert.match(verdict({ ...turnAt(REVIEW, 1), forced: true }), /the only way to play/);
});
