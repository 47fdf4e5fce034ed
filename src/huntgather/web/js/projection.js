// The live projection in words: what final scoring would give if the game ended now (the server's
// `projection`, computed by the rules' one scoring module), and each player's score by kind.
// Pure functions of the view: the panel, the board and the screen-reader words use them.

import { say, t } from "./i18n.js";
import { colourName, kindName } from "./terms.js";

// the kinds of points, in the words of the page (any other kind, a special's, is its name in words)
const KIND_WORDS = { river: () => t("projection.rivers"), forest: () => t("projection.forests"),
  huts: () => t("projection.huts"), hunters: () => t("projection.hunters"), other: () => t("projection.other") };
export const kindWords = (kind) => (KIND_WORDS[kind] ? KIND_WORDS[kind]() : kindName(kind));

// the rows of the projection that a placed tile is part of (its river system, its meadows)
export function rowsAt(view, tile) {
  const p = view && view.projection;
  if (!p) return [];
  return p.rows.filter((r) => r.tiles.includes(tile));
}

// one seat's points: scored so far, by kind (the log's scorings; what the log does not say, such
// as points of a game loaded without its log, is "other"), and what final scoring would add now
export function breakdown(view, seat) {
  const scored = {};
  let counted = 0;
  for (const e of view.log || []) {
    if (e.kind !== "FeatureScored" || !e.points) continue;
    const pts = e.points[seat] || 0;
    if (!pts) continue;
    scored[e.feature] = (scored[e.feature] || 0) + pts;
    counted += pts;
  }
  const now = (view.players.find((p) => p.seat === seat) || { score: 0 }).score;
  if (now !== counted) scored.other = (scored.other || 0) + now - counted;
  const final = {};
  for (const r of (view.projection && view.projection.rows) || []) {
    const pts = r.points[seat] || 0;
    if (pts) final[r.kind] = (final[r.kind] || 0) + pts;
  }
  const total = view.projection ? view.projection.scores[seat] : now;
  return { now, scored, final, total };
}

const listed = (parts) => Object.entries(parts).map(([k, n]) => `${kindWords(k)} ${n}`).join(", ");

// "17 if the game ended now: 10 scored (rivers 6, forests 4) + 7 from final scoring (hunters 7)"
export function projectionWords(view, seat) {
  const b = breakdown(view, seat);
  const extra = b.total - b.now;
  let text = t("projection.total", { total: b.total, now: b.now });
  if (Object.keys(b.scored).length) text += ` (${listed(b.scored)})`;
  if (extra) text += ` + ${t("projection.final", { n: extra, kinds: listed(b.final) })}`;
  return text;
}

// what a placed tile's features would score now, in words ("" when none would)
export function tileProjectionWords(view, tile) {
  const seat = (i) => colourName(view.players && view.players[i] ? view.players[i].colour : String(i));
  return rowsAt(view, tile).map((r) => (r.say ? say(r.say, seat) : r.explanation)).join("; ");
}
