// a11y.js: the board's cells and the game's news in words, for screen readers.
import { read } from "./english.mjs";
import { useCatalogue } from "../../src/huntgather/web/js/i18n.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, reduce } from "../../src/huntgather/web/js/game.js";
import { boardCells, cellLabel, eventWords, placeWords } from "../../src/huntgather/web/js/a11y.js";

const META = { colours: [{ name: "yellow", rgb: "#fc0", letter: "Y" }, { name: "red", rgb: "#c00", letter: "R" }] };

// two tiles of a made-up edition: the start tile (a meadow and a river) and tile 7 (a forest)
const zone = (kind, words) => ({ kind, text: kind, phrases: words });
const TILES = {
  defs: "",
  tiles: {
    1: { kind: "start", text: "meadow · river", zones: {
      0: zone("meadow", ["the meadow to the north", "the meadow to the east", "the meadow to the south", "the meadow to the west"]),
      1: zone("river", ["the river to the south (1 fish)", "the river to the west (1 fish)", "the river to the north (1 fish)",
        "the river to the east (1 fish)"]) } },
    7: { kind: "normal", text: "forest (1 menhir)", zones: {
      0: zone("forest", ["the forest all round (1 menhir)", "the forest all round (1 menhir)",
        "the forest all round (1 menhir)", "the forest all round (1 menhir)"]) } },
    9: { kind: "bonus", text: "lake", zones: { 0: zone("lake", ["the lake", "the lake", "the lake", "the lake"]) } },
  },
};

// seat 0 (Ann, this page's) to place tile 7; red's hunter on the start tile, which red placed
function playing(over = {}) {
  let s = reduce(initialState(), { type: "meta", meta: META });
  s = reduce(s, { type: "tiles", edition: "x", tiles: TILES });
  s = reduce(s, { type: "open", gameId: "g1", mode: "play" });
  s = reduce(s, { type: "welcome", seats: [0], creator: true });
  s = reduce(s, { type: "table", table: { seats: [{ seat: 0, kind: "human", name: "Ann" }, { seat: 1, kind: "bot", level: "easy" }] } });
  return reduce(s, { type: "snapshot", view: {
    edition: "x", version: 3, bonus_name: "menhir tile", players: [{ seat: 0, score: 0 }, { seat: 1, score: 4 }],
    board: [{ tile: 1, x: 0, y: 0, rotation: 1 }],
    log: [{ kind: "TilePlaced", player: 1, tile: 1, x: 0, y: 0, rotation: 1 }],
    occupants: [{ player: 1, tile: 1, zone: 0, piece: "meeple", role: "hunter", stuck: false }],
    last: [{ tile: 1, x: 0, y: 0, player: 1 }],
    decision: { player: 0, phase: "place", tile: 7, text: "Ann places a tile" },
    legal: [
      { kind: "place", x: 1, y: 0, rotation: 0 }, { kind: "place", x: 1, y: 0, rotation: 2 },
      { kind: "place", x: 0, y: -1, rotation: 1 },
    ],
    ...over,
  } });
}

test("a square in words, from the start tile", () => {
  assert.equal(placeWords(0, 0), "the start square");
  assert.equal(placeWords(2, 0), "2 east of the start");
  assert.equal(placeWords(-1, -3), "1 west and 3 north of the start");
  assert.equal(placeWords(0, 1), "1 south of the start");
});

test("the cells: every tile, and on my turn every square where the tile fits, row by row", () => {
  const s = playing();
  assert.deepEqual(boardCells(s).map((c) => [c.x, c.y, c.kind, c.rotations || null]),
    [[0, -1, "legal", [1]], [0, 0, "tile", null], [1, 0, "legal", [0, 2]]]);
  // not my turn: the tiles only
  const theirs = playing({ decision: { player: 1, phase: "place", tile: 7 } });
  assert.deepEqual(boardCells(theirs).map((c) => c.kind), ["tile"]);
});

test("a tile's cell names the tile, its turn, its zones as they lie, the pieces and who placed it", () => {
  const s = playing();
  const [, start] = boardCells(s);
  assert.equal(cellLabel(s, TILES, start),
    "Start tile 1, the start square, turned a quarter clockwise: the meadow to the east; the river to the west (1 fish). "
    + "red: hunter on the meadow to the east. Placed by red. Last move.");
});

test("a tile's cell says what its features would score if the game ended now (the live projection)", () => {
  const s = playing();
  s.view = { ...s.view, projection: { scores: [0, 3], rows: [
    { kind: "hunters", points: [0, 3], explanation: "Meadow of 1 tile: 1 mammoth ×3 = 3 → red (1 hunter)", tiles: [1] },
    { kind: "huts", points: [2, 0], explanation: "River system of 2 tiles = 2 → yellow (1 hut)", tiles: [5, 6] }] } };
  const [, start] = boardCells(s);
  assert.ok(cellLabel(s, TILES, start).endsWith(
    "Last move. If the game ended now: Meadow of 1 tile: 1 mammoth ×3 = 3 → red (1 hunter)."), cellLabel(s, TILES, start));
});

test("an empty square's cell says in how many rotations the tile fits, and whether as turned now", () => {
  const s = playing();
  const cells = boardCells(s);
  assert.equal(cellLabel(s, TILES, cells[2]), "Empty square, 1 east of the start: your tile fits here in 2 rotations "
    + "(not turned, turned half round); it fits as turned now, Enter places it.");
  assert.equal(cellLabel(s, TILES, cells[0]), "Empty square, 1 north of the start: your tile fits here in 1 rotation "
    + "(turned a quarter clockwise); not as turned now, Enter places it turned to fit.");
});

test("an update's news in one announcement: the placement, the piece, the points; draws unsaid", () => {
  let s = playing();
  s = reduce(s, { type: "update", update: { from: 3, version: 4,
    placed: [{ tile: 9, x: 1, y: 0, rotation: 2 }], last: [{ tile: 9, x: 1, y: 0, player: 0 }],
    occupants: [{ player: 0, tile: 9, zone: 0, piece: "hut", role: "hut", stuck: false }],
    events: [
      { kind: "TilePlaced", player: 0, tile: 9, x: 1, y: 0, rotation: 2, bonus: true },
      { kind: "OccupantPlaced", player: 0, tile: 9, zone: 0, piece: "hut", role: "hut" },
      { kind: "FeatureScored", text: "River of 2 tiles = 2 → yellow", points: [2, 0], tiles: [1, 9] },
      { kind: "TileDrawn", tile: 7 },
      { kind: "BonusTurn", text: "yellow takes a menhir tile turn" },
    ] } });
  assert.equal(eventWords(s, TILES, s.change.scored),
    "Ann (yellow) placed a menhir tile, tile 9, 1 east of the start, turned half round: lake. "
    + "Ann (yellow) put a hut on the lake. Scored: River of 2 tiles = 2 → yellow. Ann (yellow) scores 2 points. "
    + "Yellow takes a menhir tile turn.");
  // the bonus tile's cell, in the edition's word
  const bonus = boardCells(s).find((c) => c.tile === 9);
  assert.equal(cellLabel(s, TILES, bonus), "Menhir tile 9, 1 east of the start, turned half round: the lake. "
    + "Ann (yellow): hut on the lake. Placed by Ann (yellow). Last move.");
  assert.equal(eventWords(s, TILES, [{ kind: "TileDrawn", tile: 3 }]), "");
});

test("the end of the game: the winner and the scores", () => {
  const s = playing({ over: true, players: [{ seat: 0, score: 12 }, { seat: 1, score: 9 }],
    final: { winners: [0], scores: [12, 9], rows: [] } });
  assert.equal(eventWords(s, TILES, [{ kind: "GameOver", text: "game over" }]),
    "Game over. Winner: Ann (yellow). Scores: Ann (yellow) 12, red 9.");
});

test("in Czech: the squares, the news and the end in the catalogue's words, no English", () => {
  useCatalogue("cs", read("cs"), read("en"));
  try {
    assert.equal(placeWords(-1, -3), "1 na západ a 3 na sever od startu");
    const over = playing({ over: true, players: [{ seat: 0, score: 12 }, { seat: 1, score: 9 }],
      final: { winners: [0], scores: [12, 9], rows: [] } });
    assert.equal(eventWords(over, TILES, [{ kind: "GameOver", text: "game over" }]),
      "Konec hry. Vítěz: Ann (žlutý). Body: Ann (žlutý) 12, červený 9.");
    const sum = { key: "say.sum", params: { total: 2, terms: [{ key: "say.tiles_times", params: { n: 2, per: 1 } }] } };
    const who = { key: "say.who_scores", params: { others: [], lead: [{ key: "say.holder",
      params: { seat: { key: "seat", params: { seat: 0 } }, pieces: { key: "say.pieces.fisher", params: { n: 1 } } } }] } };
    assert.equal(eventWords(over, TILES, [{ kind: "FeatureScored", feature: "river", text: "River of 2 tiles: 2 tiles ×1 = 2",
      say: { key: "say.scored.river", params: { n: 2, sum, who } }, points: [2, 0], tiles: [1, 9] }]),
    "Vyhodnoceno: Řeka ze 2 kartiček: 2 kartičky ×1 = 2 → Ann (žlutý) (1 rybář). Ann (žlutý) získává 2 body.");
  } finally {
    useCatalogue("en", read("en"));
  }
});
