// huntgather browser client: native ES modules, no build step, nothing fetched from elsewhere.
// It speaks the online protocol of docs/protocol.md: the server owns the game; this page
// sends intents (preview / turn / hint / name / seat) for the seats whose secrets it holds,
// and draws the snapshots and updates it receives.  Moves are structured JSON objects,
// never strings: the page sends back the very objects the server offered.
//
// This file starts the page and routes between its screens; docs/play.md ("Client
// architecture") says what each module under js/ does.

import { $, api, showStatus } from "./js/dom.js";
import { createStore } from "./js/store.js";
import { initialState, reduce } from "./js/game.js";
import { createBoard } from "./js/board.js";
import { createA11y } from "./js/a11y.js";
import { createPanel } from "./js/panel.js";
import { createLobby } from "./js/lobby.js";
import { createPlay } from "./js/play.js";
import { createReview } from "./js/review.js";
import { setupKeys } from "./js/keys.js";
import { setupSettings, tileStyle } from "./js/settings.js";
import { setupSounds } from "./js/sounds.js";
import { setupRules, showLetters, showRules, showTileSheet } from "./js/rules.js";
import { setupNewForm, showNewForm } from "./js/newgame.js";
import { setupPuzzles, showPuzzle } from "./js/puzzle.js";
import { showGames } from "./js/games.js";
import { createWaitBanner, setupFind, showFind } from "./js/findgame.js";
import { setupAccounts } from "./js/account.js";
import { showLeaderboard, showProfile, watchRatedEnd } from "./js/profile.js";
import { ID_RE, STORE_KEY, takeInvite } from "./js/storage.js";
import { load as loadLanguage, t } from "./js/i18n.js";
import { createTutorial, setupLearn } from "./js/tutorial.js";

function show(screen) {
  for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== `screen-${screen}`;
}

async function main() {
  await loadLanguage();
  const store = createStore(reduce, initialState());
  store.dispatch({ type: "meta", meta: await api("/api/editions") });
  showLetters(store.get().meta);

  // the tiles of an edition in a style, asked for once
  const fetched = new Map();
  function fetchTiles(edition, style) {
    const key = `${style}/${edition}`;
    if (!fetched.has(key)) {
      fetched.set(key, api(`/api/tiles/${encodeURIComponent(edition)}?style=${style}`)
        .catch((e) => { fetched.delete(key); throw e; }));
    }
    return fetched.get(key);
  }
  // the tiles of an edition in the chosen style, into the store (the board draws from there)
  async function loadTiles(edition) {
    const style = tileStyle();
    const tiles = await fetchTiles(edition, style);
    if (store.get().tiles[edition] !== tiles && style === tileStyle()) {
      store.dispatch({ type: "tiles", edition, tiles });
    }
    return store.get().tiles[edition];
  }
  // the other style was chosen: every edition the page holds again, in that style
  async function restyle() {
    try {
      await Promise.all(Object.keys(store.get().tiles).map((edition) => loadTiles(edition)));
    } catch (e) {
      showStatus(t("page.tiles_failed", { detail: e.message }));
    }
  }

  const play = createPlay(store, loadTiles);
  const board = createBoard(store, play);
  const a11y = createA11y(store, board);
  const panel = createPanel(store, play, board);
  const lobby = createLobby(store, play);
  const waitBanner = createWaitBanner(store, play);
  const review = createReview(store, play);
  const tutorial = createTutorial(store);
  store.subscribe((state, action) => {
    lobby.render(state);
    waitBanner.render(state);
    review.render(state);
    board.render(state, action);
    a11y.render(state);
    panel.render(state);
    tutorial.render(state, action);   // after the board and the panel: it marks their squares and choices
  });

  async function route() {
    const parts = location.hash.replace(/^#\/?/, "").split("/").map((p) => decodeURIComponent(p));
    play.leave();
    document.title = t("page.title");
    showStatus("");
    const id = parts[1];
    const validId = id && ID_RE.test(id);
    const meta = store.get().meta;
    if ((parts[0] === "play" || parts[0] === "game") && validId) {
      if (parts[0] === "play" && parts[2]) takeInvite(id, parts[2]);
      if (parts[0] === "game" || parts[2]) history.replaceState(null, "", `#/play/${id}`);
      show("play");
      play.open(id, "play");
    } else if (parts[0] === "watch" && validId) {
      show("play");
      play.open(id, "watch");
    } else if (parts[0] === "replay" && validId) {
      show("play");
      await play.openReplay(id, parts[2] ? parseInt(parts[2], 10) || 0 : 0);
    } else if (parts[0] === "find") {
      show("find");
      await showFind(meta, accounts.me());
    } else if (parts[0] === "games") {
      show("games");
      await showGames(meta, accounts);
    } else if (parts[0] === "me") {
      show("me");
      await accounts.showMe();
    } else if (parts[0] === "player" && parts[1]) {
      show("player");
      await showProfile(parts[1]);
    } else if (parts[0] === "leaderboard") {
      show("leaderboard");
      await showLeaderboard(meta, parts[1], parts[2]);
    } else if (parts[0] === "tiles") {
      show("tiles");
      await showTileSheet(meta.editions.map((e) => e.name), fetchTiles);
    } else if (parts[0] === "learn") {
      show("learn");
    } else if (parts[0] === "puzzles") {
      show("puzzles");
      await showPuzzle(meta, fetchTiles, parts[1] || "2020", parts[2] ? parseInt(parts[2], 10) || null : null);
    } else if (parts[0] === "help") {
      show("help");
      await showRules();
    } else {
      show("new");
      showNewForm(accounts.me());
      showNewForm(await accounts.refresh());   // signed out elsewhere meanwhile: no Rated box
    }
  }

  // signed in or out (or the account deleted): the header says so, and the screen is drawn again
  // (a game's socket opens again, so that the seats of the account are held, or no longer)
  const accounts = setupAccounts(() => route());
  watchRatedEnd(store, accounts);

  setupNewForm(store.get().meta);
  setupLearn();
  setupFind();
  setupKeys(store, play, board, a11y);
  setupSettings(() => panel.render(store.get()), restyle);
  setupSounds(store);
  setupRules();
  setupPuzzles();
  window.addEventListener("hashchange", () => { route(); });
  // another tab of this browser changed the saved games (a seat handed out there, a game deleted)
  window.addEventListener("storage", (ev) => {
    if (ev.key === STORE_KEY && !$("#screen-games").hidden) showGames(store.get().meta, accounts);
  });
  await accounts.refresh();
  document.body.dataset.ready = "1";
  await route();
}

main().catch((e) => {
  const p = document.createElement("p");
  p.className = "error";
  p.textContent = t("page.start_failed", { detail: e.message });
  document.body.prepend(p);
});
