// puzzle.js: the facts and margins in words; what this browser solved and its streak
// (localStorage); the next puzzle of a difficulty.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { useCatalogue } from "../../src/huntgather/web/js/i18n.js";
import {
  STATS_KEY, factSentences, loadStats, marginSentence, nextNumber, recordTry,
} from "../../src/huntgather/web/js/puzzle.js";

const catalogue = (lang) => JSON.parse(readFileSync(new URL(`../../src/huntgather/web/i18n/${lang}.json`, import.meta.url)));

const PUZZLE = {
  edition: "2002",
  player: 1,
  accepted: [["90@1,1r2", "m90.1"], ["90@1,1r2", "m90.3"]],
  runner_up: ["90@0,-1r2", "-"],
  margin_best: 3.9, margin_runner_up: -0.33,
  facts_best: [{ fact: "occupies", piece: "meeple", role: "gatherer", tile: 90, zone: 1 },
    { fact: "scores", kind: "forest", points: [2, 4], tiles: [26, 90] }, { fact: "bonus" }],
};
const TILES = { tiles: { 90: { zones: { 1: { kind: "forest" } } } } };

class FakeStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
}

test("the solved count and the streak: a first check right counts once, a wrong one ends the streak", () => {
  globalThis.localStorage = new FakeStorage();
  let stats = loadStats();
  assert.deepEqual(stats, { solved: [], count: 0, streak: 0, best: 0 });
  stats = recordTry(stats, "2020/5", true);
  stats = recordTry(stats, "2002/7", true);
  assert.deepEqual(stats, { solved: ["2020/5", "2002/7"], count: 2, streak: 2, best: 2 });
  stats = recordTry(stats, "2020/5", true);   // solved again: it counts for nothing
  assert.deepEqual([stats.count, stats.streak], [2, 2]);
  stats = recordTry(stats, "2020/8", true);
  stats = recordTry(stats, "2020/9", false);
  assert.deepEqual([stats.count, stats.streak, stats.best], [3, 0, 3]);
  // what the storage holds is read back; junk reads as nothing solved
  localStorage.setItem(STATS_KEY, JSON.stringify(stats));
  assert.deepEqual(loadStats(), stats);
  for (const junk of ["{not json", "[1]", JSON.stringify({ solved: [3, "2020/1"], count: -2, streak: "x" })]) {
    localStorage.setItem(STATS_KEY, junk);
    const read = loadStats();
    assert.ok(read.solved.every((k) => typeof k === "string") && read.count >= read.solved.length && read.streak === 0, junk);
  }
});

test("the next puzzle of a difficulty goes round the edition", () => {
  const index = { count: 5, difficulty: ["easy", "hard", "medium", "easy", "medium"] };
  assert.equal(nextNumber(index, 1, []), 2);
  assert.equal(nextNumber(index, 5, []), 1);
  assert.equal(nextNumber(index, 2, ["easy"]), 4);
  assert.equal(nextNumber(index, 4, ["easy"]), 1);
  assert.equal(nextNumber(index, 2, ["hard"]), 2);   // the only one: itself
  assert.equal(nextNumber({ count: 2, difficulty: ["easy", "easy"] }, 1, ["hard"]), null);
});

test("the facts in English: the piece, the points for each seat, the bonus turn; the margins", () => {
  const en = catalogue("en");
  useCatalogue("en", en);
  assert.deepEqual(factSentences(PUZZLE, PUZZLE.facts_best, TILES), [
    "Your gatherer takes the forest.", "The forest scores 2 points for yellow.",
    "The forest scores 4 points for you.", "It earns you a bonus tile turn."]);
  assert.deepEqual(factSentences({ ...PUZZLE, edition: "2020" }, [{ fact: "bonus" }], TILES),
    ["It earns you a menhir tile turn."]);   // the 2020 edition's bonus stack is of menhir tiles
  assert.deepEqual(factSentences(PUZZLE, [], TILES), ["It scores nothing at once: its worth is in what comes later."]);
  assert.equal(marginSentence(PUZZLE),
    "The expert's look-ahead ends +3.9 for you after this turn and -0.3 after the next best one: 4.2 points better.");
});

test("the facts in Czech take the plural forms: 1 bod, 2–4 body, 5+ bodů, fractions bodu", () => {
  useCatalogue("cs", catalogue("cs"), catalogue("en"));
  const points = (n) => factSentences({ ...PUZZLE, player: 0 }, [{ fact: "scores", kind: "river", points: [n, 0], tiles: [] }], TILES)[0];
  assert.equal(points(1), "Řeka: 1 bod pro tebe.");
  assert.equal(points(3), "Řeka: 3 body pro tebe.");
  assert.equal(points(7), "Řeka: 7 bodů pro tebe.");
  assert.match(marginSentence(PUZZLE), /o 4\.2 bodu lépe/);
});
