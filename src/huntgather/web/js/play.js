// Playing a game: opening its socket (or a replay), handing the server's messages to the store,
// and the player's steps of a turn (turn the tile, place it, choose a piece, confirm, undo,
// hints), each a message to the server and an action for the store.
//
//   const play = createPlay(store, loadTiles);
//   play.open(id, "play" | "watch");   play.openReplay(id, n);   play.leave();
//   play.placeAt(x, y);   play.choose(move);   play.confirmTurn();   …

import { $, api, showError, showStatus } from "./dom.js";
import { errorText, t } from "./i18n.js";
import {
  canConfirm, canUndoTurn, canon, currentHints, heldSeats, isRated, hintKey, legalPlacements, myTurn, placementAt, placementsForRotation, sameMove,
  who,
} from "./game.js";
import { noteClock, showClockNews } from "./clock.js";
import { OFFLINE, ONLINE, RECONNECTING, connect } from "./connection.js";
import { createChat, isLeaveAnswer } from "./chat.js";
import { animation, autoConfirm } from "./settings.js";
import {
  forgetSecrets, myName, playSecrets, pruneBotSecrets, rememberGame, storeEntry, updateEntry,
} from "./storage.js";

const FATAL = {
  unknown_game: (id) => t("play.unknown_game", { id }),
  deleted: () => t("play.deleted"),
  bad_secret: () => t("play.bad_secret"),
};

const NOT_CONNECTED = () => t("connection.not_connected_retrying");
const REFUSED = () => t("play.refused");

export function createPlay(store, loadTiles) {
  let conn = null;        // the socket of the open game
  let opened = false;     // whether the open game's socket has been welcomed once
  let helloSecrets = [];  // the secrets the last hello sent, in its order (`welcome` names the refused)
  let requests = 0;       // the last request id used
  let replaySteps = Promise.resolve();   // replay steps, one after the other
  const s = () => store.get();

  function send(msg) {
    if (conn && conn.send(msg)) return true;
    showError(NOT_CONNECTED());
    return false;
  }
  const chat = createChat(store, send);   // the chat panel, Resign, Leave and Rematch (chat.js)

  // the connection's state: in the header, and in the store (the Table shows no presence it cannot know)
  function onState(state) {
    if (state === ONLINE) {
      showStatus(t("connection.connected"), state);
      if ($("#play-error").textContent === NOT_CONNECTED()) showError("");
    } else if (state === RECONNECTING) {
      showStatus(opened ? t("connection.lost") : t("connection.connecting"), state);
    } else {
      showStatus(navigator.onLine ? t("connection.offline_server") : t("connection.offline_network"), state);
    }
    store.dispatch({ type: "connection", state });
  }

  function hello() {
    const st = s();
    const entry = st.mode === "play" ? storeEntry(st.gameId) : null;
    const seats = playSecrets(entry);
    const secrets = seats.slice();
    if (entry && entry.creator) secrets.push(entry.creator);
    helloSecrets = secrets.slice();
    const msg = { type: "hello", secrets, version: st.view ? st.view.version : null };
    const name = myName();
    // a name only for a page with one seat: the hotseat creator must not name every seat alike
    if (name && seats.length === 1) msg.name = name;
    return msg;
  }

  function leave() {
    if (conn) conn.close();
    conn = null;
    chat.close();
    noteClock(null);
    showClockNews("");
    store.dispatch({ type: "leave" });
  }

  function open(id, mode) {
    leave();
    store.dispatch({ type: "open", gameId: id, mode });
    chat.open(id, mode);
    $("#replay-controls").hidden = true;
    showError("");
    opened = false;
    conn = connect(id, { hello, onMessage, onState,
      onFailure: (e) => showError(t("play.show_failed", { detail: e.message })) });
  }

  function reconnect() {
    const st = s();
    if ((st.mode === "play" || st.mode === "watch") && conn) conn.reconnect();
  }

  // a new view: news of the old position (an error about it) go
  function viewChanged(before) {
    const v = s().view;
    const note = !before && $("#play-error").textContent === REFUSED();   // said with this first view
    if (v && (!before || before !== v.version) && !note) showError("");
  }

  async function onMessage(msg) {
    switch (msg.type) {
      case "welcome": onWelcome(msg); break;
      case "table":
        if (s().mode === "play") pruneBotSecrets(s().gameId, msg);
        noteClock(msg.clock);
        store.dispatch({ type: "table", table: msg });
        break;
      case "timeout":   // a seat's time ran out: the table that came first shows its bot
        if (Number.isInteger(msg.seat)) {
          showClockNews(`${who(s(), msg.seat)}: time ran out — a ${msg.level} bot plays this seat now`);
        }
        break;
      case "snapshot": {
        await loadTiles(msg.edition);
        const before = s().view && s().view.version;
        store.dispatch({ type: "snapshot", view: msg });
        viewChanged(before);
        break;
      }
      case "update": {
        const v = s().view;
        if (!v) { reconnect(); break; }   // nothing to apply it to: start again with a full snapshot
        if (msg.version <= v.version) break;   // seen already
        if (msg.from !== v.version) { send({ type: "resync", version: v.version }); break; }
        store.dispatch({ type: "update", update: msg, animate: animation() !== "off" });
        viewChanged(v.version);
        break;
      }
      case "ack":
        if (isLeaveAnswer(msg)) chat.onMessage(msg);
        else store.dispatch({ type: "ack", request: msg.request });
        break;
      case "preview": {
        const pend = s().pending;
        const hinted = !!pend && pend.suggest !== null;   // a hint being tried waits for Confirm
        store.dispatch({ type: "preview", preview: msg });
        followSuggestion();
        if (!hinted) confirmAtOnce();
        break;
      }
      case "hint":
        store.dispatch({ type: "hint", request: msg.request, turns: Array.isArray(msg.turns) ? msg.turns : [] });
        break;
      case "seat_secret":
        if (typeof msg.secret === "string" && Number.isInteger(msg.seat)) {
          updateEntry(s().gameId, (e) => {
            e.seats[String(msg.seat)] = msg.secret;
            e.handed = e.handed.filter((h) => h !== msg.seat);
          });
          reconnect();   // hold the new person seat (hotseat) until its link is handed out
        }
        break;
      case "chat":
      case "chat_log":
      case "chat_watchers":
      case "rematch":
        chat.onMessage(msg);
        break;
      case "error": onError(msg); break;
      default: break;
    }
  }

  function onWelcome(msg) {
    const seats = Array.isArray(msg.seats) ? msg.seats : [];
    const refused = (Array.isArray(msg.refused) ? msg.refused : []).map((k) => helloSecrets[k])
      .filter((secret) => typeof secret === "string");
    // a secret the server refused holds nothing here (a link cut short, a seat handed to a bot):
    // forgotten, so that it never again stands in the way of the others
    if (refused.length) forgetSecrets(s().gameId, refused);
    if (refused.length && !seats.length && !msg.creator) {   // the page came for a seat it cannot have
      fatal("bad_secret", () => conn.close());
      return;
    }
    opened = true;
    conn.welcomed(msg);
    chat.onMessage(msg);
    store.dispatch({ type: "welcome", seats, creator: msg.creator });
    rememberGame(s().gameId, s().mode, s().me.seats);
    if (refused.length) showError(REFUSED());
  }

  // a final answer: no more connecting
  function fatal(code, end) {
    end();
    showStatus(t("connection.not_connected"), OFFLINE);
    store.dispatch({ type: "fatal", code });
    const id = s().gameId;
    showError(FATAL[code](id), code === "bad_secret" ? { href: `#/watch/${id}`, text: t("play.watch") } : null);
  }

  function onError(msg) {
    const code = msg.code;
    if (FATAL[code]) {
      fatal(code, () => conn.stop());
      return;
    }
    if (isLeaveAnswer(msg)) {   // Leave's resign: the chat panel's buttons see to it
      chat.onMessage(msg);
      return;
    }
    store.dispatch({ type: "error", code, request: msg.request, explain: msg.explain });
    if (String(code).startsWith("chat_")) {   // said in the chat panel
      chat.onMessage(msg);
    } else if (code === "tutorial_move") {   // the coach says why, in its panel (tutorial.js)
      showError("");
    } else if (code === "stale") {
      if (s().view) send({ type: "resync", version: s().view.version });
      showError(t("error.stale"));
    } else {
      showError(code ? errorText(code) : msg.message || t("error.unknown"));
    }
  }

  // ---------------------------------------------------------------- the steps of a turn

  function intent(type, extra) {
    requests += 1;
    const v = s().view;
    const ok = send({ type, seat: v.decision.player, version: v.version, request: requests, ...extra });
    return ok ? requests : null;
  }

  function rotate(step) {
    const st = s();
    if (!myTurn(st) || st.pending || st.view.decision.phase !== "place") return;
    const rotation = (st.rotation + step + 4) % 4;
    const here = placementsForRotation({ ...st, rotation });
    const keep = st.selected && here.some((p) => p.x === st.selected[0] && p.y === st.selected[1]);
    store.dispatch({ type: "rotate", rotation, selected: keep ? st.selected : null });
  }

  function cycleSpot(step) {
    const st = s();
    if (!myTurn(st) || st.pending) return;
    let rotation = st.rotation;
    let spots = placementsForRotation(st);
    // no position for this rotation: turn to the next rotation that has one
    for (let k = 1; k < 4 && !spots.length; k++) {
      rotation = (rotation + 1) % 4;
      spots = placementsForRotation({ ...st, rotation });
    }
    if (!spots.length) return;
    spots.sort((a, b) => a.y - b.y || a.x - b.x);
    let i = st.selected ? spots.findIndex((p) => p.x === st.selected[0] && p.y === st.selected[1]) : -1;
    i = (i + step + spots.length) % spots.length;
    store.dispatch({ type: "rotate", rotation, selected: [spots[i].x, spots[i].y] });
  }

  // put the tile on (x, y): as turned now, or else turned to the first rotation that fits there
  function placeAt(x, y, from, suggest) {
    const st = s();
    if (!myTurn(st) || st.sentTurn) return;
    if (st.pending && st.pending.x === x && st.pending.y === y && from === undefined) return;
    const p = placementAt(st, x, y, from === undefined ? st.rotation : from);
    if (!p) return;
    const request = intent("preview", { moves: [canon(p)] });
    if (request === null) { store.dispatch({ type: "undo" }); return; }
    store.dispatch({ type: "place", placement: p, request, suggest });
  }

  // tap the tile waiting for confirmation: turn it to the next rotation that fits on its square
  function turnPending() {
    const st = s();
    const pend = st.pending;
    if (!pend || st.sentTurn || !myTurn(st)) return;
    const next = placementAt(st, pend.x, pend.y, pend.rotation + 1);
    if (next && next.rotation !== pend.rotation) placeAt(pend.x, pend.y, next.rotation);
  }

  // the player's choice of a piece (or none); `byHint` when a hint being tried takes its next step
  function choose(move, byHint = false) {
    const pend = s().pending;
    if (!pend || !pend.preview) return;
    if (pend.preview.decision && pend.preview.decision.special) {   // a special's question
      const moves = pend.moves.concat([canon(move)]);
      const request = intent("preview", { moves });
      if (request === null) store.dispatch({ type: "undo" });
      else store.dispatch({ type: "moves", moves, request });
    } else {
      store.dispatch({ type: "choose", move });
      if (!byHint && move.kind === "pass") confirmAtOnce();
    }
  }

  // with the setting on: a placement that leaves no piece to choose, or "no piece" chosen, is
  // confirmed without pressing Confirm
  function confirmAtOnce() {
    const st = s();
    const pend = st.pending;
    if (!autoConfirm() || !pend || !pend.preview || !canConfirm(st)) return;
    const pv = pend.preview;
    const pieces = (pv.legal || []).filter((m) => canon(m) && m.kind !== "pass");
    if (pv.turn_over || !pieces.length || (pend.choice && pend.choice.kind === "pass")) confirmTurn();
  }

  // after a hint was tried: take its next step (shaman take-back, then the occupant) when offered
  function followSuggestion() {
    const pend = s().pending;
    if (!pend || !pend.preview || !pend.suggest || !pend.suggest.length) return;
    const m = pend.suggest[0];
    if (!(pend.preview.legal || []).some((l) => sameMove(l, m))) {
      store.dispatch({ type: "suggest", moves: null });
      return;
    }
    store.dispatch({ type: "suggest", moves: pend.suggest.slice(1) });
    choose(m, true);
  }

  function undo() {
    if (s().pending) store.dispatch({ type: "undo" });
  }

  // take this page's last whole turn back (against bots alone): the server answers with a snapshot
  function undoTurn() {
    const st = s();
    if (!canUndoTurn(st)) return;
    requests += 1;
    send({ type: "undo", seat: heldSeats(st)[0], version: st.view.version, request: requests });
  }

  function confirmTurn() {
    const st = s();
    if (!canConfirm(st)) return;
    const pend = st.pending;
    let moves = pend.moves;
    if (!pend.preview.turn_over) moves = moves.concat([pend.choice || { kind: "pass" }]);
    store.dispatch({ type: "sent", request: intent("turn", { moves }) });
  }

  function requestHint() {
    const st = s();
    if (!myTurn(st) || isRated(st) || (st.pending && !st.pending.preview)) return;
    if (st.pending && st.pending.preview.turn_over) return;
    if (currentHints(st)) return;   // already asked for this very moment of the turn
    const key = hintKey(st);
    const request = intent("hint", { moves: st.pending ? st.pending.moves : [] });
    if (request !== null) store.dispatch({ type: "ask-hint", key, request });
  }

  function tryHint(turn) {
    const st = s();
    if (!myTurn(st) || !turn.moves || !turn.moves.length) return;
    const first = turn.moves[0];
    if (first.kind === "place" && !st.pending) {
      placeAt(first.x, first.y, first.rotation, turn.moves.slice(1));
    } else if (st.pending && st.pending.preview) {
      // a hint asked after the placement: its moves are the rest of the turn
      store.dispatch({ type: "suggest", moves: turn.moves.slice() });
      followSuggestion();
    }
  }

  // the creator hands a seat's link out: this page stops playing it, and a new socket says so
  function handOut(seat) {
    updateEntry(s().gameId, (e) => { if (!e.handed.includes(seat)) e.handed.push(seat); });
    store.dispatch({ type: "hand-out", seat });
    reconnect();
  }

  // ---------------------------------------------------------------- replays

  async function fetchAt(id, n) {
    const v = await api(`/api/games/${encodeURIComponent(id)}/at/${n}`);
    await loadTiles(v.edition);
    return v;
  }

  // the names of the seats, for a replay (no socket, so no `table`)
  async function loadReplayNames(id) {
    try {
      const data = await api(`/api/games?ids=${encodeURIComponent(id)}`);
      const g = (data.games || []).find((x) => x.id === id);
      if (!g || s().gameId !== id || s().mode !== "replay") return;
      store.dispatch({ type: "table", table: { seats: g.players.map((p) => ({ seat: p.seat, kind: p.kind,
        level: p.level, name: p.name, joined: null, online: null })), watchers: null } });
    } catch (e) { /* names are a nicety */ }
  }

  async function showReplay(id, n, prefetched) {
    try {
      const v = prefetched || await fetchAt(id, n);
      if (s().mode !== "replay" || s().gameId !== id) return;
      store.dispatch({ type: "replay", view: v });
      showError("");
      if (!s().table) loadReplayNames(id);
    } catch (e) {
      showError(e.message);
    }
  }

  async function openReplay(id, n) {
    leave();
    store.dispatch({ type: "open", gameId: id, mode: "replay" });
    chat.open(id, "replay");
    chat.loadReplay(id);
    $("#replay-controls").hidden = false;
    await showReplay(id, n);
  }

  async function doReplayStep(step) {
    const st = s();
    if (!st.replay || !st.view) return;
    const id = st.gameId;
    const { version: cur, total } = st.replay;
    let n;
    let v = null;
    if (step >= 1e9) n = total;
    else if (step <= -1e9) n = 0;
    else {
      // stop where a player is to move (or at either end), stepping over the draws
      const dir = step > 0 ? 1 : -1;
      n = cur + dir;
      while (n > 0 && n < total) {
        v = await fetchAt(id, n);
        if (!v.decision || v.decision.phase !== "draw") break;
        v = null;
        n += dir;
      }
      n = Math.max(0, Math.min(total, n));
    }
    // the page may have left the replay while the step was loading: then the address is not ours
    // to change (replacing it before the hashchange event fires would route back to the replay)
    if (n === cur || !s().replay || s().gameId !== id || !location.hash.startsWith(`#/replay/${id}/`)) return;
    history.replaceState(null, "", `#/replay/${id}/${n}`);
    await showReplay(id, n, v);
  }

  // to the position after the first n moves: in this game's replay at once, else by opening it
  function replayTo(id, n) {
    if (s().mode === "replay" && s().gameId === id) {
      replaySteps = replaySteps.then(async () => {
        if (s().mode !== "replay" || s().gameId !== id) return;
        history.replaceState(null, "", `#/replay/${encodeURIComponent(id)}/${n}`);
        await showReplay(id, n);
      }).catch((e) => showError(e.message));
    } else {
      location.hash = `#/replay/${encodeURIComponent(id)}/${n}`;
    }
  }

  function replayStep(step) {
    replaySteps = replaySteps.then(() => doReplayStep(step)).catch((e) => showError(e.message));
  }

  $("#replay-start").onclick = () => replayStep(-1e9);
  $("#replay-back").onclick = () => replayStep(-1);
  $("#replay-fwd").onclick = () => replayStep(1);
  $("#replay-end").onclick = () => replayStep(1e9);

  return {
    open, openReplay, leave, send, replayStep, replayTo, handOut,
    rotate, cycleSpot, placeAt, turnPending, choose, undo, undoTurn, confirmTurn, requestHint, tryHint,
    legalPlacements: () => legalPlacements(s()),
  };
}
