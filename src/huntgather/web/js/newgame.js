// The New game screen (#/new): edition, seats (a person or a bot of some level), who starts,
// an optional seed and a short stack; it creates the game and goes to its table.

import { clockFieldset, formClock } from "./clock.js";
import { $, api, el, swatch } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { colourName, levelAbout, levelName } from "./terms.js";
import { MAX_NAME, myName, openCreatedGame, setMyName } from "./storage.js";

// meta: GET /api/editions (colours, bot levels, what each level does in a player's words, from the
// level's registration in bots/levels.py, and its place on the ladder)

// the normal stack of the edition chosen (how many tiles a short game may keep at most)
const normalTiles = (meta) => {
  const edition = document.querySelector("input[name=edition]:checked")?.value;
  const ed = (meta.editions || []).find((e) => e.name === edition);
  return (ed && ed.normal_tiles) || 78;
};

// the form as the player sees it now: the "Rated" box only while signed in (me: GET /api/me, or null)
export function showNewForm(me) {
  const box = $("#rated-box");
  box.hidden = !me;
  $("#rated-guest").hidden = !!me;
  $("#you-fieldset").hidden = !!me;   // signed in, the first seat takes the account's name
  if (!me) $("#rated").checked = false;
  ratedChanged();
}

// a rated or a public game is dealt in secret: no seed while "Rated" or "List in the public lobby" is ticked
function ratedChanged() {
  const secret = $("#rated").checked || $("#public").checked;
  $("#seed").disabled = secret;
  if (secret) $("#seed").value = "";
}

export function setupNewForm(meta) {
  $("#rated").addEventListener("change", ratedChanged);
  $("#public").addEventListener("change", ratedChanged);
  const seats = $("#seats");
  const about = meta.bot_level_text || {};

  function seatRow(i, kind) {
    const name = colourName(meta.colours[i].name);
    const li = el("li");
    li.append(swatch(meta, i), " ", name, " ");
    const sel = el("select", { "aria-label": t("new.played_by", { name }), class: "seat-kind" });
    sel.append(el("option", { value: "human" }, t("new.person")));
    for (const level of meta.bot_levels) {
      sel.append(el("option", { value: `bot:${level}`, title: levelAbout(level, about[level] || "") },
        t("new.bot", { level: levelName(level) })));
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
    let text = levelAbout(level, about[level] || "");
    if (rung) {
      // its rating on the published ladder (Elo: higher is stronger; 200 more wins about three
      // games in four), played by two players.  (The ladder's seconds a move are the search's
      // own time on the machine that ran it, not the wait at this table: the words above say that.)
      text += ` · ${t("new.strength", { elo: Math.round(rung.elo) })}`;
    }
    return text;
  }

  const explainers = [];
  // the short game's box says (and allows) how many tiles the chosen edition's stack has
  function shortRange() {
    const most = normalTiles(meta);
    $("#short").max = String(most);
    $("#short-range").textContent = t("new.short_range", { most });
  }
  for (const radio of document.querySelectorAll("input[name=edition]")) {
    radio.addEventListener("change", () => { explainers.forEach((f) => f()); shortRange(); });
  }
  shortRange();

  function refreshStartSelect() {
    const n = seats.children.length;
    const sel = $("#start-player");
    const old = sel.value;
    sel.innerHTML = "";
    for (let i = 0; i < n; i++) sel.append(el("option", { value: i }, `${meta.colours[i].letter} ${colourName(meta.colours[i].name)}`));
    if (old && parseInt(old, 10) < n) sel.value = old;
  }

  if (!$("#clock-choice")) $("#start-game").before(clockFieldset(meta.bot_levels));
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
    const signedIn = !$("#rated-box").hidden;
    const name = signedIn ? "" : $("#your-name").value.trim().slice(0, MAX_NAME);
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
      $("#new-error").textContent = t("new.bad_seed");
      $("#seed").focus();
      return;
    }
    const short = $("#short").value.trim();
    const most = normalTiles(meta);
    if ($("#short").validity.badInput || (short !== "" && !(/^\d{1,3}$/.test(short) && +short >= 1 && +short <= most))) {
      $("#new-error").textContent = t("new.bad_short", { most });
      $("#short").focus();
      return;
    }
    if (short !== "") setup.short = parseInt(short, 10);
    if (signedIn && $("#rated").checked) setup.rated = true;
    if ($("#public").checked) {
      if (setup.seats.filter((x) => x.kind === "human").length < 2) {
        $("#new-error").textContent = t("new.public_needs_person");
        return;
      }
      setup.public = true;
    }
    const clock = formClock();
    if (clock.error) {
      $("#new-error").textContent = clock.error;
      $(`#${clock.focus}`).focus();
      return;
    }
    Object.assign(setup, clock.fields);
    $("#start-game").disabled = true;
    try {
      // a seed may be larger than a JavaScript number holds exactly: its digits go into the JSON as they are
      let body = JSON.stringify(setup);
      if (seed !== "") body = body.replace(/}$/, `,"seed":${seed}}`);
      openCreatedGame(await api("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
        body }));
    } catch (e) {
      if (e.code === "sign_in_required") {
        $("#new-error").textContent = t("new.rated_signed_out");
        return;
      }
      // the server's words for a setup it refuses are a programmer's: the form's own, where it has them
      $("#new-error").textContent = e.message.startsWith("short must")
        ? t("new.bad_short", { most: normalTiles(meta) }) : e.code ? errorText(e.code) : e.message;
    } finally {
      $("#start-game").disabled = false;
    }
  };
}
