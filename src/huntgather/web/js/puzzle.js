// The Puzzles screen (docs/learn.md, "Puzzles"): a position mined from expert games whose best
// turn stands out, drawn on a board of its own (the server's tile pictures and pieces.js's
// pieces, as the game board draws them).  The player picks a square, turns the tile among the
// ways it fits there, picks a piece (or none) and checks the answer with the server (POST
// /api/puzzles/{edition}/{n}/answer): right, the explanation in scoring words; wrong, how many
// points it gives up, then try again or see the solution (GET …/{n}/solution).  Hints: first
// the area to look at (sent with the puzzle), then the feature (GET …/{n}/hint/2).  The puzzle
// never carries its answer.  The puzzle of the day is the server's (GET
// /api/puzzles/{edition}/today); a puzzle by number is GET /api/puzzles/{edition}/{n}.  The
// difficulty filter and "a harder one" read the edition's list (GET /api/puzzles/{edition}).
// What this browser solved, and its streak, are kept in localStorage (STATS_KEY).
//
//   showPuzzle(meta, fetchTiles, edition, number)   // number null: the puzzle of the day

import { $, api, el, svgEl } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { parsePiece, parsePlace } from "./notation.js";
import { pieceSvg } from "./pieces.js";
import { colourName, kindName, roleName } from "./terms.js";

const EDITIONS = ["2020", "2002"];
const DIFFICULTIES = ["easy", "medium", "hard"];
export const STATS_KEY = "hg-puzzles";
const FILTER_KEY = "hg-puzzle-filter";
// the puzzles solved remembered, at most (the count goes on past it)
const MAX_SOLVED = 2000;

// {puzzle, ts, meta, pick: {x, y, rotation} | null, piece, hints, done, failed, solution (the
// server's, once known), reveal (the solution is shown on the board), tried (the first check
// is counted in the stats), busy (a request is out)}
let current = null;
let asked = 0;        // the latest request: only its answer is shown
const indexes = {};   // edition -> GET /api/puzzles/{edition} (difficulty, players of each)

// a seat's colour, a feature's kind (a zone's kind, or a special that scores) and a piece's role in
// the page's words (terms.js: the catalogues' game terms, one place for the whole page)
const COLOUR_OF_SEAT = ["yellow", "red", "green", "blue", "violet"];
const colourWord = (seat) => (COLOUR_OF_SEAT[seat] ? colourName(COLOUR_OF_SEAT[seat]) : String(seat + 1));
export const kindWord = (kind) => (kind ? kindName(kind) : t("puzzle.kind.feature"));
export const roleWord = (role) => roleName(role || "hut");

// the kind of zone a piece of a fact or a choice stands on
function zoneKind(ts, tile, zone) {
  const z = ts && ts.tiles[tile] && ts.tiles[tile].zones[zone];
  return z ? z.kind : "";
}

const points = (v) => Math.round(Math.abs(v) * 10) / 10;

// what this browser solved: {solved: ["2020/5", ...], count, streak, best}; a puzzle is solved
// when its first check is right (hints allowed); the streak counts the puzzles solved in a
// row, and a first check that is wrong ends it (the solution is offered only after one); a
// puzzle solved before counts for nothing when solved again
export function loadStats() {
  let v = null;
  try { v = JSON.parse(localStorage.getItem(STATS_KEY)); } catch (e) { v = null; }
  const ok = (n) => Number.isInteger(n) && n >= 0;
  const out = { solved: [], count: 0, streak: 0, best: 0 };
  if (v && typeof v === "object") {
    if (Array.isArray(v.solved)) out.solved = v.solved.filter((k) => typeof k === "string").slice(-MAX_SOLVED);
    for (const k of ["count", "streak", "best"]) if (ok(v[k])) out[k] = v[k];
  }
  out.count = Math.max(out.count, out.solved.length);
  return out;
}

function saveStats(stats) {
  try { localStorage.setItem(STATS_KEY, JSON.stringify(stats)); } catch (e) { /* storage full or disabled */ }
}

// record the first check of puzzle `key` ("2020/5"): right or not
export function recordTry(stats, key, right) {
  if (right) {
    if (stats.solved.includes(key)) return stats;   // (solved again: it counts for nothing)
    stats.solved.push(key);
    if (stats.solved.length > MAX_SOLVED) stats.solved.shift();
    stats.count += 1;
    stats.streak += 1;
    stats.best = Math.max(stats.best, stats.streak);
  } else {
    stats.streak = 0;
  }
  return stats;
}

function showStats() {
  const stats = loadStats();
  const box = $("#puzzle-stats");
  box.textContent = t("puzzle.stats", { solved: stats.count, streak: stats.streak, best: stats.best });
  const key = current && `${current.puzzle.edition}/${current.puzzle.number}`;
  box.dataset.solved = String(Boolean(key && stats.solved.includes(key)));
}

function firstTry(right) {
  if (current.tried) return;
  current.tried = true;
  saveStats(recordTry(loadStats(), `${current.puzzle.edition}/${current.puzzle.number}`, right));
  showStats();
}

// the facts of a turn (facts_best / facts_runner_up) in scoring words, one sentence each
export function factSentences(puzzle, facts, ts) {
  const out = [];
  for (const f of facts) {
    if (f.fact === "scores") {
      f.points.forEach((n, seat) => {
        if (n <= 0) return;
        out.push(seat === puzzle.player
          ? t("puzzle.fact.scores_you", { kind: kindWord(f.kind), n })
          : t("puzzle.fact.scores_other", { kind: kindWord(f.kind), n, colour: colourWord(seat) }));
      });
    } else if (f.fact === "occupies") {
      out.push(t("puzzle.fact.occupies", { role: roleWord(f.role), kind: kindWord(zoneKind(ts, f.tile, f.zone)) }));
    } else if (f.fact === "bonus") {
      out.push(String(puzzle.edition) === "2020" ? t("puzzle.fact.menhir") : t("puzzle.fact.bonus"));
    }
  }
  if (!out.length) out.push(t("puzzle.fact.nothing_now"));
  // (a sentence that begins with a game term begins with a capital)
  return out.map((text) => text.charAt(0).toLocaleUpperCase() + text.slice(1));
}

// the expert's margins in words: where the best turn leaves the player, and the runner-up
export function marginSentence(solution) {
  const gap = points(solution.margin_best - solution.margin_runner_up);
  return t("puzzle.margin", { n: gap, best: signed(solution.margin_best), runner: signed(solution.margin_runner_up) });
}

function signed(v) {
  const n = Math.round(v * 10) / 10;
  return n > 0 ? `+${n}` : String(n);
}

// the turn the player has put together: [placement, piece] as move texts
function chosenTurn() {
  const p = current.pick;
  if (!p) return null;
  const turn = current.puzzle.turns.find((x) => x.x === p.x && x.y === p.y && x.rotation === p.rotation);
  if (!turn) return null;
  const moves = [turn.place];
  if (turn.pieces.length) {
    if (!current.piece) return null;
    moves.push(current.piece);
  }
  return moves;
}


function squaresOf(puzzle) {
  const seen = new Map();
  for (const turn of puzzle.turns) seen.set(`${turn.x},${turn.y}`, { x: turn.x, y: turn.y });
  return [...seen.values()];
}

function rotationsAt(x, y) {
  return current.puzzle.turns.filter((turn) => turn.x === x && turn.y === y).map((turn) => turn.rotation);
}

function drawBoard() {
  const { puzzle, ts, meta } = current;
  const svg = $("#puzzle-board");
  svg.innerHTML = "";
  const defs = svgEl("defs");
  defs.innerHTML = ts.defs;   // server-made, no user text
  svg.append(defs);
  const cells = [...puzzle.board, ...squaresOf(puzzle)];
  const xs = cells.map((c) => c.x);
  const ys = cells.map((c) => c.y);
  const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
  svg.setAttribute("viewBox", `${x0 * 100 - 10} ${y0 * 100 - 10} ${(x1 - x0 + 1) * 100 + 20} ${(y1 - y0 + 1) * 100 + 20}`);
  const where = {};
  for (const c of puzzle.board) {
    const g = svgEl("g", { transform: `translate(${c.x * 100} ${c.y * 100})`, class: "puzzle-tile" });
    g.innerHTML = ts.tiles[c.tile].svg[c.rotation];   // server-made SVG of the tile, no user text
    svg.append(g);
    where[c.tile] = c;
  }
  const pieces = [];
  for (const o of puzzle.occupants) {
    const c = where[o.tile];
    const a = c && ts.tiles[o.tile].anchors[c.rotation][o.zone];
    if (a) pieces.push(pieceSvg(meta, o.player, o.piece, c.x * 100 + a[0], c.y * 100 + a[1], o.role, `${colourWord(o.player)}: ${roleWord(o.role)}`));
  }
  // the square picked, with the tile in hand on it (and the piece picked)
  const shown = current.reveal ? solutionPick() : current.pick;
  for (const sq of squaresOf(puzzle)) {
    const picked = shown && shown.x === sq.x && shown.y === sq.y;
    const r = svgEl("rect", { x: sq.x * 100 + 4, y: sq.y * 100 + 4, width: 92, height: 92, rx: 6,
      class: picked ? "puzzle-square picked" : "puzzle-square", "data-x": sq.x, "data-y": sq.y,
      tabindex: 0, role: "button", "aria-label": t("puzzle.square", { x: sq.x, y: sq.y }) });
    r.addEventListener("click", () => pickSquare(sq.x, sq.y));
    r.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pickSquare(sq.x, sq.y); } });
    svg.append(r);
  }
  if (shown) {
    const g = svgEl("g", { transform: `translate(${shown.x * 100} ${shown.y * 100})`, class: "puzzle-tile in-hand" });
    g.innerHTML = ts.tiles[puzzle.tile].svg[shown.rotation];   // server-made
    g.addEventListener("click", () => pickSquare(shown.x, shown.y));
    svg.append(g);
    const piece = parsePiece(current.reveal ? current.solution.best[1] : current.piece);
    if (piece) {
      const a = ts.tiles[puzzle.tile].anchors[shown.rotation][piece.zone];
      const role = piece.piece === "hut" ? "hut" : ts.tiles[puzzle.tile].zones[piece.zone].role;
      if (a) pieces.push(pieceSvg(meta, puzzle.player, piece.piece, shown.x * 100 + a[0], shown.y * 100 + a[1], role, roleWord(role)));
    }
  }
  if (shown) {
    // the square picked, framed over the tile put on it; the spots where a piece may go, numbered
    // as in the list of pieces (a tap on one picks it)
    svg.append(svgEl("rect", { class: "puzzle-frame", x: shown.x * 100 + 2, y: shown.y * 100 + 2, width: 96, height: 96, rx: 4 }));
    if (!current.done) {
      choicesOf(shown).forEach((choice, i) => {
        const a = choice.move !== "-" && ts.tiles[puzzle.tile].anchors[shown.rotation][choice.zone];
        if (!a || choice.move === current.piece) return;
        const spot = svgEl("g", { class: "puzzle-spot", "data-move": choice.move });
        spot.append(svgEl("circle", { cx: shown.x * 100 + a[0], cy: shown.y * 100 + a[1], r: 8 }));
        const label = svgEl("text", { x: shown.x * 100 + a[0], y: shown.y * 100 + a[1] + 3.5 });
        label.textContent = String(i + 1);
        spot.append(label);
        spot.addEventListener("click", (ev) => { ev.stopPropagation(); current.piece = choice.move; render(); });
        svg.append(spot);
      });
    }
  }
  for (const p of pieces) svg.append(p);
  if (current.hints >= 1 && !current.reveal) {
    // (the part of the area on the board drawn: it may reach past the board's edge)
    const ax0 = Math.max(puzzle.area.x0, x0), ax1 = Math.min(puzzle.area.x1, x1);
    const ay0 = Math.max(puzzle.area.y0, y0), ay1 = Math.min(puzzle.area.y1, y1);
    svg.append(svgEl("rect", { class: "puzzle-area", x: ax0 * 100 - 4, y: ay0 * 100 - 4,
      width: (ax1 - ax0 + 1) * 100 + 8, height: (ay1 - ay0 + 1) * 100 + 8, rx: 14 }));
  }
}

// the pieces that may follow the placement `p` ({x, y, rotation}), as the server lists them
function choicesOf(p) {
  const turn = current.puzzle.turns.find((x) => x.x === p.x && x.y === p.y && x.rotation === p.rotation);
  return turn ? turn.pieces : [];
}

function solutionPick() {
  const best = parsePlace(current.solution.best[0]);
  return { x: best.x, y: best.y, rotation: best.rotation };
}

function drawHand() {
  const { puzzle, ts } = current;
  const pic = $("#puzzle-hand");
  const rotation = current.pick ? current.pick.rotation : 0;
  pic.innerHTML = ts.defs + ts.tiles[puzzle.tile].svg[rotation];   // server-made
  $("#puzzle-turn").disabled = !current.pick || rotationsAt(current.pick.x, current.pick.y).length < 2 || current.done;
}

function drawPieces() {
  const box = $("#puzzle-pieces");
  box.innerHTML = "";
  const p = current.pick;
  const turn = p && current.puzzle.turns.find((x) => x.x === p.x && x.y === p.y && x.rotation === p.rotation);
  if (!turn) {
    box.append(el("p", { class: "muted" }, t("puzzle.pick_square")));
    return;
  }
  if (!turn.pieces.length) return;
  box.append(el("p", {}, t("puzzle.pick_piece")));
  turn.pieces.forEach((choice, i) => {
    const label = choice.move === "-" ? t("puzzle.no_piece")
      : `${i + 1}: ${t("puzzle.piece_on", { role: roleWord(choice.role), kind: kindWord(choice.kind) })}`;
    const input = el("input", { type: "radio", name: "puzzle-piece", value: choice.move });
    input.checked = current.piece === choice.move;
    input.disabled = current.done;
    input.onchange = () => { current.piece = choice.move; render(); };
    const row = el("label", { class: "puzzle-piece" });
    row.append(input, ` ${label}`);
    box.append(row);
  });
}

function render() {
  drawBoard();
  drawHand();
  drawPieces();
  const turn = chosenTurn();
  $("#puzzle-check").disabled = !turn || current.done || current.busy;
  $("#puzzle-hint").disabled = current.hints >= current.puzzle.hints || current.done || current.busy;
  $("#puzzle-solution").hidden = !current.failed || current.done;
  $("#puzzle-retry").hidden = !current.failed || current.done;
}

function pickSquare(x, y) {
  if (!current || current.done || current.busy) return;
  const rotations = rotationsAt(x, y);
  if (!rotations.length) return;
  const p = current.pick;
  const next = p && p.x === x && p.y === y
    ? rotations[(rotations.indexOf(p.rotation) + 1) % rotations.length] : rotations[0];
  if (!p || p.x !== x || p.y !== y || p.rotation !== next) current.piece = null;
  current.pick = { x, y, rotation: next };
  current.failed = false;
  $("#puzzle-result").textContent = "";
  render();
}

function explain(box, title) {
  const { puzzle, ts, solution } = current;
  box.innerHTML = "";
  box.append(el("h3", {}, title));
  const list = el("ul");
  for (const s of factSentences(puzzle, solution.facts_best, ts)) list.append(el("li", {}, s));
  box.append(list);
  box.append(el("p", {}, marginSentence(solution)));
  const runner = factSentences(puzzle, solution.facts_runner_up, ts);
  box.append(el("p", { class: "muted" }, `${t("puzzle.runner_up")} ${runner.join(" ")}`));
}

// a request of this puzzle's (only the answer of the puzzle still shown is used: null otherwise)
async function ask(path, options) {
  const mine = current;
  const n = asked;
  current.busy = true;
  render();
  try {
    const answer = await api(`/api/puzzles/${current.puzzle.edition}/${current.puzzle.number}/${path}`, options);
    return n === asked && mine === current ? answer : null;
  } catch (e) {
    if (n === asked && mine === current) $("#puzzle-error").textContent = e.code ? errorText(e.code) : t("puzzle.check_failed");
    return null;
  } finally {
    mine.busy = false;
    if (mine === current) render();
  }
}

async function check() {
  const moves = chosenTurn();
  if (!moves || current.done || current.busy) return;
  $("#puzzle-error").textContent = "";
  const answer = await ask("answer", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ turn: moves }) });
  if (!answer) return;
  const result = $("#puzzle-result");
  firstTry(answer.right);
  if (answer.right) {
    // (the turn picked stays on the board: it is the best, or the same turn for the game)
    current.done = true;
    current.solution = answer.solution;
    result.dataset.verdict = "right";
    result.textContent = t("puzzle.right");
    explain($("#puzzle-explanation"), t("puzzle.why"));
  } else {
    current.failed = true;
    result.dataset.verdict = "wrong";
    result.textContent = answer.runner_up ? t("puzzle.wrong_runner_up", { n: answer.loss })
      : t("puzzle.wrong", { n: answer.loss });
  }
  render();
}

async function hint() {
  if (!current || current.hints >= current.puzzle.hints || current.busy) return;
  const box = $("#puzzle-hints");
  if (current.hints === 0) {
    current.hints = 1;
    box.append(el("p", { class: "puzzle-hint-text" }, t("puzzle.hint_area")));
  } else {
    const h = await ask(`hint/${current.hints + 1}`);
    if (!h) return;
    current.hints = h.hint;
    const text = h.fact === "scores" ? t("puzzle.hint_scores", { kind: kindWord(h.kind) })
      : h.fact === "occupies" ? t("puzzle.hint_piece", { role: roleWord(h.role), kind: kindWord(h.kind) })
        : t("puzzle.hint_place");
    box.append(el("p", { class: "puzzle-hint-text" }, text));
  }
  render();
}

async function showSolution() {
  if (!current || current.busy) return;
  const solution = await ask("solution");
  if (!solution) return;
  // the answer's square, rotation and piece become the ones picked (the list shows its piece)
  current.solution = solution;
  current.reveal = true;
  current.pick = solutionPick();
  current.piece = solution.best[1] || null;
  current.done = true;
  const result = $("#puzzle-result");
  result.dataset.verdict = "solution";
  result.textContent = t("puzzle.solution_shown");
  explain($("#puzzle-explanation"), t("puzzle.why"));
  render();
}

function retry() {
  current.pick = null;
  current.piece = null;
  current.failed = false;
  $("#puzzle-result").textContent = "";
  delete $("#puzzle-result").dataset.verdict;
  render();
}

const difficultyWord = (d) => ({ easy: t("puzzle.easy"), medium: t("puzzle.medium"), hard: t("puzzle.hard") }[d] || "");

function heading(puzzle, daily) {
  const which = daily ? t("puzzle.of_the_day") : t("puzzle.title");
  return [which, t("puzzle.number", { n: puzzle.number, count: puzzle.count }), difficultyWord(puzzle.difficulty),
    t("puzzle.players", { n: puzzle.players })].join(" · ");
}

function savedFilter() {
  let v = null;
  try { v = localStorage.getItem(FILTER_KEY); } catch (e) { v = null; }
  return DIFFICULTIES.includes(v) ? v : "";
}

// the number of the next puzzle after `number` (round the edition) whose difficulty is one of
// `wanted` (every one when empty), or null
export function nextNumber(index, number, wanted) {
  for (let i = 1; i <= index.count; i += 1) {
    const n = (number - 1 + i) % index.count + 1;
    if (!wanted.length || wanted.includes(index.difficulty[n - 1])) return n;
  }
  return null;
}

async function indexOf(edition) {
  if (!indexes[edition]) indexes[edition] = api(`/api/puzzles/${encodeURIComponent(edition)}`);
  try { return await indexes[edition]; } catch (e) { delete indexes[edition]; return null; }
}

// the links to the next puzzle (of the difficulty chosen) and to a harder one
async function showLinks(puzzle) {
  const index = await indexOf(puzzle.edition);
  if (!current || current.puzzle !== puzzle) return;
  const filter = $("#puzzle-filter").value;
  const next = index ? nextNumber(index, puzzle.number, filter ? [filter] : []) : puzzle.number % puzzle.count + 1;
  $("#puzzle-next").href = `#/puzzles/${puzzle.edition}/${next || puzzle.number % puzzle.count + 1}`;
  const harder = DIFFICULTIES.slice(DIFFICULTIES.indexOf(puzzle.difficulty) + 1);
  const hard = index && harder.length ? nextNumber(index, puzzle.number, harder.slice(0, 1)) : null;
  const link = $("#puzzle-harder");
  link.hidden = !hard;
  if (hard) link.href = `#/puzzles/${puzzle.edition}/${hard}`;
}

// show a puzzle of `edition`: number `number`, or the puzzle of the day (null)
export async function showPuzzle(meta, fetchTiles, edition, number) {
  if (!EDITIONS.includes(edition)) edition = EDITIONS[0];
  const n = ++asked;
  for (const b of document.querySelectorAll("#puzzle-editions button")) {
    b.setAttribute("aria-pressed", String(b.dataset.edition === edition));
  }
  const status = $("#puzzle-error");
  status.textContent = "";
  let puzzle, ts;
  try {
    [puzzle, ts] = await Promise.all([
      api(`/api/puzzles/${encodeURIComponent(edition)}/${number ? encodeURIComponent(number) : "today"}`),
      fetchTiles(edition, "clean"),
    ]);
  } catch (e) {
    if (n === asked) status.textContent = e.code ? errorText(e.code) : t("puzzle.load_failed");
    return;
  }
  if (n !== asked) return;
  current = { puzzle, ts, meta, pick: null, piece: null, hints: 0, done: false, failed: false, solution: null,
    reveal: false, tried: false, busy: false };
  $("#screen-puzzles").dataset.puzzle = `${edition}/${puzzle.number}`;
  $("#puzzle-heading").textContent = heading(puzzle, !number);
  $("#puzzle-task").textContent = t("puzzle.task", { colour: colourWord(puzzle.player) });
  $("#puzzle-scores").textContent = puzzle.scores.map((s, i) => `${colourWord(i)} ${s}`).join(" · ");
  $("#puzzle-hints").innerHTML = "";
  $("#puzzle-explanation").innerHTML = "";
  $("#puzzle-result").textContent = "";
  delete $("#puzzle-result").dataset.verdict;
  $("#puzzle-next").href = `#/puzzles/${edition}/${puzzle.number % puzzle.count + 1}`;
  $("#puzzle-harder").hidden = true;
  $("#puzzle-filter").value = savedFilter();
  showStats();
  render();
  showLinks(puzzle);
}

export function setupPuzzles() {
  $("#puzzle-check").onclick = check;
  $("#puzzle-hint").onclick = hint;
  $("#puzzle-solution").onclick = showSolution;
  $("#puzzle-retry").onclick = retry;
  $("#puzzle-turn").onclick = () => { if (current && current.pick) pickSquare(current.pick.x, current.pick.y); };
  for (const b of document.querySelectorAll("#puzzle-editions button")) {
    b.onclick = () => { location.hash = `#/puzzles/${b.dataset.edition}`; };
  }
  // the difficulty chosen: the next puzzle is of it (the puzzle shown stays)
  $("#puzzle-filter").onchange = () => {
    const v = $("#puzzle-filter").value;
    try {
      if (v) localStorage.setItem(FILTER_KEY, v); else localStorage.removeItem(FILTER_KEY);
    } catch (e) { /* storage disabled: the choice lasts until another puzzle is shown */ }
    if (current) showLinks(current.puzzle);
  };
}
