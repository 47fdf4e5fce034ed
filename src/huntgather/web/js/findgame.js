// The Find a game screen (#/find): the public lobby (GET /api/lobby, read again every few
// seconds while the screen shows), a Join button for each open seat, quick match
// (POST /api/quickmatch) and "Play a bot now"; and, on a game's page, the note that the game
// waits in the lobby, with the creator's offer to give the open seats to a bot.

import { errorText, t } from "./i18n.js";
import { colourName, levelName } from "./terms.js";
import { $, api, el } from "./dom.js";
import { ID_RE, MAX_NAME, loadStore, myName, openCreatedGame, saveStore } from "./storage.js";

// seconds between two readings of the lobby while the screen shows
const POLL_SECONDS = 4;
// sessionStorage: what a quick match that waits offers (the bot level, from when), per game
const WAIT_KEY = "hg-quick-wait";

let pollTimer = null;
let listKey = null;

const POST = { method: "POST", headers: { "Content-Type": "application/json" } };

function readWaits() {
  try {
    const w = JSON.parse(sessionStorage.getItem(WAIT_KEY) || "{}");
    return w && typeof w === "object" ? w : {};
  } catch (e) {
    return {};
  }
}

// a seat given by the lobby: remember its secret for the game, as an invitation link would
function keepSeat(answer, creator) {
  if (!answer || !ID_RE.test(answer.id)) throw new Error("the server answered without a game id");
  const all = loadStore();
  const entry = all[answer.id] || { seats: {}, handed: [], created: Date.now() };
  entry.seats = { ...(entry.seats || {}), [String(answer.seat)]: answer.secret };
  entry.handed = entry.handed || [];
  if (creator) entry.creator = creator;
  all[answer.id] = entry;
  saveStore(all);
}

export function clockWords(clock) {
  if (!clock) return t("clock.none");
  if (clock.days_per_move) return t("clock.days", { n: clock.days_per_move });
  const base = clock.base >= 60 ? t("clock.minutes", { n: +(clock.base / 60).toFixed(1) }) : t("clock.seconds", { n: clock.base });
  return clock.increment ? `${base} + ${t("clock.seconds", { n: clock.increment })}` : base;
}

function untilWords(seconds) {
  if (seconds <= 0) return t("find.now");
  if (seconds < 90) return t("find.in", { time: t("clock.seconds", { n: Math.round(seconds) }) });
  return t("find.in", { time: t("clock.minutes", { n: Math.round(seconds / 60) }) });
}

function gameRow(meta, g, now) {
  const li = el("li", { class: "lobby-game", "data-game": g.id });
  const head = el("div", { class: "lobby-head" });
  const creator = g.creator && g.creator.name ? g.creator.name : t("find.guest");
  const rating = g.creator && g.creator.rating != null ? ` (${g.creator.rating})` : "";
  head.append(el("strong", {}, `${creator}${rating}`), " ",
    el("span", { class: "muted" }, `· ${g.edition} · ${t("find.players", { n: g.players })} · ${clockWords(g.clock)}`));
  if (g.rated) head.append(" ", el("span", { class: "rated-tag" }, t("games.rated")));
  li.append(head);
  const seats = el("ul", { class: "lobby-seats-list" });
  for (const seat of g.seats) {
    const colour = colourName((meta.colours[seat.seat] || {}).name) || t("chat.seat", { n: seat.seat + 1 });
    const item = el("li", { "data-seat": seat.seat });
    if (seat.open) {
      const b = el("button", { type: "button", class: "join", "aria-label": t("find.join_about", { who: creator, colour }) },
        t("find.join", { colour }));
      b.onclick = () => join(g, seat.seat, b);
      item.append(b);
    } else {
      const who = seat.kind === "bot" ? t("seat.bot", { level: levelName(seat.level) }) : (seat.name || t("new.person"));
      item.append(`${colour}: ${who}`);
    }
    seats.append(item);
  }
  li.append(seats);
  li.append(el("p", { class: "muted lobby-expires" }, t("find.expires", { when: untilWords(g.expires - now) })));
  return li;
}

async function join(g, seat, button) {
  $("#lobby-error").textContent = "";
  button.disabled = true;
  try {
    const body = {};
    const name = myName().slice(0, MAX_NAME);
    if (name) body.name = name;
    const answer = await api(`/api/lobby/${encodeURIComponent(g.id)}/seats/${seat}`,
      { ...POST, body: JSON.stringify(body) });
    keepSeat(answer);
    location.hash = `#/play/${answer.id}`;
  } catch (e) {
    $("#lobby-error").textContent = errorText(e.code);   // in the page's language
    button.disabled = false;
    refresh();
  }
}

async function refresh() {
  if ($("#screen-find").hidden) return;
  try {
    const data = await api("/api/lobby");
    const games = (data && data.games) || [];
    const key = JSON.stringify(games.map((g) => [g.id, g.seats, g.creator]));
    $("#lobby-empty").hidden = games.length > 0;
    $("#lobby-count").textContent = games.length ? `(${games.length})` : "";
    if (key === listKey) return;   // nothing new: a focused Join button keeps its focus
    listKey = key;
    const list = $("#lobby-list");
    const focused = document.activeElement && list.contains(document.activeElement)
      ? document.activeElement.getAttribute("aria-label") : null;
    list.innerHTML = "";
    const now = Date.now() / 1000;
    for (const g of games) list.append(gameRow(showFind.meta, g, now));
    if (focused) {
      for (const b of list.querySelectorAll("button")) if (b.getAttribute("aria-label") === focused) b.focus();
    }
    $("#lobby-error").textContent = "";
  } catch (e) {
    $("#lobby-error").textContent = t("find.lobby_failed", { detail: e.code ? errorText(e.code) : e.message });
  }
}

function stopPolling() {
  if (pollTimer !== null) clearInterval(pollTimer);
  pollTimer = null;
}

// the screen is shown (me: the signed-in account, or null)
export async function showFind(meta, me) {
  showFind.meta = meta;
  $("#quick-rated-box").hidden = !me;
  if (!me) $("#quick-rated").checked = false;
  listKey = null;
  stopPolling();
  await refresh();
  pollTimer = setInterval(() => {
    if ($("#screen-find").hidden) stopPolling();
    else if (!document.hidden) refresh();
  }, POLL_SECONDS * 1000);
}

function quickClock(value) {
  if (value === "none") return null;
  if (value.startsWith("days:")) return { days_per_move: parseInt(value.slice(5), 10) };
  const [base, increment] = value.split("+").map((x) => parseInt(x, 10));
  return { base, increment };
}

export function setupFind() {
  $("#play-bot-now").onclick = async () => {
    $("#quick-error").textContent = "";
    try {
      const setup = { seats: [{ kind: "human" }, { kind: "bot", level: "easy" }] };
      if (myName()) setup.seats[0].name = myName().slice(0, MAX_NAME);
      openCreatedGame(await api("/api/games", { ...POST, body: JSON.stringify(setup) }));
    } catch (e) {
      $("#quick-error").textContent = e.code ? errorText(e.code) : e.message;
    }
  };
  $("#quick-form").onsubmit = async (ev) => {
    ev.preventDefault();
    $("#quick-error").textContent = "";
    const ask = { edition: $("#quick-edition").value, players: parseInt($("#quick-players").value, 10),
      clock: quickClock($("#quick-clock").value), rated: $("#quick-rated").checked };
    const name = myName().slice(0, MAX_NAME);
    if (name) ask.name = name;
    $("#quick-go").disabled = true;
    try {
      const answer = await api("/api/quickmatch", { ...POST, body: JSON.stringify(ask) });
      keepSeat(answer, answer.creator);
      if (!answer.matched) {
        const waits = readWaits();
        waits[answer.id] = { at: Date.now() + parseInt($("#quick-wait").value, 10) * 1000, bot: answer.bot };
        sessionStorage.setItem(WAIT_KEY, JSON.stringify(waits));
      }
      location.hash = `#/play/${answer.id}`;
    } catch (e) {
      $("#quick-error").textContent = e.code === "sign_in_required"
        ? t("find.rated_sign_in") : e.code ? errorText(e.code) : e.message;
    } finally {
      $("#quick-go").disabled = false;
    }
  };
}

// On a game's page: the note that it waits in the lobby (table.lobby), with the time left, and
// for its creator the offer to give the open seats to a bot (after a quick match's wait).
export function createWaitBanner(store, act) {
  let timer = null;
  let drawn = null;

  function offer(s) {
    const wait = readWaits()[s.gameId];
    const levels = s.meta.bot_levels || [];
    const level = wait && wait.bot && levels.includes(wait.bot.level) ? wait.bot.level : "easy";
    const rating = wait && wait.bot ? wait.bot.rating : null;
    return { level, rating, at: wait ? wait.at : 0 };
  }

  function draw() {
    const s = store.get();
    const table = s.table;
    const box = $("#lobby-wait");
    const waiting = !!(table && table.lobby && s.mode === "play" && !s.fatal);
    box.hidden = !waiting;
    if (!waiting) {
      if (timer !== null) clearInterval(timer);
      timer = null;
      drawn = null;
      return;
    }
    if (timer === null) timer = setInterval(draw, 1000);
    const open = table.lobby.open;
    const left = table.lobby.expires - Date.now() / 1000;
    const colours = open.map((i) => colourName((s.meta.colours[i] || {}).name) || t("chat.seat", { n: i + 1 })).join(", ");
    $("#lobby-wait-text").textContent = t("find.waiting", { n: open.length, colours, when: untilWords(left) });
    const o = offer(s);
    const canOffer = !!(s.me && s.me.creator) && Date.now() >= o.at;
    const wait = canOffer ? 0 : Math.max(1, Math.ceil((o.at - Date.now()) / 1000));
    const key = JSON.stringify([s.gameId, open, canOffer, o.level, wait]);
    if (key === drawn) return;
    drawn = key;
    const tools = $("#lobby-wait-tools");
    tools.innerHTML = "";
    if (s.me && s.me.creator && !canOffer) {
      tools.append(el("span", { class: "muted" }, t("find.bot_offer", { n: wait })));
    }
    if (canOffer) {
      const b = el("button", { type: "button", id: "wait-bot", class: "primary" },
        o.rating ? t("find.play_bot_rated", { level: levelName(o.level), rating: o.rating })
          : t("find.play_bot", { level: levelName(o.level) }));
      b.onclick = () => {
        for (const seat of open) act.send({ type: "seat", seat, kind: "bot", level: o.level });
      };
      tools.append(b);
    }
  }

  return { render: draw };
}
