// The Saved games screen (#/games): the games this browser knows (from its storage, not from a
// listing of the server's), with Resume, Watch, Replay, and Delete for the games it created; and,
// while signed in, first the games of the account on every device (GET /api/me: "your turn"
// first), which open without a link (the signed-in page holds the account's seats).

import { t } from "./i18n.js";
import { colourName } from "./terms.js";
import { $, api, el } from "./dom.js";
import { kindWords } from "./game.js";
import { ID_RE, forgetEntry, loadStore, normalEntry, playSecrets } from "./storage.js";

// each call of showGames draws the table only if no later call began meanwhile: a call that
// read the saved games before a delete must not draw the deleted game back after it
let drawing = 0;

// the turns played (a tile placed is a turn: the engine's moves also count draws and pieces) and,
// for a game in play, whose turn it is, from the game's view
async function showTurns(id, g, entry, meta, turnsCell, statusCell, accountSeats) {
  let view;
  try {
    view = await api(`/api/games/${encodeURIComponent(id)}`);
  } catch (e) {
    turnsCell.textContent = "?";
    return;
  }
  const turns = (view.log || []).filter((e) => e.kind === "TilePlaced").length;
  turnsCell.textContent = String(turns);
  turnsCell.dataset.turns = String(turns);
  if (view.over || !view.decision || view.decision.player === null || view.decision.player === undefined) return;
  const seat = view.decision.player;
  const p = (g.players || []).find((q) => q.seat === seat);
  const colour = colourName(meta.colours[seat].name);
  const mine = p && p.kind === "human" && ((entry.seats[String(seat)] && !entry.handed.includes(seat)) ||
    accountSeats.has(seat));
  let whose;
  if (mine) whose = t("games.your_turn");
  else if (p && p.kind === "bot") whose = t("games.bot_to_play", { who: colour });
  else whose = t("games.to_play", { who: p && p.name ? `${p.name} (${colour})` : colour });
  statusCell.textContent = t("games.in_play_whose", { whose });
  statusCell.dataset.seat = String(seat);
}

// meta: GET /api/editions (the players' letters); accounts: account.js (who is signed in)
export async function showGames(meta, accounts) {
  const mine = ++drawing;
  const body = $("#games-table tbody");
  $("#games-error").textContent = "";
  const me = accounts ? await accounts.refresh() : null;
  const store = loadStore();
  // the account's games first, in the server's order (your turn first), then this browser's others
  const accountGames = me && Array.isArray(me.games) ? me.games.filter((g) => g && ID_RE.test(g.id)) : [];
  const accountSeats = new Map(accountGames.map((g) => [g.id, new Set(Array.isArray(g.seats) ? g.seats : [])]));
  const local = Object.keys(store).filter((id) => ID_RE.test(id) && !accountSeats.has(id))
    .sort((a, b) => (normalEntry(store[b]).created || 0) - (normalEntry(store[a]).created || 0));
  const ids = [...accountGames.map((g) => g.id), ...local];
  $("#games-about").textContent = me ? t("games.about_account", { name: me.account.name }) : t("games.about");
  const found = {};
  for (const g of accountGames) found[g.id] = g;
  let fetched = true;
  for (let i = 0; i < local.length; i += 100) {
    const chunk = local.slice(i, i + 100);
    try {
      const data = await api(`/api/games?ids=${chunk.map(encodeURIComponent).join(",")}`);
      for (const g of data.games || []) found[g.id] = g;
    } catch (e) {
      fetched = false;
      $("#games-error").textContent = `could not ask the server about the games: ${e.message}`;
    }
  }
  if (location.hash.replace(/^#\/?/, "").split("/")[0] !== "games") return;   // left meanwhile
  if (mine !== drawing) return;   // a later call draws the table
  body.innerHTML = "";
  const details = [];   // the turns and whose turn it is, filled in once the table is drawn
  for (const id of ids) {
    const entry = normalEntry(store[id] ? { ...store[id] } : {});
    const g = found[id];
    const seatsHere = accountSeats.get(id) || new Set();
    const tr = el("tr", { "data-game": id });
    if (accountSeats.has(id)) tr.classList.add("account-game");
    if (g && g.your_turn && g.status !== "over") tr.classList.add("your-turn");
    if (!g) {
      tr.classList.add("gone");
      const when = new Date(entry.created).toLocaleString();
      const td = el("td", { colspan: 6 });
      td.append(el("span", { class: "game-id" }, `${id} (${when})`), " — ",
        el("span", { class: "muted" }, fetched ? t("games.gone") : t("games.unknown")));
      const actions = el("td");
      const forget = el("button", { type: "button", class: "forget", "aria-label": t("games.forget_about", { id }) }, t("games.forget"));
      forget.onclick = () => { forgetEntry(id); showGames(meta); };
      actions.append(forget);
      tr.append(td, actions);
      body.append(tr);
      continue;
    }
    const when = new Date((g.updated || g.created) * 1000).toLocaleString();
    const players = (g.players || []).map((p) => {
      const kind = kindWords(p);
      return `${meta.colours[p.seat].letter} ${p.name ? `${p.name} (${kind})` : kind}`;
    }).join(" · ");
    const turnsCell = el("td", { class: "turns" }, "…");
    const statusCell = el("td", { class: "status" },
      g.status === "over" ? t("games.finished")
        : (g.your_turn ? t("games.in_play_whose", { whose: t("games.your_turn") }) : t("games.in_play")));
    const edition = el("td", {}, g.edition);
    if (g.rated) edition.append(" ", el("span", { class: "rated-tag", title: t("games.rated_about") }, t("games.rated")));
    const gameCell = el("td", { class: "game" });
    if (tr.classList.contains("your-turn")) gameCell.append(el("span", { class: "your-turn-mark" }, t("games.your_turn")), " ");
    gameCell.append(`${id} (${when})`);
    tr.append(gameCell, edition,
      el("td", { class: "players" }, players), turnsCell,
      el("td", { class: "scores" }, (g.players || []).map((p) => p.score).join(" – ")), statusCell);
    details.push(() => showTurns(id, g, entry, meta, turnsCell, statusCell, seatsHere));
    const td = el("td", { class: "actions" });
    if (playSecrets(entry).length || entry.creator || seatsHere.size) {
      td.append(el("a", { href: `#/play/${id}`, class: "resume" }, g.status === "over" ? t("games.view") : t("games.resume")), " ");
    }
    td.append(el("a", { href: `#/watch/${id}`, class: "watch" }, t("games.watch")), " ",
      el("a", { href: `#/replay/${id}/1`, class: "replay" }, t("games.replay")));
    if (entry.creator && !(g.rated && g.status === "over")) {   // a finished rated game is kept: ratings come from it
      const del = el("button", { type: "button", class: "delete", "aria-label": t("games.delete_about", { id }) }, t("games.delete"));
      del.onclick = async () => {
        if (!confirm(t("games.delete_confirm", { id }))) return;
        let r;
        try {
          r = await fetch(`/api/games/${encodeURIComponent(id)}`, { method: "DELETE",
            headers: { Authorization: `Bearer ${entry.creator}` } });
        } catch (e) {
          $("#games-error").textContent = `could not delete game ${id}: ${e.message}`;
          return;
        }
        if (!r.ok && r.status !== 404) {
          let why = `HTTP ${r.status}`;
          try { why = (await r.json()).message || why; } catch (e) { /* no words */ }
          $("#games-error").textContent = `could not delete game ${id}: ${why}`;
          return;
        }
        forgetEntry(id);
        await showGames(meta);
      };
      td.append(" ", del);
    }
    tr.append(td);
    body.append(tr);
  }
  // a few games at a time: each is one request for the game's view
  const queue = details.slice();
  const worker = async () => { while (queue.length && mine === drawing) await queue.shift()(); };
  Promise.all([worker(), worker(), worker()]);
  if (!ids.length) {
    const tr = el("tr");
    const td = el("td", { colspan: 7 }, t("games.none") + " ");
    td.append(el("a", { href: "#/learn", id: "games-learn" }, t("games.learn")));
    tr.append(td);
    body.append(tr);
  }
}
