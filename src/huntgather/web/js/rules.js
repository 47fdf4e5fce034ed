// The Rules screen (#/help): the rules of an edition in the server's words, with diagrams of real
// positions the server draws; and the tile sheet (#/tiles): every tile of both editions.

import { $, api, el, svgEl } from "./dom.js";
import { errorText, language, say, t } from "./i18n.js";
import { bonusName, colourName, kindName, roleName } from "./terms.js";

const SEATS = ["yellow", "red", "green", "blue", "violet"];
const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// the bonus counter of an edition's forests, by the server's name
const COUNTERS = { menhirs: () => t("term.menhir"), gold_nuggets: () => t("term.gold_nugget") };

// a rules text's parameters in words: a seat (who, closer) or seats (names) by its colour, the
// bonus counter, the bonus stack's tile (a text that starts with one is capitalised: cap())
function ruleParams(params) {
  const out = { ...params };
  const seat = (i) => colourName(SEATS[i] || "");
  for (const k of ["who", "closer"]) if (Number.isInteger(params[k])) out[k] = seat(params[k]);
  if (Array.isArray(params.names)) out.names = params.names.map(seat).join(t("final.and"));
  if (params.counter) out.counter = COUNTERS[params.counter] ? COUNTERS[params.counter]() : params.counter;
  if (params.bonus) out.bonus = bonusName(params.bonus);
  return out;
}

// a final-scoring row of a diagram in words: what scored, and who got how much
function rowText(row) {
  const got = row.points.map((p, i) => [i, p]).filter(([, p]) => p > 0)
    .map(([i, p]) => `${colourName(SEATS[i])} ${t("count.points", { n: p })}`);
  return `${kindName(row.kind)}: ${got.length ? got.join(", ") : t("log.nobody_scores")}`;
}

// a section's title, a paragraph or a caption in the page's language, by the key the server sent
// (tests/test_i18n.py checks that the catalogues hold every key the rules pages send); the
// server's English words for a key the catalogues lack (a house rule's special tile)
function words(key, params, english) {
  if (!key || t(key) === key) return english || "";
  return cap(t(key, ruleParams(params || {})));
}

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
    box.textContent = t("rules.load_failed", { detail: e.code ? errorText(e.code) : e.message });
    return;
  }
  if (shown !== edition) return;   // another edition was asked for meanwhile
  box.innerHTML = "";
  box.dataset.edition = edition;
  box.append(el("p", { class: "muted" }, edition === "2002" ? t("rules.title_2002") : t("rules.title_2020")));
  for (const s of page.sections || []) {
    const part = el("section", { class: "rule", "data-section": s.id || "" });
    part.append(el("h3", {}, words(s.id ? `rules.${s.id}` : "", {}, s.title)));
    const texts = s.texts || [];
    (s.paragraphs || []).forEach((text, i) => {
      part.append(el("p", {}, texts[i] ? words(texts[i].key, texts[i].params, text) : text));
    });
    for (const d of s.diagrams || []) {
      const fig = el("figure", { class: "diagram" });
      const pic = el("div", { class: "picture" });
      pic.innerHTML = d.svg;   // drawn by the server from a real position, no user text
      // a final scoring's rows: the server's English arithmetic in English, else what each scored
      const rows = Array.isArray(d.rows) ? d.rows : null;
      const caption = rows && language() === "en" ? d.caption
        : words(d.key, d.params, d.caption) + (rows ? ` ${rows.map(rowText).join("; ")}.` : "");
      fig.append(pic, el("figcaption", {}, caption || ""));
      part.append(fig);
    }
    box.append(part);
  }
}

// the key to the letters, from the server's colours and roles (GET /api/editions)
export function showLetters(meta) {
  const seats = (meta.colours || []).map((c) => `${c.letter} ${colourName(c.name)}`).join(", ");
  const pieces = Object.entries(meta.roles || {}).map(([role, letter]) => `${letter} ${roleName(role)}`).join(", ");
  $("#help-letters").textContent = t("rules.letters", { seats, pieces });
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
        box.append(el("p", { class: "error" }, t("rules.tiles_failed", { edition, detail: e.message })));
        return;
      }
      const part = el("section", { class: "sheet", "data-edition": edition, "data-style": style });
      part.append(el("h3", {}, t("rules.sheet_title", { edition, style: style === "clean" ? t("settings.tiles_clean")
        : t("settings.tiles_painted"), n: Object.keys(ts.tiles).length })));
      // the symbols and patterns once for the section (the pictures refer to them by id)
      const holder = svgEl("svg", { class: "sheet-defs", width: 0, height: 0, "aria-hidden": "true" });
      holder.innerHTML = ts.defs;   // server-made, no user text
      part.append(holder);
      const grid = el("div", { class: "sheet-grid" });
      for (const [id, tile] of Object.entries(ts.tiles)) {
        const fig = el("figure", { class: "sheet-tile", "data-tile": id });
        const text = tile.say ? say(tile.say) : tile.text;
        const pic = svgEl("svg", { viewBox: "0 0 100 100", role: "img", "aria-label": `${t("table.tile_n", { n: id })}: ${text}` });
        pic.innerHTML = tile.svg[0];   // server-made SVG of the tile, no user text
        fig.append(pic, el("figcaption", {}, `${id} · ${kindName(tile.kind)} · ${text}`));
        grid.append(fig);
      }
      part.append(grid);
      box.append(part);
    }
  }
  box.dataset.done = "1";
}
