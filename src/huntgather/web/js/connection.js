// The websocket of one game: opens it, says hello, hands every message on (one after the other),
// answers the server's pings, and reconnects after a loss (1 s, 2 s, then every 4 s) until it is
// closed or stopped.
//
// A socket can die without closing (a network that silently goes away): the server sends every
// page something at least every heartbeat and a half (`heartbeat`: 5 s; `welcome` says; a ping
// when nothing else), so a socket that brings nothing at all for two heartbeats and 2 s more is
// dead: it is dropped and another one opened.  The browser's
// `offline` event drops the socket at once, its `online` event reconnects at once.
//
// The state of the connection, told through `onState`:
//   "reconnecting"  a socket is being opened (the first one, or the first try after a loss)
//   "online"        the server welcomed this page (see `welcomed`)
//   "offline"       no network, or the server cannot be reached: trying again, with the delays
//
//   const conn = connect(gameId, { hello, onMessage, onState, onFailure });
//   conn.send({ type: "turn", … });   conn.welcomed(msg);   conn.reconnect();   conn.close();

import { parseJSON } from "./dom.js";

export const ONLINE = "online";
export const OFFLINE = "offline";
export const RECONNECTING = "reconnecting";

// the server's heartbeat until its `welcome` says otherwise (protocol.HEARTBEAT)
const HEARTBEAT = 5;
const PONG = JSON.stringify({ type: "pong" });

export function connect(gameId, { hello, onMessage, onState, onFailure }) {
  let ws = null;
  let wanted = true;      // false once closed or stopped: no more reconnecting
  let retries = 0;
  let timer = null;       // the next try
  let deadTimer = null;   // the deadline of the socket: a word from the server before it
  let heartbeat = HEARTBEAT;
  let state = null;
  let queue = Promise.resolve();   // messages are handled one after the other

  function setState(next) {
    if (next === state) return;
    state = next;
    onState(next);
  }

  // the socket must bring something (a ping at least) within two heartbeats and 2 s
  function expectWord(sock) {
    clearTimeout(deadTimer);
    deadTimer = setTimeout(() => { if (ws === sock) lost(sock, true); }, (2 * heartbeat + 2) * 1000);
  }

  function open() {
    clearTimeout(timer);
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const sock = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(gameId)}`);
    ws = sock;
    if (state !== OFFLINE) setState(RECONNECTING);
    expectWord(sock);
    sock.onopen = () => {
      if (ws === sock) sock.send(JSON.stringify(hello()));
    };
    sock.onmessage = (ev) => {
      if (ws !== sock) return;
      expectWord(sock);
      let msg;
      try { msg = parseJSON(ev.data); } catch (e) { return; }
      if (!msg || typeof msg !== "object") return;
      if (msg.type === "ping") {   // answered at once, even while a message is being handled
        sock.send(PONG);
        return;
      }
      queue = queue.then(() => (ws === sock ? onMessage(msg) : null)).catch(onFailure);
    };
    sock.onclose = () => {
      if (ws === sock) lost(sock, false);
    };
  }

  // the socket is gone: closed, or dead (nothing heard by its deadline, or the browser went offline)
  function lost(sock, dead) {
    ws = null;
    clearTimeout(deadTimer);
    if (dead) {
      sock.onclose = null;
      try { sock.close(); } catch (e) { /* closing a dead socket may fail: it is dropped all the same */ }
    }
    if (!wanted) return;
    // a live socket lost: try again at once; a try that failed, a dead socket, no network: offline
    setState(state === ONLINE && !dead && navigator.onLine ? RECONNECTING : OFFLINE);
    const delay = Math.min(1000 * 2 ** retries, 4000);
    retries += 1;
    clearTimeout(timer);
    timer = setTimeout(() => { if (wanted && !ws) open(); }, delay);
  }

  function wentOffline() {
    if (!wanted) return;
    if (ws) lost(ws, true);
    setState(OFFLINE);
  }

  function cameOnline() {
    if (!wanted || ws) return;
    retries = 0;
    open();
  }

  window.addEventListener("offline", wentOffline);
  window.addEventListener("online", cameOnline);

  function unlisten() {
    window.removeEventListener("offline", wentOffline);
    window.removeEventListener("online", cameOnline);
  }

  open();
  return {
    // a message to the server; false (and nothing sent) when not connected
    send(msg) {
      if (ws && ws.readyState === WebSocket.OPEN && state === ONLINE) {
        ws.send(JSON.stringify(msg));
        return true;
      }
      return false;
    },
    // the server greeted this page (its `welcome`): online; a later loss starts the delays from the
    // shortest again
    welcomed(msg) {
      retries = 0;
      if (typeof msg.heartbeat === "number" && msg.heartbeat > 0) heartbeat = msg.heartbeat;
      if (ws) expectWord(ws);
      setState(ONLINE);
    },
    // a fresh socket at once (the secrets held changed)
    reconnect() {
      clearTimeout(timer);
      clearTimeout(deadTimer);
      const old = ws;
      ws = null;
      if (old) old.close();
      wanted = true;
      retries = 0;
      open();
    },
    // no more reconnecting (a final answer: the game is gone, the link holds no seat)
    stop() {
      wanted = false;
      clearTimeout(timer);
      clearTimeout(deadTimer);
      unlisten();
    },
    close() {
      wanted = false;
      clearTimeout(timer);
      clearTimeout(deadTimer);
      unlisten();
      const old = ws;
      ws = null;
      if (old) old.close();
    },
  };
}
