// The guided first game: the Learn to play screen (#/learn: choose the edition, the game is
// created with the setup field `tutorial`), and, in a game whose snapshot says `tutorial`, the
// coach's panel over the board: the step's text (GET /api/tutorial/{edition}: the steps and the
// coach's words, every sentence kept in data/tutorial/coach.<lang>.json), the square or the
// piece to play highlighted, the coach's words for a move the server refused (`tutorial_move`,
// its `explain` key), "Next" after each of red's scripted steps, and a closing card with the
// final scores and a real game against a bot.
//
//   const tutorial = createTutorial(store);   tutorial.render(state, action)   (a store listener)

import { $, api, svgEl } from "./dom.js";
import { language, t } from "./i18n.js";
import { parsePiece, parsePlace } from "./notation.js";
import { openCreatedGame } from "./storage.js";

// ------------------------------------------------------------------ pure: where the script is

// the index of the step at `ply` moves (draws included) from the script's start: the step whose
// last move is still to come (null: the script is over); huntgather.tutorial.step_at
export function stepAt(script, ply) {
  let done = 0;
  for (let i = 0; i < script.steps.length; i++) {
    done += script.steps[i].moves;
    if (ply < done) return i;
  }
  return null;
}

// what the coach shows at game version `version` once the learner has read red's steps up to
// index `seen`: {kind: "watch", index} (red's step played, its text and Next), {kind: "do",
// index} (the learner's step), {kind: "wait", index} (red to play), {kind: "end"}
export function coachAt(script, version, seen) {
  const at = stepAt(script, version);
  const limit = at === null ? script.steps.length : at;
  for (let i = seen + 1; i < limit; i++) {
    if (script.steps[i].check === "watch") return { kind: "watch", index: i };
  }
  if (at === null) return { kind: "end" };
  return { kind: script.steps[at].check === "watch" ? "wait" : "do", index: at };
}

// a scripted move's text (huntgather.moves): a placement or a piece, or null
export function parseScripted(word) {
  const place = parsePlace(word);
  if (place) return { kind: "place", ...place };
  const piece = parsePiece(word);
  if (piece) return { kind: "occupy", ...piece };
  return word === "-" ? { kind: "pass" } : null;
}

// ------------------------------------------------------------------ the Learn to play screen

// the header's Learn to play link: its name (its words are hidden on a narrow screen) in the
// page's language, again whenever the language changes (<html lang>)
function labelLearn() {
  $("#nav-learn").setAttribute("aria-label", t("nav.learn"));
}

export function setupLearn() {
  labelLearn();
  new MutationObserver(labelLearn).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
  for (const b of document.querySelectorAll("#learn-editions button[data-edition]")) {
    b.onclick = async () => {
      $("#learn-error").textContent = "";
      for (const other of document.querySelectorAll("#learn-editions button")) other.disabled = true;
      try {
        openCreatedGame(await api("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ tutorial: b.dataset.edition }) }));
      } catch (e) {
        $("#learn-error").textContent = t("learn.failed", { detail: e.message });
      } finally {
        for (const other of document.querySelectorAll("#learn-editions button")) other.disabled = false;
      }
    };
  }
}

// a real game against the easy bot, in the edition just learnt
async function realGame(edition) {
  try {
    openCreatedGame(await api("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ edition, seats: [{ kind: "human" }, { kind: "bot", level: "easy" }] }) }));
  } catch (e) {
    $("#coach-retry").textContent = t("learn.failed", { detail: e.message });
  }
}

// ------------------------------------------------------------------ the coach in a game

// red's steps read (Next) in a game: kept for this tab, so that a page loaded again (the
// language switched in the settings reloads it) does not show them again
const SEEN_KEY = "huntgather.coach.seen";

function savedSeen() {
  try {
    const got = JSON.parse(sessionStorage.getItem(SEEN_KEY) || "null");
    if (got && typeof got.game === "string" && Number.isInteger(got.index)) return got;
  } catch (e) { /* storage disabled, or not ours */ }
  return { game: null, index: -1 };
}

function keepSeen(seen) {
  try { sessionStorage.setItem(SEEN_KEY, JSON.stringify(seen)); } catch (e) { /* storage full or disabled */ }
}

export function createTutorial(store) {
  const scripts = new Map();   // `${edition}/${lang}` -> the script's promise, then the script
  let seen = savedSeen();      // red's steps read (Next) in the open game
  let retry = null;            // {version, key}: the coach's words for the last refused move
  let closed = null;           // the game whose closing card was put away
  let rotated = null;          // `${game}/${version}`: the tile in hand turned as the step asks, once

  // the edition's script and coach's words in the page's language (asked for once; meanwhile,
  // the words of a language the page spoke before, if any, so that the coach stays on screen)
  function script(edition) {
    const key = `${edition}/${language()}`;
    const got = scripts.get(key);
    if (got && !(got instanceof Promise)) return got;
    if (!got) {
      scripts.set(key, api(`/api/tutorial/${encodeURIComponent(edition)}?lang=${encodeURIComponent(language())}`)
        .then((data) => { scripts.set(key, data); store.dispatch({ type: "coach" }); })   // drawn again
        .catch(() => scripts.delete(key)));
    }
    for (const [k, other] of scripts) {
      if (k.startsWith(`${edition}/`) && !(other instanceof Promise)) return other;
    }
    return null;
  }

  // the page's language changed: the coach's words of the step on screen come in the new one
  new MutationObserver(() => store.dispatch({ type: "coach" }))
    .observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });

  function hide() {
    $("#coach").hidden = true;
    $("#screen-play").classList.remove("coach-wait", "coach-on");
    for (const e of document.querySelectorAll("#viewport .coach-spot")) e.remove();
  }

  // the square to play: a glowing frame, and the tile turned as it must go (ghost)
  function markSquare(s, move) {
    for (const e of document.querySelectorAll("#viewport .coach-spot")) e.remove();
    const ts = s.tiles[s.view.edition];
    const g = svgEl("g", { class: "coach-spot", "data-x": move.x, "data-y": move.y, "data-rotation": move.rotation });
    if (ts && ts.tiles[move.tile] && !s.pending) {
      const ghost = svgEl("g", { class: "coach-ghost", transform: `translate(${move.x * 100} ${move.y * 100})` });
      ghost.innerHTML = ts.tiles[move.tile].svg[move.rotation];
      g.append(ghost);
    }
    g.append(svgEl("rect", { x: move.x * 100 + 2, y: move.y * 100 + 2, width: 96, height: 96 }));
    $("#viewport").append(g);
  }

  // the piece to choose: its button in the list of choices, and its spot on the tile
  function markChoice(move) {
    for (const b of document.querySelectorAll("#choices button[data-kind], #viewport g.spot[data-kind]")) {
      const same = move.kind === "pass" ? b.dataset.kind === "pass"
        : b.dataset.kind === "occupy" && +b.dataset.zone === move.zone && b.dataset.piece === move.piece;
      b.classList.toggle("coach-choice", same);
    }
  }

  function render(s, action) {
    const v = s.view;
    if (!v || !v.tutorial || s.mode !== "play" || s.replay) { hide(); return; }
    const sc = script(v.tutorial);
    if (!sc) { hide(); return; }
    if (seen.game !== s.gameId) { seen = { game: s.gameId, index: -1 }; retry = null; keepSeen(seen); }
    const at = coachAt(sc, v.version, seen.index);
    // the tile put down as asked (not yet confirmed): the coach goes on to the piece of the same turn
    const next = at.kind === "do" ? sc.steps[at.index + 1] : null;
    const asked = at.kind === "do" ? parseScripted(sc.steps[at.index].move) : null;
    if (next && asked && asked.kind === "place" && s.pending && s.pending.x === asked.x && s.pending.y === asked.y
        && s.pending.rotation === asked.rotation && next.player === sc.steps[at.index].player) {
      at.index += 1;
    }
    // the server refused a move at this step (`tutorial_move`): the coach's words for why, until
    // the learner goes on
    if (action && action.type === "error" && action.code === "tutorial_move") {
      retry = { version: v.version, index: at.index, key: action.explain || "retry.move" };
    }
    if (retry && (retry.version !== v.version || retry.index !== at.index)) retry = null;
    const box = $("#coach");
    box.hidden = false;
    $("#screen-play").classList.add("coach-on");
    $("#screen-play").classList.toggle("coach-wait", at.kind === "watch");
    const total = sc.steps.length;
    $("#coach-step").textContent = at.kind === "end" ? "" : t("coach.step", { n: at.index + 1, total });
    $("#coach-next").hidden = at.kind !== "watch";
    $("#coach-end").hidden = at.kind !== "end" || closed === s.gameId;
    $("#coach-reopen").hidden = !(at.kind === "end" && closed === s.gameId);
    $("#coach-retry").textContent = retry && at.kind === "do" ? sc.coach[retry.key] || "" : "";
    box.dataset.step = at.kind === "end" ? "end" : sc.steps[at.index].key;
    box.dataset.kind = at.kind;
    for (const e of document.querySelectorAll("#viewport .coach-spot")) e.remove();
    if (at.kind === "end") {
      $("#coach-text").textContent = "";
      const [you, red] = (v.players || []).map((p) => p.score);
      $("#coach-final").textContent = t("coach.final", { you, red });
      $("#coach-other").dataset.edition = v.tutorial === "2020" ? "2002" : "2020";
      return;
    }
    const step = sc.steps[at.index];
    $("#coach-text").textContent = at.kind === "wait" ? t("coach.waiting") : sc.coach[step.key] || "";
    if (at.kind !== "do" || !v.decision || v.decision.player !== step.player) return;
    const move = parseScripted(step.move);
    if (!move) return;
    if (move.kind === "place" && v.decision.phase === "place") {
      const here = `${s.gameId}/${v.version}`;
      if (rotated !== here && !s.pending) {   // the tile in hand turned as it must go, once a step
        rotated = here;
        // after the listeners of this change (the board is drawn again with the new rotation)
        queueMicrotask(() => store.dispatch({ type: "rotate", rotation: move.rotation, selected: [move.x, move.y] }));
        return;
      }
      if (!s.pending) markSquare(s, move);
    } else if (move.kind !== "place") {
      markChoice(move);
    }
  }

  $("#coach-next").onclick = () => {
    const s = store.get();
    const sc = s.view && s.view.tutorial ? script(s.view.tutorial) : null;
    if (!sc) return;
    const at = coachAt(sc, s.view.version, seen.index);
    if (at.kind === "watch") { seen = { game: s.gameId, index: at.index }; keepSeen(seen); }
    render(store.get());
    if (!$("#coach-next").hidden) $("#coach-next").focus();
  };
  $("#coach-real").onclick = () => { const v = store.get().view; if (v) realGame(v.edition); };
  $("#coach-other").onclick = () => { location.hash = "#/learn"; };
  $("#coach-close").onclick = () => { closed = store.get().gameId; render(store.get()); };
  $("#coach-reopen").onclick = () => { closed = null; render(store.get()); };
  return { render };
}
