// A player's public profile (#/player/NAME: GET /api/players/NAME) and the leaderboard
// (#/leaderboard/EDITION/WHO: GET /api/leaderboard). Every name is the players' own text:
// written with textContent (el(), svgEl() + textContent), never as HTML.

import { $, api, el, svgEl } from "./dom.js";
import { errorWords, editionOrder, ratingWords } from "./account.js";
import { held, isRated } from "./game.js";
import { linePath, plotHistory } from "./chart.js";
import { language, t } from "./i18n.js";
import { levelName } from "./terms.js";

export const WHO = ["all", "people", "bots"];


const when = (at) => (Number.isFinite(at) ? new Date(at * 1000).toLocaleDateString() : "");
const playerHref = (name) => `#/player/${encodeURIComponent(name)}`;
const ordinal = (n) => {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${s}`;
};
// "2nd of 4" in the page's language ("2. z 4", "2. von 4")
const placeOf = (rank, n) => t("profile.place", { rank: language() === "en" ? ordinal(rank) : `${rank}.`, n });
const fixed1 = (x) => (Number.isFinite(x) ? (Math.round(x * 10) / 10).toString() : "—");
const signed1 = (x) => (Number.isFinite(x) ? `${x > 0 ? "+" : ""}${fixed1(x)}` : "—");

function provisionalMark() {
  return el("span", { class: "provisional", title: t("rating.provisional_about") }, t("rating.provisional"));
}

function botMark() {
  return el("span", { class: "bot-mark", title: t("profile.bot_about") }, t("profile.bot"));
}

// a name that leads to the player's profile
function nameLink(name, kind) {
  const span = el("span", { class: "player" });
  span.append(el("a", { href: playerHref(name), class: "player-link" }, name));
  if (kind === "bot") span.append(" ", botMark());
  return span;
}

// the rating after each rated game, as an SVG line chart: the games along, the rating up
// (width: of the drawing, in the page's pixels: its labels keep their size on a phone)
export function historyChart(history, edition, width = 600) {
  const height = width < 420 ? 200 : 220;
  const plot = plotHistory(history, { width, height });
  const pts = plot.points;
  const first = pts[0];
  const last = pts[pts.length - 1];
  const svg = svgEl("svg", { class: "rating-chart", viewBox: `0 0 ${width} ${height}`, role: "img",
    "data-edition": edition, "data-points": String(pts.length),
    "aria-label": pts.length ? t("profile.chart_about", { edition, n: pts.length, first: first.rating, last: last.rating })
      : t("profile.chart_none", { edition }) });
  const { box } = plot;
  const axes = svgEl("g", { class: "axes" });
  for (const t of plot.yTicks) {
    axes.append(svgEl("line", { class: "grid", x1: box.left, x2: box.right, y1: t.y, y2: t.y }));
    const label = svgEl("text", { class: "tick y", x: box.left - 6, y: t.y + 4, "text-anchor": "end" });
    label.textContent = String(t.value);
    axes.append(label);
  }
  for (const t of plot.xTicks) {
    const label = svgEl("text", { class: "tick x", x: t.x, y: box.bottom + 15, "text-anchor": "middle" });
    label.textContent = String(t.value);
    axes.append(label);
  }
  axes.append(svgEl("line", { class: "axis", x1: box.left, x2: box.right, y1: box.bottom, y2: box.bottom }),
    svgEl("line", { class: "axis", x1: box.left, x2: box.left, y1: box.top, y2: box.bottom }));
  const xTitle = svgEl("text", { class: "axis-title", x: (box.left + box.right) / 2, y: height - 3, "text-anchor": "middle" });
  xTitle.textContent = t("profile.rated_games");
  const yTitle = svgEl("text", { class: "axis-title", x: 12, y: (box.top + box.bottom) / 2, "text-anchor": "middle",
    transform: `rotate(-90 12 ${(box.top + box.bottom) / 2})` });
  yTitle.textContent = t("profile.rating");
  axes.append(xTitle, yTitle);
  svg.append(axes);
  if (!pts.length) return svg;
  svg.append(svgEl("path", { class: "line", d: linePath(pts) }));
  const dots = svgEl("g", { class: "points" });
  for (const p of pts) {
    const title = svgEl("title");
    title.textContent = t("profile.chart_point", { n: p.n, when: p.at ? ` (${when(p.at)})` : "", rating: p.rating });
    const dot = svgEl("circle", { cx: p.x, cy: p.y, r: 4.5, "data-rating": String(p.rating) });
    dot.append(title);
    if (typeof p.game === "string" && p.game) {
      const a = svgEl("a", { href: `#/replay/${encodeURIComponent(p.game)}/1`, "aria-label": title.textContent });
      a.append(dot);
      dots.append(a);
    } else {
      dots.append(dot);
    }
  }
  svg.append(dots);
  return svg;
}

function statsList(st) {
  const dl = el("dl", { class: "stats" });
  const row = (term, value, cls) => dl.append(el("dt", {}, term), el("dd", { class: cls }, value));
  row(t("profile.played"), String(st.played ?? 0), "played");
  row(t("profile.won"), String(st.won ?? 0), "won");
  row(t("profile.average_score"), fixed1(st.average_score), "average-score");
  row(t("profile.average_margin"), signed1(st.average_margin), "average-margin");
  return dl;
}

function renderProfile(p) {
  const body = $("#player-body");
  body.innerHTML = "";
  const title = $("#player-title");
  title.textContent = p.name;
  if (p.kind === "bot") title.append(" ", botMark());
  const ratings = p.ratings || {};
  const stats = p.stats || {};
  const editions = [...new Set([...editionOrder(ratings), ...editionOrder(stats)])];
  if (!editions.length) body.append(el("p", { class: "muted" }, t("profile.no_rated")));
  for (const ed of editions) {
    const card = el("div", { class: "edition-card", "data-edition": ed });
    card.append(el("h3", {}, t("profile.edition", { edition: ed })));
    const r = ratings[ed];
    if (r) {
      const line = el("p", { class: "big-rating" });
      line.append(el("span", { class: "rating" }, ratingWords(r)));
      if (r.provisional) line.append(" ", provisionalMark());
      card.append(line);
    }
    if (stats[ed]) card.append(statsList(stats[ed]));
    if (r) {
      const fig = el("figure", { class: "chart" });
      const room = Math.round(Math.max(280, Math.min(640, body.clientWidth - 32)));
      fig.append(historyChart(r.history, ed, room), el("figcaption", { class: "muted" },
        t("profile.chart_caption")));
      card.append(fig);
    }
    const bots = (p.bots || {})[ed];
    if (bots && Object.keys(bots).length) {
      const table = el("table", { class: "head-to-head" });
      table.append(el("caption", {}, t("profile.against_bots")));
      const head = el("tr");
      head.append(el("th", {}, t("profile.level")), el("th", { class: "num" }, t("profile.played")),
        el("th", { class: "num" }, t("profile.won")));
      table.append(el("thead"));
      table.tHead.append(head);
      const tb = el("tbody");
      for (const [level, hh] of Object.entries(bots)) {
        const tr = el("tr", { "data-level": level });
        tr.append(el("td", {}, levelName(level)), el("td", { class: "num" }, String(hh.played ?? 0)),
          el("td", { class: "num" }, String(hh.won ?? 0)));
        tb.append(tr);
      }
      table.append(tb);
      card.append(table);
    }
    body.append(card);
  }
  const recent = Array.isArray(p.recent) ? p.recent : [];
  body.append(el("h3", {}, t("profile.recent")));
  if (!recent.length) body.append(el("p", { class: "muted" }, t("profile.none_yet")));
  const list = el("ol", { class: "recent-games" });
  for (const g of recent) {
    const li = el("li", { "data-game": g.id });
    const n = (g.players || []).length;
    li.append(el("span", { class: "when" }, `${when(g.at)} · ${g.edition}`), " ",
      el("strong", {}, Number.isInteger(g.rank) ? placeOf(g.rank, n) : ""),
      ` ${t("profile.with_points", { n: g.score ?? "?" })} · `);
    (g.players || []).forEach((q, i) => {
      if (i) li.append(", ");
      li.append(nameLink(q.name, q.kind), ` ${q.score ?? ""}`);
    });
    li.append(" · ", el("a", { href: `#/replay/${encodeURIComponent(g.id)}/1`, class: "replay" }, t("profile.replay")));
    list.append(li);
  }
  if (recent.length) body.append(list);
}

let profileDrawing = 0;

export async function showProfile(name) {
  const mine = ++profileDrawing;
  $("#player-title").textContent = name;
  $("#player-body").innerHTML = "";
  $("#player-error").textContent = "";
  let p;
  try {
    p = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    if (mine === profileDrawing) $("#player-error").textContent = errorWords(e);
    return;
  }
  if (mine !== profileDrawing) return;
  document.title = `${p.name} · ${t("page.title")}`;
  renderProfile(p);
}

// ------------------------------------------------------------------ the leaderboard

let boardDrawing = 0;

// edition, who: from the address (#/leaderboard/2020/people); meta: GET /api/editions
export async function showLeaderboard(meta, edition, who) {
  const mine = ++boardDrawing;
  const editions = (meta.editions || []).map((e) => e.name).sort((a, b) => b.localeCompare(a));   // newest first
  const ed = editions.includes(edition) ? edition : editions[0];
  const w = WHO.includes(who) ? who : "all";
  const sel = $("#lb-edition");
  if (sel.options.length !== editions.length) {
    sel.innerHTML = "";
    for (const e of editions) sel.append(el("option", { value: e }, t("profile.edition", { edition: e })));
  }
  sel.value = ed;
  for (const r of document.querySelectorAll("input[name=lb-who]")) r.checked = r.value === w;
  const go = () => {
    const chosen = document.querySelector("input[name=lb-who]:checked");
    location.hash = `#/leaderboard/${sel.value}/${chosen ? chosen.value : "all"}`;
  };
  sel.onchange = go;
  for (const r of document.querySelectorAll("input[name=lb-who]")) r.onchange = go;
  $("#leaderboard-error").textContent = "";
  const body = $("#leaderboard-table tbody");
  let data;
  try {
    data = await api(`/api/leaderboard?edition=${encodeURIComponent(ed)}&who=${w}`);
  } catch (e) {
    if (mine === boardDrawing) {
      body.innerHTML = "";
      $("#leaderboard-error").textContent = errorWords(e);
    }
    return;
  }
  if (mine !== boardDrawing) return;
  body.innerHTML = "";
  const players = Array.isArray(data.players) ? data.players : [];
  for (const p of players) {
    const tr = el("tr", { "data-kind": p.kind, class: p.kind === "bot" ? "bot" : "" });
    const rating = el("td", { class: "rating" }, ratingWords(p));
    if (p.provisional) rating.append(" ", provisionalMark());
    const name = el("td", { class: "name" });
    name.append(nameLink(p.name, p.kind));
    tr.append(el("td", { class: "num rank" }, String(p.rank)), name, rating,
      el("td", { class: "num games" }, String(p.games ?? 0)), el("td", { class: "num wins" }, String(p.wins ?? 0)));
    body.append(tr);
  }
  if (!players.length) {
    const tr = el("tr");
    const none = { all: () => t("leaderboard.none_all", { edition: ed }), people: () => t("leaderboard.none_people", { edition: ed }),
      bots: () => t("leaderboard.none_bots", { edition: ed }) }[w];
    tr.append(el("td", { colspan: 5, class: "muted" }, none()));
    body.append(tr);
  }
}

// ------------------------------------------------------------------ the end of a rated game

// Once a rated game this page plays in is over, the summary tells the signed-in player's new
// rating (and its change): asked from the profile until the game is in its history (the server
// rates a game just after its end).
export function watchRatedEnd(store, accounts) {
  let asked = null;   // the game whose rating was asked for
  const box = $("#summary-rating");
  async function ask(id, edition, name) {
    for (let tries = 0; tries < 15 && asked === id; tries++) {
      try {
        const p = await api(`/api/players/${encodeURIComponent(name)}`);
        const r = (p.ratings || {})[edition];
        const history = (r && Array.isArray(r.history)) ? r.history : [];
        const k = history.findIndex((h) => h.game === id);
        if (k >= 0 && asked === id) {
          const now = history[k].rating;
          const before = k > 0 ? history[k - 1].rating : null;
          box.textContent = "";
          box.append(`${t("profile.your_rating", { edition })} `);
          if (before !== null) {
            const d = now - before;
            box.append(`${before} → `, el("strong", {}, String(now)), ` (${d >= 0 ? "+" : "−"}${Math.abs(d)})`);
          } else {
            box.append(el("strong", {}, ratingWords({ ...r, rating: now })));
          }
          if (r.provisional) box.append(" ", el("span", { class: "provisional" }, t("rating.provisional")));
          box.append(" · ", el("a", { href: playerHref(name) }, t("me.profile")));
          box.hidden = false;
          return;
        }
      } catch (e) { /* asked again */ }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  store.subscribe((s) => {
    const me = accounts.me();
    const v = s.view;
    const ended = s.mode === "play" && v && v.over && !s.replay && isRated(s) && me &&
      (s.me.seats || []).some((seat) => held(s, seat));
    if (!ended) {
      if (asked !== null && s.gameId !== asked) { asked = null; box.hidden = true; box.textContent = ""; }
      return;
    }
    if (asked === s.gameId) return;
    asked = s.gameId;
    box.hidden = true;
    ask(s.gameId, v.edition, me.account.name);
  });
}
