// The panel beside the board (below it on a phone): whose turn, the players' scores and
// supplies, the tile to place with its buttons, the choices of the turn, the hints, the stacks
// and remaining tiles, the game log, the final table, the replay position, and the tab title.
// It reads the game from the store; its buttons ask for the player's steps through `act`.

import { language, t } from "./i18n.js";
import { $, el, svgEl, swatch } from "./dom.js";
import {
  againstBots, canConfirm, canUndoTurn, canon, choiceLabel, currentHints, held, isRated, letterOf, myTurn, placementsForRotation, rgbOf, sameMove,
  logWords, presence, rowWords, sayWords, seatInfo, seatLabel, seatName, seatNames, colourOf, who,
} from "./game.js";
import { bonusName, levelName } from "./terms.js";
import { moveAttrs } from "./board.js";
import { clockSpan, hasClock, startClockTicks } from "./clock.js";
import { linkRow } from "./lobby.js";
import { projectionWords } from "./projection.js";
import { showProjection, showRemaining } from "./settings.js";
import { turnBell } from "./sounds.js";

const title = () => t("page.title");

// the line that says whose turn it is (exported for tests/js)
export function turnText(s) {
  const v = s.view;
  const d = v.decision;
  if (v.over) return t("turn.over");
  if (v.replay || s.replay) return t("turn.replay", { text: decisionWords(s) });
  if (d.player === null || d.player === undefined) return decisionWords(s);
  if (s.table && s.table.lobby) return t("turn.lobby");
  const bonus = d.stack === "bonus" ? ` (${language() === "en" && v.bonus_name ? v.bonus_name : bonusName(v.edition)})` : "";
  const info = seatInfo(s, d.player);
  const name = who(s, d.player);
  if (info && info.kind === "bot") return t("turn.bot", { who: name, level: levelName(info.level) }) + bonus;
  if (held(s, d.player)) return t("turn.yours", { who: name }) + bonus;
  const away = { offline: () => t("turn.offline"), "not-joined": () => t("turn.not_joined") }[presence(s, info)];
  if (info && away) return t("turn.waiting", { who: seatName(s, d.player) || colourOf(s, d.player), why: away() }) + bonus;
  return t("turn.to_play", { who: name }) + bonus;
}

// the decision in words ("red to place the tile drawn")
function decisionWords(s) {
  const v = s.view;
  const d = v.decision;
  if (d.say || d.text) return sayWords(s, d.say, d.text);
  return v.over ? t("turn.over") : t("turn.nobody");
}

// what is on a tile, zone by zone ("meadow (an aurochs) · forest (1 menhir) · river")
const tileWords = (s, tile) => sayWords(s, tile.say, tile.text);

const tileLabel = (n) => t("table.tile_n", { n });

export function createPanel(store, act, board) {
  startClockTicks();
  // a log line or final-table row that lights up its feature's squares on the board
  function hoverable(node, tiles) {
    if (!Array.isArray(tiles) || !tiles.length) return;
    node.dataset.tiles = tiles.join(",");
    node.tabIndex = 0;
    node.classList.add("has-feature");
    node.title = t("table.shows_feature");
    const on = () => board.highlight(tiles);
    const off = () => board.clearHighlight();
    node.addEventListener("mouseenter", on);
    node.addEventListener("focus", on);
    node.addEventListener("click", on);
    node.addEventListener("mouseleave", off);
    node.addEventListener("blur", off);
  }

  function clear() {
    for (const id of ["#choices", "#hints", "#log", "#players tbody", "#score-strip", "#projection"]) $(id).innerHTML = "";
    $("#projection").hidden = true;
    $("#final").hidden = true;
    $("#game-summary").hidden = true;
    delete $("#game-summary").dataset.scoring;
    summaryKey = null;
    $("#turn").textContent = "";
    $("#tile-panel").hidden = true;
    $("#actions").hidden = true;
    $("#undo-turn").hidden = true;
    // nothing of a previous game stays (a wrong link after a game): its tile, stacks and tiles left
    for (const id of ["#current-tile", "#bar-tile", "#tile-text", "#remaining-count", "#menhir-count", "#deal",
      "#remaining-list", "#final-table", "#winners"]) $(id).innerHTML = "";
    $("#remaining-list").hidden = true;
    $("#turn").style.borderLeft = "";   // the last mover's colour
  }

  function renderTurn(s) {
    const v = s.view;
    const d = v.decision;
    const turn = $("#turn");
    turn.textContent = turnText(s);
    turn.dataset.player = d.player === null || d.player === undefined ? "" : String(d.player);
    turn.dataset.mine = myTurn(s) ? "yes" : "no";
    const mover = d.player === null || d.player === undefined || v.over ? null : d.player;
    turn.style.borderLeft = `.5em solid ${mover === null ? "transparent" : rgbOf(s, mover)}`;
  }

  function renderPlayers(s) {
    const v = s.view;
    const body = $("#players tbody");
    body.innerHTML = "";
    for (const p of v.players) {
      const tr = el("tr", { class: p.seat === v.decision.player && !v.over ? "current" : "", "data-seat": p.seat });
      const info = seatInfo(s, p.seat);
      const name = el("td", { class: held(s, p.seat) ? "me" : "" });
      name.append(swatch(s.meta, p.seat), " ", el("span", { class: "player-name" }, who(s, p.seat)));
      if (info && info.kind === "bot") name.append(el("span", { class: "muted" }, ` · ${t("seat.bot", { level: levelName(info.level) })}`));
      if (info && info.kind === "remote") name.append(el("span", { class: "muted" }, ` (${t("seat.remote")})`));
      if (held(s, p.seat)) name.append(" ", el("span", { class: "you" }, t("table.you")));
      if (hasClock()) name.append(" ", clockSpan(p.seat));
      tr.append(name, el("td", { class: "score" }, String(p.score)), el("td", {}, String(p.meeples)),
        el("td", {}, String(p.huts)));
      body.append(tr);
    }
  }

  // each player's score if the game ended now, by kind (the live projection; a setting hides it)
  function renderProjection(s) {
    const v = s.view;
    const list = $("#projection");
    list.innerHTML = "";
    list.hidden = !(v.projection && showProjection());
    if (list.hidden) return;
    for (const p of v.players) {
      const li = el("li", { "data-seat": p.seat });
      li.append(swatch(s.meta, p.seat), " ", `${who(s, p.seat)}: ${projectionWords(v, p.seat)}`);
      list.append(li);
    }
  }

  // the scores in one line over the board (a phone shows it; its players' table is in the sheet)
  function renderStrip(s) {
    const v = s.view;
    const strip = $("#score-strip");
    strip.innerHTML = "";
    for (const p of v.players) {
      const li = el("li", { "data-seat": p.seat, class: p.seat === v.decision.player && !v.over ? "current" : "",
        title: `${who(s, p.seat)}: ${t("count.points", { n: p.score })}`
          + (v.projection && showProjection() ? `; ${projectionWords(v, p.seat)}` : "") });
      li.append(swatch(s.meta, p.seat), " ", el("span", { class: "score" }, String(p.score)));
      strip.append(li);
    }
  }

  // the end of the game: who won, the final scores, where to go next; the final scoring is lit
  // on the board feature by feature (board.js), and said here as it goes
  let summaryKey = null;
  function renderSummary(s) {
    const v = s.view;
    const box = $("#game-summary");
    const show = !!(v.over && v.final) && s.mode !== "replay" && !s.replay;
    box.hidden = !show;
    if (!show) { summaryKey = null; delete box.dataset.scoring; return; }
    const key = JSON.stringify([s.gameId, v.version, s.table, s.me]);
    if (key === summaryKey) return;   // keep what is there (a "Copied ✓", the line of the scoring)
    const first = summaryKey === null;
    summaryKey = key;
    const f = v.final;
    const mine = f.winners.filter((i) => held(s, i));
    const best = f.scores[f.winners[0]];
    const names = f.winners.map((i) => who(s, i)).join(t("final.and"));
    let line;
    if (f.winners.length > 1) {
      line = mine.length ? t("final.shared_you", { names, n: best }) : t("final.shared", { names, n: best });
    } else {
      line = mine.length ? t("final.won_you", { names, n: best }) : t("final.won", { names, n: best });
    }
    $("#summary-winner").textContent = line;
    box.dataset.winners = f.winners.join(",");
    const list = $("#summary-scores");
    list.innerHTML = "";
    const order = v.players.map((p) => p.seat).sort((a, b) => f.scores[b] - f.scores[a] || a - b);
    for (const i of order) {
      const li = el("li", { "data-seat": i, class: f.winners.includes(i) ? "winner" : "" });
      li.append(swatch(s.meta, i), " ", el("span", { class: "player-name" }, who(s, i)),
        held(s, i) ? " " : "", held(s, i) ? el("span", { class: "you" }, t("table.you")) : "",
        " ", el("span", { class: "score" }, t("count.points", { n: f.scores[i] })));
      if (f.winners.includes(i)) li.append(" ", el("span", { class: "winner-mark" }, `★ ${t("table.winner_mark")}`));
      list.append(li);
    }
    $("#summary-replay").href = `#/replay/${encodeURIComponent(s.gameId)}/1`;
    const share = $("#summary-share");
    share.innerHTML = "";
    share.append(el("span", { class: "muted" }, t("table.share")),
      linkRow("watch-link", `${location.origin}${location.pathname}#/watch/${s.gameId}`, t("table.share_link")));
    if (first) box.scrollIntoView({ block: "nearest" });   // the panel may have been scrolled down
    if (first && !box.dataset.scoring) {   // (the board may have lit every feature already)
      const n = f.rows.length;
      $("#summary-now").textContent = n ? t("table.final_features", { n }) : t("table.final_nothing");
    }
  }

  // told by the board of each feature lit in the final scoring (-1: every one is lit)
  board.onFinalStep((i, rows) => {
    const now = $("#summary-now");
    const box = $("#game-summary");
    if (i < 0) {
      box.dataset.scoring = "done";
      const n = rows.length;
      now.textContent = n ? t("table.final_done", { n }) : t("table.final_nothing");
      return;
    }
    box.dataset.scoring = "running";
    now.textContent = t("table.final_step", { i: i + 1, n: rows.length, text: rowWords(store.get(), rows[i]) });
  });

  // the tile in hand as last drawn (its tiles' set, tile and rotation): its markup is put in
  // again only when one of them changes (the tiles' defs are those beside the board, <svg id="tile-defs">)
  let tileShown = null;
  function renderTile(s, ts) {
    const v = s.view;
    const d = v.decision;
    const mine = myTurn(s);
    const placing = d.phase === "place" && d.tile !== null && d.tile !== undefined && !v.over;
    $("#tile-panel").hidden = !placing && !s.pending;
    // the tile in hand again, small, in the action bar (shown where the bar is fixed at the foot of
    // the panel beside the board: a phone or a tablet on its side); the defs beside the board serve it
    $("#bar-tile").toggleAttribute("hidden", !placing);   // an SVG element has no .hidden
    if (placing) {
      const rot = mine ? (s.pending ? s.pending.rotation : s.rotation) : 0;
      if (!tileShown || tileShown.ts !== ts || tileShown.tile !== d.tile || tileShown.rot !== rot
          || !$("#current-tile").firstChild) {
        tileShown = { ts, tile: d.tile, rot };
        $("#current-tile").innerHTML = ts.tiles[d.tile].svg[rot];
        $("#bar-tile").innerHTML = ts.tiles[d.tile].svg[rot];
      }
      const what = d.stack === "bonus" ? t("table.tile_bonus", { tile: bonusName(v.edition) }) : t("table.tile");
      $("#tile-text").textContent = `${what}: ${tileWords(s, ts.tiles[d.tile])}`;
    } else {
      tileShown = null;
      $("#current-tile").innerHTML = "";
      $("#bar-tile").innerHTML = "";
      $("#tile-text").textContent = "";
    }
    const canRotate = mine && d.phase === "place" && !s.pending;
    for (const id of ["#rotate-cw", "#rotate-ccw", "#next-spot"]) {
      $(id).disabled = !canRotate;
      $(id).hidden = !mine;
    }
    if (canRotate && !placementsForRotation(s).length) {
      $("#tile-text").textContent += ` — ${t("table.no_position")}`;
    }
    $("#actions").hidden = !mine;
    $("#confirm").disabled = !canConfirm(s);
    $("#undo").disabled = !s.pending || !!s.sentTurn;
    $("#undo-turn").hidden = !againstBots(s) || isRated(s);
    $("#undo-turn").disabled = !canUndoTurn(s);
  }

  // the choices of a placed tile, as a list in words (keys 1–9, 0 = none)
  function renderChoices(s) {
    const box = $("#choices");
    box.innerHTML = "";
    const p = s.pending;
    if (!p || !myTurn(s)) return;
    const pv = p.preview;
    if (!pv) {
      box.append(el("p", { class: "muted" }, t("table.checking")));
      return;
    }
    for (const e of pv.events || []) box.append(el("p", { class: "preview-event" }, logWords(s, e)));
    if (pv.turn_over) {
      box.append(el("p", {}, t("table.no_piece")));
      return;
    }
    // a special tile's question (the shaman's take-back, or any other): the server words it
    const asks = pv.decision && pv.decision.special;
    box.append(el("p", {}, asks ? sayWords(s, pv.decision.prompt_say || pv.decision.say, pv.decision.prompt || pv.decision.text) : t("table.put_piece")));
    let n = 0;
    for (const m of (pv.legal || []).filter((x) => canon(x))) {
      const key = m.kind === "pass" ? "[0]" : (++n <= 9 ? `[${n}]` : "");
      const chosen = !!p.choice && sameMove(m, p.choice);
      const b = el("button", { type: "button", ...moveAttrs(m), class: chosen ? "selected" : "",
        "aria-pressed": chosen ? "true" : "false" }, `${key} ${choiceLabel(s, m)}`.trim());
      b.onclick = () => act.choose(m);
      box.append(b);
    }
  }

  function renderHints(s) {
    const box = $("#hints");
    box.innerHTML = "";
    const h = currentHints(s);
    const mine = myTurn(s);
    $("#hint").hidden = isRated(s);   // no hints in a rated game
    $("#hint").disabled = isRated(s) || !mine || !!h || !!(s.pending && (!s.pending.preview || s.pending.preview.turn_over));
    if (!h || !mine) return;
    if (!h.turns) {
      box.append(el("p", { class: "muted" }, t("hint.thinking")));
      return;
    }
    if (!h.turns.length) {
      box.append(el("p", { class: "muted" }, t("hint.none")));
      return;
    }
    box.append(el("p", {}, t("hint.title")));
    h.turns.forEach((turn, i) => {
      // where the tile goes, in words (the board marks the square with the hint's number too)
      const square = turn.where ? sayWords(s, turn.where_say, turn.where) : "";
      const where = square ? `${square.charAt(0).toUpperCase()}${square.slice(1)}: ` : "";
      const b = el("button", { type: "button", class: "hint-turn",
        "data-moves": JSON.stringify((turn.moves || []).map(canon)) },
      `${i + 1}. ${where}${sayWords(s, turn.say, turn.text)}`);
      if (typeof turn.value === "number") {
        // the search's estimate for you, as a chance to win (short and whole games alike)
        const pc = Math.round(turn.value * 100);
        const chance = pc < 1 ? t("hint.under_1") : pc > 99 ? t("hint.over_99") : t("hint.about_pc", { pc });
        b.append(el("span", { class: "win-chance muted", title: t("hint.chance_about") },
          ` · ${t("hint.chance", { chance })}`));
      }
      const me = s.view.decision.player;
      if (Array.isArray(turn.predicted) && turn.predicted.length === s.view.players.length) {
        // whole games: the learned evaluation's final scores after this turn, yours first, and your lead
        const order = turn.predicted.map((_, p) => p).filter((p) => p !== me);
        const words = [me, ...order].map((p) => `${p === me ? t("table.you") : colourOf(s, p)} ${Math.round(turn.predicted[p])}`);
        const lead = Math.round(turn.predicted[me]) - Math.max(...order.map((p) => Math.round(turn.predicted[p])));
        const ahead = lead > 0 ? t("hint.ahead", { n: lead }) : lead < 0 ? t("hint.behind", { n: -lead }) : t("hint.level");
        b.append(el("span", { class: "predicted muted", title: t("hint.predicted_about") },
          ` · ${t("hint.predicted", { scores: words.join(", "), lead: ahead })}`));
      }
      b.onclick = () => act.tryHint(turn);
      box.append(b);
    });
  }

  function renderStacks(s, ts) {
    const v = s.view;
    const left = v.remaining ? v.remaining.length : 0;
    $("#remaining-count").textContent = t("table.tiles_left", { n: left });
    $("#menhir-count").textContent = String(v.edition) === "2002" ? t("table.bonus_left", { n: v.bonus_left ?? 0 })
      : t("table.menhir_left", { n: v.bonus_left ?? 0 });
    const deal = [];
    if (v.deal === "seeded") deal.push(t("table.seeded"));
    if (v.seed !== null && v.seed !== undefined) deal.push(t("table.seed", { seed: v.seed }));
    $("#deal").textContent = deal.length ? ` · ${deal.join(", ")}` : "";
    const list = $("#remaining-list");
    list.hidden = !showRemaining();
    if (list.hidden) return;
    list.innerHTML = "";
    for (const t of v.remaining || []) {
      const pic = svgEl("svg", { viewBox: "0 0 100 100", role: "img", "aria-label": tileLabel(t) });
      pic.innerHTML = ts.tiles[t].svg[0];
      list.append(pic);
    }
    if (!document.getElementById("remaining-defs")) {
      const holder = svgEl("svg", { id: "remaining-defs", width: 0, height: 0, "aria-hidden": "true" });
      holder.innerHTML = ts.defs;
      document.body.append(holder);
    }
  }

  // the log as last drawn: its events (the view's array: a new one whenever an update adds to
  // it, the old events kept), the players' names, the language and the lines drawn.  Drawn again
  // only when the names or the language changed or the events are not the old ones followed by
  // new ones (another game, a turn undone); otherwise only the new events are added
  let logShown = null;
  function renderLog(s) {
    const logEl = $("#log");
    const log = s.view.log;
    const names = seatNames(s);
    const lang = language();
    const old = logShown;
    const grows = old && old.names === names && old.lang === lang && logEl.childElementCount === old.lines
      && log.length >= old.log.length && (!old.log.length || (log[0] === old.log[0]
        && log[old.log.length - 1] === old.log[old.log.length - 1]));
    if (grows && log.length === old.log.length) return;
    let n = grows ? old.lines : 0;
    if (!grows) logEl.innerHTML = "";
    for (const e of log.slice(grows ? old.log.length : 0)) {
      if (e.kind === "TileDrawn") continue;
      const li = el("li", { class: /^[A-Za-z]+$/.test(e.kind || "") ? e.kind : "" });
      li.append(el("span", { class: "n", "aria-hidden": "true" }, `${++n}.`), el("span", { class: "text" }, logWords(s, e)));
      if (e.kind === "FeatureScored") hoverable(li, e.tiles);
      logEl.append(li);
    }
    logShown = { log, names, lang, lines: n };
    // the newest line in view, once the frame is laid out (asking for the height now would lay
    // the page out in the middle of drawing it)
    if (!logScroll) {
      logScroll = requestAnimationFrame(() => { logScroll = 0; logEl.scrollTop = logEl.scrollHeight; });
    }
  }
  let logScroll = 0;

  // the final scoring: what was scored during play, a row per river system and meadow, the totals
  function renderFinal(s) {
    const v = s.view;
    $("#final").hidden = !v.final;
    if (!v.final) return;
    const table = $("#final-table");
    table.innerHTML = "";
    const head = el("tr");
    head.append(el("th", {}, t("final.head")));
    for (const p of v.players) head.append(el("th", { class: "num", title: who(s, p.seat) }, letterOf(s, p.seat)));
    table.append(head);
    // what was scored during play, so that every column adds up to its total
    const during = v.final.scores.map((total, i) => total - v.final.rows.reduce((sum, r) => sum + (r.points[i] || 0), 0));
    const first = el("tr", { class: "row-play" });
    first.append(el("td", {}, t("final.during_play")));
    for (const pts of during) first.append(el("td", { class: "num" }, String(pts)));
    table.append(first);
    for (const row of v.final.rows) {
      const tr = el("tr", { class: `row-${row.kind}` });
      tr.append(el("td", {}, rowWords(s, row)));
      for (const pts of row.points) tr.append(el("td", { class: "num" }, String(pts)));
      hoverable(tr, row.tiles);
      table.append(tr);
    }
    const tot = el("tr", { class: "total" });
    tot.append(el("td", {}, t("final.total")));
    for (const sc of v.final.scores) tot.append(el("td", { class: "num" }, String(sc)));
    table.append(tot);
    const names = v.final.winners.map((i) => seatLabel(s, i)).join(t("final.and"));
    $("#winners").textContent = v.final.winners.length > 1 ? t("final.winners", { names }) : t("final.winner", { names });
  }

  function render(s) {
    const mine = myTurn(s);
    document.title = mine ? `● ${t("turn.your_turn_title")} — ${title()}` : title();
    turnBell(mine);
    const v = s.view;
    if (!v) { clear(); return; }
    const ts = s.tiles[v.edition];
    if (!ts) return;
    renderTurn(s);
    renderPlayers(s);
    renderProjection(s);
    renderStrip(s);
    renderSummary(s);
    renderTile(s, ts);
    renderChoices(s);
    renderHints(s);
    renderStacks(s, ts);
    renderLog(s);
    renderFinal(s);
    if (s.replay) $("#replay-pos").textContent = t("replay.position", { n: s.replay.version, total: s.replay.total });
  }

  $("#rotate-cw").onclick = () => act.rotate(1);
  $("#rotate-ccw").onclick = () => act.rotate(-1);
  $("#next-spot").onclick = () => act.cycleSpot(1);
  $("#confirm").onclick = () => act.confirmTurn();
  $("#undo").onclick = () => act.undo();
  $("#undo-turn").onclick = () => act.undoTurn();
  $("#hint").onclick = () => act.requestHint();
  $("#sheet-toggle").onclick = () => {
    const open = $("#side").classList.toggle("expanded");
    $("#sheet-toggle").setAttribute("aria-expanded", String(open));
    $("#sheet-toggle").textContent = open ? t("table.sheet_close") : t("table.sheet_open");
  };
  return { render };
}
