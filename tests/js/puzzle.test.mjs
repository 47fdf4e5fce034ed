// puzzle.js: the answer checked against the accepted turns, the facts and margins in words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { useCatalogue } from "../../src/huntgather/web/js/i18n.js";
import { factSentences, isAnswer, marginSentence } from "../../src/huntgather/web/js/puzzle.js";

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

test("a turn is right when it is one of the accepted turns, piece and all", () => {
  assert.ok(isAnswer(PUZZLE, ["90@1,1r2", "m90.3"]));
  assert.ok(!isAnswer(PUZZLE, ["90@1,1r2", "-"]));
  assert.ok(!isAnswer(PUZZLE, ["90@1,1r2"]));
  assert.ok(!isAnswer(PUZZLE, PUZZLE.runner_up));
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
