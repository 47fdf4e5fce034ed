// chart.js: the arithmetic of a profile's rating-history chart (round ticks, the linear scale,
// where each game's point goes).
import { test } from "node:test";
import assert from "node:assert/strict";
import { linePath, linearScale, niceTicks, plotHistory } from "../../src/huntgather/web/js/chart.js";

test("ticks are round numbers, evenly spaced, that cover the values", () => {
  assert.deepEqual(niceTicks(1483, 1561, 5), [1480, 1500, 1520, 1540, 1560, 1580]);
  const t = niceTicks(0.1, 0.7, 4);
  assert.deepEqual(t, [0, 0.2, 0.4, 0.6, 0.8]);   // steps of 0.2 with no 0.6000000000000001
  for (const [lo, hi] of [[3, 97], [1200, 1201], [-40, 40], [7, 7]]) {
    const ticks = niceTicks(lo, hi, 5);
    assert.ok(ticks[0] <= Math.min(lo, hi) && ticks[ticks.length - 1] >= Math.max(lo, hi), `${lo}..${hi}: ${ticks}`);
    const steps = ticks.slice(1).map((v, i) => +(v - ticks[i]).toPrecision(6));
    assert.equal(new Set(steps).size, 1, `${ticks}`);
    const m = steps[0] / 10 ** Math.floor(Math.log10(steps[0]));
    assert.ok([1, 2, 5].includes(+m.toPrecision(6)), `step ${steps[0]}`);
  }
  assert.deepEqual(niceTicks(NaN, 3), []);
});

test("a linear scale maps the ends of its domain to the ends of its range, even upside down", () => {
  const y = linearScale([1400, 1600], [200, 0]);   // SVG's y grows downwards: higher ratings go up
  assert.equal(y(1400), 200);
  assert.equal(y(1600), 0);
  assert.equal(y(1500), 100);
  assert.equal(linearScale([5, 5], [10, 30])(5), 20);   // one value: the middle
});

test("a history's points go left to right in game order, higher ratings higher up, inside the box", () => {
  const history = [{ rating: 1500, game: "a", at: 1 }, { rating: 1540, game: "b", at: 2 }, { rating: 1490, game: "c", at: 3 }];
  const plot = plotHistory(history, { width: 300, height: 200, pad: { left: 40, right: 10, top: 10, bottom: 30 } });
  const [a, b, c] = plot.points;
  assert.equal(a.x, 40);
  assert.equal(c.x, 290);
  assert.equal(b.x, 165);
  assert.ok(b.y < a.y && a.y < c.y);
  for (const p of plot.points) assert.ok(p.y >= 10 && p.y <= 170);
  assert.deepEqual(plot.points.map((p) => [p.n, p.game]), [[1, "a"], [2, "b"], [3, "c"]]);
  // the y ticks are labelled values whose places agree with the points'
  const t1500 = plot.yTicks.find((t) => t.value === 1500);
  assert.ok(t1500 && Math.abs(t1500.y - a.y) < 1e-9);
  assert.deepEqual(plot.xTicks.map((t) => t.value), [1, 2, 3]);
  assert.equal(linePath(plot.points).split(" ").length, 3);
  assert.ok(linePath(plot.points).startsWith("M40.0,"));
});

test("one game, or none, still makes a chart", () => {
  const one = plotHistory([{ rating: 1500, game: "a" }], { width: 300, height: 200 });
  assert.equal(one.points.length, 1);
  assert.deepEqual(one.xTicks.map((t) => t.value), [1]);
  assert.ok(one.yTicks.length >= 2);
  const none = plotHistory([], { width: 300, height: 200 });
  assert.deepEqual([none.points, none.yTicks, none.xTicks], [[], [], []]);
  assert.equal(plotHistory(undefined).points.length, 0);
});

test("a flat history still spans some rating points, with whole-number ticks", () => {
  const plot = plotHistory([{ rating: 1412, game: "a" }], { width: 300, height: 200, span: 40 });
  const values = plot.yTicks.map((t) => t.value);
  assert.ok(values[0] <= 1392 && values[values.length - 1] >= 1432, `${values}`);
  assert.ok(values.every(Number.isInteger), `${values}`);
  const y = plot.points[0].y;
  assert.ok(y > plot.box.top && y < plot.box.bottom);   // in the middle, not on an edge
});
