// The page's sounds (on by default; the settings turn them off or down): a soft knock when a
// tile is put down (mine, or another player's arriving), two rising notes when points are
// scored, and a chime when the turn comes to this page.  Made with the Web Audio API: no files.

import { soundOn, volume } from "./settings.js";

let audio = null;   // the AudioContext, made on first use
let wasMyTurn = false;
let quiet = null;   // the timer that suspends the AudioContext once the last sound has ended
let until = 0;      // when (the AudioContext's time) the last sound started ends

// each sound: its notes [frequency in Hz, start in s, length in s], its wave and its loudness
const SOUNDS = {
  turn: { notes: [[660, 0, 0.35]], wave: "sine", peak: 0.12 },
  place: { notes: [[180, 0, 0.12]], wave: "triangle", peak: 0.3 },
  score: { notes: [[784, 0, 0.16], [1175, 0.12, 0.3]], wave: "sine", peak: 0.1 },
};

function play(kind) {
  const vol = volume();
  if (!soundOn() || vol <= 0) return;
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const sound = SOUNDS[kind];
    const now = audio.currentTime;
    // a running AudioContext renders silence for as long as it runs (CPU, and a phone's battery):
    // suspended once this sound, and any before it, has ended; resumed by the next one
    until = Math.max(until, now + Math.max(...sound.notes.map(([, start, length]) => start + length)));
    clearTimeout(quiet);
    quiet = setTimeout(() => { audio.suspend().catch(() => {}); }, (until - now + 0.25) * 1000);
    for (const [freq, start, length] of sound.notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = sound.wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(sound.peak * vol, now + start);
      gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + start);
      osc.stop(now + start + length);
    }
    if (kind === "turn") document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
  } catch (e) {
    // no sound available: the tab title still says whose turn it is
  }
}

// called with whether it is this page's turn now: chimes when it has just become so
export function turnBell(mine) {
  if (mine && !wasMyTurn) play("turn");
  wasMyTurn = mine;
}

// the knock of a tile put down and the notes of points scored, from the store's actions
export function setupSounds(store) {
  let scores = null;   // the players' scores last seen, to hear points scored
  store.subscribe((s, a) => {
    if (a.type === "open") scores = null;
    if (a.type === "place" && s.pending && s.pending.moves.length === 1) play("place");
    if (a.type === "update" && s.change && s.change.landed.length) play("place");
    const now = s.view && s.view.players ? s.view.players.map((p) => p.score) : null;
    if (a.type === "update" && scores && now && now.some((x, i) => x > (scores[i] || 0))) play("score");
    if (now) scores = now;
  });
}
