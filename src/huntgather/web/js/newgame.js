// The New game screen (#/new): edition, seats (a person or a bot of some level), who starts,
// an optional seed and a short stack; it creates the game and goes to its table.

import { $, api, el, swatch } from "./dom.js";
import { ID_RE, MAX_NAME, loadStore, myName, saveStore, setMyName } from "./storage.js";

// meta: GET /api/editions (colours, bot levels, what each level does and its place on the ladder)
export function secondsText(s) {
  if (s < 0.05) return "instant";
  if (s < 1) return `about ${Math.round(s * 10) / 10} s`;
  return `about ${Math.round(s)} s`;
}

export function setupNewForm(meta) {
  const seats = $("#seats");
  const about = meta.bot_level_text || {};

  function seatRow(i, kind) {
    const name = meta.colours[i].name;
    const li = el("li");
    li.append(swatch(meta, i), " ", name, " ");
    const sel = el("select", { "aria-label": `${name} is played by`, class: "seat-kind" });
    sel.append(el("option", { value: "human" }, "a person"));
    for (const level of meta.bot_levels) {
      sel.append(el("option", { value: `bot:${level}`, title: about[level] || "" }, `bot: ${level}`));
    }
    sel.value = kind;
    const note = el("span", { class: "muted level-text" });
    const explain = () => {
      note.textContent = sel.value.startsWith("bot:") ? ` — ${levelText(sel.value.slice(4))}` : "";
    };
    sel.addEventListener("change", explain);
    explain();
    explainers.push(explain);
    li.append(sel, note);
    return li;
  }

  // what a level does, and where the published ladder (huntgather ladder) puts it in this edition
  function levelText(level) {
    const edition = document.querySelector("input[name=edition]:checked")?.value;
    const rung = ((meta.bot_ladder || {})[edition] || {})[level];
    let text = about[level] || "";
    if (rung) {
      // (the published ladder is played by two players: say so, a move takes longer with more)
      text += ` · in two-player games: Elo ${Math.round(rung.elo)} (${Math.round(rung.elo_low)}–${Math.round(rung.elo_high)})`;
      if (rung.seconds_per_move != null) text += `, ${secondsText(rung.seconds_per_move)} a move`;
    }
    return text;
  }

  const explainers = [];
  for (const radio of document.querySelectorAll("input[name=edition]")) {
    radio.addEventListener("change", () => explainers.forEach((f) => f()));
  }

  function refreshStartSelect() {
    const n = seats.children.length;
    const sel = $("#start-player");
    const old = sel.value;
    sel.innerHTML = "";
    for (let i = 0; i < n; i++) sel.append(el("option", { value: i }, `${meta.colours[i].letter} ${meta.colours[i].name}`));
    if (old && parseInt(old, 10) < n) sel.value = old;
  }

  seats.append(seatRow(0, "human"), seatRow(1, "bot:easy"));
  refreshStartSelect();
  $("#your-name").value = myName();
  $("#add-seat").onclick = () => {
    if (seats.children.length < 5) seats.append(seatRow(seats.children.length, "bot:easy"));
    refreshStartSelect();
  };
  $("#remove-seat").onclick = () => {
    if (seats.children.length > 2) seats.lastChild.remove();
    refreshStartSelect();
  };
  $("#new-form").onsubmit = async (ev) => {
    ev.preventDefault();
    $("#new-error").textContent = "";
    const name = $("#your-name").value.trim().slice(0, MAX_NAME);
    if (name) setMyName(name);
    const setup = {
      edition: document.querySelector("input[name=edition]:checked").value,
      seats: [...seats.querySelectorAll("select")].map((s) =>
        s.value === "human" ? { kind: "human" } : { kind: "bot", level: s.value.slice(4) }),
      start_player: parseInt($("#start-player").value, 10),
    };
    if (name && setup.seats[0].kind === "human") setup.seats[0].name = name;
    // the browser takes "1e30" or "7.5" as numbers: only plain whole numbers are sent, exactly
    const seed = $("#seed").value.trim();
    if ($("#seed").validity.badInput || (seed !== "" && !(/^\d{1,19}$/.test(seed) && BigInt(seed) < 2n ** 63n))) {
      $("#new-error").textContent = "The seed must be a whole number from 0 to 9223372036854775807 " +
        "(digits only), or empty for a secret random deal.";
      $("#seed").focus();
      return;
    }
    const short = $("#short").value.trim();
    if ($("#short").validity.badInput || (short !== "" && !(/^\d{1,3}$/.test(short) && +short >= 1))) {
      $("#new-error").textContent = "A short game needs a whole number of tiles (digits only, at least 1), " +
        "or leave it empty for the whole stack.";
      $("#short").focus();
      return;
    }
    if (short !== "") setup.short = parseInt(short, 10);
    $("#start-game").disabled = true;
    try {
      // a seed may be larger than a JavaScript number holds exactly: its digits go into the JSON as they are
      let body = JSON.stringify(setup);
      if (seed !== "") body = body.replace(/}$/, `,"seed":${seed}}`);
      const res = await api("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
        body });
      if (!res || !ID_RE.test(res.id)) throw new Error("the server answered without a game id");
      const all = loadStore();
      all[res.id] = { creator: res.creator, seats: { ...(res.seats || {}) }, handed: [], created: Date.now() };
      saveStore(all);
      location.hash = `#/play/${res.id}`;
    } catch (e) {
      $("#new-error").textContent = e.message;
    } finally {
      $("#start-game").disabled = false;
    }
  };
}
