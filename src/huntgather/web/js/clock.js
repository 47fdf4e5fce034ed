// The game's clock as the server keeps it (the `clock` of a `table`): each player's time left,
// ticking for the player to move, red under 10 seconds. The page never trusts its own clock: it
// counts down from what the server said (`deadline - now`, the server's two timestamps), by the
// time passed on this page since the message came (a monotonic clock).
//
//   noteClock(table.clock);                 when a table comes (play.js)
//   clockSpan(seat)                         a <span class="clock"> for a player's row (panel.js)
//   startClockTicks();                      refreshes every such span four times a second

import { el } from "./dom.js";
import { t } from "./i18n.js";
import { levelName } from "./terms.js";

// the seconds each seat has left, `elapsed` seconds after the clock was received (exported for tests)
export function timesLeft(clock, elapsed) {
  if (!clock || !Array.isArray(clock.left)) return [];
  return clock.left.map((left, seat) => {
    if (seat !== clock.running || typeof clock.deadline !== "number") return left;
    return Math.max(0, clock.deadline - clock.now - Math.max(0, elapsed));
  });
}

// "4:05", "1:02:03", or for days "2 d 3 h" (exported for tests)
export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

let current = null;    // the last clock the server sent
let received = 0;      // when it came (performance.now(), ms)
let timer = null;

export function noteClock(clock) {
  current = clock && Array.isArray(clock.left) ? clock : null;
  received = performance.now();
  refresh();
}

export function hasClock() {
  return current !== null;
}

export function clockSpan(seat) {
  const span = el("span", { class: "clock", "data-seat": seat });
  fill(span);
  return span;
}

function fill(span) {
  if (!current) { span.hidden = true; return; }
  const seat = Number(span.dataset.seat);
  const left = timesLeft(current, (performance.now() - received) / 1000)[seat];
  if (typeof left !== "number") { span.hidden = true; return; }
  span.hidden = false;
  span.textContent = formatClock(left);
  span.classList.toggle("running", seat === current.running);
  span.classList.toggle("low", left < 10);
  span.classList.toggle("out", Array.isArray(current.out) && current.out.includes(seat));
  span.title = current.out && current.out.includes(seat) ? t("clock.out")
    : seat === current.running ? t("clock.left_running") : t("clock.left");
}

function refresh() {
  for (const span of document.querySelectorAll("span.clock[data-seat]")) fill(span);
}

export function startClockTicks() {
  if (timer === null) timer = setInterval(refresh, 250);
}

// a line over the game's errors saying whose time ran out (empty text: none); made on first use
export function showClockNews(text) {
  let box = document.getElementById("clock-news");
  if (!box) {
    const errors = document.getElementById("play-error");
    if (!errors) return;
    box = el("p", { id: "clock-news", role: "status" });
    errors.before(box);
  }
  box.textContent = text;
  box.hidden = !text;
}

// ------------------------------------------------------------------ the new-game form's clock

// the form's clock choice: no clock, live (minutes and an increment in seconds) or correspondence
// (days a move), and the bot that takes a seat whose time runs out (levels: meta.bot_levels)
export function clockFieldset(levels) {
  const box = el("fieldset", { id: "clock-choice" });
  box.append(el("legend", {}, t("clock.title")));
  const radio = (value, text) => {
    const label = el("label", {});
    label.append(el("input", { type: "radio", name: "clock", value }), ` ${text} `);
    return label;
  };
  const none = radio("none", t("clock.none"));
  none.querySelector("input").checked = true;
  const live = radio("live", t("clock.live"));
  live.append(el("input", { type: "number", id: "clock-minutes", min: "0", max: "1440", step: "any", value: "10",
    "aria-label": t("clock.minutes_about"), class: "short-number" }), ` ${t("clock.min")} + `,
  el("input", { type: "number", id: "clock-increment", min: "0", max: "3600", step: "1", value: "5",
    "aria-label": t("clock.increment_about"), class: "short-number" }), ` ${t("clock.s_a_turn")}`);
  const post = radio("correspondence", t("clock.correspondence"));
  post.append(el("input", { type: "number", id: "clock-days", min: "1", max: "14", step: "1", value: "3",
    "aria-label": t("clock.days_about"), class: "short-number" }), ` ${t("clock.days_a_move")}`);
  const bot = el("label", { id: "clock-bot" }, `${t("clock.on_timeout")} `);
  const sel = el("select", { id: "clock-on-timeout" });
  for (const level of levels) sel.append(el("option", { value: level }, levelName(level)));
  if (levels.includes("easy")) sel.value = "easy";   // the server's default
  bot.append(sel);
  box.append(none, el("br"), live, el("br"), post, el("br"), bot);
  return box;
}

// what the form's clock adds to a setup: {fields} or {error, focus} (exported for tests: `get`
// reads a field by id, `choice` is the radio's value)
export function clockChoice(choice, get) {
  if (choice === "live") {
    const minutes = Number(get("clock-minutes"));
    const increment = Number(get("clock-increment") || "0");
    const base = Math.round(minutes * 60);
    if (!Number.isFinite(minutes) || base < 1 || base > 86400) {
      return { error: t("clock.bad_live"), focus: "clock-minutes" };
    }
    if (!Number.isInteger(increment) || increment < 0 || increment > 3600) {
      return { error: t("clock.bad_increment"), focus: "clock-increment" };
    }
    return { fields: { clock: { base, increment }, on_timeout: get("clock-on-timeout") } };
  }
  if (choice === "correspondence") {
    const days = Number(get("clock-days"));
    if (!Number.isInteger(days) || days < 1 || days > 14) {
      return { error: t("clock.bad_days"), focus: "clock-days" };
    }
    return { fields: { clock: { days_per_move: days }, on_timeout: get("clock-on-timeout") } };
  }
  return { fields: {} };
}

// the clock of the form on the page
export function formClock() {
  const choice = document.querySelector("input[name=clock]:checked")?.value || "none";
  return clockChoice(choice, (id) => document.getElementById(id)?.value ?? "");
}
