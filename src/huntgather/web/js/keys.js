// The keyboard at the table (the Rules screen lists the keys): the steps of a turn through
// `play`, the view through `board`, the squares read aloud through `a11y` (the arrows, while the
// board has the focus).

import { $ } from "./dom.js";
import { canon } from "./game.js";

export function setupKeys(store, play, board, a11y) {
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input, select, textarea") || $("#screen-play").hidden) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    const s = store.get();
    if (a11y && a11y.key(ev)) { ev.preventDefault(); return; }
    if (s.replay) {
      if (k === "ArrowRight") { play.replayStep(1); ev.preventDefault(); }
      else if (k === "ArrowLeft") { play.replayStep(-1); ev.preventDefault(); }
      return;
    }
    const pan = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] };
    if (k === "r") play.rotate(1);
    else if (k === "R") play.rotate(-1);
    else if (k === "n" || k === "N") play.cycleSpot(1);
    else if (k === "p" || k === "P") play.cycleSpot(-1);
    else if (k === "u" || k === "U" || k === "Backspace") play.undo();
    else if (k === "h" || k === "H") play.requestHint();
    else if (k === "Enter" && !ev.target.closest("button, a")) {
      if (s.pending) play.confirmTurn();
      else if (s.selected) play.placeAt(s.selected[0], s.selected[1]);
      else if (a11y && a11y.legalCursor()) play.placeAt(...a11y.legalCursor());
    } else if (/^[0-9]$/.test(k) && s.pending && s.pending.preview) {
      const legal = (s.pending.preview.legal || []).filter((m) => canon(m));
      const m = k === "0" ? legal.find((x) => x.kind === "pass")
        : legal.filter((x) => x.kind !== "pass")[parseInt(k, 10) - 1];
      if (m) play.choose(m);
    } else if (k === "+" || k === "=") board.zoom(1.25);
    else if (k === "-") board.zoom(0.8);
    else if (k === "f" || k === "F") board.refit();
    else if (pan[k]) board.pan(...pan[k]);
    else return;
    ev.preventDefault();
  });
}
