// The Rules screen (#/help): the rules of an edition in the server's words, with diagrams of real
// positions the server draws; and the tile sheet (#/tiles): every tile of both editions.

import { $, api, el, svgEl } from "./dom.js";

let shown = "2020";   // the edition whose rules the screen shows (or is loading)

export async function showRules(edition = shown) {
  shown = edition;
  for (const b of document.querySelectorAll("#rules-editions button")) {
    b.setAttribute("aria-pressed", String(b.dataset.edition === edition));
  }
  const box = $("#rules");
  let page;
  try {
    page = await api(`/api/rules/${encodeURIComponent(edition)}`);
  } catch (e) {
    box.textContent = `could not load the rules: ${e.message}`;
    return;
  }
  if (shown !== edition) return;   // another edition was asked for meanwhile
  box.innerHTML = "";
  box.dataset.edition = edition;
  box.append(el("p", { class: "muted" }, page.title || ""));
  for (const s of page.sections || []) {
    const part = el("section", { class: "rule" });
    part.append(el("h3", {}, s.title));
    for (const text of s.paragraphs || []) part.append(el("p", {}, text));
    for (const d of s.diagrams || []) {
      const fig = el("figure", { class: "diagram" });
      const pic = el("div", { class: "picture" });
      pic.innerHTML = d.svg;   // drawn by the server from a real position, no user text
      fig.append(pic, el("figcaption", {}, d.caption || ""));
      part.append(fig);
    }
    box.append(part);
  }
}

// the key to the letters, from the server's colours and roles (GET /api/editions)
export function showLetters(meta) {
  const seats = (meta.colours || []).map((c) => `${c.letter} ${c.name}`).join(", ");
  const pieces = Object.entries(meta.roles || {}).map(([role, letter]) => `${letter} ${role}`).join(", ");
  $("#help-letters").textContent = "Players have colour-blind-safe colours and a letter each: "
    + `${seats}. Pieces and the spots where one may go: ${pieces}.`;
}

export function setupRules() {
  for (const b of document.querySelectorAll("#rules-editions button")) b.onclick = () => showRules(b.dataset.edition);
}

export const TILE_STYLES = ["painted", "clean"];

// every tile of both editions as the board draws it, in both styles, with its id and contents,
// for review; `fetchTiles(edition, style)` gives an edition's tiles in a style
export async function showTileSheet(editions, fetchTiles) {
  const box = $("#tile-sheet");
  if (box.dataset.done === "1") return;
  box.innerHTML = "";
  for (const edition of editions) {
    for (const style of TILE_STYLES) {
      let ts;
      try {
        ts = await fetchTiles(edition, style);
      } catch (e) {
        box.append(el("p", { class: "error" }, `could not load the ${edition} tiles: ${e.message}`));
        return;
      }
      const part = el("section", { class: "sheet", "data-edition": edition, "data-style": style });
      part.append(el("h3", {}, `${edition} edition, ${style}: ${Object.keys(ts.tiles).length} tiles`));
      // the symbols and patterns once for the section (the pictures refer to them by id)
      const holder = svgEl("svg", { class: "sheet-defs", width: 0, height: 0, "aria-hidden": "true" });
      holder.innerHTML = ts.defs;   // server-made, no user text
      part.append(holder);
      const grid = el("div", { class: "sheet-grid" });
      for (const [id, t] of Object.entries(ts.tiles)) {
        const fig = el("figure", { class: "sheet-tile", "data-tile": id });
        const pic = svgEl("svg", { viewBox: "0 0 100 100", role: "img", "aria-label": `tile ${id}: ${t.text}` });
        pic.innerHTML = t.svg[0];   // server-made SVG of the tile, no user text
        fig.append(pic, el("figcaption", {}, `${id} · ${t.kind} · ${t.text}`));
        grid.append(fig);
      }
      part.append(grid);
      box.append(part);
    }
  }
  box.dataset.done = "1";
}
