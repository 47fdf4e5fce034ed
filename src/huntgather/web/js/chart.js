// The arithmetic of the rating-history chart on a profile (#/player/NAME): round ticks for an
// axis, a linear scale, and where each game's point goes. Pure: no DOM (profile.js draws the SVG).
//
//   const plot = plotHistory(history, { width: 600, height: 220 });
//   plot.points  -> [{ x, y, rating, game, at, n }]   plot.yTicks -> [{ value, y }]   plot.xTicks

// round tick values covering [lo, hi]: about `count` of them, each a 1, 2 or 5 times a power of ten
export function niceTicks(lo, hi, count = 5) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) { lo -= 1; hi += 1; }
  const rough = (hi - lo) / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) || 10 * power;
  const first = Math.floor(lo / step);
  const last = Math.ceil(hi / step);
  const ticks = [];
  for (let k = first; k <= last && ticks.length <= 50; k++) ticks.push(+(k * step).toPrecision(12));   // no 0.6000000000000001
  return ticks;
}

// a linear map from [d0, d1] onto [r0, r1]; a domain of one value maps to the middle of the range
export function linearScale([d0, d1], [r0, r1]) {
  if (d1 === d0) return () => (r0 + r1) / 2;
  const k = (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}

// where the points of a rating history go in a box of width × height (pad: room for the axes'
// labels; span: the least height of the vertical axis, in rating points). The horizontal axis counts the rated games (1, 2, 3…), not the days: a player who
// stops for a month does not leave a long flat line. The vertical axis spans the ratings,
// widened to round ticks.
export function plotHistory(history, { width = 600, height = 220, span = 40,
  pad = { left: 58, right: 14, top: 12, bottom: 34 } } = {}) {
  const list = (Array.isArray(history) ? history : []).filter((h) => h && Number.isFinite(h.rating));
  const box = { left: pad.left, right: width - pad.right, top: pad.top, bottom: height - pad.bottom };
  if (!list.length) return { box, points: [], yTicks: [], xTicks: [] };
  const ratings = list.map((h) => h.rating);
  // at least `span` points high, around the ratings: a flat history is not blown up into noise
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  if (hi - lo < span) {
    const mid = (lo + hi) / 2;
    [lo, hi] = [mid - span / 2, mid + span / 2];
  }
  const ticks = niceTicks(lo, hi, 5);
  const y = linearScale([ticks[0], ticks[ticks.length - 1]], [box.bottom, box.top]);
  const x = linearScale([1, list.length], [box.left, box.right]);
  const points = list.map((h, i) => ({ x: x(i + 1), y: y(h.rating), rating: h.rating, game: h.game, at: h.at, n: i + 1 }));
  const xTicks = (list.length === 1 ? [1] : niceTicks(1, list.length, Math.min(6, list.length)))
    .filter((n) => n >= 1 && n <= list.length && Number.isInteger(n))
    .map((n) => ({ value: n, x: x(n) }));
  return { box, points, yTicks: ticks.map((value) => ({ value, y: y(value) })), xTicks };
}

// the "d" of an SVG path through the points, in order
export function linePath(points) {
  return points.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
}

// where the points of a post-game review's win-chance graph go (the review of
// GET /api/games/{id}/review): one point a turn, left to right, at the height of a seat's win
// chance after it (0 % at the bottom, 100 % at the top). With two players one line, yellow's
// (red's is its mirror); with more, a line per seat. Each point keeps its turn, its ply (the
// replay position of the turn), its mover and its label, for the marks and the clicks.
export function plotChances(review, { width = 600, height = 200,
  pad = { left: 40, right: 10, top: 10, bottom: 24 } } = {}) {
  const box = { left: pad.left, right: width - pad.right, top: pad.top, bottom: height - pad.bottom };
  const turns = review && Array.isArray(review.turns) ? review.turns : [];
  const rows = review && Array.isArray(review.chances) ? review.chances : [];
  const y = linearScale([0, 1], [box.bottom, box.top]);
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((value) => ({ value, y: y(value) }));
  if (!turns.length || rows.length !== turns.length) return { box, series: [], yTicks, xTicks: [] };
  const x = linearScale([1, Math.max(2, turns.length)], [box.left, box.right]);
  const seats = review.players === 2 ? [0] : [...Array(review.players).keys()];
  const series = seats.map((seat) => ({ seat, points: turns.map((t, i) => ({
    x: x(i + 1), y: y(rows[i][seat]), chance: rows[i][seat], turn: t.turn, ply: t.ply,
    player: t.player, label: t.label, mine: t.player === seat })) }));
  const xTicks = niceTicks(1, turns.length, Math.min(6, turns.length))
    .filter((n) => n >= 1 && n <= turns.length && Number.isInteger(n)).map((n) => ({ value: n, x: x(n) }));
  return { box, series, yTicks, xTicks };
}
