// The post-game review on the page (docs/review.md): a Review button on a finished game and in
// its replay; while the server computes, the progress; then a win-chance graph (an SVG drawn
// from chart.js's plotChances) with the labelled turns marked, each player's accuracy, and,
// at the replay position of a reviewed turn, the played turn and the expert's best in words
// (the board draws the best one as a ghost tile beside the played one: board.js).
// Clicking a point of the graph moves the replay to the position where that turn was played.
//
//   const review = createReview(store, play);   review.render(state)

import { $, api } from "./dom.js";
import { linePath, plotChances } from "./chart.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 1500;
const SEAT_NAMES = ["yellow", "red", "green", "blue", "violet"];
const LABEL_COLOURS = { inaccuracy: "#E69F00", mistake: "#D55E00", blunder: "#A0002A" };

// the placement of a review's move text ("37@0,-1r2"), or null for another move
export function parsePlace(text) {
  const m = /^(\d+)@(-?\d+),(-?\d+)r([0-3])$/.exec(text || "");
  return m ? { tile: +m[1], x: +m[2], y: +m[3], rotation: +m[4] } : null;
}

// the reviewed turn played in the position after `ply` record moves, or null
export function turnAt(review, ply) {
  if (!review || !Array.isArray(review.turns)) return null;
  return review.turns.find((t) => t.ply === ply) || null;
}

const percent = (v) => `${Math.round(v * 100)} %`;

// a turn's verdict in words
export function verdict(t, names = SEAT_NAMES) {
  const who = names[t.player] || `seat ${t.player}`;
  const played = t.played.join(" ");
  if (t.forced) return `Turn ${t.turn}: ${who} played ${played}, the only way to play.`;
  if (t.loss === 0) {
    return `Turn ${t.turn}: ${who} played ${played}, the expert's choice too (win chance ${percent(t.chance_played)}).`;
  }
  const what = t.label ? `${t.label}: ` : "";
  return `Turn ${t.turn}: ${who} played ${played} (win chance ${percent(t.chance_played)}); ` +
    `the expert prefers ${t.best.join(" ")} (${percent(t.chance_best)}) — ${what}${percent(t.loss)} lost.`;
}

function svgEl(name, attrs = {}) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

export function createReview(store, play) {
  let gameId = null;   // the game whose review this page knows
  let state = null;    // the last answer of GET /api/games/{id}/review
  let timer = null;
  let shownFor = null; // whom the graph and the summary were drawn for
  let asked = 0;       // requests made: only the answer to the latest counts (a slow poll
                       // answered after the request that asks must not undo it)

  function stopPolling() {
    if (timer) clearTimeout(timer);
    timer = null;
  }

  async function fetchState(id) {
    const n = ++asked;
    try {
      const answer = await api(`/api/games/${encodeURIComponent(id)}/review`);
      if (id === gameId && n === asked) take(answer);
    } catch (e) {
      if (id === gameId && n === asked) $("#review-status").textContent = `The review could not be read: ${e.message}`;
    }
  }

  function take(answer) {
    state = answer;
    stopPolling();
    if (answer.status === "queued" || answer.status === "running") {
      const id = gameId;
      timer = setTimeout(() => fetchState(id), POLL_MS);
    }
    if (answer.status === "done" && answer.review) {
      store.dispatch({ type: "review", gameId, review: answer.review });
    } else {
      render(store.get());
    }
  }

  async function ask() {
    const id = gameId;
    const n = ++asked;
    stopPolling();
    $("#review-ask").disabled = true;
    $("#review-status").textContent = "Asking for the review…";
    try {
      const answer = await api(`/api/games/${encodeURIComponent(id)}/review`, { method: "POST" });
      if (id === gameId && n === asked) take(answer);
    } catch (e) {
      if (id === gameId && n === asked) {
        $("#review-status").textContent = `No review: ${e.message}`;
        $("#review-ask").disabled = false;
      }
    }
  }
  $("#review-ask").onclick = ask;

  function names(s) {
    const seats = s.table && s.table.seats;
    return SEAT_NAMES.map((colour, i) => {
      const seat = seats && seats.find((x) => x.seat === i);
      return seat && seat.name ? `${seat.name} (${colour})` : colour;
    });
  }

  function drawChart(review) {
    const box = $("#review-chart");
    box.innerHTML = "";
    const width = 360;
    const height = 150;
    const plot = plotChances(review, { width, height });
    const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
      "aria-label": review.players === 2 ? "yellow's win chance after each turn" : "each seat's win chance after each turn" });
    for (const t of plot.yTicks) {
      svg.append(svgEl("line", { x1: plot.box.left, x2: plot.box.right, y1: t.y, y2: t.y,
        class: t.value === 0.5 ? "review-mid" : "review-grid" }));
      const label = svgEl("text", { x: plot.box.left - 4, y: t.y + 4, class: "review-axis", "text-anchor": "end" });
      label.textContent = `${Math.round(t.value * 100)}%`;
      svg.append(label);
    }
    for (const t of plot.xTicks) {
      const label = svgEl("text", { x: t.x, y: height - 6, class: "review-axis", "text-anchor": "middle" });
      label.textContent = String(t.value);
      svg.append(label);
    }
    // the turning points: a dashed line down the graph at each
    const turning = new Set(review.turning_points || []);
    const first = plot.series[0] ? plot.series[0].points : [];
    for (const p of first) {
      if (!turning.has(p.turn)) continue;
      const mark = svgEl("line", { x1: p.x, x2: p.x, y1: plot.box.top, y2: plot.box.bottom, class: "review-turning" });
      const title = svgEl("title");
      title.textContent = `turning point: turn ${p.turn}`;
      mark.append(title);
      svg.append(mark);
    }
    for (const line of plot.series) {
      svg.append(svgEl("path", { d: linePath(line.points), class: `review-line seat-${line.seat}` }));
      for (const p of line.points) {
        if (review.players !== 2 && !p.mine) continue;
        const marked = !!p.label;
        const dot = svgEl("circle", { cx: p.x, cy: p.y, r: marked ? 5 : 3.5,
          class: `review-point${marked ? ` ${p.label}` : ""}`, fill: marked ? LABEL_COLOURS[p.label] : "currentColor",
          "data-ply": p.ply, "data-turn": p.turn, tabindex: 0, role: "button",
          "aria-label": `turn ${p.turn}${p.label ? `, ${p.label}` : ""}: to that position` });
        const title = svgEl("title");
        title.textContent = `turn ${p.turn}: ${percent(p.chance)}${p.label ? ` — ${p.label}` : ""}`;
        dot.append(title);
        const go = () => play.replayTo(gameId, p.ply);
        dot.addEventListener("click", go);
        dot.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(); } });
        // a wider, invisible target for a finger
        const hit = svgEl("circle", { cx: p.x, cy: p.y, r: 11, class: "review-hit", "data-ply": p.ply });
        hit.addEventListener("click", go);
        svg.append(hit, dot);
      }
    }
    box.append(svg);
  }

  function drawSummary(review, seatNames) {
    const list = $("#review-summary");
    list.innerHTML = "";
    for (const p of review.summaries) {
      const li = document.createElement("li");
      const counts = [["blunders", p.blunders], ["mistakes", p.mistakes], ["inaccuracies", p.inaccuracies]]
        .filter(([, n]) => n).map(([w, n]) => `${n} ${n === 1 ? w.replace(/ies$/, "y").replace(/s$/, "") : w}`);
      li.textContent = `${seatNames[p.player]}: accuracy ${p.accuracy.toFixed(0)} %` +
        (counts.length ? ` · ${counts.join(", ")}` : " · no labelled turn");
      list.append(li);
    }
    if (review.turning_points && review.turning_points.length) {
      const li = document.createElement("li");
      li.textContent = `turning points (dashed): ${review.turning_points.map((n) => `turn ${n}`).join(", ")}`;
      list.append(li);
    }
  }

  function render(s) {
    const box = $("#review");
    const over = !!(s.view && s.view.over);
    const show = !!s.gameId && !s.fatal && (s.mode === "replay" || over);
    box.hidden = !show;
    if (!show) return;
    if (s.gameId !== gameId) {
      gameId = s.gameId;
      state = null;
      shownFor = null;
      stopPolling();
      $("#review-chart").innerHTML = "";
      $("#review-legend").hidden = true;
      $("#review-summary").innerHTML = "";
      $("#review-here").textContent = "";
      $("#review-status").textContent = "";
      $("#review-ask").disabled = false;
      fetchState(gameId);
    }
    const status = state ? state.status : "none";
    $("#review-ask").hidden = !(status === "none" || status === "failed");
    if (status === "queued") $("#review-status").textContent = "Review queued: the expert starts on it soon…";
    else if (status === "running") {
      const p = state.progress;
      $("#review-status").textContent = `Reviewing: turn ${p.done} of ${p.total}…`;
    } else if (status === "failed") $("#review-status").textContent = "The review failed; ask again.";
    else if (status === "done") $("#review-status").textContent = "";
    const review = s.review && s.review.gameId === gameId ? s.review.review : null;
    if (!review) return;
    const seatNames = names(s);
    const key = `${gameId}|${JSON.stringify(seatNames)}`;
    if (shownFor !== key) {
      shownFor = key;
      drawChart(review);
      drawSummary(review, seatNames);
      $("#review-legend").hidden = false;
      $("#review-legend").firstChild.textContent = review.players === 2
        ? "yellow's win chance after each turn" : "each player's win chance after their turns";
    }
    const ply = s.replay ? s.replay.version : null;
    const t = ply === null ? null : turnAt(review, ply);
    $("#review-here").textContent = t ? verdict(t, seatNames)
      : s.mode === "replay" ? "Click a point of the graph to see that turn." : "Open the replay to step through the turns.";
    for (const dot of $("#review-chart").querySelectorAll(".review-point")) {
      dot.classList.toggle("current", t !== null && +dot.dataset.ply === ply);
    }
  }

  return { render };
}
