// A player's piece on the board.  Its shape (meeple, hut), the player's colour, letter and the
// ink that reads on that colour come from the server (GET /api/editions: `pieces`, `colours`),
// which draws the same pieces in its own pictures (huntgather.svg).

import { svgEl } from "./dom.js";
import { tileStyle } from "./settings.js";

// a meeple or hut of seat `player` standing at (x, y); `role` is fisher, gatherer, hunter or
// hut; `label` its tooltip
export function pieceSvg(meta, player, piece, x, y, role, label) {
  const g = svgEl("g", { class: "piece", "data-role": role || piece });
  const t = svgEl("title");
  t.textContent = label;
  g.append(t);
  const d = meta.pieces[piece === "hut" ? "hut" : "meeple"];
  // the painted tiles draw the pieces bigger (GET /api/editions: tile_styles), the clean ones as ever
  const styles = meta.tile_styles || {};
  const k = (styles[tileStyle()] && styles[tileStyle()].piece_scale) || 1;
  const at = k === 1 ? `translate(${x} ${y})` : `translate(${x} ${y}) scale(${k})`;
  // hunters lie down in their meadow, as on the table (fishers and gatherers stand)
  const shape = svgEl("g", role === "hunter" ? { transform: `rotate(90 ${x} ${y})` } : {});
  g.append(shape);
  // a white halo under a black outline: one of the two stands out on every terrain, whatever
  // the player's colour (blue or green on a forest was 1.2–1.9:1)
  shape.append(svgEl("path", { class: "halo", d, transform: at, fill: "none", stroke: "#fff",
    "stroke-width": 3.4, "stroke-linejoin": "round" }));
  shape.append(svgEl("path", { class: "body", d, transform: at, fill: meta.colours[player].rgb, stroke: "#000",
    "stroke-width": 1.2 }));
  const txt = svgEl("text", { x, y: y + 4 * k, "font-size": 7 * k, "font-weight": "bold",
    "text-anchor": "middle", "font-family": "sans-serif", fill: meta.colours[player].ink });
  txt.textContent = meta.colours[player].letter;
  g.append(txt);
  return g;
}
