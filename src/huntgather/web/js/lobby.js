// The Table panel (who sits where, online or not, the invitation and watch links, handing a
// seat out or to a bot), the "watching" badge, and the form that names this page's seats.
// It owns its notes and what it last drew; it reads the game from the store and acts
// through `act` (see play.js).

import { t } from "./i18n.js";
import { levelName } from "./terms.js";
import { $, el, showError, swatch } from "./dom.js";
import { colourOf, heldSeats, held, isRated, isWatcher, kindWords, presence, seatInfo, seatName } from "./game.js";

const PRESENCE_WORDS = { online: () => t("presence.online"), offline: () => t("presence.offline"),
  "not-joined": () => t("presence.not_joined"), unknown: () => t("presence.unknown") };
import { MAX_NAME, myName, nameAsked, normalEntry, setMyName, setNameAsked, storeEntry } from "./storage.js";

async function copyText(text, input) {
  if (input) { input.focus(); input.select(); }
  let ok = false;
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await Promise.race([navigator.clipboard.writeText(text),
        new Promise((resolve, reject) => setTimeout(() => reject(new Error("timeout")), 1500))]);
      ok = true;
    } catch (e) {
      ok = false;
    }
  }
  if (!ok && input) {
    // the fallback: the link is selected in its box, ready for Ctrl+C
    input.focus();
    input.select();
  }
  return ok;
}

export function linkRow(cls, link, label) {
  const row = el("div", { class: cls });
  const input = el("input", { type: "text", readonly: "", value: link, "aria-label": label, spellcheck: "false" });
  input.addEventListener("focus", () => input.select());
  const copy = el("button", { type: "button", class: "copy-link" }, t("link.copy"));
  copy.onclick = async () => {
    const ok = await copyText(link, input);
    copy.textContent = ok ? t("link.copied") : t("link.press_ctrl_c");
    setTimeout(() => { copy.textContent = t("link.copy"); }, 2500);
  };
  row.append(input, copy);
  return row;
}

const inviteLink = (gameId, secret) => `${location.origin}${location.pathname}#/play/${gameId}/${secret}`;

export function createLobby(store, act) {
  let note = null;        // {seat, text}: a note under a seat (after copying its link)
  let noteVersion = null; // the game's version when the note was written: a move clears it
  let drawnKey = null;    // what the table was last drawn from (it is redrawn only when that changes)
  let nameKey = null;     // "game|seats": what the name form's fields were drawn for
  let nameOpen = null;    // {game, asked}: the name form is open in that game (asked: by itself, once)

  async function handOut(seat) {
    const s = store.get();
    const entry = storeEntry(s.gameId);
    const secret = entry && entry.seats[String(seat)];
    if (!secret) return;
    const link = inviteLink(s.gameId, secret);
    note = { seat, text: "" };
    noteVersion = s.view ? s.view.version : null;
    act.handOut(seat);   // this page stops playing the seat (and tells the server)
    const input = document.querySelector(`#lobby li[data-seat='${seat}'] .invite-link input`);
    const ok = await copyText(link, input);
    note = { seat, text: ok ? t("seats.link_copied") : t("seats.copy_link") };
    const box = document.querySelector(`#lobby li[data-seat='${seat}'] .lobby-note`);
    if (box) box.textContent = note.text;
  }

  function seatToBot(seat, level, select) {
    const s = store.get();
    const info = seatInfo(s, seat);
    if (!held(s, seat) && info && info.joined) {
      const n = info.name || colourOf(s, seat);
      if (!confirm(t("seats.confirm_bot", { who: n, level: levelName(level) }))) {
        select.value = "";
        return;
      }
    }
    act.send({ type: "seat", seat, kind: "bot", level });
    select.value = "";
  }

  function renderLobby(s) {
    const box = $("#lobby");
    const table = s.table;
    box.hidden = !table || !!s.replay || s.mode === "replay" || !!s.fatal;
    if (box.hidden) { drawnKey = null; return; }
    if (note && s.view && noteVersion !== null && s.view.version !== noteVersion) note = null;
    const entry = storeEntry(s.gameId) || normalEntry({});
    const over = !!(s.view && s.view.over);
    const key = JSON.stringify([s.gameId, s.mode, table, s.me, over, entry.seats, entry.handed, note && note.seat,
      heldSeats(s), s.meta.bot_levels, s.connection]);
    if (key === drawnKey) return;   // nothing new: keep what is there (a "Copied ✓", a selection)
    drawnKey = key;
    const list = $("#lobby-seats");
    // keep the focus of a link box or a select across the re-render
    const focused = document.activeElement && list.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = focused ? `${focused.closest("li") && focused.closest("li").dataset.seat}|${focused.className}|${focused.tagName}` : null;
    list.innerHTML = "";
    const creator = s.me.creator && s.mode === "play";
    for (const seat of table.seats) {
      const i = seat.seat;
      const li = el("li", { "data-seat": i, class: held(s, i) ? "mine" : "" });
      const line = el("div", { class: "seat-line" });
      line.append(swatch(s.meta, i), " ", el("span", { class: "name" }, seat.name || colourOf(s, i)));
      if (seat.name) line.append(" ", el("span", { class: "muted colour" }, `(${colourOf(s, i)})`));
      line.append(" ", el("span", { class: "kind" }, kindWords(seat)));
      const here = presence(s, seat);
      const pres = el("span", { class: `presence ${here}`, "data-presence": here });
      pres.append(el("span", { class: "dot", "aria-hidden": "true" }), PRESENCE_WORDS[here]());
      line.append(" ", pres);
      if (held(s, i)) line.append(" ", el("span", { class: "you" }, t("table.you")));
      li.append(line);
      const secret = entry.seats[String(i)];
      if (seat.kind === "human" && secret && !held(s, i) && s.mode === "play") {
        li.append(linkRow("invite-link", inviteLink(s.gameId, secret), t("seats.invite_link", { who: colourOf(s, i) })));
      }
      const tools = el("div", { class: "seat-tools" });
      if (creator && seat.kind === "human" && secret && held(s, i) && !over) {
        const b = el("button", { type: "button", class: "hand-out", title: t("seats.hand_out_about") }, t("seats.hand_out"));
        b.onclick = () => handOut(i);
        tools.append(b);
      }
      if (creator && seat.kind !== "bot" && !over) {
        const sel = el("select", { class: "seat-bot", "aria-label": t("seats.to_bot_about", { who: colourOf(s, i) }) });
        sel.append(el("option", { value: "" }, t("seats.to_bot")));
        for (const level of s.meta.bot_levels || []) sel.append(el("option", { value: level }, t("new.bot", { level: levelName(level) })));
        sel.onchange = () => { if (sel.value) seatToBot(i, sel.value, sel); };
        tools.append(sel);
      }
      if (creator && seat.kind === "bot" && !over) {
        const b = el("button", { type: "button", class: "make-person" }, t("seats.make_person"));
        b.onclick = () => act.send({ type: "seat", seat: i, kind: "human" });
        tools.append(b);
      }
      if (tools.childNodes.length) li.append(tools);
      const noteBox = el("div", { class: "lobby-note muted", "aria-live": "polite" });
      if (note && note.seat === i) noteBox.textContent = note.text;
      li.append(noteBox);
      list.append(li);
    }
    const n = table.watchers || 0;
    $("#lobby-watchers").textContent = t("seats.watchers", { n });
    $("#lobby-watchers").dataset.count = String(n);
    const share = $("#watch-share");
    share.innerHTML = "";
    share.append(el("span", { class: "muted" }, t("seats.watch_link")),
      linkRow("watch-link", `${location.origin}${location.pathname}#/watch/${s.gameId}`, t("seats.watch_link_about")));
    if (focusKey) {
      for (const c of list.querySelectorAll("input, select, button")) {
        const k = `${c.closest("li") && c.closest("li").dataset.seat}|${c.className}|${c.tagName}`;
        if (k === focusKey) { c.focus(); break; }
      }
    }
  }

  function renderPresence(s) {
    $("#rated-mark").hidden = !(s.mode === "watch" || s.mode === "play" || s.mode === "replay") || !isRated(s);
    const w = $("#watching");
    w.hidden = !(s.mode === "watch" || s.mode === "play") || !isWatcher(s) || !!s.fatal;
    const entry = s.mode === "play" && !s.fatal ? storeEntry(s.gameId) : null;
    w.textContent = entry && entry.creator ? t("seats.watching_handed") : t("seats.watching_none");
  }

  // The name form opens by itself once in this browser (the first game where the page holds a
  // seat without a name), and after that only from the small "change name" link.
  function renderNameForm(s) {
    const form = $("#name-form");
    const link = $("#name-change");
    // a seat an account holds goes by the account's name: the server refuses to rename it
    const byAccount = (i) => !!(s.table.seats[i] && s.table.seats[i].account);
    const seats = s.view && !s.view.over && s.table && !s.fatal ? heldSeats(s).filter((i) => !byAccount(i)) : [];
    const unnamed = seats.filter((i) => !seatName(s, i));
    if (nameOpen && (nameOpen.game !== s.gameId || !seats.length)) nameOpen = null;
    if (!nameOpen && unnamed.length && !nameAsked()) {
      setNameAsked();
      nameOpen = { game: s.gameId, asked: true };
    }
    if (nameOpen && nameOpen.asked && !unnamed.length) nameOpen = null;   // named meanwhile
    form.hidden = !nameOpen;
    link.hidden = !!nameOpen || !seats.length;
    link.textContent = seats.some((i) => seatName(s, i)) ? t("table.name_change") : t("table.name_set");
    const key = `${s.gameId}|${seats.join(",")}`;
    if (!nameOpen) { nameKey = null; return; }
    if (key === nameKey) return;
    nameKey = key;
    const fields = $("#name-fields");
    fields.innerHTML = "";
    const taken = new Set(((s.table && s.table.seats) || []).map((x) => x.name).filter(Boolean));
    const mine = myName();
    const shown = nameOpen.asked ? unnamed : seats;
    $("#name-title").textContent = seats.length === 1 ? t("table.your_name") : t("table.your_names");
    shown.forEach((seat, k) => {
      const label = el("label", { class: "name-field" });
      const input = el("input", { type: "text", maxlength: MAX_NAME, class: "name-input", "data-seat": seat,
        autocomplete: "nickname", spellcheck: "false", "aria-label": t("table.name_for", { who: colourOf(s, seat) }) });
      if (k === 0) input.id = "name-input";
      if (seatName(s, seat)) input.value = seatName(s, seat);
      else if (k === 0 && mine && !taken.has(mine)) input.value = mine;
      label.append(swatch(s.meta, seat), " ", input);
      fields.append(label);
    });
  }

  function submitNames(ev) {
    ev.preventDefault();
    const s = store.get();
    const inputs = [...document.querySelectorAll("#name-fields input.name-input")];
    let sent = 0;
    for (const input of inputs) {
      const name = input.value.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, MAX_NAME);
      const seat = parseInt(input.dataset.seat, 10);
      if (!name || !held(s, seat)) continue;
      if (name !== seatName(s, seat) && act.send({ type: "name", seat, name })) sent += 1;
      else if (name === seatName(s, seat)) sent += 1;   // kept as it is
      if (inputs.length === 1 || input.id === "name-input") setMyName(name);
    }
    if (!sent) { showError(t("table.name_first")); return; }
    nameOpen = null;
    render(store.get());
  }

  $("#name-form").onsubmit = submitNames;
  $("#name-skip").onclick = () => {
    nameOpen = null;
    render(store.get());
  };
  $("#name-change").onclick = () => {
    nameOpen = { game: store.get().gameId, asked: false };
    render(store.get());
    const input = $("#name-input");
    if (input) { input.focus(); input.select(); }
  };

  function render(s) {
    renderPresence(s);
    renderNameForm(s);
    renderLobby(s);
  }
  return { render };
}
