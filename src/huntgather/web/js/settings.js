// The player's settings, remembered by the browser: sound on your turn, how the other
// players' moves are shown (animated, slowly, at once), whether the remaining tiles show, and
// the style of the tiles (painted, or clean: flat wedges).
// They live in localStorage only; each function reads them afresh.

import { $ } from "./dom.js";

const SOUND_KEY = "hg-sound";
const ANIM_KEY = "hg-animation";
const REMAINING_KEY = "hg-show-remaining";
const STYLE_KEY = "hg-tile-style";

function remember(key, value) {
  try { localStorage.setItem(key, value); } catch (e) { /* storage full or disabled */ }
}

// "normal", "slow" or "off" (the default is off when the system asks for reduced motion);
// the stylesheet reads it from <body data-animation> for every animation of a move
export function animation() {
  const chosen = localStorage.getItem(ANIM_KEY);
  if (chosen === "normal" || chosen === "slow" || chosen === "off") return chosen;
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "off" : "normal";
}

export const soundOn = () => localStorage.getItem(SOUND_KEY) === "on";

export const showRemaining = () => localStorage.getItem(REMAINING_KEY) === "1";

// "painted" (the default) or "clean": how the server draws the tiles (GET /api/tiles/…?style=);
// the page shows it on <body data-tile-style>
export const tileStyle = () => (localStorage.getItem(STYLE_KEY) === "clean" ? "clean" : "painted");

function applyTileStyle() {
  document.body.dataset.tileStyle = tileStyle();
  $("#tile-style").value = tileStyle();
}

function applyAnimation() {
  const a = animation();
  document.body.dataset.animation = a;
  $("#animation").value = a;
}

// wire the controls of the panel; `changed` is called when something shown must be redrawn,
// `styled` when the tiles must be drawn in the other style
export function setupSettings(changed, styled = () => {}) {
  applyTileStyle();
  $("#tile-style").onchange = () => { remember(STYLE_KEY, $("#tile-style").value); applyTileStyle(); styled(); };
  $("#sound").checked = soundOn();
  $("#sound").onchange = () => remember(SOUND_KEY, $("#sound").checked ? "on" : "off");
  applyAnimation();
  $("#animation").onchange = () => { remember(ANIM_KEY, $("#animation").value); applyAnimation(); };
  $("#show-remaining").checked = showRemaining();
  $("#show-remaining").onchange = () => {
    remember(REMAINING_KEY, $("#show-remaining").checked ? "1" : "0");
    changed();
  };
}
