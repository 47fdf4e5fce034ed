// The Saved games screen (#/games): the games this browser knows (from its storage, not from a
// listing of the server's), with Resume, Watch, Replay, and Delete for the games it created.

import { $, api, el } from "./dom.js";
import { ID_RE, forgetEntry, loadStore, normalEntry, playSecrets } from "./storage.js";

// each call of showGames draws the table only if no later call began meanwhile: a call that
// read the saved games before a delete must not draw the deleted game back after it
let drawing = 0;

// meta: GET /api/editions (the players' letters)
export async function showGames(meta) {
  const mine = ++drawing;
  const body = $("#games-table tbody");
  $("#games-error").textContent = "";
  const store = loadStore();
  const ids = Object.keys(store).filter((id) => ID_RE.test(id))
    .sort((a, b) => (normalEntry(store[b]).created || 0) - (normalEntry(store[a]).created || 0));
  const found = {};
  let fetched = true;
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
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
  for (const id of ids) {
    const entry = normalEntry(store[id]);
    const g = found[id];
    const tr = el("tr", { "data-game": id });
    if (!g) {
      tr.classList.add("gone");
      const when = new Date(entry.created).toLocaleString();
      const td = el("td", { colspan: 6 });
      td.append(el("span", { class: "game-id" }, `${id} (${when})`), " — ",
        el("span", { class: "muted" }, fetched ? "gone: the server no longer knows this game" : "unknown"));
      const actions = el("td");
      const forget = el("button", { type: "button", class: "forget", "aria-label": `forget game ${id}` }, "Forget");
      forget.onclick = () => { forgetEntry(id); showGames(meta); };
      actions.append(forget);
      tr.append(td, actions);
      body.append(tr);
      continue;
    }
    const when = new Date((g.updated || g.created) * 1000).toLocaleString();
    const players = (g.players || []).map((p) => {
      const kind = p.kind === "bot" ? `bot ${p.level}` : "person";
      return `${meta.colours[p.seat].letter} ${p.name ? `${p.name} (${kind})` : kind}`;
    }).join(" · ");
    tr.append(el("td", {}, `${id} (${when})`), el("td", {}, g.edition),
      el("td", { class: "players" }, players), el("td", {}, String(g.version)),
      el("td", {}, (g.players || []).map((p) => p.score).join(" – ")),
      el("td", {}, g.status === "over" ? "finished" : "in play"));
    const td = el("td", { class: "actions" });
    if (playSecrets(entry).length || entry.creator) {
      td.append(el("a", { href: `#/play/${id}`, class: "resume" }, g.status === "over" ? "View" : "Resume"), " ");
    }
    td.append(el("a", { href: `#/watch/${id}`, class: "watch" }, "Watch"), " ",
      el("a", { href: `#/replay/${id}/1`, class: "replay" }, "Replay"));
    if (entry.creator) {
      const del = el("button", { type: "button", class: "delete", "aria-label": `delete game ${id}` }, "Delete");
      del.onclick = async () => {
        if (!confirm(`Delete game ${id}? It cannot be resumed or replayed afterwards, by anyone.`)) return;
        let r;
        try {
          r = await fetch(`/api/games/${encodeURIComponent(id)}`, { method: "DELETE",
            headers: { Authorization: `Bearer ${entry.creator}` } });
        } catch (e) {
          $("#games-error").textContent = `could not delete game ${id}: ${e.message}`;
          return;
        }
        if (!r.ok && r.status !== 404) {
          $("#games-error").textContent = `could not delete game ${id} (HTTP ${r.status})`;
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
  if (!ids.length) {
    const tr = el("tr");
    tr.append(el("td", { colspan: 7 }, "No saved games yet."));
    body.append(tr);
  }
}
