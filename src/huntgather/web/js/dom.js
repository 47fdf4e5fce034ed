// Small helpers for building the page: no state of their own.

export const $ = (sel) => document.querySelector(sel);
const SVGNS = "http://www.w3.org/2000/svg";

export function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

export function svgEl(tag, attrs = {}) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// JSON.parse, but a seed beyond 2^53 (a seed the creator chose may go up to 2^63) keeps all its digits,
// as text
export function parseJSON(text) {
  const data = JSON.parse(text);
  if (data && typeof data.seed === "number" && !Number.isSafeInteger(data.seed)) {
    const m = /"seed"\s*:\s*(\d+)/.exec(text);
    if (m) data.seed = m[1];
  }
  return data;
}

// a request to the server's HTTP API; an answer that is not 2xx throws its message
export async function api(path, options = {}) {
  const r = await fetch(path, options);
  let data = null;
  try { data = parseJSON(await r.text()); } catch (e) { data = null; }
  if (!r.ok) {
    const err = new Error((data && data.message) || `${r.status} ${r.statusText}`);
    err.status = r.status;
    err.code = data && data.code;
    throw err;
  }
  return data;
}

// the line under the game's panel that says what went wrong (empty text: nothing)
export function showError(text, link) {
  const box = $("#play-error");
  box.textContent = text;
  if (link) box.append(" ", el("a", { href: link.href }, link.text));
}

// the connection's state, in the header: words, and `data-connection` ("online", "offline",
// "reconnecting"; none when no game is open)
export function showStatus(text, state) {
  const box = $("#connection");
  box.textContent = text;
  if (state) box.dataset.connection = state;
  else delete box.dataset.connection;
}

// a player's coloured letter, from the server's colours (meta = GET /api/editions)
export function swatch(meta, seat) {
  const c = meta.colours[seat];
  return el("span", { class: "swatch", style: `background:${c.rgb};color:${c.ink}` }, c.letter);
}
