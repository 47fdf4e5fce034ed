// The websocket of one game: opens it, says hello, hands every message on (one after the
// other), and reconnects after a loss (1 s, 2 s, then every 4 s) until it is closed or stopped.
//
//   const conn = connect(gameId, { hello, onMessage, onStatus, onFailure });
//   conn.send({ type: "turn", … });   conn.reconnect();   conn.close();

import { parseJSON } from "./dom.js";

export function connect(gameId, { hello, onMessage, onStatus, onFailure }) {
  let ws = null;
  let wanted = true;      // false once closed or stopped: no more reconnecting
  let retries = 0;
  let timer = null;
  let queue = Promise.resolve();   // messages are handled one after the other

  function open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const sock = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(gameId)}`);
    ws = sock;
    if (retries === 0) onStatus("connecting…");
    sock.onopen = () => {
      if (ws === sock) sock.send(JSON.stringify(hello()));
    };
    sock.onmessage = (ev) => {
      if (ws !== sock) return;
      let msg;
      try { msg = parseJSON(ev.data); } catch (e) { return; }
      if (!msg || typeof msg !== "object") return;
      queue = queue.then(() => (ws === sock ? onMessage(msg) : null)).catch(onFailure);
    };
    sock.onclose = () => {
      if (ws !== sock) return;
      ws = null;
      if (!wanted) return;
      onStatus("connection lost — reconnecting…");
      const delay = Math.min(1000 * 2 ** retries, 4000);
      retries += 1;
      clearTimeout(timer);
      timer = setTimeout(() => { if (wanted && !ws) open(); }, delay);
    };
  }

  open();
  return {
    // a message to the server; false (and nothing sent) when not connected
    send(msg) {
      if (ws && ws.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify(msg));
        return true;
      }
      return false;
    },
    // the server greeted this page: a later loss starts the delays from the shortest again
    welcomed() { retries = 0; },
    // a fresh socket at once (the secrets held changed)
    reconnect() {
      clearTimeout(timer);
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
    },
    close() {
      wanted = false;
      clearTimeout(timer);
      const old = ws;
      ws = null;
      if (old) old.close();
    },
  };
}
