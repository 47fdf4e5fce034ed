// The chime when the turn comes to this page (if the player asked for it in the settings).

import { soundOn } from "./settings.js";

let audio = null;   // the AudioContext, made on first use
let wasMyTurn = false;

function chime() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
    document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
  } catch (e) {
    // no sound available: the tab title still says whose turn it is
  }
}

// called with whether it is this page's turn now: chimes when it has just become so
export function turnBell(mine) {
  if (mine && !wasMyTurn && soundOn()) chime();
  wasMyTurn = mine;
}
