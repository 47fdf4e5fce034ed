// The chat panel of a game, and its Resign, Leave and Rematch buttons (docs/play.md, "Chat").
//
//   const chat = createChat(store, send);   // send(msg): true when it went out
//   chat.open(gameId, mode);   chat.onMessage(msg);   chat.render(state);   chat.loadReplay(gameId);
//
// Every line is shown with textContent (a name or a text is never read as HTML).  Lines of a
// muted seat are not shown; the mutes are remembered in this browser (localStorage), per game.
// The players may hide the watchers' channel; the creator may close it for the watchers.

import { t } from "./i18n.js";
import { colourName } from "./terms.js";
import { errorText } from "./i18n.js";
import { $, api, el } from "./dom.js";
import { heldSeats } from "./game.js";
import { ID_RE, updateEntry } from "./storage.js";

const MUTE_KEY = "hg-chat-muted";
const HIDE_KEY = "hg-chat-hide-watchers";
export const MAX_CHAT = 300;
const KEEP = 200;   // lines kept on the page
// the quick phrases, in the sender's language (sent as the words themselves)
export const QUICK = () => [t("chat.good_luck"), t("chat.well_played"), t("chat.thinking"), t("chat.thanks")];

// the seats muted in each game: { gameId: [seat, …] }
export function mutedSeats(id) {
  try {
    const all = JSON.parse(localStorage.getItem(MUTE_KEY)) || {};
    return Array.isArray(all[id]) ? all[id].filter(Number.isInteger) : [];
  } catch (e) {
    return [];
  }
}

export function setMuted(id, seat, muted) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem(MUTE_KEY)) || {}; } catch (e) { all = {}; }
  const now = new Set(Array.isArray(all[id]) ? all[id] : []);
  if (muted) now.add(seat); else now.delete(seat);
  all[id] = [...now].sort((a, b) => a - b);
  if (!all[id].length) delete all[id];
  try { localStorage.setItem(MUTE_KEY, JSON.stringify(all)); } catch (e) { /* storage full or off */ }
}

// whether a line is shown: not of a muted seat, not of the watchers' channel while it is hidden
export function shownLine(line, muted, hideWatchers) {
  if (line.channel === "watchers") return !hideWatchers;
  return !(Number.isInteger(line.seat) && muted.includes(line.seat));
}

// the words in front of a line: "Ann (yellow)", "yellow", "watcher Eve", "a watcher"
export function speaker(line, colours) {
  if (line.channel === "watchers") return line.name ? t("chat.watcher", { name: line.name }) : t("chat.a_watcher");
  const colour = colours && colours[line.seat] ? colourName(colours[line.seat].name) : t("chat.seat", { n: line.seat + 1 });
  return line.name ? `${line.name} (${colour})` : colour;
}

// the `request` of the resigns that Leave sends (then the seat): their answers come to the chat
const LEAVE = "leave-";
export const isLeaveAnswer = (msg) => typeof msg.request === "string" && msg.request.startsWith(LEAVE);

export function createChat(store, send) {
  let leaving = null;        // Resign or Leave under way: {seats not yet taken, go, sentAt, staleAt, tries}
  let gameId = null;
  let mode = null;
  let lines = [];            // this game's lines, by number
  let watchersOpen = true;
  let rated = false;
  let resignAsked = false;   // the Resign button waits for its confirmation
  const s = () => store.get();

  // ---------------------------------------------------------------- the panel (built once)
  const panel = el("details", { id: "chat", open: "" });
  panel.hidden = true;
  panel.append(el("summary", {}, t("chat.title")));
  const list = el("ol", { id: "chat-lines", "aria-live": "polite", "aria-label": t("chat.title") });
  const form = el("form", { id: "chat-form" });
  const input = el("input", { id: "chat-text", type: "text", maxlength: String(MAX_CHAT),
    autocomplete: "off", "aria-label": t("chat.say_table"), placeholder: t("chat.say") });
  form.append(input, el("button", { type: "submit", id: "chat-send" }, t("chat.send")));
  const quick = el("div", { id: "chat-quick", role: "group", "aria-label": t("chat.quick") });
  for (const phrase of QUICK()) {
    const b = el("button", { type: "button", class: "chat-quick" }, phrase);
    b.onclick = () => say(phrase);
    quick.append(b);
  }
  const options = el("div", { id: "chat-options" });
  const hideBox = el("input", { type: "checkbox", id: "chat-hide-watchers" });
  const hideLabel = el("label", {});
  hideLabel.append(hideBox, ` ${t("chat.hide_watchers")}`);
  const closeButton = el("button", { type: "button", id: "chat-close-watchers", class: "link-button" });
  const mutes = el("span", { id: "chat-mutes" });
  options.append(hideLabel, " ", closeButton, " ", mutes);
  const error = el("p", { id: "chat-error", class: "error", role: "alert" });
  panel.append(list, form, quick, options, error);

  const actions = el("div", { id: "seat-actions" });
  actions.hidden = true;
  const resign = el("button", { type: "button", id: "resign" }, t("chat.resign"));
  const confirmBox = el("span", { id: "resign-confirm" });
  confirmBox.hidden = true;
  const yes = el("button", { type: "button", id: "resign-yes", class: "primary" }, t("chat.resign_yes"));
  const no = el("button", { type: "button", id: "resign-no" }, t("chat.resign_no"));
  confirmBox.append(el("span", {}, `${t("chat.resign_ask")} `), yes, " ", no);
  const leave = el("button", { type: "button", id: "leave", title: t("chat.leave_about") }, t("chat.leave"));
  const rematch = el("button", { type: "button", id: "rematch" }, t("chat.rematch"));
  const rematchText = el("span", { id: "rematch-status", "aria-live": "polite" });
  // the rematch made before this page opened the game: a link to it, not a move at once
  const rematchOpen = el("a", { id: "rematch-open", class: "button" }, t("chat.rematch_open"));
  rematchOpen.hidden = true;
  actions.append(resign, confirmBox, " ", leave, " ", rematch, " ", rematchOpen, " ", rematchText);

  const lobby = $("#lobby");
  lobby.after(actions);
  actions.after(panel);

  // ---------------------------------------------------------------- sending

  // the seats this page plays now (not those handed out, nor those handed to a bot)
  function held() {
    const st = s();
    const seats = st.me && Array.isArray(st.me.seats) ? heldSeats(st) : [];
    return seats.slice().sort((a, b) => a - b);
  }

  function say(text) {
    const words = text.trim();
    if (!words) return;
    if (words.length > MAX_CHAT) { error.textContent = t("chat.too_long", { n: MAX_CHAT }); return; }
    const seats = held();
    const msg = { type: "chat", text: words };
    if (seats.length) msg.seat = seats[0];
    if (send(msg)) { input.value = ""; error.textContent = ""; }
  }

  form.onsubmit = (ev) => { ev.preventDefault(); say(input.value); };
  // the board's keys (R, N, H…) must not fire while typing a line
  input.addEventListener("keydown", (ev) => ev.stopPropagation());
  hideBox.onchange = () => {
    try { localStorage.setItem(HIDE_KEY, hideBox.checked ? "1" : "0"); } catch (e) { /* ignore */ }
    draw();
  };
  closeButton.onclick = () => send({ type: "chat_watchers", open: !watchersOpen });

  function version() { return s().view ? s().view.version : 0; }

  resign.onclick = () => { resignAsked = true; render(s()); };
  no.onclick = () => { resignAsked = false; render(s()); };
  yes.onclick = () => {
    resignAsked = false;
    giveUp(false);
    render(s());
  };
  // Resign and Leave: each seat held is resigned (Leave: the page goes to the saved games once the
  // server has taken every one, its `ack`); a resign refused as `stale` (a move arrived meanwhile)
  // is sent again with the version that move made, so a seat is never left held by a page that went
  leave.onclick = () => giveUp(true);
  // Resign (`go` false) and Leave (`go` true: then to the saved games) send the same resigns
  function giveUp(go) {
    const seats = held();
    if (!seats.length) { if (go) location.hash = "#/games"; return; }
    leaving = { seats: new Set(seats), go, sentAt: null, staleAt: null, tries: 0 };
    leave.disabled = true;
    sendLeaving();
  }
  function sendLeaving() {
    leaving.sentAt = version();
    for (const seat of leaving.seats) send({ type: "resign", seat, version: version(), request: `${LEAVE}${seat}` });
  }
  function leaveAnswer(msg) {
    const seat = Number(String(msg.request).slice(LEAVE.length));
    if (!leaving || !leaving.seats.has(seat)) return;
    if (msg.type === "error" && msg.code === "stale" && leaving.tries < 5) {
      leaving.tries += 1;
      // sent again with the newer version: now if the page has it already, else once it comes (render)
      if (version() !== leaving.sentAt) sendLeaving();
      else leaving.staleAt = version();
      return;
    }
    if (msg.type === "error" && !["not_your_seat", "game_over"].includes(msg.code)) {   // could not leave
      leaving = null;
      leave.disabled = false;
      error.textContent = errorText(msg.code);
      return;
    }
    leaving.seats.delete(seat);   // taken (or no longer this page's to leave)
    if (!leaving.seats.size) {
      const go = leaving.go;
      leaving = null;
      leave.disabled = false;
      if (go) location.hash = "#/games";
    }
  }
  rematch.onclick = () => {
    for (const seat of held()) send({ type: "rematch", seat });
    rematch.disabled = true;
  };

  // ---------------------------------------------------------------- receiving

  function take(line) {
    if (!line || typeof line.text !== "string" || !Number.isInteger(line.number)) return;
    if (lines.some((l) => l.number === line.number)) return;
    lines.push(line);
    lines.sort((a, b) => a.number - b.number);
    if (lines.length > KEEP) lines = lines.slice(-KEEP);
  }

  function goToRematch(msg) {
    if (typeof msg.game !== "string" || !ID_RE.test(msg.game)) return;
    const seats = msg.seats && typeof msg.seats === "object" ? msg.seats : {};
    const mine = Object.entries(seats).filter(([k, v]) => /^\d+$/.test(k) && typeof v === "string");
    if (mine.length || msg.creator) {
      updateEntry(msg.game, (e) => {
        for (const [k, v] of mine) e.seats[k] = v;
        if (typeof msg.creator === "string") e.creator = msg.creator;
      });
    }
    // a player holding a seat by their account alone gets no secret, and plays it all the same
    const target = mine.length || msg.creator || held().length ? `#/play/${msg.game}` : `#/watch/${msg.game}`;
    if (msg.again) {   // made while this page was away: offered, not forced
      rematchOpen.href = target;
      rematchOpen.hidden = false;
      render(s());
    } else {
      location.hash = target;
    }
  }

  function onMessage(msg) {
    if ((msg.type === "ack" || msg.type === "error") && isLeaveAnswer(msg)) { leaveAnswer(msg); return; }
    if (msg.type === "chat") take(msg);
    else if (msg.type === "chat_log") {
      for (const line of Array.isArray(msg.lines) ? msg.lines : []) take(line);
      watchersOpen = msg.watchers_open !== false;
    } else if (msg.type === "chat_watchers") watchersOpen = msg.open !== false;
    else if (msg.type === "rematch") { goToRematch(msg); return; }
    else if (msg.type === "welcome") rated = msg.rated === true;
    else if (msg.type === "error" && String(msg.code).startsWith("chat_")) {
      error.textContent = errorText(msg.code);
    }
    render(s());
  }

  // ---------------------------------------------------------------- drawing

  let drawn = "";        // what the lines were drawn from: redrawn only when it changes
  let mutesDrawn = "";

  function draw() {
    const muted = gameId ? mutedSeats(gameId) : [];
    const last = lines.length ? lines[lines.length - 1].number : 0;
    const key = `${gameId}|${lines.length}|${last}|${muted.join(",")}|${hideBox.checked}`;
    if (key === drawn) return;   // a store change that is not the chat's: the reader's scroll stays
    drawn = key;
    const colours = s().meta ? s().meta.colours : null;
    const items = lines.filter((l) => shownLine(l, muted, hideBox.checked)).map((l) => {
      const li = el("li", { class: `chat-line chat-${l.channel === "watchers" ? "watchers" : "players"}` });
      const when = new Date((l.at || 0) * 1000);
      li.title = when.toLocaleString();
      li.append(el("span", { class: "chat-who" }, speaker(l, colours)), ": ",
        el("span", { class: "chat-text" }, l.text));
      return li;
    });
    list.replaceChildren(...items);
    list.scrollTop = list.scrollHeight;
  }

  function drawMutes(st) {
    const seats = st.table && Array.isArray(st.table.seats) ? st.table.seats : [];
    const mine = new Set(held());
    const muted = gameId ? mutedSeats(gameId) : [];
    const key = JSON.stringify([gameId, muted, [...mine], seats.map((x) => [x.seat, x.kind, x.name])]);
    if (key === mutesDrawn) return;   // unchanged: the boxes (and the focus on one) stay
    mutesDrawn = key;
    const boxes = seats.filter((x) => x.kind === "human" && !mine.has(x.seat)).map((x) => {
      const box = el("input", { type: "checkbox", class: "chat-mute", "data-seat": String(x.seat) });
      box.checked = muted.includes(x.seat);
      box.onchange = () => { setMuted(gameId, x.seat, box.checked); draw(); };
      const label = el("label", {});
      const colours = st.meta ? st.meta.colours : null;
      label.append(box, ` ${t("chat.mute")} ${speaker({ channel: "players", seat: x.seat, name: x.name }, colours)}`);
      return label;
    });
    mutes.replaceChildren(...boxes);
  }

  function render(st) {
    if (leaving && leaving.staleAt !== null && version() !== leaving.staleAt) {
      leaving.staleAt = null;
      sendLeaving();
    }
    const live = gameId && (mode === "play" || mode === "watch");
    panel.hidden = !gameId;
    actions.hidden = !live;
    if (!gameId) return;
    const player = held().length > 0;
    const over = !!(st.view && st.view.over);
    form.hidden = quick.hidden = mode === "replay" || (!player && !watchersOpen && !(st.me && st.me.creator));
    hideLabel.hidden = !player;
    closeButton.hidden = !(st.me && st.me.creator) || mode === "replay";
    closeButton.textContent = watchersOpen ? t("chat.close_watchers") : t("chat.open_watchers");
    input.placeholder = player ? t("chat.say_table") : watchersOpen ? t("chat.say_watchers") : t("chat.watchers_closed");
    drawMutes(st);
    if (live) {
      resign.hidden = !player || over || resignAsked;
      confirmBox.hidden = !player || over || !resignAsked;
      leave.hidden = !player || over || rated;
      rematch.hidden = !player || !over || !rematchOpen.hidden;
      const wants = st.table && Array.isArray(st.table.rematch) ? st.table.rematch : [];
      if (!over) rematch.disabled = false;
      const colours = st.meta ? st.meta.colours : null;
      const names = wants.map((seat) => {
        const info = st.table.seats.find((x) => x.seat === seat);
        return speaker({ channel: "players", seat, name: info ? info.name : null }, colours);
      });
      rematchText.textContent = over && names.length ? t("chat.rematch_wanted", { names: names.join(", ") }) : "";
    }
    draw();
  }

  function open(id, how) {
    gameId = id;
    mode = how;
    lines = [];
    watchersOpen = true;
    rated = false;
    resignAsked = false;
    leaving = null;
    leave.disabled = false;
    rematch.disabled = false;
    rematchOpen.hidden = true;
    error.textContent = "";
    try { hideBox.checked = localStorage.getItem(HIDE_KEY) === "1"; } catch (e) { hideBox.checked = false; }
    render(s());
  }

  function close() {
    gameId = null;
    mode = null;
    lines = [];
    render(s());
  }

  // a replay shows every line said in the game
  async function loadReplay(id) {
    try {
      const data = await api(`/api/games/${encodeURIComponent(id)}/chat`);
      if (gameId !== id) return;
      for (const line of Array.isArray(data.lines) ? data.lines : []) take(line);
      render(s());
    } catch (e) { /* the chat is a nicety of the replay */ }
  }

  store.subscribe((st) => { if (gameId) render(st); });
  return { open, close, onMessage, render, loadReplay, say };
}
