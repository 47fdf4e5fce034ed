// The player's settings, remembered by the browser: sounds (on by default) and their volume,
// the animations (on, slow, or off: reduced motion), confirming at once a turn that leaves
// nothing to choose, whether the remaining tiles show, and the style of the tiles (painted, or
// clean: flat wedges).
// They live in localStorage only; each function reads them afresh.

import { savedLanguage, setLanguage } from "./i18n.js";
import { $ } from "./dom.js";

const SOUND_KEY = "hg-sound";
const VOLUME_KEY = "hg-volume";
const ANIM_KEY = "hg-animation";
const AUTO_KEY = "hg-auto-confirm";
const REMAINING_KEY = "hg-show-remaining";
const PROJECTION_KEY = "hg-show-projection";
const STYLE_KEY = "hg-tile-style";
const DEFAULT_VOLUME = 60;   // percent

const REDUCED = () => window.matchMedia("(prefers-reduced-motion: reduce)");

function remember(key, value) {
  try { localStorage.setItem(key, value); } catch (e) { /* storage full or disabled */ }
}

// "normal", "slow" or "off" (the default is off when the system asks for reduced motion);
// the stylesheet reads it from <body data-animation>: "off" stops every animation of the page
export function animation() {
  const chosen = localStorage.getItem(ANIM_KEY);
  if (chosen === "normal" || chosen === "slow" || chosen === "off") return chosen;
  return REDUCED().matches ? "off" : "normal";
}

export const soundOn = () => localStorage.getItem(SOUND_KEY) !== "off";

// the volume of the sounds, 0 to 1
export function volume() {
  const v = Number(localStorage.getItem(VOLUME_KEY) ?? DEFAULT_VOLUME);
  return Number.isFinite(v) ? Math.max(0, Math.min(100, v)) / 100 : DEFAULT_VOLUME / 100;
}

// whether a placement that leaves no piece to choose (or after "no piece") is confirmed at once
export const autoConfirm = () => localStorage.getItem(AUTO_KEY) === "1";

export const showRemaining = () => localStorage.getItem(REMAINING_KEY) === "1";

// the live projection (what final scoring would give now): shown unless switched off
// (read by the screen-reader words too, whose tests run without a browser: no storage, shown)
export const showProjection = () => typeof localStorage === "undefined" || localStorage.getItem(PROJECTION_KEY) !== "0";

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
  $("#language").value = savedLanguage();
  $("#language").onchange = () => setLanguage($("#language").value);
  $("#tile-style").onchange = () => { remember(STYLE_KEY, $("#tile-style").value); applyTileStyle(); styled(); };
  $("#sound").checked = soundOn();
  $("#volume").disabled = !soundOn();
  $("#sound").onchange = () => {
    remember(SOUND_KEY, $("#sound").checked ? "on" : "off");
    $("#volume").disabled = !soundOn();
  };
  $("#volume").value = String(Math.round(volume() * 100));
  $("#volume").oninput = () => remember(VOLUME_KEY, $("#volume").value);
  applyAnimation();
  $("#animation").onchange = () => { remember(ANIM_KEY, $("#animation").value); applyAnimation(); };
  REDUCED().addEventListener("change", applyAnimation);   // the system's setting, changed meanwhile
  $("#auto-confirm").checked = autoConfirm();
  $("#auto-confirm").onchange = () => remember(AUTO_KEY, $("#auto-confirm").checked ? "1" : "0");
  $("#show-remaining").checked = showRemaining();
  $("#show-remaining").onchange = () => {
    remember(REMAINING_KEY, $("#show-remaining").checked ? "1" : "0");
    changed();
  };
  $("#show-projection").checked = showProjection();
  $("#show-projection").onchange = () => {
    remember(PROJECTION_KEY, $("#show-projection").checked ? "1" : "0");
    changed();
  };
}
