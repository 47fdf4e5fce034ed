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
import { t } from "./i18n.js";
import { colourName } from "./terms.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 1500;
const SEAT_NAMES = ["yellow", "red", "green", "blue", "violet"];
const LABEL_COLOURS = { inaccuracy: "#E69F00", mistake: "#D55E00", blunder: "#A0002A" };

// the reviewed turn played in the position after `ply` record moves, or null
export function turnAt(review, ply) {
  if (!review || !Array.isArray(review.turns)) return null;
  return review.turns.find((t) => t.ply === ply) || null;
}

const percent = (v) => `${Math.round(v * 100)} %`;

// a turn's verdict in words
// a turn's label (blunder, mistake, inaccuracy) in the page's language
export function labelWords(label) {
  const words = { blunder: () => t("review.blunder"), mistake: () => t("review.mistake"),
    inaccuracy: () => t("review.inaccuracy") }[label];
  return words ? words() : label;
}

export function verdict(turn, names = SEAT_NAMES.map(colourName)) {
  const who = names[turn.player] || t("chat.seat", { n: turn.player + 1 });
  const played = turn.played.join(" ");
  const head = { n: turn.turn, who, played };
  if (turn.forced) return t("review.forced", head);
  if (turn.loss === 0) return t("review.best", { ...head, chance: percent(turn.chance_played) });
  const what = turn.label ? `${labelWords(turn.label)}: ` : "";
  return t("review.worse", { ...head, chance: percent(turn.chance_played), best: turn.best.join(" "),
    best_chance: percent(turn.chance_best), loss: `${what}${percent(turn.loss)}` });
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
    return SEAT_NAMES.map(colourName).map((colour, i) => {
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
      "aria-label": review.players === 2 ? t("review.chart_two") : t("review.chart_many") });
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
      title.textContent = t("review.turning_point", { n: p.turn });
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
          "aria-label": t("review.point_about", { n: p.turn, label: p.label ? `, ${labelWords(p.label)}` : "" }) });
        const title = svgEl("title");
        title.textContent = `${t("review.turn", { n: p.turn })}: ${percent(p.chance)}${p.label ? ` — ${labelWords(p.label)}` : ""}`;
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
      const counts = [[(n) => t("review.blunders", { n }), p.blunders], [(n) => t("review.mistakes", { n }), p.mistakes],
        [(n) => t("review.inaccuracies", { n }), p.inaccuracies]].filter(([, n]) => n).map(([w, n]) => w(n));
      li.textContent = `${seatNames[p.player]}: ${t("review.accuracy", { pc: p.accuracy.toFixed(0) })}` +
        ` · ${counts.length ? counts.join(", ") : t("review.no_label")}`;
      list.append(li);
    }
    if (review.turning_points && review.turning_points.length) {
      const li = document.createElement("li");
      li.textContent = t("review.turning_points", { turns: review.turning_points.map((n) => t("review.turn", { n })).join(", ") });
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
    if (status === "queued") $("#review-status").textContent = t("review.queued");
    else if (status === "running") {
      const p = state.progress;
      $("#review-status").textContent = t("review.running", { done: p.done, total: p.total });
    } else if (status === "failed") $("#review-status").textContent = t("review.failed");
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
      $("#review-legend").firstChild.textContent = review.players === 2 ? t("review.chart_two") : t("review.legend_many");
    }
    const ply = s.replay ? s.replay.version : null;
    const here = ply === null ? null : turnAt(review, ply);
    $("#review-here").textContent = here ? verdict(here, seatNames)
      : s.mode === "replay" ? t("review.click_point") : t("review.open_replay");
    for (const dot of $("#review-chart").querySelectorAll(".review-point")) {
      dot.classList.toggle("current", here !== null && +dot.dataset.ply === ply);
    }
  }

  return { render };
}
